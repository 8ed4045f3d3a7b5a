"""
Datasets and data loaders
=========================

After this page you can wrap your data in a :class:`torch.utils.data.Dataset`.
You can let a :class:`torch.utils.data.DataLoader` cut it into shuffled
:term:`batches <batch>`, make that order repeat, and drop a short last batch.

**Before this page:**
:ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py`, and
:ref:`sphx_glr_auto_examples_tensors_plot_01_creating_tensors.py` for
:func:`torch.manual_seed` and :class:`torch.Generator`.
"""

# %%
# The data here are seven points, so the page runs on the CPU.
import matplotlib.pyplot as plt
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset

from tutorial_utils.colours import PALETTE
from tutorial_utils.data import toy_datasets, toy_tensors
from tutorial_utils.environment import environment_summary

device = torch.device("cpu")
print(environment_summary(device))

# %%
# A toy data set
# --------------
# Each sample is a point in the plane and a class label, 0 or 1. The
# point's two coordinates are its *features*, the inputs a model reads.
# Five samples make the training set, three of class 0, then two of class 1.
# Two more make a test set of new points for the trained model. The
# site's helper ``toy_tensors`` returns these four :term:`tensors <tensor>`
# to the next pages.
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
# The dashed diagonal, where the two features are equal, separates the two
# classes, test points included.
# Filled markers are training points, hollow ones test points.
# ``X[y == label]`` keeps the rows of one class.
# Matplotlib's ``scatter`` draws the points, ``annotate`` the indices and
# ``axline`` the diagonal. ``PALETTE`` is the site's list of colours.
fig, ax = plt.subplots(figsize=(5, 3.6), layout="constrained")
for label, marker in ((0, "o"), (1, "s")):
    color = PALETTE[5 if label == 0 else 6]
    for X, y, kind in ((X_train, y_train, "training"), (X_test, y_test, "test")):
        points = X[y == label]
        ax.scatter(
            points[:, 0],
            points[:, 1],
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
# .. check:: the diagonal separates the classes, in both sets
for _features, _labels in ((X_train, y_train), (X_test, y_test)):
    assert torch.equal((_features[:, 0] > _features[:, 1]).long(), _labels)

# %%
# A ``Dataset``
# -------------
# A *map-style* :class:`~torch.utils.data.Dataset` is a class with two
# methods:
#
# 1. ``__getitem__(index)`` returns sample number ``index``;
# 2. ``__len__()`` says how many samples there are.
#
# By default, a :class:`~torch.utils.data.DataLoader` picks the indices
# itself, so it needs both.
# Here the samples are tensors in memory. In a real project, ``__init__``
# might store file names and ``__getitem__`` read one file, so only the
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
# .. check:: it refuses a data set without ``__len__``, unless given the indices
_no_length = type("NoLength", (Dataset,), {"__getitem__": lambda self, i: X_train[i]})
with torch.random.fork_rng(devices=[]):
    try:
        next(iter(DataLoader(_no_length(), batch_size=2)))
    except TypeError as error:
        _message = str(error)
    else:
        raise AssertionError("a data set without __len__ should have been refused")
    _given = DataLoader(_no_length(), batch_size=2, sampler=[3, 1])  # indices given
    assert torch.equal(next(iter(_given)), X_train[[3, 1]])
assert "has no len()" in _message

# %%
# For tensors in memory you need no class of your own.
# :class:`~torch.utils.data.TensorDataset` does the same for any tensors
# that share their first :term:`dimension`. The site's helper
# ``toy_datasets`` returns the toy data as two of them. Both classes give the
# same samples:
tensor_ds = TensorDataset(X_train, y_train)
print(len(tensor_ds), tensor_ds[3])

# %%
# .. check:: both classes give the same samples
assert len(tensor_ds) == len(train_ds)
for index in range(len(train_ds)):
    torch.testing.assert_close(tensor_ds[index], train_ds[index], rtol=0, atol=0)

# %%
# .. check:: ``toy_datasets`` returns two ``TensorDataset`` objects
assert all(isinstance(ds, TensorDataset) for ds in toy_datasets())

# %%
# A ``DataLoader``: shuffled batches
# ----------------------------------
# A :class:`~torch.utils.data.DataLoader` works in three steps:
#
# 1. it takes a batch of indices, here two at a time;
# 2. it fetches those samples from the data set;
# 3. it *collates* them: it stacks them into batch tensors.
#
# With ``shuffle=True`` it draws a fresh random order for each pass over
# the data, each :term:`epoch`. The randomness comes from PyTorch's
# global (default) generator. So :func:`torch.manual_seed` fixes the order,
# with a given PyTorch version.
torch.manual_seed(123)
train_loader = DataLoader(dataset=train_ds, batch_size=2, shuffle=True)
test_loader = DataLoader(dataset=test_ds, batch_size=2, shuffle=False)

for idx, (x, y) in enumerate(train_loader):
    print(f"Batch {idx + 1}:", x, y)

# %%
# .. check:: re-seeded, it repeats the batches above: samples 3, 1 | 0, 2 | 4
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(123)
    for (_x, _y), _index in zip(train_loader, ([3, 1], [0, 2], [4]), strict=True):
        assert torch.equal(_x, X_train[_index])
        assert torch.equal(_y, y_train[_index])

# %%
# .. check:: the next epoch draws a new order
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(123)
    _epochs = [torch.cat([x for x, _ in train_loader]) for _ in range(2)]
assert not torch.equal(*_epochs)

# %%
# The last batch holds a single sample. The default :term:`collate function`
# stacked two feature rows of :term:`shape` ``(2,)`` into a ``(2, 2)`` batch,
# and two labels into a ``(2,)`` vector. ``len(train_loader)`` counts
# batches, not samples: 5 / 2, rounded up.
print("batches per epoch:", len(train_loader))
first_x, first_y = next(iter(train_loader))
print("first batch of a new epoch:", tuple(first_x.shape), tuple(first_y.shape))

# %%
# .. check:: the loader makes 5 / 2 batches, rounded up
assert len(train_loader) == -(-len(train_ds) // 2)  # 5 / 2, rounded up

# %%
# .. check:: it stacks ``(2,)`` samples into ``(2, 2)`` and ``(2,)`` batches
assert (train_ds[0][0].shape, first_x.shape, first_y.shape) == ((2,), (2, 2), (2,))

# %%
# The test loader does not shuffle: a count of correct predictions does not
# depend on the order.
for x, y in test_loader:
    print(x, y)

# %%
# .. check:: the test loader keeps the order of the data set
with torch.random.fork_rng(devices=[]):
    assert torch.equal(next(iter(test_loader))[0], X_test)

# %%
# A generator of its own
# ----------------------
# Other code draws from the global generator too: creating a layer draws its
# random weights. A draw between the seed and the loop moves the generator
# on. The loader then gets other numbers, which usually give another order.
#
# .. detail:: Why usually
#
#    Five samples have ``5*4*3*2*1 = 120`` orders: two seeds can share one.
#
# .. detail:: What else moves the order
#
#    Even a pass over the test loader, which does not shuffle, takes a
#    number from the global generator. On this page, a loader with a
#    generator of its own takes none.
#    :ref:`sphx_glr_auto_examples_training_plot_52_loader_order_and_workers.py`
#    shows which numbers a loader takes, and when.

# %%
# .. check:: two seeds can give the same order of five samples
_seeds = [torch.Generator().manual_seed(s) for s in range(121)]  # > 5*4*3*2*1 = 120
assert len({tuple(torch.randperm(5, generator=g).tolist()) for g in _seeds}) < 121

# %%
# .. check:: the test loader moves the global generator; one with its own does not
with torch.random.fork_rng(devices=[]):
    _state = torch.get_rng_state()
    list(test_loader)
    assert not torch.equal(torch.get_rng_state(), _state)  # even without shuffling
    _state = torch.get_rng_state()
    list(DataLoader(test_ds, batch_size=2, generator=torch.Generator()))
    assert torch.equal(torch.get_rng_state(), _state)  # its own generator: none

# %%
# A loader given its own :class:`torch.Generator` as ``generator=`` shuffles
# with it instead. The loader keeps it as ``seeded_loader.generator``.
# Re-seed it and the order repeats, whatever the program draws from the
# global generator. ``torch.cat`` joins a pass's batches into one tensor.
seeded_loader = DataLoader(
    train_ds, batch_size=2, shuffle=True, generator=torch.Generator().manual_seed(123)
)
first_run = torch.cat([x for x, _ in seeded_loader])
seeded_loader.generator.manual_seed(123)
torch.nn.Linear(2, 2)  # draws from the global generator
second_run = torch.cat([x for x, _ in seeded_loader])
print(first_run)
print("same order again:", torch.equal(first_run, second_run))

# %%
# .. check:: a layer moves the global order, not the own; an own draw does
assert torch.equal(first_run, second_run)
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(123)
    torch.nn.Linear(2, 2)
    _order = torch.cat([x for x, _ in train_loader])
    assert not torch.equal(_order, X_train[[3, 1, 0, 2, 4]])
    _state = torch.get_rng_state()
    list(seeded_loader)
    assert torch.equal(torch.get_rng_state(), _state)  # the global one is left alone
seeded_loader.generator.manual_seed(123)  # a draw from the own one does move it
torch.rand(1, generator=seeded_loader.generator)
assert not torch.equal(torch.cat([x for x, _ in seeded_loader]), first_run)

# %%
# ``drop_last``: no short batch
# -----------------------------
# ``drop_last=True`` skips the short last batch. Two reasons to skip it:
#
# 1. a batch of one gives a noisier :term:`gradient` step;
# 2. some layers refuse a batch of one row of features while training.
#
# .. detail:: Noisier steps
#
#    Take the gradient of the whole data set as the target. Each batch's
#    gradient misses it by some distance. Averaged over all possible
#    batches, the squared miss is larger for batches of one than of two.
#
# .. detail:: A layer that refuses one row
#
#    A :term:`batch normalisation` layer, in :term:`training mode`, needs
#    more than one value of each feature in a batch. One row of features
#    holds just one, so the layer refuses it. One image of many pixels passes:
#    each channel, such as red, green or blue, is a feature with many values.

# %%
# .. check:: the squared miss is larger for batches of one than of two
grads = torch.autograd.functional.jacobian(  # per sample, of a linear model's loss
    lambda w: -(X_train @ w.T).log_softmax(dim=1)[torch.arange(5), y_train],
    torch.zeros(2, 2),
)
deviations = (grads - grads.mean(dim=0)).flatten(1)
pairs = deviations[torch.combinations(torch.arange(5))].mean(dim=1)
assert deviations.square().sum(dim=1).mean() > pairs.square().sum(dim=1).mean()

# %%
# .. check:: by default, batch normalisation refuses one row in training mode only
norm = torch.nn.BatchNorm1d(2)
try:
    norm(X_train[:1])
except ValueError as error:
    message = str(error)
else:
    raise AssertionError("batch normalisation should refuse one row")
assert "more than 1 value per channel" in message
assert norm.eval()(X_train[:1]).shape == (1, 2)
_image = torch.ones(1, 3, 4, 4)  # one image, 3 channels of 4 x 4 values: accepted
assert torch.nn.BatchNorm2d(3)(_image).shape == _image.shape

# %%
# With ``shuffle=True``, each epoch drops the last sample of its own order.
# The same one can be dropped several epochs in a row, like sample 4 below.
# Over many epochs, each sample is dropped about one epoch in five. Without
# shuffling, the same last sample is dropped every epoch.
#
# A loader takes any object with ``__len__`` whose ``__getitem__`` takes the
# indices 0 to ``len - 1``. ``range(5)`` is one. Its sample ``i`` is ``i``
# itself, so its batches show the indices, as tensors. Each epoch's dropped
# indices, after ``torch.manual_seed(123)``:
dropping_loader = DataLoader(range(5), batch_size=2, shuffle=True, drop_last=True)
torch.manual_seed(123)
dropped = []
for _ in range(6):
    used = torch.cat(list(dropping_loader)).tolist()
    dropped += [index for index in range(5) if index not in used]
print("batches per epoch:", len(dropping_loader), "| dropped, epoch by epoch:", dropped)

# %%
# .. check:: each epoch drops the last sample of its order
assert len(dropping_loader) == len(train_ds) // 2
with torch.random.fork_rng(devices=[]):  # the same epochs without drop_last
    torch.manual_seed(123)
    _all = DataLoader(range(5), batch_size=2, shuffle=True)
    _orders = [torch.cat(list(_all)).tolist() for _ in range(4)]
assert dropped[:4] == [order[-1] for order in _orders] == [4, 4, 0, 2]

# %%
# .. check:: shuffled, each sample is dropped about one epoch in five
many = DataLoader(range(5), 2, True, drop_last=True, generator=torch.Generator())
many.generator.manual_seed(0)
uses = torch.cat([torch.cat(list(many)) for _ in range(1000)]).bincount()  # 4 in 5
assert ((uses > 750) & (uses < 850)).all()

# %%
# .. check:: without shuffling, the same last sample is dropped every epoch
in_order = DataLoader(range(5), batch_size=2, drop_last=True)
with torch.random.fork_rng(devices=[]):
    assert all(torch.cat(list(in_order)).tolist() == [0, 1, 2, 3] for _ in range(3))

# %%
# .. check:: a loader needs ``__getitem__`` to take the indices 0 to ``len - 1``
with torch.random.fork_rng(devices=[]):
    try:
        list(DataLoader({"a": 0, "b": 1}))  # has __len__; its keys are not 0 and 1
    except KeyError as error:
        _missing = error.args
    else:
        raise AssertionError("a dict keyed by names should fail")
assert _missing == (0,)  # the loader asked for index 0

# %%
# .. check:: the default collate function turns integers into a tensor
assert torch.equal(torch.utils.data.default_collate([3, 1]), torch.tensor([3, 1]))

# %%
# Summary
# -------
# - Write a :class:`~torch.utils.data.Dataset` with ``__getitem__`` and
#   ``__len__``, or use :class:`~torch.utils.data.TensorDataset`.
# - Batch it with a :class:`~torch.utils.data.DataLoader`, shuffled anew
#   each epoch with ``shuffle=True``.
# - Repeat that order with :func:`torch.manual_seed`, or shield it from
#   other draws with a ``generator=`` of the loader's own.
# - Skip the short last batch with ``drop_last=True``.
#
# In depth:
# :ref:`sphx_glr_auto_examples_training_plot_52_loader_order_and_workers.py`
# shows where the order comes from, and how ``num_workers`` loads batches in
# parallel processes.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`,
# which trains the network of the previous page on these batches. Exercises
# for this page: :ref:`exercises-training-02`.
