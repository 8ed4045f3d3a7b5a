"""
Timing PyTorch code
===================

Time PyTorch code so that the number means something. After this page you
can time a statement with PyTorch's ``Timer``, choose the clock it reads and
say how many threads ran. You can compare a Python loop with one vectorised
call, and time GPU code without timing only its queue.

**Before this page:**
:ref:`sphx_glr_auto_examples_tensors_plot_01_creating_tensors.py`,
:ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py` and
:ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_selection.py`.
"""

# %%
# The times below come from the machine named in the first two lines of
# output. They change between runs, so the page checks ratios of times,
# with wide margins. The site's helper ``check_timing`` takes such a claim
# in words and the measured ratio. ``below=`` or
# ``above=`` gives the bound the ratio must meet, or it raises an
# ``AssertionError``. ``clock=`` is a label that names the clock the times
# came from. ``device_name`` names the CPU; ``format_time`` adds a unit to a
# time.
import re
import time
from functools import partial

import matplotlib.pyplot as plt
import torch
from torch.utils.benchmark import Timer

from tutorial_utils.devices import device_name, pick_device
from tutorial_utils.environment import environment_summary
from tutorial_utils.timing import benchmark, check_timing, format_time

device = pick_device()
print(environment_summary(device))
print(f"CPU: {device_name('cpu')}")

# %%
# PyTorch's Timer
# ---------------
# PyTorch can split one operation, a large sum say, among several CPU
# threads. ``torch.get_num_threads()`` says how many it may use.
#
# Like Python's ``timeit``, :class:`torch.utils.benchmark.Timer` times a
# statement given as a string. ``globals=`` holds the names it uses.
# :meth:`~torch.utils.benchmark.Timer.blocked_autorange` runs the statement
# in blocks of calls, for ``min_run_time`` seconds or more. Each block's time
# divided by its number of calls gives one call's time. The
# :class:`~torch.utils.benchmark.Measurement` it returns has a ``median``,
# the median of these times. Two habits surprise people:
#
# 1. A Timer lets PyTorch use one thread, unless ``num_threads=`` says
#    otherwise.
# 2. A printed Measurement's first line holds its memory address, which
#    differs from one Measurement to the next.
#
# The second Timer records the thread count it sees. ``timeit(5)`` makes two
# calls that it does not time, then times five. ``re.sub`` hides the
# address, so this page prints the same line each run.
torch.manual_seed(0)
numbers = torch.rand(10**6, dtype=torch.float64)
timer = Timer("numbers.sum()", globals={"numbers": numbers})
measurement = timer.blocked_autorange(min_run_time=0.05)
print(f"median of one call: {format_time(measurement.median)}")
seen = set()  # the thread counts that a timed statement sees
probe = Timer(
    "seen.add(torch.get_num_threads())", globals={"seen": seen, "torch": torch}
)
probe.timeit(5)
print(f"threads inside a Timer: {seen}, outside: {torch.get_num_threads()}")
first_line = repr(measurement).splitlines()[0]
print(re.sub(r"0x[0-9A-Fa-f]+", "0x...", first_line))

# %%
# .. check:: ``median`` is the median of one call's time over the blocks
import math
import statistics

one_call = [block / measurement.number_per_run for block in measurement.raw_times]
assert measurement.times == one_call, "one call's time in each block"
median = statistics.median(one_call)
assert math.isclose(measurement.median, median, rel_tol=1e-9), "their median"
assert sum(measurement.raw_times) >= 0.05, "blocks for min_run_time or more"

# %%
# .. check:: a Timer lets PyTorch use one thread
assert seen == {1}, "a Timer lets PyTorch use one thread"

# %%
# .. check:: ``timeit(5)`` times five calls, after two that it does not time
calls = []
five = Timer("calls.append(1)", globals={"calls": calls}).timeit(5)
assert (five.number_per_run, len(five.times)) == (5, 1), "one run of five calls"
assert len(calls) == 7, f"two untimed calls, then five timed; got {len(calls)}"

# %%
# .. check:: each Measurement's first line holds its own address
other_line = repr(Timer("pass").timeit(1)).splitlines()[0]
assert re.search(r"0x[0-9A-Fa-f]+", first_line), "a Measurement's address"
assert other_line != first_line, "another Measurement, another address"

# %%
# The site's helper :func:`~tutorial_utils.timing.benchmark` wraps a Timer.
# ``partial(torch.sum, numbers)`` is a function that calls
# ``torch.sum(numbers)``. The helper:
#
# 1. calls it once before timing, a *warm-up*, since a first call can do
#    one-off work;
# 2. runs on ``threads=`` threads, by default ``torch.get_num_threads()``;
# 3. waits for the device given by ``device=`` to finish its queued work
#    before each clock reading: the GPU section shows why;
# 4. returns a :class:`~tutorial_utils.timing.Timing`.
#
# The helper times blocks of calls for 0.2 s or more; each block is one
# *run*. A Timing prints ``label=``, the name of what was timed, then the
# median. With more than one run, it also prints the IQR: the middle half of
# the runs lie in a band this wide. ``threads=1`` matches the one-thread
# Timer above.
timing = benchmark(partial(torch.sum, numbers), label="torch.sum", threads=1)
print(timing)

# %%
# .. check:: ``benchmark`` calls once before its Timer; by default all threads
calls, calls_before_timer = [], []
real_timer = benchmark.__globals__["Timer"]  # the helper's Timer, spied on


def spy(*args, **kwargs):
    calls_before_timer.append(len(calls))
    return real_timer(*args, **kwargs)


benchmark.__globals__["Timer"] = spy
try:
    counted = benchmark(lambda: calls.append(1), min_run_time=0.01)
finally:
    benchmark.__globals__["Timer"] = real_timer
assert calls_before_timer == [1], calls_before_timer
assert (counted.threads, counted.device) == (torch.get_num_threads(), "cpu")

# %%
# .. check:: each run is one block of calls, timed for 0.2 s or more by default
measured, plain_timer = [], benchmark.__globals__["Timer"]


class Recorder(plain_timer):
    def blocked_autorange(self, *args, **kwargs):
        measured.append(super().blocked_autorange(*args, **kwargs))
        return measured[-1]


benchmark.__globals__["Timer"] = Recorder
try:
    by_default = benchmark(partial(torch.sum, numbers[:1000]), threads=1)
finally:
    benchmark.__globals__["Timer"] = plain_timer
assert by_default.runs == len(measured[0].times), "one run per block"
assert sum(measured[0].raw_times) >= 0.2, "blocks for 0.2 s or more"

# %%
# .. check:: a Timing prints its label and median, and the IQR of two runs or more
import dataclasses

assert str(timing).startswith(f"torch.sum: {format_time(timing.median)} median")
assert ("IQR" in str(timing)) == (timing.runs > 1)
assert "IQR" not in str(dataclasses.replace(timing, runs=1))
assert "IQR" in str(dataclasses.replace(timing, runs=2))

# %%
# Which clock
# -----------
# Two kinds of clock matter here:
#
# - *Wall-clock time* is what you wait. :func:`time.perf_counter` reads
#   it, and so does a Timer by default.
# - *CPU time* counts only the time a thread ran. :func:`time.thread_time`
#   reads it for the calling thread.
#
# On a busy machine, the wall clock also counts waits for a CPU that other
# programs hold. ``time.sleep`` waits without working, so it shows the
# difference. A Timer's ``timer=`` chooses its clock. The ``mean`` of what
# ``timeit(5)`` returns is the average time of one call.
nap = partial(time.sleep, 0.01)
wall = Timer("nap()", globals={"nap": nap}).timeit(5).mean
cpu = Timer("nap()", globals={"nap": nap}, timer=time.thread_time).timeit(5).mean
print(f"a 10 ms sleep: {format_time(wall)} wall clock, {format_time(cpu)} CPU time")

# %%
# .. check:: the wall clock counts a sleep, and CPU time leaves it out
check_timing(
    "the wall clock counts a sleep", wall / 0.01, above=0.5, clock="wall clock"
)
claim = "the thread's CPU time leaves a sleep out"
check_timing(claim, cpu / 0.01, below=0.1, clock="thread CPU time")


# %%
# A Python loop against one vectorised call
# -----------------------------------------
# A *vectorised* call works on a whole tensor at once: :func:`torch.sum`
# loops over the elements inside a compiled :term:`kernel`. A Python loop
# instead runs two PyTorch operations per number. ``values[i]`` gives a 0-d
# tensor, not a float, and ``+=`` adds it to ``total``, a 0-d tensor made by
# ``torch.zeros(())``. Each operation has a fixed cost, far above one
# addition's.
#
# The loop below measures the work each number costs. Waiting for a CPU is
# not work, so its Timers read the thread's CPU time. That clock counts only
# the thread that runs the Timer's statement.
#
# Each timed run adds 10,000 numbers. ``timeit(10_000 // count)`` repeats a
# loop over ``count`` numbers: ten loops over 1,000, four over 2,500, two
# over 5,000, or one over 10,000. Its ``mean`` is the time of one loop. Each
# length runs nine times, in turns, and its quickest run counts.
#
# A loop's time divided by its length is its time per number. If the time
# grows in proportion to the length, that time is the same for every length.
# The check lets the slowest time per number reach twice the quickest.
#
# .. detail:: Why the quickest run
#
#    Other programs can only add time to a run. So the quickest run is the
#    one they disturbed least. Taking the lengths in turns spreads a busy
#    spell over all of them. The thread's CPU time leaves out the waits for
#    a CPU. Programs that share the CPU's caches still slow the work itself.
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
# The dashed line runs from zero through the quickest run over 10,000
# numbers. The other quickest runs lie near it, as proportional growth
# predicts. The grey dots are all nine runs. ``ax.legend()`` adds the key.
fig, ax = plt.subplots(figsize=(5.5, 3.4), layout="constrained")
every_length = [count for count, times in runs.items() for _ in times]
every_time = [t * 1e3 for times in runs.values() for t in times]
ax.plot(every_length, every_time, ".", color="grey", label="every run")
milliseconds = [loop_times[count] * 1e3 for count in lengths]
ax.plot(lengths, milliseconds, "o", label="quickest run")
ax.plot([0, lengths[-1]], [0, milliseconds[-1]], "--", color="grey", label="∝ length")
ax.set(xlim=(0, None), ylim=(0, None), xlabel="numbers added by the loop")
ax.set(ylabel="milliseconds of CPU time", title="Python loop over a float64 tensor")
ax.legend()
plt.show()

# %%
# If the growth stays proportional, a loop over a million numbers takes a
# hundred times as long as one over 10,000. :func:`torch.sum` is also
# timed as the quickest of several runs, here five, in CPU time.
loop_million = loop_times[10_000] / 10_000 * numbers.numel()
fn = partial(torch.sum, numbers)
timer = Timer("fn()", globals={"fn": fn}, timer=time.thread_time)
summed = min(timer.timeit(10).mean for _ in range(5))
speedup = loop_million / summed
print(f"Python loop, 10⁶ numbers: {format_time(loop_million)} (10,000 timed, x100)")
print(f"torch.sum,   10⁶ numbers: {format_time(summed)}")
print(f"torch.sum is about {speedup:,.0f} times faster")
claim = "one vectorised call beats the loop by over 1000 times"
check_timing(claim, speedup, above=1000, clock="thread CPU time")

# %%
# Over the first 10,000 numbers, both give the same sum up to rounding: a
# relative difference below 10⁻¹³. ``atol=0`` turns off the absolute
# tolerance.
#
# .. detail:: Why the last digits differ
#
#    Each float addition rounds, so the order of the additions matters. The
#    loop adds from left to right; :func:`torch.sum` adds in another order.
#    After 10,000 roundings, the two sums differ in their last digits. So
#    the check allows 10⁻¹³, over 100 times float64's ``eps``.
subset = numbers[:10_000]
loop_total, vectorised_total = python_sum(subset), torch.sum(subset)
print(f"Python loop: {loop_total.item():.13f}")
print(f"torch.sum:   {vectorised_total.item():.13f}")
print(f"relative difference: {abs(loop_total / vectorised_total - 1).item():.1e}")
torch.testing.assert_close(loop_total, vectorised_total, rtol=1e-13, atol=0)

# %%
# .. check:: the two orders round differently; 10⁻¹³ is over 100 ``eps``
assert loop_total != vectorised_total
assert torch.finfo(torch.float64).eps < 1e-13 / 100


# %%
# Synchronise before reading the clock
# ------------------------------------
# On the CPU, an operation has finished when it returns. On a CUDA GPU,
# ``a_gpu @ b_gpu`` puts the product in the GPU's queue and returns, usually
# before the GPU has computed it. So a :func:`time.perf_counter` loop around
# GPU calls times mostly the queueing.
# :func:`torch.cuda.synchronize` waits until the current GPU has done all
# its queued work. Call it before every reading of the clock.
#
# On a CUDA GPU, this cell times one product four ways:
#
# 1. the first product, which also does one-off set-up work;
# 2. ten products without synchronising;
# 3. ten products, synchronised;
# 4. ``benchmark``, given ``device=device``.
#
# ``per_product`` returns the wall-clock time of one of ten products. With
# ``synchronise=True``, it waits for the GPU before its last clock reading.
#
# .. detail:: Which clocks wait for the GPU by themselves
#
#    A Timer's default clock waits for a CUDA GPU before each reading. In
#    newer versions, 2.13 among them, it waits for any accelerator, an Apple
#    GPU too. ``benchmark`` reads its own clock, which waits for the device
#    given by ``device=``. That device is the CPU by default, so GPU code
#    needs ``device=``. For an Apple GPU, the helper waits with
#    :func:`torch.mps.synchronize`.
def per_product(synchronise: bool) -> float:
    torch.cuda.synchronize()  # let any queued products finish
    tic = time.perf_counter()
    for _ in range(10):
        a_gpu @ b_gpu
    if synchronise:
        torch.cuda.synchronize()
    return (time.perf_counter() - tic) / 10


if torch.cuda.is_available():
    a_gpu = torch.randn(2048, 2048, device=device)
    b_gpu = torch.randn(2048, 2048, device=device)
    torch.cuda.synchronize()
    tic = time.perf_counter()
    a_gpu @ b_gpu  # the first product: one-off set-up, then the product
    torch.cuda.synchronize()
    first_gpu = time.perf_counter() - tic
    queued = per_product(synchronise=False)
    finished = per_product(synchronise=True)
    timed = benchmark(partial(torch.matmul, a_gpu, b_gpu), device=device)
    print(f"first product:    {format_time(first_gpu)}")
    print(f"not synchronised: {format_time(queued)} per product (queueing only)")
    print(f"synchronised:     {format_time(finished)} per product")
    print(f"benchmark: {timed}")
else:
    print("No CUDA GPU here (torch.cuda.is_available() is False): nothing timed.")

# %%
# .. check:: the first product costs more than later ones
if torch.cuda.is_available():
    # The GPU checks measure again, up to three times in all, when a busy CPU
    # upsets a reading; each reading is the quickest of three, for the same
    # reason. Ten products fit in the GPU's launch queue, so a clock reading
    # that does not synchronise never waits for them.
    check_timing(
        "the first product costs more",
        lambda: first_gpu / min(per_product(synchronise=True) for _ in range(3)),
        above=2,
        clock="wall clock",
        attempts=3,
    )

# %%
# .. check:: without synchronising, only the queueing is timed
if torch.cuda.is_available():
    check_timing(
        "without synchronising, only the queueing is timed",
        lambda: (
            min(per_product(synchronise=False) for _ in range(3))
            / min(per_product(synchronise=True) for _ in range(3))
        ),
        below=0.5,
        clock="wall clock",
        attempts=3,
    )

# %%
# .. check:: both synchronised timings agree within a factor of two
if torch.cuda.is_available():
    matmul = partial(torch.matmul, a_gpu, b_gpu)

    def agreement() -> float:
        median = benchmark(matmul, device=device).median
        return min(per_product(synchronise=True) for _ in range(3)) / median

    for bound in ({"above": 0.5}, {"below": 2}):
        check_timing(
            "both synchronised timings agree",
            agreement,
            **bound,
            clock="wall clock",
            attempts=3,
        )

# %%
# .. check:: a plain Timer waits for a CUDA GPU; ``benchmark`` defaults to the CPU
assert benchmark.__kwdefaults__["device"] == "cpu"
if torch.cuda.is_available():
    products = {"a_gpu": a_gpu, "b_gpu": b_gpu}

    def waited() -> float:
        # two untimed products, then ten timed: the queue holds all twelve,
        # so a Timer that did not wait would time only their queueing
        plain = Timer("a_gpu @ b_gpu", globals=products).timeit(10).mean
        return plain / min(per_product(synchronise=True) for _ in range(3))

    check_timing(
        "a plain Timer waits for the GPU",
        waited,
        above=0.5,
        clock="wall clock",
        attempts=3,
    )

# %%
# .. check:: in PyTorch 2.13, a Timer's default clock waits for any accelerator
from unittest import mock

from torch.utils.benchmark.utils import timer as benchmark_timer

if torch.__version__ >= (2, 13):
    accelerator = torch.accelerator
    with (
        mock.patch.object(accelerator, "is_available", return_value=True),
        mock.patch.object(accelerator, "synchronize") as synchronize,
    ):
        benchmark_timer.timer()  # the default clock of every Timer
    synchronize.assert_called_once()

# %%
# Summary
# -------
# - Time with a Timer or ``benchmark``, and say how many threads ran.
# - CPU time measures one thread's work; the wall clock, your wait.
# - On the CPU, a Python loop adding a million numbers takes over 1,000
#   times as long as one :func:`torch.sum`.
# - On a GPU, synchronise before reading the clock.
#
# Next, :ref:`sphx_glr_auto_examples_performance_plot_02_matrix_products_and_peak.py`
# counts the work of a matrix product and turns its time into a rate. The
# in-depth :ref:`sphx_glr_auto_examples_performance_plot_51_fair_comparisons.py`
# races PyTorch against NumPy. Exercises:
# :ref:`exercises-performance-01`.
