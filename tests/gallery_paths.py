"""Where the tests find the repository, its gallery and its pages."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GALLERY = ROOT / "gallery"
SCRIPTS = sorted(GALLERY.rglob("plot_*.py"))
