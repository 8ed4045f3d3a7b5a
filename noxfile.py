"""Build, check and serve the tutorial site. ``nox -l`` lists the sessions."""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

import nox
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

sys.path.insert(0, str(Path(__file__).parent / "docs" / "_ext"))
from build_facts import (
    GENERATED,
    RUN_NOTEBOOK,
    SPHINX_OPTIONS,
    build_inputs_digest,
    clean_generated,
    lower_bounds,
)

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
#: What `nox -s lint` spells: the pages, the package, the tests, the build.
SPELLED = ("README.md", "noxfile.py", "docs", "gallery", "src", "tests", ".ci")


def install(session: nox.Session, group: str) -> str:
    """Install a dependency group and this package, unless already installed.

    The requirements are hashed into a stamp file inside the environment, so
    a session run again with nothing changed skips pip entirely. Returns that
    hash.
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
        return digest
    session.install(*requirements)
    session.install("--no-deps", "-e", ".")
    if stamp is not None:
        stamp.write_text(digest)
    return digest


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
    installed = install(session, "serve" if args.serve else "docs")

    if args.clean:
        clean_generated(DOCS)
    # A separate output for unexecuted builds, so they never replace outputs.
    name = "html-noexec" if args.no_exec else "html"
    options = [*SPHINX_OPTIONS, "-d", str(BUILD / f"doctrees-{name}")]
    if args.no_exec:
        options += ["-D", "plot_gallery=0", "-D", "nb_execution_mode=off"]
    outdir = BUILD / name
    if args.serve:
        ignore = []
        for generated in GENERATED:
            ignore += [
                "--ignore",
                f"*/{generated}" + ("" if "." in generated else "/*"),
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
    # sphinx-build, ended without Python's teardown (about 1 s; see the file).
    runner = str(DOCS / "_ext" / "sphinx_build.py")
    command = ["python", runner, *options, *sphinx_args, "docs", str(outdir)]
    # Nothing changed since the last build that succeeded: skip Sphinx's start
    # (about 2 s). The stamp goes before a build and comes back after success;
    # a build given Sphinx options of its own (-E, -a...) always runs.
    stamp = BUILD / f"{name}.inputs"
    extra = [session.virtualenv.location if session.virtualenv else "", installed]
    if (
        not sphinx_args
        and stamp.is_file()
        and stamp.read_text() == build_inputs_digest(ROOT, command, *extra)
    ):
        session.log(f"Nothing changed since the last build: {outdir / 'index.html'}")
        return
    stamp.unlink(missing_ok=True)
    session.run(*command)
    stamp.write_text(build_inputs_digest(ROOT, command, *extra))
    session.log(f"Built the site: open {(outdir / 'index.html').as_uri()}")


@nox.session(python=PYTHON, default=True)
def tests(session: nox.Session) -> None:
    """Run every check: unit tests, doctests, each page, a strict docs build."""
    install(session, "test")
    session.run("pytest", *session.posargs)


@nox.session(python=PYTHON, default=True)
def lint(session: nox.Session) -> None:
    """Check style and formatting with ruff, types with mypy, spelling with codespell."""
    install(session, "lint")
    session.run("ruff", "check", *session.posargs)
    session.run("ruff", "format", "--check", *session.posargs)
    session.run("mypy")
    # Spelling, in everything a reader or a maintainer reads ([tool.codespell]).
    session.run("codespell", *SPELLED)


@nox.session(python=PYTHON, default=False)
def stress(session: nox.Session) -> None:
    """Run the pages with timing checks quietly, then 3 times beside 2 CPU-bound processes."""
    from stress import PageFailed, margins_table, run_pages, timed_pages

    parser = argparse.ArgumentParser(prog="nox -s stress --")
    parser.add_argument("--rounds", type=int, default=3, help="runs under load")
    parser.add_argument("--quiet-rounds", type=int, default=1, help="runs before")
    parser.add_argument(
        "pages", nargs="*", type=Path, help="pages to run (default: every timed page)"
    )
    args = parser.parse_args(session.posargs)
    install(session, "docs")
    pages = [page.resolve() for page in args.pages] or timed_pages(ROOT / "gallery")
    if not pages:
        session.error("no page calls check_timing")
    session.log(
        f"{len(pages)} pages with timing checks: {', '.join(p.name for p in pages)}"
    )
    python = Path(session.virtualenv.location, "bin", "python")
    try:
        runs = run_pages(
            python,
            pages,
            rounds=args.rounds,
            quiet_rounds=args.quiet_rounds,
            log=session.log,
        )
    except PageFailed as failed:
        session.error(str(failed))
    lines, thin = margins_table(runs)
    session.log(
        "Each timing check: its bound, then every measurement, quiet and under load"
    )
    for line in lines:
        print(line)
    for line in thin:
        session.warn(f"thin margin: {line}")
    session.log(f"{len(runs)} runs of {len(pages)} pages passed")


#: The categories every page must score at least LIGHTHOUSE_MINIMUM in; best
#: practices and SEO are reported. (SEO marks down the search page, which
#: asks search engines not to index it.)
LIGHTHOUSE_REQUIRED = ("performance", "accessibility")
LIGHTHOUSE_MINIMUM = 95
#: How often a page that scores below the minimum is scored again, the median
#: of its runs counting: Lighthouse times the browser's work on this machine,
#: so a busy machine costs points.
LIGHTHOUSE_RETRIES = 2


def _lighthouse_scores(
    session: nox.Session, tools: Path, chromium: str, url: str, report: Path
) -> tuple[dict[str, int], float]:
    """One mobile Lighthouse run: the four category scores, and KiB transferred."""
    from build_facts import CHROMIUM_FLAGS

    session.run(
        str(tools / "node_modules/.bin/lighthouse"),
        url,
        "--quiet",
        "--form-factor=mobile",
        f"--chrome-flags={' '.join(CHROMIUM_FLAGS)}",
        "--only-categories=performance,accessibility,best-practices,seo",
        "--output=json",
        f"--output-path={report}",
        env={"CHROME_PATH": chromium},
        external=True,
        silent=True,
    )
    result = json.loads(report.read_text())
    # The site loads nothing from other hosts; should a page ever do, a machine
    # without the network scores it without those files, which may flatter it.
    unreachable = sorted(
        {
            item["sourceLocation"]["url"]
            for item in result["audits"]["errors-in-console"]
            .get("details", {})
            .get("items", [])
            if item.get("source") == "network" and "sourceLocation" in item
        }
    )
    if unreachable:
        session.warn(f"{url} scored without {', '.join(unreachable)}: not reachable")
    scores = {k: round(v["score"] * 100) for k, v in result["categories"].items()}
    return scores, result["audits"]["total-byte-weight"]["numericValue"] / 1024


@nox.session(python=False, default=False)
def lighthouse(session: nox.Session) -> None:
    """Score every built page with mobile Lighthouse; fails below 95 in performance or accessibility."""
    parser = argparse.ArgumentParser(prog="nox -s lighthouse --")
    parser.add_argument(
        "--site",
        type=Path,
        default=BUILD / "html",
        help="the built site to score (default: docs/_build/html)",
    )
    parser.add_argument(
        "pages",
        nargs="*",
        help="pages to score, relative to the site (default: every HTML page)",
    )
    args = parser.parse_args(session.posargs)
    html = args.site.resolve()
    if not (html / "index.html").is_file():
        session.error(f"no built site in {html}: run nox -s docs first")
    tools = ROOT / ".nox" / "lighthouse-npm"
    if not (tools / "node_modules" / ".bin" / "lighthouse").is_file():
        session.run(
            "npm",
            "install",
            "--prefix",
            str(tools),
            "--no-save",
            "lighthouse@13.5.0",
            "http-server@14.1.1",
            external=True,
        )
    chromium = shutil.which("chromium") or session.error("apt-get install chromium")
    # Folders starting with "_" hold static files and downloads, not pages.
    pages = args.pages or sorted(
        page.relative_to(html).as_posix()
        for page in html.rglob("*.html")
        if not any(part.startswith("_") for part in page.relative_to(html).parts)
    )
    port = 8777
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        # Served gzip-compressed, as any real host serves text.
        site = Path(folder) / "site"
        shutil.copytree(html, site)
        for path in site.rglob("*"):
            if path.suffix in {".html", ".css", ".js", ".svg", ".json", ".xml"}:
                path.with_name(path.name + ".gz").write_bytes(
                    gzip.compress(path.read_bytes(), 9)
                )
        server = subprocess.Popen(
            [
                str(tools / "node_modules/.bin/http-server"),
                str(site),
                "-g",
                "-s",
                "-p",
                str(port),
                "-a",
                "127.0.0.1",
                "-c3600",
            ]
        )
        time.sleep(1)
        try:
            for number, page in enumerate(pages, 1):
                url = f"http://127.0.0.1:{port}/{page}"
                report = Path(folder) / "report.json"
                runs = [_lighthouse_scores(session, tools, chromium, url, report)]
                if any(runs[0][0][k] < LIGHTHOUSE_MINIMUM for k in LIGHTHOUSE_REQUIRED):
                    runs += [
                        _lighthouse_scores(session, tools, chromium, url, report)
                        for _ in range(LIGHTHOUSE_RETRIES)
                    ]
                scores = {
                    k: sorted(run[0][k] for run in runs)[len(runs) // 2]
                    for k in runs[0][0]
                }
                rows.append((page, scores, runs[0][1]))
                session.log(
                    f"[{number}/{len(pages)}] {page}: "
                    + ", ".join(f"{k} {v}" for k, v in scores.items())
                    + (f" (median of {len(runs)} runs)" if len(runs) > 1 else "")
                )
        finally:
            server.terminate()
    width = max(len(page) for page, *_ in rows)
    session.log(f"{'page':<{width}}  perf  a11y  b.p.   seo    KiB")
    for page, scores, weight in rows:
        session.log(
            f"{page:<{width}}  {scores['performance']:4}  "
            f"{scores['accessibility']:4}  {scores['best-practices']:4}  "
            f"{scores['seo']:4}  {weight:5.0f}"
        )
    failures = [
        f"{page} {k} {scores[k]}"
        for page, scores, *_ in rows
        for k in LIGHTHOUSE_REQUIRED
        if scores[k] < LIGHTHOUSE_MINIMUM
    ]
    if failures:
        session.error(f"below {LIGHTHOUSE_MINIMUM}: " + ", ".join(failures))


# The newest Python the readers' session tries; the oldest is requires-python's.
NEWEST_PYTHON = "3.13"


def _interpreter(session: nox.Session, version: str) -> str:
    """A working ``python{version}``: on PATH, else one that pyenv installed."""
    candidates = [shutil.which(f"python{version}")]
    pyenv_root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    candidates += sorted(
        map(str, pyenv_root.glob(f"versions/{version}.*/bin/python{version}")),
        reverse=True,
    )
    for candidate in filter(None, candidates):
        probe = subprocess.run([candidate, "-c", ""], capture_output=True, check=False)
        if probe.returncode == 0:
            return candidate
    session.error(f"no Python {version} on this machine (PATH or pyenv)")


def _run_reader(
    python: Path, label: str, script: Path, env: dict[str, str]
) -> tuple[str, float, str]:
    """Run one page or download in an empty folder: label, seconds, what failed."""
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder, script.name)
        shutil.copyfile(script, copy)
        if copy.suffix == ".ipynb":
            args = [str(python), "-c", RUN_NOTEBOOK, copy.name]
        else:
            args = [str(python), copy.name]
        tic = time.perf_counter()
        try:
            result = subprocess.run(
                args,
                cwd=folder,
                env=env,
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return label, time.perf_counter() - tic, "still running after 600 s"
        failed = result.stderr[-3000:] if result.returncode != 0 else ""
        return label, time.perf_counter() - tic, failed


REPORT_VERSIONS = """
import platform, sys
from importlib.metadata import version
print(platform.python_version(), *(f"{name}=={version(name)}" for name in sys.argv[1:]))
"""


#: Pages whose lesson is what vector instructions gain. On PyTorch's plainest
#: CPU path (ATEN_CPU_CAPABILITY=default) torch.compile writes scalar code in
#: torch 2.13 and 2.14 (2.4 ignores the variable), which ran 5 times slower
#: than eager here; the page names that condition. They are not run again on
#: the default path.
NEEDS_VECTOR_CODE = {"plot_05_torch_compile.py"}

#: The versions whose pages also run on the default CPU path. That path
#: tests the kernels without vector instructions, and the floor tests the
#: oldest API; running both at once added a quarter to the floor's time
#: (about 4 of 15 minutes here) to test only their pairing.
DEFAULT_PATH_VERSIONS = {"newest"}


@nox.session(python=False, default=False)
@nox.parametrize("versions", ["floor", "newest"])
def readers(session: nox.Session, versions: str) -> None:
    """Run every page and download as a reader would, at the oldest or newest versions."""
    site = BUILD / "html"
    wheels = sorted(site.glob("tutorial_utils-*-py3-none-any.whl"))
    if len(wheels) != 1:
        session.error("build the site first: nox -s docs")
    project = PYPROJECT["project"]
    if versions == "floor":
        (bound,) = SpecifierSet(project["requires-python"])
        python_version, requirements = (
            bound.version,
            [f"{n}=={v}" for n, v in lower_bounds(project["dependencies"]).items()],
        )
        extras = ["ipykernel==6.31.0", "nbclient==0.11.0"]
    else:
        python_version, requirements = NEWEST_PYTHON, []
        extras = ["ipykernel", "nbclient"]
    venv = ROOT / ".nox" / f"readers-{versions}"
    shutil.rmtree(venv, ignore_errors=True)
    session.run(_interpreter(session, python_version), "-m", "venv", str(venv))
    python = venv / "bin" / "python"
    session.run(
        str(python),
        "-m",
        "pip",
        "install",
        "--quiet",
        "--upgrade",
        "--upgrade-strategy",
        "eager",
        *requirements,
        *extras,
        str(wheels[0]),
        external=True,
    )
    # What this run tests; at the floor, pip must have kept to the pins.
    names = [Requirement(r).name for r in project["dependencies"]]
    report = subprocess.run(
        [str(python), "-c", REPORT_VERSIONS, *names],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    session.log(f"Python {report[0]}: {' '.join(report[1:])}")
    installed = dict(pin.split("==") for pin in report[1:])
    missed = [
        f"{pin} (got {installed[Requirement(pin).name]})"
        for pin in requirements
        if not Requirement(pin).specifier.contains(installed[Requirement(pin).name])
    ]
    if missed:
        session.error(f"pip did not install the floor versions: {missed}")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["MPLBACKEND"] = "Agg"
    # A page's own source is not run apart: its .py download is the same code
    # less the check cells, and its notebook runs every check cell where the
    # page has it. Only the default CPU path runs the source, checks included.
    jobs = []
    for script in sorted((ROOT / "gallery").rglob("plot_*.py")):
        if script.name in NEEDS_VECTOR_CODE:
            session.log(
                f"not on the default CPU path: {script.name} (see NEEDS_VECTOR_CODE)"
            )
        elif versions in DEFAULT_PATH_VERSIONS:
            jobs.append(
                (
                    f"{script.name} on the default CPU path",
                    script,
                    {**env, "ATEN_CPU_CAPABILITY": "default"},
                )
            )
        for suffix in (".py", ".ipynb"):
            (download,) = site.glob(f"_downloads/*/{script.stem}{suffix}")
            jobs.append((f"downloaded {download.name}", download, env))
    if versions not in DEFAULT_PATH_VERSIONS:
        session.log("not on the default CPU path: see DEFAULT_PATH_VERSIONS")
    failures = []
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        running = [pool.submit(_run_reader, python, *job) for job in jobs]
        for future in as_completed(running):
            label, seconds, failed = future.result()
            session.log(
                f"{'FAILED' if failed else 'passed'} in {seconds:5.1f} s: {label}"
            )
            if failed:
                failures.append(f"{label}:\n{failed}")
    session.log(f"{len(jobs) - len(failures)} of {len(jobs)} runs passed")
    if failures:
        session.error("\n\n".join(failures))
