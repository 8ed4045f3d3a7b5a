"""
Views, strides and reshape
==========================

See how a tensor lies in memory: one flat storage, read through a size, a
stride and an offset. After this page you can tell which shape operations
share memory and which copy, and why ``view`` sometimes fails where
``reshape`` works.
"""

# %%
# Every page starts by saying what computed it.
import matplotlib.pyplot as plt
import torch

from tutorial_utils.devices import pick_device
from tutorial_utils.environment import environment_summary
from tutorial_utils.plotting import draw_views

device = pick_device()
print(environment_summary(device))

# %%
# Storage, size, stride and offset
# --------------------------------
# A tensor's values live in a *storage*: one flat block of memory, the
# elements one after the other. The tensor on top of it is a small record
# that says how to read it:
#
# - its **size** (:meth:`~torch.Tensor.size`, also :attr:`~torch.Tensor.shape`),
# - its **stride** (:meth:`~torch.Tensor.stride`): how many storage elements
#   to step over to move by one along each dimension,
# - its **storage offset** (:meth:`~torch.Tensor.storage_offset`): where
#   the first element is.
x = torch.arange(6).reshape(2, 3)
print(x)
print("size:          ", tuple(x.size()))
print("stride:        ", x.stride())
print("storage_offset:", x.storage_offset())
storage = x.untyped_storage()
print(
    f"storage:        {storage.nbytes()} bytes = {x.numel()} elements of {x.element_size()} bytes"
)

# %%
# Element ``[i, j]`` is storage element ``offset + i * stride[0] + j * stride[1]``.
# Moving one row down steps over three elements, moving one column right
# steps over one:
i, j = 1, 2
index = x.storage_offset() + i * x.stride(0) + j * x.stride(1)
print(f"x[{i}, {j}] is storage element {index}, which holds {x[i, j].item()}")

# sphinx_gallery_start_ignore
# The whole storage read as int64 elements, and every element of x found
# where the formula says.
flat = x.as_strided((storage.nbytes() // x.element_size(),), (1,), 0)
for r in range(2):
    for c in range(3):
        at = x.storage_offset() + r * x.stride(0) + c * x.stride(1)
        assert flat[at] == x[r, c]
assert index == 5
# sphinx_gallery_end_ignore

# %%
# The picture shows both layers: the storage as one row of cells (its
# indices above), and the tensor read from it. Each row of ``x`` has a
# colour, and so do the storage cells it reads.
draw_views([x], ["x = torch.arange(6).reshape(2, 3)"])
plt.show()

# %%
# Many tensors, one storage
# -------------------------
# A slice makes a new record over the *same* storage: a **view**. Nothing
# is copied; only the offset and the sizes change. :meth:`~torch.Tensor.data_ptr`
# is the address of a tensor's first element, and
# ``untyped_storage().data_ptr()`` the address where its storage starts.
# Addresses change from run to run, so this page only compares them.
y = torch.arange(12).reshape(3, 4)
corner = y[1:, 1:3]
print(corner)
print("stride:", corner.stride(), " storage_offset:", corner.storage_offset())
print(
    "same storage as y:",
    corner.untyped_storage().data_ptr() == y.untyped_storage().data_ptr(),
)
print("first element is", corner.data_ptr() - y.data_ptr(), "bytes after y's")

# sphinx_gallery_start_ignore
assert corner.storage_offset() == 5
assert corner.data_ptr() - y.data_ptr() == 5 * y.element_size()
# sphinx_gallery_end_ignore

# %%
# The corner starts at storage element 5 and keeps ``y``'s stride of 4 per
# row: it reads cells 5 and 6, skips three, and reads 9 and 10.
draw_views([corner], ["corner = y[1:, 1:3]"])
plt.show()

# %%
# Because the memory is shared, a write through the view is a write into
# ``y``:
corner[0, 0] = -5
print(y)

# sphinx_gallery_start_ignore
assert y[1, 1] == -5
# sphinx_gallery_end_ignore

# %%
# ``view``: a new shape over the same storage
# -------------------------------------------
# :meth:`~torch.Tensor.view` reads the same storage with another size, and
# computes the strides that go with it. One size may be ``-1``: it is worked
# out from the others.
v = x.view(3, -1)
print(v)
print("size:", tuple(v.shape), " stride:", v.stride())
print(
    "same storage as x:",
    v.untyped_storage().data_ptr() == x.untyped_storage().data_ptr(),
)

# sphinx_gallery_start_ignore
assert v.shape == (3, 2)
assert v.stride() == (2, 1)
assert v.data_ptr() == x.data_ptr()
# sphinx_gallery_end_ignore

# %%
# Transpose swaps the strides
# ---------------------------
# Transposing moves no values either: it swaps two sizes *and the two
# strides*. First the example of the notes this site grew from, which only
# looks at the shapes:
t = torch.rand(3, 5)
t_tr = torch.transpose(t, 0, 1)
print(t.shape, " --> ", t_tr.shape)

# sphinx_gallery_start_ignore
assert t_tr.shape == (5, 3)
# sphinx_gallery_end_ignore

# %%
# :meth:`~torch.Tensor.transpose`, :meth:`~torch.Tensor.t`,
# :attr:`~torch.Tensor.T` and :meth:`~torch.Tensor.permute` all return the
# same view of a matrix. Its stride ``(1, 3)`` is ``x``'s ``(3, 1)`` the
# other way round, over the same storage:
for name, transposed in [
    ("x.transpose(0, 1)", x.transpose(0, 1)),
    ("x.t()", x.t()),
    ("x.T", x.T),
    ("x.permute(1, 0)", x.permute(1, 0)),
]:
    same = transposed.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    print(f"{name:18} stride {transposed.stride()}  same storage: {same}")

# sphinx_gallery_start_ignore
assert x.T.stride() == x.stride()[::-1]
for transposed in (x.transpose(0, 1), x.t(), x.permute(1, 0)):
    assert transposed.stride() == x.T.stride()
    assert torch.equal(transposed, x.T)
    assert transposed.data_ptr() == x.data_ptr()
# sphinx_gallery_end_ignore

# %%
# Side by side: same storage, same values, read in another order. Row 0 of
# ``x.T`` reads storage cells 0 and 3, row 1 cells 1 and 4, row 2 cells 2
# and 5.
draw_views([x, x.T], ["x", "x.T"])
plt.show()

# %%
# With more dimensions, :meth:`~torch.Tensor.permute` puts the dimensions in
# any order, and the strides follow the sizes:
z = torch.arange(24).reshape(2, 3, 4)
p = z.permute(2, 0, 1)
print("z:                size", tuple(z.shape), " stride", z.stride())
print("z.permute(2, 0, 1) size", tuple(p.shape), " stride", p.stride())

# sphinx_gallery_start_ignore
assert p.shape == (4, 2, 3)
assert p.stride() == (z.stride(2), z.stride(0), z.stride(1))
assert p.data_ptr() == z.data_ptr()
# sphinx_gallery_end_ignore

# %%
# Contiguous, and why ``view`` fails
# ----------------------------------
# A tensor is *contiguous* when reading it row by row walks its storage
# cell by cell, with no gaps and no jumps back (:meth:`~torch.Tensor.is_contiguous`).
# ``x`` is, ``x.T`` is not: its rows read cells 0, 3, then 1, 4, then 2, 5.
# No single stride reads that order as a flat run of six, so ``view`` refuses:
print("x contiguous:  ", x.is_contiguous())
print("x.T contiguous:", x.T.is_contiguous())
try:
    x.T.view(6)
except RuntimeError as error:
    print(error)

# %%
# :meth:`~torch.Tensor.contiguous` copies the values, in the order they are
# read, into a new storage, where ``view`` works again. On a tensor that is
# already contiguous it copies nothing and returns the tensor itself.
xt = x.T.contiguous()
print("stride:", xt.stride(), " contiguous:", xt.is_contiguous())
print(
    "same storage as x:",
    xt.untyped_storage().data_ptr() == x.untyped_storage().data_ptr(),
)
print(xt.view(6))
print("x.contiguous() is x:", x.contiguous() is x)

# sphinx_gallery_start_ignore
assert xt.stride() == (2, 1)
assert xt.data_ptr() != x.data_ptr()
assert torch.equal(xt, x.T)
assert x.contiguous() is x
# sphinx_gallery_end_ignore

# %%
# The copy has a storage of its own, in the order ``x.T`` is read:
draw_views([xt], ["x.T.contiguous()"])
plt.show()

# %%
# ``reshape``: a view when it can, a copy when it must
# ----------------------------------------------------
# :meth:`~torch.Tensor.reshape` takes the same sizes as ``view``. The
# example of the notes: thirty zeros as a 5 by 6 matrix.
t = torch.zeros(30)
t_reshape = t.reshape(5, 6)
print(t_reshape.shape)

# sphinx_gallery_start_ignore
assert t_reshape.shape == (5, 6)
# sphinx_gallery_end_ignore

# %%
# Where a view is possible ``reshape`` returns one; where it is not, as for
# ``x.T``, it returns a copy instead of failing. So after ``reshape`` you
# cannot tell, without checking, whether a write will reach the original.
# Use ``view`` when you rely on sharing (it fails loudly otherwise), and
# ``reshape`` when you only need the shape.
x_storage = x.untyped_storage().data_ptr()
shared = x.reshape(3, 2)
copied = x.T.reshape(6)
print(
    "x.reshape(3, 2) shares x's storage:",
    shared.untyped_storage().data_ptr() == x_storage,
)
print(
    "x.T.reshape(6) shares x's storage: ",
    copied.untyped_storage().data_ptr() == x_storage,
)
print(copied)

# sphinx_gallery_start_ignore
assert shared.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
assert copied.untyped_storage().data_ptr() != x.untyped_storage().data_ptr()
assert torch.equal(copied, xt.view(6))
# sphinx_gallery_end_ignore

# %%
# ``squeeze``, ``unsqueeze`` and ``flatten``
# ------------------------------------------
# :meth:`~torch.Tensor.squeeze` removes dimensions of size 1: the one you
# name, or all of them. A dimension you name that is not of size 1 is left
# alone, without an error. The notes' example removes dimension 2:
t = torch.zeros(1, 2, 1, 4, 1)
t_sqz = torch.squeeze(t, 2)
print(t.shape, " --> ", t_sqz.shape)
print("squeeze():  ", tuple(t.squeeze().shape))
print("squeeze(1): ", tuple(t.squeeze(1).shape))

# sphinx_gallery_start_ignore
assert t_sqz.shape == (1, 2, 4, 1)
assert t.squeeze().shape == (2, 4)
assert t.squeeze(1).shape == t.shape
assert t_sqz.untyped_storage().data_ptr() == t.untyped_storage().data_ptr()
assert t.squeeze().untyped_storage().data_ptr() == t.untyped_storage().data_ptr()
# sphinx_gallery_end_ignore

# %%
# :meth:`~torch.Tensor.unsqueeze` inserts a dimension of size 1, and
# :meth:`~torch.Tensor.flatten` merges dimensions into one (all of them, or
# from ``start_dim`` on). On a contiguous tensor all of them are views:
for name, result, base in [
    ("x.unsqueeze(0)", x.unsqueeze(0), x),
    ("x.unsqueeze(-1)", x.unsqueeze(-1), x),
    ("x.flatten()", x.flatten(), x),
    ("z.flatten(start_dim=1)", z.flatten(start_dim=1), z),
]:
    same = result.untyped_storage().data_ptr() == base.untyped_storage().data_ptr()
    print(f"{name:23} size {tuple(result.shape)!s:10} view: {same}")

# sphinx_gallery_start_ignore
assert x.unsqueeze(0).shape == (1, 2, 3)
assert x.unsqueeze(-1).shape == (2, 3, 1)
assert z.flatten(start_dim=1).shape == (2, 12)
assert x.flatten().data_ptr() == x.data_ptr()
assert z.flatten(start_dim=1).data_ptr() == z.data_ptr()
# Like reshape, flatten copies a tensor it cannot view.
assert x.T.flatten().data_ptr() != x.data_ptr()
# sphinx_gallery_end_ignore

# %%
# Like ``reshape``, ``flatten`` copies when it must: ``x.T.flatten()`` is a
# copy.
#
# ``expand``: a stride of zero
# ----------------------------
# :meth:`~torch.Tensor.expand` repeats a tensor along dimensions of size 1
# (or new leading ones) *without copying*: the new dimension gets stride 0,
# so every step along it stays on the same storage cells.
row = torch.tensor([10, 20, 30])
grid = row.expand(2, 3)
print(grid)
print("stride:", grid.stride())
print("same storage as row:", grid.data_ptr() == row.data_ptr())
for name, tensor in [
    ("row", row),
    ("grid", grid),
    ("row.repeat(2, 1)", row.repeat(2, 1)),
]:
    print(f"{name:17} storage of {tensor.untyped_storage().nbytes()} bytes")

# sphinx_gallery_start_ignore
assert grid.stride() == (0, 1)
assert torch.ones(3, 1).expand(3, 4).stride() == (1, 0)
assert grid.untyped_storage().nbytes() == row.untyped_storage().nbytes() == 24
assert row.repeat(2, 1).untyped_storage().nbytes() == 48
# sphinx_gallery_end_ignore

# %%
# Both rows of the expanded tensor read the same three cells (striped in
# the picture), whereas :meth:`~torch.Tensor.repeat` would copy them.
draw_views([grid], ["grid = row.expand(2, 3)"])
plt.show()

# %%
# A write to ``row`` shows in every row of ``grid``. Writing *into* ``grid``
# in place is refused, since one storage cell stands for several elements:
row[1] = 21
print(grid)
try:
    grid.add_(1)
except RuntimeError as error:
    print(error)

# sphinx_gallery_start_ignore
assert grid[:, 1].tolist() == [21, 21]
# sphinx_gallery_end_ignore

# %%
# :meth:`~torch.Tensor.expand_as` expands to the shape of another tensor.
# The notes use it for a mask: a mask of the columns to keep, expanded to
# the matrix's shape, selects those columns from every row. Broadcasting
# (page on indexing and arithmetic) does the same expansion behind the scenes.
scores = torch.arange(6.0).reshape(2, 3)
keep = torch.tensor([True, False, True])
mask = keep.expand_as(scores)
print("mask stride:", mask.stride())
print(scores[mask])

# sphinx_gallery_start_ignore
assert mask.shape == scores.shape
assert mask.stride() == (0, 1)
assert mask.data_ptr() == keep.data_ptr()
assert scores[mask].tolist() == [0.0, 2.0, 3.0, 5.0]
assert torch.equal(scores * keep, scores * mask)
# sphinx_gallery_end_ignore

# %%
# Summary
# -------
# - A tensor is a storage plus a size, a stride and a storage offset;
#   element ``[i, j]`` is storage element ``offset + i*stride[0] + j*stride[1]``.
# - Slices, ``view``, ``transpose``/``.T``/``permute``, ``squeeze``,
#   ``unsqueeze`` and ``expand`` make views: no copy, shared memory, writes
#   show in the original. Compare ``untyped_storage().data_ptr()`` to check.
# - Transposing swaps the strides, and the result is not contiguous, so
#   ``view`` fails on it; :meth:`~torch.Tensor.contiguous` copies it into
#   row order.
# - ``reshape`` and ``flatten`` return a view when they can and a copy when
#   they must; ``view`` returns a view or fails.
# - ``expand`` repeats with stride 0; write to the original, not to it.
#
# Next: :ref:`sphx_glr_auto_examples_tensors_plot_06_tensors_and_numpy.py`
# shares memory between tensors and NumPy arrays in both directions.
