"""
Expand, repeat and shared cells
===============================

Repeat a tensor without copying it, with a :term:`stride` of 0, and know
what that means for writes. After this page you can choose between
``expand`` and ``repeat``, and tell which writes into an expanded tensor
work, which raise, and when to ``clone`` first.

**Before this page:**
:ref:`sphx_glr_auto_examples_tensors_plot_04_arithmetic_and_broadcasting.py`
for ``expand`` and in-place methods, and
:ref:`sphx_glr_auto_examples_tensors_plot_07_views_and_strides.py` for
storage, strides and views.
"""

# %%
# Every page starts by saying what computed it. This one runs on the CPU.
# The site's helper ``draw_views`` draws a tensor over its storage, and
# ``plt.show()`` shows the picture.
import matplotlib.pyplot as plt
import torch

from tutorial_utils.environment import environment_summary
from tutorial_utils.views import draw_views

print(environment_summary("cpu"))

# %%
# ``expand``: a stride of zero
# ----------------------------
# :meth:`~torch.Tensor.expand` repeats a tensor along dimensions of size 1,
# or along new dimensions in front, *without copying*. Each expanded
# dimension of size more than 1 gets stride 0. So every step along it stays
# on the same storage cells. A dimension of any other size cannot be
# expanded. A column of shape ``(2, 1)`` expands along its second dimension
# in the same way.
#
# :meth:`~torch.Tensor.repeat` copies instead. It takes one count per
# dimension of the result. ``row`` has one dimension, so ``row.repeat(2, 1)``
# first treats it as a ``(1, 3)`` matrix. It then stacks two copies of
# ``row`` as the rows of a matrix. Its storage holds all six values. The
# storage sizes below are in bytes, at 8 bytes per ``int64`` element.
row = torch.tensor([10, 20, 30])
grid = row.expand(2, 3)
print(grid)
print("stride:", grid.stride())
print("column expanded:", torch.tensor([[1], [2]]).expand(2, 3).stride())
repeated = row.repeat(2, 1)
print(repeated)
for name, tensor in [("row", row), ("grid", grid), ("row.repeat(2, 1)", repeated)]:
    print(f"{name:17} storage of {tensor.untyped_storage().nbytes()} bytes")

# %%
# .. check:: expanded dimensions of size over 1 get stride 0, over ``row``'s memory
assert grid.data_ptr() == row.data_ptr()
assert (grid.stride(), torch.tensor([[1]]).expand(2, 3).stride()) == ((0, 1), (0, 0))
assert torch.tensor([[1], [2]]).expand(2, 3).stride() == (1, 0)
assert grid.untyped_storage().nbytes() == row.untyped_storage().nbytes()

# %%
# .. check:: a new dimension of size 1 in front keeps a nonzero stride
assert row.expand(1, 3).stride() == (3, 1)

# %%
# .. check:: an ``int64`` element takes 8 bytes; ``row``'s storage holds 3 of them
assert row.dtype == torch.int64
assert row.element_size() == 8
assert row.untyped_storage().nbytes() == 8 * 3

# %%
# .. check:: a dimension of size other than 1 cannot be expanded
try:
    torch.tensor([1, 2]).expand(2, 3)
    raise AssertionError("a dimension of size 2 was expanded to 3")
except RuntimeError:
    pass

# %%
# .. check:: ``row.repeat(2, 1)`` stacks two copies of ``row``, in new memory
assert torch.equal(repeated, torch.stack([row, row]))
assert torch.equal(repeated, row.view(1, 3).repeat(2, 1))
assert repeated.untyped_storage().nbytes() == 2 * row.untyped_storage().nbytes()

# %%
# Both rows of ``grid`` read the same three cells, striped in the picture.
draw_views([grid], ["grid = row.expand(2, 3)"])
plt.show()

# %%
# Writing into shared cells
# -------------------------
# A write to ``row`` shows in every row of ``grid``. A write into ``grid``
# *in place* is different, as several of its elements share one cell.
# In-place arithmetic, such as ``add_``, refuses a tensor whose elements
# share cells. To write into an expanded tensor,
# :meth:`~torch.Tensor.clone` it first. ``clone`` copies a tensor into a
# storage of its own, one cell per element.
#
# .. detail:: Other in-place writes
#
#    :meth:`~torch.Tensor.copy_`, which copies another tensor's values in,
#    refuses too, and so does assigning a slice, as in ``grid[:] = 5``. Some
#    go through and write the shared cells: :meth:`~torch.Tensor.fill_`,
#    ``zero_`` and assigning one element change ``row`` too. The
#    documentation of ``expand`` warns that in-place operations on an
#    expanded tensor may give wrong results.
row[1] = 21
print(grid)
try:
    grid.add_(1)
except RuntimeError as error:
    print("grid.add_(1):", error)
else:
    raise AssertionError("grid.add_(1) went through")
own = grid.clone()
own.add_(1)
print(own, own.stride())

# %%
# .. check:: the write to ``row`` shows in both rows of ``grid``
assert grid.tolist() == [row.tolist()] * 2

# %%
# .. check:: in-place arithmetic, ``copy_`` and slice assignment refuse shared cells
_grid = torch.tensor([10, 21, 30]).expand(2, 3)
_calls = [
    ("add_", (1,)),
    ("sub_", (1,)),
    ("mul_", (2,)),
    ("pow_", (2,)),
    ("div_", (2,)),
]
_calls += [("clamp_", (0,)), ("neg_", ()), ("abs_", ()), ("copy_", (_grid + 1,))]
for _method, _args in _calls:
    try:
        getattr(_grid, _method)(*_args)
        raise AssertionError(f"grid.{_method} went through")
    except RuntimeError as _error:
        _message = str(_error)
    assert "more than one element" in _message
try:
    _grid[:] = 5
    raise AssertionError("grid[:] = 5 went through")
except RuntimeError as _error:
    _message = str(_error)
assert "more than one element" in _message

# %%
# .. check:: in-place arithmetic works when no elements share a cell
_one = torch.tensor([10, 21, 30])
_one.expand(1, 3).add_(1)
assert _one.tolist() == [11, 22, 31]

# %%
# .. check:: ``fill_``, ``zero_`` and assignment write the shared cells
_row = torch.tensor([10, 21, 30])
_row.expand(2, 3).fill_(7)
assert _row.tolist() == [7, 7, 7]
_row.expand(2, 3).zero_()
assert _row.tolist() == [0, 0, 0]
_row.expand(2, 3)[0, 2] = 33
assert _row.tolist() == [0, 0, 33]

# %%
# .. check:: the clone has a storage cell per element
assert own.untyped_storage().nbytes() == own.numel() * own.element_size()
assert own.stride() == (3, 1)

# %%
# Broadcasting expands by itself
# ------------------------------
# :meth:`~torch.Tensor.expand_as` expands a tensor to the shape of another.
# Arithmetic needs no ``expand``, though. :term:`Broadcasting` makes the same
# stride-0 expansion by itself. Below, ``keep`` is a :term:`mask` of
# columns. In arithmetic, ``True`` counts as 1 and ``False`` as 0. So for
# finite scores, ``scores * keep`` zeroes the columns where ``keep`` is
# ``False``, exactly as ``scores * mask`` does with the expanded ``mask``.
#
# .. detail:: Indexing with an expanded mask
#
#    ``scores[:, keep]`` picks the kept columns and keeps the matrix shape.
#    ``scores[keep]`` raises, as the mask would index the two rows. The mask
#    expanded to the matrix's shape picks the same elements, as one flat
#    tensor in row order.
scores = torch.arange(6.0).reshape(2, 3)
keep = torch.tensor([True, False, True])
mask = keep.expand_as(scores)
print("mask stride:", mask.stride())
print(scores * keep)

# %%
# .. check:: ``scores * keep`` equals ``scores * mask``
torch.testing.assert_close(scores * keep, scores * mask)
assert (scores * keep)[:, 1].eq(0).all()
assert torch.equal(
    torch.tensor([True, False]) * torch.tensor([3, 4]), torch.tensor([3, 0])
)

# %%
# .. check:: an infinite or NaN score times ``False`` gives NaN, not 0
_bad = torch.tensor([float("inf"), float("-inf"), float("nan")])
assert (_bad * torch.tensor(False)).isnan().all()

# %%
# .. check:: the expanded mask picks what ``scores[:, keep]`` picks, in row order
assert torch.equal(scores[mask], scores[:, keep].flatten())

# %%
# .. check:: ``scores[keep]`` raises
try:
    scores[keep]
    raise AssertionError("scores[keep] did not raise")
except IndexError:
    pass

# %%
# Summary
# -------
# - ``expand`` repeats with stride 0 and copies nothing. ``repeat`` copies.
# - A write to the original shows in every repeat. In-place arithmetic on a
#   tensor whose elements share cells raises: ``clone()`` it first.
# - Broadcasting makes the same stride-0 expansion without ``expand``.
#
# Back to the lesson this page deepens:
# :ref:`sphx_glr_auto_examples_tensors_plot_07_views_and_strides.py`. The
# next section starts at
# :ref:`sphx_glr_auto_examples_gradients_plot_01_automatic_differentiation.py`.
