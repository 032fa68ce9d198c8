"""The in-sandbox runtime itself, under a real release's Python."""

PANIC = """
import json, contract_runtime as r
from hypothesis import strategies as st

class PanicException(BaseException):  # what pyo3 raises for a Rust panic
    pass

def check(subject, example):
    if example > 3:
        raise PanicException("panicked at src/lib.rs")

law = r.Contract("t.panic", "f", "law", "src", lambda: ["s"], lambda s: st.integers(0, 10), check,
                 lambda s, e: "", lambda s: "api")
r._contracts = lambda library: {"t.panic": law}
print(json.dumps(r.check("t", "t.panic", "s", 30, 0)))
"""


def test_a_rust_panic_is_reported_as_raised_not_a_dead_check(qiskit_runtime):
    result = qiskit_runtime(PANIC)
    assert result["outcome"] == "raised"
    assert result["error"]["type"] == "RustPanic" and "panicked at" in result["error"]["message"]
