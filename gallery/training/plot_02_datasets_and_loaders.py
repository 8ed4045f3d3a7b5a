"""
Datasets and data loaders
=========================

Wrap your data in a :class:`torch.utils.data.Dataset`, let a
:class:`torch.utils.data.DataLoader` shuffle it into :term:`batches <batch>`
in an order you can repeat, and know what ``drop_last`` and ``num_workers``
change.
"""

# %%
# Every page starts by saying what computed it. The data here are seven
# points, so the page runs on the CPU.
import math

import matplotlib.pyplot as plt
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset, get_worker_info

from tutorial_utils.colours import PALETTE
from tutorial_utils.data import toy_datasets, toy_tensors
from tutorial_utils.environment import environment_summary

device = torch.device("cpu")
print(environment_summary(device))

# %%
# A toy data set
# --------------
# Five training samples with two features each, and their class labels: the
# first three are class 0, the last two class 1. Two more samples make a
# test set. These are the :term:`tensors <tensor>` that
# :func:`tutorial_utils.data.toy_tensors` returns to the next pages.
X_train = torch.tensor(
    [[-1.2, 3.1], [-0.9, 2.9], [-0.5, 2.6], [2.3, -1.1], [2.7, -1.5]]
)
y_train = torch.tensor([0, 0, 0, 1, 1])
X_test = torch.tensor([[-0.8, 2.8], [2.6, -1.6]])
y_test = torch.tensor([0, 1])

# %%
# .. check:: these are the tensors that ``toy_tensors`` returns
assert all(map(torch.equal, (X_train, y_train, X_test, y_test), toy_tensors()))

# %%
# The two classes sit in opposite corners of the plane: the dashed diagonal,
# where the two features are equal, separates them, for the test points too.
fig, ax = plt.subplots(figsize=(5, 3.6), layout="constrained")
for label, marker in ((0, "o"), (1, "s")):
    color = PALETTE[5 if label == 0 else 6]
    for X, y, kind in ((X_train, y_train, "training"), (X_test, y_test, "test")):
        ax.scatter(
            *X[y == label].numpy().T,
            s=70,
            marker=marker,
            color=color if kind == "training" else "none",
            edgecolors=color,
            label=f"class {label}, {kind}",
        )
for i, (x1, x2) in enumerate(X_train.tolist()):
    ax.annotate(str(i), (x1, x2), textcoords="offset points", xytext=(7, 4))
ax.axline((0, 0), slope=1, color="gray", linestyle="--", linewidth=1)
ax.set(
    xlabel="feature 1",
    ylabel="feature 2",
    title="the toy data (index beside each training point)",
)
ax.legend(fontsize=8, loc="upper right")
plt.show()

# %%
# .. check:: the diagonal separates the classes, for the training and the test points
for _features, _labels in ((X_train, y_train), (X_test, y_test)):
    # Class 1 exactly where feature 1 > feature 2.
    assert torch.equal((_features[:, 0] > _features[:, 1]).long(), _labels)

# %%
# A ``Dataset``
# -------------
# A *map-style* :class:`~torch.utils.data.Dataset` gives sample number
# ``index`` through ``__getitem__``; its ``__len__``, how many samples there
# are, tells a :class:`~torch.utils.data.DataLoader` which indices exist, so
# its default samplers need it, shuffling or not. Here the samples are
# already tensors in memory; in a real project ``__init__`` might store file
# names, and ``__getitem__`` read and decode one file, so that only the
# samples in use are loaded.


class ToyDataset(Dataset):
    def __init__(self, X, y):
        self.features = X
        self.labels = y

    def __getitem__(self, index):
        one_x = self.features[index]
        one_y = self.labels[index]
        return one_x, one_y

    def __len__(self):
        return self.labels.shape[0]


train_ds = ToyDataset(X_train, y_train)
test_ds = ToyDataset(X_test, y_test)
print(len(train_ds))
print(train_ds[3])

# %%
# .. check:: a loader refuses a data set without ``__len__``, even when it does not shuffle
_no_length = type("NoLength", (Dataset,), {"__getitem__": lambda self, i: X_train[i]})
with torch.random.fork_rng(devices=[]):
    try:
        next(iter(DataLoader(_no_length(), batch_size=2)))
    except TypeError as error:
        _message = str(error)
    else:
        raise AssertionError("a data set without __len__ should have been refused")
assert "has no len()" in _message

# %%
# For tensors already in memory, this class is not needed:
# :class:`~torch.utils.data.TensorDataset` does the same for any tensors
# that share their first :term:`dimension`. The next pages use it:
# :func:`tutorial_utils.data.toy_datasets` returns the toy data wrapped in
# two of them. Both classes give the same samples:
tensor_ds = TensorDataset(X_train, y_train)
print(len(tensor_ds), tensor_ds[3])

# %%
# .. check:: both classes give the same samples; ``toy_datasets`` returns two ``TensorDataset`` objects
assert len(tensor_ds) == len(train_ds)
for index in range(len(train_ds)):
    torch.testing.assert_close(tensor_ds[index], train_ds[index], rtol=0, atol=0)
assert all(isinstance(ds, TensorDataset) for ds in toy_datasets())

# %%
# A ``DataLoader``: shuffled batches
# ----------------------------------
# A :class:`~torch.utils.data.DataLoader` takes indices from a *sampler*,
# fetches those samples from the data set and *collates* them (stacks them)
# into batch tensors. With ``shuffle=True`` the sampler draws a new random
# order each time you iterate over the loader (each :term:`epoch`). It seeds
# that draw from PyTorch's global random number generator, so
# :func:`torch.manual_seed` fixes the order, for a given PyTorch version.
torch.manual_seed(123)
train_loader = DataLoader(dataset=train_ds, batch_size=2, shuffle=True, num_workers=0)
test_loader = DataLoader(dataset=test_ds, batch_size=2, shuffle=False, num_workers=0)

for idx, (x, y) in enumerate(train_loader):
    print(f"Batch {idx + 1}:", x, y)

# %%
# .. check:: re-seeded, the loader repeats the batches above: samples 3 and 1, 0 and 2, 4
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(123)
    for (_x, _y), _index in zip(train_loader, ([3, 1], [0, 2], [4]), strict=True):
        assert torch.equal(_x, X_train[_index])
        assert torch.equal(_y, y_train[_index])

# %%
# Five samples in batches of two make three batches, the last one with a
# single sample. The default collate function stacked two feature rows of
# :term:`shape` ``(2,)`` into a ``(2, 2)`` batch and two labels into a
# ``(2,)`` vector. ``len(train_loader)`` is the number of batches,
# ``⌈5 / 2⌉``, not of samples.
print("batches per epoch:", len(train_loader))
first_x, first_y = next(iter(train_loader))
print("first batch:", tuple(first_x.shape), tuple(first_y.shape))

# %%
# .. check:: the loader makes ``⌈5 / 2⌉`` batches, stacking ``(2,)`` samples into ``(2, 2)`` and ``(2,)``
assert len(train_loader) == math.ceil(len(train_ds) / 2)
assert (train_ds[0][0].shape, first_x.shape, first_y.shape) == ((2,), (2, 2), (2,))

# %%
# Where the order comes from
# --------------------------
# Each time it starts an epoch, a loader without a generator of its own (as
# each loader so far) takes a number from the global generator to seed the
# worker processes, even when there are none, and, when it shuffles, a second
# one that seeds the shuffle. The
# shuffle depends on nothing but that number and the length of the data set.
# So a loader over ``range(5)`` (anything with ``__len__`` and
# ``__getitem__`` serves as a data set) shuffles in step with the training
# loader and shows the order as indices:
#
# .. detail:: Persistent workers
#
#    A loader with ``persistent_workers=True`` keeps its worker processes
#    from one epoch to the next. It takes the workers' number at its first
#    epoch only.
index_loader = DataLoader(range(len(train_ds)), batch_size=2, shuffle=True)
torch.manual_seed(123)
orders = [torch.cat(list(index_loader)).tolist() for epoch in range(4)]
for epoch, order in enumerate(orders, start=1):
    print(f"epoch {epoch}: samples {order}")

# %%
# .. check:: each epoch draws a workers' seed, then a shuffle seed; the training loader shuffles in step
_draw = torch.empty((), dtype=torch.int64).random_  # as the loader and sampler draw
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(123)
    for _order in orders:
        _draw()
        _shuffle = torch.Generator().manual_seed(int(_draw()))
        assert torch.randperm(5, generator=_shuffle).tolist() == _order
    torch.manual_seed(123)  # the training loader's epochs follow the same orders
    for _order in orders:
        assert torch.equal(torch.cat([x for x, _ in train_loader]), X_train[_order])

# %%
# The four epochs after ``torch.manual_seed(123)`` as a picture: each row is
# an epoch, each colour a batch, each number a sample index.
fig, ax = plt.subplots(figsize=(7, 2.6), layout="constrained")
for row, order in enumerate(orders):
    for position, sample in enumerate(order):
        color = PALETTE[position // 2]  # one colour per batch
        ax.add_patch(plt.Rectangle((position, row), 0.95, 0.9, color=color, alpha=0.8))
        ax.text(position + 0.47, row + 0.45, str(sample), ha="center", va="center")
ax.set(xlim=(0, 5), ylim=(len(orders), 0), title="shuffle=True, torch.manual_seed(123)")
ax.set_xticks([1, 3, 4.5], ["batch 1", "batch 2", "batch 3"])
ax.set_yticks([r + 0.45 for r in range(4)], [f"epoch {r + 1}" for r in range(4)])
ax.tick_params(length=0)
ax.spines[:].set_visible(False)
plt.show()

# %%
# Re-seeding repeats the epochs. Any other draw from the global generator in
# between shifts the numbers the loader gets, and with them, usually, the
# order: creating a layer (its weights are random), or even a pass over the
# test loader, which does not shuffle but still takes its number.
torch.manual_seed(123)
again = torch.cat(list(index_loader)).tolist()
torch.manual_seed(123)
torch.nn.Linear(2, 2)
after_layer = torch.cat(list(index_loader)).tolist()
torch.manual_seed(123)
list(test_loader)
after_test_pass = torch.cat(list(index_loader)).tolist()
print("again:                 ", again)
print("after creating a layer:", after_layer)
print("after the test loader: ", after_test_pass)

# %%
# .. check:: re-seeding repeats the epochs, and a pass over the test loader takes one number
assert again == orders[0]
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(123)  # the test loader took one number, then the two as above
    _draw(), _draw()
    _shuffle = torch.Generator().manual_seed(int(_draw()))
assert torch.randperm(5, generator=_shuffle).tolist() == after_test_pass

# %%
# A :class:`torch.Generator` passed as ``generator=`` takes the place of the
# global generator: the loader draws the workers' seed from it, and the
# sampler shuffles with it directly. So the order depends only on that
# generator's state, and the global generator is left alone. A layer
# created in between changes nothing:
seeded_loader = DataLoader(
    train_ds, batch_size=2, shuffle=True, generator=torch.Generator().manual_seed(123)
)
first_run = [y.tolist() for _, y in seeded_loader]
seeded_loader.generator.manual_seed(123)
torch.nn.Linear(2, 2)  # draws from the global generator
global_state = torch.get_rng_state()
second_run = [y.tolist() for _, y in seeded_loader]
print(first_run, second_run, first_run == second_run)

# %%
# .. check:: with ``generator=`` the order depends on that generator alone; the global one is untouched
assert first_run == second_run
assert torch.equal(torch.get_rng_state(), global_state)
# With generator=: the workers' seed from it, then randperm with it directly.
_generator = torch.Generator().manual_seed(123)
_order = torch.cat(list(DataLoader(range(5), shuffle=True, generator=_generator)))
_generator.manual_seed(123)
_draw(generator=_generator)
assert torch.equal(_order, torch.randperm(5, generator=_generator))

# %%
# ``drop_last``: no short batch
# -----------------------------
# The last batch holds what is left over, here one sample. A batch that
# small gives a noisier :term:`gradient` step. Some layers also need more
# than one sample (batch normalisation, in training mode). ``drop_last=True``
# skips the short batch. With ``shuffle=True``, each epoch drops a random
# sample, the last of its shuffled order: the same one can be dropped several
# epochs in a row (sample 4 below), but over many epochs each is dropped
# about one epoch in five. Without shuffling, the same last sample is dropped
# in every epoch.
# The indices each epoch drops, from ``torch.manual_seed(123)`` as above:
#
# .. detail:: Noisier steps
#
#    Over all possible batches, the gradient of one sample strays further
#    from that of the whole data set than the gradient of two does.
dropping_loader = DataLoader(range(5), batch_size=2, shuffle=True, drop_last=True)
torch.manual_seed(123)
dropped = []
for _ in range(6):
    used = torch.cat(list(dropping_loader)).tolist()
    dropped += [index for index in range(5) if index not in used]
print("batches per epoch:", len(dropping_loader), "| dropped, epoch by epoch:", dropped)

# %%
# .. check:: each epoch drops its last sample, each 1 in 5 or so; batches of one stray and fail batch norm
assert len(dropping_loader) == len(train_ds) // 2
assert dropped[:4] == [order[-1] for order in orders] == [4, 4, 0, 2]
# Gradients of batches of one stray further from the full one than those of two.
grads = torch.autograd.functional.jacobian(  # per sample, of a linear model's loss
    lambda w: -(X_train @ w.T).log_softmax(dim=1)[torch.arange(5), y_train],
    torch.zeros(2, 2),
)
deviations = (grads - grads.mean(dim=0)).flatten(1)
pairs = deviations[torch.combinations(torch.arange(5))].mean(dim=1)
assert deviations.square().sum(dim=1).mean() > pairs.square().sum(dim=1).mean()
# Over many shuffled epochs each sample is used about 4 epochs in 5 ...
many = DataLoader(range(5), 2, True, drop_last=True, generator=torch.Generator())
many.generator.manual_seed(0)
uses = torch.cat([torch.cat(list(many)) for _ in range(1000)]).bincount()
assert ((uses > 750) & (uses < 850)).all()
# ... and without shuffling, the last one is always dropped.
in_order = DataLoader(range(5), batch_size=2, drop_last=True)
with torch.random.fork_rng(devices=[]):
    assert all(torch.cat(list(in_order)).tolist() == [0, 1, 2, 3] for _ in range(3))
# Batch normalisation refuses one sample in training mode, not in eval mode.
norm = torch.nn.BatchNorm1d(2)
try:
    norm(X_train[:1])
except ValueError as error:
    message = str(error)
else:
    raise AssertionError("batch normalisation should refuse one sample")
assert "more than 1 value per channel" in message
assert norm.eval()(X_train[:1]).shape == (1, 2)

# %%
# The test loader does not shuffle: evaluation visits every sample once, and
# a count of correct predictions does not depend on the order, so the test
# loader keeps the order of the data set.
for x, y in test_loader:
    print(x, y)

# %%
# .. check:: the test loader keeps the order of the data set
with torch.random.fork_rng(devices=[]):
    assert torch.equal(next(iter(test_loader))[0], X_test)

# %%
# ``num_workers`` and the ``__main__`` guard
# ------------------------------------------
# With ``num_workers=0``, the process that trains also loads every batch:
# while ``__getitem__`` reads and decodes files, the model waits. With
# ``num_workers=4``, four worker processes each get a copy of the data set
# and prepare the next batches while the model trains on the current one.
# This pays when loading is slow (images decoded from disk); for small
# tensors already in memory, as here, there is little to overlap, while
# starting the processes and passing batches between them has a cost.
#
# :func:`~torch.utils.data.get_worker_info` tells, inside ``__getitem__``,
# which worker runs it; ``None`` means the main process, as on this page:


class WhoLoads(ToyDataset):
    def __getitem__(self, index):
        info = get_worker_info()
        return super().__getitem__(index), "main" if info is None else info.id


loaders = [list(who) for _, who in DataLoader(WhoLoads(X_train, y_train), batch_size=2)]
print("who loaded each sample, batch by batch:", loaders)

# %%
# .. check:: on this page the main process loads every sample
assert all(who == "main" for batch in loaders for who in batch)

# %%
# Workers are separate processes, started with Python's default start
# method unless the loader's ``multiprocessing_context=`` names another.
# On Windows and macOS, and on Linux from Python 3.14, a new process
# is not a copy of the parent: with the ``spawn`` and ``forkserver`` methods
# it starts from a fresh Python that *imports your script* to find the data
# set class and the rest of your code. Everything at the top level of the
# script then runs again in every worker, and a script that creates its
# loader at the top level would start workers from its workers, which Python
# stops with an error. So a script that uses workers keeps its work behind
# the guard, which is true only in the process you started:
#
# .. code-block:: python
#
#     def main():
#         train_loader = DataLoader(train_ds, batch_size=2, shuffle=True, num_workers=4)
#         for epoch in range(3):
#             for features, labels in train_loader:
#                 ...
#
#     if __name__ == "__main__":  # not in the workers, which import this file
#         main()
#
# With these start methods the data set class must also be importable by
# the workers: defined in a module or at the top level of the script, not
# inside a function. This page keeps ``num_workers=0``: it runs inside a
# documentation build, where its classes are in no file a fresh worker could
# import.
# :ref:`sphx_glr_auto_examples_training_plot_10_distributed_training.py`
# starts processes the same way and keeps the code they run in an
# importable module.
#
# .. detail:: The fork start method
#
#    The ``fork`` method, Linux's default before Python 3.14, copies the
#    parent process instead and imports nothing. The guard costs nothing
#    there and keeps the script portable.

# %%
# Summary
# -------
# - A :class:`~torch.utils.data.Dataset` has ``__getitem__`` and
#   ``__len__``; it can load each sample only when asked.
#   :class:`~torch.utils.data.TensorDataset` serves tensors in memory.
# - A :class:`~torch.utils.data.DataLoader` batches and, with
#   ``shuffle=True``, reshuffles every epoch; :func:`torch.manual_seed` or a
#   ``generator=`` makes the order repeatable with the same PyTorch version.
# - Every pass over a loader draws from its generator, shuffled or not
#   (with ``persistent_workers=True``, only the first pass seeds workers).
# - ``drop_last=True`` skips the short last batch.
# - ``num_workers`` loads in parallel processes; with the ``spawn`` and
#   ``forkserver`` start methods, a script that uses them needs
#   ``if __name__ == "__main__":``.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`,
# which trains the network of the previous page on these batches. Exercises
# for this page: :ref:`exercises-training-02`.
