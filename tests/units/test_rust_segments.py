"""Exact segments, docs and facts of the fixture library's Rust half, written down by
reading the fixture (line numbers are the fixture's own); and partitions of generated
over-long functions."""

from pathlib import Path

from qusema.units.records import DocPiece
from qusema.units.rust_segments import find_rust_files, parse_rust_file, rust_module_path

PHASE = "crates/qfix_core/src/phase.rs"
TABLE = "crates/qfix_core/src/table.rs"
ANGLES = "crates/qfix_core/src/angles/mod.rs"
UNITS = "crates/qfix_core/src/angles/units.rs"
CORE_LIB = "crates/qfix_core/src/lib.rs"
PYEXT = "crates/pyext/src/lib.rs"


def parse(root: Path, rel: str):
    return parse_rust_file(rel, (root / rel).read_bytes(), rust_module_path(root, rel))


def shape(fp):
    return [(s.qualname, s.kind, s.start_line, s.end_line) for s in fp.segments]


def write_crate(root: Path, name: str, files: dict[str, str]) -> None:
    (root / "Cargo.toml").write_text(f'[package]\nname = "{name}"\nversion = "0.1.0"\n')
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


# --------------------------------------------------------------------------- files and modules


def test_finds_every_rust_file(qfix_root):
    assert find_rust_files(qfix_root) == [PYEXT, ANGLES, UNITS, CORE_LIB, PHASE, TABLE]


def test_only_cargo_build_output_is_skipped(tmp_path):
    # `target/` beside a Cargo.toml is build output; a source module named `target` is not.
    write_crate(tmp_path, "demo", {"src/lib.rs": "", "src/target/mod.rs": "", "target/debug/build.rs": ""})
    assert find_rust_files(tmp_path) == ["src/lib.rs", "src/target/mod.rs"]


def test_module_paths(qfix_root):
    assert rust_module_path(qfix_root, CORE_LIB) == "qfix_core"
    assert rust_module_path(qfix_root, ANGLES) == "qfix_core::angles"
    assert rust_module_path(qfix_root, UNITS) == "qfix_core::angles::units"
    assert rust_module_path(qfix_root, PHASE) == "qfix_core::phase"
    assert rust_module_path(qfix_root, PYEXT) == "qfix_pyext"


def test_module_paths_outside_src_and_binaries(tmp_path):
    write_crate(tmp_path, "my-tool", {"src/main.rs": "", "build.rs": "", "tests/smoke.rs": ""})
    assert rust_module_path(tmp_path, "src/main.rs") == "my_tool"
    assert rust_module_path(tmp_path, "build.rs") == "my_tool::build"
    assert rust_module_path(tmp_path, "tests/smoke.rs") == "my_tool::tests::smoke"


# --------------------------------------------------------------------------- segments


def test_phase_segments(qfix_root):
    assert shape(parse(qfix_root, PHASE)) == [
        ("qfix_core::phase::Phaser::angle_of", "method", 15, 17),
        ("qfix_core::phase::<Unit as Phaser>::phase_of", "method", 24, 27),
        ("qfix_core::phase::apply_phase", "function", 31, 38),
        ("qfix_core::phase::py_phase_angle", "function", 41, 50),
        ("qfix_core::phase::first_entries", "function", 53, 55),
        ("qfix_core::phase::phase_gate_class!::$name::new", "method", 65, 68),
        ("qfix_core::phase::phase_gate_class!::$name::angle", "method", 71, 73),
        ("qfix_core::phase::phase_mod", "function", 81, 87),
        ("qfix_core::phase::tests::unit_phase_of_zero_is_one", "function", 93, 96),
    ]


def test_table_segments(qfix_root):
    assert shape(parse(qfix_root, TABLE)) == [
        ("qfix_core::table::PhaseTable::new", "method", 19, 26),
        ("qfix_core::table::PhaseTable::entry", "method", 28, 31),
        ("qfix_core::table::PhaseTable::py_new", "method", 36, 39),
        ("qfix_core::table::PhaseTable::lookup", "method", 42, 44),
        ("qfix_core::table::PhaseTable::get_step", "method", 47, 50),
        ("qfix_core::table::PhaseTable::__len__", "method", 52, 54),
    ]


def test_other_fixture_segments(qfix_root):
    assert shape(parse(qfix_root, CORE_LIB)) == [("qfix_core::wrap", "function", 13, 16)]
    assert shape(parse(qfix_root, ANGLES)) == [("qfix_core::angles::normalise", "function", 10, 17)]
    assert shape(parse(qfix_root, UNITS)) == [("qfix_core::angles::units::degrees_to_radians", "function", 1, 4)]
    assert shape(parse(qfix_root, PYEXT)) == [
        ("qfix_pyext::add_submodule", "function", 6, 13),
        ("qfix_pyext::_native", "function", 15, 19),
    ]


def test_owners_and_traits(qfix_root):
    by_name = {s.qualname: s for s in parse(qfix_root, PHASE).segments}
    trait_impl = by_name["qfix_core::phase::<Unit as Phaser>::phase_of"]
    assert (trait_impl.owner, trait_impl.trait, trait_impl.name) == ("qfix_core::phase::Unit", "Phaser", "phase_of")
    default = by_name["qfix_core::phase::Phaser::angle_of"]
    assert (default.owner, default.trait) == ("qfix_core::phase::Phaser", None)
    template = by_name["qfix_core::phase::phase_gate_class!::$name::new"]
    assert template.owner == "qfix_core::phase::phase_gate_class!::$name"
    assert template.decorators == ("#[new]",)
    assert by_name["qfix_core::phase::apply_phase"].owner is None


def test_attributes_signature_and_source(qfix_root):
    segment = {s.qualname: s for s in parse(qfix_root, PHASE).segments}["qfix_core::phase::apply_phase"]
    assert segment.decorators == ("#[pyfunction]", "#[pyo3(signature = (re, im, angle))]")
    assert segment.signature == "pub fn apply_phase(re: f64, im: f64, angle: f64) -> (f64, f64)"
    assert segment.source.splitlines()[0] == "#[pyfunction]"
    assert segment.source.splitlines()[-1] == "}"
    assert segment.language == "rust" and segment.file == PHASE and segment.context == ""


def test_docs_of_every_kind(qfix_root):
    apply = {s.qualname: s for s in parse(qfix_root, PHASE).segments}["qfix_core::phase::apply_phase"]
    assert apply.docs == (DocPiece("rust ///", f"{PHASE}:30", "Multiply the amplitude `(re, im)` by `exp(i angle)`."),)
    (normalise,) = parse(qfix_root, ANGLES).segments
    assert normalise.docs == (
        DocPiece(
            "rust ///",
            f"{ANGLES}:7",
            "Normalise an angle to `(-pi, pi]`.\n\nAngles are wrapped first, then shifted down by a full turn if needed.",
        ),
    )
    (degrees,) = parse(qfix_root, UNITS).segments
    assert degrees.docs == (DocPiece("rust #[doc]", f"{UNITS}:1", "Convert degrees to radians."),)
    assert degrees.decorators == ('#[doc = "Convert degrees to radians."]',)


def test_module_docs_go_to_the_file_not_the_functions(qfix_root):
    fp = parse(qfix_root, CORE_LIB)
    assert [(d["module"], d["source"], d["origin"], d["text"]) for d in fp.facts["module_docs"]] == [
        (
            "qfix_core",
            "rust ///",
            f"{CORE_LIB}:1",
            "Core numerics of the qfix fixture library.\n\nOnly Stage I reads this crate; it is never built.",
        )
    ]
    (wrap,) = fp.segments
    assert wrap.docs == (DocPiece("rust ///", f"{CORE_LIB}:12", "Wrap an angle into `[0, TAU)`."),)


def test_lines_of_code_leave_out_blanks_and_comments(qfix_root):
    assert parse(qfix_root, PHASE).loc == 70
    assert parse(qfix_root, TABLE).loc == 40
    assert parse(qfix_root, ANGLES).loc == 10  # the block doc comment is not code


# --------------------------------------------------------------------------- facts


def test_pyo3_facts(qfix_root):
    pyo3 = parse(qfix_root, PHASE).facts["pyo3"]
    assert [(f["qualname"], f["python_name"]) for f in pyo3["functions"]] == [
        ("qfix_core::phase::apply_phase", "apply_phase"),
        ("qfix_core::phase::py_phase_angle", "phase_angle"),
    ]
    (gate,) = pyo3["classes"]
    assert (gate["name"], gate["python_name"], gate["module_arg"], gate["macro"]) == (
        "$name", "$py_name", "qfix._native.phase", "phase_gate_class"
    )
    (module_fn,) = pyo3["module_fns"]
    assert module_fn["qualname"] == "qfix_core::phase::phase_mod" and module_fn["module_var"] == "m"
    assert [(r["kind"], r.get("target"), r["line"]) for r in module_fn["registrations"]] == [
        ("function", "apply_phase", 82),
        ("function", "py_phase_angle", 83),
        ("class", "PhaseTable", 84),
        ("class", "SGate", 85),
    ]
    table = parse(qfix_root, TABLE).facts["pyo3"]
    assert [(m["name"], m["python_name"], m["kind"]) for m in table["method_impls"][0]["methods"]] == [
        ("py_new", "__new__", "constructor"),
        ("lookup", "lookup", "method"),
        ("get_step", "step", "getter"),
        ("__len__", "__len__", "method"),
    ]
    assert table["classes"][0]["fields"] == [{"name": "size", "python_name": "size", "get": True, "set": False, "line": 12}]


def test_uses_and_impls(qfix_root):
    facts = parse(qfix_root, PHASE).facts
    assert [(u["path"], u["alias"], u["glob"]) for u in facts["uses"]] == [
        ("pyo3::prelude", None, True),
        ("crate::angles", None, False),
        ("crate::angles::normalise", "norm", False),
        ("crate::table::PhaseTable", None, False),
        ("super", None, True),
    ]
    assert [(i["type"], i["trait"], i.get("macro")) for i in facts["impls"]] == [
        ("Unit", "Phaser", None),
        ("$name", None, "phase_gate_class"),
    ]
    assert facts["macro_calls"] == [
        {"name": "phase_gate_class", "module": "qfix_core::phase", "line": 78,
         "args": ["SGate", '"S"', "std::f64::consts::FRAC_PI_2"]}
    ]
    assert facts["macro_stats"] == {"arms": 1, "arms_with_errors": 0, "items_skipped": 0, "fns": 2}


def test_macro_bodies_that_do_not_parse_are_skipped_and_counted():
    source = (
        "macro_rules! good {\n"
        "    ($t:ident) => { impl $t { fn make() -> Self { $t } } };\n"
        "}\n"
        "macro_rules! expression_only {\n"
        "    ($x:expr) => { $x + 1 };\n"
        "}\n"
        "macro_rules! broken {\n"
        "    ($v:vis $n:ident) => { $v fn $n( { } ) };\n"
        "}\n"
    )
    fp = parse_rust_file("src/lib.rs", source.encode(), "demo")
    assert shape(fp) == [("demo::good!::$t::make", "method", 2, 2)]
    # An expression is not an item, and `$v fn $n( { } )` is not one either (its delimiters are
    # balanced, as rustc requires of any token tree): one piece each is skipped.
    assert fp.facts["macro_stats"] == {"arms": 3, "arms_with_errors": 2, "items_skipped": 2, "fns": 1}


def test_cfg_alternatives_keep_distinct_qualnames():
    source = '#[cfg(unix)]\nfn path() -> &\'static str { "/" }\n#[cfg(windows)]\nfn path() -> &\'static str { "\\\\" }\n'
    fp = parse_rust_file("src/lib.rs", source.encode(), "demo")
    assert shape(fp) == [("demo::path", "function", 1, 2), ("demo::path@L4", "function", 3, 4)]


# --------------------------------------------------------------------------- partitions


def test_long_function_is_partitioned_at_statements(tmp_path):
    # Line 1 is the signature, lines 2..2101 hold `let x0` .. `let x2099`, line 2102 the
    # tail expression and 2103 the brace: 2,103 lines need three pieces of at most 1,000;
    # the smallest cap that still gives three is 701 lines.
    lines = ["fn big() -> u64 {", "    let x0: u64 = 1;"]
    lines += [f"    let x{i} = x{i - 1} + 1;" for i in range(1, 2100)]
    lines += ["    x2099", "}"]
    path = tmp_path / "big.rs"
    path.write_text("\n".join(lines) + "\n")
    fp = parse_rust_file("src/big.rs", path.read_bytes(), "demo::big")
    assert [(s.qualname, s.kind, s.name, s.start_line, s.end_line) for s in fp.segments] == [
        ("demo::big::big#p1", "partition", "big", 1, 701),
        ("demo::big::big#p2", "partition", "big", 702, 1402),
        ("demo::big::big#p3", "partition", "big", 1403, 2103),
    ]
    assert all(s.signature == "fn big() -> u64" for s in fp.segments)
    # Each piece gets the outside `let` it reads: p2 starts with `let x700 = x699 + 1;`.
    assert [s.context for s in fp.segments] == ["", "let x699 = x698 + 1;", "let x1400 = x1399 + 1;"]
    assert fp.segments[1].source.splitlines()[0] == "    let x700 = x699 + 1;"


def test_a_single_long_statement_is_cut_between_match_arms(tmp_path):
    # Line 1 signature, line 2 `match k {`, lines 3..1502 the arms 0..1499, line 1503 the
    # wildcard arm, 1504 and 1505 the braces: two pieces, the first ending at line 753.
    lines = ["fn pick(k: u32) -> u32 {", "    match k {"]
    lines += [f"        {i} => {i} + 1," for i in range(1500)]
    lines += ["        _ => 0,", "    }", "}"]
    fp = parse_rust_file("src/pick.rs", ("\n".join(lines) + "\n").encode(), "demo")
    assert [(s.qualname, s.start_line, s.end_line) for s in fp.segments] == [
        ("demo::pick#p1", 1, 753),
        ("demo::pick#p2", 754, 1505),
    ]
    assert fp.facts["oversized_partitions"] == []


def test_a_getter_named_by_a_string_literal_has_that_name_without_quotes():
    source = b"""use pyo3::prelude::*;
#[pyclass]
pub struct Data { x: u32 }
#[pymethods]
impl Data {
    #[getter("_indices")]
    fn get_indices(&self) -> u32 { self.x }
    #[setter("_indices")]
    fn set_indices(&mut self, v: u32) { self.x = v }
    #[getter(width)]
    fn get_w(&self) -> u32 { self.x }
    #[getter]
    fn get_plain(&self) -> u32 { self.x }
}
"""
    (impl,) = parse_rust_file("src/lib.rs", source, "crate_x").facts["pyo3"]["method_impls"]
    assert [(m["python_name"], m["kind"]) for m in impl["methods"]] == [
        ("_indices", "getter"), ("_indices", "setter"), ("width", "getter"), ("plain", "getter")]
