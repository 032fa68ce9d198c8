"""The warm worker prepares the surface before it forks a child per check, so whatever a recipe
leaves in the preparing process is inherited by every check. A recipe that starts a thread
(Qiskit's compiled code starts its thread pool on first use) left the parent with threads, and
each forked child then hung on a lock a vanished thread held: a whole law's subject listing
timed out in an audit. While `isolated_builds` is on, recipes run in children of their own and
only their answer comes back. No quantum library needed: a real fork, a real thread."""

import importlib
import threading
import uuid

import pytest

from tests.contracts.conftest import SANDBOX_DIR

STARTS_A_THREAD = ("import threading, time\n"
                   "threading.Thread(target=time.sleep, args=(30,), daemon=True, name='recipe-{mark}').start()\n"
                   "obj = {{'answer': 42}}\n")


@pytest.fixture()
def explorer(monkeypatch):
    monkeypatch.syspath_prepend(str(SANDBOX_DIR))
    return importlib.import_module("surface_explorer")


def _recipe_threads(mark: str) -> list[threading.Thread]:
    # by name, not by count: other tests of the same worker start and end threads of their own
    return [t for t in threading.enumerate() if t.name == f"recipe-{mark}"]


def test_a_recipe_probed_in_isolation_leaves_no_thread_behind(explorer):
    surface = explorer.Surface("json", prelude="")
    mark = uuid.uuid4().hex
    recipe = explorer.Recipe("json.Starts#new", STARTS_A_THREAD.format(mark=mark), "json.Starts", documented=False)
    with surface.isolated_builds():
        answer = surface.probe(recipe, lambda namespace: sorted(namespace["obj"]))
    assert answer == ["answer"]
    assert _recipe_threads(mark) == []  # the thread lived and died in the child
    # outside isolation the same probe runs here, and its thread is this process's
    surface.probe(recipe, lambda namespace: None)
    assert len(_recipe_threads(mark)) == 1


def test_a_recipe_failing_in_isolation_fails_as_it_would_here(explorer):
    surface = explorer.Surface("json", prelude="")
    failing = explorer.Recipe("json.Fails#new", "obj = [][1]\n", "json.Fails", documented=False)
    with surface.isolated_builds(), pytest.raises(RuntimeError, match="IndexError"):
        surface.probe(failing, lambda namespace: namespace["obj"])
    with pytest.raises(IndexError):
        surface.probe(failing, lambda namespace: namespace["obj"])


def test_specimens_are_the_same_in_isolation(explorer):
    surface = explorer.Surface("json", prelude="")
    recipe = explorer.Recipe("json.Dicts#doc0", "first = {'a': 1}\nsecond = {}\nname = 'x'\n", "json.Dicts",
                             documented=True)
    surface.__dict__["recipes"] = {recipe.id: recipe}  # cached property: this surface's only recipe
    surface.recipes_for = lambda cls: [recipe]
    here = surface.specimens(dict, usable=True)
    with surface.isolated_builds():
        isolated = surface.specimens(dict, usable=True)
    assert here == isolated == [("json.Dicts#doc0", "first"), ("json.Dicts#doc0", "second")]
