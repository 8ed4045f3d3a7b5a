"""
Compiling with torch.compile
============================

Compile a function and a model with :func:`torch.compile`, measure what the
first call costs and after how many calls compiling pays off, find the graph
breaks that split a function and remove them, and see when a new input
compiles again.
"""
# sphinx_gallery_budget_seconds = 60, "compiles with an empty cache in a new process (tens of seconds on two cores), then a function and a model"

# %%
# The times on this page were measured while the page ran, on the machine
# the first line names; they change from run to run and machine to machine,
# so the checks compare them only as ratios, with wide margins. The page
# runs PyTorch on one thread (:func:`torch.set_num_threads`). Everything
# here runs with PyTorch 2.4 and newer on Linux, where compiling for the CPU
# needs a C++ compiler (PyTorch writes C++ code and compiles it); newer
# Python versions, and Windows, need newer PyTorch releases.
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import matplotlib.pyplot as plt
import torch
import torch._dynamo
import torch.nn.functional as F
from torch.utils.benchmark import Timer

from tutorial_utils.colours import PALETTE
from tutorial_utils.environment import environment_summary
from tutorial_utils.models import MLP
from tutorial_utils.timing import check_timing, format_time

device = torch.device("cpu")
torch.set_num_threads(1)
print(environment_summary(device))

# sphinx_gallery_start_ignore
# Loading inductor imports torch.utils.mkldnn, whose TorchScript decorator
# warns (DeprecationWarning, torch 2.13) inside torch: Python hides that from
# a reader by default, but the page's test turns warnings into errors.
import logging
import warnings

warnings.filterwarnings(
    "ignore", "`torch.jit.script_method` is deprecated", DeprecationWarning
)
# sphinx_gallery_end_ignore


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
# takes depends on what that folder already holds. To start from an empty
# cache, this page runs a small program in a new Python process, whose
# temporary directory (the ``TMPDIR`` environment variable) is a new, empty
# folder. The program compiles the same function, times its first call and
# prints the seconds.
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
env.pop("TORCHINDUCTOR_CACHE_DIR", None)  # else inductor would not use TMPDIR
command = [sys.executable, "-c", program]
done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
empty_first_call = float(done.stdout)
print(f"first call, empty cache, new process: {format_time(empty_first_call)}")

# %%
# Now this page's own process uses the folder that program filled
# (``TORCHINDUCTOR_CACHE_DIR``, read before each compilation). Its first
# call of ``compiled_gelu`` finds the compiled kernel there: it traces the
# function and loads the kernel, and compiles nothing. The result agrees with
# the eager function and with :func:`torch.nn.functional.gelu`
# (``approximate="tanh"``) up to rounding.
(inductor_folder,) = Path(cache_folder.name).glob("torchinductor_*")
os.environ["TORCHINDUCTOR_CACHE_DIR"] = str(inductor_folder)
torch.manual_seed(0)
x = torch.randn(10**6)
tic = time.perf_counter()
y = compiled_gelu(x)
first_call = time.perf_counter() - tic
print(f"first call, full cache, this process: {format_time(first_call)}")
torch.testing.assert_close(y, gelu(x))
torch.testing.assert_close(y, F.gelu(x, approximate="tanh"))
wall = "wall clock"  # the compiler runs as processes of its own
claim = "an empty cache makes the first call slower"
check_timing(claim, empty_first_call / first_call, above=2, clock=wall)

# sphinx_gallery_start_ignore
codecache, config = torch._inductor.codecache, torch._inductor.config  # loaded
if hasattr(codecache, "cache_dir"):
    assert codecache.cache_dir() == str(inductor_folder)
if torch.__version__ < (2, 5) or torch.__version__ >= (2, 13):  # the defaults
    assert config.fx_graph_cache == (torch.__version__ >= (2, 13))
if config.fx_graph_cache:  # the kernel came from the folder
    assert torch._dynamo.utils.counters["inductor"]["fxgraph_cache_hit"] == 1
# What the set-up left in the folder: the probes' sources, and (2.13) the header.
written = list(Path(cache_folder.name).rglob("*"))
probes = [f for f in written if f.suffix == ".cpp" and "_chk_kernel" in f.read_text()]
assert probes, "the first run compiled test programs for vector instructions"
if getattr(config, "cpp_cache_precompile_headers", False):
    assert any(f.suffix == ".gch" for f in written), "and precompiled a header"
# sphinx_gallery_end_ignore

# %%
# With an empty cache, the first call was many times slower. Most of that
# time is the compiler's set-up, done once per cache folder: inductor
# compiles small test programs to learn which vector instructions the CPU
# has, and recent releases also precompile a C++ header that every kernel
# includes. Compiling new code in a folder already set up takes far less
# (the model below shows it).


# %%
# Speed once compiled
# -------------------
# Later calls find the compiled code ready. To compare eager and compiled,
# ``quickest`` times each with :class:`~torch.utils.benchmark.Timer` (on
# one thread, a Timer's default), in turns, and keeps the quickest run of
# each. It reads CPU time (``timer=time.thread_time``, as on
# :ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`),
# so other programs running meanwhile do not count.
def quickest(functions, *args, rounds=15):
    """CPU seconds per call of each function: the quickest of `rounds` runs."""
    timers = {
        name: Timer(
            "fn(*args)", globals={"fn": fn, "args": args}, timer=time.thread_time
        )
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
check_timing("the compiled function is quicker", speedup, above=1.5, clock=cpu)
claim = "even with a full cache, the first call costs more than an eager call"
check_timing(claim, first_call / big["eager"], above=1, clock=wall)

# %%
# Here the compiled function is more than one and a half times as fast,
# on this machine and at this size, with the vector instructions inductor
# writes for its CPU. Part of the gain is fusion: eight eager kernels, each
# reading and writing at least 4 MB, and seven temporaries, become one
# kernel that reads ``x`` once and writes once. Part need not be: that
# kernel computes ``tanh`` itself (from ``exp`` in 2.4, with ATen's
# vectorised ``tanh`` in 2.13), not with eager's ``tanh`` kernel, so
# ``tanh`` alone, with nothing to fuse, can run at another speed too,
# depending on the build and the CPU. Here:
compiled_tanh = torch.compile(torch.tanh)
torch.testing.assert_close(compiled_tanh(x), torch.tanh(x))
alone = quickest({"eager": torch.tanh, "compiled": compiled_tanh}, x)
print(f"tanh alone: compiled is {alone['eager'] / alone['compiled']:.1f} times as fast")

# sphinx_gallery_start_ignore
if torch.__version__ < (2, 5) or torch.__version__ >= (2, 13):  # exp, or not
    decompose = getattr(torch._inductor.config.cpp, "use_decompose_tanh", True)
    assert decompose == (torch.__version__ < (2, 5))
# sphinx_gallery_end_ignore

# %%
# When compiling pays off
# -----------------------
# When the compiled function is the quicker one, as here, the first call
# costs ``first_call - eager`` more than an eager call, and every later call
# saves ``eager - compiled``. So the compiled function is ahead after
# ``(first_call - eager) / (eager - compiled)`` calls beyond the first. How
# soon that comes depends on the cache, so the count is worked out for both
# first calls measured above:
saving = big["eager"] - big["compiled"]
first_calls = {"empty": empty_first_call, "full": first_call}
break_even = {
    state: (first - big["eager"]) / saving for state, first in first_calls.items()
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
ax.plot(n_calls, n_calls * big["eager"], color=PALETTE[5], label="eager")
for state, colour in (("empty", 1), ("full", 2)):
    total = first_calls[state] + (n_calls - 1) * big["compiled"]
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
    torch.testing.assert_close(logits, model(inputs))
    mlp = quickest({"eager": model, "compiled": compiled_model}, inputs)
model_ratio = mlp["eager"] / mlp["compiled"]
print(f"first call: {format_time(first_model_call)}")
print(f"eager {format_time(mlp['eager'])}, compiled {format_time(mlp['compiled'])}")
print(f"eager time / compiled time: {model_ratio:.2f}")
share = first_model_call / empty_first_call
check_timing("the set-up is not paid again", share, below=0.5, clock=wall)
check_timing("within a factor of two, either way", model_ratio, above=0.5, clock=cpu)
check_timing("within a factor of two, either way", model_ratio, below=2, clock=cpu)

# %%
# The model's first call compiled new code, and took far less than the
# empty-cache first call above: the cache folder was set up already. The model's work is almost all in three matrix products,
# which inductor here hands to the same library that eager PyTorch calls:
# little is left to fuse, and the two run within a factor of two of each
# other; the last line says which was quicker here.
#
# A new shape compiles again
# --------------------------
# Compiled code comes with :term:`guards <guard>`: conditions on the inputs
# (their dtype, :term:`shape`, device, and more) under which it is valid,
# checked at every call. A call that fails them compiles again, up to a
# limit (below); how often depends on ``dynamic=``. A *backend* takes the
# recorded graph (a ``torch.fx.GraphModule``) and example inputs, and
# returns something to call; this one counts the graphs and runs them as
# they are, generating no kernel. ``torch._dynamo.reset()`` forgets what
# was compiled, so that each setting starts afresh. Under each, the function
# gets 1,000, 2,000, 3,000 and 4,000 float32 numbers, then 4,000 float64:
graphs = []


def counting_backend(graph_module, example_inputs):
    graphs.append(graph_module)
    return graph_module.forward


def sigmoid_twice(x):
    return torch.sigmoid(x) * 2


print("dynamic=  graphs so far, after each call")
counts = {}
for dynamic in (False, True, None):
    torch._dynamo.reset()
    graphs.clear()
    compiled = torch.compile(sigmoid_twice, backend=counting_backend, dynamic=dynamic)
    counts[dynamic] = []
    for n in (1000, 2000, 3000, 4000):
        compiled(torch.randn(n))
        counts[dynamic].append(len(graphs))
    compiled(torch.randn(4000, dtype=torch.float64))
    counts[dynamic].append(len(graphs))
    print(f"{dynamic!s:9} {counts[dynamic]}")
assert counts == {False: [1, 2, 3, 4, 5], True: [1, 1, 1, 1, 2], None: [1, 2, 2, 2, 3]}

# sphinx_gallery_start_ignore
# Sizes 0 and 1 and a new number of dimensions compile again under None.
for shape in [(1,), (0,), (10, 10), (20, 20)]:
    compiled(torch.randn(shape, dtype=torch.float64))
assert len(graphs) == counts[None][-1] + 3
for fn, calls in [  # per dimension, per input, a branch on a size: 3 graphs
    (sigmoid_twice, [[(10, 10)], [(20, 10)], [(20, 20)], [(30, 30)]]),
    (lambda x, y: x + y.sum(), [[(10,), (10,)], [(20,), (10,)], [(20,), (20,)]]),
    (lambda x: x * 2 if x.shape[0] > 25 else x + 1, [[(10,)], [(20,)], [(30,)]]),
]:
    torch._dynamo.reset()
    graphs.clear()
    compiled = torch.compile(fn, backend=counting_backend)
    for shapes in calls:
        compiled(*[torch.ones(shape) for shape in shapes])
    assert len(graphs) == 3, calls
# At most eight compiled versions; further sizes run eagerly, and Dynamo logs
# a warning (caught here, so that it does not reach the output).
torch._dynamo.reset()
graphs.clear()
limit = torch._dynamo.config.cache_size_limit
records, catcher = [], logging.Handler(logging.WARNING)
catcher.emit = records.append
frame_log = logging.getLogger("torch._dynamo.convert_frame")
frame_log.addHandler(catcher)
frame_log.propagate = False
ran = []  # and the runs of compiled graphs
compiled = torch.compile(
    sigmoid_twice,
    backend=lambda gm, _: graphs.append(gm) or (lambda *a: ran.append(1) or gm(*a)),
    dynamic=False,
)
for n in range(1000, 1000 + limit + 2):
    torch.testing.assert_close(compiled(torch.ones(n)), sigmoid_twice(torch.ones(n)))
ran.clear()
compiled(torch.ones(1000)), compiled(torch.ones(1007))  # sizes compiled before
if torch.__version__ < (2, 5) or torch.__version__ >= (2, 13):  # 2.4: eager
    assert len(ran) == (2 if torch.__version__ >= (2, 13) else 0)
frame_log.removeHandler(catcher)
frame_log.propagate = True
assert (len(graphs), limit, len(records)) == (8, 8, 1)
torch._dynamo.explain(lambda t: t + 1)(x)  # resets: so a call compiles again
compiled(torch.ones(1000))
assert len(graphs) == 9
# sphinx_gallery_end_ignore


# %%
# With the default, ``dynamic=None``, the first graph is for the exact size
# 1,000; the second size makes Dynamo compile again with a symbolic size,
# which then serves the later sizes, except sizes 0 and 1 (always
# specialised) and a new number of dimensions. It goes per dimension of
# each input: a call whose size changes in a dimension not yet symbolic
# compiles again, and so does one whose size crosses a branch on that size
# (``if x.shape[0] > 25``). ``dynamic=False`` compiles for every new size;
# ``dynamic=True`` takes the size as symbolic at once. A new dtype compiles
# again in all three. Dynamo keeps at most eight compiled versions of a
# function (``torch._dynamo.config.cache_size_limit``, called
# ``recompile_limit`` in newer versions); inputs that would need more run
# eagerly (in 2.4, all calls from then on), with a warning in the log.
#
# Graph breaks
# ------------
# Dynamo records what it can and hands the rest back to Python: where it
# cannot go on, the graph ends (a :term:`graph break`) and a new one starts
# after it. ``torch._dynamo.explain(fn)(*args)`` runs a function under
# Dynamo, generating no kernels, and reports how many graphs it made, the
# breaks and why; it calls ``torch._dynamo.reset()`` before and after, so
# it discards everything compiled so far. The GELU above makes one graph of
# eight operations. ``clip`` below decides in Python whether to divide:
# ``if`` needs a Python ``bool``, but a graph records operations on tensors
# without their values, so Dynamo cannot choose a branch to record, and the
# graph breaks at the ``if``.
def clip(x):
    norm = x.norm()
    if norm > 1.0:
        x = x / norm
    return torch.sigmoid(x)


explained = torch._dynamo.explain(gelu)(x)
print(f"gelu: {explained.graph_count} graph, {explained.op_count} operations")
assert (explained.graph_count, explained.op_count) == (1, 8)
explained = torch._dynamo.explain(clip)(x)
reason = explained.break_reasons[0]
print(f"clip: {explained.graph_count} graphs, {explained.graph_break_count} break")
print(f"reason: {reason.reason}, at line: {reason.user_stack[-1].line}")
assert (explained.graph_count, explained.graph_break_count) == (2, 1)


# %%
# The reason is in Dynamo's own words; the line is the one to look at. Every
# graph break costs a return to Python, and the operations on either side
# of it cannot be fused together. Removing this one means making the choice
# inside the graph: :func:`torch.where` computes both branches and picks
# element by element, and the function becomes one graph, with the same
# results whether the norm is above 1 or not. The branch not taken needs a
# finite value and a finite gradient: ``where`` sends it a zero gradient,
# and zero times an infinite or NaN gradient is NaN. For a zero ``x``, a
# bare ``x / norm`` would be 0/0 there; :meth:`~torch.Tensor.clamp_min`
# prevents it.
def clip_where(x):
    norm = x.norm()
    return torch.sigmoid(torch.where(norm > 1.0, x / norm.clamp_min(1.0), x))


explained = torch._dynamo.explain(clip_where)(x)
print(
    f"clip_where: {explained.graph_count} graph, {explained.graph_break_count} breaks"
)
assert (explained.graph_count, explained.graph_break_count) == (1, 0)
for sample in (x, x / 10_000):
    torch.testing.assert_close(clip_where(sample), clip(sample))
assert x.norm() > 1 > (x / 10_000).norm()
zero = torch.zeros(3, requires_grad=True)
grads = [torch.autograd.grad(f(zero).sum(), zero)[0] for f in (clip, clip_where)]
torch.testing.assert_close(grads[0], grads[1])
unsafe = torch.where(zero.norm() > 1, zero / zero.norm(), zero)
assert torch.autograd.grad(unsafe.sum(), zero)[0].isnan().all()
# sphinx_gallery_start_ignore
# A finite value with an infinite gradient: sqrt at 0, in the branch not taken.
steep = torch.where(zero > 0, zero.sqrt(), zero)
assert steep.isfinite().all()
assert torch.autograd.grad(steep.sum(), zero)[0].isnan().all()
# sphinx_gallery_end_ignore

# %%
# ``fullgraph=True`` turns a graph break into an error, raised on the first
# call (``torch._dynamo.exc.Unsupported``, or a subclass of it): a way
# to make sure that a function compiles as one graph.
try:
    torch.compile(clip, fullgraph=True)(x)
except torch._dynamo.exc.Unsupported as error:
    print(f"{type(error).__name__}: {str(error).splitlines()[0].split('. ')[0]}")
else:
    raise AssertionError("fullgraph=True did not raise on a graph break")

# %%
# Summary
# -------
# - :func:`torch.compile` compiles on the first call. With an empty cache,
#   most of that call is the compiler's one-off set-up; a full cache skips
#   the set-up and the kernel's compilation. When the compiled code is the
#   quicker, it pays off after ``(first_call - eager) / (eager - compiled)``
#   later calls.
# - A compiled chain of element-wise operations (one fused kernel, which
#   computes ``tanh`` too) ran more than one and a half times as fast here;
#   a model that is almost all matrix products ran within a factor of two of
#   eager. Compare the quickest of several runs, on your machine and sizes.
# - Guards decide when code compiles again: a new dtype always; with
#   ``dynamic=None``, a call that changes a dimension not yet symbolic (which
#   then becomes symbolic), a size of 0 or 1, a new number of dimensions, or a
#   size crossing a branch on it.
# - ``torch._dynamo.explain`` counts graphs and graph breaks;
#   ``fullgraph=True`` turns a break into an error. Replace a Python branch
#   on a tensor's value with :func:`torch.where`, keeping both branches, and
#   their gradients, finite.
#
# This is the last page of the last section. The :doc:`/cheatsheet` puts
# what every page teaches on one page, and :doc:`/glossary` its terms. Exercises for
# this page: :ref:`exercises-performance-05`.

# sphinx_gallery_start_ignore
# The process goes on to run other pages in the docs build: it forgets the
# folder, which is removed.
os.environ.pop("TORCHINDUCTOR_CACHE_DIR")
cache_folder.cleanup()
# sphinx_gallery_end_ignore
