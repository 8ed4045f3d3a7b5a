"""
Training on several processes
=============================

Train one model in two processes with
:class:`~torch.nn.parallel.DistributedDataParallel`, give each process its
share of the data with a
:class:`~torch.utils.data.distributed.DistributedSampler`, and check that
the result matches training in one process.

**Before this page:**
:ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py`,
:ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py` and
:ref:`sphx_glr_auto_examples_training_plot_07_reproducible_runs.py`.
"""
# sphinx_gallery_budget_seconds = 30, "starts two training processes: on a busy machine, the time they wait for a CPU counts against the page"

# %%
# This page runs on the CPU and starts two real training processes.
import inspect

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch.nn.utils import parameters_to_vector
from torch.utils.data.distributed import DistributedSampler

import tutorial_utils.distributed
from tutorial_utils.data import toy_datasets, toy_tensors
from tutorial_utils.distributed import run_ddp
from tutorial_utils.environment import environment_summary
from tutorial_utils.grids import draw_tensors
from tutorial_utils.models import NeuralNetwork

print(environment_summary(torch.device("cpu")))

# %%
# The idea
# --------
# *Data-parallel* training runs several processes at once, usually one per
# GPU. They form a *process group*. Each knows its :term:`process rank`, 0,
# 1 and so on, and the :term:`world size`, the number of processes.
#
# Each process holds a full copy of the model. It computes the
# :term:`gradients <gradient>` of the :term:`loss` on its own share of each
# :term:`batch`. :class:`~torch.nn.parallel.DistributedDataParallel`, DDP for
# short, wraps the model and keeps the copies equal:
#
# 1. By default, when DDP is built, it copies process rank 0's parameters
#    to all, and its *buffers*: tensors a model keeps that are not parameters.
# 2. By default, it averages the gradients over the processes during
#    :meth:`~torch.Tensor.backward`.
# 3. Every process then takes the same :term:`optimiser` step.

# %%
# .. check:: ``init_sync`` can skip the copy, and ``no_sync`` the averaging
ddp_class = torch.nn.parallel.DistributedDataParallel
ddp_options = inspect.signature(ddp_class.__init__).parameters
if torch.__version__ >= (2, 5):  # ``init_sync=False`` skips the copy
    assert ddp_options["init_sync"].default is True
    assert "broadcast parameters and buffers" in " ".join(ddp_class.__doc__.split())
else:
    assert "init_sync" not in ddp_options  # no such option in PyTorch 2.4
no_sync = " ".join(ddp_class.no_sync.__doc__.split())
assert "disable gradient synchronizations across DDP processes" in no_sync

# %%
# Who gets which samples
# ----------------------
# A *sampler* picks which indices a loader reads. A
# :class:`~torch.utils.data.distributed.DistributedSampler` gives each
# process a share of the data set. Its ``num_replicas`` is the world size;
# its ``rank`` is the process rank.
#
# 1. The sampler shuffles the indices with a generator seeded with
#    ``seed + epoch``. Its method
#    :meth:`~torch.utils.data.distributed.DistributedSampler.set_epoch` sets
#    the :term:`epoch`.
# 2. With two processes, each takes every second index of that order,
#    starting at its process rank.
#
# Here one process builds both processes' samplers, to show their shares.
# ``list(sampler)`` gives a sampler's share for the current epoch. The
# site's ``toy_datasets`` returns the earlier pages' toy data set, five
# samples.
train_ds, _ = toy_datasets()
samplers = [
    DistributedSampler(train_ds, num_replicas=2, rank=rank, shuffle=True, seed=123)
    for rank in range(2)
]
shares = {}
for epoch in range(3):
    for rank, sampler in enumerate(samplers):
        sampler.set_epoch(epoch)
        shares[epoch, rank] = list(sampler)
    print(f"epoch {epoch + 1}: shares {shares[epoch, 0]} and {shares[epoch, 1]}")

# %%
# .. check:: ``seed + epoch`` sets the order, not the global generator
fixed = DistributedSampler(train_ds, num_replicas=2, rank=0, seed=123)
assert list(fixed) == list(fixed) == shares[0, 0]
fixed.set_epoch(1)
assert list(fixed) == shares[1, 0] != shares[0, 0]
assert list(DistributedSampler(train_ds, 2, 0, seed=124)) == shares[1, 0]
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(0)
    assert list(DistributedSampler(train_ds, 2, 0, seed=123)) == shares[0, 0]

# %%
# With plain DDP, every process must take the same number of steps: each
# step waits for every process's gradients. Five samples do not split
# evenly, so the sampler pads the order to six by repeating its first index.
#
# .. detail:: Cutting instead of padding, and uneven shares
#
#    With ``drop_last=True`` the sampler cuts the order to four instead,
#    leaving one sample out of that epoch.
#
#    Inside the context manager ``DistributedDataParallel.join()``, the
#    processes may have different numbers of batches. A process that has
#    run out keeps answering the others' gradient exchanges.
#
# The site's helper ``draw_tensors`` draws the shares, one row per epoch.
# Process rank 0's share starts with the repeated index. So ``repeated``,
# the first column of its table, holds that index for each epoch.
# The slice ``:1`` keeps it a column, shape ``(3, 1)``. So, by broadcasting,
# ``table == repeated`` compares each row with its epoch's index.
# ``.long()`` turns the result into 1s and 0s, and ``groups`` colours the 1s.
tables = [torch.tensor([shares[epoch, rank] for epoch in range(3)]) for rank in (0, 1)]
repeated = tables[0][:, :1]
twice = [(table == repeated).long() for table in tables]
draw_tensors(tables, ["process rank 0", "process rank 1"], groups=twice)
plt.show()

# %%
# .. check:: the order is padded with its first index; ``repeated`` is a column
assert repeated.shape == (3, 1)
orders = []  # each epoch's order: the two shares interleaved
for epoch in range(3):
    pairs = zip(shares[epoch, 0], shares[epoch, 1], strict=True)
    orders.append([index for pair in pairs for index in pair])
    assert sorted(orders[epoch][:5]) == [0, 1, 2, 3, 4]
    assert orders[epoch][5] == orders[epoch][0] == shares[epoch, 1][-1]
    assert (twice[0][epoch] == 1).tolist() == [
        i == orders[epoch][0] for i in shares[epoch, 0]
    ]

# %%
# .. check:: ``drop_last=True`` cuts the order to four; ``join`` allows uneven inputs
dropping = [
    list(DistributedSampler(train_ds, 2, rank, seed=123, drop_last=True))
    for rank in range(2)
]
pairs = zip(*dropping, strict=True)
pairs_0 = zip(shares[0, 0], shares[0, 1], strict=True)
first_order = [index for pair in pairs_0 for index in pair]
assert [index for pair in pairs for index in pair] == first_order[:4]
join = " ".join(torch.nn.parallel.DistributedDataParallel.join.__doc__.split())
assert "uneven inputs" in join
assert '"shadow" the forward and backward passes' in join  # for the others

# %%
# Every process must give its sampler the same ``seed``. With seeds 123 and
# 124, the shares come from two different orders, and can miss a sample:
mixed = [
    list(DistributedSampler(train_ds, num_replicas=2, rank=rank, seed=123 + rank))
    for rank in range(2)
]
never_used = sorted(set(range(len(train_ds))) - set(mixed[0] + mixed[1]))
print(f"seeds 123 and 124: {mixed[0]} and {mixed[1]}; never used: {never_used}")

# %%
# .. check:: with seeds 123 and 124 a sample goes unused
assert never_used

# %%
# The worker
# ----------
# Each process runs the site's function ``train_rank``, in three steps:
#
# 1. ``train_rank`` joins the process group with
#    :func:`~torch.distributed.init_process_group`. This call names the
#    *backend*: the library that moves tensors between processes. Here the
#    backend is ``gloo``, which works with CPU tensors.
# 2. ``train_rank`` calls the function ``_train``, which trains on the CPU.
# 3. ``train_rank`` leaves the group with
#    :func:`~torch.distributed.destroy_process_group`.
#
# ``_train``'s arguments are ``rank``, ``world_size``, ``device``,
# ``epochs``, ``lr`` and ``seed``. Here is its middle, from Python's
# ``inspect.getsource``:
#
# .. detail:: ``[int]`` and ``# type: ignore``
#
#    ``[int]`` and ``# type: ignore`` are for a type checker. They change
#    nothing when the code runs.
source = inspect.getsource(tutorial_utils.distributed._train)
first_line = source.index("    torch.manual_seed")
print(source[first_line : source.index("    return RankReport")])

# %%
# .. check:: ``train_rank`` joins and leaves the group around ``_train``
helper = inspect.getsource(tutorial_utils.distributed.train_rank)
joins = helper.index("dist.init_process_group(")
assert joins < helper.index("_train(") < helper.index("dist.destroy_process_group()")
assert "DistributedSampler[int]" in source
assert "# type: ignore" in source
assert "ddp_model(features)" in source
assert "SGD(ddp_model.parameters()" in source
assert "int" not in tutorial_utils.distributed._train.__code__.co_names  # unused
assert 'device_ids=[device.index] if device.type == "cuda" else None' in source
assert "torch.manual_seed(seed + rank)" in source  # weights differ per process
assert "rank=rank, shuffle=True, seed=seed" in source  # the sampler's seed does not
arguments = inspect.signature(tutorial_utils.distributed._train).parameters
assert " ".join(arguments) == "rank world_size device epochs lr seed"
assert (torch.ones(1).device.type, torch.ones(1).device.index) == ("cpu", None)
ddp_doc = " ".join(torch.nn.parallel.DistributedDataParallel.__doc__.split())
assert "CPU modules, ``device_ids`` must be ``None``" in ddp_doc
if torch.cuda.is_available():  # an NVIDIA GPU, or an AMD one under ROCm
    on_gpu = torch.ones(1, device="cuda").device
    assert (on_gpu.type, on_gpu.index) == ("cuda", torch.cuda.current_device())

# %%
# It is the loop of the earlier pages with four changes:
#
# 1. The model is wrapped in DDP. The forward pass calls the wrapper,
#    ``ddp_model``, and the optimiser gets ``ddp_model.parameters()``.
# 2. The loader gets the sampler instead of ``shuffle=True``, and a batch as
#    large as the share: one step per epoch.
# 3. ``sampler.set_epoch(epoch)`` starts every epoch. Without it, every
#    epoch repeats the first epoch's order.
# 4. ``loss.backward()`` also averages the gradients over the processes.
#
# ``torch.manual_seed(seed + rank)`` seeds each process's global generator
# differently. That gives the processes different weights, to show DDP
# replacing them. The sampler gets ``seed`` itself, the same in every
# process. Lines with ``_flat``, ``initial``, ``synced``, ``samples`` and
# ``losses`` only record what happened.
#
# .. detail:: ``device_ids`` and ``device.index``
#
#    On the CPU, DDP's documentation asks for ``device_ids=None``. On a GPU, it names
#    the GPU that holds this process's copy: ``device.index``, its number
#    from 0. The device's ``type`` is ``"cuda"`` on an NVIDIA GPU, and on an
#    AMD one under ROCm.

# %%
# Two processes, for real
# -----------------------
# The site's helper ``run_ddp`` starts two processes that run this worker.
# It returns a report per process, with its ``rank``, ``samples`` and
# ``losses``. If they are still running after about ``timeout`` seconds,
# it stops them and raises a ``TimeoutError``.
reports = run_ddp(world_size=2, epochs=3, lr=0.5, seed=123, timeout=60)
for report in reports:
    for epoch, (samples, loss) in enumerate(
        zip(report.samples, report.losses, strict=True), start=1
    ):
        print(
            f"process rank {report.rank}, epoch {epoch}: "
            f"samples {samples}, loss {loss:.4f}"
        )

# %%
# .. check:: after about ``timeout`` seconds, ``run_ddp`` stops them
try:  # 1000 epochs cannot end in half a second: starting Python takes longer
    run_ddp(world_size=2, epochs=1000, lr=0.5, seed=123, timeout=0.5)
except TimeoutError as error:
    stopped = str(error)
else:
    raise AssertionError("run_ddp should stop a run past its timeout")
assert "every process was stopped" in stopped
run_ddp_doc = " ".join(run_ddp.__doc__.split())
assert "after which every process of the run is killed" in run_ddp_doc
assert "Starting the launcher may take up to 10 s more" in run_ddp_doc
assert ":class:`TimeoutError` raised" in run_ddp_doc

# %%
# Each process used the shares above and got its own loss. A report
# also holds all parameters as one vector: ``initial_parameters``,
# ``synced_parameters`` right after wrapping, and ``parameters`` after
# training. The three lines compare the processes:
#
# 1. As initialised, their parameters differ.
# 2. After wrapping, process rank 1 holds process rank 0's initial ones.
# 3. After training, they are equal bit for bit.
first, second = reports
stages = {
    "as initialised": (first.initial_parameters, second.initial_parameters),
    "after wrapping": (first.initial_parameters, second.synced_parameters),
    "after training": (first.parameters, second.parameters),
}
for stage, (a, b) in stages.items():
    print(f"{stage}: largest difference {(a - b).abs().max().item():.2g}")

# %%
# .. check:: shares used; losses differ; parameters: apart, rank 0's, equal
for report in reports:
    assert report.samples == [shares[epoch, report.rank] for epoch in range(3)]
    assert (report.backend, report.device) == ("gloo", "cpu")
assert all(a != b for a, b in zip(first.losses, second.losses, strict=True))
assert not torch.equal(first.initial_parameters, second.initial_parameters)
assert torch.equal(first.synced_parameters, first.initial_parameters)
assert torch.equal(second.synced_parameters, first.initial_parameters)
assert torch.equal(first.parameters, second.parameters)

# %%
# The same training in one process
# --------------------------------
# :func:`~torch.nn.functional.cross_entropy` averages over the samples, and
# the shares have equal sizes. So the mean of the two losses is the mean
# loss over all six samples. The gradient of a mean is the mean of the
# gradients. So DDP's averaged gradient is the gradient of the mean loss over
# all six samples. One process that trains on both shares from process rank
# 0's weights should match DDP. The cell checks that its loss equals the two
# processes' mean loss, and its final parameters DDP's, up to rounding.
# ``assert_close`` compares tensors, so ``torch.tensor`` wraps the mean.
#
# The site's ``toy_tensors`` returns the toy data as tensors.
# :func:`~torch.nn.utils.parameters_to_vector` puts all parameters in one vector.
# ``.detach()`` returns it without gradient tracking.
X_train, y_train, _, _ = toy_tensors()
torch.manual_seed(123)  # process rank 0's seed
single = NeuralNetwork(2, 2)
optimizer = torch.optim.SGD(single.parameters(), lr=0.5)
for epoch in range(3):
    batch = first.samples[epoch] + second.samples[epoch]
    loss = F.cross_entropy(single(X_train[batch]), y_train[batch])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    mean = torch.tensor((first.losses[epoch] + second.losses[epoch]) / 2)
    print(f"epoch {epoch + 1}: one process {loss.item():.6f}, mean of two {mean:.6f}")
    torch.testing.assert_close(loss, mean)

single_parameters = parameters_to_vector(single.parameters()).detach()
largest = (first.parameters - single_parameters).abs().max().item()
print(f"largest difference between the parameters: {largest:.1e}")
torch.testing.assert_close(first.parameters, single_parameters)

# %%
# .. check:: rank 0's weights at the start; order changes the last bits
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(123)
    rank0 = parameters_to_vector(NeuralNetwork(2, 2).parameters())
assert torch.equal(rank0, first.initial_parameters)
plus, minus, tiny = torch.tensor([1.0, -1.0, 1e-8])
assert (plus + minus) + tiny != plus + (minus + tiny)
eps = torch.finfo(torch.float32).eps  # float32 rounding: a few eps of the size
assert largest <= 8 * eps * first.parameters.abs().max()

# %%
# .. check:: ``assert_close`` allows more than rounding: 0 and 9e-6 pass
torch.testing.assert_close(torch.tensor(0.0), torch.tensor(9e-6))
assert 50 * torch.finfo(torch.float32).eps < 9e-6

# %%
# They agree up to rounding.
#
# .. detail:: Why not bit for bit
#
#    DDP averages within each share, then over the processes. One process
#    averages over all six samples at once. Adding in another order can
#    change the last bits.
#
# That process trained on the *padded* shares. On the five samples alone, it
# ends elsewhere:
torch.manual_seed(123)
plain = NeuralNetwork(2, 2)
optimizer = torch.optim.SGD(plain.parameters(), lr=0.5)
for _ in range(3):
    loss = F.cross_entropy(plain(X_train), y_train)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
plain_parameters = parameters_to_vector(plain.parameters()).detach()
gap = (first.parameters - plain_parameters).abs().max().item()
print(f"largest difference from DDP: {gap:.4f}")

# %%
# .. check:: on the five samples, one process ends elsewhere
assert gap > 1e-3

# %%
# DDP trains like one process on the *global* batch: all the shares
# together, padding included. This holds when:
#
# 1. the loss is a plain mean over each process's samples;
# 2. the model's output for a sample does not depend on the other samples;
# 3. it uses no randomness such as :term:`dropout`.
#
# .. detail:: Where the match breaks
#
#    - With a batch size fixed per process, each added process makes the
#      global batch larger.
#    - With a summed loss, ``reduction="sum"``, the DDP gradient is the
#      one-process gradient divided by the world size.
#    - *Class weights*, ``cross_entropy``'s ``weight=``, weight each
#      sample's loss by its class. Each share divides by its own total
#      weight. Shares with unequal totals then break the match.
#    - ``cross_entropy`` leaves out targets equal to its ``ignore_index``,
#      -100 by default. Each share then divides by its own count of the
#      rest.
#    - Dropout draws its masks from each process's own generator.
#    - :term:`Batch normalisation <batch normalisation>` is a layer of later
#      pages. In training mode, it normalises with statistics of its batch:
#      under DDP, the process's own share.
#      ``torch.nn.SyncBatchNorm`` computes them over all the shares. In
#      training mode inside a process group, it refuses CPU tensors.
#    - By default, batch normalisation also keeps *running statistics*,
#      averages gathered in training. In evaluation mode it normalises with
#      them. So the evaluation outputs match one process only if the running
#      statistics do. Under DDP they are gathered from shares, not the global
#      batch: by default, each training step copies process rank 0's to all.

# %%
# .. check:: plain: equal; summed: half; class weights: equal totals match
default = inspect.signature(F.cross_entropy).parameters["ignore_index"].default
assert default == -100
assert len(batch) == len(first.samples[-1]) * 2  # the global batch, world size 2
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(0)
    bn = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.BatchNorm1d(4))
    bn = torch.nn.Sequential(bn, torch.nn.ReLU(), torch.nn.Linear(4, 2))
    no_running = torch.nn.BatchNorm1d(4, track_running_stats=False)
    batch_only = torch.nn.Sequential(torch.nn.Linear(2, 4), no_running)
    batch_only = torch.nn.Sequential(batch_only, torch.nn.ReLU(), torch.nn.Linear(4, 2))
weights = torch.tensor([1.0, 3.0])
skipped = y_train.clone()
skipped[0] = default
uneven, even = ([2, 0, 1], [3, 4, 2]), ([0, 1, 3], [2, 4, 0])
assert weights[y_train[uneven[0]]].sum() != weights[y_train[uneven[1]]].sum()
assert weights[y_train[even[0]]].sum() == weights[y_train[even[1]]].sum()
for model, training, halves, targets, options, expected in (
    (single, True, uneven, y_train, {}, "equal"),  # mean of the gradients
    (single, True, uneven, y_train, {"reduction": "sum"}, "half"),
    (single, True, uneven, y_train, {"weight": weights}, "apart"),
    (single, True, even, y_train, {"weight": weights}, "equal"),
    (single, True, uneven, skipped, {}, "apart"),
    (bn, True, uneven, y_train, {}, "apart"),
    (bn, False, uneven, y_train, {}, "equal"),  # evaluation mode
    (batch_only, False, uneven, y_train, {}, "apart"),  # no running statistics
):
    model.train(training)
    grads = []
    for batch in (halves[0], halves[1], halves[0] + halves[1]):
        loss = F.cross_entropy(model(X_train[batch]), targets[batch], **options)
        grads.append(torch.autograd.grad(loss, list(model.parameters()))[0])
    ddp, one = (grads[0] + grads[1]) / 2, grads[2]
    if expected == "half":
        torch.testing.assert_close(ddp, one / 2)
    elif expected == "equal":
        torch.testing.assert_close(ddp, one)
    else:
        assert (ddp - one).abs().max() > 1e-3
with torch.random.fork_rng(devices=[]):  # dropout's mask follows the generator
    masks = []
    for seed in (0, 0, 1):  # two processes with seeds 0 and 1, say
        torch.manual_seed(seed)
        masks.append(F.dropout(torch.ones(16), 0.5))
assert torch.equal(masks[0], masks[1])
assert not torch.equal(masks[0], masks[2])
with torch.random.fork_rng(devices=[]):  # statistics from a share differ
    torch.manual_seed(0)
    from_share = torch.nn.BatchNorm1d(2)
    from_all = torch.nn.BatchNorm1d(2)
from_share(X_train[uneven[0]])  # training mode: gathers running statistics
from_all(X_train[uneven[0] + uneven[1]])
from_share.eval()
from_all.eval()
assert (from_share(X_train) - from_all(X_train)).abs().max() > 1e-3

# %%
# .. check:: by default, each forward first copies rank 0's buffers
ddp_class = torch.nn.parallel.DistributedDataParallel
ddp_options = inspect.signature(ddp_class.__init__).parameters
ddp_doc = " ".join(ddp_class.__doc__.split())
assert "(broadcasting) buffers of the module at beginning of the ``forward``" in ddp_doc
if "forward_sync_buffers" in ddp_options:  # PyTorch 2.13 and later
    assert ddp_options["forward_sync_buffers"].default is None
    assert "When ``None``, defaults to ``True``" in ddp_doc
else:
    assert ddp_options["broadcast_buffers"].default is True
sync_source = " ".join(inspect.getsource(ddp_class._sync_buffers).split())
assert "The process with rank 0 is considered the authoritative copy" in sync_source

# %%
# .. check:: ``SyncBatchNorm``: all shares; refuses CPU in training, in a group
import torch.distributed as dist

sync_bn = torch.nn.SyncBatchNorm(4)
accepted = [sync_bn(torch.ones(8, 4)).shape]  # training mode, but no group
dist.init_process_group("gloo", store=dist.HashStore(), rank=0, world_size=1)
try:
    accepted.append(sync_bn.eval()(torch.ones(8, 4)).shape)  # evaluation mode
    sync_bn.train()(torch.ones(8, 4))  # training mode, in a group
except ValueError as error:
    refusal = str(error)
else:
    raise AssertionError("SyncBatchNorm should refuse a CPU tensor")
finally:
    dist.destroy_process_group()
assert accepted == [(8, 4), (8, 4)]
assert "expected input tensor to be on GPU" in refusal
sync_doc = " ".join(torch.nn.SyncBatchNorm.__doc__.split())
assert "over all mini-batches of the same process groups" in sync_doc

# %%
# Starting the processes yourself
# -------------------------------
# In your own project, PyTorch's launcher ``torchrun`` starts the worker:
# see :ref:`sphx_glr_auto_examples_training_plot_60_torchrun_and_gpus.py`.
#
# Summary
# -------
# - By default, DDP starts every model copy from process rank 0's
#   parameters, and averages the gradients during ``backward``.
# - A :class:`~torch.utils.data.distributed.DistributedSampler` gives each
#   process an equal share. Give every process the same ``seed``, and call
#   ``set_epoch`` every epoch.
# - With a plain mean loss, no dropout and a model that handles each
#   sample alone, DDP matches one process on the global batch up to rounding.
#
# Next: :ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`
# starts the last section, on measuring and speeding up code like this.
# Exercises for this page: :ref:`exercises-training-10`.
