"""
Validation and overfitting
==========================

Hold out a validation set, watch the losses part ways as a model overfits,
and restore its weights from the epoch of lowest validation loss; then see
how dropout and batch normalisation change with the mode, and initialise layers.
"""

# %%
# The models are small, so the page runs on the CPU that the line below names.
import copy
from itertools import pairwise

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
# :func:`~tutorial_utils.data.load_digits_tensors` returns the handwritten
# digits split into training and test images. The test images wait to
# measure the finished model; choices made on the way (when to stop, which
# weights to keep) need a :term:`validation set`, held out from the
# training images. :func:`torch.utils.data.random_split` splits a data set
# at random into :class:`~torch.utils.data.Subset` objects, given fractions
# whose float sum is 1 or lengths summing to its length; with a ``generator=`` of
# its own, it draws nothing from the global random number generator.
digits = load_digits_tensors(seed=0)
training_images = TensorDataset(digits.train_features, digits.train_labels)
global_state = torch.get_rng_state()
train_set, val_set = random_split(
    training_images, [0.8, 0.2], generator=torch.Generator().manual_seed(0)
)
print(f"{len(training_images)} images: {len(train_set)} + {len(val_set)}")

# %%
# .. check:: with a ``generator=`` of its own, the split leaves the global generator alone
assert torch.equal(torch.get_rng_state(), global_state)
assert set(train_set.indices).isdisjoint(val_set.indices)

# %%
# Each fraction times the length is rounded down; the items left over go
# one each to the subsets in turn, from the first. The same seed and
# lengths give the same split even after other random draws. The split is
# not stratified: each digit's share of the validation set is only roughly
# its share of the training images.
#
# .. detail:: Rounding in floating point
#
#    The product is rounded down in floating point: ``0.29 * 100`` falls
#    just short of 29, so 0.71 and 0.29 of 100 items give 72 and 28.
per_digit = torch.bincount(digits.train_labels[val_set.indices])
print("validation images per digit:", per_digit)

# %%
# .. check:: lengths round down, leftovers go one each from the first; a seed repeats; unstratified
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
assert (per_digit - torch.bincount(digits.train_labels) * 0.2).abs().max() > 2

# %%
# Learning curves
# ---------------
# To overfit quickly, a large :class:`~tutorial_utils.models.MLP` (over 500
# parameters per image) trains on the first 150 images of the (shuffled)
# training subset, in one :term:`batch`, so an :term:`epoch` is one step of
# Adam. The loop of :ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`
# gains a validation pass after every epoch, in :meth:`~torch.nn.Module.eval`
# mode and under :class:`torch.inference_mode`, which, like
# :class:`torch.no_grad`, records no :term:`computational graph`.
#
# .. detail:: Inference tensors
#
#    Tensors newly allocated under :class:`torch.inference_mode` are
#    :term:`inference tensors <inference tensor>`.
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
        total += loss.item() * len(targets)
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
best = min(range(epochs), key=val_losses.__getitem__)  # counted from 0
print(f"lowest validation loss {val_losses[best]:.3f} after epoch {best + 1}")
print(f"after epoch {epochs}: training loss {train_losses[-1]:.5f}", end=", ")
print(f"validation loss {val_losses[-1]:.3f}")

# %%
# .. check:: the model has over 500 parameters per image; validation logits are inference tensors
assert logits.is_inference()
assert logits.grad_fn is None
assert sum(p.numel() for p in wide.parameters()) > 500 * len(small_train)

# %%
# Drawn against the epoch, the :term:`losses <loss>` are the
# :term:`learning curves <learning curve>`. The training loss (of each
# batch before its step) falls at every epoch, to below 0.01. The
# validation loss falls at every epoch to its lowest point, then climbs
# back by half or more: that parting is :term:`overfitting`, the model
# fitting its training images ever closer while its loss on images it has
# not seen grows. Yet from the best epoch on, the validation accuracy stays
# within two percentage points of its value there; the next section says why.
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
# .. check:: the losses fall, then the validation loss climbs by half while the accuracy holds
assert all(later < earlier for earlier, later in pairwise(train_losses))
assert all(later < earlier for earlier, later in pairwise(val_losses[: best + 1]))
assert train_losses[-1] < 0.01
assert 5 <= best < epochs - 20
assert val_losses[-1] > 1.5 * val_losses[best]
assert max(abs(a - val_accuracies[best]) for a in val_accuracies[best:]) <= 0.02

# %%
# Early stopping
# --------------
# :term:`Early stopping <early stopping>` keeps the weights of the epoch
# with the lowest validation loss so far and stops once that loss has not
# improved for ``patience`` epochs. Keeping weights takes a copy:
# :meth:`~torch.nn.Module.state_dict` returns the parameters detached, as
# new tensors sharing their memory, so a :term:`state dict`, even copied
# with ``dict()``, changes with every :term:`optimiser` step; a
# :func:`copy.deepcopy` does not.
layer = torch.nn.Linear(3, 1)
state = layer.state_dict()
shallow, deep = dict(state), copy.deepcopy(state)
sgd = torch.optim.SGD(layer.parameters(), lr=0.1)
layer(torch.ones(1, 3)).sum().backward()
sgd.step()
print("parameter after the step:", layer.weight.data)
print("state_dict() from before:", state["weight"])
print("deepcopy from before:    ", deep["weight"])

# %%
# .. check:: a state dict, even copied with ``dict()``, follows the step; a deepcopy does not
assert state["weight"].data_ptr() == layer.weight.data_ptr()
assert not state["weight"].requires_grad
assert torch.equal(state["weight"], layer.weight)
assert torch.equal(shallow["weight"], layer.weight)
assert not torch.equal(deep["weight"], layer.weight)

# %%
# The same model, seeded the same way, trains again with the helpers
# :func:`~tutorial_utils.training.train_one_epoch` and
# :func:`~tutorial_utils.training.evaluate` (the two halves of the loop
# above) and a patience of 5 epochs; :meth:`~torch.nn.Module.load_state_dict`
# then copies the best weights back into the parameters, in place. Only now
# do the test images, used once, measure the model on images no decision saw.
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
# .. check:: ``load_state_dict`` copied the best weights back in place, with their validation loss
torch.testing.assert_close(restored.loss, best_loss, rtol=1e-6, atol=0)
assert optimizer.param_groups[0]["params"][0] is model.layers[0].weight  # in place

# %%
# It stopped five epochs after the best one (from the same seed, the one
# marked above) and gave back that epoch's validation loss. Why did the
# validation loss rise while the accuracy held? On the images each model
# gets wrong, the one of epoch 60 gives its wrong answers more probability
# on average, and cross-entropy punishes a confident mistake heavily: its
# loss summed over those images is more than twice the restored model's,
# while over the images it gets right it is lower. So "best" means the
# lowest validation loss, not the highest accuracy: the model of epoch 60
# even gets fewer validation images wrong.
val_features, val_labels = training_images[val_set.indices]
found = []
for net, trained_for in ((model, best_epoch), (wide, epochs)):
    with torch.no_grad():
        logits = net.eval()(val_features)
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
early, late = found
assert late[0] < early[0]  # fewer mistakes
assert late[1] > early[1] + 0.1  # more confident ones
assert late[2] > 2 * early[2]  # much more loss on them
assert late[3] < early[3]  # less on the rest

# %%
# Dropout in training and evaluation mode
# ---------------------------------------
# A module is in :term:`training mode` when created. In training mode,
# :class:`torch.nn.Dropout` (:term:`dropout`) sets each element to zero
# with probability ``p``, independently of the others, and multiplies the
# others by :math:`1 / (1 - p)`, which keeps each element's expected value.
# In evaluation mode it returns its input unchanged.
torch.manual_seed(0)
dropout = torch.nn.Dropout(p=0.25)
ones = torch.ones(1000, 1000)
dropped = dropout(ones)
zeroed = (dropped == 0).float().mean().item()
kept = dropped[dropped != 0]
print(f"training mode: {zeroed:.2%} zeroed, mean {dropped.mean().item():.4f}")
print("values of the others:", kept.unique())

# %%
# .. check:: a new module trains; a quarter is zeroed independently, the rest scaled; eval is a no-op
assert dropout.training
assert abs(zeroed - 0.25) < 0.005
torch.testing.assert_close(kept, torch.full_like(kept, 1 / (1 - 0.25)))
assert abs(dropped.mean().item() - 1) < 0.01
both = (dropped[:, :-1] == 0) & (dropped[:, 1:] == 0)  # neighbours: p * p
assert abs(both.float().mean().item() - 0.25**2) < 0.005
dropout.eval()
assert torch.equal(dropout(ones), ones)

# %%
# On a digit: each training-mode pass drops other pixels and brightens the
# rest by a third; evaluation mode shows the image as it is.
image = next(pixels for pixels, label in val_set if label == 0)
dropout.train()
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
# .. check:: two training-mode passes drop different pixels
assert not torch.equal(panels["train()"], panels["train() again"])

# %%
# :meth:`~torch.nn.Module.eval` and :class:`torch.no_grad` do different
# things, so a validation loop uses both: under ``no_grad`` a module in
# training mode still drops elements; in evaluation mode autograd still
# records the graph (here the outputs are the same without it).
# :func:`torch.nn.functional.dropout` knows nothing of modes: its
# ``training`` argument is ``True`` unless passed, so in a ``forward``
# write ``F.dropout(x, p, training=self.training)``, or use the module.
dropout.train()
with torch.no_grad():
    unrecorded = model.eval()(val_features[:2])
recorded = model(val_features[:2])

# %%
# .. check:: under ``no_grad`` dropout still drops; in ``eval`` mode autograd still records
with torch.random.fork_rng(devices=[]):
    with torch.no_grad():
        assert (dropout(ones) == 0).any()
    assert recorded.requires_grad
    assert torch.equal(recorded, unrecorded)
    assert (F.dropout(ones, p=0.25) == 0).any()
assert torch.equal(F.dropout(ones, p=0.25, training=False), ones)

# %%
# Batch normalisation in training and evaluation mode
# ---------------------------------------------------
# For input of shape :math:`(N, C)`, as here, :class:`torch.nn.BatchNorm1d`
# (:term:`batch normalisation`) normalises each of the :math:`C` features.
# In training mode it uses the batch's mean and biased variance
# :math:`\sigma^2` (divided by :math:`N`): each output feature has mean 0
# and variance :math:`\sigma^2 / (\sigma^2 + \epsilon)` (``eps=1e-5``),
# almost 1 here, before the learnt scale and shift (at first 1 and 0). The
# running estimates move 10 % of the way (``momentum=0.1``) towards the
# batch's mean and *unbiased* variance (divided by :math:`N - 1`). In
# evaluation mode it normalises with the running estimates (kept by
# default, ``track_running_stats=True``) and leaves them alone.
#
# .. detail:: Features that barely vary
#
#    The variance :math:`\sigma^2 / (\sigma^2 + \epsilon)` is almost 1 unless
#    the feature barely varies in the batch. A constant feature gets about 0.
torch.manual_seed(0)
norm = torch.nn.BatchNorm1d(3)
batch = torch.randn(8, 3) * torch.tensor([1.0, 2.0, 5.0]) + 10
out = norm(batch).detach()
variances, sigma2 = out.var(dim=0, correction=0), batch.var(dim=0, correction=0)
print(f"largest |mean| {out.mean(dim=0).abs().max():.1e}, variances {variances}")
print("running mean:", norm.running_mean, "running var:", norm.running_var)
norm.eval()
out_eval = norm(batch)

# %%
# .. check:: mean 0 and variance σ²/(σ²+ε), estimates moved 10 %, used and kept in eval mode
torch.testing.assert_close(out.mean(dim=0), torch.zeros(3), atol=1e-6, rtol=0)
torch.testing.assert_close(variances, sigma2 / (sigma2 + norm.eps))
torch.testing.assert_close(variances, torch.ones(3), rtol=1e-3, atol=0)
assert torch.nn.BatchNorm1d(1)(torch.full((8, 1), 7.0)).var() == 0  # a constant
torch.testing.assert_close(norm.running_mean, 0.1 * batch.mean(dim=0))
torch.testing.assert_close(norm.running_var, 0.9 + 0.1 * batch.var(dim=0))
expected = (batch - norm.running_mean) / (norm.running_var + norm.eps).sqrt()
torch.testing.assert_close(out_eval, expected)
assert norm.track_running_stats
running = copy.deepcopy(norm.state_dict())
norm(batch)  # in evaluation mode again
assert all(torch.equal(norm.state_dict()[k], v) for k, v in running.items())

# %%
# So in training mode a sample's output depends on the other samples of its
# batch, and in evaluation mode it does not. In training mode the layer needs
# more than one value per feature; a batch of one sample of shape :math:`(1, C)`
# has one, and is refused (:ref:`its atlas entry <error-batchnorm-one-value>`):
norm.train()
try:
    norm(batch[:1])
except ValueError as error:
    print(f"ValueError: {error}")
else:
    raise AssertionError("a one-sample batch in training mode did not raise")

# %%
# .. check:: a sample's output depends on its batch in training mode only; two values suffice
norm.eval()
torch.testing.assert_close(norm(batch[:1]), out_eval[:1])
norm.train()
assert not torch.allclose(norm(batch[:2])[0], out[0])
with torch.random.fork_rng(devices=[]):
    assert torch.nn.BatchNorm1d(3)(torch.randn(1, 3, 2)).shape == (1, 3, 2)  # 2 each


# %%
# Initialisation
# --------------
# The models above kept :class:`torch.nn.Linear`'s default initialisation: weights
# and biases uniform between :math:`\pm 1 / \sqrt{n_{in}}`, for :math:`n_{in}`
# inputs. To choose another, :meth:`torch.nn.Module.apply` calls a function on
# every submodule, children before their parent, then on the module itself, and
# returns the module. The initialisers of :mod:`torch.nn.init` whose names end in
# ``_`` fill a tensor in place under :class:`torch.no_grad`, so they may change
# parameters. Kaiming's normal initialisation, derived for layers followed by a
# ReLU (here the output layer too), draws weights with standard deviation
# :math:`\sqrt{2 / n_{in}}`; here the biases become zero.
#
# .. detail:: Why under no_grad
#
#    While autograd records, as it does outside :class:`torch.no_grad`, it
#    refuses an in-place change of a parameter that requires gradients.
def init_weights(module: torch.nn.Module) -> None:
    if isinstance(module, torch.nn.Linear):
        torch.nn.init.kaiming_normal_(module.weight, nonlinearity="relu")
        torch.nn.init.zeros_(module.bias)


torch.manual_seed(0)
mlp = MLP(64, [256, 256], 10)
visited = []
mlp.apply(lambda module: visited.append(type(module).__name__))
print("apply visits:", visited)
mlp.apply(init_weights)
for layer in mlp.layers[::2]:
    std, target = layer.weight.std().item(), (2 / layer.in_features) ** 0.5
    print(f"{tuple(layer.weight.shape)}: std {std:.4f}, sqrt(2/n_in) {target:.4f}")

# %%
# .. check:: the default bound, the order ``apply`` visits, Kaiming's std, the in-place refusal
with torch.random.fork_rng(devices=[]):
    _default = MLP(64, [256, 256], 10)  # a new model: the default
for _layer in _default.layers[::2]:
    bound = 1 / _layer.in_features**0.5
    assert max(_layer.weight.abs().max(), _layer.bias.abs().max()) <= bound
assert mlp.apply(lambda module: None) is mlp
for _layer in mlp.layers[::2]:
    _std, _target = _layer.weight.std().item(), (2 / _layer.in_features) ** 0.5
    assert abs(_std / _target - 1) < 0.1
    assert not _layer.bias.any()
assert visited == ["Linear", "ReLU", "Linear", "ReLU", "Linear", "Sequential", "MLP"]
try:  # outside torch.no_grad, with requires_grad=True
    mlp.layers[0].bias.zero_()
except RuntimeError:
    pass
else:
    raise AssertionError("an in-place change of a leaf parameter did not raise")

# %%
# Summary
# -------
# - :func:`~torch.utils.data.random_split` (fractions or lengths, seeded
#   ``generator=``) holds out a validation set; test once, at the end.
# - Validate every epoch in :meth:`~torch.nn.Module.eval` mode *and* under
#   :class:`torch.inference_mode` or :class:`torch.no_grad`.
# - Overfitting: the training loss falls, the validation loss rises (the
#   accuracy need not fall); early stopping restores a
#   ``copy.deepcopy(model.state_dict())`` of the lowest-validation-loss epoch.
# - Dropout and batch normalisation differ between the two modes;
#   :func:`~torch.nn.functional.dropout` needs ``training=self.training``.
# - ``model.apply(init_weights)`` with :mod:`torch.nn.init` sets each layer.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_07_reproducible_runs.py`, which
# repeats a run bit for bit. Exercises for this page: :ref:`exercises-training-06`.
