"""
Tensors and NumPy
=================

Move data between NumPy and PyTorch without surprises: know when the two
share memory and when they copy, which dtype you get, and how to convert a
tensor that lives on a GPU or takes part in automatic differentiation.
"""

# %%
# Every page starts by saying what computed it.
import matplotlib.pyplot as plt
import numpy as np
import torch

from tutorial_utils.devices import pick_device
from tutorial_utils.environment import environment_summary
from tutorial_utils.plotting import draw_tensors, draw_views

device = pick_device()
print(environment_summary(device))

# %%
# ``from_numpy`` and ``.numpy()`` share memory
# --------------------------------------------
# :func:`torch.from_numpy` wraps a NumPy array's memory in a tensor, and
# :meth:`torch.Tensor.numpy` wraps a CPU tensor's memory in an array. Neither
# copies: there is one buffer with two names. :func:`numpy.shares_memory`
# checks it, and so does comparing the address of the first element
# (:meth:`~torch.Tensor.data_ptr` against the array's ``ctypes.data``).
array = np.arange(6, dtype=np.float32).reshape(2, 3)
tensor = torch.from_numpy(array)
back = tensor.numpy()
print("tensor reads the array's memory:", tensor.data_ptr() == array.ctypes.data)
print("back shares the array's memory: ", np.shares_memory(back, array))

# %%
# So a write through either name shows in the other, both ways:
array[0, 1] = 10  # through NumPy
tensor[1, 2] = -1  # through PyTorch
print(array)
print(tensor)

# sphinx_gallery_start_ignore
assert tensor[0, 1] == 10
assert array[1, 2] == -1
assert back[0, 1] == 10
# sphinx_gallery_end_ignore

# %%
# In the picture the cell written through NumPy is orange and the one
# written through PyTorch green; both show in both, because both names read
# the same six numbers. (The drawing helper draws tensors, so the left panel
# wraps the array once more with ``from_numpy``: a third name for the buffer.)
written = torch.zeros(2, 3, dtype=torch.long)
written[0, 1], written[1, 2] = 1, 2
draw_tensors(
    [torch.from_numpy(array), tensor],
    ["array (np.ndarray)", "tensor = torch.from_numpy(array)"],
    groups=[written, written],
    fmt="{:g}",
)
plt.show()

# %%
# Only *in-place* writes reach the shared buffer. ``tensor += 1`` changes
# the buffer; ``tensor = tensor + 1`` makes a new tensor in new memory and
# leaves the array behind:
tensor += 1
print("after tensor += 1:          ", array[0])
tensor = tensor + 1
print(
    "after tensor = tensor + 1:  ",
    array[0],
    "  shared:",
    np.shares_memory(tensor.numpy(), array),
)

# sphinx_gallery_start_ignore
assert array[0].tolist() == [1, 11, 3]
assert tensor[0].tolist() == [2, 12, 4]
assert not np.shares_memory(tensor.numpy(), array)
# sphinx_gallery_end_ignore

# %%
# Strides: bytes in NumPy, elements in PyTorch
# --------------------------------------------
# A NumPy array has strides too, counted in bytes where PyTorch counts
# elements. ``from_numpy`` keeps them, so a transposed array becomes a
# transposed, non-contiguous tensor over the same buffer, no copy made:
tensor = torch.from_numpy(array)
flipped = torch.from_numpy(array.T)
print("array.strides (bytes):      ", array.strides)
print("tensor.stride() (elements): ", tensor.stride())
print("array.T.strides (bytes):    ", array.T.strides)
print("flipped.stride() (elements):", flipped.stride())
print("flipped reads the array's memory:", flipped.data_ptr() == array.ctypes.data)

# sphinx_gallery_start_ignore
assert tuple(s // array.itemsize for s in array.strides) == tensor.stride()
assert flipped.stride() == tensor.stride()[::-1]
assert not flipped.is_contiguous()
# sphinx_gallery_end_ignore

# %%
# Drawn as windows onto their storage (see the page on views and strides),
# both read the array's buffer, in two orders:
draw_views(
    [tensor, flipped],
    ["tensor = torch.from_numpy(array)", "flipped = torch.from_numpy(array.T)"],
    fmt="{:g}",
)
plt.show()

# %%
# One kind of stride NumPy has and PyTorch does not: a negative one, as in
# a reversed array. ``from_numpy`` refuses it, and the message says what to
# do: copy the array first, so that it gets a memory of its own.
try:
    torch.from_numpy(array[:, ::-1])
except ValueError as error:
    print(error)
print(torch.from_numpy(array[:, ::-1].copy()))

# %%
# ``torch.tensor`` copies; ``torch.as_tensor`` shares when it can
# ---------------------------------------------------------------
# :func:`torch.tensor` always copies. :func:`torch.as_tensor` shares the
# array's memory when the tensor can use it as it is (same dtype, on the
# CPU) and copies only when it must, here to convert to ``float32``:
source = np.array([1.0, 2.0, 3.0])
made = {
    "torch.tensor(source)": torch.tensor(source),
    "torch.as_tensor(source)": torch.as_tensor(source),
    "torch.as_tensor(source, dtype=float32)": torch.as_tensor(
        source, dtype=torch.float32
    ),
    "torch.from_numpy(source)": torch.from_numpy(source),
}
for name, made_tensor in made.items():
    shares = np.shares_memory(made_tensor.numpy(), source)
    print(f"{name:39} {made_tensor.dtype}  shares memory: {shares}")

# sphinx_gallery_start_ignore
assert not np.shares_memory(made["torch.tensor(source)"].numpy(), source)
assert np.shares_memory(made["torch.as_tensor(source)"].numpy(), source)
assert not np.shares_memory(
    made["torch.as_tensor(source, dtype=float32)"].numpy(), source
)
assert np.shares_memory(made["torch.from_numpy(source)"].numpy(), source)
# sphinx_gallery_end_ignore

# %%
# Dtypes: NumPy's ``float64``, PyTorch's ``float32``
# --------------------------------------------------
# NumPy makes 64-bit floats by default, PyTorch 32-bit floats, the precision
# neural networks use. A tensor made from an array keeps the array's dtype,
# and an array made from a tensor keeps the tensor's:
print("np.array([0.5, 1.5]):      ", np.array([0.5, 1.5]).dtype)
print("torch.tensor([0.5, 1.5]):  ", torch.tensor([0.5, 1.5]).dtype)
print("torch.from_numpy(float64): ", torch.from_numpy(np.array([0.5, 1.5])).dtype)
print("torch.ones(2).numpy():     ", torch.ones(2).numpy().dtype)

# sphinx_gallery_start_ignore
assert np.array([0.5, 1.5]).dtype == np.float64
assert torch.tensor([0.5, 1.5]).dtype == torch.float32
assert torch.from_numpy(np.array([0.5, 1.5])).dtype == torch.float64
assert torch.ones(2).numpy().dtype == np.float32
# sphinx_gallery_end_ignore

# %%
# That difference is where mixing them fails: data made with NumPy meets
# ``float32`` weights, and a matrix product refuses two dtypes. Convert the
# data once, with :meth:`~torch.Tensor.float` (a copy) or
# ``torch.as_tensor(..., dtype=torch.float32)``:
rng = np.random.default_rng(0)
features = torch.from_numpy(rng.random((4, 3)))
weights = torch.ones(3, 2)
print("features:", features.dtype, " weights:", weights.dtype)
try:
    features @ weights
except RuntimeError as error:
    print(error)
print((features.float() @ weights).dtype)

# %%
# A tensor on a GPU must come to the CPU first
# --------------------------------------------
# NumPy arrays live in the computer's main memory, so ``.numpy()`` works on
# CPU tensors only. On an accelerator, it raises a :class:`TypeError` that
# says to copy the tensor to the CPU first with :meth:`~torch.Tensor.cpu`.
on_device = torch.arange(3.0, device=device)
if device.type == "cpu":
    print("This page ran on the CPU, so the error cannot happen here.")
else:
    try:
        on_device.numpy()
    except TypeError as error:
        print(error)

# sphinx_gallery_start_ignore
# The same check guards every device other than the CPU; the meta device
# (shapes only, no memory) exists on every machine.
meta_error = ""
try:
    torch.empty(1, device="meta").numpy()
except TypeError as error:
    meta_error = str(error)
assert "Tensor.cpu()" in meta_error
# sphinx_gallery_end_ignore

# %%
# The portable way works on every device: ``.cpu().numpy()`` copies from an
# accelerator and, on the CPU, where ``.cpu()`` returns the tensor itself,
# copies nothing. ``.numpy(force=True)`` does the same, and also detaches
# (see below).
print(on_device.cpu().numpy())
print(on_device.numpy(force=True))

# sphinx_gallery_start_ignore
assert on_device.cpu().numpy().tolist() == [0.0, 1.0, 2.0]
# force=True also detaches a tensor that requires grad.
assert torch.ones(2, requires_grad=True).numpy(force=True).tolist() == [1.0, 1.0]
if device.type == "cpu":
    assert on_device.cpu() is on_device
    assert on_device.numpy(force=True).ctypes.data == on_device.data_ptr()
# sphinx_gallery_end_ignore

# %%
# A tensor that requires grad must be detached
# --------------------------------------------
# A tensor that records operations for automatic differentiation
# (``requires_grad=True``, and everything computed from it) refuses
# ``.numpy()``, because NumPy cannot carry that record.
# :meth:`~torch.Tensor.detach` returns a tensor over the same memory that
# records nothing:
w = torch.ones(3, requires_grad=True)
try:
    (w * 2).numpy()
except RuntimeError as error:
    print(error)
values = w.detach().numpy()
print(values, " shares w's memory:", values.ctypes.data == w.data_ptr())

# %%
# Shared memory means the array follows the tensor: when training updates
# the weights in place, an array taken with ``.detach().numpy()`` changes
# too. Take a copy (``.detach().numpy().copy()``, or ``.detach().clone()``
# first) to keep a snapshot.
snapshot = w.detach().numpy().copy()
with torch.no_grad():
    w += 0.5  # what an optimizer step does
print("values:  ", values)
print("snapshot:", snapshot)

# sphinx_gallery_start_ignore
assert values.tolist() == [1.5, 1.5, 1.5]
assert snapshot.tolist() == [1.0, 1.0, 1.0]
# sphinx_gallery_end_ignore

# %%
# Summary
# -------
# - :func:`torch.from_numpy`, :meth:`torch.Tensor.numpy` and (when no
#   conversion is needed) :func:`torch.as_tensor` share memory: in-place
#   writes show on both sides. :func:`torch.tensor` always copies.
# - Strides carry over (NumPy counts bytes, PyTorch elements); negative
#   strides do not, so ``.copy()`` a reversed array first.
# - NumPy defaults to ``float64``, PyTorch to ``float32``, and each side
#   keeps the other's dtype: convert NumPy data with ``.float()``.
# - ``.numpy()`` needs a CPU tensor that does not require grad:
#   ``.detach().cpu().numpy()`` or ``.numpy(force=True)`` work everywhere.
#
# Next: :ref:`sphx_glr_auto_examples_gradients_plot_01_automatic_differentiation.py`
# follows what ``requires_grad`` records, and how gradients are computed
# from it.
