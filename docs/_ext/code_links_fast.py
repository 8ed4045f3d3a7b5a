"""Sphinx-Gallery's links in code, with fewer nodes: the same HTML, sooner.

Sphinx-Gallery links the names in a page's code to their documentation by
rewriting each code block, once the page is read, into one docutils node per
pygments token (``sphinx_gallery._doctree_links``): about 88,000 nodes for
this site's pages. Making them took 2.4 s of the 25 s that writing every page
took in one process (timed on this machine, while it was busy), and every
later transform and the HTML writer walk them again.

Here each run of tokens between two links becomes a single node that holds
its HTML, written exactly as the HTML writer writes the token nodes
(``<span class="k">...</span>``, text escaped the same way), and the tokens'
text, which the search index reads. A link stays Sphinx-Gallery's own node.
A block with line numbers keeps one node per token (they are inserted
between tokens).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx

# docutils' HTML writers escape text with this table (HTMLTranslator.encode).
_ESCAPE = str.maketrans(
    {"&": "&amp;", "<": "&lt;", '"': "&quot;", ">": "&gt;", "@": "&#64;"}
)


class code_run(nodes.Inline, nodes.TextElement):
    """Several highlighted tokens of code: their HTML, and their text as child."""


def visit_code_run_html(self: Any, node: code_run) -> None:
    self.body.append(node["html"])
    raise nodes.SkipNode


def _part(node: nodes.Node) -> tuple[str, str | None] | None:
    """A token node's text and classes (None for bare text); None if not a token."""
    if isinstance(node, nodes.Text):
        return node.astext(), None
    if (
        type(node) is nodes.inline
        and not (node["ids"] or node["names"])
        and len(node.children) == 1
        and isinstance(node[0], nodes.Text)
    ):
        return node.astext(), " ".join(node["classes"])
    return None


def _html(text: str, classes: str | None) -> str:
    """The HTML the writer makes of one token node (an inline, or bare text)."""
    escaped = text.translate(_ESCAPE)
    return escaped if classes is None else f'<span class="{classes}">{escaped}</span>'


def _run(parts: list[tuple[str, str | None]]) -> code_run:
    # The search index reads the text: a space between tokens keeps its words
    # those of the token nodes (``"\\nblue"`` stays the words n and blue).
    text = " ".join(text for text, _ in parts)
    html = "".join(_html(text, classes) for text, classes in parts)
    return code_run("", text, html=html, parts=parts)


def coalesce(tokens: Iterator[nodes.Node]) -> Iterator[nodes.Node]:
    """Merge the token nodes between links into `code_run` nodes."""
    parts: list[tuple[str, str | None]] = []
    for node in tokens:
        part = _part(node)
        if part is not None:
            parts.append(part)
            continue
        if parts:
            yield _run(parts)
            parts = []
        yield node
    if parts:
        yield _run(parts)


def tokens_of(children: list[nodes.Node]) -> list[nodes.Node]:
    """`children` with each `code_run` made token nodes again."""
    tokens: list[nodes.Node] = []
    for child in children:
        if not isinstance(child, code_run):
            tokens.append(child)
            continue
        for text, classes in child["parts"]:
            if classes is None:
                tokens.append(nodes.Text(text))
            else:
                tokens.append(nodes.inline(text, text, classes=classes.split()))
    return tokens


def _patch() -> None:
    from sphinx_gallery import _doctree_links

    if getattr(_doctree_links, "_coalesced", False):
        return
    tokenize_and_link = _doctree_links._tokenize_and_link
    add_linenos = _doctree_links._add_linenos

    @functools.wraps(tokenize_and_link)
    def tokens_and_links(*args: Any, **kwargs: Any) -> Iterator[nodes.Node]:
        return coalesce(tokenize_and_link(*args, **kwargs))

    @functools.wraps(add_linenos)
    def linenos(children: list[nodes.Node], start: int) -> list[nodes.Node]:
        # Line numbers go between tokens: such a block keeps a node per token.
        return add_linenos(tokens_of(children), start)

    _doctree_links._tokenize_and_link = tokens_and_links
    _doctree_links._add_linenos = linenos
    _doctree_links._coalesced = True


def setup(app: Sphinx) -> dict[str, object]:
    app.add_node(code_run, html=(visit_code_run_html, None))
    _patch()
    return {"parallel_read_safe": True, "parallel_write_safe": True}
