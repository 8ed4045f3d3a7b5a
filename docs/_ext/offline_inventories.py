"""Intersphinx inventories that need no network, made from installed packages.

The build machines have no network, so the real ``objects.inv`` files of
PyTorch, NumPy, Matplotlib and Python cannot be downloaded. This extension
writes stand-ins at configuration time: it walks the installed packages and
records, for each public name, the URL where the project documents it, by the
naming rules those sites follow. Links in the built pages then point to the
real documentation.

With ``DOCS_ONLINE_INVENTORIES=1`` (set on the hosting services), the real
inventories are tried first and these stand-ins are only the fallback.
"""

from __future__ import annotations

import builtins
import hashlib
import importlib
import importlib.metadata
import inspect
import os
import sys
import warnings
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.config import Config

Entry = tuple[str, str, str]  # (name, "domain:type", uri)

SITES = {
    "python": "https://docs.python.org/3/",
    "torch": "https://docs.pytorch.org/docs/stable/",
    "numpy": "https://numpy.org/doc/stable/",
    "matplotlib": "https://matplotlib.org/stable/",
}


def _public(obj: object) -> Iterator[tuple[str, object]]:
    for name in sorted(dir(obj)):
        if name.startswith("_"):
            continue
        try:
            yield name, getattr(obj, name)
        except Exception:  # noqa: BLE001, S112 - some attributes raise on access
            continue


def _kind(value: object, owner_is_class: bool = False) -> str | None:
    if inspect.ismodule(value):
        return None
    if inspect.isclass(value):
        return "py:exception" if issubclass(value, BaseException) else "py:class"
    if callable(value):
        return "py:method" if owner_is_class else "py:function"
    return "py:attribute" if owner_is_class else "py:data"


def _members(
    module_name: str, page: Callable[[str], str], with_classes: bool = True
) -> Iterator[Entry]:
    """Every public name of a module, and of its classes when asked."""
    try:
        module = importlib.import_module(module_name)
    except Exception:  # noqa: BLE001 - an optional part missing from this build
        return
    for name, value in _public(module):
        kind = _kind(value)
        if kind is None:
            continue
        full = f"{module_name}.{name}"
        yield full, kind, page(full)
        # Signatures name a class by where it is defined (a private module,
        # often); point that name to the public page too.
        if kind == "py:class" and isinstance(value, type):
            defined = f"{value.__module__}.{value.__qualname__}"
            if defined != full:
                yield defined, kind, page(full)
        if with_classes and kind == "py:class" and isinstance(value, type):
            for member, member_value in _public(value):
                member_kind = _kind(member_value, owner_is_class=True)
                if member_kind is not None:
                    yield f"{full}.{member}", member_kind, page(f"{full}.{member}")


def _module(name: str, uri: str) -> Entry:
    return name, "py:module", uri


def torch_entries() -> Iterator[Entry]:
    def generated(name: str) -> str:
        return f"generated/{name}.html#{name}"

    def on_page(page: str) -> Callable[[str], str]:
        return lambda name: f"{page}#{name}"

    # Names documented on a page of their own come first: the first entry
    # for a name wins, and the namespace walk below would guess them wrong.
    import torch

    yield "torch.Tensor", "py:class", "tensors.html#torch.Tensor"
    for member, value in _public(torch.Tensor):
        kind = _kind(value, owner_is_class=True)
        if kind is not None:
            yield f"torch.Tensor.{member}", kind, generated(f"torch.Tensor.{member}")
    for name in ("dtype", "device", "layout", "memory_format"):
        yield f"torch.{name}", "py:class", f"tensor_attributes.html#torch.{name}"
    yield "torch.Size", "py:class", "size.html#torch.Size"
    yield "torch.finfo", "py:class", "type_info.html#torch.finfo"
    yield "torch.iinfo", "py:class", "type_info.html#torch.iinfo"
    for name in ("UntypedStorage", "TypedStorage"):
        yield f"torch.{name}", "py:class", f"storage.html#torch.{name}"
    yield (
        "torch.autograd.gradcheck.gradcheck",
        "py:function",
        generated("torch.autograd.gradcheck.gradcheck"),
    )

    modules = {
        "torch": "torch.html",
        "torch.nn": "nn.html",
        "torch.nn.functional": "nn.functional.html",
        "torch.nn.init": "nn.init.html",
        "torch.linalg": "linalg.html",
        "torch.autograd": "autograd.html",
        "torch.optim": "optim.html",
        "torch.optim.lr_scheduler": "optim.html",
        "torch.cuda": "cuda.html",
        "torch.mps": "mps.html",
        "torch.accelerator": "accelerator.html",
        "torch.backends": "backends.html",
        "torch.fft": "fft.html",
        "torch.special": "special.html",
        "torch.random": "random.html",
        "torch.testing": "testing.html",
        "torch.utils.data": "data.html",
        "torch.utils.benchmark": "benchmark_utils.html",
        "torch.distributed": "distributed.html",
        "torch.multiprocessing": "multiprocessing.html",
        "torch.serialization": "notes/serialization.html",
        "torch.profiler": "profiler.html",
        "torch.amp": "amp.html",
        "torch.compiler": "torch.compiler.html",
    }
    for name, page in modules.items():
        yield _module(name, f"{page}#module-{name}")
    # Namespaces whose members each get a generated page.
    for name in (
        "torch",
        "torch.nn",
        "torch.nn.functional",
        "torch.linalg",
        "torch.autograd",
        "torch.optim",
        "torch.cuda",
        "torch.mps",
        "torch.accelerator",
        "torch.fft",
        "torch.nn.utils",
        "torch.nn.utils.rnn",
        "torch.nn.parallel",
        "torch.optim.lr_scheduler",
    ):
        yield from _members(name, generated, with_classes=name != "torch")
    # Namespaces documented on one page each.
    for name, page in (
        ("torch.utils.data", "data.html"),
        ("torch.utils.data.distributed", "data.html"),
        ("torch.utils.benchmark", "benchmark_utils.html"),
        ("torch.distributed", "distributed.html"),
        ("torch.multiprocessing", "multiprocessing.html"),
        ("torch.testing", "testing.html"),
        ("torch.special", "special.html"),
        ("torch.random", "random.html"),
        ("torch.nn.init", "nn.init.html"),
        ("torch.backends.mps", "backends.html"),
        ("torch.backends.cuda", "backends.html"),
        ("torch.backends.cudnn", "backends.html"),
        ("torch.backends.cpu", "backends.html"),
        ("torch.serialization", "notes/serialization.html"),
        ("torch.profiler", "profiler.html"),
        ("torch.amp", "amp.html"),
    ):
        yield from _members(name, on_page(page))


def numpy_entries() -> Iterator[Entry]:
    def generated(name: str) -> str:
        return f"reference/generated/{name}.html#{name}"

    yield _module("numpy", "reference/index.html#module-numpy")
    yield _module("numpy.linalg", "reference/routines.linalg.html#module-numpy.linalg")
    yield _module("numpy.random", "reference/random/index.html#module-numpy.random")
    import numpy

    for name, value in _public(numpy):
        kind = _kind(value)
        if kind is None:
            continue
        full = f"numpy.{name}"
        if isinstance(value, type) and issubclass(value, numpy.generic):
            yield full, "py:class", f"reference/arrays.scalars.html#{full}"
        else:
            yield full, kind, generated(full)
    for member, value in _public(numpy.ndarray):
        kind = _kind(value, owner_is_class=True)
        if kind is not None:
            yield f"numpy.ndarray.{member}", kind, generated(f"numpy.ndarray.{member}")
    yield from _members("numpy.linalg", generated, with_classes=False)
    yield from _members(
        "numpy.random",
        lambda name: f"reference/random/generated/{name}.html#{name}",
        with_classes=False,
    )


def matplotlib_entries() -> Iterator[Entry]:
    def generated(name: str) -> str:
        return f"api/_as_gen/{name}.html#{name}"

    yield _module(
        "matplotlib", "api/matplotlib_configuration_api.html#module-matplotlib"
    )
    yield _module(
        "matplotlib.pyplot", "api/pyplot_summary.html#module-matplotlib.pyplot"
    )
    yield from _members("matplotlib.pyplot", generated, with_classes=False)
    from matplotlib.axes import Axes

    for name in ("matplotlib.axes.Axes", f"{Axes.__module__}.{Axes.__qualname__}"):
        yield name, "py:class", "api/axes_api.html#matplotlib.axes.Axes"

    for member, value in _public(Axes):
        kind = _kind(value, owner_is_class=True)
        if kind is not None:
            yield (
                f"matplotlib.axes.Axes.{member}",
                kind,
                generated(f"matplotlib.axes.Axes.{member}"),
            )
    for module in ("matplotlib.figure", "matplotlib.patches", "matplotlib.colors"):
        yield _module(module, f"api/{module.split('.')[1]}_api.html#module-{module}")
        yield from _members(module, generated)


# The standard-library modules pages and helpers are likely to mention.
STDLIB = (
    "argparse",
    "collections",
    "collections.abc",
    "contextlib",
    "copy",
    "dataclasses",
    "functools",
    "importlib",
    "importlib.metadata",
    "inspect",
    "io",
    "itertools",
    "json",
    "math",
    "multiprocessing",
    "os",
    "os.path",
    "pathlib",
    "pickle",
    "platform",
    "random",
    "shutil",
    "socket",
    "statistics",
    "subprocess",
    "sys",
    "tempfile",
    "textwrap",
    "time",
    "timeit",
    "types",
    "typing",
    "warnings",
    "zipfile",
)
GLOSSARY = (
    "callable",
    "sequence",
    "iterable",
    "iterator",
    "mapping",
    "path-like object",
    "context manager",
    "generator",
    "decorator",
    "bytes-like object",
    "hashable",
    "immutable",
    "mutable",
)


def python_entries() -> Iterator[Entry]:
    for name, value in _public(builtins):
        if inspect.isclass(value) and issubclass(value, BaseException):
            yield name, "py:exception", f"library/exceptions.html#{name}"
        elif inspect.isclass(value):
            yield name, "py:class", f"library/functions.html#{name}"
        elif callable(value):
            yield name, "py:function", f"library/functions.html#{name}"
    for name in ("None", "True", "False", "Ellipsis", "NotImplemented"):
        yield name, "py:data", f"library/constants.html#{name}"
    for type_name in ("str", "int", "float", "list", "tuple", "dict", "set", "bytes"):
        for member, value in _public(getattr(builtins, type_name)):
            kind = _kind(value, owner_is_class=True)
            if kind is not None:
                yield (
                    f"{type_name}.{member}",
                    kind,
                    f"library/stdtypes.html#{type_name}.{member}",
                )
    for module in STDLIB:
        page = f"library/{module}.html"
        yield _module(module, f"{page}#module-{module}")
        yield from _members(module, lambda name, page=page: f"{page}#{name}")
    for term in GLOSSARY:
        yield term, "std:term", f"glossary.html#term-{term.replace(' ', '-')}"


def write_inventory(
    path: Path, project: str, version: str, entries: Iterable[Entry]
) -> None:
    """Write a Sphinx version-2 inventory, unless the same one is there."""
    seen: dict[tuple[str, str], str] = {}
    for name, kind, uri in entries:
        seen.setdefault((name, kind), uri)
    lines = [f"{name} {kind} 1 {uri} -" for (name, kind), uri in sorted(seen.items())]
    header = (
        "# Sphinx inventory version 2\n"
        f"# Project: {project}\n# Version: {version}\n"
        "# The remainder of this file is compressed using zlib.\n"
    ).encode()
    data = header + zlib.compress("\n".join(lines).encode() + b"\n", 9)
    if not path.is_file() or path.read_bytes() != data:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def _version(distribution: str) -> str:
    # From the installed metadata: importing torch here would cost a second
    # on every build, even when the inventories are current.
    return importlib.metadata.version(distribution)


def _is_current(path: Path, version: str) -> bool:
    if not path.is_file():
        return False
    with path.open("rb") as inventory:
        header = [inventory.readline() for _ in range(3)]
    return header[2].decode(errors="replace").strip() == f"# Version: {version}"


def make_inventories(app: Sphinx, config: Config) -> None:
    folder = Path(app.outdir).parent / "inventories"
    # Walking torch takes seconds: an inventory is rewritten only when the
    # package's version or these naming rules change.
    rules = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:12]
    makers = {
        "python": (python_entries, sys.version.split()[0]),
        "torch": (torch_entries, _version("torch")),
        "numpy": (numpy_entries, _version("numpy")),
        "matplotlib": (matplotlib_entries, _version("matplotlib")),
    }
    online = os.environ.get("DOCS_ONLINE_INVENTORIES", "") not in ("", "0")
    mapping = {}
    for name, (entries, version) in makers.items():
        path = folder / f"{name}.inv"
        version = f"{version} (rules {rules})"
        if not _is_current(path, version):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # deprecated names warn on access
                write_inventory(path, name, version, entries())
        locations = (None, str(path)) if online else (str(path),)
        mapping[name] = (SITES[name], locations)
    config.intersphinx_mapping = mapping


def setup(app: Sphinx) -> dict[str, object]:
    # Before sphinx.ext.intersphinx checks the mapping (priority 800).
    app.connect("config-inited", make_inventories, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
