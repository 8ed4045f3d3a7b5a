"""Shared test setup: no window ever opens, and no figure outlives its test."""

from __future__ import annotations

import os
from collections.abc import Iterator

import matplotlib
import pytest

os.environ.setdefault("MPLBACKEND", "Agg")
matplotlib.use("Agg")


@pytest.fixture(autouse=True)
def _close_figures() -> Iterator[None]:
    import matplotlib.pyplot as plt

    yield
    plt.close("all")
