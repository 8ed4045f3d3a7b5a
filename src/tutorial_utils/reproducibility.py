"""Put PyTorch's global settings back to their defaults, and seed.

Two runs of a page print the same numbers only if they start from the same
state. :func:`reset_global_state` puts back defaults that a page may have
changed: default :term:`dtype` and device, grad mode, anomaly detection,
deterministic algorithms, print options and float32 matmul precision; then
it seeds Python's :mod:`random`, NumPy's global generator and PyTorch's
generators (CPU and every accelerator).
"""

from __future__ import annotations

import random

import numpy as np
import torch

from tutorial_utils._checks import check_int

__all__ = ["reset_global_state"]

# The largest seed that all three generators accept. NumPy's legacy global
# generator takes seeds from 0 to 2**32 - 1; Python and PyTorch take larger.
_MAX_SEED = 2**32 - 1


def _seed_everything(seed: int) -> int:
    """Seed Python's :mod:`random`, NumPy's global generator and PyTorch.

    Returns the seed as an int. A bool or a float is refused (TypeError), and
    so is a seed outside 0 to ``2**32 - 1`` (ValueError).

    Examples
    --------
    >>> _ = _seed_everything(0)
    >>> torch.rand(1)
    tensor([0.4963])
    >>> _seed_everything(-1)
    Traceback (most recent call last):
    ...
    ValueError: seed must be between 0 and 4294967295; got -1
    """
    seed = check_int("seed", seed, minimum=0, maximum=_MAX_SEED)
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
    options and float32 matmul precision, then seeds Python's :mod:`random`,
    NumPy's global generator and PyTorch's generators with `seed`.

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
    torch.use_deterministic_algorithms(False)
    torch.set_printoptions(profile="default", sci_mode=None)  # type: ignore[no-untyped-call]
    torch.set_float32_matmul_precision("highest")
    _seed_everything(seed)
