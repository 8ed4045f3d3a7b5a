"""
NumPy strides in PyTorch
========================

After this page you can tell how a NumPy array's layout in memory carries
over to a tensor that shares it. You will also know which arrays PyTorch
cannot share, and how to fix them with one copy. This in-depth page goes
further than the page on tensors and NumPy.

**Before this page:**
:ref:`sphx_glr_auto_examples_tensors_plot_07_views_and_strides.py` for
storage and strides, and
:ref:`sphx_glr_auto_examples_tensors_plot_08_tensors_and_numpy.py` for
NumPy arrays and ``from_numpy``.
"""

# %%
# Every page starts by saying what computed it. The arrays here hold a few
# numbers each, so the page runs on the CPU whatever the machine has. The
# site's helper ``draw_views`` draws a tensor over its storage.
import matplotlib.pyplot as plt
import numpy as np
import torch

from tutorial_utils.environment import environment_summary
from tutorial_utils.views import draw_views

print(environment_summary("cpu"))

# %%
# Strides: bytes in NumPy, elements in PyTorch
# --------------------------------------------
# A NumPy array has :term:`strides <stride>` too, in its ``.strides``. NumPy
# counts them in bytes, where PyTorch counts elements. ``from_numpy`` divides
# them by the size of one element, so it needs no copy. NumPy's ``array.T``
# transposes, as ``.T`` does on a tensor. The tensor made from it is not
# :term:`contiguous`, yet it reads the same memory:
array = np.arange(6, dtype=np.float32).reshape(2, 3)
tensor = torch.from_numpy(array)
flipped = torch.from_numpy(array.T)
print("array.strides (bytes):      ", array.strides)
print("tensor.stride() (elements): ", tensor.stride())
print("array.T.strides (bytes):    ", array.T.strides)
print("flipped.stride() (elements):", flipped.stride())
print("flipped is contiguous:", flipped.is_contiguous())

# %%
# .. check:: the strides are the byte strides over the item size; no copy
itemsize = array.itemsize
assert tuple(s // itemsize for s in array.strides) == tensor.stride()
assert tuple(s // itemsize for s in array.T.strides) == flipped.stride()
assert flipped.data_ptr() == array.ctypes.data == tensor.data_ptr()

# %%
# Drawn as :term:`views <view>` of their storage, both read the array's
# memory, in two orders. ``fmt`` sets the number format:
draw_views(
    [tensor, flipped],
    ["tensor = torch.from_numpy(array)", "flipped = torch.from_numpy(array.T)"],
    fmt="{:g}",
)
plt.show()

# %%
# Strides PyTorch cannot take
# ---------------------------
# NumPy, like a Python list, takes a negative step in a slice.
# ``array[:, ::-1]`` reverses each row without a copy, through a negative
# stride, printed first below. PyTorch has no negative strides. So
# ``from_numpy`` refuses the array with a :class:`ValueError`.
# :func:`torch.tensor` and :func:`torch.as_tensor` refuse it too. The
# message gives the fix: NumPy's ``.copy()`` makes a new array, laid out
# with positive strides.
#
# .. detail:: Structured arrays
#
#    A stride that is not a whole number of elements is refused too. One
#    field of a structured array has one: such an array holds records whose
#    fields have their own dtypes. ``.copy()`` fixes it the same way.
print("array[:, ::-1].strides:", array[:, ::-1].strides)
try:
    torch.from_numpy(array[:, ::-1])
except ValueError as error:
    print(error)
else:
    raise AssertionError("torch.from_numpy(array[:, ::-1]) did not raise")
print(torch.from_numpy(array[:, ::-1].copy()))

# %%
# .. check:: ``array[:, ::-1]`` shares memory; PyTorch takes no negative stride
assert np.shares_memory(array[:, ::-1], array)
try:
    torch.zeros(3).as_strided((3,), (-1,), 2)
    raise AssertionError("as_strided took a negative stride")
except RuntimeError:
    pass

# %%
# .. check:: the three refuse negative and part-element strides; copies pass
field = np.zeros(3, dtype=[("a", np.int32), ("b", np.float64)])["b"]
assert field.strides[0] % field.itemsize != 0
for strided in (array[:, ::-1], field):
    for convert in (torch.from_numpy, torch.tensor, torch.as_tensor):
        try:
            convert(strided)
            raise AssertionError(f"{convert.__name__} took strides {strided.strides}")
        except ValueError:
            pass
    copied = strided.copy()
    assert all(s > 0 and s % copied.itemsize == 0 for s in copied.strides)
    assert torch.equal(torch.from_numpy(copied), torch.tensor(strided.tolist()))

# %%
# Summary
# -------
# - NumPy counts strides in bytes, PyTorch in elements. ``from_numpy``
#   converts them and shares the memory, transposed arrays included.
# - PyTorch takes no negative strides, and no strides that are part of an
#   element. Copy such an array with ``.copy()`` first.
#
# Next: :ref:`sphx_glr_auto_examples_gradients_plot_01_automatic_differentiation.py`,
# the lesson after :ref:`sphx_glr_auto_examples_tensors_plot_08_tensors_and_numpy.py`.
