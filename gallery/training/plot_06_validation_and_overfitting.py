"""
Validation and overfitting
==========================

After this page you can hold out a validation set, see a model overfit, and
stop its training early. You can also switch dropout between training and
evaluation mode.

**Before this page:**
:ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py` and
:ref:`sphx_glr_auto_examples_training_plot_05_optimisers_and_learning_rates.py`.
"""

# %%
# Every page starts by saying what computed it: here, the CPU.
import copy

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Subset, TensorDataset, random_split

from tutorial_utils.colours import PALETTE
from tutorial_utils.data import load_digits_tensors
from tutorial_utils.environment import environment_summary
from tutorial_utils.models import MLP
from tutorial_utils.training import evaluate, train_one_epoch

device = torch.device("cpu")
print(environment_summary(device))

# %%
# Training, validation and test sets
# ----------------------------------
# The test images measure the finished model, once. Choices on the way,
# such as when to stop, need a :term:`validation set` from the training
# images.
#
# :func:`torch.utils.data.random_split` splits a data set at random, by
# fractions that add up to 1 or by lengths. It returns one
# :class:`~torch.utils.data.Subset` per part. ``Subset(data_set, indices)``
# holds a data set and a sequence of indices. Its item ``i`` is the data
# set's item ``indices[i]``, looked up when asked, not copied. With its own
# ``generator=``, ``random_split`` leaves the global generator alone. The
# same seed repeats the split.
digits = load_digits_tensors(seed=0)
training_images = TensorDataset(digits.train_features, digits.train_labels)
train_set, val_set = random_split(
    training_images, [0.8, 0.2], generator=torch.Generator().manual_seed(0)
)
print(f"{len(training_images)} images: {len(train_set)} + {len(val_set)}")

# %%
# .. check:: with a ``generator=`` of its own, the split leaves the global generator alone
with torch.random.fork_rng(devices=[]):
    global_state = torch.get_rng_state()
    random_split(training_images, [0.8, 0.2], generator=torch.Generator())
    assert torch.equal(torch.get_rng_state(), global_state)
assert isinstance(train_set, Subset)
assert train_set.dataset is training_images  # looked up there, not copied
assert train_set[3][0].data_ptr() == training_images[train_set.indices[3]][0].data_ptr()
assert set(train_set.indices).isdisjoint(val_set.indices)

# %%
# The split is not stratified: each digit's share of the validation set is only
# roughly its overall share. :func:`torch.bincount` counts each digit among the
# validation labels, ``digits.train_labels[val_set.indices]``. The second line
# shows a fifth of each digit's total, rounded down, for comparison.
#
# .. detail:: How fractions become lengths
#
#    Each fraction times the length is rounded down, in floating point. The
#    items left over go one each to the parts, from the first. ``0.29 * 100``
#    falls just short of 29, so 0.71 and 0.29 of 100 items round to 71 and 28.
#    The 1 item left over goes to the first part: 72 and 28.
#
#    ``random_split`` adds the fractions with Python's ``sum()``. Before Python
#    3.12, that sum of 0.33, 0.56 and 0.11 is just above 1. These fractions are
#    then refused with a message about lengths. From Python 3.12, ``sum()``
#    adds floats more exactly, so there they are accepted.
per_digit = torch.bincount(digits.train_labels[val_set.indices])
print("validation images per digit:", per_digit)
print("a fifth of each digit's total:", torch.bincount(digits.train_labels) // 5)

# %%
# .. check:: lengths round down, leftovers go one each from the first; a seed repeats; unstratified
import sys

n = len(training_images)
assert (len(train_set), len(val_set)) == (int(0.8 * n) + 1, int(0.2 * n))
with torch.random.fork_rng(devices=[]):
    assert [len(s) for s in random_split(range(100), [0.71, 0.29])] == [72, 28]
    assert [len(s) for s in random_split(range(10), [0.25] * 4)] == [3, 3, 2, 2]
    torch.rand(3)  # another random draw, then the same seed and lengths
    lengths = [len(train_set), len(val_set)]
    seeded = torch.Generator().manual_seed(0)
    again = random_split(training_images, lengths, generator=seeded)
    assert [s.indices for s in again] == [train_set.indices, val_set.indices]
    try:
        _got = [len(_p) for _p in random_split(range(100), [0.33, 0.56, 0.11])]
    except ValueError as error:
        _got = str(error)
    else:
        assert sys.version_info >= (3, 12), "before Python 3.12 these are refused"
    _before_312 = sys.version_info < (3, 12)
    assert (sum([0.33, 0.56, 0.11]) > 1) == _before_312  # the Python, not PyTorch
    assert "lengths" in _got if _before_312 else _got == [33, 56, 11]
assert (per_digit - torch.bincount(digits.train_labels) * 0.2).abs().max() > 2

# %%
# Learning curves
# ---------------
# To overfit is to fit the training images so closely that new ones do worse.
# To do so quickly, ``MLP(64, [256, 256], 10)`` trains on the first 150
# training images, ``Subset(train_set, range(150))``. Its two hidden layers of
# 256 give it over 500 parameters per image. That many let it fit each image
# closely. The images form one :term:`batch`, so an :term:`epoch` is one step
# of Adam.
#
# Each epoch ends with a validation pass in :meth:`~torch.nn.Module.eval` mode.
# It runs under :class:`torch.inference_mode`. Like :class:`torch.no_grad`, that
# records no :term:`computational graph`.
#
# .. detail:: Inference tensors
#
#    Tensors computed under :class:`torch.inference_mode` are
#    :term:`inference tensors <inference tensor>`. Autograd refuses to save
#    one for a backward pass. So use ``inference_mode`` where outputs serve
#    only for measuring, and ``no_grad`` where they may meet training later.
small_train = Subset(train_set, range(150))
train_loader = DataLoader(small_train, batch_size=len(small_train))
val_loader = DataLoader(val_set, batch_size=len(val_set))
torch.manual_seed(0)
wide = MLP(64, [256, 256], 10)
optimizer = torch.optim.Adam(wide.parameters(), lr=3e-3)
epochs = 60
train_losses, val_losses, val_accuracies = [], [], []
for _ in range(epochs):
    wide.train()
    total = 0.0
    for inputs, targets in train_loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(wide(inputs), targets)
        loss.backward()
        optimizer.step()
        total += loss.item() * len(targets)  # each image counts once
    train_losses.append(total / len(small_train))
    wide.eval()
    total, correct = 0.0, 0
    with torch.inference_mode():
        for inputs, targets in val_loader:
            logits = wide(inputs)
            total += F.cross_entropy(logits, targets, reduction="sum").item()
            correct += (logits.argmax(dim=1) == targets).sum().item()
    val_losses.append(total / len(val_set))
    val_accuracies.append(correct / len(val_set))
best = val_losses.index(min(val_losses))  # the best epoch, counted from 0
print(f"lowest validation loss {val_losses[best]:.3f} after epoch {best + 1}")
print(f"after epoch {epochs}: training loss {train_losses[-1]:.5f}", end=", ")
print(f"validation loss {val_losses[-1]:.3f}")

# %%
# .. check:: 500+ parameters per image, all 150 fit; validation logits are inference
with torch.random.fork_rng(devices=[]):  # a loader draws a seed
    assert evaluate(wide, train_loader).accuracy == 1
assert logits.is_inference()
assert logits.grad_fn is None
assert sum(p.numel() for p in wide.parameters()) > 500 * len(small_train)
assert len(train_loader) == 1  # one batch: one step per epoch
_w = torch.ones(3, requires_grad=True)
try:
    (logits[0, :3] * _w).sum()  # a product saves its inputs for backward
except RuntimeError as error:
    _message = str(error)
else:
    raise AssertionError("autograd saved an inference tensor for backward")
assert "saved for backward" in _message

# %%
# Drawn against the epoch, the :term:`losses <loss>` are the
# :term:`learning curves <learning curve>`. The training loss falls at every
# epoch, to below 0.01. The validation loss falls to its lowest point, then
# rises to over 1.5 times that. The parting is :term:`overfitting`. Yet the
# validation accuracy stays within 0.02 of its value at the best epoch, the
# one of lowest validation loss. ``axvline`` marks that epoch.
fig, (ax_loss, ax_acc) = plt.subplots(1, 2, figsize=(9, 3.3), layout="constrained")
x = range(1, epochs + 1)
ax_loss.plot(x, train_losses, color=PALETTE[5], label="training (150 images)")
ax_loss.plot(x, val_losses, color=PALETTE[1], label=f"validation ({len(val_set)})")
ax_acc.plot(x, val_accuracies, color=PALETTE[1], label="validation")
for ax in (ax_loss, ax_acc):
    ax.axvline(best + 1, color=PALETTE[7], linestyle=":", label="best epoch")
    ax.set(xlabel="epoch")
    ax.legend()
ax_loss.set(ylabel="cross-entropy loss", title="learning curves")
ax_acc.set(ylabel="accuracy", ylim=(0, 1), title="validation accuracy")
plt.show()

# %%
# .. check:: the losses fall, then validation loss rises past 1.5 times; accuracy holds
from itertools import pairwise

assert all(later < earlier for earlier, later in pairwise(train_losses))
assert all(later < earlier for earlier, later in pairwise(val_losses[: best + 1]))
assert train_losses[-1] < 0.01
assert 5 <= best < epochs - 20
assert val_losses[-1] > 1.5 * val_losses[best]
assert max(abs(a - val_accuracies[best]) for a in val_accuracies[best:]) <= 0.02

# %%
# Early stopping
# --------------
# :term:`Early stopping <early stopping>` keeps the weights of the epoch with
# the lowest validation loss so far. It stops once that loss has not improved
# for ``patience`` epochs. :meth:`~torch.nn.Module.state_dict` returns a
# :term:`state dict`: a dictionary from names to tensors, here the weights.
# These tensors share memory with the parameters. A ``dict()`` copy holds
# the same tensors, so it changes with every :term:`optimiser` step. A
# :func:`copy.deepcopy` copies the tensors, so it does not:
layer = torch.nn.Linear(3, 1)
state = layer.state_dict()
shallow, deep = dict(state), copy.deepcopy(state)
sgd = torch.optim.SGD(layer.parameters(), lr=0.1)
layer(torch.ones(1, 3)).sum().backward()  # any loss will do: here a sum
sgd.step()
print("parameter after the step:", layer.weight.detach())
print("state_dict() from before:", state["weight"])
print("dict() copy from before: ", shallow["weight"])
print("deepcopy from before:    ", deep["weight"])

# %%
# .. check:: a state dict, even copied with ``dict()``, follows the step; a deepcopy does not
assert state["weight"].data_ptr() == layer.weight.data_ptr()
assert not state["weight"].requires_grad
assert torch.equal(state["weight"], layer.weight)
assert torch.equal(shallow["weight"], layer.weight)
assert not torch.equal(deep["weight"], layer.weight)

# %%
# The same model, from the same seed, trains again with a patience of 5. The
# site's :func:`~tutorial_utils.training.train_one_epoch` trains for one epoch;
# its :func:`~tutorial_utils.training.evaluate` returns a result with ``.loss``
# and ``.accuracy``. At the end, :meth:`~torch.nn.Module.load_state_dict` copies
# the best weights into the model's existing parameters. Its printed result
# says every name matched. Only then do the test images measure it.
torch.manual_seed(0)
model = MLP(64, [256, 256], 10)
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
patience, best_loss, best_epoch, history = 5, float("inf"), 0, []
for epoch in range(1, epochs + 1):
    train_one_epoch(model, train_loader, optimizer)
    history.append(evaluate(model, val_loader).loss)
    if history[-1] < best_loss:
        best_loss, best_epoch = history[-1], epoch
        best_state = copy.deepcopy(model.state_dict())
    elif epoch - best_epoch >= patience:
        break
print(f"stopped after epoch {epoch}, restoring epoch {best_epoch}")
print(model.load_state_dict(best_state))
restored = evaluate(model, val_loader)
print(f"validation loss {restored.loss:.4f}, accuracy {restored.accuracy:.1%}")
test_set = TensorDataset(digits.test_features, digits.test_labels)
test_loader = DataLoader(test_set, batch_size=len(test_set))
print(f"test accuracy: {evaluate(model, test_loader).accuracy:.1%}")

# %%
# .. check:: ``load_state_dict`` filled the same parameters; ``evaluate`` uses ``no_grad``
assert not any(model.load_state_dict(best_state))  # no missing or unexpected keys
_seen, _probe = [], torch.nn.Flatten()
_probe.register_forward_hook(lambda *_: _seen.append(torch.is_grad_enabled()))
evaluate(_probe, [(torch.zeros(1, 10), torch.tensor([0]))])
assert _seen == [False]
torch.testing.assert_close(restored.loss, best_loss, rtol=1e-6, atol=0)
assert optimizer.param_groups[0]["params"][0] is model.layers[0].weight  # in place
with torch.random.fork_rng(devices=[]):
    _layer = torch.nn.Linear(3, 1)
_weight = _layer.weight
_layer.load_state_dict(copy.deepcopy(_layer.state_dict()), assign=True)
assert _layer.weight is not _weight  # assign=True, not the default, replaces them

# %%
# Training stopped five epochs after the figure's best epoch. Why did the validation
# loss rise while the accuracy held? Below, the restored and epoch-60 models meet the
# validation images. In the code:
#
# - ``wrong`` is a :term:`mask` of the wrong answers; ``~wrong`` flips it.
# - ``reduction="none"`` gives one loss per image.
# - ``amax(dim=1)`` takes each row's largest probability: the confidence in
#   the answer.
#
# The model of epoch 60 gets fewer images wrong, but more confidently. And cross-entropy
# punishes a confident mistake heavily. Summed over the images each model gets wrong,
# the epoch-60 model's loss is over twice the other's. On the rest, it is lower. So
# "best" means the lowest validation loss, not the highest accuracy.
val_features, val_labels = next(iter(val_loader))
found = []
for net, trained_for in ((model, best_epoch), (wide, epochs)):
    net.eval()
    with torch.inference_mode():
        logits = net(val_features)
    wrong = logits.argmax(dim=1) != val_labels
    lost = F.cross_entropy(logits, val_labels, reduction="none")
    confidence = torch.softmax(logits, dim=1).amax(dim=1)[wrong].mean()
    n_wrong, on_wrong, on_right = wrong.sum(), lost[wrong].sum(), lost[~wrong].sum()
    print(f"epoch {trained_for}: {n_wrong} wrong, given {confidence:.0%}", end=" ")
    print(f"on average; total loss {on_wrong:.1f} on them, {on_right:.1f} on the rest")
    found.append((n_wrong, confidence, on_wrong, on_right))

# %%
# .. check:: it stopped five epochs after the marked best; epoch 60 errs less, more confidently
assert epoch == best_epoch + patience
torch.testing.assert_close(history, val_losses[:epoch], rtol=1e-4, atol=0)
assert best_epoch == best + 1
assert torch.equal(val_labels, digits.train_labels[val_set.indices])
early, late = found
assert late[0] < early[0]  # fewer mistakes
assert late[1] > early[1] + 0.1  # more confident ones
assert late[2] > 2 * early[2]  # much more loss on them
assert late[3] < early[3]  # less on the rest

# %%
# Dropout in training and evaluation mode
# ---------------------------------------
# :term:`Dropout <dropout>` is a common way to reduce overfitting. A new module
# starts in :term:`training mode`. There, :class:`torch.nn.Dropout` sets each
# element to zero with probability ``p``, independently of the others. It multiplies the
# others by ``1 / (1 - p)``. That keeps each element's average over many draws.
# In evaluation mode it returns its input unchanged. ``unique()`` lists a
# tensor's distinct values.
#
# .. detail:: Infinite inputs, and ``p = 1``
#
#    The average is kept for finite elements and ``p < 1``. A dropped
#    element is multiplied by 0, so a dropped ``inf`` becomes NaN. With
#    ``p = 1``, every finite element comes out 0.
torch.manual_seed(0)
dropout = torch.nn.Dropout(p=0.25)
ones = torch.ones(1000, 1000)
dropped = dropout(ones)
zeroed = (dropped == 0).float().mean().item()  # the share of zeros
kept = dropped[dropped != 0]
print(f"training mode: {zeroed:.2%} zeroed, mean {dropped.mean().item():.4f}")
print("values of the others:", kept.unique())

# %%
# .. check:: a new module trains; a quarter is zeroed, the rest scaled; eval is a no-op
assert dropout.training
assert abs(zeroed - 0.25) < 0.005
torch.testing.assert_close(kept, torch.full_like(kept, 1 / (1 - 0.25)))
assert abs(dropped.mean().item() - 1) < 0.01
both = (dropped[:, :-1] == 0) & (dropped[:, 1:] == 0)  # neighbours: p * p
assert abs(both.float().mean().item() - 0.25**2) < 0.005
with torch.random.fork_rng(devices=[]):
    _inf = dropout(torch.full((1000,), torch.inf))  # dropped: NaN; kept: inf
    _p_one = F.dropout(torch.tensor([torch.inf, torch.nan, 1.0]), p=1.0)
assert _p_one.nan_to_num(-1.0).tolist() == [-1.0, -1.0, 0.0]  # only 1.0 became 0
assert _inf.nan_to_num(-1.0, posinf=torch.inf).unique().tolist() == [-1.0, torch.inf]
dropout.eval()
assert torch.equal(dropout(ones), ones)
dropout.train()  # as the page left it

# %%
# On the first 0 in the validation set, each training-mode pass drops other
# pixels and brightens the rest by a third. ``reshape(8, 8)`` lays the 64
# pixels out as an image, and ``.numpy()`` hands them to Matplotlib.
# ``imshow`` draws them; ``set_axis_off`` hides the axes. ``cmap="gray_r"``
# shades them from white at ``vmin`` to black at ``vmax``, the largest value a
# kept pixel can have.
image = next(pixels for pixels, label in val_set if label == 0)
panels = {"input": image, "train()": dropout(image), "train() again": dropout(image)}
dropout.eval()
panels["eval()"] = dropout(image)
fig, axes = plt.subplots(1, 4, figsize=(7, 2.1), layout="constrained")
for ax, (title, pixels) in zip(axes, panels.items(), strict=True):
    ax.imshow(pixels.reshape(8, 8).numpy(), cmap="gray_r", vmin=0, vmax=1 / 0.75)
    ax.set_title(title, fontsize=10)
    ax.set_axis_off()
plt.show()

# %%
# .. check:: two training-mode passes drop different pixels; brightened by a third
assert not torch.equal(panels["train()"], panels["train() again"])
_kept = panels["train()"] != 0
torch.testing.assert_close(panels["train()"][_kept], image[_kept] * 4 / 3)
assert torch.equal(panels["eval()"], image)

# %%
# Evaluation mode and ``no_grad`` do different things, so a validation pass
# uses both. Under ``no_grad``, a module in training mode still drops
# elements. In evaluation mode, autograd still records a graph.
#
# .. detail:: The function ``F.dropout``
#
#    :func:`torch.nn.functional.dropout` has no mode: its ``training``
#    argument is ``True`` unless passed. A module's ``self.training`` is
#    ``True`` in training mode. So in a ``forward`` method, pass
#    ``training=self.training``, or use the module.
dropout.train()
with torch.no_grad():
    still_drops = (dropout(ones) == 0).any().item()
model.eval()
recorded = model(val_features[:2])
print("training mode under no_grad drops elements:", still_drops)
print("evaluation mode records a graph:", recorded.grad_fn is not None)

# %%
# .. check:: under ``no_grad`` dropout still drops; in ``eval`` mode autograd still records
assert still_drops
assert recorded.requires_grad
with torch.no_grad():
    unrecorded = model(val_features[:2])
assert unrecorded.grad_fn is None
assert torch.equal(recorded, unrecorded)
with torch.random.fork_rng(devices=[]):
    assert (F.dropout(ones, p=0.25) == 0).any()
assert torch.equal(F.dropout(ones, p=0.25, training=False), ones)

# %%
# Summary
# -------
# - ``random_split`` with a seeded ``generator=`` holds out a validation set.
# - Validate in ``eval()`` mode *and* under ``inference_mode`` or ``no_grad``.
# - Overfitting: the validation loss rises as the training loss falls.
# - Early stopping restores a :func:`copy.deepcopy` of the best state dict.
# - Dropout acts in training mode only.
#
# In depth: :ref:`sphx_glr_auto_examples_training_plot_51_initial_weights.py`
# and :ref:`sphx_glr_auto_examples_training_plot_56_batch_normalisation.py`.
# Next: :ref:`sphx_glr_auto_examples_training_plot_07_reproducible_runs.py`;
# exercises: :ref:`exercises-training-06`.
