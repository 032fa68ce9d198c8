"""Arithmetic and basis-permuting templates, PennyLane: every such template the live library
exports (Adder, PhaseAdder, Multiplier, OutAdder, OutMultiplier, ModExp, SemiAdder,
IntegerComparator, TemporaryAND, QROM, Permute, FlipSign, QubitCarry, QubitSum, Toffoli,
MultiControlledX, BasisEmbedding, BasisState -- those present on the release) maps
computational basis states to the basis states its docstring defines, with its work wires
returned to their documented state.

The docstrings' maps are written here in plain Python integers (the oracle); the register
conventions are the docstrings' own: an integer register's first wire is its most significant
bit, `mod` defaults to 2**len(register), work wires start (and must end) in |0> except where a
docstring allows them in any state (QROM clean=True, MultiControlledX work_wire_type="borrowed").
The template runs on `default.qubit` on a register whose wires mix non-contiguous integer and
string labels in a shuffled order, with idle wires beside it, on one basis input or an unequal
superposition of two (so the relative phase of the two outputs is checked too; a global phase
is not observable and is not checked). PhaseAdder acts in the Fourier basis: it is wrapped in
qml.QFT / adjoint(qml.QFT) as its docstring's example does. BasisEmbedding / BasisState prepare
a basis state from |0> (BasisState mid-circuit: "U|0> = |psi>", its docstring's note).

Inputs are drawn from the documented domains only (x < mod, gcd(k, mod) = 1 for Multiplier and
ModExp, the documented numbers of work wires, QubitCarry's carry-out wire in |0>, QROM indices
below the number of bitstrings); an input the release refuses with an error is out of domain.

The check runs the reproducer itself (the same source), so the two cannot disagree.
"""

import functools
import inspect
import math

from contract_runtime import Contract

# |<expected|state>|^2 must be 1: the QFT-based templates rotate by angles 2 pi k / 2^n, which
# leaves float round-off of ~1e-12 in the amplitudes. A wrong basis state drops the fidelity to
# at most 0.64; a relative phase error d between the two superposed inputs drops it by
# 2 (0.36)(0.64)(1 - cos d) ~ 0.23 d^2, i.e. past the bound for any d above ~2e-3 rad.
FIDELITY_TOL = 1e-6
# Amplitudes of the two superposed inputs: unequal, with a relative phase of i, so that both a
# swapped pair of outputs and a wrong relative phase lower the fidelity. Their squares sum to 1,
# and so does |0.6 + 0.8i| when the two inputs coincide.
AMPLITUDES = (0.6, 0.8j)
# Wire labels: non-contiguous integers and strings.
LABELS = (0, 1, 3, 4, 7, 10, 12, "a", "b", "w", "anc", "q5", "z", "out0", "t")


# -- which templates: found in the live library ---------------------------------------------------
@functools.lru_cache(maxsize=None)  # noqa: UP033 (older targets run Python 3.8)
def _classes():
    """name -> (qualified name, class) of the templates this law knows the docstring map of,
    for those the live library exports (qml first, then qml.templates)."""
    import pennylane as qml

    found = {}
    for name in sorted(SPECS):
        for prefix, module in (("qml", qml), ("qml.templates", getattr(qml, "templates", None))):
            cls = getattr(module, name, None) if module is not None else None
            if inspect.isclass(cls) and cls.__name__ == name:
                found[name] = (f"{prefix}.{name}", cls)
                break
    return found


def _subjects():
    return sorted(_classes())


def _api(subject):
    return f"pennylane.{subject}"


def _qualified(subject):
    return _classes()[subject][0]


def _parameters(subject):
    return set(inspect.signature(_classes()[subject][1].__init__).parameters)


# -- the docstrings' maps ------------------------------------------------------------------------
class Spec:
    """A template's documented action.

    draw(draw, subject) -> (params, sizes, inputs): sizes is [(register, number of wires)], the
      template's registers in order; inputs two {register: value} dicts (the superposed inputs;
      equal for a single basis input); registers absent from a dict start in 0.
    lines(subject, params, wires) -> source lines applying the template (wires: register -> labels)
    apply(params, values) -> ({register: new value}, phase): the docstring's map on one basis input
    formula: the docstring's map, as written in the reproducer's comment
    prepares: "first" (a state preparation, run as the circuit's first operation from |0...0>),
      "from zero" (its wires start in |0>, others superposed) or None
    """

    def __init__(self, draw, lines, apply, formula, prepares=None):
        self.draw, self.lines, self.apply, self.formula, self.prepares = draw, lines, apply, formula, prepares


def _st():
    from hypothesis import strategies as st

    return st


def _mod(draw, bits):
    """(mod argument, effective mod): the default (None -> 2**bits), or an explicit 1 <= mod <= 2**bits,
    edges first (the docstrings: the number of wires limits the maximum mod)."""
    st = _st()
    full = 2 ** bits
    explicit = draw(st.one_of(st.sampled_from([None, full, max(full - 1, 1), min(2, full)]), st.integers(1, full)))
    return explicit, (full if explicit is None else explicit)


def _below(draw, bound):
    """An integer in [0, bound), edges first."""
    st = _st()
    return draw(st.one_of(st.sampled_from(sorted({0, bound - 1})), st.integers(0, bound - 1)))


def _two(draw, make):
    """Two inputs: the same basis input twice (single input) or two drawn independently."""
    first = make()
    second = first if draw(_st().booleans()) else make()
    return [first, second]


def _coprime(draw, mod):
    """k in [0, mod) with gcd(k, mod) = 1 (the docstrings of Multiplier and ModExp require an inverse)."""
    choices = [k for k in range(mod) if math.gcd(k, mod) == 1]
    return draw(_st().sampled_from(choices))


def _wire_list(labels):
    return "[" + ", ".join(repr(w) for w in labels) + "]"


def _mod_text(explicit):
    return "" if explicit is None else f", mod={explicit}"


# Adder(k, x_wires, mod, work_wires): |x> -> |x + k mod mod>; two work wires when mod != 2^n.
def _draw_adder(draw, subject, phase=False):
    st = _st()
    n = draw(st.integers(1, 4))
    explicit, mod = _mod(draw, n)
    if phase and mod != 2 ** n and mod > 2 ** (n - 1):
        # PhaseAdder's docstring: with mod != 2^len(x_wires), x_wires need one wire more than
        # mod takes (x < 2^(len(x_wires) - 1)); a mod above 2^(n-1) needs a longer register
        n += 1
    k = _below(draw, mod)
    work = 0 if mod == 2 ** n else (1 if phase else 2)
    sizes = [("x", n)] + ([("work", work)] if work else [])
    return ({"k": k, "mod": explicit, "m": mod}, sizes, _two(draw, lambda: {"x": _below(draw, mod)}))


def _adder_lines(subject, params, wires):
    work = f", work_wires={_wire_list(wires['work'])}" if "work" in wires else ""
    return [f"{_qualified(subject)}({params['k']}, {_wire_list(wires['x'])}{_mod_text(params['mod'])}{work})"]


def _phase_adder_lines(subject, params, wires):
    x = _wire_list(wires["x"])
    work = f", work_wire={_wire_list(wires['work'])}" if "work" in wires else ""
    return [f"qml.QFT(wires={x})",
            f"{_qualified(subject)}({params['k']}, {x}{_mod_text(params['mod'])}{work})",
            f"qml.adjoint(qml.QFT)(wires={x})"]


def _apply_adder(params, values):
    return {"x": (values["x"] + params["k"]) % params["m"]}, 1


# Multiplier(k, x_wires, mod, work_wires): |x> -> |k x mod mod>; len(x) work wires, len(x) + 2 when mod != 2^n.
def _draw_multiplier(draw, subject):
    st = _st()
    n = draw(st.integers(1, 3))
    explicit, mod = _mod(draw, n)
    k = _coprime(draw, mod)
    sizes = [("x", n), ("work", n if mod == 2 ** n else n + 2)]
    return {"k": k, "mod": explicit, "m": mod}, sizes, _two(draw, lambda: {"x": _below(draw, mod)})


def _multiplier_lines(subject, params, wires):
    return [f"{_qualified(subject)}({params['k']}, {_wire_list(wires['x'])}{_mod_text(params['mod'])}, "
            f"work_wires={_wire_list(wires['work'])})"]


def _apply_multiplier(params, values):
    return {"x": (values["x"] * params["k"]) % params["m"]}, 1


# OutAdder / OutMultiplier(x_wires, y_wires, output_wires, mod, work_wires): |x>|y>|b> -> |x>|y>|b + x (+|*) y mod mod>
def _draw_out(draw, subject):
    st = _st()
    # OutMultiplier's decomposition grows as len(x) len(y) len(output): registers of up to 2, 2, 3
    # wires keep an example under a second
    small = 2 if subject == "OutMultiplier" else 3
    nx, ny, nb = draw(st.integers(1, small)), draw(st.integers(1, small)), draw(st.integers(1, 3))
    explicit, mod = _mod(draw, nb)
    sizes = [("x", nx), ("y", ny), ("output", nb)] + ([("work", 2)] if mod != 2 ** nb else [])
    # x, y and b < mod (the docstrings' note), and each fits its register
    return {"mod": explicit, "m": mod}, sizes, _two(draw, lambda: {
        "x": _below(draw, min(mod, 2 ** nx)), "y": _below(draw, min(mod, 2 ** ny)), "output": _below(draw, mod)})


def _out_lines(subject, params, wires):
    work = f", work_wires={_wire_list(wires['work'])}" if "work" in wires else ""
    return [f"{_qualified(subject)}({_wire_list(wires['x'])}, {_wire_list(wires['y'])}, "
            f"{_wire_list(wires['output'])}{_mod_text(params['mod'])}{work})"]


def _apply_out_adder(params, values):
    return {"output": (values["output"] + values["x"] + values["y"]) % params["m"]}, 1


def _apply_out_multiplier(params, values):
    return {"output": (values["output"] + values["x"] * values["y"]) % params["m"]}, 1


# ModExp(x_wires, output_wires, base, mod, work_wires): |x>|b> -> |x>|b base^x mod mod>
def _draw_mod_exp(draw, subject):
    st = _st()
    # a controlled Multiplier per x wire, each a QFT circuit on len(output) + 2 work wires: registers
    # of up to 2 wires keep an example near a second
    nx, nb = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    explicit, mod = _mod(draw, nb)
    base = _coprime(draw, mod)
    sizes = [("x", nx), ("output", nb), ("work", nb if mod == 2 ** nb else nb + 2)]
    # x < mod (the docstring's note) and b < mod (the output register holds residues)
    return {"base": base, "mod": explicit, "m": mod}, sizes, _two(draw, lambda: {
        "x": _below(draw, min(mod, 2 ** nx)), "output": _below(draw, mod)})


def _mod_exp_lines(subject, params, wires):
    return [f"{_qualified(subject)}({_wire_list(wires['x'])}, {_wire_list(wires['output'])}, {params['base']}"
            f"{_mod_text(params['mod'])}, work_wires={_wire_list(wires['work'])})"]


def _apply_mod_exp(params, values):
    return {"output": (values["output"] * pow(params["base"], values["x"], params["m"])) % params["m"]}, 1


# SemiAdder(x_wires, y_wires, work_wires): |x>|y> -> |x>|x + y mod 2^len(y)>; at least len(y) - 1 work wires.
def _draw_semi_adder(draw, subject):
    st = _st()
    nx, ny = draw(st.integers(1, 3)), draw(st.integers(1, 4))
    work = ny - 1 + draw(st.integers(0, 1))
    sizes = [("x", nx), ("y", ny)] + ([("work", work)] if work else [])
    return {"ny": ny}, sizes, _two(draw, lambda: {"x": _below(draw, 2 ** nx), "y": _below(draw, 2 ** ny)})


def _semi_adder_lines(subject, params, wires):
    work = _wire_list(wires["work"]) if "work" in wires else "None"
    return [f"{_qualified(subject)}({_wire_list(wires['x'])}, {_wire_list(wires['y'])}, work_wires={work})"]


def _apply_semi_adder(params, values):
    return {"y": (values["x"] + values["y"]) % 2 ** params["ny"]}, 1


# IntegerComparator(value, geq, wires): flips the target (last wire) if n >= L (geq) or n < L.
def _draw_comparator(draw, subject):
    st = _st()
    n = draw(st.integers(1, 4))
    value = draw(st.one_of(st.sampled_from([1, 2 ** n, 2 ** n - 1]), st.integers(1, 2 ** n + 1)))
    geq = draw(st.booleans())
    return {"value": value, "geq": geq}, [("n", n), ("target", 1)], _two(draw, lambda: {
        "n": _below(draw, 2 ** n), "target": _below(draw, 2)})


def _comparator_lines(subject, params, wires):
    return [f"{_qualified(subject)}({params['value']}, geq={params['geq']}, "
            f"wires={_wire_list(wires['n'] + wires['target'])})"]


def _apply_comparator(params, values):
    holds = values["n"] >= params["value"] if params["geq"] else values["n"] < params["value"]
    return {"target": values["target"] ^ int(holds)}, 1


# TemporaryAND(wires, control_values): |c1 c2 0> -> |c1 c2 (c1 == v1 and c2 == v2)>; target starts in |0>.
def _draw_temporary_and(draw, subject):
    st = _st()
    values = draw(st.one_of(st.none(), st.tuples(st.integers(0, 1), st.integers(0, 1))))
    return {"control_values": values}, [("c1", 1), ("c2", 1), ("target", 1)], _two(draw, lambda: {
        "c1": _below(draw, 2), "c2": _below(draw, 2)})


def _temporary_and_lines(subject, params, wires):
    values = "" if params["control_values"] is None else f", control_values={params['control_values']!r}"
    return [f"{_qualified(subject)}(wires={_wire_list(wires['c1'] + wires['c2'] + wires['target'])}{values})"]


def _apply_temporary_and(params, values):
    v1, v2 = params["control_values"] or (1, 1)
    return {"target": int(values["c1"] == v1 and values["c2"] == v2)}, 1


# Toffoli / MultiControlledX(wires, control_values, work_wires, work_wire_type): flips the last wire
# when the controls equal control_values (default all 1); work wires are given back in their state.
def _draw_toffoli(draw, subject):
    return {}, [("c", 2), ("target", 1)], _two(draw, lambda: {"c": _below(draw, 4), "target": _below(draw, 2)})


def _toffoli_lines(subject, params, wires):
    return [f"{_qualified(subject)}(wires={_wire_list(wires['c'] + wires['target'])})"]


def _apply_toffoli(params, values):
    return {"target": values["target"] ^ int(values["c"] == 3)}, 1


def _draw_mcx(draw, subject):
    st = _st()
    n = draw(st.integers(1, 4))
    parameters = _parameters(subject)
    # older releases took control_values as a string: only the default (all ones) there
    values = None if "control_wires" in parameters else draw(st.one_of(
        st.none(), st.lists(st.integers(0, 1), min_size=n, max_size=n).map(tuple)))
    zeroed, borrowed_name = _work_wire_types(subject)
    work_type = draw(st.sampled_from([None, zeroed, borrowed_name])) if "work_wire_type" in parameters else zeroed
    work = draw(st.integers(0, 2))
    # borrowed (dirty) is the documented default: the work wires may start in any state
    borrowed = work_type in (None, borrowed_name) and "work_wire_type" in parameters
    sizes = [("c", n), ("target", 1)] + ([("work", work)] if work else [])
    return ({"n": n, "control_values": values, "work_wire_type": work_type if "work_wire_type" in parameters else None,
             "explicit_type": work_type is not None and "work_wire_type" in parameters}, sizes,
            _two(draw, lambda: {"c": _below(draw, 2 ** n), "target": _below(draw, 2),
                                "work": _below(draw, 2 ** work) if (borrowed and work) else 0}))


def _work_wire_types(subject):
    """The release's names for work wires in |0> and in any state: "zeroed"/"borrowed", or on
    releases whose docstring says so (0.42), "clean"/"dirty"."""
    doc = _classes()[subject][1].__doc__ or ""
    return ("clean", "dirty") if '``"dirty"``' in doc else ("zeroed", "borrowed")


def _mcx_lines(subject, params, wires):
    text = f"{_qualified(subject)}(wires={_wire_list(wires['c'] + wires['target'])}"
    if params["control_values"] is not None:
        text += f", control_values={list(params['control_values'])!r}"
    if "work" in wires:
        text += f", work_wires={_wire_list(wires['work'])}"
    if params["explicit_type"]:
        text += f", work_wire_type={params['work_wire_type']!r}"
    return [text + ")"]


def _apply_mcx(params, values):
    n = params["n"]
    wanted = params["control_values"] or (1,) * n
    bits = [(values["c"] >> (n - 1 - i)) & 1 for i in range(n)]
    return {"target": values["target"] ^ int(bits == list(wanted))}, 1


# QROM(data, control_wires, target_wires, work_wires, clean): |i>|0> -> |i>|b_i>; clean=True gives the
# work wires back in whatever state they were in ("can be applied when the work_wires are not
# initialized to zero").
def _draw_qrom(draw, subject):
    st = _st()
    c, t = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    count = draw(st.integers(1, 2 ** c))
    data = tuple(draw(st.lists(st.text("01", min_size=t, max_size=t), min_size=count, max_size=count)))
    work = draw(st.integers(0, 4))
    clean = draw(st.sampled_from([None, True]))
    sizes = [("control", c), ("target", t)] + ([("work", work)] if work else [])
    return {"data": data, "clean": clean}, sizes, _two(draw, lambda: {
        "control": _below(draw, count), "work": _below(draw, 2 ** work) if work else 0})


def _qrom_lines(subject, params, wires):
    work = _wire_list(wires["work"]) if "work" in wires else "None"
    clean = "" if params["clean"] is None else f", clean={params['clean']}"
    return [f"{_qualified(subject)}({list(params['data'])!r}, control_wires={_wire_list(wires['control'])}, "
            f"target_wires={_wire_list(wires['target'])}, work_wires={work}{clean})"]


def _apply_qrom(params, values):
    return {"target": int(params["data"][values["control"]], 2)}, 1


# Permute(permutation, wires): the state of wire permutation[i] moves to wires[i].
def _draw_permute(draw, subject):
    st = _st()
    n = draw(st.integers(2, 5))  # the docstring's examples; one wire is refused ("at least 2 qubits")
    order = tuple(draw(st.permutations(list(range(n)))))
    return {"order": order, "n": n}, [("w%d" % i, 1) for i in range(n)], _two(draw, lambda: {
        "w%d" % i: _below(draw, 2) for i in range(n)})


def _permute_lines(subject, params, wires):
    labels = [wires["w%d" % i][0] for i in range(params["n"])]
    permutation = [labels[j] for j in params["order"]]
    return [f"{_qualified(subject)}({_wire_list(permutation)}, wires={_wire_list(labels)})"]


def _apply_permute(params, values):
    return {"w%d" % i: values["w%d" % j] for i, j in enumerate(params["order"])}, 1


# FlipSign(n, wires): |m> -> -|m> if m == n, else |m>.
def _draw_flip_sign(draw, subject):
    st = _st()
    n = draw(st.integers(1, 4))
    flipped = _below(draw, 2 ** n)
    as_bits = draw(st.booleans())
    return {"flipped": flipped, "bits": n if as_bits else 0}, [("m", n)], _two(draw, lambda: {
        "m": draw(st.one_of(st.just(flipped), st.integers(0, 2 ** n - 1)))})


def _flip_sign_lines(subject, params, wires):
    n = params["bits"]
    arg = [(params["flipped"] >> (n - 1 - i)) & 1 for i in range(n)] if n else params["flipped"]
    return [f"{_qualified(subject)}({arg!r}, wires={_wire_list(wires['m'])})"]


def _apply_flip_sign(params, values):
    return {}, (-1 if values["m"] == params["flipped"] else 1)


# QubitCarry(wires): |a>|b>|c>|d> -> |a>|b>|b xor c>|bc xor d xor (b xor c) a>, d starting in |0>.
def _draw_carry(draw, subject):
    return {}, [("a", 1), ("b", 1), ("c", 1), ("d", 1)], _two(draw, lambda: {
        "a": _below(draw, 2), "b": _below(draw, 2), "c": _below(draw, 2)})


def _apply_carry(params, values):
    a, b, c, d = values["a"], values["b"], values["c"], values["d"]
    return {"c": b ^ c, "d": (b & c) ^ d ^ ((b ^ c) & a)}, 1


# QubitSum(wires): |a>|b>|c> -> |a>|b>|a xor b xor c>.
def _draw_sum(draw, subject):
    return {}, [("a", 1), ("b", 1), ("c", 1)], _two(draw, lambda: {
        "a": _below(draw, 2), "b": _below(draw, 2), "c": _below(draw, 2)})


def _apply_sum(params, values):
    return {"c": values["a"] ^ values["b"] ^ values["c"]}, 1


def _bit_wires_lines(subject, params, wires):
    labels = [w for name in ("a", "b", "c", "d") for w in wires.get(name, [])]
    return [f"{_qualified(subject)}(wires={_wire_list(labels)})"]


# BasisEmbedding(features, wires) / BasisState(state, wires): |0> -> |features> (an int or its bits).
def _draw_prep(draw, subject):
    st = _st()
    n = draw(st.integers(1, 4))
    value = _below(draw, 2 ** n)
    as_int = subject == "BasisEmbedding" and draw(st.booleans())  # BasisEmbedding documents an int too
    first = subject == "BasisEmbedding" or draw(st.booleans())  # BasisState also documents mid-circuit use
    return {"value": value, "n": n, "as_int": as_int, "first": first}, [("v", n)], _two(draw, lambda: {})


def _prep_lines(subject, params, wires):
    n = params["n"]
    arg = params["value"] if params["as_int"] else \
        "np.array(%r)" % [(params["value"] >> (n - 1 - i)) & 1 for i in range(n)]
    return [f"{_qualified(subject)}({arg}, wires={_wire_list(wires['v'])})"]


def _apply_prep(params, values):
    return {"v": params["value"]}, 1


SPECS = {
    "Adder": Spec(_draw_adder, _adder_lines, _apply_adder, "Adder(k, mod)|x> = |x + k mod mod>, work wires back to |0>"),
    "PhaseAdder": Spec(lambda draw, s: _draw_adder(draw, s, phase=True), _phase_adder_lines, _apply_adder,
                       "QFT^dag PhaseAdder(k, mod) QFT |x> = |x + k mod mod>, the work wire back to |0>"),
    "Multiplier": Spec(_draw_multiplier, _multiplier_lines, _apply_multiplier,
                       "Multiplier(k, mod)|x> = |k x mod mod>, work wires back to |0>"),
    "OutAdder": Spec(_draw_out, _out_lines, _apply_out_adder,
                     "OutAdder(mod)|x>|y>|b> = |x>|y>|b + x + y mod mod>, work wires back to |0>"),
    "OutMultiplier": Spec(_draw_out, _out_lines, _apply_out_multiplier,
                          "OutMultiplier(mod)|x>|y>|b> = |x>|y>|b + x y mod mod>, work wires back to |0>"),
    "ModExp": Spec(_draw_mod_exp, _mod_exp_lines, _apply_mod_exp,
                   "ModExp(base, mod)|x>|b> = |x>|b base^x mod mod>, work wires back to |0>"),
    "SemiAdder": Spec(_draw_semi_adder, _semi_adder_lines, _apply_semi_adder,
                      "SemiAdder|x>|y> = |x>|x + y mod 2^len(y_wires)>, work wires back to |0>"),
    "IntegerComparator": Spec(_draw_comparator, _comparator_lines, _apply_comparator,
                              "IntegerComparator(L, geq)|n>|t> = |n>|t xor (n >= L)> (geq) or |n>|t xor (n < L)>"),
    "TemporaryAND": Spec(_draw_temporary_and, _temporary_and_lines, _apply_temporary_and,
                         "TemporaryAND|c1 c2>|0> = |c1 c2>|c1 == v1 and c2 == v2> (control_values v)"),
    "Toffoli": Spec(_draw_toffoli, _toffoli_lines, _apply_toffoli, "Toffoli|c1 c2>|t> = |c1 c2>|t xor c1 c2>"),
    "MultiControlledX": Spec(_draw_mcx, _mcx_lines, _apply_mcx,
                             "MultiControlledX|c>|t> = |c>|t xor (c == control_values)>, work wires given back "
                             "(|0> if zeroed, any state if borrowed)"),
    "QROM": Spec(_draw_qrom, _qrom_lines, _apply_qrom,
                 "QROM|i>|0> = |i>|b_i>, work wires given back in their state (clean=True)"),
    "Permute": Spec(_draw_permute, _permute_lines, _apply_permute,
                    "Permute(permutation, wires): the state of wire permutation[i] moves to wires[i]"),
    "FlipSign": Spec(_draw_flip_sign, _flip_sign_lines, _apply_flip_sign,
                     "FlipSign(n)|m> = -|m> if m == n else |m>"),
    "QubitCarry": Spec(_draw_carry, _bit_wires_lines, _apply_carry,
                       "QubitCarry|a>|b>|c>|d> = |a>|b>|b xor c>|bc xor d xor (b xor c)a>, d starting in |0>"),
    "QubitSum": Spec(_draw_sum, _bit_wires_lines, _apply_sum, "QubitSum|a>|b>|c> = |a>|b>|a xor b xor c>"),
    "BasisEmbedding": Spec(_draw_prep, _prep_lines, _apply_prep, "BasisEmbedding(features)|0> = |features>",
                           prepares="first"),
    "BasisState": Spec(_draw_prep, _prep_lines, _apply_prep, "BasisState(state)|0> = |state>", prepares="from zero"),
}


# -- inputs: the template's registers placed on shuffled, labelled wires --------------------------
def _strategy(subject):
    st = _st()
    spec = SPECS[subject]

    @st.composite
    def example(draw):
        params, sizes, inputs = spec.draw(draw, subject)
        needed = sum(size for _, size in sizes)
        idle = draw(st.integers(0, 1))
        labels = draw(st.permutations(list(LABELS)))[:needed + idle]
        wires, at = {}, 0
        for name, size in sizes:
            wires[name] = tuple(labels[at:at + size])
            at += size
        if idle:
            wires["idle"] = tuple(labels[at:])
            inputs = [dict(values, idle=draw(st.integers(0, 1))) for values in inputs]
        order = tuple(draw(st.permutations(list(labels))))  # the device's wire order
        return {"params": params, "wires": wires, "order": order, "inputs": inputs}

    return example()


def _bits(example, values):
    """The device basis state (a bitstring in the device's wire order) of register values."""
    bit_of = {}
    for name, labels in example["wires"].items():
        value = values.get(name, 0)
        for i, label in enumerate(labels):
            bit_of[label] = (value >> (len(labels) - 1 - i)) & 1
    return "".join(str(bit_of[label]) for label in example["order"])


def _expected(subject, example):
    """(input bitstrings, output bitstrings, phases) by the docstring's map."""
    spec = SPECS[subject]
    inputs, outputs, phases = [], [], []
    for values in example["inputs"]:
        full = {name: values.get(name, 0) for name in example["wires"]}
        if spec.prepares == "first":
            full = {name: 0 for name in full}
        elif spec.prepares == "from zero":
            full["v"] = 0
        changed, phase = spec.apply(example["params"], full)
        inputs.append(_bits(example, full))
        outputs.append(_bits(example, dict(full, **changed)))
        phases.append(phase)
    return inputs, outputs, phases


def _reproduce(subject, example):
    spec = SPECS[subject]
    inputs, outputs, phases = _expected(subject, example)
    lines = spec.lines(subject, example["params"], {k: list(v) for k, v in example["wires"].items()})
    registers = ", ".join(f"{name}={list(labels)!r}" for name, labels in example["wires"].items())
    if spec.prepares == "first":
        inputs, outputs, phases, amplitudes = inputs[:1], outputs[:1], phases[:1], [1.0]
        prepare = ""
    else:
        amplitudes = list(AMPLITUDES)
        prepare = "    qml.StatePrep(psi, wires=wires)\n"
    body = "".join(f"    {line}\n" for line in lines)
    return ("import numpy as np\nimport pennylane as qml\n\n"
            f"# the docstring's map: {spec.formula}\n"
            f"# registers (first wire most significant): {registers}\n"
            f"wires = {list(example['order'])!r}  # the device's wire order\n"
            f"inputs = {inputs!r}  # basis states over `wires`\n"
            f"outputs = {outputs!r}  # what the docstring's map sends them to\n"
            f"phases = {phases!r}\n"
            f"amplitudes = {amplitudes!r}\n"
            "psi = np.zeros(2 ** len(wires), dtype=complex)\n"
            "expected = np.zeros(2 ** len(wires), dtype=complex)\n"
            "for a, b, phase, amplitude in zip(inputs, outputs, phases, amplitudes):\n"
            "    psi[int(a, 2)] += amplitude\n"
            "    expected[int(b, 2)] += phase * amplitude\n\n"
            "dev = qml.device('default.qubit', wires=wires)\n\n"
            "@qml.qnode(dev)\n"
            "def circuit():\n"
            f"{prepare}{body}"
            "    return qml.state()\n\n"
            "state = np.asarray(circuit())\n"
            "# equal up to a global phase: |<expected|state>|^2 = 1\n"
            "fidelity = abs(np.vdot(expected, state)) ** 2\n"
            "found = {format(i, '0%db' % len(wires)): complex(np.round(state[i], 4))\n"
            "         for i in np.flatnonzero(np.abs(state) > 1e-3)}\n"
            f"assert fidelity > 1 - {FIDELITY_TOL}, (\n"
            "    f'{inputs} -> {found}; the docstring maps them to {outputs} with phases {phases} '\n"
            "    f'(amplitudes {amplitudes}); fidelity {fidelity:.6g}')\n")


def _check(subject, example):
    exec(compile(_reproduce(subject, example), f"<{subject} reproducer>", "exec"), {"__name__": "__main__"})


def _describe(subject, example):
    spec = SPECS[subject]
    lines = spec.lines(subject, example["params"], {k: list(v) for k, v in example["wires"].items()})
    inputs = example["inputs"] if spec.prepares != "first" else [{}]
    return f"{'; '.join(lines)} on device wires {list(example['order'])}, inputs {inputs}"


FAMILY = "arithmetic templates"

CONTRACTS = [
    Contract("pennylane.templates.arithmetic-computes-function", FAMILY,
             "an arithmetic or basis-permuting template maps computational basis states (and superpositions of "
             "two, with their relative phase) to the basis states its docstring defines (|x> -> |x + k mod mod>, "
             "|i>|0> -> |i>|b_i>, ...), in its documented register conventions (first wire most significant, mod "
             "defaulting to 2^len(wires)), on any wire labels, with its work wires returned to their documented state",
             "documentation: pennylane.{Adder, PhaseAdder, Multiplier, OutAdder, OutMultiplier, ModExp, SemiAdder, "
             "IntegerComparator, TemporaryAND, Toffoli, MultiControlledX, QROM, Permute, FlipSign, QubitCarry, "
             "QubitSum, BasisEmbedding, BasisState} (the map in each class docstring)",
             _subjects, _strategy, _check, _reproduce, _api, describe=_describe),
]
