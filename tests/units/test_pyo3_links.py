"""PyO3 links of the fixture library (expected values written by reading the fixture) and
of small crates built in tmp_path for what the fixture does not show."""

from pathlib import Path

from qusema.units.pyo3_links import find_extension_modules, link_pyo3
from qusema.units.records import PyO3Export
from qusema.units.rust_segments import find_rust_files, parse_rust_file, rust_module_path

PHASE = "crates/qfix_core/src/phase.rs"
TABLE = "crates/qfix_core/src/table.rs"


def parse_tree(root: Path):
    return [parse_rust_file(f, (root / f).read_bytes(), rust_module_path(root, f)) for f in find_rust_files(root)]


def test_extension_modules_from_setup_py(qfix_root):
    assert find_extension_modules(qfix_root) == {"crates/pyext/Cargo.toml": "qfix._native"}


def test_extension_module_from_maturin(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[build-system]\nbuild-backend = "maturin"\n\n[tool.maturin]\nmodule-name = "pkg._core"\nmanifest-path = "./rust/Cargo.toml"\n'
    )
    assert find_extension_modules(tmp_path) == {"rust/Cargo.toml": "pkg._core"}


def test_maturin_module_name_defaults_to_the_cargo_lib_name(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[build-system]\nbuild-backend = "maturin"\n')
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "fast-thing"\n')
    assert find_extension_modules(tmp_path) == {"Cargo.toml": "fast_thing"}


def test_every_fixture_export(qfix_root):
    exports = link_pyo3(parse_tree(qfix_root), find_extension_modules(qfix_root))
    native = "qfix._native.phase"
    assert sorted(exports, key=lambda e: (e.python_name, e.kind)) == [
        PyO3Export("qfix._native", "qfix_pyext::_native", "module", "crates/pyext/src/lib.rs", 16),
        PyO3Export(native, "qfix_core::phase::phase_mod", "module", PHASE, 81),
        PyO3Export(f"{native}.PhaseTable", "qfix_core::table::PhaseTable", "class", TABLE, 9),
        PyO3Export(f"{native}.PhaseTable.__len__", "qfix_core::table::PhaseTable::__len__", "method", TABLE, 52),
        PyO3Export(f"{native}.PhaseTable.__new__", "qfix_core::table::PhaseTable::py_new", "constructor", TABLE, 37),
        PyO3Export(f"{native}.PhaseTable.lookup", "qfix_core::table::PhaseTable::lookup", "method", TABLE, 42),
        PyO3Export(f"{native}.PhaseTable.size", "qfix_core::table::PhaseTable", "getter", TABLE, 12),
        PyO3Export(f"{native}.PhaseTable.step", "qfix_core::table::PhaseTable::get_step", "getter", TABLE, 48),
        # Defined inside `macro_rules! phase_gate_class` and stamped out as `SGate` named "S".
        PyO3Export(f"{native}.S", "qfix_core::phase::SGate", "class", PHASE, 61),
        PyO3Export(f"{native}.S.__new__", "qfix_core::phase::phase_gate_class!::$name::new", "constructor", PHASE, 66),
        PyO3Export(f"{native}.S.angle", "qfix_core::phase::phase_gate_class!::$name::angle", "method", PHASE, 71),
        PyO3Export(f"{native}.apply_phase", "qfix_core::phase::apply_phase", "function", PHASE, 33),
        PyO3Export(f"{native}.phase_angle", "qfix_core::phase::py_phase_angle", "function", PHASE, 43),
    ]


NESTED = """\
use pyo3::prelude::*;

#[pyfunction]
fn ping() -> u32 { 1 }

#[pyclass(name = "Cell", module = "pkg.cells")]
struct CellImpl { #[pyo3(get, set, name = "value")] inner: u32 }

#[pymethods]
impl CellImpl {
    #[staticmethod]
    #[pyo3(name = "zero")]
    fn make_zero() -> Self { CellImpl { inner: 0 } }

    #[setter]
    fn set_label(&mut self, label: u32) { self.inner = label; }
}

#[pyclass]
struct Hidden;

#[pyfunction]
fn orphan() {}

fn tools(m: &Bound<PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ping, m)?)
}

fn attach_child(parent: &Bound<PyModule>, fill: fn(&Bound<PyModule>) -> PyResult<()>, name: &str) -> PyResult<()> {
    let child = PyModule::new(parent.py(), name)?;
    fill(&child)?;
    parent.add_submodule(&child)
}

#[pymodule]
#[pyo3(name = "_core")]
fn core_module(py: Python, m: &Bound<PyModule>) -> PyResult<()> {
    let cells = PyModule::new(py, "cells")?;
    cells.add_class::<CellImpl>()?;
    m.add_submodule(&cells)?;
    let extra = PyModule::new(py, "extra")?;
    tools(&extra)?;
    m.add_submodule(&extra)?;
    attach_child(m, tools, "more")?;
    Ok(())
}
"""


def test_nested_modules_renames_and_unreachable_exports(tmp_path):
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "pkg-core"\n')
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "lib.rs").write_text(NESTED)
    parses = parse_tree(tmp_path)
    exports = link_pyo3(parses, {"Cargo.toml": "pkg._core"})
    found = sorted((e.python_name, e.rust_qualname, e.kind) for e in exports)
    assert found == [
        ("<unreachable:pkg_core>.Hidden", "pkg_core::Hidden", "class"),
        ("<unreachable:pkg_core>.orphan", "pkg_core::orphan", "function"),
        ("pkg._core", "pkg_core::core_module", "module"),
        ("pkg._core.cells.Cell", "pkg_core::CellImpl", "class"),
        ("pkg._core.cells.Cell.label", "pkg_core::CellImpl::set_label", "setter"),
        ("pkg._core.cells.Cell.value", "pkg_core::CellImpl", "getter"),
        ("pkg._core.cells.Cell.value", "pkg_core::CellImpl", "setter"),
        ("pkg._core.cells.Cell.zero", "pkg_core::CellImpl::make_zero", "method"),
        ("pkg._core.extra", "pkg_core::tools", "module"),
        ("pkg._core.extra.ping", "pkg_core::ping", "function"),
        # `attach_child` is not named like a submodule helper, but its body builds one.
        ("pkg._core.more", "pkg_core::tools", "module"),
        ("pkg._core.more.ping", "pkg_core::ping", "function"),
    ]


def test_unregistered_class_falls_back_to_its_declared_module(tmp_path):
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "lonely"\n')
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "lib.rs").write_text(
        '#[pyclass(module = "pkg.things")]\nstruct Thing;\n\n#[pymethods]\nimpl Thing {\n    fn poke(&self) {}\n}\n'
    )
    exports = link_pyo3(parse_tree(tmp_path), {})
    assert sorted((e.python_name, e.kind, e.line) for e in exports) == [
        ("pkg.things.Thing", "class", 2),
        ("pkg.things.Thing.poke", "method", 6),
    ]
