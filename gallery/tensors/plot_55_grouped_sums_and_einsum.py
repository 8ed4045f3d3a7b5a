"""
Grouped sums, running sums, einsum
==================================

After this page you can sum or average the rows of a matrix by group, and
keep running totals. You can also write a matrix product, a dot product or a
batch of matrix products as one ``einsum`` formula.

**Before this page:**
:ref:`sphx_glr_auto_examples_tensors_plot_05_selecting_and_rearranging.py`
for ``scatter_add_``,
:ref:`sphx_glr_auto_examples_tensors_plot_53_repeated_index_writes.py` for
``index_add_``, and
:ref:`sphx_glr_auto_examples_tensors_plot_07_views_and_strides.py` for
``.T``, ``unsqueeze`` and ``expand``. A first reading can skip this page.
"""

# %%
# Every page starts by saying what computed it. The tensors on this page hold
# a handful of numbers each, so it runs on the CPU whatever the machine has.
import matplotlib.pyplot as plt
import torch

from tutorial_utils.environment import environment_summary
from tutorial_utils.grids import draw_tensors

print(environment_summary(torch.device("cpu")))

# %%
# Rows by group: ``index_add_`` and ``scatter_reduce``
# ----------------------------------------------------
# Each sum below is a :term:`reduction` over a group. Each row of
# ``features`` holds two numbers that describe one item.
# ``torch.arange(12.0)`` gives floats, since its argument is a float.
#
# To sum whole rows by group, :meth:`~torch.Tensor.index_add_` takes one group
# number per row. ``scatter_add_`` needs one index per element. So the group
# numbers are repeated across the columns, by ``unsqueeze`` and ``expand``.
# Given one column of them, it sums the first column alone, with no error.
# ``by_elements`` equals ``by_rows``, as the check below shows.
#
# For a floating-point tensor, :meth:`~torch.Tensor.scatter_reduce` with
# ``reduce="mean"`` gives the mean of each non-empty group.
# ``include_self=False`` leaves the starting zeros out. Without it, each
# place's zero would count as one more value in its mean.
#
# .. detail:: Integer tensors and empty groups
#
#    On an integer tensor, the mean is rounded down: ``-1`` and ``-2`` give
#    ``-2``. A group that gets no value keeps its starting value.
group = torch.tensor([0, 1, 0, 2, 1, 0])
features = torch.arange(12.0).reshape(6, 2)
by_rows = torch.zeros(3, 2).index_add_(0, group, features)
repeated = group.unsqueeze(1).expand(6, 2)
by_elements = torch.zeros(3, 2).scatter_add_(0, repeated, features)
means = torch.zeros(3, 2).scatter_reduce(
    0, repeated, features, reduce="mean", include_self=False
)
print(by_rows, means, sep="\n")

# %%
# .. check:: ``index_add_`` is ``scatter_add_`` with indices repeated across columns
assert torch.equal(by_rows, by_elements)

# %%
# .. check:: one column of group numbers sums column 0 alone; the means are right
first_only = torch.zeros(3, 2).scatter_add_(0, group.unsqueeze(1), features)
assert torch.equal(first_only, torch.stack([by_rows[:, 0], torch.zeros(3)], dim=1))
counts = torch.bincount(group, minlength=3).unsqueeze(1)
torch.testing.assert_close(means, by_rows / counts)
with_self = torch.zeros(3, 2).scatter_reduce(0, repeated, features, reduce="mean")
torch.testing.assert_close(with_self, by_rows / (counts + 1))

# %%
# .. check:: integer means round down; an empty group keeps its start
pair = torch.tensor([0, 0])
ints = torch.zeros(2, dtype=torch.int64)
ints = ints.scatter_reduce(
    0, pair, torch.tensor([-1, -2]), reduce="mean", include_self=False
)
assert ints.tolist() == [-2, 0]
start = torch.full((2,), 5.0)
floats = start.scatter_reduce(
    0, pair, torch.tensor([1.0, 2.0]), reduce="mean", include_self=False
)
assert floats.tolist() == [1.5, 5.0]

# %%
# Running totals: ``cumsum``
# --------------------------
# :func:`torch.cumsum` gives, for each element, the sum of it and all those
# before it along ``dim``. Integer and ``bool`` inputs give ``int64``, as
# :func:`torch.sum` does. One use: where each piece starts when
# :func:`torch.split` cuts a tensor into pieces of given lengths. The running
# totals of the lengths are where the pieces end. Subtracting each length
# turns them into where the pieces start.
lengths = torch.tensor([3, 1, 2])
starts = lengths.cumsum(dim=0) - lengths
print("starts:", starts)

# %%
# .. check:: the starts begin ``split``'s pieces; integer and bool inputs give int64
pieces = torch.split(torch.arange(6), lengths.tolist())
assert [piece[0].item() for piece in pieces] == starts.tolist()
for dtype in (torch.bool, torch.uint8, torch.int8, torch.int32):
    ones = torch.ones(3, dtype=dtype)
    assert ones.cumsum(dim=0).dtype == ones.sum().dtype == torch.int64
with torch.random.fork_rng(devices=[]):
    x = torch.randn(6)
torch.testing.assert_close(x.cumsum(dim=0), torch.ones(6, 6).tril() @ x)

# %%
# Sums over indices: ``einsum``
# -----------------------------
# :func:`torch.einsum` takes a formula that names each dimension of each
# input with a letter. The letters after ``->`` make up the output, in that
# order. ``einsum`` multiplies the inputs' elements for each choice of
# letters. It then sums over each letter missing from the output. The matrix
# product is ``ij,jk->ik``: ``j`` is summed over. Below, it is written as
# Python loops, with ``einsum`` and with ``@``.
#
# :func:`torch.testing.assert_close` raises an error unless two tensors have
# the same shape, dtype and device. Their values must also be equal up to
# rounding. So each line that follows it checks one equality.
#
# .. detail:: Without ``->``
#
#    Without ``->``, a formula of letters alone outputs the letters that
#    appear once, sorted as Python's ``sorted`` sorts them: upper case first.
torch.manual_seed(0)
A, B = torch.randn(2, 3), torch.randn(3, 4)
loops = torch.zeros(2, 4)
for i in range(2):
    for k in range(4):
        loops[i, k] = sum(A[i, j] * B[j, k] for j in range(3))
torch.testing.assert_close(torch.einsum("ij,jk->ik", A, B), loops)
torch.testing.assert_close(torch.einsum("ij,jk->ik", A, B), A @ B)
print("ij,jk->ik shape", tuple(torch.einsum("ij,jk->ik", A, B).shape))

# %%
# .. check:: ``assert_close`` also compares shape, dtype and device
for other in (loops.double(), loops.reshape(4, 2), loops.to("meta")):
    try:
        torch.testing.assert_close(other, loops)
    except AssertionError:
        pass
    else:
        raise AssertionError(
            f"assert_close accepted a {other.dtype} {other.device} tensor"
        )

# %%
# .. check:: without ``->``, the output is the letters met once, sorted
torch.testing.assert_close(torch.einsum("kj,ji", B.T, A.T), A @ B)  # output "ik"
assert torch.einsum("aB", A).shape == (3, 2)  # "B" sorts before "a"

# %%
# In the picture, output cell ``[1, 2]`` sums the products of row 1 of ``A``
# with column 2 of ``B``: the orange cells. The site's helper
# ``draw_tensors`` draws each tensor as a grid, coloured by a tensor of group
# numbers of the same shape. ``plt.show()`` shows the figure.
row_1 = torch.tensor([[0], [1]]).expand(2, 3)
column_2 = torch.tensor([0, 0, 1, 0]).expand(3, 4)
cell = torch.zeros(2, 4, dtype=torch.long)
cell[1, 2] = 1
draw_tensors(
    [A, B, A @ B],
    ["A", "B", 'einsum("ij,jk->ik", A, B)'],
    groups=[row_1, column_2, cell],
)
plt.show()

# %%
# .. check:: cell ``[1, 2]`` sums row 1 of ``A`` times column 2 of ``B``
torch.testing.assert_close((A @ B)[1, 2], (A[1, :] * B[:, 2]).sum())

# %%
# A table of formulas
# -------------------
# The same notation covers transposes, sums, dot products, products of
# every pair, and batches of matrix products. Each line below pairs a formula
# with the operation it replaces, and checks that they agree. A few names
# are new here:
#
# - on two stacks of matrices, ``@`` multiplies them pair by pair;
# - :meth:`~torch.Tensor.diagonal` gives a square matrix's diagonal, and
#   :meth:`~torch.Tensor.trace` its sum;
# - ``.mT`` transposes each matrix of a stack.
#
# A letter repeated within one input takes that input's diagonal. The last
# formula reuses ``batch_a``. It takes the dot product of each row of
# ``batch_a`` with each row of ``keys``, batch by batch. There ``b`` counts
# the batch, ``q`` and ``k`` the rows paired, and ``d`` the elements summed
# over.
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
# .. check:: ``@`` multiplies stacks pair by pair; ``.mT`` transposes each matrix
for a, b, ab in zip(batch_a, batch_b, batch_a @ batch_b, strict=True):
    torch.testing.assert_close(a @ b, ab)
for k, k_t in zip(keys, keys.mT, strict=True):
    assert torch.equal(k.T, k_t)
assert square.trace() == square.diagonal().sum()
scores = torch.einsum("bqd,bkd->bqk", batch_a, keys)
torch.testing.assert_close(scores[4, 1, 3], batch_a[4, 1].dot(keys[4, 3]))

# %%
# Lengths that must match
# -----------------------
# A letter shared by two inputs pairs up their dimensions. Their lengths must
# match, or one of them must be 1, which is broadcast. Here ``j`` has length
# 1 in ``col`` and 3 in ``B``; with lengths 2 and 3, ``einsum`` raises an
# error.
col, wrong = torch.randn(2, 1), torch.randn(2, 2)
print("ij,jk->ik shape", tuple(torch.einsum("ij,jk->ik", col, B).shape))
try:
    torch.einsum("ij,jk->ik", wrong, B)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
else:
    raise AssertionError("einsum with sizes 2 and 3 for j did not raise")

# %%
# .. check:: a length of 1 is broadcast against its pair
torch.testing.assert_close(torch.einsum("ij,jk->ik", col, B), col.expand(2, 3) @ B)

# %%
# Summary
# -------
# - ``index_add_`` sums rows by group. For floats, ``scatter_reduce`` also
#   gives the means of non-empty groups.
# - ``cumsum`` gives running totals.
# - ``einsum`` names each dimension with a letter. The letters after ``->``
#   are the output; the others are summed over.
# - A letter shared by two inputs pairs their dimensions, whose lengths must
#   match or be 1.
# - A letter repeated within one input takes a diagonal.
#
# Exercises for selecting and rearranging: :ref:`exercises-tensors-05`.
