"""Every private name of Sphinx, Sphinx-Gallery and their kin that the build uses.

A private name (a leading underscore, or a module or structure its package
does not document) can change in any release without notice. Each one the
build's extensions use is listed here, with the version it was written
against, who uses it and for what, and the shape it relies on: a function's
parameters, or a text its source must contain. ``tests/test_private_names.py``
fails with :func:`problems`' message when an upgrade removes or changes one;
a test also fails when an extension uses a private name this list lacks.
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass
from importlib.metadata import version


@dataclass(frozen=True)
class PrivateName:
    """One private name: where it lives, what it must look like, who needs it."""

    path: str  # module.attribute, e.g. "sphinx_gallery.gen_rst._split_parallel"
    package: str  # the distribution that ships it
    written_against: str  # that distribution's version when the use was written
    used_by: str  # the extension and function that use it
    why: str  # what for
    parameters: tuple[str, ...] | None = None  # a function's parameter names
    source_has: str | None = None  # a text its source must still contain


PRIVATE_NAMES = (
    PrivateName(
        "sphinx_gallery.gen_rst._split_parallel",
        "sphinx-gallery",
        "0.22.1",
        "page_budgets._run_longest_first",
        "replaced by a wrapper that starts each section's slowest pages first",
        parameters=("sorted_listdir", "src_dir", "gallery_conf"),
    ),
    PrivateName(
        "sphinx_gallery._doctree_links._tokenize_and_link",
        "sphinx-gallery",
        "0.22.1",
        "code_links_fast._patch",
        "wrapped to join the token nodes between two links into one node",
        parameters=("code", "lexer_name", "code_obj", "resolver"),
    ),
    PrivateName(
        "sphinx_gallery._doctree_links._add_linenos",
        "sphinx-gallery",
        "0.22.1",
        "code_links_fast._patch",
        "wrapped so that a block with line numbers keeps a node per token",
        parameters=("children", "start"),
    ),
    PrivateName(
        "sphinx_gallery.py_source_parser.split_code_and_text_blocks",
        "sphinx-gallery",
        "0.22.1",
        "folds.fold_errors, folds.failed_check",
        "a script's cells, as Sphinx-Gallery splits them, to check its folds",
        parameters=("source_file", "return_node"),
        source_has='Block("text", text_block_content, lineno)',
    ),
    PrivateName(
        "sphinx_gallery.utils.get_md5sum",
        "sphinx-gallery",
        "0.22.1",
        "page_budgets.plan_page_runs",
        "which pages Sphinx-Gallery will run, by the md5 it compares",
        parameters=("src_file", "mode"),
    ),
    PrivateName(
        "sphinx_gallery.gen_gallery.summarize_failing_examples",
        "sphinx-gallery",
        "0.22.1",
        "folds.name_failed_checks",
        "gallery_conf['failing_examples'] holds each failing page's traceback",
        source_has="['failing_examples'][fail_example]",
    ),
    PrivateName(
        "sphinx.search.WordCollector.dispatch_visit",
        "sphinx",
        "9.0.4",
        "folds.FoldChecks",
        "the search index skips a node with the class 'no-search' (check code)",
        source_has="'no-search' in node['classes']",
    ),
    PrivateName(
        "sphinx.builders.Builder.write_documents",
        "sphinx",
        "9.0.4",
        "few_pages_serially.write_few_serially",
        "wrapped to write a few pages without starting worker processes",
        parameters=("self", "docnames"),
        source_has="self.parallel_ok",
    ),
    PrivateName(
        "myst_nb.core.read.create_nb_reader",
        "myst-nb",
        "1.4.0",
        "myst_ahead",
        "reads a MyST page into a notebook, to run it ahead of the reading",
        parameters=("path", "md_config", "nb_config", "content"),
    ),
    PrivateName(
        "jupyter_cache.executors.utils.single_nb_execution",
        "jupyter-cache",
        "1.0.1",
        "myst_ahead",
        "runs one MyST page's notebook in a thread, as myst-nb would",
    ),
)


def _resolve(path: str) -> object:
    """The object at `path`, importing the longest module prefix that exists."""
    parts = path.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            found = getattr(found, name)
        return found
    raise ImportError(f"no module in {path}")


def problems(names: tuple[PrivateName, ...] = PRIVATE_NAMES) -> list[str]:
    """What no longer holds for each private name, in words; empty if all hold."""
    found = []
    for name in names:
        now = version(name.package)
        where = (
            f"{name.path} (written against {name.package} {name.written_against}, "
            f"installed {now}; {name.used_by} uses it: {name.why})"
        )
        try:
            target = _resolve(name.path)
        except (ImportError, AttributeError):
            found.append(f"{where} is gone")
            continue
        if name.parameters is not None:
            try:
                parameters = tuple(inspect.signature(target).parameters)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                parameters = ()
            if parameters != name.parameters:
                found.append(f"{where} takes {parameters}, not {name.parameters}")
        if name.source_has is not None:
            source = inspect.getsource(target)  # type: ignore[arg-type]
            if name.source_has not in source:
                found.append(f"{where} no longer contains {name.source_has!r}")
    return found
