"""Shared test setup: no window opens, no figure outlives its test, one site build."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import matplotlib
import pytest

from sitebuild import copy_sources, sphinx_build

os.environ.setdefault("MPLBACKEND", "Agg")
matplotlib.use("Agg")


@pytest.fixture(autouse=True)
def _close_figures() -> Iterator[None]:
    import matplotlib.pyplot as plt

    yield
    plt.close("all")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--built-site",
        type=Path,
        default=None,
        help="check this already-built HTML folder instead of building the site",
    )


@pytest.fixture(scope="session")
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """The whole site, built strictly from a clean copy of the sources."""
    built = request.config.getoption("--built-site")
    if built is not None:
        return Path(built).resolve()
    docs = copy_sources(tmp_path_factory.mktemp("site"))
    result = sphinx_build(docs)
    assert result.returncode == 0, f"{result.stdout[-3000:]}\n{result.stderr[-6000:]}"
    assert "WARNING" not in result.stderr, result.stderr[-6000:]
    assert "ERROR" not in result.stderr, result.stderr[-6000:]
    return docs / "_build" / "html"


@pytest.fixture
def cell_sizes() -> Callable[[Any], set[float]]:
    """Measure a drawing: the width on screen, in pixels, of one cell in each panel."""
    import numpy as np

    def measure(fig: Any) -> set[float]:
        fig.canvas.draw()
        return {
            round(float(np.diff(ax.transData.transform([(0, 0), (1, 0)])[:, 0])[0]), 1)
            for ax in fig.axes
        }

    return measure
