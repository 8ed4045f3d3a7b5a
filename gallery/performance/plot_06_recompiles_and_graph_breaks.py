"""
Recompiles and graph breaks
===========================

After this page you can predict when a function compiled with
:func:`torch.compile` compiles again for new inputs. You can count the
graphs that Dynamo records, find a graph break and remove it.

**Before this page:**
:ref:`sphx_glr_auto_examples_performance_plot_05_torch_compile.py`, and
:ref:`sphx_glr_auto_examples_tensors_plot_05_selecting_and_rearranging.py`
for :func:`torch.where`.
"""

# %%
# On the first call of a compiled function, *Dynamo* records its tensor
# operations as a graph, an :term:`FX graph`. A *backend* then turns the
# graph into code. The backends here run the recorded graphs as they are,
# so the page compiles no kernel.
#
# Dynamo's tools are in ``torch._dynamo``. The underscore marks the module
# as internal: its names can change between releases.
import matplotlib.pyplot as plt
import torch
import torch._dynamo

from tutorial_utils.colours import PALETTE
from tutorial_utils.environment import environment_summary

print(environment_summary(torch.device("cpu")))

# %%
# A new shape compiles again
# --------------------------
# Compiled code comes with :term:`guards <guard>`: conditions on the
# inputs, such as their dtype and :term:`shape`. Dynamo keeps each version
# of the code it compiles. A call first checks the versions' guards. A call
# that fails the guards of every version makes Dynamo compile the function
# again: a *recompile*.
#
# To count recompiles, we count graphs. Dynamo calls the backend with each
# graph it records and with example inputs. A graph comes as a
# ``torch.fx.GraphModule``, a module that holds the recorded operations.
# The backend returns the function to run. Ours, ``counting_backend``,
# keeps each graph in a list and returns its ``forward`` method. That runs
# the operations as they are. The function to compile is ``sigmoid_twice``.
graphs = []


def counting_backend(graph_module, example_inputs):
    graphs.append(graph_module)
    return graph_module.forward


def sigmoid_twice(x):
    return torch.sigmoid(x) * 2


# %%
# How often a function compiles again depends on the ``dynamic=`` argument
# of :func:`torch.compile`. It says how a graph treats the sizes of its
# inputs:
#
# - ``dynamic=False``: each size is a fixed number.
# - ``dynamic=True``: each size is *symbolic*, a name that stands for a
#   number. So one graph can serve many sizes.
# - ``dynamic=None``, the default: the first graph has fixed sizes. When a
#   size changes, Dynamo compiles again with that size symbolic.
#
# ``torch._dynamo.reset()`` forgets all compiled code, and
# ``graphs.clear()`` empties our list. So each setting starts afresh.
# Under each, ``sigmoid_twice`` gets 1,000, 2,000, 3,000 and 4,000 float32
# numbers, then 4,000 float64 numbers.
print("dynamic=  graphs so far, after each call")
counts = {}
for dynamic in (False, True, None):
    torch._dynamo.reset()
    graphs.clear()
    compiled = torch.compile(sigmoid_twice, backend=counting_backend, dynamic=dynamic)
    counts[dynamic] = []
    for n in (1000, 2000, 3000, 4000):
        compiled(torch.ones(n))
        counts[dynamic].append(len(graphs))
    compiled(torch.ones(4000, dtype=torch.float64))
    counts[dynamic].append(len(graphs))
    print(f"{dynamic!s:9} {counts[dynamic]}")

# %%
# .. check:: the counts; a size seen before compiles nothing; sizes as ``SymInt``
from torch._dynamo.utils import counters

assert counts == {False: [1, 2, 3, 4, 5], True: [1, 1, 1, 1, 2], None: [1, 2, 2, 2, 3]}
compiled(torch.ones(1000))  # passes the guards of a version: no new graph
assert len(graphs) == counts[None][-1]
assert all(isinstance(graph, torch.fx.GraphModule) for graph in graphs)
aot_before = counters["aot_autograd"]["total"]
# two new functions: no compiled code, and sigmoid_twice's kept
probes = {True: lambda x: torch.sigmoid(x) * 3, None: lambda x: torch.sigmoid(x) * 4}
for dynamic, probe in probes.items():
    inputs = []
    again = torch.compile(
        probe,
        backend=lambda gm, example, kept=inputs: kept.append(example) or gm.forward,
        dynamic=dynamic,
    )
    for n in (1000, 2000):
        again(torch.ones(n))
    symbolic = [any(isinstance(v, torch.SymInt) for v in ex) for ex in inputs]
    assert symbolic == ([True] if dynamic else [False, True]), dynamic
# Our backends stop before AOTAutograd, inductor's first step: no kernel.
assert counters["aot_autograd"]["total"] == aot_before

# %%
# The site's colours are in ``PALETTE``, and ``ax.legend()`` names the
# lines. Each line shows one setting:
fig, ax = plt.subplots(figsize=(6, 3), layout="constrained")
calls = ["1,000", "2,000", "3,000", "4,000", "4,000\nfloat64"]
for (dynamic, counted), colour, marker in zip(
    counts.items(), (PALETTE[1], PALETTE[5], PALETTE[2]), "osD", strict=True
):
    ax.plot(calls, counted, marker=marker, color=colour, label=f"dynamic={dynamic}")
ax.set(xlabel="numbers in each call", ylabel="graphs compiled so far", ylim=(0, 5.5))
ax.set_title("sigmoid_twice, compiled once for each setting")
ax.legend()
plt.show()

# %%
# ``dynamic=False`` compiled again for each new size. ``dynamic=True``
# served all four sizes with one graph. The default compiled twice: once
# for exactly 1,000 numbers, then with a symbolic size, which served 3,000
# and 4,000. The float64 input compiled again under all three: guards
# check the dtype of each input that the function uses.
#
# .. detail:: Other calls that compile again
#
#    Under the default, a call also compiles again when it brings:
#
#    - a size of 0 or 1 for the first time: these sizes stay fixed, even
#      with ``dynamic=True``;
#    - a new number of dimensions;
#    - a new size in a dimension that is still fixed. Each dimension of
#      each input turns symbolic on its own, at its first change;
#    - a size that takes the other branch of a Python ``if`` on that size,
#      such as ``if x.shape[0] > 25``.

# %%
# .. check:: sizes 0 and 1, dimensions, inputs, branches; not unused inputs' dtypes
for shape in [(1,), (0,), (10, 10), (20, 20)]:
    compiled(torch.ones(shape, dtype=torch.float64))
assert len(graphs) == counts[None][-1] + 3
f32, f64 = torch.float32, torch.float64
for dynamic in (False, True, None):  # x is unused: its dtype compiles nothing
    torch._dynamo.reset()
    graphs.clear()
    f = torch.compile(lambda x, y: y * 2, backend=counting_backend, dynamic=dynamic)
    for x_dtype, y_dtype in [(f32, f32), (f64, f32), (f32, f64)]:
        f(torch.ones(3, dtype=x_dtype), torch.ones(3, dtype=y_dtype))
    assert len(graphs) == 2, dynamic  # 3 if x's dtype were guarded
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
graphs.clear()  # sizes 0 and 1 stay fixed, even with dynamic=True
f = torch.compile(lambda x: x.sigmoid() * 5, backend=counting_backend, dynamic=True)
for n in (5, 6, 1, 0, 7):
    f(torch.ones(n))
assert len(graphs) == 3

# %%
# By default, Dynamo keeps at most eight compiled versions of a function.
# A call that would need a ninth runs eagerly, and Dynamo logs a warning.
#
# .. detail:: The limit by version
#
#    The limit is ``torch._dynamo.config.recompile_limit``, named
#    ``cache_size_limit`` in PyTorch 2.4. In 2.13, a later call with a size
#    compiled before still runs its compiled code. In 2.4, every call from
#    the first one over the limit runs eagerly. The functions that
#    :func:`torch.compile` returns for the same function share the eight.

# %%
# .. check:: at most eight versions, shared, then eager with a warning; resets
import logging

torch._dynamo.reset()
graphs.clear()
config = torch._dynamo.config
limit = getattr(config, "recompile_limit", None) or config.cache_size_limit  # 2.4
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
assert (len(graphs), limit, len(records)) == (8, 8, 1)
assert torch.__version__ >= (2, 5) or not hasattr(config, "recompile_limit")
torch._dynamo.explain(lambda t: t + 1)(torch.ones(3))  # resets: compiles again
compiled(torch.ones(1000))
assert len(graphs) == 9
torch._dynamo.reset()  # forgets too
compiled(torch.ones(1000))
assert len(graphs) == 10
twin = torch.compile(sigmoid_twice, backend=counting_backend, dynamic=False)
for n in range(1001, 1000 + limit + 2):  # shares the eight with compiled
    twin(torch.ones(n))
twin(torch.ones(1001, dtype=torch.float64))  # past the limit: eager
assert (len(graphs), len(records)) == (10 + limit - 1, 2)
frame_log.removeHandler(catcher)
frame_log.propagate = True


# %%
# Graph breaks
# ------------
# Dynamo records what it can. Where it cannot go on, the graph ends: a
# :term:`graph break`. Python runs that part, and a new graph starts after
# it. ``torch._dynamo.explain(fn)(*args)`` calls ``fn`` under Dynamo and
# reports what it recorded. Its ``graph_count`` is the number of graphs,
# and ``op_count`` the number of operations in them. Like
# ``torch._dynamo.reset()``, it forgets all compiled code. The GELU of the
# previous page makes one graph:
def gelu(x):
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608 * (x + 0.044715 * x**3)))


torch.manual_seed(0)
x = torch.randn(10**6)
explained = torch._dynamo.explain(gelu)(x)
print(f"gelu: {explained.graph_count} graph, {explained.op_count} operations")


# %%
# ``clip`` below scales ``x`` down when its norm, ``x.norm()``, is above 1.
# The norm is the square root of the sum of squares of the elements. The
# ``if`` needs a Python ``bool``, but a graph records operations, not the
# values they will produce. So Dynamo cannot choose a branch, and the graph
# breaks at the ``if``.
#
# ``graph_break_count`` counts the breaks, and ``break_reasons`` says why
# each happened. A reason's ``reason`` is in Dynamo's words. Its
# ``user_stack`` lists the calls of your code that led there, innermost
# last. ``user_stack[-1].line`` is the text of the line that broke.
def clip(x):
    norm = x.norm()
    if norm > 1.0:
        x = x / norm
    return torch.sigmoid(x)


explained = torch._dynamo.explain(clip)(x)
reason = explained.break_reasons[0]
print(f"clip: {explained.graph_count} graphs, {explained.graph_break_count} break")
print(f"reason: {reason.reason}, at line: {reason.user_stack[-1].line}")

# %%
# .. check:: ``gelu``: one graph of eight operations; ``clip``: two graphs, one break
aot_before = counters["aot_autograd"]["total"]
_gelu = torch._dynamo.explain(gelu)(x)  # printed above
assert (_gelu.graph_count, _gelu.op_count, _gelu.graph_break_count) == (1, 8, 0)
assert (explained.graph_count, explained.graph_break_count) == (2, 1)
assert counters["aot_autograd"]["total"] == aot_before  # explain compiles nothing

# %%
# Python runs the ``if`` between the two graphs. A backend sees each graph
# on its own. So it cannot fuse an operation before the break with one
# after it.


# %%
# .. check:: ``clip``'s norm and its sigmoid are in two different graphs
def _norm_sigmoid(graph):
    ops = {str(node.target) for node in graph.graph.nodes}
    return "norm" in ops, any("sigmoid" in op for op in ops)


pairs = [_norm_sigmoid(graph) for graph in explained.graphs]
assert pairs == [(True, False), (False, True)]  # (norm?, sigmoid?) in each graph


# %%
# Removing a graph break
# ----------------------
# To remove this break, make the choice inside the graph with
# :func:`torch.where`. Python computes both of its inputs, then ``where``
# picks. Here its condition, ``norm > 1.0``, has a single element. So it
# picks all of ``x / norm``, or all of ``x``:
def clip_where(x):
    norm = x.norm()
    return torch.sigmoid(torch.where(norm > 1.0, x / norm, x))


explained = torch._dynamo.explain(clip_where)(x)
print(
    f"clip_where: {explained.graph_count} graph, {explained.graph_break_count} breaks"
)

# %%
# .. check:: ``clip_where``: one graph, and ``clip``'s results, norm above 1 or not
assert (explained.graph_count, explained.graph_break_count) == (1, 0)
for sample in (x, x / 10_000, torch.zeros(3)):
    torch.testing.assert_close(clip_where(sample), clip(sample))
assert x.norm() > 1 > (x / 10_000).norm()

# %%
# Training through ``where`` needs care. The input it did not pick still
# takes part in the backward pass, so both inputs need finite gradients.
#
# .. detail:: Gradients through ``where``
#
#    ``where`` sends the input it did not pick a zero gradient. Autograd
#    multiplies that zero by the input's own derivatives, and zero times an
#    infinite or NaN number is NaN. For an all-zero ``x``, ``x / norm`` is
#    0/0. So ``clip_where`` gives NaN gradients there, and ``clip`` does
#    not. Dividing by ``norm.clamp_min(1.0)``, the norm raised to at least
#    1, clips in one graph without ``where``, with finite gradients.

# %%
# .. check:: NaN gradients from the input not picked; ``clamp_min`` avoids them
zero = torch.zeros(3, requires_grad=True)
grads = [torch.autograd.grad(f(zero).sum(), zero)[0] for f in (clip, clip_where)]
assert grads[0].isfinite().all()
assert grads[1].isnan().all()
unsafe = torch.where(zero.norm() > 1, zero / zero.norm(), zero)
assert torch.autograd.grad(unsafe.sum(), zero)[0].isnan().all()
# A finite value with an infinite gradient: sqrt at 0, in the branch not taken.
steep = torch.where(zero > 0, zero.sqrt(), zero)
assert steep.isfinite().all()
assert torch.autograd.grad(steep.sum(), zero)[0].isnan().all()


def _clip_clamp(x):
    return torch.sigmoid(x / x.norm().clamp_min(1.0))


assert torch._dynamo.explain(_clip_clamp)(x).graph_count == 1
for sample in (x, x / 10_000, torch.zeros(3)):
    torch.testing.assert_close(_clip_clamp(sample), clip(sample))
    leaf = sample.clone().requires_grad_()
    grads = [torch.autograd.grad(f(leaf).sum(), leaf)[0] for f in (_clip_clamp, clip)]
    torch.testing.assert_close(*grads)

# %%
# ``fullgraph=True`` turns a graph break into an error: a
# ``torch._dynamo.exc.Unsupported``, or a subclass of it. Dynamo raises it
# on the call that reaches the break, here the first. Use it when a
# function must compile as one graph. The page prints the error's type and
# its first sentence:
try:
    torch.compile(clip, fullgraph=True)(x)
except torch._dynamo.exc.Unsupported as error:
    print(f"{type(error).__name__}: {str(error).splitlines()[0].split('. ')[0]}")
else:
    raise AssertionError("fullgraph=True did not raise on a graph break")

# %%
# .. check:: ``fullgraph=True`` raises before inductor compiles anything
aot_before = counters["aot_autograd"]["total"]
try:
    torch.compile(clip, fullgraph=True)(x)
except torch._dynamo.exc.Unsupported:
    assert counters["aot_autograd"]["total"] == aot_before
else:
    raise AssertionError("fullgraph=True did not raise on a graph break")

# %%
# Summary
# -------
# - A call that fails the guards of every compiled version compiles again,
#   up to a limit. A new dtype of an input the function uses fails them.
#   Under the default ``dynamic=None``, so does the first change in the
#   size of each dimension.
# - The limit is eight versions by default. Past it, a call runs eagerly.
# - ``torch._dynamo.explain`` counts graphs and graph breaks.
#   ``fullgraph=True`` turns a break into an error.
# - A Python ``if`` on a tensor's value breaks the graph.
#   :func:`torch.where` keeps the choice inside it.
#
# This is the last lesson of the performance section. The
# :doc:`/cheatsheet` puts the whole site on one page. Exercises for this
# page: :ref:`exercises-performance-06`.
