"""The crash triage (`internal_error` and `needs_another_call_first` in
sandbox/surface_explorer.py) on a real package written to disk and imported: which exceptions
raised through it are the library's internal errors, and which are the caller's doing (a
callable that does not take what the library passes, an option the object lacks, a call made
before the method that fills the state it reads). No quantum library needed; the frames are real."""

import importlib
import sys
import textwrap

import pytest

from tests.contracts.conftest import SANDBOX_DIR

PACKAGE = "triagepkg"
SOURCE = textwrap.dedent('''
    import functools

    def apply(circuit):
        """Evaluates `circuit()`: a function of no arguments."""
        return circuit()

    def apply_wrapped(circuit):
        wrapped = Wrapper(circuit)
        return wrapped()

    class Wrapper:
        def __init__(self, func):
            self.func = func

        def __call__(self):
            return self.func()

    def _helper(a, b):
        return a + b

    def uses_helper_wrongly(x):
        return _helper(x)

    class Device:
        def execute(self, method="jacobian"):
            return getattr(self, method)()

        def broken(self):
            return getattr(self, "no_such_member")

        def none_attribute(self):
            return None.shape

    class Sampler:
        def __init__(self):
            self._samples = None  # filled by execute
            self.table = None  # never filled by any method

        def execute(self):
            self._samples = [3, 1, 2]

        def sample(self):
            return self._samples[0]

        def lookup(self):
            return self.table[0]

    class Molecule:
        def __init__(self):
            self.orbitals = None  # filled by solve(molecule), a function of the package

        def orbital(self, i):
            return self.orbitals[i]

    def solve(molecule):
        molecule.orbitals = [0.5, 0.25]

    class Counter:
        def __init__(self):
            self._vector = None  # filled by the `shots` setter

        @property
        def shots(self):
            return sum(self._vector or [])

        @shots.setter
        def shots(self, value):
            self._vector = [value]

        def statistics(self):
            return [s for s in self._vector]

    class Facade:
        """Hands what it does not have to the counter it holds."""
        def __init__(self, counter):
            self._counter = counter

        def __getattr__(self, name):
            return getattr(self._counter, name)
''')


@pytest.fixture()
def triage(tmp_path, monkeypatch):
    (tmp_path / PACKAGE).mkdir()
    (tmp_path / PACKAGE / "__init__.py").write_text(SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(SANDBOX_DIR))
    sys.modules.pop(PACKAGE, None)
    package = importlib.import_module(PACKAGE)
    explorer = importlib.import_module("surface_explorer")
    package.needs_another_call_first = explorer.needs_another_call_first
    yield package, explorer.internal_error
    sys.modules.pop(PACKAGE, None)


def _raised(call):
    try:
        call()
    except Exception as exc:  # noqa: BLE001 (the exception is what the test inspects)
        return exc
    raise AssertionError("the call did not raise")


def test_a_callers_function_that_does_not_take_what_the_library_passes_is_a_caller_error(triage):
    package, internal_error = triage

    def circuit(x):  # the library documents that it calls circuit()
        return x

    exc = _raised(lambda: package.apply(circuit))
    assert "missing 1 required positional argument" in str(exc)
    assert internal_error(exc, PACKAGE) is None
    # the same through a wrapper that keeps the function as `.func` (a QNode does)
    exc = _raised(lambda: package.apply_wrapped(circuit))
    assert internal_error(exc, PACKAGE) is None


def test_the_library_calling_its_own_function_wrongly_is_an_internal_error(triage):
    package, internal_error = triage
    exc = _raised(lambda: package.uses_helper_wrongly(1))
    assert "_helper() missing 1 required positional argument" in str(exc)
    where = internal_error(exc, PACKAGE)
    assert where is not None and where.endswith("in uses_helper_wrongly"), where


def test_a_callers_function_that_fails_inside_is_the_callers_error_too(triage):
    package, internal_error = triage

    def circuit():
        return [][1]

    assert internal_error(_raised(lambda: package.apply(circuit)), PACKAGE) is None


def test_a_member_named_by_a_parameter_that_the_object_lacks_is_unsupported_not_broken(triage):
    package, internal_error = triage
    exc = _raised(lambda: package.Device().execute())
    assert isinstance(exc, AttributeError)
    assert internal_error(exc, PACKAGE) is None


def test_a_literal_member_the_library_looks_up_and_lacks_is_an_internal_error(triage):
    package, internal_error = triage
    for call in (package.Device().broken, package.Device().none_attribute):
        exc = _raised(call)
        assert isinstance(exc, AttributeError)
        assert internal_error(exc, PACKAGE) is not None, call


def test_state_another_method_fills_is_a_precondition_state_nothing_fills_is_not(triage):
    package, _ = triage
    sampler = package.Sampler()
    early = _raised(sampler.sample)  # before execute(): its samples are still None
    assert package.needs_another_call_first(early, sampler)
    sampler.execute()
    assert sampler.sample() == 3  # after it, the same call answers
    never = _raised(package.Sampler().lookup)  # `table` is None and no method assigns it
    assert not package.needs_another_call_first(never, package.Sampler())
    fresh = package.Sampler()
    assert not package.needs_another_call_first(_raised(fresh.lookup), fresh)
    # a None-error of another object's method says nothing about this one's state
    assert not package.needs_another_call_first(early, package.Sampler())


def test_state_a_function_of_the_package_or_a_property_setter_fills_is_a_precondition(triage):
    """Molecule.orbital before `solve(molecule)`, Counter.statistics before `shots` is set: the
    state is filled by code other than a plain method, and the call came too early."""
    package, _ = triage
    molecule = package.Molecule()
    assert package.needs_another_call_first(_raised(lambda: molecule.orbital(0)), molecule)
    package.solve(molecule)
    assert molecule.orbital(0) == 0.5
    counter = package.Counter()
    assert package.needs_another_call_first(_raised(counter.statistics), counter)
    # the same call made through an object that hands it to the counter it holds
    facade = package.Facade(package.Counter())
    assert package.needs_another_call_first(_raised(facade.statistics), facade)
    counter.shots = 10
    assert counter.statistics() == [10]
    # and `table`, which nothing in the package assigns, is still evidence
    sampler = package.Sampler()
    assert not package.needs_another_call_first(_raised(sampler.lookup), sampler)


def test_state_a_bare_objects_defaults_left_unset_is_its_configuration_not_a_defect(triage):
    """Sampler() built bare leaves `table` None and no method fills it: for an object a bare
    constructor built, that is a configuration the engine did not give; for a documented one
    it stays evidence."""
    package, _ = triage
    bare = package.Sampler()
    exc = _raised(bare.lookup)
    assert package.needs_another_call_first(exc, bare, bare=True)
    assert not package.needs_another_call_first(exc, bare, bare=False)
    # not a None-error: nothing the defaults left unset explains it
    device = package.Device()
    assert not package.needs_another_call_first(_raised(device.broken), device, bare=True)


def test_a_recipe_that_panics_builds_nothing_as_one_that_raises(monkeypatch):
    """A Rust panic (PyO3's PanicException, a BaseException) while a recipe builds its object
    is the recipe failing, turned into an error its callers set aside."""
    monkeypatch.syspath_prepend(str(SANDBOX_DIR))
    explorer = importlib.import_module("surface_explorer")
    surface = explorer.Surface("json", prelude="")
    panicking = explorer.Recipe("json.Panics#new", "class PanicException(BaseException):\n    pass\n"
                                "raise PanicException('index out of bounds')\n", "json.Panics", documented=False)
    with pytest.raises(RuntimeError, match="panicked"):
        surface.run_recipe(panicking)
    # any other BaseException still propagates (a KeyboardInterrupt is no failed recipe)
    interrupted = explorer.Recipe("json.Stops#new", "raise KeyboardInterrupt\n", "json.Stops", documented=False)
    with pytest.raises(KeyboardInterrupt):
        surface.run_recipe(interrupted)


def test_a_panic_on_an_index_or_shape_a_guessed_value_explains_is_set_aside(monkeypatch):
    """With guessed arguments, a compiled library's index, shape or failed-lookup panic is its
    IndexError, ValueError or KeyError (set aside, as those are); any other panic stays evidence."""
    monkeypatch.syspath_prepend(str(SANDBOX_DIR))
    calls = importlib.import_module("surface_calls")
    for message in ("index out of bounds: the len is 2 but the index is 5",
                    "ndarray: inputs 4 × 4 and 2 × 2 are not compatible for matrix multiplication",
                    "called `Option::unwrap()` on a `None` value"):
        assert calls.OUT_OF_BOUNDS_PANIC.search(message), message
    for message in ("internal error: entered unreachable code", "attempt to subtract with overflow",
                    "called `Result::unwrap()` on an `Err` value: Singular"):
        assert not calls.OUT_OF_BOUNDS_PANIC.search(message), message


def test_a_parameters_name_says_nothing_where_its_docs_type_it_as_no_number(monkeypatch):
    """`n` names a count, unless the class's docs type it otherwise (an array of occupation
    numbers, one per wire): then a count of 2 is no value of it."""
    monkeypatch.syspath_prepend(str(SANDBOX_DIR))
    explorer = importlib.import_module("surface_explorer")
    import inspect as _inspect

    def parameter_of(doc):
        class Projector:
            def __init__(self, n, wires):
                self.n, self.wires = n, wires
        Projector.__doc__ = doc
        return Projector, _inspect.signature(Projector).parameters["n"]

    assert explorer.generic_parameter_value(*parameter_of("A projector.\n\nArgs:\n    n (array): numbers\n")) is None
    assert explorer.generic_parameter_value(*parameter_of("A projector.\n\nArgs:\n    n (int): a count\n")) == "2"
    assert explorer.generic_parameter_value(*parameter_of("A projector.")) == "2"  # untyped: the name decides


def test_a_list_we_passed_read_as_an_array_and_a_none_left_for_later_are_set_aside(monkeypatch):
    monkeypatch.syspath_prepend(str(SANDBOX_DIR))
    calls = importlib.import_module("surface_calls")
    read_as_array = AttributeError("'list' object has no attribute 'shape'")
    assert calls._our_sequence_read_as_an_array(read_as_array, [[0.37, 1.19], 2])
    assert not calls._our_sequence_read_as_an_array(read_as_array, [2, "a"])  # the list was the library's own
    assert not calls._our_sequence_read_as_an_array(AttributeError("'Wires' object has no attribute 'x'"),
                                                    [[0.37]])

    class Compressed:
        def __init__(self, params):
            self.params = params
    assert calls._holds_none({"precision": None})
    assert calls._holds_none({"base": Compressed({"num_coeffs": 2, "precision": None})})
    assert not calls._holds_none({"base": Compressed({"num_coeffs": 2, "precision": 1e-3}), "k": 1})
    # the call is made; only a None-error of a call given a held mapping with a None is set aside
    none_error = TypeError("unsupported operand type(s) for *: 'float' and 'NoneType'")
    held = [("property", (("spec", "obj"), "resource_params"))]
    assert calls._failed_on_a_held_none(none_error, held, [{"precision": None}])
    assert not calls._failed_on_a_held_none(none_error, held, [{"precision": 1e-3}])
    assert not calls._failed_on_a_held_none(IndexError("list index out of range"), held, [{"precision": None}])
    assert not calls._failed_on_a_held_none(none_error, [("literal", "None")], [{"precision": None}])
