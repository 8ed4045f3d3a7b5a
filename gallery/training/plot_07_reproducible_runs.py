"""
Reproducible runs
=================

After this page you can make a training run on the CPU repeat bit for bit
on one machine, with the same number of threads. You will seed the three
random number generators that a run draws from, and its data loader.

**Before this page:**
:ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py`,
:ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`,
:ref:`sphx_glr_auto_examples_training_plot_05_optimisers_and_learning_rates.py`
and :ref:`sphx_glr_auto_examples_training_plot_06_validation_and_overfitting.py`.
"""

# sphinx_gallery_budget_seconds = 30, "starts the data loader workers of four training runs, two of them fresh Pythons that import PyTorch: slow on a busy machine"

# %%
# This page computes on the CPU, with the thread count that its first line
# prints. A sum split across threads adds in another order, so its last
# bits can change with the thread count.
import random

import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from tutorial_utils.colours import PALETTE
from tutorial_utils.data import load_digits_tensors
from tutorial_utils.environment import environment_summary
from tutorial_utils.reproducibility import seed_everything

device = torch.device("cpu")
print(environment_summary(device))

# %%
# .. check:: a float32 sum can change with the number of threads
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(0)  # an unseeded draw's sums may all agree
    _values = torch.randn(1_000_003)
_threads, _sums = torch.get_num_threads(), set()
for _n in (1, 2, 3, 4, 8):
    torch.set_num_threads(_n)
    _sums.add(_values.sum().item())
torch.set_num_threads(_threads)
assert len(_sums) > 1
assert f"{_threads} CPU thread" in environment_summary(device)

# %%
# What to seed
# ------------
# A training run draws random numbers for its initial weights, for its
# :term:`dropout` masks and for the order of its :term:`batches <batch>`.
# They come from up to three global generators:
#
# 1. Python's :mod:`random` module, with ``random.seed`` and
#    ``random.random``;
# 2. NumPy's global generator, with ``np.random.seed`` and
#    ``np.random.rand``, which returns a float from 0 to 1;
# 3. PyTorch's, seeded by :func:`torch.manual_seed`.
#
# Each needs a :term:`seed`. Seeded the same way twice, all three repeat
# their numbers. ``torch.manual_seed`` seeds the CPU's generator and, its
# documentation says, every accelerator's too.
# The site's :func:`~tutorial_utils.reproducibility.seed_everything` makes
# the same three calls.
draws = []
for _ in range(2):
    random.seed(0)
    np.random.seed(0)
    torch.manual_seed(0)
    draws.append((random.random(), np.random.rand(), torch.rand(1).item()))
    print(draws[-1])

# %%
# .. check:: seeded the same way twice, the three generators repeat, as after ``seed_everything``
assert draws[0] == draws[1]
_random_state, _numpy_state = random.getstate(), np.random.get_state()
with torch.random.fork_rng(devices=[]):
    seed_everything(0)
    assert (random.random(), np.random.rand(), torch.rand(1).item()) == draws[0]
random.setstate(_random_state)
np.random.set_state(_numpy_state)
if torch.cuda.is_available():  # and every accelerator's
    assert torch.cuda.initial_seed() == 0

# %%
# Seeds for a data loader
# -----------------------
# A :class:`~torch.utils.data.DataLoader` draws random numbers too.
# :ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py`
# gave a loader a :class:`torch.Generator` of its own, as ``generator=``.
# The loader shuffles with it, so draws from PyTorch's global generator
# cannot move its order.
#
# With ``num_workers=2``, two worker processes load the batches. Each has
# its own copy of the three generators. Each time the loader starts its
# workers:
#
# 1. it draws one number from ``generator``, the base seed;
# 2. worker ``i`` seeds all three generators from the base seed and ``i``;
# 3. worker ``i`` calls ``worker_init_fn(i)``, if you passed one.
#
# So, for a given ``num_workers``, the loader's ``generator`` fixes both the
# order and the workers' draws. ``worker_init_fn`` is where a worker seeds
# any other library it draws from. PyTorch's reproducibility notes give one
# that reseeds Python's and NumPy's generators from the worker's PyTorch
# seed. The site's :func:`~tutorial_utils.reproducibility.seed_worker` is
# that recipe. It gives them other seeds, but their draws repeat without it
# too.
#
# A :term:`start method` is the way Python starts a process. ``spawn``
# starts each worker as a fresh Python that runs the script again. So, in a
# script, start the workers under ``if __name__ == "__main__":``. Without
# it, a ``spawn`` worker would reach the code that starts workers. Python
# then raises an error.

# %%
# .. check:: a generator of the loader's own keeps its order when a layer is made first
_numbers, _orders = TensorDataset(torch.arange(8)), []
with torch.random.fork_rng(devices=[]):
    for _own, _width in [(False, 4), (False, 8), (True, 4), (True, 8)]:
        torch.manual_seed(0)
        torch.nn.Linear(4, _width)  # draws its initial weights
        _generator = torch.Generator().manual_seed(0) if _own else None
        _loader = DataLoader(_numbers, batch_size=4, shuffle=True, generator=_generator)
        _orders.append([batch.tolist() for (batch,) in _loader])
assert _orders[0] != _orders[1]
assert _orders[2] == _orders[3]

# %%
# .. check:: a pass draws from ``generator``; ``seed_worker`` reseeds
from tutorial_utils.reproducibility import seed_worker

_random_state, _numpy_state = random.getstate(), np.random.get_state()
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(2**32 + 7)  # as a worker's PyTorch seed
    seed_worker(0)
assert random.random() == random.Random(7).random()
assert np.random.rand() == np.random.RandomState(7).rand()
random.setstate(_random_state)
np.random.set_state(_numpy_state)
_generator = torch.Generator().manual_seed(0)
list(DataLoader(_numbers, generator=_generator))  # no workers, no shuffle: a draw
assert _generator.get_state().ne(torch.Generator().manual_seed(0).get_state()).any()

# %%
# .. check:: one seed and ``num_workers``, the same draws; persistent: seeded once
import multiprocessing

from tutorial_utils.reproducibility import seed_worker

if __name__ == "__main__" and "fork" in multiprocessing.get_all_start_methods():

    class _Draws(torch.utils.data.Dataset):  # what each worker's generators give
        def __getitem__(self, index):
            draws = torch.rand(()).item(), random.random(), float(np.random.rand())
            return torch.initial_seed(), *draws

    def _worker_draws(workers=2, epochs=1, init=None):  # worker 0: samples 0, 2
        loader = DataLoader(
            _Draws(),
            None,
            sampler=range(4),
            num_workers=workers,
            persistent_workers=epochs > 1,
            multiprocessing_context="fork",
            generator=torch.Generator().manual_seed(5),
            worker_init_fn=init,
        )
        return [draws for _ in range(epochs) for draws in loader]

    _plain = _worker_draws()
    assert _plain == _worker_draws()
    assert all(_plain[0][i] != _plain[1][i] for i in range(4))  # workers differ
    assert _plain[1] != _worker_draws(workers=1)[1]  # another num_workers
    _persistent = _worker_draws(epochs=2)
    assert _persistent[0][0] == _persistent[4][0]  # the same seed: seeded once
    _recipe = _worker_draws(init=seed_worker)
    assert _recipe != _plain  # other seeds
    for _seed, _torch, _random, _numpy in _plain[:2]:  # without worker_init_fn
        assert _torch == torch.rand((), generator=torch.Generator().manual_seed(_seed))
        assert _random == random.Random(_seed).random()
    for _seed, _, _random, _numpy in _recipe[:2]:  # with seed_worker
        assert _random == random.Random(_seed % 2**32).random()
        assert _numpy == np.random.RandomState(_seed % 2**32).rand()

# %%
# .. check:: a process started while a ``spawn`` worker starts up raises
import multiprocessing.spawn

if __name__ == "__main__":  # not in a spawn worker, which is starting up
    _process = multiprocessing.current_process()
    _process._inheriting = True  # as while a spawn worker reruns the script
    try:
        multiprocessing.spawn.get_preparation_data("worker")
    except RuntimeError as error:
        _message = str(error)
    else:
        raise AssertionError("a worker started workers of its own")
    finally:
        del _process._inheriting
    assert "bootstrapping phase" in _message

# %%
# Two identical runs
# ------------------
# ``train_run`` trains a small network with dropout on the handwritten
# digits for two :term:`epochs <epoch>`. The seed fixes the initial weights
# and the dropout masks. Two more loader arguments:
#
# - ``persistent_workers=True`` keeps the workers from one epoch to the
#   next. They start, and are seeded, once;
# - ``multiprocessing_context`` names the start method. ``None`` keeps
#   Python's default.
#
# At the end, :func:`torch.nn.utils.parameters_to_vector` joins the trained
# parameters into one vector. One comparison then covers every weight.


def train_run(
    dataset: TensorDataset, seed: int, start_method: str | None = None
) -> tuple[list[float], torch.Tensor]:
    seed_everything(seed)
    model = torch.nn.Sequential(
        torch.nn.Linear(64, 32),
        torch.nn.ReLU(),
        torch.nn.Dropout(p=0.2),
        torch.nn.Linear(32, 10),
    )
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    loader = DataLoader(
        dataset,
        batch_size=64,
        shuffle=True,
        num_workers=2,
        persistent_workers=True,
        generator=torch.Generator().manual_seed(seed),
        multiprocessing_context=start_method,
    )
    losses = []
    for _ in range(2):
        for features, labels in loader:
            optimizer.zero_grad()
            loss = F.cross_entropy(model(features), labels)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
    return losses, torch.nn.utils.parameters_to_vector(model.parameters()).detach()


# %%
# Two runs use seed 0 and one uses seed 1, all with Python's default start
# method. A fourth run uses seed 0 and ``spawn``, the default on macOS and
# Windows. Its fresh Pythons must import the data set's class. They can,
# since ``TensorDataset`` lives in a module. A class defined under the guard,
# or in a notebook cell, would not be found. The runs sit under the guard.
#
# .. detail:: Lines printed again
#
#    Run as a script, each ``spawn`` worker imports the script as a module.
#    So it runs the unguarded code again, and prints the page's first lines
#    once more.
if __name__ == "__main__":
    digits = load_digits_tensors(seed=0)
    train_set = TensorDataset(digits.train_features, digits.train_labels)
    first_losses, first = train_run(train_set, seed=0)
    second_losses, second = train_run(train_set, seed=0)
    other_losses, other = train_run(train_set, seed=1)
    spawn_losses, spawned = train_run(train_set, seed=0, start_method="spawn")
    for name, weights in (("second", second), ("seed 1", other), ("spawn", spawned)):
        same, gap = torch.equal(weights, first), (weights - first).abs().max()
        print(f"{name:>6}: bit for bit {same}, largest gap {gap.item():.3g}")

# %%
# .. check:: ``spawn`` is the default on macOS and Windows; it reruns a script
import inspect
import multiprocessing.spawn
import pickle
import subprocess
import sys

assert TensorDataset.__module__ != "__main__"
if __name__ == "__main__":  # a class from __main__ is stored by module and name

    class _Guarded(TensorDataset):
        pass

    _load = "import pickle, sys; pickle.load(sys.stdin.buffer)"
    _stored = pickle.dumps(_Guarded)
    _fresh = subprocess.run(
        [sys.executable, "-c", _load], input=_stored, capture_output=True, check=False
    )
    assert b"_Guarded" in _fresh.stderr  # not found
    _fixup = inspect.getsource(multiprocessing.spawn._fixup_main_from_path)
    assert '"__mp_main__"' in _fixup  # a spawn worker's guard is false
_main = sys.modules["__main__"]
if __name__ == "__main__" and _main.__spec__ is None and hasattr(_main, "__file__"):
    _preparation = multiprocessing.spawn.get_preparation_data("worker")
    assert "init_main_from_path" in _preparation  # run as a script
if __name__ == "__main__" and sys.platform in ("darwin", "win32", "linux"):
    _on_linux = "forkserver" if sys.version_info >= (3, 14) else "fork"
    _default = _on_linux if sys.platform == "linux" else "spawn"
    assert multiprocessing.get_start_method() == _default

# %%
# The second run and the ``spawn`` run match the first in every bit, loss
# after loss: their largest gap to its weights is 0. Seed 1 starts
# elsewhere and ends elsewhere. The figure draws the loss of the first three
# runs at every optimiser step.
if __name__ == "__main__":
    steps = range(1, len(first_losses) + 1)
    fig, ax = plt.subplots(figsize=(6.5, 3.4), layout="constrained")
    ax.plot(steps, first_losses, color=PALETTE[5], linewidth=3, label="seed 0")
    ax.plot(steps, second_losses, "--", color=PALETTE[1], label="seed 0 again")
    ax.plot(steps, other_losses, color=PALETTE[6], linewidth=1, label="seed 1")
    ax.set(xlabel="optimiser step", ylabel="cross-entropy loss", yscale="log")
    ax.set_title("three training runs with two data loader workers each")
    ax.legend()
    plt.show()

# %%
# .. check:: the second and ``spawn`` runs match the first in every bit; seed 1 differs throughout
if __name__ == "__main__":
    assert all(torch.equal(first, weights) for weights in (second, spawned))
    assert first_losses == second_losses == spawn_losses
    assert other_losses[0] != first_losses[0]
    assert not torch.equal(first, other)

# %%
# Summary
# -------
# - Seed Python's :mod:`random`, NumPy's global generator and PyTorch, or
#   call :func:`~tutorial_utils.reproducibility.seed_everything`.
# - Give a loader a seeded ``generator=``. It fixes the shuffle and the
#   workers' seeds.
# - Start workers under ``if __name__ == "__main__":``. Seed any other
#   library a worker draws from in ``worker_init_fn``.
# - With these, the CPU runs above repeated bit for bit, on one machine,
#   one build of PyTorch and one number of threads.
#
# In depth:
# :ref:`sphx_glr_auto_examples_training_plot_57_deterministic_algorithms.py`
# makes PyTorch's :term:`kernels <kernel>` deterministic too, which a GPU
# run may need.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_08_saving_and_loading.py`,
# which saves a trained model and loads it back, safely. Exercises for this
# page: :ref:`exercises-training-07`.
