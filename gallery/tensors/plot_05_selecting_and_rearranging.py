"""
Selecting and rearranging
=========================

After this page you can choose values by a condition, pick and place
elements along a dimension with ``gather`` and ``scatter_``, and sort. You
can compute a :term:`loss`, the number that scores a model's mistakes.

**Before this page:** :ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py`
for dtypes, :ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_selection.py`
for integer indexing and masks, and
:ref:`sphx_glr_auto_examples_tensors_plot_04_arithmetic_and_broadcasting.py`
for broadcasting.
"""

# %%
# Every page starts by saying what computed it. This page runs on the CPU, and its
# values come from a fixed seed.
import matplotlib.pyplot as plt
import torch

from tutorial_utils.environment import environment_summary
from tutorial_utils.grids import draw_tensors

print(environment_summary(torch.device("cpu")))

# %%
# Choosing element by element: ``where``
# --------------------------------------
# :func:`torch.where` ``(condition, x, y)`` builds a tensor element by element.
# ``condition`` is a ``bool`` tensor. Where it is ``True``, the result takes the element
# of ``x``; elsewhere, the element of ``y``. The three are :term:`broadcast
# <broadcasting>` against each other. So ``y`` can be a single number.
#
# .. detail:: The result's dtype
#
#    The result's :term:`dtype` follows the rules of arithmetic. So ``0`` keeps ``x`` in
#    ``float32``. ``0.0`` with an ``int64`` tensor gives the default floating-point
#    dtype.
torch.manual_seed(0)
x = torch.randn(6)
print("x                       ", x)
print("torch.where(x > 0, x, 0)", torch.where(x > 0, x, 0))

# %%
# .. check:: the dtype is that of arithmetic: ``0.0`` with int64 gives the default
assert torch.equal(torch.where(x > 0, x, 0), x.clamp(min=0))
assert torch.where(x > 0, x, 0).dtype == (x + 0).dtype == torch.float32
ints = torch.arange(6)
assert torch.where(x > 0, ints, 0.0).dtype == (ints + 0.0).dtype == torch.float32
torch.set_default_dtype(torch.float64)
try:
    assert torch.where(x > 0, ints, 0.0).dtype == torch.float64
finally:
    torch.set_default_dtype(torch.float32)

# %%
# Python computes both inputs in full before ``where`` picks. Below, ``w.sqrt()`` takes
# the square root of -1, which is ``nan``. ``where`` drops it, so the values come out
# right.
#
# .. detail:: Gradients through ``where``
#
#    :term:`Gradients <gradient>` are taught in a later section. The gradient of the
#    result below is ``nan`` where ``w`` is 0 or less. It is computed through both
#    inputs, the dropped square roots too. The fix has two steps:
#
#    1. ``safe = torch.where(w > 0, w, 1.0).sqrt()`` takes no bad square root.
#    2. ``torch.where(w > 0, safe, 0.0)`` then drops the 1s that step 1 made.
w = torch.tensor([-1.0, 0.0, 4.0])
print("w.sqrt()                         ", w.sqrt())
print("torch.where(w > 0, w.sqrt(), 0.0)", torch.where(w > 0, w.sqrt(), 0.0))

# %%
# .. check:: the gradient is ``nan`` at 0 and below; the two steps fix it
leaf = w.clone().requires_grad_()
branch = leaf.sqrt()
assert branch[0].isnan()
assert not torch.where(leaf > 0, branch, 0.0).isnan().any()
zero_in = torch.autograd.grad(leaf.sqrt(), leaf, torch.zeros(3))[0]
torch.testing.assert_close(zero_in, 0 / (2 * branch.detach()), equal_nan=True)
unsafe = torch.autograd.grad(torch.where(leaf > 0, leaf.sqrt(), 0.0).sum(), leaf)[0]
assert unsafe[:2].isnan().all()
safe = torch.where(leaf > 0, leaf, 1.0).sqrt()
assert safe.tolist() == [1.0, 1.0, 2.0]  # step 1 alone changes the values
safe_grad = torch.autograd.grad(torch.where(leaf > 0, safe, 0.0).sum(), leaf)[0]
assert safe_grad.tolist() == [0.0, 0.0, 0.25]
assert torch.where(leaf > 0, safe, 0.0).tolist() == [0.0, 0.0, 2.0]

# %%
# With a :term:`mask` alone, ``torch.where(mask)`` returns the positions of its ``True``
# elements. For a mask with at least one :term:`dimension`, it returns a tuple of index
# tensors, one per dimension. Used as an index, the tuple picks what the mask picks.
# :meth:`~torch.Tensor.nonzero` gives the same positions as one matrix, a row per
# ``True`` element. ``%`` gives the remainder, so ``grid % 3 == 0`` marks the multiples
# of 3.
grid = torch.arange(12).reshape(3, 4)
mask = grid % 3 == 0
print("torch.where(mask):", torch.where(mask))
print("grid[torch.where(mask)]:", grid[torch.where(mask)])
print("mask.nonzero():\n", mask.nonzero())

# %%
# .. check:: ``where(mask)`` holds ``nonzero()``'s columns and picks as ``mask``
assert mask.tolist() == [[k % 3 == 0 for k in row] for row in grid.tolist()]
assert isinstance(torch.where(mask), tuple)
assert len(torch.where(mask)) == 2
assert len(torch.where(torch.tensor(True))) == 1  # no dimensions: still one tensor
assert mask.nonzero().tolist() == sorted(mask.nonzero().tolist())  # row-major
assert mask.nonzero().dtype == torch.int64
assert torch.equal(torch.stack(torch.where(mask)), mask.nonzero().T)
assert torch.equal(grid[torch.where(mask)], grid[mask])

# %%
# Filling under a mask: ``masked_fill``
# -------------------------------------
# ``t.masked_fill(mask, value)`` returns a new tensor: ``value`` where ``mask`` is
# ``True``, ``t`` elsewhere. ``t`` itself is left alone. The result keeps ``t``'s
# dtype, so ``2.7`` becomes ``2`` in an ``int64`` tensor. For a floating-point ``t``
# and a value within the range of its dtype, the result equals
# ``torch.where(mask, value, t)``.
#
# A classic use comes from language models. There each word of a sentence gives a
# score to every word, by how much it should look at it. The scores form a square
# matrix. Two steps turn them into weights:
#
# 1. ``masked_fill`` sets the scores that must not count to ``-inf``.
# 2. A :term:`softmax` turns each row into weights that sum to 1, up to rounding.
#    Since ``exp(-inf)`` is 0, the masked weights are exactly 0.
#
# A *causal* mask lets the word at position ``i`` look only at positions ``0`` to
# ``i``. Below, a row of positions is compared with a column of positions. The two
# broadcast to a 4 by 4 grid. ``future[i, j]`` is ``True`` where ``j`` is larger than
# ``i``.
#
# .. detail:: Masks and fill values that raise
#
#    The mask must be ``bool``. ``masked_fill`` broadcasts the mask and ``t`` against
#    each other. So the result can be larger than ``t``. The in-place
#    :meth:`~torch.Tensor.masked_fill_` writes into ``t``, which cannot grow. So its
#    mask must broadcast to ``t``'s own shape.
#
#    In a floating-point or signed integer tensor, a value outside the dtype's range
#    raises an error. So ``-1e9`` raises in ``float16``, while ``-inf`` works. ``nan``
#    and ``300`` raise in an ``int8`` tensor.
#    ``torch.where`` may instead round ``-1e9`` to ``-inf`` in ``float16``.
#
# .. detail:: A fully masked row
#
#    A row masked in full gives ``nan`` weights: its softmax divides 0 by 0.
scores = torch.randn(4, 4)
positions = torch.arange(4)
future = positions.reshape(1, 4) > positions.reshape(4, 1)
weights = scores.masked_fill(future, float("-inf")).softmax(dim=1)
print(weights)

# %%
# .. check:: ``masked_fill`` is ``where`` for fitting values; masked weights are 0
ints = torch.arange(6)
assert torch.equal(scores.masked_fill(future, 0.5), torch.where(future, 0.5, scores))
assert torch.equal(future, torch.ones(4, 4, dtype=torch.bool).triu(diagonal=1))
assert (weights[future] == 0).all()
torch.testing.assert_close(weights.sum(dim=1), torch.ones(4))
assert ints.masked_fill(ints == 1, 2.7).tolist() == [0, 2, 2, 3, 4, 5]
assert ints.tolist() == list(range(6))  # a new tensor: ints is left alone
assert scores.isfinite().all()  # so is scores, though the weights used -inf
assert torch.full((3,), float("-inf")).softmax(dim=0).isnan().all()
half = scores.half()
assert half.masked_fill(future, float("-inf"))[future].isinf().all()
biggest = torch.finfo(torch.float16).max
assert torch.equal(
    half.masked_fill(future, biggest), torch.where(future, biggest, half)
)
try:  # -1e9 does not fit float16: masked_fill raises (in bad_fills below)
    via_where = torch.where(future, -1e9, half)
except RuntimeError:
    pass  # PyTorch 2.4 raises here too
else:  # later versions round to -inf, where masked_fill raises
    assert via_where[future].isinf().all()
row, wide = torch.zeros(3), future[:2, :3]
assert row.masked_fill(wide, 1).shape == (2, 3)
assert row.masked_fill_(future[0, :3], 1) is row
assert row.tolist() == [0.0, 1.0, 1.0]
bad_fills = [
    (scores.masked_fill, future.byte(), 0.5),
    (row.masked_fill_, wide, 0.5),
    (ints.masked_fill, ints == 1, float("nan")),
    (ints.to(torch.int8).masked_fill, ints == 1, float("nan")),
    (ints.to(torch.int8).masked_fill, ints == 1, 300),
    (half.masked_fill, future, -1e9),
    (half.masked_fill, future, 65510.0),  # above float16's largest, 65504
    (scores.masked_fill, future, 1e40),
]
for fill, bad, value in bad_fills:
    try:
        fill(bad, value)
    except RuntimeError:
        pass
    else:
        raise AssertionError(f"{fill.__name__}, {bad.dtype} mask, {value}: no error")

# %%
# Picking along a dimension: ``gather``
# -------------------------------------
# :func:`torch.gather` picks one element of ``src`` for each position of ``index``,
# moving only along the dimension ``dim``. The method form is ``src.gather(dim,
# index)``. For a matrix and ``dim=1``::
#
#     out[i][j] = src[i][index[i][j]]
#
# The result has ``index``'s :term:`shape`. Each row of ``index`` below names columns of
# its row of ``src``, one of them twice.
src = torch.arange(10, 22).reshape(3, 4)
index = torch.tensor([[3, 0], [1, 1], [2, 3]])
out = src.gather(1, index)
print(out)

# %%
# .. check:: ``out[i][j]`` is ``src[i][index[i][j]]``
by_loops = [[src[i, k].item() for k in row] for i, row in enumerate(index)]
assert out.tolist() == by_loops

# %%
# Integer indexing picks the same elements. Below, ``rows`` is a column of row numbers.
# It broadcasts against ``index``, so ``src[rows, index]`` equals ``out``.
#
# The site's helper ``draw_tensors`` colours cells by a tensor of group numbers. Group
# 7 is grey. ``plt.show()`` shows the figure. Colour is the column a value comes from.
# Cells of ``src`` that no row picked are grey.
#
# .. detail:: How ``picked`` is built
#
#    ``picked`` starts as 7 everywhere. The line ``picked[rows, index] = index``
#    writes each picked column's number into the cell it picks. The cells that no row
#    picked keep 7.
rows = torch.tensor([[0], [1], [2]])
print("src[rows, index] equals out:", torch.equal(src[rows, index], out))
picked = torch.full(src.shape, 7)
picked[rows, index] = index
titles = ["src", "index", "src.gather(1, index)"]
draw_tensors([src, index, out], titles, groups=[picked, index, index])
plt.show()

# %%
# .. check:: ``src[rows, index]`` is ``out``; grey cells are those no row picked
from tutorial_utils.colours import PALETTE

assert PALETTE[7] == "#999999"  # group 7 is grey
assert torch.equal(src[rows, index], out)
for i, row in enumerate(index):
    grey = {k for k in range(4) if picked[i, k] == 7}
    assert grey == set(range(4)) - set(row.tolist())

# %%
# A loss picks each row's label score
# -----------------------------------
# A classifier is a model that sorts inputs into a few classes. Below, each row of
# ``logits`` holds its scores for one input, one score per class. These raw scores are
# called :term:`logits`. The rows together are a :term:`batch`: 5 inputs, 3 classes.
# Each input's *label* is the number of its right class.
#
# A :term:`loss` is one number that says how wrong the scores are. The cross-entropy
# loss takes three steps:
#
# 1. :meth:`~torch.Tensor.log_softmax` gives the logarithm of each row's softmax.
# 2. A ``gather`` takes each row's value at its label.
# 3. The loss is minus the mean of these values.
#
# For a matrix ``src``, a non-empty ``index`` must be a matrix too. Here ``src``
# is ``log_probs``, so the labels must become a column. ``unsqueeze(1)`` inserts a
# dimension of length 1 at position 1, and that makes the column. ``squeeze(1)``
# removes it from the result.
#
# ``F`` is the usual short name for ``torch.nn.functional``, imported below. It holds
# functions that models are built from. :func:`F.cross_entropy
# <torch.nn.functional.cross_entropy>` computes the same loss with its defaults. It
# takes the raw ``logits`` and applies ``log_softmax`` itself.
#
# .. detail:: Options of ``cross_entropy``
#
#    Class weights that differ, ``label_smoothing`` or ``reduction="sum"`` can give
#    other values.
import torch.nn.functional as F

logits = torch.randn(5, 3)
labels = torch.tensor([2, 0, 1, 1, 0])
log_probs = logits.log_softmax(dim=1)
label_scores = log_probs.gather(1, labels.unsqueeze(1)).squeeze(1)
loss = -label_scores.mean()
print("label log-probabilities:", label_scores)
print(f"loss: {loss:.4f}   F.cross_entropy: {F.cross_entropy(logits, labels):.4f}")

# %%
# .. check:: ``cross_entropy`` gives this loss; here those options change it
torch.testing.assert_close(loss, F.cross_entropy(logits, labels))
torch.testing.assert_close(log_probs.exp(), logits.softmax(dim=1))
assert torch.equal(label_scores, log_probs[torch.arange(5), labels])
not_default = [{"weight": torch.arange(1.0, 4.0)}, {"label_smoothing": 0.1}]
for options in [*not_default, {"reduction": "sum"}]:
    assert not torch.allclose(F.cross_entropy(logits, labels, **options), loss)

# %%
# Forgetting the ``unsqueeze`` is a common error. ``labels`` has one dimension and
# ``log_probs`` two, and ``gather`` does not broadcast.
#
# .. detail:: More rules for the index
#
#    The index must be ``int64``, or ``int32`` from PyTorch 2.8 on. It may not be longer
#    than ``src`` along the other dimensions. On the CPU, an index that is negative or
#    past the end of ``dim`` raises an error. An index with no elements skips all these
#    rules and gives an empty result. On a ``src`` with one dimension, an index with no
#    dimensions also works.
try:
    log_probs.gather(1, labels)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
else:
    raise AssertionError("log_probs.gather(1, labels) did not raise")

# %%
# .. check:: the index must be int64 (int32 from 2.8), in range, and fit ``src``
assert torch.tensor([1, 2]).dtype == torch.int64
column = labels.unsqueeze(1)
bad_indices = [column.short(), column.float(), torch.full((5, 1), 3), column - 3]
bad_indices.append(torch.zeros(6, 1, dtype=torch.int64))  # 6 rows, log_probs has 5
bad_indices += [torch.zeros(s, dtype=torch.int64) for s in [(), (5,), (5, 1, 1)]]
if torch.__version__ >= "2.8":
    assert torch.equal(log_probs.gather(1, column.int()), log_probs.gather(1, column))
elif torch.__version__ < "2.8.0.dev0":  # 2.8 pre-releases: either way
    bad_indices.append(column.int())
for bad in bad_indices:
    try:
        log_probs.gather(1, bad)
    except RuntimeError:
        pass
    else:
        raise AssertionError(f"a {bad.dtype} index of shape {bad.shape} did not raise")
assert log_probs.gather(1, torch.empty(0, dtype=torch.int64)).numel() == 0
assert log_probs.gather(1, torch.empty(0)).numel() == 0  # float32, yet no error
assert labels.gather(0, torch.tensor(2)).item() == labels[2].item()

# %%
# Placing along a dimension: ``scatter_``
# ---------------------------------------
# :meth:`~torch.Tensor.scatter_` is the reverse move. ``self.scatter_(dim, index, src)``
# writes the elements of ``src`` into ``self`` in place. For ``dim=1``::
#
#     self[i][index[i][j]] = src[i][j]
#
# The other elements of ``self`` keep their values. :meth:`~torch.Tensor.scatter` does
# the same on a copy. Below, ``values`` is ``src`` and ``where_to`` is ``index``.
#
# .. detail:: Unused elements and reading back
#
#    Elements of ``src`` beyond ``index``'s shape go unused. Say no row of ``index``
#    names a place twice. Then ``gather`` with the same ``index`` reads back what was
#    written.
#
# Colour is the column an element goes to. The code gets it by scattering the column
# numbers into a tensor of 7s. The grey cells were not written and keep their ``-1``.
values = torch.tensor([[1, 2, 3], [4, 5, 6]])
where_to = torch.tensor([[2, 0, 3], [1, 3, 0]])
placed = torch.full((2, 4), -1).scatter_(1, where_to, values)
print(placed)
written = torch.full(placed.shape, 7).scatter_(1, where_to, where_to)
titles = ["src", "index", "full((2, 4), -1).scatter_(1, index, src)"]
draw_tensors([values, where_to, placed], titles, groups=[where_to, where_to, written])
plt.show()

# %%
# .. check:: ``gather`` reads back the writes; grey cells keep ``-1``; ``scatter`` copies
assert torch.equal(placed.gather(1, where_to), values)
assert torch.equal(placed == -1, written == 7)
blank = torch.full((2, 4), -1)
assert torch.equal(blank.scatter(1, where_to, values), placed)
assert (blank == -1).all()
part = where_to[:, :2]
assert torch.equal(*(blank.scatter(1, part, src) for src in (values, values[:, :2])))

# %%
# A :term:`one-hot encoding <one-hot>` has a 1 in each label's column, and 0
# elsewhere. ``scatter_`` makes it from zeros. It also takes a number in place of
# ``src``, and writes that number in ``self``'s dtype.
# :func:`torch.nn.functional.one_hot` makes the same matrix in ``int64``.
one_hot = torch.zeros(5, 3).scatter_(1, labels.unsqueeze(1), 1.0)
print(one_hot)

# %%
# .. check:: ``F.one_hot`` makes the same matrix, in int64
assert F.one_hot(labels, num_classes=3).dtype == torch.int64
assert torch.equal(one_hot, F.one_hot(labels, num_classes=3).float())
as_ints = torch.zeros(3, dtype=torch.int64).scatter_(0, labels[:1], 2.7)
assert as_ints.tolist() == [0, 0, 2]  # 2.7 written as an int64

# %%
# Adding up by group: ``scatter_add_``
# -------------------------------------
# When ``index`` names a position twice, ``scatter_`` keeps one of the values, which one
# not specified. :meth:`~torch.Tensor.scatter_add_` adds them all. For a vector and
# ``dim=0``, it does ``self[index[j]] += src[j]`` for each ``j``. So it sums each group:
amounts = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
group = torch.tensor([0, 1, 0, 2, 1, 0])
totals = torch.zeros(3).scatter_add_(0, group, amounts)
print(totals)

# %%
# .. check:: ``scatter_add_`` sums each group; ``scatter_`` keeps one value
assert totals.tolist() == [amounts[group == k].sum().item() for k in range(3)]
by_formula = torch.zeros(3)
for j in range(6):
    by_formula[group[j]] += amounts[j]
assert torch.equal(by_formula, totals)
assert torch.zeros(3).scatter_(0, group, amounts)[0].item() in (1.0, 3.0, 6.0)

# %%
# Sorting and the largest few
# ---------------------------
# :func:`torch.sort` returns the sorted values and the position each came from;
# :func:`torch.argsort`, the positions alone. Both sort the last dimension unless
# ``dim=`` names another, ascending unless ``descending=True``. ``stable=True`` keeps
# equal values in their order, as Python's ``sorted`` does. Without it, their order is
# not guaranteed.
marks = torch.tensor([7, 9, 7, 4, 9, 7])
ordered = torch.sort(marks, descending=True, stable=True)
print(ordered)

# %%
# .. check:: a stable sort orders ties as ``sorted``; ``argsort`` gives the positions
by_python = sorted(range(6), key=lambda i: marks[i].item(), reverse=True)
assert ordered.indices.tolist() == by_python
assert torch.equal(torch.argsort(marks, descending=True, stable=True), ordered.indices)
assert torch.equal(marks[ordered.indices], ordered.values)
assert (logits.sort().values.diff(dim=1) >= 0).all()  # rows, ascending
assert torch.equal(logits.gather(1, logits.argsort()), logits.sort().values)

# %%
# :func:`torch.topk` returns the ``k`` largest values and their positions. With the
# default ``sorted=True``, the values are the first ``k`` of a descending sort.
# ``largest=False`` gives the smallest.
best = logits.topk(2, dim=1)
print(best)

# %%
# .. check:: ``topk`` is the first ``k`` of a sort; ``sorted=False`` gives the same values
assert torch.equal(best.values, logits.sort(dim=1, descending=True).values[:, :2])
assert torch.equal(logits.gather(1, best.indices), best.values)
assert torch.equal(logits.topk(2, largest=False).values, logits.sort().values[:, :2])
spread = torch.tensor([1.0, 9.0, 3.0, 8.0, 7.0, 2.0])
first_3 = spread.sort(descending=True).values[:3]
any_order = spread.topk(3, sorted=False).values
assert torch.equal(any_order.sort(descending=True).values, first_3)  # same values

# %%
# Summary
# -------
# - ``torch.where(c, x, y)`` picks element by element, from inputs computed
#   in full. ``masked_fill`` writes one value, in the tensor's dtype.
# - For ``dim=1``, ``gather`` reads ``src[i][index[i][j]]`` and ``scatter_``
#   writes there. For a matrix ``src``, a non-empty index is a matrix too.
# - ``scatter_add_`` adds up the values sent to one position.
# - ``sort`` and ``topk`` give values and positions; ``sort``'s ``stable=True`` keeps
#   ties in order.
#
# In depth: :ref:`sphx_glr_auto_examples_tensors_plot_55_grouped_sums_and_einsum.py`
# sums rows by group, keeps running totals and writes sums over indices as one formula.
#
# Next: :ref:`sphx_glr_auto_examples_tensors_plot_06_splitting_and_joining.py`
# cuts tensors up and joins them. Exercises for this page: :ref:`exercises-tensors-05`.
