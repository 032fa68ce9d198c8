"""The public surface of a library as `qusema surface` lists it: every public class,
property, method, function and documented example the surface laws see on the release in
this environment, the laws that check each, how their inputs are built, and, for an entry no
law checks, why not.

Runs in the sandbox, beside the laws it describes (the library's `<library>_surface` contract
module): what it lists is exactly what an audit would check.
"""

import importlib

from surface_explorer import has_value_equality


def listing(library):
    module = importlib.import_module(f"contracts.{library}_surface")
    surface, calls = module.SURFACE, module.CALLS
    laws = {}
    for contract in module.CONTRACTS:
        for subject in contract.subjects():
            laws.setdefault(subject, []).append(contract.id.split(".", 1)[1])
    entries = []
    for cls, dotted in sorted(surface.classes.items(), key=lambda item: item[1]):
        recipes = surface.recipes_for(cls)
        inputs = ("documented example" if any(r.documented for r in recipes) else
                  "constructor" if recipes else "what a documented example builds" if surface.producers(cls) else None)
        why = None
        if dotted not in laws:
            constructor = calls.targets().get(dotted)
            why = (calls.fillable(dotted) if constructor is not None and calls.fillable(dotted) is not True
                   else calls.left_out.get(dotted) or
                   ("compares by identity: copies have nothing to equal" if not has_value_equality(cls, surface)
                    else "no documented example or constructor builds one"))
        entries.append(_entry(dotted, "class", laws.get(dotted, []), inputs, why))
    for subject, member in sorted(surface.members.items()):
        recipes = surface.recipes_for(member.owner)
        documented = any(r.documented for r in recipes)
        inputs = ("documented example" if documented else "constructor" if recipes else
                  "what a documented example builds" if surface.producers(member.owner) else None)
        why = None if subject in laws else (
            "a helper outside the documented namespaces" if not surface.is_documented(member.owner)
            else f"only a bare default-built {member.owner.__name__} (no documented example or configured "
            "constructor)" if recipes or inputs else f"nothing builds a {member.owner.__name__}")
        entries.append(_entry(subject, member.kind, laws.get(subject, []), inputs, why))
    classes = set(surface.classes.values())  # a constructor is listed as its class
    for subject, target in sorted(calls.targets().items()):
        if subject in classes:
            continue
        fillable = calls.fillable(subject)
        entries.append(_entry(subject, f"{target.kind} with arguments", laws.get(subject, []),
                              "typed arguments" if fillable is True else None,
                              None if subject in laws else (fillable if fillable is not True else "no law applies")))
    for subject, reason in sorted(calls.left_out.items()):
        if subject in classes:
            continue
        entries.append(_entry(subject, "callable with arguments", [], None, reason))
    for recipe in sorted(surface.recipes.values(), key=lambda r: r.id):
        if recipe.documented:
            entries.append(_entry(recipe.id, "documented example", laws.get(recipe.id, []), "its own code",
                                  None if recipe.id in laws else "no law applies"))
    return {"library": library, "modules": len(surface.modules), "entries": entries}


def _entry(name, kind, laws, inputs, why_not):
    return {"entry": name, "kind": kind, "laws": sorted(laws), "inputs": inputs, "why_not": why_not}
