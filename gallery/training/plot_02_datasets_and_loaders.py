"""
Datasets and data loaders
=========================

Wrap your data in a :class:`torch.utils.data.Dataset`, let a
:class:`torch.utils.data.DataLoader` shuffle it into batches the same way
on every run, and know what ``drop_last`` and ``num_workers`` change.
"""

# %%
# Every page starts by saying what computed it. The data here are seven
# points, so the page runs on the CPU.
import matplotlib.pyplot as plt
import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info

from tutorial_utils.data import toy_tensors
from tutorial_utils.devices import pick_device
from tutorial_utils.environment import environment_summary
from tutorial_utils.plotting import PALETTE

device = pick_device("cpu")
print(environment_summary(device))

# %%
# A toy data set
# --------------
# Five training samples with two features each, and their class labels: the
# first three are class 0, the last two class 1. Two more samples make a
# test set.
X_train = torch.tensor(
    [[-1.2, 3.1], [-0.9, 2.9], [-0.5, 2.6], [2.3, -1.1], [2.7, -1.5]]
)
y_train = torch.tensor([0, 0, 0, 1, 1])
X_test = torch.tensor([[-0.8, 2.8], [2.6, -1.6]])
y_test = torch.tensor([0, 1])

# sphinx_gallery_start_ignore
for ours, helpers in zip(
    (X_train, y_train, X_test, y_test), toy_tensors(), strict=True
):
    assert torch.equal(ours, helpers)
# sphinx_gallery_end_ignore

# %%
# The two classes sit in opposite corners of the plane, which makes them
# easy to tell apart: the training page will need only a few steps.
fig, ax = plt.subplots(figsize=(5, 3.6), layout="constrained")
for label, marker in ((0, "o"), (1, "s")):
    for X, y, filled in ((X_train, y_train, True), (X_test, y_test, False)):
        points = X[y == label].numpy()
        ax.scatter(
            points[:, 0],
            points[:, 1],
            s=70,
            marker=marker,
            color=PALETTE[5 if label == 0 else 6] if filled else "none",
            edgecolors=PALETTE[5 if label == 0 else 6],
            linewidths=1.5,
            label=f"class {label}, {'training' if filled else 'test'}",
        )
for i, (x1, x2) in enumerate(X_train.tolist()):
    ax.annotate(str(i), (x1, x2), textcoords="offset points", xytext=(7, 4))
ax.set(
    xlabel="feature 1",
    ylabel="feature 2",
    title="the toy data (index beside each training point)",
)
ax.legend(fontsize=8, loc="upper right")
plt.show()

# %%
# A ``Dataset``
# -------------
# A map-style :class:`~torch.utils.data.Dataset` answers two questions:
# how many samples there are (``__len__``) and what sample number ``index``
# is (``__getitem__``). Here the samples are already tensors in memory; in
# a real project ``__init__`` might store file names, and ``__getitem__``
# read and decode one file, so that only the samples in use are loaded.


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

# sphinx_gallery_start_ignore
assert len(train_ds) == 5
assert torch.equal(train_ds[3][0], torch.tensor([2.3, -1.1]))
assert train_ds[3][1].item() == 1
# sphinx_gallery_end_ignore

# %%
# The same class, with checks of its inputs, is
# :class:`tutorial_utils.data.ToyDataset`; the next pages use that one.
#
# A ``DataLoader``: shuffled batches
# ----------------------------------
# A :class:`~torch.utils.data.DataLoader` draws indices from the data set,
# fetches those samples and *collates* them into batch tensors. With
# ``shuffle=True`` it visits the samples in a new random order each time
# you iterate over it (each *epoch*). The random order comes from PyTorch's
# global generator, so :func:`torch.manual_seed` fixes it.
torch.manual_seed(123)
train_loader = DataLoader(dataset=train_ds, batch_size=2, shuffle=True, num_workers=0)
test_loader = DataLoader(dataset=test_ds, batch_size=2, shuffle=False, num_workers=0)

for idx, (x, y) in enumerate(train_loader):
    print(f"Batch {idx + 1}:", x, y)

# sphinx_gallery_start_ignore
# The batches the source text printed after the same seed.
source_batches = [
    (torch.tensor([[2.3, -1.1], [-0.9, 2.9]]), torch.tensor([1, 0])),
    (torch.tensor([[-1.2, 3.1], [-0.5, 2.6]]), torch.tensor([0, 0])),
    (torch.tensor([[2.7, -1.5]]), torch.tensor([1])),
]
torch.manual_seed(123)
for (x, y), (source_x, source_y) in zip(train_loader, source_batches, strict=True):
    torch.testing.assert_close(x, source_x, atol=5e-5, rtol=0)
    assert torch.equal(y, source_y)
# sphinx_gallery_end_ignore

# %%
# Five samples in batches of two make three batches, the last one with a
# single sample. The default collate function stacked two feature rows of
# shape ``(2,)`` into a ``(2, 2)`` batch and two labels into a ``(2,)``
# vector. ``len(train_loader)`` is the number of batches, not samples.
print("batches per epoch:", len(train_loader))
first_x, first_y = next(iter(train_loader))
print("first batch:", tuple(first_x.shape), tuple(first_y.shape))

# sphinx_gallery_start_ignore
assert len(train_loader) == 3
assert first_x.shape == (2, 2)
assert first_y.shape == (2,)
# sphinx_gallery_end_ignore

# %%
# Where the order comes from
# --------------------------
# At the start of each epoch the loader takes numbers from PyTorch's global
# generator (to seed its shuffle, and the worker processes if there are
# any). The shuffle depends on nothing but those numbers and the length of
# the data set. So a loader over ``range(5)`` (anything with ``__len__`` and
# ``__getitem__`` is a data set) shuffles in step with the training loader
# and shows the order as indices:
index_loader = DataLoader(range(len(train_ds)), batch_size=2, shuffle=True)
torch.manual_seed(123)
orders = [torch.cat(list(index_loader)).tolist() for epoch in range(4)]
for epoch, order in enumerate(orders, start=1):
    print(f"epoch {epoch}: samples {order}")

# sphinx_gallery_start_ignore
assert orders[0] == [3, 1, 0, 2, 4]
assert all(sorted(order) == [0, 1, 2, 3, 4] for order in orders)
assert len({tuple(order) for order in orders}) == 4
# The training loader's epochs visit the samples in the same order.
torch.manual_seed(123)
for order in orders:
    features = torch.cat([x for x, _ in train_loader])
    assert torch.equal(features, X_train[order])
# sphinx_gallery_end_ignore

# %%
# Re-seeding repeats the epochs; any other use of random numbers in between,
# such as creating a model, changes them:
torch.manual_seed(123)
print("again:                 ", torch.cat(list(index_loader)).tolist())
torch.manual_seed(123)
torch.nn.Linear(2, 2)  # draws random weights from the global generator
print("after creating a layer:", torch.cat(list(index_loader)).tolist())

# sphinx_gallery_start_ignore
torch.manual_seed(123)
assert [torch.cat(list(index_loader)).tolist() for _ in range(4)] == orders
torch.manual_seed(123)
torch.nn.Linear(2, 2)
assert torch.cat(list(index_loader)).tolist() != orders[0]
# sphinx_gallery_end_ignore

# %%
# The four epochs after ``torch.manual_seed(123)`` as a picture: each row is
# an epoch, each colour a batch, each number a sample index.
fig, ax = plt.subplots(figsize=(7, 2.6), layout="constrained")
for row, order in enumerate(orders):
    for position, sample in enumerate(order):
        batch = position // 2
        ax.add_patch(
            plt.Rectangle((position, row), 0.95, 0.9, color=PALETTE[batch], alpha=0.8)
        )
        ax.text(position + 0.47, row + 0.45, str(sample), ha="center", va="center")
ax.set(
    xlim=(0, 5),
    ylim=(len(orders), 0),
    xticks=[1, 3, 4.5],
    xticklabels=["batch 1", "batch 2", "batch 3"],
    yticks=[r + 0.45 for r in range(len(orders))],
    yticklabels=[f"epoch {e}" for e in range(1, len(orders) + 1)],
    title="sample indices per batch, shuffle=True, torch.manual_seed(123)",
)
ax.tick_params(length=0)
ax.spines[:].set_visible(False)
plt.show()

# %%
# A :class:`torch.Generator` passed as ``generator=`` makes the order
# independent of everything else: with its own generator, the loader ignores
# a layer created in between.
seeded_loader = DataLoader(
    train_ds, batch_size=2, shuffle=True, generator=torch.Generator().manual_seed(123)
)
first_run = [y.tolist() for _, y in seeded_loader]
seeded_loader.generator.manual_seed(123)
torch.nn.Linear(2, 2)  # draws from the global generator
second_run = [y.tolist() for _, y in seeded_loader]
print(first_run, second_run, first_run == second_run)

# sphinx_gallery_start_ignore
assert first_run == second_run
# sphinx_gallery_end_ignore

# %%
# ``drop_last``: no short batch
# -----------------------------
# The last batch holds what is left over. A much smaller batch gives a
# noisier gradient step, and some layers (batch normalisation) need more
# than one sample; ``drop_last=True`` skips it. The dropped sample changes
# from epoch to epoch, so none is left out for good.
torch.manual_seed(123)
dropping_loader = DataLoader(train_ds, batch_size=2, shuffle=True, drop_last=True)
print("batches per epoch:", len(dropping_loader))
for idx, (_, y) in enumerate(dropping_loader):
    print(f"Batch {idx + 1}: labels {y.tolist()}, size {len(y)}")

# sphinx_gallery_start_ignore
assert len(dropping_loader) == 2
torch.manual_seed(123)
assert [len(y) for _, y in dropping_loader] == [2, 2]
dropped = set()
for _ in range(6):
    used = torch.cat([x for x, _ in dropping_loader])
    missing = [i for i in range(5) if not (used == X_train[i]).all(dim=1).any()]
    assert len(missing) == 1
    dropped.add(missing[0])
assert len(dropped) > 1
# sphinx_gallery_end_ignore

# %%
# The test loader does not shuffle: evaluation visits every sample once, and
# the order does not matter, so it stays the order of the data set.
for x, y in test_loader:
    print(x, y)

# sphinx_gallery_start_ignore
assert torch.equal(next(iter(test_loader))[0], X_test)
# sphinx_gallery_end_ignore

# %%
# ``num_workers`` and the ``__main__`` guard
# ------------------------------------------
# With ``num_workers=0``, the process that trains also loads every batch:
# while ``__getitem__`` reads and decodes files, the model waits. With
# ``num_workers=4``, four worker processes each get a copy of the data set
# and prepare the next batches while the model trains on the current one.
# This matters when loading is slow (images from disk); for tensors already
# in memory, as here, starting the workers costs more than it saves.
#
# :func:`~torch.utils.data.get_worker_info` tells, inside ``__getitem__``,
# which worker runs it; ``None`` means the main process, as on this page:


class WhoLoads(ToyDataset):
    def __getitem__(self, index):
        info = get_worker_info()
        return super().__getitem__(index), "main" if info is None else info.id


loaders = [list(who) for _, who in DataLoader(WhoLoads(X_train, y_train), batch_size=2)]
print("who loaded each sample, batch by batch:", loaders)

# sphinx_gallery_start_ignore
assert loaders == [["main", "main"], ["main", "main"], ["main"]]
# sphinx_gallery_end_ignore

# %%
# Workers are separate processes. On Windows and macOS, and on Linux from
# Python 3.14, a new process is not a copy of the parent: it is a fresh
# Python (the ``spawn`` and ``forkserver`` start methods) that *imports
# your script* to find the data set class and the rest of your code. Everything at the top level of the script runs
# again in every worker, and a script that creates its loader at the top
# level would start workers from its workers, which Python stops with an
# error. So a script that uses workers keeps its work behind the guard,
# which is true only in the process you started:
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
# The data set class itself must be importable by the workers: defined in a
# module or at the top level of the script, not inside a function. This
# page keeps ``num_workers=0``: it is run from a documentation build, where
# there is no script for workers to import. The distributed-training page
# starts processes the same way and shows how to do it safely from anywhere.
#
# Summary
# -------
# - A :class:`~torch.utils.data.Dataset` has ``__len__`` and
#   ``__getitem__``; it can load each sample only when asked.
# - A :class:`~torch.utils.data.DataLoader` batches and, with
#   ``shuffle=True``, reshuffles every epoch; :func:`torch.manual_seed` or
#   a ``generator=`` makes the order repeatable.
# - ``drop_last=True`` skips the short last batch.
# - ``num_workers`` loads in parallel processes; a script that uses them
#   needs ``if __name__ == "__main__":``.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`,
# which trains the network of the previous page on these batches.
