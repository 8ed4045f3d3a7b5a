"""
Errors with tensors
===================

The errors that combining, reshaping, converting and indexing :term:`tensors
<tensor>` raise most often, each with its cause and its fix. The messages in
the output were printed by the PyTorch that built the page.
"""

# %%
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
# input's last dimension differs from the first dimension of a 2-D right
# operand (a layer's ``weight.T``): here unflattened images reach a layer.
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
# .. check:: unflattened images get the heading's message
assert "mat1 and mat2 shapes cannot be multiplied" in message

# %%
# **Why.** The product of an ``(n, k)`` and a ``(k, m)`` matrix needs the two
# ``k`` to be equal. :class:`~torch.nn.Linear` stores its ``weight`` as
# ``(out_features, in_features)`` and computes ``input @ weight.T``: ``mat2``
# is ``weight.T``, ``784x10``, and ``mat1`` is the input with its leading
# dimensions folded into one, ``224x28`` (8 times 1 times 28 rows of 28).
#
# **Fix.** First decide which side is wrong. Here it is the input: images go
# through :class:`torch.nn.Flatten` (channels times height times width
# features) first. Sizing the layer to the input's last dimension, the fix when
# the layer is wrong, would hide this bug: it runs, one output per image row.
assert layer(torch.nn.Flatten()(images)).shape == (8, 10)
assert torch.nn.Linear(images.shape[-1], 10)(images).shape == (8, 1, 28, 10)

# %%
# .. check:: ``mat2`` is ``weight.T``, 784x10, and ``mat1`` the folded input, 224x28
assert layer.weight.T.shape == (784, 10)
assert "(224x28 and 784x10)" in message

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

# %%
# .. check:: ``(4, 3)`` minus ``(4,)`` gets the heading's message
pieces = ["The size of tensor a", "must match the size of tensor b", "at non-singleton"]
assert all(piece in message for piece in pieces)

# %%
# **Why.** :term:`Broadcasting <broadcasting>` lines the shapes up from their
# last dimension, and each pair of sizes must be equal or contain a 1.
# ``(4, 3)`` against ``(4,)`` compares 3 with 4 in dimension 1 of the result;
# "tensor a" is the left operand. A :term:`reduction` with ``dim=1`` removed
# that dimension, so the 4 means meet the 3 columns instead of the 4 rows.
#
# **Fix.** Keep the reduced dimension with ``keepdim=True``: shape ``(4, 1)``
# is stretched across the columns, one mean per row.
centred = x - x.mean(dim=1, keepdim=True)

# %%
# .. check:: the means have shape ``(4,)``, the message names dimension 1, centred rows average 0
assert row_means.shape == (4,)
assert "dimension 1" in message
torch.testing.assert_close(centred.mean(dim=1), torch.zeros(4))

# %%
# .. _error-linear-dtype:
#
# mat1 and mat2 must have the same dtype
# --------------------------------------
# Raised by :class:`torch.nn.Linear` with its default bias when its input has
# another :term:`dtype` than its weights, typically float64 data from NumPy fed
# to a float32 model (the next entry names the inputs that word it otherwise).
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

# %%
# .. check:: float64 data into a float32 layer gets the heading's message
assert "mat1 and mat2 must have the same dtype" in message

# %%
# **Why.** NumPy's default float is float64, and :func:`torch.from_numpy`
# and :func:`torch.tensor` keep the array's dtype; a layer's parameters are
# created in PyTorch's default dtype, float32.
#
# **Fix.** Convert the data once, where it is loaded, to the model's dtype.
batch = torch.as_tensor(features, dtype=torch.float32)

# %%
# .. check:: the NumPy data is float64, the layer float32; the converted batch goes through
_from_numpy = torch.from_numpy(features)
assert (_from_numpy.dtype, layer.weight.dtype) == (torch.float64, torch.float32)
assert layer(batch).dtype == torch.float32

# %%
# .. _error-matmul-dtype:
#
# expected m1 and m2 to have the same dtype
# -----------------------------------------
# Raised on the CPU by ``@``, :func:`torch.matmul` and :func:`torch.mm` when an
# input and a 2-D right operand have different dtypes: here integer data times
# float weights.
#
# .. detail:: Linear layers
#
#    A :class:`~torch.nn.Linear` with mismatched dtypes raises it too when it
#    is built with ``bias=False``, or given a non-contiguous input that is not
#    2-D.
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
# .. check:: int64 times float32 gets the heading's message, as do a bias-free layer and a non-contiguous input
assert "expected m1 and m2 to have the same dtype" in message
cases = [
    (lambda: torch.nn.Linear(3, 2, bias=False)(batch.double()), "expected m1 and m2"),
    (lambda: layer(batch.double().expand(2, 4, 3)), "expected m1 and m2"),
]
for call, words in cases:
    try:
        with torch.random.fork_rng(
            devices=[]
        ):  # a new layer's weights draw random numbers
            call()
    except RuntimeError as error:
        other_message = str(error)
    else:
        raise AssertionError(f"{words} was not raised")
    assert words in other_message

# %%
# **Why.** :func:`torch.tensor` makes int64 from Python integers, and matrix
# products, unlike element-wise operations, do not promote mixed dtypes to a
# common one.
#
# **Fix.** Write float literals (``1.0``), or convert with ``.to(weights.dtype)``.
#
# .. detail:: On a CUDA GPU
#
#    On a CUDA GPU the same mistake is worded
#    ``expected mat1 and mat2 to have the same dtype``.
product = inputs.to(weights.dtype) @ weights

# %%
# .. check:: the inputs are int64, element-wise operations promote, the converted product works
assert inputs.dtype == torch.int64
assert (torch.ones(2, dtype=torch.float64) + torch.ones(2)).dtype == torch.float64
assert (product.dtype, product.shape) == (torch.float32, (1, 2))
if torch.cuda.is_available():  # the CUDA wording
    try:
        inputs.cuda() @ weights.cuda()
    except RuntimeError as error:
        other_message = str(error)
    else:
        raise AssertionError("the CUDA product did not raise")
    assert "expected mat1 and mat2 to have the same dtype" in other_message

# %%
# .. _error-result-type-cast:
#
# result type … can't be cast to the desired output type …
# --------------------------------------------------------
# Raised by in-place arithmetic (``/=``, ``+=``, :meth:`~torch.Tensor.div_`,
# ...) when the result is of a higher kind than the tensor (bool, then integer,
# then float, then complex): here scaling 8-bit pixel values to ``[0, 1]``.
image = torch.tensor([[0, 128, 255]], dtype=torch.uint8)
try:
    image /= 255
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("image /= 255 did not raise")

# %%
# .. check:: ``image /= 255`` on ``uint8`` gets the heading's message
assert "result type" in message
assert "can't be cast to the desired output type" in message

# %%
# **Why.** An :term:`in-place operation` writes into the existing tensor, so
# its dtype cannot change. ``/`` always gives a float for integer inputs, and
# PyTorch refuses to cast a result down to a lower kind (:func:`torch.can_cast`
# says which casts it allows).
#
# **Fix.** Compute out of place, which makes a new float tensor, or convert
# first: ``image.float().div_(255)``.
scaled = image / 255

# %%
# .. check:: no kind casts down; out of place gives float32 up to 1, as ``image.float().div_(255)`` does
kinds = [torch.bool, torch.uint8, torch.float32, torch.complex64]
assert not any(torch.can_cast(kinds[i + 1], kinds[i]) for i in range(3))
assert (scaled.dtype, scaled.max().item()) == (torch.float32, 1.0)
assert torch.equal(image.float().div_(255), scaled)

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

# %%
# .. check:: ``x.T.view(6)`` gets the heading's message
assert "view size is not compatible with input tensor's size and stride" in message

# %%
# **Why.** A :term:`view` never copies: it reads the same storage with new
# strides. ``x.T`` reads the storage in the order 0, 3, 1, 4, 2, 5: it is not
# :term:`contiguous`, and no single stride walks that order as one dimension.
#
# **Fix.** Use :meth:`~torch.Tensor.reshape`, as the message says: it returns
# a view when the strides allow one and a copy otherwise (here a copy, so
# writing to it leaves ``x`` unchanged).
flat = transposed.reshape(6)
print(flat)
flat[0] = 100

# %%
# .. check:: ``x.T`` has strides ``(1, 3)``, is not contiguous, reads 0, 3, 1, 4, 2, 5; ``x`` is unchanged
assert (transposed.stride(), transposed.is_contiguous()) == ((1, 3), False)
assert transposed.reshape(6).tolist() == [0, 3, 1, 4, 2, 5]
assert x[0, 0] == 0

# %%
# .. _error-numpy-requires-grad:
#
# Can't call numpy() on Tensor that requires grad
# -----------------------------------------------
# Raised by :meth:`torch.Tensor.numpy` on a tensor that requires
# :term:`gradients <gradient>` while autograd records: a parameter, or
# anything computed from one, such as a model's output.
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
# .. check:: a result computed from a parameter gets the heading's message
assert "Can't call numpy() on Tensor that requires grad" in message

# %%
# **Why.** The array that :meth:`~torch.Tensor.numpy` returns shares the
# tensor's memory, and autograd cannot follow what NumPy does with it, so
# PyTorch asks you to leave the graph on purpose.
#
# **Fix.** As the message says, :meth:`~torch.Tensor.detach` first. The array
# still shares memory with ``scores``. For a tensor on a GPU,
# ``.detach().cpu().numpy()`` copies it to main memory first.
#
# .. detail:: Under no_grad
#
#    Under :class:`torch.no_grad` nothing is recorded and the call is allowed,
#    even on a parameter: writing to its array then changes the parameter.
array = scores.detach().numpy()
print(array)
with torch.no_grad():
    weight_array = w.numpy()
weight_array[0] = 99.0

# %%
# .. check:: the array shares ``scores``'s memory; writing to ``w``'s array changed the parameter
assert array.tolist() == [1.0, -2.0]
assert array.__array_interface__["data"][0] == scores.data_ptr()
assert w.requires_grad
assert w[0] == 99.0

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

# %%
# .. check:: four results, and an empty tensor too, get the heading's message
assert "a Tensor with" in message
assert "elements cannot be converted to Scalar" in message
try:
    torch.ones(0).item()
except RuntimeError as error:
    empty_message = str(error)
else:
    raise AssertionError("item() of an empty tensor did not raise")
assert "a Tensor with 0 elements" in empty_message

# %%
# **Why.** :meth:`~torch.Tensor.item` returns the single number of a tensor
# with exactly one element, whatever its shape; a comparison of two batches
# gives one result per sample.
#
# **Fix.** Reduce first (:meth:`~torch.Tensor.sum`, :meth:`~torch.Tensor.mean`),
# or use :meth:`~torch.Tensor.tolist` for all the values.
assert (predictions == labels).sum().item() == 3

# %%
# .. check:: a tensor of shape ``(1, 1)`` has one element, and ``item()`` converts it
assert torch.ones(1, 1).item() == 1.0

# %%
# .. _error-index-out-of-bounds:
#
# index … is out of bounds for dimension … with size …
# ----------------------------------------------------
# Raised by indexing a tensor with an integer outside its dimension, such as
# ``len(t)`` for the last element.
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
# ``n - 1``, and ``-n`` to ``-1`` counting from the end.
#
# **Fix.** Index the last element with ``-1`` (or ``len(t) - 1``).
#
# .. detail:: The dimension in the message
#
#    For an integer index the message names the dimension: ``t[:, 3]`` on a
#    tensor of shape ``(2, 3)`` reports dimension 1. For a list or tensor of
#    indices after a slice, ``t[:, [0, 3]]``, it says dimension 0: trust the
#    size it gives.
grid = torch.zeros(2, 3)
index_messages = []
for index in (3, [0, 3]):
    try:
        grid[:, index]
    except IndexError as error:
        index_messages.append(str(error))
        print(f"t[:, {index}]: {error}")
    else:
        raise AssertionError(f"t[:, {index}] did not raise")

# %%
# .. check:: ``t[3]`` names dimension 0, ``t[:, 3]`` dimension 1, ``t[:, [0, 3]]`` 0; ``-1`` is the last
assert "dimension 0 with size 3" in message
assert scores[-1] == scores[len(scores) - 1] == scores[2]
dimensions = ["dimension 1", "dimension 0"]  # of t[:, 3] and t[:, [0, 3]]
for index_message, dimension in zip(index_messages, dimensions, strict=True):
    assert f"{dimension} with size 3" in index_message

# %%
# .. _error-index-out-of-range-in-self:
#
# index out of range in self
# --------------------------
# Raised (as an :class:`IndexError`) on the CPU by :class:`torch.nn.Embedding`
# and :func:`torch.index_select` when an index is negative or too large: here
# a token id of 10 for a table of 10 rows.
embedding = torch.nn.Embedding(num_embeddings=10, embedding_dim=4)
token_ids = torch.tensor([3, 7, 10])
try:
    embedding(token_ids)
except IndexError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("embedding(token_ids) did not raise")

# %%
# .. check:: id 10 gets the heading's message, as do a negative id and ``index_select``
assert "index out of range in self" in message
for call in [
    lambda: embedding(torch.tensor([-1])),
    lambda: torch.index_select(torch.zeros(3), 0, torch.tensor([3])),
]:
    try:
        call()
    except IndexError as error:
        other_message = str(error)
    else:
        raise AssertionError("an id outside the table did not raise")
    assert other_message == "index out of range in self"

# %%
# **Why.** An embedding is a table with one row per id, ``0`` to
# ``num_embeddings - 1``, and ``self`` in the message is that table. The
# message names neither the index nor the size.
#
# **Fix.** Ids outside the table are wrong ids (another tokenizer's, a padding
# or unknown id equal to the vocabulary size, labels counted from 1), or the
# table is smaller than the vocabulary: fix the ids, or size the table from the
# vocabulary, not from one batch's ids. Then check the ids against the table.
vocabulary_size = 16  # len(vocabulary) of the tokenizer that made the ids
embedding = torch.nn.Embedding(vocabulary_size, embedding_dim=4)
assert 0 <= token_ids.min() <= token_ids.max() < embedding.num_embeddings

# %%
# .. check:: the message is only ``index out of range in self``; the larger table takes the ids
assert message == "index out of range in self"
assert embedding(token_ids).shape == (3, 4)

# %%
# See also: :ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py`,
# :ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_selection.py`,
# :ref:`sphx_glr_auto_examples_tensors_plot_04_arithmetic_and_broadcasting.py`,
# :ref:`sphx_glr_auto_examples_tensors_plot_07_views_and_strides.py`,
# :ref:`sphx_glr_auto_examples_tensors_plot_08_tensors_and_numpy.py` and
# :ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py`.
