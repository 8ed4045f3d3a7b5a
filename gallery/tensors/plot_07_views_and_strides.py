"""
Views, strides and reshape
==========================

See how a :term:`tensor` lies in memory: one flat :term:`storage`, read
through a size, a :term:`stride` and an offset. After this page you can tell
which :term:`shape` operations return a :term:`view` that shares memory and
which copy, and why ``view`` sometimes fails where ``reshape`` works.
"""

# %%
# Every page starts by saying what computed it. The tensors on this page hold
# a few numbers each, so it runs on the CPU whatever the machine has.
import matplotlib.pyplot as plt
import torch

from tutorial_utils.environment import environment_summary
from tutorial_utils.views import draw_views

print(environment_summary("cpu"))

# %%
# Storage, size, stride and offset
# --------------------------------
# A tensor's values live in a *storage*: one flat block of memory, the
# elements one after the other. The tensor on top of it is a small record
# that says how to read it:
#
# - its **size** (:meth:`~torch.Tensor.size`, also :attr:`~torch.Tensor.shape`),
# - its **stride** (:meth:`~torch.Tensor.stride`): for each
#   :term:`dimension`, how far one step along it moves in the storage,
#   counted in elements,
# - its **storage offset** (:meth:`~torch.Tensor.storage_offset`): the index
#   in the storage of the tensor's first element.
x = torch.arange(6).reshape(2, 3)
print(x)
print("size:", tuple(x.size()), " stride:", x.stride())
print("storage_offset:", x.storage_offset())
storage = x.untyped_storage()
n_stored = storage.nbytes() // x.element_size()
print(f"storage:        {storage.nbytes()} bytes = {n_stored} elements of {x.dtype}")

# %%
# Element ``[i, j]`` of a two-dimensional tensor is storage element
# ``offset + i * stride[0] + j * stride[1]``. For ``x``, one row down is three
# storage elements further on, one column right is one further on:
i, j = 1, 2
index = x.storage_offset() + i * x.stride(0) + j * x.stride(1)
print(f"x[{i}, {j}] is storage element {index}, which holds {x[i, j].item()}")

# %%
# .. check:: every element ``[i, j]`` is storage element ``offset + i * stride[0] + j * stride[1]``
flat = x.as_strided((n_stored,), (1,), 0)  # the whole storage, element by element
for r, c in [(r, c) for r in range(2) for c in range(3)]:
    assert flat[x.storage_offset() + r * x.stride(0) + c * x.stride(1)] == x[r, c]

# %%
# The picture shows both layers: the storage as one row of cells (its
# indices above), and under it the tensor read from it, with its size,
# stride and offset beside it. Each row of ``x`` has a colour, and so do the
# storage cells it reads.
draw_views([x], ["x = torch.arange(6).reshape(2, 3)"])
plt.show()

# %%
# Many tensors, one storage
# -------------------------
# A slice (ranges and single integers; not the index tensors and masks of
# :ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_selection.py`, which
# copy) makes a new record over the *same* storage: a **view**. Nothing is
# copied; only the offset, the sizes and, for a slice with a step, the strides
# change. :meth:`~torch.Tensor.data_ptr` is the address of a tensor's first
# element, and ``untyped_storage().data_ptr()`` the address where its storage
# starts. Addresses change from run to run, so this page only compares them.
y = torch.arange(12).reshape(3, 4)
corner = y[1:, 1:3]
print(corner)
print("stride:", corner.stride(), " storage_offset:", corner.storage_offset())
print("first element is", corner.data_ptr() - y.data_ptr(), "bytes after y's")
print("y[:, ::2] has stride", y[:, ::2].stride())

# %%
# .. check:: the slice reads ``y``'s storage; indexing with a list of rows copies
assert corner.untyped_storage().data_ptr() == y.untyped_storage().data_ptr()
assert y[[0, 2]].untyped_storage().data_ptr() != y.untyped_storage().data_ptr()

# %%
# Which storage cells does ``corner`` read? :meth:`~torch.Tensor.as_strided`
# builds a tensor from a size, a stride and an offset; applied to the storage
# indices 0 to 11, it answers the question. The corner starts at storage
# element 5 and keeps ``y``'s stride of 4 per row: it reads cells 5 and 6,
# skips two (7 and 8), and reads 9 and 10. In the picture, the white cells
# are the ones it does not read.
cells = torch.arange(12).as_strided(
    corner.size(), corner.stride(), corner.storage_offset()
)
print(cells)
span = range(cells.min().item(), cells.max().item() + 1)
print("skipped:", [k for k in span if k not in cells])
draw_views([corner], ["corner = y[1:, 1:3]"])
plt.show()

# %%
# Because the memory is shared, a write through the view is a write into ``y``:
corner[0, 0] = -5
print(y)

# %%
# .. check:: the write through ``corner`` is in ``y``
assert y[1, 1] == -5

# %%
# ``view``: a new shape over the same storage
# -------------------------------------------
# :meth:`~torch.Tensor.view` reads the same storage with another size, and
# computes the strides that go with it; it never copies. One size (and only
# one) may be ``-1``: it is worked out from the others.
v = x.view(3, -1)
print(v)
print("size:", tuple(v.shape), " stride:", v.stride())
try:
    x.view(-1, -1)
except RuntimeError as error:
    print(error)
else:
    raise AssertionError("x.view(-1, -1) did not raise")

# %%
# .. check:: ``x.view(3, -1)`` reads ``x``'s memory, not a copy
assert v.data_ptr() == x.data_ptr()

# %%
# Transpose swaps the strides
# ---------------------------
# Transposing moves no values either: it swaps two sizes *and the two
# strides*. :func:`torch.transpose`, :meth:`~torch.Tensor.transpose`,
# :meth:`~torch.Tensor.t`, :attr:`~torch.Tensor.T` and
# :meth:`~torch.Tensor.permute` give equivalent views of a matrix: new tensor
# objects with the same values, size and stride, over ``x``'s storage. The
# stride ``(1, 3)`` is ``x``'s ``(3, 1)`` the other way round.
#
# .. detail:: More than two dimensions
#
#    ``.t()`` and ``.T`` are meant for matrices; for more dimensions name the
#    two with ``transpose``.
transposes = [
    ("torch.transpose(x, 0, 1)", torch.transpose(x, 0, 1)),
    ("x.transpose(0, 1)", x.transpose(0, 1)),
    ("x.t()", x.t()),
    ("x.T", x.T),
    ("x.permute(1, 0)", x.permute(1, 0)),
]
for name, transposed in transposes:
    same = transposed.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    size, stride = tuple(transposed.shape), transposed.stride()
    print(f"{name:24} size {size} stride {stride}  same storage: {same}")

# %%
# .. check:: all five read ``x``'s storage, with the strides swapped and the values transposed
for _, transposed in transposes:
    assert transposed.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    assert transposed.stride() == x.stride()[::-1]
    assert transposed.tolist() == [list(col) for col in zip(*x.tolist(), strict=True)]

# %%
# Side by side: same storage, same values, read in another order. Row 0 of
# ``x.T`` reads storage cells 0 and 3, row 1 cells 1 and 4, row 2 cells 2 and 5.
draw_views([x, x.T], ["x", "x.T"])
plt.show()

# %%
# With more dimensions, :meth:`~torch.Tensor.permute` puts the dimensions in
# any order, and the strides follow the sizes:
z = torch.arange(24).reshape(2, 3, 4)
p = z.permute(2, 0, 1)
print("z:                size", tuple(z.shape), " stride", z.stride())
print("z.permute(2, 0, 1) size", tuple(p.shape), " stride", p.stride())

# %%
# .. check:: the permuted tensor reads ``z``'s memory
assert p.data_ptr() == z.data_ptr()

# %%
# Contiguous, and why ``view`` fails
# ----------------------------------
# A tensor is :term:`contiguous` when reading its elements in order (the last
# index fastest) walks its storage cell after cell, with no gaps and no jumps
# back (:meth:`~torch.Tensor.is_contiguous`). ``x`` is contiguous; ``x.T`` is
# not: its rows read cells 0, 3, then 1, 4, then 2, 5. ``x.T.view(6)`` would
# need one stride that reads that order as a flat run of six; there is none,
# so ``view`` raises (:ref:`its entry in the error atlas <error-view-stride>`
# has the fix).
#
# .. detail:: Dimensions of size 1
#
#    Dimensions of size 1 do not count, as no step is taken along them:
#    ``torch.zeros(1, 3).T`` is contiguous.
print("contiguous? x:", x.is_contiguous(), " x.T:", x.T.is_contiguous())
print("torch.zeros(1, 3).T contiguous:", torch.zeros(1, 3).T.is_contiguous())
print(torch.arange(6).as_strided(x.T.shape, x.T.stride()))
try:
    x.T.view(6)
except RuntimeError as error:
    print(error)
else:
    raise AssertionError("x.T.view(6) did not raise")

# %%
# .. check:: ``x`` is contiguous, ``x.T`` is not, and a size-1 dimension does not count
assert [u.is_contiguous() for u in (x, x.T, torch.zeros(1, 3).T)] == [True, False, True]

# %%
# ``view`` does not ask for a contiguous tensor, though. It asks that each
# new dimension be read with one stride: a dimension can always be split, and
# two neighbouring dimensions merge when the outer stride is the inner stride
# times the inner size. ``p`` above is not contiguous, yet its last two
# dimensions (sizes 2 and 3, strides 12 and 4, and ``12 == 4 * 3``) merge. Those
# of ``x.T`` (strides 1 and 3) and of ``corner`` (``4 != 1 * 2``) do not:
# each would span "two contiguous subspaces", in the words of the error.
print("p contiguous:", p.is_contiguous())
print("p.view(4, 6) stride:      ", p.view(4, 6).stride())
print("p.view(2, 2, 2, 3) stride:", p.view(2, 2, 2, 3).stride())
try:
    corner.view(4)
except RuntimeError as error:
    print("corner.view(4):", error)
else:
    raise AssertionError("corner.view(4) did not raise")

# %%
# .. check:: ``p`` is not contiguous yet views as ``(4, 6)``; any dimension can be split
assert not p.is_contiguous()
assert p.view(4, 6).data_ptr() == z.data_ptr()
for tensor in (x.T, corner, p):  # any dimension can be split
    for d, n in enumerate(tensor.shape):
        tensor.view(*tensor.shape[:d], n // 2 or 1, -1, *tensor.shape[d + 1 :])

# %%
# :meth:`~torch.Tensor.contiguous` copies the values, in the order they are
# read, into a new storage, where ``view`` works again. On a tensor that is
# already contiguous it copies nothing and returns the tensor itself. The
# picture shows the copy's own storage, in the order ``x.T`` is read.
xt = x.T.contiguous()
print("stride:", xt.stride(), " contiguous:", xt.is_contiguous())
print(xt.view(6))
print("x.contiguous() is x:", x.contiguous() is x)
draw_views([xt], ["x.T.contiguous()"])
plt.show()

# %%
# .. check:: ``contiguous`` copies ``x.T``'s values into new memory and returns ``x`` itself
assert xt.untyped_storage().data_ptr() != x.untyped_storage().data_ptr()
assert torch.equal(xt, x.T)
assert x.contiguous() is x

# %%
# ``reshape``: a view when it can, a copy when it must
# ----------------------------------------------------
# :meth:`~torch.Tensor.reshape` takes the same sizes as ``view``, ``-1``
# included: ``torch.zeros(30).reshape(5, 6)`` is thirty zeros as a 5 by 6
# matrix. Where a view is possible ``reshape`` returns one; where it is not,
# as for ``x.T.reshape(6)``, it returns a copy instead of raising. PyTorch's
# documentation adds that code should not depend on which of the two it
# gets: after ``reshape`` you cannot tell, without checking, whether a write
# will reach the original. Use ``view`` when you rely on sharing (it raises
# otherwise), and ``reshape`` when you only need the shape.
print(torch.zeros(30).reshape(5, 6).shape)
shared, copied = x.reshape(3, 2), x.T.reshape(6)
x_storage = x.untyped_storage().data_ptr()
for name, result in [("x.reshape(3, 2)", shared), ("x.T.reshape(6)", copied)]:
    shares = result.untyped_storage().data_ptr() == x_storage
    print(f"{name:15} shares x's storage: {shares}")
print(copied)

# %%
# .. check:: ``x.reshape(3, 2)`` is a view of ``x``, ``x.T.reshape(6)`` a copy
assert shared.untyped_storage().data_ptr() == x_storage
assert copied.untyped_storage().data_ptr() != x_storage

# %%
# ``squeeze``, ``unsqueeze`` and ``flatten``
# ------------------------------------------
# :meth:`~torch.Tensor.squeeze` removes dimensions of size 1: all of them,
# or only those you name (one, or a tuple of them). A dimension you name that
# is not of size 1 is left alone, without an error.
#
# .. detail:: Older versions
#
#    ``squeeze`` takes a tuple of dimensions since PyTorch 2.0.
t = torch.zeros(1, 2, 1, 4, 1)
print(t.shape, " --> ", torch.squeeze(t, 2).shape)
print("squeeze():       ", tuple(t.squeeze().shape))
print("squeeze(1):      ", tuple(t.squeeze(1).shape))
print("squeeze((0, 2)): ", tuple(t.squeeze((0, 2)).shape))

# %%
# .. check:: naming a dimension not of size 1 leaves it alone
assert t.squeeze(1).shape == t.shape

# %%
# :meth:`~torch.Tensor.unsqueeze` inserts a dimension of size 1. Both
# ``squeeze`` and ``unsqueeze`` return views, of any tensor, contiguous or not.
# :meth:`~torch.Tensor.flatten` merges the dimensions from ``start_dim`` to
# ``end_dim`` (all of them by default) into one: a view of the contiguous ``x``
# and ``z``, but, like ``reshape``, a copy where it must, as for ``x.T``:
reshaped = [
    ("t.squeeze()", t.squeeze(), t),
    ("x.unsqueeze(-1)", x.unsqueeze(-1), x),
    ("x.T.unsqueeze(0)", x.T.unsqueeze(0), x),
    ("x.T.unsqueeze(0).squeeze(0)", x.T.unsqueeze(0).squeeze(0), x),
    ("x.flatten()", x.flatten(), x),
    ("z.flatten(start_dim=1)", z.flatten(start_dim=1), z),
    ("x.T.flatten()", x.T.flatten(), x),
]
for name, result, base in reshaped:
    same = result.untyped_storage().data_ptr() == base.untyped_storage().data_ptr()
    print(f"{name:27} size {tuple(result.shape)!s:10} shares storage: {same}")

# %%
# .. check:: all are views but ``x.T.flatten()``, which copies
for name, result, base in reshaped:
    same = result.untyped_storage().data_ptr() == base.untyped_storage().data_ptr()
    assert same == (name != "x.T.flatten()")

# %%
# ``expand``: a stride of zero
# ----------------------------
# :meth:`~torch.Tensor.expand` repeats a tensor along dimensions of size 1
# (or new leading ones) *without copying*: each expanded dimension gets
# stride 0, so every step along it stays on the same storage cells. A
# dimension of any other size cannot be expanded.
row = torch.tensor([10, 20, 30])
grid = row.expand(2, 3)
print(grid)
print("stride:", grid.stride())
print("column expanded:", torch.tensor([[1], [2]]).expand(2, 3).stride())
repeated = row.repeat(2, 1)
for name, tensor in [("row", row), ("grid", grid), ("row.repeat(2, 1)", repeated)]:
    print(f"{name:17} storage of {tensor.untyped_storage().nbytes()} bytes")

# %%
# .. check:: expanded dimensions get stride 0 and no copy; a size other than 1 cannot expand
assert grid.data_ptr() == row.data_ptr()
try:
    torch.tensor([1, 2]).expand(2, 3)
    raise AssertionError("a dimension of size 2 was expanded to 3")
except RuntimeError:
    pass
assert (grid.stride(), torch.tensor([[1]]).expand(2, 3).stride()) == ((0, 1), (0, 0))
assert grid.untyped_storage().nbytes() == row.untyped_storage().nbytes()
assert repeated.untyped_storage().nbytes() == 2 * row.untyped_storage().nbytes()

# %%
# Both rows of the expanded tensor read the same three cells (striped in
# the picture), whereas :meth:`~torch.Tensor.repeat` copies them.
draw_views([grid], ["grid = row.expand(2, 3)"])
plt.show()

# %%
# A write to ``row`` shows in every row of ``grid``. A write into ``grid``
# *in place* (into its own memory, as the methods ending in ``_`` do) writes
# cells that several elements share. Some in-place operations refuse that,
# such as :meth:`~torch.Tensor.add_`, :meth:`~torch.Tensor.mul_` and
# :meth:`~torch.Tensor.copy_`:
row[1] = 21
print(grid)
for method, argument in [("add_", 1), ("mul_", 2), ("copy_", grid + 1)]:
    try:
        getattr(grid, method)(argument)
        raise AssertionError(f"grid.{method} went through")
    except RuntimeError as error:
        message = str(error)
print("add_, mul_ and copy_ refused:", message)

# %%
# Others go through and write the shared cells: :meth:`~torch.Tensor.fill_` and
# :meth:`~torch.Tensor.zero_` change ``row`` too, and so does assigning one
# element. The documentation of ``expand`` warns that in-place operations on an
# expanded tensor may give wrong results. :meth:`~torch.Tensor.clone` it first
# to write to it: the clone has a storage of its own, one cell per element.
grid.fill_(7)
print("row after grid.fill_(7):", row)
grid.zero_()
grid[0, 2] = 33
print(grid)
own = grid.clone()
own.add_(1)
print(own, own.stride())

# %%
# .. check:: ``fill_``, ``zero_`` and assignment write ``row``; the clone has a cell per element
_row = torch.tensor([10, 21, 30])  # grid's row before fill_, redone here
_row.expand(2, 3).fill_(7)
assert _row.tolist() == [7, 7, 7]
_row.expand(2, 3).zero_()
assert _row.tolist() == [0, 0, 0]
assert row.tolist() == [0, 0, 33]
assert grid[1, 2] == row[2] == 33
assert own.untyped_storage().nbytes() == own.numel() * own.element_size()

# %%
# :meth:`~torch.Tensor.expand_as` expands to the shape of another tensor.
# A boolean mask (a ``bool`` tensor that picks the elements where it is
# ``True``) of columns picks them with ``scores[:, keep]``, which keeps the
# matrix shape; ``scores[keep]`` raises, as the mask would index the two
# rows. Expanded to the matrix's shape, the mask picks the same elements, as
# one flat tensor in row order:
scores = torch.arange(6.0).reshape(2, 3)
keep = torch.tensor([True, False, True])
print(scores[:, keep])
try:
    scores[keep]
except IndexError as error:
    print(error)
else:
    raise AssertionError("scores[keep] did not raise")
mask = keep.expand_as(scores)
print("mask stride:", mask.stride(), " scores[mask]:", scores[mask])

# %%
# .. check:: the expanded mask picks what ``scores[:, keep]`` picks, in row order
assert torch.equal(scores[mask], scores[:, keep].flatten())

# %%
# Arithmetic needs no ``expand``: :term:`broadcasting` makes the same stride-0
# expansion by itself, so ``scores * keep`` equals ``scores * mask``.
print(scores * keep)

# %%
# .. check:: ``scores * keep`` equals ``scores * mask``
torch.testing.assert_close(scores * keep, scores * mask)

# %%
# Summary
# -------
# - A tensor is a storage plus a size, a stride and a storage offset;
#   element ``[i, j]`` is storage element ``offset + i*stride[0] + j*stride[1]``.
# - Slices, ``view``, ``transpose``/``.T``/``permute``, ``squeeze``,
#   ``unsqueeze`` and ``expand`` make views: no copy, shared memory. Compare
#   ``untyped_storage().data_ptr()`` to check.
# - Transposing swaps the strides, so ``x.T`` is not contiguous and cannot
#   be viewed as one flat run; :meth:`~torch.Tensor.contiguous` copies it
#   into row order. ``view`` needs each new dimension to be readable with
#   one stride, and raises where it is not.
# - ``reshape`` and ``flatten`` return a view when they can and a copy when
#   they must.
# - ``expand`` repeats with stride 0: write to the original, or ``clone()``
#   the expanded tensor first.
#
# Next: :ref:`sphx_glr_auto_examples_tensors_plot_08_tensors_and_numpy.py`
# shares memory between tensors and NumPy arrays in both directions.
#
# Exercises for this page: :ref:`exercises-tensors-07`.
