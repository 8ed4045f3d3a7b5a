"""The stress session: pages with timing checks, run beside a CPU load.

The load must never outlive its run, whether a page passes, fails, hangs,
or the run is interrupted; and the timing page's checks must hold under it.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import stress  # docs/_ext: see sitebuild.py
from stress import PageFailed, cpu_load, margins_table, run_page, run_pages

ROOT = Path(__file__).resolve().parents[1]
GALLERY = ROOT / "gallery"
EXT = ROOT / "docs" / "_ext"

#: What a page calls to read a clock or time code.
CLOCK_CALLS = re.compile(
    r"\b(Timer\(|benchmark\(|perf_counter\(|thread_time\(|profile\(|time\.time\()"
)
#: Pages that read a clock but claim nothing about the times they read: the
#: exercise pages time the reader's answers, the others print a duration.
TIMES_WITHOUT_CLAIMS = {
    "plot_90_performance_exercises.py",  # checks only that the reader timed
}


def alive(pid: int) -> bool:
    """Whether `pid` is a process that still runs (a zombie does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def wait_until_gone(pids: list[int], seconds: float = 10) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(map(alive, pids)):
        time.sleep(0.05)
    return [pid for pid in pids if alive(pid)]


def test_the_pages_that_claim_time_are_the_stress_sessions() -> None:
    timed = {page.name for page in stress.timed_pages(GALLERY)}
    assert "plot_01_timing_pytorch_code.py" in timed
    assert "plot_05_torch_compile.py" in timed
    clocked = {
        page.name
        for page in GALLERY.rglob("plot_*.py")
        if CLOCK_CALLS.search(page.read_text(encoding="utf-8"))
    }
    # A page that reads a clock checks its claims about time through
    # check_timing, so that nox -s stress runs it, or says it claims none.
    assert clocked - TIMES_WITHOUT_CLAIMS <= timed, clocked - timed
    assert not TIMES_WITHOUT_CLAIMS & timed


def test_the_load_runs_while_the_block_runs_and_stops_after() -> None:
    with cpu_load(2) as pids:
        assert len(pids) == 2
        time.sleep(0.3)
        assert all(map(alive, pids))
    assert not wait_until_gone(pids)


def test_the_load_stops_when_the_block_fails() -> None:
    with pytest.raises(RuntimeError), cpu_load(1) as pids:
        raise RuntimeError("a page failed")
    assert not wait_until_gone(pids)


def test_the_load_ends_itself_at_its_deadline() -> None:
    with cpu_load(1, seconds=0.5) as pids:
        assert not wait_until_gone(pids, seconds=10)


def test_cpu_load_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="processes >= 1"), cpu_load(0):
        pass


#: A runner that starts a page under load and prints the load's ids.
RUNNER = """
import sys
sys.path.insert(0, {ext!r})
from pathlib import Path
from stress import run_pages
run_pages(sys.executable, [Path({page!r})], rounds=1, quiet_rounds=0,
          log=lambda line: print(line, flush=True))
"""


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL])
def test_an_interrupted_run_leaves_no_process(tmp_path: Path, how: int) -> None:
    page = tmp_path / "plot_01_sleeps.py"
    page.write_text("import time\ntime.sleep(60)\n")
    with subprocess.Popen(
        [sys.executable, "-c", RUNNER.format(ext=str(EXT), page=str(page))],
        stdout=subprocess.PIPE,
        text=True,
    ) as runner:
        assert runner.stdout is not None
        line = runner.stdout.readline()
        assert "load processes" in line, line
        pids = [int(pid) for pid in line.split(":")[1].split()]
        time.sleep(0.5)  # the page is running
        pages = _processes_named(page.name)
        assert pages, "the page did not start"
        runner.send_signal(how)
        runner.wait(timeout=30)
    assert not wait_until_gone(pids + pages), "a process outlived the run"


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def test_a_failing_page_stops_the_run_and_its_load(tmp_path: Path) -> None:
    page = tmp_path / "plot_01_fails.py"
    page.write_text("raise RuntimeError('this page is broken')\n")
    lines: list[str] = []
    with pytest.raises(PageFailed, match="this page is broken"):
        run_pages(sys.executable, [page], rounds=2, quiet_rounds=0, log=lines.append)
    (started,) = [line for line in lines if "load processes" in line]
    pids = [int(pid) for pid in started.split(":")[1].split()]
    assert not wait_until_gone(pids)
    assert sum("FAILED" in line for line in lines) == 1  # no second round


def test_a_page_past_its_time_limit_is_stopped_with_its_children(
    tmp_path: Path,
) -> None:
    page = tmp_path / "plot_01_hangs.py"
    page.write_text(
        textwrap.dedent(
            """
            import subprocess, sys, time
            child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
            print(child.pid, file=open("child.pid", "w"), flush=True)
            time.sleep(60)
            """
        )
    )
    before = set(_processes_named("time.sleep(60)"))
    run = run_page(sys.executable, page, loaded=False, timeout=3)
    assert run.failure == "still running after 3 s"
    assert run.seconds < 30
    left = set(_processes_named("time.sleep(60)")) - before
    assert not wait_until_gone(sorted(left))


def _processes_named(text: str) -> list[int]:
    return [
        int(p.name)
        for p in Path("/proc").iterdir()
        if p.name.isdigit() and text in _cmdline(int(p.name)) and alive(int(p.name))
    ]


def test_records_are_collected_and_thin_margins_reported(tmp_path: Path) -> None:
    page = tmp_path / "plot_01_claims.py"
    page.write_text(
        "from tutorial_utils.timing import check_timing\n"
        "check_timing('roomy', 1.0, below=2, clock='thread CPU time')\n"
        "check_timing('tight', 1.9, below=2, clock='wall clock')\n"
    )
    runs = run_pages(sys.executable, [page], rounds=1, log=lambda line: None)
    assert [run.loaded for run in runs] == [False, True]
    assert [check["claim"] for check in runs[1].checks] == ["roomy", "tight"]
    lines, thin = margins_table(runs)
    assert lines[0] == "plot_01_claims.py: roomy (thread CPU time; needs < 2)"
    assert any("margin     50%" in line for line in lines)
    assert thin == ["plot_01_claims.py: tight: margin 5% on a quiet machine, under 20%"]


def test_the_timing_page_holds_under_load() -> None:
    # Its loop check once read the wall clock (a Timer's default), and failed
    # on a busy machine: the waits for a CPU went into some runs and not
    # others. Its claims about work now read the thread's CPU time.
    page = GALLERY / "performance" / "plot_01_timing_pytorch_code.py"
    with cpu_load(2):
        run = run_page(sys.executable, page, loaded=True, timeout=300)
    assert not run.failure, run.failure
    clocks = {check["claim"]: check["clock"] for check in run.checks}
    loop = "the loop's time grows in proportion to its length"
    assert clocks.get(loop) == "thread CPU time", clocks
    assert all(check["margin"] > 0 for check in run.checks)


def test_the_stress_session_is_in_ci() -> None:
    commands = (ROOT / ".ci" / "run").read_text().splitlines()
    assert "nox -s stress" in commands
