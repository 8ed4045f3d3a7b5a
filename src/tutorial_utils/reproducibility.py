"""Seed the random number generators pages use, and reset PyTorch's settings.

Two runs of a page print the same numbers only if they start from the same
state. :func:`seed_everything` seeds Python's :mod:`random`, NumPy's global
generator and PyTorch's generators (CPU and every accelerator) at once;
:func:`reset_global_state` also puts back defaults that a page may have
changed: default :term:`dtype` and device, grad mode, anomaly detection,
deterministic algorithms, print options and float32 matmul precision.
"""

from __future__ import annotations

import random

import numpy as np
import torch

__all__ = ["MAX_SEED", "reset_global_state", "seed_everything"]

#: The largest seed that all three generators accept. NumPy's legacy global
#: generator takes seeds from 0 to 2**32 - 1; Python and PyTorch take larger.
MAX_SEED = 2**32 - 1


def seed_everything(seed: int) -> int:
    """Seed Python's :mod:`random`, NumPy's global generator and PyTorch.

    :func:`torch.manual_seed` seeds the CPU and every accelerator. The same
    seed gives the same CPU numbers on the same PyTorch version and the same
    kind of CPU; PyTorch does not promise them across releases or platforms
    (the vectorised code a CPU runs can change the last bits of
    :func:`torch.randn`). Accelerators draw from their own generators: their
    numbers differ from the CPU's. NumPy :class:`numpy.random.Generator`
    objects made with :func:`numpy.random.default_rng` are not seeded.

    Parameters
    ----------
    seed : int
        A whole number from 0 to :data:`MAX_SEED`.

    Returns
    -------
    int
        The seed, so a page can print what it used.

    Raises
    ------
    TypeError
        If `seed` is not an int or a NumPy integer (a bool or a float is
        refused too).
    ValueError
        If `seed` is negative or larger than :data:`MAX_SEED`.

    Examples
    --------
    >>> _ = seed_everything(0)
    >>> torch.rand(1)
    tensor([0.4963])
    >>> seed_everything(-1)
    Traceback (most recent call last):
    ...
    ValueError: seed must be between 0 and 4294967295; got -1
    """
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise TypeError(
            f"seed must be an int from 0 to {MAX_SEED}; "
            f"got {type(seed).__name__} {seed!r}"
        )
    seed = int(seed)
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be between 0 and {MAX_SEED}; got {seed}")
    random.seed(seed)
    np.random.seed(seed)  # noqa: NPY002 - the legacy global generator is what readers' code uses
    torch.manual_seed(seed)
    return seed


def reset_global_state(seed: int = 0) -> None:
    """Put PyTorch's global settings back to their defaults, then seed.

    The documentation build calls this before every page, so a page starts
    from the same state whatever ran before it. It resets the default dtype
    (``float32``) and device (CPU), turns gradient tracking on and anomaly
    detection off, allows non-deterministic algorithms, restores print
    options and float32 matmul precision, then calls :func:`seed_everything`.

    Parameters
    ----------
    seed : int, default 0
        Passed to :func:`seed_everything`.

    Examples
    --------
    >>> torch.set_default_dtype(torch.float64)
    >>> reset_global_state()
    >>> torch.get_default_dtype()
    torch.float32
    """
    torch.set_default_dtype(torch.float32)
    torch.set_default_device(None)
    torch.set_grad_enabled(True)
    torch.autograd.set_detect_anomaly(False)
    torch.use_deterministic_algorithms(False)
    torch.set_printoptions(profile="default", sci_mode=None)  # type: ignore[no-untyped-call]
    torch.set_float32_matmul_precision("highest")
    seed_everything(seed)
