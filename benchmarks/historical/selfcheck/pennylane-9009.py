"""pennylane-9009: MultiControlledX.map_wires drops the work_wire_type (a zeroed/clean work
wire becomes the default borrowed/dirty one).

Relabelling wires must not change anything but the wire labels. The non-default work
wire type is spelled "clean" in older releases and "zeroed" in newer ones; the one this
release accepts is read from the constructor's signature default."""
import inspect

import pennylane as qml

default = inspect.signature(qml.MultiControlledX.__init__).parameters["work_wire_type"].default
non_default = {"dirty": "clean", "borrowed": "zeroed"}[default]

op = qml.MultiControlledX(wires=[0, 1, 2], work_wires=[3], work_wire_type=non_default)
assert op.hyperparameters["work_wire_type"] == non_default
mapped = op.map_wires({0: 10, 1: 11, 2: 12, 3: 13})
assert list(mapped.wires) == [10, 11, 12]
assert mapped.hyperparameters["work_wire_type"] == non_default, (
    f"map_wires changed work_wire_type from {non_default!r} to {mapped.hyperparameters['work_wire_type']!r}")
assert list(mapped.hyperparameters["work_wires"]) == [13], "map_wires lost the work wires"
