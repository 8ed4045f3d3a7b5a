"""The private Sphinx and Sphinx-Gallery names the build uses are listed, and still hold."""

from __future__ import annotations

import re

from private_names import PRIVATE_NAMES, PrivateName, problems

from sitebuild import ROOT

#: Attribute reads of a private name: ``module._name``.
_PRIVATE_USE = re.compile(r"\b(\w+)\.(_[a-z]\w*)")
#: Prefixes that are not Sphinx's or its extensions': the standard library's
#: modules and the build's own objects.
_NOT_THEIRS = {"self", "os", "sys", "threading", "atexit", "node", "app", "env"}
#: A name the build sets on a module of theirs, as its own marker.
_OWN_MARKERS = {"_doctree_links._coalesced"}


def test_every_private_name_still_holds() -> None:
    found = problems()
    assert not found, (
        "an upgrade changed a private name the build relies on; adapt its user "
        "and update docs/_ext/private_names.py:\n" + "\n".join(found)
    )


def test_a_changed_name_is_reported_in_words() -> None:
    gone = PrivateName(
        "sphinx_gallery.gen_rst._no_such", "sphinx-gallery", "0.22.1", "x", "y"
    )
    changed = PrivateName(
        "sphinx_gallery.gen_rst._split_parallel",
        "sphinx-gallery",
        "0.22.1",
        "x",
        "y",
        parameters=("a", "b"),
    )
    gone_text, changed_text = problems((gone, changed))
    assert gone_text.endswith("is gone")
    assert "written against sphinx-gallery 0.22.1" in gone_text
    assert "not ('a', 'b')" in changed_text


def test_every_private_name_used_is_listed() -> None:
    listed = [name.path for name in PRIVATE_NAMES]
    unlisted = []
    for module in sorted((ROOT / "docs" / "_ext").glob("*.py")):
        if module.name == "private_names.py":
            continue
        for owner, name in _PRIVATE_USE.findall(module.read_text()):
            used = f"{owner}.{name}"
            if owner in _NOT_THEIRS or used in _OWN_MARKERS:
                continue
            if not any(used in path for path in listed):
                unlisted.append(f"{module.name}: {used}")
    assert not unlisted, "list these in docs/_ext/private_names.py:\n" + "\n".join(
        unlisted
    )


def test_each_build_extension_is_short_and_says_what_it_changes() -> None:
    for module in sorted((ROOT / "docs" / "_ext").glob("*.py")):
        text = module.read_text()
        lines = text.count("\n")
        assert lines < 400, f"{module.name} has {lines} lines; split it by concern"
        assert text.startswith('"""'), f"{module.name} opens without a docstring"
