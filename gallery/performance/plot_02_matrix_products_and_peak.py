"""
Matrix products and peak rates
==============================

After this page you can count the floating-point operations of a matrix
product and turn a measured time into a rate: operations per second. You
will see why a small product reaches only a sliver of the best rate, and
what a device's peak rate is.

**Before this page:**
:ref:`sphx_glr_auto_examples_tensors_plot_04_arithmetic_and_broadcasting.py`,
:ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py` and
:ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`.
"""

# %%
# Times change between runs and machines, so the checks compare times
# with each other or with wide bounds.
import math
import time
from functools import partial

import matplotlib.pyplot as plt
import torch
from torch import nn
from torch.utils.benchmark import Timer
from torch.utils.flop_counter import FlopCounterMode

from tutorial_utils.devices import device_name, pick_device
from tutorial_utils.environment import environment_summary
from tutorial_utils.timing import benchmark, check_timing, format_time

device = pick_device()
print(environment_summary(device))
print(f"CPU: {device_name('cpu')}")

# %%
# Counting the work
# -----------------
# The product of an m-by-k and a k-by-n matrix holds m·n numbers. Each is
# a dot product of k pairs: k multiplications, and k additions onto a
# running total that starts at 0. So the product takes 2·m·k·n *floating-point
# operations*, FLOP for short. Two n-by-n matrices take 2·n³: doubling n
# makes eight times the work.
#
# PyTorch counts the same way. ``FlopCounterMode`` counts the operations of
# the code run inside a ``with`` block. After the block,
# ``counter.get_total_flops()`` returns the total. ``display=False`` stops
# it printing a table of counts.
#
# .. detail:: The table of counts
#
#    Without ``display=False``, the counter prints its table after the
#    block. The table needs the ``tabulate`` package.


def matmul_flop(m: int, k: int, n: int) -> int:
    """Floating-point operations of an (m x k) @ (k x n) matrix product."""
    return 2 * m * k * n


with FlopCounterMode(display=False) as counter:
    torch.randn(3, 4) @ torch.randn(4, 5)
print(f"2·3·4·5 = {matmul_flop(3, 4, 5)}; counted: {counter.get_total_flops()}")

# %%
# .. check:: the counter counts 2·m·k·n; doubling n makes 8 times the work
assert counter.get_total_flops() == matmul_flop(3, 4, 5)
assert matmul_flop(128, 128, 128) == 8 * matmul_flop(64, 64, 64)

# %%
# .. check:: ``display=False`` prints nothing; the table needs ``tabulate``
import contextlib
import importlib.util
import io

printed = io.StringIO()
with contextlib.redirect_stdout(printed), FlopCounterMode(display=False):
    torch.ones(3, 4) @ torch.ones(4, 5)
assert printed.getvalue() == ""
if importlib.util.find_spec("tabulate") is not None:
    with contextlib.redirect_stdout(printed), FlopCounterMode():
        torch.ones(3, 4) @ torch.ones(4, 5)
    assert "aten.mm" in printed.getvalue()
else:
    try:
        with contextlib.redirect_stdout(printed), FlopCounterMode():
            torch.ones(3, 4) @ torch.ones(4, 5)
    except ModuleNotFoundError as error:
        missing = error.name
    else:
        raise AssertionError("without tabulate, the table should fail")
    assert missing == "tabulate", missing

# %%
# The counter knows formulas for a few operations only, such as products
# of matrices. Anything else counts 0: an addition, an ``exp``, a ``sum``.
#
# .. detail:: Vectors and integers
#
#    In PyTorch 2.4 and 2.13, a matrix times a vector on its right counts 0:
#    ``x @ v`` with ``v`` of shape ``(4,)``. So does a dot product of two
#    vectors. A vector on the left counts: ``w @ x`` with ``w`` of shape
#    ``(3,)`` counts 2·3·4. A product of integer matrices counts too, as if
#    its operations were floating-point. The counter is a tool for products
#    of matrices, not a full count.
x = torch.randn(3, 4)
with FlopCounterMode(display=False) as uncounted:
    (x + x).exp().sum()
print(f"x + x, exp, sum: counted {uncounted.get_total_flops()}")

# %%
# .. check:: a convolution counts; an addition, ``exp`` and ``sum`` count 0
assert uncounted.get_total_flops() == 0
with FlopCounterMode(display=False) as convolution:
    torch.nn.functional.conv2d(torch.ones(1, 1, 5, 5), torch.ones(1, 1, 3, 3))
assert convolution.get_total_flops() > 0

# %%
# .. check:: ``x @ v`` counts 0; ``w @ x`` and an integer product count
with torch.random.fork_rng(devices=[]), FlopCounterMode(display=False) as vector:
    torch.randn(3, 4) @ torch.randn(4)
    torch.randn(4) @ torch.randn(4)
with torch.random.fork_rng(devices=[]), FlopCounterMode(display=False) as on_left:
    torch.randn(3) @ torch.randn(3, 4)
with FlopCounterMode(display=False) as integer:
    torch.ones(3, 4, dtype=torch.int64) @ torch.ones(4, 5, dtype=torch.int64)
version = tuple(int(part) for part in torch.__version__.split(".")[:2])
if version in {(2, 4), (2, 13)}:  # the versions the detail names
    assert vector.get_total_flops() == 0
    assert on_left.get_total_flops() == matmul_flop(1, 3, 4)
    assert integer.get_total_flops() == matmul_flop(3, 4, 5)

# %%
# From small to large matrices
# ----------------------------
# The work divided by the time is the *rate*, in FLOP per second (FLOP/s).
# A GFLOP/s is 10⁹ FLOP/s. Below, ``benchmark`` times float32 products of
# two n-by-n matrices, n from 8 to 1024:
#
# - ``partial(torch.matmul, a, b)`` is a function of no arguments that
#   computes ``a @ b``;
# - ``threads=1`` runs PyTorch on one thread, so the rate is one thread's;
# - ``clock="thread"`` reads that thread's CPU time: the time it ran. Time
#   spent waiting for a CPU that other programs hold does not count. They
#   can still slow the thread down, by sharing its core or its caches. A
#   *cache* is a small, fast memory on the CPU chip for recently used data;
# - ``min_run_time=0.05`` times each size for at least 0.05 s, to keep the
#   page quick.
#
# The ``Timing`` that ``benchmark`` returns holds ``.median``, the median seconds of one
# call.
sizes = [8, 16, 32, 64, 128, 256, 512, 1024]
by_size = {}
for n in sizes:
    a, b = torch.randn(n, n), torch.randn(n, n)
    product = partial(torch.matmul, a, b)
    by_size[n] = benchmark(product, threads=1, min_run_time=0.05, clock="thread")
gflops = {n: matmul_flop(n, n, n) / t.median / 1e9 for n, t in by_size.items()}
print("   n        time   GFLOP/s")
for n, timing in by_size.items():
    print(f"{n:4}  {format_time(timing.median):>10}  {gflops[n]:8.1f}")

# %%
# Small products pay a fixed cost
# -------------------------------
# The 8-by-8 product reaches less than half the best rate measured. Every call has a fixed cost on top of its arithmetic.
# Python calls into PyTorch, which checks the arguments, chooses a
# :term:`kernel` and allocates the result. An 8-by-8 product has only 2·8³
# operations, and the fixed cost takes longer than they do. So a 16-by-16
# product, with eight times the work, takes less than twice as long.
best = max(gflops.values())
print(f"best: {best:.1f} GFLOP/s; n=8: {gflops[8] / best:.1%} of it")

# %%
# .. check:: at n = 8, the rate is under half the best
claim = "at n=8, fixed costs outweigh the work"
check_timing(claim, gflops[8] / best, below=0.5, clock="thread CPU time")


# %%
# .. check:: eight times the work of n = 8 takes under twice as long at n = 16
def small_ratio() -> float:
    """Quickest thread CPU time of a 16-by-16 product over an 8-by-8 one."""
    quick = {}
    for size in (8, 16):
        with torch.random.fork_rng(devices=[]):
            pair = {"x": torch.randn(size, size), "y": torch.randn(size, size)}
        timer = Timer("x @ y", globals=pair, timer=time.thread_time)
        quick[size] = min(timer.timeit(1000).mean for _ in range(5))
    return quick[16] / quick[8]


thread = "thread CPU time"
claim = "a small product's time is mostly a fixed cost"
check_timing(claim, small_ratio, below=2, clock=thread, attempts=3)

# %%
# The figure uses logarithmic axes: each step along an axis multiplies the
# value by the same factor. On such axes, a power of n is a straight line
# whose slope is the power.
#
# The left panel's grey line has slope 3 and passes through the n = 1024
# time. Its label, ∝ n³, reads "proportional to n³". From n = 128 up, the
# times follow it: the time grows about as n³, as 2·n³ says. The right
# panel shows how far the small products are from the best rate.
# ``legend`` names the lines drawn with a ``label``. ``xticks`` and
# ``xticklabels`` mark each n. By default, a logarithmic axis marks only
# powers of ten.
#
# .. detail:: Why the slope is the power
#
#    Take a time that grows as n³. Doubling n multiplies it by 2³, three
#    doublings. So on logarithmic axes, one doubling to the right makes
#    three doublings up: the slope is 3.
fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.6), layout="constrained")
times = [by_size[n].median for n in sizes]
cubic = [times[-1] * (n / sizes[-1]) ** 3 for n in sizes]
left.plot(sizes, times, "o-", label="measured")
left.plot(sizes, cubic, "--", color="grey", label="∝ n³")
left.set(xscale="log", yscale="log", ylabel="seconds per product")
left.legend()
right.plot(sizes, [gflops[n] for n in sizes], "o-")
right.set(xscale="log", ylabel="GFLOP/s", ylim=(0, None))
for ax, title in [(left, "time"), (right, "rate")]:
    ax.set(xticks=sizes, xticklabels=[str(n) for n in sizes], xlabel="n")
    ax.set_title(f"{title}: float32 n-by-n products, one thread")
plt.show()

# %%
# .. check:: the grey line has slope 3 and passes through the n = 1024 time
assert cubic[-1] == times[-1]
assert math.isclose(math.log(cubic[-1] / cubic[0]) / math.log(1024 / 8), 3)

# %%
# .. check:: a logarithmic axis marks powers of ten by default
log_fig, log_ax = plt.subplots()
log_ax.set(xscale="log", xlim=(8, 1024))
marks = log_ax.get_xticks()
plt.close(log_fig)
assert len(marks) > 0
assert all(math.isclose(math.log10(mark), round(math.log10(mark))) for mark in marks)


# %%
# .. check:: from n = 128 to 1024, the time grows about as n³, well above n²
def slope():
    """Slope of log(time) against log(n) from 128 to 1024.

    On quickest runs (other programs only add time, and more to the longer
    products) of one thread: about 3 (above 3 where the rate falls as n
    grows), well above n²'s 2. Measured again, three times at most, if a
    busy machine upsets a bound.
    """
    quick = {}
    for size in (128, 1024):
        with torch.random.fork_rng(devices=[]):
            pair = {"x": torch.randn(size, size), "y": torch.randn(size, size)}
        timer = Timer("x @ y", globals=pair, timer=time.thread_time)
        quick[size] = min(timer.timeit(2**20 // size**2 or 1).mean for _ in range(5))
    return math.log(quick[1024] / quick[128]) / math.log(1024 / 128)


check_timing("time grows about as n³", slope, above=2.5, clock=thread, attempts=3)
check_timing("time grows about as n³", slope, below=4, clock=thread, attempts=3)

# %%
# The hardware's peak
# -------------------
# Here "clock" has a second meaning: a signal that paces a chip's steps.
# Each tick starts a *clock cycle*; the ticks a second are the *clock
# frequency*. The *arithmetic units* are the circuits that do the sums.
#
# A device's *peak* rate is the most FLOP/s its arithmetic units can
# deliver. It is the operations each unit completes per clock cycle, times
# the number of units, times the clock frequency.
#
# A CPU's peak depends on how many numbers one instruction handles, on
# its cores, and on a clock that changes with load and temperature. So this
# page compares each rate with the best one it measured. GPU makers
# publish their GPUs' peaks:
# :ref:`sphx_glr_auto_examples_performance_plot_52_matrix_products_on_a_gpu.py`
# compares a GPU's measured rate with them.

# %%
# Summary
# -------
# - A product of an m-by-k and a k-by-n matrix takes 2·m·k·n FLOP.
#   ``FlopCounterMode`` counts matrix products the same way.
# - The work divided by the median time is the rate, in FLOP/s.
# - A small product reaches a sliver of the best rate: a fixed cost per
#   call outweighs its work.
# - From n = 128 up, the time of an n-by-n product grows about as n³.
# - A device's peak is the most FLOP/s it can run.
#
# Next, :ref:`sphx_glr_auto_examples_performance_plot_03_profiling.py`
# finds where a training loop spends its time. The helpers this page
# imports are documented in :doc:`/api`.

# %%
# .. _exercises-performance-02:
#
# Exercises
# ---------
# Each solution hides behind a toggle, and the check after it says whether
# an answer is right. This cell makes the exercises' matrices and network:
torch.manual_seed(0)
a, b = torch.randn(256, 256), torch.randn(256, 256)
net = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))

# %%
# **Exercise 1.** Time ``a @ b`` with the timing page's
# :class:`~torch.utils.benchmark.Timer`: the statement ``"a @ b"``,
# ``globals={"a": a, "b": b}`` and one thread. Make ``measurement``: the
# :class:`~torch.utils.benchmark.Measurement` that its
# ``blocked_autorange(min_run_time=0.05)`` returns. Then make ``rate``: the
# FLOP/s of its median, a ``float``, with the work counted by hand.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
timer = Timer("a @ b", globals={"a": a, "b": b})  # one thread by default
measurement = timer.blocked_autorange(min_run_time=0.05)
rate = 2 * 256**3 / measurement.median  # 2·m·k·n operations
print(f"{rate / 1e9:.1f} GFLOP/s")

# %%
# .. raw:: html
#
#    </details>

# %%
# The check reads what the Measurement recorded: ``task_spec.stmt`` is the
# statement, ``task_spec.num_threads`` the threads, ``raw_times`` each
# block's time. Those add up to at least ``min_run_time``. The check runs
# the statement again, and says which name it lacked if it fails. It
# compares the result with ``a @ b`` after multiplying both by a vector
# ``v``, in float64. The brackets in ``a @ (b @ v)`` make that cheap: two
# matrix-vector products, no matrix product. ``atol=1e-2`` allows for
# float32's rounding. One CPU thread stays far below 10¹³ float32 FLOP/s.
assert isinstance(rate, float), "Exercise 1: rate is not a float"
is_measurement = isinstance(measurement, torch.utils.benchmark.Measurement)
assert is_measurement, "Exercise 1: measurement is not a Measurement from a Timer"
assert measurement.task_spec.num_threads == 1, "Exercise 1: not timed on one thread"
assert sum(measurement.raw_times) >= 0.05, "Exercise 1: min_run_time=0.05?"
try:
    got = eval(measurement.task_spec.stmt, {"a": a, "b": b, "torch": torch})
except NameError as error:
    message = f'Exercise 1: {error}: time "a @ b" with a and b in globals'
    raise AssertionError(message) from None
else:
    assert isinstance(got, torch.Tensor), "Exercise 1: the statement returns no tensor"
v = torch.linspace(-1, 1, 256, dtype=torch.float64)
assert got.shape == (256, 256), f"Exercise 1: it returns shape {tuple(got.shape)}"
close = torch.allclose(got.double() @ v, a.double() @ (b.double() @ v), atol=1e-2)
assert close, "Exercise 1: the statement timed is not the matrix product a @ b"
work = rate * measurement.median  # 2·256³ operations, worked out by hand:
assert math.isclose(work, 33_554_432), "Exercise 1: not 2·256³ operations a median"
assert 0 < rate < 1e13, "Exercise 1: a rate no CPU thread can reach"
print("Exercise 1: right")

# %%
# **Exercise 2.** Predict how many FLOP ``FlopCounterMode`` counts for one
# forward pass of ``net`` on a :term:`batch` of 32 inputs. An ``nn.Linear``
# is a matrix product plus a bias. Make ``answer``: that number, an ``int``
# worked out by hand, without running a counter.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
# Two products, 2·m·k·n each; adding the bias and ReLU count 0.
answer = 2 * 32 * 64 * 128 + 2 * 32 * 128 * 10
print(f"{answer:,}")

# %%
# .. raw:: html
#
#    </details>

# %%
# The check:
assert isinstance(answer, int), "Exercise 2: answer is not an int"
with FlopCounterMode(display=False) as counter:
    net(torch.randn(32, 64))
assert answer == counter.get_total_flops(), (
    "Exercise 2: not the count: 2·m·k·n per matrix product, 0 for the rest"
)
print("Exercise 2: right")
