"""Helpers shared by the executable pages of the PyTorch foundations tutorials.

The package is split by concern; import what a page needs from its module:

- :mod:`tutorial_utils.devices`: find and choose a CPU, CUDA, MPS or other
  accelerator device.
- :mod:`tutorial_utils.reproducibility`: seed Python's, NumPy's global and
  PyTorch's random number generators, and reset the PyTorch settings a page
  may change.
- :mod:`tutorial_utils.environment`: a one-line summary of what produced a
  page's numbers.
- :mod:`tutorial_utils.plotting`: draw small tensors as labelled grids, pieces
  moving between them, and views onto their storage.
- :mod:`tutorial_utils.graphs`: walk and draw the graph that autograd records.
- :mod:`tutorial_utils.timing`: time code with warm-up, explicit threads and
  device synchronisation; FLOP/s, bytes/s and known device peaks.
- :mod:`tutorial_utils.data`: the toy data set of the training pages and
  scikit-learn's handwritten digits as tensors.
- :mod:`tutorial_utils.models`: a small fixed network (hidden layers of 30
  and 20 units), an MLP of any size, and parameter counting.
- :mod:`tutorial_utils.training`: one epoch, evaluation, accuracy, and a loop
  with a progress bar in terminals.
- :mod:`tutorial_utils.checkpoints`: save a training run to one file and
  resume it where it stopped.
- :mod:`tutorial_utils.distributed`: the worker that each process of a
  DistributedDataParallel run executes, and a launcher that starts them
  from any program (``python -m tutorial_utils.distributed``).
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("tutorial-utils")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0+unknown"

__all__ = ["__version__"]
