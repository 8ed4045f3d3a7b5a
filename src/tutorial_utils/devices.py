"""Find the devices PyTorch can use here and choose one by name.

A page asks for a device with ``pick_device()``, which takes the first
accelerator PyTorch sees or else the CPU, and runs unchanged on a laptop
CPU, a CUDA GPU or an Apple GPU. Asking for a device that is not there fails
at once, with the list of those that are.
"""

from __future__ import annotations

import platform
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import torch

from tutorial_utils._checks import check_instance

if TYPE_CHECKING:
    import matplotlib.figure

__all__ = ["available_devices", "device_name", "draw_device_choice", "pick_device"]


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


def draw_device_choice(found: Mapping[str, bool]) -> matplotlib.figure.Figure:
    """Draw a choice of device: each question in turn, and the path taken.

    Each kind of GPU is asked about in the order of `found`; the first one
    found is chosen, and the CPU, always there, comes last. The path taken is
    drawn in colour and the rest in grey.

    Parameters
    ----------
    found : mapping of str to bool
        For each kind of GPU, in the order asked, whether this machine has
        one, such as ``{"cuda": torch.cuda.is_available()}``.

    Returns
    -------
    matplotlib.figure.Figure
        A new :mod:`matplotlib.pyplot` figure. Its title names the device
        chosen, as ``"chosen: cpu"``.

    Raises
    ------
    TypeError
        If `found` is not a mapping of names to bools.
    ValueError
        If `found` is empty or names ``"cpu"``, which is always there.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig = draw_device_choice({"cuda": False, "mps": False})
    >>> fig.axes[0].get_title()
    'chosen: cpu'
    >>> plt.close(fig)
    >>> draw_device_choice({"cuda": 1})
    Traceback (most recent call last):
    ...
    TypeError: found['cuda'] must be a bool; got int 1
    """
    import matplotlib.pyplot as plt

    from tutorial_utils.colours import PALETTE

    check_instance("found", found, Mapping, "a mapping such as {'cuda': False}")
    if not found:
        raise ValueError("found must name at least one kind of GPU; got {}")
    for name, answer in found.items():
        check_instance("a name in found", name, str, "a str such as 'cuda'")
        check_instance(f"found[{name!r}]", answer, bool, "a bool")
    if "cpu" in found:
        raise ValueError("found must not name 'cpu': the CPU is always there")
    names = list(found)
    chosen = next((name for name in names if found[name]), "cpu")
    asked = names.index(chosen) + 1 if chosen != "cpu" else len(names)
    taken, skipped = PALETTE[0], "#b0b0b0"

    fig, ax = plt.subplots(figsize=(2.2 * len(names) + 1.6, 2.6))

    def box(x: float, y: float, text: str, on_path: bool) -> None:
        ax.text(
            x,
            y,
            text,
            ha="center",
            va="center",
            fontsize=10,
            color="black" if on_path else "#707070",
            bbox={
                "boxstyle": "round,pad=0.4",
                "facecolor": "white",
                "edgecolor": taken if on_path else skipped,
                "linewidth": 2,
            },
        )

    def arrow(
        start: tuple[float, float], end: tuple[float, float], label: str, on_path: bool
    ) -> None:
        colour = taken if on_path else skipped
        ax.annotate(
            "",
            xy=end,
            xytext=start,
            arrowprops={"arrowstyle": "->", "color": colour, "lw": 2},
        )
        middle = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
        ax.text(middle[0] + 0.08, middle[1] + 0.08, label, fontsize=9, color=colour)

    for i, name in enumerate(names):
        x = 2.2 * i
        box(x, 1.0, f"{name} available?", i < asked)
        box(x, -0.2, name, chosen == name)
        arrow((x, 0.78), (x, 0.02), "yes", chosen == name)
        last = i == len(names) - 1
        end = x + (1.85 if last else 1.35)  # the CPU's box is narrower
        arrow((x + 0.85, 1.0), (end, 1.0), "no", i + 1 < asked or chosen == "cpu")
    box(2.2 * len(names), 1.0, "cpu", chosen == "cpu")
    ax.set_xlim(-1.1, 2.2 * len(names) + 0.7)
    ax.set_ylim(-0.5, 1.3)
    ax.set_title(f"chosen: {chosen}")
    ax.axis("off")
    return fig
