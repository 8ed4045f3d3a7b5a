"""Lighter, more accessible HTML pages, described for search engines and link previews.

- Each page loads only the style sheets and scripts its content uses: a page
  without a code block needs neither Pygments' colours nor the copy button, a
  page without cards or tabs no Sphinx-Design, a page without notebook cells
  no myst-nb styles, and this site uses no Binder, data-frame or
  rendered-HTML output, whose Sphinx-Gallery styles would otherwise block
  every page's first paint.
- Markup that no style sheet or script reads is left out: the
  ``<span class="pre">`` around each word of inline code (only Sphinx's basic
  theme styles it, and Furo does not load it), the spans of Pygments' classes
  in signatures (Pygments' rules apply inside ``.highlight`` only), and, in
  code blocks, the spans that draw a name, a punctuation mark or a run of
  spaces in the code's own text colour. That is 4,000 of the API reference's
  10,000 elements: styling and laying them out on a phone's CPU is what kept
  the page below 95 in mobile Lighthouse's performance score.
- Furo's script takes ``no-js`` off the root element once the page has
  loaded, which makes the browser restyle every element of the page (60 ms
  for the API reference on a desktop CPU, a long task on a phone). An inline
  script in the head takes it off before there is anything to restyle; a
  browser without JavaScript still hides the theme toggle.
- The navigation captions that Sphinx marks ``role="heading"`` get the
  ``aria-level`` that screen readers need with it.
- Every page gets one ``<meta name="description">``: the page's first
  paragraph (a gallery page's docstring, a MyST page's first paragraph), in
  whole sentences where they fit. sphinxext-opengraph writes the OpenGraph
  tags (``og:title``, ``og:type``, ``og:site_name``, ``og:url``) and gets the
  same text for ``og:description``. Pages that Sphinx generates without a
  source (search, index) have no paragraph and no doctree for the extension
  to read; they get a sentence on what they hold, and their OpenGraph tags
  from here.
- ``og:url`` must be absolute: a build that does not know the site's address
  (``html_baseurl``, see ``conf.py``) writes none, as it writes no canonical
  link and no sitemap. Sphinx's own viewport tag, which repeats Furo's, is
  dropped.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Iterator
from typing import Any

from docutils import nodes
from pygments.styles import get_style_by_name
from pygments.token import STANDARD_TYPES, Text
from sphinx.application import Sphinx
from sphinx.config import Config

#: Style sheets and scripts of features this site does not use.
UNUSED = (
    "sg_gallery-binder.css",
    "sg_gallery-dataframe.css",
    "sg_gallery-rendered-html.css",
)


def _class(prefix: str) -> re.Pattern[str]:
    """Matches a ``class`` attribute holding a class that starts with `prefix`."""
    return re.compile(rf'class="(?:[^"]*\s)?(?:{prefix})')


#: Style sheets and scripts that a page loads only when its content has the
#: classes they act on (a fragment of the file's name, then the classes).
NEEDED_FOR = (
    ("pygments.css", _class("highlight")),
    ("copybutton", _class("highlight")),
    ("clipboard.min.js", _class("highlight")),
    ("sphinx-design.min.css", _class("sd-")),
    ("design-tabs.js", _class("sd-tab")),
    ("mystnb.", _class("cell|pasted-")),
    ("sg_gallery.css", _class("sphx-glr-")),
    ("sg-tags.js", _class("sphx-glr-tag")),
)

#: How long a description may be. Search engines show about the first 160
#: characters; link previews show more.
DESCRIPTION_CHARACTERS = 300

#: Pages that Sphinx generates without a source: their titles (which their
#: templates set) and what they hold.
GENERATED_PAGES = {
    "genindex": (
        "Index",
        "Every helper, module and glossary term of {project}, in alphabetical order.",
    ),
    "search": ("Search", "Search every page of {project}."),
    "py-modindex": ("Python Module Index", "The Python modules {project} documents."),
}

#: Where a paragraph is not the page's own text.
ASIDES = (
    nodes.Admonition,
    nodes.sidebar,
    nodes.topic,
    nodes.footnote,
    nodes.citation,
    nodes.table,
    nodes.field_list,
    nodes.Invisible,
    nodes.system_message,
)

WORD_OF_INLINE_CODE = re.compile(r'<span class="pre">([^<]*)</span>')
CODE_BLOCK = re.compile(r"<pre\b[^>]*>.*?</pre>", re.DOTALL)
SIGNATURE = re.compile(r'<dt class="sig[ "].*?</dt>', re.DOTALL)
#: A span with one of Pygments' classes, whose rules apply inside
#: ``.highlight`` only: in a signature it is plain text.
TOKEN_SPAN = re.compile(
    r'<span class="(?:{})">([^<]*)</span>'.format(
        "|".join(sorted(map(re.escape, filter(None, set(STANDARD_TYPES.values())))))
    )
)
#: Takes ``no-js`` off before the page is parsed (see above).
JS_AVAILABLE = '<script>document.documentElement.classList.remove("no-js")</script>'
OWN_DESCRIPTION = re.compile(r'<meta name="description" content="([^"]*)"')
DOCUTILS_VIEWPORT = re.compile(r'<meta name="viewport"[^>]*>\s*')
OG_URL = re.compile(r'<meta property="og:url"[^>]*>\n?')


def _needed(asset: Any, body: str) -> bool:
    name = str(getattr(asset, "filename", asset))
    if any(unused in name for unused in UNUSED):
        return False
    for fragment, pattern in NEEDED_FOR:
        if fragment in name:
            return pattern.search(body) is not None
    return True


@functools.cache
def plain_token_classes(
    styles: tuple[str, ...], read_by_scripts: str
) -> frozenset[str]:
    """Pygments' classes that all of `styles` draw exactly like plain text.

    Spans of these classes change nothing on screen. Classes named in
    `read_by_scripts` (sphinx-copybutton's ``copybutton_exclude``: prompts,
    outputs) are kept whatever their colour.
    """
    plain: set[str] | None = None
    for name in styles:
        style = get_style_by_name(name)
        text = style.style_for_token(Text)
        same = {
            css_class
            for token, css_class in STANDARD_TYPES.items()
            if css_class and style.style_for_token(token) == text
        }
        plain = same if plain is None else plain & same
    return frozenset((plain or set()) - set(re.findall(r"[\w-]+", read_by_scripts)))


def thin(body: str, plain_classes: frozenset[str]) -> str:
    """`body` without the spans that no style sheet or script reads."""
    body = WORD_OF_INLINE_CODE.sub(r"\1", body)
    body = SIGNATURE.sub(lambda signature: TOKEN_SPAN.sub(r"\1", signature[0]), body)
    if not plain_classes:
        return body
    plain_span = re.compile(
        r'<span class="(?:{})">([^<]*)</span>'.format(
            "|".join(map(re.escape, sorted(plain_classes)))
        )
    )
    return CODE_BLOCK.sub(lambda block: plain_span.sub(r"\1", block[0]), body)


def _ancestors(node: nodes.Node) -> Iterator[nodes.Node]:
    while node.parent is not None:
        node = node.parent
        yield node


def first_paragraph(doctree: nodes.document) -> str:
    """The text of the page's first paragraph that is not in an aside."""
    for paragraph in doctree.findall(nodes.paragraph):
        if any(isinstance(node, ASIDES) for node in _ancestors(paragraph)):
            continue
        text = " ".join(paragraph.astext().split())
        if text:
            return text
    return ""


def shorten(text: str, limit: int = DESCRIPTION_CHARACTERS) -> str:
    """`text`'s first sentences that fit in `limit` characters, else its first
    words and an ellipsis."""
    if len(text) <= limit:
        return text
    kept = ""
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        longer = f"{kept} {sentence}" if kept else sentence
        if len(longer) > limit:
            break
        kept = longer
    return kept or text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def _tag(attribute: str, name: str, content: str) -> str:
    return f'<meta {attribute}="{name}" content="{html.escape(content)}" />'


def describe_page(
    app: Sphinx,
    pagename: str,
    templatename: str,
    context: dict[str, Any],
    doctree: nodes.document | None,
) -> None:
    """Before sphinxext-opengraph: the description, and OpenGraph tags for
    pages it does not see."""
    config = app.config
    title, about = GENERATED_PAGES.get(pagename, ("", "{title}: {project}, {tagline}."))
    title = context.get("title") or title or config.project
    title = html.unescape(re.sub(r"<[^>]+>", "", str(title)))
    own = OWN_DESCRIPTION.search(context.get("metatags", ""))
    text = first_paragraph(doctree) if doctree else ""
    if own:  # a page's own ``meta`` directive wins
        description = html.unescape(own[1])
    else:
        description = shorten(text) or about.format(
            title=title, project=config.project, tagline=config.project_tagline
        )
    tags = [] if own else [_tag("name", "description", description)]
    if doctree:
        # sphinxext-opengraph writes page metadata fields named og:* as they
        # are (escaping only quotes), in place of the text it would collect.
        context["meta"] = {
            **(context.get("meta") or {}),
            "og:description": html.escape(description, quote=False),
        }
    else:
        tags += [
            _tag("property", "og:title", title),
            _tag("property", "og:type", config.ogp_type),
            _tag("property", "og:site_name", config.ogp_site_name or config.project),
            _tag("property", "og:description", description),
        ]
        if config.html_baseurl:
            tags.append(_tag("property", "og:url", context.get("pageurl") or ""))
    context["metatags"] = context.get("metatags", "") + "\n" + "\n".join(tags)


def tune_page(
    app: Sphinx,
    pagename: str,
    templatename: str,
    context: dict[str, Any],
    doctree: nodes.document | None,
) -> None:
    """After Furo and sphinxext-opengraph: lighter assets, markup and tags."""
    body = context.get("body", "")
    for key in ("css_files", "script_files"):
        if key in context:
            context[key] = [asset for asset in context[key] if _needed(asset, body)]
    config = app.config
    plain = plain_token_classes(
        tuple(filter(None, (config.pygments_style, config.pygments_dark_style))),
        getattr(config, "copybutton_exclude", ""),
    )
    for key in ("body", "toc"):
        if isinstance(context.get(key), str):
            context[key] = thin(context[key], plain)
    if isinstance(context.get("body"), str):
        # Sphinx highlights the words searched for inside div.body, else in
        # the whole page, where it fails on the <title> of Furo's SVG icons
        # (a TypeError in the console), after a search for "t" or "menu".
        context["body"] = f'<div class="body">{context["body"]}</div>'
    tree = context.get("furo_navigation_tree")
    if isinstance(tree, str):
        context["furo_navigation_tree"] = tree.replace(
            'role="heading"', 'role="heading" aria-level="2"'
        )
    metatags = context.get("metatags", "")
    # Furo's template writes the viewport tag itself.
    metatags = DOCUTILS_VIEWPORT.sub("", metatags)
    if not app.config.html_baseurl:
        metatags = OG_URL.sub("", metatags)
    context["metatags"] = metatags + "\n" + JS_AVAILABLE


def add_error_search(
    app: Sphinx,
    pagename: str,
    templatename: str,
    context: dict[str, Any],
    doctree: nodes.document | None,
) -> None:
    """On the search page only: a pasted error message finds its atlas entry."""
    if pagename == "search":
        app.add_js_file("error_search.js")


def configure(app: Sphinx, config: Config) -> None:
    if config.html_baseurl and not config.html_baseurl.endswith("/"):
        config.html_baseurl += "/"
    if not config.ogp_site_url:
        config.ogp_site_url = config.html_baseurl


def absolute_404_links(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Give the 404 page's own links the site's path, as its theme links have.

    A missing address is served the 404 page at any depth, where a relative
    link would point nowhere. sphinx-notfound-page makes the theme's links
    and the page's images absolute (``notfound_urls_prefix``), not the links
    written in the page's text.
    """
    if docname != app.config.notfound_pagename:
        return
    prefix = app.config.notfound_urls_prefix or "/"
    for reference in doctree.findall(nodes.reference):
        uri = reference.get("refuri", "")
        if uri and not re.match(r"^([a-z][a-z0-9+.-]*:|/|#)", uri):
            reference["refuri"] = prefix + uri


def setup(app: Sphinx) -> dict[str, object]:
    app.setup_extension("sphinxext.opengraph")
    app.add_config_value("project_tagline", "", "html", types=(str,))
    app.connect("config-inited", configure)
    # Before sphinxext-opengraph (default priority 500) reads the description;
    app.connect("html-page-context", describe_page, priority=400)
    app.connect("html-page-context", add_error_search)
    # after Furo computes the navigation tree and the extension writes its tags.
    app.connect("html-page-context", tune_page, priority=900)
    app.connect("doctree-resolved", absolute_404_links)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
