"""
Saving and loading a model
==========================

After this page you can save a trained model's weights to a file and load
them into a new model. You will know why loading fails when the model does
not match, and how to load a file saved on a GPU onto any machine.

**Before this page:**
:ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py` and
:ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`.
"""

# %%
# This page computes on the CPU, and on a CUDA GPU in one cell when there
# is one. It writes its files into a folder from Python's
# ``tempfile.TemporaryDirectory``.
import tempfile
from pathlib import Path

import matplotlib.pyplot as plt
import torch
from torch.utils.data import DataLoader

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
# The model to save is the one the training loop page trained, with the
# same :term:`seed`:
#
# 1. ``toy_tensors()[0]`` holds the five training inputs of the toy data.
#    ``toy_datasets`` gives the training set.
# 2. A :class:`~torch.utils.data.DataLoader` shuffles it into
#    :term:`batches <batch>` of two.
# 3. ``NeuralNetwork(2, 2)`` is the network of the first page, with 2 inputs
#    and 2 classes.
# 4. :func:`~tutorial_utils.training.train_one_epoch` runs one
#    :term:`epoch` of training with the ``torch.optim.SGD``
#    :term:`optimiser`: the inner loop of that page.
#
# ``model.eval()`` switches to evaluation mode, the habit before
# predictions. This model has no dropout or batch normalisation, so it
# changes nothing here. Under ``torch.no_grad()``, the model computes its
# :term:`logits` without recording a graph.
X_train = toy_tensors()[0]
train_ds, _ = toy_datasets()
train_loader = DataLoader(train_ds, batch_size=2, shuffle=True)

torch.manual_seed(123)
model = NeuralNetwork(2, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
for _ in range(3):
    train_one_epoch(model, train_loader, optimizer)
model.eval()
with torch.no_grad():
    trained = model(X_train)
print(trained)

# %%
# .. check:: the logits are those the training loop page printed on the CPU
expected_outputs = [[2.93201, -4.25632], [2.60451, -3.83890], [2.14836, -3.25136]]
expected_outputs += [[-2.14610, 2.14964], [-2.50044, 2.52096]]
outputs = model(X_train).detach()
torch.testing.assert_close(outputs, torch.tensor(expected_outputs), atol=1e-4, rtol=0)

# %%
# .. check:: no dropout or batch normalisation: evaluation mode changes nothing
assert {type(layer) for layer in model.layers} == {torch.nn.Linear, torch.nn.ReLU}
assert torch.equal(model.train()(X_train), model.eval()(X_train))

# %%
# The state dict
# --------------
# What a model has learnt is in its :term:`state dict`, which
# :meth:`~torch.nn.Module.state_dict` returns. Here it is a dictionary from
# each parameter's name to its :term:`tensor`. The name is the path of
# attributes that leads to the parameter: ``layers.0.weight`` is the weight
# of ``model.layers[0]``.
#
# The state dict holds tensors, not code: loading needs the class too, here
# ``NeuralNetwork``. The tensors are the model's own: they share memory with
# the parameters, so further training changes them too.
#
# .. detail:: Buffers, and a snapshot
#
#    A state dict also holds a model's persistent buffers. A buffer is a
#    tensor a layer keeps that is not a parameter, such as the running mean
#    of a :term:`batch normalisation` layer. This model has none. A layer
#    can mark a buffer ``persistent=False`` when it registers it. Such a
#    buffer is left out. The tensors are detached from autograd.
#    ``model.to`` with another dtype or device gives the parameters new
#    tensors. The state dict keeps the old ones. For a snapshot that
#    training does not change, copy them:
#    ``{k: v.clone() for k, v in state.items()}``.
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
norm.to(torch.float64)  # new tensors for the parameters
assert norm_state["bias"].dtype == torch.float32

# %%
# Saving and loading the weights
# ------------------------------
# :func:`torch.save` writes the state dict to a file. ``.pt`` and ``.pth``
# are the usual extensions. Loading takes three steps:
#
# 1. Build a new model of the same class.
# 2. Read the dictionary back with :func:`torch.load`.
# 3. Give it to the model with :meth:`~torch.nn.Module.load_state_dict`.
#
# Pass ``weights_only=True`` to :func:`torch.load`. It then rebuilds tensors
# and plain data such as ints, floats, strings, lists, tuples, dicts and
# ``None``. It refuses most other objects, such as a whole model or a NumPy
# number. They are stored with Python's :mod:`pickle`. A pickle file names
# functions for the loader to call. A file from someone else could name a
# harmful one:
# :ref:`sphx_glr_auto_examples_training_plot_58_safe_loading_and_safetensors.py`
# shows how. The cell also computes the new model's outputs before and
# after loading.
#
# .. detail:: The default of ``weights_only``
#
#    Since PyTorch 2.6, ``weights_only=True`` is the default when you pass
#    no ``pickle_module``, the module that :func:`torch.load` unpickles
#    with. Torch 2.4 defaults to ``False`` and warns with a
#    :class:`FutureWarning` when the argument is missing. Passing it loads
#    the same way on both, with no warning. An environment variable can also
#    set it; the in-depth page says which.
weights_path = folder / "model.pth"
torch.save(model.state_dict(), weights_path)
print("saved", weights_path.name)

new_model = NeuralNetwork(2, 2)
new_model.eval()
with torch.no_grad():
    before = new_model(X_train)
print(new_model.load_state_dict(torch.load(weights_path, weights_only=True)))
with torch.no_grad():
    after = new_model(X_train)
print("same outputs as the trained model:", torch.equal(after, trained))

# %%
# .. check:: ``weights_only=True`` loads plain data without a warning, refuses a module
import io
import pickle
import warnings

import numpy as np

plain = {"epoch": 3, "name": "x", "none": None, "list": [1.5], "tuple": (True,)}
buffer = io.BytesIO()
torch.save(plain, buffer)
buffer.seek(0)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    assert torch.load(buffer, weights_only=True) == plain
    assert not caught
for refused in (torch.nn.ReLU(), np.float64(1.0), frozenset({1})):  # a module ...
    buffer = io.BytesIO()
    torch.save(refused, buffer)
    buffer.seek(0)
    try:
        torch.load(buffer, weights_only=True)
    except pickle.UnpicklingError:
        pass
    else:
        raise AssertionError(f"weights_only=True loaded {refused!r}")

# %%
# .. check:: since 2.6 the default is ``True`` without ``pickle_module``; 2.4 warns
import io
import os
import pickle
import warnings

yes = ("1", "y", "yes", "true")  # values that switch either variable on
names = ("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD")
if not any(os.environ.get(name, "").lower() in yes for name in names):
    module_file = io.BytesIO()
    torch.save(torch.nn.ReLU(), module_file)
    module_file.seek(0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            torch.load(module_file)  # with the default
        except pickle.UnpicklingError:
            refused = True
        else:
            refused = False
    if torch.__version__ >= "2.6":
        assert refused
        assert not caught
        module_file.seek(0)  # with a pickle_module, the default is False
        assert isinstance(torch.load(module_file, pickle_module=pickle), torch.nn.ReLU)
    if torch.__version__ < "2.5":
        assert not refused
        assert [w.category for w in caught] == [FutureWarning]

# %%
# :meth:`~torch.nn.Module.load_state_dict` returns the missing and the
# unexpected keys. Both are empty here, so it prints "All keys matched
# successfully". With its default ``strict=True``, it raises an error when
# there are any.
#
# Before loading, the new model's random weights gave other outputs. After
# loading, the outputs are the trained model's, bit for bit. The figure
# shows each model's probability of class 1 for the five samples;
# ``torch.softmax`` turns logits into probabilities. Markers of three shapes
# and sizes keep overlapping points visible.
fig, ax = plt.subplots(figsize=(7.5, 3), layout="constrained")
markers = {
    "trained model": (trained, {"marker": "o", "markersize": 14, "fillstyle": "none"}),
    "new model, before loading": (before, {"marker": "x", "markersize": 9}),
    "new model, after loading": (after, {"marker": "o", "markersize": 5}),
}
for label, (logits, style) in markers.items():
    p_class_1 = torch.softmax(logits, dim=1)[:, 1]
    ax.plot(p_class_1, linestyle="none", label=label, **style)
ax.set(xlabel="training sample", ylabel="probability of class 1", xticks=range(5))
ax.legend(loc="center left", bbox_to_anchor=(1, 0.5))
plt.show()

# %%
# .. check:: before loading the outputs differ; after, they are the trained ones
assert torch.equal(after, trained)
p_before, p_trained = (torch.softmax(x, dim=1)[:, 1] for x in (before, trained))
assert (p_before - p_trained).abs().max() > 0.3

# %%
# Loading into the wrong model
# ----------------------------
# Loading copies each saved tensor into the parameter of the same name. So
# the names and the :term:`shapes <shape>` must match. A model built for
# three inputs has a first weight of shape ``(30, 3)``. The saved one is
# ``(30, 2)``, so loading raises a :class:`RuntimeError`. The
# :ref:`atlas entry for this error <error-state-dict-size-mismatch>` shows
# a fix.
#
# Beware: the tensors that fit are copied before the error is raised, such
# as ``layers.2.weight``, the second linear layer's weight. The ReLU sits at
# index 1. Build a new model rather than reuse one whose loading failed.
wrong_model = NeuralNetwork(3, 2)
try:
    wrong_model.load_state_dict(torch.load(weights_path, weights_only=True))
except RuntimeError as error:
    print(f"RuntimeError: {error}")
else:
    raise AssertionError("a (30, 2) weight was loaded into a (30, 3) one")
key = "layers.2.weight"  # (20, 30) in both models
copied = torch.equal(wrong_model.state_dict()[key], state[key])
print(f"{key} was copied anyway:", copied)

# %%
# .. check:: the tensors that fit were copied before the error
assert copied

# %%
# With ``strict=False``, names that do not match are skipped and returned,
# not raised. Shapes must still match. Here the dictionary gets a name that
# the model lacks:
extra = {**state, "extra.weight": torch.zeros(1)}
print(NeuralNetwork(2, 2).load_state_dict(extra, strict=False))

# %%
# .. check:: ``strict=False`` still refuses a wrong shape; ``strict=True`` a missing or extra name
missing = {name: tensor for name, tensor in state.items() if name != "layers.4.bias"}
cases = [
    (wrong_model, state, False),
    (new_model, extra, True),
    (new_model, missing, True),
]
for target, tensors, strict in cases:
    try:
        target.load_state_dict(tensors, strict=strict)
    except RuntimeError:  # wrong shape; unexpected or missing name
        pass
    else:
        raise AssertionError(f"strict={strict} loaded what it should refuse")

# %%
# Files saved on a GPU: ``map_location``
# --------------------------------------
# :func:`torch.save` records the device of every tensor. :func:`torch.load`
# puts each tensor back on that device. So on a machine without CUDA,
# loading a file saved on a CUDA GPU raises an error. Its message says
# "Attempting to deserialize object on a CUDA device" and points to
# ``map_location``. :ref:`Its atlas entry <error-deserialize-cuda>` shows
# the fix.
#
# ``map_location`` tells :func:`torch.load` where the tensors go instead.
# ``map_location="cpu"`` puts them all on the CPU. A dictionary from saved
# device to new device, such as ``{"cuda:0": "cpu"}``, works too.
# ``model.to(device)`` then moves the model where you want it.
#
# With a CUDA GPU, the next cell saves the weights of a model on the GPU.
# ``map_location=None``, the default, loads them back onto the GPU.
# ``"cpu"`` loads them onto the CPU.
#
# .. detail:: The error in torch 2.4
#
#    With ``weights_only=True``, torch 2.4 wraps this message in a
#    :class:`pickle.UnpicklingError`. Its first lines suggest
#    ``weights_only=False``. That would not help, since the device is the
#    problem. Torch 2.13 raises a :class:`RuntimeError` with the message.
if torch.cuda.is_available():
    gpu_model = NeuralNetwork(2, 2).to("cuda")
    gpu_model.load_state_dict(state)
    gpu_path = folder / "model_cuda.pth"
    torch.save(gpu_model.state_dict(), gpu_path)
    for where in (None, "cpu"):
        reloaded = torch.load(gpu_path, map_location=where, weights_only=True)
        print(f"map_location={where!r}:", reloaded["layers.0.bias"].device)
else:
    print("This machine has no CUDA GPU, so this cell saves and loads nothing.")

# %%
# .. check:: without CUDA a ``cuda:0`` file fails, naming ``map_location``; mapped, it loads
import io
import pickle
from unittest import mock

cuda_path = folder / "model_cuda0.pth"
# torch.save asks location_tag for each tensor's device: make it say cuda:0.
with mock.patch.object(torch.serialization, "location_tag", return_value="cuda:0"):
    torch.save(state, cuda_path)
if not torch.cuda.is_available():
    try:
        torch.load(cuda_path, weights_only=True)
    except (RuntimeError, pickle.UnpicklingError) as error:  # by PyTorch version
        message, raised = str(error), type(error)
    else:
        raise AssertionError("CUDA tensors were loaded without CUDA")
    assert "Attempting to deserialize object on a CUDA device" in message
    assert "map_location" in message
    if torch.__version__ < "2.5":
        assert raised is pickle.UnpicklingError
        assert "weights_only` set to `False`" in message.split("\n")[0]
    if torch.__version__ >= "2.13":
        assert raised is RuntimeError
for where in ("cpu", {"cuda:0": "cpu"}):
    on_cpu = torch.load(cuda_path, map_location=where, weights_only=True)
    assert all(torch.equal(on_cpu[name], tensor) for name, tensor in state.items())
    with torch.random.fork_rng(devices=[]):  # a new model draws its weights
        NeuralNetwork(2, 2).load_state_dict(on_cpu)
meta_file = io.BytesIO()  # a tensor on no device: "cpu" leaves it there
torch.save(torch.empty(2, device="meta"), meta_file)
meta_file.seek(0)
assert torch.load(meta_file, map_location="cpu", weights_only=True).is_meta

# %%
# .. check:: with a GPU, the file loads onto it as saved, or onto the CPU, the same values
if torch.cuda.is_available():
    for where in (None, "cpu"):
        reloaded = torch.load(gpu_path, map_location=where, weights_only=True)
        assert reloaded["layers.0.bias"].device.type == (where or "cuda")
        assert torch.equal(reloaded["layers.0.bias"].cpu(), state["layers.0.bias"])

# %%
# ``workdir.cleanup()`` deletes the folder.
workdir.cleanup()

# %%
# Summary
# -------
# - A model's :meth:`~torch.nn.Module.state_dict` maps the names of its
#   parameters and persistent buffers to tensors. :func:`torch.save` writes
#   it to a file.
# - :meth:`~torch.nn.Module.load_state_dict` fills a model of the same class
#   with what :func:`torch.load` reads, with ``weights_only=True``.
# - Names and shapes must match. ``strict=False`` skips names, not shapes.
# - ``map_location="cpu"`` loads a file saved on a CPU or a GPU.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_09_checkpoints_and_resuming.py`,
# which saves and resumes a run. Exercises for this page:
# :ref:`exercises-training-08`. In depth:
# :ref:`sphx_glr_auto_examples_training_plot_58_safe_loading_and_safetensors.py`.
