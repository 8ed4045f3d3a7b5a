"""
Errors in models and training
=============================

The errors that loss functions and layers raise for targets or inputs of the
wrong dtype or shape, and two silent mistakes, in training and in evaluation.
The messages in the output were printed by the PyTorch that built the page.
"""

# %%
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
# :class:`torch.nn.CrossEntropyLoss` and :func:`~torch.nn.functional.nll_loss` when
# class indices have a dtype other than ``int64`` and ``uint8``: floating point, or
# another integer type such as ``int32``.
#
# .. detail:: Other wordings
#
#    torch 2.4 prints ``expected scalar type Long but found Float`` on the CPU. On a
#    CUDA GPU (default reduction) torch 2.4 says that its kernel
#    ``nll_loss_forward_reduce_cuda_kernel_2d_index`` is not implemented for
#    ``'Float'``.
torch.manual_seed(0)
logits = torch.randn(4, 3)
targets = torch.tensor([0.0, 2.0, 1.0, 2.0])
messages = []
for bad_targets in (targets, targets.int()):
    try:
        F.cross_entropy(logits, bad_targets)
    except RuntimeError as error:
        messages.append(str(error))
        print(f"{type(error).__name__}: {error}")
    else:
        raise AssertionError(f"cross_entropy with {bad_targets.dtype} did not raise")

# %%
# .. check:: float and ``int32`` targets both get the heading's message (torch 2.4: older wording)
new_wording = "expected target dtype to be Long or Byte, but got "
old_wording = "expected scalar type Long but found "  # torch 2.4
for message in messages:
    assert message.startswith((new_wording, old_wording))

# %%
# **Why.** :func:`~torch.nn.functional.cross_entropy` reads its targets in one of two
# ways. Targets with the same :term:`shape` as the :term:`logits`, ``(N, C)``, are
# class probabilities; any other shape, here ``(N,)``, holds one ``int64`` (``Long``)
# class index per example.
#
# **Fix.** Convert the indices with :meth:`~torch.Tensor.long`: it works for logits of
# every shape. ``uint8`` passes the dtype check, and with logits ``(N, C)`` gives the
# same loss while indices stay below 256 (larger ones wrap around silently: 300 becomes
# 44). But on the CPU, ``uint8`` masks (the usual dtype of decoded images) against
# per-pixel logits ``(N, C, H, W)`` fail with the message below.
loss = F.cross_entropy(logits, targets.long())
pixel_logits = torch.randn(2, 3, 4, 4)
masks = torch.randint(0, 3, (2, 4, 4), dtype=torch.uint8)
try:
    F.cross_entropy(pixel_logits, masks)
except RuntimeError as error:
    message = str(error)
    print(f"uint8 masks: {type(error).__name__}: {message}")
else:
    raise AssertionError("cross_entropy with uint8 masks did not raise")

# %%
# .. check:: ``uint8`` indices give the same loss, 300 wraps to 44, and ``uint8`` masks fail
torch.testing.assert_close(F.cross_entropy(logits, targets.to(torch.uint8)), loss)
assert torch.tensor(300.0).to(torch.uint8).item() == 44
assert "expected scalar type Long but found Byte" in message
assert F.cross_entropy(pixel_logits, masks.long()).isfinite()

# %%
# .. _error-class-probabilities-dtype:
#
# Expected floating point type for target with class probabilities, got …
# -----------------------------------------------------------------------
# Raised by :func:`~torch.nn.functional.cross_entropy` when the targets have the shape
# of the logits, ``(N, C)``, but an integer :term:`dtype`: :term:`one-hot` rows made by
# :func:`~torch.nn.functional.one_hot`, or 0/1 labels kept as a column ``(N, 1)`` for a
# model with one output column.
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
for message in messages:
    assert (
        "Expected floating point type for target with class probabilities, got "
        in message
    )

# %%
# **Why.** A target of shape ``(N, C)`` is read as a probability for every class (the
# second reading above), and probabilities must be floating-point.
# :func:`~torch.nn.functional.one_hot` returns ``int64``.
#
# **Fix.** Pass the class indices themselves, or convert rows of probabilities over
# ``C > 1`` classes with :meth:`~torch.Tensor.float`; without class weights, one-hot
# rows then give the same loss as their indices. For one output column, ``.float()``
# silences the error and hides a bug: a softmax over one class is 1, so the loss and
# its gradient are 0. One output needs the binary loss of :ref:`error-bce-target-size`.
from_indices = F.cross_entropy(logits, indices)
torch.testing.assert_close(F.cross_entropy(logits, one_hot.float()), from_indices)
print(f"loss {from_indices.item():.4f} both ways")
one_output = logits[:, :1].clone().requires_grad_()
silenced = F.cross_entropy(one_output, one_hot[:, :1].float())
silenced.backward()

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

# %%
# .. check:: a column of indices gets the heading's message
assert "0D or 1D target tensor expected, multi-target not supported" in message

# %%
# **Why.** With logits ``(N, C)``, class indices must have shape ``(N,)``. A column
# ``(N, 1)`` has a second :term:`dimension`: several targets per example, unsupported.
#
# **Fix.** Drop the extra dimension with :meth:`~torch.Tensor.squeeze`
# (``column.squeeze(1)``) or :meth:`~torch.Tensor.reshape` (``reshape(-1)``).
squeezed = F.cross_entropy(logits, column.squeeze(1))
print(f"loss with the column squeezed: {squeezed:.4f}")

# %%
# .. check:: the squeezed column gives the loss of the indices themselves
torch.testing.assert_close(squeezed, from_indices)

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

# %%
# .. check:: 6 rows of logits against 2 targets get the heading's message
assert "Expected input batch_size " in message
assert " to match target batch_size " in message.split("Expected input batch_size ")[1]

# %%
# **Why.** The loss pairs row ``i`` of the logits with element ``i`` of the targets:
# here ``2 * 3 = 6`` rows of logits (one per token) against 2 (one per sequence).
#
# **Fix.** Flatten the targets in the same order as the logits, or flatten nothing:
# the loss also takes logits ``(N, C, T)`` with targets ``(N, T)``.
#
# .. detail:: Time-major outputs
#
#    Recurrent layers without ``batch_first=True`` give ``(T, N, ...)``; flattening
#    their logits next to targets ``(N, T)`` pairs the wrong tokens without an error,
#    so transpose first.
flat_loss = F.cross_entropy(flat_logits, sequence_targets.reshape(-1))
unflattened = F.cross_entropy(sequence_logits.transpose(1, 2), sequence_targets)
torch.testing.assert_close(flat_loss, unflattened)
print(f"loss {flat_loss.item():.4f} both ways")

# %%
# .. check:: flattening time-major logits next to targets ``(N, T)`` gives another loss
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

# %%
# .. check:: logits ``(4, 1)`` against labels ``(4,)`` get the heading's message
assert "Target size " in message
assert " must be the same as input size " in message.split("Target size ")[1]

# %%
# **Why.** This loss compares logits and targets element by element and refuses to
# :term:`broadcast <broadcasting>` them: ``(4, 1)`` against ``(4,)`` would broadcast
# to a 4-by-4 table that pairs every output with every label (the trap described on
# :ref:`the loss functions page <sphx_glr_auto_examples_training_plot_04_loss_functions.py>`).
#
# **Fix.** Give both the same shape: squeeze the output, or unsqueeze the labels.
fixed = F.binary_cross_entropy_with_logits(binary_logits.squeeze(1), labels)
unsqueezed = F.binary_cross_entropy_with_logits(binary_logits, labels.unsqueeze(1))
print(f"loss {fixed.item():.4f}")

# %%
# .. check:: ``(4, 1)`` and ``(4,)`` broadcast to 4-by-4; squeeze and unsqueeze give one loss
assert torch.broadcast_shapes((4, 1), (4,)) == (4, 4)
torch.testing.assert_close(unsqueezed, fixed)

# %%
# .. _error-linear-in-features:
#
# mat1 and mat2 shapes cannot be multiplied
# -----------------------------------------
# Raised by :class:`torch.nn.Linear` when the last dimension of its input is not the
# layer's ``in_features``, typically the first layer after :class:`torch.nn.Flatten`
# when the images have another size than the model was written for. (The same message
# from ``@`` and :func:`torch.matmul` is explained in :ref:`error-matmul-shapes`.)
#
# .. detail:: On Apple GPUs
#
#    On Apple GPUs (MPS) the layer checks the sizes itself, and its message starts
#    ``linear(): input and weight.T shapes`` instead, with the input's last two sizes.
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
for message in messages:
    assert "mat1 and mat2 shapes cannot be multiplied" in message

# %%
# **Why.** ``nn.Linear(in_features, out_features)`` stores a ``weight`` of shape
# ``(out_features, in_features)`` and computes ``input @ weight.T + bias``. In the
# message, ``mat1`` is the input with all dimensions but the last merged into rows:
# 4 images of ``32 * 32 = 1024`` values after the ``Flatten``, but ``4 * 1 * 32 = 128``
# rows of 32 without it. ``mat2`` is ``weight.T``. The input's last dimension must
# equal ``in_features`` (784).
#
# **Fix.** Add a forgotten ``Flatten``, then make ``in_features`` the size that
# actually arrives: run one batch through the layers before the
# :class:`~torch.nn.Linear` and read it off (or resize the images to fit the model).
in_features = nn.Flatten()(images).shape[1]
model = nn.Sequential(nn.Flatten(), nn.Linear(in_features, 10))
print(f"in_features = {in_features}, output shape {tuple(model(images).shape)}")

# %%
# .. check:: ``mat1`` is 4x1024 after the ``Flatten``, 128x32 without; the fixed model runs
assert "(4x1024 and 784x10)" in messages[0]
assert "(128x32 and 784x10)" in messages[1]
assert model(images).shape == (4, 10)

# %%
# .. _error-batchnorm-one-value:
#
# Expected more than 1 value per channel when training, got input size …
# ----------------------------------------------------------------------
# Raised by :class:`torch.nn.BatchNorm1d` (and the other :term:`batch normalisation`
# layers) in training mode when a :term:`batch` holds one value per channel: for
# ``BatchNorm1d`` on ``(N, C)`` input, a batch of one example, often the last.
norm = nn.BatchNorm1d(4)
single = torch.randn(1, 4)
try:
    norm(single)
except ValueError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("BatchNorm1d on a batch of one did not raise")

# %%
# .. check:: a batch of one in training mode gets the heading's message
assert (
    "Expected more than 1 value per channel when training, got input size " in message
)

# %%
# **Why.** In training mode the layer normalises each channel with the batch's own
# mean and variance. A single value is its own mean: normalised, it would always
# become 0. In evaluation mode the layer uses its running statistics instead (tracked
# by default), so one example is fine.
#
# **Fix.** For predictions, call :meth:`~torch.nn.Module.eval` first. For training,
# avoid batches of one: ``drop_last=True`` in the :class:`~torch.utils.data.DataLoader`
# drops a last, partial batch (it cannot help with ``batch_size=1``).
#
# .. detail:: Without running statistics
#
#    Built with ``track_running_stats=False``, the layer has no running statistics.
#    It then raises this same message in evaluation mode too, "when training"
#    included.
print(f"in evaluation mode: {norm.eval()(single).shape}")

# %%
# .. check:: one example passes in eval mode, not without running stats; ``drop_last`` drops the 1
assert norm(single).shape == (1, 4)
loader = torch.utils.data.DataLoader(torch.arange(9.0), batch_size=4, drop_last=True)
with torch.random.fork_rng(devices=[]):  # iterating a DataLoader draws a seed
    assert [len(chunk) for chunk in loader] == [4, 4]  # without drop_last: 4, 4, 1
try:
    nn.BatchNorm1d(4, track_running_stats=False).eval()(single)
except ValueError as error:
    message = str(error)
else:
    raise AssertionError("BatchNorm1d without running stats did not raise")
assert "value per channel when training" in message

# %%
# .. _error-zero-grad:
#
# Loss swings instead of settling: gradients add up across steps
# --------------------------------------------------------------
# No error: :meth:`~torch.Tensor.backward` *adds* each new :term:`gradient` to the
# ``.grad`` already stored (two backward passes give twice the gradient of one), so a
# loop that never calls :meth:`torch.optim.Optimizer.zero_grad` steps with the sum of
# all the gradients so far. The same :term:`loss` and :term:`optimiser`, trained twice
# from the same initial weights, with and without ``optimizer.zero_grad()``:
torch.manual_seed(0)
X = torch.randn(64, 3)
y = X @ torch.tensor([1.0, -2.0, 0.5]) + 0.1 * torch.randn(64)
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

# %%
# .. check:: two backward passes give twice the gradient; only the loop with ``zero_grad`` settles
with torch.random.fork_rng(devices=[]):  # a new layer draws its initial weights
    probe = nn.Linear(3, 1)
F.mse_loss(probe(X).squeeze(1), y).backward()
once = probe.weight.grad.clone()
F.mse_loss(probe(X).squeeze(1), y).backward()
torch.testing.assert_close(probe.weight.grad, 2 * once)
assert (torch.tensor(histories[True]).diff() < 0).all()
assert rises >= 10
assert min(histories[False][-10:]) > 10 * right

# %%
# **Why.** Without a reset, each step moves the weights by the learning rate times the
# sum of every gradient so far, so the weights keep moving in the directions already
# taken after the gradient has turned. They swing past the minimum and back, so the
# loss falls, rises again and never settles.
#
# **Fix.** Call ``optimizer.zero_grad()`` once per step, before ``loss.backward()``,
# as in the loop above.

# %%
# .. _error-train-mode-eval:
#
# Predictions depend on the call and the batch: evaluating in train() mode
# ------------------------------------------------------------------------
# No error: :class:`~torch.nn.Dropout` and :class:`~torch.nn.BatchNorm1d` behave
# differently in training mode (after construction and :meth:`~torch.nn.Module.train`)
# and in evaluation mode (after :meth:`~torch.nn.Module.eval`). Evaluated in training
# mode, dropout makes outputs change from call to call, batch normalisation makes each
# example's output depend on the rest of its batch, and the model itself changes.
torch.manual_seed(0)
model = nn.Sequential(
    nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 1)
)
inputs = torch.randn(16, 4)
running_mean = model[1].running_mean.clone()
with torch.no_grad():
    first, second = model(inputs), model(inputs)
    model[3].eval()  # dropout off; BatchNorm1d still in training mode
    own, own_again = model(inputs)[:8], model(inputs)[:8]
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
print(f"train vs eval mode: up to {train_vs_eval:.3f}; running mean moved {moved:.3f}")

# %%
# .. check:: in train mode outputs and the running mean change; in eval mode nothing does
assert torch.equal(own_again, own)  # dropout off: batch-mates alone change outputs
assert min(between_calls, batch_mates, train_vs_eval, moved) > 0.01
torch.testing.assert_close(eval_first, eval_second, rtol=0, atol=0)
assert torch.equal(model[1].running_mean, running_mean)

# %%
# **Why.** In training mode :term:`dropout` zeroes each activation with probability
# 0.5, drawn afresh on every call (and doubles the rest), and
# :term:`batch normalisation` normalises with the batch's statistics and updates its
# running averages, even under :class:`torch.no_grad`. In evaluation mode dropout does
# nothing and batch normalisation uses the running averages (when it tracks them, the
# default): the same input gives the same output, and no buffer changes.
#
# **Fix.** Call ``model.eval()`` before validating or predicting and ``model.train()``
# before training again; :class:`torch.no_grad` (or :class:`torch.inference_mode`)
# only turns off gradient tracking and does not change the mode.

# %%
# See also: :ref:`sphx_glr_auto_examples_training_plot_04_loss_functions.py`,
# :ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py`,
# :ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py` and
# :ref:`sphx_glr_auto_examples_training_plot_06_validation_and_overfitting.py`.
