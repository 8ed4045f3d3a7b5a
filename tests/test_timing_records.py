"""What the build keeps of each page's time: its timing checks, its CPU time
and its wait for a CPU; and the budget counted without that wait."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import timing_records  # docs/_ext: see sitebuild.py
from timing_records import RECORD_VARIABLE, busy, busy_seconds, note_page

from tutorial_utils.timing import RECORD_VARIABLE as HELPERS_VARIABLE
from tutorial_utils.timing import check_timing


def gallery(tmp_path: Path) -> tuple[dict[str, object], Path]:
    """A gallery of one page, as Sphinx-Gallery's configuration names it."""
    (tmp_path / "gallery" / "section").mkdir(parents=True)
    (tmp_path / "gallery" / "section" / "plot_01_page.py").write_text("x = 1\n")
    conf = {
        "src_dir": str(tmp_path / "docs"),
        "examples_dirs": ["../gallery"],
        "gallery_dirs": ["auto_examples"],
    }
    (tmp_path / "docs").mkdir()
    return conf, tmp_path / "docs" / "auto_examples" / "section" / "plot_01_page.py"


def test_the_build_and_the_helpers_name_the_same_variable() -> None:
    assert RECORD_VARIABLE == HELPERS_VARIABLE


def test_a_page_keeps_its_checks_cpu_time_and_wait(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(RECORD_VARIABLE, raising=False)
    conf, target = gallery(tmp_path)
    note_page(conf, "plot_01_page.py", "before")
    check_timing("quick", 1.0, below=2, clock="thread CPU time")
    sum(i * i for i in range(200_000))  # some CPU time
    note_page(conf, "plot_01_page.py", "after")
    assert RECORD_VARIABLE not in os.environ
    records = target.with_name("plot_01_page" + timing_records.RECORDS_SUFFIX)
    (line,) = records.read_text().splitlines()
    assert json.loads(line)["claim"] == "quick"
    found = busy(target)
    assert found is not None
    waited, cpu = found
    assert waited >= 0
    assert cpu > 0


def test_a_page_run_again_keeps_only_its_last_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(RECORD_VARIABLE, raising=False)
    conf, target = gallery(tmp_path)
    for claim in ("first run", "second run"):
        note_page(conf, "plot_01_page.py", "before")
        check_timing(claim, 1.0, below=2, clock="wall clock")
        note_page(conf, "plot_01_page.py", "after")
    records = target.with_name("plot_01_page" + timing_records.RECORDS_SUFFIX)
    assert [json.loads(line)["claim"] for line in records.read_text().splitlines()] == [
        "second run"
    ]


def test_the_budget_counts_the_run_less_its_wait_or_its_cpu_time(
    tmp_path: Path,
) -> None:
    script = tmp_path / "plot_01_page.py"
    assert busy_seconds(script, 12.0) == 12.0  # nothing recorded: the run time
    busy_file = script.with_name("plot_01_page" + timing_records.BUSY_SUFFIX)
    busy_file.write_text(json.dumps({"waited": 5.0, "cpu": 9.0}))
    assert busy_seconds(script, 12.0) == 7.0  # slowed by a busy machine
    busy_file.write_text(json.dumps({"waited": 0.0, "cpu": 9.0}))
    assert busy_seconds(script, 12.0) == 9.0  # waited for its own children
    busy_file.write_text("not json")
    assert busy_seconds(script, 12.0) == 12.0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's schedstat")
def test_the_wait_for_a_cpu_is_measured_under_load() -> None:
    # Two CPU-bound processes on this machine's cores, then this thread's
    # work: its run-queue wait grows, and its CPU time does not count it.
    cores = len(os.sched_getaffinity(0))
    spin = "import time\nend = time.monotonic() + 3\nwhile time.monotonic() < end: pass"
    load = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(cores)]
    try:
        time.sleep(0.2)
        before, cpu_before = timing_records.run_queue_wait(), time.thread_time()
        tic = time.perf_counter()
        while time.perf_counter() - tic < 1.0:
            pass
        waited = timing_records.run_queue_wait() - before  # type: ignore[operator]
        cpu = time.thread_time() - cpu_before
    finally:
        for process in load:
            process.kill()
            process.wait()
    assert waited > 0.1, "sharing the cores, the thread waited"
    assert cpu + waited == pytest.approx(1.0, abs=0.15), (cpu, waited)
