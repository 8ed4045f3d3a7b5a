"""
Exercises: gradients and linear algebra
=======================================

Exercises for the pages on gradients and linear algebra, each with a solution
behind a toggle and a check that tells you whether an answer is right.
"""

# %%
# The checks run on the CPU.
import torch

from tutorial_utils.environment import environment_summary

print(environment_summary("cpu"))

# %%
# .. _exercises-gradients-01:
#
# Automatic differentiation
# -------------------------
# For :ref:`sphx_glr_auto_examples_gradients_plot_01_automatic_differentiation.py`.
#
# **Exercise 1.** Make ``w``, a :term:`leaf` :term:`tensor` holding 1, -2 and
# 3 (float32) that requires gradients, and ``answer``: the :term:`gradient` of
# the sum of the squares of ``w`` with respect to ``w``, from
# :func:`torch.autograd.grad`, so that ``w.grad`` stays ``None`` and ``answer``
# itself does not require gradients.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
answer = torch.autograd.grad((w**2).sum(), w)[0]
print(answer)

# %%
# .. raw:: html
#
#    </details>

# %%
# The check:
assert isinstance(answer, torch.Tensor), "Exercise 1: answer is not a tensor"
assert w.is_leaf, "Exercise 1: w is not a leaf: create it directly"
assert w.requires_grad, "Exercise 1: w does not require gradients"
assert w.dtype == torch.float32, f"Exercise 1: w is {w.dtype}, not float32"
assert w.grad is None, "Exercise 1: w.grad was filled: backward() fills it"
assert not answer.requires_grad, (
    "Exercise 1: answer requires gradients: computed from w (or create_graph=True)?"
)
assert answer.tolist() == [2.0, -4.0, 6.0], "Exercise 1: not 2·w, the derivative of w²"
print("Exercise 1: right")

# %%
# **Exercise 2.** Predict, without running it, what ``t.grad`` holds after the
# code below, and make ``answer``: that value, as a tensor you write by hand
# (no autograd). The check runs the code::
#
#    t = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
#    (t * t.detach()).sum().backward()
#    (5 * t).sum().backward()
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
# t.detach() is a constant, so the first pass gives t itself: 1, 2, 3. The
# second adds 5 to each, since backward() adds into .grad.
answer = torch.tensor([6.0, 7.0, 8.0])
print(answer)

# %%
# .. raw:: html
#
#    </details>

# %%
# The check:
assert isinstance(answer, torch.Tensor), "Exercise 2: answer is not a tensor"
t = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
(t * t.detach()).sum().backward()
(5 * t).sum().backward()
assert answer.tolist() == t.grad.tolist(), (
    "Exercise 2: not what t.grad holds: is t.detach() a constant? "
    "What does a second backward() do to .grad?"
)
print("Exercise 2: right")

# %%
# **Exercise 3.** Define ``Cube``, a subclass of
# :class:`torch.autograd.Function` whose ``forward`` returns ``x³`` and whose
# ``backward`` returns the gradient with respect to ``x`` (the chain rule),
# and make ``answer = Cube``. The check tests it with
# :func:`torch.autograd.gradcheck`, in float64.
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
        return grad_output * 3 * x**2


answer = Cube
print(answer.apply(torch.tensor([2.0])))

# %%
# .. raw:: html
#
#    </details>

# %%
# The check:
assert isinstance(answer, type), "Exercise 3: answer is not a class"
assert issubclass(answer, torch.autograd.Function), (
    "Exercise 3: answer is not a subclass of torch.autograd.Function"
)
torch.manual_seed(0)
x = torch.randn(5, dtype=torch.float64, requires_grad=True)
torch.testing.assert_close(
    answer.apply(x), x * x * x, msg="Exercise 3: forward does not return x³"
)
assert torch.autograd.gradcheck(answer.apply, (x,), raise_exception=False), (
    "Exercise 3: backward disagrees with finite differences of forward"
)
print("Exercise 3: right")

# %%
# .. _exercises-gradients-02:
#
# Linear algebra
# --------------
# For :ref:`sphx_glr_auto_examples_gradients_plot_02_linear_algebra.py`.
#
# **Exercise 4.** Make ``answer``: the float32 tensor ``(x, y, z)`` that
# solves the three equations below, from :func:`torch.linalg.solve`::
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
answer = torch.linalg.solve(A, b)
print(answer)

# %%
# .. raw:: html
#
#    </details>

# %%
# The check tests the values, not how they were found:
assert isinstance(answer, torch.Tensor), "Exercise 4: answer is not a tensor"
assert answer.dtype == torch.float32, f"Exercise 4: dtype {answer.dtype}, not float32"
assert answer.shape == (3,), f"Exercise 4: shape {tuple(answer.shape)}, not (3,)"
torch.testing.assert_close(
    answer,
    torch.tensor([5.0, 3.0, -2.0]),  # substituted by hand: 6, -4 and 27
    msg="Exercise 4: not the solution: substitute it into the equations",
)
print("Exercise 4: right")

# %%
# ``A_batch`` holds four 3-by-3 matrices and ``B_batch`` four 3-by-2
# right-hand sides, a :term:`batch` of systems:
torch.manual_seed(0)
A_batch = torch.randn(4, 3, 3, dtype=torch.float64)
B_batch = torch.randn(4, 3, 2, dtype=torch.float64)

# %%
# **Exercise 5.** Make ``answer``: the four solutions ``X`` of
# ``A_batch[i] @ X = B_batch[i]``, of :term:`shape` ``(4, 3, 2)``, in one
# call, without a Python loop.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
answer = torch.linalg.solve(A_batch, B_batch)
print(answer.shape)

# %%
# .. raw:: html
#
#    </details>

# %%
# The check substitutes each solution into its own system (it sees the
# solutions, not whether a loop made them):
assert isinstance(answer, torch.Tensor), "Exercise 5: answer is not a tensor"
assert answer.shape == (4, 3, 2), f"Exercise 5: shape {tuple(answer.shape)}"
for i in range(4):
    assert torch.allclose(A_batch[i] @ answer[i].double(), B_batch[i]), (
        f"Exercise 5: answer[{i}] does not solve system {i}"
    )
print("Exercise 5: right")

# %%
# ``S`` is a symmetric matrix:
S = torch.tensor([[1.0, 2.0], [2.0, 1.0]])

# %%
# **Exercise 6.** Define ``condition(matrix)``, a function that returns the
# :term:`condition number` of a symmetric ``matrix`` (a one-element tensor or a
# ``float``), computed from its eigenvalues (:func:`torch.linalg.eigvalsh`),
# without :func:`torch.linalg.cond` or a function that returns singular values.
# Make ``answer = condition(S)``. Work out the eigenvalues of ``S`` first: one
# of them is negative.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>


# %%
# The singular values of a symmetric matrix are the absolute values of its
# eigenvalues, here -1 and 3: the largest over the smallest is 3, not -3.
def condition(matrix):
    magnitudes = torch.linalg.eigvalsh(matrix).abs()
    return magnitudes.max() / magnitudes.min()


answer = condition(S)
print(answer)

# %%
# .. raw:: html
#
#    </details>

# %%
# The check compares with 3, worked out by hand, and with ``torch.linalg.cond``,
# then tries ``condition`` on a matrix whose eigenvalues are -5 and 1, and on
# one whose are -3, 0.1 and 2 (0.1, the smallest in size, lies between the two):
assert isinstance(answer, (torch.Tensor, float)), "Exercise 6: answer is no number"
assert not isinstance(answer, torch.Tensor) or answer.numel() == 1, (
    "Exercise 6: answer should hold one number"
)
assert abs(float(answer) - 3.0) < 1e-5, (
    "Exercise 6: not the condition number: largest singular value over the "
    "smallest, and a symmetric matrix's are the |eigenvalues|"
)
assert abs(float(answer) - torch.linalg.cond(S).item()) < 1e-5, (
    "Exercise 6: not cond(S)"
)
S2 = torch.tensor([[-2.0, 3.0], [3.0, -2.0]])  # eigenvalues -2 ± 3: cond is 5
assert abs(float(condition(S2)) - 5.0) < 1e-5, (
    f"Exercise 6: condition(S2) is {float(condition(S2)):.4g}, not 5: "
    "order the eigenvalues by |value|, not by value"
)
S3 = torch.diag(torch.tensor([-3.0, 0.1, 2.0]))  # cond is 3 / 0.1 = 30
assert abs(float(condition(S3)) - 30.0) < 1e-4, (
    f"Exercise 6: condition(S3) is {float(condition(S3)):.4g}, not 30: "
    "the smallest |eigenvalue| need not be at either end"
)
print("Exercise 6: right")
