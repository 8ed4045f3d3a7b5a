"""Checks and details fold under their cell: the source convention, the site, the downloads."""

from __future__ import annotations

import ast
import html
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from downloads import notebook_download, script_download
from fold_source import CHECK_CELL, failed_check, fold_errors, strip_checks

from sitebuild import GALLERY, ROOT, SCRIPTS, copy_sources, page_of, sphinx_build

PAGE = '''"""
Title
=====

What the page teaches.
"""

x = 1
print(x)

# %%
# .. check:: ``x`` is one
assert x == 1

# %%
# The text of the next cell.
#
# .. detail:: An edge case
#
#    What happens at the edge.
y = x + 1
'''


def _errors(tmp_path: Path, source: str) -> list[str]:
    script = tmp_path / "plot_01_page.py"
    script.write_text(source)
    return list(fold_errors(script, tmp_path))


def test_a_well_formed_page_has_no_errors(tmp_path: Path) -> None:
    assert _errors(tmp_path, PAGE) == []


@pytest.mark.parametrize(
    ("change", "line", "words"),
    [
        (("# .. check:: ``x`` is one", "# .. check::"), 12, "needs its claim"),
        (("# .. check:: ``x`` is one", "# .. check:: x\n# more"), 13, "claim alone"),
        (("assert x == 1\n", ""), 12, "has no code after it"),
        (("# .. detail:: An edge case", "# .. detail::"), 18, "needs a subject"),
        (("#    What happens at the edge.\n", ""), 18, "has no text"),
        (
            ("#    What happens", "#    .. check:: inner\n#    What happens"),
            20,
            "inside",
        ),
        (("# %%\n# .. check::", "# .. check::"), 11, "in code"),
    ],
    ids=[
        "no-claim",
        "text-beside",
        "no-code",
        "no-subject",
        "empty",
        "nested",
        "no-cell",
    ],
)
def test_a_malformed_fold_is_named_with_its_line(
    tmp_path: Path, change: tuple[str, str], line: int, words: str
) -> None:
    errors = _errors(tmp_path, PAGE.replace(*change))
    assert any(
        error.startswith(f"plot_01_page.py, line {line}:") and words in error
        for error in errors
    ), errors


def test_the_build_stops_on_a_malformed_fold_before_any_page_runs(
    tmp_path: Path,
) -> None:
    """A copy of the docs with one broken check: the build fails, naming it."""
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    from fold_source import MalformedFold, check_gallery_folds

    gallery = tmp_path / "gallery" / "section"
    gallery.mkdir(parents=True)
    (gallery / "plot_01_page.py").write_text(PAGE.replace("``x`` is one", ""))

    class App:
        srcdir = str(tmp_path / "docs")
        config = type(
            "Config", (), {"sphinx_gallery_conf": {"examples_dirs": ["../gallery"]}}
        )

    with pytest.raises(
        MalformedFold, match=r"gallery/section/plot_01_page.py, line 12"
    ):
        check_gallery_folds(App())  # type: ignore[arg-type]


def test_the_py_download_leaves_the_checks_out() -> None:
    script = script_download(PAGE)
    assert ".. check::" not in script
    assert "assert x == 1" not in script
    assert "print(x)\n\n# %%\n# The text of the next cell." in script
    assert ".. detail:: An edge case" in script, "a detail stays, as a comment"
    assert strip_checks(script) == script


def test_a_failed_check_is_named_by_its_claim(tmp_path: Path) -> None:
    script = tmp_path / "plot_01_page.py"
    script.write_text(PAGE)
    traceback = f'Traceback:\n  File "{script}", line 13, in <module>\nAssertionError'
    assert failed_check(script, traceback) == (12, "``x`` is one")
    elsewhere = f'Traceback:\n  File "{script}", line 9, in <module>\nNameError'
    assert failed_check(script, elsewhere) is None


def _notebook(cells: list[tuple[str, str]]) -> str:
    return json.dumps(
        {
            "cells": [
                {"cell_type": kind, "metadata": {}, "source": text}
                | ({"outputs": [], "execution_count": None} if kind == "code" else {})
                for kind, text in cells
            ],
            "metadata": {},
            "nbformat": 4,
            "nbformat_minor": 0,
        }
    )


def test_the_notebook_keeps_each_check_collapsed_and_details_closed() -> None:
    text = _notebook(
        [
            ("code", "x = 1"),
            ("markdown", ".. check:: ``x`` is one\n"),
            ("code", "assert x == 1"),
            ("markdown", "Text.\n\n.. detail:: An edge case\n\n   At the edge.\n"),
        ]
    )
    cells = json.loads(notebook_download(text))["cells"]
    assert cells[1]["source"] == "*Check: ``x`` is one*\n"
    assert cells[2]["metadata"] == {
        "jupyter": {"source_hidden": True},
        "tags": ["check"],
    }
    assert cells[2]["source"] == "assert x == 1", "the check still runs"
    assert cells[3]["source"] == (
        "Text.\n\n<details><summary>An edge case</summary>\n\nAt the edge.\n\n"
        "</details>\n"
    )
    again = notebook_download(notebook_download(text))
    assert again == notebook_download(text), "rewriting twice changes nothing"


# -- The gallery's pages ------------------------------------------------------


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(GALLERY)))
def test_no_check_is_hidden_from_the_reader(script: Path) -> None:
    source = script.read_text()
    assert "sphinx_gallery_start_ignore" not in source, (
        f"{script.name} hides a check; put it in a check cell "
        "(# %%, # .. check:: <claim>, then its code)"
    )
    assert not list(fold_errors(script, GALLERY))


def _bound(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(GALLERY)))
def test_the_lesson_runs_without_its_checks(script: Path) -> None:
    """No later cell uses a name that only a check cell defines (the .py drops them)."""
    source = script.read_text()
    lesson = ast.parse(strip_checks(source))
    checks = ast.parse(
        "\n".join(textwrap.dedent(m.group(0)) for m in CHECK_CELL.finditer(source))
    )
    used = {
        node.id
        for node in ast.walk(lesson)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
    }
    only_in_checks = (_bound(checks) - _bound(lesson)) & used
    assert not only_in_checks, (
        f"{script.name}: the lesson uses {sorted(only_in_checks)}, which only a "
        "check cell defines; the .py download leaves check cells out"
    )


# -- The built site -----------------------------------------------------------


@pytest.mark.docs
def test_checks_render_closed_under_their_cell(site: Path) -> None:
    folded = 0
    for script in SCRIPTS:
        page = page_of(site, script).read_text()
        claims = re.findall(r"^# \.\. check:: *(.+)$", script.read_text(), re.MULTILINE)
        rendered = re.findall(
            r'<details class="fold fold-check"><summary><span class="fold-label">'
            r"Check:</span> (.*?)</summary>",
            page,
        )
        assert len(rendered) == len(claims), f"{script.name}: a check is not folded"
        folded += len(rendered)
        assert '<details class="fold fold-check" open' not in page
        subjects = re.findall(
            r"^# \.\. detail:: *(.+)$", script.read_text(), re.MULTILINE
        )
        shown = re.findall(
            r'<details class="fold fold-detail"><summary>(.*?)</summary>', page
        )
        # A subject's inline code renders as code: compare the words.
        words = [html.unescape(re.sub(r"<[^>]+>", "", s)) for s in shown]
        assert words == [s.replace("``", "") for s in subjects], script.name
        assert not any("``" in s for s in shown), f"{script.name}: raw markup"
        assert '<details class="fold fold-detail" open' not in page
    assert folded, "no page has a check fold"


def _text(page: str) -> str:
    """The words of an HTML page, without its tags."""
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.mark.docs
def test_search_finds_the_text_but_not_the_check_code(site: Path) -> None:
    """A word a page has only in its check code does not lead search to that page."""
    from sphinx.search.en import SearchEnglish

    stem = SearchEnglish({}).stem  # the index holds stems: "stack" for "stacking"
    text = (site / "searchindex.js").read_text()
    index = json.loads(text[text.index("(") + 1 : text.rindex(")")])
    docnames = index["docnames"]
    terms = index["terms"]

    def pages_with(word: str) -> set[str]:
        found = terms.get(stem(word), [])
        return {docnames[i] for i in ([found] if isinstance(found, int) else found)}

    tested = found_in_details = 0
    for script in SCRIPTS:
        source = script.read_text()
        docname = page_of(site, script).relative_to(site).with_suffix("").as_posix()
        check_code = "".join(
            cell.group(0).split("\n", 2)[2] for cell in CHECK_CELL.finditer(source)
        )
        # What the page shows outside its checks' code: text, code, output, and
        # the checks' summaries, which are prose.
        shown = re.sub(
            r'(<details class="fold fold-check"><summary>.*?</summary>).*?</details>',
            r"\1",
            page_of(site, script).read_text(),
            flags=re.DOTALL,
        )
        lesson = {stem(w) for w in re.findall(r"[a-z]+", _text(shown).lower())}
        only_checks = {
            w
            for w in re.findall(r"[a-z]{6,}", check_code.lower())
            if stem(w) not in lesson
        }
        tested += len(only_checks)
        leaked = sorted(w for w in only_checks if docname in pages_with(w))
        assert not leaked, f"{script.name}: search finds it by its check code: {leaked}"
        # A word the page has only in its details leads search to the page.
        without_details = re.sub(
            r'<details class="fold fold-detail">.*?</details>',
            " ",
            shown,
            flags=re.DOTALL,
        )
        elsewhere = {
            stem(w) for w in re.findall(r"[a-z]+", _text(without_details).lower())
        }
        for body in re.findall(
            r'<details class="fold fold-detail">(.*?)</details>', shown, flags=re.DOTALL
        ):
            for word in set(re.findall(r"\b[a-z]{5,}\b", _text(body).lower())):
                if stem(word) not in elsewhere and stem(word) in terms:
                    found_in_details += 1
                    assert docname in pages_with(word), (
                        f"{script.name}: search does not find the detail word {word!r}"
                    )
    assert tested, "no page has a word in its check code only"
    assert found_in_details, "no page has a word in its details only"


def test_downloaded_notebook_runs_its_collapsed_checks(tmp_path: Path) -> None:
    """The notebook of a page with checks runs, checks included, as a reader's would."""
    nbclient = pytest.importorskip("nbclient")
    import nbformat
    from sphinx_gallery.notebook import jupyter_notebook
    from sphinx_gallery.py_source_parser import split_code_and_text_blocks

    script = GALLERY / "tensors" / "plot_02_data_types.py"
    _, blocks = split_code_and_text_blocks(script)
    conf = {
        "first_notebook_cell": None,
        "last_notebook_cell": None,
        "notebook_images": False,
        "promote_jupyter_magic": False,
        "pypandoc": False,
        "notebook_extensions": {"ipynb"},
    }
    made = jupyter_notebook(blocks, conf, tmp_path)
    notebook = json.loads(notebook_download(json.dumps(made)))
    hidden = [c for c in notebook["cells"] if "check" in c["metadata"].get("tags", [])]
    assert hidden
    assert all(c["metadata"]["jupyter"]["source_hidden"] for c in hidden)
    node = nbformat.reads(json.dumps(notebook), as_version=4)
    client = nbclient.NotebookClient(
        node, timeout=300, resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    assert all(
        not any(o.get("output_type") == "error" for o in c.get("outputs", []))
        for c in node.cells
    )


def test_the_fold_module_doctests() -> None:
    import doctest

    import downloads
    import fold_source

    for module in (fold_source, downloads):
        failed, tried = doctest.testmod(module)
        assert tried, f"{module.__name__} has no examples"
        assert not failed, f"{module.__name__}: {failed} examples failed"


def test_a_check_that_draws_a_random_number_fails_the_guarded_run(
    tmp_path: Path,
) -> None:
    """The .py download has no checks: a check may not move the generators on."""
    from fold_source import guard_checks

    page = PAGE.replace("assert x == 1", "import torch\nassert torch.rand(1) < 2")
    guarded = tmp_path / "page.py"
    guarded.write_text(guard_checks(page))
    assert guarded.read_text().count("\n") == page.count("\n"), "lines are kept"
    result = subprocess.run(
        [sys.executable, str(guarded)], capture_output=True, text=True, check=False
    )
    assert "the check on line 12 changes the random state" in result.stderr
    guarded.write_text(guard_checks(PAGE))
    quiet = subprocess.run(
        [sys.executable, str(guarded)], capture_output=True, check=False
    )
    assert quiet.returncode == 0, quiet.stderr


def _one_page_copy(tmp_path: Path, name: str) -> tuple[Path, Path]:
    """A copy of the sources in which only the gallery page `name` is left."""
    docs = copy_sources(tmp_path)
    kept = None
    for script in (tmp_path / "gallery").rglob("plot_*.py"):
        if script.name == name:
            kept = script
        else:
            script.unlink()
    assert kept is not None
    return docs, kept


@pytest.mark.docs
def test_a_failing_check_fails_the_build_naming_page_line_and_claim(
    tmp_path: Path,
) -> None:
    docs, page = _one_page_copy(tmp_path, "plot_02_data_types.py")
    source = page.read_text()
    found = re.search(r"^# \.\. check:: (.+)\n", source, re.MULTILINE)
    assert found is not None
    line = source[: found.end()].count("\n") + 1  # the check's first code line
    page.write_text(source[: found.end()] + "assert 1 == 2\n" + source[found.end() :])
    result = sphinx_build(docs)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert f'{page.name}", line {line}' in output, output[-3000:]
    assert f"The check that failed: {found.group(1)!r}" in output, output[-3000:]


@pytest.mark.docs
def test_a_check_without_its_claim_stops_the_build_naming_page_and_line(
    tmp_path: Path,
) -> None:
    docs, page = _one_page_copy(tmp_path, "plot_02_data_types.py")
    source = page.read_text()
    found = re.search(r"^# \.\. check:: .+$", source, re.MULTILINE)
    assert found is not None
    line = source[: found.start()].count("\n") + 1
    page.write_text(source[: found.start()] + "# .. check::" + source[found.end() :])
    result = sphinx_build(docs)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert f"{page.name}, line {line}: a check needs its claim in words" in output
    assert "generating gallery" not in output, "a page ran before the build stopped"


#: A page's details serve its text: at most this share of its prose.
DETAILS_SHARE = 0.25


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: str(p.relative_to(GALLERY)))
def test_details_stay_a_small_part_of_the_prose(script: Path) -> None:
    from fold_source import prose_words

    words, detailed = prose_words(script)
    assert detailed <= DETAILS_SHARE * words, (
        f"{script.name}: {detailed} of its {words} words of prose are in details; "
        f"at most {DETAILS_SHARE:.0%}"
    )


def test_details_are_counted(tmp_path: Path) -> None:
    from fold_source import prose_words

    script = tmp_path / "plot_01_page.py"
    script.write_text(PAGE)
    # The docstring's 5 words (not its underline), the text's 10 with the
    # detail's line (not the check's line: it names a claim), the detail's 5.
    assert prose_words(script) == (20, 5)
