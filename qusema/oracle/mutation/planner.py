"""The execution planner of paper 001: one decision and one evidence type per mutant-test pair.

Filter order (reproducible, not cost-optimal), each step exact or a deterministic interval:

1. semantic equivalence under state-transforming semantics - for a one-site unitary mutation
   the mutant equals the original up to global phase exactly when its relative unitary R is
   scalar (conjugation by the suffix preserves scalars); decided at generation (`operators`);
2. structural backward light cone of what the test reads (outside: exactly zero);
3. constant-cost angle bound: |gap| <= range * sin(angle(R) / 2) (below threshold: skip);
4. exact local effect at the mutation site, in one backward sweep that carries the site state
   psi_k, the adjoint vector lambda_k = O_k psi_k and, while it stays small, the propagated
   observable O_k as an exact Pauli sum:
   [R, O_k] = 0 (invisible for every input); R psi_k ~ psi_k (invisible to every observable);
   the exact gap from the Pauli sum, recorded as a fixed-axis rotation (a_m, b_m, zero set,
   maximal response), a one-qubit axis-angle replacement, or a Pauli-propagation value;
5. the perturbative interval 2 Re<delta|lambda> +- ||O'|| ||delta||^2 with delta = R psi - psi
   (exact algebra, so a deterministic interval, tight for small mutations);
6. otherwise execute: the exact gap of R psi_k through the light-cone part of the suffix - contracted
   with the observable the sweep carries back as a dense matrix on the cone while the cone is
   small, else simulated forward, batched per site; beyond the simulator's size limit the pair
   stays unresolved.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from qusema.oracle.circuits import Circuit
from qusema.oracle.core import core
from qusema.oracle.mutation.light_cone import BackwardLightCone
from qusema.oracle.mutation.local import (
    EPS,
    FixedAxisRotation,
    angle_gap_bound,
    canonical_angle,
    fixed_axis_form,
    relative_unitary,
    rotation_coefficients,
    rounding_bound,
)
from qusema.oracle.mutation.mutants import Mutant, Mutation
from qusema.oracle.mutation.operators import MutantPopulation
from qusema.oracle.mutation.pauli import PauliSum, local_pauli_matrix
from qusema.oracle.mutation.score import (
    DECISION_OUTCOME,
    Decision,
    Evidence,
    Outcome,
    PairResult,
    ScoreInterval,
    combine,
    score_interval,
)
from qusema.oracle.mutation.specs import (
    DistributionTest,
    ExpectationTest,
    MutationTest,
    input_state,
)

REPORT_SCHEMA = "qusema.mutate/1"


@dataclass(frozen=True)
class PlannerConfig:
    max_statevector_qubits: int = 20
    max_pauli_terms: int = 16  # past this the exact propagated observable is dropped (interval/execution remain)
    allow_execution: bool = True
    use_light_cone: bool = True
    use_angle_bound: bool = True
    use_commutation: bool = True
    use_pauli_propagation: bool = True
    use_interval: bool = True
    execution_batch: int = 32
    # While the backward light cone holds at most this many qubits, the sweep also carries the
    # propagated observable as a dense operator on the cone, and execution contracts R psi_k
    # with it instead of simulating the suffix forward (same exact quantity, no suffix run).
    dense_cone_max_qubits: int = 8


@dataclass
class MutantReport:
    mutant: Mutant
    outcome: Outcome
    pairs: list[PairResult]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.mutant.id, "weight": self.mutant.weight, "grouped": list(self.mutant.grouped),
                "mutation": self.mutant.mutation.to_dict(), "description": self.mutant.mutation.describe(),
                "outcome": self.outcome.value, "pairs": [p.to_dict() for p in self.pairs]}


@dataclass
class MutationReport:
    circuit: Circuit
    tests: list[MutationTest]
    mutants: list[MutantReport]
    pruned: list[Any]
    score: ScoreInterval
    seconds: float
    semantics: str = "state-transforming (unitary up to global phase); tests read final states"
    notes: list[str] = field(default_factory=list)

    def decisions(self) -> dict[tuple[str, str], PairResult]:
        return {(m.mutant.id, p.test): p for m in self.mutants for p in m.pairs}

    def to_dict(self) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for m in self.mutants:
            for p in m.pairs:
                counts[f"{p.decision.value}/{p.evidence.value}"] = counts.get(f"{p.decision.value}/{p.evidence.value}", 0) + 1
        return {"schema": REPORT_SCHEMA, "semantics": self.semantics,
                "circuit": {"num_qubits": self.circuit.num_qubits, "num_ops": len(self.circuit.ops)},
                "tests": [t.to_dict() for t in self.tests],
                "score": self.score.to_dict(), "seconds": self.seconds, "decision_counts": counts,
                "equivalent": [{"id": p.id, "reason": p.reason, "description": p.mutation.describe()}
                               for p in self.pruned],
                "mutants": [m.to_dict() for m in self.mutants], "notes": self.notes}


class _Local:
    """Per-mutant algebra shared by every test, computed on first use.

    Most pairs are settled by the light cone, which needs only the support; the relative
    unitary, its canonical angle and its axis form (eigenvalues and a Pauli decomposition per
    mutant) are built only for mutants that lie inside some test's cone.
    """

    __slots__ = ("mutant", "support", "is_measurement", "_matrix", "_angle", "_axis", "ops", "_shared")

    def __init__(self, mutant: Mutant, shared: dict) -> None:
        mutation = mutant.mutation
        self.mutant = mutant
        self._shared = shared
        self.is_measurement = mutation.is_measurement
        self.support: tuple[int, ...] = mutation.support
        self.ops = 0 if self.is_measurement else len(mutation.removed) + len(mutation.inserted)
        self._matrix: np.ndarray | None = None
        self._angle = math.pi
        self._axis: FixedAxisRotation | None = None

    def _build(self) -> None:
        if self._matrix is None and not self.is_measurement:
            # The algebra depends only on the edit relative to its own support, so mutants that
            # make the same edit on other qubits (a CX deleted here or there) share one result:
            # the same inputs to the same functions, hence bit-for-bit the same values.
            mutation = self.mutant.mutation
            position = {q: i for i, q in enumerate(self.support)}
            key = tuple(tuple((name, params, tuple(position[q] for q in qubits)) for name, params, qubits in side)
                        for side in (mutation.removed, mutation.inserted))
            if key not in self._shared:
                local = Mutation(mutation.operator, 0, key[0], key[1])
                matrix, _ = relative_unitary(local)
                self._shared[key] = (matrix, canonical_angle(matrix), fixed_axis_form(matrix, self.ops))
            self._matrix, self._angle, self._axis = self._shared[key]

    @property
    def matrix(self) -> np.ndarray | None:  # relative unitary; None for measurement mutations
        self._build()
        return self._matrix

    @property
    def angle(self) -> float:
        self._build()
        return self._angle

    @property
    def axis(self) -> FixedAxisRotation | None:
        self._build()
        return self._axis


def analyse(circuit: Circuit, population: MutantPopulation, tests: list[MutationTest],
            config: PlannerConfig | None = None) -> MutationReport:
    """Plans (and, where analysis cannot decide, executes) every mutant-test pair."""
    config = config or PlannerConfig()
    start = time.perf_counter()
    shared: dict = {}
    locals_ = [_Local(m, shared) for m in population.mutants]
    per_test = [_analyse_test(circuit, locals_, test, config) for test in tests]
    reports = []
    for i, loc in enumerate(locals_):
        pairs = [results[i] for results in per_test]
        reports.append(MutantReport(loc.mutant, combine([p.outcome for p in pairs]), pairs))
    score = score_interval([(r.outcome, r.mutant.weight) for r in reports])
    notes = []
    if circuit.mid_circuit_measurements():
        notes.append("the circuit measures mid-circuit: in-cone pairs are unresolved (mixed states unsupported)")
    return MutationReport(circuit, list(tests), reports, list(population.pruned), score,
                          time.perf_counter() - start, notes=notes)


# ---------------------------------------------------------------------------------------------

@dataclass
class _TestFrame:
    test: MutationTest
    n: int
    reads: tuple[int, ...]
    observable: PauliSum | None  # non-identity part, expectation tests only
    observable_norm: float  # ||O'|| bound (half the range bound) or 1 for distributions
    range_bound: float
    threshold: float
    error: float  # validated bound on float error of any computed gap


def _frame(circuit: Circuit, test: MutationTest) -> _TestFrame:
    n = circuit.num_qubits
    if isinstance(test, ExpectationTest):
        full = test.pauli_sum(n)
        observable = PauliSum(n, {k: v for k, v in full.terms.items() if set(k) != {"I"}})
        norm = sum(abs(c) for c in observable.terms.values())
        reads = tuple(sorted(observable.support()))
        range_bound = 2 * norm
    else:
        observable = None
        reads = tuple(range(n)) if test.qubits is None else tuple(test.qubits)
        norm, range_bound = 1.0, 1.0  # total variation lies in [0, 1]
    error = 64 * EPS * (len(circuit.ops) + n + 16) * max(1.0, range_bound) * math.sqrt(2 ** min(n, 40))
    return _TestFrame(test, n, reads, observable, norm, range_bound, test.threshold, error)


def _classify(gap: float, frame: _TestFrame) -> tuple[Decision, Outcome]:
    if abs(gap) - frame.error >= frame.threshold and (frame.threshold > 0 or abs(gap) > frame.error):
        return Decision.PREDICTED_DETECTED, Outcome.DETECTED
    if abs(gap) + frame.error < frame.threshold:
        return Decision.SKIP_BELOW_THRESHOLD, Outcome.SURVIVED
    return Decision.UNRESOLVED, Outcome.UNRESOLVED


def _analyse_test(circuit: Circuit, locals_: list[_Local], test: MutationTest,
                  config: PlannerConfig) -> list[PairResult]:
    frame = _frame(circuit, test)
    n = frame.n
    results: list[PairResult | None] = [None] * len(locals_)
    supports = [op[2] for op in circuit.ops]
    cone = BackwardLightCone.from_supports(supports, n, frame.reads)
    mid_measured = bool(circuit.mid_circuit_measurements())
    pending: dict[int, list[int]] = {}
    for i, loc in enumerate(locals_):
        t0 = time.perf_counter()
        mutation = loc.mutant.mutation
        site = mutation.site
        name = test.name
        if config.use_light_cone and not cone.touches(mutation.position if loc.is_measurement else site, loc.support):
            results[i] = PairResult(loc.mutant.id, name, Decision.SKIP_CERTIFIED_ZERO, Evidence.LIGHT_CONE,
                                    Outcome.SURVIVED, 0.0, seconds=time.perf_counter() - t0)
            continue
        if loc.is_measurement and mutation.operator == "MD":
            # A terminal measurement of a qubit the test reads is deleted: the read value is gone.
            results[i] = PairResult(loc.mutant.id, name, Decision.PREDICTED_DETECTED, Evidence.INTERFACE_CHANGE,
                                    Outcome.DETECTED, details={"reads": list(frame.reads)},
                                    seconds=time.perf_counter() - t0)
            continue
        if not loc.is_measurement and config.use_angle_bound and frame.threshold > 0:
            bound = angle_gap_bound(loc.angle, frame.range_bound)
            if bound < frame.threshold:
                results[i] = PairResult(loc.mutant.id, name, Decision.SKIP_BELOW_THRESHOLD, Evidence.ANGLE_BOUND,
                                        Outcome.SURVIVED, gap_interval=(-bound, bound),
                                        details={"canonical_angle": loc.angle}, seconds=time.perf_counter() - t0)
                continue
        if mid_measured or n > config.max_statevector_qubits:
            reason = ("mid-circuit measurement in the original circuit" if mid_measured
                      else f"{n} qubits exceed max_statevector_qubits={config.max_statevector_qubits}")
            results[i] = PairResult(loc.mutant.id, name, Decision.UNRESOLVED, Evidence.NONE, Outcome.UNRESOLVED,
                                    details={"reason": reason})
            continue
        pending.setdefault(mutation.position if loc.is_measurement else site, []).append(i)
    if pending:
        _sweep(circuit, locals_, frame, cone, pending, results, config)
    return [r for r in results if r is not None]


def _sweep(circuit: Circuit, locals_: list[_Local], frame: _TestFrame, cone: BackwardLightCone,
           pending: dict[int, list[int]], results: list, config: PlannerConfig) -> None:
    n = frame.n
    shape = (2,) * n
    psi = core.statevector(circuit.unitary_ops, n, input_state(frame.test.input, n)).reshape(shape)
    final = psi.reshape(-1).copy()
    observable = frame.observable
    if observable is not None:
        lam = observable.apply(final).reshape(shape)
        base = float(np.real(np.vdot(final, lam.reshape(-1))))
        pauli: PauliSum | None = observable.copy() if config.use_pauli_propagation else None
        reference = None
    else:
        lam = None
        base = 0.0
        pauli = None
        reference = core.probabilities(final, list(frame.reads))
    ops = circuit.ops
    lowest = min(pending)
    dense = (_ConeObservable.start(observable, frame.reads)
             if observable is not None and len(frame.reads) <= config.dense_cone_max_qubits else None)
    if dense is not None:
        lam = None  # lambda_k = O_k psi_k is read off the cone observable where a site needs it
    for k in range(len(ops), lowest - 1, -1):
        if k in pending:
            _evaluate_site(k, pending[k], psi, lam, pauli, base, reference, circuit, locals_, frame, cone,
                           results, config, dense)
        if k == lowest:
            break
        name, params, qubits = ops[k - 1]
        if name in ("measure", "reset", "barrier"):
            continue  # terminal readout: identity on the state the tests read
        matrix = core.gate_matrix(name, params)
        if dense is not None and cone.gate_in_cone(k - 1, qubits):
            grown = dense.conjugated(matrix, qubits, config.dense_cone_max_qubits)
            if grown is None:  # the cone outgrew the dense form: carry lambda_k = O_k psi_k from here
                lam = dense.apply(psi.reshape(-1), n).reshape(shape)
            dense = grown
        inverse = matrix.conj().T
        psi = core.apply_matrix(psi, inverse, qubits, n)
        if lam is not None:
            lam = core.apply_matrix(lam, inverse, qubits, n)
        if pauli is not None:
            pauli.conjugate_by(ops[k - 1])
            if len(pauli.terms) > config.max_pauli_terms:
                pauli = None


class _ConeObservable:
    """O_k = S_k^dagger O S_k as a dense matrix on the qubits of the backward light cone at k.

    Every suffix gate that matters lies in the cone and acts only on cone qubits, so O_k is
    O' (x) I outside the cone, and <phi|O_k|phi> = Tr(O' Phi Phi^dagger) with Phi = phi
    reshaped to (cone, rest). Rounding: each conjugation perturbs O' by a few eps ||O'||_F
    <= eps range 2^(c/2), within the frame's bound (which carries 2^(n/2)) because c <= n.
    """

    __slots__ = ("qubits", "tensor")

    def __init__(self, qubits: tuple[int, ...], tensor: np.ndarray) -> None:
        self.qubits = qubits  # sorted; qubits[0] least significant in the local index
        self.tensor = tensor  # shape (2,)*2c: c row axes then c column axes, most significant first

    @classmethod
    def start(cls, observable: PauliSum, reads: tuple[int, ...]) -> "_ConeObservable":
        qubits = tuple(sorted(reads))
        c = len(qubits)
        matrix = np.zeros((2 ** c, 2 ** c), dtype=complex)
        for label, coeff in observable.terms.items():
            matrix = matrix + coeff * local_pauli_matrix("".join(label[q] for q in reversed(qubits)))
        return cls(qubits, matrix.reshape((2,) * (2 * c)))

    def conjugated(self, gate: np.ndarray, qubits: tuple[int, ...], limit: int) -> "_ConeObservable | None":
        """G^dagger O G for one gate in the cone (the cone grows by the gate's qubits), or None
        once the cone exceeds `limit` qubits."""
        cone = self.qubits
        tensor = self.tensor
        if any(q not in cone for q in qubits):
            cone = tuple(sorted(set(cone) | set(qubits)))
            if len(cone) > limit:
                return None
            tensor = _expand(tensor, self.qubits, cone)
        c = len(cone)
        local = [cone.index(q) for q in qubits]
        # As a 2c-qubit register (apply_matrix convention): row qubit j is register qubit c + j,
        # column qubit j is register qubit j. O -> G^dagger O on rows, O G = (G^T applied to columns).
        tensor = core.apply_matrix(tensor, gate.conj().T, [c + j for j in local], 2 * c)
        tensor = core.apply_matrix(tensor, gate.T, local, 2 * c)
        return _ConeObservable(cone, tensor)

    def _split(self, state: np.ndarray, n: int) -> tuple[np.ndarray, list[int]]:
        c = len(self.qubits)
        front = [n - 1 - q for q in reversed(self.qubits)]
        return np.moveaxis(state.reshape((2,) * n), front, list(range(c))).reshape(2 ** c, -1), front

    def expectation(self, state: np.ndarray, n: int) -> float:
        c = len(self.qubits)
        phi, _ = self._split(state, n)
        return float(np.real(np.vdot(phi, self.tensor.reshape(2 ** c, 2 ** c) @ phi)))

    def apply(self, state: np.ndarray, n: int) -> np.ndarray:
        """O_k |state> as a flat vector."""
        c = len(self.qubits)
        phi, front = self._split(state, n)
        out = (self.tensor.reshape(2 ** c, 2 ** c) @ phi).reshape((2,) * n)
        return np.moveaxis(out, list(range(c)), front).reshape(-1)


def _expand(tensor: np.ndarray, old: tuple[int, ...], new: tuple[int, ...]) -> np.ndarray:
    """O on `old` qubits as O (x) I on the superset `new` (both sorted, index little-endian)."""
    c, m = len(old), len(new)
    extra = [q for q in new if q not in old]
    order = list(old) + extra  # least significant first: the identity factor is most significant
    matrix = np.kron(np.eye(2 ** len(extra), dtype=complex), tensor.reshape(2 ** c, 2 ** c))
    rows = [m - 1 - order.index(new[m - 1 - i]) for i in range(m)]
    return matrix.reshape((2,) * (2 * m)).transpose(rows + [m + r for r in rows])


def _evaluate_site(k: int, members: list[int], psi: np.ndarray, lam: np.ndarray | None, pauli: PauliSum | None,
                   base: float, reference: np.ndarray | None, circuit: Circuit, locals_: list[_Local],
                   frame: _TestFrame, cone: BackwardLightCone, results: list, config: PlannerConfig,
                   dense: "_ConeObservable | None" = None) -> None:
    n = frame.n
    flat_psi = psi.reshape(-1)
    to_execute: list[tuple[int, list[np.ndarray], float]] = []
    name = frame.test.name
    for i in members:
        t0 = time.perf_counter()
        loc = locals_[i]
        mid = loc.mutant.id
        if loc.is_measurement:  # measurement insertion: the two collapsed branches, unnormalised
            q = loc.support[0]
            branches = []
            for bit in (0, 1):
                proj = np.zeros((2, 2), dtype=complex)
                proj[bit, bit] = 1
                branches.append(core.apply_matrix(psi, proj, (q,), n).reshape(-1))
            to_execute.append((i, branches, time.perf_counter() - t0))
            continue
        if pauli is not None and config.use_commutation and pauli.commutes_with_local(
                loc.matrix, loc.support, rounding_bound(loc.ops + 2, 2 ** len(loc.support))):
            results[i] = PairResult(mid, name, Decision.SKIP_CERTIFIED_ZERO, Evidence.OBSERVABLE_COMMUTATION,
                                    Outcome.SURVIVED, 0.0, seconds=time.perf_counter() - t0)
            continue
        phi = core.apply_matrix(psi, loc.matrix, loc.support, n).reshape(-1)
        overlap = np.vdot(flat_psi, phi)
        # |<psi|R psi>| = 1 exactly iff psi is an eigenvector of R; the bound covers the rounding
        # of the sweep that produced psi and of this product.
        state_bound = 16 * EPS * (len(circuit.ops) + loc.ops + n) * math.sqrt(2 ** n)
        if config.use_commutation and 1 - abs(overlap) <= state_bound:
            results[i] = PairResult(mid, name, Decision.SKIP_CERTIFIED_ZERO, Evidence.STATE_COMMUTATION,
                                    Outcome.SURVIVED, 0.0, details={"overlap_defect": float(1 - abs(overlap))},
                                    seconds=time.perf_counter() - t0)
            continue
        if pauli is not None:
            gap = pauli.expectation(phi) - base
            evidence, details = _exact_evidence(loc, pauli, flat_psi, base, n)
            decision, outcome = _classify(gap, frame)
            results[i] = PairResult(mid, name, decision, evidence, outcome, gap,
                                    (gap - frame.error, gap + frame.error), details,
                                    seconds=time.perf_counter() - t0)
            if decision is not Decision.UNRESOLVED or not config.allow_execution:
                continue
        # An orthogonal R psi (overlap 0) has no phase to align the interval with: such pairs
        # go to execution (as they always did; the division below would give NaN).
        if lam is None and dense is not None and config.use_interval and abs(overlap) > 0:
            lam = dense.apply(flat_psi, n)  # once per site, shared by its members
        if lam is not None and config.use_interval and abs(overlap) > 0:
            delta = phi * (np.conj(overlap) / abs(overlap)) - flat_psi
            linear = 2 * float(np.real(np.vdot(delta, lam.reshape(-1))))
            remainder = frame.observable_norm * float(np.real(np.vdot(delta, delta))) + frame.error
            lo, hi = linear - remainder, linear + remainder
            if min(abs(lo), abs(hi)) >= frame.threshold and lo * hi > 0 and frame.threshold > 0:
                results[i] = PairResult(mid, name, Decision.PREDICTED_DETECTED, Evidence.PERTURBATIVE_INTERVAL,
                                        Outcome.DETECTED, linear, (lo, hi), seconds=time.perf_counter() - t0)
                continue
            if max(abs(lo), abs(hi)) < frame.threshold:
                results[i] = PairResult(mid, name, Decision.SKIP_BELOW_THRESHOLD, Evidence.PERTURBATIVE_INTERVAL,
                                        Outcome.SURVIVED, linear, (lo, hi), seconds=time.perf_counter() - t0)
                continue
        if not config.allow_execution:
            results[i] = PairResult(mid, name, Decision.UNRESOLVED, Evidence.NONE, Outcome.UNRESOLVED,
                                    details={"reason": "analysis undecided and execution disabled"})
            continue
        to_execute.append((i, [phi], time.perf_counter() - t0))
    if to_execute and dense is not None:
        _execute_on_cone(to_execute, dense, base, locals_, frame, results)
    elif to_execute:
        _execute(k, to_execute, base, reference, circuit, locals_, frame, cone, results, config)


def _exact_evidence(loc: _Local, pauli: PauliSum, psi: np.ndarray, base: float, n: int) -> tuple[Evidence, dict]:
    axis = loc.axis
    if axis is None:
        return Evidence.PAULI_PROPAGATION, {"propagated_terms": len(pauli.terms)}
    a_psi = core.apply_matrix(psi.reshape((2,) * n), axis.axis_matrix(), loc.support, n).reshape(-1)
    a_m = (pauli.expectation(a_psi) - base) / 2
    b_m = float(np.imag(np.vdot(pauli.apply(psi), a_psi)))
    details = rotation_coefficients(a_m, b_m)
    details.update({"angle": axis.angle, "axis": axis.axis, "support": list(loc.support)})
    kind = Evidence.ROTATION_CLOSED_FORM if axis.kind == "pauli_rotation" else Evidence.REPLACEMENT_AXIS_ANGLE
    return kind, details


def _execute_on_cone(batch: list[tuple[int, list[np.ndarray], float]], dense: _ConeObservable, base: float,
                     locals_: list[_Local], frame: _TestFrame, results: list) -> None:
    """Exact gaps of R psi_k against the cone observable the sweep carried back to this site:
    the light-cone part of the suffix, applied once to the observable instead of per mutant."""
    n = frame.n
    for i, vectors, spent in batch:
        t0 = time.perf_counter()
        gap = sum(dense.expectation(v, n) for v in vectors) - base
        loc = locals_[i]
        decision, outcome = _classify(gap, frame)
        evidence = Evidence.EXECUTED_DENSITY if loc.is_measurement else Evidence.EXECUTED_STATEVECTOR
        results[i] = PairResult(loc.mutant.id, frame.test.name, Decision.EXECUTE, evidence, outcome, gap,
                                (gap - frame.error, gap + frame.error),
                                details={"route": "cone_observable", "cone_qubits": len(dense.qubits)},
                                seconds=spent + time.perf_counter() - t0)


def _execute(k: int, batch: list[tuple[int, list[np.ndarray], float]], base: float, reference: np.ndarray | None,
             circuit: Circuit, locals_: list[_Local], frame: _TestFrame, cone: BackwardLightCone, results: list,
             config: PlannerConfig) -> None:
    """Runs the light-cone part of the suffix on all states of this site at once."""
    n = frame.n
    suffix = [(j, op) for j, op in enumerate(circuit.ops[k:], start=k)
              if op[0] not in ("measure", "reset", "barrier") and cone.gate_in_cone(j, op[2])]
    columns = [v for _, vectors, _ in batch for v in vectors]
    for start in range(0, len(columns), config.execution_batch):
        chunk = columns[start:start + config.execution_batch]
        t0 = time.perf_counter()
        tensor = np.stack(chunk, axis=-1).reshape((2,) * n + (len(chunk),))
        tensor = core.apply_ops(tensor, [op for _, op in suffix], n)
        outs = tensor.reshape(2 ** n, len(chunk))
        per_column = (time.perf_counter() - t0) / len(chunk)
        for c in range(len(chunk)):
            columns[start + c] = (outs[:, c].copy(), per_column)
    cursor = 0
    for i, vectors, spent in batch:
        outs = columns[cursor:cursor + len(vectors)]
        cursor += len(vectors)
        loc = locals_[i]
        seconds = spent + sum(s for _, s in outs)
        if frame.observable is not None:
            value = sum(float(np.real(np.vdot(v, frame.observable.apply(v)))) for v, _ in outs)
            gap = value - base
        else:
            probs = sum(np.abs(v) ** 2 for v, _ in outs)
            marginal = core.probabilities(np.sqrt(probs), list(frame.reads))
            gap = 0.5 * float(np.sum(np.abs(marginal - reference)))
        decision, outcome = _classify(gap, frame)
        evidence = Evidence.EXECUTED_DENSITY if loc.is_measurement else Evidence.EXECUTED_STATEVECTOR
        results[i] = PairResult(loc.mutant.id, frame.test.name, Decision.EXECUTE, evidence, outcome, gap,
                                (gap - frame.error, gap + frame.error), details={"route": "forward_suffix"},
                                seconds=seconds, simulated_gates=len(suffix) * len(vectors))


# ---------------------------------------------------------------------------------------------
# Direct statevector evaluation of every pair: the baseline the planner is measured against,
# and an independent route to the same gaps (it never uses the site algebra above).

def evaluate_directly(circuit: Circuit, population: MutantPopulation, tests: list[MutationTest]) -> dict[tuple[str, str], tuple[float, Outcome]]:
    out: dict[tuple[str, str], tuple[float, Outcome]] = {}
    n = circuit.num_qubits
    for test in tests:
        frame = _frame(circuit, test)
        start = input_state(test.input, n)
        original = core.statevector(circuit.unitary_ops, n, start)
        for mutant in population.mutants:
            mutated = mutant.mutation.apply(circuit)
            branches = _simulate_with_measurements(mutated, start)
            if isinstance(test, ExpectationTest):
                gap = sum(frame.observable.expectation(b) for b in branches) - frame.observable.expectation(original)
            else:
                p = sum(np.abs(b) ** 2 for b in branches)
                reads = list(frame.reads)
                gap = 0.5 * float(np.sum(np.abs(core.probabilities(np.sqrt(p), reads)
                                                 - core.probabilities(original, reads))))
            if mutant.mutation.operator == "MD" and set(mutant.mutation.support) & set(frame.reads):
                out[(mutant.id, test.name)] = (math.nan, Outcome.DETECTED)
                continue
            _, outcome = _classify(gap, frame)
            out[(mutant.id, test.name)] = (gap, outcome)
    return out


def _simulate_with_measurements(circuit: Circuit, start: np.ndarray) -> list[np.ndarray]:
    """Unnormalised branches of every mid-circuit measurement (terminal ones read nothing new)."""
    n = circuit.num_qubits
    branches = [start.reshape((2,) * n)]
    for index, (name, params, qubits) in enumerate(circuit.ops):
        if name == "measure":
            if any(set(qubits) & set(later[2]) for later in circuit.ops[index + 1:] if later[0] != "measure"):
                split = []
                for b in branches:
                    for bit in (0, 1):
                        proj = np.zeros((2, 2), dtype=complex)
                        proj[bit, bit] = 1
                        split.append(core.apply_matrix(b, proj, qubits, n))
                branches = split
            continue
        if name in ("barrier", "reset"):
            continue
        matrix = core.gate_matrix(name, params)
        branches = [core.apply_matrix(b, matrix, qubits, n) for b in branches]
    return [b.reshape(-1) for b in branches]
