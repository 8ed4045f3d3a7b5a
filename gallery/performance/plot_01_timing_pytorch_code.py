"""
Timing PyTorch code
===================

Measure how long PyTorch code takes so that the number means something:
warmed up, on a stated number of threads, with the GPU synchronised. After
this page you can time a Python loop against a vectorised call, PyTorch
against NumPy and a CPU against a GPU, and say what a matrix product should
cost.
"""

# %%
# Every time on this page was measured by running it, on the machine whose
# device and CPU the first two lines of output name. Times, and even their
# ratios, change between runs and machines; the checks compare times only with
# each other or with generous bounds, with wide margins.
import re
import time
from collections.abc import Callable
from functools import partial

import matplotlib.pyplot as plt
import numpy as np
import torch
from threadpoolctl import threadpool_info, threadpool_limits
from torch.utils.benchmark import Timer

from tutorial_utils.devices import device_name, pick_device
from tutorial_utils.environment import environment_summary
from tutorial_utils.plotting import PALETTE
from tutorial_utils.timing import (
    benchmark,
    comparison_table,
    describe_peak,
    flop_rate,
    format_rate,
    format_time,
    matmul_flop,
    matmul_precision,
    peak_flop_rate,
)

device = pick_device()
all_threads = torch.get_num_threads()
thread_counts = sorted({1, all_threads})
print(environment_summary(device))
print(f"CPU: {device_name('cpu')}")

# %%
# A timer that measures the right thing
# -------------------------------------
# :class:`torch.utils.benchmark.Timer` runs a statement in blocks of calls
# until enough time has passed (:meth:`~torch.utils.benchmark.Timer.blocked_autorange`)
# and reports the median, over the blocks, of the time of one call. Two of its
# habits catch people out: it runs the statement on **one thread** unless
# told otherwise (``num_threads=``), whatever :func:`torch.get_num_threads`
# says; and the first line of a printed :class:`~torch.utils.benchmark.Measurement`
# holds the object's memory address, which differs from run to run. So print
# the numbers it holds, not the object (the last ``print`` below replaces
# the address with ``0x...``):
torch.manual_seed(0)
numbers = torch.rand(10**6, dtype=torch.float64)
timer = Timer("numbers.sum()", globals={"numbers": numbers})
measurement = timer.blocked_autorange(min_run_time=0.05)
print(f"median of one call: {format_time(measurement.median)}")
seen = set()  # the thread counts that a timed statement sees
Timer("seen.add(torch.get_num_threads())", globals={"seen": seen}).timeit(5)
print(f"threads inside a Timer: {seen}, outside: {torch.get_num_threads()}")
print(re.sub(r"0x[0-9A-Fa-f]+", "0x...", repr(measurement).splitlines()[0]))
assert seen == {1}, "a Timer runs its statement on one thread"

# %%
# :func:`~tutorial_utils.timing.benchmark` wraps that timer. It calls the
# function once before measuring (the *warm-up*, see below), takes the number
# of threads explicitly (by default all of PyTorch's), waits for the device
# to finish before every reading of the clock, and returns a
# :class:`~tutorial_utils.timing.Timing`: the median, the interquartile range
# (the middle half of the measurements lies in a band this wide), the number
# of measurements, the threads and the device. One thread here, like the
# Python loop in the next section.
vectorised = benchmark(partial(torch.sum, numbers), label="torch.sum", threads=1)
print(vectorised)


# %%
# A Python loop against one vectorised call
# -----------------------------------------
# A million float64 numbers can be added one at a time in a Python loop, or
# with one *vectorised* call, :func:`torch.sum`, whose loop over the elements
# runs inside a compiled :term:`kernel`. Each pass through the Python loop
# picks one element out of the :term:`tensor` and adds two 0-d tensors, each
# step going through the Python interpreter and PyTorch's dispatch. A million
# passes would take seconds, so the loop adds 10,000 numbers: in four loops
# over 2,500, or in one over 10,000. Other programs can only add time to a
# run, so ``quickest`` keeps the quickest of several runs (on one thread, a
# Timer's default). Both ways take about as long per number (within a factor
# of two, checked): the loop's time grows in proportion to its length.
def python_sum(values: torch.Tensor) -> torch.Tensor:
    total = torch.zeros((), dtype=values.dtype)
    for i in range(len(values)):
        total += values[i]
    return total


def quickest(fn: Callable[[], object], calls: int = 1, runs: int = 5) -> float:
    """Seconds per call in the quickest of `runs` runs of `calls` calls each."""
    timer = Timer("fn()", globals={"fn": fn})
    return min(timer.timeit(calls).mean for _ in range(runs))


per_number = {}
for count in (2_500, 10_000):
    loop = quickest(partial(python_sum, numbers[:count]), calls=10_000 // count)
    per_number[count] = loop / count
    print(f"{count:6,} numbers: {format_time(loop)}, {format_time(loop / count)} each")
ratio = per_number[10_000] / per_number[2_500]
print(f"time per number, 10,000 against 2,500: {ratio:.2f}")
assert 1 / 2 < ratio < 2, "the loop's time grows in proportion to its length"

# %%
# Scaled up to the million numbers :func:`torch.sum` adds (an extrapolation,
# from the proportional growth just checked), the loop takes a hundred times
# longer. Against the quickest of five runs of ten :func:`torch.sum` calls:
loop_million = per_number[10_000] * numbers.numel()
summed = quickest(partial(torch.sum, numbers), calls=10)
speedup = loop_million / summed
print(f"Python loop, 10⁶ numbers: {format_time(loop_million)} (10,000 timed, x100)")
print(f"torch.sum,   10⁶ numbers: {format_time(summed)}")
print(f"torch.sum is about {float(f'{speedup:.2g}'):,.0f} times faster")
assert speedup > 1000, "one vectorised call beats the loop by over 1000 times"

# %%
# The two sums agree up to rounding: floating-point addition is not
# associative, and the loop adds left to right while :func:`torch.sum`
# keeps several partial sums. In float64 (about 16 significant digits) the
# relative difference stays below 10⁻¹³, the tolerance checked here:
subset = numbers[:10_000]
loop_total, vectorised_total = python_sum(subset), torch.sum(subset)
print(f"Python loop: {loop_total.item():.13f}")
print(f"torch.sum:   {vectorised_total.item():.13f}")
print(f"relative difference: {abs(loop_total / vectorised_total - 1).item():.1e}")
torch.testing.assert_close(loop_total, vectorised_total, rtol=1e-13, atol=0)

# %%
# The first call costs more
# -------------------------
# On the CPU, an operation has finished when it returns, so
# :func:`time.perf_counter` read before and after one call measures that call.
# The catch is *which* call: the first call of an operation can do one-off
# work that later calls skip, once per process (a library setting itself up)
# or once per :term:`shape`. On x86 CPUs with AVX-512
# (:func:`torch.backends.cpu.get_cpu_capability` returns ``"AVX512"``),
# PyTorch hands a matrix product of bfloat16 (16-bit) floats to oneDNN, a CPU
# library that comes with PyTorch, which compiles a kernel for each new shape
# the first time it meets it and keeps it in a cache. Below, the first
# 64-by-64 bfloat16 product, on one thread (:func:`torch.set_num_threads`), is
# timed against the quickest later ones; the helper's warm-up call absorbs
# such costs.
a16 = torch.randn(64, 64, dtype=torch.bfloat16)
torch.set_num_threads(1)
tic = time.perf_counter()
a16 @ a16
first_call = time.perf_counter() - tic
torch.set_num_threads(all_threads)
print(f"CPU capability: {torch.backends.cpu.get_cpu_capability()}")
print(f"first call: {format_time(first_call)}")
fastest = quickest(partial(torch.matmul, a16, a16), calls=10)
print(f"quickest later call: {format_time(fastest)}")
print(f"the first call took {first_call / fastest:.0f} times the quickest later one")
if torch.backends.cpu.get_cpu_capability() == "AVX512":
    assert first_call > 3 * fastest, "the first call compiled a kernel"

# %%
# Synchronise before reading the clock
# ------------------------------------
# A GPU works differently. ``a_gpu @ b_gpu`` on CUDA tensors *launches* a
# kernel: PyTorch puts the product in the GPU's queue (a CUDA stream) and
# returns as soon as it is queued, usually long before the GPU has computed
# it. A :func:`time.perf_counter` loop around GPU calls therefore measures
# how fast Python queues work: the classic timing mistake.
# :func:`torch.cuda.synchronize` blocks until everything queued on the GPU
# has finished; call it before every reading of the clock. The first
# product of a process also sets up cuBLAS, the GPU's :term:`BLAS` library,
# so it is slower, and timed apart. :func:`~tutorial_utils.timing.benchmark`
# does all of this: a warm-up call, then the same waiting as
# :func:`~tutorial_utils.timing.synchronize` (which also knows the Apple
# GPU's :func:`torch.mps.synchronize`) before every reading of the clock.
# On a machine with a CUDA GPU, this cell times one product three ways: ten
# calls without synchronising, ten with, and the helper's own runs.
if torch.cuda.is_available():
    a_gpu = torch.randn(4096, 4096, device=device)
    b_gpu = torch.randn(4096, 4096, device=device)
    torch.cuda.synchronize()
    tic = time.perf_counter()
    a_gpu @ b_gpu  # the first product: cuBLAS set-up, then the product
    torch.cuda.synchronize()
    first_gpu = time.perf_counter() - tic
    tic = time.perf_counter()
    for _ in range(10):
        a_gpu @ b_gpu
    queued = (time.perf_counter() - tic) / 10
    torch.cuda.synchronize()  # let the ten queued products finish
    tic = time.perf_counter()
    for _ in range(10):
        a_gpu @ b_gpu
    torch.cuda.synchronize()
    finished = (time.perf_counter() - tic) / 10
    timed = benchmark(partial(torch.matmul, a_gpu, b_gpu), device=device)
    print(f"first product:    {format_time(first_gpu)}")
    print(f"not synchronised: {format_time(queued)} per product (queueing only)")
    print(f"synchronised:     {format_time(finished)} per product")
    print(f"benchmark: {timed}")
    assert first_gpu > 2 * finished, "the first product set up cuBLAS"
    assert queued < finished / 2, "without synchronising, only the queueing is timed"
    assert 0.5 < finished / timed.median < 2, "both synchronised timings agree"
else:
    print("No CUDA GPU here (torch.cuda.is_available() is False): nothing timed.")

# %%
# PyTorch and NumPy, one thread and all
# -------------------------------------
# A fair race gives both libraries the same product: the same numbers, the
# same :term:`dtype` (NumPy's default is float64, PyTorch's float32) and the
# same number of threads. The helper sets PyTorch's threads, and
# ``threadpool_limits`` (from ``threadpoolctl``, installed with scikit-learn)
# those of the BLAS library NumPy calls, if it recognises it: the OpenBLAS of
# NumPy's pip packages for Linux and Windows, yes; Apple's Accelerate, which
# they use on macOS 14 and later, no (the first line below names what it
# found). PyTorch's x86 builds use Intel's MKL, so which library wins depends
# on the machine. More threads need not be faster: a small product has little
# work to share, and on a busy machine each thread waits for the slowest.
blas = [lib["internal_api"] for lib in threadpool_info() if lib["user_api"] == "blas"]
print(f"BLAS that threadpoolctl controls here: {', '.join(blas) or 'none'}")
a, b = torch.randn(500, 500), torch.randn(500, 500)
a_np, b_np = a.numpy(), b.numpy()  # the same numbers, shared with the tensors
race = []
for threads in thread_counts:
    race.append(benchmark(partial(torch.matmul, a, b), label="torch", threads=threads))
    with threadpool_limits(limits=threads, user_api="blas"):
        numpy_product = partial(np.matmul, a_np, b_np)
        race.append(benchmark(numpy_product, label="NumPy", threads=threads))
print(f"{a_np.dtype} product of two 500 x 500 matrices, median time:")
print(comparison_table(race, rows="label", columns="threads"))
for torch_timing, numpy_timing in zip(race[::2], race[1::2], strict=True):
    ratio = numpy_timing.median / torch_timing.median
    print(f"threads={torch_timing.threads}: NumPy's time / torch's = {ratio:.2f}")

# sphinx_gallery_start_ignore
torch.testing.assert_close(torch.from_numpy(a_np @ b_np), a @ b, rtol=1e-4, atol=1e-4)
with threadpool_limits(limits=1, user_api="blas"):
    limited = [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]
assert limited == [1] * len(blas), limited
# sphinx_gallery_end_ignore

# %%
# From small to large matrices
# ----------------------------
# A product of two n-by-n matrices takes 2·n³ floating-point operations:
# n² dot products, each of n multiplications and n - 1 additions, counted as
# n (:func:`~tutorial_utils.timing.matmul_flop`). Doubling n multiplies the
# work by eight. Dividing the work by the time gives the rate the CPU
# achieved, in FLOP/s, floating-point operations per second
# (:func:`~tutorial_utils.timing.flop_rate`). One thread, so that the rate is
# that of one core.
sizes = [8, 16, 32, 64, 128, 256, 512, 1024]
by_size = {}
for n in sizes:
    a, b = torch.randn(n, n), torch.randn(n, n)
    by_size[n] = benchmark(partial(torch.matmul, a, b), threads=1, min_run_time=0.05)
gflops = {n: flop_rate(t, matmul_flop(n)) / 1e9 for n, t in by_size.items()}
print("   n        time   GFLOP/s")
for n, timing in by_size.items():
    print(f"{n:4}  {format_time(timing.median):>10}  {gflops[n]:8.1f}")

# sphinx_gallery_start_ignore
slope = np.log(by_size[1024].median / by_size[128].median) / np.log(1024 / 128)
assert 2 < slope < 4.5, by_size
# sphinx_gallery_end_ignore

# %%
# An 8-by-8 product is too small to keep the CPU busy: the fixed cost of any
# call (checking the arguments, choosing a kernel, allocating the result)
# takes longer than its 1,024 operations would at the best rate, so its rate
# is a fraction of the best. What this CPU's peak is, the helper does
# not know (it depends on the clock, the cores and the vector units), so
# :func:`~tutorial_utils.timing.describe_peak` says so instead of guessing.
best = max(gflops.values()) * 1e9
print(f"n=8: {gflops[8] * 1e9 / best:.1%} of the best rate")
print(f"best: {format_rate(best)} ({describe_peak(best, 'cpu', 'fp32')})")
assert gflops[8] * 1e9 < best / 2, "at n=8, fixed costs outweigh the work"

# %%
# On logarithmic axes, the time of the larger products climbs roughly as n³,
# the grey line of slope 3, as 2·n³ says; the rate shows how far the small
# products are from the CPU's best.
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
# CPU against GPU
# ---------------
# A fair race between CPU and GPU lets each use all its hardware (the CPU
# all its threads) and counts the copies: tensors made on the CPU must be
# copied to the GPU (:meth:`~torch.Tensor.to`), and the result back. On a
# machine with a CUDA GPU, this cell times a small and a large product on
# the CPU, on the GPU with the inputs there, and as a round trip (copies
# there, product, copy back), whose extra time must exceed what the bytes
# copied would take at 1 TB/s (a PCIe 5.0 x16 link carries about 64 GB/s
# each way). The GPU's rate is compared with its published peak, which
# depends on the arithmetic: on NVIDIA GPUs from the Ampere generation on,
# cuBLAS can run a float32 product in :term:`TF32`, less precise and, on
# data-centre GPUs such as the H100, several times faster. PyTorch does so
# only when asked: :func:`torch.set_float32_matmul_precision` with
# ``"high"`` or ``"medium"`` (as on this page) or, since PyTorch 2.9,
# ``torch.backends.cuda.matmul.fp32_precision = "tf32"``.
if torch.cuda.is_available():

    def round_trip(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return (a.to(device) @ b.to(device)).cpu()

    precision = matmul_precision(torch.float32, device)
    print(f"matmul precision {torch.get_float32_matmul_precision()!r}: {precision}")
    for n in (512, 4096):
        a, b = torch.randn(n, n), torch.randn(n, n)
        a_gpu, b_gpu = a.to(device), b.to(device)
        cpu = benchmark(partial(torch.matmul, a, b), label="CPU, all threads")
        gpu = benchmark(partial(torch.matmul, a_gpu, b_gpu), label="GPU", device=device)
        trip = benchmark(
            partial(round_trip, a, b), label="GPU round trip", device=device
        )
        rate = flop_rate(gpu, matmul_flop(n))
        peak = describe_peak(rate, device, precision)
        print(f"n={n}:", cpu, gpu, trip, sep="\n  ")
        print(f"  GPU rate: {format_rate(rate)}, {peak}")
        print(
            f"  CPU time / GPU time: {cpu.median / gpu.median:.1f}, "
            f"with the copies: {cpu.median / trip.median:.1f}"
        )
        copied = 3 * a.nbytes  # a and b to the GPU, their product back
        assert trip.median - gpu.median > copied / 1e12, "the copies cost time"
else:
    print("This build has no CUDA GPU: only the CPU times above were measured.")

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
    assert errors["high"] > 10 * errors["highest"], "TF32 is less precise"
    if peak_flop_rate(device, "tf32") is not None:  # the H100 and H200
        assert times["high"] < times["highest"] / 2, "TF32 is several times faster"
else:
    print("No NVIDIA GPU of the Ampere generation or later here: no TF32 to time.")

# %%
# Summary
# -------
# - Time with :class:`torch.utils.benchmark.Timer` (here through
#   :func:`~tutorial_utils.timing.benchmark`), not one :func:`time.perf_counter`
#   reading: warm up first, report the median of many runs (compare the
#   quickest on a busy machine), and say how many threads ran.
# - On a GPU, synchronise before every reading of the clock; otherwise you
#   time the queueing.
# - A Python loop over a tensor's elements takes time in proportion to their
#   number; extrapolated to a million, over 1,000 times a vectorised call's.
# - A fair comparison uses the same data, dtype and threads on both sides,
#   and counts the copies to and from the GPU.
# - 2·n³ divided by the time gives a matrix product's FLOP/s; above the
#   device's peak, where it is known, the measurement is broken.
#
# Next, :ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py`
# builds a neural network from these tensors. The helpers this page imports
# are documented in :doc:`/api`.
