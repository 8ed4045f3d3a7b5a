"""Measure a page's prose: sentence lengths, parentheses and size.

The site's pages are written for a Python programmer new to PyTorch, in
short sentences of one idea each. This module reads a page's prose as a
reader meets it and measures it, so that a test can hold every page to the
limits below and name the page, the line and the sentence that breaks one.

What counts as prose:

- a gallery script's text cells, details included, without the lines of a
  check (its claim is a summary line, not a sentence), a detail's subject
  line, headings, directive lines and literal blocks;
- a MyST page's Markdown outside code cells, directives' options and
  front matter.

Sentences end at ``.``, ``?`` and ``!`` followed by a space or the end of a
line, and at paragraph and list-item breaks. Markup goes before counting:
inline code counts as one word, a role counts as its text, a link as its
words. Parentheses are counted in the prose without inline code.

Run ``python docs/_ext/prose_rules.py PAGE...`` to see a page's figures and
its sentences that break a limit.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

#: Words in one sentence at most, and the length above which a sentence
#: counts as long.
MOST_WORDS = 40
LONG_WORDS = 30
#: At most this share of a page's sentences may be long.
LONG_SHARE = 0.03
#: At most this many words a sentence, on average over a page.
MEAN_WORDS = 16
#: At most this many opening parentheses in 100 words of prose.
PARENS_PER_100 = 1.0
#: Words of prose and visible code lines of a lesson page: the median over
#: the lesson pages, and the most any one page may have.
MEDIAN_WORDS, MOST_PAGE_WORDS = 700, 1000
MEDIAN_CODE_LINES, MOST_CODE_LINES = 100, 150

_ROLE = re.compile(r":[\w:.+-]+:`(?:[^`<]*?<[^`]*>|[^`]*)`")
_ROLE_TEXT = re.compile(r":[\w:.+-]+:`(?P<body>[^`]*)`")
_MYST_ROLE = re.compile(r"\{[\w:.+-]+\}`(?P<body>[^`]*)`")
_INLINE_CODE = re.compile(r"``[^`]+``|(?<![`:}])`[^`\n]+`(?!_)")
_LINK = re.compile(r"`(?P<text>[^`<]+?)\s*<[^`>]+>`__?")
_MD_LINK = re.compile(r"\[(?P<text>[^\]]+)\]\([^)]+\)")
_SENTENCE_END = re.compile(r"(?<=[.?!])[\"')\]]*\s+(?=\S)")
_ABBREVIATIONS = re.compile(r"\b(?:e\.g|i\.e|etc|vs|cf|Fig|approx)\.$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.|#\.)\s+")
_HEADING_UNDERLINE = re.compile(r"^([=\-~^\"'`#*+])\1{2,}\s*$")
_DIRECTIVE = re.compile(r"^\s*\.\. [\w:-]+::|^\s*\.\. _[\w-]+:$|^\s*:[\w-]+:( |$)")
_CHECK = re.compile(r"^\.\. check::")
_DETAIL = re.compile(r"^\s*\.\. detail::")
_WORD = re.compile(r"[\w\u00b2\u00b3\u2070-\u209f]+(?:['\u2019.\-][\w]+)*")


@dataclass(frozen=True)
class Sentence:
    """One sentence of a page: the line it starts on, its words and its text."""

    line: int
    words: int
    text: str
    in_detail: bool = False


@dataclass
class Prose:
    """A page's prose, measured."""

    page: Path
    sentences: list[Sentence] = field(default_factory=list)
    parens: int = 0
    code_lines: int = 0

    @property
    def words(self) -> int:
        """Words of prose, details included."""
        return sum(s.words for s in self.sentences)

    @property
    def open_words(self) -> int:
        """Words of prose a reader sees without opening a detail."""
        return sum(s.words for s in self.sentences if not s.in_detail)

    @property
    def mean(self) -> float:
        """Average words a sentence."""
        return self.words / len(self.sentences) if self.sentences else 0.0

    @property
    def long_share(self) -> float:
        """Share of sentences over :data:`LONG_WORDS` words."""
        long = sum(s.words > LONG_WORDS for s in self.sentences)
        return long / len(self.sentences) if self.sentences else 0.0

    @property
    def parens_per_100(self) -> float:
        """Opening parentheses per 100 words, inline code not counted."""
        return 100 * self.parens / self.words if self.words else 0.0

    def problems(self) -> Iterator[str]:
        """Each way the page breaks a sentence limit, naming line and sentence."""
        name = _shown(self.page)
        for s in self.sentences:
            if s.words > MOST_WORDS:
                yield f"{name}, line {s.line}: {s.words} words: {s.text}"
        if self.mean > MEAN_WORDS:
            yield f"{name}: {self.mean:.1f} words a sentence (at most {MEAN_WORDS})"
        if self.long_share > LONG_SHARE:
            long = [s for s in self.sentences if s.words > LONG_WORDS]
            yield (
                f"{name}: {self.long_share:.0%} of sentences over {LONG_WORDS} "
                f"words (at most {LONG_SHARE:.0%}): "
                + "; ".join(f"line {s.line} ({s.words} words)" for s in long)
            )
        if self.parens_per_100 > PARENS_PER_100:
            yield (
                f"{name}: {self.parens_per_100:.2f} opening parentheses per 100 "
                f"words (at most {PARENS_PER_100:g})"
            )


def _shown(page: Path) -> str:
    """`page` relative to the working folder where it lies inside it."""
    try:
        return page.resolve().relative_to(Path.cwd()).as_posix()
    except ValueError:
        return page.as_posix()


def plain(text: str) -> tuple[str, int]:
    """`text` without markup, and its opening parentheses outside inline code.

    >>> plain("Use :func:`torch.zeros` (or ``torch.ones``) here.")
    ('Use torch.zeros (or CODE) here.', 1)
    >>> plain("See `the docs <https://x.org>`__ and {term}`dtype`.")
    ('See the docs and dtype.', 0)
    """
    text = _LINK.sub(lambda m: m.group("text"), text)
    text = _MD_LINK.sub(lambda m: m.group("text"), text)

    def role(match: re.Match[str]) -> str:
        body = match.group("body")
        if "<" in body and body.rstrip().endswith(">"):
            body = body[: body.rindex("<")]
        return body.strip().lstrip("~!").split(".")[-1] if "~" in body else body

    text = _ROLE_TEXT.sub(role, text)
    text = _MYST_ROLE.sub(role, text)
    text = _INLINE_CODE.sub("CODE", text)
    text = text.replace("**", "").replace("*", "")
    return text, text.count("(")


def count_words(text: str) -> int:
    """Words in plain text: runs of letters and digits, ``CODE`` being one.

    >>> count_words("A 1-D tensor's shape is (3,) here.")
    7
    """
    return len(_WORD.findall(text))


def split_sentences(paragraph: str) -> list[str]:
    """Sentences of one paragraph of plain text.

    >>> split_sentences("One idea. Then e.g. another? Yes! Done")
    ['One idea.', 'Then e.g. another?', 'Yes!', 'Done']
    """
    parts: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(paragraph):
        head = paragraph[start : match.start()].rstrip("\"')]")
        if _ABBREVIATIONS.search(head):
            continue
        parts.append(paragraph[start : match.start()].strip())
        start = match.end()
    parts.append(paragraph[start:].strip())
    return [p for p in parts if p]


def _paragraphs(
    lines: list[tuple[int, str]],
) -> Iterator[list[tuple[int, str]]]:
    """Group lines into paragraphs and list items."""
    current: list[tuple[int, str]] = []
    for number, line in lines:
        if not line.strip() or _LIST_ITEM.match(line):
            if current:
                yield current
            current = []
            if line.strip():
                current = [(number, _LIST_ITEM.sub("", line))]
            continue
        current.append((number, line))
    if current:
        yield current


def _rst_prose(
    lines: list[tuple[int, str]], details: set[int]
) -> list[tuple[int, str]]:
    """The prose lines of reStructuredText: no headings, directives or literals.

    Adds to `details` the numbers of the lines inside a detail.
    """
    kept: list[tuple[int, str]] = []
    literal_indent: int | None = None
    detail_indent: int | None = None
    for index, (number, line) in enumerate(lines):
        indent = len(line) - len(line.lstrip())
        if detail_indent is not None:
            if line.strip() and indent <= detail_indent:
                detail_indent = None
            else:
                details.add(number)
        if literal_indent is not None:
            if line.strip() and indent <= literal_indent:
                literal_indent = None
            else:
                continue
        following = lines[index + 1][1] if index + 1 < len(lines) else ""
        if _HEADING_UNDERLINE.match(line) or (
            line.strip() and _HEADING_UNDERLINE.match(following)
        ):
            kept.append((number, ""))
            continue
        if _CHECK.match(line) or _DETAIL.match(line):
            if _DETAIL.match(line):
                detail_indent = indent
            kept.append((number, ""))
            continue
        if _DIRECTIVE.match(line):
            if re.match(r"^\s*\.\. (code-block|code|math|literalinclude)::", line):
                literal_indent = indent
            kept.append((number, ""))
            continue
        if line.rstrip().endswith("::") and not line.strip().startswith(".."):
            kept.append((number, line.rstrip()[:-1]))
            literal_indent = indent
            continue
        kept.append((number, line))
    return kept


def _measure(
    lines: list[tuple[int, str]], prose: Prose, details: frozenset[int] = frozenset()
) -> None:
    for paragraph in _paragraphs(lines):
        text, parens = plain(" ".join(line.strip() for _, line in paragraph))
        prose.parens += parens
        # Each sentence's line: the first, from where the last one started,
        # that holds its first word.
        plain_lines = [(n, plain(line)[0]) for n, line in paragraph]
        at = 0
        for sentence in split_sentences(text):
            words = _WORD.findall(sentence)
            if not words:
                continue
            while at + 1 < len(plain_lines) and words[0] not in plain_lines[at][1]:
                at += 1
            line = plain_lines[at][0]
            prose.sentences.append(
                Sentence(line, len(words), sentence, line in details)
            )


def gallery_text_lines(source: list[str]) -> list[tuple[int, str]]:
    """A script's lines numbered from 1: text as reStructuredText, code as ``""``.

    >>> quotes = '"' * 3
    >>> gallery_text_lines([quotes + "Title" + quotes, "# %%", "# Text.", "x = 1"])
    [(1, 'Title'), (2, ''), (3, 'Text.'), (4, '')]
    """
    lines: list[tuple[int, str]] = []
    in_docstring = False
    for number, raw in enumerate(source, start=1):
        stripped = raw.strip()
        if number == 1 and stripped.startswith('"""'):
            in_docstring = not (len(stripped) > 3 and stripped.endswith('"""'))
            lines.append((number, stripped.strip('"')))
        elif in_docstring:
            if stripped.endswith('"""'):
                in_docstring = False
                stripped = stripped[:-3]
            lines.append((number, stripped))
        elif raw.startswith(("# %%", "# sphinx_gallery_")) or not raw.startswith("#"):
            lines.append((number, ""))
        else:
            lines.append((number, raw[2:] if raw.startswith("# ") else raw[1:]))
    return lines


def gallery_prose(script: Path) -> Prose:
    """Measure the text cells of a Sphinx-Gallery script."""
    lines = gallery_text_lines(script.read_text(encoding="utf-8").split("\n"))
    details: set[int] = set()
    prose = Prose(script, code_lines=visible_code_lines(script))
    _measure(_rst_prose(lines, details), prose, frozenset(details))
    return prose


def visible_code_lines(script: Path) -> int:
    """Lines of code a reader sees: not blank, not comments, not in a check cell."""
    from fold_source import strip_checks  # imports Sphinx: only when needed

    source = strip_checks(script.read_text(encoding="utf-8"))
    body = source.split('"""', 2)[-1] if source.startswith('"""') else source
    return sum(
        1 for line in body.split("\n") if line.strip() and not line.startswith("#")
    )


#: MyST directives whose body is code or data, not prose.
_NOT_PROSE = re.compile(
    r"^(code-cell|code-block|code|math|toctree|raw|eval-rst|list-table)$"
)


def myst_prose(page: Path) -> Prose:
    """Measure the Markdown of a MyST page, outside code and directives' options."""
    source = page.read_text(encoding="utf-8").split("\n")
    lines: list[tuple[int, str]] = []
    fences: list[tuple[str, str]] = []  # (closing fence, directive name)
    in_front = bool(source) and source[0].strip() == "---"
    for number, line in enumerate(source, start=1):
        stripped = line.strip()
        if in_front:
            in_front = not (number > 1 and stripped == "---")
            lines.append((number, ""))
            continue
        if fences and stripped == fences[-1][0]:
            fences.pop()
            lines.append((number, ""))
            continue
        opened = re.match(r"^(`{3,}|:{3,})\s*(?:\{(?P<name>[\w-]+)\})?", stripped)
        inside = fences[-1][1] if fences else None
        if opened and (inside is None or not fences[-1][0].startswith("`")):
            fences.append((opened.group(1), opened.group("name") or "code"))
            lines.append((number, ""))
            continue
        if (
            (inside is not None and _NOT_PROSE.match(inside))
            or (inside is not None and re.match(r"^:[\w-]+:", stripped))
            or (inside == "glossary" and stripped and not line.startswith(" "))
            or stripped.startswith(("#", "|", "+++"))
            or re.match(r"^\([\w-]+\)=$", stripped)
        ):
            lines.append((number, ""))
            continue
        lines.append((number, line))
    prose = Prose(page)
    _measure(lines, prose)
    return prose


def page_prose(page: Path) -> Prose:
    """Measure a gallery script or a MyST page."""
    return gallery_prose(page) if page.suffix == ".py" else myst_prose(page)


def main(argv: list[str]) -> int:
    """Print each page's figures and what breaks a limit; 1 if anything does."""
    broken = 0
    for name in argv:
        prose = page_prose(Path(name))
        print(
            f"{name}: {len(prose.sentences)} sentences, {prose.words} words "
            f"({prose.open_words} outside details), {prose.code_lines} code "
            f"lines; {prose.mean:.1f} words a sentence, {prose.long_share:.0%} "
            f"over {LONG_WORDS}, {prose.parens_per_100:.2f} '(' per 100 words"
        )
        for problem in prose.problems():
            broken += 1
            print("  " + problem)
    return 1 if broken else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
