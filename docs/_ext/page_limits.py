"""Every gallery page starts from the same state, and none can hold the build.

What this changes in Sphinx-Gallery: its ``reset_modules`` hook
(:func:`reset_state`, named in ``conf.py``) runs in the process that runs a
page, before and after the page.

- Before, it puts PyTorch's global state back (seeds, default dtype and
  device, grad mode, ...), so a page prints the same numbers whatever ran
  before it, in whichever process. Sphinx-Gallery runs the pages in worker
  processes, one per CPU (``"parallel"`` in ``conf.py``; joblib's loky
  processes); a worker gets the build's environment back, since joblib sets
  ``OMP_NUM_THREADS`` and friends to 1 in its workers, which would change the
  thread count a page prints and the numbers its thread pools compute. The
  one change a worker keeps is ``OMP_WAIT_POLICY=PASSIVE``, so that the
  threads of one page do not spin on the cores the page beside it needs.
- A page that hangs cannot hold the build. A page still running at its hard
  limit (``gallery_hard_limit_factor`` times its budget, 4 times 15 s by
  default) is interrupted by a ``SIGALRM`` handler that raises
  :class:`PageTimeout` on the page's line; Sphinx-Gallery prints the
  traceback, and the hook then stops the build with :class:`PageStopped`,
  naming the page and the line, after killing the processes the page
  started. A page that swallows the exception, or is stuck in C code that
  never returns to Python, is ended :data:`BACKSTOP_GRACE_SECONDS` later by
  :func:`faulthandler.dump_traceback_later`, which prints every thread's
  stack (the page's line included) and ends its process.
- A busy machine does not stop a page. The limit leaves out the time in
  which the machine kept some process waiting for a CPU, as Linux's
  pressure-stall information counts it (``/proc/pressure/cpu``, "some"):
  at the limit, a page that lost time so is given that time again, up to
  :data:`MOST_STRETCH` times its limit on the clock, which still ends a
  hang on a machine that is never quiet. Without that file (another
  system, an older kernel), the limit is the clock's.
- A page may write a file for the reader (a profiler trace, say) into its
  working directory, which is the page's folder under ``gallery/`` while
  the build runs it. After the page, :func:`collect_page_files` moves each
  new file whose name the page's source mentions next to the generated
  page, where a ``:download:`` role in the page's text finds it; the
  sources stay clean.

The budgets the limits derive from, and the order the pages run in, are
set in ``page_budgets.py``, in the build's process.
"""

from __future__ import annotations

import faulthandler
import json
import linecache
import multiprocessing
import os
import signal
import sys
import threading
import time
from pathlib import Path
from types import FrameType
from typing import Any

from sphinx.application import Sphinx
from sphinx.errors import SphinxError
from timing_records import cpu_stall_seconds

#: Seconds between a page's hard limit and the backstop that ends the
#: process running it, for a page that the limit's exception did not stop.
BACKSTOP_GRACE_SECONDS = 10.0

#: At most this many times its hard limit, on the clock, a page is given
#: while the machine keeps processes waiting for a CPU.
MOST_STRETCH = 4.0

# The build's process hands the limits to the processes that run the pages
# through their environment: loky's workers never read conf.py, and they
# inherit the environment the build's process had when they started.
LIMITS_VARIABLE = "SPHINX_GALLERY_PAGE_LIMITS"


def _limits() -> dict[str, Any]:
    text = os.environ.get(LIMITS_VARIABLE)
    if text is None:  # the hook runs without plan_page_runs (another conf.py)
        return {"budget": 15.0, "factor": 4.0, "pages": {}, "build_pid": None}
    limits: dict[str, Any] = json.loads(text)
    return limits


class PageTimeout(Exception):
    """Raised inside a gallery page that is still running at its hard limit."""


class PageStopped(SphinxError):
    """The build stopped because a page ran past its hard limit."""

    category = "Gallery page stopped"


# The page that this process is running, between the hook's two calls.
_RUNNING: dict[str, Any] = {}
# What this process starts every page with: PyTorch's thread count; and
# whether a worker's environment was restored.
_START: dict[str, int] = {}
# The names in each running page's folder before it ran (collect_page_files).
_BEFORE: dict[str, set[str]] = {}


# The variable that sets the thread count of a BLAS library that
# threadpoolctl recognises, one of those joblib sets in its workers.
_BLAS_VARIABLES = {
    "openblas": "OPENBLAS_NUM_THREADS",
    "mkl": "MKL_NUM_THREADS",
    "blis": "BLIS_NUM_THREADS",
}
_EXPORTED: list[str] = []


def export_blas_threads() -> None:
    """Give joblib's workers the BLAS thread count of the build's process.

    joblib starts its workers with ``OMP_NUM_THREADS``,
    ``OPENBLAS_NUM_THREADS`` (...) set to the CPUs per worker, 1 here,
    unless the build's environment sets them. A worker loads NumPy's BLAS
    library before the first page's hook runs (Matplotlib imports NumPy),
    and that library reads its variable once, when it loads; so the build
    sets it to what the library uses in the build's own process, for as long
    as the gallery is generated (:func:`unexport_blas_threads`).
    """
    import numpy  # noqa: F401 - loads its BLAS library, as a worker does
    from threadpoolctl import threadpool_info

    for pool in threadpool_info():
        name = _BLAS_VARIABLES.get(pool["internal_api"])
        if pool["user_api"] == "blas" and name and name not in os.environ:
            os.environ[name] = str(pool["num_threads"])
            _EXPORTED.append(name)


def unexport_blas_threads(app: Sphinx) -> None:
    """Take back what :func:`export_blas_threads` set, once the pages ran."""
    while _EXPORTED:
        os.environ.pop(_EXPORTED.pop(), None)


def allow_missing_page_files(app: Sphinx) -> None:
    """In a build that runs no page, allow the files that pages write to be missing.

    ``nox -s docs -- --no-exec`` (Sphinx-Gallery's ``plot_gallery=0``) checks
    text and layout only; a ``:download:`` of a file that a page writes when
    it runs (collect_page_files) then has nothing to point at, which is not
    a fault of the text. A build that runs the pages keeps the warning.
    """
    ran = app.config.sphinx_gallery_conf.get("plot_gallery", True)
    if str(ran).lower() in ("0", "false"):
        app.config.suppress_warnings = [
            *app.config.suppress_warnings,
            "download.not_readable",
        ]


def _restore_build_environment(limits: dict[str, Any]) -> None:
    """In a worker process, remove what joblib and the build added to its environment.

    What a page starts then gets the build's environment, and PyTorch,
    which reads ``OMP_NUM_THREADS`` and ``MKL_NUM_THREADS`` when it starts
    its thread pool, uses as many threads as in the build's process; so this
    must happen before the first page imports torch.
    """
    if limits["build_pid"] in (None, os.getpid()) or "environment" in _START:
        return
    _START["environment"] = 1
    added = set(os.environ) - set(limits["build_environment"]) - {LIMITS_VARIABLE}
    for name in added:
        del os.environ[name]
    # One change: OpenMP threads (PyTorch's) that wait for work sleep instead
    # of spinning. Spinning threads take the cores from the page running
    # beside them: two training pages at once took 10 times as long as one.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    if "torch" in sys.modules:
        raise RuntimeError(
            "torch was imported in a gallery worker before the build's "
            "environment was restored: its thread count would differ"
        )


def reset_state(gallery_conf: dict[str, Any], fname: str, when: str) -> None:
    """Sphinx-Gallery ``reset_modules`` hook: same state before each page, on time.

    Before a page, it resets the global state and arms the page's hard
    limit; after it, it disarms the limit, and stops the build if the page
    ran into it.
    """
    if when == "after":
        _disarm()
        before = _BEFORE.pop(fname, None)
        if before is not None:
            collect_page_files(gallery_conf, fname, before)
        return
    limits = _limits()
    _restore_build_environment(limits)
    # loky makes its own start method its workers' default, which a page's
    # DataLoader workers would then use (and fail with); every page gets the
    # platform's default, as in a reader's own Python.
    multiprocessing.set_start_method(
        multiprocessing.get_all_start_methods()[0], force=True
    )
    # Imported here: torch takes a second to import, and a build in which no
    # page runs should not pay for it.
    import torch

    from tutorial_utils.reproducibility import reset_global_state

    reset_global_state(seed=0)
    # Every page starts with the thread count its process started with, even
    # if the page before it changed it.
    _START.setdefault("threads", torch.get_num_threads())
    torch.set_num_threads(_START["threads"])
    folders = _page_folders(gallery_conf, fname)
    if folders is not None:
        _BEFORE[fname] = {path.name for path in folders[0].iterdir()}
    budget = float(limits["pages"].get(fname, limits["budget"]))
    _arm(fname, budget, float(limits["factor"]), gallery_conf["src_dir"])


def _page_folders(gallery_conf: dict[str, Any], fname: str) -> tuple[Path, Path] | None:
    """The folder of the page `fname` under ``gallery/``, and its output folder."""
    src = Path(gallery_conf["src_dir"])
    for examples, generated in zip(
        gallery_conf["examples_dirs"], gallery_conf["gallery_dirs"], strict=True
    ):
        for script in sorted((src / examples).rglob(fname)):
            section = script.parent.relative_to(src / examples)
            return script.parent, src / generated / section
    return None


def collect_page_files(
    gallery_conf: dict[str, Any], fname: str, before: set[str]
) -> list[Path]:
    """Move the files the page `fname` wrote into its folder next to its output.

    `before` names what the folder held before the page ran. Only new files
    whose names the page's source mentions move: a page that runs beside it
    in the same folder keeps its own. Returns where they went.
    """
    folders = _page_folders(gallery_conf, fname)
    if folders is None:
        return []
    folder, output = folders
    source = (folder / fname).read_text(encoding="utf-8")
    moved = []
    for path in sorted(folder.iterdir()):
        if path.name in before or not path.is_file() or path.name not in source:
            continue
        output.mkdir(parents=True, exist_ok=True)
        moved.append(Path(path.replace(output / path.name)))
    return moved


def _arm(fname: str, budget: float, factor: float, src_dir: str) -> None:
    """Stop the page `fname` if it is still running at `factor` times `budget`."""
    _disarm()  # a page that ended without the hook's second call
    limit = budget * factor
    if limit <= 0:  # a budget of 0 (tests: every page is slow) stops nothing
        return
    _RUNNING.update(
        page=fname,
        budget=budget,
        factor=factor,
        limit=limit,
        root=str(Path(src_dir).parent),
        children=_descendants(os.getpid()),
        started=time.monotonic(),
        stalled=cpu_stall_seconds(),
    )
    # Python runs signal handlers in the main thread only. Sphinx-Gallery
    # runs a page there, in the build's process and in loky's workers alike.
    if threading.current_thread() is threading.main_thread():
        _RUNNING["handler"] = signal.signal(signal.SIGALRM, _on_limit)
        signal.setitimer(signal.ITIMER_REAL, limit)
        backstop = limit + BACKSTOP_GRACE_SECONDS
    else:
        backstop = limit
    faulthandler.dump_traceback_later(backstop, exit=True, file=sys.__stderr__)


def _on_limit(signum: int, frame: FrameType | None) -> None:
    """``SIGALRM`` handler: raise :class:`PageTimeout` where the page is."""
    if "page" not in _RUNNING:
        return
    limit, elapsed = _RUNNING["limit"], time.monotonic() - _RUNNING["started"]
    now, then = cpu_stall_seconds(), _RUNNING["stalled"]
    waited = min(elapsed, now - then) if now is not None and then is not None else 0.0
    if elapsed - waited < limit and elapsed < MOST_STRETCH * limit:
        # The machine kept processes waiting: give the page that time again.
        more = min(limit - (elapsed - waited), MOST_STRETCH * limit - elapsed)
        signal.setitimer(signal.ITIMER_REAL, max(more, 0.5))
        faulthandler.dump_traceback_later(
            max(more, 0.5) + BACKSTOP_GRACE_SECONDS, exit=True, file=sys.__stderr__
        )
        return
    where = _where(frame, _RUNNING["page"], _RUNNING["root"])
    hard = f"({_RUNNING['factor']:g} times its {_RUNNING['budget']:g} s budget)"
    if elapsed - waited < limit:  # stopped by MOST_STRETCH
        _RUNNING["stopped"] = (
            f"{where} is still running after {elapsed:.0f} s, {MOST_STRETCH:g} "
            f"times its hard limit of {limit:g} s {hard}, though the machine kept "
            f"processes waiting for a CPU for {waited:.0f} s of them"
        )
    else:
        busy = (
            f", not counting {waited:.0f} s in which the machine kept processes "
            "waiting for a CPU"
            if waited >= 1
            else ""
        )
        _RUNNING["stopped"] = (
            f"{where} is still running after {limit:g} s, its hard limit {hard}{busy}"
        )
    # Said at once, and where the backstop's stack dump will follow, in case
    # the page swallows the exception.
    print(
        f"{_RUNNING['stopped']}: stopping it; if it goes on, its process is ended "
        f"in {BACKSTOP_GRACE_SECONDS:g} s",
        file=sys.__stderr__,
        flush=True,
    )
    raise PageTimeout(_RUNNING["stopped"])


def _where(frame: FrameType | None, fname: str, root: str) -> str:
    """The page, and its line that `frame` (or a frame that called it) is on."""
    while frame is not None:
        path = frame.f_code.co_filename
        if Path(path).name == fname:
            line = linecache.getline(path, frame.f_lineno).strip()
            return f"{os.path.relpath(path, root)}, line {frame.f_lineno} ({line})"
        frame = frame.f_back
    return f"{fname} (after its code ran)"


def _disarm() -> None:
    """Cancel the running page's limit; stop the build if the page ran into it."""
    if not _RUNNING:
        return
    if "handler" in _RUNNING:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, _RUNNING["handler"])
    faulthandler.cancel_dump_traceback_later()
    page = dict(_RUNNING)
    _RUNNING.clear()
    if "stopped" in page:
        stopped = _stop(_descendants(os.getpid()) - page["children"])
        raise PageStopped(
            f"{page['stopped']}: the page was stopped"
            + (f", with the {stopped} processes it started" if stopped > 1 else "")
            + (", with the process it started" if stopped == 1 else "")
            + ". Make it finish sooner, or if it needs longer, declare its "
            'budget and why: # sphinx_gallery_budget_seconds = 30, "reason"'
        )


def _descendants(pid: int) -> set[int]:
    """The processes that `pid` started, and those they started (Linux)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # ended meanwhile
            continue
        # After the command's name, in parentheses: state, parent, ...
        parent = int(text[text.rindex(")") + 2 :].split()[1])
        children.setdefault(parent, []).append(int(stat.parent.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _stop(processes: set[int]) -> int:
    """Kill `processes`, and the process groups that they lead; how many."""
    own_group = os.getpgrp()
    for pid in sorted(processes):
        try:
            # A page's helper may start its processes in a session of their
            # own (run_ddp does), so that it can stop them all at once.
            group = os.getpgid(pid)
            if group == pid != own_group:
                os.killpg(group, signal.SIGKILL)
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return len(processes)
