"""What the build keeps of each page's time: its timing checks, and its waits.

A page's claims about time go through
:func:`tutorial_utils.timing.check_timing`, which appends a record (the
claim, the values measured, the bound, the clock) to the file named by the
environment variable ``TUTORIAL_UTILS_TIMING_RECORD``. :func:`note_page`,
one of Sphinx-Gallery's ``reset_modules`` hooks (``conf.py``), points that
variable at a file beside the page's generated output before the page runs,
so each page keeps the records of its last run, as it keeps its run time.
The execution-times page lists them with their margins
(:func:`timing_checks_rst`), and :func:`write_timing_checks` copies them into
the built site as ``timing-checks.json``, so a check drifting towards its
bound shows before it fails.

The same hook measures two things a busy machine does not inflate: how
long the page's thread waited for a CPU that other processes held (its
run-queue delay, from Linux's ``/proc/self/task/<id>/schedstat``), and the
CPU time the page used (its process's, and that of the processes it started
and waited for). The time budget of a page is checked against
:func:`busy_seconds`: its run time less that wait, or its CPU time if that
is less. A page that was slow only because the machine was busy is not a
slow page. The price: a page that is slow because it waits (sleeps, or
reads a slow disk) rather than computes is held to its hard limit only.

:func:`cpu_stall_seconds` reads how long, machine-wide, some process has
waited for a CPU (Linux's ``/proc/pressure/cpu``); the hard limit
(``page_limits.py``) leaves that time out.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

from build_facts import RECORD_VARIABLE
from sphinx.application import Sphinx

#: Beside each page's generated copy: its timing checks, and its CPU time and wait.
RECORDS_SUFFIX = ".timing-checks.jsonl"
BUSY_SUFFIX = ".busy.json"

# The page running in this process: where its files go, and its wait so far.
_RUNNING: dict[str, Any] = {}


def run_queue_wait() -> float | None:
    """Seconds this thread has waited, runnable, for a CPU; None if unknown.

    Linux's ``schedstat`` gives, for each thread, the nanoseconds it ran and
    the nanoseconds it waited on a run queue.
    """
    path = Path(f"/proc/self/task/{threading.get_native_id()}/schedstat")
    try:
        return int(path.read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


#: Linux's pressure-stall information for the CPU.
CPU_PRESSURE = Path("/proc/pressure/cpu")


def cpu_stall_seconds(path: Path = CPU_PRESSURE) -> float | None:
    """Seconds, since boot, in which some process waited for a CPU; None if unknown.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     sample = Path(folder) / "cpu"
    ...     _ = sample.write_text("some avg10=1.00 avg60=0.50 total=2500000")
    ...     cpu_stall_seconds(sample), cpu_stall_seconds(Path(folder) / "none")
    (2.5, None)
    """
    try:
        first = path.read_text().splitlines()[0].split()
    except (OSError, IndexError):
        return None
    fields = dict(field.split("=", 1) for field in first[1:] if "=" in field)
    if first[0] != "some" or "total" not in fields:
        return None
    try:
        return int(fields["total"]) / 1e6  # microseconds
    except ValueError:
        return None


def _output(gallery_conf: dict[str, Any], fname: str) -> Path | None:
    """Where Sphinx-Gallery puts the generated copy of the page `fname`."""
    src = Path(gallery_conf["src_dir"])
    for examples, generated in zip(
        gallery_conf["examples_dirs"], gallery_conf["gallery_dirs"], strict=True
    ):
        for script in sorted((src / examples).rglob(fname)):
            return src / generated / script.relative_to(src / examples)
    return None


def note_page(gallery_conf: dict[str, Any], fname: str, when: str) -> None:
    """Sphinx-Gallery ``reset_modules`` hook: keep a page's timing records and wait."""
    if when == "before":
        target = _output(gallery_conf, fname)
        if target is None:
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        records = target.with_name(target.stem + RECORDS_SUFFIX)
        records.unlink(missing_ok=True)
        os.environ[RECORD_VARIABLE] = str(records)
        _RUNNING.update(target=target, wait=run_queue_wait(), cpu=_cpu_seconds())
        return
    os.environ.pop(RECORD_VARIABLE, None)
    target = _RUNNING.pop("target", None)
    start_wait, start_cpu = _RUNNING.pop("wait", None), _RUNNING.pop("cpu", None)
    end_wait = run_queue_wait()
    if target is None or start_wait is None or end_wait is None:
        return
    busy = {"waited": end_wait - start_wait, "cpu": _cpu_seconds() - start_cpu}
    target.with_name(target.stem + BUSY_SUFFIX).write_text(json.dumps(busy))


def _cpu_seconds() -> float:
    """CPU seconds of this process and of the child processes it waited for."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def busy(script: Path) -> tuple[float, float] | None:
    """Seconds the last run of the generated page `script` waited for a CPU, and used one."""
    path = script.with_name(script.stem + BUSY_SUFFIX)
    try:
        found = json.loads(path.read_text())
        return float(found["waited"]), float(found["cpu"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def busy_seconds(script: Path, seconds: float) -> float:
    """The time a page that ran `seconds` would count against its budget.

    Its run time less its thread's wait for a CPU, or its CPU time if less;
    `seconds` itself where the page's run recorded neither (not on Linux).
    """
    found = busy(script)
    if found is None:
        return seconds
    waited, cpu = found
    return min(seconds - waited, cpu)


def records(app: Sphinx) -> list[tuple[Path, dict[str, Any]]]:
    """Every timing check recorded by the last run of each existing page."""
    src = Path(app.srcdir)
    found = []
    for gallery_dir in app.config.sphinx_gallery_conf["gallery_dirs"]:
        for path in sorted((src / gallery_dir).rglob(f"*{RECORDS_SUFFIX}")):
            script = path.with_name(path.name.replace(RECORDS_SUFFIX, ".py"))
            if not script.is_file():  # the page was removed
                continue
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    found.append((script, json.loads(line)))
    return found


def timing_checks_rst(app: Sphinx) -> list[str]:
    """The execution-times page's section on timing checks, as RST lines."""
    src = Path(app.srcdir)
    found = records(app)
    lines = [
        "Timing checks",
        "-------------",
        "",
        (
            "Each claim a page makes about time, as its last run in this build "
            "measured it: the value (several where the page measured again "
            "before deciding), the bound the claim needs, and the margin, how "
            "far inside the bound the value lay, as a share of the bound. "
            "Thread CPU time does not count waiting for a CPU that other "
            "programs hold; wall-clock time does. The same records are in "
            "``timing-checks.json`` at the root of the site. Thinnest margins "
            "first."
        ),
        "",
    ]
    if not found:
        return [*lines, "No timing check ran in this build.", ""]
    lines += [
        ".. list-table::",
        "   :header-rows: 1",
        "   :widths: 25 35 14 10 8 8",
        "",
        "   * - Page",
        "     - Claim",
        "     - Clock",
        "     - Measured",
        "     - Bound",
        "     - Margin",
    ]
    for script, check in sorted(found, key=lambda item: item[1]["margin"]):
        label = "sphx_glr_" + "_".join(script.relative_to(src).with_suffix("").parts)
        values = ", ".join(f"{value:.3g}" for value in check["measurements"])
        lines += [
            f"   * - :ref:`{label}.py`",
            f"     - {check['claim']}",
            f"     - {check['clock']}",
            f"     - {values}",
            f"     - {check['relation']} {check['bound']:g}",
            f"     - {check['margin']:.0%}",
        ]
    return [*lines, ""]


def write_timing_checks(app: Sphinx, exception: Exception | None) -> None:
    """Write every page's timing records into the built site, as JSON."""
    if exception is not None or app.builder.format != "html":
        return
    src = Path(app.srcdir)
    found = [
        {**check, "page": script.relative_to(src).as_posix()}
        for script, check in records(app)
    ]
    target = Path(app.outdir, "timing-checks.json")
    target.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")


def setup(app: Sphinx) -> dict[str, object]:
    app.connect("build-finished", write_timing_checks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
