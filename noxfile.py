"""Build, check and serve the tutorial site. ``nox -l`` lists the sessions."""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
from pathlib import Path

import nox

nox.needs_version = ">=2025.2.9"
# pip, not uv: the build machines hold the torch wheel on disk, where pip
# finds it and uv does not.
nox.options.default_venv_backend = "virtualenv"
nox.options.reuse_venv = "yes"

ROOT = Path(__file__).parent
DOCS = ROOT / "docs"
BUILD = DOCS / "_build"
PYPROJECT = nox.project.load_toml(ROOT / "pyproject.toml")
# The interpreter the pinned versions were tested with (`nox -P 3.12` to try another).
PYTHON = "3.11"


def install(session: nox.Session, group: str) -> None:
    """Install a dependency group and this package, unless already installed.

    The requirements are hashed into a stamp file inside the environment, so
    a session run again with nothing changed skips pip entirely.
    """
    requirements = nox.project.dependency_groups(PYPROJECT, group)
    project = PYPROJECT["project"]
    digest = hashlib.sha256(
        json.dumps([requirements, project["dependencies"]]).encode()
    ).hexdigest()
    venv = session.virtualenv.location if session.virtualenv else None
    stamp = Path(venv, ".installed") if venv else None
    if stamp is not None and stamp.is_file() and stamp.read_text() == digest:
        session.log(f"dependency group {group!r} is installed; skipping pip")
        return
    session.install(*requirements)
    session.install("--no-deps", "-e", ".")
    if stamp is not None:
        stamp.write_text(digest)


@nox.session(python=PYTHON, default=True)
def docs(session: nox.Session) -> None:
    """Build the site strictly (`-- --serve` live-reloads, `-- --no-exec` skips running)."""
    parser = argparse.ArgumentParser(prog="nox -s docs --")
    parser.add_argument(
        "--serve",
        action="store_true",
        help="serve on localhost and rebuild on every change",
    )
    parser.add_argument(
        "--no-exec",
        action="store_true",
        help="build the pages without running their code",
    )
    parser.add_argument(
        "--clean",
        action="store_true",
        help="remove the build and all generated pages first",
    )
    args, sphinx_args = parser.parse_known_args(session.posargs)
    install(session, "serve" if args.serve else "docs")

    if args.clean:
        for generated in (
            "_build",
            "auto_examples",
            "api/generated",
            "jupyter_execute",
        ):
            shutil.rmtree(DOCS / generated, ignore_errors=True)
        for page in ("sg_execution_times.rst", "execution_times.rst"):
            (DOCS / page).unlink(missing_ok=True)
    # A separate output for unexecuted builds, so they never replace outputs.
    name = "html-noexec" if args.no_exec else "html"
    options = [
        "-W",
        "--keep-going",
        "-n",
        "-b",
        "html",
        "-d",
        str(BUILD / f"doctrees-{name}"),
    ]
    if args.no_exec:
        options += ["-D", "plot_gallery=0", "-D", "nb_execution_mode=off"]
    outdir = BUILD / name
    if args.serve:
        ignore = [
            "--ignore",
            "*/auto_examples/*",
            "--ignore",
            "*/_build/*",
            "--ignore",
            "*/api/generated/*",
            "--ignore",
            "*/jupyter_execute/*",
            "--ignore",
            "*/sg_execution_times.rst",
        ]
        session.run(
            "sphinx-autobuild",
            *options,
            *ignore,
            "--watch",
            "gallery",
            "--watch",
            "src",
            *sphinx_args,
            "docs",
            str(outdir),
        )
        return
    session.run("sphinx-build", *options, *sphinx_args, "docs", str(outdir))
    session.log(f"Built the site: open {(outdir / 'index.html').as_uri()}")


@nox.session(python=PYTHON, default=True)
def tests(session: nox.Session) -> None:
    """Run every check: unit tests, doctests, each page, a strict docs build."""
    install(session, "test")
    session.run("pytest", *session.posargs)


@nox.session(python=PYTHON, default=True)
def lint(session: nox.Session) -> None:
    """Check style and formatting with ruff, and types with mypy."""
    install(session, "lint")
    session.run("ruff", "check", *session.posargs)
    session.run("ruff", "format", "--check", *session.posargs)
    session.run("mypy")
