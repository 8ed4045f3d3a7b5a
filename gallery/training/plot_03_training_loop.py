"""
The training loop
=================

After this page you can write the loop that trains a network in plain
PyTorch, on the device of your choice. You can measure the trained model on
data it has not seen, and run the same loop through the site's helpers.

**Before this page:**
:ref:`sphx_glr_auto_examples_gradients_plot_01_automatic_differentiation.py`,
:ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py` and
:ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py`.
"""

# %%
# Every page starts by saying what computed it. ``device`` is ``"cuda"``
# when :func:`torch.cuda.is_available` is true, and the CPU otherwise.
#
# .. detail:: Which GPUs
#
#    - A PyTorch built for CUDA needs an NVIDIA GPU.
#    - A PyTorch built for ROCm, AMD's counterpart of CUDA, needs an AMD GPU.
#    - Either needs a working *driver*, the system software that runs the GPU.
#    - On an NVIDIA machine, the environment variable ``CUDA_VISIBLE_DEVICES``
#      names the GPUs a program may use. Set to an empty string before the
#      program starts, it hides them all, and ``is_available`` is false.
import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from tutorial_utils.colours import PALETTE
from tutorial_utils.data import load_digits_tensors, toy_datasets, toy_tensors
from tutorial_utils.environment import environment_summary
from tutorial_utils.models import NeuralNetwork
from tutorial_utils.training import evaluate, fit

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(environment_summary(device))

# %%
# Data, loader and model
# ----------------------
# The data are the toy set of the previous page, from
# :func:`~tutorial_utils.data.toy_tensors` and
# :func:`~tutorial_utils.data.toy_datasets`: two features, two classes. A
# :class:`~torch.utils.data.DataLoader` serves the five training samples in
# shuffled :term:`batches <batch>` of at most two. A second one holds the
# test set.
# The model is the site's :class:`~tutorial_utils.models.NeuralNetwork`, met
# in :ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py`.
# Seeding first fixes its initial weights and the batch order of every
# :term:`epoch`.
#
# ``model.to(device)`` moves the parameters there, in place.
#
# The :term:`optimiser` is the object that updates the parameters. It is
# given them when it is made. This page uses :class:`torch.optim.SGD`,
# *stochastic gradient descent*. With its default settings, each step moves
# each parameter against its :term:`gradient`, scaled by the
# :term:`learning rate` ``lr``. It is stochastic because each step sees one
# random batch.
X_train, y_train, X_test, y_test = toy_tensors()
train_ds, test_ds = toy_datasets()
train_loader = DataLoader(train_ds, batch_size=2, shuffle=True)
test_loader = DataLoader(test_ds, batch_size=2)

torch.manual_seed(123)
model = NeuralNetwork(num_inputs=2, num_outputs=2).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
print(f"{len(train_ds)} samples, {len(train_loader)} batches per epoch")

# %%
# .. check:: ``.to`` keeps the parameter objects; the optimiser holds them
with torch.random.fork_rng(devices=[]):
    _other = NeuralNetwork(num_inputs=2, num_outputs=2)
_weight = _other.layers[0].weight
assert _other.to(device) is _other
assert _other.layers[0].weight is _weight
_held = optimizer.param_groups[0]["params"]
assert all(p is q for p, q in zip(_held, model.parameters(), strict=True))

# %%
# .. check:: the batches hold 2, 2 and 1 samples
with torch.random.fork_rng(devices=[]):
    assert [len(_y) for _, _y in train_loader] == [2, 2, 1]

# %%
# The loop
# --------
# Each epoch begins with ``model.train()``, which puts the model in
# :term:`training mode`. An evaluation, below, switches it to another mode.
# Then, for each batch, the loop:
#
# 1. moves the batch to ``device``;
# 2. resets the gradients with :meth:`~torch.optim.Optimizer.zero_grad`;
# 3. calls the model on the inputs to get the :term:`logits`;
# 4. compares the logits with the targets through
#    :func:`~torch.nn.functional.cross_entropy`, which gives the
#    :term:`loss`;
# 5. computes the loss's gradients with :meth:`~torch.Tensor.backward`;
# 6. lets :meth:`~torch.optim.Optimizer.step` update the parameters. For
#    plain SGD, that is ``p -= lr * p.grad``.
#
# For one sample, the cross-entropy is minus the log-probability of its true
# class. Here, by default, it returns the batch's mean. ``loss.item()``
# keeps each loss as a Python number. Each epoch prints its batch losses,
# which the slice ``losses[-len(train_loader):]`` holds.
#
# .. detail:: Moving a batch
#
#    :meth:`torch.Tensor.to` returns a :term:`tensor` on ``device`` and
#    leaves the original where it was, so the names are reassigned. It
#    returns the tensor itself, not a copy, when it is already there.
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
# .. check:: the batch losses are those printed; ``to`` does not copy here
_exp = [0.74874, 0.64503, 0.42474, 0.05124, 0.13065]
_exp += [0.00103, 0.00864, 0.00360, 0.02392]
torch.testing.assert_close(torch.tensor(losses), torch.tensor(_exp), atol=1e-4, rtol=0)
assert X_train.to("cpu") is X_train
assert inputs.to(device) is inputs

# %%
# .. check:: cross-entropy is the batch mean of minus the true class's log-probability
_log_probs = torch.log_softmax(logits, dim=1)
_picked = _log_probs[torch.arange(len(targets)), targets]
torch.testing.assert_close(loss, -_picked.mean())
with torch.no_grad():
    _logits = model(X_train[:2].to(device)).cpu()  # a batch of two
_picked = torch.log_softmax(_logits, dim=1)[torch.arange(2), y_train[:2]]
torch.testing.assert_close(F.cross_entropy(_logits, y_train[:2]), -_picked.mean())

# %%
# The loss falls from 0.75 to almost 0 in three epochs. It rises at some
# steps, because each batch is a different small sample of the data.

# %%
# .. check:: each last-epoch loss is below each first-epoch loss, yet some rise
first_epoch, last_epoch = losses[:3], losses[-3:]
assert max(last_epoch) < min(first_epoch)
assert (torch.tensor(losses).diff() > 0).any()

# %%
# Why ``zero_grad``
# -----------------
# :meth:`~torch.Tensor.backward` *adds* to each ``.grad``. Without ``zero_grad``,
# every step would use the sum of all gradients so far. Below, two backward
# passes on one batch double the gradient. The prints show 3 of the 30 biases
# of ``model.layers[0]``. ``.clone()`` keeps a copy of the first, since the
# second pass adds into the same tensor.
#
# .. detail:: ``zero_grad`` sets ``None``
#
#    Since PyTorch 2.0, ``zero_grad`` sets each ``.grad`` to ``None`` by
#    default. The gradients' memory can then be freed. The next backward
#    pass writes the gradient instead of adding it to zeros.
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
# .. check:: after ``zero_grad``, ``.grad`` is ``None``; backward writes, then adds
assert all(p.grad is None for p in model.parameters())
assert model.layers[0].bias.numel() == 30
F.cross_entropy(model(x_batch), y_batch).backward()
torch.testing.assert_close(model.layers[0].bias.grad, once, atol=0, rtol=0)
_grad = model.layers[0].bias.grad
F.cross_entropy(model(x_batch), y_batch).backward()
assert model.layers[0].bias.grad is _grad
optimizer.zero_grad()

# %%
# Evaluation
# ----------
# The evaluation loop visits the two test samples, unused in training. It
# differs in three ways:
#
# 1. :meth:`~torch.nn.Module.eval` puts the model in evaluation mode, and
#    ``model.train()`` switches back after the loop;
# 2. under :class:`torch.no_grad`, no :term:`computational graph` is
#    recorded, since nothing will call ``backward``;
# 3. ``reduction="sum"`` adds up the losses of a batch instead of averaging.
#
# Dividing the sum by ``len(test_loader.dataset)``, the number of samples,
# gives the mean even when the last batch is short. The predicted class is
# the index of the largest logit, from ``argmax``. Comparing it with the
# targets and summing the ``True`` values counts the right predictions. The
# *accuracy* is the fraction of predictions that are right.
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
# Both test samples are classified correctly. ``train()`` and ``eval()`` switch
# the layers that behave differently in training, such as :term:`dropout` and
# :term:`batch normalisation`. This network has none: both modes agree here.
#
# Predictions
# -----------
# :func:`torch.softmax` turns each row of logits into class probabilities
# that sum to 1, up to rounding. Below are the five training samples'
# logits, probabilities and predicted classes.
# ``torch.set_printoptions(sci_mode=False)`` prints small probabilities as
# decimals; ``sci_mode=None`` restores the default. ``.cpu()`` brings the
# outputs next to ``y_train``, on the CPU.
model.eval()
with torch.no_grad():
    outputs = model(X_train.to(device)).cpu()
probas = torch.softmax(outputs, dim=1)
torch.set_printoptions(sci_mode=False)
print(outputs, probas, sep="\n")
torch.set_printoptions(sci_mode=None)  # back to the default
predictions = outputs.argmax(dim=1)
print("predicted:", predictions, "labels:", y_train)

# %%
# .. check:: both test samples right; train and eval modes agree here
assert correct == n_test
with torch.no_grad():
    model.train()
    _in_train_mode = model(X_train.to(device))
    model.eval()
    assert torch.equal(model(X_train.to(device)), _in_train_mode)

# %%
# .. check:: the first row needs scientific notation; ``sci_mode=False`` avoids it
assert probas[0].max() / probas[0].min() > 1000
assert "e-" in str(probas[0])
torch.set_printoptions(sci_mode=False)
assert "e-" not in str(probas)
torch.set_printoptions(sci_mode=None)  # back to the default

# %%
# All five are right, each with a probability above 98 %. The softmax never
# reverses the order of a row, so here the largest probability and the
# largest logit pick the same class.

# %%
# .. check:: all five are right, each above 98 %
assert torch.equal(predictions, y_train)
assert torch.equal(probas.argmax(dim=1), predictions)
assert (probas.max(dim=1).values > 0.98).all()
torch.testing.assert_close(probas.sum(dim=1), torch.ones(5))
expected_outputs = [[2.93201, -4.25632], [2.60451, -3.83890], [2.14836, -3.25136]]
expected_outputs += [[-2.14610, 2.14964], [-2.50044, 2.52096]]
torch.testing.assert_close(outputs, torch.tensor(expected_outputs), atol=1e-4, rtol=0)

# %%
# What the model learnt
# ---------------------
# The model gives each point a probability of class 1. On a grid of
# 200 x 200 points:
#
# 1. :func:`torch.meshgrid` makes two 200 x 200 tensors, the two features
#    of every grid point;
# 2. ``flatten`` and ``stack`` make them one batch of 40,000 samples;
# 3. column 1 of the softmax is the probability of class 1;
# 4. ``reshape`` puts it back on the grid.
#
# ``contourf`` shades it and ``contour`` draws the 50 % line, the decision
# boundary. ``scatter`` adds the training points, filled in the site's
# ``PALETTE`` colours, and the hollow test points. All are on their class's
# side. ``colorbar`` adds the scale. Other arguments only style the plot.
# ``.numpy()`` gives NumPy arrays: Matplotlib 3.8.0's ``contourf`` refuses
# tensor grids.
#
# .. detail:: ``indexing="xy"`` and the ``*``
#
#    ``indexing="xy"`` makes the first feature vary along each row of the
#    grid, and the second down each column. ``*surface`` passes the grids
#    and the probabilities as three arguments. ``points`` holds a class's
#    first features in one row and its second in the other, so ``*points``
#    passes two.
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
        colour = PALETTE[5 + label] if filled else "white"
        points = X[y == label].numpy().T
        ax.scatter(*points, s=60, marker=marker, color=colour, edgecolors="black")
fig.colorbar(shading, ax=ax, label="probability of class 1")
ax.set(xlabel="feature 1", ylabel="feature 2", title="decision boundary (black: 50 %)")
plt.show()

# %%
# .. check:: the grid is 40,000 samples; each data point is on its class's side
assert grid.shape == (40_000, 2)
assert torch.equal(grid_1[1], grid_1[0])  # feature 1 varies along each row
assert torch.equal(grid_2[:, 1], grid_2[:, 0])  # feature 2 down each column
with torch.no_grad():
    for _X, _y in ((X_train, y_train), (X_test, y_test)):
        _p1 = torch.softmax(model(_X.to(device)), dim=1)[:, 1].cpu()
        assert torch.equal(_p1 > 0.5, _y == 1)

# %%
# .. check:: Matplotlib 3.8.0's ``contourf`` refuses tensor grids; arrays work
import matplotlib

_fig, _ax = plt.subplots()
if matplotlib.__version__ == "3.8.0":  # runs in the readers-floor env, not the site's
    try:
        _ax.contourf(grid_1, grid_2, p_class_1)
    except ValueError:
        pass
    else:
        raise AssertionError("Matplotlib 3.8.0's contourf should refuse tensor grids")
_ax.contourf(*surface)
_ax.contourf(grid_1.numpy(), grid_2.numpy(), p_class_1)  # a tensor of values works
_ax.contourf(p_class_1)  # so does a tensor alone, without grids
plt.close(_fig)

# %%
# The loop as a helper
# --------------------
# The site's helpers run the same loops:
#
# - :func:`~tutorial_utils.training.train_one_epoch` runs the inner loop once;
# - :func:`~tutorial_utils.training.evaluate` runs the evaluation loop and
#   returns the mean loss and accuracy;
# - :func:`~tutorial_utils.training.fit` calls ``train_one_epoch`` once per
#   epoch, reports each epoch, and returns the history of mean losses and
#   accuracies.
#
# Given an ``eval_loader``, ``fit`` also evaluates after every epoch. Below
# it gets none, and it ends with the loop's weights. ``history`` keeps the
# numbers ``fit`` prints, in lists such as ``history.train_loss``.
#
# .. detail:: Why ``fit`` gets no ``eval_loader`` here
#
#    Each pass over this page's loaders draws from the global random
#    generator. Even the test loader does, though it does not shuffle. So an
#    evaluation after each epoch would change the later shuffles. ``fit``
#    would then end with other weights.
#
#    A loader given its own ``generator`` draws from that instead. Loaders
#    whose batches are loaded by other Python processes, called *workers*,
#    can draw less often.
#    :ref:`sphx_glr_auto_examples_training_plot_52_loader_order_and_workers.py`
#    shows which numbers a loader takes, and when.
torch.manual_seed(123)
model_fit = NeuralNetwork(num_inputs=2, num_outputs=2).to(device)
optimizer_fit = torch.optim.SGD(model_fit.parameters(), lr=0.5)
history = fit(model_fit, train_loader, optimizer_fit, epochs=3, device=device)
pairs = zip(model.parameters(), model_fit.parameters(), strict=True)
same = all(torch.equal(p, q) for p, q in pairs)
evaluation = evaluate(model_fit, test_loader, device=device)
print("same weights, bit for bit:", same)
print(evaluation)

# %%
# .. check:: ``fit`` gives the loop's weights and mean losses, ``evaluate`` its numbers
assert same
torch.testing.assert_close(tuple(evaluation), (total_loss / n_test, correct / n_test))
_means = [(2 * losses[i] + 2 * losses[i + 1] + losses[i + 2]) / 5 for i in (0, 3, 6)]
torch.testing.assert_close(history.train_loss, _means)
assert (len(history.train_accuracy), history.eval_loss) == (3, [])

# %%
# .. check:: passes draw; not with own generator, less often with workers
_persistent = DataLoader(test_ds, batch_size=2, num_workers=1, persistent_workers=True)
_own = DataLoader(test_ds, batch_size=2, generator=torch.Generator())
_drew = []
with torch.random.fork_rng(devices=[]):
    for _loader in (test_loader, _own, _persistent, _persistent):
        _state = torch.get_rng_state()
        list(_loader)
        _drew.append(not torch.equal(torch.get_rng_state(), _state))
assert _drew == [True, False, True, False]
del _persistent  # ends its worker

# %%
# .. check:: an ``eval_loader`` changes ``fit``'s weights through its draws alone
_own = DataLoader(test_ds, batch_size=2, generator=torch.Generator())
for _eval_loader, _same in ((test_loader, False), (_own, True)):
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(123)
        _model = NeuralNetwork(num_inputs=2, num_outputs=2).to(device)
        _sgd = torch.optim.SGD(_model.parameters(), lr=0.5)
        fit(
            _model,
            train_loader,
            _sgd,
            epochs=3,
            eval_loader=_eval_loader,
            device=device,
            progress=False,
            log=None,
        )
    _pairs = zip(model.parameters(), _model.parameters(), strict=True)
    assert all(torch.equal(p, q) for p, q in _pairs) == _same

# %%
# Handwritten digits
# ------------------
# :ref:`sphx_glr_auto_examples_training_plot_53_handwritten_digits.py` and
# later pages train on 1,797 handwritten digits of 8 x 8 pixels, from
# scikit-learn. The site's :func:`~tutorial_utils.data.load_digits_tensors`
# flattens each into 64 features from 0 to 1 and holds out a quarter for
# testing; ``seed=0`` picks which. It returns ``train_features``,
# ``train_labels``, ``test_features`` and ``test_labels``.
digits = load_digits_tensors(seed=0)
print("training:", tuple(digits.train_features.shape), tuple(digits.train_labels.shape))
print("test:", tuple(digits.test_features.shape), tuple(digits.test_labels.shape))

# %%
# .. check:: 1,797 images, about a quarter held out, pixels from 0 to 1
assert len(digits.train_labels) + len(digits.test_labels) == 1797
assert abs(len(digits.test_labels) / 1797 - 0.25) < 0.01
assert digits.train_features.aminmax() == (0, 1)
assert digits.test_labels.unique().tolist() == list(range(10))

# %%
# Summary
# -------
# - For each batch: move it, ``zero_grad``, forward pass, loss,
#   ``backward``, ``step``.
# - Evaluate in evaluation mode, under ``no_grad``, on held-out data.
# - The largest logit is the predicted class.
# - ``fit`` runs the same loop and keeps the history.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_04_loss_functions.py`
# compares the losses a loop can minimise. Exercises:
# :ref:`exercises-training-03`.
