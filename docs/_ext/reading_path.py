"""The ``reading-path`` directive: the gallery's pages in reading order.

The landing page shows the path a beginner reads, each section's core
lessons in order, and apart from it the in-depth pages, which a first
reading can skip. Both lists come from the gallery's files (see
``taught_names.reading_path``), so a new or renamed page appears in its
place without anyone editing the landing page::

    ```{reading-path} core
    ```

The argument is ``core``, ``in-depth`` or ``exercises``. Each section with
pages of that kind gets its title and a list of links. The core lessons are
numbered, and the numbers run on across sections, so the path reads as one
sequence. A kind with no
page at all is an error: the landing page would promise a list it lacks.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from taught_names import ATLAS, SECTIONS, kind_of, reading_path

KINDS = {"core": "core", "in-depth": "in depth", "exercises": "exercises"}


def page_title(page: Path) -> str:
    """The title a gallery script's docstring gives it (its first line)."""
    docstring = page.read_text(encoding="utf-8").split('"""')[1]
    return next(line.strip() for line in docstring.splitlines() if line.strip())


def section_title(section: Path) -> str:
    """A gallery section's title, from its ``GALLERY_HEADER.rst``."""
    lines = (section / "GALLERY_HEADER.rst").read_text(encoding="utf-8").splitlines()
    for line, underline in itertools.pairwise(lines):
        if line.strip() and underline.strip() and set(underline.strip()) <= set("-=~"):
            return line.strip()
    raise ValueError(f"{section}/GALLERY_HEADER.rst has no title")


def _link(page: Path, text: str) -> nodes.Node:
    target = f"sphx_glr_auto_examples_{page.parent.name}_{page.name}".lower()
    xref = addnodes.pending_xref(
        "",
        refdomain="std",
        reftype="ref",
        reftarget=target,
        refexplicit=True,
        refwarn=True,
    )
    xref += nodes.inline(text, text)
    return xref


class ReadingPath(SphinxDirective):
    """List the gallery's pages of one kind, section by section, numbered."""

    required_arguments = 1
    option_spec: ClassVar[dict[str, Any]] = {"class": directives.class_option}

    def run(self) -> list[nodes.Node]:
        kind = KINDS.get(self.arguments[0])
        if kind is None:
            raise self.error(
                f"reading-path takes one of {', '.join(KINDS)}; got {self.arguments[0]!r}"
            )
        gallery = Path(self.env.srcdir).parent / "gallery"
        pages = [p for p in reading_path(gallery) if kind_of(p) == kind]
        if not pages:
            raise self.error(f"the gallery has no {kind} page to list")
        for page in pages:
            self.env.note_dependency(str(page))
        container = nodes.container(
            classes=["reading-path", *self.options.get("class", [])]
        )
        number = 1
        for section in SECTIONS:
            if section == ATLAS:
                continue  # a reference to look things up in, with its own card
            here = [p for p in pages if p.parent.name == section]
            if not here:
                continue
            heading = nodes.paragraph(classes=["reading-path-section"])
            heading += nodes.strong(text=section_title(gallery / section))
            listing: nodes.Element
            if kind == "core":  # one path, numbered across sections
                listing = nodes.enumerated_list(enumtype="arabic", start=number)
            else:
                listing = nodes.bullet_list(bullet="-")
            for page in here:
                item = nodes.list_item()
                paragraph = nodes.paragraph()
                paragraph += _link(page, page_title(page))
                item += paragraph
                listing += item
            number += len(here)
            container += [heading, listing]
        return [container]


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("reading-path", ReadingPath)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
