"""
Errors in models and training
=============================

The errors that loss functions and layers raise when targets or inputs have
the wrong dtype or shape, and two mistakes that raise nothing: one quietly
spoils training, the other evaluation. The messages in the output were printed
by the PyTorch that built the page.
"""

# %%
# The page runs on the CPU.
import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch import nn

from tutorial_utils.colours import PALETTE
from tutorial_utils.environment import environment_summary

print(environment_summary("cpu"))

# %%
# .. _error-target-dtype:
#
# expected target dtype to be Long or Byte, but got …
# ---------------------------------------------------
# Raised by :func:`~torch.nn.functional.cross_entropy`,
# :class:`torch.nn.CrossEntropyLoss` and :func:`~torch.nn.functional.nll_loss` when
# the targets are class indices stored as floating-point numbers.
torch.manual_seed(0)
logits = torch.randn(4, 3)
targets = torch.tensor([0.0, 2.0, 1.0, 2.0])
try:
    F.cross_entropy(logits, targets)
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("cross_entropy with float class indices did not raise")
new_wording = "expected target dtype to be Long or Byte, but got Float"
old_wording = "expected scalar type Long but found Float"  # torch 2.4
assert message in (new_wording, old_wording)

# %%
# **Why.** :func:`~torch.nn.functional.cross_entropy` reads its targets in one of two
# ways. Targets with the same :term:`shape` as the :term:`logits`, ``(N, C)``, are
# class probabilities; any other shape, here ``(N,)``, holds one class index per
# example, and indices must be integers: ``int64`` (``Long``), or ``uint8``
# (``Byte``). Labels read from a NumPy array or a CSV file often arrive as ``float32``
# or ``float64``. Older releases word it differently: torch 2.4 prints
# ``expected scalar type Long but found Float``.
#
# **Fix.** Convert the indices with :meth:`~torch.Tensor.long`. A ``uint8`` copy gives
# the same loss only while every class index is below 256: larger ones wrap around
# without an error (300 becomes 44).
loss = F.cross_entropy(logits, targets.long())
print(f"loss {loss.item():.4f}")
torch.testing.assert_close(F.cross_entropy(logits, targets.to(torch.uint8)), loss)
assert torch.tensor(300.0).to(torch.uint8).item() == 44

# %%
# .. _error-class-probabilities-dtype:
#
# Expected floating point type for target with class probabilities, got …
# -----------------------------------------------------------------------
# Raised by :func:`~torch.nn.functional.cross_entropy` when the targets have the shape
# of the logits, ``(N, C)``, but an integer :term:`dtype`, such as :term:`one-hot`
# rows made by :func:`~torch.nn.functional.one_hot`.
indices = torch.tensor([0, 2, 1, 2])
one_hot = F.one_hot(indices, num_classes=3)
print(f"one_hot: {one_hot.dtype}, shape {tuple(one_hot.shape)}")
try:
    F.cross_entropy(logits, one_hot)
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("cross_entropy with integer one-hot targets did not raise")
assert (
    "Expected floating point type for target with class probabilities, got " in message
)

# %%
# **Why.** A target of shape ``(N, C)`` is read as a probability for every class (the
# second reading above), and probabilities must be floating-point.
# :func:`~torch.nn.functional.one_hot` returns ``int64``.
#
# **Fix.** Pass the class indices themselves, or convert the rows with
# :meth:`~torch.Tensor.float`. Without class weights, one-hot probabilities give the
# same loss as the indices they encode. With ``weight=`` they do not: the mean over
# indices divides by the sum of the targets' weights, the mean over probabilities by
# the number of examples.
from_indices = F.cross_entropy(logits, indices)
from_probabilities = F.cross_entropy(logits, one_hot.float())
torch.testing.assert_close(from_probabilities, from_indices)
print(f"loss {from_indices.item():.4f} both ways")
weights = torch.tensor([1.0, 2.0, 3.0])
weighted = F.cross_entropy(logits, indices, weight=weights, reduction="none")
by_index = F.cross_entropy(logits, indices, weight=weights)
by_probability = F.cross_entropy(logits, one_hot.float(), weight=weights)
print(f"with weights: {by_index.item():.4f} vs {by_probability.item():.4f}")
torch.testing.assert_close(by_index, weighted.sum() / weights[indices].sum())
torch.testing.assert_close(by_probability, weighted.sum() / len(indices))

# %%
# .. _error-multi-target:
#
# 0D or 1D target tensor expected, multi-target not supported
# -----------------------------------------------------------
# Raised by :func:`~torch.nn.functional.cross_entropy` and
# :func:`~torch.nn.functional.nll_loss` when logits of shape ``(N, C)`` meet class
# indices of shape ``(N, 1)``: labels kept as a column.
column = indices.reshape(-1, 1)
try:
    F.cross_entropy(logits, column)
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("cross_entropy with (N, 1) targets did not raise")
assert "0D or 1D target tensor expected, multi-target not supported" in message

# %%
# **Why.** With logits of shape ``(N, C)``, the class indices must have shape
# ``(N,)``: one integer per example. A column ``(N, 1)`` has a second
# :term:`dimension`, which would mean several targets per example, and the loss does
# not support that.
#
# **Fix.** Drop the extra dimension with :meth:`~torch.Tensor.squeeze`
# (``column.squeeze(1)``) or :meth:`~torch.Tensor.reshape` (``reshape(-1)``).
assert column.squeeze(1).shape == (4,)
torch.testing.assert_close(F.cross_entropy(logits, column.squeeze(1)), from_indices)

# %%
# .. _error-batch-size-mismatch:
#
# Expected input batch_size … to match target batch_size …
# --------------------------------------------------------
# Raised by :func:`~torch.nn.functional.cross_entropy` and
# :func:`~torch.nn.functional.nll_loss` when the first dimension of the logits and of
# the targets differ; typically the logits of a sequence model were flattened and the
# targets were not.
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
assert "Expected input batch_size " in message
assert " to match target batch_size " in message.split("Expected input batch_size ")[1]

# %%
# **Why.** The loss pairs row ``i`` of the logits with element ``i`` of the targets,
# so both need the same number of examples in dimension 0. Here the logits have
# ``2 * 3 = 6`` rows (one per token) and the targets 2 rows (one per sequence).
#
# **Fix.** Flatten the targets the same way.
flat_loss = F.cross_entropy(flat_logits, sequence_targets.reshape(-1))
print(f"loss {flat_loss.item():.4f}")

# %%
# .. _error-bce-target-size:
#
# Target size … must be the same as input size …
# ----------------------------------------------
# Raised by :func:`~torch.nn.functional.binary_cross_entropy_with_logits` and
# :class:`torch.nn.BCEWithLogitsLoss` when the targets' shape differs from the
# logits', most often a model output ``(N, 1)`` against labels ``(N,)``.
binary_logits = torch.randn(4, 1)
labels = torch.tensor([1.0, 0.0, 0.0, 1.0])
try:
    F.binary_cross_entropy_with_logits(binary_logits, labels)
except ValueError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("BCE with logits of shape (N, 1) did not raise")
assert "Target size " in message
assert " must be the same as input size " in message.split("Target size ")[1]

# %%
# **Why.** This loss compares logits and targets element by element and refuses to
# :term:`broadcast <broadcasting>` them: ``(4, 1)`` against ``(4,)`` would broadcast
# to a 4-by-4 table that pairs every output with every label (the trap described on
# :ref:`the loss functions page <sphx_glr_auto_examples_training_plot_04_loss_functions.py>`).
#
# **Fix.** Give both the same shape: squeeze the output, or unsqueeze the labels.
assert torch.broadcast_shapes((4, 1), (4,)) == (4, 4)
fixed = F.binary_cross_entropy_with_logits(binary_logits.squeeze(1), labels)
torch.testing.assert_close(
    F.binary_cross_entropy_with_logits(binary_logits, labels.unsqueeze(1)), fixed
)
print(f"loss {fixed.item():.4f}")

# %%
# .. _error-linear-in-features:
#
# mat1 and mat2 shapes cannot be multiplied
# -----------------------------------------
# Raised by :class:`torch.nn.Linear` when the last dimension of its input is not the
# layer's ``in_features``, typically the first layer after :class:`torch.nn.Flatten`
# when the images have another size than the model was written for. (The same message
# from ``@`` and :func:`torch.matmul` is explained in :ref:`error-matmul-shapes`.)
model = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 10))
images = torch.zeros(4, 1, 32, 32)
try:
    model(images)
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("Linear with the wrong in_features did not raise")
assert "mat1 and mat2 shapes cannot be multiplied" in message

# %%
# **Why.** ``nn.Linear(in_features, out_features)`` stores a ``weight`` of shape
# ``(out_features, in_features)`` and computes ``input @ weight.T + bias``. In the
# message, ``mat1`` is the input, one row per example (here 4 images of
# ``32 * 32 = 1024`` values), and ``mat2`` is ``weight.T``, of shape
# ``in_features x out_features``. The input's last dimension (1024) must equal
# ``in_features`` (784).
layer = model[1]
assert layer.weight.shape == (layer.out_features, layer.in_features)
assert f"(4x1024 and {layer.in_features}x{layer.out_features})" in message

# %%
# **Fix.** Make ``in_features`` the size that actually arrives: run one batch through
# the layers before the :class:`~torch.nn.Linear` and read it off (or resize the
# images to the size the model was written for).
in_features = nn.Flatten()(images).shape[1]
model = nn.Sequential(nn.Flatten(), nn.Linear(in_features, 10))
assert model(images).shape == (4, 10)
print(f"in_features = {in_features}, output shape {tuple(model(images).shape)}")

# %%
# .. _error-batchnorm-one-value:
#
# Expected more than 1 value per channel when training, got input size …
# ----------------------------------------------------------------------
# Raised by :class:`torch.nn.BatchNorm1d` (and the other :term:`batch normalisation`
# layers) in training mode, or in any mode if built with ``track_running_stats=False``,
# when a :term:`batch` holds one value per channel: for ``BatchNorm1d`` on ``(N, C)``
# input, a batch of one example, often the last. (One image of several pixels gives
# :class:`~torch.nn.BatchNorm2d` enough values.)
norm = nn.BatchNorm1d(4)
single = torch.randn(1, 4)
try:
    norm(single)
except ValueError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("BatchNorm1d on a batch of one did not raise")
assert (
    "Expected more than 1 value per channel when training, got input size " in message
)

# %%
# **Why.** In training mode the layer normalises each channel with the batch's own
# mean and variance. A single value is its own mean: normalised, it would always
# become 0. In evaluation mode the layer uses its running statistics instead (tracked
# by default), so one example is fine; built with ``track_running_stats=False`` it has
# none, and raises this same message, "when training" included, in evaluation mode.
#
# **Fix.** For predictions, call :meth:`~torch.nn.Module.eval` first. For training,
# avoid batches of one: ``drop_last=True`` in the :class:`~torch.utils.data.DataLoader`.
assert norm.eval()(single).shape == (1, 4)
# sphinx_gallery_start_ignore
assert torch.equal(single - single.mean(dim=0), torch.zeros(1, 4))
assert nn.BatchNorm2d(4)(torch.randn(1, 4, 2, 2)).shape == (1, 4, 2, 2)
try:
    nn.BatchNorm1d(4, track_running_stats=False).eval()(single)
except ValueError as error:
    message = str(error)
else:
    raise AssertionError("BatchNorm1d without running stats did not raise")
assert "value per channel when training" in message
# sphinx_gallery_end_ignore

# %%
# .. _error-zero-grad:
#
# Loss swings instead of settling: gradients add up across steps
# --------------------------------------------------------------
# No error: :meth:`~torch.Tensor.backward` *adds* each new :term:`gradient` to the
# ``.grad`` already stored, so a loop that never calls
# :meth:`torch.optim.Optimizer.zero_grad` steps with the sum of all the gradients so
# far. Two backward passes of the same loss give twice the gradient of one.
torch.manual_seed(0)
X = torch.randn(64, 3)
y = X @ torch.tensor([1.0, -2.0, 0.5]) + 0.1 * torch.randn(64)
probe = nn.Linear(3, 1)
F.mse_loss(probe(X).squeeze(1), y).backward()
once = probe.weight.grad.clone()
F.mse_loss(probe(X).squeeze(1), y).backward()
torch.testing.assert_close(probe.weight.grad, 2 * once)

# %%
# The same :term:`loss` and :term:`optimiser`, trained twice from the same initial
# weights, with and without ``optimizer.zero_grad()``:
histories = {}
for zero_grad in (True, False):
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    histories[zero_grad] = []
    for _ in range(30):
        if zero_grad:
            optimizer.zero_grad()
        loss = F.mse_loss(model(X).squeeze(1), y)
        loss.backward()
        optimizer.step()
        histories[zero_grad].append(loss.item())
right, wrong = histories[True][-1], histories[False][-1]
rises = int((torch.tensor(histories[False]).diff() > 0).sum())
print(f"final loss {right:.4f} with zero_grad, {wrong:.4f} without ({rises} rises)")
assert (torch.tensor(histories[True]).diff() < 0).all()
assert rises >= 10
assert min(histories[False][-10:]) > 10 * right
optimizer.zero_grad()
assert model.weight.grad is None  # reset to None, not zeros, since torch 2.0

fig, ax = plt.subplots(figsize=(6, 3), layout="constrained")
ax.plot(histories[True], color=PALETTE[2], label="optimizer.zero_grad() each step")
ax.plot(histories[False], color=PALETTE[6], label="no zero_grad")
ax.set(xlabel="step", ylabel="training loss", yscale="log")
ax.legend()

# %%
# **Why.** Without a reset, each step moves the weights by the learning rate times the
# sum of every gradient so far, so the weights keep moving in the directions already
# taken after the gradient has turned. They swing past the minimum and back, so the
# loss falls, rises again and never settles (the curve above).
#
# **Fix.** Call ``optimizer.zero_grad()`` once per step, before ``loss.backward()``,
# as in the loop above. It resets each ``.grad`` (to ``None`` since torch 2.0).

# %%
# .. _error-train-mode-eval:
#
# Predictions depend on the call and the batch: evaluating in train() mode
# ------------------------------------------------------------------------
# No error: a model built with :class:`~torch.nn.Dropout` or
# :class:`~torch.nn.BatchNorm1d` behaves differently in training mode (the mode after
# construction and after :meth:`~torch.nn.Module.train`) and in evaluation mode (after
# :meth:`~torch.nn.Module.eval`). Evaluated in training mode, dropout makes outputs
# change from call to call, batch normalisation makes each example's output depend on
# the rest of its batch, and the model itself changes.
torch.manual_seed(0)
model = nn.Sequential(
    nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 1)
)
inputs = torch.randn(16, 4)
running_mean = model[1].running_mean.clone()
with torch.no_grad():
    assert model.training
    first, second = model(inputs), model(inputs)
    model[3].eval()  # dropout off; BatchNorm1d still in training mode
    own = model(inputs)[:8]
    assert torch.equal(model(inputs)[:8], own)
    mixed = model(torch.cat([inputs[:8], torch.randn(8, 4)]))[:8]
    moved = (model[1].running_mean - running_mean).abs().max().item()
    running_mean = model[1].running_mean.clone()
    model.eval()
    eval_first, eval_second = model(inputs), model(inputs)
between_calls = (first - second).abs().max().item()
train_vs_eval = (first - eval_first).abs().max().item()
batch_mates = (own - mixed).abs().max().item()
print(f"train mode: two calls differ by up to {between_calls:.3f}")
print(f"BatchNorm alone: other batch-mates change outputs by {batch_mates:.3f}")
print(f"train mode vs eval mode: differ by up to {train_vs_eval:.3f}")
print(f"BatchNorm running mean moved by up to {moved:.3f} in train mode")
assert min(between_calls, batch_mates, train_vs_eval, moved) > 0.01
torch.testing.assert_close(eval_first, eval_second, rtol=0, atol=0)
assert torch.equal(model[1].running_mean, running_mean)

# %%
# **Why.** In training mode :term:`dropout` zeroes each activation with probability
# 0.5, drawn afresh on every call (and doubles the rest), and
# :term:`batch normalisation` normalises with the current batch's statistics and
# updates its running averages, even under :class:`torch.no_grad`. In evaluation mode
# dropout does nothing and batch normalisation uses the stored running averages (when
# it tracks them, the default), so the same input always gives the same output, and no
# buffer changes.
#
# **Fix.** Call ``model.eval()`` before validating or predicting and ``model.train()``
# before training again; :class:`torch.no_grad` (or :class:`torch.inference_mode`)
# only turns off gradient tracking and does not change the mode.

# %%
# See also: :ref:`sphx_glr_auto_examples_training_plot_04_loss_functions.py`,
# :ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py`,
# :ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py` and
# :ref:`sphx_glr_auto_examples_training_plot_06_validation_and_overfitting.py`.
