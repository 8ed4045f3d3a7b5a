"""
Exercises: tensors
==================

Exercises for the pages of the tensors section that do not end with their
own (all but indexing and selection), each with a solution behind a toggle
and a check that tells you whether an answer is right.
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
# **Exercise 2.** Seeding with 7 before each draw, make ``throws`` and ``again``: 1000
# throws of a die (1 to 6) each, drawn with :func:`torch.randint`. They must be equal.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
throws = torch.randint(1, 7, (1000,), generator=torch.Generator().manual_seed(7))
again = torch.randint(1, 7, (1000,), generator=torch.Generator().manual_seed(7))

# %%
# .. raw:: html
#
#    </details>
assert getattr(again, "shape", None) == (1000,), "Exercise 2: again is not 1000 draws"
assert getattr(throws, "shape", None) == (1000,), "Exercise 2: throws is not 1000 draws"
assert throws[:6].tolist() == [4, 5, 2, 3, 2, 4], "Exercise 2: not 1 to 6 from seed 7"
assert again is not throws, "Exercise 2: again is throws itself: draw it again"
assert torch.equal(throws, again), "Exercise 2: again differs: seed with 7 before each"
print("Exercise 2: right")

# %%
# .. _exercises-tensors-02:
#
# Data types
# ----------
# For :ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py`.
#
# **Exercise 3.** Make ``answer``: ``torch.tensor([-1.7, 0.5, 2.5, 3.2])`` as ``int64``,
# rounded (halves to the even neighbour), not truncated.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
answer = torch.tensor([-1.7, 0.5, 2.5, 3.2]).round().to(torch.int64)

# %%
# .. raw:: html
#
#    </details>
assert isinstance(answer, torch.Tensor), "Exercise 3: answer is not a tensor"
assert answer.dtype == torch.int64, f"Exercise 3: dtype {answer.dtype}, not int64"
assert answer.tolist() == [-2, 0, 2, 3], f"Exercise 3: {answer.tolist()}"
print("Exercise 3: right")

# %%
# **Exercise 4.** For ``pixels = torch.tensor([200, 100, 30], dtype=torch.uint8)``, make
# ``brighter``: each plus 100, capped at 255, as ``uint8``. Predict ``pixels + 100``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
pixels = torch.tensor([200, 100, 30], dtype=torch.uint8)
brighter = (pixels.long() + 100).clamp(max=255).to(torch.uint8)

# %%
# .. raw:: html
#
#    </details>
assert isinstance(brighter, torch.Tensor), "Exercise 4: brighter is not a tensor"
assert brighter.dtype == torch.uint8, f"Exercise 4: {brighter.dtype}, not uint8"
assert brighter.tolist() == [255, 200, 130], f"Exercise 4: {brighter.tolist()}"
assert (pixels + 100).tolist() == [44, 200, 130]  # uint8 wraps: 300 - 256 is 44
print("Exercise 4: right")

# %%
# .. _exercises-tensors-04:
#
# Arithmetic and broadcasting
# ---------------------------
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
centred = m - m.mean(dim=1, keepdim=True)  # (3, 1); (3,) pairs with the columns

# %%
# .. raw:: html
#
#    </details>
assert isinstance(centred, torch.Tensor), "Exercise 6: centred is not a tensor"
expected = [[-2, -1, 3], [-4, 0, 4], [0, 0, 0]]
assert centred.tolist() == expected, f"Exercise 6: {centred.tolist()}"
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
assert isinstance(pieces, tuple), "Exercise 9: pieces is not a tuple"
got = [piece.tolist() for piece in pieces]
assert got == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]], f"Exercise 9: {got}"
print("Exercise 9: right")

# %%
# **Exercise 10.** For ``a = torch.arange(6).reshape(2, 3)``, ``b = a + 6``, make
# ``joined``, equal to ``torch.stack([a, b], dim=2)``, with :func:`torch.cat` instead.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
a, b = torch.arange(6).reshape(2, 3), torch.arange(6, 12).reshape(2, 3)
joined = torch.cat([a.unsqueeze(2), b.unsqueeze(2)], dim=2)  # shape (2, 3, 2)

# %%
# .. raw:: html
#
#    </details>
assert isinstance(joined, torch.Tensor), "Exercise 10: joined is not a tensor"
pairs = [[[v, v + 6] for v in range(r, r + 3)] for r in (0, 3)]
assert joined.tolist() == pairs, f"Exercise 10: {joined.tolist()}"
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
assert works in (shares, tuple(shares)), f"Exercise 12: works is {works}, not {shares}"
assert tuple(stride) == p.stride(), f"Exercise 12: stride is {p.stride()}, not {stride}"
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
# **Exercise 14.** For ``w = torch.ones(3, requires_grad=True)``, make ``snapshot``: a
# NumPy array of its values that keeps them when ``w`` is then changed in place.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
w = torch.ones(3, requires_grad=True)
snapshot = w.detach().numpy().copy()  # detach() shares w's memory

# %%
# .. raw:: html
#
#    </details>
assert isinstance(snapshot, np.ndarray), "Exercise 14: snapshot is not an array"
w.detach().add_(0.5)  # changes w in place, as an optimiser step does
assert snapshot.tolist() == [1, 1, 1], "Exercise 14: snapshot followed w: copy it"
print("Exercise 14: right")
