"""
Splitting and joining
=====================

After this page you can cut a :term:`tensor` into pieces with ``chunk``,
``split`` and ``unbind``. You can join tensors with ``cat`` and ``stack``.
You can predict the :term:`shape` of every piece and every result, and tell
which shapes refuse to join.

**Before this page:** making tensors in
:ref:`sphx_glr_auto_examples_tensors_plot_01_creating_tensors.py`, type
promotion in :ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py`, and
slices and views in
:ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_selection.py`.
"""

# %%
# Every page starts by saying what computed it: here, the CPU. ``draw_split``
# and ``draw_join`` are the site's own drawing helpers. ``plt.show()`` shows
# what they draw.
import matplotlib.pyplot as plt
import torch

from tutorial_utils.environment import environment_summary
from tutorial_utils.moves import draw_join, draw_split

print(environment_summary("cpu"))

# %%
# A number of pieces: ``chunk``
# -----------------------------
# :func:`torch.chunk` cuts a tensor into pieces along one :term:`dimension`.
# You give it the number of pieces. The dimension is ``dim=0``
# unless you name another. It returns the pieces as a tuple of tensors. Here
# six seeded random numbers are cut into three:
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
# ``draw_split`` draws the cut, one colour a piece. The pieces keep the
# elements' order: put back one after the other, they give ``t`` again.
names = ["t", "pieces[0]", "pieces[1]", "pieces[2]"]
draw_split(t, pieces, "torch.chunk(t, 3)", titles=names)
plt.show()

# %%
# .. check:: the pieces, one after the other, give ``t`` again
assert torch.equal(torch.cat(pieces), t)

# %%
# When the length is not a multiple of the number of pieces, the last piece
# may be shorter. Or there may be fewer pieces than asked for. The in-depth
# page
# :ref:`sphx_glr_auto_examples_tensors_plot_56_uneven_splits.py` gives the rule.

# %%
# .. check:: an uneven length gives a shorter last piece or fewer pieces
assert [len(p) for p in torch.chunk(torch.arange(5), 3)] == [2, 2, 1]
assert len(torch.chunk(torch.arange(6), 4)) == 3
for length in range(1, 13):
    for count in range(1, 9):
        sizes = [len(p) for p in torch.chunk(torch.arange(length), count)]
        assert sum(sizes) == length
        if length % count:
            assert len(sizes) < count or sizes[-1] < sizes[0]

# %%
# Pieces of a given size: ``split``
# ---------------------------------
# :func:`torch.split` takes the size of the pieces instead of their number.
# A list gives each piece its own size. The sizes must add up to the length
# along ``dim``. Seeded again with 1, ``torch.rand(5)`` gives the first five
# numbers above, cut here into three and two:
torch.manual_seed(1)
t5 = torch.rand(5)
print(t5)

by_list = torch.split(t5, [3, 2])
print(by_list)

# %%
# .. check:: seed 1 gives the same first five numbers, cut into 3 and 2
assert torch.equal(t5, t[:5])
assert torch.equal(by_list[0], t5[:3])
assert torch.equal(by_list[1], t5[3:])

# %%
draw_split(t5, by_list, "torch.split(t5, [3, 2])", titles=["t5", "first", "second"])
plt.show()

# %%
# A single number is the size of every piece but the last. The last piece gets
# what is left, so it may be shorter. A tensor of rank 1 is called 1-D, and one
# of rank 0 is 0-d. For a 1-D tensor, ``len`` gives the number of elements.
# Sizes that do not add up raise a :class:`RuntimeError`:
by_size = torch.split(t5, 2)
print("split(t5, 2) sizes:", [len(piece) for piece in by_size])

try:
    torch.split(t5, [3, 3])
except RuntimeError as error:
    print(error)
else:
    raise AssertionError("split accepted sizes that add up to 6")

# %%
# .. check:: every piece but the last has the size asked for; bad sizes raise
for length in range(1, 13):
    for size in range(1, 8):
        sizes = [len(piece) for piece in torch.split(torch.arange(length), size)]
        assert sizes[:-1] == [size] * (len(sizes) - 1)
        assert 0 < sizes[-1] <= size
try:
    torch.split(t5, [3, 3])
    raise AssertionError("torch.split(t5, [3, 3]) did not raise")
except RuntimeError:
    pass

# %%
# Taking a dimension apart: ``unbind``
# ------------------------------------
# :func:`torch.unbind` cuts a tensor into all its slices along a dimension.
# It too returns a tuple, but *removes* that dimension. With ``dim=0`` you
# get the rows of a matrix; with ``dim=1``, its columns. Here
# ``reshape(2, 3)`` arranges the numbers 0 to 5 in two rows of three. The
# next page explains ``reshape``.
m = torch.arange(6).reshape(2, 3)
rows = torch.unbind(m, dim=0)
columns = torch.unbind(m, dim=1)
print("rows:   ", [tuple(row.shape) for row in rows])
print("columns:", [tuple(column.shape) for column in columns])
print(columns)

# %%
# .. check:: with ``dim=1`` the slices are the columns, without that dimension
for j, column in enumerate(columns):
    assert torch.equal(column, m[:, j])
assert all(row.dim() == m.dim() - 1 for row in rows + columns)

# %%
# .. check:: ``chunk``, ``split`` and ``unbind`` each return a tuple of tensors
results = (pieces, by_list, by_size, rows, columns)
assert all(type(r) is tuple and all(map(torch.is_tensor, r)) for r in results)

# %%
# ``stacked=True`` tells ``draw_split`` that the pieces lost dimension 1.
draw_split(m, columns, "torch.unbind(m, dim=1)", dim=1, stacked=True)
plt.show()

# %%
# The pieces are views
# --------------------
# None of ``chunk``, ``split`` and ``unbind`` copies values. Each piece is a
# :term:`view`: it reads the original tensor's memory, its :term:`storage`.
# So writing into a piece writes into the original:
numbers = torch.arange(6)
left, right = torch.chunk(numbers, 2)
right[0] = 100
print(numbers)

# %%
# .. check:: the pieces of ``chunk``, ``split`` and ``unbind`` read the original's memory
assert numbers[3] == 100
base = numbers.untyped_storage().data_ptr()
cuts = [torch.chunk(numbers, 2), torch.split(numbers, [4, 2])]
cuts += [torch.tensor_split(numbers, 4), torch.unbind(numbers.view(2, 3), 1)]
for pieces_of_numbers in cuts:
    assert all(p.untyped_storage().data_ptr() == base for p in pieces_of_numbers)

# %%
# .. detail:: Pieces of a tensor that needs gradients
#
#    Autograd, taught in the gradients section, tracks a tensor made with
#    ``requires_grad=True`` and the tensors computed from it. It refuses
#    in-place writes into the pieces that ``chunk``, ``split`` and ``unbind``
#    cut from a tracked tensor, unless ``torch.no_grad()`` pauses it. The
#    pieces that ``tensor_split`` cuts from a computed tensor take the writes.

# %%
# .. check:: ``chunk``, ``split``, ``unbind`` pieces refuse writes, except under ``no_grad``
weights = torch.zeros(4, requires_grad=True)
for cut_up in (
    lambda x: torch.chunk(x, 2),
    lambda x: torch.split(x, [3, 1]),
    lambda x: torch.unbind(x.view(2, 2)),
):
    for tracked in (torch.zeros(4, requires_grad=True), weights * 2):
        message = ""
        try:
            cut_up(tracked)[1].add_(1)
        except RuntimeError as error:
            message = str(error)
        else:
            raise AssertionError("a piece of a tracked split was written in place")
        assert "returns multiple views" in message, message
    with torch.no_grad():
        cut_up(weights)[1].add_(1)
assert weights.tolist() == [0, 0, 2, 3]  # chunk: [2:], split: [3:], unbind: [2:]
torch.tensor_split(weights * 2, 2)[1].add_(1)  # a computed tensor's piece: no error

# %%
# Along a dimension it has: ``cat``
# ---------------------------------
# :func:`torch.cat` joins tensors one after the other along a dimension they
# already have. Their sizes along it add up. NumPy's name for the argument,
# ``axis=``, works too. Unlike the pieces, the result is a new tensor.
A = torch.ones(3)
B = torch.zeros(2)
C = torch.cat([A, B], dim=0)
print(C)

# %%
# .. check:: ``axis=`` works too, and the result shares no memory with the inputs
assert torch.equal(torch.cat([A, B], axis=0), C)
joined_storage = C.untyped_storage().data_ptr()
assert joined_storage not in {x.untyped_storage().data_ptr() for x in (A, B)}
assert torch.cat([A]).untyped_storage().data_ptr() != A.untyped_storage().data_ptr()

# %%
draw_join([A, B], C, "torch.cat([A, B], dim=0)", titles=["A", "B", "C"])
plt.show()

# %%
# Along a new dimension: ``stack``
# --------------------------------
# :func:`torch.stack` joins tensors of the *same* shape along a new
# dimension. It too returns a new tensor. With ``dim=1``, the two vectors
# become the two columns of the result:
A = torch.ones(3)
B = torch.zeros(3)
S = torch.stack([A, B], dim=1)
print(S)

# %%
# .. check:: the two vectors are the columns of a new tensor
assert torch.equal(S[:, 0], A)
assert torch.equal(S[:, 1], B)
stacked_storage = S.untyped_storage().data_ptr()
assert stacked_storage not in {x.untyped_storage().data_ptr() for x in (A, B)}

# %%
label = "torch.stack([A, B], dim=1)"
draw_join([A, B], S, label, dim=1, stacked=True, titles=["A", "B", "S"])
plt.show()

# %%
# ``cat`` or ``stack``: the shapes
# --------------------------------
# Two tensors of shape ``(2, 3)`` show the rule:
#
# - ``cat`` keeps the :term:`rank` and adds the sizes along ``dim``.
# - ``stack`` inserts a new dimension at position ``dim``. Its size is the
#   number of tensors, here 2.
first = torch.arange(6).reshape(2, 3)
second = first + 6
joined = {f"cat, dim={d}": torch.cat([first, second], dim=d) for d in range(2)}
joined |= {f"stack, dim={d}": torch.stack([first, second], dim=d) for d in range(3)}
for name, result in joined.items():
    print(f"{name:13} shape {tuple(result.shape)}")

# %%
# .. check:: ``cat`` adds the sizes along ``dim``; ``stack`` inserts a dimension
for dim in range(2):
    shape = list(first.shape)
    shape[dim] += second.shape[dim]
    assert joined[f"cat, dim={dim}"].shape == tuple(shape)
for dim in range(3):
    shape = list(first.shape)
    shape.insert(dim, 2)
    assert joined[f"stack, dim={dim}"].shape == tuple(shape)

# %%
# :meth:`~torch.Tensor.unsqueeze` gives a tensor a new dimension of size 1
# at position ``dim``. So ``stack`` is ``cat`` of unsqueezed tensors:
unsqueezed = [first.unsqueeze(0), second.unsqueeze(0)]
print("unsqueezed shape:", tuple(unsqueezed[0].shape))
print(torch.equal(torch.cat(unsqueezed, dim=0), joined["stack, dim=0"]))

# %%
# .. check:: for every ``dim``, ``stack`` is ``cat`` of tensors unsqueezed there
for dim in range(3):
    grown = [first.unsqueeze(dim), second.unsqueeze(dim)]
    assert torch.equal(torch.stack([first, second], dim), torch.cat(grown, dim))

# %%
# ``cat`` along the columns puts the two matrices side by side.
# ``stack`` along ``dim=0`` puts them one behind the other: ``[0]`` is
# ``first`` and ``[1]`` is ``second``.
side_by_side = joined["cat, dim=1"]
names = ["first", "second", f"shape {tuple(side_by_side.shape)}"]
draw_join([first, second], side_by_side, "torch.cat(..., dim=1)", dim=1, titles=names)
plt.show()
behind = joined["stack, dim=0"]
names = ["first", "second", f"shape {tuple(behind.shape)}"]
draw_join(
    [first, second], behind, "torch.stack(..., dim=0)", stacked=True, titles=names
)
plt.show()

# %%
# .. check:: ``[0]`` of the stack is ``first`` and ``[1]`` is ``second``
assert torch.equal(behind[0], first)
assert torch.equal(behind[1], second)

# %%
# When shapes do not match
# ------------------------
# For ``cat``, tensors other than a 1-D empty one need the same rank. Their
# sizes must match in every dimension except the one it joins along.
# ``stack`` needs identical shapes. So a ``(2, 3)`` and a ``(2, 4)`` matrix
# join only with ``cat``, along the columns. :ref:`The error atlas
# <error-collate-unequal-size>` shows the ``stack`` error met when batching
# examples of different sizes.
#
# .. detail:: Empty and 0-d tensors
#
#    ``cat`` skips a 1-D empty tensor, of shape ``(0,)``, whatever the shape
#    of the others. Its dtype still counts in the result's dtype. An empty
#    tensor of another shape, such as ``(0, 3)``, follows the rank rule. A
#    0-d tensor has no dimension to join along, so ``cat`` refuses it.
#    ``stack`` takes 0-d tensors and gives a 1-D result.
narrow = torch.zeros(2, 3)
wide = torch.ones(2, 4)
try:
    torch.cat([narrow, wide], dim=0)
except RuntimeError as error:
    print("cat, dim=0:", error)
else:
    raise AssertionError("cat joined different widths along dim 0")
print("cat, dim=1: shape", tuple(torch.cat([narrow, wide], dim=1).shape))
try:
    torch.stack([narrow, wide])
except RuntimeError as error:
    print("stack:     ", error)
else:
    raise AssertionError("stack joined different shapes")

# %%
# .. check:: ``cat`` needs the same rank and other sizes, not 0-d; ``stack`` refuses
scalars = [torch.tensor(1.0), torch.tensor(2.0)]
refusals = [
    (torch.cat, [narrow, wide]),
    (torch.stack, [narrow, wide]),
    (torch.cat, [narrow, torch.zeros(3)]),  # rank 2 and rank 1
    (torch.cat, [torch.zeros(0, 3), torch.zeros(2, 3, 4)]),  # empty, but not (0,)
    (torch.cat, scalars),  # 0-d
]
for join, tensors in refusals:
    try:
        join(tensors, dim=0)
        raise AssertionError(f"{join.__name__} of {len(tensors)} tensors did not raise")
    except RuntimeError:
        pass

# %%
# .. check:: ``cat`` skips a ``(0,)`` tensor, but not its dtype; ``stack`` takes 0-d ones
assert torch.cat([narrow, torch.empty(0)]).shape == narrow.shape
assert torch.cat([narrow, torch.empty(0, dtype=torch.float64)]).dtype == torch.float64
assert torch.stack([torch.tensor(1.0), torch.tensor(2.0)]).shape == (2,)

# %%
# Mixing the :term:`dtypes <dtype>` of the data types page is no error. Type
# promotion picks the result's dtype, as for arithmetic on two tensors.
mixed = torch.cat([torch.arange(3), torch.zeros(2)])
print(mixed, mixed.dtype)

# %%
# .. check:: ``cat`` and ``stack`` take the dtype that type promotion picks
kinds = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
kinds += [torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64]
for d1 in kinds:
    for d2 in kinds:
        a, b = torch.zeros(2, dtype=d1), torch.zeros(2, dtype=d2)
        assert torch.cat([a, b]).dtype == torch.promote_types(d1, d2) == (a + b).dtype
        assert torch.stack([a, b]).dtype == torch.promote_types(d1, d2)

# %%
# Summary
# -------
# - :func:`torch.chunk` cuts into a number of pieces.
# - :func:`torch.split` cuts into pieces of given sizes.
# - :func:`torch.unbind` returns every slice along a dimension, without it.
# - The pieces are views: writing into one writes into the original.
# - :func:`torch.cat` joins along an existing dimension, whose sizes add up.
# - :func:`torch.stack` joins same-shaped tensors along a new dimension.
#
# Next: :ref:`sphx_glr_auto_examples_tensors_plot_07_views_and_strides.py`
# shows what a view is: one storage read through a size, a :term:`stride`
# and an offset. Exercises for this page: :ref:`exercises-tensors-06`.
