"""`pennylane.surface.configurations-agree` (sandbox/contracts/pennylane_configurations.py): a
documented QNode updated with one other documented setting (a differentiation method, a
simulator of the same model, ...) computes the same results and Jacobian. Planted defects of
one configuration are caught with a reproducer that fails; the real release is quiet on the
same QNodes."""

import json

import pytest

from tests.contracts.conftest import SANDBOX_DIR

LAW = "pennylane.surface.configurations-agree"
# circuit(0.5) returns <Y> after RX(x): a result and a Jacobian (-cos x), neither of them 0
EXPECTATION = "pennylane.expval#doc0|circuit"
# the same circuit's variance (cos^2 x; its derivative -sin 2x)
VARIANCE = "pennylane.var#doc0|circuit"
# circuit() returns qp.density_matrix: a result with no trainable argument
DENSITY = "pennylane.density_matrix#doc0|circuit"
# circuit() returns qp.state() on default.qubit without wires: its wires are ordered as each
# setting's preprocessing meets them (adjoint's otherwise than backprop's), and another simulator
# given the tape's wires ([1, 0] here) orders them otherwise again; no order is documented
WIRELESS_STATE = "pennylane.Reflection#doc1|circuit"

# default.mixed answers every expectation value with its sign flipped.
MIXED_FLIPS_SIGNS = (
    "import functools\n"
    "import numpy as np\n"
    "from pennylane.devices import DefaultMixed\n"
    "original = DefaultMixed.execute\n"
    "def execute(self, circuits, execution_config=None):\n"
    "    results = original(self, circuits, execution_config)\n"
    "    return tuple(-r if np.ndim(r) == 0 else r for r in results)\n"
    "DefaultMixed.execute = functools.wraps(original)(execute)\n")

# default.qubit's adjoint differentiation doubles every derivative.
ADJOINT_DOUBLES = (
    "import pennylane.devices.default_qubit as dq\n"
    "def doubled(found):\n"
    "    return tuple(doubled(f) for f in found) if isinstance(found, tuple) else 2 * found\n"
    "original_jacobian, original_vjp = dq.adjoint_jacobian, dq.adjoint_vjp\n"
    "dq.adjoint_jacobian = lambda *a, **k: doubled(original_jacobian(*a, **k))\n"
    "dq.adjoint_vjp = lambda *a, **k: doubled(original_vjp(*a, **k))\n")


def _load(monkeypatch):
    import importlib

    monkeypatch.syspath_prepend(str(SANDBOX_DIR))
    return importlib.import_module("contracts.pennylane_configurations")


QNODE_DOC = '''
    Args:
        interface (str): The interface.
        diff_method (str or .Transform): The method of differentiation. The following
            strings are allowed:

            * ``"best"``: Best available method.

            * ``"backprop"``: Use classical backpropagation.

            * ``"hadamard"``: Use the hadamard test. Modes can be selected via a ``"mode"``
              in ``gradient_kwargs``.

            * ``"spsa"``: Uses a simultaneous perturbation to approximate the derivative.

        mcm_method (str | None): Available methods include ``"deferred"`` (the deferred
            measurement principle), ``"one-shot"`` (each shot separately when using finite
            shots), and ``"tree-traversal"`` (visits the tree).
        max_diff (int): Something else, ``"not-an-option"``.
'''


@pytest.mark.skipif(not (SANDBOX_DIR / "contract_runtime.py").exists(), reason="no sandbox")
def test_the_options_are_read_from_the_docs_list_heads_and_prose(monkeypatch):
    module = _load(monkeypatch)
    diff = module.documented_options(QNODE_DOC, "diff_method")
    # the head of each item; "mode" is named inside an item (another parameter's); spsa approximates
    assert list(diff) == ["best", "backprop", "hadamard"], diff
    mcm = module.documented_options(QNODE_DOC, "mcm_method")
    assert list(mcm) == ["deferred", "one-shot", "tree-traversal"], mcm
    assert "finite shots" in mcm["one-shot"] and "finite shots" not in mcm["tree-traversal"]


@pytest.mark.skipif(not (SANDBOX_DIR / "contract_runtime.py").exists(), reason="no sandbox")
def test_the_same_numbers_in_another_order_are_told_from_other_numbers(monkeypatch):
    import numpy as np

    module = _load(monkeypatch)
    state = np.array([-0.25, 0.75, -0.433, -0.433, 0, 0, 0, 0])
    permuted = state[[0, 1, 4, 5, 2, 3, 6, 7]]
    assert module._same_numbers(state, permuted, 1e-6) and not module._agree(state, permuted, 1e-6)
    assert not module._same_numbers(state, -state, 1e-6)
    assert not module._same_numbers((state,), (state, state), 1e-6)


@pytest.mark.release
def test_the_release_is_quiet_on_documented_qnodes(pennylane_runtime):
    for subject in (EXPECTATION, VARIANCE, DENSITY, WIRELESS_STATE):
        pennylane_runtime.assert_holds(LAW, subject, examples=40)


@pytest.mark.release
def test_a_simulator_that_answers_otherwise_is_caught(pennylane_runtime):
    result = pennylane_runtime.assert_caught(LAW, EXPECTATION, MIXED_FLIPS_SIGNS, examples=60)
    assert "device='default.mixed'" in result["message"], result["message"]


@pytest.mark.release
def test_a_differentiation_method_that_answers_otherwise_is_caught(pennylane_runtime):
    result = pennylane_runtime.assert_caught(LAW, EXPECTATION, ADJOINT_DOUBLES, examples=60)
    assert "Jacobian" in result["message"] and "adjoint" in result["message"], result["message"]


@pytest.mark.release
def test_only_qnodes_the_docs_call_are_subjects_with_the_docs_arguments(pennylane_runtime):
    found = pennylane_runtime(
        "import json\nfrom contracts import pennylane_configurations as m\n"
        "from contracts.pennylane_surface import recorded_calls\n"
        "print(json.dumps({'subjects': m.CONTRACTS[0].subjects(),\n"
        "  'wrapped': recorded_calls('c', None, 'def c(x):\\n    pass\\nd = qp.grad(c)(0.5)\\n'),\n"
        "  'uncalled': recorded_calls('c', None, 'def c(x):\\n    pass\\n'),\n"
        "  'bare': recorded_calls('c', None, 'def c():\\n    pass\\n')}))")
    assert EXPECTATION in found["subjects"] and DENSITY in found["subjects"], found["subjects"][:20]
    # MPS's docs define `circuit(template_weights)` and never call it: no arguments to hold it to
    assert not any(s.startswith("pennylane.MPS#doc0|") for s in found["subjects"])
    assert found["wrapped"] == ["0.5"] and found["uncalled"] == [] and found["bare"] == [""], found
