"""
Type promotion in depth
=======================

Predict the dtype of any element-wise operation, including tensors without
dimensions and the newer unsigned dtypes. After this page you can also tell
which in-place operations convert a result down, and which refuse.

**Before this page:**
:ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py`, whose three
rules this page completes.
"""

# %%
# The page runs on the CPU. ``PALETTE`` is the site's list of figure colours.
import matplotlib.pyplot as plt
import torch

from tutorial_utils.colours import PALETTE
from tutorial_utils.environment import environment_summary

print(environment_summary(torch.device("cpu")))

# %%
# Tensors without dimensions
# --------------------------
# A 0-d tensor, of :term:`rank` 0, counts like a Python number next to a
# tensor with dimensions. It counts only when its kind is higher, and then
# it brings its own dtype. A Python int brings ``int64``, and a Python float
# the default ``float32``. Two 0-d tensors promote like any two tensors.
i32 = torch.tensor([1, 2], dtype=torch.int32)
pairs = [
    ("int32 + 0-d int64", i32, torch.tensor(5)),
    ("int32 + 0-d float64", i32, torch.tensor(0.5, dtype=torch.float64)),
    ("0-d int32 + 0-d int64", i32[0], torch.tensor(5)),
    ("bool + 7", torch.tensor([True]), 7),
]
for label, a, b in pairs:
    print(f"{label:21} -> {(a + b).dtype}")

# %%
# .. check:: each sum has the ``result_type`` dtype
assert all((a + b).dtype == torch.result_type(a, b) for _, a, b in pairs)
assert [(a + b).dtype for _, a, b in pairs] == [
    torch.int32,
    torch.float64,
    torch.int64,
    torch.int64,
]

# %%
# The whole table
# ---------------
# :func:`torch.promote_types` gives the result for two dtypes alone. The
# picture shows it for the common dtypes. Blue cells are integer results,
# orange floating point, grey bool. A framed cell's result is neither of its
# inputs. The drawing uses Matplotlib only: ``plt.subplots`` makes the axes,
# ``add_patch`` adds each ``plt.Rectangle``, and ``text`` writes its name.
# ``set_title``, ``set``, ``set_xticks``, ``set_yticks`` and ``tick_params``
# label the axes. ``is_floating_point`` tells a float dtype.
table = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
table += [torch.float16, torch.bfloat16, torch.float32, torch.float64]
short = ["bool", "u8", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"]
fig, ax = plt.subplots(figsize=(6.4, 6), layout="constrained")
ax.set_title("torch.promote_types(row, column)", fontsize=10)
for i, row_dtype in enumerate(table):
    for j, col_dtype in enumerate(table):
        result = torch.promote_types(row_dtype, col_dtype)
        colour = PALETTE[1] if result.is_floating_point else PALETTE[0]
        if result == torch.bool:
            colour = PALETTE[7]
        ax.add_patch(plt.Rectangle((j, i), 1, 1, fc=colour, ec="white", alpha=0.6))
        if result not in (row_dtype, col_dtype):
            frame = plt.Rectangle((j + 0.06, i + 0.06), 0.88, 0.88, fill=False)
            ax.add_patch(frame).set(edgecolor=PALETTE[6], linewidth=2.5)
        name = short[table.index(result)]
        ax.text(j + 0.5, i + 0.5, name, ha="center", va="center", fontsize=8)
ticks = [k + 0.5 for k in range(len(table))]
ax.set(xlim=(0, len(table)), ylim=(len(table), 0), aspect="equal")
ax.set_xticks(ticks, short)
ax.set_yticks(ticks, short)
ax.tick_params(length=0, top=True, labeltop=True, bottom=False, labelbottom=False)
plt.show()

# %%
# Read the ``i64`` row. An ``int64`` tensor meeting even a ``float16`` one
# gives ``float16``, which tops out at 65504. Any floating-point dtype beats
# any integer dtype. So a result need not hold every input.
#
# Comparisons such as ``<`` give ``bool``. Matrix multiplication, ``@``, does
# not promote at all: it wants one dtype
# (:ref:`atlas entry <error-matmul-dtype>`).
print(torch.promote_types(torch.int64, torch.float16))
print(torch.tensor([1, 2]) < torch.tensor([1.5, 1.5]))
try:
    torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.float64)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
else:
    raise AssertionError("@ multiplied float32 by float64")

# %%
# .. check:: any float beats any integer; ``<`` gives ``bool``; ``@`` does not promote
assert (torch.tensor([1, 2]) < torch.tensor([1.5, 1.5])).dtype == torch.bool
ints = table[1:6]
assert all(torch.promote_types(i, f) == f for i in ints for f in table[6:])
assert torch.finfo(torch.float16).max < torch.iinfo(torch.int64).max
try:
    torch.ones(2, 2) @ torch.ones(2, 2, dtype=torch.float64)
    raise AssertionError("a float32 @ float64 product did not raise")
except RuntimeError:
    pass

# %%
# The newer unsigned dtypes
# -------------------------
# ``uint16``, ``uint32`` and ``uint64`` are newer. Between tensors with
# dimensions, they
# promote only with their own dtype and the floating-point dtypes. With any
# other, PyTorch raises. PyTorch's documentation gives them limited support
# outside :func:`torch.compile`: even ``+`` of two ``uint16`` tensors can
# fail. Prefer the signed dtypes.
u16 = i32.to(torch.uint16)
print(u16 + torch.ones(2, dtype=torch.float16))
try:
    u16 + i32
except RuntimeError as error:
    print(f"RuntimeError: {error}")
else:
    raise AssertionError("uint16 + int32 promoted")

# %%
# .. check:: ``uint16/32/64`` promote only with themselves and floats; ``+`` can fail
for unsigned in (torch.uint16, torch.uint32, torch.uint64):
    assert torch.promote_types(unsigned, unsigned) == unsigned
    assert all(torch.promote_types(unsigned, f) == f for f in table[6:])
    for other in [torch.bool, *ints, torch.complex64]:
        try:
            torch.promote_types(unsigned, other)
            raise AssertionError(f"{unsigned} promoted with {other}")
        except RuntimeError:
            pass
try:
    u16 + u16
    raise AssertionError("uint16 + uint16 worked: the text says it can fail")
except (NotImplementedError, RuntimeError):
    pass

# %%
# In place, within one kind
# -------------------------
# In-place arithmetic keeps the tensor's dtype. Within one kind, it converts
# the result down without a word, even where it does not fit. Out of place,
# both sums promote and keep their true values. :func:`torch.can_cast` tells
# which conversions in-place arithmetic allows.
#
# .. detail:: Other in-place methods
#
#    ``copy_`` copies another tensor's values in. ``fill_`` sets every
#    element to one value. For floats within the integer range, both, and
#    assignment such as ``t[0] = 2.7``, drop the fraction. Out of range,
#    ``fill_(1e20)`` raises, but ``copy_`` gives an undefined value.
#    ``index_add_`` adds values at given positions. It and others want both
#    dtypes equal.
small = torch.tensor([1, 2], dtype=torch.int32)
big = torch.tensor([3_000_000_000, 3_000_000_000])
print("small + big:    ", small + big)
print("small.add_(big):", small.add_(big))
half = torch.tensor([1.0, 2.0], dtype=torch.float16)
huge = torch.full((2,), 1e5, dtype=torch.float64)
print("half + huge:    ", half + huge)
print("half.add_(huge):", half.add_(huge))
print("float32 -> int64:", torch.can_cast(torch.float32, torch.int64))
print("int64 -> int32:  ", torch.can_cast(torch.int64, torch.int32))

# %%
# .. check:: in place, ``int32`` wraps around and ``float16`` holds ``inf``
assert small.dtype == torch.int32
assert small[0] == 3_000_000_001 - 2**32
assert half.isinf().all()
assert not torch.can_cast(torch.int64, torch.bool)
try:
    torch.tensor([True]).add_(torch.tensor([2]))
    raise AssertionError("a bool tensor took an integer result in place")
except RuntimeError:
    pass
whole = torch.tensor([1, 2])
whole.copy_(torch.tensor([1.5, 2.7]))
whole[0] = 3.9
assert whole.tolist() == [3, 2]
assert whole.fill_(1.5).tolist() == [1, 1]
assert whole.copy_(torch.tensor([1e20, 1e20])).dtype == torch.int64  # no error
try:
    whole.fill_(1e20)
    raise AssertionError("fill_ took a float out of range")
except RuntimeError:
    pass
try:
    torch.zeros(2, dtype=torch.int32).index_add_(
        0, torch.tensor([0]), torch.tensor([1])
    )
    raise AssertionError("index_add_ took another dtype")
except RuntimeError:
    pass

# %%
# Summary
# -------
# - A 0-d tensor or a Python number counts only when its kind is higher.
# - Any float beats any integer, so ``int64`` and ``float16`` give
#   ``float16``.
# - ``uint16``, ``uint32`` and ``uint64`` promote only with floats and with their own
#   dtype.
# - In place, a result converts down within its kind, silently.
#
# Back to the lesson path:
# :ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_selection.py`.
