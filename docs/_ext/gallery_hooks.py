"""How the documentation build runs the gallery: same start, fresh, on time.

This module connects the build's gallery machinery to Sphinx, in one place,
so that the order of the steps reads top to bottom in :func:`setup`. Each
concern lives in a module of its own, which opens with what it changes in
Sphinx-Gallery and why:

- ``page_limits.py``: every page starts from the same state, in whichever
  process runs it, and a page that hangs is stopped at its hard limit.
- ``page_budgets.py``: each page's time budget, declared, planned for (the
  slowest pages start first), reported on the execution-times page and
  enforced.
- ``helper_stamps.py``: a page runs again when a helper module it imports
  changes; the MyST pages run again when the helpers or versions change.
- ``figures.py``: figures are stored as 256-colour PNGs.
- ``downloads.py``: the ``.py`` download reads like the lesson; the notebook
  keeps the checks, collapsed.
- ``folds.py`` (an extension of its own): checks and details render closed
  under the cell they belong to.
- ``private_names.py``: every private Sphinx or Sphinx-Gallery name these
  modules use, with the version it was written against.
"""

from __future__ import annotations

from downloads import strip_downloads
from figures import note_figures, shrink_figures
from helper_stamps import (
    expire_notebook_outputs,
    note_notebook_key,
    reread_myst_pages,
    rerun_pages_with_changed_helpers,
)
from page_budgets import check_budget, plan_page_runs, write_execution_times
from page_limits import allow_missing_page_files, unexport_blas_threads
from sphinx.application import Sphinx


def setup(app: Sphinx) -> dict[str, object]:
    # Seconds a gallery page may take to run, on the two-core build machine;
    # a page may declare its own budget (declared_budget). Whole seconds:
    # Sphinx converts a `-D gallery_budget_seconds=N` override to int, not
    # to float.
    app.add_config_value("gallery_budget_seconds", 15, "", types=(int, float))
    # A page still running at this multiple of its budget is stopped, and the
    # build with it (0: never).
    app.add_config_value("gallery_hard_limit_factor", 4, "", types=(int, float))
    # The digest of docs/_ext/*.py (conf.py): a change to an extension makes
    # Sphinx read every page again, since an extension may change what a page
    # reads into (a fold's nodes, say), not only how it is written.
    app.add_config_value("extensions_digest", "", "env", types=(str,))
    # Before and after sphinx_gallery.gen_gallery.generate_gallery_rst (500).
    app.connect("builder-inited", expire_notebook_outputs, priority=440)
    app.connect("builder-inited", rerun_pages_with_changed_helpers, priority=450)
    app.connect("builder-inited", note_figures, priority=455)
    app.connect("builder-inited", plan_page_runs, priority=460)
    app.connect("builder-inited", unexport_blas_threads, priority=510)
    app.connect("builder-inited", allow_missing_page_files, priority=520)
    app.connect("builder-inited", shrink_figures, priority=800)
    app.connect("builder-inited", write_execution_times, priority=850)
    app.connect("builder-inited", check_budget, priority=900)
    app.connect("env-get-outdated", reread_myst_pages)
    app.connect("build-finished", strip_downloads)
    app.connect("build-finished", note_notebook_key)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
