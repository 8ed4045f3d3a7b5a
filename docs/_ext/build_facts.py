"""Facts about the docs build that several places need, written once.

The nox sessions (``noxfile.py``), the tests (``tests/sitebuild.py``,
``tests/test_browser.py``) and the Sphinx extensions import them from here.
This module imports nothing but the standard library and ``packaging``, so
every one of those environments can load it.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Iterable, Mapping, Sequence
from importlib.metadata import requires
from pathlib import Path
from urllib.parse import urlsplit

from packaging.requirements import Requirement

#: What the build writes under ``docs/``, relative to it; all git-ignored
#: (``.gitignore`` lists each as ``docs/<path>``, checked by a test).
GENERATED = (
    "_build",
    "auto_examples",
    "api/generated",
    "jupyter_execute",
    "sg_execution_times.rst",
    "execution_times.rst",
)

#: The environment variable ``tutorial_utils.timing.check_timing`` appends
#: its records to (its ``RECORD_VARIABLE``, named again here because the nox
#: process, which runs ``nox -s stress``, does not have the package).
RECORD_VARIABLE = "TUTORIAL_UTILS_TIMING_RECORD"

#: Caches under ``docs/_build`` that ``nox -s docs -- --clean`` keeps: each is
#: keyed on everything it is made from (see "How the build caches" in the
#: README), so a clean build gets the same files from them, only faster.
KEPT_BY_CLEAN = ("_build/inventories", "_build/wheel")


def clean_generated(docs: Path) -> list[Path]:
    """Remove what the build generated under `docs`, except `KEPT_BY_CLEAN`.

    Only the paths in `GENERATED` are touched. Returns the paths removed.
    """
    kept = {docs / path for path in KEPT_BY_CLEAN}
    removed = []
    for path in map(docs.joinpath, GENERATED):
        if any(cache.is_relative_to(path) for cache in kept) and path.is_dir():
            children = [child for child in path.iterdir() if child not in kept]
        elif path.exists() or path.is_symlink():
            children = [path]
        else:
            children = []
        for child in children:
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child)
            else:
                child.unlink()
            removed.append(child)
    return removed


#: The environment variables whose values change what the build writes
#: (``docs/conf.py`` and ``docs/_ext`` read them), by the start of their names.
BUILD_VARIABLES = ("DOCS_", "READTHEDOCS", "SOURCE_DATE_EPOCH")

#: What a no-change build depends on, besides the command and its environment:
#: these files and folders of the repository, generated outputs included.
BUILD_INPUTS = ("pyproject.toml", "docs", "gallery", "src")


def build_inputs_digest(root: Path, command: Sequence[str], *extra: str) -> str:
    """A digest of everything a ``sphinx-build`` run at `root` depends on.

    It covers `command` and `extra` (the environment's install stamp, say),
    the environment variables named in :data:`BUILD_VARIABLES`, and the path,
    size and modification time of every file in :data:`BUILD_INPUTS`, except
    Python's byte-code caches and the ``*.inputs`` files this digest is kept
    in. The build's outputs are in it too, so a deleted or changed output
    changes it, as it would make Sphinx write that output again.
    """
    digest = hashlib.sha256()
    for part in (*command, "\0", *extra, "\0"):
        digest.update(part.encode() + b"\n")
    for name in sorted(os.environ):
        if name.startswith(BUILD_VARIABLES):
            digest.update(f"{name}={os.environ[name]}\n".encode())
    for top in BUILD_INPUTS:
        for folder, dirs, files in os.walk(root / top):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(".inputs"):
                    continue
                path = Path(folder, name)
                stat = path.stat()
                relative = path.relative_to(root).as_posix()
                digest.update(
                    f"{relative} {stat.st_size} {stat.st_mtime_ns}\n".encode()
                )
    return digest.hexdigest()


#: How every build runs ``sphinx-build``: strict (any warning fails it),
#: reporting every warning before failing, with nitpicky references, and
#: reading and writing pages in one process per CPU (the gallery's pages run
#: side by side anyway, in Sphinx-Gallery's own worker processes).
SPHINX_OPTIONS = ("-W", "--keep-going", "-n", "-j", "auto", "-b", "html")

#: How the tests and the Lighthouse session start the system's Chromium:
#: headless, sandbox-free (CI runs as root), and quiet on the network.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)

#: A script that runs a notebook (its path the first argument) from top to
#: bottom in a Jupyter kernel, as a reader's "Run all" would, with every
#: exercise answered by its solution: used where the tests and the readers'
#: session run the downloaded notebooks.
RUN_NOTEBOOK = """
import sys
import nbclient, nbformat
notebook = nbformat.read(sys.argv[1], as_version=4)
# An exercise's answer cell is empty; run as a reader who answered it right.
for cell in notebook.cells:
    if "solution" in cell.metadata:
        cell.source = cell.metadata["solution"]
nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3").execute()
print("executed", len(notebook.cells), "cells")
"""


def published_address(environ: Mapping[str, str]) -> str:
    """The site's published address, from the host's variables; "" if none.

    Read the Docs sets ``READTHEDOCS_CANONICAL_URL`` (it names the language
    and version, ``.../en/latest/``); the GitHub Pages workflow sets
    ``DOCS_SITE_URL``. The address ends with "/".

    >>> published_address({"DOCS_SITE_URL": "https://example.org/site"})
    'https://example.org/site/'
    >>> published_address({})
    ''
    """
    url = environ.get("READTHEDOCS_CANONICAL_URL", "") or environ.get(
        "DOCS_SITE_URL", ""
    )
    return url.rstrip("/") + "/" if url else ""


def published_prefix(environ: Mapping[str, str]) -> str:
    """The path the site is served under: where the 404 page's links start.

    A missing address can be served the 404 page at any depth, so its links
    are absolute paths: the path of the published address, or "/" for a
    build that knows none.

    >>> published_prefix({"READTHEDOCS_CANONICAL_URL": "https://x.org/en/latest/"})
    '/en/latest/'
    >>> published_prefix({"DOCS_SITE_URL": "https://owner.github.io/repo/"})
    '/repo/'
    >>> published_prefix({})
    '/'
    """
    path = urlsplit(published_address(environ)).path
    return "/" + path.strip("/") + "/" if path.strip("/") else "/"


def requirement_names(distribution: str = "tutorial-utils") -> list[str]:
    """The names of the packages an installed `distribution` requires."""
    return [Requirement(text).name for text in requires(distribution) or []]


def lower_bounds(requirements: Iterable[str]) -> dict[str, str]:
    """Each requirement's name and the oldest version it allows (its ``>=``).

    The readers' session installs exactly these versions, and the landing
    page names them, so each runtime requirement must have one lower bound.
    """
    bounds = {}
    for text in requirements:
        requirement = Requirement(text)
        floors = [s.version for s in requirement.specifier if s.operator == ">="]
        if len(floors) != 1:
            raise ValueError(
                f"{text!r}: a runtime requirement needs one lower bound (>=), "
                "the oldest version the readers' session tests"
            )
        bounds[requirement.name] = floors[0]
    return bounds
