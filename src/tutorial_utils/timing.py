"""Time PyTorch code the right way.

:func:`benchmark` wraps :class:`torch.utils.benchmark.Timer`: it runs the
code before measuring (warm-up, once by default), fixes the number of
threads, waits for the device to finish its queued work before every reading
of the clock, and returns a :class:`Timing` that prints without a memory
address. :func:`format_time` writes a duration with a readable unit.
"""

from __future__ import annotations

import reprlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import torch
from torch.utils.benchmark import Timer

from tutorial_utils._checks import check_instance, check_int, check_number
from tutorial_utils.devices import pick_device

__all__ = ["Timing", "benchmark", "format_time"]


@dataclass(frozen=True)
class Timing:
    """What :func:`benchmark` measured: seconds per call and how they spread.

    Attributes
    ----------
    label : str
        What was timed, for example ``"solve n=64"``.
    median : float
        Median time of one call, in seconds.
    iqr : float
        Interquartile range of the time of one call, in seconds: the middle
        half of the runs lie within a band this wide. Not printed when there
        was only one run.
    runs : int
        Number of measurements taken; each one timed a block of calls.
    threads : int
        Number of threads PyTorch used while timing.
    device : str
        Device the code ran on, for example ``"cpu"`` or ``"cuda:0"``.
    """

    label: str
    median: float
    iqr: float
    runs: int
    threads: int
    device: str

    def __str__(self) -> str:
        prefix = f"{self.label}: " if self.label else ""
        # One run has no spread to report.
        spread = f"IQR {format_time(self.iqr)}, " if self.runs > 1 else ""
        return (
            f"{prefix}{format_time(self.median)} median "
            f"({spread}{_plural(self.runs, 'run')}, "
            f"{_plural(self.threads, 'thread')}, {self.device})"
        )


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _synchronizer(device: torch.device) -> Callable[[], None] | None:
    """Return the function that waits for `device`, or None for the CPU."""
    if device.type == "cpu":
        return None
    if device.type == "cuda":
        return partial(torch.cuda.synchronize, device)
    if device.type == "mps":
        return torch.mps.synchronize
    # XPU and other accelerators, through torch.accelerator (PyTorch 2.6 and
    # newer), else through the device's own module (torch.xpu, ...).
    api = getattr(torch, "accelerator", None) or getattr(torch, device.type, None)
    if api is None or not hasattr(api, "synchronize"):
        raise ValueError(
            f"cannot wait for a {device.type!r} device with PyTorch {torch.__version__}"
        )
    return partial(api.synchronize, device)


def benchmark(
    fn: Callable[[], object],
    *,
    label: str = "",
    device: str | torch.device = "cpu",
    threads: int | None = None,
    min_run_time: float = 0.2,
    warmup: int = 1,
    max_run_time: float | None = None,
) -> Timing:
    """Time a function that takes no arguments with a warmed-up, synchronised Timer.

    The function is called `warmup` times first, so one-off costs (memory
    allocation, library start-up, GPU kernels loaded on first use) are not
    measured. Then :meth:`torch.utils.benchmark.Timer.blocked_autorange` runs
    it in blocks of calls until `min_run_time` seconds have passed, waiting
    for `device` to finish before each reading of the clock.

    Parameters
    ----------
    fn : callable
        The code to time, called as ``fn()``: wrap an expression in a
        ``lambda`` or use :class:`functools.partial`.
    label : str, default ""
        What is timed; printed with the result.
    device : str or torch.device, default "cpu"
        The device `fn` computes on; it is synchronised before every reading
        of the clock. Must be a device on this machine.
    threads : int, optional
        The number of threads PyTorch may use while timing; by default
        :func:`torch.get_num_threads`. The setting is restored afterwards.
    min_run_time : float, default 0.2
        Seconds of measurement after the warm-up. The time actually spent is
        a little longer: one block of calls is always completed, and the
        timer first estimates how many calls a block needs.
    warmup : int, default 1
        Calls before measuring.
    max_run_time : float, optional
        If given, use :meth:`~torch.utils.benchmark.Timer.adaptive_autorange`
        instead: measure until the interquartile range is below a tenth of
        the median (after at least four blocks and `min_run_time`), or until
        the blocks measured add up to more than this many seconds.

    Returns
    -------
    Timing
        Median and interquartile range of one call, in seconds.

    Raises
    ------
    TypeError
        If `fn` is not callable or an argument has the wrong type.
    ValueError
        If `device` is not on this machine, `threads` is below 1, a run time
        is not a positive number, `max_run_time` is below `min_run_time`, or
        `warmup` is negative.

    Examples
    --------
    >>> x = torch.ones(1000)
    >>> timing = benchmark(lambda: x.sum(), label="sum", threads=1, min_run_time=0.01)
    >>> timing.median > 0, timing.runs >= 1, timing.threads, timing.device
    (True, True, 1, 'cpu')
    >>> str(timing).startswith("sum: ")
    True
    >>> benchmark(x, min_run_time=0.01)
    Traceback (most recent call last):
    ...
    TypeError: fn must be a callable taking no arguments, ...; got Tensor ...
    """
    if not callable(fn):
        raise TypeError(
            "fn must be a callable taking no arguments, such as a lambda; "
            f"got {type(fn).__name__} {reprlib.repr(fn)}"
        )
    check_instance("label", label, str, "a str")
    chosen = pick_device(device)
    threads = torch.get_num_threads() if threads is None else threads
    threads = check_int("threads", threads, minimum=1)
    min_run_time = check_number("min_run_time", min_run_time, minimum=0, exclusive=True)
    warmup = check_int("warmup", warmup, minimum=0)
    if max_run_time is not None:
        max_run_time = check_number(
            "max_run_time", max_run_time, minimum=0, exclusive=True
        )
        if max_run_time < min_run_time:
            raise ValueError(
                f"max_run_time ({max_run_time}) must be at least "
                f"min_run_time ({min_run_time})"
            )

    wait = _synchronizer(chosen)

    def clock() -> float:
        if wait is not None:
            wait()
        return time.perf_counter()

    previous_threads = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        for _ in range(warmup):
            fn()
        clock()
    finally:
        torch.set_num_threads(previous_threads)

    timer = Timer(
        stmt="fn()",
        globals={"fn": fn},
        timer=clock,
        num_threads=threads,
        label=label or None,
    )
    if max_run_time is None:
        measurement = timer.blocked_autorange(min_run_time=min_run_time)
    else:
        measurement = timer.adaptive_autorange(
            min_run_time=min_run_time, max_run_time=max_run_time
        )
    return Timing(
        label=label,
        median=float(measurement.median),
        iqr=float(measurement.iqr),
        runs=len(measurement.times),
        threads=threads,
        device=str(chosen),
    )


def format_time(seconds: float) -> str:
    """Write a duration with three significant figures and a readable unit.

    Parameters
    ----------
    seconds : float
        A duration of zero or more seconds.

    Returns
    -------
    str
        For example ``"41.2 us"``, ``"3.10 ms"`` or ``"1.25 s"``.

    Raises
    ------
    TypeError
        If `seconds` is not a number.
    ValueError
        If `seconds` is negative, infinite or NaN.

    Examples
    --------
    >>> format_time(41.2e-6), format_time(0.0031), format_time(1.2468)
    ('41.2 us', '3.10 ms', '1.25 s')
    >>> format_time(-1.0)
    Traceback (most recent call last):
    ...
    ValueError: seconds must be a finite number of at least 0; got -1.0
    """
    value = check_number("seconds", seconds, minimum=0)
    return _three_figures(value, (("s", 1.0), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)))


def _three_figures(value: float, units: Sequence[tuple[str, float]]) -> str:
    rounded = float(f"{value:.3g}")  # so that 0.9996 s becomes "1.00 s", not "1000 ms"
    unit, scale = next(
        ((unit, scale) for unit, scale in units if rounded >= scale), units[-1]
    )
    scaled = rounded / scale
    decimals = 2 if scaled < 10 else 1 if scaled < 100 else 0
    return f"{scaled:.{decimals}f} {unit}"
