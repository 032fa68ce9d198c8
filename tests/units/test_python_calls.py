"""Call resolution on the fixture's Python half; every expected target was read off the
fixture by hand. PyO3-linked calls are covered by the whole-index tests."""

from pathlib import Path

import pytest

from qusema.units.files import content_hash
from qusema.units.python_calls import PythonCallResolver
from qusema.units.python_segments import parse_python_file
from qusema.units.python_symbols import SymbolTable


@pytest.fixture
def resolver(qfix_root: Path) -> PythonCallResolver:
    parses = []
    for path in sorted((qfix_root / "qfix").rglob("*.py")):
        rel = path.relative_to(qfix_root).as_posix()
        data = path.read_bytes()
        parses.append(parse_python_file(rel, data, content_hash(data)))
    table = SymbolTable.build({p.facts["module"]: p.facts for p in parses})
    segments = {s.qualname for p in parses for s in p.segments}
    return PythonCallResolver(table, segments, native={})


def calls_of(resolver, qualname):
    calls, _ = resolver.resolve_function(qualname)
    return {c.callee_text: c for c in calls}


def test_self_method_and_builtin_attribute(resolver):
    calls = calls_of(resolver, "qfix.circuit.Circuit.append")
    assert calls["self._check"].target == "qfix.circuit.Circuit._check"
    # self.gates was assigned a list literal in __init__
    assert calls["self.gates.append"].status == "external"
    assert calls["self.gates.append"].external == "builtins.list.append"


def test_super_goes_to_the_base_class(resolver):
    calls = calls_of(resolver, "qfix.gates.HGate.__init__")
    assert calls["super().__init__"].target == "qfix.circuit.Gate.__init__"
    assert calls["super().__init__"].via == "super"


def test_inherited_method_through_mro(resolver):
    calls = calls_of(resolver, "qfix.gates.RZGate.describe")
    assert calls["self.label"].target == "qfix.circuit.Gate.label"
    assert calls["str"].external == "builtins.str"


def test_return_annotation_through_module_alias_types_a_local(resolver):
    calls = calls_of(resolver, "qfix.gates.bell")
    assert calls["make_circuit"].target == "qfix.gates.make_circuit"
    assert calls["qc.append"].target == "qfix.circuit.Circuit.append"
    assert calls["HGate"].target == "qfix.gates.HGate.__init__"
    assert calls["HGate"].via == "constructor"


def test_relative_import_annotation_and_import_alias(resolver):
    assert calls_of(resolver, "qfix.analysis.phases.phase_of")["circuit.global_phase"].target == \
        "qfix.circuit.Circuit.global_phase"
    calls = calls_of(resolver, "qfix.analysis.phases.rz_phase")
    assert calls["RZ"].target == "qfix.gates.RZGate.__init__"
    assert calls["gate.describe"].target == "qfix.gates.RZGate.describe"
    assert calls["np.exp"].external == "numpy.exp"


def test_nested_function_resolves_to_its_enclosing_segment(resolver):
    calls = calls_of(resolver, "qfix.circuit.Circuit.global_phase")
    assert calls["accumulate"].target == "qfix.circuit.Circuit.global_phase"
    assert calls["math.fsum"].external == "math.fsum"


def test_unknown_receivers_keep_a_reason(resolver):
    inverse = calls_of(resolver, "qfix.circuit.Circuit.inverse")["gate.inverse"]
    assert inverse.status == "unresolved" and inverse.in_library_evidence
    assert set(inverse.candidates) == {
        "qfix.circuit.Gate.inverse", "qfix.circuit.Circuit.inverse",
        "qfix.gates.HGate.inverse", "qfix.gates.RZGate.inverse",
    }
    mystery = calls_of(resolver, "qfix.analysis.phases.mystery")["obj.frobnicate"]
    assert mystery.status == "unresolved" and not mystery.in_library_evidence
    assert mystery.reason


def test_compiled_names_without_links_are_unresolved_with_evidence(resolver):
    call = calls_of(resolver, "qfix.circuit.Circuit.shifted")["apply_phase"]
    assert call.status == "unresolved" and call.in_library_evidence
    assert "qfix._native.phase.apply_phase" in call.reason


def test_references_to_classes_and_same_file_constants(resolver):
    _, refs = resolver.resolve_function("qfix.circuit.Circuit.__init__")
    assert ("constant", "qfix.circuit.DEFAULT_TOLERANCE") in {(r.kind, r.target) for r in refs}
    _, refs = resolver.resolve_function("qfix.circuit.Gate.inverse")
    assert ("class", "qfix.circuit.Gate") in {(r.kind, r.target) for r in refs}


def _parses(files: dict[str, str]) -> list:
    return [parse_python_file(rel, text.encode(), rel) for rel, text in files.items()]


def _table(parses: list) -> SymbolTable:
    return SymbolTable.build({p.facts["module"]: p.facts for p in parses})


def test_a_star_import_binds_what_the_source_has_not_its_builtins():
    """`from .a import *` then `from .b import pow`: pow is b's, even though `a` would
    fall back to the builtin pow for the name."""
    parses = _parses({
        "pkg/__init__.py": "from .a import *\nfrom .b import pow\n",
        "pkg/a.py": "def other():\n    return 1\n",
        "pkg/b.py": "def pow(x, k):\n    return x\n",
        "pkg/use.py": "import pkg\n\n\ndef f():\n    return pkg.pow(2, 3)\n",
    })
    resolver = PythonCallResolver(_table(parses), {s.qualname for p in parses for s in p.segments}, native={})
    (call,), _ = resolver.resolve_function("pkg.use.f")
    assert call.target == "pkg.b.pow"


def test_a_package_importing_its_compiled_submodule_reaches_the_compiled_names():
    """`from . import _native` in pkg/__init__.py binds the submodule, also when it is a
    compiled one with no Python file; a name later bound as `pkg._native.core.Op` (an
    attribute chain, not an import) is then the compiled class."""
    table = _table(_parses({
        "pkg/__init__.py": "from . import _native\nfrom . import sub\nfrom .ops import Op\n",
        "pkg/sub.py": "def f():\n    return 1\n",
        "pkg/ops.py": "import pkg._native.core\n\nOp = pkg._native.core.Op\n",
    }))
    assert table.global_name("pkg", "_native") == ("native", "pkg._native")
    assert table.global_name("pkg", "sub") == ("module", "pkg.sub")
    assert table.global_name("pkg.ops", "Op") == ("native", "pkg._native.core.Op")
    assert table.global_name("pkg", "Op") == ("native", "pkg._native.core.Op")
    # a name the package binds itself is not taken for a submodule
    own = _table(_parses({"q/__init__.py": "X = len\nfrom . import X\n"}))
    assert own.global_name("q", "X") == ("external", "builtins.len")
    # a name the package also imports from a module of its own is that module's
    both = _table(_parses({"r/__init__.py": "from . import f\nfrom .m import f\n",
                           "r/m.py": "def f():\n    return 1\n"}))
    assert both.global_name("r", "f") == ("function", "r.m.f")
