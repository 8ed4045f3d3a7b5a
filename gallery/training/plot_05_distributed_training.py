"""
Training on several processes
=============================

Train one model in several processes with
:class:`~torch.nn.parallel.DistributedDataParallel`, split the data between
them with a :class:`~torch.utils.data.distributed.DistributedSampler`, check
that it trains exactly like one process, and run the same code on several
GPUs with ``torchrun``.
"""

# %%
# Every page starts by saying what computed it. This page really starts two
# training processes on the CPU of the machine that builds it, which the
# usual tutorials leave to the reader.
import os
import subprocess
import sys

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch.utils.data.distributed import DistributedSampler

from tutorial_utils.data import toy_datasets, toy_tensors
from tutorial_utils.devices import pick_device
from tutorial_utils.distributed import run_ddp
from tutorial_utils.environment import environment_summary
from tutorial_utils.models import NeuralNetwork
from tutorial_utils.plotting import PALETTE

device = pick_device("cpu")
print(environment_summary(device))

# %%
# The idea
# --------
# *Data parallel* training runs one process per device (GPU, or CPU cores).
# Every process, or *rank*, holds a full copy of the model and trains on
# its own share of each batch. During :meth:`~torch.Tensor.backward`,
# :class:`~torch.nn.parallel.DistributedDataParallel` (DDP) averages the
# gradients of all ranks (an *all-reduce*), so every rank takes the same
# optimiser step and the copies stay identical. The ranks work at the same
# time, each on a part of the data: that is where the speed comes from.
#
# Who gets which samples
# ----------------------
# A :class:`~torch.utils.data.distributed.DistributedSampler` gives each
# rank a different share of the data set. It needs no running processes to
# try out: tell it the number of ranks and which one it serves. Like a
# shuffling loader it shuffles with a seed, and
# :meth:`~torch.utils.data.distributed.DistributedSampler.set_epoch`
# reshuffles each epoch.
train_ds, _ = toy_datasets()
shares = {}
for epoch in range(3):
    for rank in range(2):
        sampler = DistributedSampler(
            train_ds, num_replicas=2, rank=rank, shuffle=True, seed=123
        )
        sampler.set_epoch(epoch)
        shares[epoch, rank] = list(sampler)
        print(f"epoch {epoch + 1}, rank {rank}: samples {shares[epoch, rank]}")

# sphinx_gallery_start_ignore
for epoch in range(3):
    both = shares[epoch, 0] + shares[epoch, 1]
    assert len(shares[epoch, 0]) == len(shares[epoch, 1]) == 3
    assert sorted(set(both)) == [0, 1, 2, 3, 4]
    assert len(both) == 6
assert shares[0, 0] != shares[1, 0]
dropping = [
    list(DistributedSampler(train_ds, 2, rank, shuffle=True, seed=123, drop_last=True))
    for rank in range(2)
]
assert len(dropping[0]) == len(dropping[1]) == 2
assert len(set(dropping[0] + dropping[1])) == 4
# sphinx_gallery_end_ignore

# %%
# Five samples do not split into two equal shares, and every rank must
# take the same number of steps (each step waits for all the ranks'
# gradients), so the sampler pads the data set to six by repeating a
# sample. Each epoch one sample counts twice; with ``drop_last=True`` one
# is left out instead. The picture shows the three epochs:
fig, ax = plt.subplots(figsize=(7, 2.4), layout="constrained")
for epoch in range(3):
    for rank in range(2):
        for slot, sample in enumerate(shares[epoch, rank]):
            x = rank * 3.4 + slot
            repeated = (shares[epoch, 0] + shares[epoch, 1]).count(sample) > 1
            ax.add_patch(
                plt.Rectangle(
                    (x, epoch),
                    0.95,
                    0.9,
                    facecolor=PALETTE[5 if rank == 0 else 1],
                    alpha=0.85,
                    hatch="//" if repeated else None,
                    edgecolor="black" if repeated else "none",
                )
            )
            ax.text(
                x + 0.47,
                epoch + 0.45,
                str(sample),
                ha="center",
                va="center",
                bbox={"boxstyle": "circle", "facecolor": "white", "linewidth": 0},
            )
ax.set(
    xlim=(0, 6.4),
    ylim=(3, 0),
    xticks=[1.5, 4.9],
    xticklabels=["rank 0", "rank 1"],
    yticks=[0.45, 1.45, 2.45],
    yticklabels=["epoch 1", "epoch 2", "epoch 3"],
    title="DistributedSampler: sample indices per rank (hatched: used twice)",
)
ax.tick_params(length=0)
ax.spines[:].set_visible(False)
plt.show()

# %%
# Two processes, for real
# -----------------------
# :func:`~tutorial_utils.distributed.run_ddp` trains the network of the
# previous pages in two processes. Each one runs
# :func:`~tutorial_utils.distributed.train_rank`, which does what any DDP
# script does:
#
# 1. join the *process group* with
#    :func:`~torch.distributed.init_process_group`: rank 0 listens on an
#    address and port, the others connect there. Here the address is
#    ``127.0.0.1``, this machine only, the port is one the operating system
#    says is free, and the backend is ``gloo``, which runs on CPUs;
# 2. build the model, wrap it in
#    :class:`~torch.nn.parallel.DistributedDataParallel` and give the loader
#    a :class:`~torch.utils.data.distributed.DistributedSampler`;
# 3. train as usual, calling ``set_epoch`` each epoch;
# 4. leave with :func:`~torch.distributed.destroy_process_group`.
#
# Each rank seeds its model differently (``123 + rank``): DDP's first act is
# to copy rank 0's parameters to every rank. Each rank takes one step per
# epoch on its whole share (3 samples), and reports what it did.
reports = run_ddp(world_size=2, epochs=3, lr=0.5, seed=123, timeout=60)
for report in reports:
    for epoch, (samples, loss) in enumerate(
        zip(report.samples, report.losses, strict=True), start=1
    ):
        print(
            f"[rank {report.rank}/{report.world_size}, {report.backend}, {report.device}] "
            f"epoch {epoch}: samples {samples}, loss on them {loss:.4f}"
        )

# sphinx_gallery_start_ignore
assert [r.rank for r in reports] == [0, 1]
assert all(r.backend == "gloo" and r.world_size == 2 for r in reports)
for epoch in range(3):
    for rank in range(2):
        assert reports[rank].samples[epoch] == shares[epoch, rank]
# sphinx_gallery_end_ignore

# %%
# The shares are those the sampler showed above. The two ranks compute
# different losses, on different samples, yet after every step they hold
# the same parameters: the gradients they applied were the same average.
first, second = reports
print(
    "initial parameters differ:     ",
    not torch.equal(first.initial_parameters, second.initial_parameters),
)
print(
    "rank 1 after wrapping = rank 0:",
    torch.equal(second.synced_parameters, first.initial_parameters),
)
print(
    "identical after training:      ", torch.equal(first.parameters, second.parameters)
)

# sphinx_gallery_start_ignore
assert not torch.equal(first.initial_parameters, second.initial_parameters)
assert torch.equal(second.synced_parameters, first.initial_parameters)
assert torch.equal(first.synced_parameters, first.initial_parameters)
assert torch.equal(first.parameters, second.parameters)
# sphinx_gallery_end_ignore

# %%
# The same training in one process
# --------------------------------
# Averaging the gradients of two shares of three samples is the gradient of
# the mean loss over all six: the shares have the same size, so each sample
# weighs the same. One process that takes one step per epoch on both shares
# together, starting from rank 0's weights, must end with the same
# parameters, and its loss must be the mean of the two ranks' losses.
X_train, y_train, _, _ = toy_tensors()
torch.manual_seed(123)  # rank 0's seed
single = NeuralNetwork(2, 2)
optimizer = torch.optim.SGD(single.parameters(), lr=0.5)

# sphinx_gallery_start_ignore
assert torch.equal(
    torch.nn.utils.parameters_to_vector(single.parameters()).detach(),
    first.initial_parameters,
)
# sphinx_gallery_end_ignore

for epoch in range(3):
    batch = first.samples[epoch] + second.samples[epoch]
    loss = F.cross_entropy(single(X_train[batch]), y_train[batch])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    mean_of_ranks = (first.losses[epoch] + second.losses[epoch]) / 2
    print(
        f"epoch {epoch + 1}: one process {loss.item():.6f}, mean of the ranks {mean_of_ranks:.6f}"
    )

single_parameters = torch.nn.utils.parameters_to_vector(single.parameters()).detach()
torch.testing.assert_close(first.parameters, single_parameters)
largest = (first.parameters - single_parameters).abs().max().item()
print(f"largest difference between the parameters: {largest:.1e}")

# sphinx_gallery_start_ignore
assert largest < 1e-6
# sphinx_gallery_end_ignore


# %%
# Equal up to the rounding of float32 (:func:`torch.testing.assert_close`
# rather than :func:`torch.equal`): the ranks add up the gradients in
# another order than one process does, and the order of a floating-point
# sum can change its last bits. This is the property that makes DDP safe
# to use: more processes change the speed, not the result.
#
# How the processes are started
# -----------------------------
# The processes are started with the ``"spawn"`` method: each is a fresh
# Python, which imports the module that holds the worker function. That is
# why the worker code lives in a module (:mod:`tutorial_utils.distributed`)
# and not in this page: a spawned process would import the page, and run
# it all again. :func:`~tutorial_utils.distributed.run_ddp` goes one step
# further, so that it is safe to call from a script without an
# ``if __name__ == "__main__":`` guard, from a notebook and from the
# documentation build: it runs ``python -m tutorial_utils.distributed`` in
# a subprocess, which starts the ranks, and reads their reports back from
# files. It also gives the run a time limit (``timeout=60`` seconds): a
# rank that waits forever for another one is stopped, and the call raises
# :class:`TimeoutError` instead of hanging.
#
# That module is also a script. Its ``--help``, printed here, lists the
# ways to start it, on CPUs and on GPUs:
help_text = subprocess.run(
    [sys.executable, "-m", "tutorial_utils.distributed", "--help"],
    capture_output=True,
    text=True,
    check=True,
    env={**os.environ, "COLUMNS": "80"},
).stdout
print(help_text)

# sphinx_gallery_start_ignore
assert "torchrun" in help_text
assert "CUDA_VISIBLE_DEVICES" in help_text
# sphinx_gallery_end_ignore

# %%
# On several GPUs
# ---------------
# On GPUs only three things change: the backend is ``nccl`` (NVIDIA's
# library for communication between GPUs), each rank moves its model and
# batches to its own GPU, and DDP is told which one (``device_ids``). The
# source text's script shows the classic form, started with
# :func:`torch.multiprocessing.spawn`:
#
# .. code-block:: python
#
#     import os
#
#     import torch
#     import torch.multiprocessing as mp
#     from torch.distributed import destroy_process_group, init_process_group
#     from torch.nn.parallel import DistributedDataParallel as DDP
#
#     def ddp_setup(rank, world_size):
#         os.environ["MASTER_ADDR"] = "localhost"  # where rank 0 listens
#         os.environ["MASTER_PORT"] = "12345"
#         init_process_group(backend="nccl", rank=rank, world_size=world_size)
#         torch.cuda.set_device(rank)
#
#     def main(rank, world_size, num_epochs):
#         ddp_setup(rank, world_size)
#         train_loader, test_loader = prepare_dataset()  # with a DistributedSampler
#         model = NeuralNetwork(num_inputs=2, num_outputs=2).to(rank)
#         optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
#         model = DDP(model, device_ids=[rank])
#         for epoch in range(num_epochs):
#             train_loader.sampler.set_epoch(epoch)
#             for features, labels in train_loader:
#                 features, labels = features.to(rank), labels.to(rank)
#                 ...  # the usual five lines
#         destroy_process_group()
#
#     if __name__ == "__main__":
#         world_size = torch.cuda.device_count()
#         mp.spawn(main, args=(world_size, 3), nprocs=world_size)
#
# :func:`~torch.multiprocessing.spawn` starts ``nprocs`` processes with the
# ``"spawn"`` method and calls ``main(rank, *args)`` in each, with ranks
# ``0`` to ``nprocs - 1``; the ``__main__`` guard keeps the spawned
# processes, which import the script, from spawning again. The fixed port
# must be free, and the script does not run in a notebook, since the
# processes cannot import a notebook's functions.
#
# Today the usual launcher is ``torchrun``, which starts the processes
# itself and passes each its rank in environment variables (``RANK``,
# ``LOCAL_RANK``, ``WORLD_SIZE``, ``MASTER_ADDR``, ``MASTER_PORT``):
# the script then calls ``init_process_group("nccl")`` without a rank and
# needs no ``mp.spawn``. :mod:`tutorial_utils.distributed` works both ways;
# on a machine with two GPUs:
#
# .. code-block:: console
#
#     $ torchrun --standalone --nproc-per-node=2 -m tutorial_utils.distributed --backend=nccl
#
# ``CUDA_VISIBLE_DEVICES`` chooses the GPUs a program may see, and numbers
# them from 0 again: with ``CUDA_VISIBLE_DEVICES=0,2`` the processes use
# physical GPUs 0 and 2 as ``cuda:0`` and ``cuda:1``, and
# ``torch.cuda.device_count()`` says 2. (The source text writes the name
# with a typo, ``CUDA_VISIBLE_DIVICES``; a misspelt variable is silently
# ignored, and every GPU is used.)
#
# Summary
# -------
# - DDP keeps one model copy per process and averages the gradients in
#   ``backward``; with equal shares, the result is that of one process on
#   the whole batch.
# - A :class:`~torch.utils.data.distributed.DistributedSampler` splits the
#   data, padding it to equal shares; call ``set_epoch`` every epoch.
# - Worker code lives in an importable module; the start method is named
#   (``"spawn"``), and the launching script keeps its work behind
#   ``if __name__ == "__main__":``.
# - ``gloo`` for CPUs, ``nccl`` for NVIDIA GPUs; ``torchrun`` starts one
#   process per GPU, ``CUDA_VISIBLE_DEVICES`` chooses which.
#
# This is the last page of the training section. The helpers the pages use
# are documented in :doc:`/api`; the first page of the section is
# :ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py`.
