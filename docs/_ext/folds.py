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
and the line (:func:`fold_errors`): a check without a claim, with text
beside it, without code after it; a detail without a subject or text; a
fold inside a detail. The downloads module rewrites the folds for the
notebook and the ``.py`` download (``downloads.py``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.errors import SphinxError
from sphinx.transforms import SphinxTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)

#: The line that opens a check cell's text, and the claim it names.
CHECK_LINE = re.compile(r"^\.\. check::(?P<claim>.*)$")
#: The line that opens a detail, and its subject.
DETAIL_LINE = re.compile(r"^(?P<indent>[ \t]*)\.\. detail::(?P<subject>.*)$")
#: Any fold directive, at any indentation (a fold inside a detail).
FOLD_LINE = re.compile(r"^[ \t]*\.\. (?P<kind>check|detail)::", re.MULTILINE)
#: What a check's summary says before its claim.
CHECK_LABEL = "Check"


#: A check cell in a script's source: its ``# %%`` line, its ``.. check::``
#: line, and its code, up to the next cell or the end of the script.
CHECK_CELL = re.compile(
    r"^# %%\n# \.\. check::[^\n]*\n(?:(?!# %%)[^\n]*(?:\n|\Z))*", re.MULTILINE
)


def strip_checks(source: str) -> str:
    r"""`source` without its check cells: the ``.py`` download a reader gets.

    >>> strip_checks("x = 1\n\n# %%\n# .. check:: x is 1\nassert x == 1\n\n# %%\n# Next\n")
    'x = 1\n\n# %%\n# Next\n'
    """
    return CHECK_CELL.sub("", source)


def lines_outside_checks(source: str) -> int:
    """How many lines of `source` a reader reads: those outside check cells."""
    return strip_checks(source).count("\n")


class MalformedFold(SphinxError):
    """A fold in a gallery script that the site cannot render."""

    category = "Malformed fold"


# -- Nodes -------------------------------------------------------------------


class fold(nodes.General, nodes.Element):
    """A closed ``<details>`` block: ``kind`` (check or detail) and ``summary``."""


class check_marker(nodes.General, nodes.Element):
    """Where a check's text cell was; the transform folds the code after it."""


def _summary_html(encoded: str) -> str:
    """A summary's ````code```` as ``<code>``: the only markup a summary takes."""
    return re.sub(
        r"``(.+?)``",
        r'<code class="docutils literal notranslate">\1</code>',
        encoded,
    )


def visit_fold_html(self: Any, node: fold) -> None:
    kind = node["kind"]
    summary = _summary_html(self.encode(node["summary"]))
    label = (
        f'<span class="fold-label">{CHECK_LABEL}:</span> ' if kind == "check" else ""
    )
    self.body.append(
        f'<details class="fold fold-{kind}">'
        f"<summary>{label}{summary}</summary>\n"
        f'<div class="fold-body">\n'
    )


def depart_fold_html(self: Any, node: fold) -> None:
    self.body.append("</div>\n</details>\n")


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
        node = fold(kind="detail", summary=" ".join(self.arguments[0].split()))
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
            folded = fold(kind="check", summary=marker["summary"])
            folded.source, folded.line = marker.source, marker.line
            for node in body:
                node.parent.remove(node)
                # Search indexes the words of the text, not the check's code.
                node["classes"].append("no-search")
                folded += node
            marker.replace_self(folded)


# -- Checking the source before any page runs ------------------------------


def _blocks(script: Path) -> list[tuple[str, str, int]]:
    from sphinx_gallery.py_source_parser import split_code_and_text_blocks

    _, blocks = split_code_and_text_blocks(script)
    return [(block.type, block.content, block.lineno) for block in blocks]


def fold_errors(script: Path, root: Path | None = None) -> Iterator[str]:
    """Every malformed fold of a gallery script, as ``path, line N: problem``."""
    name = script.relative_to(root) if root is not None else script
    blocks = _blocks(script)
    for index, (kind, content, line) in enumerate(blocks):
        if kind != "text":
            for number, text in enumerate(content.split("\n")):
                if re.match(r"[ \t]*# \.\. (check|detail)::", text):
                    yield (
                        f"{name}, line {line + number}: this fold is in code, where "
                        "it does nothing; a fold is in a text cell, after a '# %%' line"
                    )
            continue
        lines = content.rstrip("\n").split("\n")
        first = CHECK_LINE.match(lines[0])
        opened = [
            (n, m) for n, text in enumerate(lines) if (m := CHECK_LINE.match(text))
        ]
        for number, _ in opened[1:] if first else opened:
            yield (
                f"{name}, line {line + number}: a check's text is its "
                "'.. check::' line alone, at the start of a cell of its own: "
                "# %%, then # .. check:: <claim>, then the code"
            )
        if first:
            header = script.read_text().split("\n")[line - 2 : line - 1]
            if header != ["# %%"]:
                yield (
                    f"{name}, line {line}: a check cell opens with a '# %%' line "
                    "right above its '.. check::' line"
                )
            if not first.group("claim").strip():
                yield (
                    f"{name}, line {line}: a check needs its claim in words: "
                    "# .. check:: <what the code below proves>"
                )
            if any(text.strip() for text in lines[1:]) and len(opened) == 1:
                yield (
                    f"{name}, line {line + 1}: a check's text is its claim alone; "
                    "move this text to the cell before the check"
                )
            following = blocks[index + 1] if index + 1 < len(blocks) else None
            if following is None or following[0] != "code":
                yield (
                    f"{name}, line {line}: the check {first.group('claim').strip()!r} "
                    "has no code after it; its code cell follows its '.. check::' line"
                )
        yield from _detail_errors(name, lines, line)


def _detail_errors(name: object, lines: list[str], start: int) -> Iterator[str]:
    for number, text in enumerate(lines):
        opened = DETAIL_LINE.match(text)
        if not opened:
            continue
        at = start + number
        if opened.group("indent"):
            yield f"{name}, line {at}: a fold inside a fold; a detail opens at the margin"
        if not opened.group("subject").strip():
            yield f"{name}, line {at}: a detail needs a subject: # .. detail:: <subject>"
        body = _indented_after(lines[number + 1 :], len(opened.group("indent")))
        if not any(row.strip() for row in body):
            yield (
                f"{name}, line {at}: the detail has no text; indent its text "
                "under the '.. detail::' line, after a blank comment line"
            )
        for offset, row in enumerate(body, start=1):
            if FOLD_LINE.match(row):
                yield f"{name}, line {at + offset}: a fold inside a fold"


def _indented_after(lines: list[str], indent: int) -> list[str]:
    """The lines of a directive's body: blank, or indented more than `indent`."""
    body = []
    for row in lines:
        if row.strip() and len(row) - len(row.lstrip()) <= indent:
            break
        body.append(row)
    return body


def check_gallery_folds(app: Sphinx) -> None:
    """Stop the build, before any page runs, if a gallery script has a malformed fold."""
    root = Path(app.srcdir).parent
    errors: list[str] = []
    for script in gallery_scripts(app):
        errors += fold_errors(script, root)
    if errors:
        raise MalformedFold("\n".join(errors))


def gallery_scripts(app: Sphinx) -> Iterable[Path]:
    """The gallery's source scripts, in path order."""
    for examples in app.config.sphinx_gallery_conf["examples_dirs"]:
        yield from sorted((Path(app.srcdir) / examples).resolve().rglob("plot_*.py"))


def failed_check(script: Path, traceback: str) -> tuple[int, str] | None:
    """The check whose code raised, found by the last line of `script` in `traceback`.

    Returns the line of its ``.. check::`` and its claim, or None when the
    error came from a cell that is not a check.
    """
    lines = re.findall(rf'File "{re.escape(str(script))}", line (\d+)', traceback)
    if not lines:
        return None
    failed = int(lines[-1])
    blocks = _blocks(script)
    for (kind, content, start), after in itertools.pairwise(blocks):
        opened = CHECK_LINE.match(content) if kind == "text" else None
        if opened and after[0] == "code":
            end = after[2] + after[1].count("\n")
            if after[2] <= failed <= end:
                return start, opened.group("claim").strip()
    return None


def name_failed_checks(app: Sphinx, exception: Exception | None) -> None:
    """Add the claim of the check that failed to each failing page's traceback.

    Sphinx-Gallery prints these tracebacks when the build ends
    (``gen_gallery.summarize_failing_examples``, connected after this).
    """
    if exception is not None:
        return
    failing = app.config.sphinx_gallery_conf.get("failing_examples", {})
    for source, traceback in list(failing.items()):
        found = failed_check(Path(source), traceback)
        if found is not None:
            line, claim = found
            failing[source] = (
                f"{traceback.rstrip()}\n\nThe check that failed: {claim!r} "
                f"(its '.. check::' line is line {line})\n"
            )


def setup(app: Sphinx) -> dict[str, object]:
    others = (visit_fold_other, depart_fold_other)
    app.add_node(
        fold,
        html=(visit_fold_html, depart_fold_html),
        latex=others,
        text=others,
        man=others,
        texinfo=others,
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


def main(argv: list[str]) -> int:
    """``python docs/_ext/folds.py SCRIPT...``: print each malformed fold."""
    errors = [error for script in argv for error in fold_errors(Path(script))]
    print("\n".join(errors) or f"{len(argv)} scripts: every fold is well formed")
    for script in argv:
        source = Path(script).read_text()
        print(f"{script}: {lines_outside_checks(source)} lines outside check cells")
    return 1 if errors else 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
