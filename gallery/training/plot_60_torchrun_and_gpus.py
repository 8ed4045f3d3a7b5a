"""
torchrun and GPUs
=================

Write a training script that ``torchrun`` starts on CPUs or GPUs, know
what changes on GPUs, and see how DDP averages gradients and how the site's
helper starts its processes. A first reading can skip this in-depth page.

**Before this page:**
:ref:`sphx_glr_auto_examples_training_plot_10_distributed_training.py`.
"""

# %%
# On the CPU, this page starts no processes.
import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler

import tutorial_utils.distributed
from tutorial_utils.data import toy_datasets, toy_tensors
from tutorial_utils.environment import environment_summary
from tutorial_utils.grids import draw_tensors
from tutorial_utils.models import NeuralNetwork

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(environment_summary(device))

# %%
# How DDP averages the gradients
# ------------------------------
# DDP averages with an *all-reduce*: every process sends a tensor, and every
# process receives the same combined result.
#
# Here, in one process, are the :term:`gradients <gradient>` of the last
# layer's bias on the two shares of the core page's first epoch. A new
# sampler starts there, at epoch 0. Next to them are their mean and the
# gradient on both shares together. These last two are equal, up to rounding.
# ``model.zero_grad()`` sets every parameter's ``.grad`` to ``None``.
# ``bias.grad.clone()`` copies a gradient before the next ``backward``.
train_ds, _ = toy_datasets()
X_train, y_train, _, _ = toy_tensors()
shares = [
    list(DistributedSampler(train_ds, num_replicas=2, rank=rank, seed=123))
    for rank in (0, 1)
]
torch.manual_seed(123)
model = NeuralNetwork(2, 2)
bias = list(model.parameters())[-1]
grads = []
for batch in (shares[0], shares[1], shares[0] + shares[1]):
    model.zero_grad()
    F.cross_entropy(model(X_train[batch]), y_train[batch]).backward()
    grads.append(bias.grad.clone())
mean = (grads[0] + grads[1]) / 2
titles = ["process rank 0", "process rank 1", "their mean", "both shares"]
draw_tensors([grads[0], grads[1], mean, grads[2]], titles, fmt="{:.3f}")
plt.show()
print(f"largest difference: {(mean - grads[2]).abs().max().item():.1e}")
torch.testing.assert_close(mean, grads[2])

# %%
# .. check:: ``zero_grad()`` sets each ``.grad`` to ``None``; new samplers: epoch 0
import copy

assert DistributedSampler(train_ds, 2, 0).epoch == 0  # a new sampler's epoch
probe = copy.deepcopy(model)  # copies no .grad: copy the last ones by hand
for copied, original in zip(probe.parameters(), model.parameters(), strict=True):
    copied.grad = original.grad.clone()  # fails if a .grad were None
probe.zero_grad()
assert all(parameter.grad is None for parameter in probe.parameters())

# %%
# .. detail:: Buckets, buffers and ``init_sync``
#
#    DDP gathers gradients in buckets. It can send one bucket while
#    ``backward`` still computes the rest. By default a bucket is closed
#    once it holds 25 MiB, the first one once it holds 1 MiB.
#
#    By default, DDP also copies buffers, such as batch normalisation's
#    running statistics, from process rank 0 at the start of each forward
#    pass. Recent versions, 2.13 among them, can skip the copy at
#    construction with ``init_sync=False``. PyTorch 2.4 has no such
#    parameter.

# %%
# .. check:: overlap, 25 MiB and 1 MiB buckets; buffers copied; ``init_sync``
import inspect

doc = " ".join(DistributedDataParallel.__doc__.split())
assert "overlap with backward computation" in doc
assert "default size of 25 MiB" in doc
assert torch.distributed._DEFAULT_FIRST_BUCKET_BYTES == 2**20
assert "Buffers (e.g. BatchNorm stats) are broadcast" in doc
assert "buffers of the module at beginning of the ``forward`` function" in doc
default = inspect.signature(DistributedDataParallel).parameters["broadcast_buffers"]
assert default.default is True or "When ``None``, defaults to ``True``" in doc  # 2.13
has_init_sync = "init_sync" in inspect.signature(DistributedDataParallel).parameters
major_minor = tuple(int(part) for part in torch.__version__.split(".")[:2])
assert has_init_sync or major_minor < (2, 13)
assert not has_init_sync or major_minor > (2, 4)

# %%
# A script for torchrun
# ---------------------
# ``torchrun`` is PyTorch's launcher. A run can span several machines,
# called *nodes*, with ``torchrun`` started on each. It starts the processes
# and gives each one, in its environment, ``RANK``, ``LOCAL_RANK``,
# ``WORLD_SIZE``, ``MASTER_ADDR`` and ``MASTER_PORT``. ``RANK`` is the
# :term:`process rank` over all nodes; ``LOCAL_RANK`` is the one on this
# node. Python reads them from ``os.environ``.
# :func:`~torch.distributed.init_process_group` reads the process rank and
# :term:`world size` from there.
#
# A port is a numbered door on a machine; listening means waiting for
# connections there. One process listens at port ``MASTER_PORT`` of the
# machine ``MASTER_ADDR``, and the training processes connect there.
#
# A sampler built without ``num_replicas`` and ``rank`` asks the process
# group for them, as :func:`~torch.distributed.get_rank` does.
#
# .. detail:: Who listens
#
#    Under ``torchrun --standalone``, torch 2.13's launcher listens itself;
#    torch 2.4's leaves it to process rank 0. Without ``torchrun``,
#    ``init_process_group`` has process rank 0 listen, in both versions.

# %%
# .. check:: torchrun sets these; the group reads them, the sampler asks it
import inspect
from unittest import mock

import torch.distributed.run

doc = torch.distributed.run.__doc__
for name in ("RANK", "LOCAL_RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"):
    assert name in doc
flat = " ".join(doc.split())
assert "``LOCAL_RANK`` - The local rank. 2. ``RANK`` - The global rank." in flat
assert "For multi-node training" in flat
launch = torch.distributed.run.get_args_parser()  # one torchrun per node:
assert launch.parse_args(["--nnodes=2", "--node-rank=1", "x.py"]).node_rank == 1
assert "env://" in dist.init_process_group.__doc__
assert "get_world_size()" in inspect.getsource(DistributedSampler.__init__)
with mock.patch.dict(os.environ, {"RANK": "0", "WORLD_SIZE": "2"}):
    try:
        DistributedSampler(train_ds)
    except ValueError as error:
        message = str(error)
    else:
        raise AssertionError("the sampler read the environment")
assert "process group has not been initialized" in message

# %%
# .. check:: who listens: 2.13's launcher, or process rank 0
import importlib

store = inspect.getsource(importlib.import_module("torch.distributed.rendezvous"))
assert "TORCHELASTIC_USE_AGENT_STORE" in store  # set: the launcher listens
assert "rank 0 will host" in store  # otherwise
launcher = importlib.import_module(
    "torch.distributed.elastic.agent.server.local_elastic_agent"
)
assert '"TORCHELASTIC_USE_AGENT_STORE": str(use_agent_store)' in (
    inspect.getsource(launcher)
)
assert 'args.rdzv_backend = "c10d"' in inspect.getsource(torch.distributed.run)
registry = importlib.import_module("torch.distributed.elastic.rendezvous.registry")
dynamic = registry.create_handler.__module__  # what the c10d backend builds
handler = importlib.import_module(dynamic).DynamicRendezvousHandler
shares_store = handler.use_agent_store.fget(None)  # reads no instance
major_minor = tuple(int(part) for part in torch.__version__.split(".")[:2])
assert shares_store or major_minor < (2, 13)
assert not shares_store or major_minor > (2, 4)


# %%
# Here is the worker of the core page as the function ``main`` of a script.
# This page only defines ``main``; ``torchrun`` would call it in each
# process. Where ``main`` finds CUDA, it changes four things:
#
# 1. The backend is ``nccl``, NVIDIA's library, the one recommended for CUDA
#    GPUs. ``gloo``, used on the CPU, can move CUDA tensors too.
# 2. ``torch.device("cuda", local_rank)`` is the GPU ``cuda:<LOCAL_RANK>``:
#    one per process. Processes that share a GPU under ``nccl`` can wait for
#    each other forever.
# 3. :func:`torch.cuda.set_device` makes that GPU the current one. CUDA work
#    that names no GPU number then goes there, not to ``cuda:0``.
# 4. The model and batches move there. DDP's ``device_ids`` names that GPU.
#
# Every process seeds with 123: DDP would copy process rank 0's weights
# anyway.
def main():
    local_rank = int(os.environ["LOCAL_RANK"])  # set by torchrun
    if torch.cuda.is_available():
        device = torch.device("cuda", local_rank)
        torch.cuda.set_device(device)
        dist.init_process_group("nccl")
    else:
        device = torch.device("cpu")
        dist.init_process_group("gloo")
    rank = dist.get_rank()
    torch.manual_seed(123)
    model = NeuralNetwork(2, 2).to(device)
    model = DistributedDataParallel(
        model, device_ids=[local_rank] if device.type == "cuda" else None
    )
    train_ds, _ = toy_datasets()
    sampler = DistributedSampler(train_ds, shuffle=True, seed=123)
    loader = DataLoader(train_ds, batch_size=len(sampler), sampler=sampler)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    for epoch in range(3):
        sampler.set_epoch(epoch)
        for features, labels in loader:
            features, labels = features.to(device), labels.to(device)
            loss = F.cross_entropy(model(features), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"process rank {rank}, epoch {epoch + 1}: loss {loss.item():.4f}")
    dist.destroy_process_group()


# %%
# .. check:: ``main`` joins, trains with the sampler, and leaves the group
names = main.__code__.co_names
for name in ("init_process_group", "set_epoch", "destroy_process_group"):
    assert name in names

# %%
# .. check:: nccl is for CUDA, gloo for both; sharing a GPU can deadlock
capability = dist.Backend.backend_capability
assert capability["nccl"] == ["cuda"]
assert "cuda" in capability["gloo"]
assert "deadlock" in dist.init_process_group.__doc__
assert torch.device("cuda", 1) == torch.device("cuda:1")
if torch.cuda.is_available():
    last = torch.cuda.device_count() - 1
    with torch.cuda.device(last):
        assert torch.zeros(1, device="cuda").device.index == last

# %%
# Save it as ``train_ddp.py``: the imports of this page's first cell, then
# ``main``, then these two lines, which call it when the file runs. The
# imports need the site's package: see :ref:`run-it-yourself`.
#
# .. code-block:: python
#
#     if __name__ == "__main__":
#         main()
#
# Then start it from a terminal:
#
# .. code-block:: bash
#
#     torchrun --standalone --nproc-per-node=2 train_ddp.py    # no GPU
#     torchrun --standalone --nproc-per-node=gpu train_ddp.py  # one per GPU
#
# ``--standalone`` is for a run on one node; ``torchrun`` picks a free port
# itself. With a GPU, ask for no more processes than GPUs:
# ``cuda:<LOCAL_RANK>`` must exist.

# %%
# .. check:: ``--standalone``: one node, a free port; ``gpu`` accepted
parser = torch.distributed.run.get_args_parser()
args = parser.parse_args(["--standalone", "--nproc-per-node=gpu", "x.py"])
assert args.nproc_per_node == "gpu"
(standalone,) = [a for a in parser._actions if "--standalone" in a.option_strings]
assert "single-node" in standalone.help
assert "free port" in standalone.help

# %%
# On GPUs
# -------
# If there is a GPU, the next cell runs the site's module
# ``tutorial_utils.distributed`` with ``nccl``, one process per GPU:
#
# 1. :func:`torch.cuda.device_count` counts the GPUs.
# 2. ``subprocess.run`` starts the Python of ``sys.executable`` with ``-m``
#    and the module. The options ask for one process per GPU, ``nccl``, and
#    a folder from ``tempfile`` for the reports.
# 3. ``check=True`` raises an error if the command fails. ``timeout=180``
#    stops it after 180 s, with an error.
# 4. :func:`torch.load` reads each process's report back.
#
# The processes' parameters end equal. They also match one CPU process
# trained on the same global batches, within ``assert_close``'s small default
# tolerances. Without a GPU, the cell prints one line and its check skips
# them. Here each report is a dictionary, not an object as on the core page.
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
    print("No GPU here (torch.cuda.is_available() is False): no nccl run.")

# %%
# .. check:: options and limits; GPU runs equal and match one process
import inspect

usage = " ".join(tutorial_utils.distributed._parser().format_help().split())
for words in ("processes to start", "{gloo,nccl}", "save each process's report"):
    assert words in usage
run_doc = " ".join(subprocess.run.__doc__.split())
assert "If check is True and the exit code was non-zero, it raises" in run_doc
assert "a TimeoutExpired exception will be raised" in run_doc
assert "process.kill()" in inspect.getsource(subprocess.run)
torch.testing.assert_close(torch.tensor(0.0), torch.tensor(9e-6))  # tolerances
if torch.cuda.is_available():
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(123)
        one = NeuralNetwork(2, 2)
    sgd = torch.optim.SGD(one.parameters(), lr=0.5)
    for epoch in range(3):
        batch = []
        for rank in range(gpus):
            share = DistributedSampler(train_ds, num_replicas=gpus, rank=rank, seed=123)
            share.set_epoch(epoch)
            batch += list(share)
        sgd.zero_grad()
        F.cross_entropy(one(X_train[batch]), y_train[batch]).backward()
        sgd.step()
    expected = torch.nn.utils.parameters_to_vector(one.parameters()).detach()
    for report in gpu_reports:
        assert torch.equal(report["parameters"], gpu_reports[0]["parameters"])
    torch.testing.assert_close(gpu_reports[0]["parameters"], expected)

# %%
# How the site's helper starts processes
# --------------------------------------
# The processes that the core page's ``run_ddp`` starts use the ``"spawn"``
# :term:`start method`: each process is a fresh Python. It receives the
# worker function from :mod:`pickle`, which writes a function as its module
# and name only, not its code. ``pickle.dumps`` returns those bytes:
data = pickle.dumps(tutorial_utils.distributed.train_rank)
print(data)

# %%
# A new process finds the worker by importing its module. It cannot find
# a function defined in ``python -c`` or a notebook. A spawned process also
# runs the starting script's top level again, unless that code sits under
# ``if __name__ == "__main__":``.
#
# ``run_ddp`` works from any script: it runs a separate Python,
# ``python -m tutorial_utils.distributed``, that starts the processes.
#
# .. detail:: The time limit
#
#    ``run_ddp`` raises :class:`TimeoutError` if the processes run longer
#    than ``timeout`` seconds, and :class:`RuntimeError` if one fails. The
#    ``timeout`` counts from the start of the training processes.
#    Starting the separate Python may take up to 10 s more.

# %%
# .. check:: pickle sends a name; spawn reruns the main script; run_ddp's limits
import inspect
import multiprocessing.spawn

assert len(data) < 100
assert b"tutorial_utils.distributed" in data
assert pickle.loads(data) is tutorial_utils.distributed.train_rank
spawn_source = inspect.getsource(multiprocessing.spawn)
assert "init_main_from_path" in spawn_source
run_ddp_doc = " ".join(tutorial_utils.distributed.run_ddp.__doc__.split())
assert "python -m tutorial_utils.distributed" in run_ddp_doc
assert 'the ``"spawn"`` start method' in run_ddp_doc
for words in ("TimeoutError", "RuntimeError", "may take up to 10 s more"):
    assert words in run_ddp_doc

# %%
# Summary
# -------
# - ``torchrun`` sets ``RANK``, ``LOCAL_RANK`` and ``WORLD_SIZE``, which
#   ``init_process_group`` reads.
# - On GPUs: ``nccl``, one GPU per process, ``set_device``, ``device_ids``.
# - DDP's all-reduce leaves every process the mean of the gradients.
# - With ``spawn``, the worker must live in an importable module.
#
# Next: :ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`.
