from qiskit.circuit import Parameter

x, y = Parameter('x'), Parameter('y')
expression = (1.0 * x + 0.0).sign()
value = complex(expression.bind({x: (0.5+0j)}).numeric())
expected = (1+0j)  # the same formula evaluated with Python's cmath
assert abs(value - expected) <= 1e-9 * max(1.0, abs(expected)), f'{value} != {expected}'
