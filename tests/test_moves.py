"""Tests of tutorial_utils.moves: splits and joins, coloured by piece."""

from __future__ import annotations

from collections.abc import Callable

import matplotlib.pyplot as plt
import pytest
import torch

from tutorial_utils.moves import draw_join, draw_split


def texts(ax: plt.Axes) -> list[str]:
    return [text.get_text() for text in ax.texts]


def fill_colours(ax: plt.Axes) -> list[tuple[float, float, float]]:
    return [tuple(patch.get_facecolor()[:3]) for patch in ax.patches]


def test_split_colours_each_element_by_its_piece() -> None:
    t = torch.arange(5)
    fig = draw_split(t, torch.chunk(t, 3), "torch.chunk(t, 3)", titles=list("wabc"))
    whole, arrow, *pieces = fig.axes
    assert [ax.get_title() for ax in (whole, *pieces)] == list("wabc")
    assert "torch.chunk(t, 3)" in texts(arrow)
    colours = fill_colours(whole)
    assert colours[0] == colours[1] != colours[2] == colours[3] != colours[4]
    assert [fill_colours(piece)[0] for piece in pieces] == [
        colours[0],
        colours[2],
        colours[4],
    ]


def test_unbind_is_a_stacked_split() -> None:
    m = torch.arange(6).reshape(2, 3)
    fig = draw_split(m, m.unbind(1), "m.unbind(1)", dim=1, stacked=True)
    colours = fill_colours(fig.axes[0])
    # Row-major cells: the columns of m are the three pieces.
    assert colours[0] == colours[3] != colours[1] == colours[4]


def test_join_colours_the_result_by_origin() -> None:
    a, b = torch.ones(3), torch.zeros(2)
    fig = draw_join([a, b], torch.cat([a, b]), "torch.cat([a, b])")
    first, second, _arrow, result = fig.axes
    colours = fill_colours(result)
    assert colours[:3] == fill_colours(first)
    assert colours[3:] == fill_colours(second)
    s = torch.stack([a, a], dim=1)
    fig = draw_join([a, a], s, "stack", dim=1, stacked=True)
    colours = fill_colours(fig.axes[-1])
    assert colours[0] == colours[2] != colours[1]


def test_split_and_join_refuse_pieces_that_do_not_fit() -> None:
    t = torch.arange(6)
    with pytest.raises(ValueError, match=r"has shape \(4,\) and must equal whole"):
        draw_split(t, torch.chunk(t, 3)[:2], "two of three")
    with pytest.raises(ValueError, match="must equal whole"):
        draw_split(t, torch.chunk(t, 3)[::-1], "out of order")
    with pytest.raises(ValueError, match=r"torch\.stack\(parts, dim=0\) fails"):
        draw_join([torch.ones(2), torch.ones(3)], torch.ones(5), "x", stacked=True)
    with pytest.raises(ValueError, match="pieces must hold 1 to 7 tensors; got 0"):
        draw_split(t, [], "nothing")
    with pytest.raises(TypeError, match=r"pieces\[1\] must be a torch\.Tensor"):
        draw_split(t, [t[:3], [3, 4, 5]], "list")  # type: ignore[list-item]
    with pytest.raises(TypeError, match="dim must be an int; got float"):
        draw_split(t, [t], "x", dim=0.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="label must be a str; got int"):
        draw_split(t, [t], 3)  # type: ignore[arg-type]
    with pytest.raises(
        ValueError, match=r"titles must have one entry per tensor \(2\)"
    ):
        draw_split(t, [t], "x", titles=["only one"])
    with pytest.raises(ValueError, match="rank 4"):
        draw_split(torch.zeros(1, 1, 1, 2), [torch.zeros(1, 1, 1, 2)], "x")


def test_panels_share_one_cell_size_whatever_their_widths(
    cell_sizes: Callable[[plt.Figure], set[float]],
) -> None:
    six = torch.arange(6)
    pieces = torch.tensor_split(six, 4)
    assert len(cell_sizes(draw_split(six, pieces, "torch.tensor_split(six, 4)"))) == 1
