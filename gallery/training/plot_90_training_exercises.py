"""
Exercises: training, part one
=============================

Exercises for the first five pages of the training section, each with a
solution behind a toggle and a check that says whether an answer is right.
"""

# %%
import math

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

from tutorial_utils.data import toy_datasets
from tutorial_utils.environment import environment_summary

print(environment_summary("cpu"))

# %%
# .. _exercises-training-01:
#
# Building a model
# ----------------
# For :ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py`.
#
# **Exercise 1.** Seed with ``torch.manual_seed(0)``, build
# ``net = torch.nn.Sequential(torch.nn.Linear(10, 16), torch.nn.ReLU(),
# torch.nn.Linear(16, 4))`` and take ``x = torch.rand(3, 10)``. Define
# ``probas``: the class probabilities that ``net`` gives for the three samples
# of ``x``, one row per sample, with no :term:`computational graph`.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
torch.manual_seed(0)
net = torch.nn.Sequential(
    torch.nn.Linear(10, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4)
)
x = torch.rand(3, 10)
with torch.no_grad():
    probas = torch.softmax(net(x), dim=1)
print(probas)

# %%
# .. raw:: html
#
#    </details>

# %%
# The check:
assert isinstance(probas, torch.Tensor), "Exercise 1: probas is not a tensor"
assert probas.shape == (3, 4), f"Exercise 1: shape {tuple(probas.shape)}, not (3, 4)"
assert probas.grad_fn is None, "Exercise 1: a graph is attached; use torch.no_grad()"
exp = net(x).detach().exp()
msg = "Exercise 1: not the softmax of the logits net(x) over the classes (dim=1)"
torch.testing.assert_close(probas, exp / exp.sum(dim=1, keepdim=True), msg=msg)
print("Exercise 1: right")

# %%
# **Exercise 2.** The network ``torch.nn.Sequential(torch.nn.Linear(50,
# hidden, bias=False), torch.nn.ReLU(), torch.nn.Linear(hidden, 3))`` maps 50
# inputs to 3 :term:`logits`. Define ``hidden``, the number of hidden units
# that gives it exactly 1,063 parameters, by solving the count's formula
# rather than by trying values; then ``model``, the network built with it.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
# 50·hidden weights in the first layer, 3·hidden weights and 3 biases in the last
hidden = (1063 - 3) // (50 + 3)
model = torch.nn.Sequential(
    torch.nn.Linear(50, hidden, bias=False), torch.nn.ReLU(), torch.nn.Linear(hidden, 3)
)
print(hidden, model)

# %%
# .. raw:: html
#
#    </details>

# %%
# The check:
assert isinstance(model, torch.nn.Module), "Exercise 2: model is not a module"
counted = sum(p.numel() for p in model.parameters())
assert counted == 1063, f"Exercise 2: model has {counted} parameters, not 1,063"
assert model[0].out_features == hidden, "Exercise 2: model does not use hidden units"
print("Exercise 2: right")

# %%
# .. _exercises-training-02:
#
# Datasets and data loaders
# -------------------------
# For :ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py`.
#
# **Exercise 3.** Write a map-style :class:`~torch.utils.data.Dataset` class
# ``Squares``: ``Squares(n)`` holds ``n`` samples, sample ``i`` being the pair
# of float tensors ``(torch.tensor(float(i)), torch.tensor(float(i**2)))``.
# Define ``squares = Squares(10)``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>


# %%
class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __getitem__(self, index):
        return torch.tensor(float(index)), torch.tensor(float(index**2))

    def __len__(self):
        return self.n


squares = Squares(10)
print(len(squares), squares[3])

# %%
# .. raw:: html
#
#    </details>

# %%
# The check:
assert isinstance(squares, Dataset), "Exercise 3: squares is not a Dataset"
assert len(squares) == 10, f"Exercise 3: len(squares) is {len(squares)}, not 10"
for i in range(10):
    feature, target = squares[i]
    assert (feature.item(), target.item()) == (i, i * i), f"Exercise 3: sample {i}"
    assert feature.dtype == target.dtype == torch.float32, "Exercise 3: not float"
    assert feature.shape == target.shape == (), "Exercise 3: not 0-d tensors"
print("Exercise 3: right")

# %%
# **Exercise 4.** Predict first: how many samples does one :term:`epoch` of a
# loader over ``squares`` use, with batches of 3, ``shuffle=True`` and
# ``drop_last=True``? Then define ``counts``: a :term:`tensor` of 10 counts,
# how often each sample was used in 100 epochs of such a loader.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
generator = torch.Generator().manual_seed(0)
shuffled = DataLoader(squares, 3, shuffle=True, drop_last=True, generator=generator)
used = torch.cat([features for _ in range(100) for features, _ in shuffled])
counts = torch.bincount(used.long(), minlength=10)
print(counts)

# %%
# .. raw:: html
#
#    </details>

# %%
# The check (100 epochs drop each sample about 10 times: 50 is a safe bound):
assert isinstance(counts, torch.Tensor), "Exercise 4: counts is not a tensor"
assert counts.shape == (10,), "Exercise 4: counts should hold one count per sample"
assert counts.sum() == 100 * 9, "Exercise 4: each epoch uses 3 full batches of 3"
assert (counts <= 100).all(), "Exercise 4: no sample is used twice in one epoch"
assert (counts >= 50).all(), "Exercise 4: a shuffled epoch drops a random sample"
print("Exercise 4: right")

# %%
# .. _exercises-training-03:
#
# The training loop
# -----------------
# For :ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`.
#
# **Exercise 5.** Seed with ``torch.manual_seed(0)``, then create
# ``classifier = torch.nn.Linear(2, 2)``. Train it for 3 :term:`epochs
# <epoch>` on the toy training set of :func:`~tutorial_utils.data.toy_datasets`
# in shuffled batches of 2 (a loader without a generator of its own: the global
# generator, seeded above, shuffles), with :class:`torch.optim.SGD` at a
# :term:`learning rate` of 0.5 and the cross-entropy :term:`loss`. Define
# ``losses``: the loss of each batch, as Python floats, in order.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
torch.manual_seed(0)
classifier = torch.nn.Linear(2, 2)
train_loader = DataLoader(toy_datasets()[0], batch_size=2, shuffle=True)
optimizer = torch.optim.SGD(classifier.parameters(), lr=0.5)
losses = []
for _ in range(3):
    for inputs, labels in train_loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(classifier(inputs), labels)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
print([round(value, 3) for value in losses])

# %%
# .. raw:: html
#
#    </details>

# %%
# The check: the same run by hand, the loader's shuffle too (per epoch, 2 draws).
assert isinstance(losses, list), "Exercise 5: losses is not a list"
floats = [v for v in losses if isinstance(v, float)]
assert len(floats) == 9, "Exercise 5: not 9 losses as Python floats (use .item())"
X_train, y_train = toy_datasets()[0].tensors
draw = torch.empty((), dtype=torch.int64).random_
torch.manual_seed(0)
params = [p.detach().requires_grad_() for p in torch.nn.Linear(2, 2).parameters()]
expected = []
for _ in range(3):
    draw()
    order = torch.randperm(5, generator=torch.Generator().manual_seed(int(draw())))
    for batch in order.split(2):
        loss = F.cross_entropy(X_train[batch] @ params[0].T + params[1], y_train[batch])
        expected.append(loss.item())
        step = zip(params, torch.autograd.grad(loss, params), strict=True)
        params = [(p - 0.5 * g).detach().requires_grad_() for p, g in step]
pairs = zip(losses, expected, strict=True)
close = all(math.isclose(a, e, rel_tol=1e-5) for a, e in pairs)
assert close, "Exercise 5: not that run's losses (zero_grad? lr? order?)"
assert torch.allclose(classifier.weight, params[0]), "Exercise 5: other weights"
print("Exercise 5: right")

# %%
# **Exercise 6.** Predict without running it: after
# ``w = torch.tensor([1.0, -2.0], requires_grad=True)``, the code
# ``(w**2).sum().backward()`` runs three times, with no ``zero_grad`` in
# between. Define ``predicted``: the tensor you expect in ``w.grad``,
# written by hand.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
# Each backward pass adds the gradient 2·w = [2, -4] to w.grad.
predicted = torch.tensor([6.0, -12.0])
print(predicted)

# %%
# .. raw:: html
#
#    </details>

# %%
# The check:
assert isinstance(predicted, torch.Tensor), "Exercise 6: predicted is not a tensor"
w = torch.tensor([1.0, -2.0], requires_grad=True)
for _ in range(3):
    (w**2).sum().backward()
msg = "Exercise 6: not what three backward passes leave in w.grad"
torch.testing.assert_close(predicted, w.grad, check_dtype=False, msg=msg)
print("Exercise 6: right")

# %%
# .. _exercises-training-04:
#
# Loss functions
# --------------
# For :ref:`sphx_glr_auto_examples_training_plot_04_loss_functions.py`.
#
# **Exercise 7.** Labels read from a file arrived as
# ``column = torch.tensor([[1.0], [0.0], [2.0]])``, one row per example.
# After ``torch.manual_seed(2)``, take ``logits = torch.randn(3, 3)``. Define
# ``targets``: the same labels as int64 class indices, in the shape that
# :func:`~torch.nn.functional.cross_entropy` takes.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
torch.manual_seed(2)
logits = torch.randn(3, 3)
column = torch.tensor([[1.0], [0.0], [2.0]])
targets = column.squeeze(1).long()
print(targets, F.cross_entropy(logits, targets))

# %%
# .. raw:: html
#
#    </details>

# %%
# The check:
assert isinstance(targets, torch.Tensor), "Exercise 7: targets is not a tensor"
assert targets.dtype == torch.int64, f"Exercise 7: dtype {targets.dtype}, not int64"
assert targets.tolist() == [1, 0, 2], "Exercise 7: not the labels 1, 0, 2, in 1-D"
print("Exercise 7: right")

# %%
# **Exercise 8.** Without autograd, write the :term:`gradient` of the mean
# cross-entropy of ``logits`` against ``targets`` with respect to the logits,
# from its formula. Define ``grad_by_formula``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
one_hot = F.one_hot(targets, num_classes=3)
grad_by_formula = (torch.softmax(logits, dim=1) - one_hot) / len(targets)
print(grad_by_formula)

# %%
# .. raw:: html
#
#    </details>

# %%
# The check:
assert isinstance(grad_by_formula, torch.Tensor), "Exercise 8: not a tensor"
leaf = logits.clone().requires_grad_()
F.cross_entropy(leaf, targets).backward()
msg = "Exercise 8: not autograd's gradient; remember the mean's 1 / N"
torch.testing.assert_close(grad_by_formula, leaf.grad, msg=msg)
print("Exercise 8: right")

# %%
# .. _exercises-training-05:
#
# Optimisers and learning rates
# -----------------------------
# For :ref:`sphx_glr_auto_examples_training_plot_05_optimisers_and_learning_rates.py`.
#
# **Exercise 9.** Define ``optimizer``: a :class:`torch.optim.AdamW` over the
# parameters of ``model`` (exercise 2) with a learning rate of 1e-3, and a
# :term:`weight decay` of 0.01 for the weights but none for the bias.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
weights = [p for name, p in model.named_parameters() if name.endswith("weight")]
biases = [p for name, p in model.named_parameters() if name.endswith("bias")]
groups = [{"params": weights}, {"params": biases, "weight_decay": 0.0}]
optimizer = torch.optim.AdamW(groups, lr=1e-3, weight_decay=0.01)
print([(len(g["params"]), g["weight_decay"]) for g in optimizer.param_groups])

# %%
# .. raw:: html
#
#    </details>

# %%
# The check:
assert isinstance(optimizer, torch.optim.AdamW), "Exercise 9: not an AdamW"
groups = optimizer.param_groups
settings = {id(p): (g["lr"], g["weight_decay"]) for g in groups for p in g["params"]}
for name, p in model.named_parameters():
    wanted, got = (1e-3, 0.0 if name.endswith("bias") else 0.01), settings.get(id(p))
    assert got == wanted, f"Exercise 9: {name} has (lr, decay) {got}, not {wanted}"
assert len(settings) == 3, "Exercise 9: the optimiser holds other parameters"
print("Exercise 9: right")

# %%
# **Exercise 10.** Predict: a parameter ``p`` starts at 0.0 and gets the gradient
# 1.0 at every step of :class:`torch.optim.SGD` with ``lr=0.1`` and
# :term:`momentum` 0.9. Define ``after_three``: its value after three steps,
# as a Python float, worked out with plain arithmetic, not with an optimiser.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
# The buffer is 1, then 0.9·1 + 1 = 1.9, then 0.9·1.9 + 1 = 2.71.
after_three = -0.1 * (1 + 1.9 + 2.71)
print(after_three)

# %%
# .. raw:: html
#
#    </details>

# %%
# The check:
assert isinstance(after_three, float), "Exercise 10: after_three is not a float"
p = torch.zeros((), requires_grad=True)
sgd = torch.optim.SGD([p], lr=0.1, momentum=0.9)
for _ in range(3):
    p.grad = torch.tensor(1.0)
    sgd.step()
msg = f"Exercise 10: {after_three}; each step adds the gradient to 0.9 times the buffer"
assert math.isclose(after_three, p.item(), abs_tol=1e-6), msg
print("Exercise 10: right")
