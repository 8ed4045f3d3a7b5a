"""
Saving and loading a model
==========================

Save a model's weights and load them into a new model, load files saved on
a GPU, know which files :func:`torch.load` refuses to open and why, and
see what a safetensors file holds instead.
"""

# %%
# Every page starts by saying what computed it. This page runs on the CPU (one
# cell also uses a CUDA GPU when there is one). Every file it writes goes into
# a temporary folder that is deleted at the end; only file names are printed.
import contextlib
import io
import json
import os
import pickle
import tempfile
import zipfile
from pathlib import Path
from unittest import mock

import matplotlib.pyplot as plt
import torch
from matplotlib.patches import Patch
from safetensors import safe_open
from safetensors.torch import load_file, save_file
from torch.utils.data import DataLoader

from tutorial_utils.colours import PALETTE
from tutorial_utils.data import toy_datasets, toy_tensors
from tutorial_utils.environment import environment_summary
from tutorial_utils.models import NeuralNetwork
from tutorial_utils.training import train_one_epoch

print(environment_summary(torch.device("cpu")))

workdir = tempfile.TemporaryDirectory()
folder = Path(workdir.name)

# %%
# A trained model
# ---------------
# The model, data and training of the previous page, with the same seed:
# three :term:`epochs <epoch>` of SGD on the toy data, here through
# :func:`~tutorial_utils.training.train_one_epoch`, the inner loop of that
# page. The :term:`logits` are those the previous page printed when it ran
# on the CPU.
#
# .. detail:: On a GPU
#
#    A GPU may round the logits differently in the last digits.
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

# %%
# .. check:: the logits are those the previous page printed on the CPU
expected_outputs = [[2.93201, -4.25632], [2.60451, -3.83890], [2.14836, -3.25136]]
expected_outputs += [[-2.14610, 2.14964], [-2.50044, 2.52096]]
outputs = model(X_train).detach()
torch.testing.assert_close(outputs, torch.tensor(expected_outputs), atol=1e-4, rtol=0)

# %%
# The state dict
# --------------
# What a model has learnt is in its :term:`state dict`,
# :meth:`~torch.nn.Module.state_dict`: a dictionary from each parameter's
# name (the path of attributes that leads to it) to its :term:`tensor`, plus
# its persistent buffers, such as the running mean that a
# :class:`~torch.nn.BatchNorm1d` layer keeps (this model has none); buffers
# registered with ``persistent=False`` are left out. It holds tensors, not
# code: to use them you need the class that defines how they are combined.
# The tensors are the model's own, detached from autograd but sharing memory
# with the parameters: an :term:`optimiser` step changes them too. Keep a
# copy with ``{k: v.clone() for k, v in state.items()}`` for a snapshot.
state = model.state_dict()
for name, tensor in state.items():
    print(f"{name:15} {tuple(tensor.shape)}")

# %%
# .. check:: keys are the parameters' names and persistent buffers; tensors shared, detached
assert list(state) == [name for name, _ in model.named_parameters()]
assert state["layers.0.bias"].data_ptr() == model.layers[0].bias.data_ptr()
assert not state["layers.0.bias"].requires_grad
norm = torch.nn.BatchNorm1d(2)  # initialised without random numbers
norm.register_buffer("cache", torch.zeros(1), persistent=False)
norm_state, bias_before = norm.state_dict(), norm.bias.detach().clone()
assert {"running_mean", "cache"} & set(norm_state) == {"running_mean"}
norm(X_train).sum().backward()
torch.optim.SGD(norm.parameters(), lr=0.1).step()
assert not torch.equal(norm_state["bias"], bias_before)

# %%
# Saving and loading the weights
# ------------------------------
# :func:`torch.save` writes the dictionary to a file: a zip archive with a
# pickle describing the dictionary (``data.pkl``) and the bytes of each
# tensor's :term:`storage` (``data/0``, ``data/1``, ..., here one per
# tensor; the end of the page draws the file). ``.pt`` and ``.pth`` are the
# usual extensions. To load, build a model of the same class and give it the
# dictionary that :func:`torch.load` reads back.
#
# .. detail:: Saving a view
#
#    The whole storage is written, so a :term:`view` of a large tensor saves
#    all of it. ``clone()`` the view to save only its elements.
weights_path = folder / "model.pth"
torch.save(model.state_dict(), weights_path)
print(f"{weights_path.name}: {weights_path.stat().st_size:,} bytes")
with zipfile.ZipFile(weights_path) as archive:
    print([name for name in archive.namelist() if "/data" in name])

new_model = NeuralNetwork(2, 2)
print(new_model.load_state_dict(torch.load(weights_path, weights_only=True)))
new_model.eval()
with torch.no_grad():
    same_outputs = torch.equal(new_model(X_train), model(X_train))
print("same outputs as the trained model:", same_outputs)

# %%
# .. check:: the loaded model computes the same outputs; a view saves its whole storage
assert same_outputs
torch.save(torch.zeros(1000)[:2], folder / "view.pt")  # 4,000 bytes of storage
torch.save(torch.zeros(1000)[:2].clone(), folder / "clone.pt")
assert (folder / "clone.pt").stat().st_size < 4000 < (folder / "view.pt").stat().st_size

# %%
# :meth:`~torch.nn.Module.load_state_dict` returns the missing and the
# unexpected keys, both empty here; with the default ``strict=True`` it
# raises an error when there are any. The page passes ``weights_only=True``
# to :func:`torch.load`, its default since PyTorch 2.6, for older versions
# too; why it matters comes below.
#
# Loading into the wrong model
# ----------------------------
# Loading copies each tensor into the parameter of the same name, so names
# and :term:`shapes <shape>` must match. A model built for three inputs has
# a first layer of shape ``(30, 3)``, and the saved ``(30, 2)`` does not fit
# (:ref:`its atlas entry <error-state-dict-size-mismatch>` has the fix).
# Beware: the tensors that fit are copied before the error is raised, so
# ``wrong_model`` is then partly loaded. Build a new model rather than
# carry on with one whose loading failed.
wrong_model = NeuralNetwork(3, 2)
try:
    wrong_model.load_state_dict(torch.load(weights_path, weights_only=True))
except RuntimeError as error:
    print(f"RuntimeError: {error}")
else:
    raise AssertionError("a (30, 2) weight was loaded into a (30, 3) one")
copied = torch.equal(wrong_model.layers[2].weight, state["layers.2.weight"])
print("layers.2.weight was copied anyway:", copied)

# %%
# .. check:: the tensors that fit were copied before the error
assert copied

# %%
# With ``strict=False``, names that do not match are skipped and returned
# (to reuse the layers of one model in a larger one, for example), but
# shapes must still match.
extra = {**state, "extra.weight": torch.zeros(1)}
print(NeuralNetwork(2, 2).load_state_dict(extra, strict=False))

# %%
# .. check:: ``strict=False`` still refuses a wrong shape; ``strict=True`` an unexpected name
for target, tensors, strict in ((wrong_model, state, False), (new_model, extra, True)):
    with contextlib.suppress(RuntimeError):  # wrong shape; unexpected key
        target.load_state_dict(tensors, strict=strict)
        raise AssertionError(f"strict={strict} loaded what it should refuse")

# %%
# Files saved on a GPU: ``map_location``
# --------------------------------------
# :func:`torch.save` records the device of every tensor, and :func:`torch.load`
# puts each tensor back on that device. The next lines write a file that says
# ``cuda:0`` for every tensor, on any machine, by briefly replacing the function
# :func:`torch.save` asks for the device (a trick for this page only). Without
# CUDA, loading it raises an error whose message points to ``map_location``
# (:ref:`its atlas entry <error-deserialize-cuda>` has the fix):
#
# .. detail:: The error's type
#
#    The type of the error depends on the PyTorch version.
cuda_path = folder / "model_cuda0.pth"
with mock.patch.object(torch.serialization, "location_tag", return_value="cuda:0"):
    torch.save(state, cuda_path)
if not torch.cuda.is_available():
    try:
        torch.load(cuda_path, weights_only=True)
    except (RuntimeError, pickle.UnpicklingError) as error:
        message = f"{type(error).__name__}: {error}"
    else:
        raise AssertionError("CUDA tensors were loaded without CUDA")
    print(message)

# %%
# .. check:: without CUDA, the error's message points to ``map_location``
if not torch.cuda.is_available():
    assert "map_location" in message

# %%
# ``map_location`` says where the tensors go instead: a device, a dictionary
# from saved device to new device, or a function. ``map_location="cpu"``
# loads a file from any device; ``model.to(device)`` then moves the model.
on_cpu = torch.load(cuda_path, map_location="cpu", weights_only=True)
remapped = torch.load(cuda_path, map_location={"cuda:0": "cpu"}, weights_only=True)
print(on_cpu["layers.0.bias"].device, remapped["layers.0.bias"].device)
NeuralNetwork(2, 2).load_state_dict(on_cpu)

# %%
# .. check:: mapped to the CPU, the tensors are the saved ones
assert all(torch.equal(on_cpu[name], tensor) for name, tensor in state.items())

# %%
# On a machine with a CUDA GPU, the next cell saves the weights from a
# model on the GPU (:meth:`~torch.nn.Module.load_state_dict` copies into the
# parameters wherever they are) and loads the file as saved, onto the GPU,
# and with ``map_location="cpu"``.
if torch.cuda.is_available():
    gpu_model = NeuralNetwork(2, 2).to("cuda")
    gpu_model.load_state_dict(state)
    gpu_path = folder / "model_cuda.pth"
    torch.save(gpu_model.state_dict(), gpu_path)
    for where in (None, "cpu"):
        reloaded = torch.load(gpu_path, map_location=where, weights_only=True)
        print(f"map_location={where!r}:", reloaded["layers.0.bias"].device)
else:
    print("This build has no CUDA GPU, so this cell saves and loads nothing.")

# %%
# .. check:: with a GPU, the file loads onto it as saved, or onto the CPU, the same values
if torch.cuda.is_available():
    for where in (None, "cpu"):
        reloaded = torch.load(gpu_path, map_location=where, weights_only=True)
        assert reloaded["layers.0.bias"].device.type == (where or "cuda")
        assert torch.equal(reloaded["layers.0.bias"].cpu(), state["layers.0.bias"])


# %%
# Why ``torch.load`` refuses most objects
# ---------------------------------------
# A ``.pt`` file holds a pickle, and :mod:`pickle` can do more than rebuild
# data: an object's ``__reduce__`` method tells the unpickler which function
# to *call* to rebuild it. Here is a harmless object whose file says "call
# ``print``". It could as well say "delete my files".
class Surprise:
    def __reduce__(self):
        return (print, ("this line was printed by loading a file",))


surprise_path = folder / "surprise.pt"
torch.save(Surprise(), surprise_path)

# %%
# With ``weights_only=True``, :func:`torch.load` runs a restricted
# unpickler that only rebuilds tensors, numbers, strings, lists, dicts and a
# few other known types, and refuses any other function before calling it.
# The message names the function the file asked for; its wording varies
# between versions. Nothing was printed while loading:
captured = io.StringIO()
with contextlib.redirect_stdout(captured):
    try:
        torch.load(surprise_path, weights_only=True)
    except pickle.UnpicklingError as error:
        refusal = error
    else:
        raise AssertionError("weights_only=True loaded a call to print")
lines = [line.strip() for line in str(refusal).splitlines() if "global" in line]
print(f"{type(refusal).__name__}: {(lines or [''])[0].split('. Please')[0]}")
print("printed while loading:", repr(captured.getvalue()))

# %%
# .. check:: the refusal names ``print``, and loading printed nothing
assert "print" in str(refusal)
assert captured.getvalue() == ""

# %%
# Never pass ``weights_only=False`` for a file you did not write yourself: it
# runs whatever the file says. For your own classes there is a narrower route,
# :func:`torch.serialization.add_safe_globals`, which allows the types you list
# and trust. A state dict needs none of this, nor do the checkpoints of the next
# page: they hold only tensors and plain Python data (numbers, strings,
# ``None``, lists, tuples and dicts). Without ``weights_only``,
# :func:`torch.load` uses your version's default, unless an environment
# variable sets it:
#
# .. detail:: What sets the default
#
#    The default is ``False`` before PyTorch 2.6, which would print the line.
#    The environment variable ``TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD=1`` sets it
#    to ``False``, and ``TORCH_FORCE_WEIGHTS_ONLY_LOAD=1`` to ``True``.
yes = ("1", "y", "yes", "true")  # the values that switch either variable on
forced_on = os.environ.get("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "").lower() in yes
forced_off = os.environ.get("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "").lower() in yes
safe_default = forced_on or (torch.__version__ >= "2.6" and not forced_off)
print(f"torch {torch.__version__}: torch.load defaults to weights_only={safe_default}")
with contextlib.redirect_stdout(captured), contextlib.suppress(pickle.UnpicklingError):
    torch.load(surprise_path)  # the default: printing or refusing

# %%
# .. check:: without ``weights_only``, ``torch.load`` prints or refuses as the default says
assert (captured.getvalue() == "") == safe_default

# %%
# safetensors: tensors and text
# -----------------------------
# A ``safetensors`` file holds eight bytes that give the length of a JSON
# header (each tensor's name, :term:`dtype`, shape and place in the file,
# and an optional dictionary of strings, ``metadata=``), then the raw bytes
# of the tensors. There is nothing to execute. ``save_file`` and
# ``load_file`` from ``safetensors.torch`` take and return a dictionary of
# tensors, such as a state dict; ``safe_open`` maps the file into memory,
# reads one tensor without reading the others, and gives the strings back.
# Here the strings record the epoch and the optimiser's settings.
safe_path = folder / "model.safetensors"
settings = {key: optimizer.param_groups[0][key] for key in ("lr", "momentum")}
metadata = {"epoch": "3", "optimizer": json.dumps(settings)}
save_file(model.state_dict(), safe_path, metadata=metadata)
raw = safe_path.read_bytes()
length = int.from_bytes(raw[:8], "little")
header = json.loads(raw[8 : 8 + length])
print(f"{safe_path.name}: {len(raw):,} bytes; layers.4.bias: {header['layers.4.bias']}")

loaded = load_file(safe_path)
with safe_open(safe_path, framework="pt") as lazy:
    print(dict(sorted(lazy.metadata().items())))  # stored in no fixed order

# %%
# .. check:: ``load_file`` and ``safe_open`` give back the tensors and the strings saved
assert all(torch.equal(loaded[name], tensor) for name, tensor in state.items())
with safe_open(safe_path, framework="pt") as lazy:
    assert torch.equal(lazy.get_tensor("layers.4.bias"), state["layers.4.bias"])
    assert lazy.metadata() == metadata

# %%
# The dictionary of tensors takes nothing else: an epoch number goes into the
# strings (as ``"3"``, or as JSON), and a checkpoint full of numbers, lists
# and nested dicts (next page) is simpler as a :func:`torch.save` file.
# ``save_file`` also refuses two tensors that share memory, as the "tied"
# weights of a model that uses one layer twice do (``save_model`` and
# ``load_model`` of ``safetensors.torch`` handle those), and a tensor that is
# not :term:`contiguous` (save its ``.contiguous()`` copy).
shared = torch.zeros(2)  # one tensor under two names, as tied weights are
for bad in ({"epoch": 3}, {"a": shared, "b": shared}, {"t": torch.zeros(2, 3).t()}):
    try:
        save_file(bad, folder / "bad.safetensors")
    except (TypeError, ValueError, RuntimeError) as error:
        print(f"{type(error).__name__}: {str(error).strip().split(':')[0]}")
    else:
        raise AssertionError(f"safetensors saved {list(bad)}")

# %%
# The two files of the same weights, drawn to scale below. The ``.pt``
# archive starts with its pickle; each tensor's bytes follow in an entry of
# their own, stored uncompressed and padded to start at a multiple of 64
# bytes, between zip headers and a few small records; the zip's index of its
# entries comes last. The safetensors file is the length, the header and one
# block of tensor bytes. Both hold the same tensor bytes (the ``.pt`` file
# in the state dict's order, safetensors in its own); the rest is
# bookkeeping for each tensor and for the file, whatever the tensors' sizes:
# the files of a large model are almost all tensor bytes.
in_order = [t.numpy().tobytes() for t in state.values()]  # the state dict's order
tensor_bytes = sum(map(len, in_order))
pt_raw = weights_path.read_bytes()
pt_spans = {"tensors": [], "description": []}  # (start, size) of each part
with zipfile.ZipFile(weights_path) as archive:
    for info in archive.infolist():
        kind = "tensors" if "/data/" in info.filename else "description"
        if kind == "tensors" or info.filename.endswith("/data.pkl"):
            content = archive.read(info)  # found right after the entry's header
            start = pt_raw.index(content, info.header_offset)
            pt_spans[kind].append((start, len(content)))
safe_spans = {"tensors": [(8 + length, tensor_bytes)], "description": [(8, length)]}
print(f"tensor bytes in each file: {tensor_bytes:,}")

fig, ax = plt.subplots(figsize=(9, 2.4), layout="constrained")
files = {weights_path.name: (pt_raw, pt_spans), safe_path.name: (raw, safe_spans)}
for row, (data, spans) in enumerate(files.values()):
    ax.broken_barh([(0, len(data))], (row - 0.3, 0.6), color=PALETTE[7])
    ax.broken_barh(spans["description"], (row - 0.3, 0.6), color=PALETTE[1])
    ax.broken_barh(spans["tensors"], (row - 0.3, 0.6), color=PALETTE[5])
    ax.text(len(data) + 50, row, f"{len(data):,} bytes", va="center")
ax.set(yticks=[0, 1], yticklabels=list(files), ylim=(1.5, -0.5))
ax.set(xlabel="byte offset in the file", xlim=(0, 1.15 * len(pt_raw)))
legend = {5: "tensor bytes", 1: "pickle / JSON header"}
legend[7] = "zip records and padding / length"
patches = [Patch(color=PALETTE[i], label=label) for i, label in legend.items()]
fig.legend(handles=patches, loc="outside upper center", ncols=3)
plt.show()

# %%
# .. check:: both files hold the tensor bytes as drawn; a large model's files are almost all tensors
with zipfile.ZipFile(weights_path) as archive:
    assert all(i.compress_type == zipfile.ZIP_STORED for i in archive.infolist())
assert [pt_raw[s : s + n] for s, n in pt_spans["tensors"]] == in_order
offsets = [header[name]["data_offsets"] for name in state]
assert [raw[8 + length + a : 8 + length + b] for a, b in offsets] == in_order
assert sorted(offsets) != offsets  # safetensors' own order
assert len(raw) - 8 - length == tensor_bytes
assert all(start % 64 == 0 for start, _ in pt_spans["tensors"])
assert pt_spans["description"][0][0] < min(start for start, _ in pt_spans["tensors"])
assert pt_raw.index(b"PK\x01\x02") > max(sum(span) for span in pt_spans["tensors"])
big = {"weight": torch.zeros(1000, 1000)}  # one tensor of 4,000,000 bytes
torch.save(big, folder / "big.pt")
save_file(big, folder / "big.safetensors")
for name, data in (("big.pt", pt_raw), ("big.safetensors", raw)):
    extra = (folder / name).stat().st_size - 4_000_000
    assert extra < len(data) - tensor_bytes  # less than for six tiny tensors
    assert extra < 0.001 * 4_000_000
assert (folder / "big.safetensors").stat().st_size < (folder / "big.pt").stat().st_size

# %%
workdir.cleanup()

# %%
# Summary
# -------
# - A model's :meth:`~torch.nn.Module.state_dict` maps parameter and
#   persistent buffer names to tensors; :func:`torch.save` writes it, and
#   :meth:`~torch.nn.Module.load_state_dict` fills a model of the same
#   class with what :func:`torch.load` reads. Names and shapes must match;
#   ``strict=False`` skips names, not shapes.
# - ``map_location="cpu"`` loads a file saved on any device.
# - :func:`torch.load` with ``weights_only=True`` (the default since
#   PyTorch 2.6) refuses anything but data; never switch that off for a
#   file you did not write.
# - A safetensors file holds tensors and strings and nothing to run: the
#   same tensor bytes as a ``.pt`` file, with less bookkeeping around them.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_09_checkpoints_and_resuming.py`,
# which saves and resumes a run. Exercises for this page: :ref:`exercises-training-08`.
