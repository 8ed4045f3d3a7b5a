"""
Compiling with torch.compile
============================

After this page you can compile a function and a model with
:func:`torch.compile`. You can measure what the first call costs, with an
empty and a full cache, and after how many calls compiling pays off.

**Before this page:**
:ref:`sphx_glr_auto_examples_tensors_plot_04_arithmetic_and_broadcasting.py`,
:ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py` and
:ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`.
"""
# sphinx_gallery_budget_seconds = 90, "compiles with an empty cache in a new process (tens of seconds on two cores), then a function and a model; a machine that never built the precompiled header adds about 10 s"

# %%
# Times on this page come from the machine that the first line names. They
# change from run to run, so the checks compare ratios with wide margins.
# PyTorch runs on one thread here: :func:`torch.set_num_threads`.
#
# .. detail:: Versions and platforms
#
#    Everything here runs with PyTorch 2.4 and newer on Linux, with a C++
#    compiler. Newer Python versions and Windows need newer releases.
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch.utils.benchmark import Timer

from tutorial_utils.colours import PALETTE
from tutorial_utils.environment import environment_summary
from tutorial_utils.models import MLP
from tutorial_utils.timing import check_timing, format_time

device = torch.device("cpu")
torch.set_num_threads(1)
print(environment_summary(device))


# %%
# Compile a function
# ------------------
# The function below is GELU, a nonlinearity that can take ReLU's place in a
# model. It is :func:`torch.nn.functional.gelu` with ``approximate="tanh"``,
# written out as in GPT-2's code. It takes eight :term:`element-wise`
# operations, one of them :func:`torch.tanh`, the hyperbolic tangent. Run as
# usual, or *eagerly*, each operation is a :term:`kernel` of its own. It
# reads whole tensors and writes a new one.
#
# :func:`torch.compile` returns a new function and compiles nothing yet.
# The first call compiles, in two steps:
#
# 1. *Dynamo* reads the function's *bytecode*, the instructions Python
#    compiled it to. It records the tensor operations as a graph.
# 2. A *backend* turns the graph into code. The default one, *inductor*,
#    fuses the operations into one kernel: :term:`kernel fusion`. On the
#    CPU, it writes that kernel in C++, compiles it and loads it.
def gelu(x):
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608 * (x + 0.044715 * x**3)))


compiled_gelu = torch.compile(gelu)

# %%
# .. check:: ``gelu`` is eight operations
traced = torch.fx.symbolic_trace(gelu).graph.nodes
assert sum(node.op == "call_function" for node in traced) == 8

# %%
# What the first call costs
# -------------------------
# Inductor keeps what it compiles in a cache on disk: by default, a folder
# ``torchinductor_<user>`` in the temporary folder. How long a first call
# takes depends on what that folder holds. So a small program runs twice,
# each time in a new Python process: first with an empty cache, then a full
# one. It prints the seconds that ``compiled_gelu``'s first call takes.
program = """
import time
import torch
torch.set_num_threads(1)
def gelu(x):
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608 * (x + 0.044715 * x**3)))
compiled_gelu = torch.compile(gelu)
x = torch.randn(10**6)
tic = time.perf_counter()
compiled_gelu(x)
print(time.perf_counter() - tic)
"""

# %%
# Both runs get one new, empty folder as their temporary folder:
#
# - ``tempfile.TemporaryDirectory`` makes it.
# - ``env`` copies ``os.environ``, the environment variables, with
#   ``TMPDIR`` set to the new folder. It drops ``TORCHINDUCTOR_CACHE_DIR``,
#   which would move the cache.
# - ``empty_over_full`` empties it: ``shutil.rmtree`` deletes what
#   ``iterdir`` lists. Then :func:`subprocess.run` hands the program, a
#   string, to ``sys.executable``, this page's Python, after ``"-c"``.
#   ``capture_output=True, text=True`` keeps what it printed as the string
#   ``stdout``; ``check=True`` raises an error if it fails.
#
# ``check_timing`` gets the function and ``attempts=2``: it runs it again
# if the ratio, its ``value``, misses the bound. The program reads the wall
# clock, ``time.perf_counter``: the thread's CPU time would miss the C++
# compiler, a process of its own.
cache_folder = tempfile.TemporaryDirectory(prefix="compile-page-")
env = {**os.environ, "TMPDIR": cache_folder.name}
env.pop("TORCHINDUCTOR_CACHE_DIR", None)  # so that the whole cache is in TMPDIR
first_calls = {}


def empty_over_full():
    """Run the program with an empty cache, then a full one; the times' ratio."""
    for leftover in Path(cache_folder.name).iterdir():
        shutil.rmtree(leftover)  # an empty cache, on a second try too
    for cache in ("empty", "full"):
        command = [sys.executable, "-c", program]
        done = subprocess.run(
            command, env=env, capture_output=True, text=True, check=True
        )
        first_calls[cache] = float(done.stdout)
        print(f"first call, {cache} cache: {format_time(first_calls[cache])}")
    return first_calls["empty"] / first_calls["full"]


wall = "wall clock"
claim = "an empty cache makes the first call slower"
ratio = check_timing(claim, empty_over_full, above=1.2, clock=wall, attempts=2).value
print(f"empty cache / full cache: {ratio:.1f}")


# %%
# With an empty cache, the first call also sets up the compiler. Among
# other steps, inductor compiles small test programs. They check that the
# compiler and this PyTorch can use each set of *vector instructions* the
# CPU has. Such an instruction works on several numbers at once. Then
# inductor compiles the kernel. The second run found both compiled.
#
# Now this page's own process uses that folder too. ``glob`` finds it, and
# ``TORCHINDUCTOR_CACHE_DIR`` names it for inductor. ``compiled_gelu``
# agrees with ``gelu`` up to rounding.
#
# .. detail:: A full cache saves less in PyTorch 2.4
#
#    A full cache holds the compiled kernels. In 2.13 it also holds the code
#    inductor wrote for the whole :term:`FX graph`: its *FX graph cache*.
#    That cache is off by default in 2.4. So with 2.4, a process that finds
#    a full cache writes the graph's code again, but finds its kernels.
#
# .. detail:: The precompiled header
#
#    A C++ *header* is a file of declarations that C++ code includes. Every
#    kernel includes one large header. Recent releases, 2.13 among them,
#    compile it once in the set-up, for all kernels to use. Inductor keeps
#    it in its default folder. That is in the temporary folder as it was
#    when inductor loaded, whatever ``TORCHINDUCTOR_CACHE_DIR`` says.
#
# .. detail:: Without vector instructions
#
#    ``ATEN_CPU_CAPABILITY=default`` makes eager PyTorch use its plainest
#    CPU kernels. These skip the vector instructions of AVX2 and newer. In
#    2.13, inductor then writes kernels without vector code too. Those need
#    not beat eager. Inductor in 2.4 ignores the variable. To try it, set it
#    and a new, empty ``TORCHINDUCTOR_CACHE_DIR`` before starting Python.
(inductor_folder,) = Path(cache_folder.name).glob("torchinductor_*")
os.environ["TORCHINDUCTOR_CACHE_DIR"] = str(inductor_folder)
torch.manual_seed(0)
x = torch.randn(10**6)
y = compiled_gelu(x)

# %%
# .. check:: ``compiled_gelu`` agrees with ``gelu`` and ``F.gelu`` up to rounding
torch.testing.assert_close(y, gelu(x))
torch.testing.assert_close(y, F.gelu(x, approximate="tanh"))

# %%
# .. check:: the set-up compiled test programs and, in 2.13, a header
written = list(Path(cache_folder.name).rglob("*"))
probes = [f for f in written if f.suffix == ".cpp" and "_chk_kernel" in f.read_text()]
assert probes, "the first run compiled test programs for vector instructions"
codecache, config = torch._inductor.codecache, torch._inductor.config  # loaded
usable = getattr(torch._inductor, "cpu_vec_isa", codecache).valid_vec_isa_list()
assert len(probes) >= len(usable), "a test program for each usable set"
if getattr(config, "cpp_cache_precompile_headers", False):
    assert any(f.suffix == ".gch" for f in written), "and precompiled a header"

# %%
# .. check:: inductor now uses ``inductor_folder``, except for the header
if hasattr(codecache, "cache_dir"):
    assert codecache.cache_dir() == str(inductor_folder)
if hasattr(codecache, "_HEADER_DIR"):  # 2.13: the header is in the default folder
    assert codecache._HEADER_DIR.startswith(tempfile.gettempdir())
    assert not codecache._HEADER_DIR.startswith(str(inductor_folder))

# %%
# .. check:: ``ATEN_CPU_CAPABILITY=default`` drops inductor's vector code in 2.13
from unittest import mock

isa = getattr(torch._inductor, "cpu_vec_isa", torch._inductor.codecache)
if isa.valid_vec_isa_list() and not (2, 5) <= torch.__version__ < (2, 13):
    with mock.patch.dict(os.environ, {"ATEN_CPU_CAPABILITY": "default"}):
        plainest = isa.pick_vec_isa()
    assert bool(plainest) == (torch.__version__ < (2, 5)), plainest

# %%
# .. check:: the FX graph cache is on by default in 2.13, off in 2.4
if torch.__version__ < (2, 5) or torch.__version__ >= (2, 13):  # the defaults
    assert config.fx_graph_cache == (torch.__version__ >= (2, 13))

# %%
# .. check:: inductor wrote one C++ kernel for ``gelu``: one tensor in, one out
outputs = [f.read_text() for f in inductor_folder.rglob("*.py")]
outputs = [code for code in outputs if "def call(" in code]  # a graph's code
assert outputs, "inductor's code for the graph is in the folder"
for code in outputs:
    assert code.count("async_compile.cpp_pybinding(") == 1, "one C++ kernel"
    assert "cpp_pybinding(['const float*', 'float*']" in code, "one in, one out"


# %%
# Speed once compiled
# -------------------
# Later calls find the compiled code ready. ``quickest`` times each
# function with a :class:`~torch.utils.benchmark.Timer`, as on
# :ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`.
# The functions take turns, ``rounds`` times, and each keeps its quickest
# run. By default, the Timers read the thread's CPU time.
def quickest(functions, *args, rounds=15, clock=time.thread_time):
    """Seconds per call of each function: the quickest of `rounds` runs."""
    timers = {
        name: Timer("fn(*args)", globals={"fn": fn, "args": args}, timer=clock)
        for name, fn in functions.items()
    }
    runs = {name: [] for name in functions}
    for _ in range(rounds):
        for name, timer in timers.items():
            runs[name].append(timer.timeit(1).mean)
    return {name: min(times) for name, times in runs.items()}


big = quickest({"eager": gelu, "compiled": compiled_gelu}, x)
speedup = big["eager"] / big["compiled"]
print(f"eager {format_time(big['eager'])}, compiled {format_time(big['compiled'])}")
print(f"compiled is {speedup:.1f} times as fast, on 10⁶ float32 numbers")
cpu = "thread CPU time"
check_timing("the compiled function is quicker", speedup, above=1.2, clock=cpu)

# %%
# Part of the gain is fusion. Eager runs eight kernels, each reading and
# writing at least 4 MB. The fused kernel reads ``x`` once and writes once.
#
# Another part can come from ``tanh``. The fused kernel computes ``tanh``
# in its own loop, not with eager's ``tanh`` kernel. So below, ``tanh``
# alone is compiled and timed, with nothing to fuse. The last line divides
# eager's time by compiled's: above 1, inductor's ``tanh`` is the quicker.
#
# .. detail:: Inductor's tanh by version
#
#    In PyTorch 2.4, inductor's vector code computes ``tanh`` from ``exp``.
#    In 2.13 it calls, by default, the vectorised ``tanh`` of ATen,
#    PyTorch's library of eager kernels.
compiled_tanh = torch.compile(torch.tanh)
alone = quickest({"eager": torch.tanh, "compiled": compiled_tanh}, x)
print(f"tanh alone: compiled is {alone['eager'] / alone['compiled']:.1f} times as fast")

# %%
# .. check:: 10⁶ float32 numbers take 4 MB
assert x.numel() * x.element_size() == 4 * 10**6

# %%
# .. check:: compiled ``tanh`` agrees with eager
torch.testing.assert_close(compiled_tanh(x), torch.tanh(x))


# %%
# .. check:: inductor computes ``tanh`` from ``exp`` in 2.4, not in 2.13
if torch.__version__ < (2, 5) or torch.__version__ >= (2, 13):  # exp, or not
    decompose = getattr(torch._inductor.config.cpp, "use_decompose_tanh", True)
    assert decompose == (torch.__version__ < (2, 5))

# %%
# When compiling pays off
# -----------------------
# Write ``first_call`` for the first call's time, and ``eager`` and
# ``compiled`` for one later call's. The first call costs
# ``first_call - eager`` more than an eager call. When the compiled function
# is the quicker one, as here, each later call saves ``eager - compiled``.
# So it catches up after ``(first_call - eager) / (eager - compiled)`` later
# calls, here for both caches. :func:`math.ceil` rounds that up to
# a whole number. Like the first calls, the later ones are timed on the wall
# clock: ``clock=time.perf_counter``.
walls = quickest({"eager": gelu, "compiled": compiled_gelu}, x, clock=time.perf_counter)
claim = "compiled is quicker in wall-clock time too"
check_timing(claim, walls["eager"] / walls["compiled"], above=1, clock=wall)
saving = walls["eager"] - walls["compiled"]
claim = "even with a full cache, the first call costs more than an eager call"
check_timing(claim, first_calls["full"] / walls["eager"], above=1, clock=wall)
break_even = {
    state: (first - walls["eager"]) / saving for state, first in first_calls.items()
}
for state, calls in break_even.items():
    print(f"{state} cache: catches up after {math.ceil(calls):,} later calls")

# %%
# The figure plots the total time of eager and compiled calls against
# their number. ``torch.logspace`` spreads 200 numbers evenly on a log
# scale, from 1 to 30 times the empty-cache break-even. It takes powers of
# ten, and ``torch.log10`` gives the last one. Compiled starts at its first
# call's cost and catches up at the dotted line. That line is one call
# after the break-even, as the x-axis counts the first call too. A job with
# fewer calls is quicker eager.
n_calls = torch.logspace(0, torch.log10(torch.tensor(30 * break_even["empty"])), 200)
fig, ax = plt.subplots(figsize=(6, 3.6), layout="constrained")
ax.plot(n_calls, n_calls * walls["eager"], color=PALETTE[5], label="eager")
for state, colour in (("empty", 1), ("full", 2)):
    total = first_calls[state] + (n_calls - 1) * walls["compiled"]
    ax.plot(n_calls, total, color=PALETTE[colour], label=f"compiled, {state} cache")
    ax.axvline(break_even[state] + 1, color=PALETTE[colour], linestyle=":")
ax.set(xscale="log", yscale="log", xlabel="number of calls", ylabel="total seconds")
ax.set_title("GELU on 10⁶ float32 numbers, one thread")
ax.legend()
plt.show()

# %%
# .. check:: eager is quicker before the break-even point, compiled after
for state, calls in break_even.items():
    n = torch.tensor([calls + 0.5, calls + 1.5], dtype=torch.float64)  # calls in all
    compiled_total = first_calls[state] + (n - 1) * walls["compiled"]
    assert (compiled_total > n * walls["eager"]).tolist() == [True, False]

# %%
# A small model
# -------------
# :func:`torch.compile` also takes a :class:`torch.nn.Module`, such as the
# site's :class:`~tutorial_utils.models.MLP`. This one has 64 inputs, two
# hidden layers of 256 and 10 outputs. It runs for inference, under
# ``.eval()`` and :class:`torch.no_grad`. Its work is almost all in three
# matrix products. Inductor hands them to the library that eager PyTorch
# calls too, so little is left to fuse.
torch.manual_seed(0)
model = MLP(64, [256, 256], 10).eval()
compiled_model = torch.compile(model)
inputs = torch.randn(512, 64)
with torch.no_grad():
    tic = time.perf_counter()
    logits = compiled_model(inputs)
    first_model_call = time.perf_counter() - tic
    mlp = quickest({"eager": model, "compiled": compiled_model}, inputs)
model_ratio = mlp["eager"] / mlp["compiled"]
print(f"first call: {format_time(first_model_call)}")
print(f"eager {format_time(mlp['eager'])}, compiled {format_time(mlp['compiled'])}")
print(f"eager time / compiled time: {model_ratio:.2f}")
share = first_model_call / first_calls["empty"]
check_timing("the set-up is not paid again", share, below=1, clock=wall)
check_timing("within a factor of two, either way", model_ratio, above=0.5, clock=cpu)
check_timing("within a factor of two, either way", model_ratio, below=2, clock=cpu)

# %%
# .. check:: the compiled model returns the eager model's logits
with torch.no_grad():
    torch.testing.assert_close(logits, model(inputs))

# %%
# .. check:: inductor calls eager's ``addmm`` for the three matrix products
graph_codes = [f.read_text() for f in inductor_folder.rglob("*.py")]
graph_codes = [code for code in graph_codes if "def call(" in code]
assert any(code.count("extern_kernels.addmm(") == 3 for code in graph_codes)

# %%
# The model's first call compiled new code, yet took less than the
# empty-cache first call: this process had set up the compiler already.
#
# Summary
# -------
# - :func:`torch.compile` compiles on the first call. With an empty cache,
#   that call also sets up the compiler. A full cache makes it quicker.
# - When the compiled code is quicker, it pays off after
#   ``(first_call - eager) / (eager - compiled)`` later calls.
# - A chain of element-wise operations, fused into one kernel, ran over 1.2
#   times as fast here. A model of matrix products ran within a factor of two
#   of eager.
#
# Next, :ref:`sphx_glr_auto_examples_performance_plot_06_recompiles_and_graph_breaks.py`
# shows when a compiled function compiles again, and where Dynamo cannot
# record it.

# %%
# .. check:: the page removes its cache folder and the variable that names it
os.environ.pop("TORCHINDUCTOR_CACHE_DIR")  # the docs build runs other pages next
cache_folder.cleanup()
assert not Path(cache_folder.name).exists()

# %%
# .. _exercises-performance-05:
#
# Exercises
# ---------
# The solution hides behind a toggle; the check tests your answer.
#
# **Exercise 1.** A compiled function's first call takes ``first_call``
# seconds. Each later call takes ``compiled`` seconds, and each eager call
# ``eager`` seconds. After ``n`` later calls, the compiled function has taken
# ``first_call + n * compiled`` seconds; the same ``n + 1`` calls, eager, take
# ``(n + 1) * eager``. Write ``calls_to_pay_off(first_call, eager, compiled)``:
# the smallest ``int`` ``n``, 0 or more, for which the first is no more than
# the second. When compiled calls are not quicker, it returns ``None``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>


# %%
def calls_to_pay_off(first_call, eager, compiled):
    if compiled >= eager:
        return None  # the compiled function never catches up
    return max(0, math.ceil((first_call - eager) / (eager - compiled)))


print(calls_to_pay_off(first_calls["full"], walls["eager"], walls["compiled"]))

# %%
# .. raw:: html
#
#    </details>

# %%
# The check uses numbers that floats hold exactly. It compares the time
# spent after the answer's number of later calls, and after one fewer.
cases = [(1.5, 0.5, 0.25), (12.0, 0.5, 0.375), (0.25, 0.5, 0.25), (1.5625, 0.5, 0.25)]
cases += [(2.0, 0.25, 0.25), (2.0, 0.25, 0.5)]  # compiled calls not quicker
for first_call, eager, compiled in cases:
    n = calls_to_pay_off(first_call, eager, compiled)
    if compiled >= eager:
        assert n is None, "Exercise 1: calls that are not quicker never pay: None"
        continue
    assert isinstance(n, int), f"Exercise 1: {n!r} is not an int"
    assert n >= 0, "Exercise 1: a number of calls is 0 or more"
    assert first_call + n * compiled <= (n + 1) * eager, (
        f"Exercise 1: after {n} later calls, compiling still cost more"
    )
    assert n == 0 or first_call + (n - 1) * compiled > n * eager, (
        f"Exercise 1: {n - 1} later calls were already enough"
    )
print("Exercise 1: right")
