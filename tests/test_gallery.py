"""Every gallery page runs on its own, as a reader who downloaded it would."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sitebuild import GALLERY, SCRIPTS

ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")


def test_there_are_pages() -> None:
    assert SCRIPTS, f"no plot_*.py scripts under {GALLERY}"


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(GALLERY)))
def test_page_runs_on_its_own(script: Path, tmp_path: Path) -> None:
    env = {**os.environ, "MPLBACKEND": "Agg"}
    result = subprocess.run(
        [
            sys.executable,
            # A page may not warn: a warning is a problem the reader would see.
            "-W",
            "error",
            # ... except plt.show() on the non-interactive test backend.
            "-W",
            "ignore:FigureCanvasAgg is non-interactive:UserWarning",
            str(script),
        ],
        cwd=tmp_path,  # nothing is written into the repository
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
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
