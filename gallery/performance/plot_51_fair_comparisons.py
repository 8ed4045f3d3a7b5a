"""
Fair timing comparisons
=======================

After this page you can spot the one-off cost of a first call, and keep it
out of a timing. You can also race PyTorch against NumPy with the same data,
dtype and threads, and lay the results out in one table.

**Before this page:**
:ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py` and
:ref:`sphx_glr_auto_examples_tensors_plot_08_tensors_and_numpy.py`.
"""

# %%
# The first two lines of output name the machine. Everything here runs on
# its CPU. ``thread_counts`` holds one thread and all of PyTorch's threads.
# The set drops the repeat on a machine where all means one.
import re
import time
from functools import partial

import matplotlib.pyplot as plt
import numpy as np
import torch
from threadpoolctl import threadpool_info, threadpool_limits
from torch.utils.benchmark import Compare, Timer

from tutorial_utils.devices import device_name
from tutorial_utils.environment import environment_summary
from tutorial_utils.timing import check_timing, format_time

print(environment_summary(torch.device("cpu")))
print(f"CPU: {device_name('cpu')}")
all_threads = torch.get_num_threads()
thread_counts = sorted({1, all_threads})

# %%
# The first call costs more
# -------------------------
# The first call of an operation can do one-off work that later calls skip.
# Some of it happens once a process, such as a library setting itself up.
# Some happens once a :term:`shape`, as in the case below.
#
# *x86* is the family of Intel's and AMD's CPUs. Many of them have *AVX-512*,
# instructions that work on 512 bits at once.
#
# On such CPUs, PyTorch hands the bfloat16 matrix products below to oneDNN,
# a CPU library that comes with PyTorch. oneDNN compiles a kernel for each
# new shape the first time it meets it, and caches it for later calls.
#
# The code times the first 64-by-64 product, then the quickest later call.
# It repeats this for a new shape, 80 by 80. The 64-by-64 product is the
# page's first bfloat16 product, so it may also pay for oneDNN's start-up.
# The 80-by-80 one shows the cost of a new shape alone.
#
# Both timings read the thread's CPU time, with PyTorch on one thread.
# ``torch.set_num_threads(1)`` sets that for the first call. Then
# ``torch.set_num_threads(all_threads)`` puts the count back. A Timer does
# the same by itself.
#
# Where :func:`torch.backends.cpu.get_cpu_capability` returns ``"AVX512"``,
# the check asks for a first call over three times as long as the quickest
# later one. On other CPUs the first call may be only a little slower.
#
# A Timer's :meth:`~torch.utils.benchmark.Timer.timeit` and
# :meth:`~torch.utils.benchmark.Timer.blocked_autorange` never time the first
# call of their statement: each makes unmeasured calls first. The site's
# ``benchmark`` still makes a warm-up call of its own before its Timer
# starts, as the detail explains. A first call timed by hand keeps its
# one-off cost.
#
# .. detail:: Why ``benchmark`` warms up first
#
#    ``blocked_autorange`` uses its first untimed calls to choose how many
#    calls a block holds. It wants blocks long enough that reading the clock
#    costs little beside them. A slow first call among the untimed ones makes
#    it choose too few calls. The blocks are then short, and the clock's cost
#    weighs more in each.
#
# .. detail:: Which CPUs use oneDNN here
#
#    On x86, PyTorch sends bfloat16 products to oneDNN only on CPUs with the
#    AVX-512 instructions that its ``"AVX512"`` level requires. CPUs with
#    AVX-NE-CONVERT, newer Intel instructions that convert numbers to and
#    from bfloat16, qualify too. ARM CPUs follow other rules. PyTorch asks
#    ``torch.ops.mkldnn._is_mkldnn_bf16_supported()``, an internal function.
#    MKL-DNN is oneDNN's old name.
torch.manual_seed(0)
capability = torch.backends.cpu.get_cpu_capability()
print(f"CPU capability: {capability}")
for n in (64, 80):
    a16 = torch.randn(n, n, dtype=torch.bfloat16)
    torch.set_num_threads(1)
    tic = time.thread_time()
    a16 @ a16
    first_call = time.thread_time() - tic
    torch.set_num_threads(all_threads)
    timer = Timer("a16 @ a16", globals={"a16": a16}, timer=time.thread_time)
    fastest = min(timer.timeit(10).mean for _ in range(5))
    ratio = first_call / fastest
    print(
        f"{n}x{n}: first call {format_time(first_call)}, quickest later call "
        f"{format_time(fastest)}: {ratio:.0f} times longer"
    )
    if capability == "AVX512":
        claim = {
            64: "the first call did one-off work",
            80: "the first call of a new shape compiled a kernel",
        }[n]
        check_timing(claim, ratio, above=3, clock="thread CPU time")

# %%
# .. check:: with ``"AVX512"``, PyTorch sends bfloat16 products to oneDNN
if capability == "AVX512":
    assert torch.ops.mkldnn._is_mkldnn_bf16_supported()

# %%
# .. check:: ``timeit`` and ``blocked_autorange`` make unmeasured calls first
calls = []
Timer("calls.append(1)", globals={"calls": calls}).timeit(10)
assert len(calls) > 10
calls.clear()
counted = Timer("calls.append(1)", globals={"calls": calls}).blocked_autorange(
    min_run_time=0.01
)
assert len(calls) > counted.number_per_run * len(counted.times)

# %%
# .. check:: a slow first call makes ``blocked_autorange`` choose smaller blocks
import statistics

made = []


def slow_first_call() -> None:
    if not made:
        time.sleep(0.02)  # one-off work, longer than min_run_time
    made.append(1)


blocks = [
    Timer("f()", globals={"f": slow_first_call}).blocked_autorange(min_run_time=0.01)
    for _ in range(2)
]
cold, warm = (block.number_per_run for block in blocks)
assert cold < warm, f"{cold} calls a block with the slow first call, {warm} after"
short, long = (statistics.median(block.raw_times) for block in blocks)
assert short < long, "fewer calls a block make shorter blocks"

# %%
# PyTorch and NumPy, one thread and all
# -------------------------------------
# A fair race gives both libraries the same work:
#
# 1. the same numbers: ``.numpy()`` shares a tensor's memory;
# 2. the same :term:`dtype`: NumPy's default floating-point dtype is
#    float64, PyTorch's float32;
# 3. the same number of threads.
#
# A Timer sets PyTorch's threads with ``num_threads=``. NumPy hands a
# floating-point matrix product to a :term:`BLAS` library. That library has
# threads of its own. The ``threadpoolctl`` package sets them, for the
# libraries it recognises, with two functions:
#
# - ``threadpool_limits`` sets how many threads those libraries may use;
# - ``threadpool_info()`` lists those libraries, one dict each.
#
# In each dict, ``"user_api"`` says what the library provides, such as
# ``"blas"``. ``"internal_api"`` names the library.
#
# NumPy's pip packages for Linux and Windows bring OpenBLAS. PyTorch's
# official x86 builds use Intel's MKL instead. So which library wins
# depends on the machine.
#
# .. detail:: BLAS libraries it recognises
#
#    ``threadpool_limits`` recognises the OpenBLAS of NumPy's pip packages
#    for Linux and Windows. It does not recognise Apple's Accelerate, which
#    those packages use on macOS 14 and later. A process can hold several
#    BLAS libraries: SciPy's pip packages bring their own OpenBLAS.
blas = [lib["internal_api"] for lib in threadpool_info() if lib["user_api"] == "blas"]
print(f"BLAS that threadpoolctl controls here: {', '.join(blas) or 'none'}")
a, b = torch.randn(500, 500), torch.randn(500, 500)
a_np, b_np = a.numpy(), b.numpy()  # the same numbers, shared with the tensors

# %%
# .. check:: NumPy's pip packages for Linux and Windows bring OpenBLAS
import importlib.metadata
import sys

built_with = np.show_config(mode="dicts")["Build Dependencies"]["blas"]["name"]
installer = importlib.metadata.distribution("numpy").read_text("INSTALLER") or ""
if sys.platform in ("linux", "win32") and installer.strip() in ("pip", "uv"):
    assert "openblas" in built_with, built_with
    assert "openblas" in blas, "threadpool_limits controls NumPy's OpenBLAS"

# %%
# .. check:: the default floating-point dtypes are float64 and float32
assert np.zeros(1).dtype == np.float64
assert torch.zeros(1).dtype == torch.get_default_dtype() == torch.float32

# %%
# .. check:: NumPy computes the same product; PyTorch's x86 builds use MKL
torch.testing.assert_close(torch.from_numpy(a_np @ b_np), a @ b, rtol=1e-4, atol=1e-4)
assert np.array_equal(np.matmul(a_np, b_np), a_np @ b_np), "@ is np.matmul"
if capability.startswith("AVX"):  # an x86 CPU
    assert torch.backends.mkl.is_available()


# %%
# .. check:: ``threadpool_limits`` sets the threads of NumPy's BLAS
def pool_threads(api: str) -> list[int]:
    return [i["num_threads"] for i in threadpool_info() if i["user_api"] == api]


before = {api: pool_threads(api) for api in ("blas", "openmp")}
with threadpool_limits(limits=1, user_api="blas"):
    limited = pool_threads("blas")
    assert pool_threads("openmp") == before["openmp"], "BLAS libraries only"
assert limited == [1] * len(blas), limited
assert pool_threads("blas") == before["blas"], "the limit ends with the with block"

# %%
# :class:`torch.utils.benchmark.Compare` lays the medians of several
# Measurements out as a table. Each Timer names its place in it: ``label``
# titles the table, ``description`` names a column and ``sub_label`` a row.
# Rows are grouped by thread count. All Timers here share one ``sub_label``,
# so each thread count gets one row, "median time". Unlike a printed
# Measurement, the table holds no memory address.
#
# ``np.matmul`` is NumPy's matrix product, the function behind ``@``. In
# ``with threadpool_limits(limits=threads, user_api="blas"):``, the limit
# holds for BLAS libraries only, and only inside the ``with`` block.
#
# ``a.numpy()`` keeps the tensor's dtype, so both sides race in float32.
# The race appends torch's Measurement, then NumPy's, for each thread count.
# So ``race[::2]`` holds torch's, and ``race[1::2]`` NumPy's. A Measurement
# keeps its Timer's settings in ``task_spec``, such as ``num_threads`` and
# ``description``. More threads need not be faster, on a busy machine
# especially.
label = f"{a_np.dtype} product of two 500 x 500 matrices"
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
            label=label,
            sub_label="median time",
            description=library,
        )
        with threadpool_limits(limits=threads, user_api="blas"):
            race.append(timer.blocked_autorange(min_run_time=0.2))
table = str(Compare(race))
print(table)
for torch_run, numpy_run in zip(race[::2], race[1::2], strict=True):
    ratio = numpy_run.median / torch_run.median
    threads = torch_run.task_spec.num_threads
    print(f"threads={threads}: NumPy's time / torch's = {ratio:.2f}")

# %%
# .. check:: a Compare table holds no memory address
assert not re.search(r"0x[0-9A-Fa-f]+", table), "a Compare table holds no address"

# %%
# .. check:: one row a thread count; both sides in float32
assert table.count("median time") == len(thread_counts), table
assert a_np.dtype == b_np.dtype == np.float32, "float32 on both sides"

# %%
# The bars show the same medians. ``ax.barh`` draws horizontal bars, one a
# name.
fig, ax = plt.subplots(figsize=(5.5, 2.8), layout="constrained")
names = [
    f"{run.task_spec.description}, {run.task_spec.num_threads} thread(s)"
    for run in race
]
ax.barh(names, [run.median * 1e3 for run in race])
ax.set(xlabel="median time (ms)", title=label)
plt.show()

# %%
# Summary
# -------
# - A first call can do one-off work; time later calls, or warm up first.
# - Race two libraries on the same numbers, dtype and thread count.
# - ``threadpool_limits`` sets the threads of NumPy's BLAS.
# - A :class:`~torch.utils.benchmark.Compare` table lays out several
#   Measurements.
#
# Back to the core path:
# :ref:`sphx_glr_auto_examples_performance_plot_02_matrix_products_and_peak.py`
# compares the rate of a matrix product with the hardware's peak.
