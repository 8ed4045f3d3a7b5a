"""Folds: a claim's check, and a detail of the text, closed until the reader opens them.

What this changes in Sphinx-Gallery: nothing in how it runs a page. It adds
two reStructuredText directives that the pages' text cells use, and rewrites
the rendered page so that each fold is a ``<details>`` element, which opens
with a click or the keyboard, needs no JavaScript, and which screen readers
announce as a disclosure. The source convention (README, "Adding a page"):

A **check** is a code cell of its own, right after the cell whose claim it
proves, whose text is one line, ``.. check::`` and the claim in plain words::

    # %%
    # .. check:: an int64 tensor plus a Python float is float32
    assert (torch.tensor([1, 2]) + 0.5).dtype == torch.float32

It runs in its place like any cell; the page shows it closed, under a
summary that reads "Check: <the claim>". Its code is left out of the
search index: search finds the text, not the proof.

A **detail** ends a cell's text: an edge case, a version note or the deeper
why, with its subject as the summary and its text indented below::

    # .. detail:: Before PyTorch 2.1
    #
    #    The text of the detail, as many paragraphs as it needs.

A malformed fold stops the build before any page runs, naming the script
and the line (``fold_source.py``): a check without a claim, with text
beside it, without code after it; a detail without a subject or text; a
fold inside a detail. The downloads module rewrites the folds for the
notebook and the ``.py`` download (``downloads.py``).
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes
from fold_source import check_gallery_folds, name_failed_checks
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)

#: What a check's summary says before its claim.
CHECK_LABEL = "Check"

# -- Nodes -------------------------------------------------------------------


class fold(nodes.General, nodes.Element):
    """A closed ``<details>`` block: ``kind`` (check or detail) and ``summary``."""


class check_marker(nodes.General, nodes.Element):
    """Where a check's text cell was; the transform folds the code after it."""


class fold_summary(nodes.General, nodes.TextElement):
    """A fold's summary line: its words are text, which search indexes."""


def make_fold(kind: str, summary: str) -> fold:
    """A fold whose first child is its summary; ````code```` in it is code."""
    made = fold(kind=kind, summary=summary)
    line = fold_summary()
    for number, piece in enumerate(re.split(r"``(.+?)``", summary)):
        if number % 2:
            line += nodes.literal(piece, piece)
        elif piece:
            line += nodes.Text(piece)
    made += line
    return made


def visit_fold_html(self: Any, node: fold) -> None:
    self.body.append(f'<details class="fold fold-{node["kind"]}">')


def depart_fold_html(self: Any, node: fold) -> None:
    self.body.append("</div>\n</details>\n")


def visit_summary_html(self: Any, node: fold_summary) -> None:
    self.body.append("<summary>")
    if node.parent["kind"] == "check":
        self.body.append(f'<span class="fold-label">{CHECK_LABEL}:</span> ')


def depart_summary_html(self: Any, node: fold_summary) -> None:
    self.body.append('</summary>\n<div class="fold-body">\n')


def visit_fold_other(self: Any, node: fold) -> None:
    """Other builders (text, LaTeX, ...) show a fold's content as it is."""


def depart_fold_other(self: Any, node: fold) -> None:
    pass


# -- Directives --------------------------------------------------------------


class CheckDirective(SphinxDirective):
    """``.. check:: <claim>``: the code cell after this text is a folded check."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = False

    def run(self) -> list[nodes.Node]:
        marker = check_marker(summary=" ".join(self.arguments[0].split()))
        self.set_source_info(marker)
        return [marker]


class DetailDirective(SphinxDirective):
    """``.. detail:: <subject>`` and indented text: a folded detail."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = True

    def run(self) -> list[nodes.Node]:
        if not self.content:
            raise self.error(f"the detail {self.arguments[0]!r} has no text")
        node = make_fold("detail", " ".join(self.arguments[0].split()))
        self.set_source_info(node)
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


# -- Folding the rendered checks ------------------------------------------


def _is_block_start(node: nodes.Node) -> bool:
    """Sphinx-Gallery's comment before each block of the page it generates."""
    return isinstance(node, nodes.comment) and node.astext().startswith(
        "GENERATED FROM PYTHON SOURCE LINES"
    )


#: Nodes that end a check's output: the text or the section that follows.
_NOT_OUTPUT = (nodes.section, nodes.paragraph, nodes.title)


def _check_body(marker: check_marker) -> list[nodes.Node] | None:
    """The nodes a check folds: its code, and what the code showed; None if no code."""
    parent = marker.parent
    siblings = parent.children[parent.index(marker) + 1 :]
    body: list[nodes.Node] = []
    for node in siblings:
        if not body:
            if isinstance(node, nodes.comment):
                continue  # Sphinx-Gallery's comment before the code
            if not isinstance(node, nodes.literal_block):
                return None
        elif _is_block_start(node) or isinstance(node, _NOT_OUTPUT):
            break
        body.append(node)
    return body or None


class FoldChecks(SphinxTransform):
    """Move each check's code (and any output) into a closed fold."""

    default_priority = 400

    def apply(self, **kwargs: Any) -> None:
        for marker in list(self.document.findall(check_marker)):
            body = _check_body(marker)
            if body is None:
                logger.warning(
                    "a check needs its code cell right after its text: %r",
                    marker["summary"],
                    location=marker,
                    type="folds",
                    subtype="malformed",
                )
                marker.parent.remove(marker)
                continue
            folded = make_fold("check", marker["summary"])
            folded.source, folded.line = marker.source, marker.line
            for node in body:
                node.parent.remove(node)
                # Search indexes the words of the text, not the check's code.
                node["classes"].append("no-search")
                folded += node
            marker.replace_self(folded)
        # A MyST page's check: a code cell tagged ``check`` (and
        # ``hide-input``, which folds it); search leaves its code out too.
        for cell in self.document.findall(nodes.container):
            if "tag_check" in cell["classes"]:
                cell["classes"].append("no-search")


def setup(app: Sphinx) -> dict[str, object]:
    others = (visit_fold_other, depart_fold_other)
    for node, html in [
        (fold, (visit_fold_html, depart_fold_html)),
        (fold_summary, (visit_summary_html, depart_summary_html)),
    ]:
        app.add_node(
            node, html=html, latex=others, text=others, man=others, texinfo=others
        )
    app.add_node(check_marker)
    app.add_directive("check", CheckDirective)
    app.add_directive("detail", DetailDirective)
    app.add_transform(FoldChecks)
    # Before Sphinx-Gallery generates and runs the pages (priority 500).
    app.connect("builder-inited", check_gallery_folds, priority=430)
    # Before Sphinx-Gallery's summary of the failing pages (priority 500).
    app.connect("build-finished", name_failed_checks, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
