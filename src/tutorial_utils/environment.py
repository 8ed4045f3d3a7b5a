"""Say what produced a page's numbers: PyTorch version, device, threads.

Every page prints this line first, so a reader comparing their output with
the page knows whether a difference comes from their machine.
"""

from __future__ import annotations

import platform

import torch

from tutorial_utils.devices import device_name, pick_device

__all__ = ["environment_summary"]


def environment_summary(device: str | torch.device | None = None) -> str:
    """Describe the software and hardware a page runs on, in one line.

    Parameters
    ----------
    device : str, torch.device or None
        The device the page computes on, as accepted by
        :func:`tutorial_utils.devices.pick_device`; ``None`` means the best
        one available.

    Returns
    -------
    str
        For example ``"torch 2.13.0+cpu | Python 3.11.7 | device cpu
        (AMD EPYC 7B13) | 2 CPU threads"``.

    Examples
    --------
    >>> line = environment_summary("cpu")
    >>> line.startswith(f"torch {torch.__version__} | Python ")
    True
    >>> "CPU threads" in line
    True
    """
    chosen = pick_device(device)
    threads = torch.get_num_threads()
    return (
        f"torch {torch.__version__} | Python {platform.python_version()} | "
        f"device {chosen} ({device_name(chosen)}) | "
        f"{threads} CPU thread{'s' if threads != 1 else ''}"
    )
