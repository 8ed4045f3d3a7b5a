"""
Writing to repeated positions
=============================

After this page you can predict a write through an index that names one
position twice. You will know why ``+=`` adds only once there, and how to
add every contribution instead.

**Before this page:**
:ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_selection.py`.
"""

# %%
# Every page starts by saying what computed it: the site's helper
# ``environment_summary`` prints the versions and the processor. The tensors
# here are tiny, so the page runs on the CPU.
import matplotlib.pyplot as plt
import torch

from tutorial_utils.environment import environment_summary
from tutorial_utils.grids import draw_tensors

print(environment_summary(torch.device("cpu")))

# %%
# ``+=`` through a repeated index
# -------------------------------
# The index ``[0, 0, 2]`` names position 0 twice. Python runs
# ``counts[[0, 0, 2]] += 1`` in three steps:
#
# 1. read ``counts[[0, 0, 2]]``, a copy of three elements;
# 2. add 1 to each element of the copy;
# 3. write the three results back, two of them to position 0.
#
# Both writes to position 0 are 1, and one replaces the other. So position 0
# ends up 1 larger, not 2.
counts = torch.zeros(3)
counts[[0, 0, 2]] += 1
print("counts[[0, 0, 2]] += 1:", counts)

# %%
# .. check:: ``+=`` through a repeated index adds only once
assert counts.tolist() == [1.0, 0.0, 1.0]

# %%
# Adding every contribution
# -------------------------
# :meth:`~torch.Tensor.index_add_` is an :term:`in-place operation` that adds
# instead of writing. ``counts.index_add_(0, index, values)`` adds
# ``values[k]`` to position ``index[k]`` of :term:`dimension` 0, for each
# ``k``. Position 0 now gets both ones.
index = torch.tensor([0, 0, 2])
counts = torch.zeros(3)
counts.index_add_(0, index, torch.ones(3))
print("index_add_:", counts)

# %%
# .. check:: ``index_add_`` adds every contribution, repeats included
assert counts.tolist() == [2.0, 0.0, 1.0]

# %%
# Side by side, the two results differ only at position 0, the one the
# index names twice. ``draw_tensors`` is the site's helper that draws each
# tensor as a row of cells, and ``plt.show()`` shows the figure.
once = torch.zeros(3)
once[index] += 1
draw_tensors([index, once, counts], ["index", "t[index] += 1", "index_add_"])
plt.show()

# %%
# .. check:: the two results differ at position 0 alone
assert (once != counts).nonzero().flatten().tolist() == [0]

# %%
# When ``values`` is a tensor, assigning through an index is the same as
# :meth:`~torch.Tensor.index_put_`. ``t[index] = values`` does what
# ``t.index_put_((index,), values)`` does. ``index_put_`` takes the index as
# a tuple, one index tensor per dimension. Passed
# ``accumulate=True``, it adds like ``index_add_``.
counts = torch.zeros(3)
counts.index_put_((index,), torch.ones(3), accumulate=True)
print("index_put_ with accumulate=True:", counts)

# %%
# .. check:: ``t[index] = values`` is ``index_put_``; ``accumulate=True`` adds
assert counts.tolist() == [2.0, 0.0, 1.0]
written = torch.zeros(4)
written[torch.tensor([3, 1])] = torch.tensor([5.0, 6.0])
put = torch.zeros(4).index_put_((torch.tensor([3, 1]),), torch.tensor([5.0, 6.0]))
assert torch.equal(written, put)
try:
    torch.zeros(4).index_put_((torch.tensor([3, 1]),), 5.0)
except TypeError:
    pass
else:
    raise AssertionError("index_put_ accepted a Python float")

# %%
# Different values at one position
# --------------------------------
# When the values written to a repeated position differ, the documentation
# of :meth:`~torch.Tensor.index_put_` calls the result undefined. Here one of
# the values was kept. Do not rely on that, nor on which one.
counts = torch.zeros(3)
counts[[0, 0]] = torch.tensor([1.0, 2.0])
print("counts[[0, 0]] = [1.0, 2.0]:", counts)

# %%
# .. check:: on this run, one of the two values at position 0 was kept
assert counts[0].item() in (1.0, 2.0)
assert counts[1:].tolist() == [0.0, 0.0]

# %%
# Summary
# -------
# - ``t[index] += v`` reads a copy, adds, and writes back: a repeated position
#   gets one write, not the sum.
# - :meth:`~torch.Tensor.index_add_`, and :meth:`~torch.Tensor.index_put_`
#   with ``accumulate=True``, add every contribution.
# - Different values written to one position give an undefined result.
#
# Back to :ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_selection.py`,
# or on to its exercises: :ref:`exercises-tensors-03`.
