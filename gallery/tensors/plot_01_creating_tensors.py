"""
Creating tensors
================

Make tensors of any rank from Python lists, NumPy arrays and PyTorch's
factory functions, get the same random numbers on every run, and put a
tensor on a GPU from the start. After this page you can build every tensor
the later pages use.
"""

# %%
# Every page starts by saying what computed it. On your machine the versions,
# the device and the thread count may differ, and so may some timings; the
# values printed on this page will not.
import matplotlib.pyplot as plt
import numpy as np
import torch

from tutorial_utils.devices import pick_device
from tutorial_utils.environment import environment_summary
from tutorial_utils.plotting import draw_tensors

device = pick_device()
print(environment_summary(device))

# %%
# From Python lists: rank 0 to 3
# ------------------------------
# :func:`torch.tensor` turns a number or a nested list into a tensor. The
# nesting depth becomes the tensor's *rank* (:meth:`torch.Tensor.dim`): a
# scalar has rank 0, a vector rank 1, a matrix rank 2, and a stack of
# matrices rank 3. The :attr:`~torch.Tensor.shape` lists the length of each
# dimension, outermost first.
scalar = torch.tensor(7)
vector = torch.tensor([1, 2, 3])
matrix = torch.tensor([[1, 2, 3], [4, 5, 6]])
stack = torch.tensor([[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]])

for name, t in [
    ("scalar", scalar),
    ("vector", vector),
    ("matrix", matrix),
    ("stack", stack),
]:
    print(f"{name:7} rank {t.dim()}  shape {tuple(t.shape)}")

# sphinx_gallery_start_ignore
assert [t.dim() for t in (scalar, vector, matrix, stack)] == [0, 1, 2, 3]
assert stack.shape == (2, 2, 3)
# sphinx_gallery_end_ignore

# %%
# Drawn as cells, the rank is the number of indices you need to reach one
# value: none for the scalar, one for the vector, a row and a column for the
# matrix, and for the stack first which matrix (``[0]`` or ``[1]``), then a
# row and a column.
draw_tensors(
    [scalar, vector, matrix, stack],
    [
        "rank 0: tensor(7)",
        "rank 1: shape (3,)",
        "rank 2: shape (2, 3)",
        "rank 3: shape (2, 2, 3)",
    ],
    groups=[None, None, None, torch.arange(2).reshape(2, 1, 1).expand(2, 2, 3)],
)
plt.show()

# %%
# The values decide the :attr:`~torch.Tensor.dtype`: whole numbers become
# 64-bit integers, any decimal point makes the whole tensor 32-bit floats,
# and ``True``/``False`` make booleans. The ``dtype=`` argument overrides it.
print(torch.tensor([1, 2]).dtype)
print(torch.tensor([1, 2.5]).dtype)
print(torch.tensor([True, False]).dtype)
print(torch.tensor([1, 2], dtype=torch.float64))

# sphinx_gallery_start_ignore
assert torch.tensor([1, 2]).dtype == torch.int64
assert torch.tensor([1, 2.5]).dtype == torch.float32
assert torch.tensor([True, False]).dtype == torch.bool
# sphinx_gallery_end_ignore

# %%
# From NumPy arrays: copy or share
# --------------------------------
# :func:`torch.tensor` and :func:`torch.from_numpy` both accept a NumPy array
# and keep its dtype, which is why ``t_b`` below says ``int32``.
a = [1, 2, 3]
b = np.array([4, 5, 6], dtype=np.int32)
t_a = torch.tensor(a)
t_b = torch.from_numpy(b)
print(t_a)
print(t_b)

# sphinx_gallery_start_ignore
assert t_a.dtype == torch.int64
assert t_b.dtype == torch.int32
# sphinx_gallery_end_ignore

# %%
# They differ in what happens next. :func:`torch.tensor` *copies* the values
# into new memory; :func:`torch.from_numpy` *shares* the array's memory, so a
# write through either one shows in both.
numpy_array = np.array([1, 2])
copied = torch.tensor(numpy_array)
shared = torch.from_numpy(numpy_array)

numpy_array[0] = 10
print("array: ", numpy_array)
print("copied:", copied)
print("shared:", shared)

shared[1] = 20
print("array after writing through the tensor:", numpy_array)

# sphinx_gallery_start_ignore
assert copied.tolist() == [1, 2]
assert shared.tolist() == [10, 20]
assert numpy_array.tolist() == [10, 20]
assert shared.data_ptr() == numpy_array.ctypes.data
assert copied.data_ptr() != numpy_array.ctypes.data
# sphinx_gallery_end_ignore

# %%
# Sharing is what you want for large arrays you only read; copying is what
# you want when either side will be changed independently. The page on
# tensors and NumPy goes further: dtypes, gradients and GPUs.
#
# Filled with a constant or a pattern
# -----------------------------------
# The factory functions take the shape as separate numbers or as one tuple.
# :func:`torch.zeros`, :func:`torch.ones` and :func:`torch.full` fill it with
# one value; :func:`torch.eye` makes an identity matrix.
print(torch.ones((2, 3)))
print(torch.zeros(2, 3, dtype=torch.int16))
print(torch.full((2, 2), 3.5))
print(torch.eye(3))

# sphinx_gallery_start_ignore
assert torch.equal(torch.ones((2, 3)), torch.ones(2, 3))
assert torch.equal(torch.eye(3) @ torch.full((3, 2), 2.0), torch.full((3, 2), 2.0))
# sphinx_gallery_end_ignore

# %%
# Three functions make evenly spaced values, and they are easy to mix up.
# :func:`torch.arange` works like Python's :class:`range`: a start, an
# *excluded* end and a step. :func:`torch.linspace` takes a number of points
# and includes both ends. :func:`torch.logspace` spaces the points evenly on
# a log scale: from 10² to 10¹⁰ here.
spaced = {
    "arange(2, 10, 4)": torch.arange(2, 10, 4),
    "linspace(2, 10, 4)": torch.linspace(2, 10, 4),
    "logspace(2, 10, 4)": torch.logspace(2, 10, 4),
}
for name, t in spaced.items():
    print(f"{name:20} {t}")

# sphinx_gallery_start_ignore
assert spaced["arange(2, 10, 4)"].tolist() == list(range(2, 10, 4))
assert spaced["linspace(2, 10, 4)"][-1] == 10
torch.testing.assert_close(
    spaced["logspace(2, 10, 4)"].log10(), spaced["linspace(2, 10, 4)"]
)
# sphinx_gallery_end_ignore

# %%
# On a number line the difference is plain: ``arange`` stops before 10,
# ``linspace`` lands on it, and ``logspace`` is ``linspace`` in the exponent
# (the hidden check in this page's source compares the two).
fig, axes = plt.subplots(3, 1, figsize=(8, 3.6), layout="constrained")
for ax, (name, t) in zip(axes, spaced.items(), strict=True):
    ax.plot(t.numpy(), np.zeros(len(t)), "o", markersize=9, color="#0072B2")
    ax.set_title(f"torch.{name}", loc="left", fontsize=10)
    ax.set_yticks([])
    ax.spines[["left", "right", "top"]].set_visible(False)
axes[0].set_xlim(0, 11)
axes[1].set_xlim(0, 11)
axes[2].set(xscale="log", xlim=(30, 3e10), xlabel="value (log scale)")
plt.show()

# %%
# Random values, reproducibly
# ---------------------------
# :func:`torch.rand` draws uniformly from [0, 1), :func:`torch.randn`
# from the standard normal distribution (mean 0, standard deviation 1),
# :func:`torch.randint` whole numbers from a range, and
# :func:`torch.randperm` a shuffled ``0, 1, ..., n-1``.
# :func:`torch.manual_seed` fixes where the draws start.
torch.manual_seed(0)
uniform = torch.rand(10_000)
normal = torch.randn(10_000)
print(f"rand:  min {uniform.min():.4f}  max {uniform.max():.4f}")
print(f"randn: mean {normal.mean():+.4f}  std {normal.std():.4f}")
print("randint(0, 10, (5,)):", torch.randint(0, 10, (5,)))
print("randperm(6):         ", torch.randperm(6))

# sphinx_gallery_start_ignore
assert uniform.min() >= 0
assert uniform.max() < 1
assert abs(normal.mean()) < 0.05
assert abs(normal.std() - 1) < 0.05
assert torch.equal(torch.randperm(6).sort().values, torch.arange(6))
# sphinx_gallery_end_ignore

# %%
# The histograms show the two shapes: flat between 0 and 1, and the bell
# curve centred on 0, with the standard normal density drawn over it.
fig, (ax_u, ax_n) = plt.subplots(1, 2, figsize=(9, 3), layout="constrained")
ax_u.hist(uniform.numpy(), bins=40, density=True, color="#56B4E9")
ax_u.set(title="torch.rand(10_000)", xlabel="value", ylabel="density")
ax_n.hist(normal.numpy(), bins=40, density=True, color="#E69F00")
grid = torch.linspace(-4, 4, 200)
ax_n.plot(
    grid,
    torch.exp(-(grid**2) / 2) / (2 * torch.pi) ** 0.5,
    color="black",
    label="standard normal density",
)
ax_n.set(title="torch.randn(10_000)", xlabel="value")
ax_n.legend(loc="upper right", fontsize=8)
plt.show()

# %%
# The same seed gives the same numbers, on every run and every machine's CPU.
# With seed 1, these six uniform numbers are the ones printed in the notes
# this site grew from, computed here again:
torch.manual_seed(1)
first = torch.rand(6)
torch.manual_seed(1)
again = torch.rand(6)
print(first)
print("same numbers after re-seeding:", torch.equal(first, again))

# sphinx_gallery_start_ignore
assert torch.equal(first, again)
book = torch.tensor([0.7576, 0.2793, 0.4031, 0.7347, 0.0293, 0.7999])
torch.testing.assert_close(first, book, atol=5e-5, rtol=0)
# sphinx_gallery_end_ignore

# %%
# :func:`torch.manual_seed` resets the one global generator that every
# function above draws from. A :class:`torch.Generator` is a stream of your
# own: code that draws from it does not shift anyone else's numbers.
generator = torch.Generator().manual_seed(1)
print(torch.rand(6, generator=generator))

# sphinx_gallery_start_ignore
assert torch.equal(torch.rand(6, generator=torch.Generator().manual_seed(1)), first)
torch.manual_seed(5)
expected = torch.rand(3)
torch.manual_seed(5)
torch.rand(100, generator=generator)
assert torch.equal(torch.rand(3), expected), "a Generator shifted the global stream"
# sphinx_gallery_end_ignore

# %%
# Uninitialised, and shaped like another tensor
# ---------------------------------------------
# :func:`torch.empty` only reserves memory: its values are whatever was there
# before, so never read them before writing. That is why this page prints
# only its shape. It saves the time of filling a tensor you are about to
# overwrite anyway.
buffer = torch.empty(2, 3)
print(buffer.shape, buffer.dtype)
buffer.fill_(1.5)
print(buffer)

# %%
# The ``*_like`` functions (:func:`torch.zeros_like`, :func:`torch.ones_like`,
# :func:`torch.full_like`, :func:`torch.rand_like`, :func:`torch.randn_like`,
# :func:`torch.empty_like`) take the shape, dtype and device of a tensor you
# already have; any of them can be overridden.
template = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=torch.float64)
like = {
    "zeros_like": torch.zeros_like(template),
    "ones_like": torch.ones_like(template),
    "full_like": torch.full_like(template, 7),
    "rand_like": torch.rand_like(template),
    "ones_like int8": torch.ones_like(template, dtype=torch.int8),
}
for name, t in like.items():
    print(f"{name:15} shape {tuple(t.shape)}  dtype {t.dtype}")

# sphinx_gallery_start_ignore
for name, t in like.items():
    assert t.shape == template.shape
    assert t.device == template.device
    assert t.dtype == (torch.int8 if name.endswith("int8") else torch.float64)
# sphinx_gallery_end_ignore

# %%
# Directly on a device
# --------------------
# Every factory function takes ``device=``. Creating a tensor where it will
# be used avoids making it on the CPU and copying it over with
# :meth:`~torch.Tensor.to`. ``device`` is the best device on the machine that
# runs this page (see the first line of output); this site was built on one
# without a GPU, so it says ``cpu`` here.
on_device = torch.zeros(2, 3, device=device)
moved = torch.zeros(2, 3).to(device)
print(on_device.device, moved.device, torch.equal(on_device, moved))

# sphinx_gallery_start_ignore
assert on_device.device == moved.device == device
# sphinx_gallery_end_ignore

# %%
# Asking for a device that the machine does not have fails at once.
# :func:`~tutorial_utils.devices.pick_device` says which devices there are:
for wanted in ("cuda", "mps"):
    try:
        print(f"{wanted}: available as {pick_device(wanted)}")
    except ValueError as error:
        print(f"{wanted}: {error}")

# %%
# Summary
# -------
# - :func:`torch.tensor` copies lists and arrays; the nesting depth is the
#   rank, and the values choose the dtype unless ``dtype=`` does.
# - :func:`torch.from_numpy` shares the array's memory: writes show both ways.
# - ``zeros``, ``ones``, ``full``, ``eye``, ``arange``, ``linspace``,
#   ``logspace``, ``rand``, ``randn``, ``randint``, ``randperm`` and ``empty``
#   make tensors from a shape; the ``*_like`` versions copy a tensor's shape,
#   dtype and device.
# - :func:`torch.manual_seed` makes random numbers repeatable; a
#   :class:`torch.Generator` keeps a stream of your own.
# - ``device=`` creates a tensor where it will be used.
#
# The helpers this page imports are documented in :doc:`/api`.
