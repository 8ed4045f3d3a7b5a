"""
Linear algebra with torch.linalg
================================

Solve systems of linear equations with :func:`torch.linalg.solve`, one at a
time or many in one call. After this page you can tell from the
:term:`condition number` how many digits an answer may lose. You can also
compute eigenvalues and norms, and take :term:`gradients <gradient>` through
a solve.

**Before this page:** ``@`` and broadcasting from
:ref:`sphx_glr_auto_examples_tensors_plot_04_arithmetic_and_broadcasting.py`,
``eps`` from :ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py`
and ``backward`` from
:ref:`sphx_glr_auto_examples_gradients_plot_01_automatic_differentiation.py`.
"""

# %%
# The page runs on the CPU.
import matplotlib.pyplot as plt
import numpy as np
import torch

from tutorial_utils.environment import environment_summary

print(environment_summary(torch.device("cpu")))

# %%
# A system of three equations
# ---------------------------
# Find ``x``, ``y`` and ``z`` such that::
#
#     2x + 3y -  z =  5
#      x - 2y + 8z = 21
#     6x +  y - 3z = -1
#
# The coefficients make a 3-by-3 matrix ``A``, one row per equation, and the
# right-hand sides a vector ``b``. For two vectors, ``row @ v`` multiplies
# them element by element and sums: their *dot product*. For a matrix,
# ``A @ v`` gives one such sum per row of ``A``. So the system is
# ``A @ v = b``, with ``v = (x, y, z)``. :func:`torch.linalg.solve` finds
# ``v``. Substitute it back to check it; a loop over ``A`` gives its rows:
A = torch.tensor([[2.0, 3.0, -1.0], [1.0, -2.0, 8.0], [6.0, 1.0, -3.0]])
b = torch.tensor([5.0, 21.0, -1.0])
v = torch.linalg.solve(A, b)
print(v)
for row, rhs in zip(A, b, strict=True):
    terms = " + ".join(f"({c:g})·{value:.4f}" for c, value in zip(row, v, strict=True))
    print(f"{terms} = {(row @ v).item():.4f}   (want {rhs.item():g})")

# %%
# .. check:: the answer satisfies the equations and is (1, 2, 3) to float32 rounding
torch.testing.assert_close(A @ v, torch.stack([(row * v).sum() for row in A]))
torch.testing.assert_close(A @ v, b)
torch.testing.assert_close(v, torch.tensor([1.0, 2.0, 3.0]), atol=0, rtol=1e-6)

# %%
# So ``x = 1``, ``y = 2`` and ``z = 3``, up to float32 rounding.
#
# Many systems at once
# --------------------
# ``solve`` also takes a stack of systems. ``A`` of :term:`shape`
# ``(*, n, n)`` holds one matrix per system, where ``*`` is any number of
# leading :term:`dimensions <dimension>`. ``B`` of shape ``(*, n, k)`` holds
# ``k`` right-hand sides per system, one per column. Here are two systems
# with five right-hand sides each:
torch.manual_seed(0)
A_batch, B_batch = torch.randn(2, 3, 3), torch.randn(2, 3, 5)
X_batch = torch.linalg.solve(A_batch, B_batch)
print("X:", tuple(X_batch.shape))

# %%
# .. check:: one call solves every system; ``X_batch[1]`` matches a call of its own
assert torch.allclose(A_batch @ X_batch, B_batch, atol=1e-5)
torch.testing.assert_close(X_batch[1], torch.linalg.solve(A_batch[1], B_batch[1]))

# %%
# With ``B`` of shape ``(*, n, k)``, the leading dimensions
# :term:`broadcast <broadcasting>`, as in arithmetic. The code prints two
# cases:
#
# - ``A`` of shape ``(3, 3)`` with ``B`` of shape ``(4, 3, 5)``;
# - ``A`` of shape ``(2, 3, 3)`` with ``B`` of shape ``(3, 5)``.
#
# .. detail:: A stack of vectors
#
#    ``solve`` reads ``B`` as vectors, not matrices, in two cases:
#
#    - ``B`` has one dimension;
#    - ``B`` has the shape of ``A`` without its last dimension.
#
#    So ``A`` of shape ``(3, 3, 3)`` with ``B`` of shape ``(3, 3)`` is three
#    systems with one right-hand side each. A ``B`` of shape ``(1, 3)`` is
#    then a matrix with 1 row. Each system has 3 equations, so ``solve``
#    refuses it. Give ``B`` its ``k`` dimension, even of size 1.
for shapes in (((3, 3), (4, 3, 5)), ((2, 3, 3), (3, 5))):
    A_case, B_case = (torch.randn(shape) for shape in shapes)
    X_case = torch.linalg.solve(A_case, B_case)
    print(f"A {shapes[0]}, B {shapes[1]} -> X {tuple(X_case.shape)}")

# %%
# .. check:: with broadcast leading dimensions, every system is solved
with torch.random.fork_rng(devices=[]):
    for shapes, X_shape in (
        (((3, 3), (4, 3, 5)), (4, 3, 5)),
        (((2, 3, 3), (3, 5)), (2, 3, 5)),
    ):
        A_case, B_case = (torch.randn(shape) for shape in shapes)
        X_case = torch.linalg.solve(A_case, B_case)
        assert X_case.shape == X_shape
        assert torch.allclose(A_case @ X_case, B_case.expand_as(X_case), atol=1e-4)

# %%
# .. check:: ``B`` of shape (3, 3) against ``A`` of shape (3, 3, 3) is three vectors
with torch.random.fork_rng(devices=[]):
    A3, B3 = torch.randn(3, 3, 3), torch.randn(3, 3)
    X3 = torch.linalg.solve(A3, B3)
    assert X3.shape == (3, 3)
    torch.testing.assert_close(X3[1], torch.linalg.solve(A3[1], B3[1]))
    assert torch.linalg.solve(A3, torch.randn(3)).shape == (3, 3)
    try:
        torch.linalg.solve(A3, torch.randn(1, 3))
    except RuntimeError:
        pass
    else:
        raise AssertionError("a B of shape (1, 3) should be refused")

# %%
# How many digits survive
# -----------------------
# In ``solve``, rounding errors act like a small relative change in ``A`` and
# ``b``. The :term:`condition number` of ``A``, from :func:`torch.linalg.cond`,
# says about how many times such a change can grow in the answer. Each
# factor of 10 in that growth can cost one significant digit. So a
# condition number of 10⁸ can cost about 8 digits.
#
# ``eps`` is the gap between 1 and the next number of the dtype. A relative
# change of ``eps`` can grow to about cond·eps. Once the condition number
# nears ``1 / eps``, cond·eps nears 1: a possible error of 100 %. No digit
# is safe.
#
# Hilbert matrices, ``H[i, j] = 1 / (i + j + 1)`` counting from 0, are a
# classic hard case. Their condition number grows about 30 times as ``n``
# grows by one. The code builds them in float64, close to the exact
# matrices. In the figure, ``ax.legend()`` names the lines.
#
# .. detail:: Why float64
#
#    Rounding each entry to float32 changes it by up to a relative ``eps``.
#    For the larger Hilbert matrices that is a large change: from ``n = 10``
#    on, the rounded matrix has a condition number over 100 times smaller.
#    It no longer tells about the exact matrix.
sizes = list(range(2, 13))
hilbert = {
    n: torch.tensor(
        [[1 / (i + j + 1) for j in range(n)] for i in range(n)], dtype=torch.float64
    )
    for n in sizes
}
conditions = [torch.linalg.cond(hilbert[n]).item() for n in sizes]
eps32, eps64 = torch.finfo(torch.float32).eps, torch.finfo(torch.float64).eps
fig, ax = plt.subplots(figsize=(7, 3.6), layout="constrained")
ax.plot(sizes, conditions, "o-", color="#0072B2", label="condition number")
ax.plot(sizes, [1 / eps32] * len(sizes), ":", color="#D55E00", label="1/eps float32")
ax.plot(sizes, [1 / eps64] * len(sizes), "--", color="#009E73", label="1/eps float64")
ax.set(xlabel="n", yscale="log", title="Condition number of the n-by-n Hilbert matrix")
ax.legend()
plt.show()

# %%
# .. check:: the condition number grows 15 to 50 times as ``n`` grows by one
growth = np.array(conditions[1:]) / np.array(conditions[:-1])
assert np.all((growth > 15) & (growth < 50)), growth

# %%
# .. check:: it passes ``1 / eps`` at n = 6 and 12; in float32, far smaller
assert conditions[3] * eps32 < 1 < conditions[4] * eps32  # n = 5, n = 6
assert conditions[9] * eps64 < 1 < conditions[10] * eps64  # n = 11, n = 12
for n in (10, 11, 12):  # the larger ones, rounded to float32, then measured
    assert torch.linalg.cond(hilbert[n].float().double()) < conditions[n - 2] / 100

# %%
# The condition number crosses the float32 line, ``1 / eps``, at ``n = 6``.
# It crosses the float64 line at ``n = 12``.
#
# Take ``n = 8``, with a condition number above 10¹⁰. Choose the answer
# ``x = (1, 1, ..., 1)``, compute ``b = H @ x``, and solve for ``x`` again
# in float32 and in float64. ``.abs()`` takes absolute values:
H8 = hilbert[8]
x_true = torch.ones(8, dtype=torch.float64)
b8 = H8 @ x_true
errors = {}
for dtype in (torch.float32, torch.float64):
    x_hat = torch.linalg.solve(H8.to(dtype), b8.to(dtype)).double()
    errors[dtype] = (x_hat - x_true).abs().max().item()
    print(f"{dtype}: largest error {errors[dtype]:.1e}")

# %%
# .. check:: n = 8: float32 is off by over 100 %; float64 within cond·eps and 1e-5
assert 1e10 < conditions[6] < 1e11  # n = 8
assert errors[torch.float32] > 1
assert errors[torch.float64] < min(conditions[6] * eps64, 1e-5)

# %%
# An entry of the float32 answer is off by more than 100 %. The float64
# answer keeps at least 5 digits. When the condition number nears
# ``1 / eps``, switch to float64 or reformulate the problem.
#
# Solve, do not invert
# --------------------
# The *inverse* ``A⁻¹`` of a square matrix ``A``, when it exists, undoes
# ``A``: ``A⁻¹ @ (A @ v)`` gives back ``v``. :func:`torch.linalg.inv`
# computes it, and ``A⁻¹ @ b`` also answers ``A @ v = b``. Prefer
# ``solve``: for large matrices it is faster. For a matrix with a large
# condition number, such as ``H8``, it also leaves a smaller gap
# ``b - A @ x``.
# :ref:`sphx_glr_auto_examples_gradients_plot_55_solve_or_invert.py`
# measures both. Keep ``inv`` for when you need the inverse itself.

# %%
# .. check:: ``inv(A)`` undoes ``A``; for ``H8`` it leaves a larger gap; it is slower
from tutorial_utils.timing import benchmark, check_timing

torch.testing.assert_close(torch.linalg.inv(A) @ (A @ v), v)
torch.testing.assert_close(torch.linalg.inv(A) @ b, v)

gap_solve = (b8 - H8 @ torch.linalg.solve(H8, b8)).abs().max().item()
gap_inv = (b8 - H8 @ (torch.linalg.inv(H8) @ b8)).abs().max().item()
assert gap_inv > 10 * max(gap_solve, eps64), (gap_inv, gap_solve)
with torch.random.fork_rng(devices=[]):
    A_n = torch.randn(512, 512, dtype=torch.float64)
    b_n = torch.randn(512, dtype=torch.float64)
timed = {"threads": 1, "min_run_time": 0.1, "clock": "thread"}
bound = {"above": 1.5, "clock": "thread CPU time", "attempts": 2}


def inv_over_solve():
    t_solve = benchmark(lambda: torch.linalg.solve(A_n, b_n), **timed).median
    return benchmark(lambda: torch.linalg.inv(A_n) @ b_n, **timed).median / t_solve


check_timing("inverting takes longer", inv_over_solve, **bound)

# %%
# Eigenvalues
# -----------
# An *eigenvector* ``u`` of a square matrix ``S`` is a nonzero vector that
# ``S`` only scales: ``S @ u = λ·u``. Then ``λ`` is its *eigenvalue*.
#
# A matrix is *symmetric* when it equals its transpose ``S.T``: entry
# ``[i, j]`` equals entry ``[j, i]``. A real symmetric matrix has real
# eigenvalues. For it:
#
# - :func:`torch.linalg.eigvalsh` returns them in ascending order;
# - :func:`torch.linalg.eigh` adds the eigenvectors, one per column.
#
# The second column ``u`` belongs to the second eigenvalue:
#
# .. detail:: Matrices that are not symmetric
#
#    Other square matrices go to :func:`torch.linalg.eig` or
#    :func:`torch.linalg.eigvals`. They return complex numbers, because a
#    real matrix can have complex eigenvalues. A rotation by 90 degrees
#    turns every direction, and its eigenvalues are ``i`` and ``-i``.
S = torch.tensor([[2.0, 1.0], [1.0, 2.0]])
print("eigvalsh:", torch.linalg.eigvalsh(S))
eigenvalues, eigenvectors = torch.linalg.eigh(S)
u = eigenvectors[:, 1]
print("S @ u:", S @ u, "  λ·u:", eigenvalues[1] * u)

# %%
# .. check:: ``eigh``'s columns are eigenvectors, and its eigenvalues ascend
assert torch.equal(S, S.T)
torch.testing.assert_close(S @ eigenvectors, eigenvectors * eigenvalues)
assert torch.all(eigenvalues[:-1] <= eigenvalues[1:])
assert torch.all(torch.linalg.eigvals(S).imag == 0)  # real, as S is symmetric

# %%
# .. check:: ``eig`` gives a rotation complex eigenvalues ``±i``, and eigenvectors
rotation = torch.tensor([[0.0, -1.0], [1.0, 0.0]])
values, vectors = torch.linalg.eig(rotation)
assert values.is_complex()
torch.testing.assert_close(torch.linalg.eigvals(rotation), values)
torch.testing.assert_close(values.real, torch.zeros(2))
torch.testing.assert_close(values.imag.sort().values, torch.tensor([-1.0, 1.0]))
torch.testing.assert_close(rotation.to(vectors.dtype) @ vectors, vectors * values)

# %%
# Norms and the condition number
# ------------------------------
# A norm measures size. :func:`torch.linalg.vector_norm` gives a vector's
# length. :func:`torch.linalg.matrix_norm` measures a matrix:
#
# - by default, ``"fro"``, as one long vector of its entries;
# - with ``ord=2``, as the most it stretches a vector of length 1.
#
# For a symmetric matrix, that most is its largest absolute eigenvalue.
# ``cond`` is the largest absolute eigenvalue over the smallest, so
# ``cond(S) = 3 / 1``.
#
# .. detail:: Singular values
#
#    For any square matrix, the most it stretches a vector of length 1 is
#    its largest *singular value*. The least is its smallest. ``cond`` is
#    their ratio, and :func:`torch.linalg.svdvals` computes them. For a
#    symmetric matrix they are the eigenvalues' absolute values. A singular
#    matrix, below, has a smallest singular value of 0.
print("vector_norm([3, 4]):", torch.linalg.vector_norm(torch.tensor([3.0, 4.0])))
print("matrix_norm(S):       ", torch.linalg.matrix_norm(S))
print("matrix_norm(S, ord=2):", torch.linalg.matrix_norm(S, ord=2))
print("cond(S):              ", torch.linalg.cond(S))

# %%
# .. check:: ``"fro"`` flattens; ``ord=2`` and ``cond`` use ``S``'s ``|λ|``
singular = torch.linalg.svdvals(S)
S_minus = torch.tensor([[1.0, 2.0], [2.0, 1.0]])  # eigenvalues -1 and 3
magnitudes = torch.linalg.eigvalsh(S_minus).abs()
assert torch.isclose(torch.linalg.cond(S_minus), magnitudes.max() / magnitudes.min())
torch.testing.assert_close(torch.linalg.matrix_norm(S), torch.linalg.vector_norm(S))
torch.testing.assert_close(torch.linalg.matrix_norm(S, ord=2), singular[0])
torch.testing.assert_close(torch.linalg.cond(S), singular[0] / singular[-1])
torch.testing.assert_close(singular, eigenvalues.abs().sort(descending=True).values)

# %%
# When there is no unique solution
# --------------------------------
# A square matrix is *singular* when one of its rows is a sum of multiples
# of the others. The system then has no solution, or infinitely many.
# ``solve`` may raise ``torch.linalg.LinAlgError``. Often, though, rounding
# hides the problem, and ``solve`` returns a huge, wrong answer. The
# condition number warns: from about ``1 / eps`` on, the matrix is singular
# as far as the dtype can tell. In the loop, the ``else:`` of ``try`` runs
# only when ``solve`` raised nothing.
#
# .. detail:: Why rounding hides it
#
#    On the CPU, ``solve`` eliminates the unknowns one at a time, as by hand:
#    an :term:`LU factorisation`. Each step divides by a number, a *pivot*.
#    ``solve`` raises when a pivot is exactly zero. Rounding often leaves a
#    tiny pivot instead. That depends on the matrix, the dtype and the build.
#    For a singular matrix the true condition number is infinite. The finite
#    one printed is rounding noise, and may differ between builds.
cases = {  # name: (A, b), in float64
    "singular 2x2": ([[1.0, 2.0], [2.0, 4.0]], [1.0, 3.0]),
    "singular 3x3": ([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], [1.0, 0, 0]),
    "nearly singular": ([[1.0, 2.0], [2.0, 4.0 + 1e-10]], [1.0, 3.0]),
}
for name, (rows, rhs) in cases.items():
    A_s, b_s = (torch.tensor(data, dtype=torch.float64) for data in (rows, rhs))
    print(f"{name}: cond {torch.linalg.cond(A_s).item():.1e}")
    try:
        x_s = torch.linalg.solve(A_s, b_s)
    except torch.linalg.LinAlgError as error:
        print("   LinAlgError:", error)
    else:
        gap = (A_s @ x_s - b_s).abs().max()
        print(f"   largest |x| {x_s.abs().max():.1e}, |A x - b| {gap:.1e}")

# %%
# .. check:: the 2x2 raises, the 3x3 raises or is huge and wrong, the last is right
A2, A3 = (torch.tensor(cases[k][0], dtype=torch.float64) for k in list(cases)[:2])
b2, b3 = (torch.tensor(cases[k][1], dtype=torch.float64) for k in list(cases)[:2])
assert torch.linalg.solve_ex(A2, b2).info > 0  # so solve raises
assert torch.linalg.lu_factor_ex(A2).LU.diagonal().abs().min() == 0  # a zero pivot
torch.testing.assert_close(A2[1], 2 * A2[0])
assert torch.linalg.solve_ex(A_s, b_s).info == 0  # the nearly singular one
torch.testing.assert_close(A_s @ x_s, b_s)  # nearly singular: the true answer
torch.testing.assert_close(A3[2], 2 * A3[1] - A3[0])
x3, info3 = torch.linalg.solve_ex(A3, b3)
if info3 == 0:  # solved: a tiny pivot, a huge answer that is wrong
    assert min(x3.abs().max() / 1e14, (A3 @ x3 - b3).abs().max()) > 1
    assert 0 < torch.linalg.lu_factor_ex(A3).LU.diagonal().abs().min() < 1e-14
assert min(torch.linalg.cond(A2), torch.linalg.cond(A3)) * eps64 > 1
assert torch.linalg.cond(A_s) > 1e10
assert torch.linalg.svdvals(A3)[-1] < 1e-12 * torch.linalg.svdvals(A3)[0]

# %%
# The 2-by-2 raises: row 2 is 2 · row 1. The 3-by-3 is singular too: row 3
# is 2 · row 2 - row 1. Some builds raise for it. Others solve it, with a
# huge answer and ``A x - b`` far from 0. The output above shows which. The
# nearly singular system is solved, but its condition number warns that 10
# digits or more may be lost.
#
# ``solve`` refuses a matrix that is not square. With more equations than
# unknowns, :func:`torch.linalg.lstsq` finds the ``x`` that makes
# ``A x - b`` shortest, as ``vector_norm`` measures it. That length is the
# square root of a sum of squares, hence the name *least squares*. The
# ``solution`` field of the result holds that ``x``. The ``else:`` raises
# if ``solve`` accepts the tall matrix:
tall = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
rhs = torch.tensor([1.0, 2.0, 4.0])
try:
    torch.linalg.solve(tall, rhs)
except RuntimeError as error:
    print("RuntimeError:", error)
else:
    raise AssertionError("solve should refuse a matrix that is not square")
print("least squares:", torch.linalg.lstsq(tall, rhs).solution)

# %%
# .. check:: no nearby ``x`` makes ``A x - b`` shorter; it is at right angles to ``A``
x_ls = torch.linalg.lstsq(tall, rhs).solution
orthogonality = tall.T @ (tall @ x_ls - rhs)
torch.testing.assert_close(orthogonality, torch.zeros(2), atol=1e-5, rtol=0)
shortest = torch.linalg.vector_norm(tall @ x_ls - rhs)
torch.testing.assert_close(shortest, (tall @ x_ls - rhs).pow(2).sum().sqrt())
for step in torch.cat([torch.eye(2), -torch.eye(2)]) * 1e-2:
    assert torch.linalg.vector_norm(tall @ (x_ls + step) - rhs) > shortest

# %%
# Gradients through ``linalg``
# ----------------------------
# Autograd differentiates :func:`torch.linalg.solve` like any other
# operation. Take the first system again, in float64. ``requires_grad_()``
# sets ``requires_grad=True`` on a tensor that already exists.
#
# Let ``x = solve(A, b)`` and ``L = sum(x)``. By hand, the
# :term:`gradient` is ``∂L/∂b = solve(A.T, 1)``, with a vector of ones on
# the right. The code computes it from ``A.detach()``: the same values, with
# no autograd record behind them. :func:`torch.testing.assert_close` raises
# unless two tensors agree within a tolerance. Autograd agrees with the
# formula:
#
# .. detail:: Where the formula comes from
#
#    Change ``A`` and ``b`` a little: ``A @ x = b`` gives
#    ``A @ dx = db - dA @ x``. So ``dL = sum(dx)`` is
#    ``solve(A.T, 1) · (db - dA @ x)``. That gives ``∂L/∂b`` above, and
#    ``∂L/∂A = -outer(∂L/∂b, x)``. The *outer product*
#    :func:`torch.outer` of ``u`` and ``w`` has entry ``[i, j]`` equal to
#    ``u[i] * w[j]``.
A, b = A.double().requires_grad_(), b.double().requires_grad_()
x = torch.linalg.solve(A, b)
x.sum().backward()
by_hand_b = torch.linalg.solve(A.detach().T, torch.ones(3, dtype=torch.float64))
print("∂L/∂b autograd:", b.grad)
print("∂L/∂b by hand: ", by_hand_b)
torch.testing.assert_close(b.grad, by_hand_b)

# %%
# .. check:: autograd's ``∂L/∂A`` is ``-outer(∂L/∂b, x)`` too
by_hand_A = -torch.outer(by_hand_b, x.detach())
torch.testing.assert_close(A.grad, by_hand_A)
torch.testing.assert_close(by_hand_A, -by_hand_b[:, None] * x.detach()[None, :])
assert not A.detach().requires_grad
assert torch.equal(A.detach(), A)

# %%
# Summary
# -------
# - :func:`torch.linalg.solve` solves ``A @ x = b``, also for stacks that
#   broadcast.
# - The condition number tells how many digits an answer may lose. Near
#   ``1 / eps``, none are safe.
# - Solve rather than compute ``inv(A) @ b``.
# - A singular matrix may give a wrong answer, not an error: check
#   :func:`torch.linalg.cond`.
# - :func:`torch.linalg.lstsq` answers systems with more equations than
#   unknowns.
# - Gradients flow through ``solve``.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py`
# builds a neural network. In depth,
# :ref:`sphx_glr_auto_examples_gradients_plot_55_solve_or_invert.py`
# measures solving against inverting, and checks against NumPy.
#
# Exercises for this page: :ref:`exercises-gradients-02`.
