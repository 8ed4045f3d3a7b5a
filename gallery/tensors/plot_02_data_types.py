"""
Data types
==========

Choose the dtype a tensor stores, change it, and predict the dtype PyTorch
picks when two dtypes meet. After this page you know what each dtype can
hold, where it overflows or rounds, and what its precision costs in memory.
"""

# %%
# Every page starts by saying what computed it. On your machine the versions,
# the device and the thread count may differ, and so may the timings; the
# other values printed on this page will not.
import math
import statistics
import time

import matplotlib.pyplot as plt
import numpy as np
import torch

from tutorial_utils.devices import pick_device
from tutorial_utils.environment import environment_summary
from tutorial_utils.plotting import PALETTE, draw_tensors

device = pick_device()
print(environment_summary(device))

# %%
# One set of numbers, six dtypes
# ------------------------------
# Every element of a tensor has the same type, its :attr:`~torch.Tensor.dtype`.
# The dtype decides which values the tensor can hold. Below, five numbers are
# converted from 64-bit floats into five other dtypes with
# :meth:`~torch.Tensor.to`. An orange cell holds a different value from the
# original on the left.
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

# sphinx_gallery_start_ignore
_, float32, float16, bfloat16, int64, boolean = converted
assert not changed[0].any()
assert changed[1].tolist() == [0, 0, 1, 0, 0]
assert float16[2] == 300.25
assert float16[3] == 2048
assert math.isinf(float16[4])
assert bfloat16[2] == 300
assert bfloat16[3] == 2048
assert bfloat16[4] == 70144
for dtype, binary_digits in [
    (torch.float16, 11),
    (torch.bfloat16, 8),
    (torch.float32, 24),
]:
    assert torch.finfo(dtype).eps == 2.0 ** (1 - binary_digits)
assert torch.finfo(torch.float16).max < 70000 < torch.finfo(torch.bfloat16).max
assert int64.tolist() == [-2, 0, 300, 2049, 70000]
assert boolean.tolist() == [True, False, True, True, True]
# sphinx_gallery_end_ignore

# %%
# Read it column by column:
#
# - ``float32`` rounds 300.3 to its 24 binary digits. The change is far
#   below the six digits shown, but the cell is orange because the stored
#   value differs (printed in full below).
# - ``float16`` keeps only 11 binary digits: 300.3 becomes 300.25, 2049
#   becomes 2048, and 70000 is beyond its largest value, so it becomes
#   ``inf``.
# - ``bfloat16`` keeps the range of ``float32`` (70000 survives, roughly)
#   but only 8 binary digits: 300.3 becomes 300.
# - ``int64`` drops the fraction, rounding toward zero: -2.5 becomes -2.
# - ``bool`` keeps only "is it non-zero?".
for dtype, tensor in zip(shown[:2], converted[:2], strict=True):
    print(f"300.3 as {str(dtype).removeprefix('torch.')}: {tensor[2].item():.17f}")

# %%
# The dtype table
# ---------------
# The table is built from PyTorch itself: the aliases are the other names
# under which :mod:`torch` holds the same dtype object, the size comes from
# :meth:`~torch.Tensor.element_size` of a real tensor, and the range from
# :class:`torch.finfo` (floating point) or :class:`torch.iinfo` (integers).
table_dtypes = [
    torch.bool,
    torch.uint8,
    torch.int8,
    torch.int16,
    torch.int32,
    torch.int64,
    torch.float16,
    torch.bfloat16,
    torch.float32,
    torch.float64,
]
print(f"{'dtype':9} {'aliases':7} {'bits':>4} {'bytes':>5} {'float':6} range")
for dtype in table_dtypes:
    name = str(dtype).removeprefix("torch.")
    aliases = [n for n, v in vars(torch).items() if v is dtype and n != name]
    sample = torch.zeros(1, dtype=dtype)
    floating = sample.is_floating_point()
    if dtype == torch.bool:
        value_range = "False, True"
    elif floating:
        info = torch.finfo(dtype)
        value_range = f"{info.min:.5g} to {info.max:.5g}"
    else:
        info = torch.iinfo(dtype)
        value_range = f"{info.min} to {info.max}"
    bits = 8 * sample.element_size()
    alias_text = ", ".join(sorted(aliases)) or "-"
    print(
        f"{name:9} {alias_text:7} {bits:4} {sample.element_size():5} "
        f"{floating!s:6} {value_range}"
    )

    # sphinx_gallery_start_ignore
    assert sample.element_size() == dtype.itemsize == sample.itemsize
    if dtype != torch.bool:
        assert info.bits == bits
    # sphinx_gallery_end_ignore

# %%
# ``torch.float`` *is* ``torch.float32`` (the same object, not a copy), and
# ``torch.long`` *is* ``torch.int64``: the aliases are the names C
# programmers know. Two things in the table surprise people: a ``bool``
# takes a whole byte, not one bit, and ``int32`` and ``float32`` take the same
# four bytes but spend them differently: exact whole numbers up to about
# 2.1 billion against about seven significant digits over a huge range.
print(torch.float is torch.float32, torch.long is torch.int64)

# sphinx_gallery_start_ignore
assert torch.float is torch.float32
assert torch.long is torch.int64
assert torch.zeros(8, dtype=torch.bool).element_size() == 1
# sphinx_gallery_end_ignore

# %%
# PyTorch's defaults against NumPy's
# ----------------------------------
# Whole numbers become ``int64``, decimals become ``float32``: the default
# floating-point dtype, which :func:`torch.get_default_dtype` reports. 32 bits
# are plenty for the weights of a neural network, and half as many bytes to
# store and move as 64. NumPy defaults to ``float64``, and a tensor made from
# a NumPy array keeps the array's dtype.
from_numpy = torch.from_numpy(np.array([0.5, 1.5]))
print("torch.tensor([1, 2])     ", torch.tensor([1, 2]).dtype)
print("torch.tensor([1.0, 2.0]) ", torch.tensor([1.0, 2.0]).dtype)
print("torch.get_default_dtype()", torch.get_default_dtype())
print("np.array([0.5, 1.5])     ", np.array([0.5, 1.5]).dtype)
print("torch.from_numpy(...)    ", from_numpy.dtype)

# sphinx_gallery_start_ignore
assert torch.tensor([1, 2]).dtype == torch.int64
assert torch.tensor([1.0, 2.0]).dtype == torch.get_default_dtype() == torch.float32
assert np.array([0.5, 1.5]).dtype == np.float64
assert from_numpy.dtype == torch.float64
# sphinx_gallery_end_ignore

# %%
# A Python ``float`` is 64 bits, so even a single number changes when it goes
# into a ``float32`` tensor and comes back out with :meth:`~torch.Tensor.item`:
back = torch.tensor(0.1).item()
print(back, back == 0.1)

# sphinx_gallery_start_ignore
assert back != 0.1
assert abs(back - 0.1) < 1e-8
# sphinx_gallery_end_ignore

# %%
# Changing the dtype
# ------------------
# Four spellings give the same ``float64`` tensor: ``dtype=`` when the tensor
# is made, :meth:`~torch.Tensor.to`, :meth:`~torch.Tensor.type` (as in the
# notes this site grew from) and the shorthand methods such as
# :meth:`~torch.Tensor.double`, :meth:`~torch.Tensor.float`,
# :meth:`~torch.Tensor.half` and :meth:`~torch.Tensor.long`. A tensor prints
# its dtype only when it is not the default.
torch.manual_seed(0)
t = torch.rand(2, 3)
print(t)
t2 = t.type(torch.float64)
print(t2)
torch.manual_seed(0)
made_as = torch.rand(2, 3, dtype=torch.float64)
same = [torch.equal(t2, other) for other in (t.to(torch.float64), t.double())]
print("to() and double() give the same tensor:", all(same))

# sphinx_gallery_start_ignore
assert all(same)
assert t2.dtype == torch.float64
assert "dtype" not in str(t)
assert "dtype=torch.float64" in str(t2)
# sphinx_gallery_end_ignore

# %%
# Seeded the same way, ``torch.rand(2, 3, dtype=torch.float64)`` is *not* the
# same tensor as ``t2``: it draws 64-bit random numbers directly, while ``t2``
# holds 32-bit ones widened, with zeros in their extra digits.
print(made_as)
print("made as float64 equals widened float32:", torch.equal(made_as, t2))

# sphinx_gallery_start_ignore
assert made_as.dtype == torch.float64
assert not torch.equal(made_as, t2)
assert torch.equal(t2.float().double(), t2)
assert not torch.equal(made_as.float().double(), made_as)
# sphinx_gallery_end_ignore

# %%
# Prefer :meth:`~torch.Tensor.to`: the same method also moves a tensor to
# another device (``x.to(device, torch.float16)``). A conversion makes a new
# tensor in new memory; asking for the dtype the tensor already has returns
# the tensor itself, without a copy. Floats become integers by dropping the fraction;
# round first with :meth:`~torch.Tensor.round` if that is what you mean.
as_double = t.to(torch.float64)
print("new memory after conversion:", as_double.data_ptr() != t.data_ptr())
print("same dtype returns the same tensor:", t.to(torch.float32) is t)
values = torch.tensor([-1.7, -0.5, 0.5, 2.9])
print(values.to(torch.int64), values.round().to(torch.int64))

# sphinx_gallery_start_ignore
assert as_double.data_ptr() != t.data_ptr()
assert t.to(torch.float32) is t
assert values.to(torch.int64).tolist() == [-1, 0, 0, 2]
assert values.round().to(torch.int64).tolist() == [-2, 0, 0, 3]
# sphinx_gallery_end_ignore

# %%
# When two dtypes meet: type promotion
# ------------------------------------
# An operation on two tensors of different dtypes computes in a dtype that
# can hold both, :func:`torch.result_type`. For two dtypes alone,
# :func:`torch.promote_types` gives the answer. A Python number only decides
# the *kind* (bool, integer, float); it does not widen a tensor of the same
# kind, and neither does a tensor with no dimensions (a 0-d tensor).
pairs = [
    ("int64 + float32", torch.tensor([1, 2]), torch.tensor([0.5, 0.5])),
    ("int8 + uint8", torch.tensor([1], dtype=torch.int8), torch.tensor([1]).byte()),
    (
        "float16 + bfloat16",
        torch.ones(1, dtype=torch.float16),
        torch.ones(1, dtype=torch.bfloat16),
    ),
    ("int64 + 2.5", torch.tensor([1, 2]), 2.5),
    ("float16 + 2.5", torch.ones(2, dtype=torch.float16), 2.5),
    ("int32 + 0-d int64", torch.tensor([1, 2], dtype=torch.int32), torch.tensor(5)),
    ("int64 / int64", torch.tensor([1, 2]), torch.tensor([2, 2])),
]
for label, a, b in pairs:
    result = a / b if "/" in label else a + b
    print(f"{label:19} -> {str(result.dtype).removeprefix('torch.')}")

    # sphinx_gallery_start_ignore
    if "/" in label:
        assert result.dtype == torch.float32  # true division
    else:
        assert result.dtype == torch.result_type(a, b)
    # sphinx_gallery_end_ignore

# %%
# ``int8 + uint8`` gives ``int16`` because neither input can hold both -128
# and 255. And ``/`` always divides exactly, so two integer tensors give a
# float tensor; ``//`` is the integer division.
#
# The whole table of :func:`torch.promote_types` for the common dtypes fits
# in one picture. Blue cells are integer results, orange floating point, grey
# bool. A framed cell is wider than *both* of its inputs.
short_names = ["bool", "u8", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"]
kinds = {"bool": PALETTE[7], "integer": PALETTE[0], "floating point": PALETTE[1]}
fig, ax = plt.subplots(figsize=(6.6, 6.2), layout="constrained")
n = len(table_dtypes)
for i, row_dtype in enumerate(table_dtypes):
    for j, col_dtype in enumerate(table_dtypes):
        result = torch.promote_types(row_dtype, col_dtype)
        kind = list(kinds)[2 if result.is_floating_point else int(result != torch.bool)]
        face = plt.Rectangle((j, i), 1, 1, facecolor=kinds[kind], alpha=0.6)
        ax.add_patch(face)
        if result not in (row_dtype, col_dtype):  # wider than both inputs
            frame = plt.Rectangle((j + 0.06, i + 0.06), 0.88, 0.88, fill=False)
            ax.add_patch(frame).set(edgecolor=PALETTE[6], linewidth=2.5)
        name = short_names[table_dtypes.index(result)]
        ax.text(j + 0.5, i + 0.5, name, ha="center", va="center", fontsize=8)
ax.vlines(range(1, n), 0, n, color="white")
ax.hlines(range(1, n), 0, n, color="white")
handles = [plt.Rectangle((0, 0), 1, 1, color=c, alpha=0.6) for c in kinds.values()]
handles.append(plt.Rectangle((0, 0), 1, 1, fill=False, edgecolor=PALETTE[6], lw=2.5))
ax.legend(
    handles,
    [*kinds, "wider than both inputs"],
    loc="upper center",
    bbox_to_anchor=(0.5, -0.01),
    ncols=4,
    fontsize=8,
    frameon=False,
)
ax.set(xlim=(0, n), ylim=(n, 0), aspect="equal")
ax.set_xticks(np.arange(n) + 0.5, short_names)
ax.set_yticks(np.arange(n) + 0.5, short_names)
ax.xaxis.tick_top()
ax.tick_params(length=0)
ax.spines[:].set_visible(False)
ax.set_title("torch.promote_types(row, column)", fontsize=10)
plt.show()

# sphinx_gallery_start_ignore
assert torch.promote_types(torch.int8, torch.uint8) == torch.int16
assert torch.promote_types(torch.float16, torch.bfloat16) == torch.float32
assert torch.promote_types(torch.int64, torch.float16) == torch.float16
for int_dtype in table_dtypes[:6]:
    for float_dtype in table_dtypes[6:]:
        assert torch.promote_types(int_dtype, float_dtype) == float_dtype
assert torch.result_type(torch.ones(2, dtype=torch.float16), 2.5) == torch.float16
assert torch.result_type(torch.ones(2, dtype=torch.int32), torch.tensor(5)) == (
    torch.int32
)
# sphinx_gallery_end_ignore

# %%
# Read the ``i64`` row: an ``int64`` tensor meeting even a ``float16`` one
# gives ``float16``, which cannot hold most ``int64`` values exactly. Any
# float beats any integer, whatever the bits.
#
# An in-place operation writes its result into the existing tensor, so it
# cannot change the dtype. When the result would need a wider dtype, it fails;
# this is an error you will meet:
counts = torch.tensor([1, 2])
try:
    counts.add_(1.5)
except RuntimeError as error:
    print(f"RuntimeError: {error}")

# sphinx_gallery_start_ignore
assert counts.tolist() == [1, 2]
# sphinx_gallery_end_ignore

# %%
# Limits: ``torch.finfo`` and ``torch.iinfo``
# -------------------------------------------
# :class:`torch.finfo` describes a floating-point dtype. ``eps`` is the gap
# between 1 and the next larger number the dtype can hold: its relative
# precision. ``tiny`` is the smallest positive normal number, ``max`` the
# largest finite one.
float_dtypes = [torch.float16, torch.bfloat16, torch.float32, torch.float64]
print(f"{'dtype':9} {'eps':>10} {'tiny':>10} {'max':>10}  decimal digits")
for dtype in float_dtypes:
    info = torch.finfo(dtype)
    digits = -math.log10(info.eps)
    name = str(dtype).removeprefix("torch.")
    print(f"{name:9} {info.eps:10.3g} {info.tiny:10.3g} {info.max:10.3g}  {digits:.1f}")

# %%
# Adding half of ``eps`` to 1 leaves 1 unchanged: the exact sum lies halfway
# between two neighbours, and it rounds to the one with an even last digit.
# Adding all of ``eps`` does change it.
eps = torch.finfo(torch.float32).eps
one = torch.tensor(1.0)
print((one + eps / 2).item() == 1.0, (one + eps).item() == 1.0)

# sphinx_gallery_start_ignore
assert one + eps / 2 == 1.0
assert one + eps > 1.0
assert torch.finfo(torch.float16).max == 65504
# sphinx_gallery_end_ignore

# %%
# :class:`torch.iinfo` gives the range of an integer dtype. Integer
# arithmetic that leaves the range *wraps around* silently, with no error
# and no warning: ``int8`` 127 + 1 is -128, and ``uint8`` 0 - 1 is 255.
# ``uint8`` is the usual dtype of image pixels, so adding two bright pixels
# gives a dark one. Reductions such as :meth:`~torch.Tensor.sum` are safer:
# they add integers in ``int64``.
for dtype in (torch.int8, torch.uint8):
    info = torch.iinfo(dtype)
    print(f"{str(dtype).removeprefix('torch.'):5} from {info.min} to {info.max}")
print("int8  127 + 1 =", (torch.tensor([127], dtype=torch.int8) + 1).item())
print("uint8   0 - 1 =", (torch.tensor([0], dtype=torch.uint8) - 1).item())
pixels = torch.tensor([200, 100], dtype=torch.uint8)
print("uint8 200 + 100 =", (pixels[0] + pixels[1]).item())
print("pixels.sum() =", pixels.sum().item(), "as", pixels.sum().dtype)

# sphinx_gallery_start_ignore
assert (torch.tensor([127], dtype=torch.int8) + 1).item() == -128
assert (torch.tensor([0], dtype=torch.uint8) - 1).item() == 255
assert (pixels[0] + pixels[1]).item() == (200 + 100) % 256
assert pixels.sum().item() == 300
assert pixels.sum().dtype == torch.int64
# sphinx_gallery_end_ignore

# %%
# What precision buys: a sum of a million numbers
# -----------------------------------------------
# The same million random numbers in ``float64`` and rounded to ``float32``,
# summed with :func:`torch.sum`. The exact sum of the numbers each tensor
# holds comes from :func:`math.fsum`, which rounds only once, at the end.
torch.manual_seed(0)
numbers64 = torch.rand(10**6, dtype=torch.float64)
numbers32 = numbers64.to(torch.float32)
errors = {}
for numbers in (numbers64, numbers32):
    exact = math.fsum(numbers.tolist())
    total = torch.sum(numbers).item()
    errors[numbers.dtype] = abs(total - exact) / exact
    print(
        f"{numbers.dtype!s:13} torch.sum {total:.6f}  exact {exact:.6f}  "
        f"relative error {errors[numbers.dtype]:.1e}"
    )

# sphinx_gallery_start_ignore
assert errors[torch.float64] < 1e-14
assert errors[torch.float32] < torch.finfo(torch.float32).eps
# sphinx_gallery_end_ignore

# %%
# Even in ``float32``, :func:`torch.sum` is accurate to better than one
# ``eps`` (1.2e-07): it adds the numbers in blocks and then adds the blocks'
# sums, so no single addition puts a small number onto a huge total.
#
# The notes this site grew from add the numbers one by one in a Python loop
# instead, and warn that in ``float32`` this "gives a fairly inaccurate
# result". Here is their loop, on the first 100,000 numbers so that this page
# stays fast. Each ``t[i]`` is a 0-d tensor, so ``total`` becomes a tensor of
# the same dtype and every addition rounds to that dtype.
loop_errors = {}
for numbers in (numbers64[: 10**5], numbers32[: 10**5]):
    exact = math.fsum(numbers.tolist())
    total = 0
    for i in range(len(numbers)):
        total += numbers[i]
    loop_errors[numbers.dtype] = abs(total.item() - exact) / exact
    vectorised = abs(torch.sum(numbers).item() - exact) / exact
    print(
        f"{numbers.dtype!s:13} loop: relative error "
        f"{loop_errors[numbers.dtype]:.1e}   torch.sum: {vectorised:.1e}"
    )

# sphinx_gallery_start_ignore
assert loop_errors[torch.float64] < 1e-12
assert loop_errors[torch.float32] > 3 * torch.finfo(torch.float32).eps
near = torch.tensor(50_000.0)
assert torch.nextafter(near, torch.tensor(math.inf)) - near == 1 / 256
assert loop_errors[torch.float32] > 5 * vectorised
# sphinx_gallery_end_ignore

# %%
# In ``float32`` the loop's error is several ``eps``: once the running total
# is near 50,000, its neighbours in ``float32`` are 1/256 apart, so every
# number added is rounded to a multiple of 1/256. In ``float64`` the same
# loop is fine, which is why the notes used ``float64``.
#
# What vectorising buys: a loop against ``torch.sum``
# ---------------------------------------------------
# The loop is also slow: each step goes through the Python interpreter,
# makes a new 0-d tensor for ``t[i]`` and calls a separate addition. Timed
# with :func:`time.perf_counter` on 10,000 numbers, the median of three runs
# each (the timings page shows a more careful method):
sample = numbers32[: 10**4]
loop_times, sum_times = [], []
for _ in range(3):
    tic = time.perf_counter()
    total = 0
    for i in range(len(sample)):
        total += sample[i]
    loop_times.append(time.perf_counter() - tic)
    tic = time.perf_counter()
    for _ in range(100):  # one call is too short to time on its own
        vectorised_total = torch.sum(sample)
    sum_times.append((time.perf_counter() - tic) / 100)
loop_time, sum_time = statistics.median(loop_times), statistics.median(sum_times)
print("measured on the machine that built this page:")
print(f"Python loop {loop_time * 1e3:8.2f} ms")
print(
    f"torch.sum   {sum_time * 1e3:8.4f} ms   ({loop_time / sum_time:,.0f} times faster)"
)

# sphinx_gallery_start_ignore
assert loop_time > 100 * sum_time
assert torch.allclose(total, vectorised_total, rtol=1e-5, atol=0)
# sphinx_gallery_end_ignore

# %%
# What precision costs: memory
# ----------------------------
# The other price of precision is memory, and with it time, since most
# operations spend their time moving bytes. The same million numbers take
# :attr:`~torch.Tensor.nbytes` bytes: the number of elements times the
# element size.
memory_dtypes = [
    torch.bool,
    torch.uint8,
    torch.int16,
    torch.float16,
    torch.bfloat16,
    torch.int32,
    torch.float32,
    torch.int64,
    torch.float64,
]
megabytes = {}
for dtype in memory_dtypes:
    same_numbers = numbers64.to(dtype)
    megabytes[str(dtype).removeprefix("torch.")] = same_numbers.nbytes / 1e6

    # sphinx_gallery_start_ignore
    assert same_numbers.nbytes == same_numbers.numel() * same_numbers.element_size()
    # sphinx_gallery_end_ignore

fig, ax = plt.subplots(figsize=(7, 3.4), layout="constrained")
colours = [
    kinds["floating point" if d.is_floating_point else "integer"] for d in memory_dtypes
]
colours[0] = kinds["bool"]
bars = ax.barh(list(megabytes), list(megabytes.values()), color=colours)
ax.bar_label(bars, fmt="%g MB", padding=3, fontsize=8)
ax.invert_yaxis()
ax.set(xlabel="memory for 1,000,000 elements (MB)", xlim=(0, 9.5))
ax.spines[["right", "top"]].set_visible(False)
plt.show()

# sphinx_gallery_start_ignore
assert megabytes["float64"] == 8 * megabytes["uint8"] == 8.0
assert megabytes["float32"] == 2 * megabytes["float16"] == 2 * megabytes["bfloat16"]
# sphinx_gallery_end_ignore

# %%
# Halving the bits halves the memory, which is why models are often trained
# in ``bfloat16`` or ``float16`` on GPUs, with care for the rounding seen
# above, and why ``float64`` is kept for the few places that need its
# precision.
#
# Summary
# -------
# - Every tensor has one dtype; :attr:`~torch.Tensor.dtype`,
#   :meth:`~torch.Tensor.element_size`, :class:`torch.finfo` and
#   :class:`torch.iinfo` describe it.
# - Defaults: ``int64`` for whole numbers, ``float32`` for decimals; NumPy
#   uses ``float64``, and tensors made from NumPy arrays keep it.
# - ``dtype=`` at creation, or :meth:`~torch.Tensor.to` (also
#   :meth:`~torch.Tensor.type`, :meth:`~torch.Tensor.double`, ...) later.
#   Float to integer drops the fraction.
# - Mixed dtypes promote to one that holds both (:func:`torch.result_type`);
#   in-place operations cannot promote and fail instead.
# - Integers wrap around silently; ``float16`` overflows at 65504.
# - ``float32`` sums are accurate with :func:`torch.sum` and inaccurate in a
#   Python loop, which is also hundreds of times slower or more.
#
# Next: :ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_arithmetic.py`
# picks parts out of tensors and computes with whole tensors at once.
