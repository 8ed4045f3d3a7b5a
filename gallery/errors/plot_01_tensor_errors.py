"""
Errors with tensors
===================

The errors that combining, reshaping, converting and indexing :term:`tensors
<tensor>` raise most often, each with its cause and its fix. The messages in
the output were printed by the PyTorch that built the page.
"""

# %%
# The messages below come from the version of PyTorch named on the next line;
# the tensors are tiny, so the page runs on the CPU.
import numpy as np
import torch

from tutorial_utils.environment import environment_summary

print(environment_summary("cpu"))

# %%
# .. _error-matmul-shapes:
#
# mat1 and mat2 shapes cannot be multiplied
# -----------------------------------------
# Raised by ``@``, :func:`torch.matmul` and :class:`torch.nn.Linear` when the
# last dimension of the left matrix differs from the first dimension of the
# right one: here a layer built for 3 input features receives 5.
layer = torch.nn.Linear(in_features=3, out_features=2)
batch = torch.ones(4, 5)
try:
    layer(batch)
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("layer(batch) did not raise")
assert "mat1 and mat2 shapes cannot be multiplied" in message

# %%
# **Why.** The product of an ``(n, k)`` and a ``(k, m)`` matrix needs the two
# ``k`` to be equal. :class:`~torch.nn.Linear` stores its ``weight`` as
# ``(out_features, in_features)`` and computes ``batch @ weight.T``, so
# ``mat1`` is the batch, ``4x5``, and ``mat2`` is ``weight.T``, ``3x2``: the
# 5 and the 3 must match.
#
# **Fix.** Give the layer as many input features as the last dimension of its
# input (for images flattened with :class:`torch.nn.Flatten`, channels times
# height times width).
assert layer.weight.T.shape == (3, 2)
assert "(4x5 and 3x2)" in message
layer = torch.nn.Linear(in_features=batch.shape[-1], out_features=2)
print(layer(batch).shape)
assert layer(batch).shape == (4, 2)

# %%
# .. _error-broadcast-sizes:
#
# The size of tensor a … must match the size of tensor b … at non-singleton dimension …
# -------------------------------------------------------------------------------------
# Raised by :term:`element-wise` operations (``+``, ``*``, comparisons, ...)
# when two :term:`shapes <shape>` cannot be broadcast together: here,
# subtracting each row's mean from a batch of shape ``(4, 3)``.
x = torch.arange(12.0).reshape(4, 3)
row_means = x.mean(dim=1)
try:
    x - row_means
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("x - row_means did not raise")
pieces = [
    "The size of tensor a",
    "must match the size of tensor b",
    "at non-singleton dimension",
]
assert all(piece in message for piece in pieces)

# %%
# **Why.** :term:`Broadcasting <broadcasting>` lines the shapes up from their
# last dimension, and each pair of sizes must be equal or contain a 1.
# ``(4, 3)`` against ``(4,)`` compares 3 with 4 in dimension 1 of the result;
# "tensor a" is the left operand. A :term:`reduction` with ``dim=1`` removed
# that dimension, so the 4 means are lined up with the 3 columns instead of
# the 4 rows.
#
# **Fix.** Keep the reduced dimension with ``keepdim=True``: shape ``(4, 1)``
# is stretched across the columns, one mean per row. The mistake is silent on
# a square batch, where the wrong shapes happen to broadcast, so fix the
# shape, not the symptom.
assert row_means.shape == (4,)
assert "dimension 1" in message
centred = x - x.mean(dim=1, keepdim=True)
torch.testing.assert_close(centred.mean(dim=1), torch.zeros(4))
square = torch.arange(16.0).reshape(4, 4)
wrong = square - square.mean(dim=1)
assert not torch.allclose(wrong.mean(dim=1), torch.zeros(4))

# %%
# .. _error-linear-dtype:
#
# mat1 and mat2 must have the same dtype
# --------------------------------------
# Raised by :class:`torch.nn.Linear` (with its default bias) when its input has
# another :term:`dtype` than its weights, typically float64 data from NumPy fed
# to a float32 model.
features = np.linspace(0.0, 1.0, 12).reshape(4, 3)
batch = torch.from_numpy(features)
layer = torch.nn.Linear(3, 2)
try:
    layer(batch)
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("layer(batch) did not raise")
assert "mat1 and mat2 must have the same dtype" in message

# %%
# **Why.** NumPy's default float is float64, and :func:`torch.from_numpy`
# and :func:`torch.tensor` keep the array's dtype; a layer's parameters are
# created in PyTorch's default dtype, float32. Element-wise operations promote
# mixed dtypes to a common one, but matrix products do not: both operands must
# have the same dtype.
#
# **Fix.** Convert the data once, where it is loaded, to the model's dtype.
assert (batch.dtype, layer.weight.dtype) == (torch.float64, torch.float32)
assert (torch.ones(2, dtype=torch.float64) + torch.ones(2)).dtype == torch.float64
batch = torch.as_tensor(features, dtype=torch.float32)
print(layer(batch).dtype)
assert layer(batch).dtype == torch.float32

# %%
# .. _error-matmul-dtype:
#
# expected m1 and m2 to have the same dtype
# -----------------------------------------
# Raised on the CPU by ``@``, :func:`torch.matmul` and :func:`torch.mm` (and by
# a :class:`~torch.nn.Linear` built with ``bias=False``) when the two matrices
# have different dtypes: here integer data times float weights.
inputs = torch.tensor([[1, 2, 3]])
weights = torch.randn(3, 2, generator=torch.Generator().manual_seed(0))
try:
    inputs @ weights
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("inputs @ weights did not raise")
assert "expected m1 and m2 to have the same dtype" in message

# %%
# **Why.** :func:`torch.tensor` makes int64 from Python integers, and a matrix
# product does not promote dtypes. On a CUDA GPU the same mistake is worded
# ``expected mat1 and mat2 to have the same dtype``; between two 1-D tensors,
# the CPU says ``dot : expected both vectors to have same dtype`` instead.
#
# **Fix.** Write float literals (``1.0``), or convert with
# ``.to(weights.dtype)``.
assert inputs.dtype == torch.int64
try:
    torch.ones(3) @ torch.ones(3, dtype=torch.float64)
except RuntimeError as error:
    vector_message = str(error)
else:
    raise AssertionError("a dot product of two dtypes did not raise")
assert "expected both vectors to have same dtype" in vector_message
product = inputs.to(weights.dtype) @ weights
assert product.dtype == torch.float32
assert product.shape == (1, 2)

# %%
# .. _error-result-type-cast:
#
# result type … can't be cast to the desired output type …
# --------------------------------------------------------
# Raised by in-place arithmetic (``/=``, ``*=``, ``+=``,
# :meth:`~torch.Tensor.div_`, ...) when the result would be a float and the
# tensor holds integers: here scaling 8-bit pixel values to ``[0, 1]``.
image = torch.tensor([[0, 128, 255]], dtype=torch.uint8)
try:
    image /= 255
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("image /= 255 did not raise")
assert "result type" in message
assert "can't be cast to the desired output type" in message

# %%
# **Why.** An :term:`in-place operation` writes into the existing tensor, so
# its dtype cannot change. ``/`` always gives a float for integer inputs, and
# PyTorch refuses to cast a float result down to an integer type in place
# (:func:`torch.can_cast` says which casts it allows).
#
# **Fix.** Compute out of place, which makes a new float tensor, or convert
# first: ``image.float().div_(255)``.
assert (image / 255).dtype == torch.float32
assert not torch.can_cast(torch.float32, torch.uint8)
scaled = image / 255
print(scaled)
assert scaled.dtype == torch.float32
assert scaled.max() == 1.0

# %%
# .. _error-view-stride:
#
# view size is not compatible with input tensor's size and stride
# ---------------------------------------------------------------
# Raised by :meth:`torch.Tensor.view` on a tensor whose :term:`strides
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
assert "view size is not compatible with input tensor's size and stride" in message

# %%
# **Why.** A :term:`view` never copies: it reads the same storage with new
# strides. ``x.T`` reads the storage in the order 0, 3, 1, 4, 2, 5, so it is
# not :term:`contiguous`, and no single stride walks that order as one
# dimension of 6.
#
# **Fix.** Use :meth:`~torch.Tensor.reshape`, as the message says: it returns
# a view when the strides allow one and a copy otherwise (here a copy, so
# writing to it leaves ``x`` unchanged). ``.contiguous().view(6)`` is the same
# copy, spelled out.
assert transposed.stride() == (1, 3)
assert not transposed.is_contiguous()
flat = transposed.reshape(6)
print(flat)
assert flat.tolist() == [0, 3, 1, 4, 2, 5]
assert flat.data_ptr() != x.data_ptr()
assert torch.equal(transposed.contiguous().view(6), flat)

# %%
# .. _error-numpy-requires-grad:
#
# Can't call numpy() on Tensor that requires grad
# -----------------------------------------------
# Raised by :meth:`torch.Tensor.numpy` on a tensor that requires
# :term:`gradients <gradient>`: a parameter, or anything computed from one
# while autograd records, such as a model's output.
w = torch.tensor([0.5, -1.0], requires_grad=True)
scores = w * 2
try:
    scores.numpy()
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("scores.numpy() did not raise")
assert "Can't call numpy() on Tensor that requires grad" in message

# %%
# **Why.** The array that :meth:`~torch.Tensor.numpy` returns shares the
# tensor's memory, and autograd cannot follow what NumPy does with it.
# PyTorch therefore asks you to leave the graph on purpose.
#
# **Fix.** As the message says, :meth:`~torch.Tensor.detach` first. The array
# still shares memory with ``scores``. For a tensor that may be on a GPU,
# ``.detach().cpu().numpy()`` works on every device.
array = scores.detach().numpy()
print(array)
assert array.tolist() == [1.0, -2.0]
assert array.__array_interface__["data"][0] == scores.data_ptr()

# %%
# .. _error-item-many-elements:
#
# a Tensor with … elements cannot be converted to Scalar
# ------------------------------------------------------
# Raised by :meth:`torch.Tensor.item` on a tensor that holds more than one
# element, or none: here counting correct predictions.
predictions = torch.tensor([1, 0, 2, 2])
labels = torch.tensor([1, 0, 1, 2])
try:
    (predictions == labels).item()
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("(predictions == labels).item() did not raise")
assert "a Tensor with" in message
assert "elements cannot be converted to Scalar" in message

# %%
# **Why.** :meth:`~torch.Tensor.item` returns the single number of a tensor
# with exactly one element, whatever its shape; a comparison of two batches
# gives one result per sample. ``float(t)`` and ``int(t)`` refuse the same
# tensors with a :class:`ValueError`: ``only one element tensors can be
# converted to Python scalars``.
#
# **Fix.** Reduce first (:meth:`~torch.Tensor.sum`,
# :meth:`~torch.Tensor.mean`), or use :meth:`~torch.Tensor.tolist` for all the
# values.
assert torch.ones(1, 1).item() == 1.0
try:
    torch.ones(0).item()
except RuntimeError as error:
    empty_message = str(error)
else:
    raise AssertionError("item() of an empty tensor did not raise")
assert "a Tensor with 0 elements" in empty_message
try:
    float(predictions == labels)
except ValueError as error:
    float_message = str(error)
else:
    raise AssertionError("float() of four elements did not raise")
assert "only one element tensors can be converted" in float_message
correct = (predictions == labels).sum().item()
print(correct)
assert correct == 3

# %%
# .. _error-index-out-of-bounds:
#
# index … is out of bounds for dimension … with size …
# ----------------------------------------------------
# Raised (as an :class:`IndexError`) by indexing a tensor with an integer
# outside its dimension, such as ``len(t)`` for the last element.
scores = torch.tensor([0.1, 0.7, 0.2])
try:
    scores[len(scores)]
except IndexError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("scores[len(scores)] did not raise")
pieces = ["index", "is out of bounds for dimension", "with size"]
assert all(piece in message for piece in pieces)

# %%
# **Why.** In a dimension of size ``n`` the valid indices are ``0`` to
# ``n - 1``, and ``-n`` to ``-1`` counting from the end. The message names the
# dimension, so ``t[:, 3]`` on a tensor of shape ``(2, 3)`` reports dimension 1.
#
# **Fix.** Index the last element with ``-1`` (or ``len(t) - 1``).
assert "dimension 0 with size 3" in message
assert scores[-1] == scores[len(scores) - 1] == scores[2]
try:
    torch.zeros(2, 3)[:, 3]
except IndexError as error:
    column_message = str(error)
else:
    raise AssertionError("t[:, 3] did not raise")
assert "dimension 1 with size 3" in column_message

# %%
# .. _error-index-out-of-range-in-self:
#
# index out of range in self
# --------------------------
# Raised (as an :class:`IndexError`) on the CPU by :class:`torch.nn.Embedding`
# and :func:`torch.index_select` when an index is too large: here a token id
# of 10 for a table of 10 rows.
embedding = torch.nn.Embedding(num_embeddings=10, embedding_dim=4)
token_ids = torch.tensor([3, 7, 10])
try:
    embedding(token_ids)
except IndexError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("embedding(token_ids) did not raise")
assert "index out of range in self" in message

# %%
# **Why.** An embedding is a table with one row per id, ``0`` to
# ``num_embeddings - 1``, and ``self`` in the message is that table. The
# message names neither the index nor the size. On a CUDA GPU the check runs
# inside the kernel, and the same mistake surfaces as a device-side assertion
# instead.
#
# **Fix.** Make the table as large as the vocabulary: the largest id plus one.
assert embedding.weight.shape == (10, 4)
embedding = torch.nn.Embedding(int(token_ids.max()) + 1, embedding_dim=4)
print(embedding(token_ids).shape)
assert embedding(token_ids).shape == (3, 4)

# %%
# See also: :ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py`,
# :ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_selection.py`,
# :ref:`sphx_glr_auto_examples_tensors_plot_04_arithmetic_and_broadcasting.py`,
# :ref:`sphx_glr_auto_examples_tensors_plot_07_views_and_strides.py`,
# :ref:`sphx_glr_auto_examples_tensors_plot_08_tensors_and_numpy.py` and
# :ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py`.
