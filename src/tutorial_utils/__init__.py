"""Helpers shared by the executable pages of the PyTorch foundations tutorials.

The package is split by concern; import what a page needs from its module:

- :mod:`tutorial_utils.devices`: find and choose a CPU, CUDA, MPS or other
  accelerator device.
- :mod:`tutorial_utils.reproducibility`: seed every random number generator
  and reset PyTorch's global state.
- :mod:`tutorial_utils.environment`: a one-line summary of what produced a
  page's numbers.
- :mod:`tutorial_utils.plotting`: draw small tensors as labelled grids, pieces
  moving between them, and views onto their storage.
- :mod:`tutorial_utils.graphs`: walk and draw the graph that autograd records.
- :mod:`tutorial_utils.timing`: time code with warm-up, explicit threads and
  device synchronisation; FLOP/s, bytes/s and known device peaks.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("tutorial-utils")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0+unknown"

__all__ = ["__version__"]
