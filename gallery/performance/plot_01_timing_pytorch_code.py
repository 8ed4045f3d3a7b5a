"""
Timing PyTorch code
===================

Measure how long PyTorch code takes so that the number means something:
warmed up, on a stated number of threads, with the GPU synchronised. After
this page you can time a Python loop against a vectorised call, and PyTorch
against NumPy, and time GPU code without timing only its queueing.
"""

# %%
# Every time on this page was measured by running it, on the machine whose
# device and CPU the first two lines of output name. Times, and even their
# ratios, change between runs and machines; the checks compare times only with
# each other or with generous bounds, with wide margins.
# :func:`~tutorial_utils.timing.check_timing` checks such a claim: it names
# the claim, the clock the times came from and the bound, and a failure
# prints all three.
import re
import time
from collections.abc import Callable
from functools import partial

import matplotlib.pyplot as plt
import numpy as np
import torch
from threadpoolctl import threadpool_info, threadpool_limits
from torch.utils.benchmark import Compare, Timer

from tutorial_utils.colours import PALETTE
from tutorial_utils.devices import device_name, pick_device
from tutorial_utils.environment import environment_summary
from tutorial_utils.timing import benchmark, check_timing, format_time

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
first_line = repr(measurement).splitlines()[0]
print(re.sub(r"0x[0-9A-Fa-f]+", "0x...", first_line))

# %%
# .. check:: a Timer runs its statement on one thread; a Measurement's first line holds an address
assert seen == {1}, "a Timer runs its statement on one thread"
assert re.search(r"0x[0-9A-Fa-f]+", first_line), "a Measurement's address"

# %%
# :func:`~tutorial_utils.timing.benchmark` wraps that timer. It calls the
# function once before measuring (the *warm-up*, see below), takes the number
# of threads explicitly (by default all of PyTorch's), waits for the device
# to finish before every reading of the clock, and returns a
# :class:`~tutorial_utils.timing.Timing`: the median, the interquartile range
# (the middle half of the measurements lies in a band this wide), the number
# of measurements, the threads and the device. Here it times the same
# one-thread :func:`torch.sum` as the Timer above. Two medians taken at
# different moments need not agree: other programs running meanwhile add time
# to some runs, and more of them on a busy machine.
print(benchmark(partial(torch.sum, numbers), label="torch.sum", threads=1))


# %%
# A Python loop against one vectorised call
# -----------------------------------------
# A million float64 numbers can be added one at a time in a Python loop, or
# with one *vectorised* call, :func:`torch.sum`, whose loop over the elements
# runs inside a compiled :term:`kernel`. Each pass through the Python loop
# picks one element out of the :term:`tensor` and adds two 0-d tensors, each
# step going through the Python interpreter and PyTorch's dispatch. A million
# passes would take seconds, so each run of the loop adds 10,000 numbers: in
# ten loops over 1,000, four over 2,500, two over 5,000 or one over 10,000,
# timed by :meth:`~torch.utils.benchmark.Timer.timeit` (on one thread, a
# Timer's default).
#
# Choosing the clock is part of timing well. A Timer reads
# :func:`time.perf_counter` by default: *wall-clock* time, what you wait.
# On a busy machine, that includes the time the program waited for a CPU
# that other programs held. :func:`time.thread_time` reads *CPU time*: only
# the time this thread ran. The question here is how much work the loop
# does per number, so these Timers read CPU time (``timer=time.thread_time``).
# CPU time counts the calling thread only, which suits code on one thread.
# Wall-clock time is the right clock when waiting is part of the question:
# a GPU's queue (below), reading a file, several processes.
#
# Each length runs nine times, in turns, and its quickest run counts. Every
# length takes about as long per number, within a factor of two: the loop's
# time grows in proportion to its length.
def python_sum(values: torch.Tensor) -> torch.Tensor:
    total = torch.zeros((), dtype=values.dtype)
    for i in range(len(values)):
        total += values[i]
    return total


lengths = [1_000, 2_500, 5_000, 10_000]
runs = {count: [] for count in lengths}
for _ in range(9):
    for count in lengths:
        fn = partial(python_sum, numbers[:count])
        timer = Timer("fn()", globals={"fn": fn}, timer=time.thread_time)
        runs[count].append(timer.timeit(10_000 // count).mean)
loop_times = {count: min(times) for count, times in runs.items()}
for count, loop in loop_times.items():
    print(f"{count:6,} numbers: {format_time(loop)}, {format_time(loop / count)} each")
per_number = [loop_times[count] / count for count in lengths]
spread = max(per_number) / min(per_number)
print(f"slowest time per number / quickest: {spread:.2f}")
claim = "the loop's time grows in proportion to its length"
check_timing(claim, spread, below=2, clock="thread CPU time")

# %%
# Drawn against the length, the quickest runs lie close to a straight line
# through zero (dashed, through the longest loop's): a constant cost per
# number. The grey dots are all nine runs of each length.
fig, ax = plt.subplots(figsize=(5.5, 3.4), layout="constrained")
every_run = [(count, t * 1e3) for count, times in runs.items() for t in times]
ax.plot(*zip(*every_run, strict=True), ".", color="grey", label="every run")
milliseconds = [loop_times[count] * 1e3 for count in lengths]
ax.plot(lengths, milliseconds, "o", color=PALETTE[5], label="quickest run")
ax.plot([0, lengths[-1]], [0, milliseconds[-1]], "--", color="grey", label="∝ length")
ax.set(xlim=(0, None), ylim=(0, None), xlabel="numbers added by the loop")
ax.set(ylabel="milliseconds of CPU time", title="Python loop over a float64 tensor")
ax.legend()
plt.show()

# %%
# Scaled up to the million numbers :func:`torch.sum` adds (an extrapolation,
# from the proportional growth above), the loop takes a hundred times
# longer than the loop over 10,000. A ratio compares like with like: the
# loop's time is the quickest of nine runs in CPU time, so :func:`torch.sum`'s
# is too (of five runs of ten calls), not one of the medians above, which
# are wall-clock times.


def quickest(fn: Callable[[], object], calls: int = 1, runs: int = 5) -> float:
    """CPU seconds per call in the quickest of `runs` runs of `calls` calls each."""
    timer = Timer("fn()", globals={"fn": fn}, timer=time.thread_time)
    return min(timer.timeit(calls).mean for _ in range(runs))


loop_million = loop_times[10_000] / 10_000 * numbers.numel()
summed = quickest(partial(torch.sum, numbers), calls=10)
speedup = loop_million / summed
print(f"Python loop, 10⁶ numbers: {format_time(loop_million)} (10,000 timed, x100)")
print(f"torch.sum,   10⁶ numbers: {format_time(summed)}")
print(f"torch.sum is about {float(f'{speedup:.2g}'):,.0f} times faster")
claim = "one vectorised call beats the loop by over 1000 times"
check_timing(claim, speedup, above=1000, clock="thread CPU time")

# %%
# The two sums agree up to rounding: floating-point addition is not
# associative, and the loop adds left to right while :func:`torch.sum`
# keeps several partial sums. float64 holds about 16 significant digits
# (-log10 of its machine epsilon, ``eps`` of :class:`torch.finfo`, printed first);
# the relative difference stays below 10⁻¹³:
print(f"float64 digits: {-np.log10(torch.finfo(torch.float64).eps):.1f}")
subset = numbers[:10_000]
loop_total, vectorised_total = python_sum(subset), torch.sum(subset)
print(f"Python loop: {loop_total.item():.13f}")
print(f"torch.sum:   {vectorised_total.item():.13f}")
print(f"relative difference: {abs(loop_total / vectorised_total - 1).item():.1e}")
torch.testing.assert_close(loop_total, vectorised_total, rtol=1e-13, atol=0)

# %%
# The first call costs more
# -------------------------
# On the CPU, an operation has finished when it returns, so a clock read
# before and after one call measures that call; here, the thread's CPU time.
# The catch is *which* call: the first call of an operation can do one-off
# work that later calls skip, once per process (a library setting itself up)
# or once per :term:`shape`. On x86 CPUs with AVX-512
# (:func:`torch.backends.cpu.get_cpu_capability` returns ``"AVX512"``),
# PyTorch hands a matrix product of bfloat16 (16-bit) floats to oneDNN, a CPU
# library that comes with PyTorch, which compiles a kernel for each new shape
# the first time it meets it and keeps it in a cache. Below, the first
# 64-by-64 bfloat16 product, on one thread (:func:`torch.set_num_threads`), is
# timed against the quickest later ones, and then a first 80-by-80 product:
# a new shape, so slow again. The helper's warm-up call absorbs such costs.
print(f"CPU capability: {torch.backends.cpu.get_cpu_capability()}")
for n in (64, 80):
    a16 = torch.randn(n, n, dtype=torch.bfloat16)
    torch.set_num_threads(1)
    tic = time.thread_time()
    a16 @ a16
    first_call = time.thread_time() - tic
    torch.set_num_threads(all_threads)
    fastest = quickest(partial(torch.matmul, a16, a16), calls=10)
    print(
        f"{n}x{n}: first call {format_time(first_call)}, quickest later call "
        f"{format_time(fastest)}: {first_call / fastest:.0f} times longer"
    )
    if torch.backends.cpu.get_cpu_capability() == "AVX512":
        ratio = first_call / fastest
        check_timing(
            "the first call compiled a kernel", ratio, above=3, clock="thread CPU time"
        )

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
# does all of this: a warm-up call, then, before every reading of the clock,
# the wait for the device that it was given (:func:`torch.cuda.synchronize`
# on a CUDA GPU).
# On a machine with a CUDA GPU, this cell times one product three ways: ten
# calls without synchronising, ten with, and the helper's own runs (the
# rates that GPUs reach are the subject of the next page).
#
# .. detail:: Apple GPUs
#
#    For an Apple GPU, the helper waits with :func:`torch.mps.synchronize`.
if torch.cuda.is_available():
    a_gpu = torch.randn(2048, 2048, device=device)
    b_gpu = torch.randn(2048, 2048, device=device)
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
    wall = "wall clock"  # the GPU's queue is what these claims are about
    check_timing(
        "the first product set up cuBLAS", first_gpu / finished, above=2, clock=wall
    )
    claim = "without synchronising, only the queueing is timed"
    check_timing(claim, queued / finished, below=0.5, clock=wall)
    agree = finished / timed.median
    check_timing("both synchronised timings agree", agree, above=0.5, clock=wall)
    check_timing("both synchronised timings agree", agree, below=2, clock=wall)
else:
    print("No CUDA GPU here (torch.cuda.is_available() is False): nothing timed.")

# %%
# PyTorch and NumPy, one thread and all
# -------------------------------------
# A fair race gives both libraries the same product: the same numbers, the
# same :term:`dtype` (NumPy's default is float64, PyTorch's float32) and the
# same number of threads. A Timer sets PyTorch's threads (``num_threads=``),
# and ``threadpool_limits`` (from ``threadpoolctl``, installed with
# scikit-learn) those of the BLAS library NumPy calls, if it recognises it
# (the first line below names what it found). PyTorch's x86 builds use
# Intel's MKL, so which library wins depends on the machine.
#
# .. detail:: BLAS libraries it recognises
#
#    ``threadpool_limits`` recognises the OpenBLAS of NumPy's pip packages
#    for Linux and Windows. It does not recognise Apple's Accelerate, which
#    those packages use on macOS 14 and later.
blas = [lib["internal_api"] for lib in threadpool_info() if lib["user_api"] == "blas"]
print(f"BLAS that threadpoolctl controls here: {', '.join(blas) or 'none'}")
a, b = torch.randn(500, 500), torch.randn(500, 500)
a_np, b_np = a.numpy(), b.numpy()  # the same numbers, shared with the tensors

# %%
# .. check:: NumPy computes the same product, and ``threadpool_limits`` sets its BLAS threads
torch.testing.assert_close(torch.from_numpy(a_np @ b_np), a @ b, rtol=1e-4, atol=1e-4)
with threadpool_limits(limits=1, user_api="blas"):
    limited = [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]
assert limited == [1] * len(blas), limited

# %%
# :class:`torch.utils.benchmark.Compare` lays the medians of several Timers
# out as a table, by their labels: ``label`` titles it, each ``description``
# is a column and each ``sub_label`` a row, and rows are grouped by thread
# count. Unlike a printed Measurement, the table holds no memory address.
# :meth:`~torch.utils.benchmark.Timer.blocked_autorange` first runs the
# statement a few times, unmeasured, to choose how many calls a block holds,
# which also warms it up. More threads need not be faster, on a busy machine
# especially; how the rate a product reaches depends on its size is the
# subject of
# :ref:`sphx_glr_auto_examples_performance_plot_02_matrix_products_and_peak.py`.
race = []
for threads in thread_counts:
    for library, product in [
        ("torch", partial(torch.matmul, a, b)),
        ("NumPy", partial(np.matmul, a_np, b_np)),
    ]:
        timer = Timer(
            "product()",
            globals={"product": product},
            num_threads=threads,
            label=f"{a_np.dtype} product of two 500 x 500 matrices",
            sub_label="median time",
            description=library,
        )
        with threadpool_limits(limits=threads, user_api="blas"):
            race.append(timer.blocked_autorange(min_run_time=0.2))
table = str(Compare(race))
print(table)
for torch_run, numpy_run in zip(race[::2], race[1::2], strict=True):
    ratio = numpy_run.median / torch_run.median
    print(
        f"threads={torch_run.task_spec.num_threads}: NumPy's time / torch's = {ratio:.2f}"
    )

# %%
# .. check:: a Compare table holds no address, and ``blocked_autorange`` runs unmeasured calls first
assert not re.search(r"0x[0-9A-Fa-f]+", table), "a Compare table holds no address"
# blocked_autorange calls the statement before the calls it measures.
calls = []
counted = Timer("calls.append(1)", globals={"calls": calls}).blocked_autorange(
    min_run_time=0.01
)
assert len(calls) > counted.number_per_run * len(counted.times)

# %%
# Summary
# -------
# - Time with :class:`torch.utils.benchmark.Timer` (here also through
#   :func:`~tutorial_utils.timing.benchmark`), not one :func:`time.perf_counter`
#   reading: warm up first, report the median of many runs (compare the
#   quickest on a busy machine), and say how many threads ran.
# - Print the numbers a Measurement holds, or a
#   :class:`~torch.utils.benchmark.Compare` table of several, not the
#   Measurement itself: its first line holds a memory address.
# - On a GPU, synchronise before every reading of the clock; otherwise you
#   time the queueing.
# - A Python loop over a tensor's elements takes time in proportion to their
#   number; extrapolated to a million, over 1,000 times a vectorised call's.
# - A fair comparison uses the same data, dtype and threads on both sides.
#
# Next, :ref:`sphx_glr_auto_examples_performance_plot_02_matrix_products_and_peak.py`
# counts the work in a matrix product and compares the rate achieved with
# what the hardware can do. The helpers this page imports are documented in
# :doc:`/api`. Exercises for this page: :ref:`exercises-performance-01`.
