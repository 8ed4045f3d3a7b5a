"""
Splitting and joining
=====================

Cut a :term:`tensor` into pieces with ``chunk``, ``split``, ``tensor_split``
and ``unbind``, and put tensors together with ``cat`` and ``stack``. After
this page you can predict the :term:`shape` of every piece and every result,
including when the sizes do not divide and when the shapes do not match.
"""

# %%
# Every page starts by saying what computed it. The tensors on this page hold
# a handful of numbers each, so it runs on the CPU whatever the machine has.
import math

import matplotlib.pyplot as plt
import torch

from tutorial_utils.environment import environment_summary
from tutorial_utils.moves import draw_join, draw_split

print(environment_summary("cpu"))

# %%
# A number of pieces: ``chunk``
# -----------------------------
# :func:`torch.chunk` cuts a tensor into at most a given number of pieces
# along one :term:`dimension`, ``dim=0`` unless you name another. Six seeded
# uniform numbers, cut into three pieces:
torch.manual_seed(1)
t = torch.rand(6)
print(t)

pieces = torch.chunk(t, 3)
print(pieces)

# %%
# .. check:: seed 1 gives these six numbers
expected = torch.tensor([0.7576, 0.2793, 0.4031, 0.7347, 0.0293, 0.7999])
torch.testing.assert_close(t, expected, atol=5e-5, rtol=0)

# %%
# In pictures: each colour is one piece. The elements keep their order, and
# piece ``i`` takes the ``i``-th run of two, so putting the pieces back one
# after the other gives ``t`` again.
draw_split(
    t,
    pieces,
    "torch.chunk(t, 3)",
    titles=["t", "pieces[0]", "pieces[1]", "pieces[2]"],
)
plt.show()

# %%
# .. check:: the pieces, one after the other, give ``t`` again
assert torch.equal(torch.cat(pieces), t)

# %%
# Pieces of a given size: ``split``
# ---------------------------------
# :func:`torch.split` takes the size of the pieces instead of their number.
# A list gives each piece its own size; the sizes must add up to the length
# along ``dim``. The same seed gives the same first five numbers, cut into
# three and two:
torch.manual_seed(1)
t5 = torch.rand(5)
print(t5)

by_list = torch.split(t5, [3, 2])
print(by_list)

# %%
# .. check:: the same seed gives the same first five numbers, cut into three and two
assert torch.equal(t5, t[:5])
assert torch.equal(by_list[0], t5[:3])
assert torch.equal(by_list[1], t5[3:])

# %%
draw_split(t5, by_list, "torch.split(t5, [3, 2])", titles=["t5", "first", "second"])
plt.show()

# %%
# One number is the size of every piece but the last, which gets what is
# left and may be shorter. A list of sizes that does not add up to the length
# is refused with a :class:`RuntimeError`:
by_size = torch.split(t5, 2)
print("split(t5, 2) sizes:", [len(piece) for piece in by_size])

try:
    torch.split(t5, [3, 3])
except RuntimeError as error:
    print(error)
else:
    raise AssertionError("torch.split(t5, [3, 3]) did not raise")

# %%
# .. check:: every piece but the last has the size asked for; sizes that don't add up raise
for length in range(1, 13):  # every piece but the last has the size asked for
    for size in range(1, 8):
        sizes = [len(piece) for piece in torch.split(torch.arange(length), size)]
        assert sizes[:-1] == [size] * (len(sizes) - 1)
        assert 0 < sizes[-1] <= size
refused = False
try:
    torch.split(t5, [3, 3])
except RuntimeError:
    refused = True
else:
    raise AssertionError("torch.split(t5, [3, 3]) did not raise")
assert refused

# %%
# When the length does not divide
# -------------------------------
# :func:`torch.chunk` does not need the length to be divisible by the number
# of pieces. It makes pieces of ``ceil(length / chunks)`` elements and the
# last one gets what is left, so it can return *fewer* pieces than you asked
# for. :func:`torch.tensor_split` always returns exactly as many, their sizes
# differing by at most one, the longer ones first.
#
# .. detail:: More pieces than elements
#
#    Asked for more pieces than there are elements,
#    :func:`torch.tensor_split` still returns as many: the last ones are empty.
for length, count in [(6, 3), (5, 3), (6, 4)]:
    numbers = torch.arange(length)
    chunk_sizes = [len(piece) for piece in torch.chunk(numbers, count)]
    split_sizes = [len(piece) for piece in torch.tensor_split(numbers, count)]
    print(f"{length} into {count}:  chunk {chunk_sizes!s:13}tensor_split {split_sizes}")

# %%
# .. check:: ``chunk`` cuts ``ceil(length / chunks)``; ``tensor_split`` gives as many, longer first
for length in range(1, 13):
    for count in range(1, 9):
        numbers = torch.arange(length)
        size = math.ceil(length / count)
        sizes = [len(piece) for piece in torch.chunk(numbers, count)]
        assert sizes == [min(size, length - i) for i in range(0, length, size)]
        sizes = [len(piece) for piece in torch.tensor_split(numbers, count)]
        assert len(sizes) == count
        assert sizes == sorted(sizes, reverse=True)
        assert sizes[0] - sizes[-1] <= 1

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
cut = torch.tensor_split(six, [1, 4])
print(cut)

# %%
# .. check:: ``[1, 4]`` gives ``six[:1]``, ``six[1:4]`` and ``six[4:]``
for piece, sliced in zip(cut, [six[:1], six[1:4], six[4:]], strict=True):
    assert torch.equal(piece, sliced)

# %%
# The pieces are views
# --------------------
# None of these four functions copies values: each piece is a :term:`view`
# that reads the original tensor's memory (its :term:`storage`). Writing into
# a piece writes into the original. The next page,
# :ref:`sphx_glr_auto_examples_tensors_plot_07_views_and_strides.py`, shows
# how views work.
numbers = torch.arange(6)
left, right = torch.chunk(numbers, 2)
right[0] = 100
print(numbers)
print(
    "right reads the memory of numbers:",
    right.untyped_storage().data_ptr() == numbers.untyped_storage().data_ptr(),
)

# %%
# .. check:: the pieces of all four functions read the original's memory
assert numbers[3] == 100
base = numbers.untyped_storage().data_ptr()
for pieces_of_numbers in (
    torch.chunk(numbers, 2),
    torch.split(numbers, [4, 2]),
    torch.tensor_split(numbers, 4),
    torch.unbind(numbers.view(2, 3), 1),
):
    assert all(p.untyped_storage().data_ptr() == base for p in pieces_of_numbers)

# %%
# There is one exception. Autograd records the operations on a tensor made
# with ``requires_grad=True`` to compute :term:`gradients <gradient>` (see
# :ref:`sphx_glr_auto_examples_gradients_plot_01_automatic_differentiation.py`).
# Outside :class:`torch.no_grad`, it refuses in-place writes into the pieces
# that ``chunk``, ``split`` and ``unbind`` cut from such a tensor, or from
# one computed from it:
weights = torch.zeros(4, requires_grad=True)
try:
    torch.chunk(weights, 2)[1].add_(1)
except RuntimeError as error:
    print(error)
else:
    raise AssertionError("torch.chunk(weights, 2)[1].add_(1) did not raise")

# %%
# .. check:: ``chunk``, ``split`` and ``unbind`` pieces refuse in-place writes, except under ``no_grad``
for cut_up in (
    lambda t: torch.chunk(t, 2),
    lambda t: torch.split(t, [3, 1]),
    lambda t: torch.unbind(t.view(2, 2)),
):
    for tracked in (torch.zeros(4, requires_grad=True), weights * 2):
        message = ""
        try:
            cut_up(tracked)[1].add_(1)
        except RuntimeError as error:
            message = str(error)
        else:
            raise AssertionError("cut_up(tracked)[1].add_(1) did not raise")
        assert "returns multiple views" in message
    with torch.no_grad():
        cut_up(weights)[1].add_(1)
assert weights.tolist() == [0, 0, 2, 3]  # chunk: [2:], split: [3:], unbind: [2:]

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

# %%
# .. check:: with ``dim=1`` the slices are the columns
for j, column in enumerate(columns):
    assert torch.equal(column, m[:, j])

# %%
draw_split(m, columns, "torch.unbind(m, dim=1)", dim=1, stacked=True)
plt.show()

# %%
# Along a dimension it has: ``cat``
# ---------------------------------
# :func:`torch.cat` puts tensors one after the other along an existing
# dimension; their sizes along it add up. NumPy's name for the argument,
# ``axis=``, is accepted too.
A = torch.ones(3)
B = torch.zeros(2)
C = torch.cat([A, B], dim=0)
print(C)

# %%
# .. check:: ``axis=`` is accepted too
assert torch.equal(torch.cat([A, B], axis=0), C)

# %%
draw_join([A, B], C, "torch.cat([A, B], dim=0)", titles=["A", "B", "C"])
plt.show()

# %%
# Along a new dimension: ``stack``
# --------------------------------
# :func:`torch.stack` puts tensors of the *same* shape side by side along a
# new dimension. With ``dim=1`` the two vectors become the two columns of
# the result:
A = torch.ones(3)
B = torch.zeros(3)
S = torch.stack([A, B], dim=1)
print(S)

# %%
# .. check:: the two vectors are the two columns of the result
assert torch.equal(S[:, 0], A)
assert torch.equal(S[:, 1], B)

# %%
draw_join(
    [A, B],
    S,
    "torch.stack([A, B], dim=1)",
    dim=1,
    stacked=True,
    titles=["A", "B", "S"],
)
plt.show()

# %%
# ``cat`` or ``stack``: the shapes
# --------------------------------
# Two tensors of shape ``(2, 3)`` show the rule. ``cat`` keeps the
# :term:`rank` and adds the sizes along ``dim``; ``stack`` inserts a new
# dimension at position ``dim`` whose size is the number of tensors, here 2.
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

# %%
# .. check:: ``cat`` adds the sizes along ``dim``
for dim in range(2):
    shape = list(first.shape)
    shape[dim] += second.shape[dim]
    assert joined[f"cat, dim={dim}"].shape == tuple(shape)

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
# .. check:: ``[0]`` of the stack is ``first`` and ``[1]`` is ``second``
assert torch.equal(joined["stack, dim=0"][0], first)
assert torch.equal(joined["stack, dim=0"][1], second)

# %%
# When shapes do not match
# ------------------------
# Apart from 1-D empty tensors, ``cat`` needs tensors of the same rank, with the
# same sizes in every dimension except the one it joins along; ``stack`` needs
# identical shapes (:ref:`the error atlas <error-collate-unequal-size>` shows
# its error in a data loader). A ``(2, 3)`` and a ``(2, 4)`` matrix join along
# the columns only.
#
# .. detail:: Empty tensors
#
#    ``cat`` leaves out the values of a 1-D empty tensor, of shape ``(0,)``,
#    whatever the others' shape; its dtype still takes part in the result's.
narrow = torch.zeros(2, 3)
wide = torch.ones(2, 4)
try:
    torch.cat([narrow, wide], dim=0)
except RuntimeError as error:
    print("cat, dim=0:", error)
else:
    raise AssertionError("torch.cat([narrow, wide], dim=0) did not raise")
print("cat, dim=1: shape", tuple(torch.cat([narrow, wide], dim=1).shape))
try:
    torch.stack([narrow, wide])
except RuntimeError as error:
    print("stack:     ", error)
else:
    raise AssertionError("torch.stack([narrow, wide]) did not raise")

# %%
# .. check:: ``cat`` needs the same rank and other sizes, skips a ``(0,)`` tensor; ``stack`` refuses
for join in (torch.cat, torch.stack):
    refused = False
    try:
        join([narrow, wide], dim=0)
    except RuntimeError:
        refused = True
    else:
        raise AssertionError("join([narrow, wide], dim=0) did not raise")
    assert refused, join.__name__
refused = False
try:
    torch.cat([narrow, torch.zeros(3)])
except RuntimeError:
    refused = True
else:
    raise AssertionError("torch.cat([narrow, torch.zeros(3)]) did not raise")
assert refused, "cat of rank 2 and rank 1"
assert torch.cat([narrow, torch.empty(0)]).shape == narrow.shape
assert torch.cat([narrow, torch.empty(0, dtype=torch.float64)]).dtype == torch.float64

# %%
# Different :term:`dtypes <dtype>`, on the other hand, are no error: the
# result takes the dtype that type promotion picks for them, as for
# arithmetic (see :ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py`).
mixed = torch.cat([torch.arange(3), torch.zeros(2)])
print(mixed, mixed.dtype)

# %%
# .. check:: the result takes the dtype that type promotion picks
assert mixed.dtype == torch.promote_types(torch.int64, torch.float32)

# %%
# Summary
# -------
# - :func:`torch.chunk` cuts into pieces of ``ceil(length / chunks)``, so
#   the last piece may be shorter and there may be fewer pieces than asked
#   for; :func:`torch.tensor_split` always gives the number asked for (or
#   cuts at given indices).
# - :func:`torch.split` cuts into pieces of one size (the last may be
#   shorter), or of a list of sizes that must add up to the length.
# - :func:`torch.unbind` returns every slice along a dimension, without it.
# - The pieces are views: they share the original's memory, and writes into
#   them reach it (outside ``no_grad``, autograd refuses writes into pieces
#   that ``chunk``, ``split`` or ``unbind`` cut from a tensor requiring grad).
# - :func:`torch.cat` joins along an existing dimension (the other sizes
#   must match); :func:`torch.stack` joins same-shaped tensors along a new
#   one, like ``cat`` of unsqueezed tensors.
#
# Next: :ref:`sphx_glr_auto_examples_tensors_plot_07_views_and_strides.py`
# shows what a view is: one storage read through a size, a :term:`stride`
# and an offset. Exercises for this page: :ref:`exercises-tensors-06`.
