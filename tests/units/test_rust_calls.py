"""Exact call resolution over the fixture library's Rust half (expected values written by
reading the fixture), and the reasons kept for what cannot be resolved."""

from pathlib import Path

import pytest

from qusema.units.rust_calls import resolve_rust_calls
from qusema.units.rust_segments import find_rust_files, parse_rust_file, rust_module_path

PT = "qfix_core::table::PhaseTable"
PH = "qfix_core::phase"


def parse_tree(root: Path):
    return [parse_rust_file(f, (root / f).read_bytes(), rust_module_path(root, f)) for f in find_rust_files(root)]


@pytest.fixture
def calls(qfix_root):
    return resolve_rust_calls(parse_tree(qfix_root))


def compact(call):
    return (call.caller, call.line, call.callee_text, call.status, call.target or call.external, call.via)


def test_every_fixture_call(calls):
    assert sorted(compact(c) for c in calls) == [
        ("qfix_core::angles::normalise", 11, "crate::wrap", "resolved", "qfix_core::wrap", "path"),
        ("qfix_core::angles::units::degrees_to_radians", 3, "degrees.to_radians", "external", "std", "type-inference"),
        (f"{PH}::<Unit as Phaser>::phase_of", 25, "self.angle_of", "resolved", f"{PH}::Phaser::angle_of", "trait-default"),
        (f"{PH}::<Unit as Phaser>::phase_of", 26, "a.cos", "external", "std", "type-inference"),
        (f"{PH}::<Unit as Phaser>::phase_of", 26, "a.sin", "external", "std", "type-inference"),
        (f"{PH}::Phaser::angle_of", 16, "norm", "resolved", "qfix_core::angles::normalise", "import"),
        (f"{PH}::apply_phase", 34, "Unit.phase_of", "resolved", f"{PH}::<Unit as Phaser>::phase_of", "type-inference"),
        (f"{PH}::apply_phase", 35, "PhaseTable::new", "resolved", f"{PT}::new", "import"),
        (f"{PH}::apply_phase", 36, "table.lookup", "resolved", f"{PT}::lookup", "type-inference"),
        (f"{PH}::first_entries", 54, "t.lookup", "resolved", f"{PT}::lookup", "unique-name"),
        (f"{PH}::first_entries", 54, "tables.iter", "external", "std", "not-in-library"),
        (f"{PH}::first_entries", 54, "tables.iter().map", "external", "std", "type-inference"),
        (f"{PH}::first_entries", 54, "tables.iter().map(|t| t.lookup(0)).collect", "external", "std", "type-inference"),
        (f"{PH}::phase_mod", 82, "m.add_function", "external", "pyo3", "type-inference"),
        (f"{PH}::phase_mod", 82, "wrap_pyfunction!", "external", "pyo3", "not-in-library"),
        (f"{PH}::phase_mod", 83, "m.add_wrapped", "external", "pyo3", "type-inference"),
        (f"{PH}::phase_mod", 83, "wrap_pyfunction!", "external", "pyo3", "not-in-library"),
        (f"{PH}::phase_mod", 84, "m.add_class", "external", "pyo3", "type-inference"),
        (f"{PH}::phase_mod", 85, "m.add_class", "external", "pyo3", "type-inference"),
        (f"{PH}::py_phase_angle", 44, "angles::normalise", "resolved", "qfix_core::angles::normalise", "import"),
        (f"{PH}::py_phase_angle", 44, "f64::atan2", "external", "std", "prelude"),
        (f"{PH}::py_phase_angle", 46, "angles::degrees_to_radians", "resolved", "qfix_core::angles::units::degrees_to_radians", "import"),
        (f"{PH}::tests::unit_phase_of_zero_is_one", 95, "Unit.phase_of", "resolved", f"{PH}::<Unit as Phaser>::phase_of", "type-inference"),
        (f"{PH}::tests::unit_phase_of_zero_is_one", 95, "assert_eq!", "external", "std", "prelude"),
        (f"{PT}::__len__", 53, "self.entries.len", "external", "std", "type-inference"),
        (f"{PT}::entry", 30, "angle.cos", "external", "std", "not-in-library"),
        (f"{PT}::entry", 30, "angle.sin", "external", "std", "not-in-library"),
        (f"{PT}::new", 20, "(0..size).map", "external", "std", "not-in-library"),
        (f"{PT}::new", 20, "(0..size).map(|k| Self::entry(k, size)).collect", "external", "std", "type-inference"),
        (f"{PT}::new", 20, "Self::entry", "resolved", f"{PT}::entry", "self"),
        (f"{PT}::new", 24, "HashMap::new", "external", "std", "import"),
        (f"{PT}::py_new", 38, "Self::new", "resolved", f"{PT}::new", "self"),
        ("qfix_core::wrap", 15, "angle.rem_euclid", "external", "std", "type-inference"),
        ("qfix_pyext::_native", 17, "::qfix_core::phase::phase_mod", "resolved", f"{PH}::phase_mod", "reference"),
        ("qfix_pyext::_native", 17, "add_submodule", "resolved", "qfix_pyext::add_submodule", "scope"),
        ("qfix_pyext::add_submodule", 10, "PyModule::new", "external", "pyo3", "glob"),
        ("qfix_pyext::add_submodule", 10, "m.py", "external", "pyo3", "type-inference"),
        ("qfix_pyext::add_submodule", 11, "constructor", "unresolved", None, "direct"),
        ("qfix_pyext::add_submodule", 12, "m.add_submodule", "external", "pyo3", "type-inference"),
    ]


def test_a_call_through_a_parameter_says_so(calls):
    (call,) = [c for c in calls if c.callee_text == "constructor"]
    assert call.reason == "calls a local variable or parameter"
    assert call.in_library_evidence is False


UNRESOLVABLE = """\
pub struct A;
pub struct B;

impl A {
    pub fn step(&self) -> u32 { 1 }
}

impl B {
    pub fn step(&self) -> u32 { 2 }
}

pub trait Shape {
    fn area(&self) -> f64;
}

pub fn total<T: Shape>(items: &[T]) -> f64 {
    items.iter().map(|s| s.area()).sum::<f64>() + T::area(&items[0])
}

pub fn steps(v: &[A]) -> u32 {
    v.iter().map(|x| x.step()).sum::<u32>() + A::missing()
}
"""


def test_unresolved_calls_keep_their_reason_and_evidence():
    parse = parse_rust_file("src/lib.rs", UNRESOLVABLE.encode(), "demo")
    unresolved = {
        (c.caller, c.line, c.callee_text): (c.reason, c.in_library_evidence)
        for c in resolve_rust_calls([parse])
        if c.status == "unresolved"
    }
    assert unresolved == {
        ("demo::total", 17, "s.area"): ("receiver type unknown; `area` is declared by a library trait", True),
        ("demo::total", 17, "T::area"): (
            "called through the type parameter `T`: the implementing type is unknown", True
        ),
        ("demo::steps", 21, "x.step"): ("receiver type unknown; `step` is defined on 2 library types", True),
        ("demo::steps", 21, "A::missing"): (
            "no method `missing` found on `demo::A` (external trait or generated code)", True
        ),
    }


MACRO_TYPES = """\
macro_rules! newtype {
    ($name:ident) => {
        pub struct $name(u32);
        impl $name {
            pub fn get(&self) -> u32 { self.0 }
        }
    };
}

newtype!(Meters);

pub fn read(m: Meters) -> u32 {
    m.get() + Meters::get(&m)
}
"""


def test_calls_into_types_stamped_out_by_a_macro():
    parse = parse_rust_file("src/lib.rs", MACRO_TYPES.encode(), "demo")
    assert sorted(compact(c) for c in resolve_rust_calls([parse])) == [
        ("demo::read", 13, "Meters::get", "resolved", "demo::newtype!::$name::get", "scope"),
        ("demo::read", 13, "m.get", "resolved", "demo::newtype!::$name::get", "type-inference"),
    ]
