"""Exact segments of the fixture library's Python half, written down by reading it."""

from pathlib import Path

import pytest

from qusema.units.files import content_hash
from qusema.units.contextual_unit import strip_docstring
from qusema.units.python_segments import PythonSyntaxProblem, module_name_for, parse_python_file


def parse(root: Path, rel: str):
    data = (root / rel).read_bytes()
    return parse_python_file(rel, data, content_hash(data))


def test_module_names():
    assert module_name_for("qfix/__init__.py") == ("qfix", True)
    assert module_name_for("qfix/analysis/phases.py") == ("qfix.analysis.phases", False)
    assert module_name_for("src/pkg/mod.py") == ("pkg.mod", False)


def test_methods_and_nested_functions(qfix_root):
    fp = parse(qfix_root, "qfix/circuit.py")
    by_name = {s.qualname: s for s in fp.segments}
    assert list(by_name) == [
        "qfix.circuit.Gate.__init__",
        "qfix.circuit.Gate.inverse",
        "qfix.circuit.Gate.label",
        "qfix.circuit.Circuit.__init__",
        "qfix.circuit.Circuit.append",
        "qfix.circuit.Circuit._check",
        "qfix.circuit.Circuit.inverse",
        "qfix.circuit.Circuit.global_phase",
        "qfix.circuit.Circuit.shifted",
    ]
    phase = by_name["qfix.circuit.Circuit.global_phase"]
    # the nested `accumulate` stays inside its enclosing function
    assert (phase.start_line, phase.end_line) == (54, 58)
    assert "def accumulate" in phase.source
    assert phase.kind == "method" and phase.owner == "qfix.circuit.Circuit"
    assert phase.signature == "def global_phase(self) -> float:"
    init = by_name["qfix.circuit.Gate.__init__"]
    assert [d.text for d in init.docs] == ["Make a gate called name."]
    assert by_name["qfix.circuit.Circuit.append"].docs == ()


def test_conditional_definitions_are_both_segments_and_the_last_keeps_the_name(qfix_root):
    fp = parse(qfix_root, "qfix/analysis/phases.py")
    assert [s.qualname for s in fp.segments] == [
        "qfix.analysis.phases.phase_of",
        "qfix.analysis.phases.rz_phase",
        "qfix.analysis.phases.mystery",
        "qfix.analysis.phases.variant@23",
        "qfix.analysis.phases.variant",
    ]
    assert all(s.kind == "function" for s in fp.segments)


def test_decorators_are_part_of_the_segment(tmp_path):
    source = "class A:\n    @property\n    @staticmethod\n    def x():\n        return 1\n"
    fp = parse_python_file("m.py", source.encode(), "h")
    (seg,) = fp.segments
    assert seg.decorators == ("property", "staticmethod")
    assert (seg.start_line, seg.end_line) == (2, 5)


@pytest.mark.parametrize("inline_break", ["\f", "\v", "\x1c", "\x85", "\u2028"])
def test_a_character_that_str_splitlines_breaks_at_does_not_shift_the_stored_lines(inline_break):
    # Python breaks lines only at \n, \r\n and \r; these characters sit inside a comment or string
    source = (f"def f():\n    return 1\n# section{inline_break}\n# note{inline_break}here\n"
              f"def g(a,\r\n      b):\r    s = 'x{inline_break}y'\n    return a + b\n")
    fp = parse_python_file("m.py", source.encode(), "h")
    by_name = {s.qualname: s for s in fp.segments}
    g = by_name["m.g"]
    assert (g.start_line, g.end_line) == (5, 8)
    assert g.source.split("\n") == ["def g(a,", "      b):", f"    s = 'x{inline_break}y'", "    return a + b"]
    assert g.signature == "def g(a,\n      b):"
    assert fp.loc == 6


def test_docstring_stripping_keeps_a_form_feed_inside_its_line():
    source = 'def f(x):  # a form\ffeed\n    """Doc."""\n    return x\n'
    assert strip_docstring(source) == "def f(x):  # a form\ffeed\n    return x\n"


def test_loc_counts_no_blank_comment_or_docstring_lines():
    source = '"""Module doc\nsecond line"""\n\n# comment\nx = 1  # trailing\n\ndef f():\n    """Doc."""\n    return x\n'
    assert parse_python_file("m.py", source.encode(), "h").loc == 3


@pytest.mark.parametrize("source", [b"print 'hello'\n", b"def f(:\n    pass\n", b"x = 1\x00\n"])
def test_unparseable_python_is_reported_not_raised_elsewhere(source):
    with pytest.raises(PythonSyntaxProblem):
        parse_python_file("bad.py", source, "h")


@pytest.mark.parametrize("source, expected", [
    ('__all__ = ["a", "b"]\n__all__ += ["c"]\n', ["a", "b", "c"]),
    ('__all__ = other.__all__ + ["a"]\n', None),  # computed: known only at import time
    ("__all__, helper = setup()\n", None),
    ("x = 1\n", None),
])
def test_literal_all_or_unknown(source, expected):
    assert parse_python_file("m.py", source.encode(), "h").facts["all"] == expected
