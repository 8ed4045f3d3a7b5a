"""Lighter, more accessible HTML pages.

- Each page loads only the style sheets and scripts it uses: a gallery page
  needs no Sphinx-Design or myst-nb styles, and this site uses no Binder,
  data-frame or rendered-HTML output, whose Sphinx-Gallery styles would
  otherwise block every page's first paint.
- The navigation captions that Sphinx marks ``role="heading"`` get the
  ``aria-level`` that screen readers need with it.
- Every page gets a ``<meta name="description">`` for search engines.
"""

from __future__ import annotations

import re
from typing import Any

from sphinx.application import Sphinx

#: Style sheets and scripts of features this site does not use.
UNUSED = (
    "sg_gallery-binder.css",
    "sg_gallery-dataframe.css",
    "sg_gallery-rendered-html.css",
)
#: Assets a gallery page does not use (they serve MyST and card pages).
NOT_ON_GALLERY_PAGES = ("sphinx-design.min.css", "design-tabs.js", "mystnb.")


def _keep(asset: Any, pagename: str) -> bool:
    name = str(getattr(asset, "filename", asset))
    if any(unused in name for unused in UNUSED):
        return False
    gallery_page = pagename.startswith("auto_examples/") and not pagename.endswith(
        "index"
    )
    return not (gallery_page and any(part in name for part in NOT_ON_GALLERY_PAGES))


def tune_page(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    for key in ("css_files", "script_files"):
        if key in context:
            context[key] = [asset for asset in context[key] if _keep(asset, pagename)]
    tree = context.get("furo_navigation_tree")
    if isinstance(tree, str):
        context["furo_navigation_tree"] = tree.replace(
            'role="heading"', 'role="heading" aria-level="2"'
        )
    title = re.sub(r"<[^>]+>", "", str(context.get("title") or app.config.project))
    description = f"{title}: {app.config.html_title}, {app.config.project_tagline}"
    context["metatags"] = context.get("metatags", "") + (
        f'\n<meta name="description" content="{_escape(description)}">'
    )


def _escape(text: str) -> str:
    return (
        text.replace("&", "&amp;")
        .replace('"', "&quot;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
    )


def setup(app: Sphinx) -> dict[str, object]:
    app.add_config_value("project_tagline", "", "html", types=(str,))
    # After Furo computes the navigation tree (default priority 500).
    app.connect("html-page-context", tune_page, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
