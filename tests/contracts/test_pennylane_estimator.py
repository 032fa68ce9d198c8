"""The resource-estimator configuration law holds on the real release where it is right, and
catches planted wrong implementations (the library patched inside the test process) in each of
its clauses; its reproducer fails with it."""

import pytest

LAW = "pennylane.estimator.configuration-is-honoured"
PE = ("import sys\nimport pennylane.estimator as qre\n"
      "_est = sys.modules['pennylane.estimator.estimate']  # the module, not the function it exports\n")

HOLDS = ["RX:alone", "QFT:Adjoint", "MultiRZ:Controlled", "Hadamard:Pow", "CNOT:Prod", "RZ:ChangeOpBasis",
         "AliasSampling:circuit", "CRX:circuit"]

# Each plant breaks one thing the law is about, on a subject where it shows.
PLANTS = {
    # custom base decompositions ignored: the class's own decomposition is used
    "base-ignored": ("QFT:alone", PE + (
        "_orig = _est._get_decomposition_function_and_kwargs\n"
        "def _ignore(op, config):\n"
        "    f, kw = _orig(op, config)\n"
        "    return (op.op_type.resource_decomp if op.op_type not in (qre.Adjoint, qre.Controlled, qre.Pow) else f), kw\n"
        "_est._get_decomposition_function_and_kwargs = _ignore\n")),
    # the 'adj' hook ignored: Adjoint falls back to the class's adjoint decomposition
    "adj-ignored": ("QFT:Adjoint", PE + (
        "_orig = _est._get_decomposition_function_and_kwargs\n"
        "def _ignore(op, config):\n"
        "    f, kw = _orig(op, config)\n"
        "    if op.op_type is qre.Adjoint:\n"
        "        return op.params['base_cmpr_op'].op_type.adjoint_resource_decomp, kw\n"
        "    return f, kw\n"
        "_est._get_decomposition_function_and_kwargs = _ignore\n")),
    # Controlled hook called with the wrong number of zero controls
    "ctrl-arguments": ("X:Controlled", PE + (
        "_orig = _est._get_decomposition_function_and_kwargs\n"
        "def _wrong(op, config):\n"
        "    f, kw = _orig(op, config)\n"
        "    if op.op_type is qre.Controlled:\n"
        "        return (lambda num_ctrl_wires, num_zero_ctrl, **p: f(num_ctrl_wires=num_ctrl_wires, num_zero_ctrl=0, **p)), kw\n"
        "    return f, kw\n"
        "_est._get_decomposition_function_and_kwargs = _wrong\n")),
    # set_precision ignored for instances without a precision
    "precision-ignored": ("RX:alone", PE + (
        "qre.ResourceConfig.set_precision = lambda self, op_type, precision, resource_key='precision': None\n")),
    # an explicitly passed ResourceConfig() differs from no config (estimate changes a precision on it)
    "default-config": ("RX:alone", PE + (
        "_estimate = qre.estimate\n"
        "def _estimate2(workflow, gate_set=None, zeroed_wires=0, any_state_wires=0, tight_wires_budget=False, config=None):\n"
        "    if config is not None:\n"
        "        config.resource_op_precisions[qre.RX]['precision'] = 1e-2\n"
        "    return _estimate(workflow, gate_set, zeroed_wires, any_state_wires, tight_wires_budget, config)\n"
        "qre.estimate = _estimate2\n")),
}


# estimate with a config installs its custom base decompositions on the classes, and they stay
# there (leaking into estimates without a config) until the next estimate with a config
LEAK = ("QFT:alone", PE + (
        "_own = {}\n"
        "_estimate = qre.estimate\n"
        "def _leaky(workflow, gate_set=None, zeroed_wires=0, any_state_wires=0, tight_wires_budget=False, config=None):\n"
        "    if config is not None:\n"
        "        for op_type, own in _own.items():\n"
        "            op_type.resource_decomp = own\n"
        "        for op_type, f in config.custom_decomps.items():\n"
        "            _own.setdefault(op_type, op_type.__dict__['resource_decomp'])\n"
        "            op_type.resource_decomp = classmethod(lambda cls, f=f, **kw: f(**kw))\n"
        "    return _estimate(workflow, gate_set, zeroed_wires, any_state_wires, tight_wires_budget, config)\n"
        "qre.estimate = _leaky\n"))


def test_law_catches_a_config_that_leaks(pennylane_runtime):
    # A leak makes later results depend on earlier calls, so hypothesis reports it as flaky
    # ("raised"); the law's reproducer, run once in a fresh patched process, fails on it.
    subject, patch = LEAK
    example = {"markers": ("S", "T", "Z"), "base": (1, 2), "other": (3, 1), "controls": (1, 0), "pow_z": 2,
               "copies": 1, "precision": None}
    result = pennylane_runtime(
        "import json, warnings\nwarnings.filterwarnings('ignore')\nimport contract_runtime as r\n" + patch +
        f"code = r._contracts('pennylane')[{LAW!r}].reproducer({subject!r}, {example!r})\n"
        "try:\n    exec(code, {'__name__': '__main__'})\n    print(json.dumps('passed'))\n"
        "except AssertionError as exc:\n    print(json.dumps(str(exc)))\n")
    assert "leaked" in result, result
    clean = pennylane_runtime(
        "import json, warnings\nwarnings.filterwarnings('ignore')\nimport contract_runtime as r\n"
        f"code = r._contracts('pennylane')[{LAW!r}].reproducer({subject!r}, {example!r})\n"
        "exec(code, {'__name__': '__main__'})\nprint(json.dumps('passed'))\n")
    assert clean == "passed"


@pytest.mark.parametrize("subject", HOLDS)
def test_law_holds_on_the_release(pennylane_runtime, subject):
    result = pennylane_runtime.assert_holds(contract=LAW, subject=subject)
    assert result["examples"] >= 10
    assert "refused" not in result, result


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_law_catches_a_planted_wrong_implementation(pennylane_runtime, plant):
    subject, patch = PLANTS[plant]
    result = pennylane_runtime.assert_caught(contract=LAW, subject=subject, patch=patch, examples=25)
    assert "import pennylane.estimator as qre" in result["reproducer"]  # public API only
    assert "_est" not in result["reproducer"]


def test_subjects_are_the_exported_resource_operators_in_every_form(pennylane_runtime):
    result = pennylane_runtime("import json, contract_runtime as r\n"
                               f"print(json.dumps(r.subjects('pennylane', {LAW!r})))")
    subjects = set(result["subjects"])
    for form in ("alone", "Adjoint", "Controlled", "Pow", "Prod", "ChangeOpBasis", "circuit"):
        assert {f"RX:{form}", f"QFT:{form}", f"MultiRZ:{form}", f"CNOT:{form}"} <= subjects
    # wrappers are forms, not subjects; classes needing operators or Hamiltonians are not built
    assert not {s for s in subjects if s.split(":")[0] in {"Adjoint", "Controlled", "Pow", "Prod", "QPE", "TrotterCDF"}}
    assert set(result["apis"].values()) == {"pennylane.estimator.estimate"}
    assert len(subjects) % 7 == 0 and len(subjects) >= 7 * 40


def test_no_subjects_on_a_release_without_the_estimator():
    # The law's subjects function raises AttributeError (-> no subjects) when qml.estimator is absent.
    import importlib.util
    import sys
    from pathlib import Path

    sandbox = Path(__file__).resolve().parents[2] / "sandbox"
    sys.path.insert(0, str(sandbox))
    try:
        spec = importlib.util.spec_from_file_location("_estimator_law", sandbox / "contracts" / "pennylane_estimator.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        fake = type(sys)("pennylane")
        saved = sys.modules.get("pennylane")
        sys.modules["pennylane"] = fake
        try:
            with pytest.raises((AttributeError, ImportError)):
                module._subjects()
        finally:
            if saved is None:
                del sys.modules["pennylane"]
            else:
                sys.modules["pennylane"] = saved
    finally:
        sys.path.remove(str(sandbox))
