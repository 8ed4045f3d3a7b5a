"""The fold convention in a gallery script's source: found, checked, stripped.

What this changes in Sphinx-Gallery: before it runs any page
(:func:`check_gallery_folds`, at ``builder-inited``), every gallery script's
folds are checked, cell by cell as Sphinx-Gallery splits them, and a
malformed one stops the build naming the script and the line. When a page
fails, :func:`name_failed_checks` adds the claim of the check that failed to
the traceback Sphinx-Gallery prints. The convention itself is described in
``folds.py``; ``python docs/_ext/fold_source.py SCRIPT...`` checks scripts
by hand and counts their lines outside check cells.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import SphinxError

#: The line that opens a check cell's text, and the claim it names.
CHECK_LINE = re.compile(r"^\.\. check::(?P<claim>.*)$")
#: The line that opens a detail, and its subject.
DETAIL_LINE = re.compile(r"^(?P<indent>[ \t]*)\.\. detail::(?P<subject>.*)$")
#: Any fold directive, at any indentation (a fold inside a detail).
FOLD_LINE = re.compile(r"^[ \t]*\.\. (?P<kind>check|detail)::", re.MULTILINE)


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


#: A snapshot of Python's, NumPy's and PyTorch's random generators, on one line.
_SNAPSHOT = (
    '_fold_rng = lambda: (__import__("random").getstate(), '
    '__import__("numpy").random.get_state()[1].tobytes(), '
    '__import__("torch").get_rng_state().tolist()); _fold_before = _fold_rng()'
)


def guard_checks(source: str) -> str:
    """`source` with each check cell made to fail if it changes the random state.

    The ``.py`` download leaves check cells out, so a check that drew a
    random number would make the download print other numbers than the page.
    Each ``.. check::`` line becomes a snapshot of the generators, and the
    next ``# %%`` line a comparison: the line numbers stay the script's.
    """
    original = source.split("\n")
    lines = list(original)
    opened = None
    for number, line in enumerate(original):
        closing = line == "# %%" and opened is not None
        if closing or (opened is not None and number == len(lines) - 1 and not line):
            lines[number] = (
                f"assert _fold_rng() == _fold_before, 'the check on line {opened} "
                "changes the random state: the .py download, which has no checks, "
                "would print other numbers than the page'"
            )
            opened = None
        if CHECK_LINE.match(line[2:]) and number and original[number - 1] == "# %%":
            lines[number] = _SNAPSHOT
            opened = number + 1
    if opened is not None:
        lines.append(
            f"assert _fold_rng() == _fold_before, 'the check on line {opened}'"
        )
    return "\n".join(lines)


def _count(text: str) -> int:
    """Words in `text`: what it splits into at spaces that has a letter or digit."""
    return sum(1 for word in text.split() if re.search(r"\w", word))


def prose_words(script: Path) -> tuple[int, int]:
    """Words of prose in `script`'s text cells, and how many of them are in details."""
    words = detailed = 0
    for kind, content, _ in _blocks(script):
        if kind != "text" or CHECK_LINE.match(content):
            continue
        lines = content.split("\n")
        for number, line in enumerate(lines):
            opened = DETAIL_LINE.match(line)
            if opened:
                body = _indented_after(lines[number + 1 :], len(opened.group("indent")))
                detailed += sum(_count(row) for row in body)
        words += _count(content)
    return words, detailed


class MalformedFold(SphinxError):
    """A fold in a gallery script that the site cannot render."""

    category = "Malformed fold"


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


def main(argv: list[str]) -> int:
    """``python docs/_ext/fold_source.py SCRIPT...``: print each malformed fold."""
    errors = [error for script in argv for error in fold_errors(Path(script))]
    print("\n".join(errors) or f"{len(argv)} scripts: every fold is well formed")
    for script in argv:
        source = Path(script).read_text()
        print(f"{script}: {lines_outside_checks(source)} lines outside check cells")
    return 1 if errors else 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
