"""Tests of tutorial_utils.views: tensors drawn as windows onto their storage."""

from __future__ import annotations

from collections.abc import Callable

import matplotlib.pyplot as plt
import numpy as np
import pytest
import torch

from tutorial_utils.views import MAX_STORAGE_CELLS, draw_view, draw_views


def texts(ax: plt.Axes) -> list[str]:
    return [text.get_text() for text in ax.texts]


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


def test_panels_share_one_cell_size_whatever_their_widths(
    cell_sizes: Callable[[plt.Figure], set[float]],
) -> None:
    x = torch.arange(12).reshape(3, 4)
    fig = draw_views([x, x[0, :2], torch.tensor(1)], ["x", "x[0, :2]", "a scalar"])
    assert len(cell_sizes(fig)) == 1
