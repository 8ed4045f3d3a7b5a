"""The whole site builds strictly and offline, from a copy of the sources."""

from __future__ import annotations

import gzip
import html
import json
import os
import re
import subprocess
import sys
import time
import zipfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

import tutorial_utils
from sitebuild import (
    FIRST_PAGE,
    GALLERY,
    NOTES,
    ROOT,
    SCRIPTS,
    copy_sources,
    page_of,
    sphinx_build,
)

pytestmark = pytest.mark.docs


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_each_page_has_output_figures_and_downloads(site: Path, script: Path) -> None:
    page = page_of(site, script)
    assert page.is_file(), f"no page for {script.name}"
    html = page.read_text()
    assert "sphx-glr-script-out" in html, "the page shows no captured output"
    assert "sphx-glr-install-note" in html, "the download block says what to install"
    # A lesson draws; the error atlas and the exercises draw where it helps.
    if script.parent.name != "errors" and "exercises" not in script.stem:
        assert f"sphx_glr_{script.stem}_001.png" in html, "the page has no figure"
    for suffix in (".py", ".ipynb"):
        links = re.findall(rf'href="([^"]*{re.escape(script.stem + suffix)})"', html)
        assert links, f"no {suffix} download link"
        for link in links:
            assert (page.parent / link).resolve().is_file(), f"broken download {link}"


def test_landing_page_and_api_reference(site: Path) -> None:
    index = (site / "index.html").read_text()
    assert "sd-card" in index, "the landing page has a card per section"
    assert "auto_examples/tensors/index.html" in index
    # The helper package is offered as a wheel, and the landing page says so.
    wheel = f"tutorial_utils-{tutorial_utils.__version__}-py3-none-any.whl"
    assert (site / wheel).is_file(), f"the build did not publish {wheel}"
    assert f'href="{wheel}"' in index
    assert f"pip install {wheel}" in re.sub(r"<[^>]+>", "", index)
    api = (site / "api.html").read_text()
    for helper in (
        "pick_device",
        "reset_global_state",
        "environment_summary",
        "draw_tensor",
    ):
        assert 'id="tutorial_utils.' in api
        assert helper in api
    # Links to the PyTorch documentation were resolved without the network.
    page = page_of(site, FIRST_PAGE).read_text()
    assert "https://docs.pytorch.org/docs/stable/generated/torch.tensor.html" in page


def test_landing_page_lists_the_reading_path(site: Path) -> None:
    """The core lessons in order in one numbered list, the in-depth pages apart."""
    from taught_names import ATLAS, kind_of, reading_path

    index = (site / "index.html").read_text()
    core, in_depth = index.split('id="the-reading-path"', 1)[1].split(
        'id="in-depth"', 1
    )
    path = [p for p in reading_path(GALLERY) if p.parent.name != ATLAS]
    links = re.findall(r'href="auto_examples/(\w+)/(plot_\w+)\.html[#"]', core)
    lessons = [(p.parent.name, p.stem) for p in path if kind_of(p) == "core"]
    assert [link for link in links if link in lessons] == lessons
    for page in (p for p in path if kind_of(p) == "in depth"):
        href = f'href="auto_examples/{page.parent.name}/{page.stem}.html'
        assert href in in_depth, page.name
        assert href not in core, page.name
    starts = [
        int(n) for n in re.findall(r'<ol class="arabic[^"]*" start="(\d+)"', core)
    ]
    assert starts[0] == 1, "the path starts at 1"
    assert len(starts) == 4, "one numbered list a lesson section"


def test_a_formula_mathml_cannot_write_fails_the_build() -> None:
    from docutils import nodes
    from sphinx.errors import ExtensionError

    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        from mathml import _mathml
    finally:
        sys.path.pop(0)
    node = nodes.math()
    assert _mathml(node, r"\kappa(A) \ge 1", "inline").startswith("<math ")
    for latex in (r"\frac{1}{", r"\notacommand{x}"):
        with pytest.raises(ExtensionError, match="cannot write"):
            _mathml(node, latex, "inline")


def test_formulas_are_mathml_with_no_script(site: Path) -> None:
    for name in ("introduction.html", "glossary.html"):
        page = (site / name).read_text()
        assert page.count("<math ") >= 5, name
        scripts = re.findall(r"<script[^>]*>", page)
        assert not [tag for tag in scripts if "mathjax" in tag.lower()], name
        assert "\\mathbb" not in page, "raw LaTeX left"


def test_failing_page_and_slow_page_fail_the_build(tmp_path: Path) -> None:
    docs = copy_sources(tmp_path)
    # One real page is enough to go over a budget of 0 s; building all of
    # them took minutes. The missing pages' links warn too, so what this
    # test reads is the build's output about each page, not its status alone.
    for script in SCRIPTS:
        if script != FIRST_PAGE:
            (tmp_path / "gallery" / script.relative_to(GALLERY)).unlink()
    broken = tmp_path / "gallery" / "tensors" / "plot_99_broken.py"
    broken.write_text(
        '"""\nBroken page\n===========\n\nFails.\n"""\n\n'
        "x = 1\nraise RuntimeError('this page is broken')\n"
    )
    # A page that declares a budget of its own is held to that one.
    (tmp_path / "gallery" / "tensors" / "plot_98_declared.py").write_text(
        '"""\nSlow page\n=========\n\nMay take longer.\n"""\n\n'
        '# sphinx_gallery_budget_seconds = 600, "a test of declared budgets"\n'
        "x = 1\n"
    )
    result = sphinx_build(docs, "-D", "gallery_budget_seconds=0")
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "plot_99_broken.py" in output
    assert "line 9" in output
    assert "this page is broken" in output
    assert re.search(
        rf"{FIRST_PAGE.name} ran in [\d.]+ s \([\d.]+ s counted: [^)]*\), "
        r"over the 0 s budget",
        output,
    )
    assert "plot_98_declared.py ran in" not in output


#: Pages that hang: the first is stopped by the exception that its hard
#: limit raises on its line, after it started a process in a session of its
#: own (as run_ddp does); the second swallows that exception, and its
#: process is ended by the backstop. Both declare a budget of 1 s.
HANGING_PAGES = {
    "sleeps": '''"""
Hanging page
============

Starts a process, then sleeps forever.
"""

import subprocess
import sys
import time
from pathlib import Path

# sphinx_gallery_budget_seconds = 1, "hangs on purpose, to test the hard limit"
command = [sys.executable, "-c", "import time; time.sleep(600)"]
child = subprocess.Popen(command, start_new_session=True)
Path("child.pid").write_text(str(child.pid))
time.sleep(10**6)
''',
    "ignores-the-stop": '''"""
Stubborn page
=============

Sleeps forever, whatever interrupts it.
"""

import time

# sphinx_gallery_budget_seconds = 1, "hangs on purpose, to test the backstop"
while True:
    try:
        time.sleep(10**6)
    except Exception:
        pass
''',
}


def _running(pid: int) -> bool:
    """Whether process `pid` runs (a zombie, killed but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.is_file() and stat.read_text().rsplit(")", 1)[1].split()[0] == "Z")


@pytest.mark.parametrize("kind", HANGING_PAGES)
def test_hanging_page_is_stopped_at_its_hard_limit(tmp_path: Path, kind: str) -> None:
    docs = copy_sources(tmp_path)
    page = HANGING_PAGES[kind]
    script = tmp_path / "gallery" / "tensors" / "plot_00_hangs.py"
    script.write_text(page)
    line = next(
        number
        for number, text in enumerate(page.splitlines(), start=1)
        if "time.sleep(10**6)" in text
    )
    tic = time.monotonic()
    # Its hard limit: 3 times the 1 s budget that the page declares.
    result = sphinx_build(docs, "-D", "gallery_hard_limit_factor=3")
    seconds = time.monotonic() - tic
    output = result.stdout + result.stderr
    assert result.returncode != 0
    # Starting the build and its worker processes takes most of this.
    assert seconds < 120, f"the build took {seconds:.0f} s to stop"
    # On a busy machine the limit leaves out the waits for a CPU, up to 4
    # times the limit on the clock.
    stopped = (
        rf"gallery/tensors/plot_00_hangs\.py, line {line} \(time\.sleep\(10\*\*6\)\) "
        r"is still running after (?:3 s, its hard limit|\d+ s, 4 times its hard limit)"
    )
    assert re.search(stopped, output), output[-3000:]
    if kind == "sleeps":
        assert re.search(rf"PageStopped: {stopped}", output), output[-3000:]
        child = int((script.parent / "child.pid").read_text())
        assert not _running(child), "the process the page started still runs"
    else:
        # faulthandler's dump of the stack, after the grace period.
        assert f'plot_00_hangs.py", line {line} in <module>' in output, output[-3000:]


def _avx512() -> bool:
    import torch

    return torch.backends.cpu.get_cpu_capability() == "AVX512"


def _cuda() -> bool:
    import torch

    return torch.cuda.is_available()


#: Pages whose timing checks all run only on some hardware, and the test
#: for that hardware.
NEEDS_HARDWARE = {
    "performance/plot_04_mixed_precision": _cuda,  # float16 on a CUDA GPU
    "performance/plot_52_matrix_products_on_a_gpu": _cuda,
    # bfloat16 products through oneDNN: an x86 CPU with AVX-512
    "performance/plot_51_fair_comparisons": _avx512,
}


def test_every_timing_check_is_on_the_execution_times_page(site: Path) -> None:
    records = json.loads((site / "timing-checks.json").read_text())
    pages = {record["page"] for record in records}
    timed = {
        str(script.relative_to(GALLERY).with_suffix(""))
        for script in SCRIPTS
        if "check_timing(" in script.read_text()
    }
    # Every page that checks a claim about time recorded it in the build,
    # except a page whose timing checks all need hardware this machine lacks.
    missing = {page for page in timed if f"auto_examples/{page}.py" not in pages}
    lacking = {page for page, present in NEEDS_HARDWARE.items() if not present()}
    assert missing <= lacking, missing - lacking
    text = html.unescape((site / "execution_times.html").read_text())
    for record in records:
        assert record["clock"] in text
        assert record["claim"] in text, record["claim"]
        assert f"{record['margin']:.0%}" in text
    assert all(record["margin"] > 0 for record in records)


def test_a_page_declares_its_budget_and_why() -> None:
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        from page_budgets import declared_budget
    finally:
        sys.path.pop(0)
    page = 'x = 1\n# sphinx_gallery_budget_seconds = 40, "trains four times"\n'
    assert declared_budget(page) == (40.0, "trains four times")
    assert declared_budget("x = 1\n") is None
    for wrong in ("40", "0, 'why'", "40, ''", "True, 'why'", "'40', 'why'", "40,"):
        with pytest.raises(
            ValueError, match=re.escape("the seconds (above 0) and the reason")
        ):
            declared_budget(f"# sphinx_gallery_budget_seconds = {wrong}\n")
    with pytest.raises(ValueError, match="more than once"):
        declared_budget(page + page)


class _Links(HTMLParser):
    """Collect a page's element ids and the targets of its links."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        for key in ("id", "name"):
            if attributes.get(key):
                self.ids.add(str(attributes[key]))
        for key in ("href", "src"):
            target = attributes.get(key)
            if target and (tag != "link" or key == "href"):
                self.links.append(target)


def parse(page: Path) -> _Links:
    parser = _Links()
    parser.feed(page.read_text(errors="replace"))
    return parser


def test_no_broken_internal_link_or_anchor(site: Path) -> None:
    pages = {page: parse(page) for page in site.rglob("*.html")}
    broken = []
    for page, parsed in pages.items():
        for link in parsed.links:
            parts = urlsplit(link)
            if (
                parts.scheme
                or parts.netloc
                or link.startswith(("mailto:", "javascript:"))
            ):
                continue  # external: not checked offline
            path = unquote(parts.path)
            if path.startswith("/"):  # the 404 page's links start at the site root
                target = (site / path.lstrip("/")).resolve()
            else:
                target = (page.parent / path).resolve() if path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                broken.append(f"{page.relative_to(site)}: {link} (no such file)")
            elif parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else parse(target).ids
                if unquote(parts.fragment) not in ids:
                    broken.append(f"{page.relative_to(site)}: {link} (no such anchor)")
    assert not broken, "broken links:\n" + "\n".join(sorted(broken))


def _visible_text(page: Path) -> str:
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", page.read_text(), flags=re.DOTALL)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", text)))


def test_no_rendered_page_or_download_mentions_the_notes(site: Path) -> None:
    mentions = []
    for path in sorted(site.rglob("*")):
        if path.suffix == ".html":
            text = _visible_text(path)
        elif path.suffix in {".py", ".ipynb"}:
            text = path.read_text()
        else:
            continue
        mentions += [
            f"{path.relative_to(site)}: ...{text[max(m.start() - 40, 0) : m.end() + 40]}..."
            for m in NOTES.finditer(text)
        ]
    assert not mentions, "readers never see the notes:\n" + "\n".join(mentions)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_downloaded_script_has_no_checks(site: Path, script: Path) -> None:
    page = page_of(site, script)
    link = re.findall(rf'href="([^"]*{re.escape(script.stem)}\.py)"', page.read_text())
    downloaded = (page.parent / link[0]).resolve().read_text()
    assert "sphinx_gallery_" not in downloaded, "the .py download shows config comments"
    assert ".. check::" not in downloaded, "the .py download keeps a check cell"
    zipped = re.findall(
        rf'href="([^"]*{re.escape(script.stem)}\.zip)"', page.read_text()
    )
    for archive in zipped:
        with zipfile.ZipFile((page.parent / archive).resolve()) as files:
            assert files.read(script.name).decode() == downloaded, "zip differs"
    if ".. check::" in script.read_text():
        assert downloaded != script.read_text()


def test_glossary_terms_are_linked_from_the_pages(site: Path) -> None:
    glossary = (site / "glossary.html").read_text()
    terms = re.findall(r'<dt id="(term-[^"]+)"', glossary)
    assert len(terms) >= 17, f"the glossary has only {len(terms)} terms"
    pages = [
        page.read_text()
        for page in site.rglob("*.html")
        if page.name != "glossary.html"
    ]
    unlinked = [
        term
        for term in terms
        if not any(f"glossary.html#{term}" in text for text in pages)
    ]
    assert not unlinked, f"glossary terms no page links to: {unlinked}"


def test_downloads_drop_checks_and_notebooks_install_the_helpers(
    tmp_path: Path,
) -> None:
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        from downloads import script_download
        from package_wheel import notebook_first_cell
    finally:
        sys.path.pop(0)
    page = (
        "x = 1\n\n# %%\n# .. check:: x is 1\nassert x == 1\n\n# %%\n"
        "for i in range(2):\n    y = i\nprint(y)\n"
        "# sphinx_gallery_thumbnail_number = 2\n"
    )
    assert script_download(page) == (
        "x = 1\n\n# %%\nfor i in range(2):\n    y = i\nprint(y)\n"
    )
    # Without the package (-S: no site-packages) and without the wheel, the
    # notebook's first cell stops and says exactly what to run.
    cell = tmp_path / "cell.py"
    cell.write_text(notebook_first_cell())
    result = subprocess.run(
        [sys.executable, "-S", str(cell)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    wheel = f"tutorial_utils-{tutorial_utils.__version__}-py3-none-any.whl"
    assert result.returncode != 0
    assert f"python -m pip install {wheel}" in result.stderr
    assert "https://example.org/site/" + wheel in notebook_first_cell(
        "https://example.org/site/"
    )


def test_helper_digest_follows_imports(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        from helper_stamps import helper_digest
    finally:
        sys.path.pop(0)
    package = tmp_path / "tutorial_utils"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from tutorial_utils.b import f\n")
    (package / "b.py").write_text("def f(): return 1\n")
    (package / "c.py").write_text("def g(): return 2\n")
    page = "from tutorial_utils.a import f\n"
    before = helper_digest(page, package)
    (package / "c.py").write_text("def g(): return 3\n")  # not imported by the page
    assert helper_digest(page, package) == before
    (package / "b.py").write_text("def f(): return 2\n")  # imported through a
    assert helper_digest(page, package) != before
    assert helper_digest("import numpy\n", package) == helper_digest("", package)


def test_a_busy_machine_stretches_the_hard_limit_and_a_hang_still_stops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        import page_limits
    finally:
        sys.path.pop(0)
    clock, stall = [100.0], [50.0]
    monkeypatch.setattr(page_limits.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(page_limits, "cpu_stall_seconds", lambda: stall[0])
    alarms: list[float] = []
    monkeypatch.setattr(
        page_limits.signal, "setitimer", lambda which, seconds: alarms.append(seconds)
    )
    monkeypatch.setattr(page_limits.signal, "signal", lambda *args: None)
    monkeypatch.setattr(
        page_limits.faulthandler, "dump_traceback_later", lambda *a, **k: None
    )
    monkeypatch.setattr(
        page_limits.faulthandler, "cancel_dump_traceback_later", lambda: None
    )
    try:
        page_limits._arm("plot_01_a.py", budget=10, factor=4, src_dir="/docs")
        assert alarms == [40]
        # At the limit, the machine had kept processes waiting for 30 s of the 40:
        # the page gets 30 s more, and no exception.
        clock[0], stall[0] = 140.0, 80.0
        page_limits._on_limit(0, None)
        assert alarms[-1] == 30
        # A quiet machine from then on: 40 s of its own time, so it stops.
        clock[0] = 170.0
        with pytest.raises(page_limits.PageTimeout, match="after 40 s, its hard limit"):
            page_limits._on_limit(0, None)
        assert "not counting 30 s" in page_limits._RUNNING["stopped"]
        # Waiting all the time, a page still stops at 4 times its limit.
        page_limits._RUNNING.clear()
        page_limits._arm("plot_01_a.py", budget=10, factor=4, src_dir="/docs")
        for seconds in (40, 80, 120, 160):
            clock[0] = 170.0 + seconds
            stall[0] = 80.0 + seconds
            if seconds < 160:
                page_limits._on_limit(0, None)
        with pytest.raises(page_limits.PageTimeout, match="160 s, 4 times its hard"):
            page_limits._on_limit(0, None)
        # Where the kernel gives no stall figures, the limit is the clock's.
        page_limits._RUNNING.clear()
        stall[0] = None  # type: ignore[call-overload]
        page_limits._arm("plot_01_a.py", budget=10, factor=4, src_dir="/docs")
        clock[0] += 40
        with pytest.raises(page_limits.PageTimeout, match="after 40 s, its hard limit"):
            page_limits._on_limit(0, None)
    finally:
        page_limits._RUNNING.clear()


def test_a_file_a_page_writes_moves_next_to_the_page(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        from page_limits import collect_page_files
    finally:
        sys.path.pop(0)
    section = tmp_path / "gallery" / "perf"
    section.mkdir(parents=True)
    (tmp_path / "docs").mkdir()
    (section / "plot_01_a.py").write_text('open("trace.json", "w")\n')
    (section / "notes.txt").write_text("was there before")
    before = {path.name for path in section.iterdir()}
    (section / "trace.json").write_text("{}")  # the page's own file
    (section / "other.json").write_text("{}")  # a neighbour's, not named by it
    conf = {
        "src_dir": str(tmp_path / "docs"),
        "examples_dirs": ["../gallery"],
        "gallery_dirs": ["auto_examples"],
    }
    moved = collect_page_files(conf, "plot_01_a.py", before)
    output = tmp_path / "docs" / "auto_examples" / "perf"
    assert [path.resolve() for path in moved] == [(output / "trace.json").resolve()]
    assert (output / "trace.json").read_text() == "{}"
    assert sorted(path.name for path in section.iterdir()) == [
        "notes.txt",
        "other.json",
        "plot_01_a.py",
    ]


#: What a gallery page may weigh, with everything it loads, gzip-compressed
#: as web servers send it.
PAGE_BUDGET_BYTES = 150_000


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_page_weight(site: Path, script: Path) -> None:
    page = page_of(site, script)
    assets = {page}
    for link in parse(page).links:
        parts = urlsplit(link)
        target = (page.parent / unquote(parts.path)).resolve()
        local = not (parts.scheme or parts.netloc) and target.is_file()
        if local and target.suffix in {".css", ".js", ".png", ".svg", ".jpg", ".woff2"}:
            assets.add(target)
    # Style sheets load their own images and fonts; Furo's are inline.
    total = sum(len(gzip.compress(asset.read_bytes(), 9)) for asset in assets)
    assert total < PAGE_BUDGET_BYTES, (
        f"{page.name} weighs {total / 1000:.0f} kB gzip-compressed with its "
        f"{len(assets) - 1} assets; the budget is {PAGE_BUDGET_BYTES / 1000:.0f} kB"
    )


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W]+", text.lower())


def _shows(message: str, heading: str) -> bool:
    """Whether `heading`'s words all appear in `message`, in order (as the search)."""
    wanted, matched = _words(heading), 0
    for word in _words(message):
        if matched < len(wanted) and word == wanted[matched]:
            matched += 1
    return matched == len(wanted)


def _atlas_entries(site: Path) -> dict[str, set[str]]:
    """Each atlas heading, and the labels of the entries headed by it."""
    entries: dict[str, set[str]] = {}
    for page in sorted((site / "auto_examples" / "errors").glob("plot_*.html")):
        for label, heading in re.findall(
            r'id="(error-[a-z0-9-]+)".{0,400}?<h2>(.*?)<a class="headerlink"',
            page.read_text(),
            re.DOTALL,
        ):
            text = html.unescape(re.sub("<[^>]+>", "", heading)).strip()
            entries.setdefault(text, set()).add(label)
    return entries


def test_the_atlas_has_its_entries(site: Path) -> None:
    entries = _atlas_entries(site)
    labels = set().union(*entries.values())
    assert len(labels) >= 25, sorted(labels)
    assert _shows(
        "RuntimeError: index 9 is out of bounds for dimension 0 with size 2",
        "index … is out of bounds for dimension … with size …",
    )
    assert not _shows("index out of range", "index … is out of bounds")


def test_a_lesson_that_shows_an_error_links_its_atlas_entry(site: Path) -> None:
    entries = {h: s for h, s in _atlas_entries(site).items() if len(_words(h)) >= 3}
    missing = []
    for script in SCRIPTS:
        if script.parent.name == "errors":
            continue
        text = page_of(site, script).read_text()
        outputs = [
            html.unescape(re.sub("<[^>]+>", "", block))
            for block in re.findall(
                r'<div class="sphx-glr-script-out[^"]*">(.*?)</pre>', text, re.DOTALL
            )
        ]
        lines = [line for block in outputs for line in block.splitlines()]
        for heading, labels in entries.items():
            shown = any(_shows(line, heading) for line in lines)
            if shown and not any(f'#{label}"' in text for label in labels):
                missing.append(f"{script.stem}: {heading!r} ({', '.join(labels)})")
    assert not missing, "link these with :ref:`error-...`:\n" + "\n".join(missing)


#: The exercises pages, and the lessons that end with their own exercises.
EXERCISE_PAGES = [
    script for script in SCRIPTS if "**Exercise 1.**" in script.read_text()
]


def _exercise_numbers(script: Path) -> list[int]:
    return [int(n) for n in re.findall(r"\*\*Exercise (\d+)\.\*\*", script.read_text())]


@pytest.mark.parametrize("script", EXERCISE_PAGES, ids=lambda p: p.stem)
def test_every_exercise_has_a_hidden_solution_and_a_check(
    site: Path, script: Path
) -> None:
    import json

    numbers = _exercise_numbers(script)
    assert numbers == list(range(1, len(numbers) + 1)), numbers
    source = script.read_text()
    assert source.count('<details class="solution">') == len(numbers)
    assert source.count("</details>") == len(numbers)
    html_page = page_of(site, script).read_text()
    assert html_page.count('<details class="solution"><summary>Solution') == len(
        numbers
    )
    # The notebook: an empty answer cell for each, then a check naming it.
    notebook_path = next((site / "_downloads").rglob(script.stem + ".ipynb"))
    cells = json.loads(notebook_path.read_text())["cells"]
    answers = [i for i, c in enumerate(cells) if "solution" in c["metadata"]]
    assert len(answers) == len(numbers)
    for number, index in zip(numbers, answers, strict=True):
        assert "".join(cells[index]["source"]).startswith("# Your answer here")
        check = next(c for c in cells[index + 1 :] if c["cell_type"] == "code")
        assert f"Exercise {number}" in "".join(check["source"]), number
    text = json.dumps(cells)
    # No solution toggle is left (a detail of the text is a <details> block).
    assert '<details class=\\"solution\\">' not in text
    assert "<summary>Solution" not in text
    # The .py download keeps the solutions and none of the toggle's markup.
    script_path = next((site / "_downloads").rglob(script.stem + ".py"))
    assert '<details class="solution">' not in script_path.read_text()
    assert "</details>" not in script_path.read_text()


def test_an_unanswered_exercise_notebook_stops_at_its_first_check(
    site: Path, tmp_path: Path
) -> None:
    import nbclient
    import nbformat

    script = EXERCISE_PAGES[0]
    notebook_path = next((site / "_downloads").rglob(script.stem + ".ipynb"))
    notebook = nbformat.read(notebook_path, as_version=4)
    notebook.cells = [
        cell
        for cell in notebook.cells
        if "pip install" not in cell.source  # the helpers are installed here
    ]
    client = nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3")
    with pytest.raises(nbclient.exceptions.CellExecutionError) as failed:
        client.execute(cwd=str(tmp_path))
    assert "NameError" in str(failed.value) or "Exercise 1" in str(failed.value)


def test_a_wrong_solution_fails_the_build_naming_page_and_exercise(
    tmp_path: Path,
) -> None:
    docs = copy_sources(tmp_path)
    script = EXERCISE_PAGES[0]
    copy = tmp_path / "gallery" / script.relative_to(GALLERY)
    # Only that page runs: the others are not needed to see it fail.
    for other in (tmp_path / "gallery").rglob("plot_*.py"):
        if other != copy:
            other.unlink()
    source = copy.read_text()
    opener = '<details class="solution"><summary>Solution</summary>\n\n# %%\n'
    start = source.index(opener) + len(opener)
    end = source.index("\n\n# %%", start)
    # The first solution, with the last name it defines made a wrong answer.
    import ast

    assigned = [
        target.id
        for node in ast.walk(ast.parse(source[start:end]))
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    ]
    wrong = f"\n{assigned[-1]} = None  # a wrong answer"
    copy.write_text(source[:end] + wrong + source[end:])
    result = sphinx_build(docs)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert f"{copy.name} unexpectedly failed" in output or copy.name in output
    assert re.search(r"AssertionError: Exercise 1\b", output), output[-3000:]
