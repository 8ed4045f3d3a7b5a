"""
Creating tensors
================

Make :term:`tensors <tensor>` from Python lists, from NumPy arrays and with
PyTorch's own functions. Draw random numbers that repeat from run to run,
and make a tensor directly on a GPU.

**Before this page:** nothing but Python, and, if you like,
:doc:`/introduction`. This is the first lesson.
"""

# %%
# Every page starts by printing what computed it. :mod:`torch` is
# PyTorch. NumPy is another array library, and Matplotlib draws figures.
# ``tutorial_utils`` is this site's own package of helpers: ``pick_device()`` returns
# a GPU if there is one, else the CPU. ``environment_summary`` prints the versions in
# use. ``plt.show()`` shows a figure.
#
# A closed "Check" box under a cell holds code that tests the text's claims when the
# site is built.
import math

import matplotlib.pyplot as plt
import numpy as np
import torch

from tutorial_utils.devices import pick_device
from tutorial_utils.environment import environment_summary
from tutorial_utils.grids import draw_tensors

device = pick_device()
print(environment_summary(device))

# %%
# From Python lists: rank 0 to 3
# ------------------------------
# A tensor is a grid of values of one type. :func:`torch.tensor` makes one from a
# number or a nested list. The nesting depth is its :term:`rank`, which
# :meth:`~torch.Tensor.dim` returns. A number, a *scalar*, has rank 0. A flat list, a
# *vector*, has rank 1, and a list of lists, a *matrix*, rank 2. A list of matrices,
# here a *stack*, has rank 3.
#
# The :term:`shape`, :attr:`~torch.Tensor.shape`, gives the length of each
# :term:`dimension`, outermost first. It is a ``torch.Size``, a kind of tuple, and
# ``tuple()`` only makes it print plainly.
scalar = torch.tensor(7)
vector = torch.tensor([1, 2, 3])
matrix = torch.tensor([[1, 2, 3], [4, 5, 6]])
stack = torch.tensor([[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]])
tensors = [scalar, vector, matrix, stack]
for name, t in zip(["scalar", "vector", "matrix", "stack"], tensors, strict=True):
    print(f"{name:7} rank {t.dim()}  shape {tuple(t.shape)}")

# %%
# .. check:: the shape is a tuple with one length per dimension
assert all(isinstance(t.shape, tuple) and len(t.shape) == t.dim() for t in tensors)

# %%
# The rank is the number of indices that reach one value. The stack needs three: which
# matrix, then a row and a column. The site's helper ``draw_tensors`` draws tensors as
# cells, coloured by ``groups=``: here by matrix.
which_matrix = torch.tensor([[[0, 0, 0], [0, 0, 0]], [[1, 1, 1], [1, 1, 1]]])
draw_tensors(
    tensors,
    [f"rank {t.dim()}: shape {tuple(t.shape)}" for t in tensors],
    groups=[None, None, None, which_matrix],
)
plt.show()

# %%
# .. check:: the rank is the number of indices that reach one value
assert all(t[(0,) * t.dim()].dim() == 0 for t in tensors)

# %%
# The values decide the :term:`dtype`, the type of every element, shown by
# :attr:`~torch.Tensor.dtype`. Python ints make ``int64``, 64-bit integers. One Python
# float makes the whole tensor ``float32``, PyTorch's default. Booleans make ``bool``.
# The ``dtype=`` argument overrides the choice: here ``torch.float64``, 64-bit floats.
for values in ([1, 2], [1, 2.5], [True, False]):
    print(torch.tensor(values).dtype)
print(torch.tensor([1, 2], dtype=torch.float64))

# %%
# .. check:: a single Python float makes the whole tensor the default, float32
assert torch.tensor([1, 2.5]).dtype == torch.get_default_dtype() == torch.float32

# %%
# From NumPy arrays: copy or share
# --------------------------------
# A NumPy array is also a grid of values of one type. ``np.array`` makes one from a
# list, here of dtype ``int32``. :func:`torch.tensor` and :func:`torch.from_numpy`
# both keep the array's ``int32``.
#
# They differ in memory. :func:`torch.tensor` *copies* the values, while
# :func:`torch.from_numpy` uses the array's memory. So a write through the array or
# the ``from_numpy`` tensor shows in both.
array = np.array([4, 5, 6], dtype=np.int32)
print("torch.tensor(array):", torch.tensor(array))
print("from_numpy(array):  ", torch.from_numpy(array))
numpy_array = np.array([1, 2])
copied = torch.tensor(numpy_array)
shared = torch.from_numpy(numpy_array)
numpy_array[0] = 10
print("array:", numpy_array, " copied:", copied, " shared:", shared)
shared[1] = 20
print("array after writing through the tensor:", numpy_array)

# %%
# .. check:: both keep the dtype; the shared tensor uses the array's memory, the copy not
assert torch.tensor(array).dtype == torch.from_numpy(array).dtype == torch.int32
assert shared.data_ptr() == numpy_array.ctypes.data  # one buffer, two names
assert copied.data_ptr() != numpy_array.ctypes.data

# %%
# Filled with a constant or a pattern
# -----------------------------------
# *Factory functions* make a tensor from a shape or a range, not from data.
# :func:`torch.zeros` and :func:`torch.ones` fill it with 0 or 1. They take the shape
# as separate numbers or as a tuple. :func:`torch.full` fills it with any value, and
# takes the shape only as a tuple or list. :func:`torch.eye` makes an identity matrix:
# ones on the diagonal, zeros elsewhere. ``torch.int16`` is a 16-bit integer dtype.
print(torch.ones((2, 3)))
print(torch.zeros(2, 3, dtype=torch.int16))
print(torch.full((2, 2), 3.5))
print(torch.eye(3))

# %%
# .. check:: ``ones`` takes either form, ``full`` only a tuple; ``eye`` is identity
assert torch.equal(torch.ones((2, 3)), torch.ones(2, 3))
assert torch.equal(torch.zeros((2, 3)), torch.zeros(2, 3))
assert torch.equal(torch.full([2, 2], 3.5), torch.full((2, 2), 3.5))
try:
    torch.full(2, 2, 3.5)
    raise AssertionError("torch.full took the shape as separate numbers")
except TypeError:
    pass
assert torch.equal(torch.eye(3) @ torch.full((3, 2), 2.0), torch.full((3, 2), 2.0))
assert torch.eye(2, 3).shape == (2, 3)  # rows, and optionally columns

# %%
# With whole numbers, :func:`torch.arange` works like Python's :class:`range`: a
# start, an *excluded* end and a step. :func:`torch.linspace` takes a number of
# points. With two or more, it includes both ends. :func:`torch.logspace` is
# ``linspace`` in the exponent, 10² to 10¹⁰ here.
spaced = {
    "arange(2, 10, 4)": torch.arange(2, 10, 4),
    "linspace(2, 10, 4)": torch.linspace(2, 10, 4),
    "logspace(2, 10, 4)": torch.logspace(2, 10, 4),
}
for name, t in spaced.items():
    print(f"{name:20} {t}")

# %%
# .. check:: ``arange`` is ``range``; ``linspace`` has both ends; ``logspace`` as said
for args in [(2, 10, 4), (10, 2, -3), (3, 3, 1)]:
    assert torch.arange(*args).tolist() == list(range(*args))
assert all(torch.linspace(2, 10, n)[[0, -1]].tolist() == [2, 10] for n in (2, 3, 7))
exponents = spaced["logspace(2, 10, 4)"].log10()
torch.testing.assert_close(exponents, spaced["linspace(2, 10, 4)"])

# %%
# On a number line, ``arange`` stops before 10, and ``linspace`` lands on it.
# Matplotlib draws each tensor's values, given as a list: ``plt.subplots`` makes
# the panels, and ``plot``, ``set_title`` and ``set`` draw and label them. The last
# has a log scale.
fig, axes = plt.subplots(3, 1, figsize=(8, 3.6), layout="constrained")
for ax, (name, t) in zip(axes, spaced.items(), strict=True):
    ax.plot(t.tolist(), [0] * len(t), "o", markersize=9, color="#0072B2")
    ax.set_title(f"torch.{name}", loc="left", fontsize=10)
    ax.set(yticks=[], xlim=(0, 11))
axes[2].set(xscale="log", xlim=(30, 3e10), xlabel="value (log scale)")
plt.show()

# %%
# With a fractional step, rounding can let the end in: ``torch.arange(1, 1.3, 0.1)``
# ends *at* 1.3. For a grid of floats, use :func:`torch.linspace` and give the number
# of points.
risky = torch.arange(1, 1.3, 0.1)
print(risky, torch.linspace(1, 1.2, 3))

# %%
# .. check:: ``torch.arange(1, 1.3, 0.1)`` lets its end in: four values, up to 1.3
assert len(risky) == 4
torch.testing.assert_close(risky[-1], torch.tensor(1.3))

# %%
# Random values, reproducibly
# ---------------------------
# Four functions draw random values:
#
# - :func:`torch.rand`: uniformly from [0, 1);
# - :func:`torch.randn`: from the standard normal distribution, of mean 0 and standard
#   deviation 1;
# - :func:`torch.randint`: whole numbers from ``low`` up to, not including, ``high``,
#   in a shape given as a tuple;
# - :func:`torch.randperm`: ``0, 1, ..., n-1`` shuffled.
#
# ``min``, ``mean`` and ``std``, the standard deviation, summarise the draws below.
# They come from a *random-number generator*, an algorithm whose output looks random
# but follows from its state. :func:`torch.manual_seed` sets that state from a
# :term:`seed`, so the draws after it repeat on every run.
torch.manual_seed(0)
uniform = torch.rand(10_000)
normal = torch.randn(10_000)
print(f"rand:  min {uniform.min():.4f}  max {uniform.max():.4f}")
print(f"randn: mean {normal.mean():+.4f}  std {normal.std():.4f}")
print("randint(0, 10, (5,)):", torch.randint(0, 10, (5,)))
print("randperm(6):         ", torch.randperm(6))

# %%
# .. check:: each function draws from its range, ``randn`` with mean 0 and sd 1
assert uniform.min() >= 0
assert uniform.max() < 1
assert abs(normal.mean()) < 0.05
assert abs(normal.std() - 1) < 0.05
with torch.random.fork_rng(devices=[]):  # restores the default generator afterwards
    draws = torch.randint(0, 10, (10_000,))
    shuffled = torch.randperm(6)
assert draws.min() == 0
assert draws.max() == 9
assert torch.equal(shuffled.sort().values, torch.arange(6))

# %%
# The histograms show the two shapes: flat between 0 and 1, and a bell curve around 0.
# ``hist`` draws a histogram whose area is 1. The black curve is the
# standard normal density, e^(-x²/2) / √(2π), computed with Python's ``math.exp``,
# ``math.sqrt`` and ``math.pi``.
fig, (ax_u, ax_n) = plt.subplots(1, 2, figsize=(9, 3), layout="constrained")
ax_u.hist(uniform.tolist(), bins=40, density=True, color="#56B4E9")
ax_u.set(title="torch.rand(10_000)", xlabel="value", ylabel="density")
ax_n.hist(normal.tolist(), bins=40, density=True, color="#E69F00")
grid = torch.linspace(-4, 4, 200).tolist()
density = [math.exp(-(x**2) / 2) / math.sqrt(2 * math.pi) for x in grid]
ax_n.plot(grid, density, color="black")
ax_n.set(title="torch.randn(10_000)", xlabel="value")
plt.show()

# %%
# .. check:: the uniform draws are flat: each tenth of [0, 1) holds about 10 %
tenths = torch.histc(uniform, bins=10, min=0, max=1)
assert ((tenths / len(uniform) - 0.1).abs() < 0.01).all()

# %%
# The same seed gives the same numbers again, with one PyTorch version on one machine.
# Seed 1 gives the six numbers printed first.
#
# :func:`torch.manual_seed` seeds PyTorch's default generators, the CPU's and each
# GPU's. A :class:`torch.Generator` is one of your own. Its ``manual_seed`` seeds it
# and returns it, and ``generator=`` draws from it. Seeded with 1, it gives the same
# six numbers, and the default generator is left as it was.
#
# .. detail:: Across releases and machines
#
#    PyTorch does not promise the same numbers across releases or platforms, nor
#    between the CPU and a GPU. Even two CPUs can differ. On a CPU without AVX2, a set
#    of vector instructions, :func:`torch.randn` takes another path. Its numbers then
#    differ in the last digits.
torch.manual_seed(1)
first = torch.rand(6)
torch.manual_seed(1)
again = torch.rand(6)
print(first)
generator = torch.Generator().manual_seed(1)
own = torch.rand(6, generator=generator)
print(own)

# %%
# .. check:: seed 1 repeats; your own generator seeded 1 matches, default untouched
assert torch.equal(first, again)
seed_1 = torch.tensor([0.7576, 0.2793, 0.4031, 0.7347, 0.0293, 0.7999])
torch.testing.assert_close(first, seed_1, atol=5e-5, rtol=0)
assert torch.equal(own, first)
assert torch.initial_seed() == 1  # manual_seed(1) seeded the CPU's generator...
assert not torch.cuda.is_available() or torch.cuda.initial_seed() == 1  # each GPU's
with torch.random.fork_rng(devices=[]):  # restores the default generator afterwards
    torch.manual_seed(5)
    expected = torch.rand(3)
    torch.manual_seed(5)
    torch.rand(100, generator=generator)  # draws from the private stream only
    assert torch.equal(torch.rand(3), expected)

# %%
# Uninitialised, and shaped like another tensor
# ---------------------------------------------
# By default, :func:`torch.empty` only reserves memory, which saves filling it. Its
# values are whatever that memory held, so write before you read.
# :meth:`~torch.Tensor.fill_` writes 1.5 into every element. A trailing underscore
# marks a method that changes its tensor in place.
#
# .. detail:: Deterministic mode
#
#    With :func:`torch.use_deterministic_algorithms` on, PyTorch by default fills the
#    tensor after all, so that runs repeat. It uses NaN, or for an integer dtype its
#    largest value.
buffer = torch.empty(2, 3)
print(buffer.shape, buffer.dtype)
buffer.fill_(1.5)
print(buffer)

# %%
# .. check:: ``fill_`` works in place; deterministic mode fills ``empty``
torch.use_deterministic_algorithms(True)
assert torch.empty(3).isnan().all()
assert (torch.empty(3, dtype=torch.int32) == torch.iinfo(torch.int32).max).all()
torch.use_deterministic_algorithms(False)
filled = torch.zeros(2)
assert filled.fill_(1.5) is filled  # in place
assert filled.tolist() == [1.5, 1.5]

# %%
# :func:`torch.zeros_like` makes zeros with the shape, dtype and device of another
# tensor. ``ones_like``, ``full_like``, ``rand_like``, ``randn_like`` and
# ``empty_like`` work alike. ``dtype=`` and ``device=`` override the last two, but the
# shape always comes from the tensor.
#
# The dtype can be a trap. ``torch.int8`` is an 8-bit integer dtype, and
# :func:`torch.rand_like` of an integer tensor raises an
# error, since numbers in [0, 1) need a floating-point dtype. Pass one with
# ``dtype=``.
template = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=torch.float64)
like = {
    "zeros_like": torch.zeros_like(template),
    "rand_like": torch.rand_like(template),
    "ones_like int8": torch.ones_like(template, dtype=torch.int8),
}
for name, t in like.items():
    print(f"{name:15} shape {tuple(t.shape)}  dtype {t.dtype}")
counts = torch.tensor([1, 2])
try:
    torch.rand_like(counts)
except (NotImplementedError, RuntimeError) as error:  # the class depends on the version
    print(f"{type(error).__name__}: {error}")
else:
    raise AssertionError("rand_like made random integers")
print(torch.rand_like(counts, dtype=torch.float32).dtype)

# %%
# .. check:: ``*_like`` takes the device, never a shape; ``rand_like`` needs floats
on_meta = template.to("meta")  # shapes and dtypes, no data; every build has it
for make in [torch.zeros_like, torch.ones_like, torch.rand_like, torch.empty_like]:
    assert make(on_meta).device.type == "meta"
assert torch.randn_like(on_meta).dtype == torch.full_like(template, 7).dtype
try:
    torch.zeros_like(template, size=(4,))
    raise AssertionError("zeros_like accepted a shape")
except TypeError:
    pass
try:
    torch.rand_like(counts)
    raise AssertionError("torch.rand_like(counts) did not raise")
except (NotImplementedError, RuntimeError):
    pass

# %%
# Directly on a device
# --------------------
# A tensor lives on one :term:`device`, the CPU or a GPU. Its ``.device`` is a
# :class:`torch.device`. :func:`torch.cuda.is_available` is ``True`` when PyTorch can
# use a GPU it was built for: NVIDIA's, or AMD's in a ROCm build. The device name
# ``"cuda"`` means such a GPU. The first line below is the usual way to choose. The
# first cell's ``pick_device()`` also finds Apple's GPUs:
# :ref:`sphx_glr_auto_examples_tensors_plot_51_choosing_a_device.py` shows how, and
# what a missing GPU does.
#
# Every factory function above takes ``device=`` and makes the tensor there.
# :meth:`~torch.Tensor.to` puts a tensor you already have on a device. It copies the
# tensor only if it is elsewhere or has another dtype.
by_hand = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print("chosen:", by_hand, "  pick_device():", device)
on_device = torch.zeros(2, 3, device=by_hand)
moved = torch.zeros(2, 3).to(by_hand)
print(on_device.device, moved.device)

# %%
# .. check:: factories take ``device=``; ``.to`` copies only to move; ``pick_device`` agrees
assert on_device.device.type == moved.device.type == by_hand.type
assert moved.to(by_hand) is moved
assert moved.to(torch.float64) is not moved  # another dtype: a copy
assert torch.zeros(1).to("meta").device.type == "meta"
makers = [torch.zeros, torch.ones, torch.empty, torch.rand, torch.randn, torch.eye]
made = [make(3, device="meta") for make in [*makers, torch.arange, torch.randperm]]
made += [torch.full((2,), 3.5, device="meta"), torch.randint(0, 9, (2,), device="meta")]
made += [torch.linspace(0, 1, 3, device="meta"), torch.logspace(0, 1, 3, device="meta")]
made += [torch.zeros_like(template, device="meta"), torch.tensor([1.0], device="meta")]
assert all(t.device.type == "meta" for t in made)
assert by_hand.type == "cpu" or device.type == by_hand.type  # pick_device agrees
assert device.type == "mps" or not torch.backends.mps.is_available()  # finds MPS

# %%
# Summary
# -------
# - :func:`torch.tensor` copies a list or an array. :func:`torch.from_numpy` shares an
#   array's memory.
# - Factory functions make a tensor from a shape or a range.
# - :func:`torch.manual_seed` makes random draws repeat.
# - The ``*_like`` functions copy a tensor's shape, dtype and device.
# - ``device=`` makes a tensor on a device, and ``.to`` moves one there.
#
# Next: :ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py` shows what each
# dtype can hold. The site's helpers are documented in :doc:`/api`. Exercises for this
# page: :ref:`exercises-tensors-01`.
