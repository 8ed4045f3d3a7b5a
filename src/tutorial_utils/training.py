"""One training epoch, evaluation, and a loop over epochs.

:func:`train_one_epoch` and :func:`evaluate` are the two halves of a
training loop; :func:`fit` runs them for a number of :term:`epochs <epoch>`
and keeps the history. By default, when standard output is a terminal,
:func:`fit` shows a progress bar (tqdm); otherwise (a documentation build, a
log file) it reports one plain line per epoch.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

import torch
import torch.nn.functional as F

from tutorial_utils._checks import check_int

__all__ = [
    "Evaluation",
    "History",
    "evaluate",
    "fit",
    "train_one_epoch",
]

Batch = tuple[torch.Tensor, torch.Tensor]
LossFunction = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


def _count_correct(logits: torch.Tensor, labels: torch.Tensor) -> int:
    return int((logits.argmax(dim=1) == labels.to(logits.device)).sum())


def _as_device(device: str | torch.device | None) -> torch.device:
    return torch.device("cpu") if device is None else torch.device(device)


def train_one_epoch(
    model: torch.nn.Module,
    loader: Iterable[Batch],
    optimizer: torch.optim.Optimizer,
    loss_fn: LossFunction = F.cross_entropy,
    device: str | torch.device | None = None,
) -> float:
    """Train for one pass over `loader`; return the mean loss per sample.

    For each batch: move it to `device`, compute the logits and the loss,
    :meth:`~torch.optim.Optimizer.zero_grad`, :meth:`~torch.Tensor.backward`,
    :meth:`~torch.optim.Optimizer.step`. The model is put in training mode
    first.

    Parameters
    ----------
    model : torch.nn.Module
        Already on `device`.
    loader : collections.abc.Iterable
        Yields ``(features, labels)`` batches; usually a
        :class:`torch.utils.data.DataLoader`.
    optimizer : torch.optim.Optimizer
        Built on ``model.parameters()``.
    loss_fn : callable, optional
        Takes ``(logits, labels)`` and returns the mean loss of the batch;
        :func:`torch.nn.functional.cross_entropy` by default.
    device : str or torch.device, optional
        Where the batches go; the CPU by default.

    Returns
    -------
    float
        The batches' losses averaged with their sizes as weights.

    Raises
    ------
    ValueError
        If `loader` yields no batch.

    Examples
    --------
    >>> _ = torch.manual_seed(0)
    >>> model = torch.nn.Linear(2, 2)
    >>> batches = [(torch.tensor([[1.0, 0.0], [0.0, 1.0]]), torch.tensor([0, 1]))]
    >>> sgd = torch.optim.SGD(model.parameters(), lr=0.5)
    >>> first = train_one_epoch(model, batches, sgd)
    >>> second = train_one_epoch(model, batches, sgd)
    >>> second < first
    True
    """
    target = _as_device(device)
    model.train()
    total, count = 0.0, 0
    for features, labels in loader:
        features, labels = features.to(target), labels.to(target)
        loss = loss_fn(model(features), labels)
        optimizer.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]
        optimizer.step()
        total += loss.item() * len(labels)
        count += len(labels)
    if count == 0:
        raise ValueError("the loader yielded no batch; is the dataset empty?")
    return total / count


class Evaluation(NamedTuple):
    """Mean loss per sample and accuracy (0 to 1) of a model on a data set."""

    loss: float
    accuracy: float


def evaluate(
    model: torch.nn.Module,
    loader: Iterable[Batch],
    loss_fn: LossFunction = F.cross_entropy,
    device: str | torch.device | None = None,
) -> Evaluation:
    """Compute a model's mean loss and accuracy, without tracking gradients.

    The model is put in evaluation mode (:meth:`~torch.nn.Module.eval`) for
    the pass; afterwards every submodule gets back the mode it had, so a part
    that was in evaluation mode on its own (a frozen batch-norm layer, say)
    stays so.

    Parameters
    ----------
    model : torch.nn.Module
        Already on `device`.
    loader : collections.abc.Iterable
        Yields ``(features, labels)`` batches; usually a
        :class:`torch.utils.data.DataLoader` without shuffling.
    loss_fn : callable, optional
        Takes ``(logits, labels)`` and returns the batch's mean loss;
        :func:`torch.nn.functional.cross_entropy` by default.
    device : str or torch.device, optional
        Where the batches go; the CPU by default.

    Returns
    -------
    Evaluation
        ``loss`` (mean per sample) and ``accuracy`` (0 to 1).

    Raises
    ------
    ValueError
        If `loader` yields no batch.

    Examples
    --------
    >>> model = torch.nn.Linear(2, 2)
    >>> with torch.no_grad():
    ...     _ = model.weight.copy_(torch.eye(2))
    ...     _ = model.bias.zero_()
    >>> batches = [(torch.tensor([[3.0, 0.0], [0.0, 3.0]]), torch.tensor([0, 0]))]
    >>> evaluate(model, batches).accuracy
    0.5
    """
    target = _as_device(device)
    # Each submodule's own mode: a part frozen in eval mode stays so.
    modes = [(module, module.training) for module in model.modules()]
    model.eval()
    total_loss, correct, count = 0.0, 0, 0
    try:
        with torch.no_grad():
            for features, labels in loader:
                features, labels = features.to(target), labels.to(target)
                logits = model(features)
                total_loss += loss_fn(logits, labels).item() * len(labels)
                correct += _count_correct(logits, labels)
                count += len(labels)
    finally:
        for module, training in modes:
            module.training = training
    if count == 0:
        raise ValueError("the loader yielded no batch; is the dataset empty?")
    return Evaluation(total_loss / count, correct / count)


@dataclass
class History:
    """What :func:`fit` measured, one entry per epoch.

    ``eval_loss`` and ``eval_accuracy`` stay empty when no evaluation
    loader was given.
    """

    train_loss: list[float] = field(default_factory=list)
    train_accuracy: list[float] = field(default_factory=list)
    eval_loss: list[float] = field(default_factory=list)
    eval_accuracy: list[float] = field(default_factory=list)


def _epoch_line(epoch: int, epochs: int, history: History) -> str:
    width = len(str(epochs))
    line = (
        f"epoch {epoch:{width}d}/{epochs}: "
        f"train loss {history.train_loss[-1]:.4f}, "
        f"accuracy {history.train_accuracy[-1]:.1%}"
    )
    if history.eval_loss:
        line += (
            f" | test loss {history.eval_loss[-1]:.4f}, "
            f"accuracy {history.eval_accuracy[-1]:.1%}"
        )
    return line


def fit(
    model: torch.nn.Module,
    train_loader: Iterable[Batch],
    optimizer: torch.optim.Optimizer,
    epochs: int,
    *,
    eval_loader: Iterable[Batch] | None = None,
    loss_fn: LossFunction = F.cross_entropy,
    device: str | torch.device | None = None,
    progress: bool | None = None,
    log: Callable[[str], object] | None = print,
) -> History:
    """Train for several epochs; evaluate after each if asked; keep the history.

    Parameters
    ----------
    model, train_loader, optimizer, loss_fn, device
        As for :func:`train_one_epoch`.
    epochs : int
        Number of passes over `train_loader`, at least 1.
    eval_loader : collections.abc.Iterable, optional
        Batches of ``(features, labels)`` evaluated with :func:`evaluate` after every epoch.
    progress : bool, optional
        Show a tqdm progress bar over the epochs. By default, only when
        standard output is a terminal (``sys.stdout.isatty()``).
    log : callable, optional
        Receives one line of text per epoch when there is no progress bar;
        :func:`print` by default, ``None`` for silence.

    Returns
    -------
    History
        Losses and accuracies per epoch. The training accuracy is that of
        each batch's logits as it was trained on, averaged over the epoch.

    Raises
    ------
    TypeError
        If `epochs` is not an int.
    ValueError
        If `epochs` is below 1, or a loader yields no batch.

    Examples
    --------
    >>> _ = torch.manual_seed(0)
    >>> model = torch.nn.Linear(2, 2)
    >>> batches = [(torch.tensor([[1.0, 0.0], [0.0, 1.0]]), torch.tensor([0, 1]))]
    >>> sgd = torch.optim.SGD(model.parameters(), lr=1.0)
    >>> history = fit(model, batches, sgd, 3, eval_loader=batches, progress=False)
    epoch 1/3: train loss ..., accuracy ...% | test loss ..., accuracy ...%
    epoch 2/3: ...
    epoch 3/3: ...
    >>> len(history.train_loss), history.eval_accuracy[-1]
    (3, 1.0)
    """
    epochs = check_int("epochs", epochs, minimum=1)
    show_bar = sys.stdout.isatty() if progress is None else progress
    target = _as_device(device)
    correct, seen = 0, 0  # this epoch's correct predictions and samples

    def track_accuracy(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        nonlocal correct, seen
        correct += _count_correct(logits.detach(), labels)
        seen += len(labels)
        return loss_fn(logits, labels)

    history = History()
    epoch_range: Iterable[int] = range(1, epochs + 1)
    bar = None
    if show_bar:
        from tqdm import tqdm  # type: ignore[import-untyped]

        bar = tqdm(epoch_range, desc="training", unit="epoch")
        epoch_range = bar
    for epoch in epoch_range:
        correct, seen = 0, 0
        loss = train_one_epoch(model, train_loader, optimizer, track_accuracy, target)
        history.train_loss.append(loss)
        history.train_accuracy.append(correct / seen)
        if eval_loader is not None:
            result = evaluate(model, eval_loader, loss_fn, target)
            history.eval_loss.append(result.loss)
            history.eval_accuracy.append(result.accuracy)
        if bar is not None:
            postfix = {"loss": f"{loss:.4f}"}
            if history.eval_accuracy:
                postfix["test accuracy"] = f"{history.eval_accuracy[-1]:.1%}"
            bar.set_postfix(postfix)
        elif log is not None:
            log(_epoch_line(epoch, epochs, history))
    return history
