"""Run the MyST pages' notebooks side by side, while the gallery's pages run.

myst-nb runs a MyST page's code when Sphinx reads the page, one page after
another, each in a kernel of its own that starts Python and imports torch,
after Sphinx-Gallery has run every gallery page. This extension starts the
MyST notebooks that are not in myst-nb's cache when the builder starts, in
the background, one kernel per CPU, and before Sphinx reads any page it
stores each result in that cache the way myst-nb does (keyed on the page's
code). myst-nb then finds them there and runs nothing itself.

A notebook that fails here is left out of the cache: myst-nb runs it again
while reading, and reports the error as it always does.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, ClassVar

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


class _Ahead:
    """The run started when the builder starts: what it runs, and its results."""

    thread: ClassVar[threading.Thread | None] = None
    todo: ClassVar[list[tuple[Path, Any, Any]]] = []
    results: ClassVar[list[Any]] = []


def start_notebooks(app: Sphinx) -> None:
    """When the builder starts: run the uncached MyST notebooks in the background.

    They run while Sphinx-Gallery runs the gallery's pages, using the time a
    core waits for a section's last page; Sphinx reads them only afterwards.
    """
    env = app.env
    config = env.mystnb_config
    if config.execution_mode != "cache" or config.execution_in_temp:
        return
    names = sorted(path.stem for path in Path(app.srcdir).glob("*.md"))
    todo = _notebooks_to_run(env, names)
    if not todo:
        return
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

    def run_all() -> None:
        workers = min(len(todo), os.cpu_count() or 1)
        with ThreadPoolExecutor(workers) as pool:
            try:
                _Ahead.results = list(pool.map(execute, todo))
            except Exception:  # noqa: BLE001 - myst-nb runs them, and reports
                _Ahead.results = []

    logger.info("running %d MyST notebooks in the background", len(todo))
    _Ahead.todo = todo
    _Ahead.thread = threading.Thread(target=run_all, daemon=True)
    _Ahead.thread.start()


def cache_notebooks(app: Sphinx, env: Any, docnames: list[str]) -> None:
    """Before reading: wait for the background run, and cache what succeeded."""
    if _Ahead.thread is None:
        return
    _Ahead.thread.join()
    _Ahead.thread = None
    if len(_Ahead.results) != len(_Ahead.todo):
        _Ahead.todo, _Ahead.results = [], []
        return  # the run stopped early: myst-nb runs every notebook itself
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    cache = get_cache(env.mystnb_config.execution_cache_path)
    for (path, notebook, read_fmt), result in zip(
        _Ahead.todo, _Ahead.results, strict=True
    ):
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
    _Ahead.todo, _Ahead.results = [], []


def setup(app: Sphinx) -> dict[str, object]:
    # conf.py lists this extension after myst_nb, which makes its settings at
    # builder-inited, and before Sphinx-Gallery, which runs the pages then.
    app.connect("builder-inited", start_notebooks)
    app.connect("env-before-read-docs", cache_notebooks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
