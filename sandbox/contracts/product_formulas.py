"""Library-neutral pieces of the time-evolution laws (qiskit_time_evolution and
pennylane_time_evolution): Pauli-word Hamiltonians and times as hypothesis draws them, and the
convergence-order assertion a product formula's reproducer ends with.

Not a family (families are <library>_<family>.py): the runtime never lists it; the law-code
digest covers it through the families that import it."""

import math

# Below this error the formula is at rounding level: a ratio means nothing there.
FLOOR = 1e-10
# Asymptotically, doubling the steps divides an order-p formula's error by 2^p; at a step of at
# most MAX_STEP the next-order term is small enough that 2^p / RATIO_MARGIN is a safe lower bound.
RATIO_MARGIN = 1.5
MAX_STEP = 0.5


def pauli_words_commute(a, b):
    """Pauli words commute iff they differ (both non-identity) on an even number of qubits."""
    return sum(1 for x, y in zip(a, b) if x != "I" and y != "I" and x != y) % 2 == 0


def all_commute(labels):
    return all(pauli_words_commute(a, b) for i, a in enumerate(labels) for b in labels[i + 1:])


def hamiltonians(st, min_terms=1, max_terms=3, commuting=None):
    """(n, ((word, coeff), ...)): 1-3 distinct Pauli words on 1-3 qubits with real
    coefficients; `commuting` True/False keeps only sets whose words all commute / do not."""
    letters = st.sampled_from("IXYZ")

    def terms(n):
        word = st.lists(letters, min_size=n, max_size=n).map("".join)
        coeff = st.one_of(st.sampled_from([1.0, -1.0, 0.5]), st.floats(-2.0, 2.0).map(lambda c: round(c, 6)))
        return st.lists(st.tuples(word, coeff), min_size=min_terms, max_size=max_terms,
                        unique_by=lambda term: term[0]).map(tuple)

    h = st.integers(1, 3).flatmap(lambda n: st.tuples(st.just(n), terms(n)))
    if commuting is not None:
        h = h.filter(lambda e: all_commute([w for w, _ in e[1]]) == commuting)
    return h


def times(st):
    """Evolution times of either sign, with a few round values hypothesis tries first."""
    return st.one_of(st.sampled_from([1.0, -1.0, 0.5, math.pi / 4]), st.floats(-2.0, 2.0).map(lambda t: round(t, 6)))


def start_steps(terms, time, steps):
    """The drawn step count, raised until the step lambda|t|/steps is at most MAX_STEP
    (lambda = sum |c|), where the order assertion is valid."""
    lam = sum(abs(c) for _, c in terms)
    return max(steps, math.ceil(lam * abs(time) / MAX_STEP))


def order_assertion(order, steps, count, atol):
    """Reproducer source that calls the reproducer's `error(steps)` at `steps` and twice that
    and asserts the error shrank by the order's factor; `count` names the step count as the
    library does (reps, n)."""
    bound = 2 ** order / RATIO_MARGIN
    return (f"# step lambda|t|/{count} <= {MAX_STEP}: doubling {count} must shrink the error by ~2^{order}\n"
            f"e1, e2 = error({steps}), error({2 * steps})\n"
            f"if e1 > {FLOOR!r}:\n"
            f"    assert e1 / e2 >= {bound!r}, (f'order-{order} formula: error {{e1:.3g}} at {count}={steps}, "
            f"{{e2:.3g}} at {count}={2 * steps}: ratio {{e1 / e2:.3g}} < 2^{order}/{RATIO_MARGIN}')\n"
            "else:\n"
            f"    assert e2 < {atol!r}, f'error grew from {{e1:.3g}} to {{e2:.3g}} when {count} doubled'\n")
