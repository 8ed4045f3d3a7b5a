"""What search engines and link previews read: descriptions, OpenGraph tags,
canonical links and the sitemap; and the lighter markup the pages are sent in."""

from __future__ import annotations

import os
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import pytest
from build_facts import published_address, published_prefix  # docs/_ext
from html_tuning import plain_token_classes, thin  # docs/_ext: see sitebuild.py

from sitebuild import copy_sources, sphinx_build

pytestmark = pytest.mark.docs

#: The address the extra build is told it is published at.
SITE_URL = "https://example.org/pytorch-foundations/"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
#: Pages that Sphinx generates without a source, so without a paragraph.
GENERATED = {"genindex.html", "search.html", "py-modindex.html"}
#: The search page asks not to be indexed; the 404 page is not a page to find.
NOT_IN_SITEMAP = {"search.html", "404.html"}
DESCRIPTION_CHARACTERS = 300


def pages(site: Path) -> list[str]:
    """Every HTML page, relative to the site (folders starting with _ hold files)."""
    return sorted(
        path.relative_to(site).as_posix()
        for path in site.rglob("*.html")
        if not any(part.startswith("_") for part in path.relative_to(site).parts)
    )


class _Page(HTMLParser):
    """A page's title, meta tags and canonical links, and the paragraphs of its
    article that are not in an aside (admonition, sidebar, table, footnote)."""

    def __init__(self) -> None:
        super().__init__()
        self.title = ""
        self.meta: list[tuple[str, str]] = []
        self.canonical: list[str] = []
        self.paragraphs: list[str] = []
        self._in_title = False
        self._in_article = False
        self._asides: list[bool] = []
        self._paragraph: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {key: value or "" for key, value in attrs}
        classes = attributes.get("class", "").split()
        if tag == "title":
            self._in_title = True
        elif tag == "meta" and ("name" in attributes or "property" in attributes):
            name = attributes.get("name") or attributes["property"]
            self.meta.append((name, attributes.get("content", "")))
        elif tag == "link" and attributes.get("rel") == "canonical":
            self.canonical.append(attributes.get("href", ""))
        elif tag == "article":
            self._in_article = True
        elif tag in {"div", "aside", "nav", "table", "dl"}:
            self._asides.append(
                tag in {"aside", "nav", "table"}
                or "admonition" in classes
                or "topic" in classes
                or "field-list" in classes
            )
        elif tag == "p" and self._in_article and not any(self._asides):
            self._paragraph = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        elif tag == "article":
            self._in_article = False
        elif tag in {"div", "aside", "nav", "table", "dl"} and self._asides:
            self._asides.pop()
        elif tag == "p" and self._paragraph is not None:
            self.paragraphs.append(" ".join("".join(self._paragraph).split()))
            self._paragraph = None

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        if self._paragraph is not None:
            self._paragraph.append(data)

    def content(self, name: str) -> str:
        return next(content for key, content in self.meta if key == name)


def parse(page: Path) -> _Page:
    parser = _Page()
    parser.feed(page.read_text())
    return parser


def test_every_page_has_one_description_from_its_first_paragraph(site: Path) -> None:
    problems = []
    for name in pages(site):
        page = parse(site / name)
        counts = Counter(key for key, _ in page.meta)
        missing = [
            key
            for key in (
                "description",
                "og:title",
                "og:description",
                "og:type",
                "og:site_name",
            )
            if counts[key] != 1 or not page.content(key).strip()
        ]
        if missing:
            problems.append(f"{name}: not exactly one non-empty {missing}")
            continue
        twice = sorted(key for key, count in counts.items() if count > 1)
        if twice:
            problems.append(f"{name}: meta tags written twice: {twice}")
        description = page.content("description")
        if page.content("og:description") != description:
            problems.append(f"{name}: og:description is not the description")
        if page.content("og:title") not in page.title:
            problems.append(f"{name}: og:title is not the page's <title>")
        if len(description) > DESCRIPTION_CHARACTERS:
            problems.append(f"{name}: description of {len(description)} characters")
        if name in GENERATED:
            if page.content("og:site_name") not in description:
                problems.append(f"{name}: {description!r} does not name the site")
            continue
        first = page.paragraphs[0] if page.paragraphs else ""
        whole = description == first or (
            description.endswith((".", "!", "?"))
            and first.startswith(description + " ")
        )
        cut = description.endswith("…") and first.startswith(description[:-1])
        if not (whole or cut):
            problems.append(
                f"{name}: {description!r} is not the start of the first "
                f"paragraph {first[:120]!r}"
            )
    assert not problems, "\n".join(problems)


def test_a_build_without_an_address_claims_none(site: Path) -> None:
    if os.environ.get("READTHEDOCS_CANONICAL_URL") or os.environ.get("DOCS_SITE_URL"):
        pytest.skip("this build was given the site's address")
    assert not (site / "sitemap.xml").exists(), "a sitemap needs absolute URLs"
    claims = [
        name
        for name in pages(site)
        if (page := parse(site / name)).canonical
        or any(key == "og:url" for key, _ in page.meta)
    ]
    assert not claims, f"canonical links or og:url without an address: {claims}"


@pytest.fixture(scope="module")
def hosted_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as the GitHub Pages workflow builds it (pages not run: the
    addresses do not depend on their output)."""
    docs = copy_sources(tmp_path_factory.mktemp("hosted"))
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("READTHEDOCS_CANONICAL_URL", raising=False)
        patch.setenv("DOCS_SITE_URL", SITE_URL.rstrip("/"))
        result = sphinx_build(
            docs, "-D", "plot_gallery=0", "-D", "nb_execution_mode=off"
        )
    assert result.returncode == 0, f"{result.stdout[-3000:]}\n{result.stderr[-6000:]}"
    assert "WARNING" not in result.stderr, result.stderr[-6000:]
    return docs / "_build" / "html"


def test_with_an_address_every_page_names_its_canonical_url(hosted_site: Path) -> None:
    problems = []
    for name in pages(hosted_site):
        page = parse(hosted_site / name)
        urls = [content for key, content in page.meta if key == "og:url"]
        if page.canonical != [SITE_URL + name] or urls != [SITE_URL + name]:
            problems.append(f"{name}: canonical {page.canonical}, og:url {urls}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    ("environ", "address", "prefix"),
    [
        (  # Read the Docs names the language and version
            {"READTHEDOCS_CANONICAL_URL": "https://site.readthedocs.io/en/latest/"},
            "https://site.readthedocs.io/en/latest/",
            "/en/latest/",
        ),
        (  # GitHub Pages: the repository's name, the workflow's address
            {"DOCS_SITE_URL": "https://owner.github.io/repo"},
            "https://owner.github.io/repo/",
            "/repo/",
        ),
        ({"DOCS_SITE_URL": "https://example.org/"}, "https://example.org/", "/"),
        ({}, "", "/"),  # a local build
    ],
)
def test_the_404_page_links_from_the_published_path(
    environ: dict[str, str], address: str, prefix: str
) -> None:
    assert published_address(environ) == address
    assert published_prefix(environ) == prefix


def test_the_hosted_404_page_links_under_the_site_path(hosted_site: Path) -> None:
    parsed = _Links()
    parsed.feed((hosted_site / "404.html").read_text(encoding="utf-8"))
    external = ("http:", "https:", "#", "data:", "mailto:")
    local = [link for link in parsed.links if not link.startswith(external)]
    assert local, "the 404 page links to no page of the site"
    path = "/" + SITE_URL.split("://", 1)[1].split("/", 1)[1]
    wrong = [link for link in local if not link.startswith(path)]
    assert not wrong, f"404 links outside {path}: {wrong[:5]}"


class _Links(HTMLParser):
    """Every href and src of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.links += [v for k, v in attrs if k in ("href", "src") and v]


def test_the_sitemap_lists_every_page_once(hosted_site: Path) -> None:
    root = ElementTree.parse(hosted_site / "sitemap.xml").getroot()
    assert root.tag == f"{SITEMAP}urlset"
    listed = [str(loc.text) for loc in root.iter(f"{SITEMAP}loc")]
    assert len(listed) == len(set(listed)), "a page is listed twice"
    expected = {
        SITE_URL + name for name in pages(hosted_site) if name not in NOT_IN_SITEMAP
    }
    assert set(listed) == expected


def test_lighter_markup_keeps_the_text_and_what_scripts_read() -> None:
    plain = plain_token_classes(
        ("a11y-high-contrast-light", "a11y-high-contrast-dark"), ".linenos, .gp, .go"
    )
    assert {"n", "p", "w"} <= plain, "names, punctuation, spaces in the text colour"
    assert not {"gp", "go", "o", "k"} & plain, "prompts, outputs, operators, keywords"
    body = (
        '<p><code class="docutils literal notranslate"><span class="pre">x</span> '
        '<span class="pre">=</span> <span class="pre">1</span></code></p>'
        '<dt class="sig sig-object py"><em class="sig-param"><span class="n">x</span>'
        '<span class="p">:</span><span class="w"> </span><span class="n">int</span>'
        "</em></dt>"
        '<div class="highlight"><pre><span></span><span class="gp">&gt;&gt;&gt; </span>'
        '<span class="n">x</span><span class="w"> </span><span class="o">=</span>'
        '<span class="w"> </span><span class="mi">1</span>\n<span class="go">1</span>'
        "</pre></div>"
    )
    thinned = thin(body, plain)
    assert re.sub(r"<[^>]+>", "", thinned) == re.sub(r"<[^>]+>", "", body)
    for gone in ('class="pre"', 'class="n"', 'class="p"', 'class="w"'):
        assert gone not in thinned
    for kept in ('class="gp"', 'class="go"', 'class="o"', 'class="mi"', "sig-param"):
        assert kept in thinned
