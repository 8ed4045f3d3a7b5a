"""Every page's downloads run on their own, with only this package installed.

A reader downloads a page as a script or a notebook and runs it at home after
``pip install``-ing this project. These tests do exactly that: a fresh virtual
environment gets the package (and, for notebooks, a Jupyter kernel) and
nothing else, and each download runs in an empty folder.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable, Hashable, Iterator
from functools import partial
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from build_facts import RUN_NOTEBOOK, requirement_names

from side_by_side import Runs, scheduled, side_by_side
from sitebuild import SCRIPTS, page_of

pytestmark = pytest.mark.docs


def pinned_requirements() -> list[str]:
    """The package's requirements, pinned to the versions the tests run with."""
    return [f"{name}=={version(name)}" for name in requirement_names()]


@pytest.fixture(scope="module")
def reader_python(site: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new environment with only this package and a notebook kernel in it.

    The package comes from the wheel the site offers, as a reader gets it.
    """
    wheels = sorted(site.glob("tutorial_utils-*-py3-none-any.whl"))
    assert len(wheels) == 1, f"the site should offer one wheel: {wheels}"
    venv = tmp_path_factory.mktemp("reader") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    # The package's own requirements are ranges; the pins keep pip on the
    # versions the site was built with (and on the CPU wheel of torch).
    subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            *pinned_requirements(),
            "ipykernel",
            "nbclient",
            str(wheels[0]),
        ],
        check=True,
        timeout=1200,
    )
    return python


def downloads(site: Path, script: Path, suffix: str) -> Path:
    page = page_of(site, script)
    links = re.findall(
        rf'href="([^"]*{re.escape(script.stem + suffix)})"', page.read_text()
    )
    assert links, f"{page.name} has no {suffix} download"
    return (page.parent / links[0]).resolve()


def run(python: Path, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {
        key: value for key, value in os.environ.items() if not key.startswith("PYTHON")
    }
    env["MPLBACKEND"] = "Agg"
    return subprocess.run(
        [str(python), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_reader_environment_has_only_the_package(reader_python: Path) -> None:
    result = run(reader_python, ["-c", "import sphinx"], reader_python.parent)
    assert result.returncode != 0, "the reader's environment must not have sphinx"
    result = run(
        reader_python, ["-c", "import tutorial_utils, torch"], reader_python.parent
    )
    assert result.returncode == 0, result.stderr


def run_download(
    python: Path, site: Path, script: Path, suffix: str, folder: Path
) -> subprocess.CompletedProcess[str]:
    """Copy a page's download into an empty folder and run it there."""
    downloaded = downloads(site, script, suffix)
    (folder / downloaded.name).write_bytes(downloaded.read_bytes())
    if downloaded.suffix == ".ipynb":
        return run(python, ["-c", RUN_NOTEBOOK, downloaded.name], folder)
    return run(python, [downloaded.name], folder)


#: The tests that run a download, and the download each runs.
SUFFIXES = {
    "test_downloaded_script_runs": ".py",
    "test_downloaded_notebook_runs": ".ipynb",
}


@pytest.fixture(scope="module")
def download_runs(
    request: pytest.FixtureRequest,
    site: Path,
    reader_python: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Runs]:
    """Every selected download's run, started side by side, by (suffix, script)."""
    jobs: dict[Hashable, Callable[[], Any]] = {}
    for test, script in scheduled(request, *SUFFIXES):
        suffix = SUFFIXES[test]
        folder = tmp_path_factory.mktemp(script.stem)
        jobs[suffix, script] = partial(
            run_download, reader_python, site, script, suffix, folder
        )
    with side_by_side(jobs) as runs:
        yield runs


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_downloaded_script_runs(script: Path, download_runs: Runs) -> None:
    result = download_runs.result((".py", script))
    assert result.returncode == 0, f"{result.stdout[-2000:]}\n{result.stderr[-4000:]}"


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_downloaded_notebook_runs(script: Path, download_runs: Runs) -> None:
    result = download_runs.result((".ipynb", script))
    assert result.returncode == 0, f"{result.stdout[-2000:]}\n{result.stderr[-4000:]}"
    assert result.stdout.startswith("executed")
