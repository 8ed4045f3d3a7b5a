"""Find the devices PyTorch can use here and choose one by name.

A page asks for a device with ``pick_device()``, which takes the first
accelerator PyTorch sees or else the CPU, and runs unchanged on a laptop
CPU, a CUDA GPU or an Apple GPU. Asking for a device that is not there fails
at once, with the list of those that are.
"""

from __future__ import annotations

import platform
from pathlib import Path

import torch

from tutorial_utils._checks import check_instance

__all__ = ["available_devices", "device_name", "pick_device"]


def _accelerator_type() -> str | None:
    """Return the device type of the accelerator PyTorch sees, if any."""
    accelerator_api = getattr(torch, "accelerator", None)  # PyTorch 2.6 and newer
    if accelerator_api is not None and accelerator_api.is_available():
        current = accelerator_api.current_accelerator()
        return None if current is None else current.type
    if torch.cuda.is_available():
        return "cuda"
    if torch.backends.mps.is_available():
        return "mps"
    return None


def _device_count(device_type: str) -> int:
    if device_type == "cuda":
        return torch.cuda.device_count()
    if device_type == "mps":
        return 1
    module = getattr(torch, device_type, None)
    count = getattr(module, "device_count", None)
    return int(count()) if callable(count) else 1


def available_devices() -> list[str]:
    """List the devices PyTorch can use on this machine, best first.

    Returns
    -------
    list of str
        Names that :class:`torch.device` accepts: each accelerator with its
        index (``"cuda:0"``, ``"cuda:1"``, ``"mps:0"``, ...), then ``"cpu"``,
        which is always there.

    Examples
    --------
    >>> devices = available_devices()
    >>> devices[-1]
    'cpu'
    """
    accelerator = _accelerator_type()
    names = []
    if accelerator is not None:
        names = [f"{accelerator}:{i}" for i in range(_device_count(accelerator))]
    return [*names, "cpu"]


def pick_device(preference: str | torch.device | None = None) -> torch.device:
    """Choose the device a page runs on.

    Parameters
    ----------
    preference : str, torch.device or None
        ``None`` picks the first accelerator PyTorch sees (CUDA, MPS, XPU, ...)
        and falls back to the CPU. A name such as ``"cpu"``, ``"cuda"``,
        ``"cuda:1"`` or ``"mps"`` asks for that device.

    Returns
    -------
    torch.device
        A device that exists on this machine.

    Raises
    ------
    TypeError
        If `preference` is neither a string, a :class:`torch.device` nor None.
    ValueError
        If `preference` is not a device name, or names a device that is not
        on this machine. The message lists the devices that are.

    Examples
    --------
    >>> pick_device("cpu")
    device(type='cpu')
    >>> pick_device("gpu")
    Traceback (most recent call last):
    ...
    ValueError: 'gpu' is not a device name PyTorch knows; devices here: ...
    """
    available = available_devices()
    if preference is None:
        return torch.device(available[0])
    check_instance(
        "preference",
        preference,
        (str, torch.device),
        "a device name such as 'cuda', a torch.device or None",
    )
    if isinstance(preference, str):
        try:
            device = torch.device(preference)
        except RuntimeError:
            raise ValueError(
                f"{preference!r} is not a device name PyTorch knows; "
                f"devices here: {', '.join(available)}"
            ) from None
    else:
        device = preference
    if device.type == "cpu":
        return torch.device("cpu")
    same_type = [name for name in available if name.split(":")[0] == device.type]
    index = 0 if device.index is None else device.index
    if f"{device.type}:{index}" not in same_type:
        raise ValueError(
            f"device {str(device)!r} is not available on this machine; "
            f"devices here: {', '.join(available)}"
        )
    return torch.device(device.type, index)


def _cpu_model() -> str:
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        for line in cpuinfo.read_text(errors="replace").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine() or "unknown CPU"


def device_name(device: str | torch.device) -> str:
    """Describe a device in words: its model name where it can be found.

    Parameters
    ----------
    device : str or torch.device
        A device on this machine, as accepted by :func:`pick_device`.

    Returns
    -------
    str
        For example ``"NVIDIA H100 80GB HBM3"``. For the CPU: the
        ``model name`` line of ``/proc/cpuinfo`` where there is one (Linux
        on x86, for one); elsewhere what :func:`platform.processor` or
        :func:`platform.machine` returns, which may be only the architecture
        (``"x86_64"``, ``"arm"``).

    Examples
    --------
    >>> isinstance(device_name("cpu"), str)
    True
    """
    chosen = pick_device(device)
    if chosen.type == "cpu":
        return _cpu_model()
    if chosen.type == "cuda":
        return torch.cuda.get_device_name(chosen)
    if chosen.type == "mps":
        return f"Apple GPU (MPS) on {platform.machine()}"
    module = getattr(torch, chosen.type, None)
    get_name = getattr(module, "get_device_name", None)
    return str(get_name(chosen)) if callable(get_name) else str(chosen)
