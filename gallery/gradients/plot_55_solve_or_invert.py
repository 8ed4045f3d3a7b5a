"""
Solving versus inverting
========================

Measure in what sense :func:`torch.linalg.solve` beats ``inv(A) @ b``. After
this page you can say how well each answer satisfies its equations, how
close each comes to the truth, and which takes longer. You can also check
:mod:`torch.linalg` against NumPy.

**Before this page:**
:ref:`sphx_glr_auto_examples_gradients_plot_02_linear_algebra.py`, whose
Hilbert matrices and condition numbers this page reuses.
"""

# %%
# The page runs on the CPU. Its rounding errors and times come from this
# PyTorch build and this CPU.
import matplotlib.pyplot as plt
import numpy as np
import torch

from tutorial_utils.environment import environment_summary
from tutorial_utils.timing import benchmark, check_timing, format_time

print(environment_summary(torch.device("cpu")))

# %%
# Two measures of an answer
# -------------------------
# Take the Hilbert matrices ``H`` for ``n = 2`` to ``12``. For each, take
# the true answer ``x = (1, 1, ..., 1)``, compute ``b = H @ x`` and solve for
# ``x`` again. Do it in float32 and in float64, three ways:
#
# 1. "solve": ``torch.linalg.solve(H, b)``;
# 2. "inv": ``torch.linalg.inv(H) @ b``;
# 3. "data": ``H`` and ``b`` rounded to the dtype, then solved in float64.
#
# "data" measures what rounding the equations costs, before any solver
# runs. In float32, its answer is close to the exact answer of the rounded
# equations. In float64, "data" is "solve" again.
#
# For a vector, ``‖·‖`` is its length, ``vector_norm``. For ``H``, it is
# ``matrix_norm`` with ``ord=2``. Call an answer ``x̂``. Two measures judge
# it, both computed in float64:
#
# - the *relative residual* ``‖b - H x̂‖ / (‖H‖ ‖x̂‖)``. It says how well
#   ``x̂`` satisfies the equations, with ``H`` and ``b`` as the solver saw
#   them: rounded to the dtype.
# - the *relative error* ``‖x̂ - x‖ / ‖x‖``. It says how close ``x̂`` is to
#   the truth.
#
# Dividing by ``‖H‖ ‖x̂‖`` puts the residuals of every ``n`` on one scale.
sizes = list(range(2, 13))
hilbert = {
    n: torch.tensor(
        [[1 / (i + j + 1) for j in range(n)] for i in range(n)], dtype=torch.float64
    )
    for n in sizes
}
conditions = np.array([torch.linalg.cond(hilbert[n]).item() for n in sizes])
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
# .. check:: in float32 "data" is the exact answer to 1e-6; in float64 it is "solve"
from fractions import Fraction


def exact_solve(H, b):  # Gaussian elimination in exact fractions
    equations = zip(H.tolist(), b.tolist(), strict=True)
    rows = [[Fraction(value) for value in [*row, rhs]] for row, rhs in equations]
    n = len(rows)
    for k in range(n):
        for i in range(k + 1, n):
            factor = rows[i][k] / rows[k][k]
            rows[i] = [a - factor * c for a, c in zip(rows[i], rows[k], strict=True)]
    x = [Fraction(0)] * n
    for k in reversed(range(n)):
        known = sum(rows[k][j] * x[j] for j in range(k + 1, n))
        x[k] = (rows[k][n] - known) / rows[k][k]
    return torch.tensor([float(value) for value in x], dtype=torch.float64)


for n in sizes:
    H32 = hilbert[n].float()
    b32 = (hilbert[n] @ torch.ones(n, dtype=torch.float64)).float()
    exact, data = exact_solve(H32, b32), ways["data"](H32, b32)
    assert torch.linalg.vector_norm(data - exact) < 1e-6 * torch.linalg.vector_norm(
        exact
    )
for solve_values, data_values in zip(
    results["solve", torch.float64], results["data", torch.float64], strict=True
):
    assert np.array_equal(solve_values, data_values)

# %%
# The residual is the lesson
# --------------------------
# The figure plots both measures against the condition number of ``H``, one
# point per ``n``. Both axes are on a log scale. Solid blue lines are
# ``solve``, dashed red-orange lines ``inv``. Open circles are float32,
# filled squares float64. "data" is not drawn; a table below prints it.
#
# On the left, dotted lines mark ``eps`` of each dtype. For these matrices,
# the relative residual of ``solve`` stays below 10·eps at every ``n``.
# The residual of ``inv(H) @ b``:
#
# - grows with the condition number while cond·eps is below 1;
# - is at least 10 times that of ``solve`` from ``n = 4`` on;
# - later falls again in float32, with cond·eps past 1. There ``x̂`` grows
#   huge, and the residual is divided by ``‖x̂‖``.
#
# On the right, dotted lines mark cond·eps of each dtype. They pass 1 at
# ``n = 6`` in float32 and at ``n = 12`` in float64. :func:`numpy.maximum`
# lifts an error of exactly 0 to the bottom edge, where a log scale can draw
# it. In each ``ax.plot`` format, ``"o"`` or ``"s"`` picks a circle or a
# square marker, and the rest a line. ``markerfacecolor="white"`` leaves a
# marker open.
#
# .. detail:: How ``solve`` keeps its residual small
#
#    On the CPU, ``solve`` computes an :term:`LU factorisation` with partial
#    pivoting. It eliminates the unknowns one at a time, and swaps rows so
#    that it divides by the largest entry left in each column. That leaves
#    two triangular systems, each zero on one side of its diagonal, so each
#    is solved one unknown at a time. In practice this keeps the residual
#    near ``eps``.
fig, axes = plt.subplots(1, 2, figsize=(10, 4.6), layout="constrained")
for way, colour, line in (("solve", "#0072B2", "-"), ("inv", "#D55E00", "--")):
    name = "solve(H, b)" if way == "solve" else "inv(H) @ b"
    for dtype, marker, fill in zip(dtypes, ("o", "s"), ("white", colour), strict=True):
        for ax, values in zip(axes, results[way, dtype], strict=True):
            ax.plot(
                conditions,
                np.maximum(values, 1e-18),
                marker + line,
                color=colour,
                markerfacecolor=fill,
                label=f"{name}, {dtype}",
            )
for dtype in dtypes:
    eps = torch.finfo(dtype).eps
    axes[0].plot(conditions, [eps] * len(sizes), ":", color="grey")
    axes[1].plot(conditions, conditions * eps, ":", color="grey")
axes[0].set(ylabel="relative residual", title="How well x̂ satisfies H x̂ = b")
axes[1].set(ylabel="relative error", title="How close x̂ is to the true x")
for ax, top in zip(axes, (1.0, 1e4), strict=True):
    ax.set(xscale="log", yscale="log", ylim=(1e-18, top))
    ax.set(xlabel="condition number of H (n = 2 to 12)")
axes[1].legend(fontsize=8, loc="lower right")
plt.show()

# %%
# .. check:: ``solve`` stays below 10·eps; ``inv`` passes 1000·eps and 10 times ``solve`` from n = 4
for dtype in dtypes:
    eps = torch.finfo(dtype).eps
    solve_res, inv_res = results["solve", dtype][0], results["inv", dtype][0]
    assert np.all(solve_res < 10 * eps), (dtype, solve_res)
    assert inv_res.max() > 1e3 * eps, (dtype, inv_res)
    assert np.all(inv_res[2:] > 10 * np.maximum(solve_res[2:], eps / 100))

# %%
# .. check:: ``inv``'s residual grows while cond·eps < 1; in float32 it then falls
for dtype in dtypes:
    below = conditions * torch.finfo(dtype).eps < 1
    assert np.all(np.diff(results["inv", dtype][0][below]) > 0), dtype
inv_res32 = results["inv", torch.float32][0]
assert inv_res32[-1] < inv_res32.max() / 10  # n = 12, far below the peak
for dtype, last_below in ((torch.float32, 3), (torch.float64, 9)):  # n = 5, n = 11
    cond_eps = conditions * torch.finfo(dtype).eps  # the dotted lines pass 1 next
    assert cond_eps[last_below] < 1 < cond_eps[last_below + 1], dtype
inv_norms = [  # ‖x̂‖ of inv(H) @ b in float32
    torch.linalg.vector_norm(
        torch.linalg.inv(hilbert[n].float())
        @ (hilbert[n] @ torch.ones(n).double()).float()
    ).item()
    for n in sizes
]
peak = int(inv_res32.argmax())
assert conditions[peak] * torch.finfo(torch.float32).eps > 1  # the peak is past 1
assert inv_norms[-1] > 100 * inv_norms[peak], inv_norms

# %%
# The error has a ceiling
# -----------------------
# On the right, the errors of ``solve`` and ``inv`` stay below 10·cond·eps
# at every ``n``, in both dtypes. That ceiling rises with the condition
# number. Once it passes 100 %, it promises no correct digit. That happens
# from ``n = 6`` in float32, and from ``n = 11`` in float64. The factor 10
# makes float64 pass one ``n`` before cond·eps passes 1.
#
# Rounding ``H`` and ``b`` to float32 changes the problem itself. The table
# below prints the float32 relative errors for ``n = 5`` to ``10``. Its
# columns are cond·eps, then "data", "solve" and "inv". From ``n = 8`` on, "data" is more than 100 % off.
#
# .. detail:: On another machine
#
#    The "data" column depends mostly on how ``H`` and ``b`` round to
#    float32. That rounding is the same on every machine that follows IEEE
#    754, the standard for floating-point numbers. The ``solve`` and ``inv``
#    columns also depend on the order in which this build's :term:`BLAS` and
#    LAPACK routines round. LAPACK is the standard library of solvers built
#    on BLAS. That order can differ between PyTorch versions and CPUs.
#    Another machine prints other digits. Past cond·eps = 1 it prints other
#    errors, equally meaningless.
eps32, eps64 = torch.finfo(torch.float32).eps, torch.finfo(torch.float64).eps
errors32 = {way: results[way, torch.float32][1] for way in ways}
print(" n  cond·eps     data    solve      inv   (float32 relative errors)")
for k in range(3, 9):
    row = " ".join(f"{errors32[way][k]:8.1e}" for way in ("data", "solve", "inv"))
    print(f"{sizes[k]:2}  {conditions[k] * eps32:8.1e} {row}")

# %%
# .. check:: errors are below 10·cond·eps; "data" is over 100 % off from n = 8
for dtype in dtypes:
    bound = 10 * conditions * torch.finfo(dtype).eps
    assert np.all(results["solve", dtype][1] < bound), dtype
    assert np.all(results["inv", dtype][1] < bound), dtype
assert conditions[3] * eps32 < 1 < conditions[4] * eps32  # n = 5, n = 6
assert conditions[9] * eps64 < 1 < conditions[10] * eps64  # n = 11, n = 12
assert 10 * conditions[3] * eps32 < 1 < 10 * conditions[4] * eps32  # n = 5, n = 6
assert 10 * conditions[8] * eps64 < 1 < 10 * conditions[9] * eps64  # n = 10, n = 11
assert np.all(errors32["data"][6:] > 1)  # n >= 8
assert errors32["solve"].max() > 1

# %%
# Solving is also faster
# ----------------------
# Count the arithmetic on floats, additions and multiplications, for an
# ``n``-by-``n`` matrix ``A``. The *identity matrix* ``I`` has ones on its
# diagonal and zeros elsewhere. The inverse of ``A`` is the ``X`` with
# ``A @ X = I``. A *triangular* matrix is zero on one side of its diagonal.
# A system with one is solved one unknown at a time.
#
# 1. ``solve`` factorises ``A``: it writes ``A``, rows swapped, as a product
#    of two triangular matrices. That takes about ⅔·n³ operations. It then
#    solves the two triangular systems for ``b``: about 2·n².
# 2. ``inv`` does the same factorisation. Then it solves the two triangular
#    systems for each of the ``n`` columns of ``I``: ``n`` times 2·n², or
#    2·n³. The product with ``b`` adds 2·n².
#
# For large ``n`` the n³ terms count most: (⅔ + 2)·n³ against ⅔·n³, so
# ``inv`` does four times the work.
#
# The site's helper ``benchmark`` times a call. It runs the call until
# ``min_run_time`` seconds have passed, and its ``median`` is the typical
# time of one call. Here it runs on one thread and reads that thread's CPU
# time, ``clock="thread"``, so waiting for a busy CPU does not count.
# ``format_time`` writes a time with its unit.
#
# The code times both ways on a 2-by-2 system and on random systems of size
# 16, 128 and 512. Each ``lambda`` takes its matrix as a default argument,
# ``A=A_n``, so it keeps the matrix of its own loop step. The table prints
# one row per ``n``: the two times and their ratio.
torch.manual_seed(0)
random = {
    n: (torch.randn(n, n, dtype=torch.float64), torch.randn(n, dtype=torch.float64))
    for n in (16, 128, 512)
}
two = torch.tensor([[2.0, 1.0], [1.0, 2.0]], dtype=torch.float64)
matrices = {2: (two, two[0]), **random}  # a 2-by-2 system first
times, cpu_time = {}, {"threads": 1, "min_run_time": 0.1, "clock": "thread"}
for n, (A_n, b_n) in matrices.items():
    calls = (
        lambda A=A_n, b=b_n: torch.linalg.solve(A, b),
        lambda A=A_n, b=b_n: torch.linalg.inv(A) @ b,
    )
    times[n] = [benchmark(call, **cpu_time).median for call in calls]
print(f"{'n':>4}  {'solve(A, b)':>12}  {'inv(A) @ b':>12}  inv / solve")
for n, (solve_time, inv_time) in times.items():
    shown = f"{format_time(solve_time):>12}  {format_time(inv_time):>12}"
    print(f"{n:>4}  {shown}  {inv_time / solve_time:.1f}x")

# %%
# .. check:: ``A`` with rows swapped is a product of two triangular matrices
P16, L16, U16 = torch.linalg.lu(random[16][0])
assert torch.equal(L16, L16.tril())  # zero above its diagonal
assert torch.equal(U16, U16.triu())  # zero below its diagonal
torch.testing.assert_close(P16 @ L16 @ U16, random[16][0])
assert torch.equal(P16 @ P16.T, torch.eye(16, dtype=torch.float64))  # swaps rows

# %%
# .. check:: at n = 512 inverting takes longer; at n = 16 the fixed cost is a large part
slower, fixed = times[512][1] / times[512][0], 32**3 * times[16][0] / times[512][0]
check_timing("inverting takes longer", slower, above=1.5, clock="thread CPU time")
check_timing("n = 16 is far above n³ scaling", fixed, above=10, clock="thread CPU time")


def two_over_sixteen():
    time2 = benchmark(lambda: torch.linalg.solve(*matrices[2]), **cpu_time).median
    time16 = benchmark(lambda: torch.linalg.solve(*matrices[16]), **cpu_time).median
    return time2 / time16


check_timing(
    "a 2-by-2 solve takes over 30 % of a 16-by-16 one",
    two_over_sixteen,
    above=0.3,
    clock="thread CPU time",
    attempts=3,
)

# %%
# A 2-by-2 solve does almost no arithmetic. Its time is the fixed cost of a
# call, paid whatever the size. If time grew like n³, a 16-by-16 solve
# would take (16 / 512)³ = 1/32³ of a 512-by-512 one. It takes far more,
# because the fixed cost is a large part of it. For large matrices
# inverting takes clearly longer. The counts predict about four, and the
# measured ratio varies between runs and machines.
#
# A second opinion: NumPy
# -----------------------
# NumPy's :mod:`numpy.linalg` is a separate implementation of the same
# functions. Below, ``det`` is the determinant: a number computed from a
# square matrix, 0 exactly when the matrix is singular.
# :func:`numpy.linalg.norm` with ``2`` is ``matrix_norm`` with ``ord=2``.
# ``S64 = A64 + A64.T`` is symmetric, as ``eigvalsh`` expects. On one
# *well-conditioned* float64 matrix, one with a condition number below 100,
# the two libraries agree up to float64 rounding.
#
# .. detail:: The differences printed
#
#    The differences depend on the LAPACK build each library uses. Another
#    machine prints others, or zeros.
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
assert torch.equal(S64, S64.T)
assert torch.linalg.det(torch.tensor([[1.0, 2.0], [2.0, 4.0]])) == 0  # singular
assert abs(torch.linalg.det(A64)) > 1e-3  # not singular
assert torch.linalg.cond(A64) < 100  # well-conditioned

# %%
# Past ``1 / eps``, PyTorch and NumPy need not agree on a condition number.
# At ``n = 12`` the Hilbert matrix is singular as far as float64 can tell.
# So its computed condition number has few correct digits:
print(f"n = 12, PyTorch: condition number {conditions[-1]:.1e}")
print(f"n = 12, NumPy:   condition number {np.linalg.cond(hilbert[12].numpy()):.1e}")

# %%
# Summary
# -------
# - ``solve`` leaves a residual at rounding level for these matrices;
#   ``inv(H) @ b`` does not.
# - The error of ``solve`` and of ``inv`` stays below 10·cond·eps. Rounding
#   the data alone can cost every digit.
# - Inverting does about four times the arithmetic of solving.
# - :mod:`torch.linalg` and :mod:`numpy.linalg` agree up to rounding on a
#   well-conditioned matrix.
#
# Back to the lesson path:
# :ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py`.
