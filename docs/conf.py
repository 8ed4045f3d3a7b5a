"""Sphinx configuration: Sphinx-Gallery pages, MyST pages, strict and offline."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import tutorial_utils

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE / "_ext"))

from build_facts import published_address, published_prefix
from package_wheel import notebook_first_cell

project = "PyTorch from the foundations"
author = "The PyTorch foundations tutorial authors"
copyright = f"2026, {author}"
release = version = tutorial_utils.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.intersphinx",
    # myst_nb and myst_ahead come before Sphinx-Gallery: the MyST notebooks
    # start in the background before the gallery's pages run.
    "myst_nb",
    "myst_ahead",  # docs/_ext: the MyST pages' notebooks run side by side
    "sphinx_gallery.gen_gallery",
    "sphinx_copybutton",
    "sphinx_design",
    "notfound.extension",
    "sphinxext.opengraph",  # og:* tags for link previews (docs/_ext/html_tuning.py)
    "offline_inventories",  # docs/_ext: intersphinx without the network
    "folds",  # docs/_ext: checks and details, closed under the cell they belong to
    "gallery_hooks",  # docs/_ext: same start state and a time budget per page
    "timing_records",  # docs/_ext: timing checks' margins, pages' waits for a CPU
    "html_tuning",  # docs/_ext: lighter pages, accessibility, descriptions
    "mathml",  # docs/_ext: formulas as MathML at build time, no MathJax
    "package_wheel",  # docs/_ext: the helpers as a wheel readers can download
    "few_pages_serially",  # docs/_ext: no forked processes for a small rebuild
    "code_links_fast",  # docs/_ext: Sphinx-Gallery's code links in fewer nodes
    "reading_path",  # docs/_ext: the landing page's list of pages in reading order
]

# Sphinx-Gallery writes a notebook beside every page it generates; those are
# downloads, not pages for myst-nb to read or run.
exclude_patterns = [
    "_build",
    "auto_examples/**/*.ipynb",
    "auto_examples/**/*.py",
    "jupyter_execute",
    "**.ipynb_checkpoints",
]
suppress_warnings: list[str] = []
# Quotes and apostrophes stay as written: the error atlas's headings are
# PyTorch's messages, character for character, for readers to compare and copy.
smartquotes = False
nitpicky = True
html_math_renderer = "mathml"
nitpick_ignore = [
    # NumPy-style docstring words that are not types.
    ("py:class", "optional"),
    ("py:class", "default"),
]

# -- Gallery -----------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": ["../gallery"],
    "gallery_dirs": ["auto_examples"],
    "filename_pattern": r"/plot_",  # every plot_*.py runs
    "within_subsection_order": "FileNameSortKey",
    "subsection_order": [
        "../gallery/tensors",
        "../gallery/gradients",
        "../gallery/training",
        "../gallery/performance",
        "../gallery/errors",
    ],
    # Pages run side by side in worker processes (joblib's loky), one per
    # CPU that joblib counts (-1); a page that must run alone says
    # `# sphinx_gallery_parallel = False`, and runs first.
    "parallel": -1,
    # Same start for every page, in whichever process runs it: matplotlib's
    # defaults, then PyTorch's; after the page, its hard time limit is
    # disarmed (docs/_ext/page_limits.py); its timing checks' records and
    # its wait for a CPU are kept beside its output (docs/_ext/timing_records.py).
    "reset_modules": (
        "matplotlib",
        "page_limits.reset_state",
        "timing_records.note_page",
    ),
    "reset_modules_order": "both",
    # Pages print what they show; a bare expression's repr could hold an
    # address, so it is not captured.
    "capture_repr": (),
    "remove_config_comments": True,
    "doc_module": ("tutorial_utils",),
    "backreferences_dir": "api/generated/backreferences",
    "show_memory": False,
    "min_reported_time": 0,
    "download_all_examples": False,
    # docs/_ext/page_budgets.py writes execution_times.rst instead (no CDN).
    "write_computation_times": False,
    "promote_jupyter_magic": False,
    # A downloaded notebook installs the helper wheel where it is missing.
    # The published site's address, when the host names it, lets the cell
    # fetch the wheel from there.
    "first_notebook_cell": notebook_first_cell(published_address(os.environ)),
}

# PyTorch's profiler (Kineto) writes a line with the clock time to the process's
# standard error each time it starts and stops. The cheat sheet's kernel and the
# gallery's workers inherit this setting, so no page shows a clock time that
# says nothing about the page; a reader running a page still sees the lines.
os.environ.setdefault("KINETO_LOG_LEVEL", "6")

# -- MyST and myst-nb --------------------------------------------------------
myst_enable_extensions = ["colon_fence", "dollarmath", "deflist", "substitution"]


def _versions() -> dict[str, str]:
    """What built these pages, and what the helper package accepts."""
    from importlib.metadata import metadata, requires
    from importlib.metadata import version as installed
    from platform import python_version

    from build_facts import lower_bounds, requirement_names

    runtime = requirement_names()
    oldest = [f"{n} {v}" for n, v in lower_bounds(requires("tutorial-utils")).items()]
    floor_python = metadata("tutorial-utils")["Requires-Python"].removeprefix(">=")
    return {
        "built_with": ", ".join(
            [f"Python {python_version()}"]
            + [f"{name} {installed(name)}" for name in runtime]
        ),
        "oldest": ", ".join([f"Python {floor_python}", *oldest]),
        "torch_built": installed("torch").split("+")[0],
    }


myst_substitutions = _versions()
myst_heading_anchors = 3
nb_execution_mode = "cache"
nb_execution_timeout = 60
nb_execution_raise_on_error = True
nb_execution_excludepatterns = ["auto_examples/**"]
nb_execution_show_tb = True
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}

# -- API reference -----------------------------------------------------------
autodoc_default_options = {"members": True, "show-inheritance": False}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_type_aliases: dict[str, str] = {}
napoleon_numpy_docstring = True
napoleon_google_docstring = False
napoleon_preprocess_types = True
napoleon_use_rtype = False
napoleon_type_aliases = {
    "sequence": ":term:`sequence`",
    "callable": ":term:`callable`",
    "mapping": ":term:`mapping`",
}
python_use_unqualified_type_names = True

# -- Cross-references (filled in offline by docs/_ext/offline_inventories.py) --
intersphinx_mapping: dict[str, tuple[str, tuple[str, ...]]] = {}
intersphinx_timeout = 5

# -- HTML --------------------------------------------------------------------
# A digest of the build's own extensions: a change to one of them changes the
# configuration, so Sphinx reads every page again (extensions_digest is
# registered with rebuild "env" in docs/_ext/gallery_hooks.py) and writes every
# page again (html_context), instead of keeping pages made by the old code.
extensions_digest = hashlib.sha256(
    b"".join(path.read_bytes() for path in sorted((HERE / "_ext").glob("*.py")))
).hexdigest()
html_context = {"extensions_digest": extensions_digest}
html_theme = "furo"
html_title = "PyTorch from the foundations"
html_static_path = ["_static"]
html_favicon = "_static/favicon.svg"
html_css_files = ["site.css"]
html_last_updated_fmt = None
html_show_sourcelink = False
html_copy_source = False
# The 404 page is served for any missing URL, so its links must be absolute:
# they start with the path of the published address (Read the Docs'
# /en/latest/, GitHub Pages' /<repository>/), or / without one.
notfound_urls_prefix = published_prefix(os.environ)
# Colours that meet WCAG AA contrast on the code blocks' backgrounds.
pygments_style = "a11y-high-contrast-light"
pygments_dark_style = "a11y-high-contrast-dark"
project_tagline = (
    "PyTorch taught from its foundations, every page run when the site was built"
)
copybutton_exclude = ".linenos, .gp, .go"

# -- The published address: canonical links, sitemap, link previews ----------
# Read the Docs names the address of the version it builds; the GitHub Pages
# workflow sets DOCS_SITE_URL. With an address, every page links to its
# canonical URL and gets an og:url, and the build writes sitemap.xml. A local
# build knows no address and writes none of the three, since each must be an
# absolute URL. (`-D html_baseurl=...` gives the links, not the sitemap.)
html_baseurl = published_address(os.environ)
if html_baseurl:
    extensions.append("sphinx_sitemap")
# The address already names the language and version (Read the Docs' /en/latest/).
sitemap_url_scheme = "{link}"
# The search page asks not to be indexed; the 404 page is not a page to find.
sitemap_excludes = ["search.html", "404.html"]
# Descriptions are each page's first paragraph, written by docs/_ext/html_tuning.py.
ogp_enable_meta_description = False
# matplotlib is installed, so the extension would draw a preview image per page.
ogp_social_cards = {"enable": False}
