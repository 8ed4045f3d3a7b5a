"""
Indexing and selection
======================

Pick parts out of a tensor by position, by a list of positions or by a
:term:`mask`, and write through an index. After this page you can predict
the shape of a selection, and tell whether it shares memory with the
original.

**Before this page:** :ref:`sphx_glr_auto_examples_tensors_plot_01_creating_tensors.py`
and :ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py`.
"""

# %%
# Every page starts by saying what computed it: the site's helper
# ``environment_summary`` prints the versions and the processor. The tensors
# here are tiny, so the page runs on the CPU.
import matplotlib.pyplot as plt
import torch

from tutorial_utils.environment import environment_summary
from tutorial_utils.grids import draw_tensors

print(environment_summary(torch.device("cpu")))

# %%
# Slicing: ranges, negative indices and steps
# -------------------------------------------
# :meth:`~torch.Tensor.reshape` lays the 12 numbers of ``torch.arange(12)``
# out as 3 rows of 4. A :term:`tensor` is indexed much as a Python list is:
#
# - with one index per :term:`dimension`, separated by commas;
# - ``start:stop:step`` runs from ``start`` up to, not including, ``stop``;
# - a negative index counts from the end: ``-1`` is the last;
# - dimensions left out at the end mean "all of it": ``x[1]`` is ``x[1, :]``.
#
# Each selection is kept as a function, to be reused below. ``.tolist()`` turns a
# tensor into nested Python lists.
x = torch.arange(12).reshape(3, 4)
print(x)
selections = {
    "x[1]": lambda t: t[1],
    "x[:, 2]": lambda t: t[:, 2],
    "x[-1, -2:]": lambda t: t[-1, -2:],
    "x[::2, 1::2]": lambda t: t[::2, 1::2],
}
for title, select in selections.items():
    print(f"{title:13} shape {tuple(select(x).shape)!s:7} {select(x).tolist()}")

# %%
# .. check:: ``reshape`` keeps the order; ``x[1]`` is ``x[1, :]``
assert x.flatten().tolist() == list(range(12))
assert torch.equal(x[1], x[1, :])

# %%
# As with lists, a range past the end is cut short, and a single index past the end
# raises an ``IndexError``. :ref:`Its atlas entry <error-index-out-of-bounds>` has the
# fix. A tensor takes no negative step: :func:`torch.flip` reverses a dimension, in a
# copy. Each ``try`` below prints the error it catches; its ``else`` makes the page fail
# if none came.
print("x[1:100] has shape", tuple(x[1:100].shape))
try:
    x[5]
except IndexError as error:
    print(f"IndexError: {error}")
else:
    raise AssertionError("x[5] did not raise")
try:
    x[:, ::-1]
except ValueError as error:
    print(f"ValueError: {error}")
else:
    raise AssertionError("x[:, ::-1] did not raise")
print(torch.flip(x, dims=[1]))

# %%
# .. check:: a range past the end is cut short, and ``torch.flip`` copies
assert torch.equal(x[1:100], x[1:])
flipped = torch.flip(x, dims=[1])
assert flipped.untyped_storage().data_ptr() != x.untyped_storage().data_ptr()

# %%
# Integers and slices give views
# ------------------------------
# Indexing with slices and Python integers, not bools, returns a :term:`view`: a new
# tensor that reads the same memory, the :term:`storage` of the original. So an in-place
# write into the view changes the original, as the pictures show.
# :ref:`sphx_glr_auto_examples_tensors_plot_07_views_and_strides.py` shows how a view
# finds its elements there.
#
# 1. :func:`torch.zeros_like` makes zeros shaped like ``x``.
# 2. :meth:`~torch.Tensor.fill_` writes ones into each selection of it.
# 3. The site's helper ``draw_tensors`` draws ``x`` with its ``groups=``
#    argument: one colour number per cell, 0 blue and 1 orange.
#    ``plt.show()`` shows the figure.
markers = []
for select in selections.values():
    marker = torch.zeros_like(x)
    select(marker).fill_(1)
    markers.append(marker)
draw_tensors([x] * len(selections), list(selections), groups=markers)
plt.show()

# %%
# .. check:: each selection is a view: orange marks exactly the cells it picks
for select, marker in zip(selections.values(), markers, strict=True):
    assert int(marker.sum()) == select(marker).numel()
    view = select(x)
    assert view.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()

# %%
# Dimensions kept or dropped
# --------------------------
# A single integer index *drops* its dimension. A range keeps it, even a range of length
# one. So ``x[0]`` is a row of :term:`shape` ``(4,)``, while ``x[0:1]`` is a matrix of
# one row, shape ``(1, 4)``. An integer in every dimension leaves a tensor of
# :term:`rank` 0, which :meth:`~torch.Tensor.item` turns into a Python number. In the
# drawing, ``x[:, 0]`` comes out as a row, like any rank-1 tensor, while ``x[:, 0:1]``
# stays a column. The kept dimension matters once the result meets another tensor in
# arithmetic: that is :term:`broadcasting`, on the next page.
#
# .. detail:: The last row as a range
#
#    ``x[i:i+1]`` keeps row ``i``, except for ``i = -1``: ``x[-1:0]`` is empty. Write
#    the last row as ``x[-1:]``.
kept_or_dropped = {
    "x[0]": x[0],
    "x[0:1]": x[0:1],
    "x[:, 0]": x[:, 0],
    "x[:, 0:1]": x[:, 0:1],
    "x[2, 3]": x[2, 3],
}
for title, part in kept_or_dropped.items():
    print(f"{title:9} rank {part.dim()}  shape {tuple(part.shape)}")
print("x[2, 3].item() =", x[2, 3].item(), type(x[2, 3].item()))
draw_tensors(list(kept_or_dropped.values()), list(kept_or_dropped))
plt.show()

# %%
# .. check:: an integer drops its dimension and a range keeps it; ``x[-1:0]`` is empty
cube = torch.zeros(2, 3, 4)
for dim, size in enumerate(cube.shape):
    before = (slice(None),) * dim
    for i in range(-size, size):
        assert cube[(*before, i)].shape == cube.shape[:dim] + cube.shape[dim + 1 :]
        assert cube[(*before, slice(i, i + 1))].dim() == cube.dim()
        assert cube[(*before, slice(i, i + 1))].shape[dim] == (0 if i == -1 else 1)
assert x[-1:].shape == (1, 4)
assert isinstance(x[2, 3].item(), int)

# %%
# Integer indexing and masks
# --------------------------
# A list of integers picks those positions, in that order, and may name one twice. An
# ``int64`` or ``int32`` tensor does the same. This is *integer indexing*, also called
# advanced indexing. A list or tensor of booleans as long as the dimension is a mask: it
# picks the positions where it is ``True``.
#
# .. detail:: Other integer dtypes
#
#    A ``uint8`` tensor is still read as a mask. That old rule now gives a deprecation
#    warning. Other integer dtypes are refused in an index tensor of at least one
#    dimension.
torch.manual_seed(7)
a = torch.rand(5)
mask = torch.tensor([True, False, False, True, True])
print("a           ", a)
print("a[2]        ", a[2])
print("a[[4, 2, 2]]", a[[4, 2, 2]])
print("a[mask]     ", a[mask])

# %%
# .. check:: an index picks in order with repeats; ``int32`` and bool lists work
assert a[[4, 2, 2]].tolist() == [a[4].item(), a[2].item(), a[2].item()]
assert torch.equal(a[torch.tensor([4, 2], dtype=torch.int32)], a[[4, 2]])
assert torch.equal(a[mask.tolist()], a[mask])
assert a[mask].tolist() == [v for v, m in zip(a.tolist(), mask, strict=True) if m]

# %%
# .. check:: ``uint8`` still masks, with a warning; ``int8`` and ``int16`` fail
import warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    assert torch.equal(a[mask.to(torch.uint8)], a[mask])
assert "deprecated" in str(caught[0].message)
for dtype in (torch.int8, torch.int16):
    try:
        a[torch.tensor([4, 2], dtype=dtype)]
        raise AssertionError(f"an {dtype} index tensor was accepted")
    except IndexError:
        pass

# %%
# In pictures: what the index picks in orange, colour 1, and what the mask picks in
# green, colour 2. ``mask.long() * 2`` turns the mask into 2 where it is ``True``, 0
# elsewhere.
picked = torch.tensor([0, 0, 1, 0, 1])  # 1 at positions 2 and 4
groups = [picked, torch.ones(3, dtype=torch.long), mask.long() * 2, torch.full((3,), 2)]
titles = ["a", "a[[4, 2, 2]]", "mask", "a[mask]"]
draw_tensors([a, a[[4, 2, 2]], mask, a[mask]], titles, groups=groups)
plt.show()

# %%
# .. check:: the orange cells of ``a`` are the positions ``[4, 2, 2]`` names
assert picked.bool().tolist() == [i in [4, 2, 2] for i in range(len(a))]

# %%
# On a matrix, one index tensor picks whole rows. Two index tensors pick single
# elements: ``matrix[rows, columns]`` picks ``matrix[rows[k], columns[k]]`` for each
# ``k``.
#
# .. detail:: A grid of rows and columns
#
#    Index tensors of different shapes are first broadcast, by the rule of the next
#    page. So ``rows.reshape(3, 1)``, a column of rows, and ``columns``, a row, pick a 3
#    by 3 grid: every row with every column. Index tensors mixed with slices follow
#    rules this page leaves out.
matrix = torch.rand(5, 3)
rows = torch.tensor([0, 2, 4])
columns = torch.tensor([2, 1, 0])
print(matrix)
print("matrix[rows]\n", matrix[rows])
print("matrix[rows, columns]", matrix[rows, columns])

# %%
# .. check:: two index tensors pair rows with columns; a column of rows picks a grid
pairs = zip(rows.tolist(), columns.tolist(), strict=True)
assert matrix[rows, columns].tolist() == [matrix[r, c].item() for r, c in pairs]
assert torch.equal(matrix[rows], torch.stack([matrix[r] for r in rows]))
grid = matrix[rows.reshape(3, 1), columns]
assert grid.tolist() == [[matrix[r, c].item() for c in columns] for r in rows]

# %%
# Masks usually come from a comparison: ``matrix > 0.8`` compares each element with 0.8,
# into a ``bool`` tensor of ``matrix``'s shape.
#
# - A mask of the tensor's whole shape picks single elements, row by row,
#   into a rank-1 result.
# - A mask as long as the first dimension picks whole rows. Below, the mask
#   ``matrix[:, 1] > 0.5`` is built from column 1, so it is such a mask.
# - A mask of another length raises an ``IndexError``.
print("matrix > 0.8\n", matrix > 0.8)
print("matrix[matrix > 0.8]      ", matrix[matrix > 0.8])
print("matrix[matrix[:, 1] > 0.5]\n", matrix[matrix[:, 1] > 0.5])
try:
    matrix[torch.tensor([True, False])]
except IndexError as error:
    print(f"IndexError: {error}")
else:
    raise AssertionError("matrix[torch.tensor([True, False])] did not raise")

# %%
# .. check:: a full mask picks elements row by row into rank 1; a row mask picks rows
high = matrix > 0.8
assert (high.dtype, high.shape) == (torch.bool, matrix.shape)
assert torch.equal(matrix[high], matrix.flatten()[matrix.flatten() > 0.8])
assert torch.zeros(2, 3, 4)[torch.ones(2, 3, 4, dtype=torch.bool)].shape == (24,)
assert torch.tensor(5.0)[torch.tensor(True)].shape == (1,)
row_mask = matrix[:, 1] > 0.5
assert torch.equal(matrix[row_mask], matrix[row_mask.nonzero().flatten()])

# %%
# View or copy
# ------------
# A list of integers, a mask, or an integer tensor of rank 1 or more gives a *copy*: a
# new tensor with storage of its own. The elements it picks need not lie at regular
# steps in memory, so PyTorch copies them. ``t.untyped_storage().data_ptr()`` is the
# address where the storage of ``t`` starts, so two tensors that share storage give the
# same address.
#
# .. detail:: Rank-0 index tensors
#
#    On the CPU, a rank-0 tensor of any integer dtype but ``uint8`` counts as a plain
#    integer. So it gives a view. :meth:`~torch.Tensor.argmax` of a vector returns such
#    a tensor: the position of its largest value. A rank-0 ``bool`` or ``uint8`` tensor
#    is read as a mask instead.
parts = {
    "matrix[1:3]": matrix[1:3],
    "matrix[[1, 2]]": matrix[[1, 2]],
    "matrix[matrix > 0.8]": matrix[matrix > 0.8],
}
for title, part in parts.items():
    same = part.untyped_storage().data_ptr() == matrix.untyped_storage().data_ptr()
    print(f"{title:20} shares matrix's storage: {same}")

# %%
# .. check:: a slice gives a view; a list, mask, index tensor or Python bool copies
address = matrix.untyped_storage().data_ptr()
shares = [part.untyped_storage().data_ptr() == address for part in parts.values()]
assert shares == [True, False, False]
assert matrix[rows].untyped_storage().data_ptr() != address
for flag in (True, False):
    assert matrix[flag].untyped_storage().data_ptr() != address

# %%
# .. check:: a rank-0 integer tensor, as from ``argmax``, indexes as an integer
position = matrix[:, 0].argmax()
assert (position.dim(), position.dtype) == (0, torch.int64)
assert matrix[position, 0] == matrix[:, 0].max()
assert matrix[position].untyped_storage().data_ptr() == address
for dtype in (torch.int8, torch.int16, torch.int32, torch.uint16):
    assert matrix[torch.tensor(1, dtype=dtype)].shape == (3,)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # uint8 as a mask is deprecated
    assert matrix[torch.tensor(1, dtype=torch.uint8)].shape == (1, 5, 3)
assert matrix[torch.tensor(True)].shape == (1, 5, 3)

# %%
# Writing through an index
# ------------------------
# A write into the *result* of a mask or an integer index changes only that copy, which
# is then thrown away. Writing *through* the index is different: ``t[mask] = value``
# writes into ``t`` itself. Here :meth:`~torch.Tensor.clone` first makes a copy of
# ``matrix`` with storage of its own, to leave ``matrix`` as it is.
# :meth:`~torch.Tensor.min` and :meth:`~torch.Tensor.max` give a tensor's smallest and
# largest element.
clipped = matrix.clone()
clipped[clipped > 0.8][0] = -1.0  # writes into a copy: no effect
print("after clipped[clipped > 0.8][0] = -1.0, min is still", clipped.min())
clipped[clipped > 0.8] = 0.8
print("after clipped[clipped > 0.8] = 0.8, max is", clipped.max())

# %%
# .. check:: the write into a copy is lost; the write through the mask clips
assert torch.equal(clipped, matrix.clamp(max=0.8))
assert clipped.untyped_storage().data_ptr() != matrix.untyped_storage().data_ptr()

# %%
# Writes to a repeated position replace one another: they do not add up. The in-depth
# page :ref:`sphx_glr_auto_examples_tensors_plot_53_repeated_index_writes.py` shows why,
# and how :meth:`~torch.Tensor.index_add_` adds them instead.
counts = torch.zeros(3)
counts[[0, 0, 2]] += 1
print("counts[[0, 0, 2]] += 1:", counts)

# %%
# .. check:: ``+=`` through a repeated index adds only once
assert counts.tolist() == [1.0, 0.0, 1.0]

# %%
# Summary
# -------
# - ``x[i]`` drops a dimension; a range such as ``x[i:i+1]`` keeps it.
# - Integers, not bools, and slices give views: a write into one reaches the original.
# - Lists, integer tensors of rank 1 or more and ``bool`` masks give copies.
# - ``t[mask] = value`` writes into ``t``, but repeated positions do not add up.
#
# Next: :ref:`sphx_glr_auto_examples_tensors_plot_04_arithmetic_and_broadcasting.py`
# computes with whole tensors.

# %%
# .. _exercises-tensors-03:
#
# Exercises
# ---------
# On the web page each solution hides behind a toggle, and the check after
# it says whether an answer is right.
#
# **Exercise 1.** For ``x = torch.arange(12).reshape(3, 4)``, make ``answer``: the last
# column of ``x``, :term:`shape` ``(3, 1)``, by indexing.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
x = torch.arange(12).reshape(3, 4)
answer = x[:, -1:]  # a range keeps the dimension; x[:, -1] drops it

# %%
# .. raw:: html
#
#    </details>
assert isinstance(answer, torch.Tensor), "Exercise 1: answer is not a tensor"
assert answer.tolist() == [[3], [7], [11]], f"Exercise 1: {answer.tolist()}"
print("Exercise 1: right")

# %%
# **Exercise 2.** For ``scores = torch.tensor([0.25, 0.75, 1.0])``, make ``capped``:
# the values above 0.5 set to 0.5 through a :term:`mask`, ``scores`` left as it is.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
scores = torch.tensor([0.25, 0.75, 1.0])
capped = scores.clone()  # without clone(), the write would reach scores
capped[capped > 0.5] = 0.5

# %%
# .. raw:: html
#
#    </details>
assert isinstance(capped, torch.Tensor), "Exercise 2: capped is not a tensor"
assert scores.tolist() == [0.25, 0.75, 1], "Exercise 2: scores changed"
assert capped.tolist() == [0.25, 0.5, 0.5], f"Exercise 2: {capped.tolist()}"
print("Exercise 2: right")
