"""
Reproducible runs
=================

Make a training run repeat bit for bit: seed every random number generator
it draws from, the data loader's worker processes included, ask PyTorch for
deterministic algorithms, and know what PyTorch does not promise.
"""

# sphinx_gallery_budget_seconds = 30, "starts data loader workers and five fresh Pythons, four of which import PyTorch: slow on a busy machine"

# %%
# This page computes on the CPU; what it says about GPUs follows PyTorch's
# documentation.
import functools
import multiprocessing
import os
import pickle
import random
import subprocess
import sys
import warnings

import matplotlib.pyplot as plt
import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from tutorial_utils.colours import PALETTE
from tutorial_utils.data import load_digits_tensors
from tutorial_utils.environment import environment_summary
from tutorial_utils.reproducibility import seed_everything, seed_worker

device = torch.device("cpu")
print(environment_summary(device))

# %%
# What to seed
# ------------
# A training run draws random numbers for its initial weights, the order of
# its :term:`batches <batch>` and :term:`dropout`, and perhaps for data
# augmentation, from up to three global generators: Python's :mod:`random`,
# NumPy's global generator (``np.random.rand`` and friends) and PyTorch's.
# Each needs a :term:`seed`; :func:`torch.manual_seed` seeds PyTorch's on
# the CPU and, its documentation says, on every accelerator. Seeded the
# same way twice, all three repeat their numbers.
# :func:`~tutorial_utils.reproducibility.seed_everything` makes the same
# three calls, for a seed from 0 to ``2**32 - 1`` (NumPy's range):
draws = []
for _ in range(2):
    random.seed(0)
    np.random.seed(0)
    torch.manual_seed(0)
    draws.append((random.random(), np.random.rand(), torch.rand(1).item()))
print(draws[0])
seed_everything(0)

# %%
# .. check:: seeded the same way twice, the three generators repeat, as after ``seed_everything``
assert draws[0] == draws[1]
_random_state, _numpy_state = random.getstate(), np.random.get_state()
with torch.random.fork_rng(devices=[]):
    assert (random.random(), np.random.rand(), torch.rand(1).item()) == draws[0]
random.setstate(_random_state)
np.random.set_state(_numpy_state)

# %%
# Deterministic algorithms
# ------------------------
# Seeds fix the random numbers, not the arithmetic. Some :term:`kernels
# <kernel>` add up their results in an order that changes from call to call,
# mostly on GPUs, where many threads add to one memory location at once;
# floating-point addition is not associative, so the last bits can change.
# :func:`torch.use_deterministic_algorithms` with ``True`` makes the
# operations its documentation lists as nondeterministic use a deterministic
# alternative, or raise a :class:`RuntimeError` where there is none
# (PyTorch's notes add that this alone is not always enough). Most are CUDA
# operations, but some raise on the CPU too, such as
# :meth:`torch.Tensor.put_` with ``accumulate=False``, even where no index
# repeats. Indexed assignment (``index_put_``) has a deterministic version:
#
# .. detail:: Others on the CPU
#
#    In 2.4 as in 2.13, ``resize_`` of a quantized tensor and
#    :class:`torch.nn.MaxUnpool2d`, with its 1-d and 3-d siblings, raise on
#    the CPU too. Where an index of ``put_`` repeats, which value lands is
#    open.
torch.use_deterministic_algorithms(True)
print("deterministic algorithms:", torch.are_deterministic_algorithms_enabled())
target = torch.zeros(4)
try:
    target.put_(torch.tensor([0, 1]), torch.tensor([1.0, 2.0]))  # no repeats
except RuntimeError as error:
    print(str(error).split(". ")[0])
else:
    raise AssertionError("put_ did not raise in deterministic mode")
target[torch.tensor([0, 0])] = torch.tensor([1.0, 2.0])  # index_put_: no error
print("index assignment works:", target)

# %%
# .. check:: a quantized ``resize_`` and ``MaxUnpool1d`` to ``3d`` raise on the CPU too
with warnings.catch_warnings(), torch.random.fork_rng(devices=[]):
    warnings.simplefilter("ignore")  # 2.13 deprecates quantized tensors
    quantized = torch.quantize_per_tensor(torch.rand(4), 0.1, 0, torch.quint8)
raising = [functools.partial(quantized.resize_, 8)]
for dims in (1, 2, 3):
    pool = getattr(torch.nn, f"MaxPool{dims}d")(2, return_indices=True)
    unpool = getattr(torch.nn, f"MaxUnpool{dims}d")(2)
    with torch.random.fork_rng(devices=[]):
        pooled = pool(torch.rand((1, 1) + (4,) * dims))
    raising.append(functools.partial(unpool, *pooled))
for call in raising:
    try:
        call()
    except RuntimeError as error:
        message = str(error)
    else:
        raise AssertionError(f"{call} did not raise in deterministic mode")
    assert "does not have a deterministic implementation" in message

# %%
# With ``warn_only=True`` such an operation runs and warns instead. The mode
# also fills the memory that :func:`torch.empty` returns, with NaN for
# floating-point tensors (``torch.utils.deterministic.fill_uninitialized_memory``
# is ``True`` by default), so that reading it by mistake gives the same
# result every time. This page leaves the mode on from here.
torch.use_deterministic_algorithms(True, warn_only=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    target.put_(torch.tensor([0, 0]), torch.tensor([1.0, 2.0]))
print(f"{caught[0].category.__name__}: {str(caught[0].message).split('. ')[0]}")
torch.use_deterministic_algorithms(True)
print(torch.empty(3))

# %%
# .. check:: ``warn_only`` warns (a ``UserWarning``); ``torch.empty`` is NaN; the mode stays on
assert issubclass(caught[0].category, UserWarning)
assert torch.empty(3).isnan().all()
assert not torch.is_deterministic_algorithms_warn_only_enabled()
assert torch.utils.deterministic.fill_uninitialized_memory

# %%
# On a CUDA GPU, keep ``torch.backends.cudnn.benchmark`` at its default,
# ``False``: when ``True``, cuDNN times several convolution algorithms and
# keeps the fastest, which can differ from run to run. Deterministic mode
# also makes cuDNN choose deterministic convolution algorithms, PyTorch's
# notes say.
#
# .. detail:: Older releases
#
#    Older releases, 2.4 among them, add a condition: with CUDA 10.2 or
#    later, operations that call cuBLAS (matrix products, among others) raise
#    in deterministic mode unless the environment variable
#    ``CUBLAS_WORKSPACE_CONFIG`` is ``:4096:8`` or ``:16:8`` when the program
#    first calls cuBLAS. It is most simply set at launch
#    (``CUBLAS_WORKSPACE_CONFIG=:4096:8 python train.py``). 2.13 no longer
#    asks.

# %%
# Seeds for data loader workers
# -----------------------------
# A :class:`~torch.utils.data.DataLoader` with ``num_workers=2`` loads batches
# in two worker processes. Each pass over it (each :term:`epoch`; with
# ``persistent_workers=True`` only the first) draws a base seed for the
# workers from its ``generator``, even with ``num_workers=0``, as it draws each
# shuffle (:ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py`).
# Without one, it draws both from PyTorch's global generator, after whatever
# else the program drew from it: a wider layer made first changes the batches.
# A generator of the loader's own keeps them:
numbers, orders = TensorDataset(torch.arange(8)), []
for own_generator, width in [(False, 4), (False, 8), (True, 4), (True, 8)]:
    seed_everything(0)
    torch.nn.Linear(4, width)  # draws its initial weights
    generator = torch.Generator().manual_seed(0) if own_generator else None
    loader = DataLoader(numbers, batch_size=4, shuffle=True, generator=generator)
    orders.append([batch.tolist() for (batch,) in loader])
print("global generator:", orders[0], "then", orders[1])
print("own generator:   ", orders[2], "then", orders[3])

# %%
# .. check:: cuDNN benchmarking is off; a pass draws from ``generator``, whose own order holds
assert not torch.backends.cudnn.benchmark
if __name__ == "__main__" and torch.cuda.is_available():
    if torch.__version__ < (2, 13):  # older releases check it at the first call
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    with torch.random.fork_rng(devices=[torch.cuda.current_device()]):
        _a, _b = torch.rand(8, 8, device="cuda"), torch.rand(8, 8, device="cuda")
    _a @ _b  # 2.13: no need
generator = torch.Generator().manual_seed(0)
list(DataLoader(numbers, generator=generator))  # no workers, no shuffle: a draw
assert generator.get_state().ne(torch.Generator().manual_seed(0).get_state()).any()
assert orders[0] != orders[1]
assert orders[2] == orders[3]

# %%
# Worker ``i`` seeds its own PyTorch generator and Python's :mod:`random` with
# the base seed plus ``i``, and NumPy's global generator with a number derived
# from both, then calls ``worker_init_fn(i)``, the place to seed anything else
# a data set draws from. PyTorch's notes give this recipe, which seeds Python's
# and NumPy's generators again from the worker's PyTorch seed: it changes which
# numbers they draw, not whether they repeat.


def seed_worker_recipe(worker_id: int) -> None:
    worker_seed = torch.initial_seed() % 2**32
    np.random.seed(worker_seed)
    random.seed(worker_seed)


# %%
# .. check:: worker ``i`` seeds from the base seed plus ``i``; the recipe reseeds from that seed
_random_state, _numpy_state = random.getstate(), np.random.get_state()
for init in (seed_worker_recipe, seed_worker):  # the same recipe
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(2**32 + 7)
        init(0)
    assert random.random() == random.Random(7).random()
    assert np.random.rand() == np.random.RandomState(7).rand()
random.setstate(_random_state)
np.random.set_state(_numpy_state)
if __name__ == "__main__" and "fork" in multiprocessing.get_all_start_methods():

    class Draws(torch.utils.data.Dataset):  # what each worker's generators give
        def __getitem__(self, index):
            return torch.initial_seed(), random.random(), float(np.random.rand())

    def worker_draws(init=None):  # samples 0 and 2 from worker 0, 1 and 3 from 1
        loader = DataLoader(Draws(), None, sampler=range(4), num_workers=2)
        loader.multiprocessing_context = "fork"
        loader.worker_init_fn, loader.generator = init, torch.Generator().manual_seed(5)
        return list(loader)

    base = torch.empty((), dtype=torch.int64)
    base = base.random_(generator=torch.Generator().manual_seed(5)).item()
    plain, recipe = worker_draws(), worker_draws(seed_worker)
    assert plain == worker_draws()  # the same generator seed, the same draws
    assert [s for s, _, _ in plain] == [base, base + 1, base, base + 1]
    for worker, (_, first_random, _) in enumerate(plain[:2]):
        assert first_random == random.Random(base + worker).random()
    assert plain[0][2] != plain[1][2]  # NumPy's seeds differ too
    for worker_seed, first_random, first_numpy in recipe[:2]:
        assert first_random == random.Random(worker_seed % 2**32).random()
        assert first_numpy == np.random.RandomState(worker_seed % 2**32).rand()

# %%
# :func:`~tutorial_utils.reproducibility.seed_worker` is the same recipe,
# kept in a module because workers started with the ``spawn`` or
# ``forkserver`` :term:`start method` do not inherit the main process's
# memory. They receive the data set and ``worker_init_fn`` pickled, and
# pickle stores a function by its module and name, not its code: a fresh
# Python imports ``tutorial_utils.reproducibility`` to find ``seed_worker``,
# but finds a function defined in ``__main__`` only by running the script
# again, as both methods do (hence the guard of
# :ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py`);
# a notebook has no script to run. Loading the recipe above in a fresh Python:
#
# .. detail:: Default start methods
#
#    ``spawn`` is the default on macOS and Windows, and ``forkserver`` on
#    Linux from Python 3.14.
if __name__ == "__main__":
    pickled = pickle.dumps(seed_worker_recipe)
    load = "import pickle, sys; pickle.load(sys.stdin.buffer)"
    fresh = subprocess.run(
        [sys.executable, "-c", load], input=pickled, capture_output=True, check=False
    )
    print(fresh.stderr.decode().strip().splitlines()[-1])

# %%
# .. check:: the default start methods are as stated; a fresh Python cannot find the recipe
if __name__ == "__main__" and sys.platform in ("darwin", "win32", "linux"):
    on_linux = "forkserver" if sys.version_info >= (3, 14) else "fork"
    default = on_linux if sys.platform == "linux" else "spawn"
    assert multiprocessing.get_start_method() == default
if __name__ == "__main__":
    assert b"__main__" in pickled  # stored by module and name
    assert fresh.returncode != 0
    assert b"seed_worker_recipe" in fresh.stderr

# %%
# Two identical runs
# ------------------
# A small network with dropout, trained on the handwritten digits for two
# epochs: the seed fixes its initial weights and dropout masks, and, through
# the loader's ``generator``, the batch order and the workers' seeds (this
# data set draws no random numbers in the workers; a random augmentation
# would). It returns the losses and the trained weights as one vector.


def train_run(
    dataset: TensorDataset, seed: int, start_method: str | None = None, epochs: int = 2
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
        persistent_workers=True,  # start the workers once, not every epoch
        generator=torch.Generator().manual_seed(seed),
        worker_init_fn=seed_worker,
        multiprocessing_context=start_method,  # None: Python's default
    )
    losses = []
    for _ in range(epochs):
        for features, labels in loader:
            optimizer.zero_grad()
            loss = F.cross_entropy(model(features), labels)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
    return losses, torch.nn.utils.parameters_to_vector(model.parameters()).detach()


# %%
# Two runs with seed 0, one with seed 1, with Python's default start method,
# then a fourth with seed 0 and ``spawn``, which works because the data
# set's class and ``worker_init_fn`` can be imported. The guard keeps the
# runs out of the processes that ``spawn`` or ``forkserver`` start: run as
# a script, such a process runs the unguarded code again (the short examples).
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
# The second run and the ``spawn`` run match the first in every bit, loss
# after loss; seed 1 starts elsewhere and ends elsewhere.
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
# The start method changed nothing here, as this data set's workers need
# no setting. A ``spawn`` worker is a fresh Python: a setting this process
# made while running, like the default dtype below, stays behind (run as a
# script, the worker also runs the script's unguarded top-level code again).
# Make such settings in ``worker_init_fn`` if the workers need them.
if __name__ == "__main__":
    torch.set_default_dtype(torch.float64)  # in this process only
    probe = DataLoader([3], None, collate_fn=torch.empty, num_workers=1)
    probe.multiprocessing_context = "spawn"
    (in_worker,) = list(probe)
    torch.set_default_dtype(torch.float32)
    print("default dtype in a spawn worker:", in_worker.dtype)

# %%
# .. check:: the default dtype set in this process stays behind in a ``spawn`` worker
if __name__ == "__main__":
    assert in_worker.dtype == torch.float32  # not float64

# %%
# What PyTorch promises
# ---------------------
# Less than these runs might suggest. PyTorch's notes on reproducibility say
# that completely reproducible results are not guaranteed across PyTorch
# releases, individual commits or platforms, nor between CPU and GPU, even
# with identical seeds; they show how to limit nondeterminism for one
# platform, device and release, as this page did. One reason: another build,
# CPU or GPU may run another kernel, which adds the same numbers in another
# order, and rounding after every addition makes the result depend on the
# order. An extreme case, in float32, where ``1e8 + 1`` rounds back to ``1e8``:
big, one = torch.tensor(1e8), torch.tensor(1.0)
print("(1e8 + 1) - 1e8 =", ((big + one) - big).item())
print("(1e8 - 1e8) + 1 =", ((big - big) + one).item())

# %%
# .. check:: in float32 the order of the additions changes the result
assert (big + one) - big == 0
assert (big - big) + one == 1

# %%
# So keep what produced a run's numbers next to them: the line that opened
# this page; the vector instructions PyTorch chose CPU kernels for, which
# that line does not name (:func:`torch.backends.cpu.get_cpu_capability`;
# with another, one seed can draw other last bits); and, for an NVIDIA GPU,
# the versions of CUDA and of cuDNN, neither of which a CPU build has.
#
# .. detail:: ROCm builds
#
#    For ROCm on AMD GPUs, keep the version of HIP in place of CUDA's. A ROCm
#    build fills cuDNN's place with MIOpen's version.
capability = torch.backends.cpu.get_cpu_capability()
cudnn = torch.backends.cudnn.version()
print("CPU capability:", capability)
print("CUDA:", torch.version.cuda, "| HIP:", torch.version.hip, "| cuDNN:", cudnn)

# %%
# .. check:: the capability, missing from the first line, can change draws; a CPU build has no cuDNN
assert torch.version.cuda or torch.version.hip or cudnn is None
assert capability not in environment_summary(device)
if __name__ == "__main__" and capability in ("AVX2", "AVX512"):
    draw = "import torch; torch.manual_seed(0); print(torch.randn(64).tolist())"
    env = {**os.environ, "ATEN_CPU_CAPABILITY": "default"}  # no AVX kernels
    plain = subprocess.check_output([sys.executable, "-c", draw], env=env, text=True)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        assert plain.strip() != str(torch.randn(64).tolist())
if __name__ == "__main__" and torch.cuda.is_available():  # CPU and GPU differ
    assert torch.version.hip is None or cudnn is not None  # MIOpen's version
    with torch.random.fork_rng(devices=[torch.cuda.current_device()]):
        torch.manual_seed(0)
        on_gpu = torch.rand(4, device="cuda").cpu()
        assert torch.cuda.initial_seed() == 0  # manual_seed reached the GPU
        torch.manual_seed(0)
        assert not torch.equal(on_gpu, torch.rand(4))

# %%
# Summary
# -------
# - Seed Python's :mod:`random`, NumPy's global generator and PyTorch
#   (:func:`torch.manual_seed`, every device), or call
#   :func:`~tutorial_utils.reproducibility.seed_everything`.
# - :func:`torch.use_deterministic_algorithms` makes the operations it lists
#   deterministic, or raise. On CUDA keep cuDNN benchmarking off, and with
#   older releases such as 2.4 set ``CUBLAS_WORKSPACE_CONFIG``.
# - A loader's ``generator`` fixes the shuffle and its workers' seeds;
#   ``worker_init_fn`` seeds other libraries, and makes settings, in each
#   worker. With ``spawn`` or ``forkserver`` it must be importable, as
#   :func:`~tutorial_utils.reproducibility.seed_worker` is, and a script
#   must guard the code that starts workers.
# - These runs repeated bit for bit on one build and machine; PyTorch's
#   notes show how to limit nondeterminism there, and promise nothing
#   across releases, platforms, or CPU and GPU.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_08_saving_and_loading.py`,
# which saves a trained model and loads it back, safely. Exercises for this
# page: :ref:`exercises-training-07`.
