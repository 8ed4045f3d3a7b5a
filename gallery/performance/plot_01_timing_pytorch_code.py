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
# Every time on this page was measured by running it, on the machine named
# in the first line of output. Times are the one thing on this site that
# changes from run to run and from machine to machine: yours will differ, and
# so may the ratios between them. The checks in this page's source only test
# what holds everywhere (a loop is slower than one vectorised call, a bigger
# product takes longer), never an absolute time.
import time
from functools import partial

import matplotlib.pyplot as plt
import numpy as np
import torch
from threadpoolctl import threadpool_limits
from torch.utils.benchmark import Timer

from tutorial_utils.devices import device_name, pick_device
from tutorial_utils.environment import environment_summary
from tutorial_utils.plotting import PALETTE
from tutorial_utils.timing import (
    benchmark,
    byte_rate,
    comparison_table,
    describe_peak,
    flop_rate,
    format_rate,
    format_time,
    matmul_flop,
    matmul_precision,
    synchronize,
)

device = pick_device()
all_threads = torch.get_num_threads()
thread_counts = sorted({1, all_threads})
print(environment_summary(device))

# %%
# A timer that measures the right thing
# -------------------------------------
# :class:`torch.utils.benchmark.Timer` runs a statement in blocks of calls
# until enough time has passed (:meth:`~torch.utils.benchmark.Timer.blocked_autorange`)
# and reports the median time of one call. Two of its habits catch people
# out: it uses **one thread** unless told otherwise, whatever
# :func:`torch.get_num_threads` says, and a printed
# :class:`~torch.utils.benchmark.Measurement` contains a memory address,
# which changes on every run.
torch.manual_seed(0)
numbers = torch.rand(10**6, dtype=torch.float64)

raw = Timer("numbers.sum()", globals={"numbers": numbers})
measurement = raw.blocked_autorange(min_run_time=0.05)
print(f"threads used by Timer: {measurement.task_spec.num_threads}")
print(f"threads this process has: {all_threads}")

# sphinx_gallery_start_ignore
assert measurement.task_spec.num_threads == 1
assert " at 0x" in repr(measurement), "a printed Measurement shows its address"
# sphinx_gallery_end_ignore

# %%
# :func:`~tutorial_utils.timing.benchmark` wraps that timer. It calls the
# function once before measuring (the *warm-up*), takes the number of
# threads explicitly (by default all of PyTorch's), waits for the device to
# finish before every reading of the clock, and returns a
# :class:`~tutorial_utils.timing.Timing`: the median, the interquartile range
# (the middle half of the measurements lies in a band this wide), the number
# of measurements, the threads and the device. The notes this site grew from
# timed with the Timer's default of one thread, so this comparison does too.
vectorised = benchmark(
    lambda: torch.sum(numbers),
    label="torch.sum, 10⁶ numbers",
    threads=1,
    min_run_time=0.1,
)
print(vectorised)


# %%
# A Python loop against one vectorised call
# -----------------------------------------
# The notes add up a million float64 numbers twice: one at a time in a Python
# loop, and with one call to :func:`torch.sum`. Each pass through the loop
# picks one element out of the tensor and adds two 0-d tensors, all through
# the Python interpreter. A full million passes would eat much of this page's
# time budget, so the loop is timed on the first 2,500 and 10,000 numbers.
# Its time per number is about the same for both lengths: the loop's time
# grows in proportion to its length.
def python_sum(values: torch.Tensor) -> torch.Tensor:
    total = torch.zeros((), dtype=values.dtype)
    for i in range(len(values)):
        total += values[i]
    return total


per_number = {}
for count in (2_500, 10_000):
    loop = benchmark(
        partial(python_sum, numbers[:count]),
        label=f"Python loop, {count:,} numbers",
        threads=1,
        min_run_time=0.1,
    )
    per_number[count] = loop.median / count
    print(f"{loop}\n  per number: {format_time(per_number[count])}")

# sphinx_gallery_start_ignore
assert 0.5 < per_number[2_500] / per_number[10_000] < 2, per_number
# sphinx_gallery_end_ignore

# %%
# Scaled up to the million numbers :func:`torch.sum` added, the loop would
# take about a hundred times its 10,000-number time. The notes report the
# vectorised call about 7,000 times faster on their laptop; this machine:
loop_million = per_number[10_000] * numbers.numel()
speedup = loop_million / vectorised.median
print(f"Python loop, 10⁶ numbers: {format_time(loop_million)} (10,000 timed, x100)")
print(f"torch.sum,   10⁶ numbers: {format_time(vectorised.median)}")
print(f"torch.sum is about {speedup:,.0f} times faster")

# sphinx_gallery_start_ignore
assert speedup > 1000, speedup
# sphinx_gallery_end_ignore

# %%
# Both give the same sum to at least 13 significant digits (float64 keeps
# about 16). The last digits may differ: the loop adds left to right,
# :func:`torch.sum` in another order.
subset = numbers[:10_000]
print(f"Python loop: {python_sum(subset).item():.10f}")
print(f"torch.sum:   {torch.sum(subset).item():.10f}")

# sphinx_gallery_start_ignore
torch.testing.assert_close(python_sum(subset), torch.sum(subset), rtol=1e-13, atol=0)
# sphinx_gallery_end_ignore

# %%
# The first call costs more
# -------------------------
# On the CPU, an operation has finished when it returns, so
# :func:`time.perf_counter` read before and after one call measures that
# call. The catch is *which* call. The first time PyTorch meets an operation
# with a new dtype or shape, it does extra work: it picks and prepares a
# kernel, allocates memory, sometimes loads code. Below, a bfloat16 product
# of a shape this page has not used before is timed once with
# :func:`time.perf_counter`, then with the helper, whose warm-up call absorbs
# that cost. Both run on one thread: ``threadpool_limits`` (from
# ``threadpoolctl``, which comes with scikit-learn) sets that for the first.
a16 = torch.randn(300, 200, dtype=torch.bfloat16)
b16 = torch.randn(200, 100, dtype=torch.bfloat16)
with threadpool_limits(limits=1):
    tic = time.perf_counter()
    a16 @ b16
    first_call = time.perf_counter() - tic
later = benchmark(partial(torch.matmul, a16, b16), label="later calls", threads=1)
print(f"first call: {format_time(first_call)}")
print(later)
print(f"the first call took {first_call / later.median:.0f} times the median")

# sphinx_gallery_start_ignore
assert first_call > later.median, (first_call, later)
# sphinx_gallery_end_ignore

# %%
# Synchronise before reading the clock
# ------------------------------------
# A GPU works through a queue. ``a_gpu @ b_gpu`` returns as soon as the
# product is *queued*, long before it is computed, so a
# :func:`time.perf_counter` loop around GPU calls measures how fast Python
# queues work: the classic timing mistake.
# :func:`~tutorial_utils.timing.synchronize` waits until the queue is empty
# (it calls :func:`torch.cuda.synchronize` on an NVIDIA GPU,
# :func:`torch.mps.synchronize` on a Mac, :func:`torch.accelerator.synchronize`
# elsewhere), and :func:`~tutorial_utils.timing.benchmark` calls it before
# every reading of the clock. Where there is a GPU, this cell shows both.
if device.type == "cpu":
    print("No GPU here: a CPU call returns when it is done, so nothing is queued.")
else:
    a_gpu = torch.randn(4096, 4096, device=device)
    b_gpu = torch.randn(4096, 4096, device=device)
    a_gpu @ b_gpu  # warm-up
    synchronize(device)
    tic = time.perf_counter()
    for _ in range(10):
        a_gpu @ b_gpu
    naive = (time.perf_counter() - tic) / 10
    synchronize(device)
    timed = benchmark(
        partial(torch.matmul, a_gpu, b_gpu), label="n=4096", device=device
    )
    print(f"perf_counter loop, not synchronised: {format_time(naive)} per product")
    print(f"benchmark, synchronised: {timed}")

# sphinx_gallery_start_ignore
if device.type == "cuda":
    assert naive < timed.median / 2, "the unsynchronised loop timed only the queueing"
# sphinx_gallery_end_ignore

# %%
# PyTorch and NumPy, one thread and all
# -------------------------------------
# A fair race gives both libraries the same product: the same numbers, the
# same dtype (NumPy's default is float64, PyTorch's float32) and the same
# number of threads. The helper sets PyTorch's threads; NumPy's come from
# the BLAS library it calls, which ``threadpool_limits`` sets. The two
# libraries ship different BLAS builds, so which one wins depends on the
# machine; the table shows what happened on this one. More threads are not
# always faster either: a small product has little work to share, and on a
# busy machine every thread waits for the slowest. The size, 500, is the
# notes' smaller one (see below).
a = torch.randn(500, 500)
b = torch.randn(500, 500)
a_np, b_np = a.numpy(), b.numpy()
race = []
for threads in thread_counts:
    race.append(benchmark(partial(torch.matmul, a, b), label="torch", threads=threads))
    with threadpool_limits(limits=threads, user_api="blas"):
        race.append(
            benchmark(partial(np.matmul, a_np, b_np), label="NumPy", threads=threads)
        )
print("float32 product of two 500 x 500 matrices, median time:")
print(comparison_table(race, rows="label", columns="threads"))

# sphinx_gallery_start_ignore
assert a_np.dtype == np.float32
torch.testing.assert_close(torch.from_numpy(a_np @ b_np), a @ b, rtol=1e-4, atol=1e-4)
assert [t.threads for t in race] == [t for t in thread_counts for _ in "ab"]
# sphinx_gallery_end_ignore

# %%
# Dividing one time by the other says which side was faster, and by how much:
for torch_timing, numpy_timing in zip(race[::2], race[1::2], strict=True):
    ratio = numpy_timing.median / torch_timing.median
    print(f"threads={torch_timing.threads}: NumPy's time / torch's = {ratio:.2f}")

# %%
# From small to large matrices
# ----------------------------
# A product of two n-by-n matrices takes 2·n³ floating-point operations:
# n² dot products, each of n multiplications and n additions
# (:func:`~tutorial_utils.timing.matmul_flop`). Doubling n multiplies the
# work by eight. Dividing the work by the time gives the rate the CPU
# achieved, in FLOP/s (:func:`~tutorial_utils.timing.flop_rate`). One
# thread, so that the rate is that of one core.
sizes = [32, 64, 128, 256, 512, 1024]
by_size = {}
for n in sizes:
    a, b = torch.randn(n, n), torch.randn(n, n)
    by_size[n] = benchmark(partial(torch.matmul, a, b), threads=1, min_run_time=0.05)
gflops = {n: flop_rate(t, matmul_flop(n)) / 1e9 for n, t in by_size.items()}
print("   n        time   GFLOP/s")
for n, timing in by_size.items():
    print(f"{n:4}  {format_time(timing.median):>10}  {gflops[n]:8.1f}")

# sphinx_gallery_start_ignore
assert 16 < by_size[1024].median / by_size[256].median < 256, by_size
# sphinx_gallery_end_ignore

# %%
# A 32-by-32 product is too small to keep the CPU busy: the fixed cost of any
# call (checking the arguments, choosing a kernel, allocating the result)
# weighs more than its 65,536 operations, and the rate is a fraction of the
# best. What this CPU's peak is, the helper does not know (it depends on the
# clock, the cores and the vector units), so
# :func:`~tutorial_utils.timing.describe_peak` says so instead of guessing.
best = max(gflops.values()) * 1e9
print(f"n=32: {gflops[32] * 1e9 / best:.0%} of the best rate")
print(f"best: {format_rate(best)} ({describe_peak(best, 'cpu', 'fp32')})")

# sphinx_gallery_start_ignore
assert gflops[32] * 1e9 < best / 2, gflops
# sphinx_gallery_end_ignore

# %%
# On logarithmic axes, the time climbs with slope 3 for the larger
# matrices, as 2·n³ says (the grey line), while the rate shows how far the
# small products are from the CPU's best.
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
# The notes time a 500-by-500 and a 5000-by-5000 product on a laptop CPU and
# its GPU. From their times:
notes = {500: (2.29e-3, 108.02e-6), 5000: (2.21, 57.88e-3)}  # CPU, GPU seconds
for n, (cpu_seconds, gpu_seconds) in notes.items():
    print(
        f"notes, n={n}: CPU {format_time(cpu_seconds)}, GPU "
        f"{format_time(gpu_seconds)}: {cpu_seconds / gpu_seconds:.0f} times faster"
    )

# sphinx_gallery_start_ignore
assert round(notes[500][0] / notes[500][1]) == 21
assert round(notes[5000][0] / notes[5000][1]) == 38
# sphinx_gallery_end_ignore

# %%
# Two things in that comparison are easy to miss. The CPU side ran on one
# thread, the Timer's default, while a GPU always computes with all of its
# cores. And the
# matrices were already on the GPU: copying them there is a cost of its own,
# paid every time data comes from the CPU. This machine's CPU did the
# smaller product in the race above:
print(f"the notes' laptop CPU, 1 thread: {format_time(notes[500][0])}")
for timing in race[::2]:
    print(f"this machine's CPU, threads={timing.threads}: {format_time(timing.median)}")

# %%
# Where there is a GPU, this cell times each product on all CPU threads and
# on the GPU, the copy of one matrix to the GPU separately (its rate from
# :func:`~tutorial_utils.timing.byte_rate`), and how close the GPU came to
# its published peak. A float32 product on an NVIDIA GPU may run in the
# faster, less precise TF32 format;
# :func:`torch.get_float32_matmul_precision` says whether it may
# (``"highest"``: no).
if device.type == "cpu":
    print("No GPU on this machine: only the CPU side above was measured.")
else:
    print(f"float32 matmul precision: {torch.get_float32_matmul_precision()!r}")
    for n in (500, 5000):
        a, b = torch.randn(n, n), torch.randn(n, n)
        on_cpu = benchmark(partial(torch.matmul, a, b), label=f"n={n}, CPU")
        copy = benchmark(partial(a.to, device), label=f"n={n}, copy A", device=device)
        a_gpu, b_gpu = a.to(device), b.to(device)
        on_gpu = benchmark(
            partial(torch.matmul, a_gpu, b_gpu), label=f"n={n}, GPU", device=device
        )
        rate = flop_rate(on_gpu, matmul_flop(n))
        precision = matmul_precision(a_gpu.dtype, device)
        print(on_cpu, copy, on_gpu, sep="\n")
        print(f"  copy: {format_rate(byte_rate(copy, a.nbytes), 'B/s')}")
        print(f"  GPU: {format_rate(rate)}, {describe_peak(rate, device, precision)}")
        speedup = on_cpu.median / on_gpu.median
        with_copies = on_cpu.median / (on_gpu.median + 2 * copy.median)
        print(f"  GPU {speedup:.0f}x faster; {with_copies:.1f}x with copying A and B")

# %%
# Tensors on two devices
# ----------------------
# An operation takes its inputs from one device. Mixing a CPU tensor with a
# GPU tensor raises an error that names both devices; move one of them with
# :meth:`~torch.Tensor.to` first.
if device.type == "cpu":
    print("No GPU on this machine, so its tensors cannot be mixed up with the CPU's.")
else:
    on_gpu = torch.ones(2, 2, device=device)
    try:
        torch.ones(2, 2) @ on_gpu
    except RuntimeError as error:
        print(f"RuntimeError: {error}")
    else:
        raise AssertionError("a CPU tensor and a GPU tensor should not mix")
    print((torch.ones(2, 2).to(device) @ on_gpu).device)

# %%
# Summary
# -------
# - Time with :class:`torch.utils.benchmark.Timer` (here through
#   :func:`~tutorial_utils.timing.benchmark`), not with one
#   :func:`time.perf_counter` reading: warm up first, report the median of
#   many runs, and say how many threads ran.
# - On a GPU, synchronise before every reading of the clock; otherwise you
#   time the queueing.
# - A Python loop over tensor elements is thousands of times slower than one
#   vectorised call.
# - A fair comparison uses the same data, dtype and threads on both sides,
#   and counts the copies to the GPU.
# - 2·n³ divided by the time gives a matrix product's FLOP/s, to compare with
#   the device's peak where it is known; above the peak, the measurement is
#   broken.
#
# Next, :ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py`
# builds a neural network from these tensors. The helpers this page imports
# are documented in :doc:`/api`.
