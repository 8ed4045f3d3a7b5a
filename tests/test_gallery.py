"""Every gallery page runs on its own, as a reader who downloaded it would."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from collections.abc import Callable, Hashable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from fold_source import (
    guard_checks,
    lines_outside_checks,
)  # sitebuild puts docs/_ext on the path

from side_by_side import Runs, scheduled, side_by_side
from sitebuild import GALLERY, NOTES, ROOT, SCRIPTS

ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")


def test_there_are_pages() -> None:
    assert SCRIPTS, f"no plot_*.py scripts under {GALLERY}"


def _time_limit(source: str) -> float:
    """Seconds a page may take on its own: 8 times its budget, at least 120.

    A busy machine stretches a page's run; the build allows a page 4 times
    its budget and more while processes wait for a CPU (``page_limits``).
    """
    from page_budgets import declared_budget

    declared = declared_budget(source)
    return max(120.0, 8 * (declared[0] if declared else 15.0))


def run_alone(
    script: Path, folder: Path
) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """Run a page in an empty folder: the folder, and what the run did.

    The page runs as written, except that each check cell fails if it draws
    a random number, and with one thread: the build runs it with PyTorch's
    default, one thread per core, so on a machine with several cores a claim
    that holds at only one thread count fails one of the two (a sum split
    over threads rounds differently, for one).
    """
    env = {**os.environ, "MPLBACKEND": "Agg", "OMP_NUM_THREADS": "1"}
    guarded = folder / script.name
    guarded.write_text(guard_checks(script.read_text()))
    return folder, subprocess.run(
        [
            sys.executable,
            # A page may not warn: a warning is a problem the reader would see.
            "-W",
            "error",
            # ... except plt.show() on the non-interactive test backend,
            "-W",
            "ignore:FigureCanvasAgg is non-interactive:UserWarning",
            # and torch 2.13's warning about its own TorchScript decorator when
            # inductor loads: raised inside torch, where Python hides it from a
            # reader.
            "-W",
            "ignore:`torch.jit.script_method` is deprecated:DeprecationWarning",
            str(guarded),
        ],
        cwd=folder,  # nothing is written into the repository
        env=env,
        capture_output=True,
        text=True,
        timeout=_time_limit(script.read_text()),
        check=False,
    )


@pytest.fixture(scope="module")
def page_runs(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Runs]:
    """Every selected page's run, started side by side: (folder, result) by script."""
    jobs: dict[Hashable, Callable[[], Any]] = {}
    for _, script in scheduled(request, "test_page_runs_on_its_own"):
        folder = tmp_path_factory.mktemp(script.stem)
        jobs[script] = partial(run_alone, script, folder)
    with side_by_side(jobs) as runs:
        yield runs


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(GALLERY)))
def test_page_runs_on_its_own(script: Path, page_runs: Runs) -> None:
    tmp_path, result = page_runs.result(script)
    assert result.returncode == 0, (
        f"{script.name} failed:\n{result.stdout[-2000:]}\n{result.stderr[-4000:]}"
    )
    assert result.stdout.strip(), f"{script.name} printed nothing"
    assert not ADDRESS.search(result.stdout), "a memory address would change per run"
    assert str(tmp_path) not in result.stdout, "a temporary path would change per run"


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(GALLERY)))
def test_page_follows_the_layout(script: Path) -> None:
    assert re.fullmatch(r"plot_\d\d_[a-z0-9_]+\.py", script.name)
    assert (script.parent / "GALLERY_HEADER.rst").is_file()
    source = script.read_text()
    docstring = re.match(r'"""\n(.+)\n(=+)\n', source)
    assert docstring, f"{script.name} must open with a docstring title"
    title = docstring.group(1)
    assert len(title.split()) <= 6, f"title {title!r} is longer than six words"
    assert len(docstring.group(2)) == len(title)
    assert "environment_summary(" in source, "a page prints what produced its numbers"


#: A page a reader finishes: longer than this is two pages.
MAX_LINES = 400
_HEADING_UNDERLINE = re.compile(r"^# ([-=~^\"'`*+#])\1{2,}$", re.MULTILINE)


def sections(source: str) -> list[str]:
    """The page cut at its headings: the text before the first, then one per heading."""
    return _HEADING_UNDERLINE.split(source)[::2]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(GALLERY)))
def test_page_is_short_with_few_hidden_checks(script: Path) -> None:
    source = script.read_text()
    lines = lines_outside_checks(source)  # a check cell is read only when opened
    assert lines <= MAX_LINES, f"{script.name} has {lines} lines; split it in two"
    starts = source.count("# sphinx_gallery_start_ignore")
    assert starts == source.count("# sphinx_gallery_end_ignore"), "unbalanced"
    for number, section in enumerate(sections(source)):
        hidden = section.count("# sphinx_gallery_start_ignore")
        assert hidden <= 1, (
            f"section {number} of {script.name} has {hidden} hidden blocks; check "
            "in plain sight, or gather the section's hidden checks in one block"
        )


def test_sections_are_found() -> None:
    page = "intro\n# A\n# ---\nx\n# B\n# ~~~\ny\n"
    assert sections(page) == ["intro\n# A\n", "\nx\n# B\n", "\ny\n"]


def test_every_lesson_ends_with_exercises_or_links_them() -> None:
    # The landing page says so: some lessons have them at their end, the
    # others link to their section's exercises page. The strict build checks
    # that each link's target exists.
    from taught_names import ATLAS, kind_of

    lessons = [
        script
        for script in SCRIPTS
        if kind_of(script) == "core" and script.parent.name != ATLAS
    ]
    assert lessons
    missing = [
        script.name
        for script in lessons
        if "**Exercise 1.**" not in script.read_text()
        and ":ref:`exercises-" not in script.read_text()
    ]
    assert not missing, f"lessons without exercises: {missing}"


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(GALLERY)))
def test_page_links_the_glossary_and_never_mentions_the_notes(script: Path) -> None:
    source = script.read_text()
    assert ":term:`" in source, f"{script.name} links no term to the glossary"
    found = NOTES.search(source)
    assert not found, f"{script.name} mentions the notes: {found.group(0)!r}"


def test_helpers_never_mention_the_notes() -> None:
    for path in [*(ROOT / "src").rglob("*.py"), *(ROOT / "docs").glob("*.md")]:
        found = NOTES.search(path.read_text())
        assert not found, f"{path.name} mentions the notes: {found.group(0)!r}"


def _unchecked_errors(source: str) -> list[int]:
    """Lines of ``try`` statements whose ``else`` does not say what happened.

    A page shows an error by catching it and printing its message. If a new
    PyTorch stopped raising, the page would print nothing and its text would
    be wrong, so every such ``try`` needs an ``else`` (usually
    ``raise AssertionError``) for the case where nothing was raised, unless
    its body ends by raising one itself.
    """
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Try)
        and node.handlers
        and not node.orelse
        and not isinstance(node.body[-1], ast.Raise)
    ]


def test_unchecked_errors_are_found() -> None:
    assert _unchecked_errors("try:\n    f()\nexcept ValueError:\n    pass\n") == [1]
    checked = "try:\n    f()\nexcept E:\n    pass\nelse:\n    raise AssertionError\n"
    assert _unchecked_errors(checked) == []
    raising = "try:\n    f()\n    raise AssertionError\nexcept E:\n    pass\n"
    assert _unchecked_errors(raising) == []


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(GALLERY)))
def test_every_error_shown_is_an_error(script: Path) -> None:
    lines = _unchecked_errors(script.read_text())
    assert not lines, (
        f"{script.name}: the try statements on lines {lines} have no else clause; "
        "add `else: raise AssertionError(...)` so the page fails if nothing is raised"
    )


def test_generated_paths_are_git_ignored() -> None:
    from build_facts import GENERATED

    ignored = (ROOT / ".gitignore").read_text().splitlines()
    missing = [
        path
        for path in GENERATED
        if not any(line.rstrip("/") == f"docs/{path}" for line in ignored)
    ]
    assert not missing, f".gitignore does not list docs/{missing}"
