"""What the tensor-drawing modules share: argument checks and cells.

Private to the package: :mod:`tutorial_utils.grids`, :mod:`tutorial_utils.moves`
and :mod:`tutorial_utils.views` import from here; pages import from them. It
holds the checks of the arguments those modules have in common, the geometry
of a drawn tensor (:func:`tensor_extent`), the code that draws its cells and
index labels, and the figures of panels that share one cell size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from tutorial_utils.colours import PALETTE

__all__ = [
    "CELL_INCHES",
    "LABEL_COLOUR",
    "LABEL_SPACE",
    "cells_middle",
    "check_fmt",
    "check_tensor",
    "check_titles",
    "draw_cells",
    "finish_axes",
    "fit_panel",
    "format_value",
    "panel_widths",
    "row_of_panels",
    "tensor_extent",
    "tint",
]

_SLICE_GAP = 0.7  # blank cells between the slices of a rank-3 tensor
LABEL_SPACE = 0.6  # room for index labels left of and above the cells
CELL_INCHES = 0.42
LABEL_COLOUR = "#555555"


def check_tensor(tensor: object, limit: int, name: str = "tensor") -> torch.Tensor:
    """A detached CPU copy of a tensor of rank 0 to 3 with at most `limit` elements."""
    if not isinstance(tensor, torch.Tensor):
        raise TypeError(
            f"{name} must be a torch.Tensor; got {type(tensor).__name__}. "
            "Convert it first with torch.as_tensor(...)."
        )
    if tensor.dim() > 3:
        raise ValueError(
            f"{name} has rank {tensor.dim()} (shape {tuple(tensor.shape)}); "
            "tensors of rank 0 to 3 can be drawn. Index or reshape it first."
        )
    if tensor.numel() > limit:
        raise ValueError(
            f"{name} has {tensor.numel()} elements (shape {tuple(tensor.shape)}); "
            f"at most {limit} can be drawn readably. Draw a slice of it."
        )
    return tensor.detach().to("cpu")


def check_fmt(fmt: str | None) -> None:
    if fmt is None:
        return
    try:
        fmt.format(1.5)
    except (IndexError, KeyError, ValueError) as error:
        raise ValueError(
            f"fmt must be a str.format pattern for one number, such as "
            f"'{{:.2f}}'; got {fmt!r} ({error})"
        ) from None


def check_titles(titles: Sequence[str] | None, count: int) -> list[str] | None:
    if titles is None:
        return None
    if isinstance(titles, str) or len(titles) != count:
        got = "a single str" if isinstance(titles, str) else str(len(titles))
        raise ValueError(f"titles must have one entry per tensor ({count}); got {got}")
    return list(titles)


def tensor_extent(shape: Sequence[int]) -> tuple[float, float]:
    """Width and height, in cells, that :func:`draw_tensor` needs for a shape.

    Parameters
    ----------
    shape : sequence of int
        The tensor's shape, of length 0 to 3.

    Returns
    -------
    tuple of float
        Width and height in cell units, index labels included.

    Examples
    --------
    >>> tensor_extent((2, 3))
    (3.6, 2.6)
    >>> tensor_extent(())
    (1.0, 1.0)
    """
    if len(shape) > 3:
        raise ValueError(f"shapes of length 0 to 3 can be drawn; got {tuple(shape)}")
    if len(shape) == 0:
        return (1.0, 1.0)
    if len(shape) == 1:
        return (float(shape[0]), 1.0 + LABEL_SPACE)
    if len(shape) == 2:
        return (shape[1] + LABEL_SPACE, shape[0] + LABEL_SPACE)
    slices, rows, cols = shape
    width = slices * (cols + LABEL_SPACE) + max(slices - 1, 0) * _SLICE_GAP
    return (round(width, 6), rows + LABEL_SPACE + LABEL_SPACE)


def cells_middle(shape: Sequence[int]) -> float:
    """Height, in cells, of the middle of the cells that draw_cells draws."""
    if len(shape) == 0:
        return 0.5
    if len(shape) == 1:
        return LABEL_SPACE + 0.5
    top = LABEL_SPACE * (2 if len(shape) == 3 else 1)
    return top + shape[-2] / 2


def format_value(value: complex | bool, dtype: torch.dtype, fmt: str | None) -> str:
    if dtype == torch.bool:
        return "T" if value else "F"
    if fmt is not None:
        return fmt.format(value)
    if dtype.is_floating_point:
        return f"{value:.2f}"
    return str(value)


def tint(colour: str, amount: float = 0.55) -> tuple[float, float, float]:
    """Mix a colour with white, so black text on it stays readable."""
    from matplotlib.colors import to_rgb

    red, green, blue = to_rgb(colour)
    return (
        red + (1 - red) * amount,
        green + (1 - green) * amount,
        blue + (1 - blue) * amount,
    )


def _draw_grid(
    ax: Axes,
    values: torch.Tensor,
    groups: torch.Tensor,
    x0: float,
    y0: float,
    fmt: str | None,
    dtype: torch.dtype,
    fontsize: float,
) -> None:
    """Draw a rank-2 block of cells with its top-left corner at (x0, y0)."""
    from matplotlib.patches import Rectangle

    rows, cols = values.shape
    for r in range(rows):
        for c in range(cols):
            group = int(groups[r, c])
            ax.add_patch(
                Rectangle(
                    (x0 + c, y0 + r),
                    1,
                    1,
                    facecolor=tint(PALETTE[group % len(PALETTE)]),
                    edgecolor="#333333",
                    linewidth=1.0,
                )
            )
            ax.text(
                x0 + c + 0.5,
                y0 + r + 0.5,
                format_value(values[r, c].item(), dtype, fmt),
                ha="center",
                va="center",
                fontsize=fontsize,
                color="black",
            )


def draw_cells(
    ax: Axes,
    values: torch.Tensor,
    group_ids: torch.Tensor,
    x0: float,
    y0: float,
    fmt: str | None,
    fontsize: float,
) -> None:
    """Draw a checked tensor of rank 0 to 3, with its labels, from (x0, y0)."""
    rank = values.dim()
    label_style: dict[str, Any] = {
        "ha": "center",
        "va": "center",
        "fontsize": fontsize - 1,
    }
    if rank == 0:
        _draw_grid(
            ax,
            values.reshape(1, 1),
            group_ids.reshape(1, 1),
            x0,
            y0,
            fmt,
            values.dtype,
            fontsize,
        )
    elif rank == 1:
        _draw_grid(
            ax,
            values.reshape(1, -1),
            group_ids.reshape(1, -1),
            x0,
            y0 + LABEL_SPACE,
            fmt,
            values.dtype,
            fontsize,
        )
        for c in range(values.shape[0]):
            ax.text(
                x0 + c + 0.5,
                y0 + LABEL_SPACE / 2,
                str(c),
                color=LABEL_COLOUR,
                **label_style,
            )
    else:
        blocks = values.reshape(-1, *values.shape[-2:])
        block_groups = group_ids.reshape(-1, *values.shape[-2:])
        rows, cols = blocks.shape[1:]
        top = y0 + LABEL_SPACE * (2 if rank == 3 else 1)
        for index in range(blocks.shape[0]):
            left = x0 + index * (cols + LABEL_SPACE + _SLICE_GAP) + LABEL_SPACE
            _draw_grid(
                ax,
                blocks[index],
                block_groups[index],
                left,
                top,
                fmt,
                values.dtype,
                fontsize,
            )
            for r in range(rows):
                ax.text(
                    left - LABEL_SPACE / 2,
                    top + r + 0.5,
                    str(r),
                    color=LABEL_COLOUR,
                    **label_style,
                )
            for c in range(cols):
                ax.text(
                    left + c + 0.5,
                    top - LABEL_SPACE / 2,
                    str(c),
                    color=LABEL_COLOUR,
                    **label_style,
                )
            if rank == 3:
                ax.text(
                    left + cols / 2,
                    y0 + LABEL_SPACE / 2,
                    f"[{index}]",
                    color="black",
                    **label_style,
                )


def finish_axes(ax: Axes, width: float, height: float) -> None:
    ax.set_xlim(-0.05, width + 0.05)
    ax.set_ylim(height + 0.05, -0.05)
    ax.set_aspect("equal")
    ax.set_axis_off()


def row_of_panels(
    widths: Sequence[float], tallest: float, title_inches: float = 0.6
) -> tuple[Figure, Any]:
    """A pyplot figure with one axes per width, all at the same cell size."""
    import matplotlib.pyplot as plt

    scale = min(CELL_INCHES, 9.5 / (sum(widths) + 0.6 * len(widths)))
    fig = plt.figure(
        figsize=(
            scale * (sum(widths) + 0.6 * len(widths)),
            scale * tallest + title_inches,
        ),
        layout="constrained",
    )
    # Each panel spans its width plus the 0.1 of margins that fit_panel
    # gives it, so that every panel has the same cell size.
    ratios = [width + 0.1 for width in widths]
    axes = fig.subplots(1, len(widths), width_ratios=ratios, squeeze=False)[0]
    return fig, axes


def fit_panel(ax: Axes, data_width: float, panel_width: float, height: float) -> None:
    """Centre a drawing in its panel, at the cell size all panels share."""
    spare = (panel_width - data_width) / 2
    ax.set_xlim(-spare - 0.05, data_width + spare + 0.05)
    ax.set_ylim(height + 0.05, -0.05)


def panel_widths(
    extents: Sequence[tuple[float, float]], titles: Sequence[str]
) -> list[float]:
    # A panel is at least as wide as its title (about 0.2 cells a character).
    return [
        max(width, 1.5, 0.2 * len(title) + 0.4)
        for (width, _), title in zip(extents, titles, strict=True)
    ]
