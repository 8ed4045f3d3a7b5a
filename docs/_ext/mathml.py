"""Write the site's mathematics as MathML when the page is built.

Sphinx's default, MathJax, loads about a megabyte of JavaScript from a CDN on
every page with a formula and typesets it in the reader's browser: the page
then needs the network, and mobile Lighthouse scored such pages 88 to 93 for
performance. Every browser the site supports renders MathML Core itself
(Chromium since 109, Firefox and Safari for longer), so this extension
converts each ``$...$``, ``:math:`` and ``.. math::`` to MathML at build time
with ``latex2mathml``: no script, no network, and screen readers read it.

A formula that ``latex2mathml`` cannot convert, or a command it does not
know (which it would copy through as text), fails the build, naming the
page, the line and the formula, rather than leaving raw LaTeX on the page.
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes
from latex2mathml.converter import convert
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.writers.html5 import HTML5Translator


def _mathml(node: nodes.Element, latex: str, display: str) -> str:
    where = f"{node.source}:{node.line}" if node.source else "a page"
    try:
        mathml: str = convert(latex, display=display)
    except Exception as error:  # latex2mathml raises several kinds
        msg = f"{where}: cannot write {latex!r} as MathML ({error})"
        raise ExtensionError(msg) from error
    # A command latex2mathml does not know is copied through as text.
    unknown = re.findall(r">(\\[A-Za-z]+)<", mathml)
    if unknown:
        msg = f"{where}: cannot write {', '.join(unknown)} of {latex!r} as MathML"
        raise ExtensionError(msg)
    return mathml


def visit_math(self: HTML5Translator, node: nodes.math) -> None:
    self.body.append(_mathml(node, node.astext(), "inline"))
    raise nodes.SkipNode


def visit_math_block(self: HTML5Translator, node: nodes.math_block) -> None:
    latex = node.astext()
    self.body.append(self.starttag(node, "div", CLASS="math"))
    self.body.append(_mathml(node, latex, "block"))
    self.body.append("</div>\n")
    raise nodes.SkipNode


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_html_math_renderer("mathml", (visit_math, None), (visit_math_block, None))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
