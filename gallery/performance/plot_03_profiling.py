"""
Profiling a training loop
=========================

Find where a training step spends its time with :mod:`torch.profiler`: read
its table of operators, label the phases of the loop, save a trace to look
at in a browser, and check with a timing that the fix it points to pays.
"""

# %%
# The page runs on the CPU, on one thread (:func:`torch.set_num_threads`),
# so that its times depend less on how many cores the machine has and on
# what else keeps them busy; the line below names the machine.
import gzip
import json
import time
from collections import Counter

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile, record_function, schedule
from torch.utils.benchmark import Timer
from torch.utils.data import (
    BatchSampler,
    DataLoader,
    Dataset,
    RandomSampler,
    TensorDataset,
)

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
# The handwritten digits of
# :ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`, kept as
# NumPy arrays, the way data often arrive. The
# :class:`~torch.utils.data.Dataset` below turns one sample into
# :term:`tensors <tensor>` each time the
# :class:`~torch.utils.data.DataLoader` asks for it, a common first
# version; the loader then stacks 64 of them into a :term:`batch`, and the
# samples left over at the end of an epoch into a shorter last batch.
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
sizes = [len(batch) for batch in loader.batch_sampler]
print(f"{len(loader.dataset)} samples, {len(loader)} batches, the last of {sizes[-1]}")

# %%
# .. check:: every batch holds 64 samples but the last, which holds those left over
assert sizes == [64] * (len(sizes) - 1) + [len(labels) % 64]

# %%
# The training loop is that of the training section, with each phase inside
# a :class:`torch.profiler.record_function` block: a label that a running
# profiler records as a range with a start and an end, like an operator.
# The batch is fetched with :func:`next` so that its fetching has a region
# of its own. :meth:`prof.step() <torch.profiler.profile.step>` tells a
# profiler that a step has ended. The function returns the :term:`loss` of
# every step.
#
# .. detail:: Why zero_grad after the step
#
#    :meth:`~torch.optim.Optimizer.zero_grad` right after
#    :meth:`~torch.optim.Optimizer.step` is as good as before the forward pass
#    if ``train`` starts with no :term:`gradients <gradient>` left over, as
#    here: each :meth:`~torch.Tensor.backward` starts from none.
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
# :class:`torch.profiler.profile` records the operators that run inside its
# ``with`` block, with when each started and ended. A few steps are enough,
# and a *schedule* (:func:`torch.profiler.schedule`) picks them; without
# one, the whole block is recorded. The first ``wait=1`` step runs
# unrecorded, since a first call can do one-off work that later calls skip
# (:ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`);
# here, for one, SGD with momentum creates its momentum buffers in its
# first step. During the ``warmup=1`` step the profiler is set up but, with
# only :class:`ProfilerActivity.CPU <torch.profiler.ProfilerActivity>` as
# here, records nothing yet; the ``active=4`` steps after it are recorded
# and kept, and ``repeat=1`` runs the cycle once. The model, an
# :class:`~tutorial_utils.models.MLP`, has one hidden layer of 64 units.
torch.manual_seed(0)
model = MLP(64, [64], 10)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
cycle = schedule(wait=1, warmup=1, active=4, repeat=1)
with profile(activities=[ProfilerActivity.CPU], schedule=cycle) as prof:
    losses_before = train(loader, model, optimizer, steps=6, prof=prof)

# %%
# .. check:: a new SGD has no momentum buffers and the trained one has; no gradient is left; warm-up records nothing
_fresh = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
assert not _fresh.state  # no momentum buffers before the first step
assert all("momentum_buffer" in optimizer.state[p] for p in model.parameters())
assert all(p.grad is None for p in model.parameters())  # reset by zero_grad
with profile(activities=[ProfilerActivity.CPU], schedule=cycle) as probe:
    states = []  # (set up, recording) in the wait, warm-up and first active step
    for _ in range(3):
        states.append((probe.profiler is not None, torch.autograd._profiler_enabled()))
        probe.step()
assert states == [(False, False), (True, False), (True, True)]

# %%
# :meth:`~torch.profiler.profile.key_averages` adds up the recorded events
# by name, one row per name: :term:`operators <operator>` (most named
# ``aten::...``), the backward functions of the :term:`computational graph`
# that ``backward()`` runs (``AddmmBackward0`` and others), the labels of
# our four regions, and labels PyTorch puts on its own work, such as the
# loader's ``__next__`` (``enumerate(DataLoader)#...``), the optimiser's
# step and ``ProfilerStep*``, the steps as ``prof.step()`` marks them. Its
# ``table`` prints the rows with the most *self* time, here ten. "Self
# CPU" is a row's time less that of the recorded events inside it (its
# children); "CPU total" includes them. So a label whose time is mostly in
# its children, such as ``data loading`` below, may be missing from the
# ten.
averages = prof.key_averages()
print(averages.table(sort_by="self_cpu_time_total", row_limit=10))

# %%
# .. check:: most rows are operators; backward functions, our regions and PyTorch's labels are there too
names = {row.key for row in averages}
assert set(REGIONS) | {"Optimizer.step#SGD.step", "ProfilerStep*"} <= names
assert any(name.startswith("enumerate(DataLoader)#") for name in names)
assert "AddmmBackward0" in names
assert sum(name.startswith("aten::") for name in names) > len(names) / 2

# %%
# One call of the ``data loading`` region, from
# :meth:`prof.events() <torch.profiler.profile.events>`, the list of every
# recorded event: its one child is the loader's ``__next__``, and its self
# time, its total less that child's, is the smaller part.
region = next(event for event in prof.events() if event.name == "data loading")
inside = sum(child.cpu_time_total for child in region.cpu_children)
print([child.name for child in region.cpu_children])
own = region.self_cpu_time_total
print(f"total {format_time(region.cpu_time_total * 1e-6)}, children", end=" ")
print(f"{format_time(inside * 1e-6)}, self {format_time(own * 1e-6)}")
wall = "the profiler's wall clock"
check_timing("self time is the smaller part", own / inside, below=1, clock=wall)

# %%
# .. check:: the region has one child, and its self time is its total less that child's
assert (own, len(region.cpu_children)) == (region.cpu_time_total - inside, 1)

# %%
# What "CPU time" means
# ---------------------
# "Self CPU" and "CPU total" both measure time between the start and the
# end of an event on the thread that ran it, not the time the processor
# was busy for it: a region that only waits, for a file, another process
# or here :func:`time.sleep`, still gets its full length.
with profile(activities=[ProfilerActivity.CPU]) as idle, record_function("sleep"):
    time.sleep(0.02)
slept = next(row for row in idle.key_averages() if row.key == "sleep")
print(f"20 ms of sleep: CPU total {format_time(slept.cpu_time_total * 1e-6)}")
check_timing("a sleep counts", slept.cpu_time_total / 20e3, above=0.9, clock=wall)

# %%
# Where a step spends its time
# ----------------------------
# The table sums over the four steps, so one step that another program
# interrupted can swell a row. Interruptions only ever add time, so the
# quickest of a region's four calls counts here, as in
# :ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`:
# it is no longer than any call that ran uninterrupted. A region's
# ``cpu_time_total`` in ``prof.events()`` is the length of one call,
# children included. Each region's quickest call is picked on its own, so
# they can come from different steps; the shares are of their sum. Loading
# the data takes longer than each of the other three phases:
before = {
    region: min(e.cpu_time_total for e in prof.events() if e.name == region)
    for region in REGIONS
}
print("quickest of 4 calls, and share:")
for region, micros in before.items():
    share = micros / sum(before.values())
    print(f"{region:>14}: {format_time(micros * 1e-6):>9}, {share:4.0%}")
others = max(before[region] for region in REGIONS[1:])  # all but data loading
check_timing("loading takes longest", before[REGIONS[0]] / others, above=1, clock=wall)

# %%
# .. check:: each region was recorded four times, once in each active step
assert all(sum(e.name == region for e in prof.events()) == 4 for region in REGIONS)

# %%
# A trace to look at
# ------------------
# :meth:`~torch.profiler.profile.export_chrome_trace` writes the recorded
# events as a :term:`trace` in the Chrome trace format: JSON whose
# ``traceEvents`` list holds, for each event of ``prof.events()``, an entry
# with its start and its length (a *complete* event, ``"ph": "X"``), and
# entries of other kinds besides, such as the links and the names of the
# threads. Given a name that ends in ``.gz``, it compresses the file with
# gzip, and ``gzip.open`` reads it back. A trace viewer draws it as a timeline, a
# track per thread with each event above those nested in it: the recorded
# steps (``ProfilerStep#2`` to ``#5``; the waiting and warm-up steps are
# not there), inside them our regions, inside those the operators, with
# links from operators of the forward pass to the backward functions they
# gave rise to. The file from this page,
# :download:`training_trace.json.gz <training_trace.json.gz>`, opens as it
# is, compressed, in the Perfetto UI (``ui.perfetto.dev``, *Open trace
# file*); W and S zoom, A and D pan.
#
# .. detail:: Compression by version
#
#    PyTorch 2.4 and 2.13 both compress a trace whose name ends in ``.gz``;
#    the docstring of ``export_chrome_trace`` does not say so.
prof.export_chrome_trace("training_trace.json.gz")
with gzip.open("training_trace.json.gz", "rt") as file:
    trace = json.load(file)
complete = [event for event in trace["traceEvents"] if event.get("ph") == "X"]
labels_seen = Counter(event["name"] for event in complete)
print(f"{len(trace['traceEvents'])} entries, {len(complete)} complete events")
print("our regions:", {region: labels_seen[region] for region in REGIONS})

# %%
# .. check:: the trace has every event with start and length, only steps #2 to #5, links and thread names
assert all(labels_seen[region] == 4 for region in REGIONS)
assert all(labels_seen[f"ProfilerStep#{step}"] == 1 for step in range(2, 6))
assert labels_seen["ProfilerStep#0"] == labels_seen["ProfilerStep#1"] == 0
listed = Counter(event.name for event in prof.events())
assert not listed - labels_seen - Counter({"ProfilerStep*": 4})
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
# The profile points at the loading: for each batch, one call of
# ``__getitem__`` per sample makes two small tensors, and the loader then
# stacks them, all of it Python and tiny operators. The fix does the
# conversion once, for the whole data set (:func:`torch.from_numpy` shares
# the array's memory, nothing is copied), and fetches each batch with one
# indexing per tensor. :class:`~torch.utils.data.TensorDataset` accepts a
# list of indices and returns a whole batch:
dataset = TensorDataset(torch.from_numpy(features), torch.from_numpy(labels))
three = dataset[[0, 1, 2]]
print([tuple(t.shape) for t in three])

# %%
# .. check:: ``torch.from_numpy`` copies nothing, and a list of indices fetches a whole batch
assert dataset.tensors[0].data_ptr() == features.ctypes.data
assert three[0].shape == (3, 64)
assert torch.equal(three[1], digits.train_labels[:3])

# %%
# A :class:`~torch.utils.data.BatchSampler` around a
# :class:`~torch.utils.data.RandomSampler` yields lists of shuffled
# indices, as many and as long as the first loader's batches; with
# ``batch_size=None`` the loader hands each list to the data set as it is,
# instead of fetching samples one by one. It draws its random numbers as
# ``shuffle=True`` does, so after the same seed the same model sees the
# same batches: the losses are the same, bit for bit. The fix changes the
# speed, not the training.
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
# .. check:: the batches are as many and as long as before, and the losses the same, bit for bit
with torch.random.fork_rng(devices=[]):
    assert [len(indices) for indices in batch_loader.sampler] == sizes
assert torch.equal(losses_after, losses_before)

# %%
# Profiled again, data loading is no longer the largest region, and a step
# records far fewer events. Each bar of the picture stacks the quickest
# calls of the four regions:
after = {
    region: min(e.cpu_time_total for e in prof_after.events() if e.name == region)
    for region in REGIONS
}
for region in REGIONS:
    print(f"{region:>14}: {format_time(before[region] * 1e-6):>9} before, ", end="")
    print(f"{format_time(after[region] * 1e-6):>9} after")
per_step = [len(p.events()) // 4 for p in (prof, prof_after)]
print(f"events recorded per step: {per_step[0]} before, {per_step[1]} after")
share = after[REGIONS[0]] / max(after[region] for region in REGIONS[1:])
check_timing("loading is no longer longest", share, below=1, clock=wall)

fig, ax = plt.subplots(figsize=(6, 2.2), layout="constrained")
for row, (name, times) in enumerate((("before", before), ("after", after))):
    left = 0.0
    for region, colour in zip(REGIONS, (6, 5, 0, 2), strict=True):
        width = times[region] / 1e3
        label = region if row == 0 else None
        ax.barh(name, width, left=left, color=PALETTE[colour], label=label)
        left += width
ax.invert_yaxis()
ax.set(xlabel="milliseconds (quickest of 4 calls each)", title="profiled regions")
ax.legend(ncols=2, fontsize=8, loc="lower right")
plt.show()

# %%
# .. check:: a step records far fewer events: over five times fewer
assert per_step[0] > 5 * per_step[1]

# %%
# The speed-up, without the profiler
# ----------------------------------
# Recording an operator takes time too, and the per-sample loading runs
# many small ones: fetching a first batch from the old loader takes longer
# while a profiler records. A :class:`~torch.utils.benchmark.Timer` times
# four fetches at a time, after two untimed ones of warm-up, without and
# with a profiler in turns; the quickest of seven turns counts for each.
# It reads this thread's CPU time (``timer=time.thread_time``): the loader
# and the profiler both work in this thread. Other programs can still slow
# a turn, so the check measures again, three times at most, if the
# profiled fetch was not the slower. The profile says where the time goes;
# how much a fix saves, a timing without it says.
cpu, thread = time.thread_time, "thread CPU time"
fetch = Timer("next(iter(loader))", globals={"loader": loader}, timer=cpu)


fetched = []  # (without, with) a profiler, in seconds, for each measurement


def recording_ratio():
    """Time 7 turns without and with a profiler; the ratio of the quickest."""
    plain, profiled = [], []
    for _ in range(7):
        plain.append(fetch.timeit(4).mean)
        with profile(activities=[ProfilerActivity.CPU]):
            profiled.append(fetch.timeit(4).mean)
    fetched.append((min(plain), min(profiled)))
    return min(profiled) / min(plain)


check_timing("recording costs time", recording_ratio, above=1, clock=thread, attempts=3)
unrecorded, recorded = fetched[-1]
print(f"one batch from the per-sample loader: {format_time(unrecorded)}")
print(f"the same, profiled: {format_time(recorded)} ({recorded / unrecorded:.1f}x)")

# %%
# Each version now trains for whole epochs, without a profiler (and so
# ``record_function`` records nothing), in turns, as in
# :ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`.
# A turn is one ``timeit(1)``: two untimed epochs of warm-up, then one
# timed; the quickest of ten timed epochs counts for each, in CPU time.
# Whole batches make an epoch quicker; the check asks for more than a fifth
# off; the last line gives the ratio on this machine:
loaders = {"per-sample loader": loader, "whole-batch loader": batch_loader}
epoch_times = {name: [] for name in loaders}
for _ in range(10):
    for name, each in loaders.items():
        objects = {"train": train, "each": each, "model": model, "opt": optimizer}
        timer = Timer("train(each, model, opt)", globals=objects, timer=cpu)
        epoch_times[name].append(timer.timeit(1).mean)
quickest = {name: min(times) for name, times in epoch_times.items()}
for name, seconds in quickest.items():
    print(f"{name}: {format_time(seconds)} per epoch")
speedup = quickest["per-sample loader"] / quickest["whole-batch loader"]
print(f"an epoch is {speedup:.1f} times faster")
share = quickest["whole-batch loader"] / quickest["per-sample loader"]
check_timing("whole batches make an epoch quicker", share, below=0.8, clock=thread)

# %%
# .. check:: ``timeit(4)`` and ``timeit(1)`` make two untimed warm-up calls before those they time
calls = []
counter = Timer("calls.append(None)", globals={"calls": calls})
counter.timeit(4)
counter.timeit(1)
assert len(calls) == (2 + 4) + (2 + 1)  # two warm-up calls before each

# %%
# Summary
# -------
# - :class:`torch.profiler.profile` with a :func:`~torch.profiler.schedule` records a
#   few steps after skipping the first ones; ``prof.step()`` ends each step.
# - ``prof.key_averages().table(sort_by="self_cpu_time_total")`` lists the
#   rows with the most time of their own; "CPU total" adds their children.
#   Both are elapsed time on the thread, waiting included.
# - :class:`~torch.profiler.record_function` labels the phases of a loop;
#   the quickest call of each leaves out what interruptions added to the
#   other calls, which the sums of the table include.
# - ``prof.export_chrome_trace("trace.json.gz")`` writes a trace, compressed
#   with gzip, that the Perfetto UI draws as a timeline.
# - A data set that builds each sample on its own can take longer than any
#   phase of the step: convert once and fetch whole batches. Measure the
#   gain without the profiler, whose recording adds time of its own.
#
# Next, :ref:`sphx_glr_auto_examples_performance_plot_04_mixed_precision.py`
# computes with fewer bits per number. Exercises for this page:
# :ref:`exercises-performance-03`.
