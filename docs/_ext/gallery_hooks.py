"""How the documentation build runs the gallery: same start, time budget.

- :func:`reset_state` is Sphinx-Gallery's ``reset_modules`` hook: before each
  example it puts PyTorch's global state back (seeds, default dtype and
  device, grad mode, ...), so a page prints the same numbers whatever ran
  before it.
- A page must run in well under ``gallery_budget_seconds`` (15 s by default)
  on two CPU cores. After the gallery is generated, every example whose last
  measured run took longer is reported as a warning, which fails the strict
  build, and keeps failing it on rebuilds until the page is made faster.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

from tutorial_utils.reproducibility import reset_global_state

logger = logging.getLogger(__name__)


def reset_state(gallery_conf: dict[str, Any], fname: str, when: str) -> None:
    """Sphinx-Gallery ``reset_modules`` hook: same state before each page."""
    reset_global_state(seed=0)


def check_budget(app: Sphinx) -> None:
    """Warn about every example whose last run took over the budget."""
    conf = app.config.sphinx_gallery_conf
    budget = float(app.config.gallery_budget_seconds)
    src = Path(app.srcdir)
    for gallery_dir in conf["gallery_dirs"]:
        for cost_file in sorted((src / gallery_dir).rglob("*.cost.json")):
            script = cost_file.with_name(cost_file.name.replace(".cost.json", ".py"))
            if not script.is_file():
                continue  # a page that was removed
            seconds = float(json.loads(cost_file.read_text())["time"])
            if seconds > budget:
                logger.warning(
                    "%s ran in %.1f s, over the %.0f s budget of a page: "
                    "make it faster (smaller sizes, fewer repeats).",
                    script.relative_to(src),
                    seconds,
                    budget,
                    type="gallery",
                    subtype="budget",
                )


def setup(app: Sphinx) -> dict[str, object]:
    # Seconds a gallery page may take to run, on the two-core build machine.
    # Whole seconds: Sphinx converts a `-D gallery_budget_seconds=N` override
    # to int, not to float.
    app.add_config_value("gallery_budget_seconds", 15, "", types=(int, float))
    # After sphinx_gallery.gen_gallery.generate_gallery_rst (priority 500).
    app.connect("builder-inited", check_budget, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
