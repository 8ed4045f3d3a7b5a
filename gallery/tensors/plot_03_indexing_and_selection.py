"""
Indexing and arithmetic
=======================

Pick parts out of a tensor by position, by a list of indices or by a mask,
and compute with whole tensors at once: element by element, across shapes
that differ (broadcasting), and along one axis (reductions). You will also
know which results share memory with the original and which are new.
"""

# %%
# Every page starts by saying what computed it. On your machine the versions,
# the device and the thread count may differ; the values printed on this page
# will not.
import matplotlib.pyplot as plt
import torch

from tutorial_utils.devices import pick_device
from tutorial_utils.environment import environment_summary
from tutorial_utils.plotting import draw_tensors

device = pick_device()
print(environment_summary(device))

# %%
# Slicing: ranges, negative indices and steps
# -------------------------------------------
# Indexing works as for Python lists, once per dimension, separated by commas.
# ``start:stop:step`` is a range that includes ``start`` and excludes
# ``stop``; a negative index counts from the end (``-1`` is the last); a
# missing dimension means "all of it", so ``x[1]`` is ``x[1, :]``.
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

# sphinx_gallery_start_ignore
assert selections["x[1]"](x).tolist() == [4, 5, 6, 7]
assert torch.equal(selections["x[1]"](x), x[1, :])
assert selections["x[:, 2]"](x).tolist() == [2, 6, 10]
assert selections["x[-1, -2:]"](x).tolist() == [10, 11]
assert selections["x[::2, 1::2]"](x).tolist() == [[1, 3], [9, 11]]
# sphinx_gallery_end_ignore

# %%
# In pictures, with the selected cells in orange. The markers are made by
# applying the same selection to a tensor of zeros and filling it with ones:
# a slice is a *view* of the tensor it came from, so writing into the slice
# writes into the original.
markers = []
for select in selections.values():
    marker = torch.zeros_like(x)
    select(marker).fill_(1)
    markers.append(marker)
draw_tensors([x] * len(selections), list(selections), groups=markers)
plt.show()

# sphinx_gallery_start_ignore
assert [int(m.sum()) for m in markers] == [4, 3, 2, 4]
# sphinx_gallery_end_ignore

# %%
# Dimensions kept or dropped
# --------------------------
# A single index *drops* its dimension; a range, even of length one, *keeps*
# it. ``x[0]`` is a row of shape ``(4,)``, ``x[0:1]`` a matrix of one row,
# shape ``(1, 4)``. Indexing every dimension with a single number leaves a
# tensor of rank 0; :meth:`~torch.Tensor.item` turns it into a Python number.
kept_or_dropped = {
    "x[0]": x[0],
    "x[0:1]": x[0:1],
    "x[:, 0]": x[:, 0],
    "x[:, 0:1]": x[:, 0:1],
    "x[2, 3]": x[2, 3],
}
for title, part in kept_or_dropped.items():
    print(f"{title:9} rank {part.dim()}  shape {tuple(part.shape)}")
print("x[2, 3].item() =", x[2, 3].item())

# sphinx_gallery_start_ignore
assert x[0].shape == (4,)
assert x[0:1].shape == (1, 4)
assert x[:, 0].shape == (3,)
assert x[:, 0:1].shape == (3, 1)
assert x[2, 3].dim() == 0
assert x[2, 3].item() == 11
assert x[-1:].shape == (1, 4)
assert x[-1].shape == (4,)
# sphinx_gallery_end_ignore

# %%
# Drawn, the difference is plain: a column picked with ``x[:, 0]`` comes out
# as a row, because it has become a rank-1 tensor, which has no rows or
# columns; ``x[:, 0:1]`` stays a column. The kept dimension matters as soon
# as the result meets another tensor (see broadcasting below).
draw_tensors(list(kept_or_dropped.values()), list(kept_or_dropped))
plt.show()

# %%
# Indexing with integer tensors and masks
# ---------------------------------------
# A list or tensor of integers picks those positions, in that order, and a
# list or tensor of booleans of the same length (a *mask*) picks the
# positions where it is ``True``. The notes this site grew from show this
# after ``torch.random.manual_seed(42)``. Run as printed there, their code
# gives other numbers than the ones they show:
torch.random.manual_seed(42)
torch.zeros(3, 4, dtype=torch.float16)
torch.zeros(2, 4, 5, dtype=torch.int16)
torch.rand(2, 3, 4, 5)
a = torch.rand(5)
print("a[2] =", a[2], " but the notes print tensor(0.7936)")

# sphinx_gallery_start_ignore
assert abs(a[2].item() - 0.7936) > 0.1
# sphinx_gallery_end_ignore

# %%
# :func:`torch.rand` takes the next numbers from one stream, one per element;
# :func:`torch.zeros` takes none. So the notes' values must sit
# somewhere in the stream that starts at seed 42. Drawing its first 64
# numbers at once and searching them finds ``a``, which starts with 0.6009,
# at position 5, and the 5 x 3 matrix they draw next, which starts with
# 0.2695, at position 25:
torch.random.manual_seed(42)
stream = torch.rand(64)
for value in (0.6009, 0.2695):
    found = torch.isclose(stream, torch.tensor(value), rtol=0, atol=5e-5)
    print(f"{value} is at position {found.nonzero().flatten().tolist()}")

# sphinx_gallery_start_ignore
assert torch.isclose(stream[5], torch.tensor(0.6009), rtol=0, atol=5e-5)
assert torch.isclose(stream[25], torch.tensor(0.2695), rtol=0, atol=5e-5)
# sphinx_gallery_end_ignore

# %%
# The rank-4 tensor's 120 numbers were therefore not drawn before ``a`` in
# the run the notes printed. Instead, 5 numbers were drawn before ``a`` and
# 15 between ``a`` and the matrix: exactly what running the ``a`` cell and
# the matrix cell twice each does in a notebook. This sequence gives the
# notes' numbers:
torch.random.manual_seed(42)
torch.rand(5)  # a first run of the cell
a = torch.rand(5)
mask = torch.tensor([True, False, False, True, True])
print("a               ", a)
print("a[2]            ", a[2])
print("a[[2, 4]]       ", a[[2, 4]])
print("a[mask]         ", a[mask])

# sphinx_gallery_start_ignore
assert torch.allclose(a[2], torch.tensor(0.7936), rtol=0, atol=5e-5)
assert torch.allclose(a[[2, 4]], torch.tensor([0.7936, 0.1332]), rtol=0, atol=5e-5)
assert torch.allclose(
    a[mask], torch.tensor([0.6009, 0.9408, 0.1332]), rtol=0, atol=5e-5
)
assert torch.equal(a, stream[5:10])
copied = a[[2, 4]]
copied[0] = 5.0
masked = a[mask]
masked[0] = 5.0
assert a.max() < 1
# sphinx_gallery_end_ignore

# %%
# The integer index ``[2, 4]`` (orange) and the mask (green) in pictures:
picked = torch.zeros(5, dtype=torch.long)
picked[[2, 4]] = 1
draw_tensors(
    [a, a[[2, 4]], mask, a[mask]],
    ["a", "a[[2, 4]]", "mask", "a[mask]"],
    groups=[
        picked,
        torch.ones(2, dtype=torch.long),
        mask.long() * 2,
        torch.full((3,), 2),
    ],
)
plt.show()

# %%
# On a matrix, one index tensor picks whole rows; two pick single elements,
# one row index and one column index per element. The matrix is the notes'
# next draw, after a first run of its cell:
torch.rand((5, 3))  # a first run of the cell
matrix = torch.rand((5, 3))
rows = torch.tensor([0, 2, 4])
print(matrix)
print("matrix[0]      ", matrix[0])
print("matrix[0, 2]   ", matrix[0, 2])
print("matrix[rows]\n", matrix[rows])
print("matrix[rows, [2, 1, 0]]", matrix[rows, [2, 1, 0]])

# sphinx_gallery_start_ignore
notes_matrix = torch.tensor(
    [
        [0.2695, 0.3588, 0.1994],
        [0.5472, 0.0062, 0.9516],
        [0.0753, 0.8860, 0.5832],
        [0.3376, 0.8090, 0.5779],
        [0.9040, 0.5547, 0.3423],
    ]
)
assert torch.allclose(matrix, notes_matrix, rtol=0, atol=5e-5)
assert torch.equal(matrix, stream[25:40].reshape(5, 3))
assert torch.equal(matrix[rows], matrix[[0, 2, 4]])
assert matrix[rows, [2, 1, 0]].tolist() == [
    matrix[0, 2].item(),
    matrix[2, 1].item(),
    matrix[4, 0].item(),
]
# sphinx_gallery_end_ignore

# %%
# Masks usually come from a comparison. A mask of the tensor's own shape picks
# single elements and always gives a rank-1 result; a mask along one
# dimension picks whole rows. Unlike a slice, indexing with a tensor or list
# makes a *copy*: changing the result leaves ``matrix`` alone. Assigning
# through a mask, on the other hand, writes into the indexed tensor itself
# (here a clone, so that ``matrix`` stays as the notes print it).
large = matrix[matrix > 0.8]
print("matrix[matrix > 0.8]     ", large)
print("matrix[matrix[:, 1] > 0.5]\n", matrix[matrix[:, 1] > 0.5])
large[0] = -1.0
print("after large[0] = -1.0, matrix[1, 2] is still", matrix[1, 2])
clipped = matrix.clone()
clipped[clipped > 0.8] = 0.8
print("after clipped[clipped > 0.8] = 0.8, max is", clipped.max())

# sphinx_gallery_start_ignore
assert large.dim() == 1
assert large.numel() == int((matrix > 0.8).sum())
assert matrix[matrix[:, 1] > 0.5].shape == (3, 3)
assert large[0] == -1.0
assert matrix[1, 2] > 0.8
assert (matrix > 0.8).sum() == 4
assert clipped.max() == torch.tensor(0.8)
# sphinx_gallery_end_ignore

# %%
# Element-wise operations
# -----------------------
# Arithmetic operators and functions such as :func:`torch.exp` apply to each
# element, pairing elements at the same position; a Python number is used
# with every element. No loop is written, and none runs in Python.
t1 = torch.arange(1, 5).view(2, 2)
t2 = torch.tensor([[1, 1], [0, 0]])
print(t1 + t2)
print(t1 + 1)
print(t1 * t2)
print(t1**2)

# sphinx_gallery_start_ignore
assert (t1 + t2).tolist() == [[2, 3], [3, 4]]
assert (t1 + 1).tolist() == [[2, 3], [4, 5]]
assert (t1 * t2).tolist() == [[1, 2], [0, 0]]
# sphinx_gallery_end_ignore

# %%
# ``*`` is the element-wise product (:func:`torch.multiply`), not the matrix
# product, which is ``@`` (:func:`torch.matmul`):
print(t1 @ t2)

# sphinx_gallery_start_ignore
assert (t1 @ t2).tolist() == [[1, 1], [3, 3]]
assert not torch.equal(t1 @ t2, t1 * t2)
# sphinx_gallery_end_ignore

# %%
# The notes' seeded example: ``t1`` uniform in [-1, 1), ``t2`` from the
# standard normal distribution (:func:`torch.normal`), and their element-wise
# product, the same numbers as the notes print:
torch.manual_seed(1)
t1 = 2 * torch.rand(5, 2) - 1
t2 = torch.normal(mean=0, std=1, size=(5, 2))
t3 = torch.multiply(t1, t2)
print(t3)

# sphinx_gallery_start_ignore
notes_product = torch.tensor(
    [
        [0.4426, -0.3114],
        [0.0660, -0.5970],
        [1.1249, 0.0150],
        [0.1569, 0.7107],
        [-0.0451, -0.0352],
    ]
)
assert torch.allclose(t3, notes_product, rtol=0, atol=5e-5)
assert torch.equal(t3, t1 * t2)
assert t1.min() >= -1
assert t1.max() < 1
# sphinx_gallery_end_ignore

# %%
# Broadcasting: operations across shapes
# --------------------------------------
# Two tensors of different shapes can still meet, if their shapes are
# compatible. PyTorch (like NumPy) lines the shapes up from the right; two
# sizes match if they are equal or if one of them is 1, and a missing
# dimension counts as 1. Each size-1 dimension is then stretched to the other
# size. :func:`torch.broadcast_shapes` applies the rules to shapes alone:
for shapes in [((3, 1), (1, 4)), ((2, 3), (3,)), ((5, 1, 4), (3, 1)), ((2, 3), (2,))]:
    try:
        result = tuple(torch.broadcast_shapes(*shapes))
    except RuntimeError as error:
        result = f"RuntimeError: {error}"
    print(f"{shapes[0]!s:9} with {shapes[1]!s:7} -> {result}")

# sphinx_gallery_start_ignore
assert torch.broadcast_shapes((3, 1), (1, 4)) == (3, 4)
assert torch.broadcast_shapes((2, 3), (3,)) == (2, 3)
assert torch.broadcast_shapes((5, 1, 4), (3, 1)) == (5, 3, 4)
# sphinx_gallery_end_ignore

# %%
# The last pair fails because, from the right, 3 meets 2. The first pair is
# the classic one: a column of shape ``(3, 1)`` plus a row of shape
# ``(1, 4)`` gives a ``(3, 4)`` table. Each is stretched along its size-1
# dimension (:meth:`~torch.Tensor.expand` shows the stretched tensor), then
# they are added element by element. Blue cells come from the column, orange
# from the row.
column = torch.tensor([[0], [10], [20]])
row = torch.tensor([[1, 2, 3, 4]])
table = column + row
print(table)
draw_tensors(
    [column, row, column.expand(3, 4), row.expand(3, 4), table],
    ["column (3, 1)", "row (1, 4)", "column stretched", "row stretched", "sum (3, 4)"],
    groups=[
        torch.zeros(3, 1, dtype=torch.long),
        torch.ones(1, 4, dtype=torch.long),
        torch.zeros(3, 4, dtype=torch.long),
        torch.ones(3, 4, dtype=torch.long),
        torch.full((3, 4), 2),
    ],
)
plt.show()

# sphinx_gallery_start_ignore
assert torch.equal(table, column.expand(3, 4) + row.expand(3, 4))
assert table.shape == (3, 4)
assert table[2, 3] == 24
assert column.expand(3, 4).data_ptr() == column.data_ptr()
assert column.expand(3, 4).stride() == (1, 0)
# sphinx_gallery_end_ignore

# %%
# Stretching copies nothing: :meth:`~torch.Tensor.expand` makes a view that
# reads the same elements again and again, in the memory of the original
# (the page on views and strides shows how).
#
# Reductions along an axis
# ------------------------
# A *reduction* combines many elements into one: :func:`torch.sum`,
# :func:`torch.mean`, :func:`torch.std`, :func:`torch.max` and others. With
# no dimension they reduce the whole tensor to a rank-0 tensor; the notes'
# example sums 2 x 3 x 4 ones.
print(torch.ones(2, 3, 4).sum())

# sphinx_gallery_start_ignore
assert torch.ones(2, 3, 4).sum() == 24
# sphinx_gallery_end_ignore

# %%
# ``dim=`` reduces along one dimension only, which then disappears from the
# shape. The mean of each column of the notes' ``t1`` reduces dimension 0
# (down the rows). The notes spell the argument ``axis=``, NumPy's name,
# which PyTorch accepts too; the numbers are the notes':
t4 = torch.mean(t1, axis=0)
print(t4)

# sphinx_gallery_start_ignore
assert torch.allclose(t4, torch.tensor([-0.1373, 0.2028]), rtol=0, atol=5e-5)
assert torch.equal(t4, t1.mean(dim=0))
# sphinx_gallery_end_ignore

# %%
# On a small matrix, with ``keepdim=True`` the reduced dimension stays, with
# size 1. :func:`torch.max` along a dimension returns two tensors: the
# largest values and where they are. :func:`torch.std` divides by ``n - 1``
# by default (the sample standard deviation); ``correction=0`` divides by
# ``n``.
m = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
reductions = {
    "m.sum(dim=0)": m.sum(dim=0),
    "m.sum(dim=1)": m.sum(dim=1),
    "m.sum(dim=1, keepdim=True)": m.sum(dim=1, keepdim=True),
    "m.mean(dim=1)": m.mean(dim=1),
    "m.std(dim=1)": m.std(dim=1),
    "m.max(dim=1).values": m.max(dim=1).values,
    "m.max(dim=1).indices": m.max(dim=1).indices,
}
for title, result in reductions.items():
    print(f"{title:27} shape {tuple(result.shape)!s:7} {result.tolist()}")

# sphinx_gallery_start_ignore
assert reductions["m.sum(dim=0)"].tolist() == [5, 7, 9]
assert reductions["m.sum(dim=1, keepdim=True)"].shape == (2, 1)
assert reductions["m.max(dim=1).indices"].tolist() == [1, 2]
deviations = m - m.mean(dim=1, keepdim=True)
assert torch.allclose(
    reductions["m.std(dim=1)"], (deviations**2).sum(dim=1).div(2).sqrt()
)
assert torch.allclose(
    m.std(dim=1, correction=0), (deviations**2).sum(dim=1).div(3).sqrt()
)
# sphinx_gallery_end_ignore

# %%
# In pictures: ``dim=0`` collapses the rows, leaving one value per column;
# ``dim=1`` collapses the columns, leaving one value per row, as a column
# only with ``keepdim=True``. Colours follow the cells that are added up.
by_column = torch.arange(3).expand(2, 3)
by_row = torch.tensor([[3], [4]]).expand(2, 3)
draw_tensors(
    [m, m.sum(dim=0), m, m.sum(dim=1, keepdim=True)],
    ["m", "sum(dim=0)", "m", "sum(dim=1, keepdim=True)"],
    groups=[by_column, torch.arange(3), by_row, torch.tensor([[3], [4]])],
    fmt="{:g}",
)
plt.show()

# %%
# ``keepdim=True`` is what lets a reduction broadcast back against the tensor
# it came from. Dividing each row by its sum needs the sums as a ``(2, 1)``
# column; the ``(2,)`` vector from ``keepdim=False`` is lined up with the
# *last* dimension, of size 3, and fails:
shares = m / m.sum(dim=1, keepdim=True)
print(shares)
try:
    m / m.sum(dim=1)
except RuntimeError as error:
    print(f"RuntimeError: {error}")

# sphinx_gallery_start_ignore
assert torch.allclose(shares.sum(dim=1), torch.ones(2))
# sphinx_gallery_end_ignore

# %%
# With a square matrix the same mistake does not fail: it silently divides
# each *column* by a row sum. Only ``keepdim=True`` gives rows that sum to 1.
square = torch.tensor([[1.0, 3.0], [1.0, 1.0]])
print("keepdim=True: ", (square / square.sum(dim=1, keepdim=True)).sum(dim=1))
print("keepdim=False:", (square / square.sum(dim=1)).sum(dim=1))

# sphinx_gallery_start_ignore
assert torch.allclose(
    (square / square.sum(dim=1, keepdim=True)).sum(dim=1), torch.ones(2)
)
assert not torch.allclose((square / square.sum(dim=1)).sum(dim=1), torch.ones(2))
# sphinx_gallery_end_ignore

# %%
# Comparisons
# -----------
# Comparison operators are element-wise too, and give ``bool`` tensors: the
# masks of the section above. As in the notes, two shuffles of
# ``0, ..., 4`` from :func:`torch.randperm`, compared with a number and with
# each other:
torch.manual_seed(0)
p1 = torch.randperm(5)
p2 = torch.randperm(5)
print(p1, p2)
print("p1 > 3: ", p1 > 3)
print("p1 < p2:", p1 < p2)
print("how many p1 < p2:", (p1 < p2).sum().item(), " any:", (p1 < p2).any().item())

# sphinx_gallery_start_ignore
assert (p1 > 3).dtype == torch.bool
assert (p1 > 3).sum() == 1
assert torch.equal(
    (p1 < p2).sum(), torch.tensor([a < b for a, b in zip(p1, p2, strict=True)]).sum()
)
# sphinx_gallery_end_ignore

# %%
# ``==`` compares element by element; :func:`torch.equal` answers "same shape
# and same values?" with one Python ``bool``. For floating-point results, which
# carry rounding errors, compare with a tolerance: :func:`torch.isclose`
# element by element, :func:`torch.allclose` for the whole tensor.
tenths = torch.tensor([0.1, 0.2], dtype=torch.float64)
print("0.1 + 0.2 == 0.3:       ", (tenths.sum() == 0.3).item())
print(
    "isclose(0.1 + 0.2, 0.3):",
    torch.isclose(tenths.sum(), torch.tensor(0.3, dtype=torch.float64)).item(),
)
print("torch.equal(p1, p1.clone()):", torch.equal(p1, p1.clone()))

# sphinx_gallery_start_ignore
assert tenths.sum() != 0.3
assert torch.isclose(tenths.sum(), torch.tensor(0.3, dtype=torch.float64))
# sphinx_gallery_end_ignore

# %%
# In-place operations
# -------------------
# A method whose name ends in ``_`` changes the tensor it is called on
# instead of returning a new one: :meth:`~torch.Tensor.add_`,
# :meth:`~torch.Tensor.zero_`, :meth:`~torch.Tensor.mul_`,
# :meth:`~torch.Tensor.clamp_` and many more. It also returns the tensor, so
# calls can be chained. The notes' example:
t1 = torch.tensor([1, 2])
t2 = torch.tensor([1, 1])
t1.add_(t2)
print(t1)
t1.zero_()
print(t1)

# sphinx_gallery_start_ignore
assert t1.tolist() == [0, 0]
assert t2.tolist() == [1, 1]
assert t1.add_(t2).mul_(3) is t1
assert t1.tolist() == [3, 3]
# sphinx_gallery_end_ignore

# %%
# :meth:`~torch.Tensor.data_ptr` gives the address of a tensor's first
# element. Printing addresses would make this page change on every run, so
# it prints only whether they are equal. An in-place operation, and ``+=``,
# keep the memory; ``t = t + 1`` makes a new tensor in new memory and then
# points the name ``t`` at it.
t = torch.ones(1)
address = t.data_ptr()
t.add_(1)
print("after t.add_(1): same memory:", t.data_ptr() == address)
t += 1
print("after t += 1:    same memory:", t.data_ptr() == address)
t = t + 1
print("after t = t + 1: same memory:", t.data_ptr() == address, " value", t.item())

# sphinx_gallery_start_ignore
assert t.item() == 4.0
assert t.data_ptr() != address
# sphinx_gallery_end_ignore

# %%
# The difference matters when two names refer to one tensor, or when a
# tensor is a view of another: an in-place change shows through every name
# and every view, a reassignment through none of them.
base = torch.zeros(2, 3)
first_row = base[0]
first_row.add_(5)
first_row = first_row + 1
print(base)
print(first_row)

# sphinx_gallery_start_ignore
assert base[0].tolist() == [5.0, 5.0, 5.0]
assert base[1].tolist() == [0.0, 0.0, 0.0]
assert first_row.tolist() == [6.0, 6.0, 6.0]
leaf = torch.ones(2, requires_grad=True)
exponential = leaf.exp()  # exp keeps its output for the backward pass
exponential.add_(1)
message = ""
try:
    exponential.sum().backward()
except RuntimeError as error:
    message = str(error)
assert "modified by an inplace operation" in message
# sphinx_gallery_end_ignore

# %%
# In-place operations save memory, but they cannot change the dtype (the
# page on data types shows the error), and automatic differentiation refuses
# some of them, because they overwrite values it still needs.
#
# Summary
# -------
# - ``x[i]`` drops a dimension, ``x[i:i+1]`` keeps it; ranges take steps and
#   negative indices; slices are views that share memory.
# - Integer lists or tensors pick positions; boolean masks pick where
#   ``True``. Both make copies, but assigning through them writes in place.
# - Random functions draw from one stream: a notebook cell run twice shifts
#   every number after it.
# - Operators work element by element; shapes are broadcast when, aligned
#   from the right, each pair of sizes is equal or contains a 1.
# - Reductions take ``dim=``; ``keepdim=True`` keeps the shape ready to
#   broadcast back.
# - A trailing ``_`` means in place: same memory, visible through every view.
#
# Next: :ref:`sphx_glr_auto_examples_tensors_plot_04_splitting_and_joining.py`
# cuts tensors into pieces and puts them together again.
