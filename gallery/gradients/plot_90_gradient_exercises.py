"""
Exercises: gradients and linear algebra
=======================================

Practise what the gradients section taught. You will ask autograd for a
gradient, predict what ``.grad`` holds, and write a ``backward`` of your own.
Then you will solve linear systems and compute a condition number.

**Before this page:**
:ref:`sphx_glr_auto_examples_gradients_plot_01_automatic_differentiation.py`
and :ref:`sphx_glr_auto_examples_gradients_plot_02_linear_algebra.py`.
Exercise 3 also needs the in-depth page
:ref:`sphx_glr_auto_examples_gradients_plot_52_custom_functions.py`.
"""

# %%
# Each exercise has a solution behind a toggle. A check follows it. It tests
# the objects your answer made, not the code that made them. When a test
# fails, its message says what it found. In the notebook, an empty cell takes
# the place of each solution: write your answer there, then run the check.
# The checks run on the CPU.
import torch

from tutorial_utils.environment import environment_summary

print(environment_summary(torch.device("cpu")))

# %%
# .. _exercises-gradients-01:
#
# Automatic differentiation
# -------------------------
# For :ref:`sphx_glr_auto_examples_gradients_plot_01_automatic_differentiation.py`.
#
# **Exercise 1.** Make ``w``: a float32 :term:`leaf` :term:`tensor` that
# holds 1, -2 and 3 and requires gradients. Then make ``grad_w``: the
# :term:`gradient` of ``(w**2).sum()`` with respect to ``w``. Get it from
# :func:`torch.autograd.grad`, not from ``backward()``, so that ``w.grad``
# stays ``None``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
grad_w = torch.autograd.grad((w**2).sum(), w)[0]  # one gradient per input
print(grad_w)

# %%
# .. raw:: html
#
#    </details>

# %%
# The check:
assert isinstance(w, torch.Tensor), "Exercise 1: w is not a tensor"
assert w.tolist() == [1.0, -2.0, 3.0], f"Exercise 1: w is {w.tolist()}, not 1, -2, 3"
assert w.dtype == torch.float32, f"Exercise 1: w is {w.dtype}, not float32"
assert w.requires_grad, "Exercise 1: w does not require gradients"
assert w.is_leaf, "Exercise 1: w is not a leaf: create it with requires_grad=True"
assert w.grad is None, "Exercise 1: w.grad is filled: use autograd.grad, not backward()"
assert not isinstance(grad_w, tuple), (
    "Exercise 1: grad_w is a tuple: grad() returns one gradient per input; take [0]"
)
assert isinstance(grad_w, torch.Tensor), (
    f"Exercise 1: grad_w is a {type(grad_w).__name__}, not a tensor"
)
assert not grad_w.requires_grad, (
    "Exercise 1: grad_w requires gradients; the gradient that autograd.grad "
    "returns does not, unless you pass create_graph=True"
)
assert grad_w.tolist() == (2 * w.detach()).tolist(), (
    f"Exercise 1: grad_w is {grad_w.tolist()}, not 2·w: w² has derivative 2w"
)
print("Exercise 1: right")

# %%
# **Exercise 2.** Predict what ``t.grad`` holds after the three lines below,
# without running them. Make ``predicted``: that value, as a tensor you type
# in. The check runs the lines::
#
#    t = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
#    (t * t.detach()).sum().backward()
#    (5 * t).sum().backward()
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
# t.detach() is a constant, so the first backward() gives t itself: 1, 2, 3.
# The second adds 5 to each, because backward() adds into .grad.
predicted = torch.tensor([6.0, 7.0, 8.0])
print(predicted)

# %%
# .. raw:: html
#
#    </details>

# %%
# The check runs the three lines. When your prediction is wrong, its
# message names the likely mistake.
assert isinstance(predicted, torch.Tensor), "Exercise 2: predicted is not a tensor"
t = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(t * t.detach()).sum().backward()
after_first = t.grad.clone()
(5 * t).sum().backward()
assert predicted.shape == t.shape, (
    f"Exercise 2: predicted has shape {tuple(predicted.shape)}, not "
    f"{tuple(t.shape)}: .grad has the shape of t"
)
guess = predicted.tolist()
assert guess != after_first.tolist(), (
    "Exercise 2: that is t.grad after the first backward() only: the second adds to it"
)
assert guess != (t.grad - after_first).tolist(), (
    "Exercise 2: that is the second backward() alone: the first leaves t's values "
    "in .grad, and the second adds to them"
)
twice_t = 2 * t.detach()
assert guess not in (twice_t.tolist(), (twice_t + t.grad - after_first).tolist()), (
    "Exercise 2: t.detach() is a constant, so the first backward() gives t's "
    "values, not 2t"
)
assert guess == t.grad.tolist(), (
    f"Exercise 2: t.grad is not {guess}: work out what each backward() adds to .grad"
)
print("Exercise 2: right")

# %%
# Exercise 3 is for the in-depth page
# :ref:`sphx_glr_auto_examples_gradients_plot_52_custom_functions.py`.
#
# **Exercise 3.** Define ``Cube``, a subclass of
# :class:`torch.autograd.Function`. Its ``forward`` returns ``x³``. Its
# ``backward`` returns the gradient with respect to ``x``, by the chain rule.
# As on that page, ``forward`` keeps ``x`` with ``ctx.save_for_backward(x)``,
# and ``backward`` reads it back from ``ctx.saved_tensors``.
# ``Cube.apply(x)`` runs the function on ``x``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>


# %%
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * 3 * x**2  # the derivative of x³ is 3x²


print(Cube.apply(torch.tensor([2.0])))

# %%
# .. raw:: html
#
#    </details>

# %%
# The check runs ``Cube`` on five random float64 numbers. It compares the
# result with ``x * x * x`` through :func:`torch.testing.assert_close`. That
# function raises when two tensors differ in dtype or shape. It also raises
# when their values differ by more than a tolerance set by their dtype. Its
# ``msg`` here is a function that receives the report of what differed. It
# puts that report at the end of the check's message. Then
# :func:`torch.autograd.gradcheck` compares ``backward`` with finite
# differences.
assert isinstance(Cube, type), "Exercise 3: Cube is not a class"
assert issubclass(Cube, torch.autograd.Function), (
    "Exercise 3: Cube is not a subclass of torch.autograd.Function"
)
torch.manual_seed(0)
x = torch.randn(5, dtype=torch.float64, requires_grad=True)
torch.testing.assert_close(
    Cube.apply(x),
    x * x * x,
    msg=lambda found: (
        f"Exercise 3: Cube.apply(x) does not match x * x * x: check forward\n{found}"
    ),
)
assert torch.autograd.gradcheck(Cube.apply, (x,), raise_exception=False), (
    "Exercise 3: backward disagrees with finite differences: "
    "it should return grad_output times the derivative of x³"
)
print("Exercise 3: right")

# %%
# .. check:: assert_close raises when dtypes or shapes differ
for other in (x.detach().float(), x.detach()[:4]):
    try:
        torch.testing.assert_close(other, x.detach())
    except AssertionError:
        pass
    else:
        raise AssertionError("assert_close accepted a different dtype or shape")

# %%
# .. _exercises-gradients-02:
#
# Linear algebra
# --------------
# For :ref:`sphx_glr_auto_examples_gradients_plot_02_linear_algebra.py`.
#
# **Exercise 4.** Make ``xyz``: a float32 tensor holding the ``x``, ``y``
# and ``z`` that solve the three equations below. Use
# :func:`torch.linalg.solve`. It raises an error on integer tensors, so
# write ``1.0``, not ``1``::
#
#      x +  y +  z =  6
#          2y + 5z = -4
#     2x + 5y -  z = 27
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
A = torch.tensor([[1.0, 1.0, 1.0], [0.0, 2.0, 5.0], [2.0, 5.0, -1.0]])
b = torch.tensor([6.0, -4.0, 27.0])
xyz = torch.linalg.solve(A, b)
print(xyz)

# %%
# .. raw:: html
#
#    </details>

# %%
# The check substitutes ``xyz`` into each equation, in float64. It tests the
# values, not how they were found.
assert isinstance(xyz, torch.Tensor), "Exercise 4: xyz is not a tensor"
assert xyz.dtype == torch.float32, f"Exercise 4: xyz is {xyz.dtype}, not float32"
assert xyz.shape == (3,), f"Exercise 4: xyz has shape {tuple(xyz.shape)}, not (3,)"
equations = torch.tensor([[1.0, 1, 1], [0, 2, 5], [2, 5, -1]], dtype=torch.float64)
right_sides = torch.tensor([6.0, -4, 27], dtype=torch.float64)
left_sides = equations @ xyz.double()
for i in range(3):
    assert abs(left_sides[i] - right_sides[i]) < 5e-6, (
        f"Exercise 4: equation {i + 1} gives {left_sides[i]:.6g}, not "
        f"{right_sides[i]:g}: check row {i + 1} of your matrix and b"
    )
print("Exercise 4: right")

# %%
# .. check:: solve raises an error on integer tensors
try:
    torch.linalg.solve(equations.long(), right_sides.long())
except RuntimeError:
    pass
else:
    raise AssertionError("solve accepted integer tensors")

# %%
# ``A_batch`` holds four 3-by-3 matrices and ``B_batch`` four 3-by-2
# matrices: a :term:`batch` of four systems.
torch.manual_seed(0)
A_batch = torch.randn(4, 3, 3, dtype=torch.float64)
B_batch = torch.randn(4, 3, 2, dtype=torch.float64)

# %%
# **Exercise 5.** Make ``solutions``, of :term:`shape` ``(4, 3, 2)``. For
# each ``i``, ``solutions[i]`` is the ``X`` with
# ``A_batch[i] @ X = B_batch[i]``. Use one call, without a Python loop.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
solutions = torch.linalg.solve(A_batch, B_batch)
print(solutions.shape)

# %%
# .. raw:: html
#
#    </details>

# %%
# The check substitutes each solution into its own system. It sees the
# solutions, not whether a loop made them.
assert isinstance(solutions, torch.Tensor), "Exercise 5: solutions is not a tensor"
assert solutions.shape == (4, 3, 2), (
    f"Exercise 5: shape {tuple(solutions.shape)}, not (4, 3, 2): one X per system"
)
for i in range(4):
    assert torch.allclose(A_batch[i] @ solutions[i].double(), B_batch[i]), (
        f"Exercise 5: A_batch[{i}] @ solutions[{i}] is not B_batch[{i}]: "
        "solve(A, B) solves A @ X = B"
    )
print("Exercise 5: right")

# %%
# ``S`` is a symmetric matrix. For a symmetric matrix, the
# :term:`condition number` is the largest absolute eigenvalue over the
# smallest. A tensor's ``.abs()`` gives the absolute value of each element.
S = torch.tensor([[1.0, 2.0], [2.0, 1.0]])

# %%
# .. check:: ``cond(S)`` is its largest absolute eigenvalue over its smallest
_magnitudes = torch.linalg.eigvalsh(S).abs().sort(descending=True).values
torch.testing.assert_close(torch.linalg.svdvals(S), _magnitudes)
torch.testing.assert_close(torch.linalg.cond(S), _magnitudes[0] / _magnitudes[-1])

# %%
# **Exercise 6.** Define ``condition(matrix)``. It returns the condition
# number of a symmetric ``matrix``, as a float or a one-element tensor. Compute it from the eigenvalues that
# :func:`torch.linalg.eigvalsh` returns, not with :func:`torch.linalg.cond`.
# Work out the eigenvalues of ``S`` first: one of them is negative.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>


# %%
# The eigenvalues of S are -1 and 3. The largest absolute value over the
# smallest is 3.
def condition(matrix):
    magnitudes = torch.linalg.eigvalsh(matrix).abs()
    return magnitudes.max() / magnitudes.min()


print(condition(S))

# %%
# .. raw:: html
#
#    </details>

# %%
# The check compares ``condition(S)`` with :func:`torch.linalg.cond`. It
# counts a tensor's elements with ``numel()``. Then it tries ``condition`` on
# two more matrices. ``S2`` has the eigenvalues -5 and 1. ``torch.diag`` makes
# ``S3``, with -3, 0.1 and 2 on its diagonal and zeros elsewhere. Those three
# are its eigenvalues. The smallest in size, 0.1, is neither the first nor
# the last that ``eigvalsh`` returns. So dividing the two ends fails on
# ``S3``. When a result is wrong, the message names the likely mistake.
value = condition(S)
assert isinstance(value, (torch.Tensor, float)), (
    f"Exercise 6: condition(S) is a {type(value).__name__}, not a float or tensor"
)
assert not isinstance(value, torch.Tensor) or value.numel() == 1, (
    f"Exercise 6: condition(S) holds {value.numel()} numbers, not one"
)
assert float(value) > 0, (
    f"Exercise 6: condition(S) is {float(value):.4g}: a ratio of sizes is positive; "
    "use the absolute values of the eigenvalues"
)
assert abs(float(value) - torch.linalg.cond(S).item()) < 1e-5, (
    f"Exercise 6: condition(S) is {float(value):.4g}, not cond(S): divide the "
    "largest absolute eigenvalue by the smallest"
)
S2 = torch.tensor([[-2.0, 3.0], [3.0, -2.0]])
S3 = torch.diag(torch.tensor([-3.0, 0.1, 2.0]))
for name, matrix, tolerance in [("S2", S2, 1e-5), ("S3", S3, 1e-4)]:
    got, wanted = float(condition(matrix)), torch.linalg.cond(matrix).item()
    ends = torch.linalg.eigvalsh(matrix)[[0, -1]].abs()  # lowest, highest by value
    hint = "divide the largest absolute eigenvalue by the smallest"
    if abs(got - (ends[1] / ends[0]).item()) < tolerance:
        hint = "order the eigenvalues by absolute value, not by value"
    elif abs(got - (ends.max() / ends.min()).item()) < tolerance:
        hint = "the smallest absolute eigenvalue need not be at either end"
    assert abs(got - wanted) < tolerance, (
        f"Exercise 6: condition({name}) is {got:.4g}, not {wanted:.4g}: {hint}"
    )
print("Exercise 6: right")

# %%
# .. check:: ``S2`` has eigenvalues -5 and 1; ``S3`` has -3, 0.1 and 2
torch.testing.assert_close(torch.linalg.eigvalsh(S2), torch.tensor([-5.0, 1.0]))
torch.testing.assert_close(torch.linalg.eigvalsh(S3), torch.tensor([-3.0, 0.1, 2.0]))
_ends = torch.linalg.eigvalsh(S3)[[0, -1]].abs()  # dividing the two ends fails
assert not torch.isclose(_ends.max() / _ends.min(), torch.linalg.cond(S3))

# %%
# Next: the training section starts with
# :ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py`.
