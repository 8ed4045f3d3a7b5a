"""
Data types
==========

After this page you can choose the :term:`dtype` a :term:`tensor` stores, and
convert it. You can say where each dtype rounds or runs out of range, and
which dtype PyTorch picks when two meet.

**Before this page:**
:ref:`sphx_glr_auto_examples_tensors_plot_01_creating_tensors.py`.
"""

# %%
# The page runs on the CPU. With the same PyTorch version, your values should match
# these, except the final sums.
import math

import matplotlib.pyplot as plt
import torch

from tutorial_utils.environment import environment_summary
from tutorial_utils.grids import draw_tensors

print(environment_summary(torch.device("cpu")))

# %%
# One set of numbers, six dtypes
# ------------------------------
# A tensor's elements share one type, its :attr:`~torch.Tensor.dtype`, which
# decides the values they can hold. :meth:`~torch.Tensor.to` converts a tensor to
# another dtype. The number in a dtype's name gives its bits: ``torch.float64``,
# ``torch.float32``, ``torch.float16``, ``torch.bfloat16`` and ``torch.int64``, plus
# ``torch.bool``.
#
# Below, ``to`` converts ``original``, five 64-bit floats, to each dtype. The site's
# helper ``draw_tensors`` draws the six columns side by side. Orange marks values
# that differ from ``original``, on the left.
#
# .. detail:: How the figure finds the changed values
#
#    ``!=`` compares element by element, giving ``True`` where two values differ.
#    ``draw_tensors`` colours those cells of ``groups`` orange. Each value goes back to
#    ``float64`` to compare. ``names`` drops the ``torch.`` of each dtype.
#    ``fmt="{:g}"`` shows at most six significant digits.
floats = [torch.float64, torch.float32, torch.float16, torch.bfloat16]
shown = [*floats, torch.int64, torch.bool]
original = torch.tensor([[-2.5], [0.0], [300.3], [2049.0], [70000.0]], dtype=floats[0])
converted = [original.to(dtype) for dtype in shown]
changed = [c.to(torch.float64) != original for c in converted]
names = [str(dtype).removeprefix("torch.") for dtype in shown]
draw_tensors(converted, names, groups=changed, fmt="{:g}")
plt.show()

# %%
# How a float is stored
# ---------------------
# A floating-point dtype stores a number like scientific notation, in base 2: a fixed
# count of binary digits, times a power of two. The digits set the precision. The power
# bits set the range. ``float32`` has 24 digits and 8 power bits, ``float16``
# 11 and 5, ``bfloat16`` 8 and 8. In the figure:
#
# - ``float32`` changes 300.3 too little to show in six digits.
# - ``float16`` turns 300.3 into 300.25. From 2048 to 4096, numbers need 12 binary
#   digits. ``float16`` keeps 11, so its numbers there lie 2 apart. 2049 is a tie
#   between 2048 and 2050: it goes to 2048, whose 11th digit is 0.
# - 70000 is too large to round down to 65504, ``float16``'s largest value: it
#   becomes ``inf``.
# - ``bfloat16`` has ``float32``'s power bits, so nearly its range: 70000 survives,
#   roughly. 300.3 becomes 300.
# - ``int64`` drops the fraction: -2.5 becomes -2.
# - ``bool`` keeps only "is it non-zero?".
#
# ``t[2]`` picks index 2, the third row. :meth:`~torch.Tensor.item` turns a
# one-element tensor into a Python number. Neither dtype holds 300.3 exactly. 17
# decimals show ``float32``'s stored value in full, but round ``float64``'s.
#
# .. detail:: 24 digits in 23 bits
#
#    Besides a sign bit, only 23, 10 and 7 digits are stored: a number of normal
#    size starts with a binary 1, which is left out.
for name, t in zip(names[:2], converted[:2], strict=True):
    print(f"300.3 as {name}: {t[2].item():.17f}")

# %%
# .. check:: each column changes the values as listed; floats keep 24, 11, 8 digits
from decimal import Decimal
from fractions import Fraction

_, float32, float16, bfloat16, int64, boolean = (c.flatten() for c in converted)
assert changed[1].flatten().tolist() == [False, False, True, False, False]
assert float16.tolist()[2:] == [300.25, 2048, math.inf]
assert bfloat16.tolist()[2:] == [300, 2048, 70144]
assert int64.tolist() == [-2, 0, 300, 2049, 70000]
assert boolean.tolist() == [True, False, True, True, True]
for dtype, digits, e in [(floats[2], 11, 5), (floats[3], 8, 8), (floats[1], 24, 8)]:
    info = torch.finfo(dtype)  # 1 sign bit, e bits for the power, digits - 1 stored
    assert info.eps == 2.0 ** (1 - digits)
    assert info.bits == 1 + e + digits - 1
    assert 2.0 ** (2 ** (e - 1) - 1) <= info.max < 2.0**2 ** (e - 1)
assert torch.finfo(torch.float16).max == 65504
assert torch.finfo(torch.float16).max < 70000 < torch.finfo(torch.bfloat16).max
assert torch.finfo(torch.bfloat16).max < torch.finfo(torch.float32).max
assert (2049).bit_length() == 12
half = torch.tensor([2048.0, 4094.0], dtype=torch.float16)
assert (torch.nextafter(half, half + 10) - half).tolist() == [2, 2]
assert [(2048 // 2) % 2, (2050 // 2) % 2] == [0, 1]  # the 11th of 12 binary digits
edge = torch.tensor([65519.0, 65520.0]).to(torch.float16)
assert edge.tolist() == [65504, math.inf]  # above 65504 is not yet inf
assert all(Decimal(c[2].item()) == Fraction(c[2].item()) for c in converted[:2])
digits = [-Decimal(c[2].item()).as_tuple().exponent for c in converted[:2]]
assert digits[1] <= 17 < digits[0]  # float32 shown in full, float64 rounded

# %%
# The dtype table
# ---------------
# :class:`torch.finfo` gives a floating-point dtype's limits, and :class:`torch.iinfo`
# an integer dtype's: ``min`` and ``max``. ``eps`` is the gap from 1 to the dtype's
# next larger number. A dtype's ``itemsize`` is the bytes each element takes.
# ``dtype.is_floating_point`` tells floats apart. The common integer dtypes are
# ``torch.uint8``, ``torch.int8``, ``torch.int16``, ``torch.int32`` and
# ``torch.int64``. ``uint8`` is unsigned: no negative values.
#
# .. detail:: A tie at 1, and aliases
#
#    1 + ``eps`` / 2 is a tie between 1 and 1 + ``eps``. It goes to 1, whose 24th
#    digit is 0. ``torch.float`` *is* ``torch.float32``. Likewise
#    ``torch.double``, ``torch.half`` and ``torch.long`` are ``float64``, ``float16``,
#    ``int64``.
integers = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
print(f"{'dtype':15} {'bytes':>5}  {'range':43}  eps")
for dtype in [*integers, *floats]:
    if dtype.is_floating_point:
        info = torch.finfo(dtype)
        value_range, eps_text = f"{info.min:.5g} to {info.max:.5g}", f"{info.eps:.3g}"
    else:
        info = torch.iinfo(dtype)
        value_range, eps_text = f"{info.min} to {info.max}", ""
    print(f"{dtype!s:15} {dtype.itemsize:5}  {value_range:43}  {eps_text}".rstrip())

# %%
# .. check:: 1 + ``eps`` / 2 is 1 in ``float32``; the aliases are the same objects
eps = torch.finfo(torch.float32).eps
assert torch.tensor(1.0) + eps / 2 == 1
assert torch.tensor(1.0) + eps > 1
aliases = [torch.float, torch.double, torch.half, torch.long]
assert aliases == [torch.float32, torch.float64, torch.float16, torch.int64]

# %%
# .. check:: other integer dtypes exist, such as ``uint16``
assert not torch.uint16.is_floating_point
assert torch.uint16 not in integers

# %%
# ``int32`` holds every whole number up to about 2.1 billion. ``float32``'s 8 power
# bits reach far higher. But between 2²⁴ = 16,777,216 and 2²⁵ its neighbours are 2
# apart.
print("16,777,217 as int32:  ", torch.tensor(16_777_217, dtype=torch.int32).item())
print("16,777,217 as float32:", torch.tensor(16_777_217, dtype=torch.float32).item())

# %%
# .. check:: ``int32`` holds 2.1 billion; ``float32`` neighbours 2 apart from 2²⁴
for start in (torch.tensor(2.0**24), torch.tensor(2.0**25 - 2)):
    assert torch.nextafter(start, torch.tensor(math.inf)) - start == 2
assert torch.nextafter(start + 2, torch.tensor(math.inf)) - start == 6
assert torch.iinfo(torch.int32).max > 2.1e9
assert 2**24 < torch.iinfo(torch.int32).max < 2.0**127 <= torch.finfo(torch.float32).max

# %%
# :attr:`~torch.Tensor.nbytes` is a tensor's size in bytes: elements times bytes each.
# A million ``float32`` numbers take 4 MB, half that in ``bfloat16``.
#
# .. detail:: Views keep their whole storage
#
#    A :term:`view` of part of a tensor shares its :term:`storage`. Its ``nbytes``
#    counts only the elements it shows, but the whole 4 MB stays.
million = torch.zeros(10**6)
print(million.dtype, million.nbytes / 1e6, "MB")
print(torch.bfloat16, million.to(torch.bfloat16).nbytes / 1e6, "MB")

# %%
# .. check:: ``nbytes`` is elements times element size, halved in ``bfloat16``; a view keeps all 4 MB
view = million[:10]
assert million.nbytes == million.numel() * million.element_size()
assert view.untyped_storage().nbytes() == million.nbytes > 1000 * view.nbytes
assert million.to(torch.bfloat16).nbytes == million.nbytes // 2

# %%
# Default dtypes and conversions
# ------------------------------
# Python floats, 64 bits, become the default dtype, ``float32``
# (:func:`torch.get_default_dtype`). 0.1 has no exact binary form, so ``float32``
# keeps a coarser copy: it comes back changed. 0.5, a power of two, does not.
back = torch.tensor(0.1).item()
print(torch.get_default_dtype(), back, back == 0.1)
print(torch.tensor(0.5).item() == 0.5)

# %%
# The shorthand methods :meth:`~torch.Tensor.double`, :meth:`~torch.Tensor.float`,
# :meth:`~torch.Tensor.half` and :meth:`~torch.Tensor.long` give ``float64``,
# ``float32``, ``float16`` and ``int64``. Converting to another dtype makes a new
# tensor. Converting *up*, to
# a dtype that holds more, adds no precision: ``t2`` equals ``t``.
#
# A non-empty tensor of this page's dtypes prints its dtype, unless it is ``int64``,
# ``bool`` or the default ``float32``.
#
# .. detail:: Same dtype, empty tensors, and complex dtypes
#
#    Asking for the dtype a tensor already has returns the tensor itself, unless you
#    pass ``copy=True``. An empty tensor prints its dtype unless it has the default
#    dtype. A ``complex64`` tensor, such as ``torch.tensor([1j])``, prints none.
torch.manual_seed(0)
t = torch.rand(2, 3)
t2 = t.to(torch.float64)
print(t, t2, sep="\n")

# %%
# .. check:: the methods agree and copy, except to the same dtype; which dtypes print
assert all(torch.equal(t2, u) for u in (t.to(torch.float64), t.double()))
assert t.double().dtype == torch.float64
assert t.float().dtype == torch.float32  # not float64, as a Python float
assert t.half().dtype == torch.float16
assert t.long().dtype == torch.int64
assert t2.data_ptr() != t.data_ptr()
assert t.to(torch.float32) is t
assert t.to(torch.float32, copy=True) is not t
assert torch.equal(t2.float().double(), t2)  # nothing lost on the way back
quiet = [t, torch.tensor([1]), torch.tensor([True]), torch.tensor([1j])]
assert all("dtype" not in repr(x) for x in quiet)
assert torch.tensor([1j]).dtype == torch.complex64
assert "dtype" in repr(t2)
empty = [torch.tensor([], dtype=d) for d in (torch.int64, torch.bool, torch.complex64)]
assert all("dtype" in repr(x) for x in empty)
assert "dtype" not in repr(torch.tensor([]))
assert "dtype" in repr(torch.tensor([1j], dtype=torch.complex128))
torch.set_default_dtype(torch.float64)
try:  # with another default dtype, an empty float32 tensor prints its dtype
    assert "dtype" in repr(torch.empty(0, dtype=torch.float32))
    assert "dtype" not in repr(torch.empty(0, dtype=torch.float64))
finally:
    torch.set_default_dtype(torch.float32)
for dtype in [*integers, *floats, torch.bool]:
    quiet_dtype = dtype in (torch.int64, torch.bool, torch.float32)
    assert ("dtype" in repr(torch.ones(1, dtype=dtype))) != quiet_dtype

# %%
# A float that fits an integer dtype loses its fraction there. NaN, "not a number",
# is a float value. Some floats do not fit an integer dtype, such as ``inf``, 1e20
# or NaN:
#
# 1. in a float tensor, they convert without error, to undefined values;
# 2. as Python floats, they make ``torch.tensor`` raise an error.
#
# So before converting to ``uint8``, ``int8`` or ``int16``,
# :meth:`~torch.Tensor.clamp` values into its range.
#
# :meth:`~torch.Tensor.round` rounds, taking halves to the even neighbour.
#
# .. detail:: NaN, and clamping for ``int32``
#
#    NaN passes through ``clamp``. :func:`torch.nan_to_num` replaces it. ``clamp``
#    turns its bounds into the tensor's dtype. The largest ``int32``, 2³¹ - 1, becomes
#    2³¹ in ``float32``, so clamped values still do not fit.
values = torch.tensor([-1.7, -0.5, 0.5, 2.5])
print(values.to(torch.int64), values.round().to(torch.int64))
print(torch.tensor([-1.0, 300.0]).clamp(0, 255).to(torch.uint8))

# %%
# .. check:: converting drops the fraction; clamp works for small dtypes; NaN passes
assert torch.equal(values.to(torch.int64), values.trunc().to(torch.int64))
assert values.round().tolist() == [-2, 0, 0, 2]
bad = torch.tensor([math.inf, math.nan, 1e20])
assert bad.to(torch.int32).dtype == torch.int32  # no error raised
for small_int in integers[:3]:
    lo, hi = torch.iinfo(small_int).min, torch.iinfo(small_int).max
    assert bad[::2].clamp(lo, hi).to(small_int).tolist() == [hi, hi]
misfits = [(1e20, torch.int32), (300.0, torch.uint8), (math.nan, torch.int64)]
for python_float, dtype in misfits:
    try:
        torch.tensor(python_float, dtype=dtype)
        raise AssertionError("a Python float out of range was accepted")
    except RuntimeError:
        pass
assert torch.tensor(1e5, dtype=torch.float16).isinf()  # a float dtype does not raise
assert bad.clamp(0, 255).isnan()[1]
assert torch.nan_to_num(bad).clamp(0, 255).isfinite().all()
top = torch.iinfo(torch.int32).max
assert torch.tensor(top, dtype=torch.float32).item() == 2**31  # the bound, as float32
assert bad[2:].clamp(-top - 1, top).item() == 2**31 > top  # still out of range

# %%
# Integers wrap around
# --------------------
# ``+`` and ``-`` on tensors work element by element. Integer addition or subtraction
# that leaves the dtype's range *wraps around* silently. Past one end,
# counting restarts at the other, like a car's odometer. Image pixels are often
# ``uint8``: two bright pixels can add up to a dark one.
# :meth:`~torch.Tensor.sum` of an integer tensor is safer: it adds in ``int64``.
print("int8  127 + 1 =", (torch.tensor([127], dtype=torch.int8) + 1).item())
print("uint8   0 - 1 =", (torch.tensor([0], dtype=torch.uint8) - 1).item())
pixels = torch.tensor([200, 100], dtype=torch.uint8)
print("uint8 200 + 100 =", (pixels[0] + pixels[1]).item())
print("pixels.sum() =", pixels.sum().item(), "as", pixels.sum().dtype)

# %%
# .. check:: integers wrap around; ``sum`` of ``uint8`` adds in ``int64``
assert (torch.tensor([127], dtype=torch.int8) + 1).item() == -128
assert (pixels[0] + pixels[1]).item() == (200 + 100) % 256
assert pixels.sum().dtype == torch.int64
assert pixels.sum().item() == 300
assert (torch.tensor([1], dtype=torch.int8) + 1000).item() == 1001 - 4 * 256

# %%
# When two dtypes meet: type promotion
# ------------------------------------
# When :term:`element-wise` arithmetic meets two dtypes, *type promotion* picks the
# result's dtype. For two tensors of the dtypes in the table, each with at least one
# :term:`dimension`:
#
# 1. the kinds are ordered: bool, integer, floating point;
# 2. of two kinds, the result takes the higher kind's dtype;
# 3. within one kind, it takes the smallest dtype that holds both.
#
# .. detail:: Tensors with no dimensions, and the full rules
#
#    A tensor with no dimensions changes the dtype only when its kind is higher. The
#    full rules are in :ref:`sphx_glr_auto_examples_tensors_plot_52_type_promotion.py`.
#    :func:`torch.result_type` names the dtype that two inputs give.
#
# A Python number changes the dtype only when its kind is higher than the tensor's.
# Then a Python float brings the default dtype: ``int64`` + 2.5 gives ``float32``.
#
# ``/`` of two integer tensors gives ``float32``, the default dtype. ``//`` keeps
# integers and rounds down.
f16 = torch.ones(2, dtype=torch.float16)
pairs = [
    ("int64 + float32", torch.tensor([1, 2]), torch.tensor([0.5, 0.5])),
    ("int8 + uint8", torch.ones(2, dtype=torch.int8), torch.ones(2, dtype=torch.uint8)),
    ("float16 + bfloat16", f16, f16.to(torch.bfloat16)),
    ("int64 + 2.5", torch.tensor([1, 2]), 2.5),
    ("float16 + 2.5", f16, 2.5),
]
for label, a, b in pairs:
    print(f"{label:18} -> {(a + b).dtype}")
seven, two = torch.tensor([7, -7]), torch.tensor([2, 2])
print(seven / two, seven // two)

# %%
# .. check:: each sum has the ``result_type`` dtype; any float beats any integer
assert all((a + b).dtype == torch.result_type(a, b) for _, a, b in pairs)
assert all(torch.promote_types(i, f) == f for i in integers for f in floats)
assert (torch.tensor([True]) + torch.tensor([1], dtype=torch.int8)).dtype == torch.int8
assert torch.promote_types(torch.int8, torch.uint8) == torch.int16
assert (torch.tensor([1]) + 2.5).dtype == torch.get_default_dtype()
assert (torch.tensor([True]) + 1).dtype == torch.int64  # a higher kind
assert (f16 + 2.5).dtype == torch.float16  # the same kind: no change
no_dims = [torch.tensor(1000), torch.tensor(1.0, dtype=torch.float64)]
assert (torch.ones(1, dtype=torch.uint8) + no_dims[0]).dtype == torch.uint8
assert (f16 + no_dims[1]).dtype == torch.float16
assert (torch.tensor([1]) + no_dims[1]).dtype == torch.float64

# %%
# .. check:: ``/`` of two integer tensors gives the default floating-point dtype
assert (seven / two).dtype == torch.get_default_dtype()
assert (seven // two).tolist() == [math.floor(7 / 2), math.floor(-7 / 2)]

# %%
# In-place arithmetic keeps its dtype
# -----------------------------------
# An :term:`in-place operation` writes into the tensor it is called on. For in-place
# arithmetic, such as ``add_`` or ``+=``, the result keeps that tensor's dtype. A
# result of a higher kind, such as a float into an integer tensor, raises
# (:ref:`atlas entry <error-result-type-cast>`). The message calls ``float32`` Float
# and ``int64`` Long.
#
# .. detail:: Converting down within one kind
#
#    For ``add_``, ``mul_`` and ``+=``, a result of the same kind is converted down to
#    the tensor's dtype silently, even when it does not fit. Some in-place methods,
#    such as ``index_add_``, raise on any other dtype.
counts = torch.tensor([1, 2])
try:
    counts.add_(1.5)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
else:
    raise AssertionError("an int64 tensor took a float in place")

# %%
# .. check:: in-place arithmetic keeps the dtype: it converts down, or raises
messages = []
for step in (lambda c: c.add_(1.5), lambda c: c.__iadd__(1.5)):
    try:
        step(torch.tensor([1, 2]))
        raise AssertionError("an integer tensor took a float in place")
    except RuntimeError as caught:
        messages.append(str(caught))
assert all("Float" in m and "Long" in m for m in messages)  # float32 and int64
small = torch.tensor([1, 2], dtype=torch.int32)
assert small.add_(torch.tensor([2**31, 2**31])).dtype == torch.int32
assert small.tolist() == [1 - 2**31, 2 - 2**31]  # wrapped around
assert torch.ones(1, dtype=torch.float16).add_(torch.full((1,), 1e5)).isinf().all()
assert small.mul_(torch.tensor([2, 2])).tolist() == [2, 4]  # int32, wrapped
small += torch.tensor([2**31, 2**31])
assert small.tolist() == [2 - 2**31, 4 - 2**31]  # += too
assert torch.tensor(1.0).type() == "torch.FloatTensor"  # Float is float32
assert torch.tensor(1).type() == "torch.LongTensor"  # Long is int64
at, one = torch.tensor([0]), torch.tensor([1])
for step in (
    lambda: torch.tensor([True]).add_(1),  # int64 into bool: a higher kind
    lambda: small.index_add_(0, at, one),  # int64 into int32: same kind, but raises
    lambda: small.double().index_add_(0, at, one.float()),  # float32 into float64
):
    try:
        step()
    except RuntimeError:
        pass
    else:
        raise AssertionError("a higher kind or dtype was written in place")

# %%
# What precision buys: a sum of many numbers
# ------------------------------------------
# Below, 100,000 random numbers are summed in ``float64`` and ``float32``, two ways:
#
# 1. :func:`torch.sum` adds them in one call.
# 2. A Python loop adds ``numbers[i]``, a tensor, to ``total`` one at a time.
#    ``total`` becomes a tensor at the first addition, so each addition rounds to
#    the dtype.
#
# :func:`math.fsum` gives the exact sum of each dtype's own values, so the errors
# measure the summing only. The *relative error* is the distance from it, divided by
# it.
torch.manual_seed(0)
numbers64 = torch.rand(10**5, dtype=torch.float64)
numbers32 = numbers64.to(torch.float32)
errors = {}
for numbers in (numbers64, numbers32):
    exact = math.fsum(numbers.tolist())
    total = 0
    for i in range(len(numbers)):
        total += numbers[i]
    loop = abs(total.item() - exact) / exact
    summed = abs(torch.sum(numbers).item() - exact) / exact
    errors[numbers.dtype] = loop, summed
    print(f"{numbers.dtype!s:13} relative error: loop {loop:.1e}, sum {summed:.1e}")

# %%
# One ``float32`` rounding has a relative error of at most ``eps`` / 2, for
# normal-size numbers. In ``float64`` both errors stay far below ``float32``'s
# ``eps``. In ``float32`` the loop's error is several ``eps``. On a long tensor like
# this, :func:`torch.sum` adds in parts, then sums the parts, so it rounds less.
#
# .. detail:: Why the loop loses digits
#
#    The loop's total grows large, and near a large total ``float32`` numbers lie far
#    apart. So each addition rounds, and the roundings add up.
#
# 2²⁴ + 1 rounds back to 2²⁴, so a loop adding ones to 2²⁴ never moves.
# On ``ones_after``, 2²⁴ then 100 ones, :func:`torch.sum` keeps all the ones. A
# short tensor loses them, as the loop does.
#
# .. detail:: Other CPUs and thread counts
#
#    :func:`torch.sum`'s split of the numbers, and so its error, can change with the
#    CPU and thread count. The error stays far below the loop's.
#
# .. detail:: When large numbers cancel
#
#    Then the order decides. In ``float32``, (1e8 + 1) - 1e8 is 0, but
#    (1e8 - 1e8) + 1 is 1. ``float64`` keeps the 1. :func:`torch.sum` picks its own
#    order, so do not trust it there.
ones_after = torch.ones(101)
ones_after[0] = 2.0**24
print("torch.sum(ones_after) - 2**24 =", (torch.sum(ones_after) - 2**24).item())

# %%
# .. check:: only the ``float32`` loop loses several ``eps``; ``torch.sum`` keeps the ones
loop32, sum32 = errors[torch.float32]
eps = torch.finfo(torch.float32).eps
assert max(errors[torch.float64]) < eps / 1000
assert loop32 > 3 * eps > 3 * sum32
assert torch.sum(ones_after) == 2**24 + 100
running = ones_after[0].clone()
for one_more in ones_after[1:]:
    running += one_more
assert running == 2**24  # the loop never moves
threads, exact32 = torch.get_num_threads(), math.fsum(numbers32.tolist())
torch.set_num_threads(1)
one_thread = abs(torch.sum(numbers32).item() - exact32) / exact32
torch.set_num_threads(threads)
assert one_thread < loop32 / 3  # another thread count, still far below

# %%
# .. check:: each dtype has its own exact sum; one rounding errs at most ``eps`` / 2
assert math.fsum(numbers32.tolist()) != math.fsum(numbers64.tolist())
normal = numbers64[numbers64 >= torch.finfo(torch.float32).tiny]
assert ((normal.float().double() - normal).abs() <= eps / 2 * normal).all()

# %%
# .. check:: on a short tensor, ``torch.sum`` loses the ones, like the loop
assert torch.sum(torch.tensor([2.0**24, 1, 1, 1, 1])) == 2**24

# %%
# .. check:: split another way, the same ``float32`` numbers sum to another value
import numpy as np  # its cumsum adds in order, on every machine

in_order = numbers32.numpy()
whole = np.cumsum(in_order, dtype=np.float32)[-1]
halves = [np.cumsum(half, dtype=np.float32)[-1] for half in np.array_split(in_order, 2)]
assert halves[0] + halves[1] != whole

# %%
# .. check:: in ``float32`` the order decides, for ``torch.sum`` too; ``float64`` keeps the 1
large = torch.tensor(1e8)
assert (large + 1) - large == 0
assert (large - large) + 1 == 1 == (large.double() + 1) - large
assert torch.tensor([1e8, 1, -1e8]).sum() != torch.tensor([1e8, -1e8, 1]).sum()

# %%
# Summary
# -------
# - Convert with :meth:`~torch.Tensor.to`. Clamp before ``uint8``, ``int8`` or
#   ``int16``.
# - Integer addition and subtraction wrap around silently.
# - Two kinds give the higher kind's dtype.
# - In-place arithmetic keeps the tensor's dtype.
# - In ``float32``, :func:`torch.sum` of a long tensor loses fewer digits than a loop.
#
# Next: :ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_selection.py` picks
# parts out of a tensor.
#
# Exercises for this page: :ref:`exercises-tensors-02`.
