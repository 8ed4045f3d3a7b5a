"""
Indexing and selection
======================

Pick parts out of a tensor by position, by a list of positions or by a mask,
and write through an index. After this page you can predict the shape of a
selection made of integers and slices, of index tensors, or of a mask, and
tell which selections share memory with the original and which are copies.
"""

# %%
# Every page starts by saying what computed it. The tensors on this page hold
# a handful of numbers each, so it runs on the CPU whatever the machine has.
# On your machine the versions, the processor and the thread count may
# differ; the values printed come from fixed seeds and repeat from run to run
# with the same PyTorch release.
import matplotlib.pyplot as plt
import torch

from tutorial_utils.environment import environment_summary
from tutorial_utils.grids import draw_tensors

print(environment_summary(torch.device("cpu")))

# %%
# Slicing: ranges, negative indices and steps
# -------------------------------------------
# A :term:`tensor` is indexed much as a Python list is, once per
# :term:`dimension`, with the indices separated by commas. ``start:stop:step``
# is a range that includes ``start`` and excludes ``stop``; a negative index
# counts from the end (``-1`` is the last); dimensions left out at the end mean
# "all of it", so ``x[1]`` is ``x[1, :]``.
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
# .. check:: dimensions left out at the end mean all of it: ``x[1]`` is ``x[1, :]``
assert torch.equal(x[1], x[1, :])

# %%
# As with lists, a range that runs past the end is cut short, and a single
# index past the end raises an ``IndexError`` (:ref:`its atlas entry
# <error-index-out-of-bounds>` has the fix). Unlike lists, a tensor takes no
# negative step: to reverse a dimension, use :func:`torch.flip`, which copies.
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
# Indexing with integers and slices returns a :term:`view`: a new tensor that
# reads the :term:`storage` of the original, so writing into the selection
# writes into the original. The pictures below are made that way: each
# selection of a tensor of zeros is filled with ones, and the cells that
# became 1 are drawn in orange, over the values of ``x``. (How a view reads a
# shared storage is the subject of
# :ref:`sphx_glr_auto_examples_tensors_plot_07_views_and_strides.py`.)
for title, select in selections.items():
    same = select(x).untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    print(f"{title:13} shares x's storage: {same}")
markers = []
for select in selections.values():
    marker = torch.zeros_like(x)
    select(marker).fill_(1)
    markers.append(marker)
draw_tensors([x] * len(selections), list(selections), groups=markers)
plt.show()

# %%
# .. check:: each picture marks in orange exactly the cells its selection picks
for select, marker in zip(selections.values(), markers, strict=True):
    assert int(marker.sum()) == select(marker).numel()

# %%
# Dimensions kept or dropped
# --------------------------
# A single integer index *drops* its dimension; a range, even of length one,
# *keeps* it. ``x[0]`` is a row of :term:`shape` ``(4,)``, ``x[0:1]`` a matrix
# of one row, shape ``(1, 4)``. Indexing every dimension with a single integer
# leaves a tensor of :term:`rank` 0; :meth:`~torch.Tensor.item` turns it into
# a Python number.
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

# %%
# .. check:: an integer drops its dimension and a range keeps it; ``i:i+1`` has one element, but ``-1:0`` none
cube = torch.zeros(2, 3, 4)
for dim, size in enumerate(cube.shape):
    before = (slice(None),) * dim
    for i in range(-size, size):
        assert cube[(*before, i)].shape == cube.shape[:dim] + cube.shape[dim + 1 :]
        assert cube[(*before, slice(i, i + 1))].dim() == cube.dim()
        assert cube[(*before, slice(i, i + 1))].shape[dim] == (0 if i == -1 else 1)
assert x[-1:].shape == (1, 4)

# %%
# Drawn, the difference is plain: a column picked with ``x[:, 0]`` comes out
# as a row, because it has become a rank-1 tensor, which has no rows or
# columns; ``x[:, 0:1]`` stays a column. The kept dimension matters as soon as
# the result meets another tensor in arithmetic: see :term:`broadcasting` in
# :ref:`sphx_glr_auto_examples_tensors_plot_04_arithmetic_and_broadcasting.py`.
draw_tensors(list(kept_or_dropped.values()), list(kept_or_dropped))
plt.show()

# %%
# Integer indexing and masks
# --------------------------
# A list of integers, or a tensor of them (``int64`` or ``int32``), picks those
# positions, in that order, and may name a position twice (*integer
# indexing*, also called advanced or fancy indexing). A list or tensor of
# booleans of the same length, a *mask*, picks the positions where it is
# ``True``.
#
# .. detail:: Other integer dtypes
#
#    A ``uint8`` tensor is still read as a mask, an old rule that now gives a
#    deprecation warning. An index tensor of another integer dtype, with at
#    least one dimension, is refused.
torch.manual_seed(7)
a = torch.rand(5)
mask = torch.tensor([True, False, False, True, True])
print("a           ", a)
print("a[2]        ", a[2])
print("a[[4, 2, 2]]", a[[4, 2, 2]])
print("a[mask]     ", a[mask])

# %%
# .. check:: an index picks in order, repeats allowed; ``int32`` indexes, ``uint8`` still masks, others fail
import warnings

assert a[[4, 2, 2]].tolist() == [a[4].item(), a[2].item(), a[2].item()]
assert torch.equal(a[torch.tensor([4, 2], dtype=torch.int32)], a[[4, 2]])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    assert torch.equal(a[mask.to(torch.uint8)], a[mask])
assert "deprecated" in str(caught[0].message)
for dtype in (torch.int8, torch.int16):
    try:
        a[torch.tensor([4, 2], dtype=dtype)]
    except IndexError:
        continue
    else:
        raise AssertionError("a[torch.tensor([4, 2], dtype=dtype)] did not raise")
    raise AssertionError(dtype)

# %%
# In pictures, the integer index ``[4, 2, 2]`` in orange and the mask in green:
picked = torch.zeros(5, dtype=torch.long)
picked[[4, 2]] = 1
draw_tensors(
    [a, a[[4, 2, 2]], mask, a[mask]],
    ["a", "a[[4, 2, 2]]", "mask", "a[mask]"],
    groups=[
        picked,
        torch.ones(3, dtype=torch.long),
        mask.long() * 2,
        torch.full((3,), 2),
    ],
)
plt.show()

# %%
# On a matrix, one index tensor picks whole rows. Two index tensors pick
# single elements: the first gives the row and the second the column of each
# element, paired position by position after the two are broadcast against
# each other (the rule of the next page), so a column of rows and a row of
# columns pick a whole grid. Index tensors mixed with slices follow further
# rules that this page leaves out.
matrix = torch.rand(5, 3)
rows = torch.tensor([0, 2, 4])
columns = torch.tensor([2, 1, 0])
print(matrix)
print("matrix[rows]\n", matrix[rows])
print("matrix[rows, columns]", matrix[rows, columns])
grid = matrix[rows.reshape(3, 1), columns]
print("matrix[rows.reshape(3, 1), columns] has shape", tuple(grid.shape))

# %%
# .. check:: two index tensors pair rows with columns; a column of rows picks a whole grid
pairs = zip(rows.tolist(), columns.tolist(), strict=True)
assert matrix[rows, columns].tolist() == [matrix[r, c].item() for r, c in pairs]
assert grid.tolist() == [[matrix[r, c].item() for c in columns] for r in rows]

# %%
# Masks usually come from a comparison: ``matrix > 0.8`` is a ``bool`` tensor
# of ``matrix``'s shape. A mask of the tensor's whole shape picks single
# elements, in row-by-row order, and gives a rank-1 result whatever the
# tensor's rank. A mask as long as the first dimension picks whole rows. A
# mask whose length differs from that of the dimension it indexes is an error.
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
# .. check:: a full mask picks elements row by row into rank 1; a mask of rows picks rows
assert torch.equal(matrix[matrix > 0.8], matrix.flatten()[matrix.flatten() > 0.8])
assert torch.zeros(2, 3, 4)[torch.ones(2, 3, 4, dtype=torch.bool)].shape == (24,)
row_mask = matrix[:, 1] > 0.5
assert torch.equal(matrix[row_mask], matrix[row_mask.nonzero().flatten()])

# %%
# View or copy
# ------------
# Integer indices and slices give views. A list of integers, an integer
# tensor with at least one dimension, or a mask gives a *copy*: a new tensor
# with storage of its own, because the elements it picks need not lie at
# regular steps in memory.
#
# .. detail:: Rank-0 index tensors
#
#    A rank-0 ``int64`` tensor counts as a plain integer and gives a view.
#    :meth:`~torch.Tensor.argmax` of a vector gives one; of a matrix, without
#    ``dim=``, it gives a position in the flattened matrix, not a row.
parts = {
    "matrix[1:3]": matrix[1:3],
    "matrix[[1, 2]]": matrix[[1, 2]],
    "matrix[matrix > 0.8]": matrix[matrix > 0.8],
    "matrix[matrix[:, 0].argmax()]": matrix[matrix[:, 0].argmax()],
}
shares = {}
for title, part in parts.items():
    same = part.untyped_storage().data_ptr() == matrix.untyped_storage().data_ptr()
    shares[title] = same
    print(f"{title:29} shares matrix's storage: {same}")

# %%
# .. check:: a slice and a rank-0 ``int64`` index give views; a list and a mask give copies
assert list(shares.values()) == [True, False, False, True]

# %%
# A copy is the trap: a write to the *result* of a mask or an integer index
# changes only that copy, which is then thrown away. Writing *through* the
# index, ``t[mask] = value``, is different: PyTorch writes into ``t`` itself.
# Here ``t`` is ``clipped``, a clone, so that ``matrix`` stays as it is.
clipped = matrix.clone()
clipped[clipped > 0.8][0] = -1.0  # writes into a copy: no effect
print("after clipped[clipped > 0.8][0] = -1.0, min is still", clipped.min())
clipped[clipped > 0.8] = 0.8
print("after clipped[clipped > 0.8] = 0.8, max is", clipped.max())

# %%
# .. check:: the write into a copy is lost; the write through the mask clips ``clipped``
assert torch.equal(clipped, matrix.clamp(max=0.8))

# %%
# Writing through an integer index with a repeated position does not add up:
# the writes to that position replace one another.
# Python runs ``counts[[0, 0, 2]] += 1`` as: read ``counts[[0, 0, 2]]`` (a
# copy), add 1, and write the three results back, two of them to position 0.
# Both are 1, so position 0 ends up 1 larger, not 2. To accumulate, use
# :meth:`~torch.Tensor.index_add_`, which adds every contribution.
#
# .. detail:: Different values at one position
#
#    When the writes to a repeated position differ, which one is kept is not
#    defined (so says :meth:`~torch.Tensor.index_put_`, which
#    ``t[index] = values`` calls).
counts = torch.zeros(3)
counts[[0, 0, 2]] += 1
print("counts[[0, 0, 2]] += 1:             ", counts)
counts = torch.zeros(3)
counts.index_add_(0, torch.tensor([0, 0, 2]), torch.ones(3))
print("counts.index_add_(0, [0, 0, 2], 1s):", counts)
counts = torch.zeros(3)
counts[[0, 0]] = torch.tensor([1.0, 2.0])  # 1.0 or 2.0: not defined

# %%
# .. check:: ``+=`` through a repeated index adds once, ``index_add_`` every time; one write wins
assert counts[0].item() in (1.0, 2.0)
_once = torch.zeros(3)
_once[[0, 0, 2]] += 1
assert _once.tolist() == [1.0, 0.0, 1.0]
_added = torch.zeros(3)
_added.index_add_(0, torch.tensor([0, 0, 2]), torch.ones(3))
assert _added.tolist() == [2.0, 0.0, 1.0]

# %%
# Summary
# -------
# - ``x[i]`` drops a dimension; a range keeps it, even a range of one such as
#   ``x[i:i+1]`` (but not for ``i = -1``: ``x[-1:0]`` is empty, the last row
#   is ``x[-1:]``). Ranges take positive steps and negative indices, and are
#   cut short at the end.
# - Integers and slices give views, which share storage: a write into them
#   reaches the original.
# - Lists and integer tensors pick positions, in order, repeats allowed;
#   ``bool`` masks pick where ``True`` (``uint8`` ones too, deprecated). Both
#   give copies (a rank-0 ``int64`` tensor acts as a plain integer).
# - A write to such a copy is lost; assigning through the index,
#   ``t[mask] = value``, writes into ``t``. Writes to a repeated position
#   replace one another (which is kept is not defined);
#   :meth:`~torch.Tensor.index_add_` accumulates.
#
# Next: :ref:`sphx_glr_auto_examples_tensors_plot_04_arithmetic_and_broadcasting.py`
# computes with whole tensors: element by element, across shapes that differ,
# and along one dimension.

# %%
# .. _exercises-tensors-03:
#
# Exercises
# ---------
# On the web page each solution hides behind a toggle (the notebook has an
# empty cell for your answer instead), and the check after it says whether an
# answer is right.
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
