"""Save a training run to one file and resume it where it stopped.

A *checkpoint* holds the model's and the :term:`optimiser`'s
:term:`state dict`, the number of :term:`epochs <epoch>` done, and the state
of PyTorch's CPU and CUDA random number generators (which decide the next
shuffle of a :class:`~torch.utils.data.DataLoader` made without a
``generator`` of its own, and dropout on those devices). A resumed run
repeats the original exactly only if nothing else decides its numbers: the
file holds no learning-rate scheduler, no other accelerator's generator, and
no state of Python's :mod:`random` or NumPy's generators. A GPU run also
differs where it uses non-deterministic algorithms (see
:func:`torch.use_deterministic_algorithms`).

Only tensors and plain Python values (numbers, strings, ``None``, lists,
tuples, dicts) go in, so :func:`load_checkpoint` reads the file with
``torch.load(..., weights_only=True)``, which refuses any other object a
file asks it to build, and so runs no code from it.

:func:`save_checkpoint` never replaces an existing file unless asked to with
``overwrite=True``.
"""

from __future__ import annotations

import errno
import os
import secrets
from pathlib import Path
from typing import Any

import torch

from tutorial_utils._checks import check_instance, check_int

__all__ = ["load_checkpoint", "save_checkpoint"]

# Stored under the key "format": tells a checkpoint from any other file.
_FORMAT = "tutorial_utils.checkpoint/1"

_KEYS = ("format", "epoch", "model", "optimizer", "rng")


def _check_arguments(
    path: object, model: object, optimizer: object, *, optional: bool
) -> None:
    """Check the arguments both functions take; `optional`: None is no optimizer."""
    check_instance("path", path, (str, os.PathLike), "a str or a path")
    check_instance("model", model, torch.nn.Module, "a torch.nn.Module")
    if optimizer is not None or not optional:
        check_instance(
            "optimizer", optimizer, torch.optim.Optimizer, "a torch.optim.Optimizer"
        )


def save_checkpoint(
    path: str | os.PathLike[str],
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer,
    epoch: int,
    *,
    overwrite: bool = False,
) -> Path:
    """Write a model, its optimiser, the epoch and PyTorch's RNG states to a file.

    The generators saved are the CPU's and, where CUDA is available, every
    CUDA device's.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write. Its folder must exist.
    model : torch.nn.Module
        Its :meth:`~torch.nn.Module.state_dict` is saved.
    optimizer : torch.optim.Optimizer
        Its state (momentum buffers, step counts, learning rate, ...) is saved.
    epoch : int
        How many epochs are done; training resumes with the next one.
    overwrite : bool, default False
        Replace `path` if it exists. Without it an existing file is an error,
        so that a run never destroys an earlier checkpoint by accident.

    Returns
    -------
    pathlib.Path
        The path written.

    Raises
    ------
    FileExistsError
        If `path` exists and `overwrite` is false; ``error.filename`` is the path.
    TypeError
        If `path`, `model`, `optimizer` or `epoch` has the wrong type.
    ValueError
        If `epoch` is negative.

    Examples
    --------
    >>> import tempfile
    >>> model = torch.nn.Linear(2, 1)
    >>> sgd = torch.optim.SGD(model.parameters(), lr=0.1)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = save_checkpoint(f"{folder}/run.pt", model, sgd, epoch=3)
    ...     save_checkpoint(path, model, sgd, epoch=4)
    Traceback (most recent call last):
    ...
    FileExistsError: [Errno 17] checkpoint exists; pass overwrite=True to replace it: ...
    """
    _check_arguments(path, model, optimizer, optional=False)
    target = Path(path)
    epoch = check_int("epoch", epoch, minimum=0)
    rng: dict[str, Any] = {"cpu": torch.get_rng_state()}
    if torch.cuda.is_available():
        rng["cuda"] = torch.cuda.get_rng_state_all()
    checkpoint = {
        "format": _FORMAT,
        "epoch": epoch,
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "rng": rng,
    }
    if not overwrite and target.exists():
        raise FileExistsError(
            errno.EEXIST,
            "checkpoint exists; pass overwrite=True to replace it",
            str(target),
        )
    # Written beside the target, then moved into place in one step: a save
    # that fails half-way leaves the previous checkpoint as it was. The
    # partial file's name is random and opened only if new ("x"), so a file
    # that an earlier, killed save left behind is never overwritten, taken for
    # the target or deleted. (tempfile.mkstemp would make it readable by its
    # owner alone, and the checkpoint with it.)
    partial = target.with_name(f".{target.name}.{secrets.token_hex(8)}.partial")
    file = open(partial, "xb")  # noqa: SIM115 (a name taken raises before the try)
    try:
        with file:
            torch.save(checkpoint, file)
            file.flush()
            os.fsync(file.fileno())  # on disk before it takes the old file's place
        if overwrite:
            os.replace(partial, target)
        else:
            try:
                # A link fails if the target appeared meanwhile: never replaced.
                os.link(partial, target)
            except FileExistsError:
                raise FileExistsError(
                    errno.EEXIST,
                    "checkpoint exists; pass overwrite=True to replace it",
                    str(target),
                ) from None
    finally:
        partial.unlink(missing_ok=True)
    return target


def load_checkpoint(
    path: str | os.PathLike[str],
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer | None = None,
    *,
    map_location: str | torch.device = "cpu",
    restore_rng: bool = True,
) -> int:
    """Load a checkpoint of :func:`save_checkpoint` into a model and optimiser.

    Parameters
    ----------
    path : str or os.PathLike
        A file written by :func:`save_checkpoint`.
    model : torch.nn.Module
        A model of the same architecture; its parameters are overwritten.
    optimizer : torch.optim.Optimizer, optional
        Built on `model`'s parameters; its state is overwritten.
    map_location : str or torch.device, default "cpu"
        Where the tensors are loaded, whichever device saved them. Loading
        into a model copies them to the model's device anyway.
    restore_rng : bool, default True
        Restore PyTorch's CPU generator and, where the file has them and
        CUDA is available, the CUDA generators, so that shuffling and
        dropout on those devices continue as in the run that was saved.

    Returns
    -------
    int
        The epochs done when the checkpoint was saved.

    Raises
    ------
    FileNotFoundError
        If there is no file at `path`.
    ValueError
        If the file is not a checkpoint of :func:`save_checkpoint`, or
        :func:`torch.load` refuses it; or, from
        :meth:`torch.optim.Optimizer.load_state_dict`, if `optimizer` has
        other parameter groups than the saved one (the model is loaded by
        then).
    RuntimeError
        From :meth:`~torch.nn.Module.load_state_dict`, if the model's
        parameter names or shapes differ from the saved ones.

    Examples
    --------
    >>> import tempfile
    >>> model = torch.nn.Linear(2, 1)
    >>> sgd = torch.optim.SGD(model.parameters(), lr=0.1)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = save_checkpoint(f"{folder}/run.pt", model, sgd, epoch=3)
    ...     load_checkpoint(path, torch.nn.Linear(2, 1))
    3
    >>> load_checkpoint("no-such-file.pt", model)
    Traceback (most recent call last):
    ...
    FileNotFoundError: [Errno 2] no checkpoint at this path: 'no-such-file.pt'
    """
    _check_arguments(path, model, optimizer, optional=True)
    source = Path(path)
    if not source.is_file():
        raise FileNotFoundError(errno.ENOENT, "no checkpoint at this path", str(source))
    try:
        checkpoint = torch.load(source, map_location=map_location, weights_only=True)
    except Exception as error:  # an unpickling error, a zip error, ...
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
        raise ValueError(
            f"{str(source)!r} is not a checkpoint: torch.load refused it "
            f"({type(error).__name__}: {first_line})"
        ) from error
    if not isinstance(checkpoint, dict) or checkpoint.get("format") != _FORMAT:
        if isinstance(checkpoint, dict):
            found = f"a dict with keys {', '.join(map(str, list(checkpoint)[:4]))}"
            if len(checkpoint) > 4:
                found += ", ..."
        else:
            found = f"a {type(checkpoint).__name__}"
        raise ValueError(
            f"{str(source)!r} is not a checkpoint of save_checkpoint: it holds "
            f"{found}; expected the keys {', '.join(_KEYS)}"
        )
    model.load_state_dict(checkpoint["model"])
    if optimizer is not None:
        optimizer.load_state_dict(checkpoint["optimizer"])
    if restore_rng:
        # Generator states are CPU tensors, whatever map_location moved them to.
        torch.set_rng_state(checkpoint["rng"]["cpu"].to("cpu"))
        if "cuda" in checkpoint["rng"] and torch.cuda.is_available():
            torch.cuda.set_rng_state_all(
                [state.to("cpu") for state in checkpoint["rng"]["cuda"]]
            )
    epoch: int = checkpoint["epoch"]
    return epoch
