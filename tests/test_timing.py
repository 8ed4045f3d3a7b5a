from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
import torch

from tutorial_utils import timing
from tutorial_utils.timing import (
    CLOCKS,
    RECORD_VARIABLE,
    Timing,
    TimingCheck,
    _synchronizer,
    benchmark,
    check_timing,
    format_time,
)

# Enough for a few runs of the tiny functions below, short enough for a test.
QUICK = 0.01


def test_benchmark_returns_a_timing_of_the_call() -> None:
    x = torch.ones(100)
    result = benchmark(lambda: x.sum(), label="sum", min_run_time=QUICK)
    assert isinstance(result, Timing)
    assert result.label == "sum"
    assert result.median > 0
    assert result.iqr >= 0
    assert result.runs >= 1
    assert result.threads == torch.get_num_threads()
    assert result.device == "cpu"


def test_more_work_takes_longer() -> None:
    # A ratio, not an absolute time: a thousand times the work must show. CPU
    # time of the thread, so that a busy machine cannot upset it.
    cpu = {"threads": 1, "clock": "thread", "min_run_time": QUICK}
    small = benchmark(lambda: sum(range(100)), **cpu)  # type: ignore[arg-type]
    large = benchmark(lambda: sum(range(100_000)), **cpu)  # type: ignore[arg-type]
    assert large.median > 10 * small.median
    assert large.clock == "thread CPU time"
    assert str(large).endswith("1 thread, cpu, thread CPU time)")


def test_vectorised_sum_beats_a_python_loop() -> None:
    values = torch.rand(2_000, dtype=torch.float64)

    def loop() -> float:
        total = 0.0
        for value in values:
            total += float(value)
        return total

    cpu = {"threads": 1, "clock": "thread", "min_run_time": QUICK}
    looped = benchmark(loop, **cpu)  # type: ignore[arg-type]
    vectorised = benchmark(lambda: values.sum(), **cpu)  # type: ignore[arg-type]
    assert looped.median > 10 * vectorised.median


def test_threads_are_used_and_restored() -> None:
    seen: list[int] = []
    before = torch.get_num_threads()
    result = benchmark(
        lambda: seen.append(torch.get_num_threads()),
        threads=1,
        warmup=2,
        min_run_time=QUICK,
    )
    assert result.threads == 1
    assert set(seen) == {1}
    assert len(seen) > 2  # the two warm-up calls, then the measured ones
    assert torch.get_num_threads() == before


def test_warmup_calls_come_first() -> None:
    calls: list[int] = []
    benchmark(lambda: calls.append(1), warmup=0, min_run_time=QUICK)
    assert calls  # no warm-up still measures
    calls.clear()
    benchmark(lambda: calls.append(1), warmup=5, min_run_time=QUICK)
    assert len(calls) > 5


def test_adaptive_autorange_is_bounded() -> None:
    result = benchmark(
        lambda: torch.ones(10).sum(), min_run_time=QUICK, max_run_time=0.05
    )
    assert result.runs >= 1
    assert result.median > 0


@pytest.mark.parametrize(
    ("device_type", "module_name"),
    [("cuda", "cuda"), ("mps", "mps"), ("xpu", "accelerator")],
)
def test_accelerators_are_synchronised_before_each_clock_reading(
    monkeypatch: pytest.MonkeyPatch, device_type: str, module_name: str
) -> None:
    calls: list[object] = []
    monkeypatch.setattr(timing, "pick_device", lambda _: torch.device(device_type, 0))
    monkeypatch.setattr(
        getattr(torch, module_name), "synchronize", lambda *args: calls.append(args)
    )
    result = benchmark(lambda: None, device=device_type, min_run_time=QUICK)
    assert result.device == f"{device_type}:0"
    # After the warm-up, then at the start and the end of every timed block.
    assert len(calls) >= 1 + 2 * result.runs


def test_timing_prints_without_an_address() -> None:
    result = benchmark(lambda: None, label="nothing", threads=1, min_run_time=QUICK)
    text = str(result)
    assert re.fullmatch(
        r"nothing: \S+ \S?s median \((IQR \S+ \S?s, \d+ runs|1 run), 1 thread, cpu\)",
        text,
    )
    assert "0x" not in text
    assert "0x" not in repr(result)


def test_timing_text() -> None:
    one = Timing("solve n=64", 41.2e-6, 1.3e-6, 120, 2, "cpu")
    assert (
        str(one) == "solve n=64: 41.2 us median (IQR 1.30 us, 120 runs, 2 threads, cpu)"
    )
    unlabelled = Timing("", 3.1e-3, 0.0, 1, 1, "cuda:0")
    assert str(unlabelled) == "3.10 ms median (1 run, 1 thread, cuda:0)"


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"fn": 3}, TypeError, "fn must be a callable taking no arguments"),
        (
            {"min_run_time": 0},
            ValueError,
            "min_run_time must be a finite number greater than 0; got 0",
        ),
        ({"min_run_time": -1.0}, ValueError, "greater than 0; got -1.0"),
        ({"min_run_time": math.nan}, ValueError, "greater than 0; got nan"),
        ({"min_run_time": math.inf}, ValueError, "greater than 0; got inf"),
        (
            {"min_run_time": "0.1"},
            TypeError,
            "min_run_time must be a number; got str '0.1'",
        ),
        ({"threads": 0}, ValueError, "threads must be at least 1; got 0"),
        ({"threads": 1.5}, TypeError, "threads must be an int; got float 1.5"),
        ({"threads": True}, TypeError, "threads must be an int; got bool True"),
        ({"warmup": -1}, ValueError, "warmup must be at least 0; got -1"),
        ({"device": "gpu"}, ValueError, "'gpu' is not a device name"),
        ({"device": "cuda:99"}, ValueError, "is not available on this machine"),
        ({"label": 3}, TypeError, "label must be a str; got int 3"),
        ({"max_run_time": 0.001}, ValueError, "must be at least min_run_time"),
        ({"max_run_time": -2}, ValueError, "max_run_time must be a finite number"),
        ({"clock": "cpu"}, ValueError, 'clock must be "wall" or "thread"'),
        ({"clock": "thread", "threads": 2}, ValueError, "needs threads=1 and the CPU"),
    ],
)
def test_benchmark_refuses_bad_input(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    arguments: dict[str, object] = {"fn": lambda: None, "min_run_time": QUICK}
    arguments.update(kwargs)
    with pytest.raises(error, match=re.escape(message)):
        benchmark(**arguments)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0.0, "0.00 ns"),
        (5e-9, "5.00 ns"),
        (41.2e-6, "41.2 us"),
        (999.96e-6, "1.00 ms"),
        (0.0031, "3.10 ms"),
        (0.12345, "123 ms"),
        (1.2468, "1.25 s"),
        (2, "2.00 s"),
    ],
)
def test_format_time(seconds: float, text: str) -> None:
    assert format_time(seconds) == text


def test_format_time_refuses_bad_input() -> None:
    for bad in (-1e-6, math.inf, math.nan):
        with pytest.raises(ValueError, match="seconds must be a finite number"):
            format_time(bad)
    with pytest.raises(TypeError, match="seconds must be a number; got str"):
        format_time("1 s")  # type: ignore[arg-type]


def test_measured_cpu_matmul_is_a_sane_rate() -> None:
    a, b = torch.randn(128, 128), torch.randn(128, 128)
    result = benchmark(lambda: a @ b, min_run_time=QUICK)
    rate = 2 * 128**3 / result.median  # floating-point operations per second
    # Between a slow Python loop's rate and ten times the fastest GPU's peak.
    assert 1e6 < rate < 1e16


def test_synchronizer_without_torch_accelerator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Before PyTorch 2.6 there is no torch.accelerator: a device's own module
    # waits for it, and a device type with none is refused by name.
    monkeypatch.delattr(torch, "accelerator", raising=False)
    assert _synchronizer(torch.device("cpu")) is None
    assert _synchronizer(torch.device("xpu")).func is torch.xpu.synchronize  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="cannot wait for a 'meta' device"):
        _synchronizer(torch.device("meta"))


def test_thread_clock_does_not_count_waiting() -> None:
    # Sleeping is waiting: the wall clock counts it, the thread's CPU time not.
    import time

    def nap() -> None:
        time.sleep(0.002)

    wall = benchmark(nap, threads=1, min_run_time=QUICK)
    cpu = benchmark(nap, threads=1, min_run_time=QUICK, clock="thread")
    assert wall.median >= 0.002
    assert cpu.median < wall.median / 2


def test_check_timing_passes_records_and_returns_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "records.jsonl"
    monkeypatch.setenv(RECORD_VARIABLE, str(record))
    check = check_timing("quick", 0.5, below=2, clock="thread CPU time")
    check_timing("slow", 3.0, above=2, clock="wall clock")
    assert isinstance(check, TimingCheck)
    assert check.holds
    assert check.margin == pytest.approx(0.75)
    assert check.page == "test_timing.py"  # the caller's file
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert [line["claim"] for line in lines] == ["quick", "slow"]
    assert lines[1] == {
        "claim": "slow",
        "value": 3.0,
        "relation": ">",
        "bound": 2.0,
        "clock": "wall clock",
        "measurements": [3.0],
        "page": "test_timing.py",
        "margin": 0.5,
    }


def test_a_failed_check_names_claim_values_clock_and_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "records.jsonl"
    monkeypatch.setenv(RECORD_VARIABLE, str(record))
    with pytest.raises(AssertionError) as failed:
        check_timing("the loop is proportional", 2.5, below=2, clock="thread CPU time")
    assert str(failed.value) == (
        "timing check failed: the loop is proportional: measured 2.5 "
        "(thread CPU time), needs < 2, margin -25%"
    )
    (line,) = record.read_text().splitlines()  # recorded, failed or not
    assert json.loads(line)["margin"] == pytest.approx(-0.25)


def test_check_timing_measures_again_until_the_claim_holds() -> None:
    values = iter([3.0, 2.5, 1.0, 0.5])
    check = check_timing(
        "quick", lambda: next(values), below=2, clock="wall clock", attempts=4
    )
    assert check.measurements == (3.0, 2.5, 1.0)  # stopped once it held
    values = iter([3.0, 2.5])
    with pytest.raises(AssertionError, match=r"measured 3, 2.5 \(wall clock\)"):
        check_timing(
            "quick", lambda: next(values), below=2, clock="wall clock", attempts=2
        )


def test_without_the_variable_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(RECORD_VARIABLE, raising=False)
    monkeypatch.chdir(tmp_path)
    check_timing("quick", 1.0, below=2, clock="wall clock")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"claim": ""}, ValueError, "claim must say what is claimed"),
        ({"claim": 3}, TypeError, "claim must be a str; got int 3"),
        ({"below": None}, ValueError, "give exactly one bound"),
        ({"above": 1.0}, ValueError, "give exactly one bound"),
        ({"clock": "cpu"}, ValueError, "clock must be one of"),
        ({"attempts": 0}, ValueError, "attempts must be at least 1; got 0"),
        ({"attempts": 2}, ValueError, "attempts=2 needs a function that measures"),
        ({"measure": math.nan}, ValueError, "the measured value must be a finite"),
        ({"measure": "1"}, TypeError, "the measured value must be a number"),
        ({"below": math.inf}, ValueError, "below must be a finite number"),
        ({"below": 0}, ValueError, "a bound of 0 has no margin"),
    ],
)
def test_check_timing_refuses_bad_input(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    arguments: dict[str, object] = {
        "claim": "quick",
        "measure": 1.0,
        "below": 2.0,
        "clock": CLOCKS[0],
    }
    arguments.update(kwargs)
    claim, measure = arguments.pop("claim"), arguments.pop("measure")
    with pytest.raises(error, match=re.escape(message)):
        check_timing(claim, measure, **arguments)  # type: ignore[arg-type]
