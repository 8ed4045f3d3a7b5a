"""
The training loop
=================

Train a network with the five lines every PyTorch training loop repeats,
use it for predictions and measure its accuracy; then train one on real
handwritten digits and see which ones it gets wrong.
"""

# %%
# Every page starts by saying what computed it. The toy model trains on the
# CPU, where its seeded numbers are those of the source text; the digits
# model uses the best device there is (the CPU where this site was built).
import time

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from matplotlib.colors import to_rgb
from matplotlib.ticker import MaxNLocator
from torch.utils.data import DataLoader, TensorDataset

from tutorial_utils.data import load_digits_tensors, toy_datasets, toy_tensors
from tutorial_utils.devices import pick_device
from tutorial_utils.environment import environment_summary
from tutorial_utils.models import MLP, NeuralNetwork
from tutorial_utils.plotting import PALETTE
from tutorial_utils.training import accuracy, evaluate, fit

device = pick_device()
print(environment_summary(device))

# %%
# Data, loader and model
# ----------------------
# The toy data set and the shuffling loader of the previous page, and the
# network of the page before, now with 2 inputs and 2 classes. Seeding right
# before creating the model fixes both its initial weights and, since the
# loader draws its shuffles from the same generator, the order of the
# batches in every epoch.
X_train, y_train, X_test, y_test = toy_tensors()
train_ds, test_ds = toy_datasets()
train_loader = DataLoader(dataset=train_ds, batch_size=2, shuffle=True, num_workers=0)
test_loader = DataLoader(dataset=test_ds, batch_size=2, shuffle=False, num_workers=0)

torch.manual_seed(123)
model = NeuralNetwork(num_inputs=2, num_outputs=2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
print(f"{len(train_ds)} samples, {len(train_loader)} batches per epoch")

# %%
# The loop
# --------
# For each batch: compute the logits, compare them with the labels through
# :func:`~torch.nn.functional.cross_entropy` (softmax and negative log
# likelihood in one, numerically safe step), reset the gradients with
# :meth:`~torch.optim.Optimizer.zero_grad`, compute new ones with
# :meth:`~torch.Tensor.backward` and let :meth:`~torch.optim.Optimizer.step`
# move every parameter against its gradient: ``p -= lr * p.grad`` for SGD.
num_epochs = 3
losses = []
for epoch in range(num_epochs):
    model.train()
    for batch_idx, (features, labels) in enumerate(train_loader):
        logits = model(features)
        loss = F.cross_entropy(logits, labels)

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

        ### LOGGING
        print(
            f"Epoch: {epoch + 1:03d}/{num_epochs:03d}"
            f" | Batch {batch_idx:03d}/{len(train_loader):03d}"
            f" | Train Loss: {loss:.2f}"
        )
        losses.append(loss.item())

    model.eval()
    # Optional model evaluation

# sphinx_gallery_start_ignore
# The losses the source text printed, to its two decimals.
source_losses = [0.75, 0.65, 0.42, 0.05, 0.13, 0.00, 0.01, 0.00, 0.02]
torch.testing.assert_close(
    torch.tensor(losses), torch.tensor(source_losses), atol=0.005, rtol=0
)
# sphinx_gallery_end_ignore

# %%
# The loss falls from 0.75 to almost 0 within three epochs of three steps:
# the two classes are far apart. It does not fall at every step, because
# each batch is a different small sample of the data.
#
# :meth:`~torch.nn.Module.train` and :meth:`~torch.nn.Module.eval` switch
# layers that behave differently in training, such as dropout and batch
# normalisation. This network has none, so here they change nothing, but
# the habit protects the day a model does.
#
# Why ``zero_grad``
# -----------------
# :meth:`~torch.Tensor.backward` *adds* to ``.grad``, so without
# :meth:`~torch.optim.Optimizer.zero_grad` every step would use the sum of
# all gradients so far. (The gradients of the last step of the loop are
# still there: the loop zeroes them *before* each backward pass.) Two
# backward passes on the same batch show it:
optimizer.zero_grad()
x_batch, y_batch = X_train[:2], y_train[:2]
F.cross_entropy(model(x_batch), y_batch).backward()
once = model.layers[0].bias.grad.clone()
F.cross_entropy(model(x_batch), y_batch).backward()
print("after one backward: ", once[:3])
print("after two backwards:", model.layers[0].bias.grad[:3])
optimizer.zero_grad()
print("after zero_grad:    ", model.layers[0].bias.grad)

# sphinx_gallery_start_ignore
assert once.abs().sum() > 0
assert model.layers[0].bias.grad is None
F.cross_entropy(model(x_batch), y_batch).backward()
F.cross_entropy(model(x_batch), y_batch).backward()
torch.testing.assert_close(model.layers[0].bias.grad, 2 * once)
optimizer.zero_grad()
# sphinx_gallery_end_ignore

# %%
# :meth:`~torch.optim.Optimizer.zero_grad` sets ``.grad`` to ``None`` by
# default (``set_to_none=True``), which saves the memory and the additions
# of a zero tensor.
#
# Predictions
# -----------
# In evaluation mode and without recording a graph, the model's logits for
# the five training samples:
model.eval()
with torch.no_grad():
    outputs = model(X_train)
print(outputs)

# sphinx_gallery_start_ignore
source_outputs = torch.tensor(
    [
        [2.9320, -4.2563],
        [2.6045, -3.8389],
        [2.1484, -3.2514],
        [-2.1461, 2.1496],
        [-2.5004, 2.5210],
    ]
)
torch.testing.assert_close(outputs, source_outputs, atol=5e-5, rtol=0)
# sphinx_gallery_end_ignore

# %%
# The softmax turns them into class probabilities. ``sci_mode=False`` in
# :func:`torch.set_printoptions` prints small probabilities as decimals
# rather than as ``8.0e-04``.
torch.set_printoptions(sci_mode=False)
probas = torch.softmax(outputs, dim=1)
print(probas)
torch.set_printoptions(sci_mode=None)  # back to the default

# sphinx_gallery_start_ignore
source_probas = torch.tensor(
    [
        [0.9992, 0.0008],
        [0.9984, 0.0016],
        [0.9955, 0.0045],
        [0.0134, 0.9866],
        [0.0066, 0.9934],
    ]
)
torch.testing.assert_close(probas, source_probas, atol=5e-5, rtol=0)
# sphinx_gallery_end_ignore

# %%
# The first three samples are class 0 with probabilities above 99 %, the
# last two class 1. The predicted class is the index of the largest value,
# :func:`torch.argmax` along the class dimension; the softmax does not
# change which one that is, so the logits give the same answer.
predictions = torch.argmax(probas, dim=1)
print(predictions)
print(torch.argmax(outputs, dim=1))
print(predictions == y_train)
print(torch.sum(predictions == y_train) / len(y_train))

# sphinx_gallery_start_ignore
assert torch.equal(predictions, torch.tensor([0, 0, 0, 1, 1]))
assert torch.equal(torch.argmax(outputs, dim=1), predictions)
assert (torch.sum(predictions == y_train) / len(y_train)).item() == 1.0
# sphinx_gallery_end_ignore

# %%
# Accuracy on data it has not seen
# --------------------------------
# Accuracy on the training data says little: a model can memorise five
# points. The test samples were not used for training.
# :func:`~tutorial_utils.training.accuracy` compares the largest logit with
# the label, and :func:`~tutorial_utils.training.evaluate` does so for a
# whole loader, with the mean loss, in evaluation mode and without a graph.
with torch.no_grad():
    print("test accuracy:", accuracy(model(X_test), y_test))
print(evaluate(model, test_loader))

# sphinx_gallery_start_ignore
assert accuracy(model(X_test), y_test) == 1.0
assert evaluate(model, test_loader).accuracy == 1.0
# sphinx_gallery_end_ignore

# %%
# What the model learnt is a boundary in the plane: the logits of every
# point of a grid, coloured by the probability of class 1. The training
# points (filled) and the test points (hollow) fall on the right sides.
grid_1, grid_2 = torch.meshgrid(
    torch.linspace(-2, 4, 200), torch.linspace(-2.5, 4, 200), indexing="xy"
)
with torch.no_grad():
    grid_logits = model(torch.stack([grid_1.flatten(), grid_2.flatten()], dim=1))
p_class_1 = torch.softmax(grid_logits, dim=1)[:, 1].reshape(grid_1.shape)

fig, ax = plt.subplots(figsize=(6, 4.2), layout="constrained")
shading = ax.contourf(grid_1, grid_2, p_class_1, levels=10, cmap="PuOr_r", alpha=0.7)
ax.contour(grid_1, grid_2, p_class_1, levels=[0.5], colors="black", linewidths=1.5)
for X, y, filled in ((X_train, y_train, True), (X_test, y_test, False)):
    for label, marker in ((0, "o"), (1, "s")):
        points = X[y == label].numpy()
        ax.scatter(
            points[:, 0],
            points[:, 1],
            s=60,
            marker=marker,
            color=PALETTE[5 if label == 0 else 6] if filled else "white",
            edgecolors="black",
        )
fig.colorbar(shading, ax=ax, label="probability of class 1")
ax.set(
    xlabel="feature 1", ylabel="feature 2", title="decision boundary (black line: 50 %)"
)
plt.show()

# %%
# Handwritten digits
# ------------------
# A real data set: 1,797 images of handwritten digits of 8 x 8 pixels that
# ship with scikit-learn, so nothing is downloaded.
# :func:`~tutorial_utils.data.load_digits_tensors` scales the pixels to
# [0, 1], flattens each image into 64 features, and holds out a quarter of
# the images, chosen by a seed, for testing.
digits = load_digits_tensors(seed=0)
print(
    "training:",
    tuple(digits.train_features.shape),
    "test:",
    tuple(digits.test_features.shape),
)

fig, axes = plt.subplots(2, 10, figsize=(8, 2), layout="constrained")
for ax, image, label in zip(
    axes.flat, digits.train_features[:20], digits.train_labels[:20], strict=True
):
    ax.imshow(image.reshape(8, 8).numpy(), cmap="gray_r", vmin=0, vmax=1)
    ax.set_title(str(label.item()), fontsize=9)
    ax.set_axis_off()
plt.show()

# sphinx_gallery_start_ignore
assert digits.train_features.shape == (1347, 64)
assert digits.test_features.shape == (450, 64)
# sphinx_gallery_end_ignore

# %%
# The model is an :class:`~tutorial_utils.models.MLP` with one hidden layer
# of 64 units, trained with SGD and *momentum*: each step also goes some
# way in the direction of the previous steps, which smooths the path and
# speeds it up. :func:`~tutorial_utils.training.fit` runs the loop above,
# with :func:`~tutorial_utils.training.evaluate` on the test set after each
# epoch. In a terminal it shows a progress bar (tqdm); here, where the
# output is not a terminal, it prints one line per epoch.
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

tic = time.perf_counter()
history = fit(mlp, digits_train, sgd, epochs=20, eval_loader=digits_test, device=device)
seconds = time.perf_counter() - tic
print(f"training took {seconds:.1f} s on the machine that built this page")

# sphinx_gallery_start_ignore
assert history.eval_accuracy[-1] >= 0.95
assert history.train_loss[-1] < history.train_loss[0] / 100
assert history.eval_loss[-1] > 5 * history.train_loss[-1]
assert min(history.eval_accuracy[-10:]) >= 0.95
# sphinx_gallery_end_ignore

# %%
# The curves: the training loss falls more than a hundredfold, with bumps
# from epoch to epoch. The test loss falls less and then levels off, well
# above the training loss: the model fits the images it trains on better
# than new ones, as every model does. A test loss that *rose* while the
# training loss fell would mean it had begun to memorise them
# (overfitting). The test accuracy stays above 95 % over the last ten epochs.
epochs = range(1, len(history.train_loss) + 1)
fig, (ax_loss, ax_acc) = plt.subplots(1, 2, figsize=(9, 3.2), layout="constrained")
ax_loss.plot(epochs, history.train_loss, "o-", color=PALETTE[5], label="training")
ax_loss.plot(epochs, history.eval_loss, "s-", color=PALETTE[1], label="test")
ax_loss.set(xlabel="epoch", ylabel="cross-entropy loss", yscale="log", title="loss")
ax_loss.legend()
ax_acc.plot(epochs, history.train_accuracy, "o-", color=PALETTE[5], label="training")
ax_acc.plot(epochs, history.eval_accuracy, "s-", color=PALETTE[1], label="test")
ax_acc.axhline(0.95, color="black", linestyle=":", linewidth=1)
ax_acc.set(xlabel="epoch", ylabel="accuracy", ylim=(0.8, 1.005), title="accuracy")
ax_acc.legend(loc="lower right")
for ax in (ax_loss, ax_acc):
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
plt.show()

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

# sphinx_gallery_start_ignore
assert confusion.sum() == len(truth)
assert confusion.diagonal().sum().item() / len(truth) == history.eval_accuracy[-1]
assert torch.equal(confusion.sum(dim=1), torch.bincount(truth, minlength=10))
# sphinx_gallery_end_ignore

# %%
# The matrix as a picture, and the test images the model got wrong, with
# the true digit and the prediction above each:
wrong = (predicted != truth).nonzero().flatten()
fig = plt.figure(figsize=(9, 4.2), layout="constrained")
left, right = fig.subfigures(1, 2, width_ratios=[1, 1.1])
ax = left.subplots()
correct_colour, mistake_colour = to_rgb(PALETTE[5]), to_rgb(PALETTE[6])
cells = torch.ones(10, 10, 3)  # white where the count is 0
cells[confusion > 0] = torch.tensor(mistake_colour)
cells[torch.eye(10, dtype=torch.bool)] = torch.tensor(correct_colour)
ax.imshow(cells.numpy())
for (row, col), count in zip(
    torch.cartesian_prod(torch.arange(10), torch.arange(10)).tolist(),
    confusion.flatten().tolist(),
    strict=True,
):
    if count:
        ax.text(
            col, row, str(count), ha="center", va="center", fontsize=8, color="white"
        )
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

# sphinx_gallery_start_ignore
assert len(wrong) == confusion.sum() - confusion.diagonal().sum()
# sphinx_gallery_end_ignore

# %%
# Summary
# -------
# - Every training loop repeats: forward pass, loss,
#   :meth:`~torch.optim.Optimizer.zero_grad`, :meth:`~torch.Tensor.backward`,
#   :meth:`~torch.optim.Optimizer.step`.
# - :func:`~torch.nn.functional.cross_entropy` takes logits; the softmax is
#   only needed for probabilities, and :func:`torch.argmax` of the logits
#   gives the predicted class.
# - :meth:`~torch.nn.Module.train` and :meth:`~torch.nn.Module.eval` switch
#   layers such as dropout; :class:`torch.no_grad` skips the graph for
#   predictions.
# - Measure accuracy on data held out from training; a confusion matrix
#   shows which classes get mixed up.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_04_saving_and_loading.py`,
# which saves a trained model and resumes a run exactly where it stopped.
