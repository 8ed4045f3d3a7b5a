"""Draw small tensors as labelled grids of cells, and views onto their storage.

A tensor of :term:`rank` 0 is one cell, rank 1 a row, rank 2 a grid, and
rank 3 a row of grids, one per index of the first dimension. Each cell shows
its value; its colour says which group it belongs to (which chunk it came
from, which tensor it was copied from), so a page can show data moving
between shapes: :func:`draw_split` and :func:`draw_join` colour the pieces of
a split or a join by where each element goes or comes from.

:func:`draw_views` draws a tensor as a window onto its :term:`storage`: the
storage as one row of cells, the cells the tensor reads coloured by the
index, along the tensor's first dimension, of the elements they feed (the
row, for a matrix), and the tensor's size, :term:`stride` and storage offset
beside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch
from matplotlib.axes import Axes
from matplotlib.figure import Figure

__all__ = [
    "MAX_CELLS",
    "MAX_STORAGE_CELLS",
    "PALETTE",
    "draw_join",
    "draw_split",
    "draw_tensor",
    "draw_tensors",
    "draw_view",
    "draw_views",
    "tensor_extent",
]

#: The Okabe-Ito colours, with grey in place of black, which stay
#: distinguishable with the common colour-vision deficiencies. Group ``g`` is
#: filled with ``PALETTE[g % 8]``, lightened so that black text stays readable.
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

#: The most elements a tensor may have to be drawn; beyond that the values
#: cannot be read.
MAX_CELLS = 300

#: The most storage elements (and view elements) :func:`draw_view` draws:
#: the storage is one row, and a longer row would not fit a page's width.
MAX_STORAGE_CELLS = 24

_SLICE_GAP = 0.7  # blank cells between the slices of a rank-3 tensor
_LABEL_SPACE = 0.6  # room for index labels left of and above the cells
_CELL_INCHES = 0.42
_LABEL_COLOUR = "#555555"
_VIEW_LEFT = 2.1  # room left of a storage strip for the words "storage", "view"
_STRIP_GAP = 0.8  # between the storage strip and the view under it


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


def _check_groups(groups: object, values: torch.Tensor) -> torch.Tensor:
    if groups is None:
        return torch.zeros(values.shape, dtype=torch.long)
    group_ids = _check_tensor(groups, "groups")
    if group_ids.shape != values.shape:
        raise ValueError(
            f"groups must have the tensor's shape {tuple(values.shape)}; "
            f"got {tuple(group_ids.shape)}"
        )
    if group_ids.is_floating_point() or group_ids.is_complex():
        raise ValueError(f"groups must hold integers; got dtype {group_ids.dtype}")
    return group_ids


def _check_fmt(fmt: str | None) -> None:
    if fmt is None:
        return
    try:
        fmt.format(1.5)
    except (IndexError, KeyError, ValueError) as error:
        raise ValueError(
            f"fmt must be a str.format pattern for one number, such as "
            f"'{{:.2f}}'; got {fmt!r} ({error})"
        ) from None


def _check_titles(titles: Sequence[str] | None, count: int) -> list[str] | None:
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
        return (float(shape[0]), 1.0 + _LABEL_SPACE)
    if len(shape) == 2:
        return (shape[1] + _LABEL_SPACE, shape[0] + _LABEL_SPACE)
    slices, rows, cols = shape
    width = slices * (cols + _LABEL_SPACE) + max(slices - 1, 0) * _SLICE_GAP
    return (round(width, 6), rows + _LABEL_SPACE + _LABEL_SPACE)


def _cells_middle(shape: Sequence[int]) -> float:
    """Height, in cells, of the middle of the cells that draw_tensor draws."""
    if len(shape) == 0:
        return 0.5
    if len(shape) == 1:
        return _LABEL_SPACE + 0.5
    top = _LABEL_SPACE * (2 if len(shape) == 3 else 1)
    return top + shape[-2] / 2


def _format_value(value: complex | bool, dtype: torch.dtype, fmt: str | None) -> str:
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


def _draw_cells(
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
            y0 + _LABEL_SPACE,
            fmt,
            values.dtype,
            fontsize,
        )
        for c in range(values.shape[0]):
            ax.text(
                x0 + c + 0.5,
                y0 + _LABEL_SPACE / 2,
                str(c),
                color=_LABEL_COLOUR,
                **label_style,
            )
    else:
        blocks = values.reshape(-1, *values.shape[-2:])
        block_groups = group_ids.reshape(-1, *values.shape[-2:])
        rows, cols = blocks.shape[1:]
        top = y0 + _LABEL_SPACE * (2 if rank == 3 else 1)
        for index in range(blocks.shape[0]):
            left = x0 + index * (cols + _LABEL_SPACE + _SLICE_GAP) + _LABEL_SPACE
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
                    left - _LABEL_SPACE / 2,
                    top + r + 0.5,
                    str(r),
                    color=_LABEL_COLOUR,
                    **label_style,
                )
            for c in range(cols):
                ax.text(
                    left + c + 0.5,
                    top - _LABEL_SPACE / 2,
                    str(c),
                    color=_LABEL_COLOUR,
                    **label_style,
                )
            if rank == 3:
                ax.text(
                    left + cols / 2,
                    y0 + _LABEL_SPACE / 2,
                    f"[{index}]",
                    color="black",
                    **label_style,
                )


def _finish_axes(ax: Axes, width: float, height: float) -> None:
    ax.set_xlim(-0.05, width + 0.05)
    ax.set_ylim(height + 0.05, -0.05)
    ax.set_aspect("equal")
    ax.set_axis_off()


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
    group_ids = _check_groups(groups, values)
    _check_fmt(fmt)
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.gca()

    _draw_cells(ax, values, group_ids, 0.0, 0.0, fmt, fontsize)
    _finish_axes(ax, *tensor_extent(tuple(values.shape)))
    if title is not None:
        ax.set_title(title, fontsize=fontsize + 1)
    return ax


def _row_of_panels(
    widths: Sequence[float], tallest: float, title_inches: float = 0.6
) -> tuple[Figure, Any]:
    """A pyplot figure with one axes per width, all at the same cell size."""
    import matplotlib.pyplot as plt

    scale = min(_CELL_INCHES, 9.5 / (sum(widths) + 0.6 * len(widths)))
    fig = plt.figure(
        figsize=(
            scale * (sum(widths) + 0.6 * len(widths)),
            scale * tallest + title_inches,
        ),
        layout="constrained",
    )
    # Each panel spans its width plus the 0.1 of margins that _fit_panel
    # gives it, so that every panel has the same cell size.
    ratios = [width + 0.1 for width in widths]
    axes = fig.subplots(1, len(widths), width_ratios=ratios, squeeze=False)[0]
    return fig, axes


def _fit_panel(ax: Axes, data_width: float, panel_width: float, height: float) -> None:
    """Centre a drawing in its panel, at the cell size all panels share."""
    spare = (panel_width - data_width) / 2
    ax.set_xlim(-spare - 0.05, data_width + spare + 0.05)
    ax.set_ylim(height + 0.05, -0.05)


def _panel_widths(
    extents: Sequence[tuple[float, float]], titles: Sequence[str]
) -> list[float]:
    # A panel is at least as wide as its title (about 0.2 cells a character).
    return [
        max(width, 1.5, 0.2 * len(title) + 0.4)
        for (width, _), title in zip(extents, titles, strict=True)
    ]


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
    checked = [_check_tensor(t, f"tensors[{i}]") for i, t in enumerate(tensors)]
    extents = [tensor_extent(tuple(t.shape)) for t in checked]
    widths = _panel_widths(extents, titles or [""] * len(checked))
    tallest = max(height for _, height in extents)
    fig, axes = _row_of_panels(widths, tallest)
    for i, (ax, values) in enumerate(zip(axes, checked, strict=True)):
        draw_tensor(
            values,
            ax,
            groups=None if groups is None else groups[i],
            title=None if titles is None else titles[i],
            fmt=fmt,
        )
        _fit_panel(ax, extents[i][0], widths[i], tallest)
    return fig


# -- Blocks moving: split and join ----------------------------------------------


def _origin_groups(
    pieces: Sequence[torch.Tensor], dim: int, stacked: bool
) -> tuple[torch.Tensor, list[torch.Tensor]]:
    """Group ids of the whole and of each piece: piece ``i`` is group ``i``."""
    piece_groups = [
        torch.full(p.shape, i, dtype=torch.long) for i, p in enumerate(pieces)
    ]
    join = torch.stack if stacked else torch.cat
    return join(piece_groups, dim), piece_groups


def _check_pieces(
    whole: torch.Tensor,
    pieces: Sequence[torch.Tensor],
    dim: int,
    stacked: bool,
    role: str,
) -> tuple[torch.Tensor, list[torch.Tensor]]:
    """Check that the pieces put back together (cat or stack) give the whole."""
    if isinstance(dim, bool) or not isinstance(dim, int):
        raise TypeError(f"dim must be an int; got {type(dim).__name__} {dim!r}")
    checked_whole = _check_tensor(whole, "whole")
    pieces = list(pieces)
    if not 1 <= len(pieces) <= len(PALETTE) - 1:
        raise ValueError(
            f"{role} must hold 1 to {len(PALETTE) - 1} tensors; got {len(pieces)}"
        )
    checked = [_check_tensor(p, f"{role}[{i}]") for i, p in enumerate(pieces)]
    how = "torch.stack" if stacked else "torch.cat"
    try:
        rebuilt = (torch.stack if stacked else torch.cat)(checked, dim)
    except (RuntimeError, IndexError) as error:
        raise ValueError(
            f"{how}({role}, dim={dim}) fails, so they are not the pieces of one "
            f"tensor: {error}"
        ) from None
    if rebuilt.shape != checked_whole.shape or not torch.equal(
        rebuilt, checked_whole.to(rebuilt.dtype)
    ):
        raise ValueError(
            f"{how}({role}, dim={dim}) has shape {tuple(rebuilt.shape)} and must "
            f"equal whole, of shape {tuple(checked_whole.shape)}; pass the pieces "
            "in order, with the dim and stacked that made them"
        )
    return checked_whole, checked


def _draw_move(
    left: Sequence[torch.Tensor],
    right: Sequence[torch.Tensor],
    label: str,
    left_groups: Sequence[torch.Tensor],
    right_groups: Sequence[torch.Tensor],
    titles: Sequence[str] | None,
    fmt: str | None,
) -> Figure:
    """One row: the left tensors, an arrow with `label`, the right tensors."""
    from matplotlib.patches import FancyArrowPatch

    if not isinstance(label, str):
        raise TypeError(f"label must be a str; got {type(label).__name__}")
    _check_fmt(fmt)
    tensors = [*left, *right]
    checked_titles = _check_titles(titles, len(tensors))
    extents = [tensor_extent(tuple(t.shape)) for t in tensors]
    widths = _panel_widths(extents, checked_titles or [""] * len(tensors))
    arrow_width = max(2.0, 0.19 * len(label) + 0.6)
    widths.insert(len(left), arrow_width)
    tallest = max(height for _, height in extents)
    fig, axes = _row_of_panels(widths, tallest, 0.2 if titles is None else 0.6)
    panels = [*axes[: len(left)], *axes[len(left) + 1 :]]
    groups = [*left_groups, *right_groups]
    panel_widths = [*widths[: len(left)], *widths[len(left) + 1 :]]
    for i, (ax, values) in enumerate(zip(panels, tensors, strict=True)):
        draw_tensor(
            values,
            ax,
            groups=groups[i],
            title=None if checked_titles is None else checked_titles[i],
            fmt=fmt,
        )
        _fit_panel(ax, extents[i][0], panel_widths[i], tallest)
    arrow_ax = axes[len(left)]
    middle = _cells_middle(tuple(left[0].shape))
    arrow_ax.add_patch(
        FancyArrowPatch(
            (0.2, middle),
            (arrow_width - 0.2, middle),
            arrowstyle="-|>",
            mutation_scale=14,
            linewidth=1.5,
            color="#333333",
        )
    )
    arrow_ax.text(
        arrow_width / 2,
        middle - 0.25,
        label,
        ha="center",
        va="bottom",
        fontsize=9,
        family="monospace",
    )
    _finish_axes(arrow_ax, arrow_width, tallest)
    return fig


def draw_split(
    whole: torch.Tensor,
    pieces: Sequence[torch.Tensor],
    label: str,
    *,
    dim: int = 0,
    stacked: bool = False,
    titles: Sequence[str] | None = None,
    fmt: str | None = None,
) -> Figure:
    """Draw a tensor cut into pieces: each element coloured by its piece.

    The whole tensor is drawn on the left, an arrow labelled `label` in the
    middle, and the pieces on the right; piece ``i`` and the elements of the
    whole that go into it share the colour ``PALETTE[i]``.

    Parameters
    ----------
    whole : torch.Tensor
        The tensor that was split, as accepted by :func:`draw_tensor`.
    pieces : sequence of torch.Tensor
        One to seven pieces, in order, such as the result of
        :func:`torch.chunk`, :func:`torch.split`, :func:`torch.tensor_split`
        or (with ``stacked=True``) :func:`torch.unbind`.
    label : str
        The operation, written above the arrow, such as ``"torch.chunk(t, 3)"``.
    dim : int, default 0
        The dimension the whole was split along.
    stacked : bool, default False
        True when the pieces lost that dimension (:func:`torch.unbind`), so
        that :func:`torch.stack`, not :func:`torch.cat`, puts them back.
    titles : sequence of str, optional
        One title for the whole, then one per piece.
    fmt : str, optional
        The value format; see :func:`draw_tensor`.

    Returns
    -------
    matplotlib.figure.Figure
        A new :mod:`matplotlib.pyplot` figure.

    Raises
    ------
    TypeError
        If a tensor is not a tensor, `dim` is not an int or `label` not a str.
    ValueError
        If the pieces, put back together along `dim`, are not `whole`; if
        there are too many pieces; or as :func:`draw_tensor` raises.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> t = torch.arange(5)
    >>> fig = draw_split(t, torch.chunk(t, 3), "torch.chunk(t, 3)")
    >>> len(fig.axes)  # the whole, the arrow, three pieces
    5
    >>> plt.close(fig)
    >>> draw_split(t, torch.chunk(t, 3)[:2], "only two")
    Traceback (most recent call last):
    ...
    ValueError: torch.cat(pieces, dim=0) has shape (4,) and must equal whole, ...
    """
    checked_whole, checked = _check_pieces(whole, pieces, dim, stacked, "pieces")
    whole_groups, piece_groups = _origin_groups(checked, dim, stacked)
    return _draw_move(
        [checked_whole], checked, label, [whole_groups], piece_groups, titles, fmt
    )


def draw_join(
    parts: Sequence[torch.Tensor],
    whole: torch.Tensor,
    label: str,
    *,
    dim: int = 0,
    stacked: bool = False,
    titles: Sequence[str] | None = None,
    fmt: str | None = None,
) -> Figure:
    """Draw tensors joined into one: each element coloured by its origin.

    The parts are drawn on the left, an arrow labelled `label` in the
    middle, and the joined tensor on the right; part ``i`` and the elements
    of the result copied from it share the colour ``PALETTE[i]``.

    Parameters
    ----------
    parts : sequence of torch.Tensor
        One to seven tensors, in the order they were joined.
    whole : torch.Tensor
        The result of :func:`torch.cat` (or, with ``stacked=True``, of
        :func:`torch.stack`) of `parts` along `dim`.
    label : str
        The operation, written above the arrow.
    dim : int, default 0
        The dimension the parts were joined along.
    stacked : bool, default False
        True for :func:`torch.stack`, which adds `dim` as a new dimension.
    titles : sequence of str, optional
        One title per part, then one for the result.
    fmt : str, optional
        The value format; see :func:`draw_tensor`.

    Returns
    -------
    matplotlib.figure.Figure
        A new :mod:`matplotlib.pyplot` figure.

    Raises
    ------
    TypeError
        If a tensor is not a tensor, `dim` is not an int or `label` not a str.
    ValueError
        If joining `parts` along `dim` does not give `whole`; if there are too
        many parts; or as :func:`draw_tensor` raises.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> a, b = torch.ones(3), torch.zeros(3)
    >>> s = torch.stack([a, b], dim=1)
    >>> fig = draw_join([a, b], s, "torch.stack([a, b], dim=1)", dim=1, stacked=True)
    >>> [ax.get_title() for ax in fig.axes]
    ['', '', '', '']
    >>> plt.close(fig)
    """
    checked_whole, checked = _check_pieces(whole, parts, dim, stacked, "parts")
    whole_groups, part_groups = _origin_groups(checked, dim, stacked)
    return _draw_move(
        checked, [checked_whole], label, part_groups, [whole_groups], titles, fmt
    )


# -- A view as a window onto its storage -----------------------------------------


def _check_view(view: object, name: str = "view") -> torch.Tensor:
    if not isinstance(view, torch.Tensor):
        raise TypeError(
            f"{name} must be a torch.Tensor; got {type(view).__name__}. "
            "Convert it first with torch.as_tensor(...)."
        )
    if view.layout != torch.strided:
        raise ValueError(
            f"{name} has layout {view.layout}; only strided (dense) tensors have "
            "one storage with strides. Convert it with .to_dense() first."
        )
    if view.dim() > 3:
        raise ValueError(
            f"{name} has rank {view.dim()} (shape {tuple(view.shape)}); "
            "views of rank 0 to 3 can be drawn. Index or reshape it first."
        )
    if view.numel() > MAX_STORAGE_CELLS:
        raise ValueError(
            f"{name} has {view.numel()} elements (shape {tuple(view.shape)}); "
            f"at most {MAX_STORAGE_CELLS} can be drawn under their storage. "
            "Draw a smaller example."
        )
    size = view.untyped_storage().nbytes() // view.element_size()
    if size == 0:
        raise ValueError(f"{name} has an empty storage: there is nothing to draw")
    if size > MAX_STORAGE_CELLS:
        raise ValueError(
            f"{name}'s storage holds {size} elements of {view.dtype}; at most "
            f"{MAX_STORAGE_CELLS} fit in one row. Draw a view of a smaller "
            "tensor, or a .clone() of this one, which gets a storage of its own."
        )
    return view.detach()


def _view_layout(view: torch.Tensor) -> tuple[float, float, float]:
    """Width and height of a view's drawing, and the x of its metadata text."""
    storage_size = view.untyped_storage().nbytes() // view.element_size()
    view_width, view_height = tensor_extent(tuple(view.shape))
    shift = _LABEL_SPACE if view.dim() >= 2 else 0.0
    text_x = _VIEW_LEFT - shift + view_width + 0.8
    longest = max(len(line) for line in _view_metadata(view))
    width = max(_VIEW_LEFT + storage_size, text_x + 0.19 * longest)
    height = 1.0 + _LABEL_SPACE + _STRIP_GAP + view_height
    return round(width, 6), round(height, 6), text_x


def _view_metadata(view: torch.Tensor) -> list[str]:
    return [
        f"size           {tuple(view.shape)}",
        f"stride         {view.stride()}",
        f"storage_offset {view.storage_offset()}",
    ]


def draw_view(
    view: torch.Tensor,
    ax: Axes | None = None,
    *,
    title: str | None = None,
    fmt: str | None = None,
    fontsize: float = 9.0,
) -> Axes:
    """Draw a tensor as a window onto its storage, with its size and strides.

    The storage (:meth:`torch.Tensor.untyped_storage`, read as elements of
    the tensor's dtype) is drawn as one row of cells, storage indices above.
    Under it the tensor is drawn as a grid. A storage cell is coloured by the
    index along the first dimension (the row, for a matrix) of every element
    of the tensor that reads it: in stripes when several do, as in an
    :meth:`~torch.Tensor.expand`-ed tensor, and white when none does, as the
    cells a slice skips. The size, stride and storage offset are written
    beside the grid.

    Parameters
    ----------
    view : torch.Tensor
        A strided tensor of rank 0 to 3, on any device, with at most
        :data:`MAX_STORAGE_CELLS` elements in its storage and in itself.
    ax : matplotlib.axes.Axes, optional
        Where to draw. By default, the current axes of
        :func:`matplotlib.pyplot.gca`.
    title : str, optional
        Written above the drawing, on the left.
    fmt : str, optional
        The value format; see :func:`draw_tensor`.
    fontsize : float, default 9
        Size of the values' text, in points.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on, with equal aspect and no frame.

    Raises
    ------
    TypeError
        If `view` is not a tensor.
    ValueError
        If `view` has rank 4 or more, too many elements, a storage too long
        to draw in one row or an empty storage, if it is not strided (sparse),
        or if `fmt` cannot format a number.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> x = torch.arange(6).reshape(2, 3)
    >>> ax = draw_view(x.T, Figure().subplots())
    >>> [text.get_text() for text in ax.texts if "stride" in text.get_text()]
    ['stride         (1, 3)']
    >>> draw_view(torch.arange(100), Figure().subplots())
    Traceback (most recent call last):
    ...
    ValueError: view has 100 elements (shape (100,)); at most 24 can be drawn ...
    """
    from matplotlib.patches import Rectangle

    checked = _check_view(view)
    _check_fmt(fmt)
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.gca()

    storage_size = checked.untyped_storage().nbytes() // checked.element_size()
    storage = checked.as_strided((storage_size,), (1,), 0).to("cpu")
    values = checked.to("cpu")
    # For each element of the view: the storage index it reads, and its group
    # (its index along the first dimension).
    where = torch.arange(storage_size).as_strided(
        tuple(checked.shape), checked.stride(), checked.storage_offset()
    )
    if checked.dim() == 0:
        groups = torch.zeros((), dtype=torch.long)
    else:
        first = torch.arange(checked.shape[0]).reshape(-1, *[1] * (checked.dim() - 1))
        groups = first.expand(checked.shape)
    readers: list[set[int]] = [set() for _ in range(storage_size)]
    for index, group in zip(
        where.flatten().tolist(), groups.flatten().tolist(), strict=True
    ):
        readers[index].add(group)

    left, strip_top = _VIEW_LEFT, _LABEL_SPACE
    words: dict[str, Any] = {"ha": "right", "va": "center", "fontsize": fontsize}
    ax.text(left - 0.25, strip_top + 0.5, "storage", **words)
    for index in range(storage_size):
        used = sorted(readers[index])
        for band, group in enumerate(used):
            ax.add_patch(
                Rectangle(
                    (left + index, strip_top + band / len(used)),
                    1,
                    1 / len(used),
                    facecolor=_tint(PALETTE[group % len(PALETTE)]),
                    edgecolor="none",
                )
            )
        ax.add_patch(
            Rectangle(
                (left + index, strip_top),
                1,
                1,
                facecolor="none" if used else "white",
                edgecolor="#333333",
                linewidth=1.0,
            )
        )
        ax.text(
            left + index + 0.5,
            strip_top + 0.5,
            _format_value(storage[index].item(), storage.dtype, fmt),
            ha="center",
            va="center",
            fontsize=fontsize,
            color="black" if used else "#8a8a8a",
        )
        ax.text(
            left + index + 0.5,
            strip_top / 2,
            str(index),
            ha="center",
            va="center",
            fontsize=fontsize - 1,
            color=_LABEL_COLOUR,
        )

    view_top = strip_top + 1.0 + _STRIP_GAP
    shift = _LABEL_SPACE if checked.dim() >= 2 else 0.0
    _draw_cells(ax, values, groups, left - shift, view_top, fmt, fontsize)
    ax.text(
        left - shift - 0.25,
        view_top + _cells_middle(tuple(checked.shape)),
        "view",
        **words,
    )
    width, height, text_x = _view_layout(checked)
    for line_number, line in enumerate(_view_metadata(checked)):
        ax.text(
            text_x,
            view_top + 0.2 + 0.65 * line_number,
            line,
            ha="left",
            va="top",
            fontsize=fontsize,
            family="monospace",
        )
    _finish_axes(ax, width, height)
    if title is not None:
        ax.set_title(title, fontsize=fontsize + 1, loc="left")
    return ax


def draw_views(
    views: Sequence[torch.Tensor],
    titles: Sequence[str] | None = None,
    *,
    fmt: str | None = None,
) -> Figure:
    """Draw tensors as windows onto their storage, one under the other.

    Parameters
    ----------
    views : sequence of torch.Tensor
        One to four tensors, each as accepted by :func:`draw_view`; usually
        several views of the same storage.
    titles : sequence of str, optional
        One title per view.
    fmt : str, optional
        The value format for every view; see :func:`draw_tensor`.

    Returns
    -------
    matplotlib.figure.Figure
        A new :mod:`matplotlib.pyplot` figure, with the same cell size in
        every panel.

    Raises
    ------
    ValueError
        If `views` is empty or longer than four, if `titles` does not have
        one entry per view, or as :func:`draw_view` raises.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> x = torch.arange(6).reshape(2, 3)
    >>> fig = draw_views([x, x.T], ["x", "x.T"])
    >>> [ax.get_title(loc="left") for ax in fig.axes]
    ['x', 'x.T']
    >>> plt.close(fig)
    """
    import matplotlib.pyplot as plt
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    views = list(views)
    if not 1 <= len(views) <= 4:
        raise ValueError(f"draw_views takes 1 to 4 views; got {len(views)}")
    checked_titles = _check_titles(titles, len(views))
    checked = [_check_view(v, f"views[{i}]") for i, v in enumerate(views)]
    _check_fmt(fmt)
    layouts = [_view_layout(v) for v in checked]
    widest = max(width for width, _, _ in layouts)
    heights = [height for _, height, _ in layouts]
    scale = min(_CELL_INCHES, 9.5 / widest)
    title_inches = 0.0 if checked_titles is None else 0.3
    fig = plt.figure(
        figsize=(
            scale * widest + 0.2,
            scale * sum(heights) + (title_inches + 0.25) * len(views),
        ),
        # Room between panels, so that a title sits with the view under it.
        layout=ConstrainedLayoutEngine(h_pad=0.1),
    )
    ratios = [height + 0.1 for height in heights]  # the margins of _finish_axes
    axes = fig.subplots(len(views), 1, height_ratios=ratios, squeeze=False)[:, 0]
    for i, (ax, view) in enumerate(zip(axes, checked, strict=True)):
        draw_view(
            view,
            ax,
            title=None if checked_titles is None else checked_titles[i],
            fmt=fmt,
        )
        # Every panel spans the same width, so cells have the same size.
        ax.set_xlim(-0.05, widest + 0.05)
    return fig
