"""
Views, strides and reshape
==========================

See how a :term:`tensor` lies in memory: one flat :term:`storage`, read
through a size, a :term:`stride` and an offset. After this page you can tell
which :term:`shape` operations share memory and which copy. You can also say
why ``view`` fails where ``reshape`` works.

**Before this page:** the earlier pages of this section, above all
:ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_selection.py` and
:ref:`sphx_glr_auto_examples_tensors_plot_04_arithmetic_and_broadcasting.py`.
"""

# %%
# Every page starts by saying what computed it. This one runs on the CPU.
# The site's helper ``draw_views`` draws its pictures, and ``plt.show()``
# shows each one.
import matplotlib.pyplot as plt
import torch

from tutorial_utils.environment import environment_summary
from tutorial_utils.views import draw_views

print(environment_summary("cpu"))

# %%
# Storage, size, stride and offset
# --------------------------------
# The earlier pages used :meth:`~torch.Tensor.reshape` to lay out the same
# values in a new shape: ``torch.arange(6).reshape(2, 3)`` is 0 to 5 as two
# rows of three. This page shows how that works.
#
# A tensor's values live in a *storage*: one flat block of memory, the
# elements one after the other. The tensor is a small record that says how
# to read it:
#
# - its **size**, :meth:`~torch.Tensor.size`, the same as ``.shape``;
# - its **stride**, :meth:`~torch.Tensor.stride`: for each :term:`dimension`,
#   how many storage elements one step along it moves;
# - its **storage offset**, :meth:`~torch.Tensor.storage_offset`: where in
#   the storage its first element lies.
#
# :meth:`~torch.Tensor.untyped_storage` returns the storage. It has no
# dtype, so its ``nbytes()`` counts bytes. Dividing by
# :meth:`~torch.Tensor.element_size` gives the number of elements it holds.
x = torch.arange(6).reshape(2, 3)
print(x)
print("size:", tuple(x.size()), " stride:", x.stride())
print("storage_offset:", x.storage_offset())
n_bytes = x.untyped_storage().nbytes()
print(f"storage: {n_bytes} bytes = {n_bytes // x.element_size()} elements of {x.dtype}")

# %%
# Element ``[i, j]`` of a matrix is storage element
# ``offset + i * stride[0] + j * stride[1]``. ``x.stride(0)`` is ``stride[0]``:
i, j = 1, 2
index = x.storage_offset() + i * x.stride(0) + j * x.stride(1)
print(f"x[{i}, {j}] is storage element {index}, which holds {x[i, j].item()}")

# %%
# .. check:: every element of ``x`` lies where the formula puts it
_n = x.untyped_storage().nbytes() // x.element_size()
_flat = x.as_strided((_n,), (1,), 0)  # the whole storage, element by element
for _r, _c in [(r, c) for r in range(2) for c in range(3)]:
    assert _flat[x.storage_offset() + _r * x.stride(0) + _c * x.stride(1)] == x[_r, _c]

# %%
# ``draw_views`` draws the storage as a row of numbered cells, and under it
# the tensor. Each row of ``x`` has a colour, as do the cells it reads.
draw_views([x], ["x = torch.arange(6).reshape(2, 3)"])
plt.show()

# %%
# Many tensors, one storage
# -------------------------
# Indexing with slices and single integers makes a :term:`view`. A view is a
# new record over the *same* storage. Nothing is copied: only the offset, the
# sizes and the strides change. Indexing with a list or a mask copies instead.
#
# ``y`` below holds 0 to 11 in storage order, so each value is also its
# storage index. ``corner`` starts at storage element 5 and keeps ``y``'s
# stride of 4 a row. So it reads cells 5 and 6, skips 7 and 8, and reads 9
# and 10.
#
# ``untyped_storage().data_ptr()`` is the address where a storage starts.
# Two tensors with elements share a storage when these addresses are equal.
y = torch.arange(12).reshape(3, 4)
corner = y[1:, 1:3]
print(corner)
print("stride:", corner.stride(), " storage_offset:", corner.storage_offset())
same = corner.untyped_storage().data_ptr() == y.untyped_storage().data_ptr()
print("corner shares y's storage:", same)

# %%
# .. check:: a slice and an integer share ``y``'s storage; a list of rows does not
assert corner.untyped_storage().data_ptr() == y.untyped_storage().data_ptr()
assert y[1].untyped_storage().data_ptr() == y.untyped_storage().data_ptr()
assert y[[0, 2]].untyped_storage().data_ptr() != y.untyped_storage().data_ptr()

# %%
# .. check:: ``corner`` reads cells 5, 6, 9 and 10, the values it holds
_c = torch.arange(12).as_strided(corner.shape, corner.stride(), corner.storage_offset())
assert torch.equal(_c, corner)  # y's values are its storage indices
assert _c.flatten().tolist() == [5, 6, 9, 10]

# %%
# In the picture, the white cells are the ones ``corner`` does not read.
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
# Given sizes, :meth:`~torch.Tensor.view` reads the same storage with another
# size. It works out the strides that go with that size, and it never copies.
# One size may be ``-1``: ``view`` computes it from the others.

v = x.view(3, -1)
print(v)
print("size:", tuple(v.shape), " stride:", v.stride())

# %%
# .. check:: ``x.view(3, -1)`` reads ``x``'s memory
assert v.data_ptr() == x.data_ptr()

# %%
# .. check:: only one size may be ``-1``
try:
    x.view(-1, -1)
    raise AssertionError("x.view(-1, -1) did not raise")
except RuntimeError:
    pass

# %%
# Transpose swaps the strides
# ---------------------------
# :attr:`~torch.Tensor.T` is the transpose: the rows of ``x.T`` are the
# columns of ``x``. Transposing moves no values. It swaps the two sizes *and
# the two strides*, over the same storage. So ``x``'s stride ``(3, 1)``
# becomes ``(1, 3)``.
#
# .. detail:: Other ways to transpose
#
#    :func:`torch.transpose`, ``x.transpose(0, 1)`` and
#    :meth:`~torch.Tensor.t` give the same view as ``x.T``. With more than
#    two dimensions, ``transpose`` names the two to swap.
print(x.T)
print("size:", tuple(x.T.shape), " stride:", x.T.stride())
same = x.T.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
print("x.T shares x's storage:", same)

# %%
# .. check:: the four transposes are one view: ``x``'s storage, strides swapped
_transposes = [torch.transpose(x, 0, 1), x.transpose(0, 1), x.t(), x.T]
for _u in _transposes:
    assert _u.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    assert _u.stride() == x.stride()[::-1]
    assert _u.tolist() == [list(col) for col in zip(*x.tolist(), strict=True)]

# %%
# Side by side: ``x`` holds 0 to 5 in storage order, so the printed ``x.T``
# lists the cells each of its rows reads.
draw_views([x, x.T], ["x", "x.T"])
plt.show()

# %%
# .. check:: the printed ``x.T`` lists the storage cells each row reads
_cells = torch.arange(6).as_strided(x.T.shape, x.T.stride(), x.T.storage_offset())
assert _cells.tolist() == x.T.tolist() == [[0, 3], [1, 4], [2, 5]]

# %%
# With more dimensions, :meth:`~torch.Tensor.permute` puts them in a new
# order. Its arguments say, for each dimension of the result, which
# dimension of the input it is. So ``z.permute(2, 0, 1)`` takes ``z``'s
# dimension 2, then 0, then 1. Each keeps its size and its stride. On a
# matrix, ``x.permute(1, 0)`` is one more way to write ``x.T``.
z = torch.arange(24).reshape(2, 3, 4)
p = z.permute(2, 0, 1)
print("z:                 size", tuple(z.shape), " stride", z.stride())
print("z.permute(2, 0, 1) size", tuple(p.shape), " stride", p.stride())

# %%
# .. check:: ``p`` reads ``z``'s memory, each dimension keeping size and stride
assert p.data_ptr() == z.data_ptr()
for _k, _d in enumerate((2, 0, 1)):
    assert (p.shape[_k], p.stride(_k)) == (z.shape[_d], z.stride(_d))

# %%
# .. check:: ``x.permute(1, 0)`` is the same view as ``x.T``
_u = x.permute(1, 0)
assert (_u.data_ptr(), _u.stride()) == (x.T.data_ptr(), x.T.stride())
assert torch.equal(_u, x.T)

# %%
# Contiguous, and why ``view`` fails
# ----------------------------------
# A tensor is :term:`contiguous` when reading it in order, the last index
# fastest, walks its storage cell after cell. ``x`` is contiguous, and
# :meth:`~torch.Tensor.is_contiguous` tests it. ``x.T`` reads cells 0, 3, 1,
# 4, 2, 5, so it is not.
#
# ``x.T.view(6)`` would need one stride that reads 0, 3, 1, 4, 2, 5 as a flat
# run. No single stride does that, so ``view`` raises.
# :ref:`Its entry in the error atlas <error-view-stride>` has the fix.
#
# .. detail:: Dimensions of size 1, and empty tensors
#
#    Dimensions of size 1 do not count, as no step is taken along them.
#    ``torch.zeros(1, 3).T`` is contiguous, though its strides are swapped.
#    A tensor with no elements counts as contiguous, whatever its strides.
print("contiguous? x:", x.is_contiguous(), " x.T:", x.T.is_contiguous())
try:
    x.T.view(6)
except RuntimeError as error:
    print(error)
else:
    raise AssertionError("x.T.view(6) did not raise")

# %%
# .. check:: ``x`` is contiguous, ``x.T`` not; size 1 and empty tensors don't count
assert [u.is_contiguous() for u in (x, x.T)] == [True, False]
assert torch.zeros(1, 3).T.is_contiguous()
assert torch.zeros(1, 3).T.stride() == torch.zeros(1, 3).stride()[::-1]
_empty = torch.zeros(0, 2, 3).transpose(1, 2)
assert (_empty.is_contiguous(), _empty.stride()) == (True, (6, 1, 3))  # not (6, 2, 1)

# %%
# ``view`` does not need a contiguous tensor, though. It needs each new
# dimension to be read with one stride:
#
# 1. Any dimension can be split into several.
# 2. Two neighbouring dimensions, both of size more than 1, merge into one
#    only when the outer stride is the inner stride times the inner size.
#
# Three tensors from above show the merge rule:
#
# - ``p``, strides ``(1, 12, 4)``, sizes ``(4, 2, 3)``: ``12 == 4 * 3``, so
#   its last two dimensions merge. ``p.view(4, 6)`` works, though ``p`` is
#   not contiguous.
# - ``x.T``, strides ``(1, 3)``, sizes ``(3, 2)``: ``1 != 3 * 2``, no merge.
# - ``corner``, strides ``(4, 1)``, sizes ``(2, 2)``: ``4 != 1 * 2``, no merge.
#
# ``p.view(2, 2, 2, 3)`` splits ``p``'s first dimension into two of size 2.
# The error for ``corner`` calls a run of dimensions that merge a
# "contiguous subspace".
#
# .. detail:: Size 1 and empty tensors
#
#    A dimension of size 1 merges with its neighbour whatever the strides.
#    So ``torch.zeros(4, 3)[:, :1].view(4)`` works. A tensor with no
#    elements takes any view with no elements.
print("p contiguous:", p.is_contiguous())
print("p.view(4, 6) stride:      ", p.view(4, 6).stride())
print("p.view(2, 2, 2, 3) stride:", p.view(2, 2, 2, 3).stride())
try:
    corner.view(4)
except RuntimeError as error:
    print("corner.view(4):", error)
else:
    raise AssertionError("corner.view(4) made a view")

# %%
# .. check:: any dimension can be split
for _u in (x.T, corner, p):
    for _d, _n in enumerate(_u.shape):
        _u.view(*_u.shape[:_d], _n // 2 or 1, -1, *_u.shape[_d + 1 :])

# %%
# .. check:: ``p`` merges though not contiguous; ``x.T`` and ``corner`` do not
assert not p.is_contiguous()
assert p.view(4, 6).data_ptr() == z.data_ptr()
assert (p.shape, p.stride()) == ((4, 2, 3), (1, 12, 4))
assert (x.T.stride(), corner.shape, corner.stride()) == ((1, 3), (2, 2), (4, 1))
assert p.view(2, 2, 2, 3).stride()[2:] == p.stride()[1:]
assert p.stride(1) == p.stride(2) * p.shape[2]
for _u in (x.T, corner):
    assert _u.stride(0) != _u.stride(1) * _u.shape[1]
try:
    corner.view(4)
    raise AssertionError("corner.view(4) did not raise")
except RuntimeError as _error:
    _message = str(_error)
assert "two contiguous subspaces" in _message

# %%
# .. check:: a size-1 dimension merges whatever the strides; empty tensors view freely
_column = torch.zeros(4, 3)[:, :1]
assert _column.stride(0) != _column.stride(1) * _column.shape[1]
assert _column.view(4).shape == (4,)
assert torch.zeros(0, 2, 3).transpose(1, 2).view(3, 0, 2).shape == (3, 0, 2)

# %%
# :meth:`~torch.Tensor.contiguous` copies the values, in reading order, into
# a new storage, where ``view`` works. On a tensor that is already contiguous
# it returns the tensor itself. The picture shows the copy's storage.
xt = x.T.contiguous()
print("stride:", xt.stride(), " contiguous:", xt.is_contiguous())
print(xt.view(6))
print("x.contiguous() is x:", x.contiguous() is x)
draw_views([xt], ["x.T.contiguous()"])
plt.show()

# %%
# .. check:: ``contiguous()`` copies ``x.T`` into new memory but returns ``x`` itself
assert xt.untyped_storage().data_ptr() != x.untyped_storage().data_ptr()
assert torch.equal(xt, x.T)
assert x.contiguous() is x

# %%
# ``reshape``: a view when it can, a copy when it must
# ----------------------------------------------------
# ``reshape`` takes the same sizes as ``view``, ``-1`` included. Where a view
# is possible, ``reshape`` returns one. Where it is not, as for
# ``x.T.reshape(6)``, it returns a copy instead of raising.
#
# So after ``reshape``, a write may or may not reach the original. Use
# ``view`` when you rely on sharing, since it raises otherwise. Use
# ``reshape`` when you only need the shape.
shared, copied = x.reshape(3, 2), x.T.reshape(6)
for name, result in [("x.reshape(3, 2)", shared), ("x.T.reshape(6)", copied)]:
    same = result.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    print(f"{name:15} shares x's storage: {same}")
print(copied)

# %%
# .. check:: ``x.reshape(3, 2)`` is a view of ``x``, ``x.T.reshape(6)`` a copy
assert shared.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
assert copied.untyped_storage().data_ptr() != x.untyped_storage().data_ptr()

# %%
# .. check:: ``reshape`` takes ``-1`` as ``view`` does
assert torch.equal(x.reshape(3, -1), x.view(3, -1))

# %%
# ``squeeze``, ``unsqueeze`` and ``flatten``
# ------------------------------------------
# :meth:`~torch.Tensor.squeeze` removes dimensions of size 1: all of them,
# or only those you name. A named dimension whose size is not 1 stays.
t = torch.zeros(1, 2, 1, 4, 1)
print("t:              ", tuple(t.shape))
print("squeeze():      ", tuple(t.squeeze().shape))
print("squeeze(1):     ", tuple(t.squeeze(1).shape))
print("squeeze((0, 2)):", tuple(t.squeeze((0, 2)).shape))

# %%
# .. check:: naming a dimension not of size 1 leaves it alone
assert t.squeeze(1).shape == t.shape

# %%
# ``squeeze`` and :meth:`~torch.Tensor.unsqueeze` always return views.
# :meth:`~torch.Tensor.flatten` merges the dimensions from ``start_dim`` to
# ``end_dim``, both included, into one. By default it merges them all. Like
# ``reshape``, it copies only where it must:
reshaped = [
    ("x.T.unsqueeze(0)", x.T.unsqueeze(0), x),
    ("x.flatten()", x.flatten(), x),
    ("z.flatten(start_dim=1)", z.flatten(start_dim=1), z),
    ("x.T.flatten()", x.T.flatten(), x),
]
for name, result, base in reshaped:
    same = result.untyped_storage().data_ptr() == base.untyped_storage().data_ptr()
    print(f"{name:23} size {tuple(result.shape)!s:10} shares storage: {same}")

# %%
# .. check:: all are views but ``x.T.flatten()``, which copies
_all = [("t.squeeze()", t.squeeze(), t), ("x.unsqueeze(-1)", x.unsqueeze(-1), x)]
_all += [("x.T.unsqueeze(0).squeeze(0)", x.T.unsqueeze(0).squeeze(0), x), *reshaped]
for _name, _result, _base in _all:
    _same = _result.untyped_storage().data_ptr() == _base.untyped_storage().data_ptr()
    assert _same == (_name != "x.T.flatten()")

# %%
# .. check:: ``flatten`` includes ``end_dim``
assert torch.zeros(2, 3, 4, 5).flatten(start_dim=1, end_dim=2).shape == (2, 12, 5)

# %%
# Summary
# -------
# - A tensor is a storage read through a size, a stride and an offset.
# - Slices, ``view``, ``.T``, ``permute``, ``squeeze`` and ``unsqueeze``
#   make views, which share memory.
# - ``x.T`` is not contiguous. ``contiguous()`` copies it into reading order.
# - ``view`` needs each new dimension to be read with one stride. ``reshape``
#   and ``flatten`` copy only when they must.
#
# Next: :ref:`sphx_glr_auto_examples_tensors_plot_08_tensors_and_numpy.py`
# shares memory between tensors and NumPy arrays. In depth,
# :ref:`sphx_glr_auto_examples_tensors_plot_57_expand_and_shared_cells.py`
# shows what a stride of 0 means when you write into a tensor.
#
# Exercises for this page: :ref:`exercises-tensors-07`.
