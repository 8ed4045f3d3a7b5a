"""
Exercises: tensors
==================

Practise what the tensors section taught, one part per lesson. Each exercise
asks for a few named results, and its check says what, if anything, is wrong.

**Before this page:** the lessons that the parts below are named after:
:ref:`sphx_glr_auto_examples_tensors_plot_01_creating_tensors.py`,
:ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py`,
:ref:`sphx_glr_auto_examples_tensors_plot_04_arithmetic_and_broadcasting.py`,
:ref:`sphx_glr_auto_examples_tensors_plot_05_selecting_and_rearranging.py`,
:ref:`sphx_glr_auto_examples_tensors_plot_06_splitting_and_joining.py`,
:ref:`sphx_glr_auto_examples_tensors_plot_07_views_and_strides.py` and
:ref:`sphx_glr_auto_examples_tensors_plot_08_tensors_and_numpy.py`. The exercises
on indexing are at the end of
:ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_selection.py`.
"""

# %%
# On the web page, each solution hides behind a toggle. In the notebook, an empty
# cell takes its place: type the inputs the exercise gives, then your answer. A
# failed check raises an ``AssertionError`` naming the exercise and the problem.
import numpy as np
import torch

from tutorial_utils.environment import environment_summary

print(environment_summary("cpu"))

# %%
# .. _exercises-tensors-01:
#
# Creating tensors
# ----------------
# **Exercise 1.** Make ``points``: a :term:`tensor` of 5 evenly spaced values from 0
# to 1, both ends included, of :term:`dtype` ``float64``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
points = torch.linspace(0, 1, 5, dtype=torch.float64)
# %%
# .. raw:: html
#
#    </details>
assert isinstance(points, torch.Tensor), "Exercise 1: points is not a tensor"
assert points.dtype == torch.float64, f"Exercise 1: dtype {points.dtype}, not float64"
steps = [i / 4 for i in range(5)]
assert points.tolist() == steps, f"Exercise 1: {points.tolist()}, not {steps}"
print("Exercise 1: right")
# %%
# **Exercise 2.** Write ``throw()``: a function that returns 1000 throws of a die,
# whole numbers from 1 to 6. Draw them with :func:`torch.randint`, from the
# :term:`seed` 7, so that every call returns the same throws.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>


# %%
def throw():
    # Its own generator leaves the default one alone; torch.manual_seed(7) passes too.
    generator = torch.Generator().manual_seed(7)
    return torch.randint(1, 7, (1000,), generator=generator)  # 7 is left out


# %%
# .. raw:: html
#
#    </details>
assert callable(throw), "Exercise 2: throw is not a function"
first, second = throw(), throw()
assert isinstance(first, torch.Tensor), "Exercise 2: throw() returns no tensor"
assert first.shape == (1000,), f"Exercise 2: shape {tuple(first.shape)}, not (1000,)"
assert second is not first, "Exercise 2: both calls return one tensor: draw in throw()"
assert torch.equal(first, second), "Exercise 2: the two calls differ: seed in throw()"
low, high = first.min().item(), first.max().item()
assert (low, high) == (1, 6), f"Exercise 2: throws from {low} to {high}, not 1 to 6"
assert first[:6].tolist() == [4, 5, 2, 3, 2, 4], "Exercise 2: not the throws of seed 7"
print("Exercise 2: right")
# %%
# .. check:: from seed 7, ``torch.randint`` throws a die as 4, 5, 2, 3, 2, 4 first
seeded = torch.Generator().manual_seed(7)
assert torch.randint(1, 7, (1000,), generator=seeded)[:6].tolist() == [4, 5, 2, 3, 2, 4]

# %%
# .. _exercises-tensors-02:
#
# Data types
# ----------
# **Exercise 3.** Make ``rounded``: ``torch.tensor([-1.7, 0.5, 2.5, 3.7])`` rounded to
# whole numbers, halves to the even neighbour, as ``int64``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
rounded = torch.tensor([-1.7, 0.5, 2.5, 3.7]).round().to(torch.int64)
# %%
# .. raw:: html
#
#    </details>
assert isinstance(rounded, torch.Tensor), "Exercise 3: rounded is not a tensor"
assert rounded.dtype == torch.int64, f"Exercise 3: dtype {rounded.dtype}, not int64"
values, got = [-1.7, 0.5, 2.5, 3.7], rounded.tolist()
assert got != [int(v) for v in values], f"Exercise 3: {got} drops the fractions"
nearest = [round(v) for v in values]  # Python's round also takes halves to even
assert got == nearest, f"Exercise 3: {got}, not {nearest}"
print("Exercise 3: right")
# %%
# **Exercise 4.** For ``pixels = torch.tensor([200, 100, 30], dtype=torch.uint8)``,
# make ``brighter``: each pixel plus 100, capped at 255, still ``uint8``. Then predict
# ``wrapped``, the list ``(pixels + 100).tolist()`` returns, and type it in.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
pixels = torch.tensor([200, 100, 30], dtype=torch.uint8)
# In int64, 200 + 100 cannot wrap around. Clamp, then convert back to uint8.
brighter = (pixels.long() + 100).clamp(0, 255).to(torch.uint8)
wrapped = [44, 200, 130]  # uint8 wraps around: 300 - 256 is 44
# %%
# .. raw:: html
#
#    </details>
given = torch.tensor([200, 100, 30], dtype=torch.uint8)
wraps, capped = (given + 100).tolist(), [min(v + 100, 255) for v in given.tolist()]
assert isinstance(brighter, torch.Tensor), "Exercise 4: brighter is not a tensor"
assert brighter.dtype == torch.uint8, f"Exercise 4: dtype {brighter.dtype}, not uint8"
assert brighter.tolist() != wraps, "Exercise 4: brighter holds the wrapped sums"
assert brighter.tolist() == capped, f"Exercise 4: brighter should be {capped}"
assert isinstance(wrapped, (list, tuple)), "Exercise 4: wrapped is not a list"
assert list(wrapped) == wraps, f"Exercise 4: wrapped {list(wrapped)} is wrong"
print("Exercise 4: right")
# %%
# .. check:: the solution's comment on ``uint8`` holds
by_hand = [(v + 100) % 256 for v in [200, 100, 30]]
assert (torch.tensor([200, 100, 30], dtype=torch.uint8) + 100).tolist() == by_hand

# %%
# .. _exercises-tensors-04:
#
# Arithmetic, broadcasting and reductions
# ---------------------------------------
# **Exercise 5.** Make ``table``, of :term:`shape` ``(9, 9)``: element ``[i, j]`` is
# ``(i + 1) * (j + 1)``. Use one :func:`torch.arange` and :term:`broadcasting`, with
# no loop. ``reshape`` can turn the numbers into a column.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
numbers = torch.arange(1, 10)
table = numbers.reshape(9, 1) * numbers  # (9, 1) with (9,) gives (9, 9)
# %%
# .. raw:: html
#
#    </details>
assert isinstance(table, torch.Tensor), "Exercise 5: table is not a tensor"
assert table.shape == (9, 9), f"Exercise 5: shape {tuple(table.shape)}, not (9, 9)"
bad = [(i, j) for i in range(9) for j in range(9) if table[i, j] != (i + 1) * (j + 1)]
assert not bad, f"Exercise 5: {len(bad)} elements are wrong, the first at {bad[0]}"
print("Exercise 5: right")
# %%
# **Exercise 6.** For ``m = torch.tensor([[1.0, 2, 6], [0, 4, 8], [3, 3, 3]])``, make
# ``centred``: each row minus its mean. Why does ``m - m.mean(dim=1)`` not raise?
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
m = torch.tensor([[1.0, 2, 6], [0, 4, 8], [3, 3, 3]])
centred = m - m.mean(dim=1, keepdim=True)  # the means as a (3, 1) column
# Without keepdim, column j loses row j's mean: 3 means fit 3 columns; 2 would not.
# %%
# .. raw:: html
#
#    </details>
rows = [[1.0, 2, 6], [0, 4, 8], [3, 3, 3]]
assert isinstance(centred, torch.Tensor), "Exercise 6: centred is not a tensor"
got, expected = centred.tolist(), [[v - sum(r) / 3 for v in r] for r in rows]
by_column = [[v - sum(rows[j]) / 3 for j, v in enumerate(row)] for row in rows]
assert got != by_column, "Exercise 6: column j lost row j's mean; try keepdim=True"
assert got == expected, f"Exercise 6: {got}, not {expected}"
print("Exercise 6: right")
# %%
# .. check:: the solution's comment on ``m - m.mean(dim=1)`` holds
assert (torch.tensor(rows) - torch.tensor(rows).mean(dim=1)).tolist() == by_column
try:
    torch.ones(2, 3) - torch.ones(2, 3).mean(dim=1)  # 2 means, 3 columns
except RuntimeError:
    pass
else:
    raise AssertionError("(2, 3) minus shape (2,) did not raise")

# %%
# .. _exercises-tensors-05:
#
# Selecting and rearranging
# -------------------------
# **Exercise 7.** For ``logits = torch.tensor([[0.5, 1.5, -1], [2, 0, 0.25]])`` and
# ``labels = torch.tensor([2, 0])``, make ``picked``: each row's score at its label,
# with ``gather``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
logits, labels = torch.tensor([[0.5, 1.5, -1], [2, 0, 0.25]]), torch.tensor([2, 0])
# squeeze(1) is optional: the check also takes the (2, 1) column.
picked = logits.gather(1, labels.unsqueeze(1)).squeeze(1)
# %%
# .. raw:: html
#
#    </details>
assert isinstance(picked, torch.Tensor), "Exercise 7: picked is not a tensor"
scores = [row[k] for row, k in zip([[0.5, 1.5, -1], [2, 0, 0.25]], [2, 0], strict=True)]
message = f"Exercise 7: {picked.tolist()}, not {scores}, as shape (2,) or (2, 1)"
assert picked.tolist() in (scores, [[s] for s in scores]), message
print("Exercise 7: right")
# %%
# **Exercise 8.** Group the values ``amounts = torch.tensor([5.0, 1, 4, 2, 8, 6, 3])``
# by ``group = torch.tensor([0, 2, 1, 0, 2, 1, 3])``, numbers from 0 to 3. With no
# loop, make ``totals``, a tensor of the 4 group sums. Then make ``top2``: the numbers
# of the 2 groups with the largest sums, largest first.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
amounts = torch.tensor([5.0, 1, 4, 2, 8, 6, 3])
group = torch.tensor([0, 2, 1, 0, 2, 1, 3])
totals = torch.zeros(4).scatter_add_(0, group, amounts)
top2 = totals.topk(2).indices
# %%
# .. raw:: html
#
#    </details>
given = list(zip([5, 1, 4, 2, 8, 6, 3], [0, 2, 1, 0, 2, 1, 3], strict=True))
sums = [sum(amount for amount, number in given if number == k) for k in range(4)]
assert isinstance(totals, torch.Tensor), "Exercise 8: totals is not a tensor"
assert totals.tolist() == sums, f"Exercise 8: totals {totals.tolist()}, not {sums}"
largest = sorted(range(4), key=lambda k: sums[k], reverse=True)[:2]
top = top2.tolist() if isinstance(top2, torch.Tensor) else top2
assert top == largest, f"Exercise 8: top2 {top}, not the 2 largest groups' numbers"
print("Exercise 8: right")
# %%
# .. _exercises-tensors-06:
#
# Splitting and joining
# ---------------------
# **Exercise 9.** Make ``pieces``: ``torch.arange(10)`` cut into pieces of 4, 4 and 2
# elements, in that order, in one call.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
pieces = torch.split(torch.arange(10), 4)  # the last piece gets what is left
# %%
# .. raw:: html
#
#    </details>
assert isinstance(pieces, (tuple, list)), "Exercise 9: pieces is not a tuple or list"
got, cut = [piece.tolist() for piece in pieces], [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
assert got == cut, f"Exercise 9: {got}, not {cut}"
print("Exercise 9: right")
# %%
# **Exercise 10.** For ``a = torch.arange(3)`` and ``b = a + 10``, make ``mixed``:
# their elements in turn, ``[0, 10, 1, 11, 2, 12]``, with no loop.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
a = torch.arange(3)
b = a + 10
pairs = torch.stack([a, b], dim=1)  # row i is (a[i], b[i])
mixed = torch.cat(torch.unbind(pairs))  # the rows, one after the other
# %%
# .. raw:: html
#
#    </details>
assert isinstance(mixed, torch.Tensor), "Exercise 10: mixed is not a tensor"
in_turn = [v for i in range(3) for v in (i, i + 10)]
assert mixed.tolist() == in_turn, f"Exercise 10: {mixed.tolist()}, not {in_turn}"
print("Exercise 10: right")
# %%
# .. _exercises-tensors-07:
#
# Views, strides and reshape
# --------------------------
# **Exercise 11.** For ``x = torch.arange(12).reshape(3, 4)``, make ``flat``, shape
# ``(12,)``: ``x.T`` read row by row. Note that ``x.T.view(12)`` raises an error.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
x = torch.arange(12).reshape(3, 4)
flat = x.T.reshape(12)  # a copy: no single stride reads x.T in this order
# %%
# .. raw:: html
#
#    </details>
assert isinstance(flat, torch.Tensor), "Exercise 11: flat is not a tensor"
by_rows = [v for row in torch.arange(12).reshape(3, 4).T.tolist() for v in row]
assert flat.tolist() == by_rows, f"Exercise 11: {flat.tolist()}, not {by_rows}"
print("Exercise 11: right")
# %%
# **Exercise 12.** For ``p = torch.arange(24).reshape(2, 3, 4).permute(1, 2, 0)``,
# predict ``stride``, the tuple ``p.stride()`` returns. Then predict ``works``: two
# bools, whether ``p.view(12, 2)`` works, then whether ``p.view(3, 8)`` does.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
stride = (4, 1, 12)  # reshape(2, 3, 4) gives (12, 4, 1); permute reorders it
works = [True, False]  # 3 and 4 merge, as 4 == 1 * 4; 4 and 2 not, as 1 != 12 * 2
# %%
# .. raw:: html
#
#    </details>
p = torch.arange(24).reshape(2, 3, 4).permute(1, 2, 0)
assert stride in (p.stride(), list(p.stride())), f"Exercise 12: wrong stride {stride}"
assert np.shape(works) == (2,), "Exercise 12: works is not two bools"
base = p.untyped_storage().data_ptr()  # reshape makes a view where view works
for size, guess in zip([(12, 2), (3, 8)], works, strict=True):
    viewed = p.reshape(size).untyped_storage().data_ptr() == base
    assert guess == viewed, f"Exercise 12: wrong for p.view{size}"
print("Exercise 12: right")
# %%
# .. _exercises-tensors-08:
#
# Tensors and NumPy
# -----------------
# **Exercise 13.** For ``array = np.arange(6.0)``, make ``shared``: a tensor that uses
# ``array``'s memory. A write to either then shows in both.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
array = np.arange(6.0)
shared = torch.from_numpy(array)  # torch.as_tensor(array) shares it too
# %%
# .. raw:: html
#
#    </details>
assert "array" in globals(), "Exercise 13: array is not defined: type the input"
assert isinstance(shared, torch.Tensor), "Exercise 13: shared is not a tensor"
assert shared.tolist() == array.tolist(), "Exercise 13: shared holds other values"
memory = shared.numpy(force=True)
assert np.shares_memory(memory, array), "Exercise 13: shared is a copy of array"
print("Exercise 13: right")
# %%
# **Exercise 14.** For ``array = np.zeros(3)``, predict ``reaches``: four bools, one
# for each of ``torch.from_numpy(array)``, ``torch.tensor(array)``,
# ``torch.as_tensor(array)`` and ``torch.from_numpy(array).float()``. Each says
# whether ``.add_(1)`` on that tensor changes ``array``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
reaches = [True, False, True, False]  # tensor() copies; so does float64 to float32
# %%
# .. raw:: html
#
#    </details>
ways = [torch.from_numpy, torch.tensor, torch.as_tensor]
ways.append(lambda source: torch.from_numpy(source).float())
assert np.shape(reaches) == (4,), "Exercise 14: reaches is not four bools"
for number, (guess, way) in enumerate(zip(reaches, ways, strict=True)):
    zeros = np.zeros(3)
    way(zeros).add_(1)
    assert guess == (zeros != 0).any(), f"Exercise 14: reaches[{number}] is wrong"
print("Exercise 14: right")
# %%
# Next: :ref:`sphx_glr_auto_examples_gradients_plot_01_automatic_differentiation.py`
# starts the gradients section.
