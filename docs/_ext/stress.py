"""Run the pages that check claims about time, under a CPU load that ends itself.

``nox -s stress`` and the tests import this module; it needs only the
standard library. A timing check must hold while other programs use the
CPU, as they do on a hosted builder. :func:`cpu_load` starts such programs:
processes that spin on a CPU until a deadline, or until the process that
started them is gone, whichever comes first. :func:`run_pages` runs each
page as a script of its own, on a quiet machine or under that load, and
collects what every :func:`tutorial_utils.timing.check_timing` recorded.

The load never outlives its run: :func:`cpu_load` stops its processes when
the block it guards ends, normally, by an exception (a page that failed or
ran past its time limit), by Ctrl-C or by ``SIGTERM``; and each process also
ends itself at its deadline, or when its parent dies (``PR_SET_PDEATHSIG``
on Linux, and a check of its parent's pid everywhere). A page that runs past
its time limit is stopped with every process in its session; a page whose
runner is killed outright dies with it (Linux).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

from build_facts import RECORD_VARIABLE

#: A page whose source calls this makes claims about time.
_TIMING_CHECK = re.compile(r"\bcheck_timing\(")

#: A margin, on a quiet machine, below which a check is reported.
THIN_MARGIN = 0.2

# One load process: spin until the deadline (argv[1], seconds from now) or
# until its parent is gone. On Linux the kernel also kills it with its parent.
LOAD_PROGRAM = """
import ctypes, os, sys, time
parent = os.getppid()
if sys.platform.startswith("linux"):
    ctypes.CDLL(None, use_errno=True).prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
    if os.getppid() != parent:
        sys.exit()
deadline = time.monotonic() + float(sys.argv[1])
while time.monotonic() < deadline and os.getppid() == parent:
    sum(i * i for i in range(20_000))
"""


def timed_pages(gallery: Path) -> list[Path]:
    """Every page under `gallery` whose checks involve time, in file order."""
    return [
        page
        for page in sorted(gallery.rglob("plot_*.py"))
        if _TIMING_CHECK.search(page.read_text(encoding="utf-8"))
    ]


def _die_with_parent() -> None:
    """In a child, before it runs: be killed when this process dies (Linux)."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"stopped by signal {signum}")


@contextmanager
def cpu_load(processes: int = 2, seconds: float = 1800) -> Iterator[list[int]]:
    """Keep `processes` CPU-bound processes running while the block runs.

    Yields their process ids. Each process ends by itself after `seconds`,
    or when this process is gone; they are all stopped when the block ends,
    however it ends. ``SIGTERM`` to this process becomes a
    :class:`KeyboardInterrupt` meanwhile, so the block's cleanup runs.
    """
    if processes < 1 or seconds <= 0:
        raise ValueError(
            f"cpu_load needs processes >= 1 and seconds > 0; got {processes}, {seconds}"
        )
    previous = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, _raise_interrupt)
    started: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(processes):
            started.append(
                subprocess.Popen([sys.executable, "-c", LOAD_PROGRAM, str(seconds)])
            )
        yield [process.pid for process in started]
    finally:
        for process in started:
            process.kill()
        for process in started:
            process.wait()
        signal.signal(signal.SIGTERM, previous)


@dataclass
class PageRun:
    """One run of one page: how it ended and what its timing checks recorded."""

    page: str
    loaded: bool
    seconds: float
    failure: str = ""
    checks: list[dict[str, object]] = field(default_factory=list)


def run_page(
    python: str | Path, page: Path, *, loaded: bool, timeout: float
) -> PageRun:
    """Run `page` as a script in an empty folder; collect its timing records."""
    with tempfile.TemporaryDirectory(prefix="stress-") as folder:
        copy = Path(folder, page.name)
        shutil.copyfile(page, copy)
        record = Path(folder, "timing-checks.jsonl")
        env = {**os.environ, RECORD_VARIABLE: str(record), "MPLBACKEND": "Agg"}
        tic = time.perf_counter()
        process = subprocess.Popen(
            [str(python), copy.name],
            cwd=folder,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # its own group: stopped whole on a timeout
            preexec_fn=_die_with_parent,  # noqa: PLW1509 (this runner has no threads)
        )
        try:
            _, stderr = process.communicate(timeout=timeout)
            failure = stderr[-3000:] if process.returncode else ""
        except subprocess.TimeoutExpired:
            failure = f"still running after {timeout:.0f} s"
        finally:
            # The page's session: the page if it still runs, and whatever it
            # started and left running.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.communicate()  # reaps it, and closes its pipe
        seconds = time.perf_counter() - tic
        checks = (
            [
                json.loads(line)
                for line in record.read_text(encoding="utf-8").splitlines()
                if line.strip()
            ]
            if record.is_file()
            else []
        )
    return PageRun(page.name, loaded, seconds, failure, checks)


def run_pages(
    python: str | Path,
    pages: Sequence[Path],
    *,
    rounds: int = 3,
    quiet_rounds: int = 1,
    load_processes: int = 2,
    timeout: float = 600,
    log: Callable[[str], object] = print,
) -> list[PageRun]:
    """Run every page `quiet_rounds` times quietly, then `rounds` times under load.

    Stops at the first page that fails, with the load stopped too. `log`
    is called with a line of progress after each run. ``SIGTERM`` becomes a
    :class:`KeyboardInterrupt` meanwhile, so that the page running and the
    load are stopped on the way out.
    """
    runs: list[PageRun] = []
    previous = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        _run_all(
            python, pages, runs, rounds, quiet_rounds, load_processes, timeout, log
        )
    finally:
        signal.signal(signal.SIGTERM, previous)
    return runs


def _run_all(
    python: str | Path,
    pages: Sequence[Path],
    runs: list[PageRun],
    rounds: int,
    quiet_rounds: int,
    load_processes: int,
    timeout: float,
    log: Callable[[str], object],
) -> None:
    def one(page: Path, loaded: bool) -> None:
        run = run_page(python, page, loaded=loaded, timeout=timeout)
        runs.append(run)
        state = "under load" if loaded else "quiet"
        verdict = "FAILED" if run.failure else "passed"
        log(f"{verdict} in {run.seconds:5.1f} s, {state}: {page.name}")
        if run.failure:
            raise PageFailed(run)

    for _ in range(quiet_rounds):
        for page in pages:
            one(page, False)
    with cpu_load(load_processes) as pids:
        log(f"{len(pids)} CPU-bound load processes: {' '.join(map(str, pids))}")
        for _ in range(rounds):
            for page in pages:
                one(page, True)


class PageFailed(Exception):
    """A page failed or ran past its time limit; the run is attached."""

    def __init__(self, run: PageRun) -> None:
        super().__init__(f"{run.page} failed:\n{run.failure}")
        self.run = run


def margins_table(runs: Sequence[PageRun]) -> tuple[list[str], list[str]]:
    """Each check's bound, quiet value and margin, and its values under load.

    Returns the table's lines, and a line for each check whose quiet margin
    is under :data:`THIN_MARGIN`.
    """
    keyed: dict[tuple[str, ...], dict[str, list[dict[str, object]]]] = {}
    for run in runs:
        for check in run.checks:
            # One claim may be checked against two bounds (a range).
            key = (run.page, str(check["claim"]), str(check["relation"]))
            keyed.setdefault(key, {"quiet": [], "load": []})[
                "load" if run.loaded else "quiet"
            ].append(check)
    lines, thin = [], []
    for (page, claim, _), found in keyed.items():
        first = (found["quiet"] or found["load"])[0]
        need = f"{first['relation']} {float(first['bound']):g}"  # type: ignore[arg-type]
        lines.append(f"{page}: {claim} ({first['clock']}; needs {need})")
        for state, checks in found.items():
            for check in checks:
                values = ", ".join(f"{v:.3g}" for v in check["measurements"])  # type: ignore[attr-defined]
                lines.append(
                    f"    {state:5}  measured {values:<24} margin {float(check['margin']):7.0%}"  # type: ignore[arg-type]
                )
        quiet = [float(c["margin"]) for c in found["quiet"]]  # type: ignore[arg-type]
        if quiet and min(quiet) < THIN_MARGIN:
            thin.append(
                f"{page}: {claim}: margin {min(quiet):.0%} on a quiet machine, "
                f"under {THIN_MARGIN:.0%}"
            )
    return lines, thin
