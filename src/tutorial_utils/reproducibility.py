"""Seed the random number generators, and put PyTorch's global settings back.

- :func:`seed_everything` seeds Python's :mod:`random`, NumPy's global
  generator and PyTorch's generators (CPU and every accelerator) with one
  seed.
- :func:`seed_worker` is a ``worker_init_fn`` for
  :class:`~torch.utils.data.DataLoader`: PyTorch's documented recipe, which
  seeds Python's :mod:`random` and NumPy's global generator in each worker
  process from that worker's PyTorch seed. Because it lives in a module, a
  worker started with the ``"spawn"`` or ``"forkserver"`` method (the
  defaults on macOS and Windows, and on Linux from Python 3.14) can import
  it.
- :func:`reset_global_state` puts back defaults that a page may have
  changed: default :term:`dtype` and device, grad mode, anomaly detection,
  deterministic algorithms, print options and float32 matmul precision;
  then it seeds, with :func:`seed_everything`. The documentation build calls
  it before every page, so that two runs of a page print the same numbers.
"""

from __future__ import annotations

import random

import numpy as np
import torch

from tutorial_utils._checks import check_int

__all__ = ["reset_global_state", "seed_everything", "seed_worker"]

# The largest seed that all three generators accept. NumPy's legacy global
# generator takes seeds from 0 to 2**32 - 1; Python and PyTorch take larger.
_MAX_SEED = 2**32 - 1


def seed_everything(seed: int) -> int:
    """Seed Python's :mod:`random`, NumPy's global generator and PyTorch.

    The same three calls a script would write::

        random.seed(seed)
        np.random.seed(seed)
        torch.manual_seed(seed)

    :func:`torch.manual_seed` seeds the CPU generator and those of every
    accelerator. Not seeded: generators made by the program itself, such as a
    :class:`torch.Generator` or a :func:`numpy.random.default_rng`, and other
    libraries' generators. Seeding does not make operations deterministic:
    see :func:`torch.use_deterministic_algorithms`.

    Parameters
    ----------
    seed : int
        A whole number from 0 to ``2**32 - 1``, the largest seed NumPy's
        global generator takes; a NumPy integer is accepted too.

    Returns
    -------
    int
        The seed, as a Python int.

    Raises
    ------
    TypeError
        If `seed` is not an int or a NumPy integer (a bool or a float is
        refused too).
    ValueError
        If `seed` is negative or larger than ``2**32 - 1``.

    Examples
    --------
    >>> seed_everything(0)
    0
    >>> random.random(), float(np.random.rand()), torch.rand(1)
    (0.8444218515250481, 0.5488135039273248, tensor([0.4963]))
    >>> seed_everything(-1)
    Traceback (most recent call last):
    ...
    ValueError: seed must be between 0 and 4294967295; got -1
    """
    seed = check_int("seed", seed, minimum=0, maximum=_MAX_SEED)
    random.seed(seed)
    np.random.seed(seed)  # noqa: NPY002 - the legacy global generator is what readers' code uses
    torch.manual_seed(seed)
    return seed


def seed_worker(worker_id: int) -> int:
    """Seed Python's :mod:`random` and NumPy's global generator from PyTorch's.

    Pass it as ``worker_init_fn`` to a :class:`~torch.utils.data.DataLoader`
    with ``num_workers > 0``: each worker process calls it with its id, after
    PyTorch has seeded the worker's own PyTorch generator with the loader's
    base seed plus the id. This is the recipe of PyTorch's notes on
    reproducibility::

        worker_seed = torch.initial_seed() % 2**32
        numpy.random.seed(worker_seed)
        random.seed(worker_seed)

    The loader draws the base seed from its ``generator`` (or, without one,
    from PyTorch's global generator) each time it starts its workers: every
    pass over it, or only the first with ``persistent_workers=True``. So
    seeding that generator fixes every worker's seeds. PyTorch also seeds
    each worker's :mod:`random` and NumPy generators itself, from the base
    seed and the id; this recipe replaces those seeds with the worker's
    PyTorch seed. Unlike a function defined in a notebook or an interactive
    session, this one can be imported by a worker started with the
    ``"spawn"`` or ``"forkserver"`` method, which receives it pickled, by
    module and name.

    Parameters
    ----------
    worker_id : int
        The worker's id, from 0 to ``num_workers - 1``; the seed does not
        depend on it (PyTorch's seed of the worker already does).

    Returns
    -------
    int
        The seed given to Python's and NumPy's generators.

    Raises
    ------
    TypeError
        If `worker_id` is not an int (a bool or a float is refused too).
    ValueError
        If `worker_id` is negative.

    Examples
    --------
    Called in the main process, it seeds from the global PyTorch seed:

    >>> _ = torch.manual_seed(2**32 + 5)
    >>> seed_worker(0)
    5
    >>> random.random() == random.Random(5).random()
    True
    """
    check_int("worker_id", worker_id, minimum=0)
    worker_seed = torch.initial_seed() % 2**32
    np.random.seed(worker_seed)  # noqa: NPY002 - the generator a dataset's code uses
    random.seed(worker_seed)
    return worker_seed


def reset_global_state(seed: int = 0) -> None:
    """Put PyTorch's global settings back to their defaults, then seed.

    The documentation build calls this before every page, so a page starts
    from the same state whatever ran before it. It resets the default dtype
    (``float32``) and device (CPU), turns gradient tracking on and anomaly
    detection off, allows non-deterministic algorithms, restores print
    options and float32 matmul precision, then seeds Python's :mod:`random`,
    NumPy's global generator and PyTorch's generators with `seed`, through
    :func:`seed_everything`.

    :func:`torch.manual_seed` seeds the CPU and every accelerator. The same
    seed gives the same CPU numbers on the same PyTorch version and the same
    kind of CPU; PyTorch does not promise them across releases or platforms
    (the vectorised code a CPU runs can change the last bits of
    :func:`torch.randn`). Accelerators draw from their own generators: their
    numbers differ from the CPU's. NumPy :class:`numpy.random.Generator`
    objects made with :func:`numpy.random.default_rng` are not seeded.

    Parameters
    ----------
    seed : int, default 0
        A whole number from 0 to ``2**32 - 1``, the largest seed NumPy's
        global generator takes; a NumPy integer is accepted too.

    Raises
    ------
    TypeError
        If `seed` is not an int or a NumPy integer (a bool or a float is
        refused too).
    ValueError
        If `seed` is negative or larger than ``2**32 - 1``.

    Examples
    --------
    >>> torch.set_default_dtype(torch.float64)
    >>> reset_global_state()
    >>> torch.get_default_dtype()
    torch.float32
    >>> torch.rand(1)
    tensor([0.4963])
    """
    torch.set_default_dtype(torch.float32)
    torch.set_default_device(None)
    torch.set_grad_enabled(True)
    torch.autograd.set_detect_anomaly(False)
    if (
        torch.are_deterministic_algorithms_enabled()
        or torch.is_deterministic_algorithms_warn_only_enabled()
    ):
        # Only when a page turned them on: the call imports TorchInductor's
        # settings (about a second) to turn its deterministic mode off too.
        torch.use_deterministic_algorithms(False)
    torch.set_printoptions(profile="default", sci_mode=None)  # type: ignore[no-untyped-call]
    torch.set_float32_matmul_precision("highest")
    seed_everything(seed)
