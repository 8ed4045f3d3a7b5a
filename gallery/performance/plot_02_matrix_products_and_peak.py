"""
Matrix products and peak rates
==============================

Count the floating-point operations of a matrix product, turn a measured
time into operations per second, and compare rates: on the CPU, of small
and large matrices with the best rate measured; on a GPU, with the most the
hardware can do, in float32 and in TF32.
"""

# %%
# Every time on this page was measured by running it, on the machine whose
# device and CPU the first two lines of output name. Times change between
# runs and machines; the checks compare times only with each other or with
# generous bounds. How to time code so that the numbers mean something
# (warm-up, threads, synchronisation) is the subject of
# :ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`;
# this page times with its helper, :func:`~tutorial_utils.timing.benchmark`.
import math
import time
from functools import partial

import matplotlib.pyplot as plt
import numpy as np
import torch
from torch import nn
from torch.utils.benchmark import Timer
from torch.utils.flop_counter import FlopCounterMode

from tutorial_utils.colours import PALETTE
from tutorial_utils.devices import device_name, pick_device
from tutorial_utils.environment import environment_summary
from tutorial_utils.timing import benchmark, check_timing, format_time

device = pick_device()
print(environment_summary(device))
print(f"CPU: {device_name('cpu')}")

# %%
# Counting the work
# -----------------
# A product of an m-by-k and a k-by-n matrix holds m·n numbers, each a dot
# product of k pairs: k multiplications and k - 1 additions, counted as k by
# the usual convention (a multiply-add is two operations). So the product
# takes 2·m·k·n floating-point operations (FLOP), and one of two n-by-n
# matrices 2·n³: doubling n multiplies the work by eight. PyTorch's own
# counter, ``torch.utils.flop_counter.FlopCounterMode``, counts a matrix
# product run inside it the same way. It counts only the operators it has a
# formula for (matrix products, convolutions, attention); an addition, an
# ``exp`` or a ``sum`` inside it counts 0:


def matmul_flop(m: int, k: int, n: int) -> int:
    """Floating-point operations of an (m x k) @ (k x n) matrix product."""
    return 2 * m * k * n


with FlopCounterMode(display=False) as counter:
    torch.randn(3, 4) @ torch.randn(4, 5)
print(f"2·3·4·5 = {matmul_flop(3, 4, 5)}; counted: {counter.get_total_flops()}")
x = torch.randn(3, 4)
with FlopCounterMode(display=False) as uncounted:
    (x + x).exp().sum()
print(f"x + x, exp, sum: counted {uncounted.get_total_flops()}")

# %%
# .. check:: the counter counts a product's 2·m·k·n and 0 for the rest; doubling n makes 8 times the work
assert counter.get_total_flops() == matmul_flop(3, 4, 5)
assert uncounted.get_total_flops() == 0
assert matmul_flop(128, 128, 128) == 8 * matmul_flop(64, 64, 64)

# %%
# From small to large matrices
# ----------------------------
# Dividing the work by the time gives the rate the CPU achieved, in FLOP/s,
# floating-point operations per second. The products below are of n-by-n
# float32 matrices, n from 8 to 1024, on one thread, so that the rate is that
# of one core. The times are that thread's CPU time (``clock="thread"``): the
# time it ran, not counting any wait for a CPU that other programs held.
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
# An 8-by-8 product is too small to keep the CPU busy: the fixed cost of any
# call (checking the arguments, choosing a :term:`kernel`, allocating the
# result) takes longer than its 2·8³ operations would at the best rate, so
# its rate is a fraction of the best.
best = max(gflops.values())
print(f"n=8: {matmul_flop(8, 8, 8):,} operations in {format_time(by_size[8].median)}")
print(f"best: {best:.1f} GFLOP/s; n=8: {gflops[8] / best:.1%} of it")
claim = "at n=8, fixed costs outweigh the work"
check_timing(claim, gflops[8] / best, below=0.5, clock="thread CPU time")

# %%
# On logarithmic axes, the time of the larger products (n = 128 and up)
# grows much faster than n², about as n³ (the grey line of slope 3), as 2·n³
# says; the rate shows how far the small products are from the CPU's best.
fig, (ax_time, ax_rate) = plt.subplots(1, 2, figsize=(9, 3.6), layout="constrained")
ax_time.loglog(sizes, [by_size[n].median for n in sizes], "o-", color=PALETTE[5])
reference = by_size[1024].median * (np.array(sizes) / 1024) ** 3
ax_time.loglog(sizes, reference, "--", color="grey", label="∝ n³")
ax_time.set(ylabel="seconds per product", title="time")
ax_time.legend()
ax_rate.plot(sizes, [gflops[n] for n in sizes], "o-", color=PALETTE[1])
ax_rate.set(ylabel="GFLOP/s", title="rate", ylim=(0, None))
for ax in (ax_time, ax_rate):
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes, [str(n) for n in sizes], minor=False)
    ax.minorticks_off()
    ax.set_xlabel("n")
fig.suptitle(f"float32 n-by-n products, 1 thread, on {device_name('cpu')}")
plt.show()


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
    return np.log(quick[1024] / quick[128]) / np.log(1024 / 128)


thread = "thread CPU time"
check_timing("time grows about as n³", slope, above=2.5, clock=thread, attempts=3)
check_timing("time grows about as n³", slope, below=4, clock=thread, attempts=3)

# %%
# The hardware's peak
# -------------------
# A device's *peak* rate is the most FLOP/s its arithmetic units can deliver:
# the operations each unit completes per clock cycle, times the units, times
# the clock. A CPU's depends on its vector instructions, its core count and a
# clock that varies with load and temperature, so this page does not guess
# it. NVIDIA's datasheets give the peaks of its data-centre GPUs for each
# kind of arithmetic. The table below holds the dense peaks that an ordinary
# product can approach of the H100 and the H200 (which has the H100 SXM's
# compute units), by the name that :func:`torch.cuda.get_device_name`
# reports. A measured rate above the peak means that the measurement is
# broken: most often, the clock was read before the GPU had finished.
#
# .. detail:: Peaks with sparsity
#
#    The datasheets give the peaks of the Tensor Cores (TF32 and below)
#    *with sparsity*: for products where two of every four numbers of one
#    matrix are zero, and "1/2 lower without sparsity". The table's TF32
#    figures are theirs halved.
PEAK_FLOPS = {
    "NVIDIA H100 80GB HBM3": {"fp32": 67e12, "tf32": 495e12},
    "NVIDIA H200": {"fp32": 67e12, "tf32": 495e12},
    "NVIDIA H100 PCIe": {"fp32": 51e12, "tf32": 378e12},
}
name = device_name(device)
print(f"{name}: {PEAK_FLOPS.get(name, 'no published peak in this table')}")

# %%
# CPU against GPU
# ---------------
# A fair race between CPU and GPU lets each use all its hardware (the CPU
# all its threads) and counts the copies: :term:`tensors <tensor>` made on the
# CPU must be copied to the GPU (:meth:`~torch.Tensor.to`), and the result
# back. On a machine with a CUDA GPU, this cell times a small and a large
# product on the CPU, on the GPU with the inputs there, and as a round trip
# (copies there, product, copy back). On a GPU attached by PCIe, as are those
# in the table above, the copies cannot be quicker than the link: a PCIe 5.0
# x16 link carries about 64 GB/s each way, so the round trip's extra time
# is more than the bytes copied would take at 200 GB/s. The GPU's
# rate is compared with its peak for the arithmetic it used: on NVIDIA GPUs
# from the Ampere generation on, cuBLAS can run a float32 product in
# :term:`TF32`, less precise and, on data-centre GPUs such as the H100,
# several times faster. PyTorch does so only when
# asked: :func:`torch.set_float32_matmul_precision` with ``"high"`` or
# ``"medium"``, as below. With the default, ``"highest"``, the product runs
# in fp32.
#
# .. detail:: A second way to ask
#
#    Recent versions (2.13 among them) have a second way to ask for TF32,
#    ``torch.backends.cuda.matmul.fp32_precision = "tf32"``. Use one way or
#    the other: after the new one, reading the setting the old way, as this
#    cell does, raises an error.
if torch.cuda.is_available():

    def round_trip(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return (a.to(device) @ b.to(device)).cpu()

    setting = torch.get_float32_matmul_precision()
    precision = "fp32" if setting == "highest" else "tf32"
    peak = PEAK_FLOPS.get(name, {}).get(precision)
    print(f"matmul precision {setting!r}: {precision}")
    for n in (512, 4096):
        a, b = torch.randn(n, n), torch.randn(n, n)
        a_gpu, b_gpu = a.to(device), b.to(device)
        cpu = benchmark(partial(torch.matmul, a, b), label="CPU, all threads")
        gpu = benchmark(partial(torch.matmul, a_gpu, b_gpu), label="GPU", device=device)
        trip = benchmark(
            partial(round_trip, a, b), label="GPU round trip", device=device
        )
        rate = matmul_flop(n, n, n) / gpu.median
        share = "peak unknown" if peak is None else f"{rate / peak:.0%} of its peak"
        print(f"n={n}:", cpu, gpu, trip, sep="\n  ")
        print(f"  GPU rate: {rate / 1e12:.1f} TFLOP/s in {precision} ({share})")
        print(
            f"  CPU time / GPU time: {cpu.median / gpu.median:.1f}, "
            f"with the copies: {cpu.median / trip.median:.1f}"
        )
        copied = 3 * a.nbytes  # a and b to the GPU, their product back
        bandwidth = copied / (trip.median - gpu.median)
        print(f"  copies: {copied / 1e6:.0f} MB at {bandwidth / 1e9:.0f} GB/s")
        wall = "wall clock"  # on a GPU, the time until its queue is done
        if name in PEAK_FLOPS:  # attached by PCIe
            claim = "the copies go no faster than the link"
            check_timing(claim, bandwidth / 1e9, below=200, clock=wall)
        if peak is not None:
            claim = "no rate above the peak: timing is not broken"
            check_timing(claim, rate / peak, below=1, clock=wall)
else:
    print("No CUDA GPU here (torch.cuda.is_available() is False): only the CPU")
    print("times above were measured.")

# %%
# .. check:: after ``fp32_precision = "tf32"``, reading the setting the old way raises
import subprocess
import sys

mixed = (
    "import torch\n"
    "matmul = torch.backends.cuda.matmul\n"
    "if not hasattr(matmul, 'fp32_precision'):  # versions without the new way\n"
    "    raise SystemExit('no fp32_precision')\n"
    "matmul.fp32_precision = 'tf32'\n"
    "torch.get_float32_matmul_precision()\n"
)
ran = subprocess.run(
    [sys.executable, "-c", mixed], capture_output=True, text=True, check=False
)
assert ran.returncode != 0, ran.stdout
assert "no fp32_precision" in ran.stderr or "RuntimeError" in ran.stderr, ran.stderr

# %%
# On an NVIDIA GPU of the Ampere generation or later (compute capability 8.0
# and up), this cell times the n=4096 product with the default setting and
# with TF32 allowed, and measures both results against a float64 product of
# the same matrices.
nvidia = torch.cuda.is_available() and torch.version.cuda is not None
if nvidia and torch.cuda.get_device_capability() >= (8, 0):
    exact = a_gpu.double() @ b_gpu.double()
    times, errors = {}, {}
    try:
        for setting in ("highest", "high"):
            torch.set_float32_matmul_precision(setting)
            timing = benchmark(partial(torch.matmul, a_gpu, b_gpu), device=device)
            error = (a_gpu @ b_gpu - exact).abs().max() / exact.abs().max()
            times[setting], errors[setting] = timing.median, error.item()
            print(f"{setting!r}: {timing}, relative error {error:.1e}")
    finally:
        torch.set_float32_matmul_precision("highest")
    if "tf32" in PEAK_FLOPS.get(name, {}):  # the H100 and H200
        tf32_share = times["high"] / times["highest"]
        claim = "TF32 is several times faster"
        check_timing(claim, tf32_share, below=0.5, clock="wall clock")
else:
    print("No NVIDIA GPU of the Ampere generation or later here: no TF32 to time.")

# %%
# .. check:: TF32 is less precise: over ten times the error of the float32 product
if nvidia and torch.cuda.get_device_capability() >= (8, 0):
    assert errors["high"] > 10 * errors["highest"], "TF32 is less precise"

# %%
# Summary
# -------
# - A product of an m-by-k and a k-by-n matrix takes 2·m·k·n floating-point
#   operations, as PyTorch's flop counter also counts; of two n-by-n
#   matrices, 2·n³.
# - That work divided by the median time is the rate in FLOP/s. Small
#   products reach a fraction of the best rate: fixed costs outweigh their
#   work.
# - A device's peak bounds the rate; a rate above it means a broken
#   measurement. NVIDIA publishes its GPUs' peaks for each kind of
#   arithmetic; a CPU's depends on its clock, cores and vector units.
# - A fair race between CPU and GPU counts the copies. On NVIDIA GPUs from
#   Ampere on, ``torch.set_float32_matmul_precision("high")`` lets float32
#   products run in TF32: faster, and less precise.
#
# Next, :ref:`sphx_glr_auto_examples_performance_plot_03_profiling.py`
# finds where a training loop spends its time. The helpers this page imports
# are documented in :doc:`/api`.

# %%
# .. _exercises-performance-02:
#
# Exercises
# ---------
# Each solution hides behind a toggle, and the check after it says whether an
# answer is right. Exercise 1 times two float32 matrices with the
# :class:`~torch.utils.benchmark.Timer` of
# :ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`;
# Exercise 2 counts the work of a small network:
torch.manual_seed(0)
a, b = torch.randn(256, 256), torch.randn(256, 256)
net = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))

# %%
# **Exercise 1.** Make ``measurement``: the
# :class:`~torch.utils.benchmark.Measurement` that a ``Timer`` of the statement
# ``"a @ b"``, with ``globals={"a": a, "b": b}`` and one thread, returns from
# ``blocked_autorange(min_run_time=0.05)``; and ``rate``: the floating-point
# operations per second (a ``float``) of its median, the work counted by hand.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
timer = Timer("a @ b", globals={"a": a, "b": b})
measurement = timer.blocked_autorange(min_run_time=0.05)
rate = 2 * 256**3 / measurement.median  # 2·m·k·n operations
print(f"{rate / 1e9:.1f} GFLOP/s")

# %%
# .. raw:: html
#
#    </details>

# %%
# The check runs the timed statement again and compares its result times a
# vector ``v`` with ``a @ (b @ v)``, in float64; one CPU thread stays far
# below 10¹³ float32 FLOP/s (10 TFLOP/s):
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
# **Exercise 2.** Predict, without running a counter, how many floating-point
# operations ``FlopCounterMode`` counts for one forward pass of ``net`` on a
# :term:`batch` of 32 inputs (an ``nn.Linear`` is a matrix product plus a
# bias), and make ``answer``: that number, an ``int`` worked out by hand.
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
