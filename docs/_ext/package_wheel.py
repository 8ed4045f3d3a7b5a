"""Offer the ``tutorial_utils`` package on the site itself, as a wheel.

Readers who download a page need the helpers it imports. The build makes a
wheel of the package from this source tree (with hatchling, the project's
own build backend: no network) and publishes it at the site's root, so the
landing page and every page's download block can link to the exact package
the pages were built with. It is rebuilt only when the package changes.
"""

from __future__ import annotations

import hashlib
import html
import shutil
from pathlib import Path
from typing import Any

from build_facts import requirement_names
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ConfigError

import tutorial_utils


def project_root() -> Path:
    """The source tree this package is installed from (editable install)."""
    root = Path(tutorial_utils.__file__).resolve().parents[2]
    if not (root / "pyproject.toml").is_file():
        raise ConfigError(
            "the docs build needs tutorial_utils installed from its source tree "
            f"(pip install -e .); it is installed at {root}"
        )
    return root


def wheel_name() -> str:
    return f"tutorial_utils-{tutorial_utils.__version__}-py3-none-any.whl"


def build_wheel(app: Sphinx, config: Config) -> None:
    root = project_root()
    folder = Path(app.outdir).parent / "wheel"
    sources = [root / "pyproject.toml", root / "README.md", root / "LICENSE"]
    sources += sorted((root / "src" / "tutorial_utils").rglob("*"))
    digest = hashlib.sha256()
    for path in sources:
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    stamp = folder / ".source-sha256"
    wheel = folder / wheel_name()
    if not (
        wheel.is_file() and stamp.is_file() and stamp.read_text() == digest.hexdigest()
    ):
        from hatchling.builders.wheel import WheelBuilder

        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        built = next(
            WheelBuilder(str(root)).build(directory=str(folder), versions=["standard"])
        )
        if Path(built).name != wheel.name:
            raise ConfigError(
                f"hatchling built {Path(built).name}, expected {wheel.name}"
            )
        stamp.write_text(digest.hexdigest())
    config.html_extra_path = [*config.html_extra_path, str(wheel)]


def notebook_first_cell(site_url: str = "") -> str:
    """The code cell every downloaded notebook opens with: get the helpers.

    A notebook runs wherever the reader opens it, often in an environment
    without ``tutorial_utils``. The cell does nothing when the package is
    importable; otherwise it installs the wheel from the notebook's folder,
    or from `site_url` (the published site's address, when the build knows
    it), and else stops with the exact command to run.
    """
    wheel = wheel_name()
    url = f"{site_url.rstrip('/')}/{wheel}" if site_url else ""
    return f"""\
# This notebook uses tutorial_utils, the site's helper package. Where it is not
# installed, this cell installs it, with PyTorch and the packages it needs,
# from {wheel}
# in this folder (download it from the site's landing page){", else from the site" if url else ""}.
import importlib.util
import subprocess
import sys
from pathlib import Path

if importlib.util.find_spec("tutorial_utils") is None:
    wheel = Path("{wheel}")
    source = str(wheel) if wheel.is_file() else "{url}"
    if not source:
        raise ModuleNotFoundError(
            "tutorial_utils is not installed. Download {wheel} "
            "from the site's landing page into this folder and run this cell again, "
            "or run: python -m pip install {wheel}"
        )
    subprocess.check_call([sys.executable, "-m", "pip", "install", source])
    importlib.invalidate_caches()
"""


def install_note(wheel_href: str, script: str) -> str:
    """The HTML under a gallery page's download buttons: what to install."""
    wheel = html.escape(wheel_name())
    names = ", ".join(requirement_names())
    return (
        '<div class="admonition note sphx-glr-install-note">'
        '<p class="admonition-title">Run this page on your machine</p>'
        f'<p>Download this site\'s helper package, <a href="{html.escape(wheel_href)}" '
        f"download>{wheel}</a>, and install it with</p>"
        f'<div class="highlight"><pre>python -m pip install {wheel}</pre></div>'
        f"<p>It brings what the pages use ({html.escape(names)}). Then run "
        f"<code>python {html.escape(script)}</code>, or open the notebook in "
        "Jupyter. Its first line of output names the device it computes on.</p></div>"
    )


def add_install_note(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    name = pagename.rsplit("/", 1)[-1]
    body = context.get("body")
    if not (pagename.startswith("auto_examples/") and name.startswith("plot_")):
        return
    marker = '<p class="sphx-glr-signature">'
    if isinstance(body, str) and marker in body:
        note = install_note(context["pathto"](wheel_name(), 1), f"{name}.py")
        context["body"] = body.replace(marker, note + marker, 1)


def setup(app: Sphinx) -> dict[str, object]:
    app.connect("config-inited", build_wheel)
    app.connect("html-page-context", add_install_note)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
