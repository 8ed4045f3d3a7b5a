"""Draw tensors as windows onto their storage, with their sizes and strides.

:func:`draw_view` draws a tensor as a window onto its :term:`storage`: the
storage as one row of cells, the cells the tensor reads coloured by the
index, along the tensor's first dimension, of the elements they feed (the
row, for a matrix), and the tensor's size, :term:`stride` and storage offset
beside it. :func:`draw_views` draws several, usually views of one storage,
one under the other at one cell size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from tutorial_utils._cells import (
    CELL_INCHES,
    LABEL_COLOUR,
    LABEL_SPACE,
    cells_middle,
    check_fmt,
    check_titles,
    draw_cells,
    finish_axes,
    format_value,
    tensor_extent,
    tint,
)
from tutorial_utils.colours import PALETTE

__all__ = ["MAX_STORAGE_CELLS", "draw_view", "draw_views"]

#: The most storage elements (and view elements) :func:`draw_view` draws:
#: the storage is one row, and a longer row would not fit a page's width.
MAX_STORAGE_CELLS = 24

_VIEW_LEFT = 2.1  # room left of a storage strip for the words "storage", "view"
_STRIP_GAP = 0.8  # between the storage strip and the view under it


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
    shift = LABEL_SPACE if view.dim() >= 2 else 0.0
    text_x = _VIEW_LEFT - shift + view_width + 0.8
    longest = max(len(line) for line in _view_metadata(view))
    width = max(_VIEW_LEFT + storage_size, text_x + 0.19 * longest)
    height = 1.0 + LABEL_SPACE + _STRIP_GAP + view_height
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
        The value format; see :func:`~tutorial_utils.grids.draw_tensor`.
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
    check_fmt(fmt)
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

    left, strip_top = _VIEW_LEFT, LABEL_SPACE
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
                    facecolor=tint(PALETTE[group % len(PALETTE)]),
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
            format_value(storage[index].item(), storage.dtype, fmt),
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
            color=LABEL_COLOUR,
        )

    view_top = strip_top + 1.0 + _STRIP_GAP
    shift = LABEL_SPACE if checked.dim() >= 2 else 0.0
    draw_cells(ax, values, groups, left - shift, view_top, fmt, fontsize)
    ax.text(
        left - shift - 0.25,
        view_top + cells_middle(tuple(checked.shape)),
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
    finish_axes(ax, width, height)
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
        The value format for every view; see
        :func:`~tutorial_utils.grids.draw_tensor`.

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
    checked_titles = check_titles(titles, len(views))
    checked = [_check_view(v, f"views[{i}]") for i, v in enumerate(views)]
    check_fmt(fmt)
    layouts = [_view_layout(v) for v in checked]
    widest = max(width for width, _, _ in layouts)
    heights = [height for _, height, _ in layouts]
    scale = min(CELL_INCHES, 9.5 / widest)
    title_inches = 0.0 if checked_titles is None else 0.3
    fig = plt.figure(
        figsize=(
            scale * widest + 0.2,
            scale * sum(heights) + (title_inches + 0.25) * len(views),
        ),
        # Room between panels, so that a title sits with the view under it.
        layout=ConstrainedLayoutEngine(h_pad=0.1),
    )
    ratios = [height + 0.1 for height in heights]  # the margins of finish_axes
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
