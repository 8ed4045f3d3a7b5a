"""Tests of tutorial_utils.grids: tensors drawn as labelled grids of cells."""

from __future__ import annotations

from collections.abc import Callable

import matplotlib.pyplot as plt
import numpy as np
import pytest
import torch
from matplotlib.colors import to_rgb

from tutorial_utils._cells import tensor_extent
from tutorial_utils.colours import PALETTE
from tutorial_utils.grids import MAX_CELLS, draw_tensor, draw_tensors


def texts(ax: plt.Axes) -> list[str]:
    return [text.get_text() for text in ax.texts]


@pytest.mark.parametrize(
    ("tensor", "cells"),
    [
        (torch.tensor(3.0), 1),
        (torch.arange(4), 4),
        (torch.ones(2, 3), 6),
        (torch.zeros(2, 3, 4), 24),
    ],
)
def test_one_cell_per_element(tensor: torch.Tensor, cells: int) -> None:
    ax = draw_tensor(tensor, plt.figure().subplots())
    assert len(ax.patches) == cells


def test_values_are_written_in_cells() -> None:
    ax = draw_tensor(torch.tensor([[1.25, -2.0]]), plt.figure().subplots())
    assert {"1.25", "-2.00"} <= set(texts(ax))
    ax = draw_tensor(torch.tensor([True, False]), plt.figure().subplots())
    assert {"T", "F"} <= set(texts(ax))
    ax = draw_tensor(torch.tensor([0.5]), plt.figure().subplots(), fmt="{:.1f}")
    assert "0.5" in texts(ax)


def test_groups_choose_colours() -> None:
    groups = torch.tensor([0, 0, 1])
    ax = draw_tensor(torch.arange(3), plt.figure().subplots(), groups=groups)
    colours = [patch.get_facecolor()[:3] for patch in ax.patches]
    assert colours[0] == colours[1] != colours[2]
    # Each fill is a lighter tint of its palette colour.
    first = np.array(to_rgb(PALETTE[0]))
    assert np.all(np.array(colours[0]) >= first)


def test_rank_three_is_labelled_by_slice() -> None:
    ax = draw_tensor(torch.zeros(2, 1, 1), plt.figure().subplots())
    assert {"[0]", "[1]"} <= set(texts(ax))


def test_extent_grows_with_shape() -> None:
    assert tensor_extent(()) == (1.0, 1.0)
    narrow, wide = tensor_extent((2, 2)), tensor_extent((2, 5))
    assert wide[0] - narrow[0] == pytest.approx(3)
    assert wide[1] == narrow[1]
    with pytest.raises(ValueError, match="length 0 to 3"):
        tensor_extent((1, 1, 1, 1))


def test_requires_grad_and_other_devices_are_drawn_from_a_cpu_copy() -> None:
    weights = torch.ones(2, requires_grad=True)
    ax = draw_tensor(weights * 2, plt.figure().subplots())
    assert texts(ax)[:2] == ["2.00", "2.00"]


def test_rank_four_is_refused_with_its_shape() -> None:
    with pytest.raises(ValueError, match=r"rank 4 \(shape \(1, 2, 3, 4\)\)"):
        draw_tensor(torch.zeros(1, 2, 3, 4), plt.figure().subplots())


def test_too_many_cells_is_refused() -> None:
    with pytest.raises(ValueError, match=f"at most {MAX_CELLS}"):
        draw_tensor(torch.zeros(MAX_CELLS + 1), plt.figure().subplots())


def test_non_tensor_is_a_type_error() -> None:
    with pytest.raises(TypeError, match=r"must be a torch\.Tensor; got list"):
        draw_tensor([1, 2, 3], plt.figure().subplots())  # type: ignore[arg-type]


def test_bad_groups_and_format() -> None:
    ax = plt.figure().subplots()
    with pytest.raises(ValueError, match=r"groups must have the tensor's shape \(3,\)"):
        draw_tensor(torch.zeros(3), ax, groups=torch.zeros(2, dtype=torch.long))
    with pytest.raises(ValueError, match="groups must hold integers"):
        draw_tensor(torch.zeros(3), ax, groups=torch.zeros(3))
    with pytest.raises(ValueError, match=r"fmt must be a str\.format pattern"):
        draw_tensor(torch.zeros(3), ax, fmt="{:q}")


def test_draw_tensors_makes_one_panel_per_tensor() -> None:
    fig = draw_tensors(
        [torch.zeros(2), torch.ones(2, 2), torch.eye(3)], ["a", "b", "c"]
    )
    assert len(fig.axes) == 3
    assert [ax.get_title() for ax in fig.axes] == ["a", "b", "c"]
    # Same cell size in every panel: equal data heights.
    assert len({ax.get_ylim() for ax in fig.axes}) == 1


def test_draw_tensors_checks_its_lists() -> None:
    with pytest.raises(ValueError, match="1 to 8 tensors; got 0"):
        draw_tensors([])
    with pytest.raises(
        ValueError, match=r"titles must have one entry per tensor \(2\); got 1"
    ):
        draw_tensors([torch.zeros(1), torch.zeros(1)], ["only one"])
    with pytest.raises(TypeError, match=r"tensors\[1\] must be a torch.Tensor"):
        draw_tensors([torch.zeros(1), np.zeros(1)])  # type: ignore[list-item]


def test_panels_share_one_cell_size_whatever_their_widths(
    cell_sizes: Callable[[plt.Figure], set[float]],
) -> None:
    six = torch.arange(6)
    assert len(cell_sizes(draw_tensors([torch.tensor(1), six, torch.eye(3)]))) == 1
