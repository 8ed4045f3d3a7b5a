"""
Loader order and workers
========================

After this page you can say which random draws set a loader's shuffle, and
what else shifts it. You can also write a script whose loader loads batches
in worker processes.

A first reading can skip this in-depth page.

**Before this page:**
:ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py` and
:ref:`sphx_glr_auto_examples_training_plot_07_reproducible_runs.py`, and
:ref:`sphx_glr_auto_examples_tensors_plot_01_creating_tensors.py` for
:class:`torch.Generator`.
"""

# %%
# The data here are seven points, so the page runs on the CPU.
import matplotlib.pyplot as plt
import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info

from tutorial_utils.data import toy_datasets
from tutorial_utils.environment import environment_summary
from tutorial_utils.grids import draw_tensor

device = torch.device("cpu")
print(environment_summary(device))

# %%
# The site's helper ``toy_datasets`` returns the toy training and test sets
# of :ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py`.
# The loaders are built as there.
train_ds, test_ds = toy_datasets()
train_loader = DataLoader(train_ds, batch_size=2, shuffle=True)
test_loader = DataLoader(test_ds, batch_size=2, shuffle=False)

# %%
# Where the order comes from
# --------------------------
# Take a loader like the two above: it has no generator of its own and no
# persistent workers. Each time it starts an :term:`epoch`, it takes numbers
# from PyTorch's global generator:
#
# 1. one that seeds its worker processes, taken with zero workers too;
# 2. when it shuffles, a second one, which seeds the shuffle.
#
# .. detail:: Persistent workers
#
#    With ``persistent_workers=True``, the workers start once, in the first
#    epoch. Only that epoch takes the workers' number.

# %%
# .. check:: with persistent workers, only the first epoch seeds the workers
import multiprocessing

if __name__ == "__main__" and "fork" in multiprocessing.get_all_start_methods():
    _draw = torch.empty((), dtype=torch.int64).random_  # as the loader draws
    _fork = {"persistent_workers": True, "multiprocessing_context": "fork"}
    _persistent = DataLoader(range(5), shuffle=True, num_workers=1, **_fork)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(123)
        _states = [(list(_persistent), torch.get_rng_state())[1] for _ in range(3)]
        torch.manual_seed(123)
        for _draws, _state in zip((2, 1, 1), _states, strict=True):
            [_draw() for _ in range(_draws)]
            assert torch.equal(torch.get_rng_state(), _state)
    del _persistent  # stops its worker

# %%
# The shuffle of ``shuffle=True`` depends on nothing but that second number
# and the data set's length. A loader over ``range(5)`` has the training
# set's length, so it shuffles in step with ``train_loader``. Its batches
# hold the indices, so they show the order.
index_loader = DataLoader(range(5), batch_size=2, shuffle=True)
torch.manual_seed(123)
orders = [torch.cat(list(index_loader)).tolist() for epoch in range(4)]
for epoch, order in enumerate(orders, start=1):
    print(f"epoch {epoch}: samples {order}")

# %%
# .. check:: each epoch draws a workers' seed, then a shuffle seed
_draw = torch.empty((), dtype=torch.int64).random_  # as the loader and sampler draw
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(123)
    for _order in orders:
        _draw()
        _shuffle = torch.Generator().manual_seed(int(_draw()))
        assert torch.randperm(5, generator=_shuffle).tolist() == _order

# %%
# .. check:: ``shuffle=True`` always shuffles with the default sampler
try:
    DataLoader(range(5), shuffle=True, sampler=range(5))
except ValueError as error:
    _message = str(error)
else:
    raise AssertionError("shuffle=True with a sampler should have been refused")
assert "mutually exclusive" in _message

# %%
# .. check:: the training loader shuffles in step with the index loader
from tutorial_utils.data import toy_tensors

_X_train = toy_tensors()[0]
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(123)
    for _order in orders:
        assert torch.equal(torch.cat([x for x, _ in train_loader]), _X_train[_order])

# %%
# The four epochs as a picture. The site's helper ``draw_tensor`` draws a
# tensor as a grid of cells, coloured by ``groups=``. Each row is an epoch.
# Each colour is a :term:`batch`, each number a sample index. Batches hold
# two samples, so position ``p`` is in batch ``p // 2``.
batch_of_position = [[position // 2 for position in range(5)]] * len(orders)
fig, ax = plt.subplots(figsize=(4, 3), layout="constrained")
draw_tensor(
    torch.tensor(orders),
    ax,
    groups=torch.tensor(batch_of_position),
    title="one row an epoch, after torch.manual_seed(123)",
)
plt.show()

# %%
# What shifts the order
# ---------------------
# Re-seeding repeats the epochs. Any other draw from the global generator in
# between shifts the numbers the loader gets, and usually the order. Two
# such draws:
#
# 1. creating a layer, whose weights are random;
# 2. a pass over the test loader, which does not shuffle but still takes the
#    workers' number.
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
# .. check:: re-seeding repeats the epochs; a layer changes the order here
assert again == orders[0] != after_layer

# %%
# .. check:: a pass over the test loader takes one number
_draw = torch.empty((), dtype=torch.int64).random_
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(123)  # the test loader took one number, then the two as above
    _draw(), _draw()
    _shuffle = torch.Generator().manual_seed(int(_draw()))
assert torch.randperm(5, generator=_shuffle).tolist() == after_test_pass

# %%
# A generator of its own
# ----------------------
# A :class:`torch.Generator` passed as ``generator=`` takes the global
# generator's place. The loader draws the workers' number from this
# generator. The loader's sampler shuffles with it directly. The global
# generator is left alone: :func:`torch.get_rng_state`, its state as a
# tensor, is the same after a pass. The lists are each batch's labels:
seeded_loader = DataLoader(
    train_ds, batch_size=2, shuffle=True, generator=torch.Generator().manual_seed(123)
)
global_state = torch.get_rng_state()
labels = [y.tolist() for _, y in seeded_loader]
unchanged = torch.equal(torch.get_rng_state(), global_state)
print(labels, "| global generator unchanged:", unchanged)

# %%
# .. check:: the loader draws the workers' seed from it, then shuffles with it
assert torch.equal(torch.get_rng_state(), global_state)
_draw = torch.empty((), dtype=torch.int64).random_
_generator = torch.Generator().manual_seed(123)
_order = torch.cat(list(DataLoader(range(5), shuffle=True, generator=_generator)))
_generator.manual_seed(123)
_draw(generator=_generator)
assert torch.equal(_order, torch.randperm(5, generator=_generator))

# %%
# Loading in worker processes
# ---------------------------
# With ``num_workers=0``, the default, the process that trains also loads
# every batch. While ``__getitem__`` reads and decodes a file, the model
# waits. With ``num_workers=4``, four worker processes load the batches.
# Workers are meant for slow loading, such as images read from disk.
#
# .. detail:: How far ahead workers load
#
#    By default each worker keeps two batches on the way, ahead of the
#    training loop.
#
# Inside ``__getitem__``, :func:`~torch.utils.data.get_worker_info` tells
# which process runs it. It returns ``None`` in the main process. In a
# worker, it returns an object whose ``id`` is the worker's number. This
# loader has no workers, so every sample says ``"main"``. The default
# collate function leaves strings as they are, here in a tuple per batch.


class WhoLoads(Dataset):
    def __len__(self):
        return 5

    def __getitem__(self, index):
        info = get_worker_info()
        return index, "main" if info is None else info.id


loaders = [who for _, who in DataLoader(WhoLoads(), batch_size=2)]
print("who loaded each sample, batch by batch:", loaders)

# %%
# .. check:: on this page the main process loads every sample
assert DataLoader(WhoLoads()).num_workers == 0  # the default
assert all(who == "main" for batch in loaders for who in batch)
assert all(isinstance(batch, tuple) for batch in loaders)  # of strings, as they were

# %%
# .. check:: with workers, each keeps two batches on the way by default
assert DataLoader(WhoLoads(), num_workers=1).prefetch_factor == 2

# %%
# The ``__main__`` guard
# ----------------------
# Python's :mod:`multiprocessing` starts the workers with its default
# :term:`start method`. The loader's ``multiprocessing_context=`` can name
# another. The default is ``spawn`` on Windows and macOS. On Linux it is
# ``fork`` up to Python 3.13, and ``forkserver`` from Python 3.14.
#
# With ``spawn`` and ``forkserver``, a worker starts from a fresh Python. That
# Python *imports your script*, to find your data set class and other code.
# Importing runs the top level of the script again, in every worker. A script
# that starts a loop over its loader at the top level would then start workers
# from its workers. Python stops that in the worker, with a ``RuntimeError``.
#
# A script that uses workers keeps its work behind a guard.
# ``__name__`` is ``"__main__"`` in the process you started. A worker that
# imports the script gets another name, so it skips ``main()``:
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
# .. detail:: The fork start method
#
#    ``fork`` copies the parent instead, ``__name__`` included, and imports
#    nothing. The guard is not needed there, but keeps the script portable.

# %%
# .. check:: the default start methods and ``multiprocessing_context=`` are as stated
import multiprocessing
import sys

if sys.platform in ("darwin", "win32", "linux"):
    _on_linux = "forkserver" if sys.version_info >= (3, 14) else "fork"
    _default = _on_linux if sys.platform == "linux" else "spawn"
    assert multiprocessing.get_start_method() == _default
assert DataLoader(WhoLoads(), num_workers=1).multiprocessing_context is None
_spawning = DataLoader(WhoLoads(), num_workers=1, multiprocessing_context="spawn")
assert _spawning.multiprocessing_context.get_start_method() == "spawn"

# %%
# .. check:: a new worker imports the script under ``__mp_main__``
import inspect
import multiprocessing.spawn
import sys

_main = sys.modules["__main__"]
_preparation = multiprocessing.spawn.get_preparation_data("worker")
if _main.__spec__ is None and hasattr(_main, "__file__"):  # run as a script
    assert "init_main_from_path" in _preparation
assert '"__mp_main__"' in inspect.getsource(multiprocessing.spawn)

# %%
# .. check:: starting a process while the script is imported is a ``RuntimeError``
import multiprocessing
import multiprocessing.spawn

_process = multiprocessing.current_process()
_process._inheriting = True  # as while a new worker imports the script
try:
    multiprocessing.spawn.get_preparation_data("worker")
except RuntimeError as error:
    _message = str(error)
else:
    raise AssertionError("starting a process while importing should fail")
finally:
    _process._inheriting = False
assert "bootstrapping phase" in _message

# %%
# .. check:: a ``fork`` worker, too, sees ``__name__`` as ``"__main__"``
import sys
import warnings
from multiprocessing import get_context

if __name__ == "__main__" and sys.platform == "linux":  # as when run as a script
    _child = get_context("fork").Process(
        target=lambda: sys.exit(__name__ != "__main__")
    )
    with warnings.catch_warnings():  # Python 3.12+ warns on forking with threads
        warnings.simplefilter("ignore", DeprecationWarning)
        _child.start()
    _child.join()
    assert _child.exitcode == 0  # 1 if the child's __name__ were another

# %%
# .. check:: ``spawn`` and ``forkserver`` prepare that import; ``fork`` does not
import inspect
import sys

if sys.platform != "win32":
    from multiprocessing import popen_fork, popen_forkserver, popen_spawn_posix

    for _module in (popen_spawn_posix, popen_forkserver):
        assert "get_preparation_data" in inspect.getsource(_module)
    assert "get_preparation_data" not in inspect.getsource(popen_fork)

# %%
# With these start methods, a worker gets the data set pickled. So its class
# must not sit inside a function, nor under the guard, which the worker
# skips. :ref:`sphx_glr_auto_examples_training_plot_10_distributed_training.py`
# starts processes the same way. It keeps the code they run in a module.
#
# .. detail:: Why not inside a function
#
#    Pickle stores a class by its module and name, not its code. Unpickling
#    the data set in the worker looks the class up by that name. A class in
#    a class has one, such as ``Outer.Inner``; one made in a function has none.

# %%
# .. check:: ``spawn`` and ``forkserver`` send the worker its data set pickled
import inspect
import sys

if sys.platform != "win32":
    from multiprocessing import popen_forkserver, popen_spawn_posix

    for _module in (popen_spawn_posix, popen_forkserver):
        assert "reduction.dump(process_obj" in inspect.getsource(_module)

# %%
# .. check:: pickle stores a class by name; one in a class pickles, in a function not
import pickle

assert all(name in pickle.dumps(WhoLoads()) for name in (b"__main__", b"WhoLoads"))


def _local_dataset():
    class Local(Dataset): ...

    return Local()


class _Outer:
    class Inner(Dataset): ...  # nested in a class, not a function: it pickles


assert type(pickle.loads(pickle.dumps(_Outer.Inner()))) is _Outer.Inner
try:
    pickle.dumps(_local_dataset())
except (AttributeError, pickle.PicklingError) as error:
    _message = str(error)
else:
    raise AssertionError("a class defined in a function should not pickle")
assert "local object" in _message

# %%
# .. check:: a worker's import of the script skips a class under the guard
_worker_globals = {"__name__": "__mp_main__"}  # as a worker imports the script
exec('if __name__ == "__main__":\n    class Guarded: ...\n', _worker_globals)  # noqa: S102
assert "Guarded" not in _worker_globals  # unpickling one would find nothing

# %%
# Summary
# -------
# - Name the draws that, by default, set a shuffled loader's order each
#   epoch: a workers' seed, then a shuffle seed.
# - Spot what shifts it: any other draw in between, such as a new layer.
# - Free the order from the global generator with a ``generator=``.
# - Load batches in workers with ``num_workers``, in a script whose work
#   sits behind ``if __name__ == "__main__":``.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_53_handwritten_digits.py`.
