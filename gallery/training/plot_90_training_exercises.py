"""
Exercises: training, part one
=============================

Practise the first five training pages. You will build a network and count
its parameters, and write a data set for a loader. You will train a linear
model, fix labels for cross-entropy and derive its gradient. Last, you will
set up AdamW and predict the steps of SGD with momentum.

**Before this page:** the core pages from
:ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py` to
:ref:`sphx_glr_auto_examples_training_plot_05_optimisers_and_learning_rates.py`.
Exercise 8 also needs the in-depth page
:ref:`sphx_glr_auto_examples_training_plot_54_more_on_losses.py`.
"""

# %%
# A check follows each solution. When it fails, its message names the likely
# mistake. In the notebook, write your answer in the empty cell that replaces
# the solution, then run the check. Everything runs on the CPU.
import math

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

from tutorial_utils.data import toy_datasets
from tutorial_utils.environment import environment_summary
from tutorial_utils.training import train_one_epoch

print(environment_summary(torch.device("cpu")))

# %%
# .. _exercises-training-01:
#
# Building a model
# ----------------
# For :ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py`.
#
# **Exercise 1.** Turn a network's outputs into class probabilities:
#
# 1. After ``torch.manual_seed(0)``, build ``net``: a :class:`torch.nn.Sequential`
#    of ``torch.nn.Linear(10, 16)``, ``torch.nn.ReLU()`` and ``torch.nn.Linear(16, 4)``.
# 2. Take three samples of 10 numbers, ``x = torch.rand(3, 10)``.
# 3. Define ``probas``: the class probabilities that ``net`` gives, a row per
#    sample. ``probas`` holds no :term:`computational graph`.
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
assert isinstance(probas, torch.Tensor), "Exercise 1: probas is not a tensor"
assert probas.shape == (3, 4), "Exercise 1: not (3, 4): a row per sample?"
assert probas.grad_fn is None, "Exercise 1: a graph is attached: use torch.no_grad()"
exp = net(x).detach().exp()
right = torch.allclose(probas, exp / exp.sum(dim=1, keepdim=True))
assert right, "Exercise 1: not the softmax of net(x): over dim=1, the classes?"
print("Exercise 1: right")
# %%
# **Exercise 2.** ``torch.nn.Sequential(torch.nn.Linear(50, hidden, bias=False),
# torch.nn.ReLU(), torch.nn.Linear(hidden, 3))`` maps 50 inputs to 3
# :term:`logits`. Use the formula for its parameter count; do not try values.
#
# 1. Define ``hidden``, the hidden units that give exactly 1,063 parameters.
# 2. Define ``model``, the network built with it.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
# 50·hidden weights in the first layer; 3·hidden weights and 3 biases in the last
hidden = (1063 - 3) // (50 + 3)
model = torch.nn.Sequential(
    torch.nn.Linear(50, hidden, bias=False), torch.nn.ReLU(), torch.nn.Linear(hidden, 3)
)
print(hidden, model)
# %%
# .. raw:: html
#
#    </details>
assert isinstance(model, torch.nn.Module), "Exercise 2: model is not a module"
count = sum(p.numel() for p in model.parameters())
why = "a layer has m·n + m parameters, or m·n with bias=False"
assert count == 1063, f"Exercise 2: {count} parameters, not 1,063: {why}"
print("Exercise 2: right")
# %%
# .. _exercises-training-02:
#
# Datasets and data loaders
# -------------------------
# For :ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py`.
#
# **Exercise 3.** Write ``Squares``, a map-style :class:`~torch.utils.data.Dataset`:
#
# 1. ``Squares(n)`` holds ``n`` samples.
# 2. Sample ``i`` is ``(torch.tensor(float(i)), torch.tensor(float(i**2)))``.
# 3. Define ``squares = Squares(10)``.
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
assert isinstance(squares, Dataset), "Exercise 3: Squares does not subclass Dataset"
assert len(squares) == 10, f"Exercise 3: len(squares) is {len(squares)}: __len__?"
for i in range(10):
    feature, target = sample = squares[i]
    ok = all(isinstance(t, torch.Tensor) and t.dtype == torch.float32 for t in sample)
    assert ok, "Exercise 3: not float32 tensors: torch.tensor(float(i))?"
    pair = (feature.item(), target.item())
    assert pair == (i, i * i), f"Exercise 3: sample {i} is {pair}, not ({i}, {i * i})"
    assert feature.shape == target.shape == (), "Exercise 3: not 0-d: no [ ] needed"
print("Exercise 3: right")
# %%
# **Exercise 4.** Count how often a shuffled loader uses each sample:
#
# 1. Predict how many samples of ``squares`` one :term:`epoch` uses in
#    batches of 3, with ``drop_last=True``. Define ``per_epoch``, that number.
# 2. Make a :class:`~torch.utils.data.DataLoader` over ``squares`` with
#    ``batch_size=3``, ``shuffle=True`` and ``drop_last=True``.
# 3. Define ``counts``, a :term:`tensor`: how often each sample was used in 100
#    epochs. A sample's feature is its index, as a float: make it int64 first.
#    For an int64 tensor ``t`` of values 0 to 9,
#    ``torch.bincount(t, minlength=10)`` counts each value.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
per_epoch = 9  # 3 full batches of 3: the short last batch is dropped
shuffled = DataLoader(squares, batch_size=3, shuffle=True, drop_last=True)
used = torch.cat([features for _ in range(100) for features, _ in shuffled])
counts = torch.bincount(used.long(), minlength=10)  # the features are the indices
print(counts)
# %%
# .. raw:: html
#
#    </details>
in_order = DataLoader(squares, batch_size=3, drop_last=True)
one_epoch = sum(len(features) for features, _ in in_order)
assert per_epoch == one_epoch, "Exercise 4: drop_last drops the short last batch"
assert isinstance(counts, torch.Tensor), "Exercise 4: counts is not a tensor"
mistake = "count the features, the indices, not the targets"
assert counts.shape == (10,), f"Exercise 4: not 10 counts: {mistake}; minlength=10?"
uses = counts.sum().item()
assert uses == 100 * one_epoch, f"Exercise 4: {uses} uses: drop_last? 100 epochs?"
assert (counts > 50).all(), "Exercise 4: a sample is left out of most epochs: shuffle?"
print("Exercise 4: right")
# %%
# .. _exercises-training-03:
#
# The training loop
# -----------------
# For :ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`.
#
# **Exercise 5.** Train a linear model on the toy data set:
#
# 1. After ``torch.manual_seed(0)``, create ``classifier = torch.nn.Linear(2, 2)``.
# 2. Make a loader over the training set of :func:`~tutorial_utils.data.toy_datasets`,
#    in shuffled batches of 2. Give it no generator: the global one shuffles.
# 3. Train for 3 :term:`epochs <epoch>` with :class:`torch.optim.SGD`, a
#    :term:`learning rate` of 0.5 and the cross-entropy :term:`loss`.
# 4. Define ``losses``: each batch's loss as a Python float, in order.
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
# The check trains another model from seed 0 with the site's helper
# :func:`~tutorial_utils.training.train_one_epoch`. It runs one epoch of the
# loop and returns the epoch's mean loss per sample. Batches of 2, 2 and 1
# with losses ``a``, ``b`` and ``c`` have the mean ``(2a + 2b + c) / 5``.
floats = [value for value in losses if isinstance(value, float)]
per_batch = "batches of 2 give 3 per epoch; loss.item() per batch?"
assert len(floats) == 9, f"Exercise 5: not 9 Python floats: {per_batch}"
torch.manual_seed(0)
reference = torch.nn.Linear(2, 2)
sgd = torch.optim.SGD(reference.parameters(), lr=0.5)
toy_loader = DataLoader(toy_datasets()[0], batch_size=2, shuffle=True)
means = [train_one_epoch(reference, toy_loader, sgd) for _ in range(3)]
yours = [(2 * losses[i] + 2 * losses[i + 1] + losses[i + 2]) / 5 for i in (0, 3, 6)]
close = all(math.isclose(a, b, rel_tol=1e-5) for a, b in zip(yours, means, strict=True))
hint = "seed 0 first? shuffle=True, batch_size=2? zero_grad each step? lr=0.5?"
assert close, f"Exercise 5: other losses: {hint}"
same = torch.allclose(classifier.weight, reference.weight)
assert same, "Exercise 5: classifier has other weights: was it the one trained?"
print("Exercise 5: right")
# %%
# **Exercise 6.** Predict without running it. After
# ``w = torch.tensor([1.0, -2.0], requires_grad=True)``, the line
# ``(w**2).sum().backward()`` runs three times, with no ``zero_grad`` between.
# Define ``predicted``: the tensor you expect in ``w.grad``, written by hand.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
predicted = torch.tensor([6.0, -12.0])  # each pass adds 2·w = [2, -4] to w.grad
# %%
# .. raw:: html
#
#    </details>
assert isinstance(predicted, torch.Tensor), "Exercise 6: predicted is not a tensor"
w = torch.tensor([1.0, -2.0], requires_grad=True)
for _ in range(3):
    (w**2).sum().backward()
got = predicted.float()
assert not torch.equal(got, w.grad / 3), "Exercise 6: one pass: backward adds up"
assert torch.equal(got, w.grad), "Exercise 6: not three passes of the gradient 2·w"
print("Exercise 6: right")
# %%
# .. _exercises-training-04:
#
# Loss functions
# --------------
# For :ref:`sphx_glr_auto_examples_training_plot_04_loss_functions.py`.
# Exercise 8 also needs the in-depth page
# :ref:`sphx_glr_auto_examples_training_plot_54_more_on_losses.py`, on the
# gradient of a loss. Both exercises use these :term:`logits`: 3 examples, 3
# classes. The labels came from a file as a column, a row per example.
torch.manual_seed(2)
logits = torch.randn(3, 3)
column = torch.tensor([[1.0], [0.0], [2.0]])

# %%
# **Exercise 7.** Define ``targets``: the labels of ``column`` as int64
# class indices, in the shape that :func:`~torch.nn.functional.cross_entropy`
# takes with ``logits``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
targets = column.squeeze(1).long()
print(targets, F.cross_entropy(logits, targets))
# %%
# .. raw:: html
#
#    </details>
assert isinstance(targets, torch.Tensor), "Exercise 7: targets is not a tensor"
assert targets.dtype == torch.int64, f"Exercise 7: {targets.dtype}, not int64: .long()?"
assert targets.shape == (3,), "Exercise 7: not of shape (3,): squeeze(1)?"
assert targets.tolist() == [1, 0, 2], "Exercise 7: not the labels 1, 0, 2, in order"
print("Exercise 7: right")
# %%
# **Exercise 8.** Define ``grad_by_formula``: the :term:`gradient` of the mean
# cross-entropy of ``logits`` against ``targets``, with respect to the logits.
# Compute it from its formula, without autograd.
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
assert isinstance(grad_by_formula, torch.Tensor), "Exercise 8: not a tensor"
leaf = logits.clone().requires_grad_()
F.cross_entropy(leaf, targets).backward()
got = grad_by_formula
assert not torch.allclose(got, 3 * leaf.grad), "Exercise 8: the mean divides by N"
assert not torch.allclose(got, -leaf.grad), "Exercise 8: sign: softmax minus one-hot"
assert torch.allclose(got, leaf.grad), "Exercise 8: not autograd's: softmax on dim=1?"
print("Exercise 8: right")
# %%
# .. _exercises-training-05:
#
# Optimisers and learning rates
# -----------------------------
# For :ref:`sphx_glr_auto_examples_training_plot_05_optimisers_and_learning_rates.py`.
# Exercise 9 sets up an :term:`optimiser` for ``mlp``, a network with two
# linear layers:
torch.manual_seed(0)
mlp = torch.nn.Sequential(torch.nn.Linear(8, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))

# %%
# **Exercise 9.** Define ``optimizer``: a :class:`torch.optim.AdamW` over the
# parameters of ``mlp``, with:
#
# 1. a learning rate of 1e-3;
# 2. a :term:`weight decay` of 0.01 for the weights, and none for the biases.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
weights = [p for name, p in mlp.named_parameters() if name.endswith("weight")]
biases = [p for name, p in mlp.named_parameters() if name.endswith("bias")]
groups = [{"params": weights}, {"params": biases, "weight_decay": 0.0}]
optimizer = torch.optim.AdamW(groups, lr=1e-3, weight_decay=0.01)
print([(len(g["params"]), g["weight_decay"]) for g in optimizer.param_groups])
# %%
# .. raw:: html
#
#    </details>
assert isinstance(optimizer, torch.optim.AdamW), "Exercise 9: not an AdamW"
groups = optimizer.param_groups
found = {id(p): (g["lr"], g["weight_decay"]) for g in groups for p in g["params"]}
assert len(found) == 4, "Exercise 9: the optimiser does not hold mlp's 4 tensors"
for name, p in mlp.named_parameters():
    decay = 0.0 if name.endswith("bias") else 0.01
    lr, got = found.get(id(p), (None, None))
    assert lr == 1e-3, f"Exercise 9: {name} has the learning rate {lr}, not 1e-3"
    assert got == decay, f"Exercise 9: {name} decays by {got}, not {decay}: 2 groups?"
print("Exercise 9: right")
# %%
# **Exercise 10.** Predict with plain arithmetic, not with an optimiser. A
# parameter ``p`` starts at 0.0. At every step of :class:`torch.optim.SGD`
# with ``lr=0.1`` and :term:`momentum` 0.9, its gradient is 1.0. Define
# ``after_three``: its value after three steps, as a Python float.
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
assert isinstance(after_three, float), "Exercise 10: after_three is not a float"
p = torch.zeros((), requires_grad=True)
momentum_sgd = torch.optim.SGD([p], lr=0.1, momentum=0.9)
for _ in range(3):
    p.grad = torch.tensor(1.0)
    momentum_sgd.step()
assert after_three < 0, "Exercise 10: p steps against its gradient, so it falls"
plain = math.isclose(after_three, -0.3)
assert not plain, "Exercise 10: -0.3 is plain SGD: momentum sums past gradients"
right = math.isclose(after_three, p.item(), abs_tol=1e-6)
assert right, "Exercise 10: the buffer starts at g, then is 0.9 times itself plus g"
print("Exercise 10: right")
# %%
# Next: :ref:`sphx_glr_auto_examples_training_plot_91_more_training_exercises.py`.
