"""
Creating tensors
================

Make :term:`tensors <tensor>` of any :term:`rank` from Python lists, NumPy
arrays and PyTorch's factory functions, draw seeded random numbers that come
out the same on every run, and create a tensor directly on a GPU. These are
the tensors the next pages start from.
"""

# %%
# Every page starts by saying what computed it. Your versions, device and
# thread count may differ, and so may the lines that name a device; the other
# values should match, at least with the same PyTorch version.
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
# :func:`torch.tensor` turns a number or a nested list into a tensor. The
# nesting depth becomes the tensor's rank (:meth:`torch.Tensor.dim`): a
# scalar has rank 0, a vector rank 1, a matrix rank 2, and a stack of
# matrices rank 3. The :term:`shape` (:attr:`~torch.Tensor.shape`) lists the
# length of each :term:`dimension`, outermost first.
scalar = torch.tensor(7)
vector = torch.tensor([1, 2, 3])
matrix = torch.tensor([[1, 2, 3], [4, 5, 6]])
stack = torch.tensor([[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]])
tensors = [scalar, vector, matrix, stack]
for name, t in zip(["scalar", "vector", "matrix", "stack"], tensors, strict=True):
    print(f"{name:7} rank {t.dim()}  shape {tuple(t.shape)}")

# %%
# Drawn as cells, the rank is the number of indices you need to reach one
# value: none for the scalar, one for the vector, a row and a column for the
# matrix, and for the stack first which matrix (``[0]`` or ``[1]``), then a
# row and a column.
draw_tensors(
    tensors,
    [f"rank {t.dim()}: shape {tuple(t.shape)}" for t in tensors],
    groups=[None, None, None, torch.arange(2).reshape(2, 1, 1).expand(2, 2, 3)],
)
plt.show()

# %%
# The values decide the :term:`dtype` (:attr:`~torch.Tensor.dtype`): Python
# ints become 64-bit integers, a single Python float makes the whole tensor
# floating point, in the default dtype (``float32`` unless
# :func:`torch.set_default_dtype` changed it), and ``True``/``False`` make
# booleans. The ``dtype=`` argument overrides the choice.
for values in ([1, 2], [1, 2.5], [True, False]):
    print(torch.tensor(values).dtype)
print(torch.tensor([1, 2], dtype=torch.float64))

# %%
# .. check:: a single Python float makes the whole tensor the default dtype
assert torch.tensor([1, 2.5]).dtype == torch.get_default_dtype()

# %%
# From NumPy arrays: copy or share
# --------------------------------
# :func:`torch.tensor` and :func:`torch.from_numpy` both accept a NumPy array
# and keep its dtype: ``int32`` here, where the same numbers in a Python list
# give ``int64``.
array = np.array([4, 5, 6], dtype=np.int32)
print("torch.tensor(list): ", torch.tensor([4, 5, 6]))
print("torch.tensor(array):", torch.tensor(array))
print("from_numpy(array):  ", torch.from_numpy(array))

# %%
# They differ in what happens next. :func:`torch.tensor` *copies* the values
# into new memory; :func:`torch.from_numpy` uses the array's memory as the
# tensor's :term:`storage`, so a write through either one shows in both: the
# tensor's data pointer is the array's.
numpy_array = np.array([1, 2])
copied = torch.tensor(numpy_array)
shared = torch.from_numpy(numpy_array)

numpy_array[0] = 10
print("array:", numpy_array, " copied:", copied, " shared:", shared)

shared[1] = 20
print("array after writing through the tensor:", numpy_array)

# %%
# .. check:: the shared tensor's data pointer is the array's; the copy's is not
assert shared.data_ptr() == numpy_array.ctypes.data  # one buffer, two names
assert copied.data_ptr() != numpy_array.ctypes.data

# %%
# Sharing is what you want for large arrays you only read; copying is what
# you want when either side will be changed independently. The page
# :ref:`sphx_glr_auto_examples_tensors_plot_08_tensors_and_numpy.py` goes
# further: dtypes, tensors on a GPU and tensors that require
# :term:`gradients <gradient>`.
#
# Filled with a constant or a pattern
# -----------------------------------
# PyTorch's *factory functions* make a new tensor from a shape or a range
# rather than from data. :func:`torch.zeros` and :func:`torch.ones` fill it
# with 0 or 1 and take the shape as separate numbers or as one tuple;
# :func:`torch.full` fills it with any value and takes the shape only as a
# tuple (or list). :func:`torch.eye` makes an identity matrix from a number
# of rows (and, optionally, of columns).
print(torch.ones((2, 3)))
print(torch.zeros(2, 3, dtype=torch.int16))
print(torch.full((2, 2), 3.5))
print(torch.eye(3))

# %%
# .. check:: ``ones`` takes the shape either way, ``full`` only as a tuple; ``eye`` takes rows and columns
assert torch.equal(torch.ones((2, 3)), torch.ones(2, 3))
assert torch.equal(torch.eye(3) @ torch.full((3, 2), 2.0), torch.full((3, 2), 2.0))
assert torch.eye(2, 3).shape == (2, 3)
try:
    torch.full(2, 2, 3.5)
    raise AssertionError("torch.full took the shape as separate numbers")
except TypeError:
    pass

# %%
# Three functions make evenly spaced values, and they are easy to mix up. With
# whole numbers, :func:`torch.arange` works like Python's :class:`range`: a
# start, an *excluded* end and a step. :func:`torch.linspace` takes a number of
# points and includes both ends. :func:`torch.logspace` spaces the points
# evenly on a log scale: from 10² to 10¹⁰ here.
spaced = {
    "arange(2, 10, 4)": torch.arange(2, 10, 4),
    "linspace(2, 10, 4)": torch.linspace(2, 10, 4),
    "logspace(2, 10, 4)": torch.logspace(2, 10, 4),
}
for name, t in spaced.items():
    print(f"{name:20} {t}")

# %%
# On a number line the difference is plain: ``arange`` stops before 10,
# ``linspace`` lands on it, and ``logspace`` is ``linspace`` in the exponent.
fig, axes = plt.subplots(3, 1, figsize=(8, 3.6), layout="constrained")
for ax, (name, t) in zip(axes, spaced.items(), strict=True):
    ax.plot(t.numpy(), np.zeros(len(t)), "o", markersize=9, color="#0072B2")
    ax.set_title(f"torch.{name}", loc="left", fontsize=10)
    ax.set(yticks=[], xlim=(0, 11))
    ax.spines[["left", "right", "top"]].set_visible(False)
axes[2].set(xscale="log", xlim=(30, 3e10), xlabel="value (log scale)")
plt.show()

# %%
# .. check:: ``logspace`` is ``linspace`` in the exponent
exponents = spaced["logspace(2, 10, 4)"].log10()
torch.testing.assert_close(exponents, spaced["linspace(2, 10, 4)"])

# %%
# With a fractional step, rounding can let the end in, as PyTorch's
# documentation notes: ``torch.arange(1, 1.3, 0.1)`` ends *at* 1.3. For a
# grid of floats, use :func:`torch.linspace` and say how many points you
# want.
risky = torch.arange(1, 1.3, 0.1)
print(risky, torch.linspace(1, 1.2, 3))

# %%
# .. check:: ``torch.arange(1, 1.3, 0.1)`` lets its end in: four values, up to 1.3
assert len(risky) == 4

# %%
# Random values, reproducibly
# ---------------------------
# :func:`torch.rand` draws uniformly from [0, 1), :func:`torch.randn`
# from the standard normal distribution (mean 0, standard deviation 1),
# :func:`torch.randint` whole numbers from ``low`` up to, but not including,
# ``high``, and :func:`torch.randperm` a shuffled ``0, 1, ..., n-1``.
# :func:`torch.manual_seed` fixes where the draws start.
torch.manual_seed(0)
uniform = torch.rand(10_000)
normal = torch.randn(10_000)
print(f"rand:  min {uniform.min():.4f}  max {uniform.max():.4f}")
print(f"randn: mean {normal.mean():+.4f}  std {normal.std():.4f}")
print("randint(0, 10, (5,)):", torch.randint(0, 10, (5,)))
print("randperm(6):         ", torch.randperm(6))

# %%
# .. check:: each function draws from its range, ``randn`` with mean 0 and standard deviation 1
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
# The histograms show the two shapes: flat between 0 and 1, and the bell
# curve centred on 0, with the standard normal density drawn over it.
fig, (ax_u, ax_n) = plt.subplots(1, 2, figsize=(9, 3), layout="constrained")
ax_u.hist(uniform.numpy(), bins=40, density=True, color="#56B4E9")
ax_u.set(title="torch.rand(10_000)", xlabel="value", ylabel="density")
ax_n.hist(normal.numpy(), bins=40, density=True, color="#E69F00")
grid = torch.linspace(-4, 4, 200)
density = torch.exp(-(grid**2) / 2) / (2 * torch.pi) ** 0.5
ax_n.plot(grid, density, color="black", label="standard normal density")
ax_n.set(title="torch.randn(10_000)", xlabel="value")
ax_n.legend(loc="upper right", fontsize=8)
plt.show()

# %%
# The same seed gives the same numbers again, on every run, with one PyTorch
# version on one machine. Seed 1 gives these six:
#
# .. detail:: Across releases and machines
#
#    PyTorch's documentation on reproducibility does not promise the same
#    numbers across releases or platforms, nor between the CPU and a GPU. Even
#    two CPUs can differ: on one without AVX2 (a set of vector instructions),
#    :func:`torch.randn` takes another code path, whose numbers differ in the
#    last digits.
torch.manual_seed(1)
first = torch.rand(6)
torch.manual_seed(1)
again = torch.rand(6)
print(first)

# %%
# .. check:: seed 1 gives the same six numbers again, the ones printed
assert torch.equal(first, again)
seed_1 = torch.tensor([0.7576, 0.2793, 0.4031, 0.7347, 0.0293, 0.7999])
torch.testing.assert_close(first, seed_1, atol=5e-5, rtol=0)

# %%
# :func:`torch.manual_seed` seeds the default generators (the CPU's, and
# those of any GPUs) that every function above draws from. A
# :class:`torch.Generator` is a stream of your own: seeded with 1, it gives
# the same six numbers, and drawing from it leaves the default stream where
# it was.
generator = torch.Generator().manual_seed(1)
own = torch.rand(6, generator=generator)
print(own)

# %%
# .. check:: the generator gives seed 1's six numbers and leaves the default stream as it was
assert torch.equal(own, first)

with torch.random.fork_rng(devices=[]):  # restores the default generator afterwards
    torch.manual_seed(5)
    expected = torch.rand(3)
    torch.manual_seed(5)
    torch.rand(100, generator=generator)  # draws from the private stream only
    assert torch.equal(torch.rand(3), expected)

# %%
# Uninitialised, and shaped like another tensor
# ---------------------------------------------
# By default, :func:`torch.empty` only reserves memory: its values are
# whatever that memory held before, so never read them before writing. That
# is why this page prints only its shape. It saves the time of filling a
# tensor you are about to overwrite anyway.
#
# .. detail:: Deterministic mode
#
#    With :func:`torch.use_deterministic_algorithms` switched on, PyTorch by
#    default fills it after all, with NaN or the largest integer, so that runs
#    repeat.
buffer = torch.empty(2, 3)
print(buffer.shape, buffer.dtype)
buffer.fill_(1.5)
print(buffer)

# %%
# .. check:: with deterministic algorithms on, ``empty`` fills with NaN or the largest integer
torch.use_deterministic_algorithms(True)
assert torch.empty(3).isnan().all()
assert (torch.empty(3, dtype=torch.int32) == torch.iinfo(torch.int32).max).all()
torch.use_deterministic_algorithms(False)

# %%
# The ``*_like`` functions (:func:`torch.zeros_like`, :func:`torch.ones_like`,
# :func:`torch.full_like`, :func:`torch.rand_like`, :func:`torch.randn_like`,
# :func:`torch.empty_like`) take the shape, dtype and device of a tensor you
# already have. ``dtype=`` and ``device=`` override the last two; the shape
# always comes from the tensor (for another shape, call :func:`torch.zeros`
# and the like). The dtype they take can be a trap: :func:`torch.rand_like`
# of an integer tensor fails, because uniform numbers in [0, 1) need a
# floating-point dtype; pass one with ``dtype=``.
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
counts = torch.tensor([1, 2])
try:
    torch.rand_like(counts)
except (NotImplementedError, RuntimeError) as error:  # which one: by version
    print(f"{type(error).__name__}: {error}")
else:
    raise AssertionError("torch.rand_like(counts) did not raise")
print(torch.rand_like(counts, dtype=torch.float32).dtype)

# %%
# .. check:: the ``*_like`` functions take the tensor's device, and never a shape
on_meta = template.to("meta")  # shapes and dtypes, no data; every build has it
for make in [torch.zeros_like, torch.ones_like, torch.rand_like, torch.empty_like]:
    assert make(on_meta).device.type == "meta"
try:
    torch.zeros_like(template, size=(4,))
    raise AssertionError("zeros_like accepted a shape")
except TypeError:
    pass

# %%
# Directly on a device
# --------------------
# A tensor lives on one device: the CPU or a GPU. PyTorch's usual idiom picks a
# CUDA GPU when there is one: :func:`torch.cuda.is_available` is true when this
# PyTorch was built with CUDA (NVIDIA's GPU platform) and finds a GPU. Apple's
# GPUs are reached through the MPS backend instead (Metal Performance Shaders),
# tested with :func:`torch.backends.mps.is_available` and named ``"mps"``.
#
# .. detail:: ROCm builds
#
#    A PyTorch built for ROCm (AMD's GPU platform) reuses the same
#    :mod:`torch.cuda` functions and the device name ``"cuda"`` for AMD GPUs.
by_hand = torch.device("cuda" if torch.cuda.is_available() else "cpu")
if by_hand.type == "cpu" and torch.backends.mps.is_available():
    by_hand = torch.device("mps")  # Apple's GPU
print("CUDA:", torch.cuda.is_available(), " MPS:", torch.backends.mps.is_available())
print("chosen:", by_hand)

# %%
# .. check:: ``torch.cuda`` finds a GPU only in a CUDA or a ROCm build
if torch.cuda.is_available():  # a CUDA or a ROCm build
    assert torch.version.cuda is not None or torch.version.hip is not None

# %%
# Every factory function above takes ``device=``. Creating a tensor where it
# will be used avoids making it on the CPU and copying it over with
# :meth:`~torch.Tensor.to`: on a GPU, ``torch.zeros(2, 3, device=by_hand)``
# fills GPU memory directly, while ``.to(by_hand)`` fills CPU memory first
# and then copies it across. A tensor names its device with an index
# (``cuda:0``) even when you asked for plain ``"cuda"`` (the current GPU).
on_device = torch.zeros(2, 3, device=by_hand)
moved = torch.zeros(2, 3).to(by_hand)
print(on_device.device, moved.device, torch.equal(on_device, moved))
if by_hand.type == "cpu":
    print("This machine has no GPU: both tensors are on the CPU.")

# %%
# .. check:: every factory function takes ``device=``; a GPU tensor's device has an index
if by_hand.type != "cpu":
    assert by_hand.index is None  # asked for plain "cuda" (or "mps")
    assert on_device.device.index is not None  # got "cuda:0" (or "mps:0")
assert on_device.device.type == moved.device.type == by_hand.type
makers = [torch.zeros, torch.ones, torch.empty, torch.rand, torch.randn, torch.eye]
made = [make(3, device="meta") for make in [*makers, torch.arange, torch.randperm]]
made += [torch.full((2,), 3.5, device="meta"), torch.randint(0, 9, (2,), device="meta")]
made += [torch.linspace(0, 1, 3, device="meta"), torch.logspace(0, 1, 3, device="meta")]
made += [torch.zeros_like(template, device="meta"), torch.tensor([1.0], device="meta")]
assert all(t.device.type == "meta" for t in made)

# %%
# The first cell of every page makes this choice with
# :func:`~tutorial_utils.devices.pick_device`. Called with no argument, it
# returns the first device of the accelerator PyTorch reports, with its index
# (``cuda:0``, ``mps:0``), or else the CPU. It asks
# :mod:`torch.accelerator` (PyTorch 2.6 and newer), which also knows other
# accelerators such as Intel's XPU, and falls back on the two tests above.
print("pick_device():", device, "  by hand:", by_hand)

# %%
# .. check:: ``pick_device()`` finds the CUDA or MPS device that the two tests find
assert by_hand.type == "cpu" or device.type == by_hand.type
# A machine whose accelerator is neither CUDA nor MPS (Intel XPU, ...) is
# found by pick_device but not by the two tests above.

# %%
# ``torch.device("cuda")`` is only a name: making it never fails, even
# without a GPU. The error comes when a tensor is put there, and its message
# depends on how PyTorch was built (:ref:`the error atlas
# <error-not-compiled-with-cuda>` explains the one from a build without CUDA).
# Given a name, :func:`~tutorial_utils.devices.pick_device` checks at once,
# and lists the devices there are:
try:
    print("made on cuda:", torch.zeros(1, device="cuda").device)
except (AssertionError, RuntimeError) as error:
    print(f"{type(error).__name__}: {error}")
else:
    assert torch.cuda.is_available(), "a tensor went to a CUDA device that is not there"
present = {"cuda": torch.cuda.is_available(), "mps": torch.backends.mps.is_available()}
for wanted in ("cuda", "mps"):
    try:
        print(f"{wanted}: available as {pick_device(wanted)}")
    except ValueError as error:
        print(f"{wanted}: {error}")
    else:
        assert present[wanted], f"pick_device found a {wanted} device that is not there"

# %%
# Summary
# -------
# - :func:`torch.tensor` copies lists and arrays; the nesting depth is the
#   rank, and the values choose the dtype unless ``dtype=`` does.
# - :func:`torch.from_numpy` shares the array's memory: writes show both ways.
# - ``zeros``, ``ones``, ``full``, ``empty``, ``rand``, ``randn`` and
#   ``randint`` take a shape; ``eye``, ``arange``, ``linspace``, ``logspace``
#   and ``randperm`` make patterns and ranges; the ``*_like`` versions copy a
#   tensor's shape, dtype and device.
# - :func:`torch.manual_seed` makes random numbers repeat (same PyTorch,
#   same machine); a :class:`torch.Generator` keeps a stream of your own.
# - ``torch.device("cuda" if torch.cuda.is_available() else "cpu")`` picks a
#   device, ``device=`` creates a tensor there, and
#   :func:`~tutorial_utils.devices.pick_device` wraps the choice. The helpers
#   this page imports are documented in :doc:`/api`.
#
# Next: :ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py` shows
# what each dtype can hold and what happens when two dtypes meet.
#
# Exercises for this page: :ref:`exercises-tensors-01`.
