"""Draw small tensors as labelled grids of cells.

A rank-0 tensor is one cell, rank 1 a row, rank 2 a grid, and rank 3 a row
of grids, one per index of the first dimension. Each cell shows its value;
its colour says which group it belongs to (which chunk it came from, which
tensor it was copied from), so a page can show data moving between shapes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch
from matplotlib.axes import Axes
from matplotlib.figure import Figure

__all__ = ["MAX_CELLS", "PALETTE", "draw_tensor", "draw_tensors", "tensor_extent"]

#: The Okabe-Ito colours, which stay distinguishable with the common
#: colour-vision deficiencies. Group ``g`` is filled with ``PALETTE[g % 8]``.
PALETTE = (
    "#56B4E9",  # sky blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#F0E442",  # yellow
    "#CC79A7",  # reddish purple
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#999999",  # grey
)

#: The most cells one drawing takes; beyond that the values cannot be read.
MAX_CELLS = 300

_SLICE_GAP = 0.7  # blank cells between the slices of a rank-3 tensor
_LABEL_SPACE = 0.6  # room for index labels left of and above the cells
_CELL_INCHES = 0.42


def _check_tensor(tensor: object, name: str = "tensor") -> torch.Tensor:
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
    if tensor.numel() > MAX_CELLS:
        raise ValueError(
            f"{name} has {tensor.numel()} elements (shape {tuple(tensor.shape)}); "
            f"at most {MAX_CELLS} can be drawn readably. Draw a slice of it."
        )
    return tensor.detach().to("cpu")


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
        return (float(shape[0]), 1.0 + _LABEL_SPACE)
    if len(shape) == 2:
        return (shape[1] + _LABEL_SPACE, shape[0] + _LABEL_SPACE)
    slices, rows, cols = shape
    width = slices * (cols + _LABEL_SPACE) + max(slices - 1, 0) * _SLICE_GAP
    return (round(width, 6), rows + _LABEL_SPACE + _LABEL_SPACE)


def _format_value(value: float | bool, dtype: torch.dtype, fmt: str | None) -> str:
    if dtype == torch.bool:
        return "T" if value else "F"
    if fmt is not None:
        return fmt.format(value)
    if dtype.is_floating_point:
        return f"{value:.2f}"
    return str(value)


def _tint(colour: str, amount: float = 0.55) -> tuple[float, float, float]:
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
                    facecolor=_tint(PALETTE[group % len(PALETTE)]),
                    edgecolor="#333333",
                    linewidth=1.0,
                )
            )
            ax.text(
                x0 + c + 0.5,
                y0 + r + 0.5,
                _format_value(values[r, c].item(), dtype, fmt),
                ha="center",
                va="center",
                fontsize=fontsize,
                color="black",
            )


def draw_tensor(
    tensor: torch.Tensor,
    ax: Axes | None = None,
    *,
    groups: torch.Tensor | None = None,
    title: str | None = None,
    fmt: str | None = None,
    fontsize: float = 9.0,
) -> Axes:
    """Draw a tensor of rank 0 to 3 as a grid of cells with their values.

    Parameters
    ----------
    tensor : torch.Tensor
        At most :data:`MAX_CELLS` elements, on any device; it is copied to
        the CPU and detached for drawing.
    ax : matplotlib.axes.Axes, optional
        Where to draw. By default, the current axes of
        :func:`matplotlib.pyplot.gca`.
    groups : torch.Tensor, optional
        Integers of the same shape as `tensor`: cells with the same group get
        the same colour from :data:`PALETTE`. By default all cells are group 0.
    title : str, optional
        Written above the cells.
    fmt : str, optional
        A :meth:`str.format` pattern for the values, such as ``"{:.1f}"``. By
        default floats get two decimals, integers all digits, booleans T or F.
    fontsize : float, default 9
        Size of the values' text, in points.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on, with equal aspect and no frame.

    Raises
    ------
    TypeError
        If `tensor` or `groups` is not a tensor.
    ValueError
        If `tensor` has rank 4 or more or too many elements, if `groups` has
        another shape, or if `fmt` cannot format a number.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> ax = Figure().subplots()
    >>> ax = draw_tensor(torch.arange(6).reshape(2, 3), ax, title="x")
    >>> len(ax.patches), [text.get_text() for text in ax.texts][:3]
    (6, ['0', '1', '2'])
    >>> draw_tensor(torch.zeros(1, 2, 3, 4), ax)
    Traceback (most recent call last):
    ...
    ValueError: tensor has rank 4 (shape (1, 2, 3, 4)); tensors of rank 0 to 3 ...
    """
    values = _check_tensor(tensor)
    if groups is None:
        group_ids = torch.zeros(values.shape, dtype=torch.long)
    else:
        group_ids = _check_tensor(groups, "groups")
        if group_ids.shape != values.shape:
            raise ValueError(
                f"groups must have the tensor's shape {tuple(values.shape)}; "
                f"got {tuple(group_ids.shape)}"
            )
        if group_ids.is_floating_point() or group_ids.is_complex():
            raise ValueError(f"groups must hold integers; got dtype {group_ids.dtype}")
    if fmt is not None:
        try:
            fmt.format(1.5)
        except (IndexError, KeyError, ValueError) as error:
            raise ValueError(
                f"fmt must be a str.format pattern for one number, such as "
                f"'{{:.2f}}'; got {fmt!r} ({error})"
            ) from None
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.gca()

    rank = values.dim()
    width, height = tensor_extent(tuple(values.shape))
    label_style: dict[str, Any] = {
        "ha": "center",
        "va": "center",
        "fontsize": fontsize - 1,
    }
    label_colour = "#555555"
    if rank == 0:
        _draw_grid(
            ax,
            values.reshape(1, 1),
            group_ids.reshape(1, 1),
            0,
            0,
            fmt,
            values.dtype,
            fontsize,
        )
    elif rank == 1:
        _draw_grid(
            ax,
            values.reshape(1, -1),
            group_ids.reshape(1, -1),
            0,
            _LABEL_SPACE,
            fmt,
            values.dtype,
            fontsize,
        )
        for c in range(values.shape[0]):
            ax.text(
                c + 0.5, _LABEL_SPACE / 2, str(c), color=label_colour, **label_style
            )
    else:
        blocks = values.reshape(-1, *values.shape[-2:])
        block_groups = group_ids.reshape(-1, *values.shape[-2:])
        rows, cols = blocks.shape[1:]
        top = _LABEL_SPACE * (2 if rank == 3 else 1)
        for index in range(blocks.shape[0]):
            x0 = index * (cols + _LABEL_SPACE + _SLICE_GAP) + _LABEL_SPACE
            _draw_grid(
                ax,
                blocks[index],
                block_groups[index],
                x0,
                top,
                fmt,
                values.dtype,
                fontsize,
            )
            for r in range(rows):
                ax.text(
                    x0 - _LABEL_SPACE / 2,
                    top + r + 0.5,
                    str(r),
                    color=label_colour,
                    **label_style,
                )
            for c in range(cols):
                ax.text(
                    x0 + c + 0.5,
                    top - _LABEL_SPACE / 2,
                    str(c),
                    color=label_colour,
                    **label_style,
                )
            if rank == 3:
                ax.text(
                    x0 + cols / 2,
                    _LABEL_SPACE / 2,
                    f"[{index}]",
                    color="black",
                    **label_style,
                )
    ax.set_xlim(-0.05, width + 0.05)
    ax.set_ylim(height + 0.05, -0.05)
    ax.set_aspect("equal")
    ax.set_axis_off()
    if title is not None:
        ax.set_title(title, fontsize=fontsize + 1)
    return ax


def draw_tensors(
    tensors: Sequence[torch.Tensor],
    titles: Sequence[str] | None = None,
    *,
    groups: Sequence[torch.Tensor | None] | None = None,
    fmt: str | None = None,
) -> Figure:
    """Draw several tensors side by side, each at the same cell size.

    Parameters
    ----------
    tensors : sequence of torch.Tensor
        One to eight tensors, each as accepted by :func:`draw_tensor`.
    titles : sequence of str, optional
        One title per tensor.
    groups : sequence of torch.Tensor or None, optional
        One colour-group tensor (or None) per tensor; see :func:`draw_tensor`.
    fmt : str, optional
        The value format for every tensor; see :func:`draw_tensor`.

    Returns
    -------
    matplotlib.figure.Figure
        A new :mod:`matplotlib.pyplot` figure, so that Sphinx-Gallery and
        notebooks show it.

    Raises
    ------
    ValueError
        If `tensors` is empty or longer than eight, or if `titles` or `groups`
        does not have one entry per tensor.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig = draw_tensors([torch.ones(3), torch.eye(2)], ["ones(3)", "eye(2)"])
    >>> len(fig.axes)
    2
    >>> plt.close(fig)
    """
    import matplotlib.pyplot as plt

    tensors = list(tensors)
    if not 1 <= len(tensors) <= len(PALETTE):
        raise ValueError(
            f"draw_tensors takes 1 to {len(PALETTE)} tensors; got {len(tensors)}"
        )
    for name, entries in (("titles", titles), ("groups", groups)):
        if entries is not None and len(entries) != len(tensors):
            raise ValueError(
                f"{name} must have one entry per tensor ({len(tensors)}); "
                f"got {len(entries)}"
            )
    checked = [_check_tensor(t, f"tensors[{i}]") for i, t in enumerate(tensors)]
    extents = [tensor_extent(tuple(t.shape)) for t in checked]
    # A panel is at least as wide as its title (about 0.2 cells a character).
    title_widths = [0.2 * len(title) + 0.4 for title in titles or [""] * len(checked)]
    widths = [
        max(width, 1.5, title_width)
        for (width, _), title_width in zip(extents, title_widths, strict=True)
    ]
    tallest = max(height for _, height in extents)
    scale = min(_CELL_INCHES, 9.5 / (sum(widths) + 0.6 * len(widths)))
    fig = plt.figure(
        figsize=(scale * (sum(widths) + 0.6 * len(widths)), scale * tallest + 0.6),
        layout="constrained",
    )
    axes = fig.subplots(1, len(checked), width_ratios=widths, squeeze=False)[0]
    for i, (ax, values) in enumerate(zip(axes, checked, strict=True)):
        draw_tensor(
            values,
            ax,
            groups=None if groups is None else groups[i],
            title=None if titles is None else titles[i],
            fmt=fmt,
        )
        # Every panel spans the same height, so cells have the same size.
        ax.set_ylim(tallest + 0.05, -0.05)
    return fig
