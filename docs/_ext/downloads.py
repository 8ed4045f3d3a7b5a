"""The gallery's downloads: a ``.py`` that reads like the lesson, a notebook that proves it.

What this changes in Sphinx-Gallery: its ``.py`` download is a verbatim copy
of the page's script, and its notebook has a cell per block. After every
build, :func:`strip_downloads` rewrites both in ``_downloads/`` (alone and
in the zipped download):

- The ``.py`` leaves out the check cells (``folds.strip_checks``), the
  exercise solutions' raw-HTML markers and Sphinx-Gallery's configuration
  comments. A check proves its claim about the state right after its cell;
  gathered at the end of the script it would test a later state, so it is
  left out, and the script reads as the lesson does. Details stay, as the
  comments they are in the script.
- The notebook keeps every check as a code cell of its own, collapsed
  (``jupyter.source_hidden``), under a one-line markdown cell that names its
  claim, so that a reader who runs the notebook still proves every claim.
  A detail becomes an HTML ``<details>`` block in its markdown cell, which
  Jupyter shows closed. An exercise's solution becomes an empty answer
  cell (:func:`exercise_notebook`).
"""

from __future__ import annotations

import json
import re
import textwrap
import zipfile
from pathlib import Path
from typing import Any

from fold_source import CHECK_LINE, strip_checks
from sphinx.application import Sphinx

#: An exercise's solution sits between two text cells of its page: one
#: ending in a ``<details class="solution">`` raw-HTML block, and one of a
#: ``</details>`` block (README, "Adding a page"). The site shows the solution
#: behind a "Solution" toggle; the notebook download has an empty cell for the
#: reader's answer in its place; the ``.py`` download keeps the solution and
#: drops the two markers, which this matches.
_SOLUTION_MARKERS = re.compile(
    r"(?<=\n)#\n# \.\. raw:: html\n#\n#    <details class=\"solution\">"
    r"<summary>Solution</summary>\n"
    r"|(?<=\n)# %%\n# \.\. raw:: html\n#\n#    </details>\n\n?"
)
#: What the notebook's answer cell says, in place of the solution.
ANSWER_CELL = "# Your answer here; then run the check below.\n"


def exercise_notebook(text: str) -> str:
    """A page's notebook with each exercise's solution replaced by an empty cell.

    The solution's code goes into the cell's metadata (``solution``), where
    the tests find it to run the notebook as a reader who answered right.
    """
    notebook = json.loads(text)
    cells = []
    answer_next = False
    for cell in notebook["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and "</details>" in source:
            continue  # the end of the toggle: nothing for a notebook
        if cell["cell_type"] == "markdown" and '<details class="solution">' in source:
            kept = re.sub(r"\n*\.\. raw:: html\n+ *<details[^\n]*", "", source)
            cell["source"] = kept.rstrip() + "\n"
            answer_next = True
        elif cell["cell_type"] == "code" and answer_next:
            cell["metadata"]["solution"] = source
            cell["source"] = ANSWER_CELL
            cell["outputs"] = []
            answer_next = False
        cells.append(cell)
    notebook["cells"] = cells
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"


_CONFIG_COMMENT = re.compile(r"^# sphinx_gallery_\w+ *=.*\n", re.MULTILINE)


def script_download(source: str) -> str:
    r"""The ``.py`` a reader downloads: `source` without checks, markers and config.

    >>> script_download("x = 1\n# sphinx_gallery_budget_seconds = 30, 'why'\n\n"
    ...                 "# %%\n# .. check:: x is 1\nassert x == 1\n")
    'x = 1\n\n'
    """
    source = _SOLUTION_MARKERS.sub("", strip_checks(source))
    return _CONFIG_COMMENT.sub("", source)


#: A detail in a notebook's markdown: its line, and its indented text.
_DETAIL = re.compile(
    r"^\.\. detail::(?P<subject>[^\n]*)\n(?P<body>(?:[ \t]+[^\n]*\n|\n)*)", re.MULTILINE
)


def _detail_html(found: re.Match[str]) -> str:
    body = textwrap.dedent(found.group("body")).strip("\n")
    subject = found.group("subject").strip()
    return f"<details><summary>{subject}</summary>\n\n{body}\n\n</details>\n"


def notebook_folds(notebook: dict[str, Any]) -> dict[str, Any]:
    """`notebook` with its checks collapsed and its details as ``<details>``."""
    cells = notebook["cells"]
    for index, cell in enumerate(cells):
        source = "".join(cell["source"])
        if cell["cell_type"] != "markdown":
            continue
        check = CHECK_LINE.match(source.strip())
        if check and index + 1 < len(cells) and cells[index + 1]["cell_type"] == "code":
            cell["source"] = f"*Check: {check.group('claim').strip()}*\n"
            code = cells[index + 1]["metadata"]
            code.setdefault("jupyter", {})["source_hidden"] = True
            code.setdefault("tags", []).append("check")
        elif ".. detail::" in source:
            cell["source"] = (
                _DETAIL.sub(_detail_html, source + "\n").rstrip("\n") + "\n"
            )
    return notebook


def notebook_download(text: str) -> str:
    """The notebook a reader downloads, from the one Sphinx-Gallery wrote.

    Rewriting it again changes nothing: no solution marker, check line or
    detail line is left.
    """
    notebook = json.loads(text)
    if '<details class=\\"solution\\">' in text:
        notebook = json.loads(exercise_notebook(text))
    return json.dumps(notebook_folds(notebook), indent=1, ensure_ascii=False) + "\n"


def _strip_zip(archive: Path) -> None:
    """Rewrite a page's zipped download with its ``.py`` stripped."""
    with zipfile.ZipFile(archive) as source:
        members = [(info, source.read(info)) for info in source.infolist()]
    changed = False
    for index, (info, data) in enumerate(members):
        if info.filename.endswith(".py"):
            stripped = script_download(data.decode()).encode()
        elif info.filename.endswith(".ipynb"):
            stripped = notebook_download(data.decode()).encode()
        else:
            continue
        changed |= stripped != data
        members[index] = (info, stripped)
    if changed:
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as target:
            for info, data in members:
                target.writestr(info, data)


def strip_downloads(app: Sphinx, exception: Exception | None) -> None:
    """Rewrite the gallery's published ``.py`` and notebook downloads.

    Sphinx copies every download into ``_downloads/`` again on each build
    (``builder.copy_download_files``), so this runs after every build, on
    each page's ``.py`` and on the ``.py`` inside its zipped download.
    """
    if exception is not None or app.builder.format != "html":
        return
    stems = {
        script.stem
        for examples in app.config.sphinx_gallery_conf["examples_dirs"]
        for script in (Path(app.srcdir) / examples).resolve().rglob("plot_*.py")
    }
    for download in sorted(Path(app.outdir, "_downloads").rglob("*")):
        if download.stem not in stems:
            continue
        if download.suffix == ".py":
            text = download.read_text()
            stripped = script_download(text)
            if stripped != text:
                download.write_text(stripped)
        elif download.suffix == ".ipynb":
            text = download.read_text()
            answered = notebook_download(text)
            if answered != text:
                download.write_text(answered)
        elif download.suffix == ".zip":
            _strip_zip(download)
