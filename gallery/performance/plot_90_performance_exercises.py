"""
Exercises: performance
======================

Exercises for the pages of the performance section that do not end with
their own (all but matrix products and peak rates), each with a solution
behind a toggle and a check that tells you whether an answer is right.
"""

# %%
# The checks run on the CPU and test what holds on any machine, not speed.
import math
import re

import torch
import torch._dynamo
from torch.profiler import ProfilerActivity, profile, record_function, schedule
from torch.utils.benchmark import Compare, Measurement, Timer

from tutorial_utils.environment import environment_summary

print(environment_summary("cpu"))

# %%
# .. _exercises-performance-01:
#
# Timing PyTorch code
# -------------------
# For :ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`.
# The first two exercises time sums of these numbers:
torch.manual_seed(0)
numbers = torch.rand(10**4, dtype=torch.float64)

# %%
# **Exercise 1.** Make ``answer``: the
# :class:`~torch.utils.benchmark.Measurement` that a
# :class:`torch.utils.benchmark.Timer` of the statement ``"numbers.sum()"``,
# with ``globals={"numbers": numbers}`` and two threads, returns from
# ``blocked_autorange(min_run_time=0.05)``. Print its median, not itself.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
timer = Timer("numbers.sum()", globals={"numbers": numbers}, num_threads=2)
answer = timer.blocked_autorange(min_run_time=0.05)
print(f"median of one call: {answer.median * 1e6:.1f} us")

# %%
# .. raw:: html
#
#    </details>

# %%
# The check runs the statement again (blocked_autorange times for at least
# ``min_run_time`` in all):
assert isinstance(answer, Measurement), "Exercise 1: answer is not a Measurement"
assert answer.task_spec.num_threads == 2, "Exercise 1: not timed on 2 threads"
assert sum(answer.raw_times) >= 0.05, (
    "Exercise 1: timed for under 0.05 s: blocked_autorange(min_run_time=0.05)?"
)
try:
    got = eval(answer.task_spec.stmt, {"numbers": numbers, "torch": torch})
except NameError as error:
    message = f'Exercise 1: {error}: time "numbers.sum()" with numbers in globals'
    raise AssertionError(message) from None
else:
    assert isinstance(got, torch.Tensor), "Exercise 1: it returns no tensor: no ()?"
assert got.numel() == 1, "Exercise 1: the statement timed returns many numbers"
assert math.isclose(got.item(), math.fsum(numbers.tolist())), "Exercise 1: not the sum"
print("Exercise 1: right")

# %%
# **Exercise 2.** Make ``table``: the text (a ``str``) of a
# :class:`~torch.utils.benchmark.Compare` table of two Measurements of the
# statement ``"numbers.sum()"``, on one thread and on two, each with
# ``description="sum"``, which names the column, and no ``sub_label``, so that
# each row is named by its statement. Unlike a printed Measurement, it must
# hold no memory address.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
timers = [
    Timer("numbers.sum()", num_threads=n, description="sum", globals=globals())
    for n in (1, 2)
]
table = str(Compare([timer.blocked_autorange(min_run_time=0.05) for timer in timers]))
print(table)

# %%
# .. raw:: html
#
#    </details>

# %%
# The check (a Compare table groups its rows under ``1 threads:`` and so on,
# names each row by its statement and the column by the description):
assert isinstance(table, str), "Exercise 2: table is not a str"
assert not re.search(r"0x[0-9A-Fa-f]+", table), "Exercise 2: a memory address"
for threads in (1, 2):
    assert f"{threads} threads:" in table, f"Exercise 2: no row on {threads} thread(s)"
assert re.search(r"(?m)^ +\| +sum *$", table), "Exercise 2: no column 'sum'"
rows = re.findall(r"(?m)^ *(\S.*?) +\|", table)  # the labels left of each |
assert rows == ["numbers.sum()"] * 2, f"Exercise 2: rows {rows}, not numbers.sum()"
print("Exercise 2: right")

# %%
# .. _exercises-performance-03:
#
# Profiling a training loop
# -------------------------
# For :ref:`sphx_glr_auto_examples_performance_plot_03_profiling.py`. Both use ``x``:
torch.manual_seed(0)
x = torch.randn(1000)

# %%
# **Exercise 3.** Make ``prof``: a :class:`torch.profiler.profile` (CPU
# activity) that recorded ``(x - x.mean()) / x.std()`` inside a
# :class:`~torch.profiler.record_function` region named ``"standardise"``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
activities = [ProfilerActivity.CPU]
with profile(activities=activities) as prof, record_function("standardise"):
    (x - x.mean()) / x.std()
print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=3))

# %%
# .. raw:: html
#
#    </details>

# %%
# The check looks for the region, once, with the mean, the std, the
# subtraction and the division inside it:
assert isinstance(prof, profile), "Exercise 3: prof is not a torch.profiler.profile"
regions = [event for event in prof.events() if event.name == "standardise"]
assert len(regions) == 1, f"Exercise 3: {len(regions)} 'standardise' regions, not 1"
children = {child.name for child in regions[0].cpu_children}
inside = {"aten::sub", "aten::mean", "aten::div", "aten::std"} <= children
assert inside, "Exercise 3: not all of (x - x.mean()) / x.std() is inside the region"
print("Exercise 3: right")

# %%
# **Exercise 4.** Make ``prof``: a profiler with
# ``schedule(wait=2, warmup=1, active=3, repeat=1)`` that runs 8 steps, each computing
# ``(x - x.mean()) / x.std()`` in a region named ``"step work"``, then ``prof.step()``;
# and ``predicted``: how many ``"step work"`` events it keeps, worked out first.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
cycle = schedule(wait=2, warmup=1, active=3, repeat=1)
with profile(activities=[ProfilerActivity.CPU], schedule=cycle) as prof:
    for _ in range(8):
        with record_function("step work"):
            (x - x.mean()) / x.std()
        prof.step()
predicted = 3  # the 3 active steps of one cycle: the wait and warm-up record none

# %%
# .. raw:: html
#
#    </details>

# %%
# The check (the waiting and warm-up steps record nothing; no repeat):
assert predicted == 3, f"Exercise 4: predicted {predicted}: which steps are active?"
assert isinstance(prof, profile), "Exercise 4: prof is not a torch.profiler.profile"
assert prof.profiler is not None, "Exercise 4: no step recorded: call prof.step()"
kept = sum(event.name == "step work" for event in prof.events())
assert kept == 3, f"Exercise 4: {kept} 'step work' events kept, not 3"
print("Exercise 4: right")

# %%
# .. _exercises-performance-04:
#
# Mixed precision
# ---------------
# For :ref:`sphx_glr_auto_examples_performance_plot_04_mixed_precision.py`.
# The exercises use two float32 matrices and small :term:`gradients <gradient>`:
torch.manual_seed(0)
p, q = torch.randn(64, 64), torch.randn(64, 64)
grads = torch.tensor([3e-9, 1e-4, 1.0])

# %%
# .. check:: in float16, 3e-9 underflows to 0: it is under half of the smallest number, 2⁻²⁴
assert grads.half()[0] == 0

# %%
# **Exercise 5.** Make ``product``: ``p @ q`` computed under CPU
# :class:`torch.autocast` in bfloat16 (:term:`mixed precision`).
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    product = p @ q
print(product.dtype)

# %%
# .. raw:: html
#
#    </details>

# %%
# The check: one bfloat16 rounding, relative, from the float64 product of
# ``p`` and ``q`` each rounded to bfloat16 first (``atol``: float32 sums):
assert isinstance(product, torch.Tensor), "Exercise 5: product is not a tensor"
assert product.dtype == torch.bfloat16, f"Exercise 5: dtype {product.dtype}"
exact = p.bfloat16().double() @ q.bfloat16().double()
eps = torch.finfo(torch.bfloat16).eps
close = torch.allclose(product.double(), exact, rtol=eps / 2, atol=1e-3)
assert close, (
    "Exercise 5: not one bfloat16 rounding of the product of p and q each rounded "
    "to bfloat16 first: were the inputs cast (autocast) before the product?"
)
print("Exercise 5: right")

# %%
# **Exercise 6.** In float16, the smallest of ``grads`` would
# :term:`underflow` to 0. Make ``scale`` (a Python ``float``): the only power of
# two for which every scaled gradient, ``grads * scale``, is a normal float16
# number, from ``torch.finfo(torch.float16).tiny`` to its ``max``
# (:term:`loss scaling`).
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
# 3e-9 · scale >= 6.1e-5 needs scale > 20345; 1.0 · scale <= 65504: 2¹⁵.
scale = 2.0**15
print((grads * scale).half())

# %%
# .. raw:: html
#
#    </details>

# %%
# The check (the range, then a power of two):
assert isinstance(scale, (int, float)), "Exercise 6: scale is not a Python number"
f16 = torch.finfo(torch.float16)
scaled = grads * scale
assert scaled.min() >= f16.tiny, "Exercise 6: the smallest still underflows"
assert scaled.max() <= f16.max, "Exercise 6: the largest is above float16's max"
assert math.log2(scale).is_integer(), f"Exercise 6: {scale} is no power of two"
print("Exercise 6: right")

# %%
# .. _exercises-performance-06:
#
# Recompiles and graph breaks
# ---------------------------
# For :ref:`sphx_glr_auto_examples_performance_plot_06_recompiles_and_graph_breaks.py`.
# Neither exercise generates a :term:`kernel`, so both take a moment.


def shrink(x):
    if x.sum() > 0:
        return x / 2
    return x


# %%
# **Exercise 7.** ``shrink`` has a :term:`graph break` at its ``if``. Make
# ``answer``: a function that returns the same as ``shrink`` for any float
# tensor, which ``torch._dynamo.explain`` records as one graph, with no break.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>


# %%
def shrink_where(x):
    return torch.where(x.sum() > 0, x / 2, x)


answer = shrink_where
print(torch._dynamo.explain(answer)(x).graph_count, "graph")

# %%
# .. raw:: html
#
#    </details>

# %%
# The check (``torch._dynamo.explain`` forgets what was compiled before):
assert callable(answer), "Exercise 7: answer is not a function"
explained = torch._dynamo.explain(answer)(torch.ones(3))
assert explained.graph_break_count == 0, "Exercise 7: a graph break remains"
assert explained.graph_count == 1, f"Exercise 7: {explained.graph_count} graphs"
for sample in torch.tensor([[1.0, -3.0, 5.0], [1.0, -5.0, 3.0], [1.0, -1.0, 0.0]]):
    assert torch.equal(answer(sample), shrink(sample)), (
        f"Exercise 7: for {sample.tolist()}, not what shrink returns"
    )
print("Exercise 7: right")

# %%
# **Exercise 8.** Make ``graphs``, an empty list, and
# ``counting_backend(graph_module, example_inputs)``, a backend that appends each graph
# module it receives to ``graphs`` and returns ``graph_module.forward``. Make
# ``compiled``: :func:`torch.cos` compiled with it and ``dynamic=False``; call it on
# float32 tensors of 3, 4 and 5 elements, then a float64 one of 3. Make
# ``predicted_graphs``: the number of graphs then in ``graphs``, worked out first.
# Start with ``torch._dynamo.reset()``: code compiled for ``torch.cos`` is kept from
# one ``torch.compile`` of it to the next (up to a limit), so a later run of this
# cell could count fewer graphs.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
torch._dynamo.reset()
graphs = []


def counting_backend(graph_module, example_inputs):
    graphs.append(graph_module)
    return graph_module.forward


compiled = torch.compile(torch.cos, backend=counting_backend, dynamic=False)
for size in (3, 4, 5):
    compiled(torch.ones(size))
compiled(torch.ones(3, dtype=torch.float64))
predicted_graphs = 4  # one per new size or dtype: nothing is made dynamic

# %%
# .. raw:: html
#
#    </details>

# %%
# The check (with ``dynamic=False``, a new size or dtype compiles again):
assert predicted_graphs == 4, (
    f"Exercise 8: predicted {predicted_graphs}: what does each call see?"
)
assert callable(compiled), "Exercise 8: compiled is not a function"
modules = all(isinstance(g, torch.fx.GraphModule) for g in graphs)
assert modules, "Exercise 8: graphs holds something other than graph modules"
assert len(graphs) == 4, (
    f"Exercise 8: {len(graphs)} graphs, not 4: dynamic=False? "
    "torch._dynamo.reset() first?"
)
compiled(torch.ones(3))  # a size and dtype seen before: no new graph
assert len(graphs) == 4, "Exercise 8: a size seen before compiled again"
print("Exercise 8: right")

# %%
# .. check:: code compiled for ``torch.cos`` is kept from one ``torch.compile`` of it to the next
again = torch.compile(torch.cos, backend=counting_backend, dynamic=False)
again(torch.ones(4))  # a new torch.compile of torch.cos: the kept code runs
assert len(graphs) == 4
