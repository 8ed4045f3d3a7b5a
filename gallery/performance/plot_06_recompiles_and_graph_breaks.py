"""
Recompiles and graph breaks
===========================

See when a function compiled with :func:`torch.compile` compiles again for a
new input, find the graph breaks that split a function into several graphs,
and remove them.
"""

# %%
# This page follows
# :ref:`sphx_glr_auto_examples_performance_plot_05_torch_compile.py`. It
# generates no kernel: its backends run the recorded graphs as they are, and
# its one call of the default backend stops before compiling. So it runs in
# seconds and needs no C++ compiler.
import matplotlib.pyplot as plt
import torch
import torch._dynamo

from tutorial_utils.colours import PALETTE
from tutorial_utils.environment import environment_summary

print(environment_summary(torch.device("cpu")))

# %%
# The GELU of the previous page, eight element-wise operations, and a
# million random numbers to call it on:


def gelu(x):
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608 * (x + 0.044715 * x**3)))


torch.manual_seed(0)
x = torch.randn(10**6)

# %%
# A new shape compiles again
# --------------------------
# Compiled code comes with :term:`guards <guard>`: conditions on the inputs
# (their dtype, :term:`shape`, device, and more) under which it is valid,
# checked at every call. A call that fails them compiles again, up to a
# limit (below). How often depends on the ``dynamic=`` argument of
# :func:`torch.compile`. It says how a graph treats the sizes of its inputs:
# as fixed numbers, or as *symbolic* sizes, which let one graph serve many
# values.
#
# To count the graphs, ``sigmoid_twice`` below is compiled with a
# *backend* of our own. A backend is the function that
# :func:`torch.compile` hands each recorded graph (a
# ``torch.fx.GraphModule``) with example inputs; it returns what to run.
# This one appends the graph to a list and returns its ``forward``, which
# runs the recorded operations as they are, generating no kernel.
# ``torch._dynamo.reset()`` forgets what was compiled, so that each setting
# starts afresh. Under each, ``sigmoid_twice`` gets 1,000, 2,000, 3,000 and
# 4,000 float32 numbers, then 4,000 float64:
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

fig, ax = plt.subplots(figsize=(6, 3), layout="constrained")
calls = ["1,000", "2,000", "3,000", "4,000", "4,000\nfloat64"]
for (dynamic, graph_counts), colour, marker in zip(
    counts.items(), (PALETTE[1], PALETTE[5], PALETTE[2]), "osD", strict=True
):
    ax.plot(
        calls, graph_counts, marker=marker, color=colour, label=f"dynamic={dynamic}"
    )
ax.set(xlabel="numbers in each call", ylabel="graphs compiled so far", ylim=(0, 5.5))
ax.set_title("sigmoid_twice, compiled once for each setting")
ax.legend()
plt.show()

# %%
# .. check:: the counts plotted; what else compiles again under ``dynamic=None``; eight versions at most
import logging

assert counts == {False: [1, 2, 3, 4, 5], True: [1, 1, 1, 1, 2], None: [1, 2, 2, 2, 3]}
# Sizes 0 and 1 and a new number of dimensions compile again under None.
with torch.random.fork_rng(devices=[]):
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
# function; inputs that would need more run eagerly, with a warning in the
# log.
#
# .. detail:: The limit by version
#
#    The limit is ``torch._dynamo.config.cache_size_limit``, called
#    ``recompile_limit`` in newer versions. In PyTorch 2.4, from the first
#    input that would need more, all calls run eagerly.


# %%
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
explained = torch._dynamo.explain(clip)(x)
reason = explained.break_reasons[0]
print(f"clip: {explained.graph_count} graphs, {explained.graph_break_count} break")
print(f"reason: {reason.reason}, at line: {reason.user_stack[-1].line}")

# %%
# .. check:: ``gelu`` is one graph of eight operations; ``clip`` is two graphs, with one break
_gelu = torch._dynamo.explain(gelu)(x)  # printed above
assert (_gelu.graph_count, _gelu.op_count) == (1, 8)
assert (explained.graph_count, explained.graph_break_count) == (2, 1)


# %%
# The reason is in Dynamo's own words; the line is the one to look at. Every
# graph break costs a return to Python, and the operations on either side
# of it cannot be fused together. Removing this one means making the choice
# inside the graph: :func:`torch.where` computes both branches and picks
# element by element, and the function becomes one graph, with the same
# results whether the norm is above 1 or not. The branch not taken needs a
# finite gradient: ``where`` sends it a zero gradient, and zero times an
# infinite or NaN gradient is NaN. For a zero ``x``, a bare ``x / norm``
# would be 0/0 there; :meth:`~torch.Tensor.clamp_min` prevents it.
def clip_where(x):
    norm = x.norm()
    return torch.sigmoid(torch.where(norm > 1.0, x / norm.clamp_min(1.0), x))


explained = torch._dynamo.explain(clip_where)(x)
print(
    f"clip_where: {explained.graph_count} graph, {explained.graph_break_count} breaks"
)

# %%
# .. check:: ``clip_where``: one graph, ``clip``'s results; a branch not taken can make gradients NaN
assert (explained.graph_count, explained.graph_break_count) == (1, 0)
for sample in (x, x / 10_000):
    torch.testing.assert_close(clip_where(sample), clip(sample))
assert x.norm() > 1 > (x / 10_000).norm()
zero = torch.zeros(3, requires_grad=True)
grads = [torch.autograd.grad(f(zero).sum(), zero)[0] for f in (clip, clip_where)]
torch.testing.assert_close(grads[0], grads[1])
unsafe = torch.where(zero.norm() > 1, zero / zero.norm(), zero)
assert torch.autograd.grad(unsafe.sum(), zero)[0].isnan().all()
# A finite value with an infinite gradient: sqrt at 0, in the branch not taken.
steep = torch.where(zero > 0, zero.sqrt(), zero)
assert steep.isfinite().all()
assert torch.autograd.grad(steep.sum(), zero)[0].isnan().all()

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
# - Guards decide when code compiles again: a new dtype always; with
#   ``dynamic=None``, a call that changes a dimension not yet symbolic (which
#   then becomes symbolic), a size of 0 or 1, a new number of dimensions, or a
#   size crossing a branch on it.
# - ``torch._dynamo.explain`` counts graphs and graph breaks;
#   ``fullgraph=True`` turns a break into an error. Replace a Python branch
#   on a tensor's value with :func:`torch.where`, keeping the gradients of
#   both branches finite.
#
# This is the last page of the last section. The :doc:`/cheatsheet` puts
# what every page teaches on one page, and :doc:`/glossary` its terms. Exercises for
# this page: :ref:`exercises-performance-06`.
