"""How the documentation build runs the gallery: same start, fresh, on time.

- :func:`reset_state` is Sphinx-Gallery's ``reset_modules`` hook: before each
  example it puts PyTorch's global state back (seeds, default dtype and
  device, grad mode, ...), so a page prints the same numbers whatever ran
  before it.
- Sphinx-Gallery runs a page again only when the script itself changed. A
  page also depends on the ``tutorial_utils`` modules it imports, so
  :func:`rerun_pages_with_changed_helpers` stamps each page with a hash of
  those modules (followed through their own imports) and makes Sphinx-Gallery
  run it again when the hash changes.
- Figures are stored as 256-colour PNGs (:func:`shrink_figures`): plots
  have few colours, and a page with several figures stays light to load.
- A page's hidden checks (``# sphinx_gallery_start_ignore`` ...
  ``# sphinx_gallery_end_ignore``) are left out of the rendered page and the
  notebook by Sphinx-Gallery, but its ``.py`` download is a verbatim copy of
  the script. :func:`strip_downloads` removes them, and Sphinx-Gallery's
  configuration comments, from the published ``.py`` files (alone and in
  the zipped download), so a download reads like the page.
- A page must run in well under ``gallery_budget_seconds`` (15 s by default)
  on two CPU cores. After the gallery is generated, every example whose last
  measured run took longer is reported as a warning, which fails the strict
  build, and keeps failing it on rebuilds until the page is made faster.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

import tutorial_utils

logger = logging.getLogger(__name__)


_START_THREADS: dict[str, int] = {}


def reset_state(gallery_conf: dict[str, Any], fname: str, when: str) -> None:
    """Sphinx-Gallery ``reset_modules`` hook: same state before each page."""
    # Imported here: torch takes a second to import, and a build in which no
    # page runs should not pay for it.
    import torch

    from tutorial_utils.reproducibility import reset_global_state

    reset_global_state(seed=0)
    # Every page starts with the thread count the build started with, even
    # if the page before it changed it.
    _START_THREADS.setdefault("threads", torch.get_num_threads())
    torch.set_num_threads(_START_THREADS["threads"])


_FROM_IMPORT = re.compile(
    r"^[ \t]*from[ \t]+(tutorial_utils(?:\.\w+)*)[ \t]+import[ \t]+"
    r"(\([\w\s,]+\)|[\w \t,]+)",
    re.MULTILINE,
)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+(tutorial_utils(?:\.\w+)*)", re.MULTILINE)


@functools.cache
def _helper_imports(source: str) -> frozenset[str]:
    """The ``tutorial_utils`` modules a piece of Python source imports.

    A regular expression, not :mod:`ast`: it runs on every build, and parsing
    every page costs more than the rest of a no-op rebuild's own work. A
    match inside a string only adds a dependency, which is harmless.
    """
    found = set(_IMPORT.findall(source))
    for module, names in _FROM_IMPORT.findall(source):
        found.add(module)
        found.update(f"{module}.{name}" for name in re.findall(r"\w+", names))
    return frozenset(found)


def helper_digest(source: str, package: Path | None = None) -> str:
    """Hash of every ``tutorial_utils`` file that `source` depends on."""
    package = package or Path(tutorial_utils.__file__).parent
    files = {p.stem if p.stem != "__init__" else "": p for p in package.glob("*.py")}
    seen: set[str] = set()
    todo: Iterable[str] = _helper_imports(source)
    digest = hashlib.sha256()
    while todo:
        modules = set()
        for name in todo:
            submodule = name.split(".")[1] if "." in name else ""
            if submodule in files and submodule not in seen:
                seen.add(submodule)
                modules.add(submodule)
        todo = set()
        for submodule in sorted(modules):
            text = files[submodule].read_text()
            todo |= _helper_imports(text)
    for submodule in sorted(seen):
        digest.update(submodule.encode() + b"\0" + files[submodule].read_bytes())
    return digest.hexdigest()


def rerun_pages_with_changed_helpers(app: Sphinx) -> None:
    """Make Sphinx-Gallery re-run each page whose helpers changed since its run."""
    conf = app.config.sphinx_gallery_conf
    src = Path(app.srcdir)
    for examples, gallery in zip(
        conf["examples_dirs"], conf["gallery_dirs"], strict=True
    ):
        for script in sorted((src / examples).resolve().rglob("plot_*.py")):
            target = src / gallery / script.relative_to((src / examples).resolve())
            stamp = target.with_name(target.stem + ".helpers")
            digest = helper_digest(script.read_text())
            if stamp.is_file() and stamp.read_text() == digest:
                continue
            # Without its md5 file Sphinx-Gallery treats the page as changed.
            Path(f"{target}.md5").unlink(missing_ok=True)
            target.parent.mkdir(parents=True, exist_ok=True)
            stamp.write_text(digest)


def shrink_figures(app: Sphinx) -> None:
    """Re-save the gallery's full-colour PNGs with a 256-colour palette.

    Matplotlib writes 32-bit RGBA; a palette image of the same plot looks the
    same and is about a third of the size. Images already in palette mode are
    left alone, so this costs nothing on a rebuild.
    """
    from PIL import Image

    src = Path(app.srcdir)
    for gallery_dir in app.config.sphinx_gallery_conf["gallery_dirs"]:
        for png in sorted((src / gallery_dir).rglob("images/**/*.png")):
            with Image.open(png) as image:
                if image.mode == "P":
                    continue
                palette = image.convert("RGB").quantize(
                    colors=256,
                    method=Image.Quantize.FASTOCTREE,
                    dither=Image.Dither.NONE,
                )
            palette.save(png, optimize=True)


_HIDDEN_BLOCK = re.compile(
    r"\n*[ \t]*# sphinx_gallery_start_ignore\b.*?# sphinx_gallery_end_ignore[^\n]*",
    re.DOTALL,
)
_CONFIG_COMMENT = re.compile(r"^# sphinx_gallery_\w+ *=.*\n", re.MULTILINE)


def strip_hidden_blocks(source: str) -> str:
    """`source` without hidden-check blocks and Sphinx-Gallery config comments.

    A block and the blank lines before it go, so the code around it keeps
    the spacing it had.
    """
    return _CONFIG_COMMENT.sub("", _HIDDEN_BLOCK.sub("", source))


def _strip_zip(archive: Path) -> None:
    """Rewrite a page's zipped download with its ``.py`` stripped."""
    with zipfile.ZipFile(archive) as source:
        members = [(info, source.read(info)) for info in source.infolist()]
    changed = False
    for index, (info, data) in enumerate(members):
        if info.filename.endswith(".py"):
            stripped = strip_hidden_blocks(data.decode()).encode()
            changed |= stripped != data
            members[index] = (info, stripped)
    if changed:
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as target:
            for info, data in members:
                target.writestr(info, data)


def strip_downloads(app: Sphinx, exception: Exception | None) -> None:
    """Remove hidden blocks from the gallery's published downloads.

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
            stripped = strip_hidden_blocks(text)
            if stripped != text:
                download.write_text(stripped)
        elif download.suffix == ".zip":
            _strip_zip(download)


def _costs(app: Sphinx) -> list[tuple[Path, float]]:
    """Each existing gallery script (in the output tree) and its last run time."""
    src = Path(app.srcdir)
    found = []
    for gallery_dir in app.config.sphinx_gallery_conf["gallery_dirs"]:
        for cost_file in sorted((src / gallery_dir).rglob("*.cost.json")):
            script = cost_file.with_name(cost_file.name.replace(".cost.json", ".py"))
            if script.is_file():  # else the page was removed
                found.append((script, float(json.loads(cost_file.read_text())["time"])))
    return found


def write_execution_times(app: Sphinx) -> None:
    """Write ``execution_times.rst``: how long each page took, slowest first.

    Sphinx-Gallery's own summary loads scripts from CDNs; this one is plain.
    """
    src = Path(app.srcdir)
    budget = float(app.config.gallery_budget_seconds)
    costs = sorted(_costs(app), key=lambda item: -item[1])
    lines = [
        ":orphan:",
        "",
        "Page execution times",
        "====================",
        "",
        (
            f"How long each gallery page took to run when it last ran in this build "
            f"(the budget is {budget:.0f} s a page on two CPU cores). A page that did "
            "not change since the previous build keeps its earlier time."
        ),
        "",
    ]
    if not costs:
        lines += [
            "No page has run in this build (it was built without running them).",
            "",
        ]
    else:
        lines += [
            ".. list-table::",
            "   :header-rows: 1",
            "   :widths: 70 15 15",
            "",
            "   * - Page",
            "     - Seconds",
            "     - Share of budget",
        ]
    for script, seconds in costs:
        label = "sphx_glr_" + "_".join(script.relative_to(src).with_suffix("").parts)
        lines += [
            f"   * - :ref:`{label}.py`",
            f"     - {seconds:.2f}",
            f"     - {seconds / budget:.0%}" if budget > 0 else "     - n/a",
        ]
    if costs:
        total = sum(seconds for _, seconds in costs)
        lines += ["", f"Total: {total:.1f} s for {len(costs)} pages.", ""]
    text = "\n".join(lines)
    target = src / "execution_times.rst"
    if not target.is_file() or target.read_text() != text:
        target.write_text(text)


def check_budget(app: Sphinx) -> None:
    """Warn about every example whose last run took over the budget."""
    budget = float(app.config.gallery_budget_seconds)
    src = Path(app.srcdir)
    for script, seconds in _costs(app):
        if seconds > budget:
            logger.warning(
                "%s ran in %.1f s, over the %.0f s budget of a page: "
                "make it faster (smaller sizes, fewer repeats).",
                script.relative_to(src),
                seconds,
                budget,
                type="gallery",
                subtype="budget",
            )


def setup(app: Sphinx) -> dict[str, object]:
    # Seconds a gallery page may take to run, on the two-core build machine.
    # Whole seconds: Sphinx converts a `-D gallery_budget_seconds=N` override
    # to int, not to float.
    app.add_config_value("gallery_budget_seconds", 15, "", types=(int, float))
    # Before and after sphinx_gallery.gen_gallery.generate_gallery_rst (500).
    app.connect("builder-inited", rerun_pages_with_changed_helpers, priority=450)
    app.connect("builder-inited", shrink_figures, priority=800)
    app.connect("builder-inited", write_execution_times, priority=850)
    app.connect("builder-inited", check_budget, priority=900)
    app.connect("build-finished", strip_downloads)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
