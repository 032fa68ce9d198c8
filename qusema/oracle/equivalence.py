"""Phase-aware circuit equivalence, one call over a typed configuration.

Routes, in order of what they can prove:

- Clifford circuits: stabilizer tableaux (stim) prove or refute equality up to global phase at
  any width; the global phase itself is settled densely when the width allows.
- Small circuits: exact dense unitaries from the project's own numpy simulator (never the
  audited library's own `Operator`), with a counterexample input when they differ.
- Larger circuits: mqt.qcec. Its default strategy can answer `no_information` - notably for a
  phase error on a qubit still in |0>, invisible to computational-basis stimuli - so whenever
  it does not prove equivalence we search for a counterexample ourselves with superposition
  product-state stimuli, and an unproven case stays `unknown` with the reason.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from qusema.oracle.circuits import Circuit, as_circuit
from qusema.oracle.core import core
from qusema.oracle.verdict import Counterexample, EquivalenceResult, Verdict


@dataclass(frozen=True)
class EquivalenceConfig:
    atol: float = 1e-9
    # Dense unitaries cost 4^n per gate: at 10 qubits ~7 s for a transpiled QFT, where qcec takes
    # milliseconds; the dense route is kept for small circuits, whose counterexamples are exact.
    dense_max_qubits: int = 8
    simulation_max_qubits: int = 22
    stimuli: int = 4
    use_stabilizer: bool = True
    use_qcec: bool = True
    qcec_timeout_s: float = 120.0
    seed: int = 0


def check_equivalence(a: Any, b: Any, config: EquivalenceConfig | None = None) -> EquivalenceResult:
    """Compares two circuits (QuantumCircuit, Circuit or OpenQASM path) as unitaries."""
    config = config or EquivalenceConfig()
    start = time.perf_counter()
    try:
        ca, cb = as_circuit(a), as_circuit(b)
    except core.UnsupportedOperation as exc:
        return EquivalenceResult(Verdict.UNKNOWN, "none", reason=f"unsupported operation: {exc}")
    if ca.num_qubits != cb.num_qubits:
        return EquivalenceResult(Verdict.NOT_EQUAL, "structure",
                                 reason=f"register widths differ: {ca.num_qubits} vs {cb.num_qubits}")
    if ca.mid_circuit_measurements() or cb.mid_circuit_measurements():
        return EquivalenceResult(Verdict.UNKNOWN, "none", reason="unsupported operation: mid-circuit measurement "
                                 "(not a unitary; compare as channels instead)")
    if _measured(ca) != _measured(cb):
        return EquivalenceResult(Verdict.NOT_EQUAL, "structure",
                                 reason=f"measured qubits differ: {sorted(_measured(ca))} vs {sorted(_measured(cb))}")
    result = _route(ca, cb, config)
    return EquivalenceResult(result.verdict, result.method, result.counterexample, result.reason, result.global_phase,
                             {**result.details, "seconds": time.perf_counter() - start})


def _measured(c: Circuit) -> set[int]:
    return {op[2][0] for op in c.ops if op[0] == "measure"}


def _route(a: Circuit, b: Circuit, config: EquivalenceConfig) -> EquivalenceResult:
    n = a.num_qubits
    if config.use_stabilizer and a.is_clifford() and b.is_clifford():
        from qusema.oracle.stabilizer import tableau

        if tableau(a) != tableau(b):
            cex = _search_counterexample(a, b, config) if n <= config.simulation_max_qubits else None
            return EquivalenceResult(Verdict.NOT_EQUAL, "stabilizer_tableau", cex,
                                     reason="" if cex else "tableaux differ; no stimulus searched at this width")
        if n > config.dense_max_qubits:
            return EquivalenceResult(Verdict.EQUAL_UP_TO_GLOBAL_PHASE, "stabilizer_tableau",
                                     reason="tableaux equal; global phase not settled at this width")
    if n <= config.dense_max_qubits:
        return _dense(a, b, config)
    return _large(a, b, config)


def _dense(a: Circuit, b: Circuit, config: EquivalenceConfig) -> EquivalenceResult:
    n = a.num_qubits
    ua = core.unitary(a.unitary_ops, n)
    ub = core.unitary(b.unitary_ops, n)
    cmp = core.compare_unitaries(ua, ub, config.atol)
    verdict = Verdict(cmp["verdict"])
    cex = None
    if verdict is Verdict.NOT_EQUAL and "counterexample" in cmp:
        cex = Counterexample(cmp["counterexample"]["kind"], tuple(cmp["counterexample"]["indices"]))
    return EquivalenceResult(verdict, "dense_numpy", cex, reason=cmp.get("reason", ""),
                             global_phase=cmp.get("global_phase"),
                             details={k: v for k, v in cmp.items() if k in ("max_abs_difference", "relative_phase")})


def _large(a: Circuit, b: Circuit, config: EquivalenceConfig) -> EquivalenceResult:
    qcec_reason = "mqt.qcec disabled"
    details: dict[str, Any] = {}
    if config.use_qcec:
        from qusema.oracle.qcec import run_qcec

        outcome = run_qcec(a, b, config.qcec_timeout_s)
        details["qcec"] = outcome.raw
        if outcome.verdict in (Verdict.EQUAL, Verdict.EQUAL_UP_TO_GLOBAL_PHASE):
            return EquivalenceResult(outcome.verdict, "mqt_qcec", details=details)
        qcec_reason = f"mqt.qcec answered {outcome.raw}"
        if outcome.verdict is Verdict.NOT_EQUAL:
            cex = _search_counterexample(a, b, config) if a.num_qubits <= config.simulation_max_qubits else None
            return EquivalenceResult(Verdict.NOT_EQUAL, "mqt_qcec", cex, details=details)
    if a.num_qubits <= config.simulation_max_qubits:
        cex = _search_counterexample(a, b, config)
        if cex is not None:
            return EquivalenceResult(Verdict.NOT_EQUAL, "stimuli_numpy", cex, details=details)
        return EquivalenceResult(Verdict.UNKNOWN, "stimuli_numpy", details=details,
                                 reason=f"{qcec_reason}; {config.stimuli} product-state stimuli found no difference "
                                        "(stimuli cannot prove equality)")
    return EquivalenceResult(Verdict.UNKNOWN, "none", details=details,
                             reason=f"{qcec_reason}; {a.num_qubits} qubits exceed simulation_max_qubits")


def _search_counterexample(a: Circuit, b: Circuit, config: EquivalenceConfig) -> Counterexample | None:
    """Random product states with superposed qubits (so relative phases on 'fresh' qubits show)
    plus |0...0>, each compared up to one global phase shared by all stimuli."""
    n = a.num_qubits
    rng = np.random.default_rng(config.seed)
    stimuli: list[tuple[np.ndarray, Counterexample]] = [(core.basis_state(n), Counterexample("basis", (0,)))]
    for _ in range(config.stimuli):
        singles = []
        state = np.array([1], dtype=complex)
        for _q in range(n):
            theta, phi = math.acos(1 - 2 * rng.random()), 2 * math.pi * rng.random()
            single = (complex(math.cos(theta / 2)), complex(np.exp(1j * phi) * math.sin(theta / 2)))
            singles.append(single)
            state = np.kron(np.array(single), state)
        stimuli.append((state, Counterexample("product", product=tuple(singles))))
    reference_phase = None
    for state, description in stimuli:
        out_a = core.statevector(a.unitary_ops, n, state)
        out_b = core.statevector(b.unitary_ops, n, state)
        cmp = core.compare_states(out_a, out_b, config.atol)
        if cmp["verdict"] == core.NOT_EQUAL:
            return description
        phase = cmp.get("global_phase", 0.0)
        if reference_phase is None:
            reference_phase = phase
        elif abs(np.exp(1j * phase) - np.exp(1j * reference_phase)) > config.atol:
            return Counterexample(description.kind, description.indices, description.product,
                                  note="this input and |0...0> acquire different phases: their superposition differs")
    return None


def check_states(actual: np.ndarray, expected: np.ndarray, atol: float = 1e-9) -> EquivalenceResult:
    """Compares two state vectors."""
    cmp = core.compare_states(actual, expected, atol)
    return EquivalenceResult(Verdict(cmp["verdict"]), "dense_numpy", global_phase=cmp.get("global_phase"),
                             details={"fidelity": cmp["fidelity"]})
