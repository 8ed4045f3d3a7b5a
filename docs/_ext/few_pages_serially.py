"""Read and write a handful of pages in the build's own process.

``-j auto`` (``SPHINX_OPTIONS``) makes Sphinx fork processes to read pages and
to write them, however few there are. A reading process sends the whole
build environment back, this site's link inventories included (about 36,000
entries), and the build unpickles it. That pays on a clean build of about 55
pages, but not after a one-page edit: reading its two pages (the page and the
table of run times) took 0.79 s in forked processes, and writing them 0.80 s
(under the profiler); in the build's own process, reading them takes about
0.05 s and writing them and the section's index 0.2 s (timed).

So a build with fewer than :data:`SERIAL_BELOW` pages to read reads them in
its own process, and one with fewer than that to write writes them there.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment

#: The fewest pages that Sphinx reads, or writes, in forked processes.
SERIAL_BELOW = 8

# The build's -j value, while reading is made serial.
_PARALLEL: list[int] = []


def read_few_serially(app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
    """Before reading: too few pages to fork for, so read them serially."""
    if app.parallel > 1 and len(docnames) < SERIAL_BELOW:
        _PARALLEL.append(app.parallel)
        app.parallel = 1


def restore_parallel(app: Sphinx, env: BuildEnvironment) -> None:
    """After reading: writing decides for itself (write_few_serially)."""
    while _PARALLEL:
        app.parallel = _PARALLEL.pop()


def write_few_serially(app: Sphinx) -> None:
    """Write fewer than SERIAL_BELOW pages in the build's own process."""
    builder = app.builder
    write_documents = builder.write_documents

    def write_few(docnames: AbstractSet[str]) -> None:
        if len(docnames) < SERIAL_BELOW:
            builder.parallel_ok = False
        write_documents(docnames)

    builder.write_documents = write_few  # type: ignore[method-assign]


def setup(app: Sphinx) -> dict[str, Any]:
    # Last, once every other handler has added the pages it wants read.
    app.connect("env-before-read-docs", read_few_serially, priority=900)
    app.connect("env-updated", restore_parallel, priority=100)
    app.connect("builder-inited", write_few_serially)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
