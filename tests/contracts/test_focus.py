"""`--focus` on the fixture library's real index: a check runs only if its entry API
reaches a focus unit, through Python calls, PyO3 links and class membership."""

import shutil
from pathlib import Path

import pytest
from package_trees import index_tree, write_package

from qusema.contracts.focus import api_names, build_focus, is_public_api
from qusema.units.index_db import IndexDB
from qusema.units.indexer import build_index, parser_tag
from qusema.units.layout import detect_scope


@pytest.fixture(scope="module")
def qfix_index(tmp_path_factory) -> IndexDB:
    root = Path(__file__).parents[1] / "fixtures" / "qfix"
    tmp = tmp_path_factory.mktemp("focus")
    tree = tmp / "qfix"
    shutil.copytree(root, tree)
    db = IndexDB(tmp / "index.sqlite", parser_tag())
    build_index(tree, db, detect_scope(tree), workers=1)
    return db


def test_a_rust_unit_is_reached_from_the_python_apis_that_call_it(qfix_index: IndexDB):
    # Circuit.shifted -> apply_phase -> <Unit as Phaser>::phase_of -> Phaser::angle_of -> normalise
    focus = build_focus(qfix_index, ["qfix_core::angles::normalise"], "qfix")
    assert focus.covers("qfix.Circuit.shifted")
    assert not focus.covers("qfix.Circuit.append")  # append never reaches normalise
    assert not focus.covers("qfix.HGate.inverse")


def test_checks_are_ranked_by_the_calls_between_their_api_and_the_focus(qfix_index: IndexDB):
    # Circuit.shifted -> apply_phase -> phase_of -> angle_of -> normalise; phase_of is public
    # and nearer; a name that cannot reach the unit has no distance at all.
    focus = build_focus(qfix_index, ["qfix_core::angles::normalise"], "qfix")
    near, far = focus.distance("qfix.phase_of"), focus.distance("qfix.Circuit.shifted")
    assert near is not None and far is not None and near < far
    assert focus.distance("qfix.Circuit.append") is None
    assert focus.distance("qfix.phase_of on qfix.Circuit.append") == near  # the nearest name counts


def test_public_callers_do_not_end_the_walk(qfix_index: IndexDB):
    # phase_of (public) calls Circuit.global_phase (public) which reads the table.
    focus = build_focus(qfix_index, ["qfix_core::table::PhaseTable::lookup"], "qfix")
    assert focus.covers("qfix.Circuit.global_phase") and focus.covers("qfix.phase_of")


def test_a_methods_class_is_covered_but_not_the_classes_users(qfix_index: IndexDB):
    focus = build_focus(qfix_index, ["qfix.gates.RZGate.describe"], "qfix")
    assert focus.covers("qfix.RZGate.describe")
    assert focus.covers("qfix.RZGate")  # a check entering through the class may call the method
    assert focus.covers("qfix.analysis.rz_phase")  # calls describe
    # Circuit is built by many; RZGate's constructor reaching Gate.__init__ does not pull it in.
    assert not focus.covers("qfix.Circuit")


def test_a_file_focus_covers_every_function_of_the_file(qfix_index: IndexDB):
    from qusema.agent.unit_selection import units_in_file

    focus = build_focus(qfix_index, units_in_file(qfix_index, "qfix/gates.py"), "qfix")
    assert focus.covers("qfix.HGate") and focus.covers("qfix.RZGate.inverse")
    assert not focus.covers("qfix.Circuit.shifted")


def test_api_strings_name_their_entry_points_without_their_string_arguments():
    aliases = {"qml": "pennylane"}
    assert api_names("qml.probs on qml.device('default.qubit') with qml.set_shots", aliases) == [
        "pennylane.probs", "pennylane.device", "pennylane.set_shots"]
    assert api_names("qiskit.quantum_info.Pauli.to_matrix(sparse=True)", {}) == ["qiskit.quantum_info.Pauli.to_matrix"]
    assert api_names("a description with no dotted name", aliases) == []


def test_an_api_is_public_only_if_every_name_it_mentions_is(qfix_index: IndexDB):
    assert is_public_api(qfix_index, "qfix.Circuit.shifted", "qfix")
    assert is_public_api(qfix_index, "qfix.phase_of on qfix.Circuit('x')", "qfix")
    assert not is_public_api(qfix_index, "qfix.gates.make_circuit", "qfix")  # not exported
    assert not is_public_api(qfix_index, "qfix.phase_of on qfix.gates.bell", "qfix")
    assert not is_public_api(qfix_index, "no names here", "qfix")


def test_a_private_method_is_reached_from_its_classes_public_methods(qfix_index: IndexDB):
    # Nothing calls Circuit._check but append; still, a check of Circuit.inverse may enter it
    # through the class (a callback, a dispatch no resolver follows).
    focus = build_focus(qfix_index, ["qfix.circuit.Circuit._check"], "qfix")
    assert focus.covers("qfix.Circuit.append") and focus.covers("qfix.Circuit.inverse")
    assert not focus.covers("qfix.HGate.inverse")
    public = build_focus(qfix_index, ["qfix.circuit.Circuit.global_phase"], "qfix")
    assert not public.covers("qfix.Circuit.append")  # a public method gets no such widening


DISPATCH_PACKAGE = {
    "qdisp/__init__.py": "from qdisp.apply import apply, simulate\n",
    "qdisp/apply.py": (
        "from functools import singledispatch\n\n\n"
        "class Measure:\n    pass\n\n\n"
        "class Gate:\n    pass\n\n\n"
        "@singledispatch\n"
        "def apply(op, state):\n    return state\n\n\n"
        "@apply.register\n"
        "def apply_measure(op: Measure, state):\n    return _collapse(state)\n\n\n"
        "def _collapse(state):\n    return state[:1]\n\n\n"
        "def simulate(ops, state):\n    for op in ops:\n        state = apply(op, state)\n    return state\n\n\n"
        "def describe(ops):\n    return [type(op).__name__ for op in ops]\n"),
}


def test_an_implementation_registered_with_a_dispatcher_is_reached_through_it(tmp_path: Path):
    db = index_tree(write_package(tmp_path / "qdisp", DISPATCH_PACKAGE), tmp_path / "index.sqlite")
    # simulate -> apply --(registered)--> apply_measure -> _collapse: no call names apply_measure.
    focus = build_focus(db, ["qdisp.apply._collapse"], "qdisp")
    assert focus.covers("qdisp.simulate")
    assert not focus.covers("qdisp.apply.describe")


PLUGIN_PACKAGE = {
    "qplug/__init__.py": "from qplug.passes import Synthesis\n",
    "qplug/passes.py": ("from importlib.metadata import entry_points\n\n\n"
                        "class Synthesis:\n"
                        "    def run(self, gate):\n"
                        "        plugins = {e.name: e.load()() for e in entry_points(group='qplug.synthesis')}\n"
                        "        return plugins['default'].run(gate)\n\n\n"
                        "def describe():\n"
                        "    return 'synthesis'\n"),
    "qplug/default_plugin.py": ("class DefaultSynthesis:\n"
                                "    def run(self, gate):\n"
                                "        return _euler_basis(gate)\n\n\n"
                                "def _euler_basis(gate):\n"
                                "    return ['rz', 'sx']\n"),
    # Other classes with a `run`: `plugins['default'].run` has too many candidates to follow.
    "qplug/others.py": "".join(f"class Pass{i}:\n    def run(self, dag):\n        return dag\n\n\n" for i in range(4)),
    "qplug.egg-info/entry_points.txt": ("[qplug.synthesis]\n"
                                        "default = qplug.default_plugin:DefaultSynthesis\n"),
}


def test_a_plugin_declared_as_an_entry_point_is_reached_through_its_loader(tmp_path: Path):
    from qusema.units.entry_points import EntryPoint, declared_entry_points

    tree = write_package(tmp_path / "qplug", PLUGIN_PACKAGE)
    assert declared_entry_points(tree) == [
        EntryPoint("qplug.synthesis", "default", "qplug.default_plugin.DefaultSynthesis")]
    db = index_tree(tree, tmp_path / "index.sqlite")
    # Synthesis.run --(entry point group "qplug.synthesis")--> DefaultSynthesis.run -> _euler_basis:
    # no call in the source names DefaultSynthesis.
    focus = build_focus(db, ["qplug.default_plugin._euler_basis"], "qplug")
    assert focus.covers("qplug.Synthesis")
    assert not focus.covers("qplug.passes.describe")
    # Without the metadata the plugin is unreachable, as before.
    (tree / "qplug.egg-info" / "entry_points.txt").unlink()
    db2 = index_tree(tree, tmp_path / "index2.sqlite")
    assert not build_focus(db2, ["qplug.default_plugin._euler_basis"], "qplug").covers("qplug.Synthesis")


def test_entry_points_from_pyproject_when_no_metadata_directory(tmp_path: Path):
    from qusema.units.entry_points import EntryPoint, declared_entry_points

    (tmp_path / "pyproject.toml").write_text(
        "[project]\nname = 'p'\n[project.entry-points.'p.devices']\n'dev.one' = 'p.devices:One'\n")
    assert declared_entry_points(tmp_path) == [EntryPoint("p.devices", "dev.one", "p.devices.One")]
    assert declared_entry_points(tmp_path / "missing") == []


def test_an_entry_named_by_its_defining_modules_path_is_that_public_segment(qfix_index: IndexDB):
    """The surface names a member by the module that defines it (qfix.gates.RZGate.describe);
    the public map lists it under its exported name (qfix.RZGate.describe): the same entry."""
    from qusema.contracts.focus import entry_segments

    exported = entry_segments(qfix_index, "qfix.RZGate.describe", "qfix")
    assert exported == ["qfix.gates.RZGate.describe"]
    assert entry_segments(qfix_index, "qfix.gates.RZGate.describe", "qfix") == exported
    # a private helper's own path is no public entry
    private = [q for (q,) in qfix_index.conn.execute(
        "SELECT qualname FROM segments WHERE kind='function' AND qualname NOT IN (SELECT qualname FROM public_api)")]
    assert private and entry_segments(qfix_index, private[0], "qfix") == []
