"""Helpers shared by the executable pages of the PyTorch foundations tutorials.

The package is split by concern; a page imports what it needs from a module.
Each entry says what a module holds, then which pages import it, by section
and number (``gallery/tensors/plot_05_*.py`` is tensors 05).

- :mod:`tutorial_utils.devices`: find and choose a CPU, CUDA, MPS or other
  accelerator device. Tensors 01, performance 01, 02 and 04.
- :mod:`tutorial_utils.reproducibility`: seed Python's, NumPy's global and
  PyTorch's random number generators, seed data loader workers, and reset
  the PyTorch settings a page may change (the documentation build calls
  that before every page). Training 07.
- :mod:`tutorial_utils.environment`: a one-line summary of what produced a
  page's numbers. Every page, and :doc:`environment`.
- :mod:`tutorial_utils.colours`: the palette that pages and drawings share.
  Tensors 02, training 01 to 10, performance 01 to 05, errors 03 and 04.
- :mod:`tutorial_utils.grids`: draw small tensors as labelled grids of cells,
  alone or side by side. Tensors 01 to 05 and 08.
- :mod:`tutorial_utils.moves`: draw a split or a join, each element coloured
  by the piece it goes to or comes from. Tensors 06.
- :mod:`tutorial_utils.views`: draw tensors as windows onto their storage,
  with their size, strides and offset. Tensors 07 and 08.
- :mod:`tutorial_utils.graphs`: walk and draw the graph that autograd records.
  Gradients 01.
- :mod:`tutorial_utils.timing`: time code with warm-up, explicit threads and
  device synchronisation, and write a duration with a readable unit.
  Gradients 02, performance 01, 02, 03 and 05, and the :doc:`cheatsheet`.
- :mod:`tutorial_utils.data`: the toy data of the training pages, as tensors
  and as :class:`~torch.utils.data.TensorDataset`, and scikit-learn's
  handwritten digits as tensors. Training 02, 03 and 05 to 10, performance
  03 and 04.
- :mod:`tutorial_utils.models`: a small fixed network (hidden layers of 30
  and 20 units) and an MLP of any size. Training 01, 03, 05, 06 and 08 to
  10, performance 03 to 05.
- :mod:`tutorial_utils.training`: one epoch, evaluation (loss and accuracy),
  and a loop with a progress bar in terminals. Training 03, 06, 08 and 09,
  performance 04.
- :mod:`tutorial_utils.checkpoints`: save a training run to one file and
  resume it where it stopped. Training 09.
- :mod:`tutorial_utils.distributed`: the worker that each process of a
  DistributedDataParallel run executes, and a launcher that starts them
  from any program (``python -m tutorial_utils.distributed``). Training 10.
- ``tutorial_utils._cells`` (private): what grids, moves and views share:
  the checks of a tensor to draw, its geometry, the drawing of its cells.
- ``tutorial_utils._checks`` (private): argument checks (ints, numbers,
  types) that the other modules share.
- ``tutorial_utils._processes`` (private): a free port, spawned processes
  stopped at a time limit, and a command that cannot outlive its caller:
  what :mod:`tutorial_utils.distributed` launches with.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("tutorial-utils")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0+unknown"

__all__ = ["__version__"]
