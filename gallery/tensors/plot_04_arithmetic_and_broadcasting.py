"""
Arithmetic, broadcasting and reductions
=======================================

Compute with whole tensors at once: element by element, across two shapes
that differ, and along one dimension. After this page you can predict the
shape of each result, and change a tensor in place.

**Before this page:**
:ref:`sphx_glr_auto_examples_tensors_plot_01_creating_tensors.py`,
:ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py` and
:ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_selection.py`.
"""

# %%
# Every page starts by saying what computed it. ``environment_summary`` and
# ``draw_tensors`` are the site's own helpers. The first describes the
# machine; the second draws tensors as grids of cells.
import matplotlib.pyplot as plt
import torch

from tutorial_utils.environment import environment_summary
from tutorial_utils.grids import draw_tensors

print(environment_summary(torch.device("cpu")))

# %%
# Element-wise operations
# -----------------------
# The operators ``+``, ``-``, ``*``, ``/`` and ``**`` are :term:`element-wise`.
# On two tensors of one :term:`shape`, they pair the elements at the same
# position. A Python number meets every element. :func:`torch.sqrt` and many
# other functions also work element by element. Below,
# :meth:`~torch.Tensor.reshape` arranges four values as 2 rows of 2.
t1 = torch.arange(1, 5).reshape(2, 2)
t2 = torch.tensor([[1, 1], [0, 0]])
print(t1 + t2)
print(t1 + 1)
print(t1 * t2)
print(t1**2)
print(torch.sqrt(t1))

# %%
# .. check:: ``+``, ``-`` and ``*`` pair the elements at the same position
pairs = list(zip(t1.flatten().tolist(), t2.flatten().tolist(), strict=True))
assert (t1 * t2).flatten().tolist() == [a * b for a, b in pairs]
assert (t1 + t2).flatten().tolist() == [a + b for a, b in pairs]
assert (t1 - t2).flatten().tolist() == [a - b for a, b in pairs]
assert (t1**2 + 1).flatten().tolist() == [a**2 + 1 for a, _ in pairs]
assert t1.flatten().tolist() == [1, 2, 3, 4]

# %%
# ``sqrt`` gave floats from integers. Like ``/``, it first converts them to the
# default floating-point :term:`dtype`.
#
# ``*`` is not the matrix product. For two matrices, that is ``@``, or
# :func:`torch.matmul`. Element ``[i, j]`` of ``t1 @ t2`` is the sum of row
# ``i`` of ``t1`` times column ``j`` of ``t2``.
print(t1 @ t2)

# %%
# .. check:: ``sqrt`` and ``/`` give the default dtype; ``@`` is row times column
assert torch.sqrt(t1).dtype == (t1 / t1).dtype == torch.get_default_dtype()
assert torch.equal(torch.sqrt(t1), torch.sqrt(t1.to(torch.get_default_dtype())))
assert torch.equal(t1 @ t2, torch.matmul(t1, t2))
for i, j in [(0, 0), (0, 1), (1, 0), (1, 1)]:
    assert (t1 @ t2)[i, j] == (t1[i, :] * t2[:, j]).sum()

# %%
# A seeded example: ``2 * torch.rand(5, 2) - 1`` stretches the range [0, 1) of
# :func:`torch.rand` to [-1, 1). :func:`torch.normal` draws from a normal distribution
# with the ``mean`` and ``std`` it is given. :func:`torch.multiply` is the function form
# of ``*``.
torch.manual_seed(1)
uniform = 2 * torch.rand(5, 2) - 1
normal = torch.normal(mean=0, std=1, size=(5, 2))
product = torch.multiply(uniform, normal)
print(product)

# %%
# .. check:: the product printed is ``uniform * normal``, ``uniform`` in [-1, 1)
expected = torch.tensor(
    [0.4426, -0.3114, 0.0660, -0.5970, 1.1249, 0.0150, 0.1569, 0.7107, -0.0451, -0.0352]
).reshape(5, 2)
assert torch.allclose(product, expected, rtol=0, atol=5e-5)
assert torch.equal(product, uniform * normal)
assert uniform.min() >= -1
assert uniform.max() < 1

# %%
# .. check:: ``torch.normal`` draws with the ``mean`` and ``std`` it is given
with torch.random.fork_rng(devices=[]):
    drawn = torch.normal(mean=3, std=2, size=(10**5,))
assert abs(drawn.mean() - 3) < 0.05
assert abs(drawn.std() - 2) < 0.05

# %%
# Comparisons
# -----------
# Comparison operators are element-wise too. They give ``bool`` tensors, the masks of
# :ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_selection.py`. Below, two
# shuffles from :func:`torch.randperm` meet a number and each other. Summing a ``bool``
# tensor counts its ``True`` values. ``.any()`` tells whether at least one is ``True``.
torch.manual_seed(0)
p1 = torch.randperm(5)
p2 = torch.randperm(5)
print(p1, p2)
print("p1 > 3: ", p1 > 3)
print("p1 < p2:", p1 < p2)
print("how many p1 < p2:", (p1 < p2).sum().item(), " any:", (p1 < p2).any().item())

# %%
# .. check:: summing a ``bool`` tensor counts its ``True`` values
assert (p1 < p2).sum() == (p1 < p2).tolist().count(True)
assert (p1 > 3).dtype == torch.bool
assert (p1 > 3).tolist() == [v > 3 for v in p1.tolist()]

# %%
# :func:`torch.equal` gives one Python ``bool``: do the shapes match, and does ``==``
# hold everywhere? :meth:`~torch.Tensor.clone` makes a copy.
#
# Floats can carry rounding errors, so compare them with a tolerance:
# :func:`torch.isclose` element by element, :func:`torch.allclose` for the
# whole tensor. In ``float64``, as in Python, ``0.1 + 0.2`` is not ``0.3``:
tenths = torch.tensor([0.1, 0.2], dtype=torch.float64)
three_tenths = torch.tensor(0.3, dtype=torch.float64)
print("0.1 + 0.2 == 0.3:       ", (tenths.sum() == three_tenths).item())
print("isclose(0.1 + 0.2, 0.3):", torch.isclose(tenths.sum(), three_tenths).item())
print("torch.equal(p1, p1.clone()):", torch.equal(p1, p1.clone()))
print("torch.equal(p1, p1[:4]):    ", torch.equal(p1, p1[:4]))

# %%
# .. check:: in ``float64``, as with Python's floats, 0.1 + 0.2 == 0.3 is false
assert (tenths.sum() == three_tenths).item() == (0.1 + 0.2 == 0.3)

# %%
# .. check:: ``equal`` is: same shape, and ``==`` everywhere
nan = float("nan")
ones, floats, nans = torch.tensor([1, 1]), torch.tensor([1.0, 1.0]), torch.tensor([nan])
for a, b in [(p1, p2), (p1, p1[:4]), (ones, ones[:1]), (ones, floats), (nans, nans)]:
    assert torch.equal(a, b) == (a.shape == b.shape and bool((a == b).all()))

# %%
# Broadcasting: operations across shapes
# --------------------------------------
# An element-wise operation also takes two tensors of different shapes, if
# :term:`broadcasting` can match them:
#
# 1. Line the two shapes up from the right.
# 2. Count each missing :term:`dimension` of the shorter shape as size 1.
# 3. Each pair of sizes must be equal, or one of them must be 1.
# 4. A size of 1 is stretched to the other size.
#
# :func:`torch.broadcast_shapes` applies the rule to shapes alone. It raises
# a ``RuntimeError`` when a pair breaks it.
for shapes in [((3, 1), (1, 4)), ((2, 3), (3,)), ((5, 1, 4), (3, 1)), ((2, 3), (2,))]:
    try:
        shape = torch.broadcast_shapes(*shapes)
    except RuntimeError:
        result = "RuntimeError"
    else:
        result = tuple(shape)
    print(f"{shapes[0]!s:9} with {shapes[1]!s:7} -> {result}")

# %%
# .. check:: ``broadcast_shapes`` and ``+`` follow the four steps
sizes = [(), (0,), (1,), (2,), (3,), (2, 1), (1, 3), (2, 3), (3, 2), (4, 1, 3)]
for first in sizes:
    for second in sizes:
        rank = max(len(first), len(second))
        padded = (1,) * (rank - len(first)) + first
        padded_second = (1,) * (rank - len(second)) + second
        aligned = list(zip(padded, padded_second, strict=True))
        fits = all(a == b or 1 in (a, b) for a, b in aligned)
        wanted = tuple(b if a == 1 else a for a, b in aligned) if fits else None
        try:
            got = tuple(torch.broadcast_shapes(first, second))
        except RuntimeError:
            got = added = None
        else:  # where the shapes broadcast, ``+`` must not raise
            added = tuple((torch.ones(first) + torch.ones(second)).shape)
        assert got == added == wanted, (first, second)

# %%
# The last pair fails: from the right, 3 meets 2. The first pair is the
# classic one: a column plus a row gives a table. :meth:`~torch.Tensor.expand` shows
# each input stretched to ``(3, 4)``. The ``groups=`` argument colours the cells. Its
# numbers 0, 1 and 2 pick blue for the column, orange for the row, green for the sum.
column = torch.tensor([[0], [10], [20]])
row = torch.tensor([[1, 2, 3, 4]])
table = column + row
print(table)
blue, orange = torch.zeros(3, 4, dtype=torch.long), torch.ones(3, 4, dtype=torch.long)
draw_tensors(
    [column, row, column.expand(3, 4), row.expand(3, 4), table],
    ["column (3, 1)", "row (1, 4)", "column stretched", "row stretched", "sum (3, 4)"],
    groups=[blue[:, :1], orange[:1], blue, orange, blue + 2],
)
plt.show()

# %%
# .. check:: the sum is the two stretched tensors added element by element
assert torch.equal(table, column.expand(3, 4) + row.expand(3, 4))

# %%
# ``expand`` copies nothing: it returns a :term:`view` of the original's
# memory. :meth:`~torch.Tensor.stride` gives, for each dimension, how many
# elements to step in memory to move one place along it. Along the stretched
# dimension this :term:`stride` is 0, so one element is read again and again.
stretched = column.expand(3, 4)
print("column stride:   ", column.stride())
print("stretched stride:", stretched.stride())

# %%
# .. check:: the stretched view reads ``column``'s memory, with stride 0
assert stretched.data_ptr() == column.data_ptr()
assert stretched.untyped_storage().nbytes() == column.untyped_storage().nbytes()
assert stretched.stride()[1] == 0

# %%
# Reductions along a dimension
# ----------------------------
# A :term:`reduction` such as :func:`torch.sum`, :func:`torch.mean`, :func:`torch.std`
# or :func:`torch.max` combines many elements into one. Each is also a method:
# ``t.sum()`` is ``torch.sum(t)``. With no dimension given, they give a tensor of
# :term:`rank` 0. With ``dim=``, they reduce along that dimension. It drops out of the
# shape. ``sum``, ``mean`` and ``std`` take a tuple of dimensions too.
# The column means of ``uniform`` reduce ``dim=0``.
print(torch.ones(2, 3, 4).sum())
print(torch.mean(uniform, dim=0))
print(torch.ones(2, 3, 4).sum(dim=(0, 2)))

# %%
# .. check:: no ``dim=`` gives rank 0; ``dim=`` drops each dimension it names
for reduce in (torch.sum, torch.mean, torch.std, torch.max):
    assert reduce(uniform).dim() == 0
    assert torch.equal(reduce(uniform), getattr(uniform, reduce.__name__)())
assert torch.mean(uniform, dim=0).shape == uniform.shape[1:]
assert torch.allclose(
    torch.mean(uniform, axis=0), torch.tensor([-0.1373, 0.2028]), rtol=0, atol=5e-5
)
torch.testing.assert_close(torch.mean(uniform, dim=0), uniform.sum(dim=0) / 5)
cube = torch.arange(24.0).reshape(2, 3, 4)
assert torch.equal(cube.sum(dim=(0, 2)), cube.sum(dim=2).sum(dim=0))
assert torch.equal(cube.mean(dim=(0, 2)), cube.sum(dim=(0, 2)) / 8)
assert cube.std(dim=(0, 2)).shape == (3,)

# %%
# With ``keepdim=True`` the reduced dimension stays, with size 1. Along a dimension,
# :func:`torch.max` returns a pair. Its ``values`` are the largest values, and its
# ``indices`` their positions. ``correction=0`` changes how :func:`torch.std` divides.
#
# .. detail:: Ties, and the ``std`` formula
#
#    If several elements share the largest value, :func:`torch.max` gives the
#    position of the first. :func:`torch.std` divides the sum of squared distances
#    from the mean by ``n - 1``, then takes the root. ``correction=0`` divides by ``n``.
m = torch.tensor([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
reductions = {
    "m.sum(dim=0)": m.sum(dim=0),
    "m.sum(dim=1)": m.sum(dim=1),
    "m.sum(dim=1, keepdim=True)": m.sum(dim=1, keepdim=True),
    "m.std(dim=1)": m.std(dim=1),
    "m.std(dim=1, correction=0)": m.std(dim=1, correction=0),
    "m.max(dim=1).values": m.max(dim=1).values,
    "m.max(dim=1).indices": m.max(dim=1).indices,
}
for title, result in reductions.items():
    print(f"{title:27} shape {tuple(result.shape)!s:7} {result}")

# %%
# .. check:: ``keepdim`` keeps size 1; ``std`` uses n - 1; ``max`` picks the first tie
assert m.sum(dim=0, keepdim=True).shape == (1, 3)
assert m.sum(dim=1, keepdim=True).shape == (2, 1)
squares = (m - m.mean(dim=1, keepdim=True)) ** 2
torch.testing.assert_close(m.std(dim=1), (squares.sum(dim=1) / (3 - 1)).sqrt())
torch.testing.assert_close(m.std(dim=1, correction=0), squares.mean(dim=1).sqrt())
assert torch.tensor([2, 7, 7]).max(dim=0).indices == 1  # the first of two 7s
for i, (value, index) in enumerate(zip(*m.max(dim=1), strict=True)):
    assert value == m[i].max() == m[i, index]

# %%
# In pictures: ``dim=0`` leaves one value per column, and ``dim=1`` one per row.
# Colours follow the cells that are added up: ``by_column`` numbers the columns of
# ``m`` 0 to 2. ``by_row`` numbers its rows 3 and 4, so rows get colours of their own.
by_column = torch.arange(3).expand(2, 3)
by_row = torch.tensor([[3], [4]]).expand(2, 3)
draw_tensors(
    [m, m.sum(dim=0), m, m.sum(dim=1, keepdim=True)],
    ["m", "sum(dim=0)", "m", "sum(dim=1, keepdim=True)"],
    groups=[by_column, torch.arange(3), by_row, torch.tensor([[3], [4]])],
)
plt.show()

# %%
# .. check:: each sum adds up the cells drawn in its colour
for j in range(3):
    assert m.sum(dim=0)[j] == m[by_column == j].sum()
for i, colour in enumerate([3, 4]):
    assert m.sum(dim=1, keepdim=True)[i, 0] == m[by_row == colour].sum()

# %%
# ``keepdim=True`` lets a reduction broadcast back against its input. To divide each row
# of ``m`` by its sum, the sums must be a ``(2, 1)`` column. Without ``keepdim`` they
# have shape ``(2,)``. That lines up with the *last* dimension, of size 3, so the
# division fails. :ref:`Its atlas entry <error-broadcast-sizes>` has the fix.
shares = m / m.sum(dim=1, keepdim=True)
print(shares)
try:
    m / m.sum(dim=1)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
else:
    raise AssertionError("m / m.sum(dim=1) broadcast")

# %%
# .. check:: with ``keepdim=True`` each row sums to 1; without, ``m`` fails
torch.testing.assert_close(shares.sum(dim=1), torch.ones(2))
try:
    m / m.sum(dim=1)
except RuntimeError:
    pass
else:
    raise AssertionError("m / m.sum(dim=1) did not raise")

# %%
# A square matrix hides this mistake. Its ``(2,)`` sums line up with the
# columns, so column ``j`` is divided by the sum of row ``j``. No error is
# raised, but here the rows no longer sum to 1. If all rows have one sum, both
# ways agree, and the bug waits for other data.
square = torch.tensor([[1.0, 3.0], [1.0, 1.0]])
print("keepdim=True: ", (square / square.sum(dim=1, keepdim=True)).sum(dim=1))
print("keepdim=False:", (square / square.sum(dim=1)).sum(dim=1))

# %%
# .. check:: without ``keepdim``, column j is divided by row j's sum
assert torch.equal(square / square.sum(dim=1), square / square.sum(dim=1)[None, :])
assert not torch.allclose((square / square.sum(dim=1)).sum(dim=1), torch.ones(2))
even = torch.tensor([[1.0, 3.0], [2.0, 2.0]])  # both rows sum to 4
assert torch.equal(even / even.sum(dim=1), even / even.sum(dim=1, keepdim=True))

# %%
# In-place operations
# -------------------
# A tensor method whose name ends in ``_`` is an :term:`in-place operation`.
# It changes the tensor it is called on, instead of making a new one:
# :meth:`~torch.Tensor.add_`, :meth:`~torch.Tensor.mul_`, and
# :meth:`~torch.Tensor.zero_`, which writes zeros. It returns that same
# tensor, so calls can be chained.
counts = torch.tensor([1, 2])
counts.add_(torch.tensor([1, 1]))
print(counts)
print(counts.zero_().add_(2).mul_(3))

# %%
# .. check:: an in-place method returns the tensor it changed
assert counts.add_(1) is counts
for change in (counts.mul_, counts.clamp_, counts.fill_):
    assert change(2) is counts

# %%
# ``t += 1`` is in place too. ``t = t + 1`` is not: it makes a new tensor,
# then points the name ``t`` at it. The difference shows through a second
# name, or a view such as the row ``base[0]``. An in-place change reaches
# every name and every view; a reassignment reaches none of them.
base = torch.zeros(2, 3)
first_row = base[0]
first_row.add_(5)
first_row = first_row + 1
print(base)
print(first_row)

# %%
# .. check:: ``add_`` and ``+=`` on a view reach ``base``; reassignment does not
assert base.tolist() == [[5.0, 5.0, 5.0], [0.0, 0.0, 0.0]]  # add_ showed through
assert first_row.tolist() == [6.0, 6.0, 6.0]  # the + 1 did not reach base
grid = torch.zeros(2, 3)
row_view = grid[1]
row_view += 2
assert grid.tolist() == [[0.0, 0.0, 0.0], [2.0, 2.0, 2.0]]

# %%
# :ref:`sphx_glr_auto_examples_tensors_plot_54_in_place_operations.py` goes
# further: memory, dtypes and broadcasting in place.
#
# Summary
# -------
# - ``+``, ``-``, ``*``, ``/``, ``**`` and functions such as :func:`torch.sqrt`
#   work element by element. ``@`` multiplies matrices.
# - Comparisons give ``bool`` tensors. Compare floats with
#   :func:`torch.isclose` or :func:`torch.allclose`.
# - Shapes broadcast when, lined up from the right, each pair of sizes is
#   equal or contains a 1.
# - Reductions take ``dim=``. ``keepdim=True`` keeps the shape ready to
#   broadcast back.
# - A trailing ``_`` means in place: seen through every name and view.
#
# Next: :ref:`sphx_glr_auto_examples_tensors_plot_05_selecting_and_rearranging.py`
# chooses, gathers, scatters and sorts elements.
#
# Exercises for this page: :ref:`exercises-tensors-04`.
