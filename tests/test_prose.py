"""Every page reads in order: short sentences, one topic, names taught before use.

The rules and their limits live in ``docs/_ext/prose_rules.py`` and
``docs/_ext/taught_names.py``; their command lines show a page's figures and
every problem.
"""

from __future__ import annotations

import statistics
import textwrap
from pathlib import Path

import pytest
from prose_rules import (
    MEDIAN_CODE_LINES,
    MEDIAN_WORDS,
    MOST_CODE_LINES,
    MOST_PAGE_WORDS,
    MOST_WORDS,
    gallery_prose,
    page_prose,
)
from taught_names import SECTIONS, kind_of, path_unintroduced, reading_path

from sitebuild import GALLERY, ROOT

PATH = reading_path(GALLERY)
LESSONS = [page for page in PATH if kind_of(page) != "exercises"]
MYST_PAGES = sorted((ROOT / "docs").glob("*.md"))


def _name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def _params(pages: list[Path]) -> list[object]:
    """One parameter a page, named by its path."""
    return [pytest.param(page, id=_name(page)) for page in pages]


@pytest.mark.parametrize("page", _params(PATH + MYST_PAGES))
def test_short_sentences(page: Path) -> None:
    problems = list(page_prose(page).problems())
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("page", _params(LESSONS))
def test_one_topic_a_page(page: Path) -> None:
    prose = gallery_prose(page)
    advice = "split it, or fold what a first reading does not need"
    assert prose.open_words <= MOST_PAGE_WORDS, (
        f"{_name(page)}: {prose.open_words} words of prose outside details "
        f"(at most {MOST_PAGE_WORDS}): {advice}"
    )
    assert prose.code_lines <= MOST_CODE_LINES, (
        f"{_name(page)}: {prose.code_lines} visible code lines "
        f"(at most {MOST_CODE_LINES}): {advice}"
    )


def test_lessons_are_short_on_the_whole() -> None:
    measured = [gallery_prose(page) for page in LESSONS]
    words = statistics.median(p.open_words for p in measured)
    lines = statistics.median(p.code_lines for p in measured)
    assert words <= MEDIAN_WORDS, (
        f"median lesson: {words} words (at most {MEDIAN_WORDS})"
    )
    assert lines <= MEDIAN_CODE_LINES, (
        f"median lesson: {lines} code lines (at most {MEDIAN_CODE_LINES})"
    )


@pytest.mark.parametrize("page", _params(LESSONS))
def test_opening_says_what_it_needs(page: Path) -> None:
    docstring = page.read_text(encoding="utf-8").split('"""')[1]
    paragraphs = [" ".join(p.split()) for p in docstring.split("\n\n")]
    needs = [p for p in paragraphs if p.startswith("**Before this page:**")]
    assert len(needs) == 1, f"{_name(page)}: no '**Before this page:**' paragraph"
    assert ":ref:`sphx_glr_" in needs[0] or "nothing but Python" in needs[0], needs[0]


@pytest.fixture(scope="module")
def unintroduced() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for use in path_unintroduced(GALLERY):
        found.setdefault(_name(use.page.resolve()), []).append(str(use))
    return found


@pytest.mark.parametrize("page", _params(PATH))
def test_names_are_taught_before_use(
    page: Path, unintroduced: dict[str, list[str]]
) -> None:
    uses = unintroduced.get(_name(page), [])
    assert not uses, "used before the prose introduces them:\n" + "\n".join(uses)


# -- The rules' own tests: each catches what it should ----------------------


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def test_a_long_sentence_is_named_with_its_line(tmp_path: Path) -> None:
    long = " ".join(["word"] * (MOST_WORDS + 1))
    page = _write(
        tmp_path / "plot_01_x.py",
        f'''
        """
        Title
        =====

        Short.
        """

        # %%
        # One idea here.
        # {long}.
        x = 1
        ''',
    )
    problems = list(gallery_prose(page).problems())
    assert any(f"line 10: {MOST_WORDS + 1} words" in p for p in problems), problems


def test_checks_and_details_count_as_the_rules_say(tmp_path: Path) -> None:
    page = _write(
        tmp_path / "plot_01_x.py",
        '''
        """
        Title
        =====

        One two three.
        """

        # %%
        # Four five (six).
        #
        # .. detail:: A subject line is not a sentence
        #
        #    Seven eight nine ten.
        x = 1

        # %%
        # .. check:: a claim line that is no sentence of the page's prose either
        assert x == 1
        ''',
    )
    prose = gallery_prose(page)
    assert [s.words for s in prose.sentences] == [3, 3, 4]
    assert (prose.words, prose.open_words, prose.code_lines) == (10, 6, 1)
    assert prose.parens == 1


def test_a_name_used_before_its_introduction_is_named(tmp_path: Path) -> None:
    gallery = tmp_path / "gallery"
    _write(
        gallery / "tensors" / "plot_01_a.py",
        '''
        """Title"""

        # %%
        # :func:`torch.zeros` makes a tensor of zeros.
        import torch

        x = torch.zeros(3)
        ''',
    )
    second = _write(
        gallery / "tensors" / "plot_02_b.py",
        '''
        """Title"""

        # %%
        # Zeros again, then a reshaped view.
        import torch

        x = torch.zeros(6).view(2, 3)

        # %%
        # .. check:: checks may use any name
        assert torch.equal(x.flatten(), torch.zeros(6))

        # %%
        # ``view`` is now introduced, and ``ones``: ``torch.ones(2)``.
        y = torch.ones(2).view(1, 2)
        ''',
    )
    found = [(u.page.name, u.line, u.name) for u in path_unintroduced(gallery)]
    assert found == [(second.name, 7, "view")]


def test_the_rule_modules_doctests() -> None:
    import doctest

    import prose_rules
    import taught_names

    for module in (prose_rules, taught_names):
        failed, tried = doctest.testmod(module)
        assert tried, f"{module.__name__} has no examples"
        assert not failed, f"{module.__name__}: {failed} examples failed"


def test_navigation_follows_the_reading_path() -> None:
    """The sidebar, the gallery's order and the path's sections agree."""
    import re

    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    listed = re.findall(r"^auto_examples/(\w+)/index$", index, flags=re.MULTILINE)
    assert tuple(listed) == SECTIONS, "docs/index.md's toctrees leave the path"
    conf = (ROOT / "docs" / "conf.py").read_text(encoding="utf-8")
    ordered = re.findall(r'"\.\./gallery/(\w+)"', conf)
    assert tuple(ordered) == SECTIONS, "subsection_order in docs/conf.py"
