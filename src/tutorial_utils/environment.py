"""Say what produced a page's numbers: PyTorch version, device, threads.

Every page prints this line first, so a reader comparing their output with
the page knows whether a difference comes from their machine. For the whole
picture, run ``python -m tutorial_utils.environment``: it prints
:func:`environment_report`.
"""

from __future__ import annotations

import platform
from importlib.metadata import PackageNotFoundError, version

import torch

from tutorial_utils.devices import available_devices, device_name, pick_device

__all__ = ["environment_report", "environment_summary"]


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


def _package_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "not installed"


def environment_report() -> str:
    """Describe everything that decides what the pages print, one item a line.

    Lists the operating system and the Python, PyTorch, NumPy, Matplotlib
    and tutorial-utils versions, what PyTorch was built with (CUDA, Apple
    MPS), every device it can use here with its name, the CPU thread count,
    and a small float32 matrix product computed on each device and compared
    with the same product in float64 on the CPU, so a GPU setup that gives
    wrong results shows at once.

    Returns
    -------
    str
        Several lines of ``name: value``.

    Examples
    --------
    >>> report = environment_report()
    >>> report.splitlines()[0].startswith("Python: ")
    True
    >>> "cpu: OK" in report
    True
    """
    cuda = torch.version.cuda or "not built with CUDA"
    mps_built = torch.backends.mps.is_built()
    lines = [
        f"Python: {platform.python_version()} ({platform.system()} {platform.machine()})",
        f"torch: {torch.__version__} (CUDA: {cuda}; MPS built: {mps_built})",
        f"numpy: {_package_version('numpy')}",
        f"matplotlib: {_package_version('matplotlib')}",
        f"tutorial-utils: {_package_version('tutorial-utils')}",
        f"CPU threads: {torch.get_num_threads()}",
        f"devices: {', '.join(available_devices())}",
    ]
    generator = torch.Generator().manual_seed(0)
    a = torch.rand(64, 64, generator=generator, dtype=torch.float64)
    expected = a @ a
    for name in available_devices():
        on_device = a.to(torch.float32).to(name)
        result = (on_device @ on_device).to("cpu", torch.float64)
        ok = torch.allclose(result, expected, rtol=1e-3, atol=1e-3)
        lines.append(
            f"{name}: {'OK' if ok else 'WRONG RESULT'} "
            f"(64x64 matrix product; {device_name(name)})"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(environment_report())
