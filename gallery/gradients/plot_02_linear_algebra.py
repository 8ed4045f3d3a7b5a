"""
Linear algebra with torch.linalg
================================

Solve linear systems with :func:`torch.linalg.solve`, one at a time or a
whole batch at once, and see, in numbers and in time, why solving beats
inverting. Then use eigenvalues, norms and condition numbers, check PyTorch
against NumPy, and take gradients through a solve.
"""

# %%
# Every page starts by saying what computed it. The matrices on this page are
# small, which is CPU work; :mod:`torch.linalg` runs the same code on a GPU.
import matplotlib.pyplot as plt
import numpy as np
import torch

from tutorial_utils.devices import pick_device
from tutorial_utils.environment import environment_summary
from tutorial_utils.timing import benchmark, format_time

device = pick_device("cpu")
print(environment_summary(device))

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
# right-hand sides a vector ``b``; the system is ``A @ v = b`` for the
# unknown vector ``v = (x, y, z)``.
A = torch.tensor([[2.0, 3.0, -1.0], [1.0, -2.0, 8.0], [6.0, 1.0, -3.0]])
b = torch.tensor([5.0, 21.0, -1.0])
v = torch.linalg.solve(A, b)
print(v)

# sphinx_gallery_start_ignore
torch.testing.assert_close(v, torch.tensor([1.0, 2.0, 3.0]))
# sphinx_gallery_end_ignore

# %%
# So ``x = 1``, ``y = 2``, ``z = 3``. Substituting them back into each
# equation gives its right-hand side:
for row, rhs in zip(A, b, strict=True):
    terms = " + ".join(f"({c:g})·{value:.4f}" for c, value in zip(row, v, strict=True))
    print(f"{terms} = {(row @ v).item():.4f}   (want {rhs.item():g})")
torch.testing.assert_close(A @ v, b)

# %%
# Many systems at once
# --------------------
# :func:`torch.linalg.solve` takes a *batch*: ``A`` of shape ``(*, n, n)`` and
# ``B`` of shape ``(*, n, k)``, where ``*`` is any number of leading
# dimensions, solves every system in one call. Each of the ``k`` columns of
# ``B`` is a right-hand side. Here: two 3-by-3 systems, five right-hand sides
# each.
torch.manual_seed(0)
A = torch.randn(2, 3, 3)
B = torch.randn(2, 3, 5)
X = torch.linalg.solve(A, B)
print("X:", tuple(X.shape), " A @ X == B:", torch.allclose(A @ X, B, atol=1e-5))

# sphinx_gallery_start_ignore
assert X.shape == (2, 3, 5)
assert torch.allclose(A @ X, B, atol=1e-5)
for i in range(2):
    torch.testing.assert_close(X[i], torch.linalg.solve(A[i], B[i]))
# sphinx_gallery_end_ignore

# %%
# The leading dimensions broadcast, as in arithmetic: one matrix against a
# batch of right-hand sides, or a batch of matrices against one set of them.
cases = {
    "A (3, 3),    B (4, 3, 5)": (torch.randn(3, 3), torch.randn(4, 3, 5)),
    "A (2, 3, 3), B (3, 5)   ": (torch.randn(2, 3, 3), torch.randn(3, 5)),
}
for name, (A_case, B_case) in cases.items():
    X_case = torch.linalg.solve(A_case, B_case)
    print(
        f"{name} -> X {tuple(X_case.shape)}  "
        f"A @ X == B: {torch.allclose(A_case @ X_case, B_case, atol=1e-4)}"
    )
    assert torch.allclose(A_case @ X_case, B_case, atol=1e-4)

# %%
# Why solving beats inverting
# ---------------------------
# ``A⁻¹ @ b`` is the textbook answer, and :func:`torch.linalg.inv` computes
# ``A⁻¹``. But rounding errors are not equal. The *condition number* of ``A``
# (:func:`torch.linalg.cond`) says how much ``A`` can magnify an error: with
# a condition number of 10⁸ the last 8 digits of an answer may be lost to
# rounding. Hilbert matrices, ``H[i, j] = 1 / (i + j + 1)``, are a classic
# test: their condition number grows about 30 times with every row.
sizes = list(range(2, 13))
hilbert = {}
for n in sizes:
    i = torch.arange(n, dtype=torch.float64)
    hilbert[n] = 1.0 / (i[:, None] + i[None, :] + 1)  # broadcasting: (n, 1) + (n,)
print(hilbert[3])
conditions = [torch.linalg.cond(hilbert[n]).item() for n in sizes]
for n, cond in zip(sizes, conditions, strict=True):
    print(f"n = {n:2}: condition number {cond:.1e}")

# sphinx_gallery_start_ignore
growth = np.diff(np.log10(conditions))
assert np.all((growth > 1.2) & (growth < 1.7)), growth  # about 30 times per row
# sphinx_gallery_end_ignore

# %%
# For each size, take the true solution ``x = (1, 1, ..., 1)``, compute
# ``b = H @ x`` and solve for ``x`` again, both ways, in float32 and float64.
# Two measures of the answer ``x̂``: the *relative residual*
# ``‖b - H x̂‖ / (‖H‖ ‖x̂‖)``, how well ``x̂`` satisfies the equations, and
# the *relative error* ``‖x̂ - x‖ / ‖x‖``, how close it is to the truth. Both
# are computed in float64, for the float32 matrix and vector the solver saw.
results = {}
for dtype in (torch.float32, torch.float64):
    for method in ("solve", "inv"):
        residuals, errors = [], []
        for n in sizes:
            H = hilbert[n].to(dtype)
            x_true = torch.ones(n, dtype=torch.float64)
            rhs = (hilbert[n] @ x_true).to(dtype)
            if method == "solve":
                x_hat = torch.linalg.solve(H, rhs)
            else:
                x_hat = torch.linalg.inv(H) @ rhs
            H64, rhs64, x64 = H.double(), rhs.double(), x_hat.double()
            residual = torch.linalg.vector_norm(rhs64 - H64 @ x64) / (
                torch.linalg.matrix_norm(H64, ord=2) * torch.linalg.vector_norm(x64)
            )
            residuals.append(residual.item())
            error = torch.linalg.vector_norm(x64 - x_true) / torch.linalg.vector_norm(
                x_true
            )
            errors.append(error.item())
        results[method, dtype] = (np.array(residuals), np.array(errors))

# %%
# The left plot is the lesson: :func:`torch.linalg.solve` (an LU
# factorisation with row pivoting) leaves a residual at the level of the
# dtype's rounding error, ``torch.finfo(dtype).eps`` (dotted lines), however
# badly conditioned ``H`` is. ``inv(H) @ b`` leaves residuals that grow with
# the condition number, by many orders of magnitude. The right plot shows the
# limit of both: the error in ``x̂`` grows like (condition number)·eps (dotted
# lines). Once that passes 1, from n = 6 in float32, expect no correct digit
# from any method in that dtype: from n = 7 on, the float32 errors are above
# 50 %. (A value of exactly 0, an answer with no rounding error at all, is
# drawn on the bottom edge.)
fig, axes = plt.subplots(1, 2, figsize=(10, 4.4), layout="constrained")
for (method, dtype), curves in results.items():
    colour, line = ("#0072B2", "-") if method == "solve" else ("#D55E00", "--")
    marker, fill = ("o", "white") if dtype == torch.float32 else ("s", colour)
    label = f"{'solve(H, b)' if method == 'solve' else 'inv(H) @ b'}, {dtype}"
    for ax, values in zip(axes, curves, strict=True):
        ax.loglog(
            conditions,
            np.maximum(values, 1e-18),
            marker + line,
            color=colour,
            markerfacecolor=fill,
            label=label,
        )
for dtype in (torch.float32, torch.float64):
    eps = torch.finfo(dtype).eps
    axes[0].axhline(eps, color="grey", linestyle=":", linewidth=1)
    axes[1].loglog(conditions, np.multiply(conditions, eps), ":", color="grey")
axes[0].set(ylabel="relative residual", title="How well x̂ satisfies H x̂ = b")
axes[1].set(ylabel="relative error", title="How close x̂ is to the true x")
for ax, top in zip(axes, (1.0, 1e4), strict=True):
    ax.set(xlabel="condition number of H (n = 2 to 12)", ylim=(1e-18, top))
fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=4)
plt.show()

# sphinx_gallery_start_ignore
for dtype in (torch.float32, torch.float64):
    eps = torch.finfo(dtype).eps
    solve_res, solve_err = results["solve", dtype]
    inv_res, _ = results["inv", dtype]
    assert np.all(solve_res < 4 * eps), (dtype, solve_res)
    assert inv_res.max() > 1e3 * eps, (dtype, inv_res)
    # From n = 4 on, inverting leaves at least 10 times the residual of solving.
    assert np.all(inv_res[2:] > 10 * np.maximum(solve_res[2:], eps / 100))
    # The error stays within a small multiple of condition number x eps ...
    assert np.all(solve_err < 10 * np.array(conditions) * eps), solve_err
# ... and in float32 the answer is meaningless from n = 7 on (error above 50 %).
assert np.all(results["solve", torch.float32][1][5:] > 0.5)
assert conditions[4] * torch.finfo(torch.float32).eps > 1  # n = 6
assert conditions[3] * torch.finfo(torch.float32).eps < 1  # n = 5
# sphinx_gallery_end_ignore

# %%
# Inverting also costs more, clearly so for large matrices. Solving
# factorises ``A`` once (about ⅔·n³ operations) and then needs two
# triangular solves for ``b``; inverting does the same factorisation and then
# solves for all ``n`` columns of the identity, about 2·n³ operations in all.
# Here both are timed with :func:`~tutorial_utils.timing.benchmark` on one
# thread, which keeps the comparison about the algorithms. The times were
# measured on the machine that built this page; yours will differ.
torch.manual_seed(0)
timings = {}
for n in (16, 128, 512):
    A_n = torch.randn(n, n, dtype=torch.float64)
    b_n = torch.randn(n, dtype=torch.float64)
    # Default arguments bind this iteration's tensors to each lambda.
    solve_call = lambda A=A_n, b=b_n: torch.linalg.solve(A, b)
    inv_call = lambda A=A_n, b=b_n: torch.linalg.inv(A) @ b
    timings[n] = [
        benchmark(call, label=f"{name} n={n}", threads=1, min_run_time=0.05)
        for name, call in (("solve", solve_call), ("inv", inv_call))
    ]
print(f"{'n':>4}  {'solve(A, b)':>12}  {'inv(A) @ b':>12}  inv / solve")
for n, (solve_time, inv_time) in timings.items():
    print(
        f"{n:>4}  {format_time(solve_time.median):>12}  "
        f"{format_time(inv_time.median):>12}  {inv_time.median / solve_time.median:.1f}x"
    )

# sphinx_gallery_start_ignore
solve_time, inv_time = timings[512]
assert inv_time.median > solve_time.median, (solve_time, inv_time)
# sphinx_gallery_end_ignore

# %%
# Keep :func:`torch.linalg.inv` for when you need the inverse matrix itself.
# To apply ``A⁻¹`` to vectors, solve.
#
# Eigenvalues, norms and the condition number
# -------------------------------------------
# An eigenvector ``u`` of a square matrix keeps its direction:
# ``S @ u = λ·u``, and ``λ`` is its eigenvalue. For a symmetric matrix they
# are real, and :func:`torch.linalg.eigvalsh` returns them in ascending
# order; :func:`torch.linalg.eigh` adds the eigenvectors, one per column.
S = torch.tensor([[2.0, 1.0], [1.0, 2.0]])
print("eigvalsh:", torch.linalg.eigvalsh(S))
eigenvalues, eigenvectors = torch.linalg.eigh(S)
torch.testing.assert_close(S @ eigenvectors, eigenvectors * eigenvalues)

# sphinx_gallery_start_ignore
torch.testing.assert_close(eigenvalues, torch.tensor([1.0, 3.0]))
# sphinx_gallery_end_ignore

# %%
# Any other square matrix goes to :func:`torch.linalg.eig` or
# :func:`torch.linalg.eigvals`, which return complex numbers, because a real
# matrix can have complex eigenvalues. A rotation by 90 degrees keeps no real
# direction; its eigenvalues are ``±i``.
rotation = torch.tensor([[0.0, -1.0], [1.0, 0.0]])
print("eigvals:", torch.linalg.eigvals(rotation))
values, vectors = torch.linalg.eig(rotation)
torch.testing.assert_close(rotation.to(vectors.dtype) @ vectors, vectors * values)

# sphinx_gallery_start_ignore
torch.testing.assert_close(
    torch.linalg.eigvals(rotation).imag.sort().values, torch.tensor([-1.0, 1.0])
)
torch.testing.assert_close(torch.linalg.eigvals(rotation).real, torch.zeros(2))
# sphinx_gallery_end_ignore

# %%
# :func:`torch.linalg.vector_norm` measures vectors (the Euclidean length by
# default), :func:`torch.linalg.matrix_norm` matrices: ``"fro"`` (default)
# treats the matrix as one long vector, ``ord=2`` is its largest singular
# value, the most it can stretch a vector. The condition number
# :func:`torch.linalg.cond` is the largest singular value over the smallest:
# for the symmetric ``S``, the largest eigenvalue over the smallest, 3.
print("vector_norm([3, 4]):", torch.linalg.vector_norm(torch.tensor([3.0, 4.0])))
print("matrix_norm(S):       ", torch.linalg.matrix_norm(S))
print("matrix_norm(S, ord=2):", torch.linalg.matrix_norm(S, ord=2))
print("cond(S):              ", torch.linalg.cond(S))
singular = torch.linalg.svdvals(S)
torch.testing.assert_close(torch.linalg.cond(S), singular[0] / singular[-1])

# sphinx_gallery_start_ignore
torch.testing.assert_close(
    torch.linalg.vector_norm(torch.tensor([3.0, 4.0])), torch.tensor(5.0)
)
torch.testing.assert_close(torch.linalg.matrix_norm(S), S.square().sum().sqrt())
torch.testing.assert_close(torch.linalg.matrix_norm(S, ord=2), torch.tensor(3.0))
torch.testing.assert_close(torch.linalg.cond(S), torch.tensor(3.0))
# sphinx_gallery_end_ignore

# %%
# Beyond matrices: ``tensordot`` and ``tensorsolve``
# --------------------------------------------------
# :func:`torch.tensordot` generalises the matrix product: with ``dims=d`` it
# multiplies and sums over the last ``d`` dimensions of the first tensor and
# the first ``d`` of the second. ``dims=1`` on two matrices is ``@``.
torch.manual_seed(0)
M, N = torch.randn(2, 3), torch.randn(3, 4)
torch.testing.assert_close(torch.tensordot(M, N, dims=1), M @ N)
T = torch.randn(6, 4, 2, 3, 4, dtype=torch.float64)
Y = torch.randn(2, 3, 4, dtype=torch.float64)
print("tensordot(T, Y, dims=3):", tuple(torch.tensordot(T, Y, dims=3).shape))

# %%
# :func:`torch.linalg.tensorsolve` undoes it: given ``T`` and ``C``, it finds
# the ``Y`` with ``tensordot(T, Y, dims=Y.dim()) == C``. Underneath, it is
# :func:`torch.linalg.solve` on ``T`` flattened to a 24-by-24 matrix.
C = torch.tensordot(T, Y, dims=3)
Y_solved = torch.linalg.tensorsolve(T, C)
print("Y:", tuple(Y_solved.shape), " recovered:", torch.allclose(Y_solved, Y))
torch.testing.assert_close(torch.tensordot(T, Y_solved, dims=Y_solved.dim()), C)

# sphinx_gallery_start_ignore
torch.testing.assert_close(Y_solved, Y)
torch.testing.assert_close(
    Y_solved.reshape(-1), torch.linalg.solve(T.reshape(24, 24), C.reshape(-1))
)
# sphinx_gallery_end_ignore

# %%
# The same answers as NumPy
# -------------------------
# :mod:`torch.linalg` follows :mod:`numpy.linalg`: the same function names,
# the same arguments, the same results up to rounding. On one float64 matrix:
torch.manual_seed(0)
A64 = torch.randn(4, 4, dtype=torch.float64)
S64 = A64 + A64.T
b64 = torch.randn(4, dtype=torch.float64)
pairs = {
    "solve": (torch.linalg.solve(A64, b64), np.linalg.solve(A64.numpy(), b64.numpy())),
    "inv": (torch.linalg.inv(A64), np.linalg.inv(A64.numpy())),
    "det": (torch.linalg.det(A64), np.linalg.det(A64.numpy())),
    "eigvalsh": (torch.linalg.eigvalsh(S64), np.linalg.eigvalsh(S64.numpy())),
    "norm 2": (torch.linalg.matrix_norm(A64, ord=2), np.linalg.norm(A64.numpy(), 2)),
    "cond": (torch.linalg.cond(A64), np.linalg.cond(A64.numpy())),
}
for name, (ours, theirs) in pairs.items():
    theirs = torch.as_tensor(theirs)
    torch.testing.assert_close(ours, theirs)
    print(f"{name:9} largest difference {(ours - theirs).abs().max().item():.1e}")

# %%
# When there is no unique solution
# --------------------------------
# A matrix whose rows are not independent (here the second row is twice the
# first) is *singular*: the system has no solution or infinitely many, and
# :func:`torch.linalg.solve` says so with a ``torch.linalg.LinAlgError``
# rather than returning numbers. :func:`torch.linalg.inv` fails the same way.
singular_A = torch.tensor([[1.0, 2.0], [2.0, 4.0]])
failed = []
for name, call in {
    "solve": lambda: torch.linalg.solve(singular_A, torch.tensor([1.0, 2.0])),
    "inv": lambda: torch.linalg.inv(singular_A),
}.items():
    try:
        call()
    except torch.linalg.LinAlgError as error:
        print(f"{name}: LinAlgError: {error}")
        failed.append(name)

# sphinx_gallery_start_ignore
assert failed == ["solve", "inv"]
# sphinx_gallery_end_ignore

# %%
# A matrix that is not square does not describe a system ``solve`` can
# handle at all. With more equations than unknowns, ask instead for the
# least-squares answer, the ``x`` that makes ``‖A x - b‖`` smallest, with
# :func:`torch.linalg.lstsq`; at that ``x`` the residual is orthogonal to
# every column of ``A``.
tall = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
rhs = torch.tensor([1.0, 2.0, 4.0])
try:
    torch.linalg.solve(tall, rhs)
except RuntimeError as error:
    print("RuntimeError:", error)
x_ls = torch.linalg.lstsq(tall, rhs).solution
print("least squares:", x_ls, " A.T @ (A x - b):", tall.T @ (tall @ x_ls - rhs))
torch.testing.assert_close(
    tall.T @ (tall @ x_ls - rhs), torch.zeros(2), atol=1e-5, rtol=0
)

# %%
# Gradients through ``linalg``
# ----------------------------
# Autograd goes through :mod:`torch.linalg` as through any other operation.
# For ``x = solve(A, b)`` and the loss
# ``L = sum(x)``, calculus gives ``∂L/∂b = solve(A.T, 1)``, a vector of ones
# on the right, and ``∂L/∂A = -(∂L/∂b) xᵀ``. Autograd agrees:
A = torch.tensor(
    [[2.0, 3.0, -1.0], [1.0, -2.0, 8.0], [6.0, 1.0, -3.0]],
    dtype=torch.float64,
    requires_grad=True,
)
b = torch.tensor([5.0, 21.0, -1.0], dtype=torch.float64, requires_grad=True)
x = torch.linalg.solve(A, b)
x.sum().backward()

by_hand_b = torch.linalg.solve(A.detach().T, torch.ones(3, dtype=torch.float64))
by_hand_A = -torch.outer(by_hand_b, x.detach())
print("∂L/∂b autograd:", b.grad)
print("∂L/∂b by hand: ", by_hand_b)
torch.testing.assert_close(b.grad, by_hand_b)
torch.testing.assert_close(A.grad, by_hand_A)

# sphinx_gallery_start_ignore
assert torch.autograd.gradcheck(
    torch.linalg.solve, (A.detach().requires_grad_(), b.detach().requires_grad_())
)
# sphinx_gallery_end_ignore

# %%
# Summary
# -------
# - :func:`torch.linalg.solve` solves ``A @ x = b``, for batches of matrices
#   and right-hand sides that broadcast; check an answer by substituting it.
# - Solving beats ``inv(A) @ b``: its residual stays at rounding level and it
#   costs less. Keep :func:`torch.linalg.inv` for when you need ``A⁻¹``.
# - The condition number says how many digits a problem can lose; when
#   (condition number)·eps approaches 1, use float64 or reformulate.
# - :func:`torch.linalg.eigvalsh`, :func:`torch.linalg.eig`, the norms,
#   :func:`torch.linalg.cond`, :func:`torch.tensordot` and
#   :func:`torch.linalg.tensorsolve` match :mod:`numpy.linalg`, and gradients
#   flow through all of them.
# - Singular and non-square systems raise; :func:`torch.linalg.lstsq` answers
#   the non-square ones in the least-squares sense.
#
# Next: :ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`,
# on timing PyTorch code properly, as done in a small way above.
