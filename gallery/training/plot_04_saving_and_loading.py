"""
Saving and loading
==================

Save a model's weights and load them into a new model, checkpoint a whole
training run and resume it exactly, load files saved on a GPU, and know
which files :func:`torch.load` refuses to open, and why.
"""

# %%
# Every page starts by saying what computed it. The page trains the small
# toy model on the CPU. Every file it writes goes into a temporary folder
# that is deleted at the end; only file names are printed.
import contextlib
import io
import pickle
import tempfile
import zipfile
from pathlib import Path

import matplotlib.pyplot as plt
import torch
from safetensors import safe_open
from safetensors.torch import load_file, save_file
from torch.utils.data import DataLoader

from tutorial_utils.checkpoints import load_checkpoint, save_checkpoint
from tutorial_utils.data import toy_datasets, toy_tensors
from tutorial_utils.devices import pick_device
from tutorial_utils.environment import environment_summary
from tutorial_utils.models import NeuralNetwork
from tutorial_utils.plotting import PALETTE
from tutorial_utils.training import train_one_epoch

device = pick_device("cpu")
print(environment_summary(device))

workdir = tempfile.TemporaryDirectory()
folder = Path(workdir.name)

# %%
# A trained model
# ---------------
# The model, data and training of the previous page, with the same seed:
# three epochs of SGD on the toy data.
X_train, y_train, X_test, y_test = toy_tensors()
train_ds, _ = toy_datasets()
train_loader = DataLoader(train_ds, batch_size=2, shuffle=True)

torch.manual_seed(123)
model = NeuralNetwork(2, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
for _ in range(3):
    train_one_epoch(model, train_loader, optimizer)
model.eval()
with torch.no_grad():
    print(model(X_train))

# sphinx_gallery_start_ignore
# The logits of the previous page, as the source text printed them.
torch.testing.assert_close(
    model(X_train).detach(),
    torch.tensor(
        [
            [2.9320, -4.2563],
            [2.6045, -3.8389],
            [2.1484, -3.2514],
            [-2.1461, 2.1496],
            [-2.5004, 2.5210],
        ]
    ),
    atol=5e-5,
    rtol=0,
)
# sphinx_gallery_end_ignore

# %%
# The ``state_dict``
# ------------------
# What a model has learnt is in its :meth:`~torch.nn.Module.state_dict`: a
# dictionary from each parameter's name (the path of attributes that leads
# to it) to its tensor. It holds tensors, not code: to use them you need the
# class that defines how they are combined.
state = model.state_dict()
for name, tensor in state.items():
    print(f"{name:15} {tuple(tensor.shape)}")

# sphinx_gallery_start_ignore
assert list(state) == [name for name, _ in model.named_parameters()]
assert all(not t.requires_grad for t in state.values())
# sphinx_gallery_end_ignore

# %%
# The tensors in a ``state_dict`` are the model's own (detached, sharing
# memory), not copies: training the model on changes them too. Keep a copy
# with ``{k: v.clone() for k, v in state.items()}`` when you need a
# snapshot in memory.
print(
    "shares memory with the model:",
    state["layers.0.bias"].data_ptr() == model.layers[0].bias.data_ptr(),
)

# sphinx_gallery_start_ignore
saved_bias = model.layers[0].bias.detach().clone()
with torch.no_grad():
    model.layers[0].bias.add_(1.0)  # as an optimiser step would
assert torch.equal(state["layers.0.bias"], model.layers[0].bias)
with torch.no_grad():
    model.layers[0].bias.copy_(saved_bias)
# sphinx_gallery_end_ignore

# %%
# Saving and loading the weights
# ------------------------------
# :func:`torch.save` writes the dictionary to a file (a zip archive with the
# tensors' bytes and a pickle describing the dictionary); ``.pt`` and
# ``.pth`` are the usual extensions. To load, build a model of the same class
# and give it the dictionary that :func:`torch.load` reads back.
weights_path = folder / "model.pth"
torch.save(model.state_dict(), weights_path)
print(f"{weights_path.name}: {weights_path.stat().st_size:,} bytes")

new_model = NeuralNetwork(2, 2)
result = new_model.load_state_dict(torch.load(weights_path, weights_only=True))
print(result)

new_model.eval()
with torch.no_grad():
    same_outputs = torch.equal(new_model(X_train), model(X_train))
print("same outputs as the trained model:", same_outputs)

# sphinx_gallery_start_ignore
assert same_outputs
with zipfile.ZipFile(weights_path) as archive:
    assert any(name.endswith("data.pkl") for name in archive.namelist())
for name, tensor in new_model.state_dict().items():
    assert torch.equal(tensor, state[name])
assert not result.missing_keys
assert not result.unexpected_keys
# sphinx_gallery_end_ignore

# %%
# :meth:`~torch.nn.Module.load_state_dict` returns the keys it did not
# match (none here). ``weights_only=True`` has been the default of
# :func:`torch.load` since PyTorch 2.6; this page passes it anyway, so that
# it reads the same under older versions. Why it matters comes below.
#
# Loading into the wrong model
# ----------------------------
# Loading copies each tensor into the parameter of the same name, so names
# and shapes must match. A model built for three inputs has a first layer
# of shape ``(30, 3)``, and the saved ``(30, 2)`` does not fit:
wrong_model = NeuralNetwork(3, 2)
try:
    wrong_model.load_state_dict(torch.load(weights_path, weights_only=True))
except RuntimeError as error:
    print(f"RuntimeError: {error}")

# %%
# Beware: the tensors that did fit were copied before the error was raised,
# so ``wrong_model`` is now half loaded. Build a new model rather than
# carrying on with one whose loading failed:
print(
    "layers.2.weight was copied anyway:",
    torch.equal(wrong_model.layers[2].weight, state["layers.2.weight"]),
)

# sphinx_gallery_start_ignore
assert torch.equal(wrong_model.layers[2].weight, state["layers.2.weight"])
assert torch.equal(wrong_model.layers[0].bias, state["layers.0.bias"])
assert wrong_model.layers[0].weight.shape == (30, 3)
# sphinx_gallery_end_ignore

# %%
# With ``strict=False``, names that do not match are skipped and returned
# (for example to reuse the layers of one model in a larger one), but
# shapes must still match.
#
# Files saved on a GPU: ``map_location``
# --------------------------------------
# :func:`torch.save` records the device of every tensor, and
# :func:`torch.load` puts each tensor back on that device. A file saved
# from a model on ``cuda:0`` therefore fails to load on a machine without
# CUDA ("Attempting to deserialize object on a CUDA device but
# torch.cuda.is_available() is False"). ``map_location`` says where the
# tensors go instead: a device, a dictionary from saved device to new
# device, or a function.
on_cpu = torch.load(weights_path, map_location="cpu", weights_only=True)
remapped = torch.load(weights_path, map_location={"cuda:0": "cpu"}, weights_only=True)
print(
    {t.device.type for t in on_cpu.values()}, {t.device.type for t in remapped.values()}
)

# sphinx_gallery_start_ignore
assert all(t.device.type == "cpu" for t in on_cpu.values())
assert all(torch.equal(on_cpu[k], remapped[k]) for k in on_cpu)
# sphinx_gallery_end_ignore

# %%
# This site was built without a GPU, so the file above holds CPU tensors
# and both calls only show the syntax. Loading with ``map_location="cpu"``
# and then moving the model with ``model.to(device)`` works for a file from
# any device, on any machine; :meth:`~torch.nn.Module.load_state_dict`
# copies the values into the model's parameters wherever those are.
#
# Checkpoints: resuming a run
# ---------------------------
# To continue training later (after a crash, or on a cluster whose jobs
# have a time limit), the weights are not enough. The optimiser has state
# of its own: with momentum, each parameter's running direction. And the
# shuffling of the next epochs depends on the random number generator. A
# checkpoint saves all of it; this run uses SGD with momentum, so the
# optimiser state matters.
torch.manual_seed(0)
uninterrupted = NeuralNetwork(2, 2)
uninterrupted_opt = torch.optim.SGD(uninterrupted.parameters(), lr=0.1, momentum=0.9)
uninterrupted_losses = [
    train_one_epoch(uninterrupted, train_loader, uninterrupted_opt)
    for epoch in range(6)
]
print("losses:", [f"{loss:.4f}" for loss in uninterrupted_losses])

# %%
# The same run, stopped after three epochs.
# :func:`~tutorial_utils.checkpoints.save_checkpoint` saves the model's and
# the optimiser's ``state_dict``, the epoch, and the state of the random
# number generator in one file:
torch.manual_seed(0)
interrupted = NeuralNetwork(2, 2)
interrupted_opt = torch.optim.SGD(interrupted.parameters(), lr=0.1, momentum=0.9)
first_losses = [
    train_one_epoch(interrupted, train_loader, interrupted_opt) for epoch in range(3)
]
checkpoint_path = save_checkpoint(
    folder / "checkpoint.pt", interrupted, interrupted_opt, epoch=3
)
checkpoint = torch.load(checkpoint_path, weights_only=True)
print("keys:", list(checkpoint))
print(
    "optimizer state of the first parameter:", list(checkpoint["optimizer"]["state"][0])
)

# %%
# A later process starts with other random weights and another random
# state. :func:`~tutorial_utils.checkpoints.load_checkpoint` restores all
# three and returns the number of epochs done; training goes on from there.
torch.manual_seed(999)
resumed = NeuralNetwork(2, 2)
resumed_opt = torch.optim.SGD(resumed.parameters(), lr=0.1, momentum=0.9)
start_epoch = load_checkpoint(checkpoint_path, resumed, resumed_opt)
resumed_losses = [
    train_one_epoch(resumed, train_loader, resumed_opt)
    for epoch in range(start_epoch, 6)
]
identical = all(
    torch.equal(a, b)
    for a, b in zip(resumed.parameters(), uninterrupted.parameters(), strict=True)
)
print(
    f"resumed at epoch {start_epoch}; parameters identical to the uninterrupted run: {identical}"
)

# sphinx_gallery_start_ignore
assert identical
assert first_losses + resumed_losses == uninterrupted_losses
# sphinx_gallery_end_ignore

# %%
# Identical, bit for bit (:func:`torch.equal`, not just close). Resuming
# with the weights alone, with a fresh optimiser and the random state of
# the new process, gives another run:
torch.manual_seed(999)
weights_only_run = NeuralNetwork(2, 2)
weights_only_run.load_state_dict(checkpoint["model"])
fresh_opt = torch.optim.SGD(weights_only_run.parameters(), lr=0.1, momentum=0.9)
weights_only_losses = [
    train_one_epoch(weights_only_run, train_loader, fresh_opt) for epoch in range(3, 6)
]
largest = max(
    (a - b).abs().max().item()
    for a, b in zip(
        weights_only_run.parameters(), uninterrupted.parameters(), strict=True
    )
)
print(f"largest parameter difference from the uninterrupted run: {largest:.4f}")

# sphinx_gallery_start_ignore
assert largest > 1e-3
# sphinx_gallery_end_ignore

# %%
# The losses of the three runs: the resumed run lies exactly on the
# uninterrupted one, the weights-only resumption leaves it at once.
epochs = range(1, 7)
fig, ax = plt.subplots(figsize=(7, 3.4), layout="constrained")
ax.plot(
    epochs,
    uninterrupted_losses,
    "o-",
    color=PALETTE[5],
    linewidth=3,
    markersize=9,
    label="uninterrupted",
)
ax.plot(
    range(4, 7),
    resumed_losses,
    "s--",
    color=PALETTE[1],
    markersize=6,
    label="resumed from the checkpoint",
)
ax.plot(
    range(4, 7),
    weights_only_losses,
    "^:",
    color=PALETTE[6],
    label="resumed from the weights only",
)
ax.axvline(3.5, color="black", linewidth=0.8)
ax.text(3.55, max(uninterrupted_losses), " checkpoint after epoch 3", va="top")
ax.set(
    xlabel="epoch", ylabel="mean training loss", yscale="log", title="resuming a run"
)
ax.legend(loc="lower left")
plt.show()

# %%
# A checkpoint is never overwritten by accident:
# :func:`~tutorial_utils.checkpoints.save_checkpoint` refuses an existing
# file unless called with ``overwrite=True``. A run that restarts from
# scratch cannot destroy the checkpoint it should have resumed from.
try:
    save_checkpoint(checkpoint_path, resumed, resumed_opt, epoch=6)
except FileExistsError as error:
    print(f"FileExistsError: {error.strerror}: {Path(error.filename).name}")
save_checkpoint(checkpoint_path, resumed, resumed_opt, epoch=6, overwrite=True)
print("epoch in the file now:", torch.load(checkpoint_path, weights_only=True)["epoch"])

# %%
# And a file that is not a checkpoint, here the weights saved above, is
# named as such rather than failing somewhere inside:
try:
    load_checkpoint(weights_path, resumed, resumed_opt)
except ValueError as error:
    print(f"ValueError: {str(error).replace(str(folder), '...')}")


# %%
# Why ``torch.load`` refuses most objects
# ---------------------------------------
# A ``.pt`` file is a pickle, and :mod:`pickle` can do more than rebuild
# data: an object's ``__reduce__`` method tells the unpickler which function
# to *call* to rebuild it. Here is a harmless object whose file says "call
# ``print``". It could as well say "delete my files".
class Surprise:
    def __reduce__(self):
        return (print, ("this line was printed by loading a file",))


surprise_path = folder / "surprise.pt"
torch.save(Surprise(), surprise_path)

# %%
# With ``weights_only=True`` (the default), :func:`torch.load` runs a
# restricted unpickler that only rebuilds tensors, numbers, strings, lists,
# dicts and a few other known types, and refuses everything else before
# calling it:
captured = io.StringIO()
refusal = None
with contextlib.redirect_stdout(captured):
    try:
        torch.load(surprise_path, weights_only=True)
    except pickle.UnpicklingError as error:
        refusal = error
assert refusal is not None, "torch.load accepted the file"
first = next(line for line in str(refusal).splitlines() if "Unsupported global" in line)
print(type(refusal).__name__ + ":", first.strip().split(". Please")[0] + ".")
print("printed while loading:", repr(captured.getvalue()))

# sphinx_gallery_start_ignore
# The default, without weights_only=..., refuses it just the same.
with contextlib.redirect_stdout(captured):
    try:
        torch.load(surprise_path)
        raise AssertionError("torch.load accepted the file by default")
    except pickle.UnpicklingError:
        pass
assert "this line was printed" not in captured.getvalue()
assert captured.getvalue() == ""
assert "GLOBAL print" in first
# sphinx_gallery_end_ignore

# %%
# Never pass ``weights_only=False`` for a file you did not write yourself:
# it runs whatever the file says. For your own classes there is a safe
# route, ``torch.serialization.add_safe_globals``, which allows a list of
# types you trust. The checkpoints above need none of this: they hold only
# tensors, numbers and strings, and
# :func:`~tutorial_utils.checkpoints.load_checkpoint` always loads with
# ``weights_only=True``.
#
# safetensors: tensors and nothing else
# -------------------------------------
# The ``safetensors`` format holds only tensors: a JSON header with names,
# dtypes and shapes, then the raw bytes. There is nothing to execute, and a
# reader can map the file into memory and load one tensor without reading
# the rest (``safetensors.safe_open``). ``save_file`` and ``load_file`` from
# ``safetensors.torch`` take and return a dictionary of tensors, such as a
# ``state_dict``.
safe_path = folder / "model.safetensors"
save_file(model.state_dict(), safe_path)
loaded = load_file(safe_path)
print(f"{safe_path.name}: {safe_path.stat().st_size:,} bytes")
print("same tensors:", all(torch.equal(loaded[k], v) for k, v in state.items()))

restored = NeuralNetwork(2, 2)
restored.load_state_dict(loaded)
with torch.no_grad():
    print("same outputs:", torch.equal(restored(X_train), model(X_train)))

# sphinx_gallery_start_ignore
assert loaded.keys() == state.keys()
with safe_open(safe_path, framework="pt") as lazy:
    assert set(lazy.keys()) == set(state)
    assert torch.equal(lazy.get_tensor("layers.4.bias"), state["layers.4.bias"])
assert all(torch.equal(loaded[k], v) for k, v in state.items())
# The size is the header plus the raw float32 bytes of 752 numbers.
assert safe_path.stat().st_size > 4 * 752
assert safe_path.stat().st_size < 4 * 752 + 1000
# sphinx_gallery_end_ignore

# %%
# Only tensors: an epoch number or an optimiser's settings do not fit, so
# a full checkpoint stays a :func:`torch.save` file (or a safetensors file
# for the tensors plus a small JSON file for the rest).
try:
    save_file({"epoch": 3}, folder / "epoch.safetensors")
except (TypeError, ValueError) as error:
    print(f"{type(error).__name__}: {error}")

workdir.cleanup()

# %%
# Summary
# -------
# - A model's :meth:`~torch.nn.Module.state_dict` maps parameter names to
#   tensors; :func:`torch.save` writes it, and
#   :meth:`~torch.nn.Module.load_state_dict` fills a model of the same
#   architecture with what :func:`torch.load` reads.
# - Names and shapes must match; the error says which do not.
# - ``map_location="cpu"`` loads a file saved on any device.
# - A checkpoint adds the optimiser's state, the epoch and the random state;
#   with all of them a run resumes exactly.
# - :func:`torch.load` refuses anything but data (``weights_only=True``);
#   never switch that off for a file you did not write. safetensors files
#   hold tensors only.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_05_distributed_training.py`,
# which trains one model in several processes at once.
