"""
Selecting and rearranging
=========================

Choose between tensors element by element, pick and place elements along a
dimension with ``gather`` and ``scatter``, sort, accumulate, and write sums
over indices as ``einsum``. After this page you can pick each row's label
score the way a loss does, and predict the shape each operation gives.
"""

# %%
# Every page starts by saying what computed it. The tensors on this page hold
# a handful of numbers each, so it runs on the CPU whatever the machine has;
# the values printed come from a fixed seed.
import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F

from tutorial_utils.environment import environment_summary
from tutorial_utils.grids import draw_tensors

print(environment_summary(torch.device("cpu")))

# %%
# Choosing element by element: ``where``
# --------------------------------------
# ``torch.where(condition, x, y)`` takes each element from ``x`` where the
# ``bool`` tensor ``condition`` is ``True`` and from ``y`` where it is
# ``False``. The three are :term:`broadcast <broadcasting>` against each other
# (:ref:`sphx_glr_auto_examples_tensors_plot_04_arithmetic_and_broadcasting.py`),
# so ``x`` or ``y`` can be a single number. The result's :term:`dtype`
# follows the promotion rules of arithmetic (see
# :ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py`): ``0`` keeps
# ``float32`` as it is, ``0.0`` turns ``int64`` into ``float32``.
torch.manual_seed(0)
x = torch.randn(6)
print("x                       ", x)
print("torch.where(x > 0, x, 0)", torch.where(x > 0, x, 0))

# %%
# .. check:: the dtype is that of arithmetic: ``0`` keeps float32, ``0.0`` turns int64 into float32
assert torch.equal(torch.where(x > 0, x, 0), x.clamp(min=0))
assert torch.where(x > 0, x, 0).dtype == (x + 0).dtype == torch.float32
ints = torch.arange(6)
assert torch.where(x > 0, ints, 0.0).dtype == (ints + 0.0).dtype == torch.float32

# %%
# Both branches are computed in full, for every element, before ``where``
# picks. Where an unpicked branch has an infinite or ``nan`` derivative, as
# ``sqrt`` has at 0 and below 0, the values are right but the
# :term:`gradient` is not. Make the input safe before the operation.
#
# .. detail:: Why the gradient is nan
#
#    ``where`` sends the unpicked branch a gradient of 0, and the backward
#    pass of ``sqrt`` divides it by ``2 * sqrt(w)``, which is 0 or ``nan`` at
#    0 and below; ``0 / 0`` and ``0 / nan`` are ``nan``.
w = torch.tensor([-1.0, 0.0, 4.0], requires_grad=True)
branch = w.sqrt()
chosen = torch.where(w > 0, branch, 0.0)
chosen.sum().backward()
print("sqrt, then where:   grad", w.grad)
w.grad = None
safe = torch.where(w > 0, w, 1.0)
torch.where(w > 0, safe.sqrt(), 0.0).sum().backward()
print("where, sqrt, where: grad", w.grad)

# %%
# .. check:: the values are right, the gradient is ``nan`` at 0 and below; a safe input fixes it
assert branch[0].isnan()
assert not chosen.isnan().any()
zero_in = torch.autograd.grad(w.sqrt(), w, torch.zeros(3))[0]
torch.testing.assert_close(zero_in, 0 / (2 * branch.detach()), equal_nan=True)
_unsafe_grad = torch.autograd.grad(torch.where(w > 0, w.sqrt(), 0.0).sum(), w)[0]
assert _unsafe_grad[:2].isnan().all()
assert w.grad.tolist() == [0.0, 0.0, 0.25]

# %%
# Called with a condition alone, ``torch.where(mask)`` returns *where* the
# :term:`mask` is ``True``: a tuple of index tensors, one per
# :term:`dimension`, the same as ``mask.nonzero(as_tuple=True)``. Plain
# :meth:`~torch.Tensor.nonzero` returns the same positions as one ``int64``
# matrix with a row per ``True`` element, in row-major order. The tuple is
# ready to index with, and picks what the mask itself picks
# (:ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_selection.py`).
grid = torch.arange(12).reshape(3, 4)
mask = grid % 3 == 0
print("torch.where(mask):", torch.where(mask))
print("mask.nonzero():\n", mask.nonzero())

# %%
# .. check:: ``where(mask)`` is ``nonzero()``'s columns (int64, row-major) and picks what ``mask`` picks
assert mask.nonzero().tolist() == sorted(mask.nonzero().tolist())  # row-major
assert mask.nonzero().dtype == torch.int64
assert torch.equal(torch.stack(torch.where(mask)), mask.nonzero().T)
assert torch.equal(grid[torch.where(mask)], grid[mask])

# %%
# Filling under a mask: ``masked_fill``
# -------------------------------------
# ``x.masked_fill(mask, value)`` is ``torch.where(mask, value, x)`` for a
# single value, except that it keeps ``x``'s dtype: ``2.7`` becomes ``2`` in
# an ``int64`` tensor. The mask must be ``bool``, and is broadcast against
# ``x``, so the result can be larger than ``x``; the mask of
# :meth:`~torch.Tensor.masked_fill_`, which works :term:`in place <in-place
# operation>`, must broadcast to ``x``'s shape. The classic use is an
# attention mask: scores that must not count are set to ``-inf`` before a
# softmax, whose ``exp`` turns them into weights of exactly 0, and the other
# weights of the row still sum to 1. In a *causal* mask, position ``i`` may
# look only at positions ``0`` to ``i``:
#
# .. detail:: Rows masked in full
#
#    A row masked in full, all its scores ``-inf``, gives ``nan`` weights.
scores = torch.randn(4, 4)
future = torch.ones(4, 4, dtype=torch.bool).triu(diagonal=1)
weights = scores.masked_fill(future, float("-inf")).softmax(dim=1)
print(weights)

# %%
# .. check:: ``masked_fill`` keeps the dtype, wants a bool mask; masked weights are 0, rows sum to 1
assert torch.equal(scores.masked_fill(future, 0.5), torch.where(future, 0.5, scores))
assert (weights[future] == 0).all()
torch.testing.assert_close(weights.sum(dim=1), torch.ones(4))
assert ints.masked_fill(ints == 1, 2.7).tolist() == [0, 2, 2, 3, 4, 5]
assert torch.full((3,), float("-inf")).softmax(dim=0).isnan().all()
row, wide = torch.zeros(3), future[:2, :3]
assert row.masked_fill(wide, 1).shape == (2, 3)
assert row.masked_fill_(future[0, :3], 1) is row
assert row.tolist() == [0.0, 1.0, 1.0]
for fill, bad in [(scores.masked_fill, future.byte()), (row.masked_fill_, wide)]:
    try:
        fill(bad, 0.5)
    except RuntimeError:
        pass
    else:
        raise AssertionError(f"{fill.__name__}, {bad.dtype} mask {bad.shape}: no error")

# %%
# Picking along a dimension: ``gather``
# -------------------------------------
# :func:`torch.gather` picks one element per position of an ``index`` tensor,
# moving only along the dimension ``dim``. For a matrix and ``dim=1``::
#
#     out[i][j] = src[i][index[i][j]]
#
# The result has ``index``'s :term:`shape`; ``index`` must have as many
# dimensions as ``src``, and must not be longer than ``src`` along the other
# dimensions. Each row of ``index`` below names columns of the same row of
# ``src``, one of them twice. In the picture, colour is the column of ``src``
# a value comes from, shared by ``index`` and ``out``; no row picked the grey
# cells of ``src``.
src = torch.arange(10, 22).reshape(3, 4)
index = torch.tensor([[3, 0], [1, 1], [2, 3]])
out = src.gather(1, index)
print(out)
picked = torch.full(src.shape, 7).scatter_(1, index, index)
draw_tensors(
    [src, index, out],
    ["src", "index", "src.gather(1, index)"],
    groups=[picked, index, index],
)
plt.show()

# %%
# .. check:: ``out[i][j]`` is ``src[i][index[i][j]]``
by_loops = [[src[i, k].item() for k in row] for i, row in enumerate(index)]
assert out.tolist() == by_loops

# %%
# A loss picks each row's label score
# -----------------------------------
# A classifier's :term:`logits` hold one score per class for each sample of
# a :term:`batch`. Cross-entropy needs, for each sample, the log-probability
# of its *label* only: a ``gather`` along the class dimension, with the
# labels as a column. Its mean, negated, is the :term:`loss` that
# :func:`torch.nn.functional.cross_entropy` computes from class labels with
# its defaults: class weights that differ, ``label_smoothing`` or
# ``reduction="sum"`` give other values. Integer indexing, ``torch.arange(5)``
# for the rows and the labels for the columns, picks the same elements.
logits = torch.randn(5, 3)
labels = torch.tensor([2, 0, 1, 1, 0])
log_probs = logits.log_softmax(dim=1)
label_scores = log_probs.gather(1, labels.unsqueeze(1)).squeeze(1)
loss = -label_scores.mean()
print(f"label log-probabilities: {label_scores}\nloss: {loss:.4f}")

# %%
# .. check:: ``cross_entropy`` gives this loss by default, other values with those options
torch.testing.assert_close(loss, F.cross_entropy(logits, labels))
assert torch.equal(label_scores, log_probs[torch.arange(5), labels])
not_default = [{"weight": torch.arange(1.0, 4.0)}, {"label_smoothing": 0.1}]
for options in [*not_default, {"reduction": "sum"}]:
    assert not torch.allclose(F.cross_entropy(logits, labels, **options), loss)

# %%
# Forgetting the ``unsqueeze`` is the error everyone meets once: ``labels``
# has one dimension and ``log_probs`` two, and ``gather`` does not broadcast.
# The index must also hold integers: ``int64``, the dtype
# :func:`torch.tensor` gives Python integers, works on every version. An
# index outside ``0`` to ``src.size(dim) - 1`` raises an error on the CPU.
#
# .. detail:: From PyTorch 2.8
#
#    ``int32`` indices work too from PyTorch 2.8 on.
try:
    log_probs.gather(1, labels)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
else:
    raise AssertionError("log_probs.gather(1, labels) did not raise")

# %%
# .. check:: the index must be int64 (or int32 from 2.8), in range, and fit ``log_probs``'s rows
assert torch.tensor([1, 2]).dtype == torch.int64
column = labels.unsqueeze(1)
bad_indices = [column.short(), column.float(), torch.full((5, 1), 3), column - 3]
bad_indices.append(torch.zeros(6, 1, dtype=torch.int64))  # 6 rows, log_probs has 5
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

# %%
# Placing along a dimension: ``scatter_``
# ---------------------------------------
# :meth:`~torch.Tensor.scatter_` is the reverse move, in place: for each
# position of ``index``, it writes the element of ``src`` at that position
# to the place ``index`` names along ``dim``, ``self[i][index[i][j]] =
# src[i][j]`` for ``dim=1``, and leaves the other elements of ``self`` as
# they were; the rest of ``src``, where it is larger than ``index``, goes
# unused. While no row of ``index`` names a place twice, ``gather`` with the
# same ``index`` reads back what was written. :meth:`~torch.Tensor.scatter`
# does the same on a copy. Here colour is the column of the result an
# element goes to; the grey cells were not written and keep their ``-1``.
values = torch.tensor([[1, 2, 3], [4, 5, 6]])
where_to = torch.tensor([[2, 0, 3], [1, 3, 0]])
placed = torch.full((2, 4), -1).scatter_(1, where_to, values)
print(placed)
written = torch.full(placed.shape, 7).scatter_(1, where_to, where_to)
draw_tensors(
    [values, where_to, placed],
    ["src", "index", "full((2, 4), -1).scatter_(1, index, src)"],
    groups=[where_to, where_to, written],
)
plt.show()

# %%
# .. check:: ``gather`` reads back what was written, grey cells keep ``-1``, ``scatter`` copies
assert torch.equal(placed.gather(1, where_to), values)
assert torch.equal(placed == -1, written == 7)
blank = torch.full((2, 4), -1)
assert torch.equal(blank.scatter(1, where_to, values), placed)
assert (blank == -1).all()
part = where_to[:, :2]
assert torch.equal(*(blank.scatter(1, part, src) for src in (values, values[:, :2])))

# %%
# A :term:`one-hot encoding <one-hot>` is a scatter of ones, each to its
# label's column; :func:`torch.nn.functional.one_hot` makes the same matrix
# in ``int64``. With a value in place of ``src``, ``scatter_`` writes that value.
one_hot = torch.zeros(5, 3).scatter_(1, labels.unsqueeze(1), 1.0)
print(one_hot)

# %%
# .. check:: ``F.one_hot`` makes the same matrix, in int64
assert F.one_hot(labels, num_classes=3).dtype == torch.int64
assert torch.equal(one_hot, F.one_hot(labels, num_classes=3).float())

# %%
# Adding up by group: ``scatter_add_`` and ``index_add_``
# --------------------------------------------------------
# When ``index`` names a position twice, ``scatter_`` keeps only one of the
# values written there, and which one is not specified;
# :meth:`~torch.Tensor.scatter_add_` adds them all. With group numbers as the
# index it sums each group, as a ``GROUP BY`` does:
amounts = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
group = torch.tensor([0, 1, 0, 2, 1, 0])
totals = torch.zeros(3).scatter_add_(0, group, amounts)
print(totals)

# %%
# .. check:: ``scatter_add_`` sums each group; ``scatter_`` keeps one of the values written
by_hand = [amounts[group == k].sum().item() for k in range(3)]
assert totals.tolist() == by_hand
assert torch.zeros(3).scatter_(0, group, amounts)[0].item() in (1.0, 3.0, 6.0)

# %%
# :meth:`~torch.Tensor.index_add_` (met in
# :ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_selection.py`)
# takes one index per *slice* instead of one per element: with ``dim=0`` it
# adds whole rows. To sum rows of features by group, ``index_add_`` takes the
# group numbers as they are; ``scatter_add_`` needs them repeated across the
# columns: given one column of them, it sums the first column of features
# alone, and raises no error. For a mean per group,
# :meth:`~torch.Tensor.scatter_reduce` takes ``reduce="mean"``, and
# ``include_self=False`` leaves the starting zeros out of it.
features = torch.arange(12.0).reshape(6, 2)
by_rows = torch.zeros(3, 2).index_add_(0, group, features)
repeated = group.unsqueeze(1).expand(6, 2)
by_elements = torch.zeros(3, 2).scatter_add_(0, repeated, features)
means = torch.zeros(3, 2).scatter_reduce(
    0, repeated, features, reduce="mean", include_self=False
)
print(by_rows, means, sep="\n")

# %%
# .. check:: ``index_add_`` equals ``scatter_add_`` with repeated indices; one column sums column 0 alone
assert torch.equal(by_rows, by_elements)
first_only = torch.zeros(3, 2).scatter_add_(0, group.unsqueeze(1), features)
assert torch.equal(first_only, torch.stack([by_rows[:, 0], torch.zeros(3)], dim=1))
counts = torch.bincount(group, minlength=3).unsqueeze(1)
torch.testing.assert_close(means, by_rows / counts)

# %%
# Sorting and the largest few
# ---------------------------
# :func:`torch.sort` returns the sorted values and, for each, the position it
# came from; :func:`torch.argsort` returns the positions alone. Both sort
# along the last dimension unless ``dim=`` names another, ascending unless
# ``descending=True``. Where values are equal, their order is not guaranteed
# unless ``stable=True``, which keeps equal values in the order they had, as
# Python's ``sorted`` does:
marks = torch.tensor([7, 9, 7, 4, 9, 7])
ordered = torch.sort(marks, descending=True, stable=True)
print(ordered)

# %%
# .. check:: a stable sort orders ties as ``sorted`` does; ``argsort`` gives its positions
by_python = sorted(range(6), key=lambda i: marks[i].item(), reverse=True)
assert ordered.indices.tolist() == by_python
assert torch.equal(torch.argsort(marks, descending=True, stable=True), ordered.indices)
assert torch.equal(marks[ordered.indices], ordered.values)
assert (logits.sort().values.diff(dim=1) >= 0).all()  # rows, ascending
assert torch.equal(logits.gather(1, logits.argsort()), logits.sort().values)

# %%
# :func:`torch.topk` returns the ``k`` largest values along a dimension
# (``largest=False``: the smallest) and their positions, sorted by default:
# the values are the first ``k`` of a descending sort.
best = logits.topk(2, dim=1)
print(best)

# %%
# .. check:: ``topk`` gives the first ``k`` of a descending sort (``largest=False``: ascending)
assert torch.equal(best.values, logits.sort(dim=1, descending=True).values[:, :2])
assert torch.equal(logits.gather(1, best.indices), best.values)
assert torch.equal(logits.topk(2, largest=False).values, logits.sort().values[:, :2])

# %%
# Running totals: ``cumsum``
# --------------------------
# :func:`torch.cumsum` gives, for each element, the sum of that element and
# all those before it along ``dim``. Without ``dtype=``, integer and ``bool``
# inputs give ``int64``, as :func:`torch.sum` does. One use: the start of
# each piece of a tensor cut into pieces of given lengths, as
# :func:`torch.split` cuts it on the next page.
lengths = torch.tensor([3, 1, 2])
starts = lengths.cumsum(dim=0) - lengths
print("starts:", starts)

# %%
# .. check:: the starts begin ``split``'s pieces; integer and bool inputs give int64, like ``sum``
pieces = torch.split(torch.arange(6), lengths.tolist())
assert [piece[0].item() for piece in pieces] == starts.tolist()
for dtype in (torch.bool, torch.uint8, torch.int8, torch.int32):
    ones = torch.ones(3, dtype=dtype)
    assert ones.cumsum(dim=0).dtype == ones.sum().dtype == torch.int64
torch.testing.assert_close(x.cumsum(dim=0), torch.ones(6, 6).tril() @ x)

# %%
# Sums over indices: ``einsum``
# -----------------------------
# :func:`torch.einsum` takes a formula that names each dimension of each
# input with a letter. A letter in the output (after ``->``) is kept, in
# that order; a letter missing from the output is summed over. Without
# ``->``, the output is the letters that appear once, in alphabetical order.
# The matrix product ``ij,jk->ik`` is, as Python loops, and with ``@``:
A, B = torch.randn(2, 3), torch.randn(3, 4)
loops = torch.zeros(2, 4)
for i in range(2):
    for k in range(4):
        loops[i, k] = sum(A[i, j] * B[j, k] for j in range(3))
torch.testing.assert_close(torch.einsum("ij,jk->ik", A, B), loops)
torch.testing.assert_close(torch.einsum("ij,jk->ik", A, B), A @ B)

# %%
# .. check:: without ``->``, the output is the letters that appear once, in alphabetical order
torch.testing.assert_close(torch.einsum("kj,ji", B.T, A.T), A @ B)  # output "ik"

# %%
# The same notation covers transposes, sums, dot products, outer products,
# batches of matrix products, and the scores of attention, ``bqd,bkd->bqk``.
# Each line below pairs a formula with the operation it replaces, and checks
# that they agree. A letter that appears in two inputs pairs those dimensions
# up, so their lengths must match, or one of them be 1, which is broadcast;
# a letter repeated within one input takes that input's diagonal.
u, v = torch.randn(3), torch.randn(3)
P, Q = torch.randn(5, 3), torch.randn(5, 3)
batch_a, batch_b = torch.randn(5, 2, 3), torch.randn(5, 3, 4)
keys, square = torch.randn(5, 4, 3), torch.randn(3, 3)
pairs = {
    "ij->ji": (torch.einsum("ij->ji", A), A.T),
    "ij->j": (torch.einsum("ij->j", A), A.sum(dim=0)),
    "i,i->": (torch.einsum("i,i->", u, v), (u * v).sum()),
    "bi,bi->b": (torch.einsum("bi,bi->b", P, Q), (P * Q).sum(dim=1)),
    "i,j->ij": (torch.einsum("i,j->ij", u, v), u.unsqueeze(1) * v),
    "bij,bjk->bik": (torch.einsum("bij,bjk->bik", batch_a, batch_b), batch_a @ batch_b),
    "ii->i": (torch.einsum("ii->i", square), square.diagonal()),
    "ii->": (torch.einsum("ii->", square), square.trace()),
    "bqd,bkd->bqk": (torch.einsum("bqd,bkd->bqk", batch_a, keys), batch_a @ keys.mT),
}
for formula, (by_einsum, by_hand) in pairs.items():
    torch.testing.assert_close(by_einsum, by_hand)
    print(f"{formula:13} shape {tuple(by_einsum.shape)}")

# %%
# .. check:: a length of 1 is broadcast against its pair; lengths 2 and 3 raise
with torch.random.fork_rng(devices=[]):  # restores the default generator afterwards
    col, wrong = torch.randn(2, 1), torch.randn(2, 2)
torch.testing.assert_close(torch.einsum("ij,jk->ik", col, B), col.expand(2, 3) @ B)
try:
    torch.einsum("ij,jk->ik", wrong, B)
except RuntimeError:
    pass
else:
    raise AssertionError("einsum with sizes 2 and 3 for j did not raise")

# %%
# Summary
# -------
# - ``torch.where(c, x, y)`` picks element by element from branches computed
#   in full: make the input safe first. ``torch.where(mask)`` is
#   ``mask.nonzero(as_tuple=True)``; ``masked_fill`` writes one value.
# - ``gather`` reads ``src[i][index[i][j]]``; ``scatter_`` writes there. The
#   index has as many dimensions as ``src`` (``unsqueeze`` the labels);
#   ``scatter_add_`` and ``index_add_`` add up repeated positions.
# - ``sort`` and ``topk`` give values and positions, ``argsort`` positions
#   alone; ``stable=True`` keeps equal values in their order.
# - ``cumsum`` gives running totals; ``einsum`` sums over the letters missing
#   from its output.
#
# Next: :ref:`sphx_glr_auto_examples_tensors_plot_06_splitting_and_joining.py`
# cuts tensors up and joins them. Exercises for this page: :ref:`exercises-tensors-05`.
