"""
Validation and overfitting
==========================

Hold out a validation set, watch the training and validation losses part
ways as a model overfits, and stop at the best epoch with its weights
restored; then see how dropout and batch normalisation change between
training and evaluation mode, and initialise a model's layers yourself.
"""

# %%
# The models on this page are small, so it runs on the CPU; the line below
# says which CPU computed its numbers.
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
# digits split into training and test images. The test images stay
# untouched until the end: they measure the finished model. The decisions
# made along the way (when to stop, which weights to keep) need data of
# their own, a :term:`validation set`, held out from the training images.
# :func:`torch.utils.data.random_split` splits a data set at random into
# :class:`~torch.utils.data.Subset` objects, given fractions that sum to 1
# or lengths that sum to the data set's length. Given a ``generator=`` of
# its own, it draws nothing from the global random number generator: adding
# the split changes nothing that later code draws at random, and numbers
# drawn at random before it do not change the split.
digits = load_digits_tensors(seed=0)
training_images = TensorDataset(digits.train_features, digits.train_labels)
global_state = torch.get_rng_state()
train_set, val_set = random_split(
    training_images, [0.8, 0.2], generator=torch.Generator().manual_seed(0)
)
print(f"{len(training_images)} images: {len(train_set)} + {len(val_set)}")
assert torch.equal(torch.get_rng_state(), global_state)
assert set(train_set.indices).isdisjoint(val_set.indices)
assert len(train_set) + len(val_set) == len(training_images)

# %%
# Fractions become lengths by rounding down; the images left over go one
# each to the subsets in turn, from the first. With the same seed, those
# lengths give the same split, image for image, even after other random
# numbers have been drawn. The split is random, not stratified: each
# digit's share of the validation set is only roughly its share of the
# training images.
n = len(training_images)
assert len(val_set) == int(0.2 * n)
assert len(train_set) == int(0.8 * n) + 1
torch.rand(3)
lengths, seeded = [len(train_set), len(val_set)], torch.Generator().manual_seed(0)
again = random_split(training_images, lengths, generator=seeded)
assert again[0].indices == train_set.indices
assert again[1].indices == val_set.indices
per_digit = torch.bincount(digits.train_labels[val_set.indices])
print("validation images per digit:", per_digit)
assert (per_digit - torch.bincount(digits.train_labels) * 0.2).abs().max() > 2

# %%
# Learning curves
# ---------------
# To overfit quickly, a large :class:`~tutorial_utils.models.MLP` (two
# hidden layers of 256 units: over 500 parameters per image) trains on only
# the first 150 images of the training subset, which are in random order.
# The loop of :ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`
# gains a validation pass after every :term:`epoch`, in
# :meth:`~torch.nn.Module.eval` mode and under :class:`torch.inference_mode`,
# which, like :class:`torch.no_grad`, records no :term:`computational graph`
# (its results are :term:`inference tensors <inference tensor>`). The 150
# images fit in one :term:`batch`: an epoch is one step of Adam (see
# :ref:`sphx_glr_auto_examples_training_plot_05_optimisers_and_learning_rates.py`).
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
assert logits.is_inference()
assert logits.grad_fn is None
assert sum(p.numel() for p in wide.parameters()) > 500 * len(small_train)

# %%
# Drawn against the epoch, the :term:`losses <loss>` are the
# :term:`learning curves <learning curve>`. The training loss (of each
# batch as it is trained on, before its step) falls at every epoch, to
# below 0.01. The validation loss falls with it at first, reaches its
# lowest point, then climbs back by half or more while the training loss
# keeps falling. That parting of the curves is :term:`overfitting`: the
# model fits its training images ever more closely, at the expense of
# images it has not seen. Yet the validation accuracy hardly moves after
# the best epoch (it stays within three percentage points of it): the next
# section shows why.
assert all(later < earlier for earlier, later in pairwise(train_losses))
assert train_losses[-1] < 0.01
assert 5 <= best < epochs - 20
assert val_losses[-1] > 1.5 * val_losses[best]
assert max(abs(a - val_accuracies[best]) for a in val_accuracies[best:]) <= 0.03

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
# Early stopping
# --------------
# :term:`Early stopping <early stopping>` keeps the weights of the best
# epoch so far and stops once the validation loss has not improved for
# ``patience`` epochs. Keeping the weights takes a copy:
# :meth:`~torch.nn.Module.state_dict` returns the parameters detached, as
# new tensors that share their memory, so a :term:`state dict` kept as it
# is, or copied with ``dict()``, changes with every step of the
# :term:`optimiser`. :func:`copy.deepcopy` copies the tensors too.
layer = torch.nn.Linear(3, 1)
state = layer.state_dict()
shallow, deep = dict(state), copy.deepcopy(state)
assert state["weight"].data_ptr() == layer.weight.data_ptr()
assert not state["weight"].requires_grad
sgd = torch.optim.SGD(layer.parameters(), lr=0.1)
layer(torch.ones(1, 3)).sum().backward()
sgd.step()
print("parameter after the step:", layer.weight.data)
print("state_dict() from before:", state["weight"])
print("deepcopy from before:    ", deep["weight"])
assert torch.equal(state["weight"], layer.weight)
assert torch.equal(shallow["weight"], layer.weight)
assert not torch.equal(deep["weight"], layer.weight)

# %%
# The same model, seeded the same way, trains again, now with the helpers
# :func:`~tutorial_utils.training.train_one_epoch` and
# :func:`~tutorial_utils.training.evaluate` (the two halves of the loop
# above) and a patience of 5 epochs. Then
# :meth:`~torch.nn.Module.load_state_dict` copies the best weights back
# into the model's parameters, in place. Only now do the test images, used
# once, say how the model does on images that no decision saw.
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
torch.testing.assert_close(restored.loss, best_loss, rtol=1e-6, atol=0)
assert epoch == best_epoch + patience
test_set = TensorDataset(digits.test_features, digits.test_labels)
test_loader = DataLoader(test_set, batch_size=len(test_set))
print(f"test accuracy: {evaluate(model, test_loader).accuracy:.1%}")

# %%
# It stopped five epochs after the best one and gave back that epoch's
# validation loss. Started from the same seed, it retraced the first run's
# validation curve (to within rounding), so its best epoch is the one
# marked in the figure above.
#
# Why did the validation loss rise while the accuracy held? On the
# validation images that each model gets wrong, the overfit model of epoch
# 60 gives its wrong answer a higher probability, on average, than the
# restored model does, and cross-entropy punishes a confident mistake
# heavily.
val_features, val_labels = training_images[val_set.indices]
confidence = {}
with torch.no_grad():
    for net, name in ((model, f"epoch {best_epoch}"), (wide, f"epoch {epochs}")):
        probabilities = torch.softmax(net.eval()(val_features), dim=1)
        wrong = probabilities.argmax(dim=1) != val_labels
        confidence[name] = probabilities.max(dim=1).values[wrong].mean().item()
        print(f"{name}: {wrong.sum()} wrong, given {confidence[name]:.0%} on average")
assert confidence[f"epoch {epochs}"] > confidence[f"epoch {best_epoch}"] + 0.1

# sphinx_gallery_start_ignore
torch.testing.assert_close(history, val_losses[:epoch], rtol=1e-4, atol=0)
assert best_epoch == best + 1
assert optimizer.param_groups[0]["params"][0] is model.layers[0].weight  # in place
# sphinx_gallery_end_ignore

# %%
# Dropout in training and evaluation mode
# ---------------------------------------
# A module is in training mode when created. In training mode,
# :class:`torch.nn.Dropout` (:term:`dropout`) sets each element to zero
# with probability ``p``, independently, and multiplies the others by
# :math:`1 / (1 - p)`, which keeps each element's expected value. In
# evaluation mode it returns its input unchanged.
torch.manual_seed(0)
dropout = torch.nn.Dropout(p=0.25)
ones = torch.ones(1000, 1000)
dropped = dropout(ones)
zeroed = (dropped == 0).float().mean().item()
kept = dropped[dropped != 0]
print(f"training mode: {zeroed:.2%} zeroed, mean {dropped.mean().item():.4f}")
print("values of the others:", kept.unique())
assert dropout.training
assert abs(zeroed - 0.25) < 0.005
torch.testing.assert_close(kept, torch.full_like(kept, 1 / (1 - 0.25)))
assert abs(dropped.mean().item() - 1) < 0.01
dropout.eval()
assert torch.equal(dropout(ones), ones)

# %%
# On a digit: each training-mode pass drops other pixels and brightens the
# rest by a third; evaluation mode shows the image as it is.
image = next(pixels for pixels, label in val_set if label == 0)
dropout.train()
panels = {"input": image, "train()": dropout(image), "train() again": dropout(image)}
assert not torch.equal(panels["train()"], panels["train() again"])
dropout.eval()
panels["eval()"] = dropout(image)
fig, axes = plt.subplots(1, 4, figsize=(7, 2.1), layout="constrained")
for ax, (title, pixels) in zip(axes, panels.items(), strict=True):
    ax.imshow(pixels.reshape(8, 8).numpy(), cmap="gray_r", vmin=0, vmax=1 / 0.75)
    ax.set_title(title, fontsize=10)
    ax.set_axis_off()
plt.show()

# %%
# :meth:`~torch.nn.Module.eval` and :class:`torch.no_grad` do different
# things, so a validation loop needs both: under ``no_grad`` a module in
# training mode still drops elements, and in evaluation mode autograd still
# records the graph. The function :func:`torch.nn.functional.dropout` knows
# nothing of modes: its ``training`` argument is ``True`` unless passed, so
# inside a ``forward`` write ``F.dropout(x, p, training=self.training)``,
# or use the module.
dropout.train()
with torch.no_grad():
    assert (dropout(ones) == 0).any()
assert model.eval()(digits.test_features[:2]).requires_grad
assert (F.dropout(ones, p=0.25) == 0).any()
assert torch.equal(F.dropout(ones, p=0.25, training=False), ones)

# %%
# Batch normalisation in training and evaluation mode
# ---------------------------------------------------
# :class:`torch.nn.BatchNorm1d` (:term:`batch normalisation`) normalises
# each feature. In training mode it uses the batch's mean and biased
# variance (divided by the batch size :math:`N`): each output feature has
# mean 0 and variance almost 1 (``eps=1e-5`` is added to the variance),
# before the learnt scale and shift, which start at 1 and 0. The running
# estimates move 10 % of the way (``momentum=0.1``) towards the batch's mean
# and *unbiased* variance (divided by :math:`N - 1`). In evaluation mode it
# normalises with the running estimates and leaves them alone.
torch.manual_seed(0)
norm = torch.nn.BatchNorm1d(3)
batch = torch.randn(8, 3) * torch.tensor([1.0, 2.0, 5.0]) + 10
out = norm(batch).detach()
print(f"largest |mean| of an output feature: {out.mean(dim=0).abs().max():.1e}")
variances = out.var(dim=0, correction=0)
print("output variances:", variances)
print("running mean:", norm.running_mean, "running var:", norm.running_var)
torch.testing.assert_close(out.mean(dim=0), torch.zeros(3), atol=1e-6, rtol=0)
torch.testing.assert_close(variances, torch.ones(3), rtol=1e-3, atol=0)
torch.testing.assert_close(norm.running_mean, 0.1 * batch.mean(dim=0))
torch.testing.assert_close(norm.running_var, 0.9 + 0.1 * batch.var(dim=0))
norm.eval()
running = copy.deepcopy(norm.state_dict())
out_eval = norm(batch)
expected = (batch - norm.running_mean) / (norm.running_var + norm.eps).sqrt()
torch.testing.assert_close(out_eval, expected)
assert all(torch.equal(norm.state_dict()[k], v) for k, v in running.items())

# %%
# So in training mode a sample's output depends on the other samples of its
# batch, and in evaluation mode it does not. A batch of one sample has no
# spread to normalise with; in training mode, the layer refuses it:
torch.testing.assert_close(norm(batch[:1]), out_eval[:1])
norm.train()
assert not torch.allclose(norm(batch[:2])[0], out[0])
try:
    norm(batch[:1])
except ValueError as error:
    print(f"ValueError: {error}")
else:
    raise AssertionError("a one-sample batch in training mode did not raise")


# %%
# Initialisation
# --------------
# The models above kept :class:`torch.nn.Linear`'s default initialisation:
# weights and biases uniform between :math:`\pm 1 / \sqrt{n_{in}}` for a
# layer with :math:`n_{in}` inputs. To choose another,
# :meth:`torch.nn.Module.apply` calls a function on every submodule,
# children before their parent, then on the module itself, and returns the
# module. The functions of :mod:`torch.nn.init` fill a tensor in place
# under :class:`torch.no_grad`, so they may change parameters (outside it,
# an in-place change of a parameter raises an error). Kaiming's normal
# initialisation, meant for layers followed by a ReLU, draws weights with
# standard deviation :math:`\sqrt{2 / n_{in}}`; here the biases become
# zero. Before tanh or sigmoid, :func:`torch.nn.init.xavier_uniform_`
# (Glorot's) is common: uniform within
# :math:`\pm\sqrt{6 / (n_{in} + n_{out})}` times ``gain=`` (1 by default).
def init_weights(module: torch.nn.Module) -> None:
    if isinstance(module, torch.nn.Linear):
        torch.nn.init.kaiming_normal_(module.weight, nonlinearity="relu")
        torch.nn.init.zeros_(module.bias)


torch.manual_seed(0)
mlp = MLP(64, [256, 256], 10)
for layer in mlp.layers[::2]:
    bound = 1 / layer.in_features**0.5
    assert max(layer.weight.abs().max(), layer.bias.abs().max()) <= bound
visited = []
assert mlp.apply(lambda module: visited.append(type(module).__name__)) is mlp
print("apply visits:", visited)
mlp.apply(init_weights)
for layer in mlp.layers[::2]:
    std, target = layer.weight.std().item(), (2 / layer.in_features) ** 0.5
    print(f"{tuple(layer.weight.shape)}: std {std:.4f}, sqrt(2/n_in) {target:.4f}")
    assert abs(std / target - 1) < 0.1
    assert not layer.bias.any()

# sphinx_gallery_start_ignore
assert visited == ["Linear", "ReLU", "Linear", "ReLU", "Linear", "Sequential", "MLP"]
try:  # outside torch.no_grad, an in-place change of a parameter raises
    mlp.layers[0].bias.zero_()
except RuntimeError:
    pass
else:
    raise AssertionError("an in-place change of a leaf parameter did not raise")
weight = torch.empty(256, 64)
assert torch.nn.init.xavier_uniform_(weight) is weight
assert 0.99 * (6 / 320) ** 0.5 < weight.abs().max() <= (6 / 320) ** 0.5
# sphinx_gallery_end_ignore

# %%
# Summary
# -------
# - :func:`~torch.utils.data.random_split` (fractions or lengths, seeded
#   ``generator=``) holds out a validation set; test once, at the end.
# - Validate every epoch in :meth:`~torch.nn.Module.eval` mode *and* under
#   :class:`torch.inference_mode` or :class:`torch.no_grad`.
# - Overfitting: the training loss keeps falling, the validation loss rises.
#   Early stopping keeps ``copy.deepcopy(model.state_dict())`` of the best
#   epoch and restores it with :meth:`~torch.nn.Module.load_state_dict`.
# - Dropout and batch normalisation differ between the two modes;
#   :func:`~torch.nn.functional.dropout` needs ``training=self.training``.
# - ``model.apply(init_weights)`` with :mod:`torch.nn.init` sets each layer.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_07_reproducible_runs.py`,
# which makes a run give the same numbers every time.
