from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
import torch
from matplotlib.colors import to_rgb

from tutorial_utils.plotting import (
    MAX_CELLS,
    MAX_STORAGE_CELLS,
    PALETTE,
    draw_join,
    draw_split,
    draw_tensor,
    draw_tensors,
    draw_view,
    draw_views,
    tensor_extent,
)


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


# -- draw_split and draw_join ---------------------------------------------------


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


# -- draw_view and draw_views ---------------------------------------------------


def strip_colours(ax: plt.Axes, size: int) -> list[list[tuple[float, float, float]]]:
    """The fill colours of each storage cell, top stripe first."""
    cells: list[list[tuple[float, float, float]]] = [[] for _ in range(size)]
    for patch in ax.patches:
        x, y = patch.get_xy()  # type: ignore[attr-defined]
        if y < 1.6 and patch.get_width() == 1:  # type: ignore[attr-defined]
            colour = patch.get_facecolor()
            if colour[3] > 0:
                cells[round(x - 2.1)].append(tuple(colour[:3]))
    return cells


def metadata(ax: plt.Axes) -> list[str]:
    return [
        " ".join(t.split())
        for t in texts(ax)
        if t.startswith(("size", "stride", "storage_offset"))
    ]


def test_view_of_a_contiguous_matrix() -> None:
    x = torch.arange(6).reshape(2, 3)
    ax = draw_view(x, plt.figure().subplots(), title="x")
    assert metadata(ax) == ["size (2, 3)", "stride (3, 1)", "storage_offset 0"]
    assert ax.get_title(loc="left") == "x"
    colours = strip_colours(ax, 6)
    assert colours[0] == colours[2] != colours[3] == colours[5]
    # The storage indices are written above the strip.
    above = [t.get_text() for t in ax.texts if t.get_position()[1] < 0.6]
    assert above == [str(i) for i in range(6)]


def test_transpose_swaps_the_strides_and_interleaves_the_rows() -> None:
    x = torch.arange(6).reshape(2, 3)
    ax = draw_view(x.T, plt.figure().subplots())
    assert metadata(ax) == ["size (3, 2)", "stride (1, 3)", "storage_offset 0"]
    colours = strip_colours(ax, 6)
    assert colours[0] == colours[3] != colours[1] == colours[4] != colours[2]


def test_slice_leaves_cells_unread_and_has_an_offset() -> None:
    y = torch.arange(12).reshape(3, 4)[1:, 1:3]
    ax = draw_view(y, plt.figure().subplots())
    assert "storage_offset 5" in metadata(ax)
    colours = strip_colours(ax, 12)
    read = [i for i, c in enumerate(colours) if c != [(1.0, 1.0, 1.0)]]
    assert read == [5, 6, 9, 10]


def test_expanded_cells_are_striped_by_every_row_that_reads_them() -> None:
    e = torch.tensor([1.0, 2.0, 3.0]).expand(2, 3)
    ax = draw_view(e, plt.figure().subplots())
    assert "stride (0, 1)" in metadata(ax)
    colours = strip_colours(ax, 3)
    assert all(len(cell) == 2 and cell[0] != cell[1] for cell in colours)


def test_view_of_a_tensor_that_requires_grad_and_of_rank_zero() -> None:
    w = torch.ones(2, 2, requires_grad=True)
    ax = draw_view(w[0], plt.figure().subplots(), fmt="{:.1f}")
    assert "1.0" in texts(ax)
    ax = draw_view(torch.tensor(True), plt.figure().subplots())
    assert "T" in texts(ax)


def test_draw_views_stacks_panels_at_one_cell_size() -> None:
    x = torch.arange(12).reshape(3, 4)
    fig = draw_views([x, x[:, 1], x.T], ["x", "x[:, 1]", "x.T"])
    assert len(fig.axes) == 3
    assert len({ax.get_xlim() for ax in fig.axes}) == 1


def test_draw_view_refuses_what_it_cannot_draw() -> None:
    ax = plt.figure().subplots()
    with pytest.raises(TypeError, match=r"view must be a torch\.Tensor; got ndarray"):
        draw_view(np.zeros(3), ax)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"rank 4 \(shape \(1, 1, 1, 2\)\)"):
        draw_view(torch.zeros(1, 1, 1, 2), ax)
    with pytest.raises(ValueError, match=f"30 elements .* at most {MAX_STORAGE_CELLS}"):
        draw_view(torch.zeros(5, 6), ax)
    with pytest.raises(ValueError, match=r"storage holds 100 elements of torch\.int64"):
        draw_view(torch.arange(100)[:3], ax)
    with pytest.raises(ValueError, match="empty storage"):
        draw_view(torch.zeros(0), ax)
    with pytest.raises(ValueError, match=r"layout torch\.sparse_coo"):
        draw_view(torch.eye(2).to_sparse(), ax)
    with pytest.raises(ValueError, match="fmt must be"):
        draw_view(torch.zeros(2), ax, fmt="{:q}")
    with pytest.raises(ValueError, match="1 to 4 views; got 5"):
        draw_views([torch.zeros(1)] * 5)
    with pytest.raises(
        ValueError, match=r"titles must have one entry per tensor \(1\)"
    ):
        draw_views([torch.zeros(1)], "x")
    with pytest.raises(
        TypeError, match=r"views\[1\] must be a torch\.Tensor; got list"
    ):
        draw_views([torch.zeros(1), [1]])  # type: ignore[list-item]


def cell_sizes(fig: plt.Figure) -> set[float]:
    """Width on screen, in pixels, of one cell in each panel."""
    fig.canvas.draw()
    return {
        round(float(np.diff(ax.transData.transform([(0, 0), (1, 0)])[:, 0])[0]), 1)
        for ax in fig.axes
    }


def test_panels_share_one_cell_size_whatever_their_widths() -> None:
    six = torch.arange(6)
    assert len(cell_sizes(draw_tensors([torch.tensor(1), six, torch.eye(3)]))) == 1
    pieces = torch.tensor_split(six, 4)
    assert len(cell_sizes(draw_split(six, pieces, "torch.tensor_split(six, 4)"))) == 1
    x = torch.arange(12).reshape(3, 4)
    fig = draw_views([x, x[0, :2], torch.tensor(1)], ["x", "x[0, :2]", "a scalar"])
    assert len(cell_sizes(fig)) == 1
