"""`qusema mutate`: planner-backed mutation analysis of one circuit against declared tests.

Registered by qusema/cli.py:  from qusema.oracle.cli_commands import mutate_command
"""

from __future__ import annotations

import importlib
import json
import math
from pathlib import Path
from typing import Any

import click

from qusema.oracle.circuits import Circuit, as_circuit
from qusema.oracle.core import core
from qusema.oracle.mutation import (
    DistributionTest,
    ExpectationTest,
    MutationConfig,
    PlannerConfig,
    analyse,
    generate_mutants,
)
from qusema.oracle.mutation.mutants import OPERATORS


def load_circuit(source: str) -> Circuit:
    """A .qasm path, or module:function returning a QuantumCircuit (or a Circuit)."""
    path = Path(source)
    if path.suffix.lower() in (".qasm", ".qasm2", ".qasm3") or path.is_file():
        if not path.is_file():
            raise click.BadParameter(f"{source}: no such file", param_hint="SOURCE")
        from qiskit.exceptions import MissingOptionalLibraryError, QiskitError

        try:
            return Circuit.from_qasm(path)
        except MissingOptionalLibraryError as exc:  # OpenQASM 3 needs qiskit's optional importer
            raise click.ClickException(str(exc)) from exc
        except (QiskitError, UnicodeDecodeError, *_qasm3_parse_errors()) as exc:
            # the parser's own message names the line and what is wrong
            raise click.BadParameter(f"{source}: {exc}", param_hint="SOURCE") from exc
    if ":" not in source:
        raise click.BadParameter(f"{source!r} is neither a .qasm file nor module:function")
    module_name, func_name = source.split(":", 1)
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise click.BadParameter(f"cannot import {module_name}: {exc}") from exc
    factory = getattr(module, func_name, None)
    if factory is None:
        raise click.BadParameter(f"{module_name} has no attribute {func_name}")
    return as_circuit(factory())


def _qasm3_parse_errors() -> tuple[type[Exception], ...]:
    """The OpenQASM 3 parser's syntax error, which qiskit.qasm3.loads lets through, when the
    optional parser is installed."""
    try:
        from openqasm3.parser import QASM3ParsingError
    except ImportError:
        return ()
    return (QASM3ParsingError,)


def parse_test(spec: str, index: int) -> ExpectationTest | DistributionTest:
    """'input=00;observable=Z0 Z1:1.0,X1:0.5;threshold=0.1' or 'input=00;distribution=0,1;threshold=0.1'."""
    fields: dict[str, str] = {}
    for part in spec.split(";"):
        if not part.strip():
            continue
        key, _, value = part.partition("=")
        fields[key.strip()] = value.strip()
    name = fields.get("name", f"t{index}")
    threshold = float(fields.get("threshold", "0"))
    if "input" not in fields:
        raise click.BadParameter(f"test {spec!r} needs input=LABEL (bitstring-like, qubit 0 last; 0 1 + - r l)")
    if "observable" in fields:
        observable: dict[str, float] = {}
        for term in fields["observable"].split(","):
            label, _, coeff = term.partition(":")
            observable[label.strip()] = float(coeff) if coeff else 1.0
        return ExpectationTest(name, fields["input"], observable, threshold)
    if "distribution" in fields:
        value = fields["distribution"]
        qubits = None if value in ("", "all") else tuple(int(q) for q in value.split(","))
        return DistributionTest(name, fields["input"], qubits, threshold)
    raise click.BadParameter(f"test {spec!r} needs observable=... or distribution=...")


def _tests_from_file(path: Path) -> list[ExpectationTest | DistributionTest]:
    out = []
    for i, item in enumerate(json.loads(path.read_text())):
        if "observable" in item:
            out.append(ExpectationTest(item.get("name", f"t{i}"), item["input"], item["observable"],
                                       float(item.get("threshold", 0))))
        else:
            qubits = item.get("qubits")
            out.append(DistributionTest(item.get("name", f"t{i}"), item["input"],
                                        tuple(qubits) if qubits is not None else None, float(item.get("threshold", 0))))
    return out


@click.command("mutate")
@click.argument("source")
@click.option("--test", "test_specs", multiple=True, metavar="SPEC",
              help="input=LABEL;observable=Z0 Z1:1,X2:0.5;threshold=G  or  input=LABEL;distribution=all;threshold=G")
@click.option("--tests", "tests_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="JSON list of tests: {name, input, observable|qubits, threshold}.")
@click.option("--operators", default=",".join(OPERATORS), show_default=True, help="Comma-separated operators.")
@click.option("--rgi-angle", type=float, default=math.pi / 180, show_default=True, help="RGI rotation angle (rad).")
@click.option("--max-per-operator", type=click.IntRange(1, None), default=None, help="Seeded sample size per operator.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--no-execute", is_flag=True, help="Never simulate: undecided pairs stay unresolved.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (schema qusema.mutate/1).")
def mutate_command(source: str, test_specs: tuple[str, ...], tests_file: Path | None, operators: str,
                   rgi_angle: float, max_per_operator: int | None, seed: int, no_execute: bool, as_json: bool) -> None:
    """Mutation analysis of SOURCE (a .qasm file or module:function) against declared tests:
    per-mutant decisions, evidence, costs and the mutation-score interval."""
    try:
        circuit = load_circuit(source)
    except core.UnsupportedOperation as exc:
        raise click.ClickException(str(exc)) from exc
    tests = [parse_test(s, i) for i, s in enumerate(test_specs)]
    if tests_file is not None:
        tests.extend(_tests_from_file(tests_file))
    if not tests:
        raise click.UsageError("declare at least one test with --test or --tests")
    chosen = tuple(o.strip().upper() for o in operators.split(",") if o.strip())
    unknown = set(chosen) - set(OPERATORS)
    if unknown:
        raise click.BadParameter(f"unknown operators {sorted(unknown)}; choose from {OPERATORS}")
    population = generate_mutants(circuit, MutationConfig(operators=chosen, rgi_angle=rgi_angle,
                                                          max_per_operator=max_per_operator, seed=seed))
    report = analyse(circuit, population, tests, PlannerConfig(allow_execution=not no_execute))
    if as_json:
        click.echo(json.dumps(report.to_dict(), indent=2, default=_json_default))
        return
    s = report.score
    click.echo(f"{len(population.mutants)} mutants ({population.total_weight} with grouped duplicates), "
               f"{len(population.pruned)} pruned as equivalent; {len(tests)} tests; {report.seconds:.3f} s")
    for m in report.mutants:
        click.echo(f"  {m.mutant.id:>6} x{m.mutant.weight} {m.outcome.value:<10} {m.mutant.mutation.describe()}")
        for p in m.pairs:
            gap = "" if p.gap is None else f" gap={p.gap:+.6g}"
            click.echo(f"           {p.test}: {p.decision.value} by {p.evidence.value}{gap}")
    click.echo(f"mutation score in [{float(s.lower):.4f}, {float(s.upper):.4f}]: {s.detected} detected, "
               f"{s.survived} survived, {s.unresolved} unresolved of {s.population}")


def _json_default(value: Any) -> Any:
    if isinstance(value, complex):
        return [value.real, value.imag]
    if hasattr(value, "tolist"):
        return value.tolist()
    return str(value)
