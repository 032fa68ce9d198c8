from qiskit.circuit import Parameter, ParameterExpression

x, y = Parameter('x'), Parameter('y')
expression = ((2.0 * x + 0.0) ** (0.3))
def value(at):
    binding = {x: 0.3}
    binding[x] = at
    return complex(expression.bind(binding).numeric())
at, h = 0.3, 1e-3
central = lambda step: (value(at + step) - value(at - step)) / (2 * step)
finite_difference = (4 * central(h / 2) - central(h)) / 3
gradient = expression.gradient(x)
if isinstance(gradient, ParameterExpression):
    binding = {p: v for p, v in {x: 0.3}.items() if p in gradient.parameters}
    gradient = gradient.bind(binding).numeric()
gradient = complex(gradient)
assert abs(gradient - finite_difference) <= 1e-6 * max(1.0, abs(finite_difference)), f'gradient {gradient} != finite difference {finite_difference}'
