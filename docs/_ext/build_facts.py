"""Facts about the docs build that several places need, written once.

The nox sessions (``noxfile.py``), the tests (``tests/sitebuild.py``,
``tests/test_browser.py``) and the Sphinx extensions import them from here.
This module imports nothing but the standard library and ``packaging``, so
every one of those environments can load it.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib.metadata import requires

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

#: How every build runs ``sphinx-build``: strict (any warning fails it),
#: reporting every warning before failing, and with nitpicky references.
SPHINX_OPTIONS = ("-W", "--keep-going", "-n", "-b", "html")

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
#: bottom in a Jupyter kernel, as a reader's "Run all" would: used where the
#: tests and the readers' session run the downloaded notebooks.
RUN_NOTEBOOK = """
import sys
import nbclient, nbformat
notebook = nbformat.read(sys.argv[1], as_version=4)
nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3").execute()
print("executed", len(notebook.cells), "cells")
"""


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
