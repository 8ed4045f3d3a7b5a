"""The build's caches: what a rebuild re-reads, and what a clean build keeps."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import build_facts
import figures
import helper_stamps
import pytest

from sitebuild import ROOT


def _app(tmp_path: Path) -> SimpleNamespace:
    conf = {"gallery_dirs": ["auto_examples"]}
    return SimpleNamespace(
        srcdir=str(tmp_path),
        outdir=str(tmp_path / "_build" / "html"),
        config=SimpleNamespace(sphinx_gallery_conf=conf),
    )


def _plot(path: Path, colour: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(2, 2))
    axes.plot([0, 1], [0, 1], color=colour)
    figure.savefig(path)
    plt.close(figure)


def test_a_figure_drawn_again_the_same_keeps_its_time(tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    app = _app(tmp_path)
    images = tmp_path / "auto_examples" / "section" / "images"
    images.mkdir(parents=True)
    png = images / "sphx_glr_plot_01_a_001.png"
    _plot(png, "tab:blue")
    figures.shrink_figures(app)  # the first build: RGBA to a palette
    long_ago = 1_000_000_000 * 10**9
    os.utime(png, ns=(long_ago, long_ago))

    figures.note_figures(app)
    _plot(png, "tab:blue")  # the page ran again and drew the same
    assert png.stat().st_mtime_ns != long_ago
    figures.shrink_figures(app)
    assert png.stat().st_mtime_ns == long_ago

    figures.note_figures(app)
    _plot(png, "tab:red")  # the page changed its figure
    figures.shrink_figures(app)
    assert png.stat().st_mtime_ns != long_ago


def test_myst_pages_run_again_when_helpers_or_versions_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _app(tmp_path)
    cache = tmp_path / "_build" / ".jupyter_cache"
    cache.mkdir(parents=True)
    env = SimpleNamespace(
        found_docs={"index", "cheatsheet", "auto_examples/index"},
        doc2path=lambda name: (
            tmp_path / (name + (".rst" if name.startswith("auto") else ".md"))
        ),
    )
    monkeypatch.setattr(helper_stamps, "notebook_inputs_key", lambda: "one")

    helper_stamps.expire_notebook_outputs(app)  # no key yet: stale
    assert not cache.exists()
    assert helper_stamps.reread_myst_pages(app, env, set(), {"index"}, set()) == [
        "cheatsheet"
    ]
    helper_stamps.note_notebook_key(app, None)

    cache.mkdir()
    helper_stamps.expire_notebook_outputs(app)  # same key: kept
    assert cache.is_dir()
    assert helper_stamps.reread_myst_pages(app, env, set(), set(), set()) == []

    monkeypatch.setattr(helper_stamps, "notebook_inputs_key", lambda: "two")
    helper_stamps.expire_notebook_outputs(app)
    helper_stamps.note_notebook_key(app, RuntimeError("the build failed"))
    assert not cache.exists()
    assert helper_stamps.reread_myst_pages(app, env, set(), set(), set()) == [
        "cheatsheet",
        "index",
    ]
    # A failed build does not record the new key: the next one runs them again.
    helper_stamps.expire_notebook_outputs(app)
    assert helper_stamps.reread_myst_pages(app, env, set(), set(), set()) != []


def test_the_key_follows_the_helper_sources() -> None:
    key = helper_stamps.notebook_inputs_key()
    assert len(key) == 64
    assert key == helper_stamps.notebook_inputs_key()


def test_clean_keeps_the_keyed_caches_and_nothing_else(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    for path in (
        "_build/html/index.html",
        "_build/doctrees-html/environment.pickle",
        "_build/inventories/torch.inv",
        "_build/wheel/tutorial_utils-1.0-py3-none-any.whl",
        "auto_examples/tensors/plot_01.rst",
        "api/generated/backreferences/a.examples",
        "api/index.md",
        "index.md",
    ):
        (docs / path).parent.mkdir(parents=True, exist_ok=True)
        (docs / path).write_text("x")
    (docs / "execution_times.rst").write_text("x")

    removed = build_facts.clean_generated(docs)

    left = sorted(
        path.relative_to(docs).as_posix() for path in docs.rglob("*") if path.is_file()
    )
    assert left == [
        "_build/inventories/torch.inv",
        "_build/wheel/tutorial_utils-1.0-py3-none-any.whl",
        "api/index.md",
        "index.md",
    ]
    assert docs / "execution_times.rst" in removed
    assert build_facts.clean_generated(docs) == []
    assert (ROOT / "docs" / "_ext" / "build_facts.py").is_file()


def test_a_background_notebook_run_that_stopped_leaves_them_to_myst_nb() -> None:
    import threading

    import myst_ahead

    stopped = threading.Thread(target=lambda: None)
    stopped.start()
    myst_ahead._Ahead.thread = stopped
    myst_ahead._Ahead.todo = [(Path("cheatsheet.md"), None, None)]
    myst_ahead._Ahead.results = []  # the run raised before any result
    # No cache is touched (the env has none): myst-nb will run the notebook.
    myst_ahead.cache_notebooks(SimpleNamespace(), SimpleNamespace(), ["cheatsheet"])
    assert myst_ahead._Ahead.thread is None
    assert myst_ahead._Ahead.todo == []


_PROBE = """
import os
from pathlib import Path

def note(kind):
    def handler(app, *args):
        with open(Path(app.srcdir, "pids.txt"), "a") as f:
            f.write(f"{kind} {os.getpid()}\\n")
    return handler

def setup(app):
    app.connect("source-read", note("read"))
    app.connect("html-page-context", note("write"))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
"""


def _tiny_project(
    tmp_path: Path, modules: dict[str, str], extensions: tuple[str, ...] = ()
) -> Path:
    """A Sphinx source folder loading `extensions`, then `modules` ({name: code})."""
    src = tmp_path / "src"
    src.mkdir()
    for name, code in modules.items():
        (src / f"{name}.py").write_text(code)
    (src / "conf.py").write_text(
        "import os, sys\nsys.path.insert(0, os.path.dirname(__file__))\n"
        f"extensions = {[*extensions, *modules]!r}\n"
    )
    return src


@pytest.mark.parametrize(("pages", "forks"), [(2, False), (12, True)])
def test_only_a_few_pages_are_read_and_written_without_forking(
    tmp_path: Path, pages: int, forks: bool
) -> None:
    """A one-page edit (two pages) forks nothing; a larger build still does."""
    from sphinx.application import Sphinx

    src = _tiny_project(tmp_path, {"probe": _PROBE}, ("few_pages_serially",))
    names = [f"page{n}" for n in range(pages - 1)]
    toctree = "\n".join(["", ".. toctree::", "", *(f"   {n}" for n in names)])
    (src / "index.rst").write_text("Index\n=====\n" + toctree + "\n")
    for name in names:
        (src / f"{name}.rst").write_text(f"{name}\n{'=' * len(name)}\n\nText.\n")
    app = Sphinx(
        src,
        src,
        tmp_path / "out",
        tmp_path / "doctrees",
        "html",
        status=None,
        warning=None,
        parallel=2,
    )
    app.build()
    seen = [line.split() for line in (src / "pids.txt").read_text().splitlines()]
    for kind in ("read", "write"):
        pids = {pid for k, pid in seen if k == kind}
        assert (pids != {str(os.getpid())}) == forks, (kind, pids)
    assert app.parallel == 2  # given back after reading


def test_the_inputs_digest_changes_with_what_a_build_depends_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`nox -s docs` skips Sphinx only while this digest stays the same."""
    for top in build_facts.BUILD_INPUTS:
        (tmp_path / top).mkdir(exist_ok=True)
    page = tmp_path / "gallery" / "plot_01.py"
    page.write_text("print(1)\n")
    output = tmp_path / "docs" / "_build" / "html" / "index.html"
    output.parent.mkdir(parents=True)
    output.write_text("<html>")
    monkeypatch.delenv("DOCS_SITE_URL", raising=False)
    command = ["sphinx-build", "docs", "docs/_build/html"]

    def digest(*extra: str) -> str:
        return build_facts.build_inputs_digest(tmp_path, command, *extra)

    before = digest("stamp")
    # What does not change a build's result leaves it alone:
    (tmp_path / "src" / "__pycache__").mkdir()
    (tmp_path / "src" / "__pycache__" / "m.cpython-311.pyc").write_bytes(b"x")
    (tmp_path / "docs" / "_build" / "html.inputs").write_text(before)
    monkeypatch.setenv("UNRELATED_VARIABLE", "1")
    assert digest("stamp") == before
    # Each of these changes it:
    monkeypatch.setenv("DOCS_SITE_URL", "https://example.org/")
    assert digest("stamp") != before
    monkeypatch.delenv("DOCS_SITE_URL")
    assert digest("another stamp") != before
    page.write_text("print(22)\n")  # an edit (its size changes too)
    edited = digest("stamp")
    assert edited != before
    output.unlink()  # an output deleted
    assert digest("stamp") != edited


def test_merged_code_tokens_make_the_same_html_and_search_words() -> None:
    """code_links_fast: one node per run of tokens, the HTML and words unchanged."""
    import code_links_fast
    from docutils import nodes
    from docutils.frontend import get_default_settings
    from docutils.utils import new_document
    from docutils.writers.html5_polyglot import HTMLTranslator, Writer
    from pygments.lexers import get_lexer_by_name
    from sphinx.search.en import SearchEnglish
    from sphinx_gallery._doctree_links import _token_node

    code = (
        '@torch.no_grad()\ndef f(a, b="x<y & \\"z\\"\\nblue"):\n'
        '    return a @ b if a >= 2 else {"k": 1e-3j}  # ok\n'
    )
    tokens = [
        _token_node(kind, text)
        for kind, text in get_lexer_by_name("python").get_tokens(code)
    ]
    merged = list(code_links_fast.coalesce(iter(tokens)))
    assert len(merged) == 1 < len(tokens)

    def html(children: list) -> str:
        document = new_document("test", get_default_settings(Writer))
        translator = HTMLTranslator(document)
        translator.visit_code_run = lambda node: code_links_fast.visit_code_run_html(
            translator, node
        )
        for child in children:
            child.walkabout(translator)
        return "".join(translator.body)

    def words(children: list) -> list[str]:
        english = SearchEnglish({})
        return [
            word
            for child in children
            for text in child.findall(lambda node: isinstance(node, nodes.Text))
            for word in english.split(text.astext())
        ]

    assert html(merged) == html(tokens)
    assert words(merged) == words(tokens)
    # A block with line numbers gets its token nodes back.
    assert html(code_links_fast.tokens_of(merged)) == html(tokens)


_WORKERS = """
import os
from pathlib import Path

from joblib.externals.loky import get_reusable_executor

def start_workers(app):
    # As Sphinx-Gallery's parallel pages do: worker processes still up at exit.
    pid = get_reusable_executor(max_workers=2).submit(os.getpid).result()
    Path(app.srcdir, "worker.pid").write_text(str(pid))

def setup(app):
    app.connect("builder-inited", start_workers)
    return {"parallel_read_safe": True}
"""


@pytest.mark.parametrize("warns", [False, True])
def test_the_build_runner_ends_with_the_builds_status_and_its_workers(
    tmp_path: Path, warns: bool
) -> None:
    """sphinx_build.py: a build's outputs and exit status, its workers stopped."""
    import subprocess
    import sys

    src = _tiny_project(tmp_path, {"workers": _WORKERS})
    body = ":ref:`nowhere`\n" if warns else "Text.\n"
    (src / "index.rst").write_text(f"Index\n=====\n\n{body}")
    out = tmp_path / "out"
    runner = ROOT / "docs" / "_ext" / "sphinx_build.py"
    command = [
        sys.executable,
        str(runner),
        "-W",
        "-q",
        "-b",
        "html",
        str(src),
        str(out),
    ]
    result = subprocess.run(
        command, check=False, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == (1 if warns else 0), result.stderr
    if not warns:
        assert (out / "index.html").read_text().rstrip().endswith("</html>")
    # The worker does not outlive the build.
    import time

    worker = int((src / "worker.pid").read_text())
    for _ in range(50):
        try:
            os.kill(worker, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        raise AssertionError(f"worker {worker} still runs after the build")
