"""
Exercises: training, part two
=============================

Practise the training pages from validation on. You will hold out a
validation set and compute a validation loss. You will seed a run and give a
loader an order of its own. Then you will save and load weights. Last, you
will share data out among processes and average their gradients, as DDP does.

**Before this page:**
:ref:`sphx_glr_auto_examples_training_plot_06_validation_and_overfitting.py`,
:ref:`sphx_glr_auto_examples_training_plot_07_reproducible_runs.py`,
:ref:`sphx_glr_auto_examples_training_plot_08_saving_and_loading.py` and
:ref:`sphx_glr_auto_examples_training_plot_10_distributed_training.py`.
:ref:`sphx_glr_auto_examples_training_plot_09_checkpoints_and_resuming.py`
ends with its own exercises.
"""

# %%
# A check follows each solution. When it fails, its message names the likely
# mistake. In the notebook, write your answer in the empty cell that replaces
# the solution, then run the check. It all runs on the CPU. ``workdir`` is a
# temporary folder. Seeding in each setup gives the same models every run.
import math
import pickle
import random
import tempfile
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, random_split
from torch.utils.data.distributed import DistributedSampler

from tutorial_utils.data import toy_tensors
from tutorial_utils.environment import environment_summary
from tutorial_utils.models import NeuralNetwork

print(environment_summary(torch.device("cpu")))
workdir = tempfile.TemporaryDirectory()

# %%
# .. _exercises-training-06:
#
# Validation and overfitting
# --------------------------
# For :ref:`sphx_glr_auto_examples_training_plot_06_validation_and_overfitting.py`.
# Exercise 2 uses ``net``, a new module that ends in :term:`dropout`. A new
# module is in training mode. ``X_train`` and ``y_train`` are the toy
# training data of :func:`~tutorial_utils.data.toy_tensors`.
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Dropout(p=0.5))
X_train, y_train, _, _ = toy_tensors()

# %%
# **Exercise 1.** Define a function ``make_split()`` that splits ``range(50)``
# with :func:`~torch.utils.data.random_split` and returns what it returns:
#
# 1. 80 % for training, then 20 % for a :term:`validation set`;
# 2. on every call, the split that a generator seeded with 0 gives;
# 3. the global generator left as it was.
#
# The check reads the global generator's state with ``torch.get_rng_state()``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>


# %%
def make_split():
    generator = torch.Generator().manual_seed(0)
    return random_split(range(50), [0.8, 0.2], generator=generator)


print(list(make_split()[1]))
# %%
# .. raw:: html
#
#    </details>
assert callable(make_split), "Exercise 1: make_split is not a function"
hint = "generator=torch.Generator().manual_seed(0)?"
again = random_split(range(50), [40, 10], generator=torch.Generator().manual_seed(0))
calls = []
for global_seed in (1, 2):  # two states of the global generator
    torch.manual_seed(global_seed)
    state = torch.get_rng_state()
    parts = make_split()
    moved = not torch.equal(torch.get_rng_state(), state)
    assert not moved, f"Exercise 1: make_split moved the global generator: {hint}"
    assert isinstance(parts, list | tuple), "Exercise 1: not random_split's list"
    calls.append(parts)
    sizes = [len(part) for part in parts]
    assert sizes == [40, 10], f"Exercise 1: parts of {sizes}: fractions [0.8, 0.2]?"
    same = [list(a) == list(b) for a, b in zip(parts, again, strict=True)]
    assert all(same), f"Exercise 1: not seed 0's split: {hint}"
new = calls[0][0] is not calls[1][0]
assert new, "Exercise 1: make_split returned one split twice: split inside it"
print("Exercise 1: right")
# %%
# **Exercise 2.** Define ``val_loss``: the mean cross-entropy :term:`loss` of
# ``net`` on ``X_train`` and ``y_train``, as a validation pass computes it:
#
# 1. in evaluation mode;
# 2. so that ``val_loss`` holds no :term:`computational graph`.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
net.eval()
with torch.no_grad():
    val_loss = F.cross_entropy(net(X_train), y_train)
print(val_loss)
# %%
# .. raw:: html
#
#    </details>
assert isinstance(val_loss, float | torch.Tensor), "Exercise 2: not a float or tensor"
if isinstance(val_loss, torch.Tensor):
    assert val_loss.shape == (), "Exercise 2: not one number: the mean, by default"
    assert val_loss.grad_fn is None, "Exercise 2: a graph is attached: torch.no_grad()?"
without_dropout = F.cross_entropy(net[0](X_train), y_train).item()
summed = math.isclose(float(val_loss), without_dropout * len(y_train), rel_tol=1e-5)
assert not summed, "Exercise 2: that is the sum of the losses: the mean is the default"
close = math.isclose(float(val_loss), without_dropout, rel_tol=1e-5)
assert close, "Exercise 2: not the loss without dropout: net.eval() first?"
print("Exercise 2: right")
# %%
# .. _exercises-training-07:
#
# Reproducible runs
# -----------------
# For :ref:`sphx_glr_auto_examples_training_plot_07_reproducible_runs.py`.
# Exercise 4 also uses a loader's ``generator=``, from
# :ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py`.
# Its data set ``numbers`` holds the numbers 0 to 7. A loader over it gives
# each batch as a list of one tensor: ``for (batch,) in loader`` unpacks it.
numbers = TensorDataset(torch.arange(8))

# %%
# **Exercise 3.** Seed three generators with the :term:`seed` 7, then draw:
#
# 1. Seed Python's :mod:`random`, NumPy's global generator and PyTorch's.
# 2. Define ``draws``, the tuple
#    ``(random.random(), np.random.rand(), torch.rand(1).item())``.
#
# The check draws from new generators seeded with 7, apart from the global
# ones: ``random.Random``, ``np.random.RandomState`` and ``torch.Generator``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
random.seed(7)
np.random.seed(7)
torch.manual_seed(7)
draws = (random.random(), np.random.rand(), torch.rand(1).item())
print(draws)
# %%
# .. raw:: html
#
#    </details>
assert isinstance(draws, tuple), "Exercise 3: draws is not a tuple"
assert len(draws) == 3, "Exercise 3: draws does not hold 3 numbers"
python = random.Random(7).random()
numpy = np.random.RandomState(7).rand()
pytorch = torch.rand(1, generator=torch.Generator().manual_seed(7)).item()
wanted = (python, numpy, pytorch)
order = "the order is Python's, NumPy's, then PyTorch's draw"
kinds = [type(draw).__name__ for draw in draws if not isinstance(draw, float)]
assert not kinds, f"Exercise 3: {kinds} in draws, not floats: call each; .item()?"
reordered = sorted(draws) == sorted(wanted)
assert draws == wanted or not reordered, f"Exercise 3: {order}"
names = ("Python's random", "NumPy's global generator", "PyTorch's generator")
for name, got, one in zip(names, draws, wanted, strict=True):
    assert got == one, f"Exercise 3: {name} was not seeded with 7 before its draw"
print("Exercise 3: right")
# %%
# **Exercise 4.** Define a function ``make_loader(seed)``:
#
# 1. It returns a :class:`~torch.utils.data.DataLoader` over ``numbers`` in
#    shuffled batches of 4.
# 2. The order of its first pass depends on ``seed`` only.
# 3. Draws from PyTorch's global generator, before or after the loader is
#    made, do not change that order.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>


# %%
def make_loader(seed):
    generator = torch.Generator().manual_seed(seed)
    return DataLoader(numbers, batch_size=4, shuffle=True, generator=generator)


print([batch.tolist() for (batch,) in make_loader(3)])
# %%
# .. raw:: html
#
#    </details>
assert callable(make_loader), "Exercise 4: make_loader is not a function"
orders = []
for seed, before, after in ((3, 0, 1), (3, 2, 3), (4, 0, 1)):
    torch.manual_seed(before)
    loader = make_loader(seed)
    torch.manual_seed(after)
    orders.append([batch.tolist() for (batch,) in loader])
assert len(orders[0]) == 2, "Exercise 4: not 2 batches of 4: batch_size=4?"
assert [[0, 1, 2, 3], [4, 5, 6, 7]] not in orders, "Exercise 4: shuffle=True?"
hint = "give the loader a generator= of its own"
assert orders[0] == orders[1], f"Exercise 4: the global generator moves it: {hint}"
same_order = "seeds 3 and 4 give one order: seed the generator with seed"
assert orders[0] != orders[2], f"Exercise 4: {same_order}"
print("Exercise 4: right")
# %%
# .. _exercises-training-08:
#
# Saving and loading a model
# --------------------------
# For :ref:`sphx_glr_auto_examples_training_plot_08_saving_and_loading.py`.
# Both exercises use ``model``, the site's
# :class:`~tutorial_utils.models.NeuralNetwork` for 2 inputs and 2 classes.
# Its last bias, ``layers.4.bias``, is then set to 0.5, as training might
# do, so no new model equals it. ``weights_file`` is a temporary path.
torch.manual_seed(0)
model = NeuralNetwork(2, 2)
with torch.no_grad():
    model.layers[4].bias.fill_(0.5)
weights_file = Path(workdir.name) / "weights.pt"

# %%
# **Exercise 5.** Save the weights of ``model`` and load them into a new model:
#
# 1. Save the :term:`state dict` of ``model`` to ``weights_file``.
# 2. Define ``loaded_model``, a new ``NeuralNetwork(2, 2)``.
# 3. Load the file into ``loaded_model``, reading it with ``weights_only=True``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
torch.save(model.state_dict(), weights_file)
loaded_model = NeuralNetwork(2, 2)
print(loaded_model.load_state_dict(torch.load(weights_file, weights_only=True)))
# %%
# .. raw:: html
#
#    </details>
assert isinstance(loaded_model, NeuralNetwork), "Exercise 5: not a NeuralNetwork"
assert loaded_model is not model, "Exercise 5: loaded_model is model: make a new one"
try:
    on_disk = torch.load(weights_file, weights_only=True)
except FileNotFoundError as error:
    raise AssertionError("Exercise 5: nothing was saved to weights_file") from error
except pickle.UnpicklingError as error:
    raise AssertionError("Exercise 5: save model.state_dict(), not model") from error
else:
    names = on_disk.keys() if isinstance(on_disk, dict) else None
    assert names == model.state_dict().keys(), "Exercise 5: not model's state dict"
for key, value in model.state_dict().items():
    assert torch.equal(on_disk[key], value), f"Exercise 5: the file's {key} differs"
    loaded = loaded_model.state_dict()[key]
    assert torch.equal(loaded, value), f"Exercise 5: {key} not loaded: load_state_dict?"
print("Exercise 5: right")
# %%
# **Exercise 6.** Load every tensor of ``weights_file`` but one:
#
# 1. Define ``partial``, a new ``NeuralNetwork(2, 2)``.
# 2. Load into it all the file's tensors but ``layers.4.bias``. That bias
#    keeps its own value.
# 3. Define ``result``: what :meth:`~torch.nn.Module.load_state_dict` returns.
#    Its ``missing_keys`` lists the names in the model but not in the dict.
#    Its ``unexpected_keys`` lists those in the dict but not in the model.
#    Predict both before you run it.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
partial = NeuralNetwork(2, 2)
weights = torch.load(weights_file, weights_only=True)
del weights["layers.4.bias"]
result = partial.load_state_dict(weights, strict=False)
print(result)
# %%
# .. raw:: html
#
#    </details>
assert hasattr(result, "missing_keys"), "Exercise 6: not what load_state_dict returns"
assert partial is not model, "Exercise 6: partial is model: make a new one"
missing = result.missing_keys
hint = "delete layers.4.bias from the loaded dict"
assert missing == ["layers.4.bias"], f"Exercise 6: {missing} missing: {hint}"
unexpected = result.unexpected_keys
assert not unexpected, f"Exercise 6: {unexpected} unexpected: keep the file's names"
pairs = zip(partial.parameters(), model.parameters(), strict=True)
kept = [torch.equal(a, b) for a, b in pairs]
assert kept[:5] == [True] * 5, "Exercise 6: not every tensor but the bias was loaded"
own = "partial's layers.4.bias equals the file's: loaded by another call or copied?"
assert not kept[5], f"Exercise 6: {own}"
print("Exercise 6: right")
# %%
# .. _exercises-training-10:
#
# Training on several processes
# -----------------------------
# For :ref:`sphx_glr_auto_examples_training_plot_10_distributed_training.py`.
# In exercise 8, two processes would each hold a copy of ``replica``.
torch.manual_seed(123)
replica = NeuralNetwork(2, 2)

# %%
# **Exercise 7.** Take a :term:`world size` of 3: the processes of
# :term:`process rank` 0, 1 and 2 each make a
# :class:`~torch.utils.data.distributed.DistributedSampler` over ``range(10)``,
# with ``shuffle=False``. Each sampler keeps the order 0 to 9. It pads the
# order with its first indices, to 12, so each process gets 4. Process rank
# ``r`` gets every third index of it, starting at index ``r``.
#
# 1. Define ``predicted``: each process's list of indices, written by hand.
# 2. Define ``shares``: the same lists, from the samplers.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
predicted = [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]
shares = [
    list(DistributedSampler(range(10), num_replicas=3, rank=rank, shuffle=False))
    for rank in range(3)
]
print(shares)
# %%
# .. raw:: html
#
#    </details>
sampled = [list(DistributedSampler(range(10), 3, r, shuffle=False)) for r in range(3)]
same = [list(share) for share in shares] == sampled
assert same, "Exercise 7: shares are not the sampler's: num_replicas=3? shuffle?"
sizes = [len(share) for share in predicted]
pads = "the sampler pads 10 indices to 12, 4 each"
assert sizes == [4, 4, 4], f"Exercise 7: predicted shares of {sizes}: {pads}"
padded = sorted(index for share in sampled for index in share)
changed = "DistributedSampler itself changed: it pads with other indices"
assert padded == sorted([*range(10), 0, 1]), changed  # not the reader's mistake
yours = sorted(index for share in predicted for index in share)
pads = "the padding is the order's first 12 - 10 indices"
assert yours == padded, f"Exercise 7: {pads}"
right = [list(share) for share in predicted] == sampled
assert right, "Exercise 7: process rank r takes every third index, from index r"
print("Exercise 7: right")
# %%
# **Exercise 8.** Two DDP processes would each compute the :term:`gradient`
# of the mean cross-entropy of ``replica`` on their samples of ``X_train``
# and ``y_train``: ``[0, 2, 4]`` and ``[1, 3, 0]``. Sample 0 comes again as
# padding. Here, compute both in one process. Define ``averaged``: for each
# parameter, the mean of the two gradients, in a list. DDP leaves that in
# both processes after ``backward``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
gradients = []
for share in ([0, 2, 4], [1, 3, 0]):
    loss = F.cross_entropy(replica(X_train[share]), y_train[share])
    gradients.append(torch.autograd.grad(loss, list(replica.parameters())))
averaged = [(a + b) / 2 for a, b in zip(*gradients, strict=True)]  # per parameter
print([tuple(gradient.shape) for gradient in averaged])
# %%
# .. raw:: html
#
#    </details>
assert isinstance(averaged, list), "Exercise 8: averaged is not a list"
everything = [0, 2, 4, 1, 3, 0]
whole = F.cross_entropy(replica(X_train[everything]), y_train[everything])
expected = torch.autograd.grad(whole, list(replica.parameters()))
assert len(averaged) == len(expected), "Exercise 8: not one per parameter tensor"
for got, wanted in zip(averaged, expected, strict=True):
    summed = torch.allclose(got, 2 * wanted, atol=1e-6)
    two = "two backward passes without zero_grad add up: divide by 2"
    assert not summed, f"Exercise 8: that is the sum of the gradients: {two}"
    close = torch.allclose(got, wanted, atol=1e-6)
    assert close, "Exercise 8: not the mean of the two gradients, per parameter"
print("Exercise 8: right")
# %%
# ``workdir.cleanup()`` deletes the temporary folder. Next section:
# :ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`.
workdir.cleanup()
