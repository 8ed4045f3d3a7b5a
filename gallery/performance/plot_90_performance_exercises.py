"""
Exercises: performance
======================

Practise what the performance section taught. You will time a sum and lay
two timings out in a table, then profile a few lines. You will run a
product under autocast and choose a loss scale. Then you will remove a
graph break and count the graphs that Dynamo records.

**Before this page:**
:ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`,
:ref:`sphx_glr_auto_examples_performance_plot_03_profiling.py`,
:ref:`sphx_glr_auto_examples_performance_plot_04_mixed_precision.py` and
:ref:`sphx_glr_auto_examples_performance_plot_06_recompiles_and_graph_breaks.py`.
Exercise 2 also needs the in-depth page
:ref:`sphx_glr_auto_examples_performance_plot_51_fair_comparisons.py`.
"""

# %%
# Each exercise has a solution behind a toggle, then a check. The check
# tests the objects your answer made and says what it found. In the
# notebook, an empty cell replaces each solution: write your answer there,
# then run the check. The checks run on the CPU and test no speed.
import math

import torch
import torch._dynamo
from torch.profiler import ProfilerActivity, profile, record_function, schedule
from torch.utils.benchmark import Compare, Measurement, Timer

from tutorial_utils.environment import environment_summary

print(environment_summary(torch.device("cpu")))

# %%
# .. _exercises-performance-01:
#
# Timing PyTorch code
# -------------------
# For :ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`.
# Exercise 2 also needs
# :ref:`sphx_glr_auto_examples_performance_plot_51_fair_comparisons.py`,
# which teaches ``Compare``. Both exercises time sums of these numbers.
# ``names`` holds them for a Timer's ``globals=``:
torch.manual_seed(0)
numbers = torch.rand(10**4, dtype=torch.float64)
names = {"numbers": numbers}

# %%
# **Exercise 1.** Time ``numbers.sum()`` on two threads. Give a
# :class:`~torch.utils.benchmark.Timer` the statement ``"numbers.sum()"``,
# ``globals=names`` and ``num_threads=2``. Make
# ``measurement``: the :class:`~torch.utils.benchmark.Measurement` that its
# ``blocked_autorange(min_run_time=0.05)`` returns. Print its median.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
timer = Timer("numbers.sum()", globals=names, num_threads=2)
measurement = timer.blocked_autorange(min_run_time=0.05)
print(f"median of one call: {measurement.median * 1e6:.1f} us")

# %%
# .. raw:: html
#
#    </details>

# %%
# The check reads what the Measurement recorded. ``task_spec.stmt`` is the
# statement and ``task_spec.num_threads`` the threads. ``raw_times`` holds
# each block's time: together they last at least ``min_run_time``.
assert isinstance(measurement, Measurement), "Exercise 1: not a Measurement"
stmt = measurement.task_spec.stmt.replace(" ", "")
assert stmt == "numbers.sum()", f"Exercise 1: timed {stmt!r}, not numbers.sum()"
assert measurement.task_spec.num_threads == 2, "Exercise 1: not timed on 2 threads"
assert sum(measurement.raw_times) >= 0.05, "Exercise 1: the blocks lasted under 0.05 s"
print("Exercise 1: right")

# %%
# **Exercise 2.** Time ``numbers.sum()`` again, on one thread and on two.
# Give each Timer ``description="sum"``, which names the table's column, and
# no ``sub_label``. Make ``table``: the text, a ``str``, of the
# :class:`~torch.utils.benchmark.Compare` table of the two Measurements.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
measured = []
for n in (1, 2):
    timer = Timer("numbers.sum()", globals=names, num_threads=n, description="sum")
    measured.append(timer.blocked_autorange(min_run_time=0.05))
table = str(Compare(measured))
print(table)

# %%
# .. raw:: html
#
#    </details>

# %%
# A Compare table heads each group of rows with ``1 threads:`` and so on.
# The check splits the other lines at ``|``: row names stand left of it.
assert isinstance(table, str), f"Exercise 2: a {type(table).__name__}, not a str"
assert "0x" not in table, "Exercise 2: table holds 0x, the start of an address"
for threads in (1, 2):
    assert f"{threads} threads:" in table, f"Exercise 2: no rows on {threads} thread(s)"
cells = [line.split("|") for line in table.splitlines() if "|" in line]
assert cells, "Exercise 2: table has no line with a | in it"
columns = [cell.strip() for cell in cells[0][1:]]
assert columns == ["sum"], f"Exercise 2: the columns are {columns}, not ['sum']"
rows = [line[0].strip() for line in cells[1:]]
named = "numbers.sum(), with no sub_label to name the rows"
assert rows == ["numbers.sum()"] * 2, f"Exercise 2: rows {rows}, not {named}"
print("Exercise 2: right")

# %%
# .. _exercises-performance-03:
#
# Profiling a training loop
# -------------------------
# For :ref:`sphx_glr_auto_examples_performance_plot_03_profiling.py`. Both
# exercises profile a few operations on ``x``:
torch.manual_seed(0)
x = torch.randn(1000)

# %%
# **Exercise 3.** Make ``prof``: a :class:`torch.profiler.profile` of CPU
# activity. Inside it, compute ``(x - x.mean()) / x.std()`` within a
# :class:`~torch.profiler.record_function` region named ``"standardise"``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
with profile(activities=[ProfilerActivity.CPU]) as prof, record_function("standardise"):
    (x - x.mean()) / x.std()
print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=3))

# %%
# .. raw:: html
#
#    </details>

# %%
# The check looks for the region in ``prof.events()``. An event's
# ``cpu_children`` are the events recorded directly inside it. The region
# must hold the mean, the std, the subtraction and the division.
assert isinstance(prof, profile), "Exercise 3: prof is not a torch.profiler.profile"
regions = [event for event in prof.events() if event.name == "standardise"]
assert len(regions) == 1, f"Exercise 3: {len(regions)} 'standardise' regions, not 1"
children = {child.name for child in regions[0].cpu_children}
missing = {"aten::sub", "aten::mean", "aten::div", "aten::std"} - children
assert not missing, f"Exercise 3: {sorted(missing)} not inside the region"
print("Exercise 3: right")

# %%
# **Exercise 4.** Make ``scheduled``: a profiler of CPU activity with
# ``schedule(wait=2, warmup=1, active=3, repeat=1)``. In its ``with`` block,
# run 8 steps. Each step computes ``(x - x.mean()) / x.std()`` in a region
# named ``"step work"``, then calls ``scheduled.step()``. First make
# ``predicted``: how many ``"step work"`` events the profiler will keep.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
predicted = 3  # the 3 active steps: waiting and warming up record nothing
cycle = schedule(wait=2, warmup=1, active=3, repeat=1)
with profile(activities=[ProfilerActivity.CPU], schedule=cycle) as scheduled:
    for _ in range(8):
        with record_function("step work"):
            (x - x.mean()) / x.std()
        scheduled.step()

# %%
# .. raw:: html
#
#    </details>

# %%
# A profiler keeps its schedule in ``scheduled.schedule``. Called with a
# step's number, it says what the profiler does in that step. ``step_num``
# counts the calls of ``step()``.
assert isinstance(scheduled, profile), "Exercise 4: scheduled is not a profile"
asked = schedule(wait=2, warmup=1, active=3, repeat=1)
actions = [scheduled.schedule(s) for s in range(8)]
assert actions == [asked(s) for s in range(8)], "Exercise 4: not the schedule asked for"
assert scheduled.step_num == 8, f"Exercise 4: {scheduled.step_num} steps, not 8"
kept = sum(event.name == "step work" for event in scheduled.events())
assert kept == 3, f"Exercise 4: {kept} 'step work' events kept, not 3"
assert predicted == kept, f"Exercise 4: predicted {predicted}, but {kept} were kept"
print("Exercise 4: right")

# %%
# .. _exercises-performance-04:
#
# Mixed precision
# ---------------
# For :ref:`sphx_glr_auto_examples_performance_plot_04_mixed_precision.py`,
# on :term:`mixed precision`. The exercises use two float32 matrices and
# three small :term:`gradients <gradient>`:
torch.manual_seed(0)
p, q = torch.randn(64, 64), torch.randn(64, 64)
grads = torch.tensor([3e-9, 1e-4, 1.0])

# %%
# .. check:: in float16, 3e-9 rounds to 0: it is under 2⁻²⁵
assert grads[0] < 2.0**-25
assert grads.half()[0] == 0

# %%
# **Exercise 5.** Make ``product``: ``p @ q``, computed under
# :class:`torch.autocast` on the CPU with bfloat16.
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
# Autocast casts ``p`` and ``q`` to bfloat16, then multiplies. The check
# computes the cast matrices' exact product in float64. As on the lesson
# page, ``product`` must lie within ``eps / 2`` of it, relative, plus ``1e-3``.
assert isinstance(product, torch.Tensor), "Exercise 5: product is not a tensor"
assert product.dtype == torch.bfloat16, f"Exercise 5: {product.dtype}, not bfloat16"
exact = p.bfloat16().double() @ q.bfloat16().double()
eps = torch.finfo(torch.bfloat16).eps
close = torch.allclose(product.double(), exact, rtol=eps / 2, atol=1e-3)
assert close, "Exercise 5: not p @ q with p and q cast to bfloat16 first"
print("Exercise 5: right")

# %%
# **Exercise 6.** In float16, the smallest of ``grads`` would
# :term:`underflow` to 0. For :term:`loss scaling`, make ``scale``, a Python
# ``float``: the only power of two that puts every element of
# ``grads * scale`` between ``torch.finfo(torch.float16).tiny`` and its
# ``max``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
f16 = torch.finfo(torch.float16)  # 3e-9 · scale >= tiny, 1.0 · scale <= max
print(f"scale from {f16.tiny / grads.min():.0f} to {f16.max / grads.max():.0f}")
scale = 2.0**15  # the only power of two between them

# %%
# .. raw:: html
#
#    </details>

# %%
# The check tests the range, then asks that ``math.log2(scale)`` be a
# whole number.
assert isinstance(scale, (int, float)), f"Exercise 6: scale is a {type(scale).__name__}"
assert math.isfinite(scale), f"Exercise 6: scale is {scale}, not a finite number"
f16 = torch.finfo(torch.float16)
scaled = grads * scale
smallest, largest = scaled.min().item(), scaled.max().item()
assert smallest >= f16.tiny, f"Exercise 6: grads * scale holds {smallest:.3g} < tiny"
assert largest <= f16.max, f"Exercise 6: grads * scale holds {largest:.6g} > max"
assert math.log2(scale).is_integer(), f"Exercise 6: {scale} is not a power of two"
print("Exercise 6: right")

# %%
# .. check:: 2¹⁵ is the only power of two that fits ``grads * scale`` in range
_powers = 2.0 ** torch.arange(-200, 200, dtype=torch.float64)
_scaled = grads.double()[:, None] * _powers
_fits = ((_scaled >= f16.tiny) & (_scaled <= f16.max)).all(dim=0)
assert _powers[_fits].tolist() == [2.0**15]

# %%
# .. _exercises-performance-06:
#
# Recompiles and graph breaks
# ---------------------------
# For :ref:`sphx_glr_auto_examples_performance_plot_06_recompiles_and_graph_breaks.py`.


def shrink(x):
    if x.sum() > 0:
        return x / 2
    return x


# %%
# .. check:: ``shrink`` has one graph break
assert torch._dynamo.explain(shrink)(torch.ones(3)).graph_break_count == 1

# %%
# **Exercise 7.** ``shrink`` has a :term:`graph break` at its ``if``.
# Define ``shrink_where``: a function that returns what ``shrink`` returns
# for any float tensor, in one graph with no break, as
# ``torch._dynamo.explain`` counts them.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>


# %%
def shrink_where(x):
    return torch.where(x.sum() > 0, x / 2, x)


print(torch._dynamo.explain(shrink_where)(x).graph_count, "graph")

# %%
# .. raw:: html
#
#    </details>

# %%
# The check asks ``torch._dynamo.explain`` for the counts. Then it compares
# ``shrink_where`` with ``shrink`` on three tensors. Their sums are above 0,
# below 0 and 0.
assert callable(shrink_where), "Exercise 7: shrink_where is not a function"
explained = torch._dynamo.explain(shrink_where)(torch.ones(3))
assert explained.graph_break_count == 0, "Exercise 7: a graph break remains"
assert explained.graph_count == 1, f"Exercise 7: {explained.graph_count} graphs, not 1"
for sample in torch.tensor([[1.0, -3.0, 5.0], [1.0, -5.0, 3.0], [1.0, -1.0, 0.0]]):
    got = shrink_where(sample)
    same = isinstance(got, torch.Tensor) and torch.equal(got, shrink(sample))
    assert same, f"Exercise 7: for {sample.tolist()}, not what shrink returns"
print("Exercise 7: right")

# %%
# **Exercise 8.** Count the graphs of a compiled :func:`torch.cos`:
#
# 1. Call ``torch._dynamo.reset()``. Else Dynamo keeps ``torch.cos`` code from before.
# 2. Make ``graphs`` and ``counting_backend`` as on the lesson page. The
#    backend appends each graph to ``graphs`` and returns its ``forward``.
# 3. Make ``compiled``: ``torch.cos`` compiled with it and ``dynamic=False``.
# 4. Make ``predicted_graphs``: how many graphs step 5 will make.
# 5. Call it on float32 tensors of 3, 4 and 5 elements, then a float64 one of 3.
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
predicted_graphs = 4  # with dynamic=False, each new size or dtype compiles again
for size in (3, 4, 5):
    compiled(torch.ones(size))
compiled(torch.ones(3, dtype=torch.float64))

# %%
# .. raw:: html
#
#    </details>

# %%
# The check counts the graphs. Then it calls ``compiled`` on a float32
# tensor of 3 elements again: a size and dtype seen before compile nothing.
assert callable(compiled), "Exercise 8: compiled is not a function"
modules = all(isinstance(g, torch.fx.GraphModule) for g in graphs)
assert modules, "Exercise 8: graphs holds something other than graph modules"
made = len(graphs)
assert made == 4, f"Exercise 8: {made} graphs, not 4: dynamic=False? reset first?"
assert predicted_graphs == made, f"Exercise 8: predicted {predicted_graphs}, not {made}"
compiled(torch.ones(3))
assert len(graphs) == 4, "Exercise 8: a size and dtype seen before compiled again"
print("Exercise 8: right")

# %%
# .. check:: a new ``torch.compile`` of ``torch.cos`` reuses the code kept
again = torch.compile(torch.cos, backend=counting_backend, dynamic=False)
again(torch.ones(4))  # a size compiled before: the kept code runs
assert len(graphs) == 4

# %%
# These are the site's last exercises. The :doc:`/cheatsheet` puts the
# whole site on one page.
