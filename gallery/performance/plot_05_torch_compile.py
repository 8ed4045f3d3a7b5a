"""
Compiling with torch.compile
============================

Compile a function and a model with :func:`torch.compile`, measure what the
first call costs with an empty and a full cache, and work out after how many
calls compiling pays off.
"""
# sphinx_gallery_budget_seconds = 90, "compiles with an empty cache in a new process (tens of seconds on two cores), then a function and a model; a machine that never built the precompiled header adds about 10 s"

# %%
# The times on this page were measured while the page ran, on the machine
# the first line names; they change from run to run and machine to machine,
# so the checks compare them only as ratios, with wide margins. The page
# runs PyTorch on one thread (:func:`torch.set_num_threads`). On Linux,
# compiling for the CPU needs a C++ compiler (PyTorch writes C++ code and
# compiles it).
#
# .. detail:: Versions and platforms
#
#    Everything here runs with PyTorch 2.4 and newer on Linux. Newer Python
#    versions, and Windows, need newer PyTorch releases.
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
# The function below is the tanh approximation of the GELU activation,
# written out by hand as in GPT-2's code: eight :term:`element-wise`
# operations. Run as usual (*eagerly*), each one is a separate
# :term:`kernel` that reads whole tensors and writes a new one.
# :func:`torch.compile` returns a new function and compiles nothing yet. On
# the first call, *Dynamo* reads the function's Python bytecode and records
# its tensor operations as a graph; the default backend, *inductor*, fuses
# them into one kernel (:term:`kernel fusion`), written as C++ on a CPU
# (Triton on a GPU), then compiles and loads it.
def gelu(x):
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608 * (x + 0.044715 * x**3)))


compiled_gelu = torch.compile(gelu)

# %%
# What the first call costs
# -------------------------
# Inductor keeps what it compiles in a cache on disk: by default a folder
# ``torchinductor_<user>`` in the temporary directory. How long a first call
# takes depends on what that folder already holds. To see both cases, this
# page runs a small program twice, each time in a new Python process. Both
# runs get one new, empty folder as their temporary directory (the
# ``TMPDIR`` environment variable): the first run starts with an empty
# cache, and the second finds it full. The program compiles the same
# function, times its first call and prints the seconds.
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


wall = "wall clock"  # the compiler runs as processes of its own
claim = "an empty cache makes the first call slower"
ratio = check_timing(claim, empty_over_full, above=1.2, clock=wall, attempts=2).value
print(f"empty cache / full cache: {ratio:.1f}")


# %%
# With an empty cache, the first call took longer, by the factor printed
# above. Much of that time is the compiler's set-up. Inductor compiles small test programs
# that check which vector instructions the CPU can run. Then inductor
# compiles the kernel. The second run found all of this in the folder.
#
# This page's own process now uses the same folder
# (``TORCHINDUCTOR_CACHE_DIR``, read before each compilation), so it finds
# the test programs compiled. The result of ``compiled_gelu`` agrees with
# the eager function and with :func:`torch.nn.functional.gelu`
# (``approximate="tanh"``) up to rounding.
#
# .. detail:: A full cache saves less in PyTorch 2.4
#
#    In 2.4 the cache keeps the compiled kernels, but not the graph that
#    inductor made them from: its *FX graph cache* is off by default there,
#    and on in 2.13. So with 2.4 a full cache skips less of the work, and
#    the factor is smaller.
#
# .. detail:: The precompiled header
#
#    Recent releases also precompile, in the set-up, a C++ header that every
#    kernel includes. Inductor keeps it in its default folder, under the
#    temporary folder (``TMPDIR``), whatever ``TORCHINDUCTOR_CACHE_DIR`` says,
#    and builds it there once for each compiler and set of flags.
(inductor_folder,) = Path(cache_folder.name).glob("torchinductor_*")
os.environ["TORCHINDUCTOR_CACHE_DIR"] = str(inductor_folder)
torch.manual_seed(0)
x = torch.randn(10**6)
y = compiled_gelu(x)

# %%
# .. check:: the results agree; the set-up compiled probes and a header, kept in the default folder; the FX graph cache's default
torch.testing.assert_close(y, gelu(x))
torch.testing.assert_close(y, F.gelu(x, approximate="tanh"))
# The first run set up the compiler: the probes' sources, and (2.13) a
# precompiled header.
written = list(Path(cache_folder.name).rglob("*"))
probes = [f for f in written if f.suffix == ".cpp" and "_chk_kernel" in f.read_text()]
assert probes, "the first run compiled test programs for vector instructions"
codecache, config = torch._inductor.codecache, torch._inductor.config  # loaded
if getattr(config, "cpp_cache_precompile_headers", False):
    assert any(f.suffix == ".gch" for f in written), "and precompiled a header"
if hasattr(codecache, "cache_dir"):
    assert codecache.cache_dir() == str(inductor_folder)
if hasattr(codecache, "_HEADER_DIR"):  # 2.13: the header is in the default folder
    assert codecache._HEADER_DIR.startswith(tempfile.gettempdir())
    assert not codecache._HEADER_DIR.startswith(str(inductor_folder))
if torch.__version__ < (2, 5) or torch.__version__ >= (2, 13):  # the defaults
    assert config.fx_graph_cache == (torch.__version__ >= (2, 13))


# %%
# Speed once compiled
# -------------------
# Later calls find the compiled code ready. To compare eager and compiled,
# ``quickest`` times each with :class:`~torch.utils.benchmark.Timer` (on
# one thread, a Timer's default), in turns, and keeps the quickest run of
# each. It reads the thread's CPU time (``timer=time.thread_time``, as on
# :ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`),
# which leaves out any wait for a CPU that other programs hold.
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
# Here the compiled function is more than 1.2 times as fast,
# on this machine and at this size, with the vector instructions inductor
# writes for its CPU. Part of the gain is fusion: eight eager kernels, each
# reading and writing at least 4 MB, and seven temporaries, become one
# kernel that reads ``x`` once and writes once. Part need not be: that
# kernel computes ``tanh`` itself, not with eager's ``tanh`` kernel, so
# ``tanh`` alone, with nothing to fuse, can run at another speed too,
# depending on the build and the CPU. Here:
#
# .. detail:: Inductor's tanh by version
#
#    Inductor's kernel computes ``tanh`` from ``exp`` in PyTorch 2.4, and
#    with ATen's vectorised ``tanh`` in 2.13.
compiled_tanh = torch.compile(torch.tanh)
alone = quickest({"eager": torch.tanh, "compiled": compiled_tanh}, x)
print(f"tanh alone: compiled is {alone['eager'] / alone['compiled']:.1f} times as fast")

# %%
# .. check:: compiled ``tanh`` agrees with eager; inductor computes it from ``exp`` in 2.4, not in 2.13
torch.testing.assert_close(compiled_tanh(x), torch.tanh(x))
if torch.__version__ < (2, 5) or torch.__version__ >= (2, 13):  # exp, or not
    decompose = getattr(torch._inductor.config.cpp, "use_decompose_tanh", True)
    assert decompose == (torch.__version__ < (2, 5))

# %%
# When compiling pays off
# -----------------------
# When the compiled function is the quicker one, as here, the first call
# costs ``first_call - eager`` more than an eager call, and every later call
# saves ``eager - compiled``. So the compiled function is ahead after
# ``(first_call - eager) / (eager - compiled)`` calls beyond the first. How
# soon that comes depends on the cache, so the count is worked out for both
# first calls measured above. Those are wall-clock times: the compiler runs
# in processes of its own, which one thread's CPU time would leave out. A
# ratio compares like with like, so the calls are timed in wall-clock time
# here too:
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
    print(f"{state} cache: ahead after {calls:,.0f} later calls")

n_calls = torch.logspace(0, torch.log10(torch.tensor(30 * break_even["empty"])), 200)

# %%
# The total time of each, against the number of calls: eager grows in
# proportion from the first call; compiled starts with its first call's cost
# and catches up at the break-even point (dotted), after which it keeps
# gaining. A job that calls the function fewer times is quicker eager.
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
# A small model
# -------------
# :func:`torch.compile` takes a :class:`torch.nn.Module` too. Here it
# compiles an :class:`~tutorial_utils.models.MLP` (64 inputs, two hidden
# layers of 256, 10 outputs) for inference, under :class:`torch.no_grad`; a
# compiled training step also compiles the backward pass.
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
# The model's first call compiled new code, and took less than the
# empty-cache first call above: the test programs were compiled already. The
# model's work is almost all in three matrix products, which inductor here
# hands to the same library that eager PyTorch calls: little is left to
# fuse, and the two run within a factor of two of each other; the last line
# says which was quicker here.
#
# Summary
# -------
# - :func:`torch.compile` compiles on the first call. With an empty cache,
#   that call also sets up the compiler; a full cache keeps the set-up and
#   the kernel, and the first call takes less than half as long. When the
#   compiled code is the quicker, it pays off after
#   ``(first_call - eager) / (eager - compiled)`` later calls.
# - A compiled chain of element-wise operations (one fused kernel, which
#   computes ``tanh`` too) ran more than 1.2 times as fast here;
#   a model that is almost all matrix products ran within a factor of two of
#   eager. Compare the quickest of several runs, on your machine and sizes.
#
# Next, :ref:`sphx_glr_auto_examples_performance_plot_06_recompiles_and_graph_breaks.py`
# shows when a compiled function compiles again, and how to find and remove
# the places where Dynamo cannot record it.

# %%
# .. check:: the page leaves no cache folder behind, nor its process a setting that names it
os.environ.pop("TORCHINDUCTOR_CACHE_DIR")
cache_folder.cleanup()
# The process goes on to run other pages in the docs build: it forgets the
# folder, which is removed.
assert not Path(cache_folder.name).exists()
