"""
Training on several processes
=============================

Train one model in several processes with
:class:`~torch.nn.parallel.DistributedDataParallel`, split the data between
them with a :class:`~torch.utils.data.distributed.DistributedSampler`, compare
the result with one process, and write the script that ``torchrun`` starts on
CPUs or GPUs.
"""
# sphinx_gallery_budget_seconds = 30, "trains on two and on four processes: on a busy machine, the time they wait for a CPU counts against the page"

# %%
# This page runs on the CPU, where it starts two real training processes.
import inspect
import subprocess
import sys
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from matplotlib.colors import to_rgba
from torch.nn.utils import parameters_to_vector
from torch.utils.data.distributed import DistributedSampler

import tutorial_utils.distributed
from tutorial_utils.colours import PALETTE
from tutorial_utils.data import toy_datasets, toy_tensors
from tutorial_utils.distributed import run_ddp, train_rank
from tutorial_utils.environment import environment_summary
from tutorial_utils.models import NeuralNetwork

print(environment_summary(torch.device("cpu")))

# %%
# The idea
# --------
# *Data-parallel* training runs several processes, usually one per GPU.
# They form a *process group*: each knows its :term:`process rank` (0, 1,
# ...) and the :term:`world size`, the number of processes. Each holds a
# full copy of the model and computes the :term:`gradients <gradient>` of
# the :term:`loss` on its own share of every :term:`batch`.
# :class:`~torch.nn.parallel.DistributedDataParallel` (DDP) wraps the model
# and does the rest. When it is built, it copies process rank 0's
# parameters and buffers to every process (``init_sync=True``, the
# default). During :meth:`~torch.Tensor.backward` it averages the gradients
# over the processes with an *all-reduce* (a collective operation that
# leaves the same sum, here divided by the world size, in every process).
# It sends them in buckets, each as soon as its gradients are ready, so
# that the communication overlaps with the rest of ``backward``. Every
# process then takes the same :term:`optimiser` step from the same
# parameters, and the copies stay equal. The processes work at the same
# time: hence the speed-up on real models.
#
# .. detail:: Bucket sizes
#
#    By default all gradients share one bucket in the first step. From the
#    second on, a bucket is closed once it holds 25 MiB or more (1 MiB for
#    the first).

# %%
# Who gets which samples
# ----------------------
# A :class:`~torch.utils.data.distributed.DistributedSampler` gives each
# process a share of the data set. It needs no process group to try out:
# tell it the world size (``num_replicas``) and the process rank. Every
# process shuffles the same way, from ``seed`` and the :term:`epoch` set by
# :meth:`~torch.utils.data.distributed.DistributedSampler.set_epoch`, not
# from the global random number generator, and takes every world-size-th
# index of that order (here every second one), starting at its process rank.
train_ds, _ = toy_datasets()
shares, orders = {}, {}
for epoch in range(3):
    for rank in range(2):
        sampler = DistributedSampler(
            train_ds, num_replicas=2, rank=rank, shuffle=True, seed=123
        )
        sampler.set_epoch(epoch)
        shares[epoch, rank] = list(sampler)
    pairs = zip(shares[epoch, 0], shares[epoch, 1], strict=True)
    orders[epoch] = [index for pair in pairs for index in pair]
    print(
        f"epoch {epoch + 1}: process rank 0 {shares[epoch, 0]}, "
        f"process rank 1 {shares[epoch, 1]}, order {orders[epoch]}"
    )

# %%
# .. check:: 25 MiB buckets (1 MiB first); seed and epoch, not the global generator, set the order
assert "default size of 25 MiB" in torch.nn.parallel.DistributedDataParallel.__doc__
assert torch.distributed._DEFAULT_FIRST_BUCKET_BYTES == 2**20
fixed = DistributedSampler(train_ds, num_replicas=2, rank=0, seed=123)
assert list(fixed) == list(fixed) == shares[0, 0]
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(0)
    assert list(DistributedSampler(train_ds, 2, 0, seed=123)) == shares[0, 0]

# %%
# Five samples do not split into two equal shares, and every process must
# take the same number of steps, since each step waits for every process's
# gradients. So the sampler pads the order to six by repeating its first
# index (its first few, when more are missing): each epoch, one sample
# counts twice. With ``drop_last=True`` it cuts the order to four instead,
# and one sample is left out of that epoch.
fig, ax = plt.subplots(figsize=(7, 2.4), layout="constrained")
for (epoch, rank), share in shares.items():
    color = to_rgba(PALETTE[5 if rank else 1], alpha=0.5)
    for slot, sample in enumerate(share):
        twice = orders[epoch].count(sample) > 1
        box = {"boxstyle": "square,pad=0.5", "facecolor": color}
        box |= {"edgecolor": "black", "linewidth": 2} if twice else {"linewidth": 0}
        x, y = rank * 3.5 + slot + 0.5, epoch + 0.5
        ax.text(x, y, sample, size=12, ha="center", va="center", bbox=box)
ax.set(
    xlim=(0, 6.5),
    ylim=(3, 0),
    xticks=[1.5, 5],
    xticklabels=["process rank 0", "process rank 1"],
    yticks=[0.5, 1.5, 2.5],
    yticklabels=["epoch 1", "epoch 2", "epoch 3"],
    title="DistributedSampler: sample indices per process (framed: used twice)",
)
ax.tick_params(length=0)
ax.spines[:].set_visible(False)
plt.show()

# %%
# .. check:: the order is padded with its first index; ``drop_last=True`` cuts it to four
for epoch in range(3):
    assert sorted(orders[epoch][:5]) == [0, 1, 2, 3, 4]
    assert orders[epoch][5] == orders[epoch][0]
dropping = [
    list(DistributedSampler(train_ds, 2, rank, seed=123, drop_last=True))
    for rank in range(2)
]
pairs = zip(*dropping, strict=True)
assert [index for pair in pairs for index in pair] == orders[0][:4]

# %%
# Every process must pass the same ``seed``. A seed that differs per
# process gives each one a different order, so the shares can miss samples
# and repeat others, as they do with seeds 123 and 124:
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
# Each process runs :func:`~tutorial_utils.distributed.train_rank` with its
# process rank and the world size. After checking its arguments, it joins
# and leaves the process group; the rest of its code, printed from its module:
source = inspect.getsource(train_rank)
print(source[source.index("    if port is not None:") :])

# %%
# :func:`~torch.distributed.init_process_group` reads ``MASTER_ADDR`` and
# ``MASTER_PORT``: process rank 0 listens there, the others connect. Here
# that is ``127.0.0.1``, this machine only, and a port the operating system
# said was free. The *backend* is the library that moves the
# :term:`tensors <tensor>`: ``gloo`` works with CPU tensors, ``nccl``
# (NVIDIA's) is the one for CUDA GPUs; on GPUs each process first makes its
# own GPU the current one with :func:`torch.cuda.set_device` (more in the
# last section). A process that waits longer than ``timeout`` for the others
# gives up. With ``gloo`` it raises an error, and the ``try`` / ``finally``
# still leaves the group with :func:`~torch.distributed.destroy_process_group`.
#
# .. detail:: Timeouts
#
#    With ``gloo``, the error is a ``RuntimeError`` in PyTorch 2.13. With
#    ``nccl``, the documentation of ``init_process_group`` says the process is
#    aborted instead, unless ``TORCH_NCCL_BLOCKING_WAIT`` is set.

# %%
# The training, in a private function of the same module, is the loop of
# the previous pages with four changes. The model is wrapped in DDP
# (``device_ids`` names the process's GPU on CUDA, ``None`` on the CPU); the
# seed ``seed + rank`` gives each process different weights on purpose, to
# show DDP replacing them. The loader gets the sampler instead of
# ``shuffle=True``, with a batch as large as the share: one step per epoch.
# ``sampler.set_epoch(epoch)`` starts every epoch (else every epoch repeats
# the first one's order). ``loss.backward()`` exchanges the gradients.
print(inspect.getsource(tutorial_utils.distributed._train))

# %%
# Two processes, for real
# -----------------------
# :func:`~tutorial_utils.distributed.run_ddp` starts two processes that run
# this worker with the ``gloo`` backend, and returns what each one reports.
reports = run_ddp(world_size=2, epochs=3, lr=0.5, seed=123, timeout=60)
for report in reports:
    for epoch, (samples, loss) in enumerate(
        zip(report.samples, report.losses, strict=True), start=1
    ):
        print(
            f"[process rank {report.rank} of {report.world_size}, {report.backend}, "
            f"{report.device}] epoch {epoch}: samples {samples}, loss {loss:.4f}"
        )

# %%
# Each process used the shares the sampler showed above, and computed a
# different loss on them. Their parameters (all of them in one tensor)
# differed before DDP, were process rank 0's right after it, and are bit
# for bit the same after training: both applied the same averaged
# gradients.
first, second = reports
stages = {
    "as initialised": (first.initial_parameters, second.initial_parameters),
    "after wrapping": (first.initial_parameters, second.synced_parameters),
    "after training": (first.parameters, second.parameters),
}
for stage, (a, b) in stages.items():
    print(f"{stage}: largest difference {(a - b).abs().max().item():.2g}")

# %%
# .. check:: each used its shares, losses differ; parameters differ, then rank 0's, then equal
for report in reports:
    assert report.samples == [shares[epoch, report.rank] for epoch in range(3)]
assert all(a != b for a, b in zip(first.losses, second.losses, strict=True))
assert not torch.equal(first.initial_parameters, second.initial_parameters)
assert torch.equal(first.synced_parameters, first.initial_parameters)
assert torch.equal(second.synced_parameters, first.initial_parameters)
assert torch.equal(first.parameters, second.parameters)

# %%
# The same training in one process
# --------------------------------
# With a loss that averages over the samples (the default of
# :func:`~torch.nn.functional.cross_entropy`) and shares of equal size, the
# average of the two processes' gradients is the gradient of the mean loss over all six
# samples. One process that starts from process rank 0's weights and takes
# one step per epoch on both shares together should then compute the mean of
# the two processes' losses and end with their parameters.
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
    torch.testing.assert_close(loss.detach(), mean)  # float32 tolerances

single_parameters = parameters_to_vector(single.parameters()).detach()
largest = (first.parameters - single_parameters).abs().max().item()
print(f"largest difference between the parameters: {largest:.1e}")
torch.testing.assert_close(first.parameters, single_parameters)

# %%
# .. check:: the one process starts from process rank 0's weights
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(123)
    rank0 = parameters_to_vector(NeuralNetwork(2, 2).parameters())
assert torch.equal(rank0, first.initial_parameters)

# %%
# Equal up to float32 rounding (the difference printed above): each process
# averages over its three samples and DDP averages the two results, while
# one process averages over six at once, in another order that can change
# the last bits.
#
# This one process trained on the *padded* shares, with one sample twice
# per epoch. On the five samples of the data set it ends elsewhere:
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
# So DDP trains like one process on the *global* batch, all the processes'
# shares together, up to rounding. Where the world size does not divide the
# data set, that batch holds the sampler's padding (or lacks the samples
# ``drop_last=True`` drops). A batch size fixed per process makes the global
# batch grow with the world size (here, two processes of three samples: six).
#
# How the processes are started
# -----------------------------
# The processes are started with the ``"spawn"`` method: each is a fresh
# Python that finds the worker by importing its module, so it cannot find a
# function defined in ``python -c`` or an interactive session, a notebook
# included (:mod:`multiprocessing`'s documentation warns of this); hence a
# module for the worker. A spawned process also imports the script that
# started it, and so runs it again unless its work is behind
# ``if __name__ == "__main__":``. So :func:`~tutorial_utils.distributed.run_ddp`
# has a separate Python, ``python -m tutorial_utils.distributed``, start the
# processes and pass their reports back in files; it stops them all (raising
# :class:`TimeoutError`) if the run takes longer than ``timeout`` seconds.
#
# A script for torchrun
# ---------------------
# In a project of your own, write the worker as a script and start it with
# ``torchrun``, which starts the processes and gives each one ``RANK``,
# ``LOCAL_RANK`` (its process rank on this machine), ``WORLD_SIZE``,
# ``MASTER_ADDR`` and ``MASTER_PORT`` in its environment. Then
# :func:`~torch.distributed.init_process_group` needs no process rank or
# world size, nor does the sampler, which asks the process group. A plain
# version of the worker above, for CPUs or GPUs; every process seeds with
# 123 (DDP would copy process rank 0's weights anyway), and the sampler's
# ``seed`` must be the same in every process.
#
# .. code-block:: python
#
#     # train_ddp.py; run: torchrun --standalone --nproc-per-node=2 train_ddp.py
#     import os
#
#     import torch
#     import torch.distributed as dist
#     import torch.nn.functional as F
#     from torch.nn.parallel import DistributedDataParallel
#     from torch.utils.data import DataLoader
#     from torch.utils.data.distributed import DistributedSampler
#
#     from tutorial_utils.data import toy_datasets
#     from tutorial_utils.models import NeuralNetwork
#
#
#     def main():
#         local_rank = int(os.environ["LOCAL_RANK"])  # set by torchrun
#         if torch.cuda.is_available():
#             device = torch.device("cuda", local_rank)
#             torch.cuda.set_device(device)
#             dist.init_process_group("nccl")
#         else:
#             device = torch.device("cpu")
#             dist.init_process_group("gloo")
#         rank = dist.get_rank()
#         torch.manual_seed(123)
#         model = NeuralNetwork(2, 2).to(device)
#         model = DistributedDataParallel(
#             model, device_ids=[local_rank] if device.type == "cuda" else None
#         )
#         train_ds, _ = toy_datasets()
#         sampler = DistributedSampler(train_ds, shuffle=True, seed=123)
#         loader = DataLoader(train_ds, batch_size=len(sampler), sampler=sampler)
#         optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
#         for epoch in range(3):
#             sampler.set_epoch(epoch)
#             for features, labels in loader:
#                 features, labels = features.to(device), labels.to(device)
#                 loss = F.cross_entropy(model(features), labels)
#                 optimizer.zero_grad()
#                 loss.backward()
#                 optimizer.step()
#             print(f"process rank {rank}, epoch {epoch + 1}: loss {loss.item():.4f}")
#         dist.destroy_process_group()
#
#
#     if __name__ == "__main__":
#         main()
#
# On GPUs
# -------
# On GPUs the worker changes where both versions above test for CUDA:
# ``nccl`` instead of ``gloo``; one GPU per process (processes that share a
# GPU under ``nccl`` can deadlock, the documentation of
# :func:`~torch.distributed.init_process_group` warns); that GPU made the
# current one with :func:`torch.cuda.set_device`, so that CUDA work that
# names no device, NCCL's included, goes there and not to ``cuda:0``; the
# model and batches moved there; ``device_ids=[local_rank]`` for DDP. Start
# as many processes as GPUs (``--nproc-per-node=gpu`` counts them).
# ``CUDA_VISIBLE_DEVICES=0,2`` shows a program only GPUs 0 and 2 in CUDA's
# numbering, as ``cuda:0`` and ``cuda:1``. The next cell runs :mod:`tutorial_utils.distributed`
# with ``nccl``, one process per GPU, and prints each one's losses. Their
# parameters are equal and match, up to float32 rounding, the one process on
# the five samples above (one GPU) or the two CPU processes (two GPUs).
#
# .. detail:: GPU numbering
#
#    ``CUDA_DEVICE_ORDER=PCI_BUS_ID`` makes CUDA's numbering of the GPUs
#    ``nvidia-smi``'s.
if torch.cuda.is_available():
    gpus = torch.cuda.device_count()
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "tutorial_utils.distributed"]
        command += [f"--nprocs={gpus}", "--backend=nccl", f"--output={folder}"]
        subprocess.run(command, check=True, timeout=180)
        files = [Path(folder, f"rank{rank}.pt") for rank in range(gpus)]
        gpu_reports = [torch.load(file, weights_only=True) for file in files]
    for report in gpu_reports:
        losses = ", ".join(f"{loss:.4f}" for loss in report["losses"])
        print(f"process rank {report['rank']} on {report['device']}: losses {losses}")
else:
    print("No GPU in this build (torch.cuda.is_available() is False): no nccl run.")

# %%
# .. check:: on GPUs the parameters are equal, and match the CPU runs up to rounding
if torch.cuda.is_available():
    for report in gpu_reports:
        assert torch.equal(report["parameters"], gpu_reports[0]["parameters"])
    if gpus <= 2:
        expected = plain_parameters if gpus == 1 else first.parameters
        torch.testing.assert_close(gpu_reports[0]["parameters"], expected)

# %%
# Summary
# -------
# - DDP keeps one model copy per process, copies process rank 0's
#   parameters to all when built, and averages the gradients with an
#   all-reduce during ``backward``, so the copies stay equal.
# - A :class:`~torch.utils.data.distributed.DistributedSampler` splits the
#   data, padding it to equal shares (or dropping with ``drop_last=True``);
#   give every process the same ``seed`` and call ``set_epoch`` every epoch.
# - With equal shares of one global batch, DDP matches one process on that
#   batch up to rounding; padding and a per-process batch size change what
#   "that batch" is.
# - Worker code lives in an importable module or in a script with an
#   ``if __name__ == "__main__":`` guard. ``torchrun --nproc-per-node=gpu``
#   starts one process per GPU; ``gloo`` for CPUs, ``nccl`` for CUDA GPUs.
#
# Next: :ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`
# starts the last section, on measuring and speeding up code like this.
# Exercises for this page: :ref:`exercises-training-10`.
