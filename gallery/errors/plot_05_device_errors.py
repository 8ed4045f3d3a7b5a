"""
Errors with devices
===================

The errors raised when tensors, models and saved files are on a different
device than the code expects: two devices in one operation, a GPU tensor sent
to NumPy, CUDA on a build without it, a GPU checkpoint on a machine without a
GPU. The messages in the output were printed by the PyTorch that built the
page, the ones that need a CUDA GPU only where it had one.
"""

# %%
# ``device`` is ``"cuda"`` when :func:`torch.cuda.is_available` is true and
# the CPU otherwise; the line below names the one that built this page.
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
# Raised by most operations that take two or more tensors (a
# :class:`~torch.nn.Linear` layer here; also matrix products, losses and
# elementwise arithmetic) when they live on different devices: typically a
# model moved to the GPU and a batch left on the CPU.
#
# .. detail:: Convolution and recurrent layers
#
#    Convolution and recurrent layers check their input first and word the
#    same mistake differently: a convolution says that the input type (such
#    as torch.FloatTensor) and the weight type (torch.cuda.FloatTensor)
#    should be the same; :class:`~torch.nn.LSTM` and its relatives, that the
#    input and parameter tensors are not at the same device. With a GPU, the
#    page prints all three.
if torch.cuda.is_available():
    batch, messages = torch.ones(4, 3), {}
    layers = {
        "Expected all tensors to be on the same device": nn.Linear(3, 1),
        ") and weight type (": nn.Conv1d(4, 1, 1),
        "Input and parameter tensors are not at the same device": nn.LSTM(3, 1),
    }
    for layer in layers.values():
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
# .. check:: with a GPU: the three wordings above, and the heading's message from a product, sum and loss
if torch.cuda.is_available():
    for expected, layer in layers.items():
        assert expected in messages[type(layer).__name__]
        assert "cuda" in messages[type(layer).__name__]
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
# **Why.** An operation runs on one device, and PyTorch does not copy
# tensors between devices for you: a copy costs time, so it is left to you.
# Among the exceptions: elementwise operations read a 0-dimensional CPU
# tensor as a plain number, and indexing a CUDA tensor accepts CPU indices.
#
# **Fix.** Move the model once, and every batch (inputs and targets) to the
# same device inside the loop, with :meth:`~torch.Tensor.to`. The code
# below runs on whichever ``device`` this build has.
#
# .. detail:: The rest of the message
#
#    The rest of the message names the devices (such as ``cuda:0`` and
#    ``cpu``) and, for most operations, the argument and the operation; its
#    wording changes between versions.
model = nn.Linear(3, 1).to(device)
batch = torch.ones(4, 3).to(device)
output = model(batch)
print(f"output on {output.device}")

# %%
# .. check:: the message names both devices; 0-d CPU tensors and CPU indices are accepted
assert output.device == model.weight.device == batch.device
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
# Raised by :meth:`torch.Tensor.numpy` (and so by :func:`numpy.asarray`,
# which calls it) for a tensor that is not on the CPU.
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
try:
    np.asarray(on_device)
except TypeError as error:
    asarray_message = str(error)
else:
    raise AssertionError("np.asarray on a tensor off the CPU did not raise")
assert asarray_message == message

# %%
# **Why.** A NumPy array is a view of memory the CPU can read, and
# :meth:`~torch.Tensor.numpy` shares that memory rather than copying it;
# GPU memory cannot be shared that way. The check is on the device type
# alone, so a CUDA tensor prints ``cuda:0`` in the gap, and a tensor on the
# :term:`meta device` (shape and dtype, no data), used above when there is
# no GPU, prints ``meta``.
#
# **Fix.** Copy to host memory first, as the rest of the message says:
# ``tensor.cpu().numpy()``, or ``tensor.detach().cpu().numpy()`` when the
# tensor requires grad. ``tensor.numpy(force=True)`` does both.
results = torch.arange(3.0, device=device)
array = results.cpu().numpy()
print(f"{type(array).__name__} {array}")

# %%
# .. check:: the copy holds the values, and ``numpy(force=True)`` gives the same
assert array.tolist() == [0.0, 1.0, 2.0]
assert results.numpy(force=True).tolist() == array.tolist()

# %%
# .. _error-not-compiled-with-cuda:
#
# Torch not compiled with CUDA enabled
# ------------------------------------
# Raised (as an :class:`AssertionError`) by most calls that need CUDA,
# such as ``device="cuda"``, :meth:`~torch.Tensor.cuda` or
# ``model.to("cuda")``, in a PyTorch built without CUDA support, such as
# the ``+cpu`` wheels.
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
# .. check:: a CPU-only build gets the heading's message and names no CUDA or ROCm version
if not torch.backends.cuda.is_built():
    assert "Torch not compiled with CUDA enabled" in message
    assert torch.version.cuda is None
    assert torch.version.hip is None
else:
    assert (torch.version.cuda is None) == (torch.version.hip is not None)

# %%
# **Why.** CUDA support is decided when PyTorch is built: a CPU-only build
# has no CUDA code in it at all, whatever GPU the machine has.
# :func:`torch.backends.cuda.is_built` tells which build is installed, and
# ``torch.version.cuda`` is ``None`` in a CPU-only one. A build with CUDA on
# a machine without a usable GPU fails differently, with a
# :class:`RuntimeError` that names what is missing (the driver, or a visible
# GPU).
#
# **Fix.** Write code that runs on both: choose the device with
# :func:`torch.cuda.is_available` (as the first cell of this page does)
# instead of writing ``"cuda"``. To use the GPU, install a PyTorch build
# for CUDA: its wheel brings its own CUDA libraries and needs a recent
# enough NVIDIA driver.
#
# .. detail:: ROCm builds
#
#    ``torch.version.cuda`` is ``None`` in a ROCm build too. Such a build
#    runs the ``cuda`` device on AMD GPUs and names its version in
#    ``torch.version.hip``.
tensor = torch.zeros(2, device=device)
print(f"tensor on {tensor.device}")

# %%
# .. check:: the tensor is on the GPU exactly when one is available
assert tensor.device.type == ("cuda" if torch.cuda.is_available() else "cpu")

# %%
# .. _error-deserialize-cuda:
#
# Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False
# ----------------------------------------------------------------------------------------
# Raised by :func:`torch.load` on a machine without a CUDA GPU when the file
# was saved from tensors on a GPU. :func:`torch.save` records each tensor's
# device next to its data (``"cuda:0"`` for a GPU tensor), and
# :func:`torch.load` puts the tensor back there.
saved = nn.Linear(3, 1).to(device)
buffer = io.BytesIO()
torch.save(saved.state_dict(), buffer)
location = torch.serialization.location_tag(saved.weight.untyped_storage())
print(f"this file records location {location!r}")
if torch.cuda.is_available():
    buffer.seek(0)
    loaded = torch.load(buffer, weights_only=True)
    print("This machine has a CUDA GPU, so the file loads back onto it.")
else:
    print("This build had no CUDA GPU: the file below was saved on the CPU, and")
    print("map_location={'cpu': 'cuda:0'} asks to restore it onto cuda:0.")
    buffer.seek(0)
    try:
        torch.load(buffer, map_location={"cpu": "cuda:0"}, weights_only=True)
    except (RuntimeError, pickle.UnpicklingError) as error:
        message, raised = str(error), type(error)
        print(f"{type(error).__name__}: {message}")
    else:
        raise AssertionError("loading onto cuda:0 without a GPU did not raise")

# %%
# .. check:: a GPU file records ``cuda:0`` and loads there; without a GPU, the heading's message
if torch.cuda.is_available():
    assert location == "cuda:0"
    assert loaded["weight"].is_cuda
else:
    assert (
        "Attempting to deserialize object on a CUDA device "
        "but torch.cuda.is_available() is False" in message
    )

# %%
# **Why.** Loading a tensor means restoring it on a device: the one recorded
# in the file, or where ``map_location`` sends it, here ``cuda:0``, and there
# is none. A file saved on a GPU records
# ``"cuda:0"``; a dictionary ``map_location`` that maps ``"cpu"`` to
# ``"cuda:0"`` makes :func:`torch.load` restore a CPU-saved file onto
# ``cuda:0`` too, through the same check, which is how the message is shown
# on a machine without a GPU.
#
# **Fix.** Tell :func:`torch.load` where the tensors go with
# ``map_location``: ``"cpu"``, or the ``device`` the code runs on. Then load
# the :term:`state dict` into a model and move the model as usual.
#
# .. detail:: PyTorch 2.4
#
#    With ``weights_only=True``, torch 2.4 wraps this message in a
#    :class:`pickle.UnpicklingError` whose first lines suggest
#    ``weights_only=False``; that would not help, since the device is the
#    problem. Torch 2.13 raises the :class:`RuntimeError` itself.
buffer.seek(0)
state = torch.load(buffer, map_location="cpu", weights_only=True)
restored = nn.Linear(3, 1)
restored.load_state_dict(state)
restored.to(device)
print(f"loaded on cpu, model now on {restored.weight.device}")

# %%
# .. check:: torch 2.4 raised ``UnpicklingError``, 2.13 ``RuntimeError``; ``"cpu"`` loads on the CPU
if not torch.cuda.is_available():
    if torch.__version__.startswith("2.4."):
        assert raised is pickle.UnpicklingError
    if torch.__version__ >= "2.13":
        assert raised is RuntimeError
assert all(tensor.device.type == "cpu" for tensor in state.values())

# %%
# See also: :ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`,
# :ref:`sphx_glr_auto_examples_tensors_plot_08_tensors_and_numpy.py` and
# :ref:`sphx_glr_auto_examples_training_plot_08_saving_and_loading.py`.
