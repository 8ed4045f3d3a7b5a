"""
Arithmetic, broadcasting and reductions
=======================================

Compute with whole tensors at once: element by element, across shapes that
differ (broadcasting), and along one dimension (reductions), into new memory
or in place. After this page you can predict the shape of every result and
tell when a reduction will broadcast back against its input.
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
# Element-wise operations
# -----------------------
# Arithmetic operators, and functions such as :func:`torch.sqrt`, apply to
# each element of a :term:`tensor`, pairing elements at the same position; a
# Python number is used with every element. No loop is written in Python:
# compiled loops, :term:`kernels <kernel>`, run over all the elements, one or
# more per operation.
t1 = torch.arange(1, 5).reshape(2, 2)
t2 = torch.tensor([[1, 1], [0, 0]])
print(t1 + t2)
print(t1 + 1)
print(t1 * t2)
print(t1**2)
print(torch.sqrt(t1))

# %%
# .. check:: ``*`` pairs the elements at the same position
pairs = zip(t1.flatten().tolist(), t2.flatten().tolist(), strict=True)
assert (t1 * t2).flatten().tolist() == [a * b for a, b in pairs]

# %%
# The square roots come out as ``float32``, the default floating-point type,
# although ``t1`` holds integers: :func:`torch.sqrt`, like ``/``, gives
# floating point for integer inputs, which it converts first. The
# :term:`dtype` each operation gives is the subject of
# :ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py`.
#
# ``*`` is the element-wise product (:func:`torch.multiply`), not the matrix
# product, which is ``@`` (:func:`torch.matmul`): element ``[i, j]`` of
# ``t1 @ t2`` is the sum of row ``i`` of ``t1`` times column ``j`` of ``t2``.
print(t1 @ t2)

# %%
# .. check:: ``sqrt`` and ``/`` convert integers to the default dtype; ``@`` sums row times column
assert torch.sqrt(t1).dtype == (t1 / t1).dtype == torch.get_default_dtype()
assert torch.equal(torch.sqrt(t1), torch.sqrt(t1.to(torch.get_default_dtype())))
assert (t1 @ t2)[1, 0] == (t1[1, :] * t2[:, 0]).sum()

# %%
# A seeded example: ``uniform`` takes values in [-1, 1), stretched and shifted
# from the [0, 1) of :func:`torch.rand`; ``normal`` comes from the standard
# normal distribution (:func:`torch.normal`, mean 0 and standard deviation 1).
# Their element-wise product:
torch.manual_seed(1)
uniform = 2 * torch.rand(5, 2) - 1
normal = torch.normal(mean=0, std=1, size=(5, 2))
product = torch.multiply(uniform, normal)
print(product)

# %%
# .. check:: the product printed is ``uniform * normal``, with ``uniform`` in [-1, 1)
expected = torch.tensor(
    [
        [0.4426, -0.3114],
        [0.0660, -0.5970],
        [1.1249, 0.0150],
        [0.1569, 0.7107],
        [-0.0451, -0.0352],
    ]
)
assert torch.allclose(product, expected, rtol=0, atol=5e-5)
assert torch.equal(product, uniform * normal)
assert uniform.min() >= -1
assert uniform.max() < 1

# %%
# Comparisons
# -----------
# Comparison operators are element-wise too, and give ``bool`` tensors (the
# masks of :ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_selection.py`).
# Below, two shuffles of ``0, ..., 4`` from :func:`torch.randperm` are compared
# with a number and with each other. Summing a ``bool`` tensor counts its
# ``True`` values.
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

# %%
# ``==`` compares element by element; :func:`torch.equal` answers "same
# :term:`shape` and same values?" with one Python ``bool``. Floating-point
# results carry rounding errors, so compare them with a tolerance:
# :func:`torch.isclose` element by element, :func:`torch.allclose` for the
# whole tensor. In ``float64``, as with Python's own floats, ``0.1 + 0.2`` is
# not ``0.3``:
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
# Broadcasting: operations across shapes
# --------------------------------------
# Two tensors of different shapes can still meet, if their shapes are
# compatible: :term:`broadcasting`. PyTorch (like NumPy) lines the shapes up
# from the right; two sizes match if they are equal or if one of them is 1,
# and a missing :term:`dimension` counts as 1. Each size-1 dimension is then
# stretched to the other size. :func:`torch.broadcast_shapes` applies the
# rules to shapes alone:
for shapes in [((3, 1), (1, 4)), ((2, 3), (3,)), ((5, 1, 4), (3, 1)), ((2, 3), (2,))]:
    try:
        result = tuple(torch.broadcast_shapes(*shapes))
    except RuntimeError as error:
        result = f"RuntimeError: {error}"
    else:
        assert shapes != ((2, 3), (2,)), "3 against 2 should not broadcast"
    print(f"{shapes[0]!s:9} with {shapes[1]!s:7} -> {result}")

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

# %%
# .. check:: the sum is the two stretched tensors added element by element
assert torch.equal(table, column.expand(3, 4) + row.expand(3, 4))

# %%
# Stretching copies nothing: :meth:`~torch.Tensor.expand` returns a
# :term:`view` that reads the same elements again and again, from the memory
# of the original. Its :term:`stride` along the stretched dimension is 0
# (:ref:`sphx_glr_auto_examples_tensors_plot_07_views_and_strides.py` shows
# how strides work).
stretched = column.expand(3, 4)
print("same memory as column:", stretched.data_ptr() == column.data_ptr())
print("stride:", stretched.stride())

# %%
# .. check:: the stretched view reads ``column``'s memory, no more of it, with stride 0
assert stretched.data_ptr() == column.data_ptr()
assert stretched.untyped_storage().nbytes() == column.untyped_storage().nbytes()
assert stretched.stride()[1] == 0

# %%
# Reductions along a dimension
# ----------------------------
# A *reduction* combines many elements into one: :func:`torch.sum`,
# :func:`torch.mean`, :func:`torch.std`, :func:`torch.max` and others. With
# no dimension given they reduce the whole tensor to a tensor of
# :term:`rank` 0. ``dim=`` reduces along one dimension, which then disappears
# from the shape; PyTorch also accepts NumPy's name for it, ``axis=``. The
# column means of ``uniform`` reduce dimension 0, down the rows. Some
# reductions, :func:`torch.sum` and :func:`torch.mean` among them, also take a
# tuple of dimensions:
print(torch.ones(2, 3, 4).sum())
print(torch.mean(uniform, axis=0))
print(torch.ones(2, 3, 4).sum(dim=(0, 2)))

# %%
# .. check:: with no ``dim=`` a reduction gives rank 0; ``dim=`` drops that dimension, or each in a tuple
for reduce in (torch.sum, torch.mean, torch.std, torch.max):
    assert reduce(uniform).dim() == 0
assert torch.mean(uniform, axis=0).shape == uniform.shape[1:]
assert torch.allclose(
    torch.mean(uniform, axis=0), torch.tensor([-0.1373, 0.2028]), rtol=0, atol=5e-5
)
torch.testing.assert_close(torch.mean(uniform, axis=0), uniform.sum(dim=0) / 5)
cube = torch.arange(24.0).reshape(2, 3, 4)
assert torch.equal(cube.sum(dim=(0, 2)), cube.sum(dim=2).sum(dim=0))

# %%
# On a small matrix: with ``keepdim=True`` the reduced dimension stays, with
# size 1. :func:`torch.max` along a dimension returns two tensors: the
# largest values and their positions.
# :func:`torch.std` divides by ``n - 1`` by default (the sample standard
# deviation); ``correction=0`` divides by ``n``.
#
# .. detail:: Ties
#
#    If several elements share the largest value, :func:`torch.max` gives the
#    position of the first.
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
# .. check:: ``std`` divides by n - 1, or by n with ``correction=0``; ``max`` gives the first of ties
squares = (m - m.mean(dim=1, keepdim=True)) ** 2
torch.testing.assert_close(m.std(dim=1), (squares.sum(dim=1) / (3 - 1)).sqrt())
torch.testing.assert_close(m.std(dim=1, correction=0), squares.mean(dim=1).sqrt())
assert torch.tensor([2, 7, 7]).max(dim=0).indices == 1  # the first of two 7s

# %%
# In pictures: ``dim=0`` collapses the rows, leaving one value per column;
# ``dim=1`` collapses the columns, leaving one value per row, drawn as a
# column only with ``keepdim=True``. Colours follow the cells that are added
# up.
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
# ``keepdim=True`` lets a reduction broadcast back against the tensor it came
# from. Dividing each row by its sum needs the sums as a ``(2, 1)`` column;
# the ``(2,)`` vector from ``keepdim=False`` is lined up with the *last*
# dimension, of size 3, and the division fails (:ref:`its atlas entry
# <error-broadcast-sizes>` has the fix):
shares = m / m.sum(dim=1, keepdim=True)
print(shares)
try:
    m / m.sum(dim=1)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
else:
    raise AssertionError("m / m.sum(dim=1) did not raise")

# %%
# .. check:: divided by its ``keepdim=True`` sum, each row sums to 1
torch.testing.assert_close(shares.sum(dim=1), torch.ones(2))

# %%
# With a square matrix the same mistake raises no error: the ``(2,)`` sums
# line up with the columns, and each *column* ``j`` is divided by the sum of
# row ``j``. With ``keepdim=True`` the rows sum to 1; without it they do not,
# unless every row has the same sum: then both divide by one number, and the
# mistake hides until rows with different sums come along.
square = torch.tensor([[1.0, 3.0], [1.0, 1.0]])
print("keepdim=True: ", (square / square.sum(dim=1, keepdim=True)).sum(dim=1))
print("keepdim=False:", (square / square.sum(dim=1)).sum(dim=1))

# %%
# .. check:: without ``keepdim``, column ``j`` is divided by row ``j``'s sum; equal sums hide it
assert torch.equal(square / square.sum(dim=1), square / square.sum(dim=1)[None, :])
assert not torch.allclose((square / square.sum(dim=1)).sum(dim=1), torch.ones(2))
even = torch.tensor([[1.0, 3.0], [2.0, 2.0]])  # both rows sum to 4
assert torch.equal(even / even.sum(dim=1), even / even.sum(dim=1, keepdim=True))

# %%
# In-place operations
# -------------------
# A method whose name ends in ``_`` changes the tensor it is called on instead
# of returning a new one: :meth:`~torch.Tensor.add_`,
# :meth:`~torch.Tensor.zero_`, :meth:`~torch.Tensor.mul_`,
# :meth:`~torch.Tensor.clamp_` and many more. It also returns that same
# tensor, so calls can be chained.
counts = torch.tensor([1, 2])
counts.add_(torch.tensor([1, 1]))
print(counts)
print(counts.zero_().add_(2).mul_(3))

# %%
# .. check:: an in-place method returns the tensor it changed
assert counts.add_(1) is counts

# %%
# :meth:`~torch.Tensor.data_ptr` gives the address of a tensor's first
# element. Printing addresses would make this page change on every run, so it
# prints only whether they are equal. An in-place operation, and ``+=``, keep
# the memory; ``t = t + 1`` makes a new tensor in new memory and then points
# the name ``t`` at it.
t = torch.ones(1)
address = t.data_ptr()
t.add_(1)
same = {"t.add_(1)": t.data_ptr() == address}
t += 1
same["t += 1"] = t.data_ptr() == address
t = t + 1
same["t = t + 1"] = t.data_ptr() == address
for title, kept in same.items():
    print(f"after {title + ':':10} same memory: {kept}")

# %%
# .. check:: ``add_`` and ``+=`` keep the memory; ``t = t + 1`` does not
assert list(same.values()) == [True, True, False]

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

# %%
# .. check:: the ``add_`` on the view reached ``base``; the reassignment did not
assert base.tolist() == [[5.0, 5.0, 5.0], [0.0, 0.0, 0.0]]  # add_ showed through
assert first_row.tolist() == [6.0, 6.0, 6.0]  # the + 1 did not reach base

# %%
# In-place operations save the memory of a new result, but they cannot change
# the dtype: an integer tensor cannot take a float result in place
# (:ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py` shows the
# error).
#
# .. detail:: Automatic differentiation
#
#    Automatic differentiation, which computes :term:`gradients <gradient>`,
#    refuses some in-place operations, because they overwrite values it still
#    needs.

# %%
# .. check:: an integer tensor refuses a float in place, and autograd refuses an overwritten output
messages = []
for tensor, value in [(torch.tensor([1, 2]), 0.5), (torch.ones(2), 1)]:
    try:
        tensor.add_(value)
    except RuntimeError as error:
        messages.append(str(error))
    else:
        assert tensor.is_floating_point(), "an integer tensor took a float"
assert len(messages) == 1
assert "can't be cast to the desired output type Long" in messages[0]
leaf = torch.ones(2, requires_grad=True)
exponential = leaf.exp()  # exp keeps its output for the backward pass
exponential.add_(1)
try:
    exponential.sum().backward()
except RuntimeError as error:
    messages.append(str(error))
else:
    raise AssertionError("exponential.sum().backward() did not raise")
assert "modified by an inplace operation" in messages[-1]

# %%
# Summary
# -------
# - Operators and functions such as :func:`torch.sqrt` work element by
#   element; ``*`` multiplies elements, ``@`` multiplies matrices.
# - Comparisons give ``bool`` tensors; compare floats with
#   :func:`torch.isclose` or :func:`torch.allclose`.
# - Shapes broadcast when, aligned from the right, each pair of sizes is
#   equal or contains a 1; the stretching copies nothing.
# - Reductions take ``dim=``; ``keepdim=True`` keeps the shape ready to
#   broadcast back.
# - A trailing ``_`` means in place: same memory, visible through every view.
#
# Next: :ref:`sphx_glr_auto_examples_tensors_plot_05_selecting_and_rearranging.py`
# chooses, gathers, scatters and sorts elements.
#
# Exercises for this page: :ref:`exercises-tensors-04`.
