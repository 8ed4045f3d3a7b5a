"""
Mistakes in the training loop
=============================

This page explains three mistakes made in a training or evaluation loop. A
batch of one reaches batch normalisation, the gradients are never reset, or
a model is evaluated in training mode. Only the first raises an error. Each
entry shows the mistake, says why and runs the fix. The PyTorch that built
the page printed the outputs on the CPU.

**Before this page:**
:ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py`,
:ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`,
:ref:`sphx_glr_auto_examples_training_plot_05_optimisers_and_learning_rates.py`,
:ref:`sphx_glr_auto_examples_training_plot_06_validation_and_overfitting.py`
and :ref:`sphx_glr_auto_examples_training_plot_56_batch_normalisation.py`.
"""

# %%
import torch
import torch.nn.functional as F
from torch import nn

from tutorial_utils.environment import environment_summary

print(environment_summary("cpu"))

# %%
# .. _error-batchnorm-one-value:
#
# Expected more than 1 value per channel when training, got input size …
# ----------------------------------------------------------------------
# Raised by :class:`torch.nn.BatchNorm1d` and the other
# :term:`batch normalisation` layers in training mode. The error comes when a
# :term:`batch` holds only one value per channel. For ``BatchNorm1d`` on input
# ``(N, C)``, with ``N`` examples of ``C`` channels, that is a batch of one
# example. Often it is the last batch of an epoch.
torch.manual_seed(0)
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
heading = "Expected more than 1 value per channel when training, got input size "
assert heading in message

# %%
# **Why.** In training mode, the layer normalises each channel with the
# batch's own mean and variance. A single value is its own mean, so
# normalising it gives 0, and the output is just the layer's bias. In
# evaluation mode, the layer uses the running statistics that it tracks by
# default instead. So one example is fine.
#
# **Fix.** For predictions, call :meth:`~torch.nn.Module.eval` first. For
# training, avoid batches of one: ``drop_last=True`` in the
# :class:`~torch.utils.data.DataLoader` drops a last, partial batch. It
# cannot help with ``batch_size=1``.
#
# .. detail:: Without running statistics
#
#    Built with ``track_running_stats=False``, the layer has no running
#    statistics. It then raises this same message in evaluation mode too.
#    The message still says "when training", though the layer is in
#    evaluation mode.
#
# Below, ``norm.eval()`` returns the layer itself, now in evaluation mode.
print(f"in evaluation mode: {norm.eval()(single).shape}")

# %%
# .. check:: ``drop_last=True`` drops a last batch of one, but not batches of size 1
loader = torch.utils.data.DataLoader(torch.arange(9.0), batch_size=4, drop_last=True)
ones = torch.utils.data.DataLoader(torch.arange(3.0), batch_size=1, drop_last=True)
with torch.random.fork_rng(devices=[]):  # iterating a DataLoader draws a seed
    assert [len(chunk) for chunk in loader] == [4, 4]  # without drop_last: 4, 4, 1
    assert [len(chunk) for chunk in ones] == [1, 1, 1]

# %%
# .. check:: in training mode, a lone value would come out as the layer's bias
bias = torch.arange(4.0)  # the operation under the layer, without its size test
lone = torch.batch_norm(single, None, bias, None, None, True, 0.1, 1e-5, False)
torch.testing.assert_close(lone, bias.unsqueeze(0), rtol=0, atol=1e-4)  # rounding

# %%
# .. check:: one example passes in eval mode, unless the layer has no running stats
assert norm(single).shape == (1, 4)
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
# Loss does not settle: gradients add up across steps
# ---------------------------------------------------
# No error. :meth:`~torch.Tensor.backward` *adds* each new :term:`gradient`
# to the ``.grad`` already stored. So two backward passes give twice the
# gradient of one. A loop that never calls
# :meth:`torch.optim.Optimizer.zero_grad` steps with the sum of all the
# gradients so far.
#
# Below, the same :term:`loss` and :term:`optimiser` train the same model
# twice, with and without ``optimizer.zero_grad()``:
#
# - ``X`` and ``y`` are 64 toy examples: ``y`` is linear in ``X``, plus noise;
# - ``torch.manual_seed(0)`` before each model gives both runs the same
#   initial weights;
# - ``squeeze(1)`` turns the model's ``(N, 1)`` output into ``(N,)``, like
#   ``y``, as in :ref:`sphx_glr_auto_examples_training_plot_04_loss_functions.py`;
# - the optimiser is plain SGD: no momentum, no weight decay.
#
# A *rise* is a step whose loss is higher than the step before.
# :meth:`~torch.Tensor.diff` gives the differences between neighbouring
# elements, so its positive elements count the rises.
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
# .. check:: two backward passes add up; only the loop with ``zero_grad`` settles
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
# **Why.** Without a reset, old gradients keep pushing the weights the old
# way, even once the new gradient points back. So the weights swing past the
# minimum and back: the loss falls, rises again and does not settle.
#
# .. detail:: Other optimisers
#
#    Other optimisers show the same mistake differently. With
#    :term:`momentum`, the loss can blow up to infinity. With Adam at a small
#    learning rate, the first steps can look normal, and the rises come later.
#
# **Fix.** Call ``optimizer.zero_grad()`` once per step, before
# ``loss.backward()``, as in the loop above. Only code that adds up several
# batches' gradients on purpose resets less often.

# %%
# .. check:: without ``zero_grad``, momentum blows up; Adam at lr 0.01 rises later
with torch.random.fork_rng(devices=[]):  # new layers draw their initial weights
    for make in (
        lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9),
        lambda p: torch.optim.Adam(p, lr=0.01),
    ):
        torch.manual_seed(0)
        probe = nn.Linear(3, 1)
        steps, probe_optimizer = [], make(probe.parameters())
        for _ in range(300):
            steps.append(F.mse_loss(probe(X).squeeze(1), y))
            steps[-1].backward()
            probe_optimizer.step()
        steps = torch.stack(steps).detach()
        if isinstance(probe_optimizer, torch.optim.SGD):
            assert steps[:30].max() > 1000 * steps[0]
            assert not steps.isfinite().all()
        else:
            assert (steps[:30].diff() < 0).all()
            assert (steps.diff() > 0).sum() >= 10

# %%
# .. _error-train-mode-eval:
#
# Predictions depend on the call and the batch: evaluating in train() mode
# ------------------------------------------------------------------------
# No error. Some layers behave differently in training mode and in
# evaluation mode, such as :class:`~torch.nn.Dropout` and
# :class:`~torch.nn.BatchNorm1d`. A
# module is in training mode after construction and after
# :meth:`~torch.nn.Module.train`. It is in evaluation mode after
# :meth:`~torch.nn.Module.eval`.
#
# The model below has both layers. ``model[1]`` is its
# ``BatchNorm1d``, and ``model[3]`` its ``Dropout``. The attribute
# ``running_mean`` of the ``BatchNorm1d`` holds its running average of the
# batch means. In training mode, two calls on the same inputs differ:
# dropout draws its zeros afresh on every call.
torch.manual_seed(0)
model = nn.Sequential(
    nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dropout(0.5), nn.Linear(8, 1)
)
inputs = torch.randn(16, 4)
running_mean = model[1].running_mean.clone()
with torch.no_grad():
    first, second = model(inputs), model(inputs)
between_calls = (first - second).abs().max().item()
print(f"train mode: two calls differ by up to {between_calls:.3f}")

# %%
# Next, ``model[3].eval()`` turns dropout off, but leaves batch normalisation
# in training mode. Each example's output now depends on the other examples
# of its batch. Below, the first 8 inputs go through once with their usual
# batch-mates and once with 8 others. The running mean also moves, even
# under :class:`torch.no_grad`.
model[3].eval()
with torch.no_grad():
    own = model(inputs)[:8]
    mixed = model(torch.cat([inputs[:8], torch.randn(8, 4)]))[:8]
moved = (model[1].running_mean - running_mean).abs().max().item()
batch_mates = (own - mixed).abs().max().item()
print(f"BatchNorm alone: other batch-mates change outputs by {batch_mates:.3f}")
print(f"running mean moved by up to {moved:.3f}")

# %%
# .. check:: with dropout off, the same batch gives the same outputs again
import copy

with torch.no_grad():  # a copy: BatchNorm in training mode updates its running mean
    assert torch.equal(copy.deepcopy(model)(inputs)[:8], own)

# %%
# In evaluation mode, the same input gives the same output, and the running
# mean stays put.
running_mean = model[1].running_mean.clone()
model.eval()
with torch.no_grad():
    eval_first, eval_second = model(inputs), model(inputs)
print(f"eval mode, same output twice: {torch.equal(eval_first, eval_second)}")
print(f"running mean unchanged: {torch.equal(model[1].running_mean, running_mean)}")

# %%
# .. check:: train mode changes outputs and the running mean; eval mode neither
train_vs_eval = (first - eval_first).abs().max().item()
assert min(between_calls, batch_mates, train_vs_eval, moved) > 0.01
torch.testing.assert_close(eval_first, eval_second, rtol=0, atol=0)
assert torch.equal(model[1].running_mean, running_mean)

# %%
# **Why.** In training mode, :term:`dropout` zeroes each activation with
# probability 0.5, drawn afresh on every call, and doubles the rest.
# :term:`Batch normalisation <batch normalisation>` normalises with the
# batch's statistics and updates its running averages. In evaluation mode,
# dropout does nothing. Batch normalisation uses its running averages, which
# it tracks by default.
#
# **Fix.** Call ``model.eval()`` before validating or predicting, and
# ``model.train()`` before training again. :class:`torch.no_grad` and
# :class:`torch.inference_mode` turn off gradient tracking, but they do not
# change the mode.

# %%
# .. check:: ``inference_mode`` keeps the mode: dropout still drops, doubles the rest
dropout, evaluated = nn.Dropout(0.5), nn.Dropout(0.5).eval()
with torch.random.fork_rng(devices=[]), torch.inference_mode():
    dropped = dropout(torch.ones(100))
    assert dropout.training
    assert not evaluated.training
assert set(dropped.unique().tolist()) == {0.0, 2.0}

# %%
# See also: :ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`,
# :ref:`sphx_glr_auto_examples_training_plot_06_validation_and_overfitting.py`
# and :ref:`sphx_glr_auto_examples_training_plot_56_batch_normalisation.py`.
# Errors of loss functions and layers are on
# :ref:`sphx_glr_auto_examples_errors_plot_03_training_errors.py`.
