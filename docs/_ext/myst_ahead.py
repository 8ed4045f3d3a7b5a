"""Run the MyST pages' notebooks side by side, before Sphinx reads them.

myst-nb runs a MyST page's code when Sphinx reads the page, one page after
another, each in a kernel of its own that starts Python and imports torch.
This extension runs the notebooks that are about to be read and are not in
myst-nb's cache at the same time, one kernel per CPU, and stores each result
in that cache the way myst-nb does (keyed on the page's code). myst-nb then
finds them there and runs nothing itself.

A notebook that fails here is left out of the cache: myst-nb runs it again
while reading, and reports the error as it always does.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)


def _notebooks_to_run(env: Any, docnames: list[str]) -> list[tuple[Path, Any, Any]]:
    """Each MyST page to read whose code is not in the cache yet."""
    from jupyter_cache import get_cache
    from myst_nb.core.read import create_nb_reader

    cache = get_cache(env.mystnb_config.execution_cache_path)
    todo = []
    for name in docnames:
        path = Path(env.doc2path(name))
        if path.suffix != ".md":
            continue
        text = path.read_text(encoding="utf-8")
        reader = create_nb_reader(str(path), env.myst_config, env.mystnb_config, text)
        if reader is None:
            continue
        notebook = reader.read(text)
        if not any(cell.cell_type == "code" for cell in notebook.cells):
            continue
        try:
            cache.match_cache_notebook(notebook)
        except KeyError:
            todo.append((path, notebook, reader.read_fmt))
    return todo


def run_notebooks_ahead(app: Sphinx, env: Any, docnames: list[str]) -> None:
    """Before reading: run the uncached notebooks at once, and cache them."""
    config = env.mystnb_config
    if config.execution_mode != "cache" or config.execution_in_temp:
        return
    todo = _notebooks_to_run(env, docnames)
    workers = min(len(todo), os.cpu_count() or 1)
    if workers < 2:
        return  # myst-nb runs a single one just as fast
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn
    from jupyter_cache.executors.utils import single_nb_execution

    def execute(item: tuple[Path, Any, Any]) -> Any:
        path, notebook, _ = item
        return single_nb_execution(
            notebook,
            cwd=str(path.parent),
            allow_errors=config.execution_allow_errors,
            timeout=config.execution_timeout,
            meta_override=True,
        )

    logger.info("running %d MyST notebooks, %d at a time", len(todo), workers)
    with ThreadPoolExecutor(workers) as pool:
        results = list(pool.map(execute, todo))
    cache = get_cache(config.execution_cache_path)
    for (path, notebook, read_fmt), result in zip(todo, results, strict=True):
        if result.err is not None:
            continue  # myst-nb runs it again and reports the error
        if read_fmt is not None:
            stage = cache.add_nb_to_project(str(path), read_data=read_fmt)
        else:
            stage = cache.add_nb_to_project(str(path))
        cache.cache_notebook_bundle(
            CacheBundleIn(notebook, stage.uri, data={"execution_seconds": result.time}),
            check_validity=False,
            overwrite=True,
        )


def setup(app: Sphinx) -> dict[str, object]:
    app.connect("env-before-read-docs", run_notebooks_ahead)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
