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
# Raised by operations that take two or more tensors, here a
# :class:`~torch.nn.Linear` layer, when they live on different devices:
# typically a model moved to the GPU and a batch left on the CPU.
if torch.cuda.is_available():
    model = nn.Linear(3, 1).to("cuda")
    batch = torch.ones(4, 3)
    try:
        model(batch)
    except RuntimeError as error:
        message = str(error)
        print(f"{type(error).__name__}: {message}")
    else:
        raise AssertionError("a CUDA model on a CPU batch did not raise")
    assert "Expected all tensors to be on the same device" in message
    assert (torch.ones(2, device="cuda") + torch.tensor(1.0)).is_cuda
else:
    print("This build had no CUDA GPU, so the message is not shown here.")

# %%
# **Why.** An operation runs on one device, and PyTorch does not copy
# tensors between devices for you: a copy costs time, so it is left to you.
# (A 0-dimensional CPU tensor is the exception: mixed with CUDA tensors, it
# is read as a plain number.) The rest of the message names the two devices it found (such as
# ``cuda:0`` and ``cpu``) and the argument or operation that had the odd
# one out.
#
# **Fix.** Move the model once, and every batch (inputs and targets) to the
# same device inside the loop, with :meth:`~torch.Tensor.to`. The code
# below runs on whichever ``device`` this build has.
model = nn.Linear(3, 1).to(device)
batch = torch.ones(4, 3).to(device)
output = model(batch)
assert output.device == model.weight.device == batch.device
print(f"output on {output.device}")

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
assert "can't convert " in message
assert " device type tensor to numpy" in message.split("can't convert ")[1]
# sphinx_gallery_start_ignore
try:
    np.asarray(on_device)
except TypeError as error:
    asarray_message = str(error)
else:
    raise AssertionError("np.asarray on a tensor off the CPU did not raise")
assert asarray_message == message
# sphinx_gallery_end_ignore

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
assert array.tolist() == [0.0, 1.0, 2.0]
assert results.numpy(force=True).tolist() == array.tolist()
print(f"{type(array).__name__} {array}")

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
    assert "Torch not compiled with CUDA enabled" in message
    assert torch.version.cuda is None
else:
    print(
        f"This build supports CUDA {torch.version.cuda}, so the message is not shown."
    )
    if not torch.cuda.is_available():
        try:
            torch.zeros(2, device="cuda")
        except RuntimeError as error:
            print(f"Without a usable GPU it raises {type(error).__name__}: {error}")
        else:
            raise AssertionError("device='cuda' without a usable GPU did not raise")

# %%
# **Why.** CUDA support is decided when PyTorch is built: a CPU-only build
# has no CUDA code in it at all, whatever GPU the machine has.
# :func:`torch.backends.cuda.is_built` tells which build is installed, and
# ``torch.version.cuda`` is ``None`` in a CPU-only one. A build with CUDA on
# a machine without a usable GPU fails differently, with a
# :class:`RuntimeError` that names what is missing (the driver, or a
# visible GPU).
#
# **Fix.** Write code that runs on both: choose the device with
# :func:`torch.cuda.is_available` (as the first cell of this page does)
# instead of writing ``"cuda"``. To use the GPU, install a PyTorch build
# for CUDA: its wheel brings its own CUDA libraries and needs a recent
# enough NVIDIA driver.
tensor = torch.zeros(2, device=device)
assert tensor.device.type == ("cuda" if torch.cuda.is_available() else "cpu")
print(f"tensor on {tensor.device}")

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
    assert location == "cuda:0"
    buffer.seek(0)
    loaded = torch.load(buffer, weights_only=True)
    assert loaded["weight"].is_cuda
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
    assert (
        "Attempting to deserialize object on a CUDA device "
        "but torch.cuda.is_available() is False" in message
    )
    # sphinx_gallery_start_ignore
    if torch.__version__.startswith("2.4."):
        assert raised is pickle.UnpicklingError
    if torch.__version__ >= "2.13":
        assert raised is RuntimeError
    # sphinx_gallery_end_ignore

# %%
# **Why.** Loading a tensor means restoring it on a device: the one recorded
# in the file, or where ``map_location`` sends it, here ``cuda:0``, and there
# is none. A file saved on a GPU records
# ``"cuda:0"``; a dictionary ``map_location`` that maps ``"cpu"`` to
# ``"cuda:0"`` makes :func:`torch.load` restore a CPU-saved file onto
# ``cuda:0`` too, through the same check, which is how the message is shown
# on a machine without a GPU. With ``weights_only=True``, torch 2.4 wraps
# this message in a :class:`pickle.UnpicklingError` whose first lines
# suggest ``weights_only=False``; that would not help, since the device is
# the problem. Torch 2.13 raises the :class:`RuntimeError` itself.
#
# **Fix.** Tell :func:`torch.load` where the tensors go with
# ``map_location``: ``"cpu"``, or the ``device`` the code runs on. Then load
# the :term:`state dict` into a model and move the model as usual.
buffer.seek(0)
state = torch.load(buffer, map_location="cpu", weights_only=True)
assert all(tensor.device.type == "cpu" for tensor in state.values())
restored = nn.Linear(3, 1)
restored.load_state_dict(state)
restored.to(device)
print(f"loaded on cpu, model now on {restored.weight.device}")

# %%
# See also: :ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`,
# :ref:`sphx_glr_auto_examples_tensors_plot_08_tensors_and_numpy.py` and
# :ref:`sphx_glr_auto_examples_training_plot_08_saving_and_loading.py`.
