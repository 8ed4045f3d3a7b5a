"""Each gallery page's time budget: declared, planned for, reported and enforced.

What this changes in Sphinx-Gallery:

- A page must run in well under ``gallery_budget_seconds`` (15 s by default)
  on two CPU cores, unless it declares a budget of its own, with the reason,
  in a configuration comment (:func:`declared_budget`) that the rendered
  page, the notebook and the download leave out.
- Before the pages run, :func:`plan_page_runs` hands the budgets to the
  processes that run the pages (``page_limits.py`` turns them into hard
  limits), runs the pages in the build's own process when fewer than two
  will run, and starts each section's slowest pages first, by replacing
  Sphinx-Gallery's private ``gen_rst._split_parallel`` (listed in
  ``private_names.py``).
- After the gallery is generated, :func:`write_execution_times` writes the
  execution-times page (Sphinx-Gallery's own loads scripts from CDNs), and
  :func:`check_budget` reports every page whose last measured run took
  longer than its budget as a warning, which fails the strict build, and
  keeps failing it on rebuilds until the page is made faster. The time that
  counts leaves out the page's wait for a CPU (``timing_records.py``).
"""

from __future__ import annotations

import ast
import functools
import json
import os
import re
from pathlib import Path
from typing import Any

from page_limits import LIMITS_VARIABLE, export_blas_threads
from sphinx.application import Sphinx
from sphinx.util import logging
from timing_records import busy, busy_seconds, timing_checks_rst

logger = logging.getLogger(__name__)

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


def gallery_pages(app: Sphinx) -> list[tuple[Path, Path]]:
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
    for script, target in gallery_pages(app):
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
        export_blas_threads()
    os.environ[LIMITS_VARIABLE] = json.dumps(
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

    @functools.wraps(split)
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
