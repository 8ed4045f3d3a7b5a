"""Draw a split or a join: pieces moving between one tensor and several.

:func:`draw_split` draws a tensor, an arrow labelled with the operation, and
the pieces that :func:`torch.chunk`, :func:`torch.split`,
:func:`torch.tensor_split` or :func:`torch.unbind` cut it into;
:func:`draw_join` draws the parts, the arrow, and the tensor that
:func:`torch.cat` or :func:`torch.stack` made of them. Piece ``i`` and the
elements of the whole that it holds share the colour ``PALETTE[i]``
(:data:`~tutorial_utils.colours.PALETTE`), so a page shows where each element
goes or comes from. Each tensor is drawn as
:func:`~tutorial_utils.grids.draw_tensor` draws it.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from matplotlib.figure import Figure

from tutorial_utils._cells import (
    cells_middle,
    check_fmt,
    check_tensor,
    check_titles,
    finish_axes,
    fit_panel,
    panel_widths,
    row_of_panels,
    tensor_extent,
)
from tutorial_utils.colours import PALETTE
from tutorial_utils.grids import MAX_CELLS, draw_tensor

__all__ = ["draw_join", "draw_split"]


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
    checked_whole = check_tensor(whole, MAX_CELLS, "whole")
    pieces = list(pieces)
    if not 1 <= len(pieces) <= len(PALETTE) - 1:
        raise ValueError(
            f"{role} must hold 1 to {len(PALETTE) - 1} tensors; got {len(pieces)}"
        )
    checked = [check_tensor(p, MAX_CELLS, f"{role}[{i}]") for i, p in enumerate(pieces)]
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
    check_fmt(fmt)
    tensors = [*left, *right]
    checked_titles = check_titles(titles, len(tensors))
    extents = [tensor_extent(tuple(t.shape)) for t in tensors]
    widths = panel_widths(extents, checked_titles or [""] * len(tensors))
    arrow_width = max(2.0, 0.19 * len(label) + 0.6)
    widths.insert(len(left), arrow_width)
    tallest = max(height for _, height in extents)
    fig, axes = row_of_panels(widths, tallest, 0.2 if titles is None else 0.6)
    panels = [*axes[: len(left)], *axes[len(left) + 1 :]]
    groups = [*left_groups, *right_groups]
    tensor_widths = [*widths[: len(left)], *widths[len(left) + 1 :]]
    for i, (ax, values) in enumerate(zip(panels, tensors, strict=True)):
        draw_tensor(
            values,
            ax,
            groups=groups[i],
            title=None if checked_titles is None else checked_titles[i],
            fmt=fmt,
        )
        fit_panel(ax, extents[i][0], tensor_widths[i], tallest)
    arrow_ax = axes[len(left)]
    middle = cells_middle(tuple(left[0].shape))
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
    finish_axes(arrow_ax, arrow_width, tallest)
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
        The tensor that was split, as accepted by
        :func:`~tutorial_utils.grids.draw_tensor`.
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
        The value format; see :func:`~tutorial_utils.grids.draw_tensor`.

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
        there are too many pieces; or as
        :func:`~tutorial_utils.grids.draw_tensor` raises.

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
        The value format; see :func:`~tutorial_utils.grids.draw_tensor`.

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
        many parts; or as :func:`~tutorial_utils.grids.draw_tensor` raises.

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
