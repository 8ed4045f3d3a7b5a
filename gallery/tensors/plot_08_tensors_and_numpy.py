"""
Tensors and NumPy
=================

After this page you can move data between NumPy arrays and tensors. You will
know when the two share memory, and which :term:`dtype` you get. You will
also turn a GPU tensor, or one that requires gradients, into an array.

**Before this page:**
:ref:`sphx_glr_auto_examples_tensors_plot_01_creating_tensors.py`,
:ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py`,
:ref:`sphx_glr_auto_examples_tensors_plot_04_arithmetic_and_broadcasting.py`
and :ref:`sphx_glr_auto_examples_tensors_plot_07_views_and_strides.py`.
"""

# %%
# Every page starts by saying what computed it. The site's helper
# ``pick_device`` picks a GPU if the machine has one. NumPy is imported as
# ``np``, its usual short name.
import matplotlib.pyplot as plt
import numpy as np
import torch

from tutorial_utils.devices import pick_device
from tutorial_utils.environment import environment_summary
from tutorial_utils.grids import draw_tensors

device = pick_device()
print(environment_summary(device))

# %%
# NumPy arrays in brief
# ---------------------
# NumPy is a Python package for arrays of numbers. Its array,
# ``np.ndarray``, is much like a tensor on the CPU: a shape, a dtype and one
# block of memory. Many names match PyTorch's:
#
# - ``np.array`` makes an array from a list, as :func:`torch.tensor` does;
# - ``np.arange`` counts, and ``.reshape`` gives new sizes;
# - ``np.float32`` and ``np.float64`` are float dtypes.
#
# Indexing and writing, as in ``array[0, 1] = 10``, work as on a tensor.
array = np.arange(6, dtype=np.float32).reshape(2, 3)
print(array)
print("shape:", array.shape, " dtype:", array.dtype)

# %%
# .. check:: ``np.arange`` and ``.reshape`` give what PyTorch's give
assert isinstance(array, np.ndarray)
assert array.tolist() == torch.arange(6.0).reshape(2, 3).tolist()

# %%
# ``from_numpy`` and ``.numpy()`` share memory
# --------------------------------------------
# :func:`torch.from_numpy` makes a tensor whose :term:`storage` is the
# array's memory. :meth:`torch.Tensor.numpy` goes the other way: it makes an
# array over a CPU tensor's memory. Neither copies anything. Below, one
# block of memory has three names: ``array``, ``tensor`` and ``back``. A
# write through any of them shows in the others:
tensor = torch.from_numpy(array)
back = tensor.numpy()
array[0, 1] = 10  # written through NumPy
tensor[1, 2] = -1  # written through PyTorch
print(array)
print(tensor)

# %%
# .. check:: the tensor starts at the array's address; ``back`` shares it
assert tensor.data_ptr() == array.ctypes.data
assert np.shares_memory(back, array)

# %%
# The site's helper ``draw_tensors`` draws both names. Orange marks the
# write through NumPy, green the one through PyTorch: ``groups`` holds 1 and
# 2 there. Both writes show under both names. ``fmt="{:g}"`` prints each
# value in Python's short ``g`` format, so ``1.0`` shows as ``1``.
#
# .. detail:: The left panel
#
#    The drawing helper draws tensors, so the left panel wraps the array once
#    more with ``from_numpy``: one more name for the same memory.
written = torch.zeros(2, 3, dtype=torch.int64)
written[0, 1], written[1, 2] = 1, 2
draw_tensors(
    [torch.from_numpy(array), tensor],
    ["array (np.ndarray)", "tensor = torch.from_numpy(array)"],
    groups=[written, written],
    fmt="{:g}",
)
plt.show()

# %%
# An in-place operation writes into the shared memory, so the array sees it.
# An operation such as ``tensor + 1`` returns a new tensor in new memory.
# Giving that result the name ``tensor`` leaves the array behind:
tensor += 1
print("after tensor += 1:        ", array[0])
tensor = tensor + 1
print("after tensor = tensor + 1:", array[0])
print("the new tensor's row 0:   ", tensor[0])

# %%
# .. check:: in-place writes reach ``back``; ``tensor + 1`` has new memory
assert f"{1.0:g}" == "1"  # the figure's format, above
assert back[0, 1] == 11  # back, the third name, saw the writes too
assert tensor[0].tolist() == [2, 12, 4]
assert not np.shares_memory(tensor.numpy(), array)

# %%
# NumPy, like a Python list, takes a negative step in a slice:
# ``array[:, ::-1]`` reverses each row. ``from_numpy`` refuses that array
# with a :class:`ValueError`. Copy it first with NumPy's ``.copy()``. The
# in-depth page :ref:`sphx_glr_auto_examples_tensors_plot_58_numpy_strides.py`
# shows the error and why.
print(torch.from_numpy(array[:, ::-1].copy()))

# %%
# .. check:: ``from_numpy`` refuses the reversed rows; their copy is accepted
try:
    torch.from_numpy(array[:, ::-1])
except ValueError:
    pass
else:
    raise AssertionError("torch.from_numpy(array[:, ::-1]) did not raise")
assert torch.from_numpy(array[:, ::-1].copy()).tolist() == array[:, ::-1].tolist()

# %%
# ``torch.tensor`` copies; ``torch.as_tensor`` shares
# ---------------------------------------------------
# :func:`torch.tensor` always copies the array's values into new memory.
# :func:`torch.as_tensor` shares the array's memory, as ``from_numpy`` does.
# Asked for another dtype with ``dtype=``, it must copy.
# ``np.shares_memory`` tells whether two arrays overlap in memory:
source = np.array([1.0, 2.0, 3.0])
made = {
    "tensor(source)": torch.tensor(source),
    "as_tensor(source)": torch.as_tensor(source),
    "as_tensor(source, float32)": torch.as_tensor(source, dtype=torch.float32),
    "from_numpy(source)": torch.from_numpy(source),
}
for name, made_tensor in made.items():
    shares = np.shares_memory(made_tensor.numpy(), source)
    print(f"{name:27} {made_tensor.dtype}  shares memory: {shares}")

# %%
# .. check:: for four dtypes, ``tensor`` copies; ``as_tensor`` copies to convert
for numpy_dtype in (np.float32, np.float64, np.int64, np.bool_):
    data = np.zeros(3, dtype=numpy_dtype)
    assert not np.shares_memory(torch.tensor(data).numpy(), data)
    assert np.shares_memory(torch.as_tensor(data).numpy(), data)
    converted = torch.as_tensor(data, dtype=torch.float16)
    assert not np.shares_memory(converted.numpy(), data)

# %%
# Dtypes: NumPy's ``float64``, PyTorch's ``float32``
# --------------------------------------------------
# From Python floats, NumPy makes ``float64`` arrays. PyTorch makes
# ``float32`` tensors, its default dtype. Without ``dtype=``, a tensor made
# from an array keeps the array's dtype. An array made with ``.numpy()``
# keeps the tensor's dtype.
#
# .. detail:: The class ``torch.Tensor``
#
#    Called on an array, the class itself, ``torch.Tensor`` with a capital T,
#    is the exception. It makes the default dtype, whatever the array holds.
print("np.array([0.5, 1.5]):     ", np.array([0.5, 1.5]).dtype)
print("torch.tensor([0.5, 1.5]): ", torch.tensor([0.5, 1.5]).dtype)
print("torch.from_numpy(float64):", torch.from_numpy(np.array([0.5, 1.5])).dtype)
print("torch.ones(2).numpy():    ", torch.ones(2).numpy().dtype)

# %%
# .. check:: both ways keep the dtype, for six; ``torch.Tensor`` gives the default
for numpy_dtype in (np.float16, np.float32, np.float64, np.int8, np.uint8, np.int64):
    data = np.zeros(2, numpy_dtype)
    for convert in (torch.from_numpy, torch.tensor, torch.as_tensor):
        assert convert(data).numpy().dtype == numpy_dtype
    assert torch.Tensor(data).dtype == torch.get_default_dtype()

# %%
# Weights, the numbers a model learns, are ``float32``; the training section teaches
# them. With ``float64`` NumPy data, ``*`` and ``+`` quietly give ``float64``, but
# ``@`` refuses the two dtypes. :ref:`Its atlas entry <error-matmul-dtype>` explains
# the message. :meth:`~torch.Tensor.float` converts the data to a ``float32`` copy.
#
# ``np.random.default_rng(0)`` makes a random generator seeded with 0. Its
# ``.random`` draws floats between 0 and 1 in a given shape.
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
# .. check:: ``.random`` is in [0, 1); ``*``, ``+`` give float64; ``.float()`` copies
assert ((features >= 0) & (features < 1)).all()
assert (features[:, :2] * weights[0]).dtype == torch.float64
assert (features[:, :2] + weights[0]).dtype == torch.float64
assert features.float().dtype == torch.float32
assert features.float().data_ptr() != features.data_ptr()

# %%
# Some PyTorch dtypes have no NumPy counterpart. Two examples are
# ``bfloat16``, a 16-bit float with about ``float32``'s range, and the 8-bit
# float types. ``.numpy()`` refuses them with a :class:`TypeError`. Convert
# to a dtype NumPy has first. The ``repr`` of an array shows its dtype:
brain_floats = torch.ones(2, dtype=torch.bfloat16)
try:
    brain_floats.numpy()
except TypeError as error:
    print(error)
else:
    raise AssertionError("brain_floats.numpy() did not raise")
print(repr(brain_floats.float().numpy()))

# %%
# .. check:: ``.numpy()`` refuses bfloat16 and float8; bfloat16 has float32's range
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
assert "dtype=float32" in repr(brain_floats.float().numpy())

# %%
# A tensor on a GPU must come to the CPU first
# --------------------------------------------
# NumPy arrays live in the computer's main memory, the *host* memory. NumPy
# cannot read a GPU's memory, so ``.numpy()`` refuses a GPU tensor with a
# :class:`TypeError`. :ref:`Its atlas entry <error-numpy-device>` explains
# the message. It says to copy the tensor to the CPU first, with
# :meth:`~torch.Tensor.cpu`.
#
# Every PyTorch build has the :term:`meta device`, whose tensors have a
# :term:`shape` and a dtype but no data. ``.numpy()`` refuses them with the
# same message, so any machine can show it:
on_meta = torch.empty(3, device="meta")
try:
    on_meta.numpy()
except TypeError as error:
    meta_error = str(error)
    print("TypeError:", meta_error)
else:
    raise AssertionError("on_meta.numpy() did not raise")

# %%
# .. check:: a GPU tensor gets the message of ``meta``, naming its device
assert "Use Tensor.cpu() to copy the tensor to host memory first" in meta_error
if device.type != "cpu":
    gpu_tensor, gpu_error = torch.arange(3.0, device=device), "no error"
    try:
        gpu_tensor.numpy()
    except TypeError as error:
        gpu_error = str(error)
    else:
        raise AssertionError("a GPU tensor became a NumPy array")
    assert gpu_error == meta_error.replace("meta", str(gpu_tensor.device))

# %%
# On a GPU, ``.cpu()`` copies the tensor to host memory. A write to the
# array then leaves the GPU tensor unchanged. On the CPU, ``.cpu()`` returns
# the tensor itself, so the array shares its memory. For a real-valued CPU tensor,
# ``.numpy(force=True)`` shares memory too. This cell runs on this machine's device:
#
# .. detail:: The meta device, and a copy from ``force=True``
#
#    ``.cpu()`` refuses a ``meta`` tensor. ``.numpy(force=True)`` copies a
#    complex tensor marked by ``.conj()``.
on_device = torch.arange(3.0, device=device)
as_array = on_device.cpu().numpy()
as_array[0] = 7.0
print(f"on {on_device.device}, after the write:", on_device.tolist())
print(on_device.numpy(force=True))

# %%
# .. check:: ``.cpu()`` copies from a GPU; on the CPU it is the tensor itself
if device.type == "cpu":
    assert on_device.cpu() is on_device
    assert on_device.numpy(force=True).ctypes.data == on_device.data_ptr()
else:
    assert on_device.device.type == device.type
    assert on_device.tolist() == [0.0, 1.0, 2.0]
    assert as_array.tolist() == [7.0, 1.0, 2.0]
try:
    on_meta.cpu()
except NotImplementedError:
    pass  # meta tensors have no data to copy
else:
    raise AssertionError("on_meta.cpu() did not raise")
conjugated = torch.tensor([1 + 1j]).conj()
assert conjugated.numpy(force=True).ctypes.data != conjugated.data_ptr()

# %%
# A tensor that requires grad must be detached
# --------------------------------------------
# A tensor made with ``requires_grad=True`` asks autograd, PyTorch's
# automatic differentiation, to record what is computed from it. A
# floating-point result such as ``w * 2`` requires grad too, as its
# ``.requires_grad`` attribute shows. While autograd records, ``.numpy()`` refuses
# these tensors with a :class:`RuntimeError`. Autograd cannot record what NumPy does.
# The :term:`gradients <gradient>` would miss it. :ref:`Its atlas entry
# <error-numpy-requires-grad>` shows the fix.
#
# .. detail:: Results that carry no gradient
#
#    ``w > 0`` gives booleans and ``w.argmax()`` an integer index. Neither
#    carries a gradient, so ``.numpy()`` takes them. Under
#    :class:`torch.no_grad` or :class:`torch.inference_mode` nothing is
#    recorded: ``w * 2`` does not require grad, and ``w.numpy()`` works.
w = torch.ones(3, requires_grad=True)
try:
    w.numpy()
except RuntimeError as error:
    print("RuntimeError:", error)
else:
    raise AssertionError("w.numpy() did not raise")
print("w * 2 requires grad:", (w * 2).requires_grad)

# %%
# .. check:: ``.numpy()`` refuses ``w``, ``w * 2``, ``w.sum()``; not ``w > 0``
for tracked in (w, w * 2, w.sum()):
    try:
        tracked.numpy()
        raise AssertionError("a tensor that requires grad became an array")
    except RuntimeError:
        pass
assert w.argmax().numpy() == 0
assert not (w > 0).requires_grad
assert (w > 0).numpy().all()
with torch.no_grad():
    assert not (w * 2).requires_grad
    assert w.numpy().ctypes.data == w.data_ptr()
with torch.inference_mode():
    assert not (w * 2).requires_grad
    (w * 2).numpy()

# %%
# :meth:`~torch.Tensor.detach` returns a tensor over the same memory that
# records nothing. So ``w.detach().numpy()`` copies nothing either.
# ``.numpy(force=True)`` detaches for you:
values = w.detach().numpy()
print(values)
print(w.numpy(force=True))

# %%
# .. check:: ``.detach().numpy()`` copies nothing: ``values`` is ``w``'s memory
assert np.shares_memory(values, w.detach().numpy())
assert values.ctypes.data == w.data_ptr()

# %%
# Shared memory means the array follows the tensor. An :term:`optimiser`
# updates the weights in place, so ``values`` changes with them. To keep a
# snapshot, copy the array with ``.copy()``. Below, ``torch.no_grad()``
# turns recording off, which lets an in-place update write into ``w``:
snapshot = w.detach().numpy().copy()
with torch.no_grad():
    w += 0.5  # an in-place update, as an optimiser step makes
print("values:  ", values)
print("snapshot:", snapshot)

# %%
# .. check:: snapshot owns its memory; SGD, Adam work in place; ``+=`` needs no_grad
assert not np.shares_memory(snapshot, w.detach().numpy())
for make in (torch.optim.SGD, torch.optim.Adam):
    weight = torch.ones(2, requires_grad=True)
    seen, weight.grad = weight.detach().numpy(), torch.ones(2)
    make([weight], lr=0.1).step()
    assert (seen != 1).all()
try:
    w += 0.5
    raise AssertionError("an in-place write to w ran outside no_grad")
except RuntimeError:
    pass

# %%
# Summary
# -------
# - :func:`torch.from_numpy`, ``.numpy()`` and :func:`torch.as_tensor` share memory;
#   ``as_tensor`` copies to change the dtype. :func:`torch.tensor` always copies.
# - Copy a reversed array with ``.copy()`` before ``from_numpy``.
# - NumPy makes ``float64`` from Python floats, PyTorch ``float32``. Convert
#   NumPy data with ``.float()``.
# - ``.numpy()`` needs a CPU tensor. While autograd records, it must not require
#   grad. Otherwise use ``.detach().cpu().numpy()`` or ``.numpy(force=True)``.
#
# Next: :ref:`sphx_glr_auto_examples_gradients_plot_01_automatic_differentiation.py`
# follows what ``requires_grad`` records. In depth,
# :ref:`sphx_glr_auto_examples_tensors_plot_58_numpy_strides.py` shows how
# an array's strides carry over to a tensor.
#
# Exercises for this page: :ref:`exercises-tensors-08`.
