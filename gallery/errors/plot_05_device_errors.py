"""
Errors with devices
===================

This page explains the errors raised when a tensor, a model or a saved file
is on another :term:`device` than the code expects. Open it when one of these
messages stops your code. Each entry raises the error, prints the message,
says why it happens and runs the fix. Some messages need a CUDA GPU. The
output shows them only where the machine that built the page had one.

**Before this page:**
:ref:`sphx_glr_auto_examples_tensors_plot_08_tensors_and_numpy.py`,
:ref:`sphx_glr_auto_examples_tensors_plot_51_choosing_a_device.py`,
:ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py` and
:ref:`sphx_glr_auto_examples_training_plot_08_saving_and_loading.py`.
"""

# %%
# ``device`` is ``"cuda"`` when :func:`torch.cuda.is_available` is true, and
# the CPU otherwise. The line below names the one that built this page.
import io
import pickle

import numpy as np
import torch
from torch import nn

from tutorial_utils.environment import environment_summary

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(environment_summary(device))

# %%
# .. _error-same-device:
#
# Expected all tensors to be on the same device
# ---------------------------------------------
# Most operations that take two or more tensors raise it when the tensors
# live on different devices. Examples are matrix products, losses,
# element-wise arithmetic and the :class:`~torch.nn.Linear` layer used here.
# The usual cause is a model moved to the GPU and a batch left on the CPU.
#
# .. detail:: Convolution and recurrent layers
#
#    Some layers check their input first and word the mistake differently.
#    A convolution layer, such as :class:`~torch.nn.Conv1d`, slides a small
#    set of weights along its input. It says that the input type and the
#    weight type should be the same. It names the two types, such as
#    ``torch.FloatTensor`` and ``torch.cuda.FloatTensor``. These are old
#    names for float32 on the CPU and float32 on a CUDA GPU.
#    :class:`~torch.nn.LSTM` is a layer for sequences. It and its relatives
#    say that the input and parameter tensors are not at the same device.
#    With a GPU, the page prints all three messages and keeps them for its
#    checks.
if torch.cuda.is_available():
    batch, messages = torch.ones(4, 3), {}
    layers = [nn.Linear(3, 1), nn.Conv1d(4, 1, 1), nn.LSTM(3, 1)]
    for layer in layers:
        try:
            layer.to("cuda")(batch)
        except RuntimeError as error:
            message = str(error)
            print(f"{type(layer).__name__}: {type(error).__name__}: {message}")
        else:
            raise AssertionError(f"a CUDA {type(layer).__name__} took a CPU batch")
        messages[type(layer).__name__] = message
else:
    print("This build had no CUDA GPU, so the messages are not shown here.")

# %%
# .. check:: with a GPU: the three wordings, and the heading from a product, sum, loss
if torch.cuda.is_available():
    wordings = {
        "Linear": "Expected all tensors to be on the same device",
        "Conv1d": ") and weight type (",
        "LSTM": "Input and parameter tensors are not at the same device",
    }
    for name, expected in wordings.items():
        assert expected in messages[name]
        assert "cuda" in messages[name]
    assert "should be the same" in messages["Conv1d"]
    square = torch.ones(2, 2, device="cuda")
    pairs = [(torch.matmul, square.cpu()), (torch.add, square.cpu())]
    for op, on_cpu in [*pairs, (nn.functional.cross_entropy, torch.tensor([0, 1]))]:
        try:
            op(square, on_cpu)
        except RuntimeError as error:
            other = str(error)
        else:
            raise AssertionError(f"{op.__name__} took tensors on two devices")
        assert "Expected all tensors to be on the same device" in other

# %%
# **Why.** An operation runs on one device. PyTorch does not move its inputs
# there for you, with a few exceptions.
#
# .. detail:: Two exceptions
#
#    Element-wise operations read a 0-dimensional CPU tensor as a plain
#    number. Indexing a CUDA tensor accepts indices on the CPU.
#
# **Fix.** Move the model once. Inside the loop, move every batch to the
# same device: the inputs and the targets. :meth:`torch.nn.Module.to` moves
# the model itself. :meth:`torch.Tensor.to` returns a moved tensor and
# leaves the original where it was, so keep the result. The code below runs
# on whichever ``device`` this build has.
#
# .. detail:: The rest of the message
#
#    The rest of the message names the two devices, such as ``cuda:0`` and
#    ``cpu``. For most operations it also names the argument and the
#    operation. Its wording changes between versions.
model = nn.Linear(3, 1).to(device)
batch = torch.ones(4, 3).to(device)
output = model(batch)
print(f"output on {output.device}")

# %%
# .. check:: ``Module.to`` moves in place, ``Tensor.to`` does not; the exceptions
assert output.device == model.weight.device == batch.device
with torch.random.fork_rng(devices=[]):  # the layer draws its weights
    layer, original = nn.Linear(1, 1), torch.ones(1)
layer.to("meta")
assert layer.weight.is_meta
assert original.to("meta").is_meta
assert original.device.type == "cpu"
if torch.cuda.is_available():
    linear = messages["Linear"]
    assert "cuda:0" in linear
    assert "cpu" in linear
    assert "(when checking argument" in linear
    on_gpu = torch.arange(3.0, device="cuda")
    assert (on_gpu + torch.tensor(1.0)).is_cuda
    assert on_gpu[torch.tensor([0, 2])].is_cuda

# %%
# .. _error-numpy-device:
#
# can't convert … device type tensor to numpy
# -------------------------------------------
# :meth:`torch.Tensor.numpy` raises it for a tensor that is not on the CPU.
# :func:`numpy.asarray` calls that method, so it raises the same. Without a
# GPU, a tensor on the :term:`meta device` stands in. Such a tensor has a
# shape and a dtype, but no data.
if torch.cuda.is_available():
    on_device = torch.arange(3.0, device="cuda")
else:
    print("This build had no CUDA GPU: a tensor on the meta device stands in.")
    on_device = torch.arange(3.0, device="meta")
try:
    on_device.numpy()
except TypeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError(".numpy() on a tensor off the CPU did not raise")

# %%
# .. check:: the tensor off the CPU gets the heading's message, from ``np.asarray`` too
assert "can't convert " in message
assert " device type tensor to numpy" in message.split("can't convert ")[1]
assert ("cuda:0" if torch.cuda.is_available() else "meta") in message
try:
    np.asarray(on_device)
except TypeError as error:
    asarray_message = str(error)
else:
    raise AssertionError("np.asarray on a tensor off the CPU did not raise")
assert asarray_message == message

# %%
# **Why.** A NumPy array uses memory that the CPU can read.
# :meth:`~torch.Tensor.numpy` shares the tensor's memory instead of copying
# it. Memory on another device cannot be shared that way. The gap in the
# heading holds the device: ``cuda:0`` for a CUDA tensor, ``meta`` here
# without a GPU.
#
# **Fix.** Copy the tensor to the CPU first, as the rest of the message
# says: ``tensor.cpu().numpy()``. A tensor that requires gradients must be
# detached too: ``tensor.detach().cpu().numpy()``.
# ``tensor.numpy(force=True)`` does both steps.
results = torch.arange(3.0, device=device)
array = results.cpu().numpy()
print(f"{type(array).__name__} {array}")

# %%
# .. check:: the copy holds the values; a tensor needing grad must be detached
assert array.tolist() == [0.0, 1.0, 2.0]
assert results.numpy(force=True).tolist() == array.tolist()
trained = torch.arange(3.0, device=device, requires_grad=True)
try:
    trained.cpu().numpy()
except RuntimeError as error:
    grad_message = str(error)
else:
    raise AssertionError(".numpy() on a tensor that requires grad did not raise")
assert "requires grad" in grad_message
assert trained.detach().cpu().numpy().tolist() == array.tolist()
assert trained.numpy(force=True).tolist() == array.tolist()

# %%
# .. _error-not-compiled-with-cuda:
#
# Torch not compiled with CUDA enabled
# ------------------------------------
# Most calls that need CUDA raise it in a PyTorch built without CUDA. A
# wheel is the file that pip installs. A ``+cpu`` wheel is such a build.
# These calls include ``device="cuda"``, ``model.to("cuda")`` and
# :meth:`~torch.Tensor.cuda`, a short form of ``.to("cuda")``. From these
# calls, it is an :class:`AssertionError`, not a :class:`RuntimeError`.
# :func:`torch.backends.cuda.is_built` says whether the installed PyTorch
# was built with CUDA. In a build with CUDA, the code prints the build's
# CUDA version instead. Without a usable GPU, it also prints the error
# raised then.
if not torch.backends.cuda.is_built():
    try:
        torch.zeros(2, device="cuda")
    except AssertionError as error:
        message = str(error)
        print(f"{type(error).__name__}: {message}")
    else:
        raise AssertionError("device='cuda' in a CPU-only build did not raise")
else:
    version = torch.version.cuda or f"through ROCm {torch.version.hip}"
    print(f"This build supports CUDA {version}, so the message is not shown.")
    if not torch.cuda.is_available():
        try:
            torch.zeros(2, device="cuda")
        except RuntimeError as error:
            print(f"Without a usable GPU it raises {type(error).__name__}: {error}")
        else:
            raise AssertionError("device='cuda' without a usable GPU did not raise")

# %%
# .. check:: a ``+cpu`` build lacks CUDA: each call's message, no CUDA version
if not torch.backends.cuda.is_built():
    assert "Torch not compiled with CUDA enabled" in message
    assert torch.version.cuda is None
    assert torch.version.hip is None
    assert not torch.cuda.is_available()
    with torch.random.fork_rng(devices=[]):  # the layer draws its weights
        layer = nn.Linear(1, 1)
    for call in [lambda: torch.ones(1).cuda(), lambda: layer.to("cuda")]:
        try:
            call()
        except AssertionError as error:
            call_message = str(error)
        else:
            raise AssertionError("a CUDA call in a CPU-only build did not raise")
        assert "Torch not compiled with CUDA enabled" in call_message
else:
    assert (torch.version.cuda is None) == (torch.version.hip is not None)
assert not (torch.__version__.endswith("+cpu") and torch.backends.cuda.is_built())
if torch.cuda.is_available():
    assert torch.ones(1).cuda().device == torch.ones(1).to("cuda").device

# %%
# **Why.** CUDA support is chosen when PyTorch is built. A CPU-only build
# holds no CUDA code, whatever GPU the machine has. In such a build,
# ``torch.version.cuda`` is ``None``. In a build with CUDA, the
# :class:`RuntimeError` without a usable GPU names what is missing, such as
# the driver or a visible GPU.
#
# **Fix.** Write code that runs on both kinds of machine. Choose the device
# with :func:`torch.cuda.is_available`, as the first cell does, instead of
# writing ``"cuda"``. To use a GPU, install a PyTorch build for CUDA. Its
# wheel brings its own CUDA libraries, but it needs a recent enough NVIDIA
# driver.
#
# .. detail:: ROCm builds
#
#    ``torch.version.cuda`` is ``None`` in a ROCm build too. Such a build
#    runs the ``cuda`` device on AMD GPUs. It names its version in
#    ``torch.version.hip``.
tensor = torch.zeros(2, device=device)
print(f"tensor on {tensor.device}")

# %%
# .. check:: the tensor is on the GPU exactly when one is available; the cause named
assert tensor.device.type == ("cuda" if torch.cuda.is_available() else "cpu")
if torch.backends.cuda.is_built() and not torch.cuda.is_available():
    try:
        torch.zeros(2, device="cuda")
    except RuntimeError as error:
        missing_message = str(error)
    else:
        raise AssertionError("device='cuda' without a usable GPU did not raise")
    assert "driver" in missing_message or "GPU" in missing_message

# %%
# .. _error-deserialize-cuda:
#
# Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False
# ----------------------------------------------------------------------------------------
# :func:`torch.load` raises it on a machine without a CUDA GPU, for a file
# saved from tensors on a GPU and loaded without ``map_location``.
# :func:`torch.save` records each tensor's
# device next to its data, such as ``"cuda:0"``. :func:`torch.load` puts
# each tensor back on that device.
#
# Here an ``io.BytesIO`` object, a file held in memory, stands in for a file
# on disk. Its ``seek(0)`` goes back to the start before a read. Without a
# GPU, the page makes the error another way. The dictionary
# ``map_location={"cpu": "cuda:0"}`` asks :func:`torch.load` to put tensors
# saved on the CPU onto ``cuda:0``. That goes through the same check.
saved = nn.Linear(3, 1).to(device)
buffer = io.BytesIO()
torch.save(saved.state_dict(), buffer)
if torch.cuda.is_available():
    buffer.seek(0)
    loaded = torch.load(buffer, weights_only=True)
    print("This machine has a CUDA GPU, so the file loads back onto it.")
else:
    print("This build had no CUDA GPU: the file is loaded onto cuda:0.")
    buffer.seek(0)
    try:
        torch.load(buffer, map_location={"cpu": "cuda:0"}, weights_only=True)
    except (RuntimeError, pickle.UnpicklingError) as error:
        message, raised = str(error), type(error)
        print(f"{type(error).__name__}: {message}")
    else:
        raise AssertionError("loading onto cuda:0 without a GPU did not raise")

# %%
# .. check:: the file records each device; without a GPU, the heading's message
tag = torch.serialization.location_tag(saved.weight.untyped_storage())
assert tag == ("cuda:0" if torch.cuda.is_available() else "cpu")
if torch.cuda.is_available():
    assert loaded["weight"].is_cuda
else:
    assert (
        "Attempting to deserialize object on a CUDA device "
        "but torch.cuda.is_available() is False" in message
    )

# %%
# **Why.** Loading puts each tensor on the device recorded in the file, or
# on the one ``map_location`` names. Here that is ``cuda:0``, and the
# machine has none.
#
# **Fix.** Tell :func:`torch.load` where the tensors go with
# ``map_location``: ``"cpu"``, or the ``device`` the code runs on. Then load
# the :term:`state dict` into a model, and move the model as usual.
#
# .. detail:: PyTorch 2.4
#
#    Torch 2.4 wraps this message in a :class:`pickle.UnpicklingError` when
#    ``weights_only=True``. Its first lines suggest ``weights_only=False``.
#    That would not help: the device is the problem. Torch 2.13 raises the
#    :class:`RuntimeError` itself.
#    :ref:`sphx_glr_auto_examples_training_plot_58_safe_loading_and_safetensors.py`
#    explains ``weights_only``.
buffer.seek(0)
state = torch.load(buffer, map_location="cpu", weights_only=True)
restored = nn.Linear(3, 1)
restored.load_state_dict(state)
restored.to(device)
print(f"loaded on cpu, model now on {restored.weight.device}")

# %%
# .. check:: 2.4 wraps the error, 2.13 does not; ``"cpu"`` loads on the CPU
if not torch.cuda.is_available():
    if torch.__version__.startswith("2.4."):
        assert raised is pickle.UnpicklingError
        assert "weights_only" in message
    if torch.__version__ >= "2.13":
        assert raised is RuntimeError
    buffer.seek(0)
    try:
        torch.load(buffer, map_location={"cpu": "cuda:0"}, weights_only=False)
    except RuntimeError as error:
        unsafe_message = str(error)
    else:
        raise AssertionError("weights_only=False loaded onto a missing GPU")
    assert "is_available() is False" in unsafe_message
assert all(tensor.device.type == "cpu" for tensor in state.values())

# %%
# See also: :ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`,
# :ref:`sphx_glr_auto_examples_tensors_plot_08_tensors_and_numpy.py`,
# :ref:`sphx_glr_auto_examples_training_plot_08_saving_and_loading.py` and
# :ref:`sphx_glr_auto_examples_training_plot_60_torchrun_and_gpus.py`.
