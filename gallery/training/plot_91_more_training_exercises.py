"""
Exercises: training, part two
=============================

Exercises for the training pages on validation, reproducible runs, saving a
model and training on several processes, each with a solution behind a
toggle and a check that tells you whether an answer is right.
"""

# %%
# The checks run on the CPU. The last cell deletes the file that exercise 5
# writes.
import math
import pickle
import random
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset, random_split
from torch.utils.data.distributed import DistributedSampler

from tutorial_utils.data import toy_tensors
from tutorial_utils.environment import environment_summary
from tutorial_utils.models import NeuralNetwork

print(environment_summary("cpu"))

# %%
# .. _exercises-training-06:
#
# Validation and overfitting
# --------------------------
# For :ref:`sphx_glr_auto_examples_training_plot_06_validation_and_overfitting.py`.
# Exercise 2 uses ``net``, a new module (so in training mode) ending in :term:`dropout`.
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Dropout(p=0.5))
X_train, y_train, _, _ = toy_tensors()

# %%
# **Exercise 1.** Define ``parts``: ``range(50)`` split at random into 80 % for
# training and 20 % for a :term:`validation set`, in that order, by
# :func:`~torch.utils.data.random_split` with a generator of its own seeded
# with 0.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
generator = torch.Generator().manual_seed(0)
parts = random_split(range(50), [0.8, 0.2], generator=generator)
print(list(parts[1]))

# %%
# .. raw:: html
#
#    </details>

# %%
# The check (``random_split`` cuts ``randperm`` in order, in torch 2.4 to 2.13):
assert isinstance(parts, list | tuple), "Exercise 1: parts is not a list or tuple"
assert [len(part) for part in parts] == [40, 10], "Exercise 1: not 40 and 10 items"
shuffled = torch.randperm(50, generator=torch.Generator().manual_seed(0)).tolist()
assert list(parts[0]) + list(parts[1]) == shuffled, "Exercise 1: not seed 0's split"
print("Exercise 1: right")

# %%
# **Exercise 2.** Define ``val_loss``: the mean cross-entropy :term:`loss` of
# ``net`` on ``X_train`` and ``y_train``, as a validation pass computes it: in
# evaluation mode, with no :term:`computational graph`.
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

# %%
# The check:
assert isinstance(val_loss, float | torch.Tensor), "Exercise 2: not a float or tensor"
if isinstance(val_loss, torch.Tensor):
    assert val_loss.shape == (), "Exercise 2: val_loss should be one number, the mean"
    assert val_loss.grad_fn is None, "Exercise 2: a graph is attached (torch.no_grad?)"
by_hand = F.cross_entropy(X_train @ net[0].weight.T + net[0].bias, y_train).item()
close = math.isclose(float(val_loss), by_hand, rel_tol=1e-5)
assert close, "Exercise 2: not the loss without dropout"
print("Exercise 2: right")

# %%
# .. _exercises-training-07:
#
# Reproducible runs
# -----------------
# For :ref:`sphx_glr_auto_examples_training_plot_07_reproducible_runs.py`.
numbers = TensorDataset(torch.arange(8))

# %%
# **Exercise 3.** Seed Python's :mod:`random`, NumPy's global generator and
# PyTorch's with 7 (:term:`seed`), then define ``draws``: the tuple
# ``(random.random(), np.random.rand(), torch.rand(1).item())``.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
random.seed(7)
np.random.seed(7)  # noqa: NPY002 (the global generator is the point here)
torch.manual_seed(7)
draws = (random.random(), np.random.rand(), torch.rand(1).item())  # noqa: NPY002
print(draws)

# %%
# .. raw:: html
#
#    </details>

# %%
# The check:
assert isinstance(draws, tuple), "Exercise 3: draws is not a tuple"
expected = (random.Random(7).random(), np.random.RandomState(7).rand())
expected += (torch.rand(1, generator=torch.Generator().manual_seed(7)).item(),)
assert draws == expected, "Exercise 3: not the numbers that seed 7 gives all three"
print("Exercise 3: right")

# %%
# **Exercise 4.** Define a function ``make_loader(seed)`` that returns a
# :class:`~torch.utils.data.DataLoader` over ``numbers`` (0 to 7) in shuffled
# batches of 4, whose order depends on ``seed`` only: not on what the program
# draws from PyTorch's global generator, before or after the loader is made.
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

# %%
# The check:
assert callable(make_loader), "Exercise 4: make_loader is not a function"
orders = []
for seed, before, after in ((3, 0, 1), (3, 2, 3), (4, 0, 1)):
    torch.manual_seed(before)
    loader = make_loader(seed)
    torch.manual_seed(after)
    orders.append([batch.tolist() for (batch,) in loader])
assert orders[0] == orders[1], "Exercise 4: the order follows the global generator"
assert orders[0] != orders[2], "Exercise 4: seeds 3 and 4 give one order"
print("Exercise 4: right")

# %%
# .. _exercises-training-08:
#
# Saving and loading a model
# --------------------------
# For :ref:`sphx_glr_auto_examples_training_plot_08_saving_and_loading.py`.
torch.manual_seed(0)
model = NeuralNetwork(2, 2)
weights_file = Path("plot_91_weights.pt")

# %%
# **Exercise 5.** Save the :term:`state dict` of ``model`` to ``weights_file``,
# then define ``loaded_model``: a new ``NeuralNetwork(2, 2)`` holding the
# weights read back from that file, with ``weights_only=True``.
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

# %%
# The check:
assert isinstance(loaded_model, NeuralNetwork), "Exercise 5: not a NeuralNetwork"
assert loaded_model is not model, "Exercise 5: loaded_model should be a new model"
assert weights_file.exists(), "Exercise 5: nothing was saved to weights_file"
try:
    on_disk = torch.load(weights_file, weights_only=True)
except pickle.UnpicklingError as error:
    raise AssertionError("Exercise 5: the file holds more than a state dict") from error
else:
    assert isinstance(on_disk, dict), "Exercise 5: the file holds no state dict"
assert on_disk.keys() == model.state_dict().keys(), "Exercise 5: not a state dict"
for key, value in model.state_dict().items():
    assert torch.equal(on_disk[key], value), f"Exercise 5: {key} in the file differs"
    assert torch.equal(loaded_model.state_dict()[key], value), f"Exercise 5: {key}"
print("Exercise 5: right")

# %%
# **Exercise 6.** Define ``partial``, a new ``NeuralNetwork(2, 2)``, and load
# into it every tensor in ``weights_file`` but ``layers.4.bias`` (it keeps its
# own); ``result`` is what :meth:`~torch.nn.Module.load_state_dict` returns.
# Predict its two lists before you run it.
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

# %%
# The check:
assert hasattr(result, "missing_keys"), "Exercise 6: not what load_state_dict returns"
assert result.missing_keys == ["layers.4.bias"], "Exercise 6: other missing keys"
assert not result.unexpected_keys, "Exercise 6: there should be no unexpected keys"
pairs = zip(partial.parameters(), model.parameters(), strict=True)
kept = [torch.equal(a, b) for a, b in pairs]
assert kept == [True] * 5 + [False], "Exercise 6: not all but layers.4.bias loaded"
print("Exercise 6: right")

# %%
# .. _exercises-training-10:
#
# Training on several processes
# -----------------------------
# For :ref:`sphx_glr_auto_examples_training_plot_10_distributed_training.py`.
# In exercise 8, two processes each hold a copy of ``replica``.
torch.manual_seed(123)
replica = NeuralNetwork(2, 2)

# %%
# **Exercise 7.** Define ``shares``: the list of the index lists that a
# :class:`~torch.utils.data.distributed.DistributedSampler` over ``range(10)``
# with ``shuffle=False`` gives the processes of :term:`process rank` 0, 1 and 2
# in a :term:`world size` of 3. Predict them first.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
shares = [
    list(DistributedSampler(range(10), num_replicas=3, rank=rank, shuffle=False))
    for rank in range(3)
]
print(shares)

# %%
# .. raw:: html
#
#    </details>

# %%
# The check: padded to 12 by repeating the first indices, then every third.
assert isinstance(shares, list), "Exercise 7: shares is not a list"
expected = [[0, 3, 6, 9], [1, 4, 7, 0], [2, 5, 8, 1]]
assert [list(share) for share in shares] == expected, "Exercise 7: other shares"
print("Exercise 7: right")

# %%
# **Exercise 8.** Two processes compute the :term:`gradient` of the mean
# cross-entropy of ``replica`` on samples ``[0, 2, 4]`` and ``[1, 3, 0]`` of
# ``X_train``, ``y_train``. Define ``averaged``: for each parameter, the mean of
# the two gradients (what DDP's all-reduce leaves in both), in a list.
#
# .. raw:: html
#
#    <details class="solution"><summary>Solution</summary>

# %%
gradients = []
for share in ([0, 2, 4], [1, 3, 0]):
    replica.zero_grad()
    F.cross_entropy(replica(X_train[share]), y_train[share]).backward()
    gradients.append([p.grad.clone() for p in replica.parameters()])
averaged = [(a + b) / 2 for a, b in zip(*gradients, strict=True)]

# %%
# .. raw:: html
#
#    </details>

# %%
# The check: the gradient of the mean loss over all six samples at once.
assert isinstance(averaged, list), "Exercise 8: averaged is not a list"
everything = [0, 2, 4, 1, 3, 0]
loss = F.cross_entropy(replica(X_train[everything]), y_train[everything])
expected = torch.autograd.grad(loss, list(replica.parameters()))
assert len(averaged) == len(expected), "Exercise 8: not one gradient per parameter"
pairs = zip(averaged, expected, strict=True)
close = [torch.allclose(a, e, atol=1e-6) for a, e in pairs]
assert all(close), "Exercise 8: not the mean gradient over the six samples"
print("Exercise 8: right")
weights_file.unlink(missing_ok=True)  # exercise 5's file: no longer needed
