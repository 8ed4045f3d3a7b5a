"""
Errors in models and training
=============================

This page explains the errors that loss functions and layers raise for
targets or inputs of the wrong dtype or shape. Each entry raises the error,
prints the message, says why and runs the fix. The PyTorch that built the
page printed the messages on the CPU.

**Before this page:**
:ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py` and
:ref:`sphx_glr_auto_examples_training_plot_04_loss_functions.py`.
"""

# %%
# Shapes are written with letters: ``N`` examples in a :term:`batch`, ``C``
# classes, ``T`` steps of a sequence, and an image's height ``H`` and width ``W``.
import torch
import torch.nn.functional as F
from torch import nn

from tutorial_utils.environment import environment_summary

print(environment_summary("cpu"))

# %%
# .. _error-target-dtype:
#
# expected target dtype to be Long or Byte, but got …
# ---------------------------------------------------
# Raised by :func:`~torch.nn.functional.cross_entropy`,
# :class:`torch.nn.CrossEntropyLoss` and :func:`~torch.nn.functional.nll_loss`.
# The class indices are not ``int64`` or ``uint8``, which the message calls
# ``Long`` and ``Byte``. Floats, ``int32`` and ``bool`` all raise it.
#
# .. detail:: Other wordings
#
#    Older releases, torch 2.4 among them, print ``expected scalar type Long
#    but found Float``, as this release still does for ``uint8`` labels. On
#    CUDA, torch 2.4 may say a :term:`kernel` is "not implemented for 'Float'".
torch.manual_seed(0)
logits = torch.randn(4, 3)
targets = torch.tensor([0.0, 2.0, 1.0, 2.0])
messages = []
for bad_targets in (targets, targets.int(), targets.bool()):  # to int32, bool
    try:
        F.cross_entropy(logits, bad_targets)
    except RuntimeError as error:
        messages.append(str(error))
        print(f"{type(error).__name__}: {error}")
    else:
        raise AssertionError(f"cross_entropy with {bad_targets.dtype} did not raise")

# %%
# .. check:: float, ``int32`` and ``bool`` get the heading's or the older message
new_wording = "expected target dtype to be Long or Byte, but got "
old_wording = "expected scalar type Long but found "  # older releases, e.g. 2.4
assert all(message.startswith((new_wording, old_wording)) for message in messages)

# %%
# **Why.** :func:`~torch.nn.functional.cross_entropy` reads a target with
# the :term:`shape` of the :term:`logits` as class probabilities. It reads
# any other shape as class indices, which should be ``int64``. That is one
# index per example for logits ``(N, C)``, and one per pixel for logits
# ``(N, C, H, W)``.
#
# **Fix.** Convert whole-number labels with :meth:`~torch.Tensor.long`. It
# drops a fraction silently, so check first that
# :meth:`~torch.Tensor.round` leaves the labels unchanged.
#
# Segmentation labels, one class per pixel, are often stored as ``uint8``.
# With logits ``(N, C, H, W)`` they raise, as below: convert them too.
#
# .. detail:: ``uint8`` class indices
#
#    With logits ``(N, C)``, ``uint8`` indices give the same loss as
#    ``int64``. But labels of 256 or more wrap around when converted to
#    ``uint8``: 300 becomes 44.
assert (targets == targets.round()).all()
loss = F.cross_entropy(logits, targets.long())
pixel_logits = torch.randn(2, 3, 4, 4)
pixel_labels = torch.randint(0, 3, (2, 4, 4), dtype=torch.uint8)
try:
    F.cross_entropy(pixel_logits, pixel_labels)
except RuntimeError as error:
    message = str(error)
    print(f"uint8 labels: {type(error).__name__}: {message}")
else:
    raise AssertionError("cross_entropy with uint8 pixel labels did not raise")

# %%
# .. check:: ``.long()`` drops fractions silently; the round test catches them
fractions = torch.tensor([0.7, 1.9, -0.5])
assert fractions.long().tolist() == [0, 1, 0]
assert (fractions != fractions.round()).all()

# %%
# .. check:: ``uint8`` works with logits ``(N, C)`` and fails with 3-d or 4-d logits
torch.testing.assert_close(F.cross_entropy(logits, targets.to(torch.uint8)), loss)
assert torch.tensor(300.0).to(torch.uint8).item() == 44  # wraps around silently
assert message.startswith(old_wording + "Byte")  # old wording, new release too
try:  # sequence logits (N, C, T), not only images
    F.cross_entropy(pixel_logits[..., 0], pixel_labels[..., 0])
except RuntimeError as error:
    message = str(error)
else:
    raise AssertionError("uint8 targets with logits (N, C, T) did not raise")
assert message.startswith(old_wording + "Byte")

# %%
# .. check:: logits ``(N, C, H, W)`` take one index per pixel, not per example
per_pixel = F.cross_entropy(pixel_logits, pixel_labels.long(), reduction="none")
assert per_pixel.shape == pixel_labels.shape == (2, 4, 4)

# %%
# .. _error-class-probabilities-dtype:
#
# Expected floating point type for target with class probabilities, got …
# -----------------------------------------------------------------------
# Raised by :func:`~torch.nn.functional.cross_entropy` when the targets have
# the shape of the logits but an integer :term:`dtype`. Typically, the
# targets are :term:`one-hot` rows from :func:`~torch.nn.functional.one_hot`,
# which returns ``int64``. Or they are 0/1 labels ``(N, 1)`` for a model with
# one output. Below, the column ``logits[:, :1]`` stands in for such a model.
indices = torch.tensor([0, 2, 1, 2])
one_hot = F.one_hot(indices, num_classes=3)
messages = []
for bad_logits, bad_targets in ((logits, one_hot), (logits[:, :1], one_hot[:, :1])):
    try:
        F.cross_entropy(bad_logits, bad_targets)
    except RuntimeError as error:
        messages.append(str(error))
        print(f"{type(error).__name__}: {error}")
    else:
        raise AssertionError("cross_entropy with integer (N, C) targets did not raise")

# %%
# .. check:: one-hot rows and a 0/1 column both get the heading's message
heading = "Expected floating point type for target with class probabilities, got "
assert all(heading in message for message in messages)

# %%
# **Why.** A target of the logits' shape holds a probability for every
# class. Probabilities must be floating-point.
#
# **Fix.** Pass the class indices themselves. Or, with ``C > 1`` classes,
# convert the rows with :meth:`~torch.Tensor.float`; the loss is the same.
#
# .. detail:: With the ``weight`` argument
#
#    ``weight`` scales each class's loss. With it, the default mean divides
#    by the summed weights for indices, but by ``N`` for float rows.
#
# With one output column, ``.float()`` silences the error but hides a bug.
# A :term:`softmax` over one class is 1, so the loss and its gradient are 0.
# One output needs the binary loss of :ref:`error-bce-target-size`. Below,
# ``clone().requires_grad_()`` makes the column a :term:`leaf` to read its ``.grad``.
from_indices = F.cross_entropy(logits, indices)
torch.testing.assert_close(F.cross_entropy(logits, one_hot.float()), from_indices)
print(f"loss {from_indices.item():.4f} both ways")
one_output = logits[:, :1].clone().requires_grad_()
silenced = F.cross_entropy(one_output, one_hot[:, :1].float())
silenced.backward()
print(f"gradient with one output column: {one_output.grad.tolist()}")

# %%
# .. check:: float targets are class probabilities, averaged over ``N``
probabilities = torch.softmax(logits.flip(0), dim=1)
by_hand = -(probabilities * F.log_softmax(logits, dim=1)).sum(dim=1).mean()
torch.testing.assert_close(F.cross_entropy(logits, probabilities), by_hand)
weight = torch.tensor([1.0, 2.0, 3.0])  # with weight, indices average differently
by_index = F.cross_entropy(logits, indices, weight=weight)
by_rows = F.cross_entropy(logits, one_hot.float(), weight=weight)
torch.testing.assert_close(by_index * weight[indices].sum(), by_rows * len(indices))

# %%
# .. check:: with one output column, ``.float()`` gives a loss of 0 and a zero gradient
assert silenced.item() == 0
assert not one_output.grad.any()

# %%
# .. _error-multi-target:
#
# 0D or 1D target tensor expected, multi-target not supported
# -----------------------------------------------------------
# Raised by :func:`~torch.nn.functional.cross_entropy` and
# :func:`~torch.nn.functional.nll_loss` when logits ``(N, C)`` meet class
# indices ``(N, 1)``: labels kept as a column.
column = indices.reshape(-1, 1)
try:
    F.cross_entropy(logits, column)
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("cross_entropy with (N, 1) targets did not raise")

# %%
# .. check:: a column of indices gets the heading's message
assert "0D or 1D target tensor expected, multi-target not supported" in message

# %%
# **Why.** With logits ``(N, C)``, class indices must have shape ``(N,)``. A
# column's second :term:`dimension` would hold several targets per example.
#
# **Fix.** Drop the extra dimension: ``column.squeeze(1)`` with
# :meth:`~torch.Tensor.squeeze`, or :meth:`~torch.Tensor.reshape` to ``-1``.
squeezed = F.cross_entropy(logits, column.squeeze(1))
torch.testing.assert_close(squeezed, from_indices)
print(f"loss with the column squeezed: {squeezed:.4f}, as with the indices")

# %%
# .. _error-batch-size-mismatch:
#
# Expected input batch_size … to match target batch_size …
# --------------------------------------------------------
# Raised by :func:`~torch.nn.functional.cross_entropy` and
# :func:`~torch.nn.functional.nll_loss` when the logits and the targets differ
# in their first dimension. Typically, logits with one set per step of a
# sequence, ``(N, T, C)``, were flattened to ``(N * T, C)``, but not their
# targets ``(N, T)``.
batch, steps, classes = 2, 3, 5
sequence_logits = torch.randn(batch, steps, classes)
sequence_targets = torch.randint(0, classes, (batch, steps))
flat_logits = sequence_logits.reshape(-1, classes)
try:
    F.cross_entropy(flat_logits, sequence_targets)
except ValueError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("cross_entropy with mismatched batch sizes did not raise")

# %%
# .. check:: 6 rows of logits against 2 targets get the heading's message
assert " to match target batch_size " in message.split("Expected input batch_size ")[1]

# %%
# **Why.** The loss pairs row ``i`` of the logits with row ``i`` of the
# targets. Here it gets ``2 * 3 = 6`` rows of logits, one per step, but 2
# rows of targets, one per sequence.
#
# **Fix.** Flatten the targets too, with ``reshape(-1)``. Or flatten
# nothing. The loss reads the classes from dimension 1, so move them there:
# :meth:`~torch.Tensor.transpose` ``(1, 2)`` turns ``(N, T, C)`` into
# ``(N, C, T)``.
#
# .. detail:: Time-major outputs
#
#    A recurrent layer such as :class:`torch.nn.GRU` reads a sequence one
#    step at a time. By default it returns ``(T, N, ...)``, steps first;
#    ``batch_first=True`` puts ``N`` first. Flattened as they are, such
#    outputs and targets ``(N, T)`` pair the wrong rows, with no error.
flat_loss = F.cross_entropy(flat_logits, sequence_targets.reshape(-1))
unflattened = F.cross_entropy(sequence_logits.transpose(1, 2), sequence_targets)
torch.testing.assert_close(flat_loss, unflattened)
print(f"loss {flat_loss.item():.4f} both ways")

# %%
# .. check:: without the transpose: an error, or a wrong loss when ``T`` equals ``C``
try:
    F.cross_entropy(sequence_logits, sequence_targets)
except RuntimeError as error:
    message = str(error)
else:
    raise AssertionError("(N, T, C) logits with T != C did not raise")
assert "Expected target size" in message
square, square_targets = sequence_logits[..., :steps], sequence_targets % steps
right = F.cross_entropy(square.transpose(1, 2), square_targets)
assert not torch.isclose(F.cross_entropy(square, square_targets), right)

# %%
# .. check:: a GRU returns ``(T, N, ...)`` unless ``batch_first``; flattening mispairs
with torch.random.fork_rng(devices=[]):  # a new layer draws its initial weights
    gru = nn.GRU(input_size=2, hidden_size=classes)
    gru_batch_first = nn.GRU(input_size=2, hidden_size=classes, batch_first=True)
assert gru(torch.zeros(steps, batch, 2))[0].shape == (steps, batch, classes)
assert gru_batch_first(torch.zeros(batch, steps, 2))[0].shape == (batch, steps, classes)
time_major = sequence_logits.transpose(0, 1).reshape(-1, classes)
mispaired = F.cross_entropy(time_major, sequence_targets.reshape(-1))
assert not torch.isclose(mispaired, flat_loss)

# %%
# .. _error-bce-target-size:
#
# Target size … must be the same as input size …
# ----------------------------------------------
# Raised by :func:`~torch.nn.functional.binary_cross_entropy_with_logits` and
# :class:`torch.nn.BCEWithLogitsLoss` when the targets' shape differs from the
# logits'. Most often, a model output ``(N, 1)`` meets labels ``(N,)``.
binary_logits = torch.randn(4, 1)
labels = torch.tensor([1.0, 0.0, 0.0, 1.0])
try:
    F.binary_cross_entropy_with_logits(binary_logits, labels)
except ValueError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("BCE with logits of shape (N, 1) did not raise")

# %%
# .. check:: logits ``(4, 1)`` against labels ``(4,)`` get the heading's message
assert " must be the same as input size " in message.split("Target size ")[1]

# %%
# **Why.** This loss compares logits and targets element by element. It
# refuses to :term:`broadcast <broadcasting>` them: ``(4, 1)`` against
# ``(4,)`` would give a 4-by-4 table that pairs every output with every label.
#
# **Fix.** Give both the same shape: ``squeeze(1)`` the output or unsqueeze the labels.
#
# .. detail:: Not a bare ``squeeze()``
#
#    A bare ``squeeze()`` drops every dimension of size 1. On a last batch
#    of one, the output ``(1, 1)`` becomes ``()``, unlike the labels ``(1,)``.
fixed = F.binary_cross_entropy_with_logits(binary_logits.squeeze(1), labels)
print(f"loss {fixed.item():.4f}")

# %%
# .. check:: ``(4, 1)`` and ``(4,)`` broadcast to 4-by-4; both fixes give one loss
assert torch.broadcast_shapes((4, 1), (4,)) == (4, 4)
unsqueezed = F.binary_cross_entropy_with_logits(binary_logits, labels.unsqueeze(1))
torch.testing.assert_close(unsqueezed, fixed)

# %%
# .. check:: on a batch of one, a bare ``squeeze()`` fails and ``squeeze(1)`` works
last_logits, last_labels = binary_logits[:1], labels[:1]
try:
    F.binary_cross_entropy_with_logits(last_logits.squeeze(), last_labels)
except ValueError as error:
    message = str(error)
else:
    raise AssertionError("a bare squeeze() on a batch of one did not raise")
assert "Target size " in message
assert last_logits.squeeze().shape == ()
assert F.binary_cross_entropy_with_logits(last_logits.squeeze(1), last_labels) >= 0

# %%
# .. _error-linear-in-features:
#
# mat1 and mat2 shapes cannot be multiplied
# -----------------------------------------
# Raised by :class:`torch.nn.Linear` when the last dimension of its input is
# not the layer's ``in_features``. Typically, the layer follows a
# :class:`torch.nn.Flatten`, which flattens all but the batch dimension. And
# the images have another size than the model expects. For ``@`` and
# :func:`torch.matmul`, see :ref:`error-matmul-shapes`.
#
# .. detail:: On Apple GPUs
#
#    On Apple GPUs, the MPS device, the layer checks the sizes itself. Its
#    message starts ``linear(): input and weight.T shapes`` instead.
layer = nn.Linear(28 * 28, 10)
images = torch.zeros(4, 1, 32, 32)
messages = []
for model in (nn.Sequential(nn.Flatten(), layer), layer):  # then Flatten forgotten
    try:
        model(images)
    except RuntimeError as error:
        messages.append(str(error))
        print(f"{type(error).__name__}: {error}")
    else:
        raise AssertionError("Linear with the wrong in_features did not raise")

# %%
# .. check:: with and without the ``Flatten``, the layer gets the heading's message
assert all("mat1 and mat2 shapes cannot be multiplied" in m for m in messages)

# %%
# **Why.** ``nn.Linear(in_features, out_features)`` stores a ``weight`` of
# shape ``(out_features, in_features)``, and the layer's ``bias``. It
# computes ``input @ weight.T + bias``. So the input's last dimension must
# equal ``in_features``, here 784. In the message, ``mat2`` is ``weight.T``.
# ``mat1`` is the input with all dimensions but the last merged into rows:
#
# - after the ``Flatten``, 4 images of ``32 * 32 = 1024`` values;
# - without it, ``4 * 1 * 32 = 128`` rows of 32 values.
#
# **Fix.** Add a forgotten ``Flatten``. Then set ``in_features`` to the
# number of values per example that reach the :class:`~torch.nn.Linear`. To
# find it, run the earlier layers on one batch and read ``shape[1]``. Or
# resize the images.
in_features = nn.Flatten()(images).shape[1]
model = nn.Sequential(nn.Flatten(), nn.Linear(in_features, 10))
print(f"in_features = {in_features}, output shape {tuple(model(images).shape)}")

# %%
# .. check:: ``mat1`` is 4x1024 with ``Flatten``, 128x32 without; the fix runs
assert "(4x1024 and 784x10)" in messages[0]
assert "(128x32 and 784x10)" in messages[1]
assert model(images).shape == (4, 10)
assert in_features == images[0].numel() == 32 * 32  # values in one example

# %%
# See also: :ref:`sphx_glr_auto_examples_training_plot_04_loss_functions.py`,
# and :ref:`sphx_glr_auto_examples_training_plot_54_more_on_losses.py` for
# class probabilities as targets. Mistakes in the training loop are on
# :ref:`sphx_glr_auto_examples_errors_plot_07_training_loop_mistakes.py`.
