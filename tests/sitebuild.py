"""Where the tests find the repository and its pages, and how they build it."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "docs" / "_ext"))
from build_facts import GENERATED, SPHINX_OPTIONS

GALLERY = ROOT / "gallery"
SCRIPTS = sorted(GALLERY.rglob("plot_*.py"))
#: The page every site-wide test opens: the first page of the first section.
FIRST_PAGE = GALLERY / "tensors" / "plot_01_creating_tensors.py"

#: What a page must never say: readers never see the study notes the site grew from.
NOTES = re.compile(
    r"\b(?:the|these|those|my|our|original) notes\b|\bsource texts?\b"
    r"|\bnotes (?:this|the) site\b|\bstudy notes\b",
    re.IGNORECASE,
)


def copy_sources(destination: Path) -> Path:
    """Copy docs/ and gallery/ without anything a build generated."""
    shutil.copytree(
        ROOT / "docs",
        destination / "docs",
        ignore=shutil.ignore_patterns(*(Path(path).name for path in GENERATED)),
    )
    shutil.copytree(
        GALLERY, destination / "gallery", ignore=shutil.ignore_patterns("__pycache__")
    )
    return destination / "docs"


def sphinx_build(docs: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """Build `docs` strictly into docs/_build/html, as `nox -s docs` does."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            *SPHINX_OPTIONS,
            *options,
            str(docs),
            str(docs / "_build" / "html"),
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def page_of(html: Path, script: Path) -> Path:
    """The built HTML page of a gallery script."""
    return html / "auto_examples" / script.relative_to(GALLERY).with_suffix(".html")
