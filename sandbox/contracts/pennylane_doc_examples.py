"""Documented examples, PennyLane: a public function's or class's docstring example (doctest
``>>>`` lines followed by an expected-output block) prints, on the release, the numbers its
documentation shows.

The law, its domain and its comparison are the Qiskit family's (qiskit_doc_examples.py, whose
engine imports no quantum library), here over PennyLane's public modules: qml, qml.math,
qml.ops, qml.templates, qml.transforms, qml.pauli, qml.qchem, qml.fourier, qml.gradients,
qml.measurements, qml.devices and qml.workflow (the public functions, classes, transform
objects and class members defined in PennyLane, not qml.labs / qml.data). A subject is
"<dotted api>#<k>", the k-th ``>>>`` example of that docstring; it is one on a release only
when its setup (the docstring's earlier examples) and itself run there quickly, print the same
twice from a fresh setup, use nothing random, seeded, sampled (shots), timed, optional that is
missing, networked, on files or plotted, and print the documented output's non-numeric
skeleton. PennyLane's docs take ``import pennylane as qml`` and a numpy as ``np`` for granted:
plain numpy is tried first, then PennyLane's autograd numpy (whose ``tensor(...,
requires_grad=True)`` wrapper the comparison ignores).
"""

from contracts.qiskit_doc_examples import DocExampleLaw

PENNYLANE = DocExampleLaw(
    "pennylane",
    ["pennylane", "pennylane.math", "pennylane.ops", "pennylane.templates", "pennylane.transforms",
     "pennylane.pauli", "pennylane.qchem", "pennylane.fourier", "pennylane.gradients", "pennylane.measurements",
     "pennylane.devices", "pennylane.workflow"],
    ["import numpy as np\nimport pennylane as qml\nimport pennylane as qp\n",
     "import pennylane as qml\nimport pennylane as qp\nfrom pennylane import numpy as np\n"],
    r"\b(?:qml|qp|pennylane)\b", excluded_modules=("pennylane.labs", "pennylane.data", "pennylane.drawer.mpldrawer"))

CONTRACTS = [
    PENNYLANE.contract("pennylane.docs.examples-give-documented-output",
                       "documentation: the docstrings' own doctest examples (>>> lines and the expected output "
                       "shown under them) of the public API in qml, qml.math, qml.ops, qml.templates, "
                       "qml.transforms, qml.pauli, qml.qchem, qml.fourier, qml.gradients, qml.measurements, "
                       "qml.devices, qml.workflow"),
]
