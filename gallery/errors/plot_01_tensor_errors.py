"""
Errors with tensors
===================

This page explains the errors raised most often when you multiply, broadcast,
reshape, index or convert :term:`tensors <tensor>`. Each entry raises the
error, prints its message, says why and runs the fix. The messages were
printed on the CPU by the PyTorch that built the page.

**Before this page:**
:ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py`,
:ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_selection.py`,
:ref:`sphx_glr_auto_examples_tensors_plot_04_arithmetic_and_broadcasting.py`,
:ref:`sphx_glr_auto_examples_tensors_plot_07_views_and_strides.py`,
:ref:`sphx_glr_auto_examples_tensors_plot_08_tensors_and_numpy.py`,
:ref:`sphx_glr_auto_examples_gradients_plot_01_automatic_differentiation.py`
and :ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py`.
"""

# %%
import torch

from tutorial_utils.environment import environment_summary

print(environment_summary("cpu"))

# %%
# .. _error-matmul-shapes:
#
# mat1 and mat2 shapes cannot be multiplied
# -----------------------------------------
# ``@``, :func:`torch.matmul` and :class:`torch.nn.Linear` raise it when the
# right operand is a 2-D matrix whose first size differs from the left
# operand's last size. Here, unflattened images reach a layer. For a layer
# sized wrongly for its input, see :ref:`error-linear-in-features`.
layer = torch.nn.Linear(in_features=1 * 28 * 28, out_features=10)
images = torch.ones(8, 1, 28, 28)
try:
    layer(images)
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("layer(images) did not raise")

# %%
# .. check:: images that were not flattened get the heading's message
assert "mat1 and mat2 shapes cannot be multiplied" in message

# %%
# **Why.** An ``(n, k)`` matrix times a ``(k, m)`` matrix needs both ``k`` to be
# equal. A :class:`~torch.nn.Linear` layer stores its ``weight`` with shape
# ``(out_features, in_features)``. It computes ``input @ weight.T``, then
# adds its bias. So ``mat2`` is ``weight.T``, ``784x10``. ``mat1`` is the
# input. PyTorch merges every dimension but the last: 8 times 1 times 28
# gives 224 rows of 28 numbers, ``224x28``.
#
# **Fix.** First decide which side is wrong: here, the input.
# :class:`torch.nn.Flatten` turns each image into one row of 784 features.
# Sizing the layer to the input's last size hides the bug: it then gives one
# output per row of pixels.
assert layer(torch.nn.Flatten()(images)).shape == (8, 10)
assert torch.nn.Linear(images.shape[-1], 10)(images).shape == (8, 1, 28, 10)

# %%
# .. check:: ``mat2`` is ``weight.T``, 784x10; ``mat1`` is the folded input, 224x28
assert layer.weight.T.shape == (784, 10)
assert "(224x28 and 784x10)" in message

# %%
# .. _error-broadcast-sizes:
#
# The size of tensor a … must match the size of tensor b … at non-singleton dimension …
# -------------------------------------------------------------------------------------
# :term:`Element-wise <element-wise>` operations such as ``+``, ``*`` and
# comparisons raise it when two :term:`shapes <shape>` cannot be broadcast
# together. Here, each row's mean is subtracted from a batch of shape
# ``(4, 3)``.
x = torch.arange(12.0).reshape(4, 3)
row_means = x.mean(dim=1)
try:
    x - row_means
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("x - row_means did not raise")

# %%
# .. check:: ``(4, 3)`` minus ``(4,)`` gets the heading's message
pieces = ["The size of tensor a", "must match the size of tensor b", "at non-singleton"]
assert all(piece in message for piece in pieces)
assert "tensor a (3)" in message
assert "tensor b (4)" in message

# %%
# **Why.** :term:`Broadcasting <broadcasting>` lines the shapes up from their
# last dimension. Each pair of sizes must be equal, or one of them must be 1.
# ``(4, 3)`` against ``(4,)`` compares 3 with 4, in dimension 1 of the result.
# "Tensor a" is the left operand. The :term:`reduction` with ``dim=1`` removed
# that dimension. So the 4 means meet the 3 columns instead of the 4 rows.
#
# **Fix.** Keep the reduced dimension with ``keepdim=True``. The means then
# have shape ``(4, 1)``, and each row's mean is stretched across its columns.
centred = x - x.mean(dim=1, keepdim=True)

# %%
# .. check:: the means have shape ``(4,)``; ``keepdim`` gives ``(4, 1)``; rows average 0
assert row_means.shape == (4,)
assert "dimension 1" in message
assert x.mean(dim=1, keepdim=True).shape == (4, 1)
torch.testing.assert_close(centred.mean(dim=1), torch.zeros(4))

# %%
# .. _error-matmul-dtype:
#
# expected m1 and m2 to have the same dtype
# -----------------------------------------
# On the CPU, ``@`` and :func:`torch.matmul` raise it when the right operand
# is a 2-D matrix and the two :term:`dtypes <dtype>` differ. Here, integer
# data meets float weights.
#
# .. detail:: Other devices and layers
#
#    On a CUDA GPU the same mistake reads
#    ``expected mat1 and mat2 to have the same dtype``. A
#    :class:`~torch.nn.Linear` layer with its default bias words it
#    differently: see :ref:`error-linear-dtype`. With ``bias=False`` it
#    raises this entry's message. So does a layer given a non-contiguous
#    input with more than two dimensions.
inputs = torch.tensor([[1, 2, 3]])
weights = torch.randn(3, 2, generator=torch.Generator().manual_seed(0))
try:
    inputs @ weights
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("inputs @ weights did not raise")

# %%
# .. check:: int64 times float32 gets the heading's message
assert "expected m1 and m2 to have the same dtype" in message

# %%
# **Why.** :func:`torch.tensor` makes int64 from Python integers. Element-wise
# operations promote two dtypes to a common one. Matrix products do not.
#
# **Fix.** Write float literals such as ``1.0``, or convert with
# ``.to(weights.dtype)``.
product = inputs.to(weights.dtype) @ weights

# %%
# .. check:: inputs are int64; ``+`` promotes; bias-free and non-contiguous layers match
assert inputs.dtype == torch.int64
assert (torch.ones(2, dtype=torch.float64) + torch.ones(2)).dtype == torch.float64
assert (product.dtype, product.shape) == (torch.float32, (1, 2))
assert (torch.tensor([[1.0, 2.0, 3.0]]) @ weights).dtype == torch.float32
batch = torch.ones(4, 3, dtype=torch.float64)
with torch.random.fork_rng(devices=[]):  # new layers draw their weights
    cases = [torch.nn.Linear(3, 2, bias=False), torch.nn.Linear(3, 2)]
for case, data in zip(cases, [batch, batch.expand(2, 4, 3)], strict=True):
    try:
        case(data)
    except RuntimeError as error:
        other_message = str(error)
    else:
        raise AssertionError("a float64 batch went through a float32 layer")
    assert "expected m1 and m2" in other_message
if torch.cuda.is_available():  # the CUDA wording
    try:
        inputs.cuda() @ weights.cuda()
    except RuntimeError as error:
        other_message = str(error)
    else:
        raise AssertionError("the CUDA product did not raise")
    assert "expected mat1 and mat2 to have the same dtype" in other_message

# %%
# .. _error-view-stride:
#
# view size is not compatible with input tensor's size and stride
# ---------------------------------------------------------------
# :meth:`torch.Tensor.view` raises it when the tensor's :term:`strides
# <stride>` cannot express the new shape, typically after
# :meth:`~torch.Tensor.transpose`, ``.T`` or :meth:`~torch.Tensor.permute`.
x = torch.arange(6).reshape(2, 3)
transposed = x.T
try:
    transposed.view(6)
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("transposed.view(6) did not raise")

# %%
# .. check:: ``x.T.view(6)`` gets the heading's message, which suggests ``reshape``
assert "view size is not compatible with input tensor's size and stride" in message
assert ".reshape(" in message

# %%
# **Why.** A :term:`view` never copies. It reads the same memory with new
# strides. ``x.T`` reads the memory in the order 0, 3, 1, 4, 2, 5. So it is
# not :term:`contiguous`, and no single stride walks that order as one
# dimension.
#
# **Fix.** Use :meth:`~torch.Tensor.reshape`, as the message says. It
# returns a view when the strides allow one, and a copy otherwise. Here it
# copies, so writing to the result leaves ``x`` unchanged.
flat = transposed.reshape(6)
print(flat)
flat[0] = 100

# %%
# .. check:: ``x.T`` has strides ``(1, 3)``, reads 0, 3, 1, 4, 2, 5; ``x`` is unchanged
assert (transposed.stride(), transposed.is_contiguous()) == ((1, 3), False)
assert transposed.reshape(6).tolist() == [0, 3, 1, 4, 2, 5]
assert x[0, 0] == 0
assert x.reshape(6).data_ptr() == x.data_ptr()  # contiguous: a view

# %%
# .. _error-numpy-requires-grad:
#
# Can't call numpy() on Tensor that requires grad
# -----------------------------------------------
# :meth:`torch.Tensor.numpy` raises it on a tensor that requires
# :term:`gradients <gradient>`, while autograd records. Such a tensor is a
# parameter, a tensor made with ``requires_grad=True``, or a result computed
# from one.
w = torch.tensor([0.5, -1.0], requires_grad=True)
scores = w * 2
try:
    scores.numpy()
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("scores.numpy() did not raise")

# %%
# .. check:: a result and a layer's parameter get the heading's message
assert "Can't call numpy() on Tensor that requires grad" in message
try:
    layer.weight.numpy()
except RuntimeError as error:
    other_message = str(error)
else:
    raise AssertionError("a parameter's numpy() did not raise")
assert "Can't call numpy() on Tensor that requires grad" in other_message

# %%
# **Why.** The array that :meth:`~torch.Tensor.numpy` returns shares the
# tensor's memory. Autograd cannot follow what NumPy does with it. So PyTorch
# asks you to leave the :term:`computational graph` on purpose.
#
# **Fix.** Call :meth:`~torch.Tensor.detach` first, as the message says. The
# array still shares memory with ``scores``. A tensor on a GPU needs
# ``.detach().cpu().numpy()``, which copies it to main memory.
#
# .. detail:: Under no_grad
#
#    Under :class:`torch.no_grad` nothing is recorded, and the call is
#    allowed, even on a tensor that requires gradients. Writing to its array
#    then changes that tensor.
array = scores.detach().numpy()
print(array)

# %%
# .. check:: the array shares ``scores``'s memory; writing to ``w``'s array changed ``w``
assert array.tolist() == [1.0, -2.0]
assert array.__array_interface__["data"][0] == scores.data_ptr()
with torch.no_grad():
    weight_array = w.numpy()
weight_array[0] = 99.0
assert w.requires_grad
assert w[0] == 99.0

# %%
# .. _error-item-many-elements:
#
# a Tensor with … elements cannot be converted to Scalar
# ------------------------------------------------------
# :meth:`torch.Tensor.item` raises it on a tensor with more than one element,
# or none. Here it is called while counting correct predictions.
predictions = torch.tensor([1, 0, 2, 2])
labels = torch.tensor([1, 0, 1, 2])
try:
    (predictions == labels).item()
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("(predictions == labels).item() did not raise")

# %%
# .. check:: four results, and an empty tensor too, get the heading's message
assert "a Tensor with" in message
assert "elements cannot be converted to Scalar" in message
try:
    torch.ones(0).item()
except RuntimeError as error:
    other_message = str(error)
else:
    raise AssertionError("item() of an empty tensor did not raise")
assert "a Tensor with 0 elements" in other_message

# %%
# **Why.** :meth:`~torch.Tensor.item` returns the number in a tensor with
# exactly one element, whatever its shape. A comparison of two batches gives
# one result per sample.
#
# **Fix.** Reduce first. :meth:`~torch.Tensor.sum` counts the ``True``
# results. For the fraction, convert to float before
# :meth:`~torch.Tensor.mean`, which refuses a bool tensor.
# :meth:`~torch.Tensor.tolist` gives all the values instead.
correct = (predictions == labels).sum().item()
accuracy = (predictions == labels).float().mean().item()
print(correct, accuracy)

# %%
# .. check:: 3 of 4 are correct; ``mean`` refuses bools; shape ``(1, 1)`` converts
assert (correct, accuracy) == (3, 0.75)
assert torch.ones(1, 1).item() == 1.0
try:
    (predictions == labels).mean()
except RuntimeError:
    pass
else:
    raise AssertionError("mean() of a bool tensor did not raise")

# %%
# .. _error-index-out-of-bounds:
#
# index … is out of bounds for dimension … with size …
# ----------------------------------------------------
# Indexing raises it when an index lies outside its dimension. A common
# case is ``t[len(t)]`` for the last element.
scores = torch.tensor([0.1, 0.7, 0.2])
try:
    scores[len(scores)]
except IndexError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("scores[len(scores)] did not raise")

# %%
# .. check:: ``t[len(t)]`` gets the heading's message
pieces = ["index", "is out of bounds for dimension", "with size"]
assert all(piece in message for piece in pieces)

# %%
# **Why.** In a dimension of size ``n`` the valid indices are ``0`` to
# ``n - 1``. Counting from the end, they are ``-n`` to ``-1``.
#
# **Fix.** Index the last element with ``-1``, or with ``len(t) - 1``.
#
# .. detail:: The dimension in the message
#
#    For an integer index, the message names the right dimension: ``t[:, 3]``
#    on a tensor of shape ``(2, 3)`` reports dimension 1. On the CPU, a list
#    of indices after a slice, ``t[:, [0, 3]]``, reports dimension 0. Trust
#    the size that the message gives.
print(scores[-1], scores[len(scores) - 1])

# %%
# .. check:: ``t[3]`` names dimension 0, ``t[:, 3]`` 1, ``t[:, [0, 3]]`` 0; ``-n`` to ``-1`` work
assert "dimension 0 with size 3" in message
assert scores[-1] == scores[len(scores) - 1] == scores[2]
assert scores[-len(scores)] == scores[0]
grid = torch.zeros(2, 3)
for index, dimension in [(3, "dimension 1"), ([0, 3], "dimension 0")]:
    try:
        grid[:, index]
    except IndexError as error:
        index_message = str(error)
    else:
        raise AssertionError(f"t[:, {index}] did not raise")
    assert f"{dimension} with size 3" in index_message
try:
    scores[-len(scores) - 1]
except IndexError:
    pass
else:
    raise AssertionError("t[-n - 1] did not raise")

# %%
# More entries: :ref:`sphx_glr_auto_examples_errors_plot_02_autograd_errors.py`
# and, for dtypes and embeddings,
# :ref:`sphx_glr_auto_examples_errors_plot_06_dtype_and_index_errors.py`.
