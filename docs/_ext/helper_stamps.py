"""Pages run again when what they depend on changes, not only their own code.

What this changes in Sphinx-Gallery and myst-nb:

- Sphinx-Gallery runs a page again only when the script itself changed. A
  page also depends on the ``tutorial_utils`` modules it imports, so
  :func:`rerun_pages_with_changed_helpers` stamps each page with a hash of
  those modules (followed through their own imports) and makes Sphinx-Gallery
  run it again when the hash changes.
- myst-nb keys its cache of the MyST pages' outputs on their code cells
  only; :func:`expire_notebook_outputs` empties it when the helpers or the
  installed versions change, and :func:`reread_myst_pages` has those pages
  read, and run, again.
"""

from __future__ import annotations

import functools
import hashlib
import re
import shutil
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from page_budgets import gallery_pages
from sphinx.application import Sphinx

import tutorial_utils

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


def notebook_inputs_key() -> str:
    """Hash of what the MyST pages' outputs depend on besides their own code.

    myst-nb keys its cache on a page's code cells only; the outputs also
    depend on the helper package's sources and on the installed versions.
    """
    from importlib.metadata import version

    digest = hashlib.sha256(sys.version.encode())
    for name in ("torch", "numpy", "matplotlib"):
        digest.update(f"\0{name} {version(name)}".encode())
    package = Path(tutorial_utils.__file__).parent
    for path in sorted(package.rglob("*.py")):
        digest.update(b"\0" + path.relative_to(package).as_posix().encode())
        digest.update(b"\0" + path.read_bytes())
    return digest.hexdigest()


def _notebook_key_file(app: Sphinx) -> Path:
    # One per output folder: each has its own Sphinx environment to refresh.
    return Path(app.outdir).parent / f".jupyter_cache.{Path(app.outdir).name}.key"


#: The key this build's MyST outputs are made with, and whether it is new.
_NOTEBOOKS: dict[str, Any] = {"key": "", "stale": False}


def expire_notebook_outputs(app: Sphinx) -> None:
    """Empty myst-nb's cache when the helpers or the versions changed."""
    stamp = _notebook_key_file(app)
    key = notebook_inputs_key()
    stale = not stamp.is_file() or stamp.read_text() != key
    _NOTEBOOKS.update(key=key, stale=stale)
    if stale:
        shutil.rmtree(Path(app.outdir).parent / ".jupyter_cache", ignore_errors=True)


def reread_myst_pages(
    app: Sphinx, env: Any, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """The MyST pages to read again, and run, after their cache was emptied."""
    if not _NOTEBOOKS["stale"]:
        return []
    return sorted(
        name
        for name in env.found_docs - added - changed
        if Path(env.doc2path(name)).suffix == ".md"
    )


def note_notebook_key(app: Sphinx, exception: Exception | None) -> None:
    """After a build that succeeded, the key its MyST outputs were made with."""
    if exception is None and _NOTEBOOKS["key"]:
        _notebook_key_file(app).write_text(_NOTEBOOKS["key"])


def rerun_pages_with_changed_helpers(app: Sphinx) -> None:
    """Make Sphinx-Gallery re-run each page whose helpers changed since its run."""
    for script, target in gallery_pages(app):
        stamp = target.with_name(target.stem + ".helpers")
        digest = helper_digest(script.read_text())
        if stamp.is_file() and stamp.read_text() == digest:
            continue
        # Without its md5 file Sphinx-Gallery treats the page as changed.
        Path(f"{target}.md5").unlink(missing_ok=True)
        target.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest)
