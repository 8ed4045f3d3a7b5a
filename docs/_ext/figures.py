"""The gallery's figures, stored as 256-colour PNGs.

What this changes in Sphinx-Gallery: after the pages ran, each new figure
(and thumbnail) it saved is re-saved with a palette (:func:`shrink_figures`):
plots have few colours, and a page with several figures stays light to load.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

from sphinx.application import Sphinx


def _figures(app: Sphinx) -> Iterator[Path]:
    src = Path(app.srcdir)
    for gallery_dir in app.config.sphinx_gallery_conf["gallery_dirs"]:
        yield from sorted((src / gallery_dir).rglob("images/**/*.png"))


#: Each figure's digest and modification time before the pages ran.
_FIGURES_BEFORE: dict[Path, tuple[bytes, int]] = {}


def note_figures(app: Sphinx) -> None:
    """Before the pages run: each figure's digest and modification time."""
    _FIGURES_BEFORE.clear()
    _FIGURES_BEFORE.update(
        {
            png: (hashlib.sha256(png.read_bytes()).digest(), png.stat().st_mtime_ns)
            for png in _figures(app)
        }
    )


def shrink_figures(app: Sphinx) -> None:
    """Re-save the gallery's full-colour PNGs with a 256-colour palette.

    Matplotlib writes 32-bit RGBA; a palette image of the same plot looks the
    same and is about a third of the size. Images already in palette mode are
    left alone, so this costs nothing on a rebuild.

    A page that ran again rewrites its figures and its thumbnail. Where the
    shrunk file is the same as before the run, it gets its old modification
    time back: Sphinx re-reads every page that shows an image newer than the
    page, and the API page and the indexes show the thumbnails.
    """
    from PIL import Image

    for png in _figures(app):
        with Image.open(png) as image:
            mode = image.mode
            if mode != "P":
                palette = image.convert("RGB").quantize(
                    colors=256,
                    method=Image.Quantize.FASTOCTREE,
                    dither=Image.Dither.NONE,
                )
        if mode != "P":
            palette.save(png, optimize=True)
        old = _FIGURES_BEFORE.get(png)
        if old is not None and hashlib.sha256(png.read_bytes()).digest() == old[0]:
            os.utime(png, ns=(old[1], old[1]))
