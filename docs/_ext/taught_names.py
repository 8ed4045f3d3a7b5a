"""Find the names a page's code uses before any prose has introduced them.

A reader new to PyTorch meets each name twice: once in the prose, which says
what it does, and then in the code. This module walks the reading path (each
section's core lessons in order, then its in-depth pages, then its exercises)
and lists every name the visible code of a page uses before the prose of that
page, or of a page before it on the path, has named it.

A name counts as introduced when it appears inside inline code (````x.view````),
a role (``:meth:`torch.Tensor.view```) or a glossary link in prose above the
line that uses it. The names checked are:

- dotted names from an imported module: ``torch.zeros``, ``nn.Linear``,
  ``F.relu``, ``plt.subplots``: the last part must be introduced;
- attributes and methods of other objects, ``x.view`` or ``x.shape``, unless
  the page's own code defines them or Python's built-in types have them
  (:data:`ON_SIGHT` adds a few more that read on sight);
- the site's helpers that the page imports from ``tutorial_utils``, where
  the code first calls or names them.

Code in check cells is exempt: a reader opens it to see the proof. Run
``python docs/_ext/taught_names.py`` to list every such use on the path.
"""

from __future__ import annotations

import ast
import builtins
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from prose_rules import gallery_text_lines

#: Attribute names a Python programmer reads on sight, beyond those of
#: Python's built-in types: keep this short.
ON_SIGHT = frozenset({"sum", "min", "max", "abs", "all", "any", "tolist", "mean"})

#: Attributes of Python's built-in types (``"".join``, ``[].append``...).
BUILTIN_ATTRIBUTES = frozenset(
    name
    for kind in (str, bytes, list, dict, set, tuple, int, float, complex, object)
    for name in dir(kind)
    if not name.startswith("_")
)

#: The sections in reading order, as folders under ``gallery/``.
SECTIONS = ("tensors", "gradients", "training", "performance", "errors")
#: The section that is an atlas to look things up in, not lessons to read.
ATLAS = "errors"

_INTRODUCED = re.compile(r"``(?P<code>[^`]+)``|`(?P<role>[^`]+)`")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


@dataclass(frozen=True)
class Unintroduced:
    """A name a page's code uses before the prose introduced it."""

    page: Path
    line: int
    name: str

    def __str__(self) -> str:
        return f"{self.page.as_posix()}, line {self.line}: {self.name}"


def kind_of(page: Path) -> str:
    """``"core"``, ``"in depth"`` or ``"exercises"``, from the page's number.

    >>> kind_of(Path("plot_03_x.py")), kind_of(Path("plot_52_x.py"))
    ('core', 'in depth')
    >>> kind_of(Path("plot_90_x.py"))
    'exercises'
    """
    number = int(page.name.split("_")[1])
    return "core" if number < 50 else "in depth" if number < 90 else "exercises"


def reading_path(gallery: Path) -> list[Path]:
    """Every page in reading order: per section, core, in depth, exercises."""
    order = ("core", "in depth", "exercises")
    pages: list[Path] = []
    for section in SECTIONS:
        found = sorted((gallery / section).glob("plot_*.py"))
        pages += sorted(found, key=lambda p: (order.index(kind_of(p)), p.name))
    return pages


def introduced_names(text: str) -> set[str]:
    """The identifiers inside inline code, roles and links of prose `text`.

    >>> sorted(introduced_names("Call ``x.view(2, 3)`` or :func:`torch.zeros`."))
    ['torch', 'view', 'x', 'zeros']
    """
    names: set[str] = set()
    for match in _INTRODUCED.finditer(text):
        names.update(_IDENTIFIER.findall(match.group("code") or match.group("role")))
    return names


class _Uses(ast.NodeVisitor):
    """Collect the names a module's code uses, with their lines."""

    def __init__(self, modules: set[str]) -> None:
        self.modules = modules
        self.uses: list[tuple[int, str]] = []
        self.defined: set[str] = set()

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, ast.Store):
            self.defined.add(node.attr)
        root = node.value
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id in self.modules:
            # torch.nn.Linear: one name, its last part; not torch.nn too.
            self.uses.append((node.lineno, ast.unparse(node)))
            return
        if not node.attr.startswith("__"):
            self.uses.append((node.lineno, "." + node.attr))
        self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.defined.add(node.name)
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.defined.add(node.name)
        self.generic_visit(node)


def _imports(tree: ast.Module) -> tuple[set[str], set[str]]:
    """The module names a script binds, and the helpers it imports."""
    modules: set[str] = set()
    helpers: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                modules.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                name = alias.asname or alias.name
                if node.module.startswith("tutorial_utils"):
                    helpers.add(name)
                elif name[0].isupper() or node.module.startswith("torch"):
                    modules.add(name)
    return modules, helpers


def unintroduced(page: Path, known: set[str]) -> Iterator[Unintroduced]:
    """Uses on `page` of names neither `known` nor introduced above them.

    Adds the names the page's prose introduces to `known`.
    """
    from fold_source import CHECK_CELL  # imports Sphinx: only when needed

    source = page.read_text(encoding="utf-8")
    # Check cells blanked, so that line numbers stay the script's own.
    code = CHECK_CELL.sub(lambda cell: "\n" * cell.group().count("\n"), source)
    text_lines = gallery_text_lines(code.split("\n"))
    prose_by_line = {number: line for number, line in text_lines if line}
    tree = ast.parse(code)
    modules, helpers = _imports(tree)
    visitor = _Uses(modules)
    visitor.visit(tree)
    called = [
        (node.lineno, node.id)
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and node.id in helpers
    ]
    uses = sorted(visitor.uses + called)
    uses = [(line, name) for line, name in uses if line not in prose_by_line]
    prose_lines = sorted(prose_by_line)
    taught = set(known)
    read = 0
    seen: set[str] = set()
    for line, name in uses:
        while read < len(prose_lines) and prose_lines[read] < line:
            taught |= introduced_names(prose_by_line[prose_lines[read]])
            read += 1
        last = name.rsplit(".", 1)[-1]
        if name in seen or _reads_on_sight(last, name, visitor.defined, modules):
            continue
        seen.add(name)
        if last not in taught:
            yield Unintroduced(page, line, name.lstrip("."))
    for number in prose_lines[read:]:
        taught |= introduced_names(prose_by_line[number])
    known |= taught


def _reads_on_sight(last: str, name: str, defined: set[str], modules: set[str]) -> bool:
    if name.startswith("."):
        return last in BUILTIN_ATTRIBUTES or last in ON_SIGHT or last in defined
    return name in modules or last in dir(builtins)


def path_unintroduced(
    gallery: Path, pages: Iterable[Path] | None = None
) -> list[Unintroduced]:
    """Walk the reading path; every use of a name not introduced before it.

    The core pages carry what they teach forward to every later page; an
    in-depth or exercise page carries it only within its own section.
    """
    core: set[str] = set()
    found: list[Unintroduced] = []
    section_extra: dict[str, set[str]] = {}
    wanted = None if pages is None else {p.resolve() for p in pages}
    for page in reading_path(gallery):
        section = page.parent.name
        known = core | section_extra.setdefault(section, set())
        before = set(known)
        uses = list(unintroduced(page, known))
        if wanted is None or page.resolve() in wanted:
            found += uses
        if kind_of(page) == "core":
            core |= known - before
        else:
            section_extra[section] |= known - before
    return found


def main(argv: list[str]) -> int:
    """Print every use before introduction on the path; 1 if there is any."""
    gallery = Path(__file__).resolve().parents[2] / "gallery"
    pages = [Path(name) for name in argv] or None
    found = path_unintroduced(gallery, pages)
    for use in found:
        print(use)
    counts: dict[str, int] = {}
    for use in found:
        counts[use.page.as_posix()] = counts.get(use.page.as_posix(), 0) + 1
    for page, count in counts.items():
        print(f"{count:4d}  {page}")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
