"""
Training on handwritten digits
==============================

After this page you can train a small network on real images with the
site's ``fit`` helper, read its loss and accuracy per epoch, and count which
digits it confuses. This in-depth page goes further than
:ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`. A first
reading can skip it.

**Before this page:**
:ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`,
:ref:`sphx_glr_auto_examples_training_plot_05_optimisers_and_learning_rates.py`
and :ref:`sphx_glr_auto_examples_training_plot_06_validation_and_overfitting.py`.
"""

# %%
# Every page starts by saying what computed it. ``device`` is ``"cuda"``
# when :func:`torch.cuda.is_available` is true, and the CPU otherwise.
import matplotlib.pyplot as plt
import torch
from matplotlib.colors import to_rgb
from matplotlib.ticker import MaxNLocator
from torch.utils.data import DataLoader, TensorDataset

from tutorial_utils.colours import PALETTE
from tutorial_utils.data import load_digits_tensors
from tutorial_utils.environment import environment_summary
from tutorial_utils.models import MLP
from tutorial_utils.training import fit

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(environment_summary(device))

# %%
# The images
# ----------
# :func:`~tutorial_utils.data.load_digits_tensors` gives 1,797 images of
# handwritten digits, 8 x 8 pixels each, that ship with scikit-learn. Each
# image is a row of 64 features from 0 to 1, and a quarter of the images are
# held out for testing. To show the first 20 training images,
# ``reshape(8, 8)`` turns each row back into an image. ``axes.flat`` runs
# over the small plots. ``ax.imshow`` draws an image in each, and
# ``set_axis_off`` hides the axes. ``cmap="gray_r"`` draws 0 as white and 1
# as black.
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
# .. check:: 1,797 images, a quarter held out, pixels from 0 to 1
assert len(digits.train_labels) + len(digits.test_labels) == 1797
assert abs(len(digits.test_labels) / 1797 - 0.25) < 0.01
assert digits.train_features.aminmax() == (0, 1)
assert plt.get_cmap("gray_r")(0.0)[:3] == (1, 1, 1)
assert plt.get_cmap("gray_r")(1.0)[:3] == (0, 0, 0)

# %%
# The run
# -------
# The model is an :class:`~tutorial_utils.models.MLP`. ``MLP(64, [64], 10)``
# takes 64 input features, has one hidden layer of 64 units, and gives 10
# logits, one per digit. It trains with SGD and :term:`momentum`: each step
# also goes some way in the direction of the previous steps. The training
# loader serves shuffled batches of 32. The test loader holds the 450 test
# images in one batch. ``fit`` evaluates on them after every epoch, for 20
# epochs.
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
# .. check:: the test loader gives all 450 test images in one batch
assert len(digits_test) == 1
assert len(digits.test_labels) == 450

# %%
# Loss and accuracy per epoch
# ---------------------------
# ``history`` holds four lists, one value per epoch: ``train_loss``,
# ``train_accuracy``, ``eval_loss`` and ``eval_accuracy``. The training
# values are measured on each batch while it is trained on. In the first
# epoch, the early batches meet a barely trained model. So the first training
# accuracy is below the test accuracy measured after the epoch.
#
# The plots draw each list against the epoch. The loss axis is logarithmic:
# equal distances on it are equal ratios of the loss. ``axhline`` marks
# 90 % accuracy. ``ax.xaxis.set_major_locator`` with
# ``MaxNLocator(integer=True)`` keeps the epoch ticks whole numbers.
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
ax_acc.set(xlabel="epoch", ylabel="accuracy", title="accuracy")
ax_acc.legend(loc="lower right")
for ax in (ax_loss, ax_acc):
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
plt.show()

# %%
# .. check:: in the first epoch, training accuracy is below test accuracy
assert history.train_accuracy[0] < history.eval_accuracy[0]
assert ax_loss.get_yscale() == "log"
assert ax_acc.get_ylim()[0] < min(history.train_accuracy)

# %%
# The training loss falls more than fiftyfold, with bumps from epoch to
# epoch. The test loss falls almost fivefold over the first ten epochs, most
# of it by epoch 2. Then it stalls: over the last ten epochs, it never falls
# 20 % below its best of the first ten. Meanwhile the training loss still
# falls threefold or more. So training now lowers the loss on the training
# images far more than on new ones. If the test loss went on to rise, that
# would be :term:`overfitting`. The test accuracy stays above 90 % over the
# last ten epochs.

# %%
# .. check:: training loss falls fiftyfold, with bumps
from itertools import pairwise

assert train_loss[-1] < train_loss[0] / 50
assert any(later > earlier for earlier, later in pairwise(train_loss))

# %%
# .. check:: test loss falls almost fivefold, most by epoch 2, then stalls
assert 4.5 < test_loss[0] / test_loss[9] < 5
assert test_loss[0] - test_loss[1] > (test_loss[0] - test_loss[9]) / 2
assert min(test_loss[10:]) > 0.8 * min(test_loss[:10])

# %%
# .. check:: over the last ten epochs, training loss falls threefold or more
assert train_loss[-1] < train_loss[9] / 3

# %%
# .. check:: test accuracy above 90 % in each of the last ten epochs
assert min(history.eval_accuracy[-10:]) > 0.9

# %%
# Which digits it confuses
# ------------------------
# A *confusion matrix* counts, for each true digit, how often each digit was
# predicted. Row ``t`` is the true digit and column ``p`` the prediction, so
# the diagonal holds the correct answers. One trick builds it:
#
# 1. ``truth * 10 + predicted`` turns each pair into one number from 0 to 99;
# 2. :func:`torch.bincount` counts how often each number occurs, up to the
#    largest present; ``minlength=100`` pads the counts to 100 numbers;
# 3. ``reshape(10, 10)`` puts pair ``(t, p)`` in row ``t``, column ``p``.
#
# The model predicts in evaluation mode, without gradients: the index of
# the largest logit. The sum of ``confusion.diagonal()`` over the total is
# the accuracy.
mlp.eval()
with torch.no_grad():
    predicted = mlp(digits.test_features.to(device)).argmax(dim=1).cpu()
truth = digits.test_labels
confusion = torch.bincount(truth * 10 + predicted, minlength=100).reshape(10, 10)
print(confusion)
print(f"accuracy: {confusion.diagonal().sum() / confusion.sum():.1%}")

# %%
# .. check:: each row counts one true digit; the diagonal gives the final accuracy
assert confusion.diagonal().sum().item() / len(truth) == history.eval_accuracy[-1]
assert torch.equal(confusion.sum(dim=1), torch.bincount(truth, minlength=10))
assert confusion[truth[0], predicted[0]] >= 1

# %%
# .. check:: ``bincount`` counts zeros below the largest; ``minlength`` pads
assert torch.bincount(torch.tensor([3])).tolist() == [0, 0, 0, 1]
assert torch.bincount(torch.tensor([3]), minlength=5).tolist() == [0, 0, 0, 1, 0]

# %%
# The matrix as a picture, and the test images the model got wrong.
# ``(predicted != truth).nonzero()`` gives the index of each mistake, one a
# row; ``flatten`` lines them up. ``fig.subfigures`` splits an empty
# ``plt.figure`` into two parts, the right one wider.
#
# The picture is a 10 x 10 image. Its last dimension holds three colour
# channels, red, green and blue, each from 0 to 1. It is painted in steps:
#
# 1. ``torch.ones`` starts every cell white: all three channels at 1.
# 2. The mask ``confusion > 0`` picks the cells with a count. Each gets
#    vermillion's three channels, which ``to_rgb`` gives.
# 3. ``torch.eye(10, dtype=torch.bool)`` picks the diagonal. Painted
#    second, its blue replaces the vermillion there.
# 4. ``ax.text(col, row, ...)`` writes each count that
#    ``confusion.nonzero()`` lists, the column as x.
#
# The right part shows up to ten mistakes, true digit and prediction above
# each. ``suptitle`` titles the part.
#
# .. detail:: Fewer than ten mistakes
#
#    The right part's plots start with their axes off. ``zip`` with
#    ``strict=False`` stops at the last mistake, leaving any others blank.
#    The title says how many of the mistakes are shown.
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
# .. check:: zero cells white, the diagonal blue, other counted cells vermillion
assert (cells[confusion == 0] == 1).all()
assert cells.min() >= 0
assert cells.max() <= 1
assert (confusion.diagonal() > 0).all()
_eye = torch.eye(10, dtype=torch.bool)
assert (cells[_eye] == torch.tensor(to_rgb(PALETTE[5]))).all()
assert (cells[(confusion > 0) & ~_eye] == torch.tensor(to_rgb(PALETTE[6]))).all()

# %%
# Summary
# -------
# - ``fit`` with an ``eval_loader`` records the loss and accuracy on
#   held-out images after every epoch.
# - When the test loss stalls while the training loss keeps falling,
#   training fits the training images far more than new ones.
# - A confusion matrix, counted with one ``bincount``, shows which classes
#   get mixed up.
#
# Back to the core path:
# :ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`.
