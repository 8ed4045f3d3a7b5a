"""Draw small tensors as labelled grids of cells.

A tensor of :term:`rank` 0 is one cell, rank 1 a row, rank 2 a grid, and
rank 3 a row of grids, one per index of the first dimension. Each cell shows
its value; its colour, from :data:`~tutorial_utils.colours.PALETTE`, says which
group it belongs to (which chunk it came from, which tensor it was copied
from). :func:`draw_tensor` draws one tensor on a given axes, and
:func:`draw_tensors` draws several side by side, at one cell size, in a new
figure.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from tutorial_utils._cells import (
    check_fmt,
    check_tensor,
    draw_cells,
    finish_axes,
    fit_panel,
    panel_widths,
    row_of_panels,
    tensor_extent,
)
from tutorial_utils.colours import PALETTE

__all__ = ["MAX_CELLS", "draw_tensor", "draw_tensors"]

#: The most elements a tensor may have to be drawn; beyond that the values
#: cannot be read.
MAX_CELLS = 300


def _check_groups(groups: object, values: torch.Tensor) -> torch.Tensor:
    if groups is None:
        return torch.zeros(values.shape, dtype=torch.long)
    group_ids = check_tensor(groups, MAX_CELLS, "groups")
    if group_ids.shape != values.shape:
        raise ValueError(
            f"groups must have the tensor's shape {tuple(values.shape)}; "
            f"got {tuple(group_ids.shape)}"
        )
    if group_ids.is_floating_point() or group_ids.is_complex():
        raise ValueError(f"groups must hold integers; got dtype {group_ids.dtype}")
    return group_ids


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
        the same colour from :data:`~tutorial_utils.colours.PALETTE`. By
        default all cells are group 0.
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
    values = check_tensor(tensor, MAX_CELLS)
    group_ids = _check_groups(groups, values)
    check_fmt(fmt)
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.gca()

    draw_cells(ax, values, group_ids, 0.0, 0.0, fmt, fontsize)
    finish_axes(ax, *tensor_extent(tuple(values.shape)))
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
    checked = [
        check_tensor(t, MAX_CELLS, f"tensors[{i}]") for i, t in enumerate(tensors)
    ]
    extents = [tensor_extent(tuple(t.shape)) for t in checked]
    widths = panel_widths(extents, titles or [""] * len(checked))
    tallest = max(height for _, height in extents)
    fig, axes = row_of_panels(widths, tallest)
    for i, (ax, values) in enumerate(zip(axes, checked, strict=True)):
        draw_tensor(
            values,
            ax,
            groups=None if groups is None else groups[i],
            title=None if titles is None else titles[i],
            fmt=fmt,
        )
        fit_panel(ax, extents[i][0], widths[i], tallest)
    return fig
