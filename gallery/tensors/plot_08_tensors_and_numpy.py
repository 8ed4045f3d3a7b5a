"""
Tensors and NumPy
=================

Move data between NumPy and PyTorch without surprises: know when a
:term:`tensor` and an array share memory and when they copy, which
:term:`dtype` you get, and how to convert a tensor that lives on a GPU or
takes part in automatic differentiation.
"""

# %%
# Every page starts by saying what computed it.
import matplotlib.pyplot as plt
import numpy as np
import torch

from tutorial_utils.environment import environment_summary
from tutorial_utils.grids import draw_tensors
from tutorial_utils.views import draw_views

print(environment_summary())

# %%
# ``from_numpy`` and ``.numpy()`` share memory
# --------------------------------------------
# :func:`torch.from_numpy` (first met in
# :ref:`sphx_glr_auto_examples_tensors_plot_01_creating_tensors.py`) wraps a
# NumPy array's memory in a tensor, and :meth:`torch.Tensor.numpy` wraps a CPU
# tensor's memory (its :term:`storage`) in an array; the sections below show
# the tensors it refuses. Neither copies: there is one buffer with two
# names. :func:`numpy.shares_memory` checks it, and so does comparing the
# address of the first element (:meth:`~torch.Tensor.data_ptr` against the
# array's ``ctypes.data``).
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

# %%
# In the picture the cell written through NumPy is orange and the one
# written through PyTorch green; both show in both, because both names read
# the same six numbers.
#
# .. detail:: The left panel
#
#    The drawing helper draws tensors, so the left panel wraps the array once
#    more with ``from_numpy``: one more name for the same buffer.
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
shared = np.shares_memory(tensor.numpy(), array)
print("after tensor = tensor + 1:  ", array[0], "  shared:", shared)

# %%
# .. check:: in-place writes reach ``back`` too, the third name; ``tensor + 1`` leaves the array behind
assert back[0, 1] == 11  # back, the third name, saw the writes too
assert tensor[0].tolist() == [2, 12, 4]

# %%
# Strides: bytes in NumPy, elements in PyTorch
# --------------------------------------------
# A NumPy array has :term:`strides <stride>` too, counted in bytes where
# PyTorch counts elements. ``from_numpy`` converts them, so a transposed
# array becomes a transposed, non-:term:`contiguous` tensor over the same
# buffer, no copy made:
tensor = torch.from_numpy(array)
flipped = torch.from_numpy(array.T)
print("array.strides (bytes):      ", array.strides)
print("tensor.stride() (elements): ", tensor.stride())
print("array.T.strides (bytes):    ", array.T.strides)
print("flipped.stride() (elements):", flipped.stride())
print("flipped reads the array's memory:", flipped.data_ptr() == array.ctypes.data)
print("flipped is contiguous:", flipped.is_contiguous())

# %%
# .. check:: the tensors' strides are the array's byte strides over its item size
itemsize = array.itemsize
assert tuple(s // itemsize for s in array.strides) == tensor.stride()
assert tuple(s // itemsize for s in array.T.strides) == flipped.stride()

# %%
# Drawn as :term:`views <view>` of their storage (see
# :ref:`sphx_glr_auto_examples_tensors_plot_07_views_and_strides.py`), both
# read the array's buffer, in two orders:
draw_views(
    [tensor, flipped],
    ["tensor = torch.from_numpy(array)", "flipped = torch.from_numpy(array.T)"],
    fmt="{:g}",
)
plt.show()

# %%
# Some NumPy strides have no PyTorch counterpart: for example a negative
# one, as in a reversed array. ``from_numpy`` refuses them with a
# :class:`ValueError`, and so do :func:`torch.tensor` and
# :func:`torch.as_tensor`. The message says what to do: copy the array
# first, which lays it out anew, with positive strides of whole elements.
#
# .. detail:: Structured arrays
#
#    A stride that is not a whole number of elements has no counterpart
#    either, as in one field of a structured array (an array of records whose
#    fields have their own dtypes).
try:
    torch.from_numpy(array[:, ::-1])
except ValueError as error:
    print(error)
else:
    raise AssertionError("torch.from_numpy(array[:, ::-1]) did not raise")
print(torch.from_numpy(array[:, ::-1].copy()))

# %%
# .. check:: all three refuse negative and part-element strides; ``copy()`` fixes both
field = np.zeros(3, dtype=[("a", np.int32), ("b", np.float64)])["b"]
assert field.strides[0] % field.itemsize != 0
for strided in (array[:, ::-1], field):
    for convert in (torch.from_numpy, torch.tensor, torch.as_tensor):
        try:
            convert(strided)
            raise AssertionError(f"{convert.__name__} took strides {strided.strides}")
        except ValueError:
            pass
    copied = strided.copy()
    assert all(s > 0 and s % copied.itemsize == 0 for s in copied.strides)
    assert torch.equal(torch.from_numpy(copied), torch.tensor(strided.tolist()))

# %%
# ``torch.tensor`` copies; ``torch.as_tensor`` shares when it can
# ---------------------------------------------------------------
# :func:`torch.tensor` always copies. :func:`torch.as_tensor` shares the
# array's memory when the tensor can use it as it is (same dtype, on the
# CPU) and copies when it cannot, here to convert to ``float32``:
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

# %%
# .. check:: for four dtypes, ``tensor`` copies, ``as_tensor`` shares unless it converts
for numpy_dtype in (np.float32, np.float64, np.int64, np.bool_):
    data = np.zeros(3, dtype=numpy_dtype)
    assert not np.shares_memory(torch.tensor(data).numpy(), data)
    assert np.shares_memory(torch.as_tensor(data).numpy(), data)
    converted = torch.as_tensor(data, dtype=torch.float16)
    assert not np.shares_memory(converted.numpy(), data)

# %%
# Dtypes: NumPy's ``float64``, PyTorch's ``float32``
# --------------------------------------------------
# NumPy makes 64-bit floats by default; PyTorch makes 32-bit ones, its
# default dtype (:func:`torch.get_default_dtype`; see
# :ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py`). A tensor made
# from an array by :func:`torch.from_numpy`, :func:`torch.tensor` or
# :func:`torch.as_tensor` keeps the array's dtype (unless you pass ``dtype=``
# to the last two), and an array made from a tensor keeps the tensor's. The
# class itself, ``torch.Tensor(array)`` (capital T), is the exception: it
# makes the default dtype, whatever the array holds.
print("np.array([0.5, 1.5]):        ", np.array([0.5, 1.5]).dtype)
print("torch.tensor([0.5, 1.5]):    ", torch.tensor([0.5, 1.5]).dtype)
print("torch.from_numpy(float64):   ", torch.from_numpy(np.array([0.5, 1.5])).dtype)
print("torch.tensor(float64 array): ", torch.tensor(np.array([0.5, 1.5])).dtype)
print("torch.Tensor(float64 array): ", torch.Tensor(np.array([0.5, 1.5])).dtype)
print("torch.ones(2).numpy():       ", torch.ones(2).numpy().dtype)

# %%
# .. check:: both ways keep the dtype, for six of them; ``torch.Tensor`` gives the default
for numpy_dtype in (np.float16, np.float32, np.float64, np.int8, np.uint8, np.int64):
    data = np.zeros(2, numpy_dtype)
    for convert in (torch.from_numpy, torch.tensor, torch.as_tensor):
        assert convert(data).numpy().dtype == numpy_dtype
    assert torch.Tensor(data).dtype == torch.get_default_dtype()

# %%
# That difference is where mixing them fails: data made with NumPy meets
# ``float32`` weights, and a matrix product refuses two dtypes (:ref:`its
# atlas entry <error-matmul-dtype>` explains the message). Convert the data
# once, with :meth:`~torch.Tensor.float` (a copy) or
# ``torch.as_tensor(..., dtype=torch.float32)``:
rng = np.random.default_rng(0)
features = torch.from_numpy(rng.random((4, 3)))
weights = torch.ones(3, 2)
print("features:", features.dtype, " weights:", weights.dtype)
try:
    features @ weights
except RuntimeError as error:
    print(error)
else:
    raise AssertionError("features @ weights did not raise")
print((features.float() @ weights).dtype)

# %%
# Some dtypes have no NumPy counterpart: ``bfloat16`` (a 16-bit float with
# about ``float32``'s range) and the 8-bit float types. ``.numpy()`` refuses
# them with a :class:`TypeError`; convert to a dtype NumPy has first:
brain_floats = torch.ones(2, dtype=torch.bfloat16)
try:
    brain_floats.numpy()
except TypeError as error:
    print(error)
else:
    raise AssertionError("brain_floats.numpy() did not raise")
print(repr(brain_floats.float().numpy()))

# %%
# .. check:: ``.numpy()`` refuses bfloat16 and the float8 types; bfloat16 has float32's range
float8_types = [getattr(torch, name) for name in dir(torch) if name[:6] == "float8"]
assert len(float8_types) >= 2
for refused_dtype in (torch.bfloat16, *float8_types):
    for force in (False, True):
        try:
            torch.zeros(1).to(refused_dtype).numpy(force=force)
            raise AssertionError(f".numpy() took {refused_dtype}")
        except TypeError:
            pass
assert torch.finfo(torch.bfloat16).max > 0.99 * torch.finfo(torch.float32).max

# %%
# A tensor on a GPU must come to the CPU first
# --------------------------------------------
# NumPy arrays live in the computer's main memory (the *host* memory), and
# NumPy cannot read a GPU's memory. So ``.numpy()`` works on CPU tensors
# only: on a GPU tensor it raises a :class:`TypeError` that says to copy the
# tensor to the CPU first with :meth:`~torch.Tensor.cpu` (:ref:`its entry in
# the error atlas <error-numpy-device>` covers a tensor that also requires
# grad). That copy waits until the GPU has finished computing the
# tensor, and the array it gives is the host's own: writing to it leaves the
# GPU tensor unchanged. On a machine with a CUDA or Apple (MPS) GPU, the cell
# below shows the error and the copy.
if torch.cuda.is_available():
    gpu = torch.device("cuda")
elif torch.backends.mps.is_available():
    gpu = torch.device("mps")
else:
    gpu = None

if gpu is not None:
    on_gpu = torch.arange(3.0, device=gpu)
    message = ""
    try:
        on_gpu.numpy()
    except TypeError as error:
        message = str(error)
        print("TypeError:", message)
    else:
        raise AssertionError("on_gpu.numpy() did not raise")
    host = on_gpu.cpu().numpy()  # waits for the GPU, then copies
    host[0] = 100.0
    print("host copy:", host, " GPU tensor:", on_gpu.tolist())
else:
    print(f"No CUDA or Apple (MPS) GPU here: torch {torch.__version__} sees")
    print("neither, so the GPU branch above did not run on this machine.")

# %%
# .. check:: on a GPU, the error says to use ``.cpu()``; writing the copy leaves the GPU tensor
if gpu is not None:
    assert "Use Tensor.cpu() to copy the tensor to host memory" in message
    assert on_gpu.cpu().numpy().tolist() == [0.0, 1.0, 2.0]  # what host held
    assert host.tolist() == [100.0, 1.0, 2.0]
    assert on_gpu.device.type == gpu.type
    assert on_gpu[0].item() == 0.0

# %%
# The check is the same for every device that is not the CPU, and one such
# device exists in every build: ``meta``, whose tensors have a
# :term:`shape` and a dtype but no data. It shows the message a GPU tensor
# gets, with ``meta`` where a GPU would say ``cuda:0``:
on_meta = torch.empty(3, device="meta")
try:
    on_meta.numpy()
except TypeError as error:
    meta_error = str(error)
    print("TypeError:", meta_error)
else:
    raise AssertionError("on_meta.numpy() did not raise")

# %%
# .. check:: ``meta`` gets the message a GPU tensor gets
assert "Use Tensor.cpu() to copy the tensor to host memory first" in meta_error

# %%
# ``.cpu().numpy()`` works on the CPU and on every GPU. On a GPU ``.cpu()``
# copies; on the CPU it returns the tensor itself, so the array shares the
# tensor's memory and writes to it reach the tensor. ``.numpy(force=True)``
# does the same in one call, and also detaches (next section).
#
# .. detail:: The meta device
#
#    ``.cpu().numpy()`` does not work on ``meta``, which has no data to copy.
on_cpu = torch.arange(3.0)
as_array = on_cpu.cpu().numpy()
print("shares the CPU tensor's memory:", as_array.ctypes.data == on_cpu.data_ptr())
print(on_cpu.numpy(force=True))

# %%
# .. check:: on the CPU ``.cpu()`` is the tensor itself and ``force=True`` shares; ``meta`` refuses ``.cpu()``
assert on_cpu.cpu() is on_cpu
assert on_cpu.numpy(force=True).ctypes.data == on_cpu.data_ptr()
try:
    on_meta.cpu()
except NotImplementedError:
    pass  # meta tensors have no data to copy
else:
    raise AssertionError("on_meta.cpu() did not raise")

# %%
# A tensor that requires grad must be detached
# --------------------------------------------
# A tensor with ``requires_grad=True`` is part of the
# :term:`computational graph` that autograd, PyTorch's automatic
# differentiation, records to compute :term:`gradients <gradient>`. So is a
# result computed from it that a gradient can flow through, such as
# ``w * 2``, while recording is on (not under :class:`torch.no_grad` or
# :class:`torch.inference_mode`); a comparison such as ``w > 0`` or an index
# such as ``w.argmax()`` gives booleans or integers, which carry no gradient.
# ``.numpy()`` refuses a tensor that requires grad with a
# :class:`RuntimeError` (:ref:`its atlas entry <error-numpy-requires-grad>`):
# what NumPy did with the array would not be recorded, and the gradients
# would silently miss it.
w = torch.ones(3, requires_grad=True)
try:
    w.numpy()
except RuntimeError as error:
    print("RuntimeError:", error)
else:
    raise AssertionError("w.numpy() did not raise")
print("w * 2 requires grad:", (w * 2).requires_grad)
print("w > 0 requires grad:", (w > 0).requires_grad, (w > 0).numpy())
with torch.no_grad():
    print("w * 2 under no_grad requires grad:", (w * 2).requires_grad)

# %%
# .. check:: ``.numpy()`` refuses ``w``, ``w * 2`` and ``w.sum()``, not ``argmax`` or ``inference_mode``
for tracked in (w, w * 2, w.sum()):
    try:
        tracked.numpy()
        raise AssertionError("a tensor that requires grad became an array")
    except RuntimeError:
        pass
assert w.argmax().numpy() == 0
with torch.inference_mode():
    assert not (w * 2).requires_grad
    (w * 2).numpy()

# %%
# :meth:`~torch.Tensor.detach` returns a tensor over the same memory that
# records nothing, so ``.detach().numpy()`` copies nothing either;
# ``.numpy(force=True)`` detaches for you.
values = w.detach().numpy()
print(values, " shares w's memory:", values.ctypes.data == w.data_ptr())
print(w.numpy(force=True))

# %%
# .. check:: ``.detach().numpy()`` copies nothing: ``values`` shares ``w``'s memory
assert np.shares_memory(values, w.detach().numpy())

# %%
# Shared memory means the array follows the tensor: when an
# :term:`optimiser` updates the weights in place, an array taken with
# ``.detach().numpy()`` changes too. Take a copy
# (``.detach().numpy().copy()``, or ``.detach().clone()`` first) to keep a
# snapshot.
snapshot = w.detach().numpy().copy()
with torch.no_grad():
    w += 0.5  # an in-place update, as an optimiser step makes
print("values:  ", values)
print("snapshot:", snapshot)

# %%
# .. check:: the snapshot has memory of its own
assert not np.shares_memory(snapshot, w.detach().numpy())

# %%
# Summary
# -------
# - :func:`torch.from_numpy`, :meth:`torch.Tensor.numpy` and (when no
#   conversion is needed) :func:`torch.as_tensor` share memory: in-place
#   writes show on both sides. :func:`torch.tensor` always copies.
# - Strides carry over (NumPy counts bytes, PyTorch elements), but not
#   all: negative ones and ones that are not whole elements do not, so
#   ``.copy()`` such an array first.
# - NumPy defaults to ``float64``, PyTorch to ``float32``, and each side
#   keeps the other's dtype: convert NumPy data with ``.float()``. Dtypes
#   NumPy lacks, such as ``bfloat16``, need converting before ``.numpy()``.
# - ``.numpy()`` needs a CPU tensor that does not require grad:
#   ``.detach().cpu().numpy()`` and ``.numpy(force=True)`` work on the CPU
#   and on GPUs alike, copying from a GPU and sharing memory on the CPU.
#
# Next: :ref:`sphx_glr_auto_examples_gradients_plot_01_automatic_differentiation.py`
# follows what ``requires_grad`` records, and how gradients are computed
# from it.
#
# Exercises for this page: :ref:`exercises-tensors-08`.
