from __future__ import annotations

import io
import sys

import pytest
import torch
from torch.utils.data import DataLoader, TensorDataset

from tutorial_utils.data import toy_datasets
from tutorial_utils.models import NeuralNetwork
from tutorial_utils.training import evaluate, fit, train_one_epoch


def test_train_one_epoch_reproduces_the_source_texts_first_epoch() -> None:
    train_ds, _ = toy_datasets()
    torch.manual_seed(123)
    loader = DataLoader(train_ds, batch_size=2, shuffle=True)
    list(loader)  # the source text looks at the batches once before training
    torch.manual_seed(123)
    model = NeuralNetwork(2, 2)
    sgd = torch.optim.SGD(model.parameters(), lr=0.5)
    mean_loss = train_one_epoch(model, loader, sgd)
    # The text prints 0.75, 0.65 and 0.42 for batches of 2, 2 and 1 samples.
    assert mean_loss == pytest.approx((0.75 * 2 + 0.65 * 2 + 0.42) / 5, abs=0.005)


def test_evaluate_restores_the_mode_and_does_not_track_gradients() -> None:
    model = NeuralNetwork(2, 2)
    train_ds, _ = toy_datasets()
    loader = DataLoader(train_ds, batch_size=5)
    model.train()
    result = evaluate(model, loader)
    assert model.training
    assert 0.0 <= result.accuracy <= 1.0
    assert all(p.grad is None for p in model.parameters())
    model.eval()
    evaluate(model, loader)
    assert not model.training
    # A part put in evaluation mode on its own stays there.
    model.train()
    frozen = next(iter(model.children()))
    frozen.eval()
    evaluate(model, loader)
    assert model.training
    assert not frozen.training


def test_empty_loader_is_an_error() -> None:
    model = NeuralNetwork(2, 2)
    sgd = torch.optim.SGD(model.parameters(), lr=0.5)
    with pytest.raises(ValueError, match="no batch"):
        train_one_epoch(model, [], sgd)
    with pytest.raises(ValueError, match="no batch"):
        evaluate(model, [])


def _separable_loader() -> DataLoader[tuple[torch.Tensor, ...]]:
    generator = torch.Generator().manual_seed(0)
    features = torch.randn(64, 2, generator=generator)
    labels = (features[:, 0] > 0).long()
    return DataLoader(TensorDataset(features, labels), batch_size=16)


def test_fit_learns_and_logs_one_line_per_epoch() -> None:
    torch.manual_seed(0)
    model = NeuralNetwork(2, 2)
    sgd = torch.optim.SGD(model.parameters(), lr=0.5)
    lines: list[str] = []
    loader = _separable_loader()
    history = fit(
        model, loader, sgd, 5, eval_loader=loader, progress=False, log=lines.append
    )
    assert len(lines) == 5
    assert lines[0].startswith("epoch 1/5: train loss ")
    assert "| test loss" in lines[0]
    assert len(history.train_loss) == len(history.eval_accuracy) == 5
    assert history.train_loss[-1] < history.train_loss[0]
    assert history.eval_accuracy[-1] > 0.9


def test_fit_without_eval_and_silent() -> None:
    model = NeuralNetwork(2, 2)
    sgd = torch.optim.SGD(model.parameters(), lr=0.1)
    history = fit(model, _separable_loader(), sgd, 2, progress=False, log=None)
    assert history.eval_loss == []
    assert len(history.train_accuracy) == 2


def test_fit_shows_a_bar_only_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    model = NeuralNetwork(2, 2)
    sgd = torch.optim.SGD(model.parameters(), lr=0.1)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    fit(model, _separable_loader(), sgd, 2)
    monkeypatch.undo()
    assert "epoch 1/2" not in terminal.getvalue()  # no plain lines ...
    assert "training" in capsys.readouterr().err  # ... but tqdm's bar
    fit(model, _separable_loader(), sgd, 2)  # stdout is not a terminal here
    assert "epoch 2/2" in capsys.readouterr().out


def test_fit_bad_epochs() -> None:
    model = NeuralNetwork(2, 2)
    sgd = torch.optim.SGD(model.parameters(), lr=0.1)
    with pytest.raises(ValueError, match="epochs must be at least 1; got 0"):
        fit(model, [], sgd, 0)
    with pytest.raises(TypeError, match="epochs must be an int; got float"):
        fit(model, [], sgd, 2.0)  # type: ignore[arg-type]
