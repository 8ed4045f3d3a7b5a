"""How the documentation build runs the gallery: same start, fresh, on time.

- Sphinx-Gallery runs the pages in worker processes, one per CPU
  (``"parallel"`` in ``conf.py``; joblib's loky processes), when at least
  two pages are to run (:func:`plan_page_runs`), and calls
  :func:`reset_state`, its ``reset_modules`` hook, in the process that runs
  a page, before and after the page. Before, it puts PyTorch's global state
  back (seeds, default dtype and device, grad mode, ...), so a page prints
  the same numbers whatever ran before it, in whichever process. A worker
  also gets the build's environment back: joblib sets ``OMP_NUM_THREADS``
  and friends to 1 in its workers, which would change the thread count a
  page prints and the numbers its thread pools compute. The one change a
  worker keeps is ``OMP_WAIT_POLICY=PASSIVE``, so that the threads of one
  page do not spin on the cores the page beside it needs.
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
- Sphinx-Gallery runs a page again only when the script itself changed. A
  page also depends on the ``tutorial_utils`` modules it imports, so
  :func:`rerun_pages_with_changed_helpers` stamps each page with a hash of
  those modules (followed through their own imports) and makes Sphinx-Gallery
  run it again when the hash changes.
- A page may write a file for the reader (a profiler trace, say) into its
  working directory, which is the page's folder under ``gallery/`` while
  the build runs it. After the page, :func:`collect_page_files` moves each
  new file whose name the page's source mentions next to the generated
  page, where a ``:download:`` role in the page's text finds it; the
  sources stay clean.
- Figures are stored as 256-colour PNGs (:func:`shrink_figures`): plots
  have few colours, and a page with several figures stays light to load.
- A page's hidden checks (``# sphinx_gallery_start_ignore`` ...
  ``# sphinx_gallery_end_ignore``) are left out of the rendered page and the
  notebook by Sphinx-Gallery, but its ``.py`` download is a verbatim copy of
  the script. :func:`strip_downloads` removes them, and Sphinx-Gallery's
  configuration comments, from the published ``.py`` files (alone and in
  the zipped download), so a download reads like the page.
- A page must run in well under ``gallery_budget_seconds`` (15 s by default)
  on two CPU cores, unless it declares a budget of its own, with the reason,
  in a configuration comment (:func:`declared_budget`) that the rendered
  page, the notebook and the download leave out. After the gallery is
  generated, every example whose last measured run took longer than its
  budget is reported as a warning, which fails the strict build, and keeps
  failing it on rebuilds until the page is made faster.
"""

from __future__ import annotations

import ast
import faulthandler
import functools
import hashlib
import json
import linecache
import multiprocessing
import os
import re
import shutil
import signal
import sys
import threading
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

from sphinx.application import Sphinx
from sphinx.errors import SphinxError
from sphinx.util import logging
from timing_records import busy, busy_seconds, timing_checks_rst

import tutorial_utils

logger = logging.getLogger(__name__)

#: Seconds between a page's hard limit and the backstop that ends the
#: process running it, for a page that the limit's exception did not stop.
BACKSTOP_GRACE_SECONDS = 10.0

# The build's process hands the limits to the processes that run the pages
# through their environment: loky's workers never read conf.py, and they
# inherit the environment the build's process had when they started.
_LIMITS_VARIABLE = "SPHINX_GALLERY_PAGE_LIMITS"

# Shaped like the configuration comments strip_hidden_blocks removes.
_DECLARED_BUDGET = re.compile(r"^# sphinx_gallery_budget_seconds *=(.*)$", re.MULTILINE)


def declared_budget(source: str) -> tuple[float, str] | None:
    """The time budget a page declares for itself, and why; None if it does not.

    A page that needs longer than ``gallery_budget_seconds`` says so in its
    first code cell, in a Sphinx-Gallery configuration comment, which the
    rendered page and notebook (``remove_config_comments``) and the ``.py``
    download (:func:`strip_downloads`) leave out::

        # sphinx_gallery_budget_seconds = 30, "trains on four processes twice"

    Raises
    ------
    ValueError
        If the declaration is not seconds (a number above 0) and a reason,
        or the page declares its budget twice.

    Examples
    --------
    >>> declared_budget('x = 1\\n# sphinx_gallery_budget_seconds = 30, "why"\\n')
    (30.0, 'why')
    >>> declared_budget("x = 1\\n") is None
    True
    """
    found = _DECLARED_BUDGET.findall(source)
    if not found:
        return None
    if len(found) > 1:
        raise ValueError("sphinx_gallery_budget_seconds is declared more than once")
    try:
        value = ast.literal_eval(found[0].strip())
    except (SyntaxError, ValueError):
        value = None
    match value:
        case (int() | float() as seconds, str() as reason) if (
            not isinstance(seconds, bool) and seconds > 0 and reason.strip()
        ):
            return float(seconds), reason.strip()
    raise ValueError(
        f"sphinx_gallery_budget_seconds ={found[0]}: give the seconds (above 0) "
        'and the reason, e.g. = 30, "trains on four processes twice"'
    )


def _budget(script: Path, default: float) -> float:
    """The budget of `script`: its own, or `default` (also if it is malformed)."""
    try:
        own = declared_budget(script.read_text())
    except ValueError:  # reported by plan_page_runs
        return default
    return own[0] if own else default


def _pages(app: Sphinx) -> list[tuple[Path, Path]]:
    """Each gallery script, and where Sphinx-Gallery copies it to."""
    conf = app.config.sphinx_gallery_conf
    src = Path(app.srcdir)
    pages = []
    for examples, gallery in zip(
        conf["examples_dirs"], conf["gallery_dirs"], strict=True
    ):
        scripts = (src / examples).resolve()
        for script in sorted(scripts.rglob("plot_*.py")):
            pages.append((script, src / gallery / script.relative_to(scripts)))
    return pages


def plan_page_runs(app: Sphinx) -> None:
    """Tell the processes that will run the pages their budgets and limits.

    Also warns about every malformed budget declaration (which fails the
    strict build; such a page gets the default budget), and runs the pages
    in the build's own process when fewer than two of them will run (a
    rebuild), which saves starting the worker processes.
    """
    from sphinx_gallery.utils import get_md5sum

    conf = app.config.sphinx_gallery_conf
    budgets: dict[str, float] = {}
    to_run = 0
    for script, target in _pages(app):
        # Sphinx-Gallery runs a page whose copy's md5 is not the script's.
        md5 = Path(f"{target}.md5")
        current = md5.is_file() and md5.read_text() == get_md5sum(script, mode="t")
        if conf["plot_gallery"] and not current:
            to_run += 1
        try:
            own = declared_budget(script.read_text())
        except ValueError as error:
            logger.warning("%s: %s", script, error, type="gallery", subtype="budget")
            continue
        if own:
            # Keyed by file name, all the hook is told; where two sections
            # have a page of that name, the longer budget wins.
            budgets[script.name] = max(own[0], budgets.get(script.name, 0.0))
        _EXPECTED_SECONDS[os.path.normpath(script)] = _expected_seconds(
            target, own[0] if own else 0.0
        )
    if to_run < 2:
        conf["parallel"] = False
    else:
        _run_longest_first()
    build_environment = sorted(os.environ)
    if conf["parallel"]:
        _export_blas_threads()
    os.environ[_LIMITS_VARIABLE] = json.dumps(
        {
            "budget": float(app.config.gallery_budget_seconds),
            "factor": float(app.config.gallery_hard_limit_factor),
            "pages": budgets,
            "build_pid": os.getpid(),
            "build_environment": build_environment,
        }
    )


#: Each page's expected run time, by its script's path: what it took last
#: time, else the budget it declares (a page declares one when it is slow).
_EXPECTED_SECONDS: dict[str, float] = {}


def _expected_seconds(target: Path, declared: float) -> float:
    cost = target.with_name(target.stem + ".cost.json")
    try:
        return float(json.loads(cost.read_text())["time"])
    except (OSError, ValueError, KeyError, TypeError):
        return declared


def _run_longest_first() -> None:
    """Start each section's slowest pages first, as far as it is known.

    Sphinx-Gallery runs a section's pages in its worker processes in the
    gallery's order, and waits for the whole section before the next. A
    slow page that starts last runs alone while the other workers wait; one
    that starts first runs while they take the quick pages. The pages' order
    on the site does not change (Sphinx-Gallery puts the results back in it).
    """
    from sphinx_gallery import gen_rst

    split = gen_rst._split_parallel
    if getattr(split, "longest_first", False):
        return

    def longest_first(
        sorted_listdir: list[str], src_dir: Any, gallery_conf: Any
    ) -> tuple[list[str], list[str]]:
        serial, parallel = split(sorted_listdir, src_dir, gallery_conf)
        expected = {
            name: _EXPECTED_SECONDS.get(os.path.normpath(Path(src_dir, name)), 0.0)
            for name in parallel
        }
        return serial, sorted(parallel, key=lambda name: -expected[name])

    longest_first.longest_first = True  # type: ignore[attr-defined]
    gen_rst._split_parallel = longest_first


def _limits() -> dict[str, Any]:
    text = os.environ.get(_LIMITS_VARIABLE)
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


def _export_blas_threads() -> None:
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
    """Take back what :func:`_export_blas_threads` set, once the pages ran."""
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
    added = set(os.environ) - set(limits["build_environment"]) - {_LIMITS_VARIABLE}
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
    where = _where(frame, _RUNNING["page"], _RUNNING["root"])
    _RUNNING["stopped"] = (
        f"{where} is still running after {_RUNNING['limit']:g} s, its hard limit "
        f"({_RUNNING['factor']:g} times its {_RUNNING['budget']:g} s budget)"
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


_FROM_IMPORT = re.compile(
    r"^[ \t]*from[ \t]+(tutorial_utils(?:\.\w+)*)[ \t]+import[ \t]+"
    r"(\([\w\s,]+\)|[\w \t,]+)",
    re.MULTILINE,
)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+(tutorial_utils(?:\.\w+)*)", re.MULTILINE)


@functools.cache
def _helper_imports(source: str) -> frozenset[str]:
    """The ``tutorial_utils`` modules a piece of Python source imports.

    A regular expression, not :mod:`ast`: it runs on every build, and parsing
    every page costs more than the rest of a no-op rebuild's own work. A
    match inside a string only adds a dependency, which is harmless.
    """
    found = set(_IMPORT.findall(source))
    for module, names in _FROM_IMPORT.findall(source):
        found.add(module)
        found.update(f"{module}.{name}" for name in re.findall(r"\w+", names))
    return frozenset(found)


def helper_digest(source: str, package: Path | None = None) -> str:
    """Hash of every ``tutorial_utils`` file that `source` depends on."""
    package = package or Path(tutorial_utils.__file__).parent
    files = {p.stem if p.stem != "__init__" else "": p for p in package.glob("*.py")}
    seen: set[str] = set()
    todo: Iterable[str] = _helper_imports(source)
    digest = hashlib.sha256()
    while todo:
        modules = set()
        for name in todo:
            submodule = name.split(".")[1] if "." in name else ""
            if submodule in files and submodule not in seen:
                seen.add(submodule)
                modules.add(submodule)
        todo = set()
        for submodule in sorted(modules):
            text = files[submodule].read_text()
            todo |= _helper_imports(text)
    for submodule in sorted(seen):
        digest.update(submodule.encode() + b"\0" + files[submodule].read_bytes())
    return digest.hexdigest()


def notebook_inputs_key() -> str:
    """Hash of what the MyST pages' outputs depend on besides their own code.

    myst-nb keys its cache on a page's code cells only; the outputs also
    depend on the helper package's sources and on the installed versions.
    """
    from importlib.metadata import version

    digest = hashlib.sha256(sys.version.encode())
    for name in ("torch", "numpy", "matplotlib"):
        digest.update(f"\0{name} {version(name)}".encode())
    package = Path(tutorial_utils.__file__).parent
    for path in sorted(package.rglob("*.py")):
        digest.update(b"\0" + path.relative_to(package).as_posix().encode())
        digest.update(b"\0" + path.read_bytes())
    return digest.hexdigest()


def _notebook_key_file(app: Sphinx) -> Path:
    # One per output folder: each has its own Sphinx environment to refresh.
    return Path(app.outdir).parent / f".jupyter_cache.{Path(app.outdir).name}.key"


#: The key this build's MyST outputs are made with, and whether it is new.
_NOTEBOOKS: dict[str, Any] = {"key": "", "stale": False}


def expire_notebook_outputs(app: Sphinx) -> None:
    """Empty myst-nb's cache when the helpers or the versions changed."""
    stamp = _notebook_key_file(app)
    key = notebook_inputs_key()
    stale = not stamp.is_file() or stamp.read_text() != key
    _NOTEBOOKS.update(key=key, stale=stale)
    if stale:
        shutil.rmtree(Path(app.outdir).parent / ".jupyter_cache", ignore_errors=True)


def reread_myst_pages(
    app: Sphinx, env: Any, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """The MyST pages to read again, and run, after their cache was emptied."""
    if not _NOTEBOOKS["stale"]:
        return []
    return sorted(
        name
        for name in env.found_docs - added - changed
        if Path(env.doc2path(name)).suffix == ".md"
    )


def note_notebook_key(app: Sphinx, exception: Exception | None) -> None:
    """After a build that succeeded, the key its MyST outputs were made with."""
    if exception is None and _NOTEBOOKS["key"]:
        _notebook_key_file(app).write_text(_NOTEBOOKS["key"])


def rerun_pages_with_changed_helpers(app: Sphinx) -> None:
    """Make Sphinx-Gallery re-run each page whose helpers changed since its run."""
    for script, target in _pages(app):
        stamp = target.with_name(target.stem + ".helpers")
        digest = helper_digest(script.read_text())
        if stamp.is_file() and stamp.read_text() == digest:
            continue
        # Without its md5 file Sphinx-Gallery treats the page as changed.
        Path(f"{target}.md5").unlink(missing_ok=True)
        target.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest)


def _figures(app: Sphinx) -> Iterator[Path]:
    src = Path(app.srcdir)
    for gallery_dir in app.config.sphinx_gallery_conf["gallery_dirs"]:
        yield from sorted((src / gallery_dir).rglob("images/**/*.png"))


#: Each figure's digest and modification time before the pages ran.
_FIGURES_BEFORE: dict[Path, tuple[bytes, int]] = {}


def note_figures(app: Sphinx) -> None:
    """Before the pages run: each figure's digest and modification time."""
    _FIGURES_BEFORE.clear()
    _FIGURES_BEFORE.update(
        {
            png: (hashlib.sha256(png.read_bytes()).digest(), png.stat().st_mtime_ns)
            for png in _figures(app)
        }
    )


def shrink_figures(app: Sphinx) -> None:
    """Re-save the gallery's full-colour PNGs with a 256-colour palette.

    Matplotlib writes 32-bit RGBA; a palette image of the same plot looks the
    same and is about a third of the size. Images already in palette mode are
    left alone, so this costs nothing on a rebuild.

    A page that ran again rewrites its figures and its thumbnail. Where the
    shrunk file is the same as before the run, it gets its old modification
    time back: Sphinx re-reads every page that shows an image newer than the
    page, and the API page and the indexes show the thumbnails.
    """
    from PIL import Image

    for png in _figures(app):
        with Image.open(png) as image:
            mode = image.mode
            if mode != "P":
                palette = image.convert("RGB").quantize(
                    colors=256,
                    method=Image.Quantize.FASTOCTREE,
                    dither=Image.Dither.NONE,
                )
        if mode != "P":
            palette.save(png, optimize=True)
        old = _FIGURES_BEFORE.get(png)
        if old is not None and hashlib.sha256(png.read_bytes()).digest() == old[0]:
            os.utime(png, ns=(old[1], old[1]))


#: An exercise's solution sits between two text cells of its page: one
#: ending in a ``<details class="solution">`` raw-HTML block, and one of a
#: ``</details>`` block (README, "Adding a page"). The site shows the solution
#: behind a "Solution" toggle; the notebook download has an empty cell for the
#: reader's answer in its place; the ``.py`` download keeps the solution and
#: drops the two markers, which this matches.
_SOLUTION_MARKERS = re.compile(
    r"(?<=\n)#\n# \.\. raw:: html\n#\n#    <details class=\"solution\">"
    r"<summary>Solution</summary>\n"
    r"|(?<=\n)# %%\n# \.\. raw:: html\n#\n#    </details>\n\n?"
)
#: What the notebook's answer cell says, in place of the solution.
ANSWER_CELL = "# Your answer here; then run the check below.\n"


def exercise_notebook(text: str) -> str:
    """A page's notebook with each exercise's solution replaced by an empty cell.

    The solution's code goes into the cell's metadata (``solution``), where
    the tests find it to run the notebook as a reader who answered right.
    """
    notebook = json.loads(text)
    cells = []
    answer_next = False
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and "</details>" in source:
            continue  # the end of the toggle: nothing for a notebook
        if cell["cell_type"] == "markdown" and '<details class="solution">' in source:
            kept = re.sub(r"\n*\.\. raw:: html\n+ *<details[^\n]*", "", source)
            cell["source"] = kept.rstrip() + "\n"
            answer_next = True
        elif cell["cell_type"] == "code" and answer_next:
            cell["metadata"]["solution"] = source
            cell["source"] = ANSWER_CELL
            cell["outputs"] = []
            answer_next = False
        cells.append(cell)
    notebook["cells"] = cells
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"


_HIDDEN_BLOCK = re.compile(
    r"\n*[ \t]*# sphinx_gallery_start_ignore\b.*?# sphinx_gallery_end_ignore[^\n]*",
    re.DOTALL,
)
_CONFIG_COMMENT = re.compile(r"^# sphinx_gallery_\w+ *=.*\n", re.MULTILINE)


def strip_hidden_blocks(source: str) -> str:
    """`source` without hidden-check blocks and Sphinx-Gallery config comments.

    A block and the blank lines before it go, so the code around it keeps
    the spacing it had.
    """
    source = _SOLUTION_MARKERS.sub("", source)
    return _CONFIG_COMMENT.sub("", _HIDDEN_BLOCK.sub("", source))


def _exercise_notebook_once(text: str) -> str:
    # A notebook already rewritten has no toggle left, so this changes nothing.
    return exercise_notebook(text) if '<details class=\\"solution\\">' in text else text


def _strip_zip(archive: Path) -> None:
    """Rewrite a page's zipped download with its ``.py`` stripped."""
    with zipfile.ZipFile(archive) as source:
        members = [(info, source.read(info)) for info in source.infolist()]
    changed = False
    for index, (info, data) in enumerate(members):
        if info.filename.endswith(".py"):
            stripped = strip_hidden_blocks(data.decode()).encode()
        elif info.filename.endswith(".ipynb"):
            stripped = _exercise_notebook_once(data.decode()).encode()
        else:
            continue
        changed |= stripped != data
        members[index] = (info, stripped)
    if changed:
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as target:
            for info, data in members:
                target.writestr(info, data)


def strip_downloads(app: Sphinx, exception: Exception | None) -> None:
    """Remove hidden blocks from the gallery's published downloads.

    Sphinx copies every download into ``_downloads/`` again on each build
    (``builder.copy_download_files``), so this runs after every build, on
    each page's ``.py`` and on the ``.py`` inside its zipped download.
    """
    if exception is not None or app.builder.format != "html":
        return
    stems = {
        script.stem
        for examples in app.config.sphinx_gallery_conf["examples_dirs"]
        for script in (Path(app.srcdir) / examples).resolve().rglob("plot_*.py")
    }
    for download in sorted(Path(app.outdir, "_downloads").rglob("*")):
        if download.stem not in stems:
            continue
        if download.suffix == ".py":
            text = download.read_text()
            stripped = strip_hidden_blocks(text)
            if stripped != text:
                download.write_text(stripped)
        elif download.suffix == ".ipynb":
            text = download.read_text()
            answered = _exercise_notebook_once(text)
            if answered != text:
                download.write_text(answered)
        elif download.suffix == ".zip":
            _strip_zip(download)


def _costs(app: Sphinx) -> list[tuple[Path, float]]:
    """Each existing gallery script (in the output tree) and its last run time."""
    src = Path(app.srcdir)
    found = []
    for gallery_dir in app.config.sphinx_gallery_conf["gallery_dirs"]:
        for cost_file in sorted((src / gallery_dir).rglob("*.cost.json")):
            script = cost_file.with_name(cost_file.name.replace(".cost.json", ".py"))
            if script.is_file():  # else the page was removed
                found.append((script, float(json.loads(cost_file.read_text())["time"])))
    return found


def write_execution_times(app: Sphinx) -> None:
    """Write ``execution_times.rst``: how long each page took, slowest first.

    Sphinx-Gallery's own summary loads scripts from CDNs; this one is plain.
    """
    src = Path(app.srcdir)
    default = float(app.config.gallery_budget_seconds)
    costs = sorted(_costs(app), key=lambda item: -item[1])
    lines = [
        ":orphan:",
        "",
        "Page execution times",
        "====================",
        "",
        (
            f"How long each gallery page took to run when it last ran in this build "
            f"(the budget is {default:.0f} s a page on two CPU cores, unless the page "
            "declares a budget of its own). The pages run side by side, one per "
            "CPU, so a page's time includes sharing the machine with another page. "
            "Its thread's wait for a CPU that other processes held is measured "
            "too, and so is the CPU time it used; the budget is checked against "
            "the time less that wait, or the CPU time if that is less: a busy "
            "machine does not make a page too slow. "
            "A page that did not change since the previous build keeps its "
            "earlier time."
        ),
        "",
    ]
    if not costs:
        lines += [
            "No page has run in this build (it was built without running them).",
            "",
        ]
    else:
        lines += [
            ".. list-table::",
            "   :header-rows: 1",
            "   :widths: 52 12 12 12 12",
            "",
            "   * - Page",
            "     - Seconds",
            "     - Waited for a CPU",
            "     - CPU seconds",
            "     - Share of budget",
        ]
    for script, seconds in costs:
        label = "sphx_glr_" + "_".join(script.relative_to(src).with_suffix("").parts)
        budget, found = _budget(script, default), busy(script)
        waited, cpu = (f"{value:.2f}" for value in found) if found else ("?", "?")
        counted = busy_seconds(script, seconds)
        lines += [
            f"   * - :ref:`{label}.py`",
            f"     - {seconds:.2f}",
            f"     - {waited}",
            f"     - {cpu}",
            f"     - {counted / budget:.0%}" if budget > 0 else "     - n/a",
        ]
    if costs:
        total = sum(seconds for _, seconds in costs)
        lines += ["", f"Total: {total:.1f} s for {len(costs)} pages.", ""]
    lines += ["", *timing_checks_rst(app)]
    text = "\n".join(lines)
    target = src / "execution_times.rst"
    if not target.is_file() or target.read_text() != text:
        target.write_text(text)


def check_budget(app: Sphinx) -> None:
    """Warn about every example whose last run took over its budget.

    A page's time counts less what its thread waited for a CPU that other
    processes held, or as its CPU time if that is less
    (:func:`timing_records.busy_seconds`).
    """
    default = float(app.config.gallery_budget_seconds)
    src = Path(app.srcdir)
    for script, seconds in _costs(app):
        budget, counted = _budget(script, default), busy_seconds(script, seconds)
        if counted > budget:
            logger.warning(
                "%s ran in %.1f s (%.1f s counted: less its wait for a CPU, or its "
                "CPU time), over the %.0f s budget of %s: make it faster (smaller "
                "sizes, fewer repeats).",
                script.relative_to(src),
                seconds,
                counted,
                budget,
                "this page" if budget != default else "a page",
                type="gallery",
                subtype="budget",
            )


def setup(app: Sphinx) -> dict[str, object]:
    # Seconds a gallery page may take to run, on the two-core build machine;
    # a page may declare its own budget (declared_budget). Whole seconds:
    # Sphinx converts a `-D gallery_budget_seconds=N` override to int, not
    # to float.
    app.add_config_value("gallery_budget_seconds", 15, "", types=(int, float))
    # A page still running at this multiple of its budget is stopped, and the
    # build with it (0: never).
    app.add_config_value("gallery_hard_limit_factor", 4, "", types=(int, float))
    # Before and after sphinx_gallery.gen_gallery.generate_gallery_rst (500).
    app.connect("builder-inited", expire_notebook_outputs, priority=440)
    app.connect("builder-inited", rerun_pages_with_changed_helpers, priority=450)
    app.connect("builder-inited", note_figures, priority=455)
    app.connect("builder-inited", plan_page_runs, priority=460)
    app.connect("builder-inited", unexport_blas_threads, priority=510)
    app.connect("builder-inited", allow_missing_page_files, priority=520)
    app.connect("builder-inited", shrink_figures, priority=800)
    app.connect("builder-inited", write_execution_times, priority=850)
    app.connect("builder-inited", check_budget, priority=900)
    app.connect("env-get-outdated", reread_myst_pages)
    app.connect("build-finished", strip_downloads)
    app.connect("build-finished", note_notebook_key)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
