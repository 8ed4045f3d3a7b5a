"""
Errors with dtypes and indices
==============================

This page explains three errors about what a tensor holds. A layer gets data
of another :term:`dtype`, an in-place operation would change a tensor's
dtype, or an embedding gets an id outside its table. Open it when one of
these messages stops your code. Each entry raises the error, prints the
message, says why it happens and runs the fix. The messages below were
printed on the CPU by the PyTorch that built the page.

**Before this page:**
:ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py`,
:ref:`sphx_glr_auto_examples_tensors_plot_03_indexing_and_selection.py`,
:ref:`sphx_glr_auto_examples_tensors_plot_08_tensors_and_numpy.py` and
:ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py`.
"""

# %%
import numpy as np
import torch

from tutorial_utils.environment import environment_summary

print(environment_summary("cpu"))

# %%
# .. _error-linear-dtype:
#
# mat1 and mat2 must have the same dtype
# --------------------------------------
# A :class:`torch.nn.Linear` layer raises it when its input has another dtype
# than its weights. ``mat1`` and ``mat2`` name the two matrices it
# multiplies: the input and the weights. Typically, float64 data from NumPy
# reaches a float32 model. With ``bias=False``, the layer words the mistake
# like a product with ``@``: see :ref:`error-matmul-dtype`. Here NumPy's
# ``np.linspace`` makes 12 evenly spaced numbers from 0 to 1.
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
# .. check:: float64 into a float32 layer: the heading's message, unless ``bias=False``
assert "mat1 and mat2 must have the same dtype" in message
assert (features.min(), features.max()) == (0.0, 1.0)
assert np.allclose(np.diff(features.ravel()), 1 / 11)
with torch.random.fork_rng(devices=[]):  # the layer draws its weights
    unbiased = torch.nn.Linear(3, 2, bias=False)
try:
    unbiased(batch)
except RuntimeError as error:
    unbiased_message = str(error)
else:
    raise AssertionError("a layer without bias took float64 data")
assert "mat1 and mat2" not in unbiased_message
assert "expected m1 and m2 to have the same dtype" in unbiased_message

# %%
# **Why.** NumPy's default float is float64. :func:`torch.from_numpy` and
# :func:`torch.tensor` keep the array's dtype. A layer's parameters are
# created in PyTorch's default dtype, which is float32 unless you change it.
#
# **Fix.** Convert the data once, where it is loaded, to the model's dtype.
# :func:`torch.as_tensor` with another dtype copies the data.
batch = torch.as_tensor(features, dtype=torch.float32)

# %%
# .. check:: NumPy data is float64 both ways; the layer is float32; the new batch goes through
assert torch.from_numpy(features).dtype == torch.tensor(features).dtype
assert torch.tensor(features).dtype == torch.float64
assert torch.get_default_dtype() == layer.weight.dtype == torch.float32
assert layer(batch).dtype == torch.float32
assert not np.shares_memory(batch.numpy(), features)

# %%
# .. _error-result-type-cast:
#
# result type … can't be cast to the desired output type …
# --------------------------------------------------------
# In-place arithmetic raises it: ``/=``, ``+=``, ``*=``,
# :meth:`~torch.Tensor.div_`, :meth:`~torch.Tensor.add_` or
# :meth:`~torch.Tensor.mul_`. The result would be of a higher kind than the
# tensor.
# The kinds, from low to high, are bool, integer, float and complex. Here,
# 8-bit pixel values are scaled to the range 0 to 1.
image = torch.tensor([[0, 128, 255]], dtype=torch.uint8)
try:
    image /= 255
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("image /= 255 did not raise")

# %%
# .. check:: ``/=`` on ``uint8`` gets the heading's message, as do ``+=``, ``*=``, ``add_``, ``mul_``
assert "result type" in message
assert "can't be cast to the desired output type" in message
steps = [lambda t: t.__iadd__(0.5), lambda t: t.__imul__(2.5), lambda t: t.add_(0.5)]
for step in [*steps, lambda t: t.mul_(2.5)]:
    try:
        step(image.clone())
    except RuntimeError as error:
        other_message = str(error)
    else:
        raise AssertionError("in-place float arithmetic on uint8 did not raise")
    assert "can't be cast to the desired output type" in other_message

# %%
# **Why.** An :term:`in-place operation` writes into the existing tensor. So
# its dtype cannot change. ``/`` always gives a float for integer inputs.
# The in-place operators above refuse to cast their result down to a lower
# kind. :func:`torch.can_cast` says which casts they allow.
#
# **Fix.** Compute out of place, which makes a new float tensor. Or convert
# first: ``image.float().div_(255)``.
#
# .. detail:: Writes that cast down
#
#    :meth:`~torch.Tensor.fill_`, :meth:`~torch.Tensor.copy_` and assignment
#    through an index do cast down. A float within the dtype's range is
#    truncated without an error: writing 0.7 into an integer tensor stores 0.
#    For a value outside the range, ``fill_`` and index assignment raise a
#    :class:`RuntimeError`. ``copy_`` from a float tensor raises nothing and
#    stores another number.
scaled = image / 255

# %%
# .. check:: ``/`` gives floats; no cast down; fixes agree; 0.7 truncates; ``fill_(300)`` raises
kinds = [torch.bool, torch.uint8, torch.float32, torch.complex64]
assert not any(torch.can_cast(kinds[i + 1], kinds[i]) for i in range(3))
assert (torch.tensor([4]) / torch.tensor([2])).dtype == torch.float32
assert (scaled.dtype, scaled.max().item()) == (torch.float32, 1.0)
assert torch.equal(image.float().div_(255), scaled)
whole = torch.zeros(3, dtype=torch.int64)
whole[0] = 0.7
whole[1:].fill_(0.7).copy_(torch.tensor([0.7, 0.7]))
assert whole.tolist() == [0, 0, 0]
pixels = torch.zeros(2, dtype=torch.uint8)
for write in [lambda: pixels.fill_(300), lambda: pixels.__setitem__(0, 300)]:
    try:
        write()
    except RuntimeError as error:
        other_message = str(error)
    else:
        raise AssertionError("writing 300 into uint8 did not raise")
    assert "without overflow" in other_message
pixels.copy_(torch.tensor([300.0, 300.0]))  # raises nothing

# %%
# .. _error-index-out-of-range-in-self:
#
# index out of range in self
# --------------------------
# An embedding, :class:`torch.nn.Embedding`, is a table with one row of
# numbers per id. Given a tensor of ids, it returns their rows. A tokenizer
# turns text into such ids, one per piece of text in its vocabulary. On the
# CPU, an embedding raises this :class:`IndexError` when an id is negative
# or too large. Here, token id 10 reaches a table of 10 rows.
# ``embedding_dim=4`` sets the length of each row.
#
# .. detail:: ``index_select`` raises it too
#
#    :func:`torch.index_select` picks rows of a tensor by index, along
#    dimension 0. It raises the same error there. Along another dimension,
#    its message differs.
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
# .. check:: ids 10 and -1 get the message; ``index_select`` on dimension 0 only
assert "index out of range in self" in message
for call in [
    lambda: embedding(torch.tensor([-1])),
    lambda: torch.index_select(torch.zeros(3), 0, torch.tensor([3])),
    lambda: torch.index_select(torch.zeros(3), 0, torch.tensor([-1])),
]:
    try:
        call()
    except IndexError as error:
        other_message = str(error)
    else:
        raise AssertionError("an id outside the table did not raise")
    assert other_message == "index out of range in self"
try:
    torch.index_select(torch.zeros(1, 3), 1, torch.tensor([3]))
except RuntimeError as error:
    other_message = str(error)
else:
    raise AssertionError("index_select along dimension 1 did not raise")
assert "index out of range in self" not in other_message

# %%
# **Why.** The table's rows have the ids ``0`` to ``num_embeddings - 1``.
# ``self`` in the message is that table. The message names neither the index
# nor the size.
#
# **Fix.** An id outside the table is either a wrong id, or the table is too
# small. Common wrong ids are:
#
# 1. ids made by another tokenizer;
# 2. a :term:`padding` id, or an id for words not in the vocabulary, equal
#    to the vocabulary size;
# 3. labels counted from 1.
#
# Fix the ids, or size the table from the whole vocabulary, not from one
# batch. Then check the ids against the table.
vocabulary_size = 16  # len(vocabulary) of the tokenizer that made the ids
embedding = torch.nn.Embedding(vocabulary_size, embedding_dim=4)
assert 0 <= token_ids.min() <= token_ids.max() < embedding.num_embeddings

# %%
# .. check:: the message is only ``index out of range in self``; the larger table takes the ids
assert message == "index out of range in self"
assert embedding(token_ids).shape == (3, 4)
assert torch.equal(embedding(token_ids), embedding.weight[token_ids])
grid = torch.arange(6).view(3, 2)
assert torch.index_select(grid, 0, torch.tensor([2, 0])).tolist() == [[4, 5], [0, 1]]

# %%
# More entries: :ref:`sphx_glr_auto_examples_errors_plot_01_tensor_errors.py`
# covers shapes, views, NumPy and indexing.
