"""
The training loop
=================

Write the loop that trains a network in plain PyTorch, on the device of your
choice; evaluate the model on data it has not seen; then let a helper run
the same loop on handwritten digits and see which ones it gets wrong.
"""

# %%
# Every page starts by saying what computed it. ``device`` is ``"cuda"``
# when :func:`torch.cuda.is_available` is true and the CPU otherwise; the
# line below names the one that built this page. The models and their data
# go there.
#
# .. detail:: Which GPUs
#
#    :func:`torch.cuda.is_available` is true with a PyTorch built for CUDA
#    and an NVIDIA GPU, or with a PyTorch built for ROCm and an AMD GPU.
from itertools import pairwise

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from matplotlib.colors import to_rgb
from matplotlib.ticker import MaxNLocator
from torch.utils.data import DataLoader, TensorDataset

from tutorial_utils.colours import PALETTE
from tutorial_utils.data import load_digits_tensors, toy_datasets, toy_tensors
from tutorial_utils.environment import environment_summary
from tutorial_utils.models import MLP, NeuralNetwork
from tutorial_utils.training import evaluate, fit

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(environment_summary(device))

# %%
# Data, loader and model
# ----------------------
# The toy data set and loaders of the previous page, and the network of the
# page before, with 2 inputs and 2 classes. Seeding right before creating
# the model fixes its initial weights and the order of the
# :term:`batches <batch>` in every :term:`epoch`, since the loader draws its
# shuffles from the same global random number generator.
# :meth:`~torch.nn.Module.to` moves the model's parameters to ``device`` in
# place: they stay the same objects, and it returns the model itself. The
# :term:`optimiser` is then built on those parameters.
X_train, y_train, X_test, y_test = toy_tensors()
train_ds, test_ds = toy_datasets()
train_loader = DataLoader(train_ds, batch_size=2, shuffle=True)
test_loader = DataLoader(test_ds, batch_size=2)

torch.manual_seed(123)
model = NeuralNetwork(num_inputs=2, num_outputs=2)
first_weight = model.layers[0].weight
assert model.to(device) is model
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
print(f"{len(train_ds)} samples, {len(train_loader)} batches per epoch")

# %%
# .. check:: ``.to`` moves the parameters in place: the weight is the same object
assert model.layers[0].weight is first_weight

# %%
# The loop
# --------
# For each batch: move it to ``device``, reset the
# :term:`gradients <gradient>` with
# :meth:`~torch.optim.Optimizer.zero_grad`, compute the :term:`logits`,
# compare them with the targets through
# :func:`~torch.nn.functional.cross_entropy` (log-softmax and negative
# log-likelihood in one numerically safe step) to get the :term:`loss`,
# compute its gradients with :meth:`~torch.Tensor.backward`, and let
# :meth:`~torch.optim.Optimizer.step` update every parameter: for plain SGD,
# ``p -= lr * p.grad``.
#
# .. detail:: Moving a batch
#
#    :meth:`torch.Tensor.to` returns a :term:`tensor` on ``device`` and
#    leaves the original where it was, so the names are reassigned. It
#    returns a copy unless the tensor is already there.
num_epochs = 3
losses = []
for epoch in range(num_epochs):
    model.train()
    for inputs, targets in train_loader:
        inputs, targets = inputs.to(device), targets.to(device)
        optimizer.zero_grad()
        logits = model(inputs)
        loss = F.cross_entropy(logits, targets)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    epoch_losses = ", ".join(f"{x:.2f}" for x in losses[-len(train_loader) :])
    print(f"epoch {epoch + 1}/{num_epochs}, batch losses: {epoch_losses}")

# %%
# .. check:: the batch losses are as printed, and a tensor already on the device is not copied
expected_losses = [0.74874, 0.64503, 0.42474, 0.05124, 0.13065]
expected_losses += [0.00103, 0.00864, 0.00360, 0.02392]
torch.testing.assert_close(
    torch.tensor(losses), torch.tensor(expected_losses), atol=1e-4, rtol=0
)
assert X_train.to("cpu") is X_train

# %%
# The loss falls from 0.75 to almost 0 within three epochs of three steps:
# every loss of the last epoch is below every loss of the first. It does not
# fall at every step, because each batch is a different small sample of the
# data.

# %%
# .. check:: every loss of the last epoch is below every loss of the first, yet some rise
first_epoch, last_epoch = losses[:3], losses[-3:]
assert max(last_epoch) < min(first_epoch)
assert any(later > earlier for earlier, later in pairwise(losses))

# %%
# Why ``zero_grad``
# -----------------
# :meth:`~torch.Tensor.backward` *adds* to ``.grad``, so without
# :meth:`~torch.optim.Optimizer.zero_grad` every step would use the sum of
# all gradients so far. Two backward passes on the same batch show it:
optimizer.zero_grad()
x_batch, y_batch = X_train[:2].to(device), y_train[:2].to(device)
F.cross_entropy(model(x_batch), y_batch).backward()
once = model.layers[0].bias.grad.clone()
F.cross_entropy(model(x_batch), y_batch).backward()
print("after one backward: ", once[:3])
print("after two backwards:", model.layers[0].bias.grad[:3])
torch.testing.assert_close(model.layers[0].bias.grad, 2 * once)
optimizer.zero_grad()
print("after zero_grad:    ", model.layers[0].bias.grad)

# %%
# Since PyTorch 2.0, :meth:`~torch.optim.Optimizer.zero_grad` sets ``.grad``
# to ``None`` by default (``set_to_none=True``): the gradients' memory can be
# freed, and the next backward pass writes the gradient instead of adding it
# to zeros.
#
# Evaluation
# ----------
# The two test samples were not used for training. The evaluation loop
# visits them in evaluation mode and under :class:`torch.no_grad`, which
# records no :term:`computational graph`: nothing will call ``backward``.
# ``reduction="sum"`` adds up the losses of a batch, so that dividing by the
# number of samples at the end gives the mean even when the last batch is
# short. The predicted class is the index of the largest logit.
model.eval()
total_loss, correct = 0.0, 0
with torch.no_grad():
    for inputs, targets in test_loader:
        inputs, targets = inputs.to(device), targets.to(device)
        logits = model(inputs)
        total_loss += F.cross_entropy(logits, targets, reduction="sum").item()
        correct += (logits.argmax(dim=1) == targets).sum().item()
model.train()
n_test = len(test_loader.dataset)
print(f"test loss {total_loss / n_test:.4f}, accuracy {correct / n_test:.0%}")

# %%
# .. check:: under ``torch.no_grad`` the logits record no computational graph
assert logits.grad_fn is None

# %%
# Both test samples are classified correctly.
# :meth:`~torch.nn.Module.train` and :meth:`~torch.nn.Module.eval` switch
# layers that behave differently in training, such as dropout and batch
# normalisation. This network has none, so here the two modes give the same
# outputs, but the habit protects the day a model has such layers.
#
# Predictions
# -----------
# The logits of the five training samples, the class probabilities that
# :func:`torch.softmax` makes of them (see
# :ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py`), and
# the predicted classes. By default, a floating-point tensor whose nonzero
# finite magnitudes span more than a factor of 1000 (or go above 1e8 or
# below 1e-4) is printed in scientific notation, as the first row of
# probabilities is; ``sci_mode=False`` in :func:`torch.set_printoptions`
# prints decimals.
model.eval()
with torch.no_grad():
    outputs = model(X_train.to(device)).cpu()
probas = torch.softmax(outputs, dim=1)
print(probas[0])
torch.set_printoptions(sci_mode=False)
print(outputs, probas, sep="\n")
torch.set_printoptions(sci_mode=None)  # back to the default
predictions = outputs.argmax(dim=1)
print("predicted:", predictions, "labels:", y_train)

# %%
# .. check:: both test samples right; train and eval modes agree; the first row needs scientific notation
assert correct == n_test
with torch.no_grad():
    model.train()
    _in_train_mode = model(X_train.to(device))
    model.eval()
    assert torch.equal(model(X_train.to(device)), _in_train_mode)
# The first row's magnitudes span more than a factor of 1000: scientific notation.
assert probas[0].max() / probas[0].min() > 1000
assert "e-" in str(probas[0])
torch.set_printoptions(sci_mode=False)
assert "e-" not in str(probas)
torch.set_printoptions(sci_mode=None)  # back to the default

# %%
# The first three samples are class 0 and the last two class 1, each with a
# probability above 98 %: all five are right. The softmax never reverses
# the order of a row, so here the largest probability and the largest logit
# pick the same class.
#
# .. detail:: Ties after rounding
#
#    Two logits can be so close that their probabilities round to the same
#    number. ``argmax`` then picks the first of the tied ones.

# %%
# .. check:: all five are right, each above 98 %; when probabilities tie, ``argmax`` picks the first
assert torch.equal(predictions, y_train)
assert torch.equal(probas.argmax(dim=1), predictions)
assert (probas.max(dim=1).values > 0.98).all()
expected_outputs = [[2.93201, -4.25632], [2.60451, -3.83890], [2.14836, -3.25136]]
expected_outputs += [[-2.14610, 2.14964], [-2.50044, 2.52096]]
torch.testing.assert_close(outputs, torch.tensor(expected_outputs), atol=1e-4, rtol=0)
tie = torch.tensor([0.0, 1e-8])  # the second logit is larger, its probability not
assert torch.softmax(tie, 0).tolist() == [0.5, 0.5]
assert [tie.argmax().item(), torch.softmax(tie, 0).argmax().item()] == [1, 0]

# %%
# What the model learnt is a boundary in the plane: the probability of
# class 1 at every point of a grid. The training points (filled) and the
# test points (hollow) fall on their class's side.
grid_1, grid_2 = torch.meshgrid(
    torch.linspace(-2, 4, 200), torch.linspace(-2.5, 4, 200), indexing="xy"
)
grid = torch.stack([grid_1.flatten(), grid_2.flatten()], dim=1).to(device)
with torch.no_grad():
    p_class_1 = torch.softmax(model(grid), dim=1)[:, 1].cpu().reshape(grid_1.shape)

fig, ax = plt.subplots(figsize=(6, 4.2), layout="constrained")
surface = grid_1.numpy(), grid_2.numpy(), p_class_1.numpy()
shading = ax.contourf(*surface, levels=10, cmap="PuOr_r", alpha=0.7)
ax.contour(*surface, levels=[0.5], colors="black", linewidths=1.5)
for X, y, filled in ((X_train, y_train, True), (X_test, y_test, False)):
    for label, marker in ((0, "o"), (1, "s")):
        points = X[y == label].numpy()
        colour = PALETTE[5 if label == 0 else 6] if filled else "white"
        ax.scatter(*points.T, s=60, marker=marker, color=colour, edgecolors="black")
fig.colorbar(shading, ax=ax, label="probability of class 1")
ax.set(xlabel="feature 1", ylabel="feature 2", title="decision boundary (black: 50 %)")
plt.show()

# %%
# The loop as a helper
# --------------------
# :func:`~tutorial_utils.training.fit` wraps this loop: its
# :func:`~tutorial_utils.training.train_one_epoch` is the inner loop above
# and :func:`~tutorial_utils.training.evaluate` the evaluation loop (which
# also restores the mode the model was in). ``fit`` adds the bookkeeping:
# it evaluates on ``eval_loader``, if given, after every epoch, returns the
# mean losses and accuracies per epoch (the training ones measured on each
# batch as it was trained on), and reports each epoch: a tqdm progress bar
# in a terminal, one line otherwise. Without evaluation between epochs, it
# ends with the weights of the loop above, and ``evaluate`` gives the
# evaluation loop's numbers:
#
# .. detail:: Why without evaluation
#
#    Any pass over a loader without a generator of its own, even one that
#    does not shuffle, draws a number from the global generator and so
#    changes the next shuffles.
torch.manual_seed(123)
model_fit = NeuralNetwork(num_inputs=2, num_outputs=2).to(device)
optimizer_fit = torch.optim.SGD(model_fit.parameters(), lr=0.5)
history = fit(model_fit, train_loader, optimizer_fit, epochs=3, device=device)
same = all(
    torch.equal(p, q)
    for p, q in zip(model.parameters(), model_fit.parameters(), strict=True)
)
evaluation = evaluate(model_fit, test_loader, device=device)
print("same weights, bit for bit:", same)
print(evaluation)

# %%
# .. check:: ``fit`` ends with the loop's weights and ``evaluate`` with its numbers; a pass over the test loader draws
assert same
torch.testing.assert_close(tuple(evaluation), (total_loss / n_test, correct / n_test))
# Any pass over a loader, even one that does not shuffle, draws a number.
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(0)
    without_pass = torch.rand(1)
    torch.manual_seed(0)
    iter(test_loader)
    assert not torch.equal(torch.rand(1), without_pass)

# %%
# Handwritten digits
# ------------------
# A real data set: 1,797 images of handwritten digits of 8 x 8 pixels that
# ship with scikit-learn, so nothing is downloaded.
# :func:`~tutorial_utils.data.load_digits_tensors` scales the pixels to
# [0, 1], flattens each image into 64 features, and holds out a quarter of
# the images, chosen by a seed, for testing.
digits = load_digits_tensors(seed=0)
print("training:", tuple(digits.train_features.shape))
print("test:", tuple(digits.test_features.shape))

fig, axes = plt.subplots(2, 10, figsize=(8, 2), layout="constrained")
for ax, image, label in zip(
    axes.flat, digits.train_features[:20], digits.train_labels[:20], strict=True
):
    ax.imshow(image.reshape(8, 8).numpy(), cmap="gray_r", vmin=0, vmax=1)
    ax.set_title(str(label.item()), fontsize=9)
    ax.set_axis_off()
plt.show()

# %%
# The model is an :class:`~tutorial_utils.models.MLP` with one hidden layer
# of 64 units, trained with SGD and *momentum*: each step also goes some way
# in the direction of the previous steps, which smooths the path and often
# speeds it up. The test loader holds the 450 test images in one batch.
torch.manual_seed(0)
digits_train = DataLoader(
    TensorDataset(digits.train_features, digits.train_labels),
    batch_size=32,
    shuffle=True,
)
digits_test = DataLoader(
    TensorDataset(digits.test_features, digits.test_labels), batch_size=450
)
mlp = MLP(64, [64], 10).to(device)
sgd = torch.optim.SGD(mlp.parameters(), lr=0.1, momentum=0.9)
history = fit(mlp, digits_train, sgd, epochs=20, eval_loader=digits_test, device=device)

# %%
# The training loss falls more than fiftyfold, with bumps from epoch to
# epoch. The test loss falls to less than half over the first ten epochs;
# the lowest of the last ten is less than a fifth below the lowest of the
# first ten, while the training loss falls threefold or more. From there on,
# training lowers the loss on the training images far more than on new
# ones: the start of *overfitting*, fitting the training data at the expense
# of new data. The test accuracy stays above 90 % over the last ten epochs.
train_loss, test_loss = history.train_loss, history.eval_loss

epochs = range(1, len(train_loss) + 1)
fig, (ax_loss, ax_acc) = plt.subplots(1, 2, figsize=(9, 3.2), layout="constrained")
ax_loss.plot(epochs, train_loss, "o-", color=PALETTE[5], label="training")
ax_loss.plot(epochs, test_loss, "s-", color=PALETTE[1], label="test")
ax_loss.set(xlabel="epoch", ylabel="cross-entropy loss", yscale="log", title="loss")
ax_loss.legend()
ax_acc.plot(epochs, history.train_accuracy, "o-", color=PALETTE[5], label="training")
ax_acc.plot(epochs, history.eval_accuracy, "s-", color=PALETTE[1], label="test")
ax_acc.axhline(0.9, color="black", linestyle=":", linewidth=1)
ax_acc.set(xlabel="epoch", ylabel="accuracy", ylim=(0.8, 1.005), title="accuracy")
ax_acc.legend(loc="lower right")
for ax in (ax_loss, ax_acc):
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
plt.show()

# %%
# .. check:: training loss falls fiftyfold, test loss stalls after ten epochs, accuracy over 90 % in the last ten
assert train_loss[-1] < train_loss[0] / 50
assert any(later > earlier for earlier, later in pairwise(train_loss))
assert test_loss[9] < test_loss[0] / 2
assert min(test_loss[10:]) > 0.8 * min(test_loss[:10])
assert train_loss[-1] < train_loss[9] / 3
assert min(history.eval_accuracy[-10:]) > 0.9

# %%
# Which digits it confuses
# ------------------------
# A *confusion matrix* counts, for each true digit (row), how often each
# digit was predicted (column); the diagonal holds the correct answers.
# :func:`torch.bincount` counts each (true, predicted) pair in one call.
mlp.eval()
with torch.no_grad():
    predicted = mlp(digits.test_features.to(device)).argmax(dim=1).cpu()
truth = digits.test_labels
confusion = torch.bincount(truth * 10 + predicted, minlength=100).reshape(10, 10)
print(confusion)
print(f"accuracy: {confusion.diagonal().sum() / confusion.sum():.1%}")

# %%
# .. check:: each row counts one true digit, and the diagonal gives the last test accuracy
assert confusion.diagonal().sum().item() / len(truth) == history.eval_accuracy[-1]
assert torch.equal(confusion.sum(dim=1), torch.bincount(truth, minlength=10))

# %%
# The matrix as a picture, and the test images the model got wrong, with
# the true digit and the prediction above each:
wrong = (predicted != truth).nonzero().flatten()
fig = plt.figure(figsize=(9, 4.2), layout="constrained")
left, right = fig.subfigures(1, 2, width_ratios=[1, 1.1])
ax = left.subplots()
cells = torch.ones(10, 10, 3)  # white where the count is 0
cells[confusion > 0] = torch.tensor(to_rgb(PALETTE[6]))
cells[torch.eye(10, dtype=torch.bool)] = torch.tensor(to_rgb(PALETTE[5]))
ax.imshow(cells.numpy())
for row, col in confusion.nonzero().tolist():
    count = str(confusion[row, col].item())
    ax.text(col, row, count, ha="center", va="center", fontsize=8, color="white")
ax.set(xticks=range(10), yticks=range(10), xlabel="predicted", ylabel="true digit")
ax.set_title("confusion matrix (test set)\nblue: correct, vermillion: mistakes")
shown = wrong[:10]
axes = right.subplots(2, 5)
for ax in axes.flat:
    ax.set_axis_off()
for ax, index in zip(axes.flat, shown.tolist(), strict=False):
    ax.imshow(digits.test_features[index].reshape(8, 8).numpy(), cmap="gray_r")
    ax.set_title(f"{truth[index].item()} → {predicted[index].item()}", fontsize=10)
heading = "the" if len(shown) == len(wrong) else f"{len(shown)} of the"
right.suptitle(f"{heading} {len(wrong)} mistakes (true → predicted)")
plt.show()

# %%
# Summary
# -------
# - A training loop repeats, for each batch: move it to the device,
#   :meth:`~torch.optim.Optimizer.zero_grad`, forward pass, loss,
#   :meth:`~torch.Tensor.backward`, :meth:`~torch.optim.Optimizer.step`.
# - Evaluate in :meth:`~torch.nn.Module.eval` mode under :class:`torch.no_grad`, on data
#   held out from training, then switch :meth:`~torch.nn.Module.train` mode back on.
# - :func:`~torch.nn.functional.cross_entropy` takes logits; the largest
#   logit is the predicted class, and the softmax is only needed for
#   probabilities.
# - :func:`~tutorial_utils.training.fit` runs the same loop and keeps the
#   history; a confusion matrix shows which classes get mixed up.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_04_loss_functions.py`,
# which compares the losses a training loop can minimise. Exercises for this page:
# :ref:`exercises-training-03`.
