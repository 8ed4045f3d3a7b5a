"""
Splitting and joining
=====================

Cut a tensor into pieces with ``chunk``, ``split``, ``tensor_split`` and
``unbind``, and put tensors together with ``cat`` and ``stack``. After this
page you can predict the shape of every piece and every result, including
when the sizes do not divide and when the shapes do not match.
"""

# %%
# Every page starts by saying what computed it.
import matplotlib.pyplot as plt
import numpy as np
import torch

from tutorial_utils.devices import pick_device
from tutorial_utils.environment import environment_summary
from tutorial_utils.plotting import draw_join, draw_split

device = pick_device()
print(environment_summary(device))

# %%
# A number of pieces: ``chunk``
# -----------------------------
# :func:`torch.chunk` cuts a tensor into a given number of pieces along one
# dimension, ``dim=0`` unless you name another. Here are the six seeded
# uniform numbers of the notes this site grew from, cut into three pieces and
# printed as NumPy arrays to three decimals, as the notes print them:
torch.manual_seed(1)
t = torch.rand(6)
print(t)

pieces = torch.chunk(t, 3)
with np.printoptions(precision=3):
    for piece in pieces:
        print(repr(piece.numpy()))

# sphinx_gallery_start_ignore
book = torch.tensor([0.7576, 0.2793, 0.4031, 0.7347, 0.0293, 0.7999])
torch.testing.assert_close(t, book, atol=5e-5, rtol=0)
book_pieces = [[0.758, 0.279], [0.403, 0.735], [0.029, 0.8]]
assert len(pieces) == 3
for piece, expected in zip(pieces, book_pieces, strict=True):
    torch.testing.assert_close(piece, torch.tensor(expected), atol=5e-4, rtol=0)
with np.printoptions(precision=3):
    assert repr(pieces[2].numpy()) == "array([0.029, 0.8  ], dtype=float32)"
# sphinx_gallery_end_ignore

# %%
# In pictures: each colour is one piece. The elements keep their order, and
# piece ``i`` takes the ``i``-th run of two.
draw_split(
    t,
    pieces,
    "torch.chunk(t, 3)",
    titles=["t", "pieces[0]", "pieces[1]", "pieces[2]"],
)
plt.show()

# %%
# Pieces of a given size: ``split``
# ---------------------------------
# :func:`torch.split` takes the size of the pieces instead of their number.
# A list gives each piece its own size; the sizes must add up to the length.
# Again the seeded example of the notes, five numbers cut into three and two:
torch.manual_seed(1)
t5 = torch.rand(5)
print(t5)

by_list = torch.split(t5, [3, 2])
with np.printoptions(precision=3):
    for piece in by_list:
        print(repr(piece.numpy()))

# sphinx_gallery_start_ignore
torch.testing.assert_close(t5, book[:5], atol=5e-5, rtol=0)
torch.testing.assert_close(
    by_list[0], torch.tensor([0.758, 0.279, 0.403]), atol=5e-4, rtol=0
)
torch.testing.assert_close(by_list[1], torch.tensor([0.735, 0.029]), atol=5e-4, rtol=0)
# sphinx_gallery_end_ignore

# %%
draw_split(t5, by_list, "torch.split(t5, [3, 2])", titles=["t5", "first", "second"])
plt.show()

# %%
# One number is the size of every piece; the last piece gets what is left
# and may be shorter. Sizes that do not add up to the length are refused.
by_size = torch.split(t5, 2)
print("split(t5, 2) sizes:", [len(piece) for piece in by_size])

try:
    torch.split(t5, [3, 3])
except RuntimeError as error:
    print(error)

# sphinx_gallery_start_ignore
assert [len(piece) for piece in by_size] == [2, 2, 1]
# sphinx_gallery_end_ignore

# %%
# When the length does not divide
# -------------------------------
# The notes say that for :func:`torch.chunk` the length must be divisible by
# the number of pieces. It need not be: ``chunk`` makes pieces of
# ``ceil(length / chunks)`` elements and the last one gets what is left, so
# it can return *fewer* pieces than you asked for. :func:`torch.tensor_split`
# always returns exactly as many, their sizes differing by at most one, the
# longer ones first.
for length, count in [(6, 3), (5, 3), (6, 4)]:
    numbers = torch.arange(length)
    chunk_sizes = [len(piece) for piece in torch.chunk(numbers, count)]
    split_sizes = [len(piece) for piece in torch.tensor_split(numbers, count)]
    print(f"{length} into {count}:  chunk {chunk_sizes!s:13}tensor_split {split_sizes}")

# sphinx_gallery_start_ignore
assert [len(p) for p in torch.chunk(torch.arange(5), 3)] == [2, 2, 1]
assert len(torch.chunk(torch.arange(6), 4)) == 3
assert [len(p) for p in torch.tensor_split(torch.arange(6), 4)] == [2, 2, 1, 1]
# sphinx_gallery_end_ignore

# %%
# Six into four, side by side: ``chunk`` makes three pieces of two,
# ``tensor_split`` four pieces of two, two, one and one.
six = torch.arange(6)
draw_split(six, torch.chunk(six, 4), "torch.chunk(six, 4)")
plt.show()
draw_split(six, torch.tensor_split(six, 4), "torch.tensor_split(six, 4)")
plt.show()

# %%
# :func:`torch.tensor_split` also takes the indices to cut *before*, like
# Python's slices: ``[1, 4]`` gives ``six[:1]``, ``six[1:4]`` and ``six[4:]``.
print(torch.tensor_split(six, [1, 4]))

# sphinx_gallery_start_ignore
for piece, expected in zip(
    torch.tensor_split(six, [1, 4]), (six[:1], six[1:4], six[4:]), strict=True
):
    assert torch.equal(piece, expected)
# sphinx_gallery_end_ignore

# %%
# The pieces are views
# --------------------
# None of these functions copies values: each piece is a *view* that reads
# the original tensor's memory. Writing into a piece writes into the
# original. The next page shows how views work.
numbers = torch.arange(6)
left, right = torch.chunk(numbers, 2)
right[0] = 100
print(numbers)
print(
    "right reads the memory of numbers:",
    right.untyped_storage().data_ptr() == numbers.untyped_storage().data_ptr(),
)

# sphinx_gallery_start_ignore
assert numbers[3] == 100
base = numbers.untyped_storage().data_ptr()
for cut in (
    torch.chunk(numbers, 2),
    torch.split(numbers, [4, 2]),
    torch.tensor_split(numbers, 4),
    torch.unbind(numbers.view(2, 3), 1),
):
    assert all(piece.untyped_storage().data_ptr() == base for piece in cut)
# sphinx_gallery_end_ignore

# %%
# Taking a dimension apart: ``unbind``
# ------------------------------------
# :func:`torch.unbind` cuts a tensor into all its slices along a dimension
# and *removes* that dimension: the rows of a matrix with ``dim=0``, its
# columns with ``dim=1``.
m = torch.arange(6).reshape(2, 3)
rows = torch.unbind(m, dim=0)
columns = torch.unbind(m, dim=1)
print("rows:   ", [tuple(row.shape) for row in rows])
print("columns:", [tuple(column.shape) for column in columns])
print(columns)

# sphinx_gallery_start_ignore
assert len(rows) == 2
assert len(columns) == 3
for j, column in enumerate(columns):
    assert torch.equal(column, m[:, j])
# sphinx_gallery_end_ignore

# %%
draw_split(m, columns, "m.unbind(1)", dim=1, stacked=True)
plt.show()

# %%
# Along a dimension it has: ``cat``
# ---------------------------------
# :func:`torch.cat` puts tensors one after the other along an existing
# dimension; their sizes along it add up. ``axis=`` is accepted as another
# name for ``dim=``, as in NumPy. The example of the notes:
A = torch.ones(3)
B = torch.zeros(2)
C = torch.cat([A, B], axis=0)
print(C)

# sphinx_gallery_start_ignore
assert C.tolist() == [1, 1, 1, 0, 0]
# sphinx_gallery_end_ignore

# %%
draw_join([A, B], C, "torch.cat([A, B], axis=0)", titles=["A", "B", "C"])
plt.show()

# %%
# Along a new dimension: ``stack``
# --------------------------------
# :func:`torch.stack` puts tensors of the *same* shape side by side along a
# new dimension. With ``axis=1`` the two vectors become the two columns of
# the result:
A = torch.ones(3)
B = torch.zeros(3)
S = torch.stack([A, B], axis=1)
print(S)

# sphinx_gallery_start_ignore
assert S.tolist() == [[1, 0], [1, 0], [1, 0]]
# sphinx_gallery_end_ignore

# %%
draw_join(
    [A, B],
    S,
    "torch.stack([A, B], axis=1)",
    dim=1,
    stacked=True,
    titles=["A", "B", "S"],
)
plt.show()

# %%
# ``cat`` or ``stack``: the shapes
# --------------------------------
# Two tensors of shape ``(2, 3)`` show the rule. ``cat`` keeps the rank and
# adds the sizes along ``dim``; ``stack`` adds a dimension of size 2 (the
# number of tensors) at position ``dim``.
first = torch.arange(6).reshape(2, 3)
second = first + 6
joined = {
    "cat, dim=0": torch.cat([first, second], dim=0),
    "cat, dim=1": torch.cat([first, second], dim=1),
    "stack, dim=0": torch.stack([first, second], dim=0),
    "stack, dim=1": torch.stack([first, second], dim=1),
    "stack, dim=2": torch.stack([first, second], dim=2),
}
for name, result in joined.items():
    print(f"{name:13} shape {tuple(result.shape)}")

# sphinx_gallery_start_ignore
assert joined["cat, dim=0"].shape == (4, 3)
assert joined["cat, dim=1"].shape == (2, 6)
assert joined["stack, dim=0"].shape == (2, 2, 3)
assert joined["stack, dim=1"].shape == (2, 2, 3)
assert joined["stack, dim=2"].shape == (2, 3, 2)
# sphinx_gallery_end_ignore

# %%
# So ``stack`` is ``cat`` after giving every tensor a new dimension of size
# 1 with :meth:`~torch.Tensor.unsqueeze`:
for dim in range(3):
    unsqueezed = [first.unsqueeze(dim), second.unsqueeze(dim)]
    assert torch.equal(torch.stack([first, second], dim), torch.cat(unsqueezed, dim))
print("stack(tensors, dim) == cat([t.unsqueeze(dim) for t in tensors], dim)")

# %%
# In pictures, ``cat`` along the columns puts the two matrices side by side,
# and ``stack`` along ``dim=0`` puts them one behind the other: ``[0]`` is
# ``first`` and ``[1]`` is ``second``.
draw_join(
    [first, second],
    joined["cat, dim=1"],
    "torch.cat(..., dim=1)",
    dim=1,
    titles=["first", "second", "shape (2, 6)"],
)
plt.show()
draw_join(
    [first, second],
    joined["stack, dim=0"],
    "torch.stack(..., dim=0)",
    stacked=True,
    titles=["first", "second", "shape (2, 2, 3)"],
)
plt.show()

# %%
# When shapes do not match
# ------------------------
# ``cat`` needs the same sizes in every dimension except the one it joins
# along; ``stack`` needs identical shapes. A ``(2, 3)`` and a ``(2, 4)``
# matrix can be joined along the columns only:
narrow = torch.zeros(2, 3)
wide = torch.ones(2, 4)
try:
    torch.cat([narrow, wide], dim=0)
except RuntimeError as error:
    print("cat, dim=0:", error)
print("cat, dim=1: shape", tuple(torch.cat([narrow, wide], dim=1).shape))
try:
    torch.stack([narrow, wide])
except RuntimeError as error:
    print("stack:     ", error)

# %%
# Different dtypes, on the other hand, are no error: the result takes the
# dtype that holds both (type promotion, from the page on data types).
mixed = torch.cat([torch.arange(3), torch.zeros(2)])
print(mixed, mixed.dtype)

# sphinx_gallery_start_ignore
assert mixed.dtype == torch.float32
# sphinx_gallery_end_ignore

# %%
# Summary
# -------
# - :func:`torch.chunk` cuts into a number of pieces of
#   ``ceil(length / chunks)``, so the last piece may be shorter and there
#   may be fewer pieces than asked for; :func:`torch.tensor_split` always
#   gives the number asked for (or cuts at given indices).
# - :func:`torch.split` cuts into pieces of one size, or of a list of sizes
#   that must add up to the length.
# - :func:`torch.unbind` returns every slice along a dimension, without it.
# - The pieces are views: they share the original's memory.
# - :func:`torch.cat` joins along an existing dimension (the other sizes
#   must match); :func:`torch.stack` joins same-shaped tensors along a new
#   one, like ``cat`` of unsqueezed tensors.
#
# Next: :ref:`sphx_glr_auto_examples_tensors_plot_05_views_and_strides.py`
# shows what a view is: one storage read through a size, a stride and an
# offset, and when ``view`` and ``reshape`` copy.
