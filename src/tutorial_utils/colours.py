"""The colours that the pages and the drawing helpers share.

Pages take the colours of their lines, bars and markers from :data:`PALETTE`,
so that a colour means the same thing from one figure to the next. The
drawing helpers (:mod:`tutorial_utils.grids`, :mod:`tutorial_utils.moves`,
:mod:`tutorial_utils.views` and :mod:`tutorial_utils.graphs`) fill their
cells and boxes with lightened versions of the same colours.

Examples
--------
>>> len(PALETTE), PALETTE[0]
(8, '#56B4E9')
"""

from __future__ import annotations

__all__ = ["PALETTE"]

#: The Okabe-Ito colours, with grey in place of black, which stay
#: distinguishable with the common colour-vision deficiencies. A drawn tensor
#: fills the cells of group ``g`` with ``PALETTE[g % 8]``, lightened so that
#: black text stays readable.
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
