"""The whole site builds strictly and offline, from a copy of the sources."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gallery_paths import GALLERY, ROOT, SCRIPTS

pytestmark = pytest.mark.docs

GENERATED = (
    "_build",
    "auto_examples",
    "generated",
    "jupyter_execute",
    "sg_execution_times.rst",
)


def copy_sources(destination: Path) -> Path:
    """Copy docs/ and gallery/ without anything a build generated."""
    shutil.copytree(
        ROOT / "docs", destination / "docs", ignore=shutil.ignore_patterns(*GENERATED)
    )
    shutil.copytree(
        GALLERY, destination / "gallery", ignore=shutil.ignore_patterns("__pycache__")
    )
    return destination / "docs"


def sphinx_build(docs: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-n",
            "-b",
            "html",
            *options,
            str(docs),
            str(docs / "_build" / "html"),
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    docs = copy_sources(tmp_path_factory.mktemp("site"))
    result = sphinx_build(docs)
    assert result.returncode == 0, f"{result.stdout[-3000:]}\n{result.stderr[-6000:]}"
    assert "WARNING" not in result.stderr
    assert "ERROR" not in result.stderr
    return docs / "_build" / "html"


def page_of(html: Path, script: Path) -> Path:
    relative = script.relative_to(GALLERY).with_suffix(".html")
    return html / "auto_examples" / relative


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_each_page_has_output_figures_and_downloads(site: Path, script: Path) -> None:
    page = page_of(site, script)
    assert page.is_file(), f"no page for {script.name}"
    html = page.read_text()
    assert "sphx-glr-script-out" in html, "the page shows no captured output"
    assert f"sphx_glr_{script.stem}_001.png" in html, "the page has no figure"
    for suffix in (".py", ".ipynb"):
        links = re.findall(rf'href="([^"]*{re.escape(script.stem + suffix)})"', html)
        assert links, f"no {suffix} download link"
        for link in links:
            assert (page.parent / link).resolve().is_file(), f"broken download {link}"


def test_landing_page_and_api_reference(site: Path) -> None:
    index = (site / "index.html").read_text()
    assert "sd-card" in index, "the landing page has a card per section"
    assert "auto_examples/tensors/index.html" in index
    api = (site / "api.html").read_text()
    for helper in (
        "pick_device",
        "seed_everything",
        "environment_summary",
        "draw_tensor",
    ):
        assert 'id="tutorial_utils.' in api
        assert helper in api
    # Links to the PyTorch documentation were resolved without the network.
    page = page_of(site, SCRIPTS[0]).read_text()
    assert "https://docs.pytorch.org/docs/stable/generated/torch.tensor.html" in page


def test_failing_page_and_slow_page_fail_the_build(tmp_path: Path) -> None:
    docs = copy_sources(tmp_path)
    broken = tmp_path / "gallery" / "tensors" / "plot_99_broken.py"
    broken.write_text(
        '"""\nBroken page\n===========\n\nFails.\n"""\n\n'
        "x = 1\nraise RuntimeError('this page is broken')\n"
    )
    result = sphinx_build(docs, "-D", "gallery_budget_seconds=0")
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "plot_99_broken.py" in output
    assert "line 9" in output
    assert "this page is broken" in output
    assert re.search(r"plot_01_\w+\.py ran in [\d.]+ s, over the 0 s budget", output)
