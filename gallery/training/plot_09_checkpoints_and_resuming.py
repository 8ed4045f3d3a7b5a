"""
Checkpoints and resuming a run
==============================

Save what a training run needs to go on in one file, resume the run
exactly where it stopped, see what resuming from the weights alone changes,
and let a helper write such files without destroying an earlier one by
accident.
"""

# %%
# Every page starts by saying what computed it. This page runs on the CPU.
# Every file it writes goes into a temporary folder that is deleted at the
# end; only file names are printed.
import pickle
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import torch
from matplotlib.ticker import MaxNLocator
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
# The previous page saved a model's weights, its :term:`state dict`. To
# continue training later (after a crash, or on a cluster whose jobs have a
# time limit) as if nothing had happened, the weights are not enough. The
# :term:`optimiser` has state of its own: with momentum, a running
# direction for each parameter. The order of the :term:`batches <batch>` in
# the next :term:`epochs <epoch>` comes from PyTorch's random number
# generator, from which a :class:`~torch.utils.data.DataLoader` with
# ``shuffle=True`` and no ``generator`` of its own draws each epoch's
# shuffle. And the run must know how many epochs it has done.
#
# The run below trains the toy model of the previous pages for eight epochs
# with SGD and momentum, and after the third saves a :term:`checkpoint`: a
# dictionary of the model's and the optimiser's state dicts, the epoch, and
# the state of the random number generator (:func:`torch.get_rng_state`).
# :func:`torch.save` writes it at once: the optimiser's state dict, like the
# model's (previous page), holds the optimiser's own :term:`tensors <tensor>`,
# which the next epochs change. The run prints the mean :term:`loss` over
# each epoch's samples.
#
# .. detail:: GPU random state
#
#    A run that draws random numbers on a GPU also saves
#    :func:`torch.cuda.get_rng_state_all`.
train_ds, _ = toy_datasets()
train_loader = DataLoader(train_ds, batch_size=2, shuffle=True)
epochs, saved_at = 8, 3

torch.manual_seed(0)
uninterrupted = NeuralNetwork(2, 2)
sgd = torch.optim.SGD(uninterrupted.parameters(), lr=0.1, momentum=0.9)
losses = [train_one_epoch(uninterrupted, train_loader, sgd) for _ in range(saved_at)]
to_save = {"model": uninterrupted.state_dict(), "optimizer": sgd.state_dict()}
to_save |= {"epoch": saved_at, "rng": torch.get_rng_state()}
torch.save(to_save, folder / "checkpoint.pt")
losses += [
    train_one_epoch(uninterrupted, train_loader, sgd) for _ in range(saved_at, epochs)
]
print("losses:", [f"{loss:.1e}" for loss in losses])
print("optimiser state of the first parameter:", list(sgd.state_dict()["state"][0]))

# %%
# .. check:: the saved state dicts hold the live tensors; each shuffle draws from the generator
bias = uninterrupted.layers[4].bias  # parameter 5: the state dicts hold epoch 8's
momentum = sgd.state[bias]["momentum_buffer"]
assert to_save["model"]["layers.4.bias"].data_ptr() == bias.data_ptr()
saved_momentum = to_save["optimizer"]["state"][5]["momentum_buffer"]
assert saved_momentum.data_ptr() == momentum.data_ptr()
before = torch.get_rng_state()
first_order = [labels.tolist() for _, labels in train_loader]
assert not torch.equal(torch.get_rng_state(), before)  # the shuffle drew from it
torch.set_rng_state(before)
assert [labels.tolist() for _, labels in train_loader] == first_order
torch.set_rng_state(before)  # later cells see the state as it was

# %%
# Resuming bit for bit
# --------------------
# A later process starts with other random weights and another random
# state, which ``torch.manual_seed(999)`` stands for here. It builds the
# same model and optimiser, loads the checkpoint with ``weights_only=True``
# (see the
# :ref:`previous page <sphx_glr_auto_examples_training_plot_08_saving_and_loading.py>`),
# restores the three states, and trains the remaining epochs.
torch.manual_seed(999)
resumed = NeuralNetwork(2, 2)
sgd = torch.optim.SGD(resumed.parameters(), lr=0.1, momentum=0.9)
checkpoint = torch.load(folder / "checkpoint.pt", weights_only=True)
resumed.load_state_dict(checkpoint["model"])
sgd.load_state_dict(checkpoint["optimizer"])
torch.set_rng_state(checkpoint["rng"])
start = checkpoint["epoch"]
resumed_losses = [
    train_one_epoch(resumed, train_loader, sgd) for _ in range(start, epochs)
]
pairs = zip(resumed.parameters(), uninterrupted.parameters(), strict=True)
identical = all(torch.equal(a, b) for a, b in pairs)
print("parameters identical to the uninterrupted run:", identical)

# %%
# Identical, bit for bit (:func:`torch.equal`, not just close), and so are
# the losses of epochs 4 to 8, on this CPU.
#
# .. detail:: On a GPU
#
#    On a GPU, a resumed run is guaranteed identical only where every
#    operation of the run is deterministic (see :func:`torch.use_deterministic_algorithms`).

# %%
# Resuming from the weights alone
# -------------------------------
# Resuming with the weights alone, with a fresh optimiser (it has no
# momentum yet) and the random state of the new process (other shuffles),
# gives another run:
torch.manual_seed(999)
from_weights = NeuralNetwork(2, 2)
from_weights.load_state_dict(checkpoint["model"])
fresh_sgd = torch.optim.SGD(from_weights.parameters(), lr=0.1, momentum=0.9)
other_losses = [
    train_one_epoch(from_weights, train_loader, fresh_sgd) for _ in range(start, epochs)
]
print("losses after the checkpoint:", [f"{loss:.1e}" for loss in other_losses])
higher = all(o > u for o, u in zip(other_losses, losses[start:], strict=True))
print("higher than the uninterrupted run's at every epoch:", higher)

# %%
# .. check:: resumed: same weights and losses; from weights alone: no momentum, other order, higher
assert identical
assert resumed_losses == losses[start:]
new_sgd = torch.optim.SGD(from_weights.parameters(), lr=0.1, momentum=0.9)
assert new_sgd.state_dict()["state"] == {}  # as fresh_sgd was: no momentum yet
assert higher
after_run = torch.get_rng_state()
torch.manual_seed(999)
NeuralNetwork(2, 2)  # as above: the run started from the state after this
orders = []
for state in (torch.get_rng_state(), checkpoint["rng"]):
    torch.set_rng_state(state)
    orders.append([labels.tolist() for _, labels in train_loader])
assert orders[0] != orders[1]  # the epoch after the checkpoint: other shuffles
torch.set_rng_state(after_run)

# %%
# The three runs, on a logarithmic scale. The crosses of the resumed run sit
# on the uninterrupted curve; the run resumed from the weights alone leaves
# it at the first epoch after the checkpoint and stays above it.
fig, ax = plt.subplots(figsize=(7, 3.6), layout="constrained")
after = range(start + 1, epochs + 1)
ax.plot(range(1, epochs + 1), losses, "o-", color=PALETTE[5], label="uninterrupted")
ax.plot(after, resumed_losses, "x", color=PALETTE[1], ms=12, mew=2.5, label="resumed")
ax.plot(after, other_losses, "s--", color=PALETTE[6], label="from the weights alone")
ax.axvline(start + 0.5, color="black", linestyle=":", label="checkpoint")
ax.set(xlabel="epoch", ylabel="mean training loss", yscale="log")
ax.xaxis.set_major_locator(MaxNLocator(integer=True))
ax.legend()
plt.show()

# %%
# A helper for checkpoints
# ------------------------
# :func:`~tutorial_utils.checkpoints.save_checkpoint` writes such a
# checkpoint in one call, and
# :func:`~tutorial_utils.checkpoints.load_checkpoint` loads it with
# ``weights_only=True``, restores the model, the optimiser and the random
# state, and returns the epoch. The same run, saved and resumed with them:
#
# .. detail:: The helper's file
#
#    It holds the random state under ``"rng"`` as a dictionary, with the CUDA
#    generators' states too when there is a GPU. A ``"format"`` mark tells a
#    checkpoint from other files.
torch.manual_seed(0)
run = NeuralNetwork(2, 2)
sgd = torch.optim.SGD(run.parameters(), lr=0.1, momentum=0.9)
for _ in range(saved_at):
    train_one_epoch(run, train_loader, sgd)
run_path = save_checkpoint(folder / "run.pt", run, sgd, epoch=saved_at)
saved = torch.load(run_path, weights_only=True)
print("keys:", sorted(saved), "| rng:", list(saved["rng"]))

torch.manual_seed(999)
run = NeuralNetwork(2, 2)
sgd = torch.optim.SGD(run.parameters(), lr=0.1, momentum=0.9)
start = load_checkpoint(run_path, run, sgd)
helper_losses = [train_one_epoch(run, train_loader, sgd) for _ in range(start, epochs)]
print("same losses as the uninterrupted run:", helper_losses == losses[start:])

# %%
# .. check:: the helper saves the same states and resumes to the same losses
assert torch.equal(saved["rng"]["cpu"], to_save["rng"])
assert all(torch.equal(saved["model"][k], v) for k, v in checkpoint["model"].items())
assert helper_losses == losses[start:]

# %%
# :func:`~tutorial_utils.checkpoints.save_checkpoint` also guards the file.
# It refuses to replace an existing one unless called with
# ``overwrite=True``, so that a run restarted from scratch cannot destroy
# the checkpoint it should have resumed from:
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
# .. check:: with ``overwrite=True`` the checkpoint is replaced
assert done == epochs

# %%
# A save can also fail half-way: a full disk, or, as here, something in
# the optimiser's state dict that cannot be pickled (a generator).
# :func:`torch.save` writes into the file it is given, so saving over the
# plain checkpoint of the first run leaves a broken file in its place:
broken = torch.optim.SGD(run.parameters(), lr=0.1)
broken.param_groups[0]["note"] = (n for n in range(3))
try:
    torch.save({"optimizer": broken.state_dict()}, folder / "checkpoint.pt")
except TypeError as error:
    print(f"torch.save: TypeError: {error}")
else:
    raise AssertionError("torch.save pickled a generator")
try:
    torch.load(folder / "checkpoint.pt", weights_only=True)
except (RuntimeError, pickle.UnpicklingError) as error:  # by PyTorch version
    print(f"checkpoint.pt is lost: torch.load raises {type(error).__name__}")
else:
    raise AssertionError("a half-written file loaded")

# %%
# ``save_checkpoint`` writes the new file beside the old one and moves it
# into place, in one step, only once it is complete. A save that fails in
# the process (an error such as the one below, a full disk, the process
# killed half-way) therefore leaves the previous checkpoint as it was.
#
# .. detail:: Power cuts
#
#    A power cut is another matter: the folder is not synced after the move,
#    so the move itself may not survive one.
previous = run_path.read_bytes()
try:
    save_checkpoint(run_path, run, broken, epoch=epochs, overwrite=True)
except TypeError as error:
    print(f"save_checkpoint: TypeError: {error}")
else:
    raise AssertionError("save_checkpoint pickled a generator")
kept = run_path.read_bytes() == previous
print("the previous checkpoint is kept:", kept)

# %%
# .. check:: a failed save keeps the previous file, which stays until the new one is complete
assert kept


class Spy:  # pickled half-way through a save: the old file must still be there
    def __reduce__(self):
        seen.append(run_path.read_bytes() == previous)
        return (int, ())


seen, spied = [], torch.optim.SGD(run.parameters(), lr=0.1)
spied.param_groups[0]["spy"] = Spy()
save_checkpoint(run_path, run, spied, epoch=epochs, overwrite=True)
assert seen == [True]
assert run_path.read_bytes() != previous  # moved into place once complete
assert not list(folder.glob("*partial"))  # failed or not, nothing left behind

# %%
# Summary
# -------
# - A checkpoint holds what a run needs to go on: the model's and the
#   optimiser's state dicts, the epoch and the random state (and that of
#   any learning-rate scheduler or other generator the run uses). With
#   them this run resumed bit for bit on the CPU; from the weights alone
#   it went another way.
# - :func:`~tutorial_utils.checkpoints.save_checkpoint` and
#   :func:`~tutorial_utils.checkpoints.load_checkpoint` do the same in one
#   call each; ``save_checkpoint`` never replaces a checkpoint unless told
#   to, and a save that fails in the process keeps the previous one, where
#   a failed :func:`torch.save` over it leaves a broken file.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_10_distributed_training.py`,
# which trains one model in several processes at once.

# %%
# .. _exercises-training-09:
#
# Exercises
# ---------
# Each solution hides behind a toggle, and the check after it says whether an
# answer is right; both exercises go on with the run that this cell starts:
loader = DataLoader(toy_datasets()[0], batch_size=2, shuffle=True)
checkpoint_file = folder / "exercise.pt"
torch.manual_seed(0)
run = NeuralNetwork(2, 2)
sgd = torch.optim.SGD(run.parameters(), lr=0.1, momentum=0.9)
for _ in range(2):
    train_one_epoch(run, loader, sgd)
state_after_two = torch.get_rng_state()  # for exercise 1's check

# %%
# **Exercise 1.** ``run`` has trained for 2 :term:`epochs <epoch>` with
# ``sgd``. Define ``checkpoint``, a :term:`checkpoint` of what the run needs to
# go on, as a dictionary with the keys ``"model"``, ``"optimizer"``, ``"epoch"``
# and ``"rng"`` (PyTorch's random state), and save it to ``checkpoint_file``
# with :func:`torch.save`: by hand, not with ``save_checkpoint``, whose file
# is laid out differently.
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
# The check:
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
# **Exercise 2.** The check above reseeded PyTorch: a new process has another
# random state. Define ``resumed``, a ``NeuralNetwork(2, 2)``, and ``resumed_sgd``,
# SGD with ``sgd``'s settings; restore them and the random state from
# ``checkpoint_file``, read with :func:`torch.load`, then train them for epochs
# 3 and 4 with ``loader``.
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
