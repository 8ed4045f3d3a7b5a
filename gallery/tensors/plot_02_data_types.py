"""
Data types
==========

Choose the :term:`dtype` a :term:`tensor` stores, and convert it. After this
page you can say what each common dtype holds, where it rounds or overflows,
and which dtype PyTorch picks when two dtypes meet.

**Before this page:**
:ref:`sphx_glr_auto_examples_tensors_plot_01_creating_tensors.py`.
"""

# %%
# The page runs on the CPU. With the same PyTorch version, your values should match
# these, apart from the last digits of the summing errors at the end.
import math

import matplotlib.pyplot as plt
import torch

from tutorial_utils.environment import environment_summary
from tutorial_utils.grids import draw_tensors

print(environment_summary(torch.device("cpu")))

# %%
# One set of numbers, six dtypes
# ------------------------------
# All elements of a tensor share one type, its :attr:`~torch.Tensor.dtype`. The dtype
# decides which values the tensor can hold. :meth:`~torch.Tensor.to` converts a tensor
# to another dtype. The number in a dtype's name gives its bits: ``torch.float64``,
# ``torch.float32``, ``torch.float16``, ``torch.bfloat16`` and ``torch.int64``. The
# sixth dtype here is ``torch.bool``.
#
# Below, ``to`` converts five 64-bit floats, ``original``, into the five other dtypes.
# ``original`` is a column, one number a row. So each value gets its own row in all
# six columns. The site's helper ``draw_tensors`` colours a cell orange where the value
# differs from the original on the left.
#
# .. detail:: How the figure finds the changed values
#
#    ``!=`` compares two tensors element by element, giving ``True`` or ``False`` for
#    each. ``draw_tensors`` colours the ``True`` cells of ``groups`` orange. Each value
#    goes back to ``float64`` to compare, so nothing rounds the original.
#    ``fmt="{:g}"`` shows each value with at most six digits.
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
# count of binary digits, times a power of two. The digits set the precision, and the
# powers the range. ``float32`` keeps 24 binary digits, ``float16`` 11, and
# ``bfloat16`` 8. Read the figure column by column:
#
# - ``float32`` rounds 300.3, below the six digits shown.
# - ``float16`` turns 300.3 into 300.25. 2049 needs 12 binary digits. It is halfway
#   between 2048 and 2050, and ties go to 2048, as detailed below. 70000 is above its
#   largest value, 65504, so it becomes ``inf``, infinity.
# - ``bfloat16`` has nearly the range of ``float32``, so 70000 survives, roughly.
#   300.3 becomes 300.
# - ``int64`` drops the fraction: -2.5 becomes -2.
# - ``bool`` keeps only "is it non-zero?".
#
# ``t[2]`` picks row 2 of the column, as in a list of lists.
# :meth:`~torch.Tensor.item` turns a one-element tensor into a Python number. The 17
# decimals show the stored value in full.
#
# .. detail:: 24 digits in 23 bits
#
#    Only 23, 10 and 7 of these digits are stored. Numbers of normal size are scaled
#    so that their first binary digit is 1. So that digit is left out.
#    :class:`torch.finfo` confirms the bit counts.
for name, t in zip(names[:2], converted[:2], strict=True):
    print(f"300.3 as {name}: {t[2].item():.17f}")

# %%
# .. check:: each column changes the values as listed; floats keep 24, 11, 8 digits
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

# %%
# The dtype table
# ---------------
# :class:`torch.finfo` gives a floating-point dtype's limits, and :class:`torch.iinfo`
# an integer dtype's. A dtype's ``itemsize`` is the bytes each element takes. ``eps``
# is the gap between 1 and the next larger number the dtype holds.
# ``dtype.is_floating_point`` tells floats apart. The integer dtypes are
# ``torch.uint8``, ``torch.int8``, ``torch.int16``, ``torch.int32`` and
# ``torch.int64``. The u of ``uint8`` means unsigned: no negative values.
#
# .. detail:: Ties round to even, and aliases
#
#    Adding half of ``eps`` to 1 leaves 1 unchanged. The exact sum lies halfway
#    between two neighbours, and a tie goes to the one whose last binary digit is
#    even: 1. Adding all of ``eps`` does change 1. ``torch.float`` *is*
#    ``torch.float32``. Likewise ``torch.double``, ``torch.half`` and ``torch.long``
#    are ``float64``, ``float16``, ``int64``.
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
# ``int32`` holds every whole number up to about 2.1 billion. ``float32`` reaches far
# higher with its 24 digits. But between 2²⁴ = 16,777,216 and 2²⁵ its neighbouring
# numbers are 2 apart.
print("16,777,217 as int32:  ", torch.tensor(16_777_217, dtype=torch.int32).item())
print("16,777,217 as float32:", torch.tensor(16_777_217, dtype=torch.float32).item())

# %%
# .. check:: ``int32`` holds 2.1 billion; ``float32`` neighbours 2 apart from 2²⁴
for start in (torch.tensor(2.0**24), torch.tensor(2.0**25 - 2)):
    assert torch.nextafter(start, torch.tensor(math.inf)) - start == 2
assert torch.nextafter(start + 2, torch.tensor(math.inf)) - start == 6
assert torch.iinfo(torch.int32).max > 2.1e9

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
# Python floats become the default dtype, ``float32``
# (:func:`torch.get_default_dtype`). A Python float has 64 bits. 0.1 has no exact
# binary form, and ``float32`` keeps a coarser copy of it. So 0.1 comes back changed.
# 0.5, a power of two, comes back unchanged.
back = torch.tensor(0.1).item()
print(torch.get_default_dtype(), back, back == 0.1)
print(torch.tensor(0.5).item() == 0.5)

# %%
# Shorthand methods convert too:
#
# - :meth:`~torch.Tensor.double` gives ``float64``;
# - :meth:`~torch.Tensor.float` gives ``float32``, not the 64 bits of a Python float;
# - :meth:`~torch.Tensor.half` gives ``float16``;
# - :meth:`~torch.Tensor.long` gives ``int64``.
#
# :meth:`~torch.Tensor.type`, given a dtype, converts to it. Converting to another
# dtype makes a new tensor. Converting up adds no precision: ``t2`` holds ``t``'s
# values exactly.
#
# A tensor prints its dtype, unless it is ``int64``, ``bool`` or the default
# ``float32``.
#
# .. detail:: Same dtype, empty tensors, and complex dtypes
#
#    Asking for the dtype a tensor already has returns the tensor itself, unless you
#    pass ``copy=True``. An empty ``int64`` tensor does print its dtype. PyTorch also
#    has complex dtypes, for numbers such as ``1j``. A ``complex64`` tensor prints no
#    dtype either.
torch.manual_seed(0)
t = torch.rand(2, 3)
t2 = t.type(torch.float64)
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
assert "dtype" in repr(torch.tensor([], dtype=torch.int64))

# %%
# A float that fits an integer dtype loses its fraction there.
#
# - Converting a float tensor with values outside the range raises no error. Such
#   values are ``inf``, NaN, the "not a number" value, or 1e20. PyTorch does not
#   define the result.
# - A Python float that does not fit raises an error instead.
# - Before converting to ``uint8``, ``int8`` or ``int16``, :meth:`~torch.Tensor.clamp`
#   values into the range.
#
# To round, call :meth:`~torch.Tensor.round`. It takes halves to the even neighbour.
#
# .. detail:: NaN and ``clamp``
#
#    NaN passes through ``clamp``. :func:`torch.nan_to_num` replaces it.
values = torch.tensor([-1.7, -0.5, 0.5, 2.5])
print(values.to(torch.int64), values.round().to(torch.int64))
print(torch.tensor([-1.0, 300.0]).clamp(0, 255).to(torch.uint8))

# %%
# .. check:: converting drops the fraction; clamp works for small dtypes; NaN passes
assert torch.equal(values.to(torch.int64), values.trunc().to(torch.int64))
bad = torch.tensor([math.inf, math.nan, 1e20])
assert bad.to(torch.int32).dtype == torch.int32  # no error raised
for small_int in integers[:3]:
    lo, hi = torch.iinfo(small_int).min, torch.iinfo(small_int).max
    assert bad[::2].clamp(lo, hi).to(small_int).tolist() == [hi, hi]
try:
    torch.tensor(1e20, dtype=torch.int32)
    raise AssertionError("a Python float out of range was accepted")
except RuntimeError:
    pass
assert bad.clamp(0, 255).isnan()[1]
assert torch.nan_to_num(bad).clamp(0, 255).isfinite().all()

# %%
# Integers wrap around
# --------------------
# ``+`` and ``-`` on tensors work element by element. Integer addition or subtraction
# that leaves the dtype's range *wraps around*, without a warning. ``uint8`` is the
# usual dtype of image pixels, so adding two bright pixels can give a dark one.
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

# %%
# When two dtypes meet: type promotion
# ------------------------------------
# :term:`Element-wise <element-wise>` arithmetic can meet two dtypes. *Type promotion*
# then picks the result's dtype. For two tensors of the dtypes in the table, each with
# at least one :term:`dimension`:
#
# 1. the kinds are ordered: bool, integer, floating point;
# 2. of two kinds, the result takes the higher kind's dtype;
# 3. within one kind, it takes the smallest dtype that holds both.
#
# .. detail:: Tensors with no dimensions, and the full rules
#
#    The full rules, for tensors with no dimensions too, are in
#    :ref:`sphx_glr_auto_examples_tensors_plot_52_type_promotion.py`.
#    :func:`torch.result_type` names the dtype that two inputs give.
#
# A Python number changes the dtype only when its kind is higher than the tensor's.
# Then a Python float brings the default dtype, ``float32``. So ``int8`` 127 + 1
# stayed ``int8``, but ``int64`` + 2.5 gives ``float32``.
#
# ``/`` is true division. Its result has a floating-point dtype, ``float32`` for two
# integer tensors. ``//`` keeps integers and rounds down.
i32 = torch.tensor([1, 2], dtype=torch.int32)
f16 = torch.ones(2, dtype=torch.float16)
pairs = [
    ("int64 + float32", torch.tensor([1, 2]), torch.tensor([0.5, 0.5])),
    ("int8 + uint8", i32.to(torch.int8), i32.to(torch.uint8)),
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

# %%
# .. check:: ``/`` of two integer tensors gives the default floating-point dtype
assert (seven / two).dtype == torch.get_default_dtype()
assert (seven // two).tolist() == [math.floor(7 / 2), math.floor(-7 / 2)]

# %%
# In-place arithmetic keeps its dtype
# -----------------------------------
# An :term:`in-place operation` writes into the tensor it is called on. For in-place
# arithmetic, such as ``add_`` or ``+=``, the result keeps that tensor's dtype. A
# float result into an integer tensor raises (:ref:`atlas entry
# <error-result-type-cast>`):
#
# .. detail:: Converting down within one kind
#
#    Within one kind, the result is converted down silently, even when it does not
#    fit.
counts = torch.tensor([1, 2])
try:
    counts.add_(1.5)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
else:
    raise AssertionError("an int64 tensor took a float in place")

# %%
# .. check:: in-place arithmetic keeps the dtype: it converts down, or raises
for step in (lambda c: c.add_(1.5), lambda c: c.__iadd__(1.5)):
    try:
        step(torch.tensor([1, 2]))
        raise AssertionError("an integer tensor took a float in place")
    except RuntimeError:
        pass
small = torch.tensor([1, 2], dtype=torch.int32)
assert small.add_(torch.tensor([2**31, 2**31])).dtype == torch.int32
assert small.tolist() == [1 - 2**31, 2 - 2**31]  # wrapped around
assert torch.ones(1, dtype=torch.float16).add_(torch.full((1,), 1e5)).isinf().all()

# %%
# What precision buys: a sum of many numbers
# ------------------------------------------
# Below, 100,000 random numbers in ``float64`` and ``float32`` are summed two ways: by
# :func:`torch.sum`, and by a Python loop. ``numbers[i]`` is a tensor of the dtype of
# ``numbers``, not a Python float. So ``total`` becomes a tensor of that dtype too, and
# each addition rounds to it. ``errors`` keeps the results for a check below.
# :func:`math.fsum` gives the exact sum. The *relative error* is the distance from it,
# divided by it.
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
# In ``float64`` both errors stay far below ``float32``'s ``eps``. In ``float32`` the
# loop's error is several ``eps``. :func:`torch.sum` adds the numbers in parts, then
# adds the parts' sums, so it rounds less.
#
# .. detail:: Why the loop loses digits
#
#    The loop's total grows large, and near a large total ``float32`` numbers lie far
#    apart. So each addition rounds, and the roundings add up.
#
# Ones added to 2²⁴ show it plainly. 2²⁴ + 1 rounds back to 2²⁴, so a loop from 2²⁴
# never moves. Here, :func:`torch.sum` keeps all 100 ones.
#
# .. detail:: Other CPUs and thread counts
#
#    How :func:`torch.sum` splits the numbers can change with the CPU and the thread
#    count, and its last digits with it. Its error stays far below the loop's.
#
# .. detail:: When large numbers cancel
#
#    Then the order of the additions decides. In ``float32``, (1e8 + 1) - 1e8 is 0,
#    but (1e8 - 1e8) + 1 is 1. :func:`torch.sum` picks its own order, so do not trust
#    it on such numbers. ``float64`` keeps the 1 here.
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
# .. check:: in ``float32`` the order decides, for ``torch.sum`` too; ``float64`` keeps the 1
large = torch.tensor(1e8)
assert (large + 1) - large == 0
assert (large - large) + 1 == 1 == (large.double() + 1) - large
assert torch.tensor([1e8, 1, -1e8]).sum() != torch.tensor([1e8, -1e8, 1]).sum()

# %%
# Summary
# -------
# - A dtype fixes what each element holds: :class:`torch.finfo` and
#   :class:`torch.iinfo` give its limits.
# - Convert with :meth:`~torch.Tensor.to`. Clamp before a small integer dtype.
# - Integer addition and subtraction wrap around silently.
# - Two kinds give the higher kind's dtype; in-place arithmetic keeps it.
# - ``float32`` sums lose digits, :func:`torch.sum` fewer than a loop.
#
# Next: :ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_selection.py` picks
# parts out of a tensor.
#
# Exercises for this page: :ref:`exercises-tensors-02`.
