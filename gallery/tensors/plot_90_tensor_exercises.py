"""
Exercises: tensors
==================

Exercises for the pages of the tensors section that do not end with their
own (all but indexing and selection), each with a check that tells you whether
an answer is right. On the web page each solution hides behind a toggle; the
notebook has an empty cell for your answer instead.
"""

# %%
import numpy as np
import torch

from tutorial_utils.environment import environment_summary

print(environment_summary("cpu"))

# %%
# .. _exercises-tensors-01:
#
# Creating tensors
# ----------------
# For :ref:`sphx_glr_auto_examples_tensors_plot_01_creating_tensors.py`.
#
# **Exercise 1.** Make ``answer``: a :term:`tensor` of 5 evenly spaced values from 0 to
# 1, both ends included, :term:`dtype` ``float64``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
answer = torch.linspace(0, 1, 5, dtype=torch.float64)

# %%
# .. raw:: html
#
#    </details>
assert isinstance(answer, torch.Tensor), "Exercise 1: answer is not a tensor"
assert answer.dtype == torch.float64, f"Exercise 1: dtype {answer.dtype}, not float64"
assert answer.tolist() == [0, 0.25, 0.5, 0.75, 1], "Exercise 1: wrong values"
print("Exercise 1: right")

# %%
# **Exercise 2.** Make ``throw()``: a function that seeds with 7 and returns 1000
# throws of a die (1 to 6), drawn on the CPU with :func:`torch.randint`, so that every
# call returns the same throws.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>


# %%
def throw():
    generator = torch.Generator().manual_seed(7)  # a stream of its own, seeded anew
    return torch.randint(1, 7, (1000,), generator=generator)


# %%
# .. raw:: html
#
#    </details>
assert callable(throw), "Exercise 2: throw is not a function"
first, second = throw(), throw()
assert getattr(first, "shape", None) == (1000,), "Exercise 2: not 1000 throws"
assert first[:6].tolist() == [4, 5, 2, 3, 2, 4], "Exercise 2: not 1 to 6 from seed 7"
assert second is not first, "Exercise 2: throw() returns one tensor again: draw anew"
assert torch.equal(first, second), "Exercise 2: a second call differs: seed in throw()"
print("Exercise 2: right")

# %%
# .. _exercises-tensors-02:
#
# Data types
# ----------
# For :ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py`.
#
# **Exercise 3.** Make ``answer``: ``torch.tensor([-1.7, 0.5, 2.5, 3.7])`` as ``int64``,
# rounded (halves to the even neighbour), not truncated.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
answer = torch.tensor([-1.7, 0.5, 2.5, 3.7]).round().to(torch.int64)

# %%
# .. raw:: html
#
#    </details>
assert isinstance(answer, torch.Tensor), "Exercise 3: answer is not a tensor"
assert answer.dtype == torch.int64, f"Exercise 3: dtype {answer.dtype}, not int64"
assert answer.tolist() == [-2, 0, 2, 4], f"Exercise 3: {answer.tolist()}"
print("Exercise 3: right")

# %%
# **Exercise 4.** For ``pixels = torch.tensor([200, 100, 30], dtype=torch.uint8)``, make
# ``brighter``: each plus 100, capped at 255, as ``uint8``; and ``wrapped``: the list
# you predict ``(pixels + 100).tolist()`` gives, written by hand.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
pixels = torch.tensor([200, 100, 30], dtype=torch.uint8)
brighter = (pixels.long() + 100).clamp(max=255).to(torch.uint8)
wrapped = [44, 200, 130]  # uint8 wraps around: 300 - 256 is 44

# %%
# .. raw:: html
#
#    </details>
assert isinstance(wrapped, (list, tuple)), "Exercise 4: wrapped is not a list"
assert isinstance(brighter, torch.Tensor), "Exercise 4: brighter is not a tensor"
assert brighter.dtype == torch.uint8, f"Exercise 4: {brighter.dtype}, not uint8"
assert brighter.tolist() == [255, 200, 130], f"Exercise 4: {brighter.tolist()}"
by_hand = [(v + 100) % 256 for v in (200, 100, 30)]  # uint8 keeps the sum mod 256
uint8_sum = torch.tensor([200, 100, 30], dtype=torch.uint8) + 100
assert uint8_sum.tolist() == by_hand, "Exercise 4: uint8 did not wrap around"
assert list(wrapped) == by_hand, f"Exercise 4: wrapped {list(wrapped)}: uint8 wraps"
print("Exercise 4: right")

# %%
# .. _exercises-tensors-04:
#
# Arithmetic, broadcasting and reductions
# ---------------------------------------
# For :ref:`sphx_glr_auto_examples_tensors_plot_04_arithmetic_and_broadcasting.py`.
#
# **Exercise 5.** Make ``table``, :term:`shape` ``(9, 9)``: element ``[i, j]`` is
# ``(i + 1) * (j + 1)``, from one :func:`torch.arange` and :term:`broadcasting`.
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
expected = [[i * j for j in range(1, 10)] for i in range(1, 10)]
assert table.tolist() == expected, "Exercise 5: not the table of 1 to 9"
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
centred = m - m.mean(dim=1, keepdim=True)  # (3, 1): one mean per row

# %%
# .. raw:: html
#
#    </details>
assert isinstance(centred, torch.Tensor), "Exercise 6: centred is not a tensor"
expected = [[-2, -1, 3], [-4, 0, 4], [0, 0, 0]]
assert centred.tolist() == expected, f"Exercise 6: {centred.tolist()}"
# m - m.mean(dim=1) does not raise because m has as many columns as rows: the
# means, shape (3,), broadcast as a row, so column j loses the mean of row j.
rows = torch.tensor([[1.0, 2, 6], [0, 4, 8], [3, 3, 3]])  # means 3, 4 and 3
by_column = [[-2, -2, 3], [-3, 0, 5], [0, -1, 0]]
assert (rows - rows.mean(dim=1)).tolist() == by_column, "Exercise 6: not by column"
try:
    torch.ones(2, 3) - torch.ones(2, 3).mean(dim=1)  # 2 means, 3 columns
except RuntimeError:
    pass
else:
    raise AssertionError("Exercise 6: (2, 3) minus shape (2,) did not raise")
print("Exercise 6: right")

# %%
# .. _exercises-tensors-05:
#
# Selecting and rearranging
# -------------------------
# For :ref:`sphx_glr_auto_examples_tensors_plot_05_selecting_and_rearranging.py`.
#
# **Exercise 7.** For ``logits = torch.tensor([[0.5, 1.5, -1], [2, 0, 0.25]])``, make
# ``picked``: each row's score at ``labels = torch.tensor([2, 0])``, by ``gather``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
logits, labels = torch.tensor([[0.5, 1.5, -1], [2, 0, 0.25]]), torch.tensor([2, 0])
picked = logits.gather(1, labels.unsqueeze(1)).squeeze(1)

# %%
# .. raw:: html
#
#    </details>
assert isinstance(picked, torch.Tensor), "Exercise 7: picked is not a tensor"
assert picked.tolist() in ([-1, 2], [[-1], [2]]), f"Exercise 7: {picked.tolist()}"
print("Exercise 7: right")

# %%
# **Exercise 8.** For ``amounts = torch.tensor([5.0, 1, 4, 2, 8, 6, 3])`` in groups
# ``group = torch.tensor([0, 2, 1, 0, 2, 1, 3])``, make ``totals``, the sum of each
# group, with no loop, and ``top2``: the 2 groups of largest total, largest first.
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
assert isinstance(top2, torch.Tensor), "Exercise 8: top2 is not a tensor"
assert totals.tolist() == [7, 10, 9, 3], f"Exercise 8: totals {totals.tolist()}"
assert top2.tolist() == [1, 2], f"Exercise 8: top2 {top2.tolist()}, not [1, 2]"
print("Exercise 8: right")

# %%
# .. _exercises-tensors-06:
#
# Splitting and joining
# ---------------------
# For :ref:`sphx_glr_auto_examples_tensors_plot_06_splitting_and_joining.py`.
#
# **Exercise 9.** Make ``pieces``: ``torch.arange(10)`` cut, in one call, into pieces
# of 4, 4 and 2 elements, in that order.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
pieces = torch.split(torch.arange(10), 4)  # the last piece gets the rest

# %%
# .. raw:: html
#
#    </details>
assert isinstance(pieces, (tuple, list)), "Exercise 9: pieces is not a tuple or list"
got = [piece.tolist() for piece in pieces]
assert got == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]], f"Exercise 9: {got}"
print("Exercise 9: right")

# %%
# **Exercise 10.** For ``a = torch.arange(3)`` and ``b = a + 10``, make ``mixed``: their
# elements taken in turn, ``[0, 10, 1, 11, 2, 12]``, with the functions of that page
# only (no ``reshape``, no loop).
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
assert mixed.tolist() == [0, 10, 1, 11, 2, 12], f"Exercise 10: {mixed.tolist()}"
print("Exercise 10: right")

# %%
# .. _exercises-tensors-07:
#
# Views, strides and reshape
# --------------------------
# For :ref:`sphx_glr_auto_examples_tensors_plot_07_views_and_strides.py`.
#
# **Exercise 11.** For ``x = torch.arange(12).reshape(3, 4)``, make ``flat``, shape
# ``(12,)``: ``x.T`` read row by row. ``x.T.view(12)`` raises.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
x = torch.arange(12).reshape(3, 4)
flat = x.T.reshape(12)  # a copy: the strides of x.T do not merge

# %%
# .. raw:: html
#
#    </details>
assert isinstance(flat, torch.Tensor), "Exercise 11: flat is not a tensor"
by_loop = [4 * i + j for j in range(4) for i in range(3)]  # x[i, j] is 4i + j
assert flat.tolist() == by_loop, f"Exercise 11: {flat.tolist()}"
print("Exercise 11: right")

# %%
# **Exercise 12.** For ``p = torch.arange(24).reshape(2, 3, 4).permute(1, 2, 0)``, guess
# ``stride``, its :term:`stride`, and ``works``: two bools, ``view`` to (12, 2)? (3, 8)?
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
stride = (4, 1, 12)  # reshape(2, 3, 4) gives (12, 4, 1); permute reorders it
works = [True, False]  # 3 and 4 merge (4 == 1 * 4); 4 and 2 not (1 != 12 * 2)

# %%
# .. raw:: html
#
#    </details>
p = torch.arange(24).reshape(2, 3, 4).permute(1, 2, 0)
shares = [p.reshape(s).data_ptr() == p.data_ptr() for s in [(12, 2), (3, 8)]]
bools = (list, tuple, np.ndarray, torch.Tensor)
assert isinstance(works, bools), "Exercise 12: works is not two bools"
assert list(works) == shares, f"Exercise 12: works should be {shares}, not {works}"
message = f"Exercise 12: stride should be {p.stride()}, not {tuple(stride)}"
assert tuple(stride) == p.stride(), message
print("Exercise 12: right")

# %%
# .. _exercises-tensors-08:
#
# Tensors and NumPy
# -----------------
# For :ref:`sphx_glr_auto_examples_tensors_plot_08_tensors_and_numpy.py`.
#
# **Exercise 13.** For ``array = np.arange(6.0)``, make ``shared``: a tensor that uses
# ``array``'s memory, so that writes to either show in both.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
array = np.arange(6.0)
shared = torch.from_numpy(array)

# %%
# .. raw:: html
#
#    </details>
assert isinstance(shared, torch.Tensor), "Exercise 13: shared is not a tensor"
assert shared.data_ptr() == array.ctypes.data, "Exercise 13: shared is a copy"
print("Exercise 13: right")

# %%
# **Exercise 14.** For ``array = np.zeros(3)``, predict ``reaches``: four bools, whether
# ``.add_(1)`` changes ``array`` when applied to ``torch.from_numpy(array)``,
# ``torch.tensor(array)``, ``torch.as_tensor(array)`` and
# ``torch.from_numpy(array).float()``.
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
bools = (list, tuple, np.ndarray, torch.Tensor)
assert isinstance(reaches, bools), "Exercise 14: reaches is not four bools"
array = np.zeros(3)
ways = [torch.from_numpy, torch.tensor, torch.as_tensor]
ways.append(lambda source: torch.from_numpy(source).float())
written = []
for way in ways:
    before = array.copy()
    way(array).add_(1)
    written.append(not np.array_equal(array, before))
assert list(reaches) == written, f"Exercise 14: reaches should be {written}"
print("Exercise 14: right")
