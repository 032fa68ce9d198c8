"""Where the time an audit has left goes, once every check has run shallow: a bandit over
checks. Each (law, subject) check that held is an arm; pulling it re-checks it with
DEEPEN_FACTOR times the examples of its last check, from fresh random inputs. The next arm is
the one whose re-check is expected to find the most violations per second:

    (violations of its law + 1) / (checks of its law + PRIOR_CHECKS)
    / (seconds an example of this check costs * the examples the re-check asks)

The first factor is the law's yield per check with an optimistic prior: a law checked little
still looks promising (exploration), one that has found violations looks more so
(exploitation). The second is the re-check's expected cost, measured per check, not per law
(one law costs a millisecond an example on a gate and seconds on a QNode). Each re-check is
taken to find about as much as the one before: how rare a failing input is spans orders of
magnitude, and with no scale preferred (a log-uniform prior), the chance that examples n..4n
hold the first failure is the same at every n. So depth costs 4x per level: every check gets
its 4x before any gets 16x, unless it is that much cheaper (a check at a millisecond an example
goes to 1,600 examples before one at a second gets its first 100).

An arm closes when its check is violated (the finding is recorded; more draws of the same
subject find the same defect), when it raised (nothing to judge), when its strategy ran out of
inputs before the examples asked (more would draw nothing new), or when it has been deepened
`max_level` times. Built from every result the run store holds, so a resumed audit goes on
from where it stopped."""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass, field

from qusema.contracts.engine import DEEPER, WorkItem

DEEPEN_FACTOR = 4
# Pseudo-checks of the prior: a law starts as if it had been checked this many times and found
# one violation, so its first results move its rate at once but one lucky find does not make
# it the only law deepened.
PRIOR_CHECKS = 2
# A check measured at less than this per example (a cache hit, a clock's resolution) costs this.
MIN_SECONDS_PER_EXAMPLE = 1e-3


def parse_key(key: str) -> tuple[str, str, int | None]:
    """A work item's key -> (law, subject, examples asked of a deeper re-check, or None)."""
    base, _, examples = key.partition(DEEPER)
    contract, _, subject = base.partition("::")
    return contract, subject, int(examples) if examples else None


@dataclass
class _Law:
    checks: int = 0  # that judged at least one example, first checks and re-checks
    violations: int = 0

    @property
    def rate(self) -> float:
        return (self.violations + 1) / (self.checks + PRIOR_CHECKS)


@dataclass
class _Arm:
    contract: str
    subject: str
    examples_asked: int  # of its last check
    level: int = 0  # deeper re-checks done
    examples: int = 0  # judged, over all its checks
    seconds: float = 0.0
    open: bool = True

    def cost_per_example(self) -> float:
        return max(self.seconds / self.examples if self.examples else 0.0, MIN_SECONDS_PER_EXAMPLE)

    def next_examples(self) -> int:
        return self.examples_asked * DEEPEN_FACTOR

    def next_cost(self) -> float:
        """Expected seconds of its next re-check."""
        return self.cost_per_example() * self.next_examples()


@dataclass
class CheckBandit:
    """Chooses the next deeper re-check (`pop`) and learns from each result (`record`)."""

    base_examples: int  # the audit's --examples: a first check's count
    max_level: int  # --deepen: re-checks per check at most
    _arms: dict[tuple[str, str], _Arm] = field(default_factory=dict)
    _laws: dict[str, _Law] = field(default_factory=dict)
    # Per law, its arms by the expected cost of their next re-check (heap; an entry is stale
    # once its arm changed or closed): within a law the cheapest re-check is the best, so a pop
    # looks at one arm per law instead of every arm of the audit.
    _queues: dict[str, list[tuple[float, int, int, str]]] = field(default_factory=dict)
    _versions: dict[tuple[str, str], int] = field(default_factory=dict)
    _pending: set[tuple[str, str]] = field(default_factory=set)  # handed out, result not yet in
    _remaining: int = 0  # re-checks the open arms still have (kept as arms change: asked per check done)

    @classmethod
    def from_results(cls, base_examples: int, max_level: int,
                     results: Iterable[tuple[str, dict]]) -> CheckBandit:
        """From (key, result) of every check a run has done, first checks and re-checks, in
        the order they finished."""
        bandit = cls(base_examples, max_level)
        for key, result in results:
            bandit.record(key, result)
        return bandit

    def record(self, key: str, result: dict) -> None:
        contract, subject, asked = parse_key(key)
        self._pending.discard((contract, subject))
        outcome = result.get("outcome")
        judged = int(result.get("examples") or 0) if outcome in ("holds", "violated") else 0
        law = self._laws.setdefault(contract, _Law())
        law.checks += judged > 0
        law.violations += outcome == "violated"
        arm = self._arms.get((contract, subject))
        if arm is None:
            arm = self._arms[(contract, subject)] = _Arm(contract, subject, asked or self.base_examples)
        else:
            self._remaining -= self._left(arm)
            if asked is not None and asked >= arm.examples_asked:
                arm.examples_asked, arm.level = asked, arm.level + 1
        arm.examples += judged
        arm.seconds += float(result.get("seconds") or 0.0)
        if outcome != "holds":
            arm.open = False  # violated: found; raised: nothing to judge
        elif not result.get("time_cut") and int(result.get("examples") or 0) < (asked or self.base_examples):
            # hypothesis stopped short of the examples asked without running out of time: it
            # drew every input the strategy has (a documented example, a small enumeration)
            arm.open = False
        self._remaining += self._left(arm)
        version = self._versions[(contract, subject)] = self._versions.get((contract, subject), 0) + 1
        if self._deepenable(arm):
            heapq.heappush(self._queues.setdefault(contract, []),
                           (arm.next_cost(), arm.level, version, subject))

    def _deepenable(self, arm: _Arm) -> bool:
        return arm.open and arm.level < self.max_level and arm.examples > 0

    def _left(self, arm: _Arm) -> int:
        return self.max_level - arm.level if self._deepenable(arm) else 0

    def value(self, contract: str, subject: str) -> float:
        """Expected violations per second of the check's next re-check."""
        return self._laws[contract].rate / self._arms[(contract, subject)].next_cost()

    def _cheapest(self, contract: str) -> _Arm | None:
        queue = self._queues.get(contract, [])
        while queue:
            _, _, version, subject = queue[0]
            if version == self._versions[(contract, subject)] and (contract, subject) not in self._pending:
                return self._arms[(contract, subject)]
            heapq.heappop(queue)  # stale, or handed out (its result pushes it back)
        return None

    def pop(self) -> WorkItem | None:
        """The next re-check, or None when no check is left to deepen (or every one left is
        running)."""
        best: tuple[float, int, _Arm] | None = None
        for contract in self._queues:
            arm = self._cheapest(contract)
            if arm is None:
                continue
            # ties (equal value) go to the shallower arm, then to the law that came first
            rank = (self.value(contract, arm.subject), -arm.level, arm)
            if best is None or rank[:2] > best[:2]:
                best = rank
        if best is None:
            return None
        arm = best[2]
        self._pending.add((arm.contract, arm.subject))
        return WorkItem(arm.contract, arm.subject, arm.next_examples())

    def remaining(self) -> int:
        """Re-checks still possible (an upper bound: a violation closes a check early)."""
        return self._remaining
