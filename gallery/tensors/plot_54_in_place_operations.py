"""
In-place operations in depth
============================

After this page you can tell whether an operation kept a tensor's memory.
You can also predict which results in-place arithmetic accepts, and where
broadcasting works in place. This in-depth page goes further than the last
section of the arithmetic page. A first reading can skip it.

**Before this page:**
:ref:`sphx_glr_auto_examples_tensors_plot_04_arithmetic_and_broadcasting.py`,
and :ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py` for dtypes.
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
# Same memory or new memory
# -------------------------
# :meth:`~torch.Tensor.data_ptr` gives the memory address of a tensor's
# first element, for a tensor with elements. Addresses change between runs,
# so the page prints only whether two are equal. The :term:`in-place operation`
# ``add_`` keeps the memory, and so does ``+=``. ``t = t + 1`` makes a new tensor in new
# memory, then points the name ``t`` at it.
t = torch.ones(1)
address = t.data_ptr()
t.add_(1)
print("after t.add_(1):  same memory:", t.data_ptr() == address)
t += 1
print("after t += 1:     same memory:", t.data_ptr() == address)
t = t + 1
print("after t = t + 1:  same memory:", t.data_ptr() == address)

# %%
# .. check:: ``add_`` and ``+=`` keep the memory; ``t = t + 1`` does not
u = torch.ones(1)
before = u.data_ptr()
u.add_(1)
assert u.data_ptr() == before
u += 1
assert u.data_ptr() == before
u = u + 1
assert u.data_ptr() != before
assert torch.empty(0).data_ptr() == 0  # an empty tensor gives 0

# %%
# The dtype stays
# ---------------
# In-place arithmetic, such as ``add_``, ``mul_`` or ``+=``, keeps the
# tensor's :term:`dtype`. So an integer tensor refuses a float result
# (:ref:`its atlas entry <error-result-type-cast>`). Some other in-place
# methods convert instead. :meth:`~torch.Tensor.fill_` writes one value
# everywhere. Given a value in the dtype's range, it drops the fraction.
#
# .. detail:: Automatic differentiation
#
#    Automatic differentiation computes :term:`gradients <gradient>`. It
#    raises an error for an in-place operation that overwrote a value it
#    still needs.
whole = torch.tensor([1, 2])
try:
    whole.add_(0.5)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
else:
    raise AssertionError("an integer tensor took a float in place")
print(whole.fill_(1.5))

# %%
# .. check:: in-place arithmetic refuses floats into ints; ``fill_`` converts
assert torch.ones(2).add_(1).is_floating_point()  # a float tensor takes an int
for name in ("add_", "mul_", "__iadd__"):
    try:
        getattr(torch.tensor([1, 2]), name)(0.5)
    except RuntimeError as error:
        message = str(error)
    else:
        raise AssertionError(f"{name} put a float into an int64 tensor")
    assert "can't be cast to the desired output type Long" in message
assert torch.tensor([1, 2]).fill_(1.5).tolist() == [1, 1]
try:
    torch.zeros(2, dtype=torch.int8).fill_(1000)
    raise AssertionError("fill_ put 1000 into an int8 tensor")
except RuntimeError:
    pass  # out of range for int8
assert whole.dtype == torch.int64

# %%
# .. check:: autograd refuses an output that was overwritten in place
leaf = torch.ones(2, requires_grad=True)
exponential = leaf.exp()  # exp keeps its output for the backward pass
exponential.add_(1)
try:
    exponential.sum().backward()
except RuntimeError as error:
    message = str(error)
else:
    raise AssertionError("exponential.sum().backward() did not raise")
assert "modified by an inplace operation" in message

# %%
# Broadcasting in place
# ---------------------
# In place, only the other tensor is stretched. The result must fit the
# shape of the tensor written to. So ``grid.add_(row)`` adds the row to each
# row of ``grid``. ``row.add_(grid)`` raises, because a ``(3, 4)`` result
# does not fit in a ``(1, 4)`` tensor.
grid = torch.zeros(3, 4)
row = torch.tensor([[1.0, 2.0, 3.0, 4.0]])
grid.add_(row)
try:
    row.add_(grid)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
else:
    raise AssertionError("row.add_(grid) grew row")
draw_tensors([row, grid], ["row (1, 4)", "grid.add_(row)"])
plt.show()

# %%
# .. check:: in place, the result must keep the written tensor's shape
assert torch.equal(grid, torch.zeros(3, 4) + row)
for small, big in [((1, 4), (3, 4)), ((4,), (3, 4)), ((3, 1), (3, 4))]:
    torch.zeros(big).add_(torch.ones(small))
    try:
        torch.zeros(small).add_(torch.ones(big))
    except RuntimeError:
        pass
    else:
        raise AssertionError(f"{small} took a {big} result in place")

# %%
# A tensor that ``expand`` stretched reads one element at several positions.
# Most in-place methods on it raise an error, such as ``add_``, ``+=`` and
# ``copy_``. :meth:`~torch.Tensor.zero_` and ``fill_`` are exceptions.
# :meth:`~torch.Tensor.clone` gives a copy with memory of its own, which
# in-place methods can change. The last line adds ``torch.arange(4.0)``,
# the row 0, 1, 2, 3, to each row of such a copy.
stretched = torch.zeros(3, 1).expand(3, 4)
try:
    stretched.add_(1)
except RuntimeError as error:
    print(f"RuntimeError: {error}")
else:
    raise AssertionError("an expanded tensor was written in place")
print(stretched.clone().add_(torch.arange(4.0)))

# %%
# .. check:: most in-place methods on an ``expand`` view raise; ``fill_`` works
changes = [lambda s: s.add_(1), lambda s: s.mul_(2), lambda s: s.__iadd__(1)]
changes += [lambda s: s.copy_(torch.ones(3, 4)), lambda s: s.clamp_(0, 1)]
changes += [lambda s: s.uniform_(), lambda s: s.__setitem__(0, 1.0)]
for change in changes:
    try:
        with torch.random.fork_rng(devices=[]):
            change(torch.zeros(3, 1).expand(3, 4))
    except RuntimeError as error:
        message = str(error)
    else:
        raise AssertionError("an in-place change to an expand view worked")
    assert "more than one element" in message
assert stretched.clone().add_(torch.arange(4.0))[2].tolist() == [0, 1, 2, 3]
assert torch.zeros(3, 1).expand(3, 4).fill_(2).tolist() == [[2.0] * 4] * 3
assert torch.zeros(3, 1).expand(3, 4).zero_().sum() == 0
assert torch.equal(stretched.clone().add_(1), torch.ones(3, 4))

# %%
# Summary
# -------
# - For tensors with elements, ``data_ptr`` tells whether two start at the
#   same memory. ``add_`` and ``+=`` keep it; ``t = t + 1`` does not.
# - In-place arithmetic keeps the dtype, and refuses a float into an integer
#   tensor. ``fill_`` converts a value in range instead.
# - In place, only the other tensor broadcasts.
# - Most in-place methods on an ``expand`` view raise; ``clone`` it first.
#
# Back to the path:
# :ref:`sphx_glr_auto_examples_tensors_plot_05_selecting_and_rearranging.py`.
