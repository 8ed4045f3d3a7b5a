"""
Uneven splits
=============

After this page you can predict the pieces when a length does not divide
evenly. You will know how many pieces :func:`torch.chunk` returns. You will
see how :func:`torch.tensor_split`, given a number of pieces, returns exactly
that many. You can also cut a tensor before chosen indices.

**Before this page:**
:ref:`sphx_glr_auto_examples_tensors_plot_06_splitting_and_joining.py`.
"""

# %%
# Every page starts by saying what computed it. The tensors here are small,
# so the page runs on the CPU. ``draw_split`` is the site's own drawing
# helper, from ``tutorial_utils``, and ``plt.show()`` shows what it draws.
import matplotlib.pyplot as plt
import torch

from tutorial_utils.environment import environment_summary
from tutorial_utils.moves import draw_split

print(environment_summary("cpu"))

# %%
# When the length is not a multiple
# ----------------------------------
# :func:`torch.chunk` does not need the length to be a multiple of the
# number of pieces. It fixes the size of the pieces, not their number:
#
# 1. Divide the length by the number of pieces asked for, and round up.
#    That is the piece size.
# 2. Cut pieces of that size from the start.
# 3. Give the last piece what is left.
#
# The number of pieces follows from the size. So ``chunk`` can return
# *fewer* pieces than you asked for. Given a number of pieces,
# :func:`torch.tensor_split` returns exactly that many. Their sizes differ
# by at most one, and the longer ones come first. For a 1-D tensor, one of
# :term:`rank` 1, ``len`` gives the number of elements.
#
# .. detail:: More pieces than elements
#
#    Asked for more pieces than there are elements, ``tensor_split`` still
#    returns as many: the last ones are empty. When the length along ``dim``
#    is 0, ``chunk`` also gives as many empty pieces as you ask for.
for length, count in [(6, 3), (5, 3), (6, 4)]:
    numbers = torch.arange(length)
    chunk_sizes = [len(piece) for piece in torch.chunk(numbers, count)]
    split_sizes = [len(piece) for piece in torch.tensor_split(numbers, count)]
    print(f"{length} into {count}:  chunk {chunk_sizes!s:13}tensor_split {split_sizes}")

# %%
# .. check:: ``chunk`` rounds the size up; ``tensor_split`` gives that many, longer first
for length in range(1, 13):
    for count in range(1, 9):
        seq = torch.arange(length)
        size = -(-length // count)  # length / count, rounded up
        sizes = [len(piece) for piece in torch.chunk(seq, count)]
        assert sizes == [min(size, length - i) for i in range(0, length, size)]
        sizes = [len(piece) for piece in torch.tensor_split(seq, count)]
        assert len(sizes) == count
        assert sizes == sorted(sizes, reverse=True)
        assert sizes[0] - sizes[-1] <= 1

# %%
# .. check:: at length 0 along ``dim``, both give as many empty pieces
for count in range(1, 9):
    for empty, dim in [(torch.arange(0), 0), (torch.zeros(3, 0), 1)]:
        for cut_up in (torch.chunk, torch.tensor_split):
            sizes = [p.shape[dim] for p in cut_up(empty, count, dim=dim)]
            assert sizes == [0] * count

# %%
# Six into four, side by side: ``chunk`` makes three pieces of two.
# ``tensor_split`` makes four pieces, of two, two, one and one.
six = torch.arange(6)
draw_split(six, torch.chunk(six, 4), "torch.chunk(six, 4)")
plt.show()
draw_split(six, torch.tensor_split(six, 4), "torch.tensor_split(six, 4)")
plt.show()

# %%
# .. check:: six into four: ``chunk`` gives 2, 2, 2; ``tensor_split`` 2, 2, 1, 1
assert [len(p) for p in torch.chunk(six, 4)] == [2, 2, 2]
assert [len(p) for p in torch.tensor_split(six, 4)] == [2, 2, 1, 1]

# %%
# Cutting before chosen indices
# -----------------------------
# :func:`torch.tensor_split` also takes a list of indices to cut *before*.
# They work like Python's slices: ``[1, 4]`` gives ``six[:1]``,
# ``six[1:4]`` and ``six[4:]``. Like the other pieces, these are views of
# ``six``.
cut = torch.tensor_split(six, [1, 4])
print(cut)

# %%
# .. check:: ``[1, 4]`` gives ``six[:1]``, ``six[1:4]`` and ``six[4:]``, as views
for piece, sliced in zip(cut, [six[:1], six[1:4], six[4:]], strict=True):
    assert torch.equal(piece, sliced)
    assert piece.untyped_storage().data_ptr() == six.untyped_storage().data_ptr()

# %%
# Summary
# -------
# - :func:`torch.chunk` rounds the piece size up. The last piece gets what is
#   left, so there may be fewer pieces than you asked for.
# - Given a number of pieces, :func:`torch.tensor_split` returns exactly that
#   many. Their sizes differ by at most one, longer first.
# - Given a list of indices, ``tensor_split`` cuts before each, like slices.
#
# Exercises for splitting and joining: :ref:`exercises-tensors-06`.
