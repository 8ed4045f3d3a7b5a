"""
Data types
==========

Choose the :term:`dtype` a :term:`tensor` stores, change it, and predict the
dtype PyTorch picks when two dtypes meet. After this page you know what the
common dtypes can hold, where they overflow or round, and what their
precision costs in memory.
"""

# %%
# Every page starts by saying what computed it; this page runs on the CPU
# only. Your versions and thread count may differ; the values printed should
# not (with the same PyTorch version), except those of :func:`torch.sum` at
# the end, which depend on the CPU and the thread count.
import math

import matplotlib.pyplot as plt
import numpy as np
import torch

from tutorial_utils.colours import PALETTE
from tutorial_utils.environment import environment_summary
from tutorial_utils.grids import draw_tensors

print(environment_summary(torch.device("cpu")))

# %%
# One set of numbers, six dtypes
# ------------------------------
# Every element of a tensor has the same type, its :attr:`~torch.Tensor.dtype`,
# which decides which values the tensor can hold. Below,
# :meth:`~torch.Tensor.to` converts five 64-bit floats into five other dtypes;
# an orange cell holds a different value from the original on the left.
original = torch.tensor([-2.5, 0.0, 300.3, 2049.0, 70000.0], dtype=torch.float64)
shown = [torch.float64, torch.float32, torch.float16, torch.bfloat16, torch.int64]
shown.append(torch.bool)
converted = [original.to(dtype) for dtype in shown]
changed = [(c.to(torch.float64) != original).long() for c in converted]
draw_tensors(
    [c.reshape(-1, 1) for c in converted],
    [str(dtype).removeprefix("torch.") for dtype in shown],
    groups=[g.reshape(-1, 1) for g in changed],
    fmt="{:g}",
)
plt.show()

# %%
# Read it column by column:
#
# - ``float32`` rounds 300.3 to its 24 binary digits: a change far below the
#   six digits shown, but the stored value differs (printed in full below).
# - ``float16`` keeps only 11 binary digits: 300.3 becomes 300.25, 2049 becomes
#   2048, and 70000 is beyond its largest value, 65504, so it becomes ``inf``.
# - ``bfloat16`` keeps the range of ``float32`` (70000 survives, roughly)
#   but only 8 binary digits: 300.3 becomes 300.
# - ``int64`` drops the fraction, rounding toward zero: -2.5 becomes -2.
# - ``bool`` keeps only "is it non-zero?".
for dtype, tensor in zip(shown[:2], converted[:2], strict=True):
    print(f"300.3 as {str(dtype).removeprefix('torch.')}: {tensor[2].item():.17f}")

# %%
# .. check:: each column changes the values as listed; the float dtypes keep 24, 11 and 8 binary digits
_, float32, float16, bfloat16, int64, boolean = converted
assert changed[1].tolist() == [0, 0, 1, 0, 0]
assert float16.tolist()[2:] == [300.25, 2048, math.inf]
assert bfloat16.tolist()[2:] == [300, 2048, 70144]
assert int64.tolist() == [-2, 0, 300, 2049, 70000]
assert boolean.tolist() == [True, False, True, True, True]
for dtype, digits in [(torch.float16, 11), (torch.bfloat16, 8), (torch.float32, 24)]:
    assert torch.finfo(dtype).eps == 2.0 ** (1 - digits)
assert torch.finfo(torch.float16).max < 70000 < torch.finfo(torch.bfloat16).max

# %%
# The dtype table
# ---------------
# The table is built from PyTorch itself: the aliases are the other names
# :mod:`torch` holds for the same dtype object, the size is
# :meth:`~torch.Tensor.element_size`, and the range and ``eps`` come from
# :class:`torch.finfo` or :class:`torch.iinfo`. ``eps`` is the gap between 1
# and the next larger number the dtype holds: its relative precision.
integers = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
floats = [torch.float16, torch.bfloat16, torch.float32, torch.float64]
table_dtypes = [torch.bool, *integers, *floats]
print(f"{'dtype':9} {'aliases':7} {'bytes':>5}  {'range':43}  eps")
for dtype in table_dtypes:
    name = str(dtype).removeprefix("torch.")
    aliases = ", ".join(n for n, v in vars(torch).items() if v is dtype and n != name)
    size = torch.zeros(1, dtype=dtype).element_size()
    value_range, eps_text = "False, True", ""
    if dtype.is_floating_point:
        info = torch.finfo(dtype)
        value_range, eps_text = f"{info.min:.5g} to {info.max:.5g}", f"{info.eps:.3g}"
    elif dtype != torch.bool:
        info = torch.iinfo(dtype)
        value_range = f"{info.min} to {info.max}"
    row = f"{name:9} {aliases or '-':7} {size:5}  {value_range:43}  {eps_text}"
    print(row.rstrip())

# %%
# ``torch.float`` *is* ``torch.float32`` (the same object, not a copy), and
# ``torch.long`` *is* ``torch.int64``. Two things in the table surprise people: a
# ``bool`` takes a whole byte, not one bit, and ``int32`` and ``float32`` take
# the same four bytes but spend them differently. ``int32`` holds every whole
# number up to about 2.1 billion; ``float32`` spans a far larger range with 24
# binary digits, so above 2²⁴ = 16,777,216 it skips whole numbers.
#
# .. detail:: C's type names
#
#    The aliases echo C's type names, but PyTorch fixes their sizes:
#    ``torch.long`` is 64 bits on every platform, while C's ``long`` has 32
#    on Windows.
print(torch.float is torch.float32, torch.long is torch.int64)
print("16,777,217 as int32:  ", torch.tensor(16_777_217, dtype=torch.int32).item())
print("16,777,217 as float32:", torch.tensor(16_777_217, dtype=torch.float32).item())

# %%
# The bytes per element also set the size of a tensor's data:
# :attr:`~torch.Tensor.nbytes` is its number of elements times the element
# size, so a million ``float32`` numbers take 4 MB, half that in ``float16``
# or ``bfloat16``. It counts the values the tensor shows, not the memory it
# keeps alive: a :term:`view` of ten of them still holds the whole 4 MB
# :term:`storage`
# (:ref:`sphx_glr_auto_examples_tensors_plot_07_views_and_strides.py`).
million = torch.zeros(10**6)
print(million.dtype, million.nbytes / 1e6, "MB")
view = million[:10]
print(f"view: {view.nbytes} bytes; storage: {view.untyped_storage().nbytes()} bytes")

# %%
# .. check:: ``nbytes`` is elements times element size, halved in ``bfloat16``; a view keeps all 4 MB
assert million.nbytes == million.numel() * million.element_size()
assert view.untyped_storage().nbytes() == million.nbytes > 1000 * view.nbytes
assert million.to(torch.bfloat16).nbytes == million.nbytes // 2

# %%
# Default dtypes and conversions
# ------------------------------
# Python floats become the default floating-point dtype, ``float32``
# (:func:`torch.get_default_dtype`); NumPy's default, ``float64``, is taken up in
# :ref:`sphx_glr_auto_examples_tensors_plot_08_tensors_and_numpy.py`. A Python
# ``float`` is 64 bits, so 0.1, which neither dtype holds exactly, comes back
# changed from a ``float32`` tensor; 0.5, which both hold exactly, does not.
back = torch.tensor(0.1).item()
print(torch.get_default_dtype(), back, back == 0.1)

# %%
# .. check:: 0.5 comes back from a ``float32`` tensor unchanged
assert torch.tensor(0.5).item() == 0.5

# %%
# Three methods convert a tensor to another dtype, all to the same result:
# :meth:`~torch.Tensor.to`, :meth:`~torch.Tensor.type`, and shorthands such as
# :meth:`~torch.Tensor.double`, :meth:`~torch.Tensor.float`,
# :meth:`~torch.Tensor.half` and :meth:`~torch.Tensor.long`. Prefer
# :meth:`~torch.Tensor.to`, which also moves a tensor to another device
# (``x.to(device, torch.float16)``). A conversion to another dtype makes a new
# tensor in new memory. Converting up adds no precision: ``t2`` holds
# ``float32`` values with zeros in their extra binary digits. A tensor that is
# not empty prints its dtype unless it is ``int64``, ``bool``, the default
# floating-point dtype (``float32`` unless changed) or its complex counterpart.
#
# .. detail:: Converting to the same dtype
#
#    Asking for the dtype the tensor already has returns the tensor itself,
#    unless you pass ``copy=True``.
torch.manual_seed(0)
t = torch.rand(2, 3)
t2 = t.type(torch.float64)
print(t, t2, sep="\n")

# %%
# .. check:: the methods agree and copy, except to the same dtype; up and back is exact; which dtypes print
assert all(torch.equal(t2, u) for u in (t.to(torch.float64), t.double()))
assert t2.data_ptr() != t.data_ptr()
assert t.to(torch.float32) is t
assert t.to(torch.float32, copy=True) is not t
assert torch.equal(t2.float().double(), t2)  # nothing lost on the way back
quiet = [t, torch.tensor([1]), torch.tensor([True]), torch.tensor([1j])]
assert all("dtype" not in repr(x) for x in quiet)

# %%
# Floats become integers by dropping the fraction, as the ``int64`` column
# above showed, provided the value fits the integer dtype. For a value out
# of its range (``inf``, NaN, 1e20, or -1 into ``uint8``) the result is not
# defined: it can differ between CPUs, and between a CPU and a GPU, with no
# error. Call :meth:`~torch.Tensor.clamp` first to stay in range, and
# :meth:`~torch.Tensor.round` if you mean rounding, which takes halves to
# the even neighbour (0.5 to 0, 2.5 to 2).
values = torch.tensor([-1.7, -0.5, 0.5, 2.5])
print(values.to(torch.int64), values.round().to(torch.int64))
print(torch.tensor([-1.0, 300.0]).clamp(0, 255).to(torch.uint8))

# %%
# .. check:: converting to an integer dtype drops the fraction, as ``trunc`` does
assert torch.equal(values.to(torch.int64), values.trunc().to(torch.int64))

# %%
# Limits: rounding and wrapping around
# ------------------------------------
# Adding half of ``eps`` to 1 leaves 1 unchanged: the exact sum lies halfway
# between two neighbours, and it rounds to the one with an even last binary
# digit, which is 1. Adding all of ``eps`` does change it.
eps = torch.finfo(torch.float32).eps
one = torch.tensor(1.0)
print((one + eps / 2).item() == 1.0, (one + eps).item() == 1.0)

# %%
# Integer arithmetic that leaves the range in the table *wraps around* with
# no error and no warning: ``int8`` 127 + 1 is -128, and ``uint8`` 0 - 1 is
# 255. ``uint8`` is the usual dtype of image pixels, so adding two bright
# pixels gives a dark one. :meth:`~torch.Tensor.sum` of an integer tensor is
# safer: it adds in, and returns, ``int64``.
print("int8  127 + 1 =", (torch.tensor([127], dtype=torch.int8) + 1).item())
print("uint8   0 - 1 =", (torch.tensor([0], dtype=torch.uint8) - 1).item())
pixels = torch.tensor([200, 100], dtype=torch.uint8)
print("uint8 200 + 100 =", (pixels[0] + pixels[1]).item())
print("pixels.sum() =", pixels.sum().item(), "as", pixels.sum().dtype)

# %%
# When two dtypes meet: type promotion
# ------------------------------------
# :term:`Element-wise <element-wise>` arithmetic (``+``, ``*``, ...) on tensors
# of different dtypes returns the dtype that :func:`torch.result_type` names;
# :func:`torch.promote_types` gives it for two dtypes alone. For the dtypes in
# the table, the kinds are ordered bool < integer < floating point (< complex):
# the result takes the higher kind, and within one kind the smallest dtype that
# holds both. A Python number, or a 0-d tensor (no
# :term:`dimensions <dimension>`) next to a tensor with dimensions, counts only
# when of a higher kind: then a Python int brings ``int64``, a Python float the
# default floating-point dtype, and a 0-d tensor its own dtype; two 0-d tensors
# promote like any two tensors.
#
# .. detail:: The newer unsigned dtypes
#
#    For the newer ``uint16``, ``uint32`` and ``uint64``,
#    :func:`torch.promote_types` gives a dtype only with their own dtype and
#    the floating-point dtypes, and raises with any other.
i32 = torch.tensor([1, 2], dtype=torch.int32)
f16 = torch.ones(2, dtype=torch.float16)
pairs = [
    ("int64 + float32", torch.tensor([1, 2]), torch.tensor([0.5, 0.5])),
    ("int8 + uint8", i32.to(torch.int8), i32.to(torch.uint8)),
    ("float16 + bfloat16", f16, f16.to(torch.bfloat16)),
    ("int64 + 2.5", torch.tensor([1, 2]), 2.5),
    ("float16 + 2.5", f16, 2.5),
    ("int32 + 0-d int64", i32, torch.tensor(5)),
    ("int32 + 0-d float64", i32, torch.tensor(0.5, dtype=torch.float64)),
    ("0-d int32 + 0-d int64", i32[0], torch.tensor(5)),
    ("uint16 + float16", i32.to(torch.uint16), f16),
]
for label, a, b in pairs:
    result = a + b
    print(f"{label:21} -> {str(result.dtype).removeprefix('torch.')}")

# %%
# .. check:: each sum has the ``result_type`` dtype; floats beat integers; ``uint16/32/64`` meet only floats
assert all((a + b).dtype == torch.result_type(a, b) for _, a, b in pairs)
assert all(torch.promote_types(i, f) == f for i in integers for f in floats)
for unsigned in (torch.uint16, torch.uint32, torch.uint64):
    assert all(torch.promote_types(unsigned, f) == f for f in floats)
    for other in [torch.bool, *integers, torch.complex64]:
        try:
            torch.promote_types(unsigned, other)
            raise AssertionError(f"{unsigned} promoted with {other}")
        except RuntimeError:
            pass

# %%
# ``int8 + uint8`` gives ``int16`` because neither input can hold both -128
# and 255. Division has a rule of its own: ``/`` is true division, so two
# integer tensors give the default floating-point dtype, while ``//`` is
# floor division, keeps the integers and rounds toward minus infinity.
# Comparisons (``<``, ``==``) return ``bool``, and matrix multiplication
# (``@``) does not promote at all: it wants one dtype (:ref:`the error atlas
# <error-matmul-dtype>` has the fix).
a, b = torch.tensor([7, -7]), torch.tensor([2, 2])
print(a / b, a // b, a < b.double())
try:
    torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.float64)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
else:
    raise AssertionError("a float32 @ float64 product did not raise")

# %%
# .. check:: ``/`` of two integer tensors gives the default floating-point dtype
assert (a / b).dtype == torch.get_default_dtype()

# %%
# The whole table of :func:`torch.promote_types` for the common dtypes fits
# in one picture. Blue cells are integer results, orange floating point, grey
# bool. A framed cell is wider than *both* of its inputs.
short = ["bool", "u8", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"]
fig, ax = plt.subplots(figsize=(6.4, 6), layout="constrained")
ax.set_title("torch.promote_types(row, column)", fontsize=10)
for i, row_dtype in enumerate(table_dtypes):
    for j, col_dtype in enumerate(table_dtypes):
        result = torch.promote_types(row_dtype, col_dtype)
        colour = PALETTE[1 if result.is_floating_point else 7 * (result == torch.bool)]
        ax.add_patch(plt.Rectangle((j, i), 1, 1, fc=colour, ec="white", alpha=0.6))
        if result not in (row_dtype, col_dtype):  # wider than both inputs
            frame = plt.Rectangle((j + 0.06, i + 0.06), 0.88, 0.88, fill=False)
            ax.add_patch(frame).set(edgecolor=PALETTE[6], linewidth=2.5)
        name = short[table_dtypes.index(result)]
        ax.text(j + 0.5, i + 0.5, name, ha="center", va="center", fontsize=8)
n = len(table_dtypes)
ax.set(xlim=(0, n), ylim=(n, 0), aspect="equal")
ax.set_xticks(np.arange(n) + 0.5, short)
ax.set_yticks(np.arange(n) + 0.5, short)
ax.tick_params(length=0, top=True, labeltop=True, bottom=False, labelbottom=False)
plt.show()

# %%
# Read the ``i64`` row: an ``int64`` tensor meeting even a ``float16`` one
# gives ``float16``, which cannot hold most ``int64`` values exactly (it
# tops out at 65504). Any floating-point dtype beats any integer dtype,
# whatever the bits, so the result of a promotion need not hold every input.
#
# In-place operations keep their dtype
# ------------------------------------
# An in-place operation (a method whose name ends in ``_``, or ``+=``) writes
# into the tensor it is called on, so the result keeps that tensor's dtype.
# PyTorch refuses only a cast to a lower kind (a floating-point result into an
# integer tensor, an integer result into a ``bool`` tensor);
# :func:`torch.can_cast` tells which casts it allows. You will meet this error
# (:ref:`its atlas entry <error-result-type-cast>` has the fix):
counts = torch.tensor([1, 2])
try:
    counts.add_(1.5)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
else:
    raise AssertionError("counts.add_(1.5) did not raise")
print("float32 -> int64:", torch.can_cast(torch.float32, torch.int64))
print("int64 -> int32:  ", torch.can_cast(torch.int64, torch.int32))

# %%
# Within one kind, an in-place operation casts the result down without a word,
# even where it does not fit: an ``int32`` tensor that takes an ``int64`` sum
# wraps around, and a ``float16`` tensor that takes 1e5 holds ``inf``. Out of
# place, ``small + big`` promotes to ``int64`` and keeps the true sum.
small = torch.tensor([1, 2], dtype=torch.int32)
big = torch.tensor([3_000_000_000, 3_000_000_000])
print("small + big:    ", small + big)
print("small.add_(big):", small.add_(big))
half = torch.tensor([1.0, 2.0], dtype=torch.float16)
print("half.add_(1e5): ", half.add_(torch.tensor(1e5, dtype=torch.float64)))

# %%
# .. check:: in place, ``int32`` keeps its dtype and wraps around, and ``float16`` holds ``inf``
assert small.dtype == torch.int32
assert small[0] == 3_000_000_001 - 2**32
assert half.isinf().all()

# %%
# What precision buys: a sum of many numbers
# ------------------------------------------
# The same 100,000 random numbers in ``float64`` and rounded to ``float32``,
# summed two ways: by :func:`torch.sum`, and by a Python loop that adds them one
# at a time. Each ``numbers[i]`` is a 0-d tensor, so the loop's ``total``
# becomes a tensor of that dtype and every addition rounds to it.
# :func:`math.fsum` gives the exact sum of the numbers each tensor holds,
# rounded once, at the end. In ``float64`` both errors stay far below even
# ``float32``'s ``eps``.
torch.manual_seed(0)
numbers64 = torch.rand(10**5, dtype=torch.float64)
numbers32 = numbers64.to(torch.float32)
errors = {}
for numbers in (numbers64, numbers32):
    exact = math.fsum(numbers.tolist())
    total = 0
    for i in range(len(numbers)):
        total += numbers[i]
    loop, summed = (abs(x.item() - exact) / exact for x in (total, torch.sum(numbers)))
    errors[numbers.dtype] = loop, summed
    print(f"{numbers.dtype!s:13} rel. error: loop {loop:.1e}  torch.sum {summed:.1e}")

# %%
# .. check:: in ``float64`` both errors stay far below ``float32``'s ``eps``
assert max(errors[torch.float64]) < eps / 1000

# %%
# In ``float32`` the loop's error is several ``eps`` (1.2e-07): a large
# running total sits among ``float32`` values far apart next to the numbers
# added, so each addition rounds it, and the roundings add up.
# :func:`torch.sum` instead sums parts of the numbers separately, then adds
# those sums, which stay small. Ones after 2²⁴ show the difference:
# 2²⁴ + 1 rounds back to 2²⁴ (as 16,777,217 did above), so a loop would stay
# at 2²⁴, while :func:`torch.sum` keeps the ones. The loop is also far slower
# (:ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`).
#
# .. detail:: Other CPUs
#
#    How :func:`torch.sum` splits the numbers, and so its exact error,
#    depends on the CPU and the thread count.
ones_after = torch.cat([torch.tensor([2.0**24]), torch.ones(100)])
print("torch.sum(ones_after) - 2**24 =", (torch.sum(ones_after) - 2**24).item())

# %%
# .. check:: in ``float32`` the loop's error is several ``eps``, and ``torch.sum`` keeps the ones
loop32, sum32 = errors[torch.float32]
assert loop32 > 3 * eps > 3 * sum32
assert torch.sum(ones_after) > 2**24  # a loop from 2**24 would stay there

# %%
# That accuracy holds for these numbers, all positive. Where large numbers
# cancel, the order of the additions decides what is left: in ``float32``,
# (1e8 + 1) - 1e8 is 0, because 1e8 + 1 rounds back to 1e8, while
# (1e8 - 1e8) + 1 is 1. :func:`torch.sum` picks its own order, so do not
# rely on its result for such numbers. ``float64`` keeps the 1 either way.
large = torch.tensor(1e8)
print((large + 1) - large, (large - large) + 1, (large.double() + 1) - large)

# %%
# .. check:: in ``float32`` (1e8 + 1) - 1e8 is 0 and (1e8 - 1e8) + 1 is 1; ``float64`` keeps the 1
assert (large + 1) - large == 0
assert (large - large) + 1 == 1 == (large.double() + 1) - large

# %%
# Summary
# -------
# - A dtype fixes what a tensor's elements can hold and how many bytes each
#   takes; :class:`torch.finfo` and :class:`torch.iinfo` give its limits.
# - Convert with :meth:`~torch.Tensor.to`. A float inside an integer dtype's
#   range loses its fraction; one outside it gives an undefined result.
# - Element-wise arithmetic on tensors of two kinds gives the higher kind's
#   dtype (``int64 + float16`` is ``float16``); of one kind, the smallest
#   dtype that holds both (:func:`torch.result_type`).
# - Integer arithmetic, and in-place casts down within a kind, wrap around
#   or overflow silently; an in-place cast to a lower kind raises.
# - ``float32`` sums lose digits: :func:`torch.sum` far fewer than a loop,
#   and where large terms cancel, the order of the additions decides.
#
# Next: :ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_selection.py`
# picks parts out of a tensor: by position, by a list of indices or by a mask.
#
# Exercises for this page: :ref:`exercises-tensors-02`.
