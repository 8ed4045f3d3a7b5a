"""Time PyTorch code the right way, and say what the times mean.

:func:`benchmark` wraps :class:`torch.utils.benchmark.Timer`: it runs the
code before measuring (warm-up, once by default), fixes the number of
threads, waits for the device to finish its queued work before every reading
of the clock, and returns a :class:`Timing` that prints without a memory
address.
:func:`flop_rate` and :func:`byte_rate` turn a time into work per second,
:func:`fraction_of_peak` compares a rate with the device's published peak
where this module knows it, and :func:`comparison_table` lays several timings
out side by side.
"""

from __future__ import annotations

import math
import reprlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import torch
from torch.utils.benchmark import Timer

from tutorial_utils.devices import device_name, pick_device

__all__ = [
    "PEAK_FLOP_RATES",
    "PRECISIONS",
    "Timing",
    "benchmark",
    "byte_rate",
    "comparison_table",
    "describe_peak",
    "flop_rate",
    "format_rate",
    "format_time",
    "fraction_of_peak",
    "matmul_flop",
    "matmul_precision",
    "peak_flop_rate",
    "synchronize",
]

#: The arithmetic precisions that :data:`PEAK_FLOP_RATES` distinguishes.
PRECISIONS = ("fp64", "fp32", "tf32", "bf16", "fp16")

_H100_SXM = {
    "fp64": 67e12,
    "fp32": 67e12,
    "tf32": 495e12,
    "bf16": 989e12,
    "fp16": 989e12,
}
#: Dense peak FLOP/s from the makers' data sheets (without sparsity), keyed by
#: the device name PyTorch reports and then by precision: the H100 SXM
#: (``"NVIDIA H100 80GB HBM3"``) and the H200, which has the same compute
#: units, 67 TFLOP/s in fp32, 495 in tf32, 989 in bf16 and fp16; the H100
#: PCIe, 51, 378 and 756. fp64 is the tensor-core rate that matrix products
#: use.
#:
#: :meta hide-value:
PEAK_FLOP_RATES: dict[str, dict[str, float]] = {
    "NVIDIA H100 80GB HBM3": dict(_H100_SXM),
    "NVIDIA H200": dict(_H100_SXM),
    "NVIDIA H100 PCIe": {
        "fp64": 51e12,
        "fp32": 51e12,
        "tf32": 378e12,
        "bf16": 756e12,
        "fp16": 756e12,
    },
}

_COLUMN_FIELDS = ("label", "device", "threads")


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


def _check_real(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(
            f"{name} must be a number; got {type(value).__name__} {value!r}"
        )
    return float(value)


def _check_positive(value: object, name: str) -> float:
    number = _check_real(value, name)
    if not (number > 0 and math.isfinite(number)):
        raise ValueError(f"{name} must be a positive finite number; got {value!r}")
    return number


def _check_count(value: object, name: str, smallest: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(
            f"{name} must be an int of at least {smallest}; "
            f"got {type(value).__name__} {value!r}"
        )
    if value < smallest:
        raise ValueError(f"{name} must be at least {smallest}; got {value}")
    return value


def _check_timing(timing: object) -> Timing:
    if not isinstance(timing, Timing):
        raise TypeError(
            f"timing must be a Timing from benchmark(); got {type(timing).__name__}"
        )
    if not timing.median > 0:
        raise ValueError(f"timing.median must be positive; got {timing.median!r}")
    return timing


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


def synchronize(device: str | torch.device = "cpu") -> None:
    """Wait until `device` has finished all the work queued on it.

    GPUs run asynchronously: most operations on a GPU tensor return as soon
    as their work is queued, usually before the GPU has done it (those that
    bring a result to the CPU, such as :meth:`~torch.Tensor.item`, wait for
    it). Reading the clock without waiting first measures the queueing, not
    the work. On the CPU there is nothing to wait for.

    Parameters
    ----------
    device : str or torch.device, default "cpu"
        A device on this machine, as accepted by
        :func:`tutorial_utils.devices.pick_device`.

    Raises
    ------
    ValueError
        If `device` is not a device on this machine.

    Examples
    --------
    >>> synchronize("cpu")  # returns at once: CPU work is done when it returns
    """
    wait = _synchronizer(pick_device(device))
    if wait is not None:
        wait()


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
    if not isinstance(label, str):
        raise TypeError(f"label must be a str; got {type(label).__name__} {label!r}")
    chosen = pick_device(device)
    threads = torch.get_num_threads() if threads is None else threads
    _check_count(threads, "threads", 1)
    min_run_time = _check_positive(min_run_time, "min_run_time")
    _check_count(warmup, "warmup", 0)
    if max_run_time is not None:
        max_run_time = _check_positive(max_run_time, "max_run_time")
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
    value = _check_real(seconds, "seconds")
    if not (value >= 0 and math.isfinite(value)):
        raise ValueError(
            f"seconds must be a finite number of at least 0; got {seconds!r}"
        )
    return _three_figures(value, (("s", 1.0), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)))


def _three_figures(value: float, units: Sequence[tuple[str, float]]) -> str:
    rounded = float(f"{value:.3g}")  # so that 0.9996 s becomes "1.00 s", not "1000 ms"
    unit, scale = next(
        ((unit, scale) for unit, scale in units if rounded >= scale), units[-1]
    )
    scaled = rounded / scale
    decimals = 2 if scaled < 10 else 1 if scaled < 100 else 0
    return f"{scaled:.{decimals}f} {unit}"


def format_rate(rate: float, unit: str = "FLOP/s") -> str:
    """Write a rate with three significant figures and an SI prefix.

    Parameters
    ----------
    rate : float
        Work per second, zero or more.
    unit : str, default "FLOP/s"
        The unit after the prefix, for example ``"B/s"`` for bytes.

    Returns
    -------
    str
        For example ``"61.2 GFLOP/s"`` or ``"3.35 TB/s"``.

    Examples
    --------
    >>> format_rate(61.24e9), format_rate(3.349e12, "B/s"), format_rate(12.0)
    ('61.2 GFLOP/s', '3.35 TB/s', '12.0 FLOP/s')
    """
    value = _check_real(rate, "rate")
    if not (value >= 0 and math.isfinite(value)):
        raise ValueError(f"rate must be a finite number of at least 0; got {rate!r}")
    prefixes = [("P", 1e15), ("T", 1e12), ("G", 1e9), ("M", 1e6), ("k", 1e3), ("", 1.0)]
    return _three_figures(value, [(p + unit, s) for p, s in prefixes])


def matmul_flop(m: int, k: int | None = None, n: int | None = None) -> int:
    """Count the floating-point operations of a matrix product.

    An ``(m, k) @ (k, n)`` product computes ``m * n`` dot products of length
    ``k``: ``k`` multiplications and ``k - 1`` additions each, counted by
    convention as ``2·k`` (one multiply-add per term), ``2·m·k·n`` in all
    (``2·n³`` for two square n-by-n matrices).

    Parameters
    ----------
    m : int
        Rows of the left matrix.
    k : int, optional
        Columns of the left matrix (rows of the right one); defaults to `m`.
    n : int, optional
        Columns of the right matrix; defaults to `m`.

    Returns
    -------
    int
        ``2 * m * k * n``.

    Examples
    --------
    >>> matmul_flop(1000)
    2000000000
    >>> matmul_flop(2, 3, 4)
    48
    """
    sizes = [m, m if k is None else k, m if n is None else n]
    for name, size in zip("mkn", sizes, strict=True):
        _check_count(size, name, 1)
    return 2 * sizes[0] * sizes[1] * sizes[2]


def flop_rate(timing: Timing, flop: float) -> float:
    """Floating-point operations per second achieved by one timed call.

    Parameters
    ----------
    timing : Timing
        A result of :func:`benchmark`.
    flop : float
        Operations that one call performs, e.g. from :func:`matmul_flop`.

    Returns
    -------
    float
        ``flop / timing.median``.

    Examples
    --------
    >>> timing = Timing("n=1000", 0.02, iqr=0.001, runs=5, threads=1, device="cpu")
    >>> format_rate(flop_rate(timing, matmul_flop(1000)))
    '100 GFLOP/s'
    """
    return _check_positive(flop, "flop") / _check_timing(timing).median


def byte_rate(timing: Timing, nbytes: float) -> float:
    """Bytes per second moved by one timed call, such as a copy.

    Parameters
    ----------
    timing : Timing
        A result of :func:`benchmark`.
    nbytes : float
        Bytes that one call moves through memory. A copy of ``x`` reads
        ``x.nbytes`` (:attr:`torch.Tensor.nbytes`) and writes as many:
        ``2 * x.nbytes`` in all.

    Returns
    -------
    float
        ``nbytes / timing.median``.

    Examples
    --------
    >>> timing = Timing("copy", median=0.004, iqr=0.0, runs=5, threads=1, device="cpu")
    >>> format_rate(byte_rate(timing, 4e7), "B/s")
    '10.0 GB/s'
    """
    return _check_positive(nbytes, "nbytes") / _check_timing(timing).median


def matmul_precision(dtype: torch.dtype, device: str | torch.device = "cpu") -> str:
    """Name the arithmetic a matrix product of `dtype` on `device` uses now.

    The answer follows :func:`torch.set_float32_matmul_precision` for CUDA
    only: a float32 product on a CUDA device is reported as ``"tf32"``
    unless :func:`torch.get_float32_matmul_precision` is ``"highest"`` (the
    default); everywhere else the dtype decides. TF32 runs on the tensor
    cores of NVIDIA GPUs from the Ampere generation (A100) on; an older GPU
    computes in fp32 whatever this function reports. The setting reaches the
    CPU too, which this function does not report: in PyTorch 2.13, ``"high"``
    and ``"medium"`` also set ``torch.backends.mkldnn.matmul.fp32_precision``
    to ``"tf32"`` and ``"bf16"``, and with ``"medium"`` oneDNN may compute
    CPU float32 products in bfloat16 (on CPUs with bfloat16 instructions),
    which changes their results.

    The newer ``fp32_precision`` settings are not read. In PyTorch 2.13,
    once ``torch.backends.fp32_precision``,
    ``torch.backends.cuda.matmul.fp32_precision`` or
    ``torch.backends.mkldnn.matmul.fp32_precision`` is set to anything but
    ``"ieee"``, :func:`torch.get_float32_matmul_precision` raises
    :class:`RuntimeError`, and so does this function for a float32 product
    on CUDA.

    Parameters
    ----------
    dtype : torch.dtype
        A floating-point dtype: float64, float32, bfloat16 or float16.
    device : str or torch.device, default "cpu"
        The device of the product.

    Returns
    -------
    str
        One of :data:`PRECISIONS`.

    Raises
    ------
    ValueError
        If `dtype` is not one of the four above, or, for float32, `device`
        is not a device on this machine.

    Examples
    --------
    >>> matmul_precision(torch.float32), matmul_precision(torch.bfloat16)
    ('fp32', 'bf16')
    """
    names = {
        torch.float64: "fp64",
        torch.float32: "fp32",
        torch.bfloat16: "bf16",
        torch.float16: "fp16",
    }
    if dtype not in names:
        raise ValueError(
            f"dtype must be float64, float32, bfloat16 or float16; got {dtype!r}"
        )
    if (
        dtype == torch.float32
        and pick_device(device).type == "cuda"
        and torch.get_float32_matmul_precision() != "highest"
    ):
        return "tf32"
    return names[dtype]


def _check_precision(precision: object) -> str:
    if precision not in PRECISIONS:
        raise ValueError(
            f"precision must be one of {', '.join(PRECISIONS)}; got {precision!r}"
        )
    return str(precision)


def peak_flop_rate(device: str | torch.device, precision: str) -> float | None:
    """The published dense peak of `device` at `precision`, if this module knows it.

    Parameters
    ----------
    device : str or torch.device
        A device on this machine.
    precision : str
        One of :data:`PRECISIONS`, e.g. from :func:`matmul_precision`.

    Returns
    -------
    float or None
        FLOP/s from :data:`PEAK_FLOP_RATES`, or None for any other device
        (CPUs included: their peak depends on clock, cores and vector units).

    Examples
    --------
    >>> peak_flop_rate("cpu", "fp32") is None
    True
    """
    precision = _check_precision(precision)
    return PEAK_FLOP_RATES.get(device_name(device), {}).get(precision)


def fraction_of_peak(
    rate: float, device: str | torch.device, precision: str
) -> float | None:
    """The share of the device's dense peak that a measured rate reaches.

    Parameters
    ----------
    rate : float
        Measured FLOP/s, e.g. from :func:`flop_rate`.
    device : str or torch.device
        The device that ran the computation.
    precision : str
        One of :data:`PRECISIONS`.

    Returns
    -------
    float or None
        Between 0 and 1, or None where the peak is unknown.

    Raises
    ------
    TypeError
        If `rate` is not a number.
    ValueError
        If `rate` is not positive and finite, or `precision` is not one of
        :data:`PRECISIONS`. Also if `rate` is above the peak: no device
        beats its own peak, so the measurement is broken (most often: the
        GPU was not synchronised, and only the time to queue the work was
        measured).

    Examples
    --------
    >>> fraction_of_peak(1e9, "cpu", "fp32") is None
    True
    """
    value = _check_positive(rate, "rate")
    peak = peak_flop_rate(device, precision)
    if peak is None:
        return None
    if value > peak:
        raise ValueError(
            f"{format_rate(value)} is above the {precision} peak of "
            f"{device_name(device)} ({format_rate(peak)}): the measurement is "
            "broken; was the device synchronised before reading the clock?"
        )
    return value / peak


def describe_peak(rate: float, device: str | torch.device, precision: str) -> str:
    """Say in words how a measured rate compares with the device's peak.

    Parameters
    ----------
    rate : float
        Measured FLOP/s.
    device : str or torch.device
        The device that ran the computation.
    precision : str
        One of :data:`PRECISIONS`.

    Returns
    -------
    str
        For example ``"61% of the 67.0 TFLOP/s fp32 peak of NVIDIA H200"``
        or ``"fp32 peak unknown for this device"``.

    Raises
    ------
    ValueError
        If `rate` is above the peak, as for :func:`fraction_of_peak`.

    Examples
    --------
    >>> describe_peak(1e9, "cpu", "fp32")
    'fp32 peak unknown for this device'
    """
    fraction = fraction_of_peak(rate, device, precision)
    peak = peak_flop_rate(device, precision)
    if fraction is None or peak is None:
        return f"{precision} peak unknown for this device"
    return (
        f"{fraction:.0%} of the {format_rate(peak)} {precision} peak of "
        f"{device_name(device)}"
    )


def _header(value: str | int) -> str:
    return _plural(value, "thread") if isinstance(value, int) else value


def comparison_table(
    timings: Sequence[Timing], *, rows: str = "label", columns: str = "device"
) -> str:
    """Lay median times out in a table: one row and one column per value.

    Parameters
    ----------
    timings : sequence of Timing
        Results of :func:`benchmark`; no two may share both their row and
        their column value.
    rows : str, default "label"
        The :class:`Timing` field whose values name the rows: ``"label"``,
        ``"device"`` or ``"threads"``. Rows keep the order of first
        appearance.
    columns : str, default "device"
        The field whose values name the columns, likewise. A missing
        combination of row and column shows ``-``.

    Returns
    -------
    str
        The table as plain text, columns aligned.

    Raises
    ------
    ValueError
        If `timings` is empty, a field name is not one of the three, `rows`
        equals `columns`, or two timings land in the same cell.

    Examples
    --------
    >>> timings = [
    ...     Timing("A @ B", 2.29e-3, 1e-5, 100, 1, "cpu"),
    ...     Timing("A @ B", 108.02e-6, 1e-6, 100, 1, "cuda:0"),
    ... ]
    >>> print(comparison_table(timings))
               cpu  cuda:0
    A @ B  2.29 ms  108 us
    """
    timings = list(timings)
    if not timings:
        raise ValueError("timings must hold at least one Timing; got none")
    for name, field in (("rows", rows), ("columns", columns)):
        if field not in _COLUMN_FIELDS:
            raise ValueError(
                f"{name} must be one of {', '.join(_COLUMN_FIELDS)}; got {field!r}"
            )
    if rows == columns:
        raise ValueError(f"rows and columns must differ; both are {rows!r}")
    cells: dict[tuple[str | int, str | int], str] = {}
    for timing in timings:
        _check_timing(timing)
        key = (getattr(timing, rows), getattr(timing, columns))
        if key in cells:
            raise ValueError(
                f"two timings share {rows}={key[0]!r} and {columns}={key[1]!r}"
            )
        cells[key] = format_time(timing.median)
    row_keys = list(dict.fromkeys(row for row, _ in cells))
    column_keys = list(dict.fromkeys(column for _, column in cells))
    table = [["", *(_header(c) for c in column_keys)]]
    table += [
        [_header(r), *(cells.get((r, c), "-") for c in column_keys)] for r in row_keys
    ]
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    return "\n".join(
        "  ".join(
            [line[0].ljust(widths[0])]
            + [
                cell.rjust(width)
                for cell, width in zip(line[1:], widths[1:], strict=True)
            ]
        ).rstrip()
        for line in table
    )
