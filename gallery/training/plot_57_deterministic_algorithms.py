"""
Deterministic algorithms and worker seeds
=========================================

After this page you can ask PyTorch for deterministic algorithms, and say
which operations refuse. You can also say how a data loader seeds each
worker, and what PyTorch promises about a run on another machine.
A first reading can skip this in-depth page.

**Before this page:**
:ref:`sphx_glr_auto_examples_training_plot_07_reproducible_runs.py` and
:ref:`sphx_glr_auto_examples_training_plot_52_loader_order_and_workers.py`.
"""

# sphinx_gallery_budget_seconds = 25, "starts four fresh Pythons, three of which import PyTorch"

# %%
# This page computes on the CPU. What it says about GPUs follows PyTorch's
# documentation.
import functools
import multiprocessing
import os
import pickle
import random
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import torch
from torch.utils.data import DataLoader

from tutorial_utils.colours import PALETTE
from tutorial_utils.environment import environment_summary
from tutorial_utils.reproducibility import seed_worker

device = torch.device("cpu")
print(environment_summary(device))

# %%
# The order of additions
# ----------------------
# Seeds fix the random numbers, not the arithmetic. A float32 sum is rounded
# after every addition. So the same numbers, added in another order, can
# give another result. In float32, even ``1e8 + 1`` rounds back to
# ``1e8``.
big, one = torch.tensor(1e8), torch.tensor(1.0)
print("(1e8 + 1) - 1e8 =", ((big + one) - big).item())
print("(1e8 - 1e8) + 1 =", ((big - big) + one).item())

# %%
# .. check:: in float32 the order of the additions changes the result
assert (big + one) - big == 0
assert (big - big) + one == 1

# %%
# Below, 1,000 random float32 numbers are summed 200 times, each time in
# another order from :func:`torch.randperm`. Each sum is compared with the
# float64 sum, which ``.double()`` gives. ``ax.hist`` draws how many sums fall
# in each small range of errors.
torch.manual_seed(0)
values = torch.randn(1000)
exact = values.double().sum()
sums = torch.stack([values[torch.randperm(1000)].sum() for _ in range(200)])
errors = (sums.double() - exact).tolist()
print(len(set(errors)), "different sums; largest error:", max(map(abs, errors)))
fig, ax = plt.subplots(figsize=(6, 3), layout="constrained")
ax.hist(errors, bins=40, color=PALETTE[5])
ax.set(xlabel="float32 sum minus float64 sum", ylabel="number of orders")
ax.set_title("the same 1,000 numbers, summed in 200 orders")
plt.show()

# %%
# .. check:: the orders give several sums, each within a relative 1e-5
assert len(set(errors)) > 1
assert max(map(abs, errors)) < 1e-5 * abs(exact.item())

# %%
# Deterministic algorithms
# ------------------------
# Some :term:`kernels <kernel>` add up their results in an order that
# changes from call to call. Most are GPU kernels, where many threads add to
# one memory location at once.
#
# :func:`torch.use_deterministic_algorithms` with ``True`` makes the operations
# its documentation lists use a deterministic alternative. Where there is
# none, they raise a :class:`RuntimeError`.
# :func:`torch.are_deterministic_algorithms_enabled` says whether it is on.
#
# A few raise on the CPU too, such as :meth:`torch.Tensor.put_`.
# ``target.put_(index, values)`` writes ``values`` at the positions ``index``
# of ``target``, read as one flat row. With ``accumulate=False``, its
# default, it raises, even where no index repeats.
#
# .. detail:: Others on the CPU
#
#    In 2.4 as in 2.13, two more raise on the CPU; the check tests them.
#    One is ``resize_`` of a quantized tensor, which stores small integers
#    and a scale. Max pooling keeps the largest value of each small block;
#    :class:`torch.nn.MaxUnpool2d`, the other, puts those values back. Its
#    1-d and 3-d siblings raise too. Where an index of ``put_`` repeats,
#    which value lands is open.
#
# Indexed assignment, ``index_put_``, has a deterministic version. Where an
# index repeats, the last value is written. The cell prints the error's
# first sentence:
torch.use_deterministic_algorithms(True)
print("deterministic algorithms:", torch.are_deterministic_algorithms_enabled())
target = torch.zeros(4)
try:
    target.put_(torch.tensor([0, 1]), torch.tensor([1.0, 2.0]))  # no repeats
except RuntimeError as error:
    print(str(error).split(". ")[0])
else:
    raise AssertionError("put_ did not raise in deterministic mode")
target[torch.tensor([0, 0])] = torch.tensor([1.0, 2.0])  # index 0 twice: no error
print("index assignment works:", target)

# %%
# .. check:: the last repeat is written; a quantized ``resize_`` and ``MaxUnpool`` raise
assert target.tolist() == [2.0, 0.0, 0.0, 0.0]
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # 2.13 deprecates quantized tensors
    quantized = torch.quantize_per_tensor(torch.zeros(4), 0.1, 0, torch.quint8)
raising = [functools.partial(quantized.resize_, 8)]
for dims in (1, 2, 3):
    pool = getattr(torch.nn, f"MaxPool{dims}d")(2, return_indices=True)
    pooled = pool(torch.arange(4.0**dims).reshape((1, 1) + (4,) * dims))
    unpool = getattr(torch.nn, f"MaxUnpool{dims}d")(2)
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
# With ``warn_only=True``, such an operation runs and warns instead.
# :class:`warnings.catch_warnings` with ``record=True`` collects the
# warnings; each one's ``category`` is its class. Calling the function again
# with ``True`` alone turns ``warn_only`` off.
#
# The mode also fills the memory from :func:`torch.empty` with NaN, for
# floating-point tensors, so a mistaken read repeats. On by default,
# ``torch.utils.deterministic.fill_uninitialized_memory`` controls this.
torch.use_deterministic_algorithms(True, warn_only=True)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    target.put_(torch.tensor([0, 1]), torch.tensor([1.0, 2.0]))
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
# ``False``. cuDNN is NVIDIA's library of neural-network kernels. It has
# several algorithms for a convolution, a layer of image models. With
# ``True``, cuDNN times them and keeps the fastest; the choice can differ
# from run to run.
#
# .. detail:: cuDNN and cuBLAS in deterministic mode
#
#    Deterministic mode makes cuDNN choose deterministic algorithms, PyTorch's
#    notes say. cuBLAS is NVIDIA's matrix library. In older releases, 2.4 among
#    them, its calls raise in deterministic mode with CUDA 10.2 or later,
#    unless ``CUBLAS_WORKSPACE_CONFIG`` is ``:4096:8`` or ``:16:8`` before
#    cuBLAS is first called. 2.13 no longer asks.

# %%
# .. check:: cuDNN benchmarking is off by default; 2.13 needs no cuBLAS setting
assert not torch.backends.cudnn.benchmark
if torch.cuda.is_available():
    if torch.__version__ < (2, 13):  # older releases check it at the first call
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    torch.ones(8, 8, device="cuda") @ torch.ones(8, 8, device="cuda")  # 2.13: no need

# %%
# How a loader seeds its workers
# ------------------------------
# Each pass over a loader, each :term:`epoch`, starts by drawing a base seed
# from its ``generator``, even with ``num_workers=0``. With
# ``persistent_workers=True``, only the first pass draws one: the workers
# start once. Then worker ``i``:
#
# 1. seeds its PyTorch generator and Python's :mod:`random` with the base
#    seed plus ``i``;
# 2. seeds NumPy's global generator with a number made from both;
# 3. calls ``worker_init_fn(i)``.
#
# The site's ``seed_worker`` is a recipe of PyTorch's notes. It reseeds
# Python and NumPy from the worker's PyTorch seed, :func:`torch.initial_seed`,
# so one seed sets all three. NumPy takes seeds below ``2**32``: ``% 2**32``
# keeps the remainder. Steps 1 and 2 already seed each worker from the base
# seed and its id. So one ``generator`` seed repeats the draws with or
# without the recipe; it only picks other seeds. ``seed_worker_recipe`` is
# this page's copy of it, for the next section.


def seed_worker_recipe(worker_id: int) -> None:
    worker_seed = torch.initial_seed() % 2**32
    np.random.seed(worker_seed)
    random.seed(worker_seed)


# %%
# .. check:: worker ``i`` seeds from base seed plus ``i``; the recipe reseeds; drawn once if persistent
_random_state, _numpy_state = random.getstate(), np.random.get_state()
for init in (seed_worker_recipe, seed_worker):  # the same recipe
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(2**32 + 7)
        init(0)
    assert random.random() == random.Random(7).random()
    assert np.random.rand() == np.random.RandomState(7).rand()
random.setstate(_random_state)
np.random.set_state(_numpy_state)
_generator = torch.Generator().manual_seed(0)
list(DataLoader(range(4), generator=_generator))  # no workers, no shuffle: a draw
assert _generator.get_state().ne(torch.Generator().manual_seed(0).get_state()).any()
if "fork" in multiprocessing.get_all_start_methods():

    class Draws(torch.utils.data.Dataset):  # what each worker's generators give
        def __getitem__(self, index):
            draw = float(np.random.rand())
            return torch.initial_seed(), random.random(), draw

    def worker_draws(init=None):  # samples 0 and 2 from worker 0, 1 and 3 from 1
        loader = DataLoader(Draws(), None, sampler=range(4), num_workers=2)
        loader.multiprocessing_context = "fork"
        loader.worker_init_fn, loader.generator = init, torch.Generator().manual_seed(5)
        return list(loader)

    base = torch.empty((), dtype=torch.int64)
    base = base.random_(generator=torch.Generator().manual_seed(5)).item()
    plain, recipe = worker_draws(), worker_draws(seed_worker)
    assert (plain, recipe) == (worker_draws(), worker_draws(seed_worker))  # repeat
    assert [s for s, _, _ in plain] == [base, base + 1, base, base + 1]
    for worker, (_, first_random, _) in enumerate(plain[:2]):
        assert first_random == random.Random(base + worker).random()
    assert plain[0][2] != plain[1][2]  # NumPy's seeds differ too
    assert plain != recipe  # the recipe picks other seeds
    for worker_seed, first_random, first_numpy in recipe[:2]:
        assert first_random == random.Random(worker_seed % 2**32).random()
        assert first_numpy == np.random.RandomState(worker_seed % 2**32).rand()
    _persistent = functools.partial(DataLoader, num_workers=1, persistent_workers=True)
    for shuffle in (False, True):  # a shuffling sampler draws each pass
        _loader = _persistent(range(2), shuffle=shuffle, generator=torch.Generator())
        _loader.multiprocessing_context = "fork"
        list(_loader)
        _after_first = _loader.generator.get_state()
        list(_loader)
        assert torch.equal(_loader.generator.get_state(), _after_first) != shuffle
        del _loader  # shuts its worker down

# %%
# Why ``seed_worker`` lives in a module
# -------------------------------------
# A ``spawn`` or ``forkserver`` worker receives the data set and
# ``worker_init_fn`` pickled. :mod:`pickle` stores a function by its module and
# name, not its code. A fresh Python imports ``tutorial_utils.reproducibility``
# to find ``seed_worker``. It finds a function of ``__main__`` only by running
# the script again, as ``spawn`` and ``forkserver`` do. A notebook has no script.
#
# Below, ``pickle.dumps`` stores the recipe. :func:`subprocess.run` starts a
# fresh Python, ``sys.executable``, with the bytes as its standard input.
# ``capture_output=True`` keeps what it prints. It fails in ``pickle.load``;
# the cell prints the last line of its ``stderr``:
pickled = pickle.dumps(seed_worker_recipe)
load = "import pickle, sys; pickle.load(sys.stdin.buffer)"
fresh = subprocess.run(
    [sys.executable, "-c", load], input=pickled, capture_output=True, check=False
)
print(fresh.stderr.decode().strip().splitlines()[-1])

# %%
# .. check:: the recipe is stored by module and name; a fresh Python cannot find it
assert b"__main__" in pickled  # stored by module and name
assert fresh.returncode != 0
assert b"seed_worker_recipe" in fresh.stderr

# %%
# A ``spawn`` worker is a fresh Python. So a setting made under the
# ``__main__`` guard stays behind, such as the default dtype from
# :func:`torch.set_default_dtype`. Make such settings in
# ``worker_init_fn`` if the workers need them.
#
# The probe below writes a script with ``write_text``, runs it in a
# fresh Python and prints its ``stdout``:
#
# 1. The script prints ``__name__`` in its unguarded first line.
# 2. Under the guard, it sets the default dtype to float64.
# 3. It loads one sample, 3, in a ``spawn`` worker, which reruns the script
#    as ``__mp_main__``: only the unguarded line runs.
# 4. With ``batch_size=None``, the worker passes the sample alone to the
#    collate function.
# 5. That function is ``torch.empty``.
# 6. ``torch.empty(3)`` makes 3 elements in the worker's default dtype.
probe_script = """
import torch
from torch.utils.data import DataLoader
print("unguarded code runs in", __name__, flush=True)
if __name__ == "__main__":
    torch.set_default_dtype(torch.float64)
    loader = DataLoader([3], batch_size=None, collate_fn=torch.empty, num_workers=1)
    loader.multiprocessing_context = "spawn"
    (in_worker,) = list(loader)
    print("default dtype:", torch.get_default_dtype(), "| in the worker:", in_worker.dtype)
"""
with tempfile.TemporaryDirectory() as folder:
    path = Path(folder) / "probe.py"
    path.write_text(probe_script)
    probe = subprocess.run([sys.executable, path], capture_output=True, check=True)
print(probe.stdout.decode().strip())

# %%
# .. check:: the default dtype stays behind; a ``spawn`` worker reruns a script
lines = ["unguarded code runs in __main__", "unguarded code runs in __mp_main__"]
lines.append("default dtype: torch.float64 | in the worker: torch.float32")
assert probe.stdout.decode().splitlines() == lines

# %%
# What PyTorch promises
# ---------------------
# PyTorch's notes on reproducibility do not guarantee the same results across
# releases, commits or platforms, nor between CPU and GPU, even with the same
# seeds. Another build, CPU or GPU may run another kernel, which adds the same
# numbers in another order. So keep what produced a run's numbers next to them:
#
# 1. the CPU thread count, printed first on this page. It can change a sum;
# 2. the CPU capability, from :func:`torch.backends.cpu.get_cpu_capability`.
#    It names the vector instructions PyTorch's CPU kernels use. Each acts on
#    several numbers at once. With another, one seed can draw other last bits;
# 3. for an NVIDIA GPU, the version of CUDA, ``torch.version.cuda``, and
#    that of cuDNN, from ``torch.backends.cudnn.version()``. A CPU build
#    has neither.
#
# .. detail:: ROCm builds
#
#    ROCm builds for AMD GPUs use HIP in place of CUDA, and MIOpen in place
#    of cuDNN. Keep ``torch.version.hip``; cuDNN's version is then MIOpen's.
capability = torch.backends.cpu.get_cpu_capability()
cudnn = torch.backends.cudnn.version()
print("CPU capability:", capability)
print("CUDA:", torch.version.cuda, "| HIP:", torch.version.hip, "| cuDNN:", cudnn)

# %%
# .. check:: threads and the capability can change sums; a CPU build has no cuDNN
_threads, _sums = torch.get_num_threads(), set()
for _n in (1, 2, 3, 4, 8):
    torch.set_num_threads(_n)
    _sums.add(values.repeat(1001).sum().item())
torch.set_num_threads(_threads)
assert len(_sums) > 1
assert f"{_threads} CPU thread" in environment_summary(device)
assert torch.version.cuda or torch.version.hip or cudnn is None
assert capability not in environment_summary(device)
if capability in ("AVX2", "AVX512"):
    draw = "import torch; torch.manual_seed(0); print(torch.randn(64).tolist())"
    env = {**os.environ, "ATEN_CPU_CAPABILITY": "default"}  # no AVX kernels
    plain = subprocess.check_output([sys.executable, "-c", draw], env=env, text=True)
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(0)
        assert plain.strip() != str(torch.randn(64).tolist())
if torch.cuda.is_available():  # CPU and GPU differ
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
# - :func:`torch.use_deterministic_algorithms` makes the operations it lists
#   deterministic, or makes them raise.
# - A loader seeds each worker's three generators from one base seed, drawn
#   from its ``generator``. ``worker_init_fn`` runs after that.
# - A ``spawn`` worker finds ``worker_init_fn`` by module and name, and
#   does not inherit this process's settings.
# - PyTorch promises no repeat across releases, platforms, or CPU and GPU.
#
# Exercises for the reproducible runs page: :ref:`exercises-training-07`.
# Next in depth:
# :ref:`sphx_glr_auto_examples_training_plot_58_safe_loading_and_safetensors.py`.
