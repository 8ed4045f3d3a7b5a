"""Time PyTorch code the right way.

:func:`benchmark` wraps :class:`torch.utils.benchmark.Timer`: it runs the
code before measuring (warm-up, once by default), fixes the number of
threads, waits for the device to finish its queued work before every reading
of the clock, and returns a :class:`Timing` that prints without a memory
address. :func:`format_time` writes a duration with a readable unit.
:func:`check_timing` checks a claim about measured times against its bound
(measuring again before it fails, when given a function that measures) and
records the margin it had.
"""

from __future__ import annotations

import json
import os
import reprlib
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Literal

import torch
from torch.utils.benchmark import Timer

from tutorial_utils._checks import check_instance, check_int, check_number
from tutorial_utils.devices import pick_device

__all__ = [
    "CLOCKS",
    "RECORD_VARIABLE",
    "Timing",
    "TimingCheck",
    "benchmark",
    "check_timing",
    "format_time",
]

#: What a timing check may have measured with, in words a page prints.
#: ``"thread CPU time"`` (:func:`time.thread_time`) counts only the time the
#: working thread ran, so waiting for a CPU that other programs hold adds
#: nothing; the other two include that waiting.
CLOCKS = ("thread CPU time", "wall clock", "the profiler's wall clock")

#: The environment variable naming a file that every :func:`check_timing`
#: appends its record to, one JSON object a line (the documentation build
#: and ``nox -s stress`` set it; nothing is written when it is unset).
RECORD_VARIABLE = "TUTORIAL_UTILS_TIMING_RECORD"


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
        The device named to :func:`benchmark`, whose queued work was waited
        for, for example ``"cpu"`` or ``"cuda:0"``.
    clock : str, default "wall clock"
        What the times are: ``"wall clock"`` or ``"thread CPU time"`` (see
        :data:`CLOCKS`). Printed when it is not the wall clock.
    """

    label: str
    median: float
    iqr: float
    runs: int
    threads: int
    device: str
    clock: str = "wall clock"

    def __str__(self) -> str:
        prefix = f"{self.label}: " if self.label else ""
        # One run has no spread to report.
        spread = f"IQR {format_time(self.iqr)}, " if self.runs > 1 else ""
        return (
            f"{prefix}{format_time(self.median)} median "
            f"({spread}{_plural(self.runs, 'run')}, "
            f"{_plural(self.threads, 'thread')}, {self.device}"
            + ("" if self.clock == "wall clock" else f", {self.clock}")
            + ")"
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
    clock: Literal["wall", "thread"] = "wall",
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
        of the clock. Must be a device on this machine. Name it for code
        that runs on a GPU: only the device named here is waited for.
    threads : int, optional
        The number of threads PyTorch may use while timing; by default
        :func:`torch.get_num_threads`. The setting is restored afterwards.
    min_run_time : float, default 0.2
        Seconds of measurement after the warm-up, read on `clock`. The time
        actually spent is longer: one block of calls is always completed,
        and the timer first estimates how many calls a block needs, so a
        call slower than `min_run_time` is made three times or more.
    warmup : int, default 1
        Calls before measuring.
    max_run_time : float, optional
        If given, use :meth:`~torch.utils.benchmark.Timer.adaptive_autorange`
        instead: measure until the interquartile range is below a tenth of
        the median (after at least four blocks and `min_run_time`), or until
        the blocks measured add up to more than this many seconds.
    clock : {"wall", "thread"}, default "wall"
        ``"wall"`` reads :func:`time.perf_counter`: the time a user waits,
        including any wait for a CPU that other programs hold. ``"thread"``
        reads :func:`time.thread_time`, the CPU time of the calling thread:
        that wait is left out (though programs sharing the CPU's caches can
        still slow the work itself). It counts only work done on that
        thread, so it needs ``threads=1`` (PyTorch's threads; a library with
        a thread pool of its own, such as NumPy's BLAS, may still use more)
        and a CPU `device`. On Windows the thread's CPU time moves in steps
        of about 16 ms, too coarse for short calls.

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
        is not a positive number, `max_run_time` is below `min_run_time`,
        `warmup` is negative, or `clock` is not "wall" or "thread" (or is
        "thread" with more than one thread or a device other than the CPU).

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

    if clock not in ("wall", "thread"):
        raise ValueError(f'clock must be "wall" or "thread"; got {clock!r}')
    if clock == "thread" and (threads != 1 or chosen.type != "cpu"):
        raise ValueError(
            'clock="thread" counts the work of one CPU thread only: it needs '
            f"threads=1 and the CPU; got threads={threads}, device {chosen}"
        )
    wait = _synchronizer(chosen)
    now = time.thread_time if clock == "thread" else time.perf_counter

    def read_clock() -> float:
        if wait is not None:
            wait()
        return now()

    previous_threads = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        for _ in range(warmup):
            fn()
        read_clock()
    finally:
        torch.set_num_threads(previous_threads)

    timer = Timer(
        stmt="fn()",
        globals={"fn": fn},
        timer=read_clock,
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
        clock="thread CPU time" if clock == "thread" else "wall clock",
    )


@dataclass(frozen=True)
class TimingCheck:
    """A claim about measured time: the values measured for it and its bound.

    Attributes
    ----------
    claim : str
        The claim in words, for example ``"the loop's time grows in
        proportion to its length"``.
    value : float
        The measurement that decided: the first that held, else the last.
    relation : {"<", ">"}
        The claim holds when ``value < bound`` or ``value > bound``.
    bound : float
        The bound the claim needs.
    clock : str
        What the times were read from, one of :data:`CLOCKS`.
    measurements : tuple of float
        Every value measured, the deciding one last.
    page : str
        The file name of the script that made the check, or ``""``.
    """

    claim: str
    value: float
    relation: Literal["<", ">"]
    bound: float
    clock: str
    measurements: tuple[float, ...]
    page: str = ""

    @property
    def holds(self) -> bool:
        """Whether the deciding value meets the bound."""
        if self.relation == "<":
            return self.value < self.bound
        return self.value > self.bound

    @property
    def margin(self) -> float:
        """How far the value lies inside its bound, as a fraction of the bound.

        0.5 for a value of 1 checked ``< 2`` or of 3 checked ``> 2``; below
        0 when the claim failed.
        """
        if self.relation == "<":
            return (self.bound - self.value) / abs(self.bound)
        return (self.value - self.bound) / abs(self.bound)

    def __str__(self) -> str:
        shown = ", ".join(f"{value:.3g}" for value in self.measurements)
        return (
            f"{self.claim}: measured {shown} ({self.clock}), "
            f"needs {self.relation} {self.bound:g}, margin {self.margin:.0%}"
        )


def check_timing(
    claim: str,
    measure: float | Callable[[], float],
    *,
    below: float | None = None,
    above: float | None = None,
    clock: str,
    attempts: int = 1,
) -> TimingCheck:
    """Check a claim about measured time against its bound, and record it.

    A claim about time ("the loop is a thousand times slower") holds by a
    margin that depends on the machine and on what else it runs. This check
    names the claim, the clock and the bound, so that a failure says all
    three, and a record of every check shows how close each came to failing.

    Parameters
    ----------
    claim : str
        The claim in words; the failure message and the record quote it.
    measure : float or callable
        The measured quantity (a ratio of times, say), or a function taking
        no arguments that measures it afresh. A function is called again,
        up to `attempts` times in all, until the claim holds: worth it for
        any claim a busy machine can upset. A wait for a CPU that other
        programs hold adds to wall-clock time; programs that share the
        CPU's caches and cores add to CPU time too.
    below, above : float
        The bound: the claim is ``value < below`` or ``value > above``.
        Give exactly one, and not 0: a margin is a share of the bound.
    clock : str
        What the times were read from, one of :data:`CLOCKS`.
    attempts : int, default 1
        Measurements at most; more than 1 needs a callable `measure`.

    Returns
    -------
    TimingCheck
        The claim, the values measured and the bound.

    Raises
    ------
    AssertionError
        If no measurement meets the bound; the message names the claim,
        every value measured, the clock and the bound.
    TypeError
        If an argument has the wrong type.
    ValueError
        If not exactly one bound is given, the bound is 0, `clock` is not one of
        :data:`CLOCKS`, `attempts` is below 1, or above 1 with a number
        for `measure`.

    Notes
    -----
    When the environment variable named by :data:`RECORD_VARIABLE` is set,
    each check appends its record, passed or failed, to that file as one
    JSON object a line: the fields of :class:`TimingCheck` and its margin.

    Examples
    --------
    >>> check = check_timing("a loop is slower", 120.0, above=100, clock="wall clock")
    >>> print(check)
    a loop is slower: measured 120 (wall clock), needs > 100, margin 20%
    >>> check_timing("a loop is slower", 80.0, above=100, clock="wall clock")
    Traceback (most recent call last):
    ...
    AssertionError: timing check failed: a loop is slower: measured 80 (wall clock), needs > 100, margin -20%
    >>> values = iter([1.5, 0.5])
    >>> check_timing("it is quick", lambda: next(values), below=1, clock="wall clock",
    ...              attempts=2).measurements
    (1.5, 0.5)
    """
    check_instance("claim", claim, str, "a str")
    if not claim.strip():
        raise ValueError("claim must say what is claimed; got an empty str")
    if (below is None) == (above is None):
        raise ValueError(
            f"give exactly one bound, below= or above=; got below={below!r}, "
            f"above={above!r}"
        )
    relation: Literal["<", ">"] = "<" if below is not None else ">"
    if below is not None:
        bound = check_number("below", below)
    else:
        bound = check_number("above", above)
    if bound == 0:
        raise ValueError(
            "a bound of 0 has no margin as a share of it: check a ratio against "
            "1 instead of a difference against 0"
        )
    if clock not in CLOCKS:
        raise ValueError(f"clock must be one of {CLOCKS}; got {clock!r}")
    attempts = check_int("attempts", attempts, minimum=1)
    if callable(measure):
        take = measure
    elif attempts > 1:
        raise ValueError(
            f"attempts={attempts} needs a function that measures again; "
            f"got the number {measure!r}"
        )
    else:
        given = measure

        def take() -> float:
            return given

    caller = sys._getframe(1).f_globals.get("__file__")
    page = Path(caller).name if isinstance(caller, str) else ""
    measured: list[float] = []
    while True:
        measured.append(check_number("the measured value", take()))
        result = TimingCheck(
            claim, measured[-1], relation, bound, clock, tuple(measured), page
        )
        if result.holds or len(measured) == attempts:
            break
    record = os.environ.get(RECORD_VARIABLE)
    if record:
        line = json.dumps({**asdict(result), "margin": result.margin})
        with open(record, "a", encoding="utf-8") as file:
            file.write(line + "\n")
    if not result.holds:
        raise AssertionError(f"timing check failed: {result}")
    return result


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
