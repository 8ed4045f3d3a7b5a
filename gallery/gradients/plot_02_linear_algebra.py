"""
Linear algebra with torch.linalg
================================

Solve linear systems with :func:`torch.linalg.solve`, one at a time or a
whole :term:`batch` at once, and measure in what sense solving beats
inverting: a smaller residual and less work. Then use eigenvalues, norms and
:term:`condition numbers <condition number>`, check PyTorch against NumPy,
and take :term:`gradients <gradient>` through a solve.
"""

# %%
# Every page starts by saying what computed it. Rounding errors below come
# from this PyTorch build and this CPU; the page says which numbers would
# change on another machine.
import matplotlib.pyplot as plt
import numpy as np
import torch

from tutorial_utils.environment import environment_summary
from tutorial_utils.timing import benchmark, check_timing, format_time

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
# right-hand sides a vector ``b``; the system is ``A @ v = b`` for the
# unknown vector ``v = (x, y, z)``. Solve it, then substitute the answer
# back into each equation:
A = torch.tensor([[2.0, 3.0, -1.0], [1.0, -2.0, 8.0], [6.0, 1.0, -3.0]])
b = torch.tensor([5.0, 21.0, -1.0])
v = torch.linalg.solve(A, b)
print(v)
for row, rhs in zip(A, b, strict=True):
    terms = " + ".join(f"({c:g})·{value:.4f}" for c, value in zip(row, v, strict=True))
    print(f"{terms} = {(row @ v).item():.4f}   (want {rhs.item():g})")

# %%
# .. check:: the answer satisfies the three equations, and is (1, 2, 3) up to float32 rounding
torch.testing.assert_close(A @ v, b)
torch.testing.assert_close(v, torch.tensor([1.0, 2.0, 3.0]), atol=0, rtol=1e-6)

# %%
# So ``x = 1``, ``y = 2``, ``z = 3``, up to float32 rounding.
#
# Many systems at once
# --------------------
# :func:`torch.linalg.solve` takes a batch: ``A`` of :term:`shape`
# ``(*, n, n)`` and ``B`` of shape ``(*, n, k)``, where ``*`` is any number of
# leading :term:`dimensions <dimension>`, and solves every system in one call.
# Each of the ``k`` columns of ``B`` is a right-hand side. Here: two 3-by-3
# systems, five right-hand sides each; the second answer is the one a separate
# call gives.
torch.manual_seed(0)
A_batch, B_batch = torch.randn(2, 3, 3), torch.randn(2, 3, 5)
X_batch = torch.linalg.solve(A_batch, B_batch)
print("X:", tuple(X_batch.shape))

# %%
# .. check:: one call solves every system, and the second answer is the one a separate call gives
assert torch.allclose(A_batch @ X_batch, B_batch, atol=1e-5)
torch.testing.assert_close(X_batch[1], torch.linalg.solve(A_batch[1], B_batch[1]))

# %%
# The leading dimensions :term:`broadcast <broadcasting>`, as in arithmetic:
# one matrix against a batch of right-hand sides, or a batch of matrices
# against one set of them.
solved = []
for shapes in (((3, 3), (4, 3, 5)), ((2, 3, 3), (3, 5))):
    A_case, B_case = (torch.randn(shape) for shape in shapes)
    X_case = torch.linalg.solve(A_case, B_case)
    solved.append((A_case, B_case, X_case))
    print(f"A {shapes[0]}, B {shapes[1]} -> X {tuple(X_case.shape)}")

# %%
# .. check:: with broadcast leading dimensions, every system is solved
for A_case, B_case, X_case in solved:
    assert torch.allclose(A_case @ X_case, B_case.expand_as(X_case), atol=1e-4)

# %%
# Why solving beats inverting
# ---------------------------
# ``A⁻¹ @ b`` is the textbook answer (:func:`torch.linalg.inv` computes
# ``A⁻¹``), but the two ways round differently. The :term:`condition number`
# of ``A`` (:func:`torch.linalg.cond`) says how much ``A`` can magnify a
# relative error: with a condition number of 10⁸, about 8 significant digits
# of the answer may be lost to rounding. Hilbert matrices,
# ``H[i, j] = 1 / (i + j + 1)``, are a classic test: their condition number
# grows about 30 times each time ``n`` grows by one. At ``n = 12`` it passes
# 1/eps of float64 (4.5·10¹⁵), and the computed value has few correct digits:
# NumPy's differs, and so may another build's.
sizes = list(range(2, 13))
hilbert = {}
for n in sizes:
    i = torch.arange(n, dtype=torch.float64)
    hilbert[n] = 1.0 / (i[:, None] + i[None, :] + 1)  # (n, 1) + (1, n) -> (n, n)
print(hilbert[3])
conditions = np.array([torch.linalg.cond(hilbert[n]).item() for n in sizes])
growth = conditions[1:] / conditions[:-1]
for n, cond, factor in zip(sizes[1:], conditions[1:], growth, strict=True):
    print(f"n = {n:2}: condition number {cond:.1e}, {factor:.0f} times that of n - 1")
print(f"n = 12 with NumPy: condition number {np.linalg.cond(hilbert[12].numpy()):.1e}")

# %%
# .. check:: the condition number grows 15 to 50 times each time ``n`` grows by one
assert np.all((growth > 15) & (growth < 50))

# %%
# For each size, take the true solution ``x = (1, 1, ..., 1)``, compute
# ``b = H @ x`` and solve for ``x`` again, both ways, in the
# :term:`dtypes <dtype>` float32 and float64. Two measures of the answer
# ``x̂``, both computed in float64: the *relative residual*
# ``‖b - H x̂‖ / (‖H‖ ‖x̂‖)``, how well ``x̂`` satisfies the equations the
# solver saw (``H`` and ``b`` rounded to the dtype), and the *relative error*
# ``‖x̂ - x‖ / ‖x‖``, how close it is to the truth. A third way, "data", used
# below for float32 only, solves the rounded equations in float64, close to
# what an exact solver would give for them.
dtypes = (torch.float32, torch.float64)
ways = {
    "solve": lambda H, b: torch.linalg.solve(H, b),
    "inv": lambda H, b: torch.linalg.inv(H) @ b,
    "data": lambda H, b: torch.linalg.solve(H.double(), b.double()),
}
results = {}  # (way, dtype) -> (relative residuals, relative errors), one per n
for dtype in dtypes:
    for way, function in ways.items():
        residuals, errors = [], []
        for n in sizes:
            x_true = torch.ones(n, dtype=torch.float64)  # its norm is sqrt(n)
            H, rhs = hilbert[n].to(dtype), (hilbert[n] @ x_true).to(dtype)
            x_hat = function(H, rhs).double()
            H, rhs = H.double(), rhs.double()
            scale = torch.linalg.matrix_norm(H, ord=2) * torch.linalg.vector_norm(x_hat)
            residuals.append((torch.linalg.vector_norm(rhs - H @ x_hat) / scale).item())
            errors.append((torch.linalg.vector_norm(x_hat - x_true) / n**0.5).item())
        results[way, dtype] = (np.array(residuals), np.array(errors))

# %%
# The left plot is the lesson. :func:`torch.linalg.solve` (an
# :term:`LU factorisation` with partial pivoting, then two triangular solves)
# leaves a relative residual below 10·eps at every ``n``, however badly
# conditioned ``H`` is; ``eps = torch.finfo(dtype).eps``, the gap between 1 and
# the next number of the dtype, is dotted. ``inv(H) @ b`` leaves residuals that
# grow with the condition number, to thousands of eps and more: from ``n = 4``
# on, at least 10 times those of ``solve``. The right plot shows what neither
# way escapes: errors that grow along (condition number)·eps (dotted). A value
# of exactly 0 is drawn on the bottom edge.
fig, axes = plt.subplots(1, 2, figsize=(10, 4.4), layout="constrained")
for way, colour, line in (("solve", "#0072B2", "-"), ("inv", "#D55E00", "--")):
    for dtype, marker, fill in zip(dtypes, "os", ("white", colour), strict=True):
        name = "solve(H, b)" if way == "solve" else "inv(H) @ b"
        style = {"color": colour, "markerfacecolor": fill, "label": f"{name}, {dtype}"}
        for ax, values in zip(axes, results[way, dtype], strict=True):
            ax.loglog(conditions, np.maximum(values, 1e-18), marker + line, **style)
for dtype in dtypes:
    eps = torch.finfo(dtype).eps
    axes[0].axhline(eps, color="grey", linestyle=":", linewidth=1)
    axes[1].loglog(conditions, conditions * eps, ":", color="grey")
axes[0].set(ylabel="relative residual", title="How well x̂ satisfies H x̂ = b")
axes[1].set(ylabel="relative error", title="How close x̂ is to the true x")
for ax, top in zip(axes, (1.0, 1e4), strict=True):
    ax.set(xlabel="condition number of H (n = 2 to 12)", ylim=(1e-18, top))
fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncols=4)
plt.show()

# %%
# .. check:: residuals: ``solve`` below 10·eps, ``inv`` past 1000·eps and 10 times ``solve``'s from n = 4
for dtype in dtypes:
    eps = torch.finfo(dtype).eps
    solve_res, inv_res = results["solve", dtype][0], results["inv", dtype][0]
    assert np.all(solve_res < 10 * eps), (dtype, solve_res)
    assert inv_res.max() > 1e3 * eps, (dtype, inv_res)
    assert np.all(inv_res[2:] > 10 * np.maximum(solve_res[2:], eps / 100))

# %%
# For ``solve``, (condition number)·eps bounds the error: it stays below
# 10·cond·eps at every ``n``, in both dtypes. Once cond·eps passes 1, from
# ``n = 6`` in float32 and at ``n = 12`` in float64, that bound promises no
# correct digit. Part of the loss happens before any solver runs: rounding
# ``H`` and ``b`` to float32 changes the problem, and from ``n = 8`` on the
# exact answer of the rounded problem ("data") is more than 100 % off.
#
# .. detail:: On another machine
#
#    The "data" column depends only on how ``H`` and ``b`` round to float32,
#    the same on every IEEE 754 machine to the digits shown. The ``solve``
#    and ``inv`` columns depend also on the order in which the :term:`BLAS`
#    and LAPACK (the standard library of factorisations and solvers built on
#    BLAS) routines of this build round, which differs between PyTorch
#    versions and CPUs: another machine prints other digits, and past
#    cond·eps = 1 other errors, equally meaningless.
eps32, eps64 = torch.finfo(torch.float32).eps, torch.finfo(torch.float64).eps
errors32 = {way: results[way, torch.float32][1] for way in ways}
print(" n  cond·eps     data    solve      inv   (float32 relative errors)")
for k in range(3, 9):
    row = " ".join(f"{errors32[way][k]:8.1e}" for way in ("data", "solve", "inv"))
    print(f"{sizes[k]:2}  {conditions[k] * eps32:8.1e} {row}")

# %%
# .. check:: errors: ``solve`` below 10·cond·eps; cond·eps past 1 from n = 6 and n = 12; "data" over 100 % from n = 8
for dtype in dtypes:
    bound = 10 * conditions * torch.finfo(dtype).eps
    assert np.all(results["solve", dtype][1] < bound), dtype
assert conditions[3] * eps32 < 1 < conditions[4] * eps32  # n = 5, n = 6
assert conditions[9] * eps64 < 1 < conditions[10] * eps64  # n = 11, n = 12
assert np.all(errors32["data"][6:] > 1)  # n >= 8
assert errors32["solve"].max() > 1

# %%
# When cond·eps nears 1, use float64 or reformulate.
#
# Solving is also faster
# ----------------------
# Solving factorises ``A`` (about ⅔·n³ floating-point operations) and then does
# two triangular solves for ``b`` (about 2·n²). :func:`torch.linalg.inv` does
# the same factorisation and then solves for all ``n`` columns of the identity,
# about 2·n³ more: some four times the work in all. Both are timed with
# :func:`~tutorial_utils.timing.benchmark` on one thread, in its CPU time
# (``clock="thread"``), on the machine that built this page.
torch.manual_seed(0)
times, cpu_time = {}, {"threads": 1, "min_run_time": 0.1, "clock": "thread"}
for n in (16, 128, 512):
    A_n = torch.randn(n, n, dtype=torch.float64)
    b_n = torch.randn(n, dtype=torch.float64)
    calls = (
        lambda A=A_n, b=b_n: torch.linalg.solve(A, b),
        lambda A=A_n, b=b_n: torch.linalg.inv(A) @ b,
    )
    times[n] = [benchmark(call, **cpu_time).median for call in calls]
print(f"{'n':>4}  {'solve(A, b)':>12}  {'inv(A) @ b':>12}  inv / solve")
for n, (solve_time, inv_time) in times.items():
    shown = f"{format_time(solve_time):>12}  {format_time(inv_time):>12}"
    print(f"{n:>4}  {shown}  {inv_time / solve_time:.1f}x")
slower, fixed = times[512][1] / times[512][0], 32**3 * times[16][0] / times[512][0]
check_timing("inverting takes longer", slower, above=1.5, clock="thread CPU time")
check_timing("the fixed cost dominates", fixed, above=10, clock="thread CPU time")

# %%
# For small matrices the fixed cost of each call (checking arguments,
# allocating the result) is most of the time: a 16-by-16 solve takes far more
# than 1/32³ of a 512-by-512 one, and the ratio there says little. For large
# matrices inverting takes clearly longer; the operation counts predict about
# four, and the measured ratio varies between runs and machines. Keep
# :func:`torch.linalg.inv` for when you need the inverse itself; to apply
# ``A⁻¹`` to vectors, solve.
#
# Eigenvalues, norms and the condition number
# -------------------------------------------
# An eigenvector ``u`` of a square matrix is a nonzero vector that the matrix
# only scales, ``S @ u = λ·u``: it stays on its line through 0 (reversed if the
# eigenvalue ``λ`` is negative, sent to 0 if ``λ = 0``). For a symmetric matrix
# the eigenvalues are real; :func:`torch.linalg.eigvalsh` returns them in
# ascending order, :func:`torch.linalg.eigh` adds the eigenvectors, one per
# column.
S = torch.tensor([[2.0, 1.0], [1.0, 2.0]])
print("eigvalsh:", torch.linalg.eigvalsh(S))
eigenvalues, eigenvectors = torch.linalg.eigh(S)

# %%
# .. check:: ``eigh``'s columns are eigenvectors, and its eigenvalues ascend
torch.testing.assert_close(S @ eigenvectors, eigenvectors * eigenvalues)
assert torch.all(eigenvalues[:-1] <= eigenvalues[1:])

# %%
# Any other square matrix goes to :func:`torch.linalg.eig` or
# :func:`torch.linalg.eigvals`, which return complex numbers, because a real
# matrix can have complex eigenvalues. A rotation by 90 degrees leaves no real
# line through 0 in place; its eigenvalues are ``±i``.
rotation = torch.tensor([[0.0, -1.0], [1.0, 0.0]])
print("eigvals:", torch.linalg.eigvals(rotation))
values, vectors = torch.linalg.eig(rotation)

# %%
# .. check:: ``eig`` returns complex eigenvalues, and its columns are eigenvectors of the rotation
assert values.is_complex()
torch.testing.assert_close(rotation.to(vectors.dtype) @ vectors, vectors * values)

# %%
# :func:`torch.linalg.vector_norm` measures vectors (the Euclidean length by
# default), :func:`torch.linalg.matrix_norm` matrices: ``"fro"`` (default)
# treats the matrix as one long vector, ``ord=2`` is its largest singular
# value, the most it can stretch a vector. :func:`torch.linalg.cond` is the
# largest singular value over the smallest. The singular values of a symmetric
# matrix are the absolute values of its eigenvalues, so ``cond(S) = 3 / 1``.
print("vector_norm([3, 4]):", torch.linalg.vector_norm(torch.tensor([3.0, 4.0])))
print("matrix_norm(S):       ", torch.linalg.matrix_norm(S))
print("matrix_norm(S, ord=2):", torch.linalg.matrix_norm(S, ord=2))
print("cond(S):              ", torch.linalg.cond(S))

# %%
# .. check:: ``"fro"`` flattens, ``ord=2`` is the largest singular value, ``cond`` the ratio; they are ``S``'s ``|λ|``
singular = torch.linalg.svdvals(S)
torch.testing.assert_close(torch.linalg.matrix_norm(S), torch.linalg.vector_norm(S))
torch.testing.assert_close(torch.linalg.matrix_norm(S, ord=2), singular[0])
torch.testing.assert_close(torch.linalg.cond(S), singular[0] / singular[-1])
torch.testing.assert_close(singular, eigenvalues.abs().sort(descending=True).values)

# %%
# The same answers as NumPy
# -------------------------
# :mod:`torch.linalg` is modelled on :mod:`numpy.linalg`, with mostly the same
# function names and arguments. On one well-conditioned float64 matrix the two
# agree up to float64 rounding.
#
# .. detail:: The differences printed
#
#    The differences printed depend on the LAPACK build each library uses:
#    another machine prints others, or zeros.
torch.manual_seed(0)
A64, b64 = torch.randn(4, 4, dtype=torch.float64), torch.randn(4, dtype=torch.float64)
S64 = A64 + A64.T
a_np, s_np, b_np = A64.numpy(), S64.numpy(), b64.numpy()
pairs = {
    "solve": (torch.linalg.solve(A64, b64), np.linalg.solve(a_np, b_np)),
    "inv": (torch.linalg.inv(A64), np.linalg.inv(a_np)),
    "det": (torch.linalg.det(A64), np.linalg.det(a_np)),
    "eigvalsh": (torch.linalg.eigvalsh(S64), np.linalg.eigvalsh(s_np)),
    "norm 2": (torch.linalg.matrix_norm(A64, ord=2), np.linalg.norm(a_np, 2)),
    "cond": (torch.linalg.cond(A64), np.linalg.cond(a_np)),
}
for name, (ours, theirs) in pairs.items():
    theirs = torch.as_tensor(theirs)
    print(f"{name:9} largest difference {(ours - theirs).abs().max().item():.1e}")

# %%
# .. check:: PyTorch and NumPy agree within 1e-13, absolute and relative
for ours, theirs in pairs.values():
    torch.testing.assert_close(ours, torch.as_tensor(theirs), atol=1e-13, rtol=1e-13)

# %%
# When there is no unique solution
# --------------------------------
# A matrix whose rows are not independent is *singular*: the system has no
# solution or infinitely many. :func:`torch.linalg.solve` raises a
# ``torch.linalg.LinAlgError`` only when the LU factorisation meets a pivot
# (the entry it divides by) that is exactly zero, as below when the second row
# is twice the first. Rounding often leaves a tiny pivot instead. For the
# 3-by-3 matrix (each row is the one before plus ``(3, 3, 3)``), the float64
# LU of the build that made this page does: ``solve`` returns an answer of
# size 10¹⁵, and ``A x - b`` is far from 0. With one entry of the first matrix
# changed by 10⁻¹⁰, ``solve`` returns the right answer, of size 10¹⁰. The
# condition number warns in all three cases: from about 1/eps on, the matrix
# is singular as far as the dtype can tell.
#
# .. detail:: Other builds
#
#    Other builds raise for the 3-by-3 matrix. Whether a pivot is exactly 0
#    depends on the matrix, the dtype and the build. For a singular matrix
#    the true condition number is infinite; the finite one printed is
#    rounding noise, and differs between builds.
cases = {  # name: (A, b)
    "singular 2x2": ([[1.0, 2.0], [2.0, 4.0]], [1.0, 3.0]),
    "singular 3x3": ([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], [1.0, 0, 0]),
    "nearly singular": ([[1.0, 2.0], [2.0, 4.0 + 1e-10]], [1.0, 3.0]),
}
answers, residuals, conds = {}, {}, {}
for name, (rows, rhs) in cases.items():
    A_s, b_s = (torch.tensor(data, dtype=torch.float64) for data in (rows, rhs))
    conds[name] = torch.linalg.cond(A_s).item()
    print(f"{name}: cond {conds[name]:.1e}")
    try:
        answers[name] = x_s = torch.linalg.solve(A_s, b_s)
    except torch.linalg.LinAlgError as error:
        print("   LinAlgError:", error)
    else:
        residuals[name] = (A_s @ x_s - b_s).abs().max().item()
        print(f"   largest |x| {x_s.abs().max():.1e}, |A x - b| {residuals[name]:.1e}")

# %%
# .. check:: the 2x2 raises, a 3x3 answer is huge and wrong, the nearly singular one is right; cond warns
assert ("singular 2x2" in answers, "nearly singular" in answers) == (False, True)
if "singular 3x3" in answers:  # a tiny pivot: a huge answer that is wrong
    huge = answers["singular 3x3"].abs().max() / 1e14
    assert min(huge, residuals["singular 3x3"]) > 1
torch.testing.assert_close(A_s @ x_s, b_s)  # nearly singular: the true answer
assert min(conds["singular 2x2"], conds["singular 3x3"]) * eps64 > 1
singular3 = torch.tensor(cases["singular 3x3"][0], dtype=torch.float64)
if "singular 3x3" in answers:
    assert 0 < torch.linalg.lu_factor_ex(singular3).LU.diagonal().abs().min() < 1e-14
assert conds["nearly singular"] > 1e10

# %%
# A matrix that is not square does not describe a system ``solve`` can handle
# at all. With more equations than unknowns, ask instead for the least-squares
# answer, the ``x`` that makes ``‖A x - b‖`` smallest, with
# :func:`torch.linalg.lstsq`; at that ``x`` the residual is orthogonal to every
# column of ``A`` (up to float32 rounding, of a size that varies).
tall = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
rhs = torch.tensor([1.0, 2.0, 4.0])
try:
    torch.linalg.solve(tall, rhs)
except RuntimeError as error:
    print("RuntimeError:", error)
else:
    raise AssertionError("solve should refuse a matrix that is not square")
x_ls = torch.linalg.lstsq(tall, rhs).solution
orthogonality = tall.T @ (tall @ x_ls - rhs)
print("least squares:", x_ls, f" largest |Aᵀ(Ax - b)|: {orthogonality.abs().max():.0e}")
torch.testing.assert_close(orthogonality, torch.zeros(2), atol=1e-5, rtol=0)

# %%
# Gradients through ``linalg``
# ----------------------------
# Autograd differentiates :func:`torch.linalg.solve` like any other operation.
# Take the three equations from the top of the page, in float64. For
# ``x = solve(A, b)`` and the scalar ``L = sum(x)``, calculus gives the
# :term:`gradients <gradient>` ``∂L/∂b = solve(A.T, 1)``, a vector of ones on
# the right, and ``∂L/∂A = -(∂L/∂b) xᵀ``. Autograd agrees:
A, b = A.double().requires_grad_(), b.double().requires_grad_()
x = torch.linalg.solve(A, b)
x.sum().backward()
by_hand_b = torch.linalg.solve(A.detach().T, torch.ones(3, dtype=torch.float64))
by_hand_A = -torch.outer(by_hand_b, x.detach())
print("∂L/∂b autograd:", b.grad)
print("∂L/∂b by hand: ", by_hand_b)
torch.testing.assert_close(b.grad, by_hand_b)

# %%
# .. check:: autograd's ``∂L/∂A`` is ``-(∂L/∂b) xᵀ`` too
torch.testing.assert_close(A.grad, by_hand_A)

# %%
# Summary
# -------
# - :func:`torch.linalg.solve` solves ``A @ x = b``, for batches of matrices
#   and right-hand sides that broadcast; check an answer by substituting it.
# - Solving beats ``inv(A) @ b`` twice: a residual at rounding level however
#   ill-conditioned ``A`` is, and about a quarter of the work.
# - The error of ``solve`` stays within about (condition number)·eps; once that
#   nears 1 (past it, the error depends on the machine), use float64 or reformulate.
# - ``solve`` raises only on an exactly zero pivot, which rounding often
#   avoids even for a singular matrix; check :func:`torch.linalg.cond` (from
#   about 1/eps on: singular). :func:`torch.linalg.lstsq` answers tall systems.
# - Results agree with :mod:`numpy.linalg` up to rounding, and gradients flow
#   through :func:`torch.linalg.solve`.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py`
# builds a neural network (timing is taught in the performance section).
# Exercises for this page: :ref:`exercises-gradients-02`.
