"""Mutation operators over the circuit IR: QGR, QGD, QGI, RGI, MI, MD.

Generation prunes what is provably not a mutant (zero-angle rotations, global-phase-only
changes, edits that cancel back to the original) and groups mutants whose compiled forms are
identical, keeping their multiplicity. All of these are exact identities, never numerical
closeness of outputs, so pruning cannot hide a real mutant.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

import numpy as np

from qusema.oracle.circuits import Circuit, Op
from qusema.oracle.core import core
from qusema.oracle.mutation.local import is_scalar_unitary, relative_unitary
from qusema.oracle.mutation.mutants import Mutant, Mutation, PrunedMutant

ONE_QUBIT_FIXED = ("x", "y", "z", "h", "s", "sdg", "t", "tdg", "sx")
ONE_QUBIT_ROTATIONS = ("rx", "ry", "rz", "p")
TWO_QUBIT_FIXED = ("cx", "cy", "cz", "ch", "swap")
TWO_QUBIT_ROTATIONS = ("crx", "cry", "crz", "cp", "rxx", "ryy", "rzz")
THREE_QUBIT_FIXED = ("ccx", "cswap")
ROTATION_PERIOD = {"rx": 2 * math.pi, "ry": 2 * math.pi, "rz": 2 * math.pi, "p": 2 * math.pi,
                   "u1": 2 * math.pi, "rxx": 2 * math.pi, "ryy": 2 * math.pi, "rzz": 2 * math.pi,
                   "rzx": 2 * math.pi, "cp": 2 * math.pi, "cu1": 2 * math.pi, "crx": 4 * math.pi,
                   "cry": 4 * math.pi, "crz": 4 * math.pi}


@dataclass(frozen=True)
class MutationConfig:
    operators: tuple[str, ...] = ("QGR", "QGD", "QGI", "RGI", "MI", "MD")
    rgi_angle: float = math.pi / 180  # paper 002's one-degree fault model
    rgi_gates: tuple[str, ...] = ("rx", "ry", "rz")
    insert_gates: tuple[str, ...] = ONE_QUBIT_FIXED
    insert_two_qubit: tuple[str, ...] = ("cx",)
    # Insertion positions x qubits x gates grows fast; past this many candidates per operator a
    # seeded uniform sample is kept (the population is fixed before any test is looked at).
    max_per_operator: int | None = None
    seed: int = 0
    group_identical: bool = True


@dataclass
class MutantPopulation:
    original: Circuit
    mutants: list[Mutant]
    pruned: list[PrunedMutant] = field(default_factory=list)

    @property
    def total_weight(self) -> int:
        return sum(m.weight for m in self.mutants)


def generate_mutants(circuit: Circuit, config: MutationConfig | None = None) -> MutantPopulation:
    config = config or MutationConfig()
    rng = random.Random(config.seed)
    candidates: list[Mutation] = []
    for operator in config.operators:
        produced = list(_GENERATORS[operator](circuit, config))
        if config.max_per_operator is not None and len(produced) > config.max_per_operator:
            produced = rng.sample(produced, config.max_per_operator)
        candidates.extend(produced)
    return prune_and_group(circuit, candidates, config.group_identical)


def prune_and_group(circuit: Circuit, candidates: list[Mutation], group_identical: bool = True) -> MutantPopulation:
    original_form = canonical_form(circuit.ops)
    kept: dict[tuple, Mutant] = {}
    order: list[tuple] = []
    pruned: list[PrunedMutant] = []
    for index, mutation in enumerate(candidates):
        mid = f"m{index}"
        reason = _exact_no_op(mutation)
        if reason is None:
            form = canonical_form(circuit.ops[:mutation.position] + mutation.inserted
                                  + circuit.ops[mutation.site:])
            if form == original_form:
                reason = "self_cancelling"
        if reason is not None:
            pruned.append(PrunedMutant(mid, mutation, reason))
            continue
        key = form if group_identical else (index,)
        if key in kept:
            first = kept[key]
            kept[key] = Mutant(first.id, first.mutation, first.weight + 1, first.grouped + (mid,))
        else:
            kept[key] = Mutant(mid, mutation)
            order.append(key)
    return MutantPopulation(circuit, [kept[k] for k in order], pruned)


def _exact_no_op(mutation: Mutation) -> str | None:
    if mutation.removed == mutation.inserted:
        return "identical"
    if mutation.is_measurement:
        return None
    for name, params, _ in mutation.inserted:
        if not mutation.removed and name in ROTATION_PERIOD and all(
                _angle_is_zero(p, ROTATION_PERIOD[name]) for p in params):
            return "zero_angle"
    relative, _ = relative_unitary(mutation)
    if is_scalar_unitary(relative, operations=len(mutation.removed) + len(mutation.inserted)):
        return "global_phase_only"
    return None


def _angle_is_zero(angle: float, period: float) -> bool:
    # Exact test on the given number: only 0 and whole periods as written, never "small".
    return math.fmod(angle, period) == 0.0


# ---------------------------------------------------------------------------------------------
# Canonical compiled form: cancel adjacent inverse pairs, merge same-axis rotations, drop
# rotations by a whole period. Each rule is an exact identity up to global phase.

def canonical_form(ops: tuple[Op, ...] | list[Op]) -> tuple:
    out: list[Op | None] = []
    stacks: dict[int, list[int]] = {}
    for name, params, qubits in ops:
        params = tuple(params)
        tops = [stacks.get(q, [])[-1] if stacks.get(q) else None for q in qubits]
        j = tops[0] if tops and all(t == tops[0] for t in tops) else None
        prev = out[j] if j is not None else None
        if prev is not None and prev[2] == tuple(qubits) and name not in ("measure", "reset"):
            merged = _merge(prev, (name, params, tuple(qubits)))
            if merged is not None:
                for q in qubits:
                    stacks[q].pop()
                out[j] = None
                if merged == "cancel":
                    continue
                name, params = merged[0], merged[1]
                if name in ROTATION_PERIOD and all(_angle_is_zero(p, ROTATION_PERIOD[name]) for p in params):
                    continue
        out.append((name, params, tuple(qubits)))
        for q in qubits:
            stacks.setdefault(q, []).append(len(out) - 1)
    return tuple((n, tuple(round(p, 12) for p in ps), qs) for n, ps, qs in (o for o in out if o is not None))


def _merge(first: Op, second: Op):
    if first[0] in ("measure", "reset"):
        return None
    if first[0] == second[0] and first[0] in ROTATION_PERIOD:
        return (first[0], (first[1][0] + second[1][0],), first[2])
    try:
        inverse = core.inverse_ops([first])[0]
    except core.UnsupportedOperation:
        return None
    if inverse[0] == second[0] and np.allclose(inverse[1], second[1], rtol=0, atol=0):
        return "cancel"
    return None


# ---------------------------------------------------------------------------------------------
# Generators.

def _gates(circuit: Circuit):
    for i, op in enumerate(circuit.ops):
        if op[0] not in ("measure", "reset"):
            yield i, op


def _qgr(circuit: Circuit, config: MutationConfig):
    for i, (name, params, qubits) in _gates(circuit):
        arity = len(qubits)
        if arity == 1:
            pool = ONE_QUBIT_ROTATIONS if params else ONE_QUBIT_FIXED
        elif arity == 2:
            pool = TWO_QUBIT_ROTATIONS if params else TWO_QUBIT_FIXED
        elif arity == 3:
            pool = THREE_QUBIT_FIXED if not params else ()
        else:
            pool = ()
        for other in pool:
            if other == name or (params and core.GATE_ARITY.get(other) != arity):
                continue
            if len(params) > 1:
                continue  # u/u3-style gates: only same-signature rotations would keep the angle
            yield Mutation("QGR", i, ((name, params, qubits),), ((other, params, qubits),))


def _qgd(circuit: Circuit, config: MutationConfig):
    for i, op in _gates(circuit):
        yield Mutation("QGD", i, (op,), ())


def _positions(circuit: Circuit) -> range:
    return range(len(circuit.ops) + 1)


def _qgi(circuit: Circuit, config: MutationConfig):
    n = circuit.num_qubits
    for p in _positions(circuit):
        for q in range(n):
            for g in config.insert_gates:
                yield Mutation("QGI", p, (), ((g, (), (q,)),))
        for g in config.insert_two_qubit:
            for a in range(n):
                for b in range(n):
                    if a != b:
                        yield Mutation("QGI", p, (), ((g, (), (a, b)),))


def _rgi(circuit: Circuit, config: MutationConfig):
    for p in _positions(circuit):
        for q in range(circuit.num_qubits):
            for g in config.rgi_gates:
                yield Mutation("RGI", p, (), ((g, (config.rgi_angle,), (q,)),))


def _mi(circuit: Circuit, config: MutationConfig):
    # Measuring right before the end of a qubit's line only duplicates readout; a measurement
    # insertion is a mutant where a later gate acts on the measured qubit.
    for p in range(len(circuit.ops)):
        later = {q for name, _, qs in circuit.ops[p:] if name not in ("measure", "reset") for q in qs}
        for q in sorted(later):
            yield Mutation("MI", p, (), (("measure", (), (q,)),))


def _md(circuit: Circuit, config: MutationConfig):
    for i, op in enumerate(circuit.ops):
        if op[0] == "measure":
            yield Mutation("MD", i, (op,), ())


_GENERATORS = {"QGR": _qgr, "QGD": _qgd, "QGI": _qgi, "RGI": _rgi, "MI": _mi, "MD": _md}
