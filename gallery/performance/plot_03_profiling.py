"""
Profiling a training loop
=========================

After this page you can find where a training step spends its time. You will
record a few steps with :mod:`torch.profiler`, read its table, label the
phases of the loop and save a trace to view in a browser. You will then fix
the slowest phase and measure the gain without the profiler.

**Before this page:**
:ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py`,
:ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py` and
:ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`.
"""

# %%
# The page runs on the CPU, on one thread (:func:`torch.set_num_threads`),
# so that its times depend less on how many cores the machine has.
import gzip
import json
import time
from collections import Counter

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile, record_function, schedule
from torch.utils.benchmark import Timer
from torch.utils.data import DataLoader, Dataset, TensorDataset
from torch.utils.data.sampler import BatchSampler, RandomSampler

from tutorial_utils.colours import PALETTE
from tutorial_utils.data import load_digits_tensors
from tutorial_utils.environment import environment_summary
from tutorial_utils.models import MLP
from tutorial_utils.timing import check_timing, format_time

torch.set_num_threads(1)
device = torch.device("cpu")
print(environment_summary(device))

# %%
# A loop with labelled regions
# ----------------------------
# The site's helper ``load_digits_tensors`` returns the training section's
# digits. Its ``train_features`` and ``train_labels`` become NumPy arrays
# here, the form data often arrive in. The
# :class:`~torch.utils.data.Dataset` below makes :term:`tensors <tensor>` of
# one sample each time the :class:`~torch.utils.data.DataLoader` asks. The
# loader stacks them 64 to a :term:`batch`, the
# last one shorter, as one pass over it shows.
digits = load_digits_tensors(seed=0)
features = digits.train_features.numpy()  # (1347, 64) float32
labels = digits.train_labels.numpy()  # (1347,) int64


class DigitsFromArrays(Dataset):
    def __init__(self, features, labels):
        self.features, self.labels = features, labels

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        return torch.tensor(self.features[index]), torch.tensor(self.labels[index])


loader = DataLoader(DigitsFromArrays(features, labels), batch_size=64, shuffle=True)
sizes = [len(targets) for _, targets in loader]
print(f"{len(labels)} samples, {len(sizes)} batches, the last of {sizes[-1]}")

# %%
# .. check:: every batch holds 64 samples but the last, which holds the rest
assert sizes == [64] * (len(loader) - 1) + [len(labels) % 64]

# %%
# The training loop is the training section's, with each phase in a
# :class:`torch.profiler.record_function` block. A running profiler records
# such a block as a labelled range. :func:`next` fetches the batch, so that
# fetching has a region of its own. ``prof.step()`` tells the profiler that
# a step has ended. ``train`` returns the :term:`loss` of each step. It keeps
# ``loss.detach()``, the loss without its graph, so each step's graph can be freed.
#
# .. detail:: Why zero_grad after the step
#
#    ``zero_grad`` right after ``step`` works here as well as before the
#    forward pass: each ``backward`` still starts with no
#    :term:`gradients <gradient>`.
REGIONS = ["data loading", "forward", "backward", "optimiser step"]


def train(loader, model, optimizer, steps=None, prof=None):
    """Train on `steps` batches of `loader` (one epoch by default)."""
    batches = iter(loader)
    losses = []
    for _ in range(len(loader) if steps is None else steps):
        with record_function("data loading"):
            inputs, targets = next(batches)
        with record_function("forward"):
            loss = F.cross_entropy(model(inputs), targets)
        with record_function("backward"):
            loss.backward()
        with record_function("optimiser step"):
            optimizer.step()
            optimizer.zero_grad()
        losses.append(loss.detach())
        if prof is not None:
            prof.step()
    return torch.stack(losses)


# %%
# Profiling a few steps
# ---------------------
# A :class:`torch.profiler.profile` records the :term:`operators <operator>`
# that run in its ``with`` block, here those on the CPU
# (``ProfilerActivity.CPU``). A :func:`~torch.profiler.schedule` picks a few
# steps to record. Without one, the whole block is recorded.
#
# 1. ``wait=1``: the first step runs unrecorded. It can do one-off work;
#    here SGD creates its :term:`momentum` buffers.
# 2. ``warmup=1``: the second step sets the profiler up. Nothing from it is
#    kept.
# 3. ``active=4``: the next four steps are recorded; ``repeat=1`` runs
#    this cycle once.
#
# The site's :class:`~tutorial_utils.models.MLP` has one hidden layer here.
torch.manual_seed(0)
model = MLP(64, [64], 10)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
cycle = schedule(wait=1, warmup=1, active=4, repeat=1)
with profile(activities=[ProfilerActivity.CPU], schedule=cycle) as prof:
    losses_before = train(loader, model, optimizer, steps=6, prof=prof)

# %%
# .. check:: one hidden layer; no gradient or graph is left after ``train``
assert (model.layers[0].out_features, len(model.layers)) == (64, 3)
assert all(p.grad is None for p in model.parameters())  # reset by zero_grad
assert losses_before.grad_fn is None  # the losses were detached from their graphs

# %%
# .. check:: SGD's first step makes its buffers; warm-up records nothing
assert not torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9).state
assert all("momentum_buffer" in optimizer.state[p] for p in model.parameters())
with profile(activities=[ProfilerActivity.CPU], schedule=cycle) as probe:
    states = []  # (set up, recording) in the wait, warm-up and first active step
    for _ in range(3):
        states.append((probe.profiler is not None, torch.autograd._profiler_enabled()))
        probe.step()
assert states == [(False, False), (True, False), (True, True)]

# %%
# Reading the table
# -----------------
# Each call the profiler records, of an operator or a region, is an
# *event*. :meth:`~torch.profiler.profile.key_averages` sums the events by
# name, one row per name. Most rows are operators such as ``aten::addmm``.
# Others include backward functions such as ``AddmmBackward0`` and our
# regions. PyTorch adds labels too, such as ``ProfilerStep*`` for the steps
# and ``enumerate(DataLoader)#...`` for the loader.
#
# A row's "Self CPU" is its time less that of the events inside it, its
# children. Its "CPU total" includes them. Despite the name, both are
# wall-clock time on that thread. So a region that only waits still gets
# its full length.
#
# ``table`` here prints the ten rows with the most self time. The time of
# ``data loading`` is mostly in its child, the loader's row. So its own row
# can be missing from the ten.
averages = prof.key_averages()
print(averages.table(sort_by="self_cpu_time_total", row_limit=10))

# %%
# .. check:: most rows are operators; the others are there; ten are shown
names = {row.key for row in averages}
assert set(REGIONS) | {"Optimizer.step#SGD.step", "ProfilerStep*"} <= names
assert any(name.startswith("enumerate(DataLoader)#") for name in names)
assert {"aten::addmm", "AddmmBackward0"} <= names
assert sum(name.startswith("aten::") for name in names) > len(names) / 2
shown = averages.table(sort_by="self_cpu_time_total", row_limit=10)
most = sorted(averages, key=lambda row: row.self_cpu_time_total)[-10:]
assert all(row.key[:40] in shown for row in most)  # the ten with most self time

# %%
# .. check:: a region that only sleeps 20 ms gets 18 ms or more, in both columns
with profile(activities=[ProfilerActivity.CPU]) as idle, record_function("sleep"):
    time.sleep(0.02)
row = next(row for row in idle.key_averages() if row.key == "sleep")
slept = min(row.cpu_time_total, row.self_cpu_time_total)  # microseconds
check_timing("sleep counts", slept / 2e4, above=0.9, clock="the profiler's wall clock")

# %%
# .. check:: ``data loading`` has one child, the loader's, with most of its time
calls = [event for event in prof.events() if event.name == "data loading"]
for call in calls:
    inside = sum(child.cpu_time_total for child in call.cpu_children)
    own = call.self_cpu_time_total
    assert (own, len(call.cpu_children)) == (call.cpu_time_total - inside, 1)
    assert call.cpu_children[0].name.startswith("enumerate(DataLoader)#")
# Interruptions only add time: compare the quickest self time of the four
# calls with the quickest child.
own = min(call.self_cpu_time_total for call in calls)
inside = min(call.cpu_children[0].cpu_time_total for call in calls)
wall = "the profiler's wall clock"
check_timing("self time is the smaller part", own / inside, below=1, clock=wall)

# %%
# Where a step spends its time
# ----------------------------
# One interrupted step can swell a row. Interruptions only
# add time, so the quickest of a region's four calls counts, as in
# :ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`.
# :meth:`prof.events() <torch.profiler.profile.events>` lists the recorded
# events. An event's ``cpu_time_total`` is the length of that one call, in
# microseconds. ``format_time`` takes seconds and adds a unit. Loading
# takes longest:
before = {
    region: min(e.cpu_time_total for e in prof.events() if e.name == region)
    for region in REGIONS
}
print("quickest of 4 calls, and share:")
for region, micros in before.items():
    share = micros / sum(before.values())
    print(f"{region:>14}: {format_time(micros * 1e-6):>9}, {share:4.0%}")
others = max(before[region] for region in REGIONS[1:])  # all but data loading
wall = "the profiler's wall clock"
check_timing("loading takes longest", before[REGIONS[0]] / others, above=1, clock=wall)

# %%
# .. check:: each region ran once in each recorded step; an event is one call
assert all(sum(e.name == region for e in prof.events()) == 4 for region in REGIONS)
step_ids = {e.id for e in prof.events() if e.name == "ProfilerStep*"}
assert {e.cpu_parent.id for e in prof.events() if e.name in REGIONS} == step_ids
for region in REGIONS:
    calls = sorted(
        (e for e in prof.events() if e.name == region), key=lambda e: e.time_range.start
    )
    ends = [call.time_range.end for call in calls[:-1]]
    assert all(
        end <= call.time_range.start for end, call in zip(ends, calls[1:], strict=True)
    )
    assert all(call.cpu_time_total <= call.cpu_parent.cpu_time_total for call in calls)

# %%
# A trace to look at
# ------------------
# :meth:`~torch.profiler.profile.export_chrome_trace` writes the events to a
# :term:`trace` file in JSON, compressed if the name ends in ``.gz``. A
# viewer draws it as a timeline: steps above regions above operators, with
# arrows from forward operators to the backward functions they gave rise
# to. :download:`training_trace.json.gz <training_trace.json.gz>` opens as
# it is in the Perfetto UI (``ui.perfetto.dev``). W and S zoom, A and D pan.
prof.export_chrome_trace("training_trace.json.gz")

# %%
# .. check:: the gzip file holds every event, steps #2 to #5 only, and the links
with gzip.open("training_trace.json.gz", "rt") as file:
    trace = json.load(file)
complete = [event for event in trace["traceEvents"] if event.get("ph") == "X"]
seen = Counter(event["name"] for event in complete)
assert all(seen[region] == 4 for region in REGIONS)
assert [seen[f"ProfilerStep#{n}"] for n in range(6)] == [0, 0, 1, 1, 1, 1]
assert not Counter(e.name for e in prof.events()) - seen - Counter({"ProfilerStep*": 4})
assert all("ts" in event and "dur" in event for event in complete)
flows = [event for event in trace["traceEvents"] if event.get("cat") == "fwdbwd"]
tags = {"s": "aten::", "f": "Backward0"}  # from operators to autograd nodes
at = {(e["tid"], e["ts"], t) for e in complete for t in tags.values() if t in e["name"]}
assert {event["ph"] for event in flows} == {"s", "f"}
assert all((e["tid"], e["ts"], tags[e["ph"]]) in at for e in flows)
assert any(event["name"] == "thread_name" for event in trace["traceEvents"])

# %%
# Whole batches at once
# ---------------------
# For each batch, ``__getitem__`` makes
# two small tensors per sample, and the loader stacks them: Python and tiny
# operators. The fix converts the data set once. :func:`torch.from_numpy`
# makes a tensor that shares the array's memory. A
# :class:`~torch.utils.data.TensorDataset` indexes its tensors with a list
# of indices, which returns a whole batch:
dataset = TensorDataset(torch.from_numpy(features), torch.from_numpy(labels))
three = dataset[[0, 1, 2]]
print([tuple(t.shape) for t in three])

# %%
# .. check:: ``from_numpy`` copies nothing; a list of indices fetches a batch
assert dataset.tensors[0].data_ptr() == features.ctypes.data
assert three[0].shape == (3, 64)
assert torch.equal(three[1], digits.train_labels[:3])

# %%
# A :class:`~torch.utils.data.RandomSampler` yields shuffled indices, and a
# :class:`~torch.utils.data.BatchSampler` groups them in lists of 64. With
# ``batch_size=None`` the loader hands each list to the data set as it is.
# As ``batch_sampler=``, the loader would fetch the list's samples one by
# one again. The first loader built the same two samplers from
# ``shuffle=True``. After the same seed, they draw the same batches. So the
# same model gets the same losses, bit for bit.
batch_loader = DataLoader(
    dataset,
    batch_size=None,
    sampler=BatchSampler(RandomSampler(dataset), batch_size=64, drop_last=False),
)
torch.manual_seed(0)
model = MLP(64, [64], 10)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
with profile(activities=[ProfilerActivity.CPU], schedule=cycle) as prof_after:
    losses_after = train(batch_loader, model, optimizer, steps=6, prof=prof_after)
print("losses:", losses_after[:3], "...")

# %%
# .. check:: same samplers as the first loader; lists pass as is; same losses
samplers = (type(loader.sampler), type(loader.batch_sampler), loader.batch_size)
assert (*samplers, loader.drop_last) == (RandomSampler, BatchSampler, 64, False)
with torch.random.fork_rng(devices=[]):
    assert [len(indices) for indices in batch_loader.sampler] == sizes
    listed = DataLoader(dataset, batch_size=None, sampler=[[5, 1]])
    assert torch.equal(next(iter(listed))[0], dataset[[5, 1]][0])
asked = []  # what the loader passes to the data set, as sampler= or batch_sampler=


class _Spy(TensorDataset):
    def __getitem__(self, index):
        asked.append(index)
        return super().__getitem__(index)


spy = _Spy(*dataset.tensors)
with torch.random.fork_rng(devices=[]):  # each iter() draws a seed
    next(iter(DataLoader(spy, batch_size=None, sampler=[[5, 1]])))
    next(iter(DataLoader(spy, batch_sampler=[[5, 1]])))
assert asked == [[5, 1], 5, 1], "batch_sampler= fetches one sample at a time"
assert torch.equal(losses_after, losses_before)

# %%
# Profiled again, data loading is no longer the largest region, and a step
# records far fewer events. Each bar of the picture stacks the regions'
# quickest calls, divided by 1,000 to turn microseconds into milliseconds.
# Matplotlib's ``ax.barh`` draws a bar that starts at ``left``. ``PALETTE``
# holds the site's colours, picked by index; ``ax.legend`` names them. Only
# the "before" bar's pieces get labels, so the legend names each region once.
after = {
    region: min(e.cpu_time_total for e in prof_after.events() if e.name == region)
    for region in REGIONS
}
per_step = [len(p.events()) // 4 for p in (prof, prof_after)]
print(f"events recorded per step: {per_step[0]} before, {per_step[1]} after")
share = after[REGIONS[0]] / max(after[region] for region in REGIONS[1:])
check_timing("loading is no longer longest", share, below=1, clock=wall)

fig, ax = plt.subplots(figsize=(6, 2.2), layout="constrained")
for name, times in (("after", after), ("before", before)):
    left = 0.0
    for region, colour in zip(REGIONS, (6, 5, 0, 2), strict=True):
        width = times[region] / 1e3
        label = region if name == "before" else None
        ax.barh(name, width, left=left, color=PALETTE[colour], label=label)
        left += width
ax.set(xlabel="milliseconds (quickest of 4 calls each)", title="profiled regions")
ax.legend(ncols=2, fontsize=8, loc="lower right")
plt.show()

# %%
# .. check:: a step records far fewer events: over five times fewer
assert per_step[0] > 5 * per_step[1]

# %%
# The speed-up, without the profiler
# ----------------------------------
# Recording takes time too: fetching a first batch from the per-sample
# loader is slower under a profiler. A :class:`~torch.utils.benchmark.Timer`
# measures it in this thread's CPU time, ``time.thread_time``. Each turn
# times four fetches without a profiler, then four with one. The quickest
# of seven turns counts for each.
cpu, thread = time.thread_time, "thread CPU time"
fetch = Timer("next(iter(loader))", globals={"loader": loader}, timer=cpu)


def fetch_times():
    """Quickest of seven turns of four fetches: unprofiled, then profiled."""
    plain, profiled = [], []
    for _ in range(7):
        plain.append(fetch.timeit(4).mean)
        with profile(activities=[ProfilerActivity.CPU]):
            profiled.append(fetch.timeit(4).mean)
    return min(plain), min(profiled)


unrecorded, recorded = fetch_times()
print(f"one batch from the per-sample loader: {format_time(unrecorded)}")
print(f"the same, profiled: {format_time(recorded)} ({recorded / unrecorded:.1f}x)")

# %%
# .. check:: recording costs time: over a tenth more
readings = [recorded / unrecorded]  # the printed ratio first, then fresh ones


def recording_cost():
    if readings:
        return readings.pop()
    with torch.random.fork_rng(devices=[]):  # the loader shuffles
        plain, profiled = fetch_times()
    return profiled / plain


claim = "recording costs time"
check_timing(claim, recording_cost, above=1.1, clock=thread, attempts=3)

# %%
# So the gain is measured without the profiler. Each version trains whole
# epochs, in turns. A turn is one ``timeit(1)``: two untimed epochs of
# warm-up, then one timed. The quickest of five counts. The turns keep
# training the last model: only their time matters here. The check asks for
# more than a fifth off:
loaders = {"per-sample loader": loader, "whole-batch loader": batch_loader}
epoch_times = {name: [] for name in loaders}
for _ in range(5):
    for name, each in loaders.items():
        objects = {"train": train, "each": each, "model": model, "opt": optimizer}
        timer = Timer("train(each, model, opt)", globals=objects, timer=cpu)
        epoch_times[name].append(timer.timeit(1).mean)
quickest = {name: min(times) for name, times in epoch_times.items()}
for name, seconds in quickest.items():
    print(f"{name}: {format_time(seconds)} per epoch")
speedup = quickest["per-sample loader"] / quickest["whole-batch loader"]
print(f"an epoch is {speedup:.1f} times faster")
check_timing("an epoch is quicker", 1 / speedup, below=0.8, clock=thread)

# %%
# .. check:: ``timeit(4)`` and ``timeit(1)`` each make two untimed calls first
calls = []
counter = Timer("calls.append(None)", globals={"calls": calls})
counter.timeit(4)
counter.timeit(1)
assert len(calls) == (2 + 4) + (2 + 1)  # two warm-up calls before each

# %%
# Summary
# -------
# - A :class:`~torch.profiler.profile` with a
#   :func:`~torch.profiler.schedule` records a few steps of a loop.
# - ``key_averages()`` sums events by name. "Self CPU" leaves out the
#   children; both columns count waiting.
# - :class:`~torch.profiler.record_function` labels the phases. Compare the
#   quickest call of each.
# - ``export_chrome_trace`` writes a trace for the Perfetto UI.
# - With data in memory, fetch whole batches; time the gain unprofiled.
#
# Next, :ref:`sphx_glr_auto_examples_performance_plot_04_mixed_precision.py`
# computes with fewer bits per number. Exercises for this page:
# :ref:`exercises-performance-03`.
