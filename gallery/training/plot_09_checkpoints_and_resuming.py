"""
Checkpoints and resuming a run
==============================

After this page you can save what a training run needs to go on, and resume
it exactly where it stopped. You will see why the weights alone are not
enough, and use the site's checkpoint helper.

**Before this page:**
:ref:`sphx_glr_auto_examples_training_plot_05_optimisers_and_learning_rates.py`,
:ref:`sphx_glr_auto_examples_training_plot_07_reproducible_runs.py` and
:ref:`sphx_glr_auto_examples_training_plot_08_saving_and_loading.py`.
"""

# %%
# This page runs on the CPU. As before, ``tempfile.TemporaryDirectory``
# makes a folder for its files.
import pickle
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import torch
from torch.utils.data import DataLoader

from tutorial_utils.checkpoints import load_checkpoint, save_checkpoint
from tutorial_utils.colours import PALETTE
from tutorial_utils.data import toy_datasets
from tutorial_utils.environment import environment_summary
from tutorial_utils.models import NeuralNetwork
from tutorial_utils.training import train_one_epoch

print(environment_summary(torch.device("cpu")))
workdir = tempfile.TemporaryDirectory()
folder = Path(workdir.name)

# %%
# What a run needs to go on
# -------------------------
# A long run may stop early: it crashes, or its job hits a time limit. To go
# on later as if nothing had happened, it needs a :term:`checkpoint`. For
# the runs on this page, that is four things:
#
# 1. The model's :term:`state dict`, which holds its weights.
# 2. The :term:`optimiser`'s state dict. SGD with :term:`momentum` keeps a
#    momentum buffer for each parameter it trains. In ``sgd.state_dict()``,
#    the value under ``"state"`` is a dictionary. Its keys 0, 1, 2, ... number
#    the parameters in the order the optimiser was given them. Each value is
#    a dictionary that holds the ``"momentum_buffer"``.
# 3. The number of :term:`epochs <epoch>` done.
# 4. The state of PyTorch's random number generator, a :term:`tensor` from
#    :func:`torch.get_rng_state`. A :class:`~torch.utils.data.DataLoader` with
#    ``shuffle=True`` draws each epoch's order from it.
#
# .. detail:: When a momentum buffer appears
#
#    Before the first step, ``"state"`` is empty. A step gives a buffer to
#    each parameter that has a gradient, even a gradient of zeros. A
#    parameter whose ``.grad`` is ``None`` gets none.
#
# .. detail:: A loader with its own generator
#
#    A loader made with ``shuffle=True`` and ``generator=`` draws its order
#    from that generator, not from PyTorch's. For such a loader, also save
#    ``generator.get_state()``, and restore it with ``set_state``.
#
# The run below trains ``NeuralNetwork(2, 2)`` on the toy data of ``toy_datasets()``.
# :func:`~tutorial_utils.training.train_one_epoch` trains one epoch and returns the mean
# :term:`loss` of its samples. After three of eight epochs, the run saves a checkpoint
# with :func:`torch.save`.
#
# The state dicts' tensors share memory with the model's and the
# optimiser's: they are not copies. Training goes on changing them, so the
# file is written first.
loader = DataLoader(toy_datasets()[0], batch_size=2, shuffle=True)
epochs, saved_at = 8, 3
torch.manual_seed(0)
uninterrupted = NeuralNetwork(2, 2)
sgd = torch.optim.SGD(uninterrupted.parameters(), lr=0.1, momentum=0.9)
losses = [train_one_epoch(uninterrupted, loader, sgd) for _ in range(saved_at)]
to_save = {"model": uninterrupted.state_dict(), "optimizer": sgd.state_dict()}
to_save |= {"epoch": saved_at, "rng": torch.get_rng_state()}
torch.save(to_save, folder / "checkpoint.pt")
for _ in range(saved_at, epochs):
    losses.append(train_one_epoch(uninterrupted, loader, sgd))
print("losses:", [f"{loss:.1e}" for loss in losses])
print("optimiser state of the first parameter:", list(sgd.state_dict()["state"][0]))

# %%
# .. check:: state dicts share the live tensors' memory; no momentum yet
bias = uninterrupted.layers[4].bias  # parameter 5: the state dicts hold epoch 8's
assert to_save["model"]["layers.4.bias"].data_ptr() == bias.data_ptr()
saved_momentum = to_save["optimizer"]["state"][5]["momentum_buffer"]
assert saved_momentum.data_ptr() == sgd.state[bias]["momentum_buffer"].data_ptr()
assert [*to_save["optimizer"]["state"]] == [*range(len([*uninterrupted.parameters()]))]
unstepped = torch.optim.SGD(uninterrupted.parameters(), lr=0.1, momentum=0.9)
assert unstepped.state_dict()["state"] == {}

# %%
# .. check:: keys follow the optimiser's list; a zero gradient gets a buffer
weight, b, unused = torch.zeros(2, 2), torch.zeros(2), torch.zeros(3)
for tensor in weight, b, unused:
    tensor.requires_grad_()
weight.grad, b.grad = torch.zeros(2, 2), torch.ones(2)  # unused.grad stays None
reordered = torch.optim.SGD([b, weight, unused], lr=0.1, momentum=0.9)
reordered.step()
buffers = reordered.state_dict()["state"]
assert [*buffers] == [0, 1]  # b first, as listed; nothing for unused
assert buffers[0]["momentum_buffer"].shape == b.shape
assert torch.equal(weight, torch.zeros(2, 2))  # its zero gradient moved nothing

# %%
# .. check:: the shuffle follows PyTorch's generator, or the loader's own
with torch.random.fork_rng(devices=[]):  # later cells see the state as it was
    before = torch.get_rng_state()
    first_order = [x.tolist() for x, _ in loader]
    assert [x.tolist() for x, _ in loader] != first_order  # the state moved on
    torch.set_rng_state(before)
    assert [x.tolist() for x, _ in loader] == first_order
    own = DataLoader(loader.dataset, 2, shuffle=True, generator=torch.Generator())
    saved, own_order = own.generator.get_state(), [x.tolist() for x, _ in own]
    torch.set_rng_state(before)  # no help: this loader draws from its own
    assert [x.tolist() for x, _ in own] != own_order
    own.generator.set_state(saved)
    assert [x.tolist() for x, _ in own] == own_order

# %%
# Resuming exactly
# ----------------
# A new process builds its model with weights other than the checkpoint's,
# and its generator is in another state. Here ``torch.manual_seed(999)``
# stands for that. To resume, the process:
#
# 1. builds the same model and optimiser;
# 2. reads the checkpoint with :func:`torch.load` and ``weights_only=True``;
# 3. loads both state dicts with ``load_state_dict``;
# 4. restores the random state with :func:`torch.set_rng_state`, after
#    building the model, which draws random numbers;
# 5. trains the remaining epochs. The cell then compares each parameter with
#    the uninterrupted run's.
#
# .. detail:: On a GPU
#
#    A run that draws random numbers on a GPU also saves
#    :func:`torch.cuda.get_rng_state_all`. It can still resume differently in
#    the last bits. Some GPU operations are nondeterministic: run twice on
#    the same input, one may add its numbers in another order.
#
#    cuDNN is NVIDIA's library of neural-network kernels. It has several
#    algorithms for a convolution, a layer of image models. With
#    ``torch.backends.cudnn.benchmark = True``, cuDNN times them and keeps
#    the fastest, so a new process may keep another one. See
#    :ref:`sphx_glr_auto_examples_training_plot_57_deterministic_algorithms.py`.
torch.manual_seed(999)
resumed = NeuralNetwork(2, 2)
sgd = torch.optim.SGD(resumed.parameters(), lr=0.1, momentum=0.9)
checkpoint = torch.load(folder / "checkpoint.pt", weights_only=True)
resumed.load_state_dict(checkpoint["model"])
sgd.load_state_dict(checkpoint["optimizer"])
torch.set_rng_state(checkpoint["rng"])
start = checkpoint["epoch"]
resumed_losses = [train_one_epoch(resumed, loader, sgd) for _ in range(start, epochs)]
pairs = zip(resumed.parameters(), uninterrupted.parameters(), strict=True)
identical = all(torch.equal(a, b) for a, b in pairs)
print("parameters identical to the uninterrupted run:", identical)

# %%
# .. check:: the resumed run has the same weights and the same losses
assert identical
assert resumed_losses == losses[start:]

# %%
# Resuming from the weights alone
# -------------------------------
# Resuming from the weights alone builds a fresh optimiser: no momentum yet. The new
# process's random state stays, so the batches come in another order. In this run the
# loss is then above the uninterrupted run's at every epoch, but that is no rule.
torch.manual_seed(999)
from_weights = NeuralNetwork(2, 2)
from_weights.load_state_dict(checkpoint["model"])
fresh_sgd = torch.optim.SGD(from_weights.parameters(), lr=0.1, momentum=0.9)
other_losses = [
    train_one_epoch(from_weights, loader, fresh_sgd) for _ in range(start, epochs)
]
print("losses after the checkpoint:", [f"{loss:.1e}" for loss in other_losses])
higher = all(o > u for o, u in zip(other_losses, losses[start:], strict=True))
print("higher than the uninterrupted run's at every epoch:", higher)

# %%
# .. check:: from the weights alone, the run differs: higher, other shuffles
assert higher
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(999)
    NeuralNetwork(2, 2)  # as above: the run started from the state after this
    new_order = [labels.tolist() for _, labels in loader]
    torch.set_rng_state(checkpoint["rng"])  # the epoch after the checkpoint
    assert new_order != [labels.tolist() for _, labels in loader]

# %%
# The figure shows the runs on a log scale, with epochs numbered from 1. A
# dotted line (``ax.axvline``) between epochs 3 and 4 marks the checkpoint.
# The resumed run's crosses sit on the first curve.
fig, ax = plt.subplots(figsize=(7, 3.6), layout="constrained")
every, after = range(1, epochs + 1), range(start + 1, epochs + 1)
ax.plot(every, losses, "o-", color=PALETTE[5], label="uninterrupted")
# "o-" circles+line, "s--" squares+dashes, "x" crosses; ms size, mew edge width
ax.plot(after, resumed_losses, "x", color=PALETTE[1], ms=12, mew=2.5, label="resumed")
ax.plot(after, other_losses, "s--", color=PALETTE[6], label="from the weights alone")
ax.axvline(start + 0.5, color="black", linestyle=":", label="checkpoint")
ax.set(xlabel="epoch", ylabel="mean training loss", yscale="log", xticks=every)
ax.legend()
plt.show()

# %%
# The site's checkpoint helper
# ----------------------------
# :func:`~tutorial_utils.checkpoints.save_checkpoint` writes such a checkpoint
# in one call, and returns the path it wrote.
#
# :func:`~tutorial_utils.checkpoints.load_checkpoint` reads it with
# ``weights_only=True``. It restores the model, the optimiser and the random
# state, and returns the epoch. Called without an optimiser, it restores
# only the model and the random state.
#
# Here is the same run, saved and resumed with them:
#
# .. detail:: The helper's file
#
#    Under ``"rng"``, it keeps a dictionary: the CPU's random state and, where
#    CUDA is available, every CUDA device's. A ``"format"`` key marks the file.
torch.manual_seed(0)
run = NeuralNetwork(2, 2)
sgd = torch.optim.SGD(run.parameters(), lr=0.1, momentum=0.9)
for _ in range(saved_at):
    train_one_epoch(run, loader, sgd)
run_path = save_checkpoint(folder / "run.pt", run, sgd, epoch=saved_at)
torch.manual_seed(999)
run = NeuralNetwork(2, 2)
sgd = torch.optim.SGD(run.parameters(), lr=0.1, momentum=0.9)
start = load_checkpoint(run_path, run, sgd)
helper_losses = [train_one_epoch(run, loader, sgd) for _ in range(start, epochs)]
print("same losses as the uninterrupted run:", helper_losses == losses[start:])

# %%
# .. check:: the helper saves the same states and resumes to the same losses
helper_file = torch.load(run_path, weights_only=True)
assert sorted(helper_file) == ["epoch", "format", "model", "optimizer", "rng"]
assert torch.equal(helper_file["rng"]["cpu"], to_save["rng"])
assert list(helper_file["rng"]) == ["cpu", "cuda"][: 1 + torch.cuda.is_available()]
model_state = helper_file["model"]
assert all(torch.equal(model_state[k], v) for k, v in checkpoint["model"].items())
assert helper_losses == losses[start:]

# %%
# ``save_checkpoint`` also guards the file in two ways:
#
# 1. It raises a :class:`FileExistsError` rather than replace an existing
#    file, unless called with ``overwrite=True``.
# 2. With ``overwrite=True``, it writes the new file in full, then renames it
#    over the old one. A save that stops half-way keeps the old checkpoint.
#
# The cell prints the error's ``strerror``: its message without the path. If
# no error comes, it stops with an ``AssertionError``. It then saves with
# ``overwrite=True``, and loads the file into a new model to read the epoch.
# That also restores the file's random state.
#
# .. detail:: The partial file, and a failed ``torch.save``
#
#    The new file is first written as ``.run.pt.<16 random hex digits>.partial``.
#    A save that raises an error deletes its partial file. A killed process
#    may leave it behind. Each save picks a new random name, so a later save
#    never reuses, replaces or deletes that file. If ``run.pt`` is a symbolic
#    link, the rename replaces the link, not the file it points to.
#
#    :func:`torch.save` writes straight into its file. If it fails while
#    writing over an earlier checkpoint, it leaves a broken file that
#    :func:`torch.load` refuses.
try:
    save_checkpoint(run_path, run, sgd, epoch=epochs)
except FileExistsError as error:
    print(f"FileExistsError: {error.strerror}")
else:
    raise AssertionError("save_checkpoint replaced an existing file")
save_checkpoint(run_path, run, sgd, epoch=epochs, overwrite=True)
done = load_checkpoint(run_path, NeuralNetwork(2, 2))
print("with overwrite=True, epochs done:", done)

# %%
# .. check:: without an optimiser, ``load_checkpoint`` restores the RNG too
assert done == epochs  # with overwrite=True, replaced
in_file = torch.load(run_path, weights_only=True)["rng"]["cpu"]
assert torch.equal(torch.get_rng_state(), in_file)

# %%
# .. check:: without ``overwrite=True``, a new file is linked, not renamed
from unittest import mock

with mock.patch("os.replace", side_effect=OSError("renamed")):  # never called
    save_checkpoint(folder / "new.pt", run, sgd, epoch=epochs)

# %%
# .. check:: a failed or killed save keeps the old file, unlike ``torch.save``
import subprocess
import sys

broken = torch.optim.SGD([{"params": run.parameters(), "gen": (n for n in ())}], lr=0.1)
previous = run_path.read_bytes()
saves = [
    lambda: save_checkpoint(run_path, run, broken, epoch=epochs, overwrite=True),
    lambda: torch.save({"optimizer": broken.state_dict()}, folder / "checkpoint.pt"),
]
for save in saves:
    try:
        save()
    except TypeError:
        pass
    else:
        raise AssertionError("a generator was pickled")
assert run_path.read_bytes() == previous
try:
    torch.load(folder / "checkpoint.pt", weights_only=True)
except (RuntimeError, pickle.UnpicklingError):  # by PyTorch version
    pass
else:
    raise AssertionError("a half-written file loaded")
assert not list(folder.glob("*partial"))  # raised: nothing left behind
killed = f"""import os, torch, tutorial_utils.checkpoints as c
class Kill:  # stops the process half-way through the save, as a kill would
    __reduce__ = lambda self: os._exit(9)  # no finally, no cleanup
sgd = torch.optim.SGD([{{"params": [torch.zeros(1)], "kill": Kill()}}], lr=0.1)
c.save_checkpoint({str(run_path)!r}, torch.nn.Linear(1, 1), sgd, 1, overwrite=True)"""
assert subprocess.run([sys.executable, "-c", killed], check=False).returncode == 9
assert run_path.read_bytes() == previous  # killed half-way: the old file is there
assert len(list(folder.glob("*partial"))) == 1  # and the killed save's partial file

# %%
# .. check:: later saves leave a killed save's partial file as it is
import os
import re
import shutil

(left,) = folder.glob("*partial")
assert re.fullmatch(r"\.run\.pt\.[0-9a-f]{16}\.partial", left.name)
as_left = left.read_bytes()
# A helper that named its partial file by process id reused these names.
for name in "run.pt", "fresh.pt":
    shutil.copy(left, folder / f".{name}.{os.getpid()}.partial")
save_checkpoint(run_path, run, sgd, epoch=epochs, overwrite=True)  # it raised here
save_checkpoint(folder / "fresh.pt", run, sgd, epoch=epochs)  # and said "exists"
stale = sorted(folder.glob("*partial"))
assert len(stale) == 3
assert all(f.read_bytes() == as_left for f in stale)
link, latest = folder / "latest.pt", run_path.read_bytes()
try:
    link.symlink_to(run_path)
except OSError:  # Windows may need a privilege for links: nothing to test
    pass
else:
    save_checkpoint(link, run, sgd, epoch=saved_at, overwrite=True)
    assert not link.is_symlink()  # the link itself was replaced
    assert run_path.read_bytes() == latest  # not the file it pointed to

# %%
# Summary
# -------
# - A checkpoint holds the model's and the optimiser's state dicts, the
#   epoch and the random state. Restored together, they resumed this run
#   exactly on the CPU. The weights alone did not.
# - ``save_checkpoint`` and ``load_checkpoint`` do it in one call each. A
#   save that stops half-way keeps the previous checkpoint.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_10_distributed_training.py`,
# which trains one model in several processes at once.

# %%
# .. _exercises-training-09:
#
# Exercises
# ---------
# Both exercises go on with this run:
checkpoint_file = folder / "exercise.pt"
torch.manual_seed(0)
run = NeuralNetwork(2, 2)
sgd = torch.optim.SGD(run.parameters(), lr=0.1, momentum=0.9)
for _ in range(2):
    train_one_epoch(run, loader, sgd)
state_after_two = torch.get_rng_state()  # for exercise 1's check

# %%
# **Exercise 1.** ``run`` has trained for 2 :term:`epochs <epoch>` with
# ``sgd``. Define ``checkpoint``, a dictionary with the keys ``"model"``,
# ``"optimizer"``, ``"epoch"`` and ``"rng"``, as in this page's run. Save it
# to ``checkpoint_file`` with :func:`torch.save`, not ``save_checkpoint``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
checkpoint = {"model": run.state_dict(), "optimizer": sgd.state_dict()}
checkpoint |= {"epoch": 2, "rng": torch.get_rng_state()}
torch.save(checkpoint, checkpoint_file)

# %%
# .. raw:: html
#
#    </details>

# %%
# The check reads the file back. ``checkpoint_file.is_file()`` says whether
# the file exists. With ``weights_only=True``, :func:`torch.load` raises
# ``pickle.UnpicklingError`` for objects it does not allow, such as a whole model.
assert isinstance(checkpoint, dict), "Exercise 1: checkpoint is not a dictionary"
assert checkpoint_file.is_file(), "Exercise 1: nothing saved to checkpoint_file"
try:
    saved = torch.load(checkpoint_file, weights_only=True)
except pickle.UnpicklingError as error:
    raise AssertionError("Exercise 1: save state dicts, not objects") from error
else:
    assert isinstance(saved, dict), "Exercise 1: the file holds no dictionary"
keys = {"model", "optimizer", "epoch", "rng"}
assert keys <= set(saved), f"Exercise 1: the file lacks {sorted(keys - set(saved))}"
assert saved["epoch"] == 2, "Exercise 1: the run has done 2 epochs"
rng = saved["rng"]
assert isinstance(rng, torch.Tensor), "Exercise 1: rng is not torch.get_rng_state()"
assert torch.equal(rng, state_after_two), "Exercise 1: not the rng state after 2 epochs"
weight = saved["model"]["layers.0.weight"]
assert torch.equal(weight, run.layers[0].weight), "Exercise 1: not run's weights"
assert saved["optimizer"]["state"], "Exercise 1: no optimiser state (momentum)"
print("Exercise 1: right")
torch.manual_seed(999)  # a new process would start from another random state

# %%
# **Exercise 2.** The check above reseeded PyTorch, to stand for a new process.
# Define ``resumed``, a ``NeuralNetwork(2, 2)``, and ``resumed_sgd``, SGD
# with ``sgd``'s settings. Restore them and the random state from
# ``checkpoint_file``, then train epochs 3 and 4 with ``loader``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
restored = torch.load(checkpoint_file, weights_only=True)
resumed = NeuralNetwork(2, 2)
resumed_sgd = torch.optim.SGD(resumed.parameters(), lr=0.1, momentum=0.9)
resumed.load_state_dict(restored["model"])
resumed_sgd.load_state_dict(restored["optimizer"])
torch.set_rng_state(restored["rng"])
for _ in range(restored["epoch"], 4):
    train_one_epoch(resumed, loader, resumed_sgd)

# %%
# .. raw:: html
#
#    </details>

# %%
# The check compares with a run of 4 epochs without a break:
assert isinstance(resumed_sgd, torch.optim.SGD), "Exercise 2: resumed_sgd is not SGD"
fresh = resumed is not run and resumed_sgd is not sgd
assert fresh, "Exercise 2: resumed and resumed_sgd should be new, not run and sgd"
torch.manual_seed(0)
reference = NeuralNetwork(2, 2)
reference_sgd = torch.optim.SGD(reference.parameters(), lr=0.1, momentum=0.9)
for _ in range(4):
    train_one_epoch(reference, loader, reference_sgd)
pairs = zip(resumed.parameters(), reference.parameters(), strict=True)
same = all(torch.equal(a, b) for a, b in pairs)
assert same, "Exercise 2: not that run's weights (optimiser? random state set last?)"
print("Exercise 2: right")
workdir.cleanup()  # every file the page wrote: no longer needed
