from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest
import torch
from torch.utils.data import DataLoader

from tutorial_utils.checkpoints import (
    load_checkpoint,
    save_checkpoint,
)
from tutorial_utils.data import toy_datasets
from tutorial_utils.models import NeuralNetwork
from tutorial_utils.training import train_one_epoch


def make_run() -> tuple[
    NeuralNetwork, torch.optim.Optimizer, DataLoader[tuple[torch.Tensor, torch.Tensor]]
]:
    model = NeuralNetwork(2, 2)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    loader = DataLoader(toy_datasets()[0], batch_size=2, shuffle=True)
    return model, optimizer, loader


def test_resuming_continues_exactly(tmp_path: Path) -> None:
    torch.manual_seed(0)
    model, optimizer, loader = make_run()
    for _ in range(4):
        train_one_epoch(model, loader, optimizer)
    uninterrupted = [p.detach().clone() for p in model.parameters()]

    torch.manual_seed(0)
    model, optimizer, loader = make_run()
    for _ in range(2):
        train_one_epoch(model, loader, optimizer)
    save_checkpoint(tmp_path / "run.pt", model, optimizer, epoch=2)

    torch.manual_seed(99)  # a new process: other weights, other random state
    model, optimizer, loader = make_run()
    epoch = load_checkpoint(tmp_path / "run.pt", model, optimizer)
    assert epoch == 2
    for _ in range(epoch, 4):
        train_one_epoch(model, loader, optimizer)
    for resumed, expected in zip(model.parameters(), uninterrupted, strict=True):
        assert torch.equal(resumed, expected)


def test_without_the_rng_state_the_shuffle_differs(tmp_path: Path) -> None:
    torch.manual_seed(0)
    model, optimizer, _ = make_run()
    save_checkpoint(tmp_path / "run.pt", model, optimizer, epoch=0)
    expected = torch.randperm(100)
    torch.manual_seed(1)
    load_checkpoint(tmp_path / "run.pt", model, optimizer, restore_rng=False)
    assert not torch.equal(torch.randperm(100), expected)
    load_checkpoint(tmp_path / "run.pt", model, optimizer)
    assert torch.equal(torch.randperm(100), expected)


def test_never_overwrites_without_being_asked(tmp_path: Path) -> None:
    model, optimizer, _ = make_run()
    path = save_checkpoint(tmp_path / "run.pt", model, optimizer, epoch=1)
    with pytest.raises(FileExistsError, match="pass overwrite=True") as caught:
        save_checkpoint(path, model, optimizer, epoch=2)
    assert caught.value.filename == str(path)
    assert load_checkpoint(path, model) == 1
    save_checkpoint(path, model, optimizer, epoch=2, overwrite=True)
    assert load_checkpoint(path, model) == 2
    assert [p.name for p in tmp_path.iterdir()] == ["run.pt"], "no partial file left"


def test_a_partial_file_left_by_a_killed_save_is_left_alone(tmp_path: Path) -> None:
    # A killed save leaves its partial file; a later process may get the same
    # process id. The helper's partial files have random names, so neither a
    # save with overwrite=True nor one without is stopped or misled by it.
    model, optimizer, _ = make_run()
    stale = tmp_path / f".run.pt.{os.getpid()}.partial"
    stale.write_bytes(b"left by a killed save")
    path = save_checkpoint(tmp_path / "run.pt", model, optimizer, epoch=1)
    save_checkpoint(path, model, optimizer, epoch=2, overwrite=True)
    assert load_checkpoint(path, model) == 2
    assert stale.read_bytes() == b"left by a killed save", "never deleted or reused"
    assert sorted(p.name for p in tmp_path.iterdir()) == [stale.name, "run.pt"]


def test_a_failed_save_keeps_the_previous_checkpoint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    model, optimizer, _ = make_run()
    path = save_checkpoint(tmp_path / "run.pt", model, optimizer, epoch=1)

    def broken_save(obj: object, file: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(torch, "save", broken_save)
    with pytest.raises(OSError, match="disk full"):
        save_checkpoint(path, model, optimizer, epoch=2, overwrite=True)
    monkeypatch.undo()
    assert load_checkpoint(path, model) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["run.pt"], "no partial file left"


def test_contents_load_with_weights_only(tmp_path: Path) -> None:
    model, optimizer, _ = make_run()
    path = save_checkpoint(str(tmp_path / "run.pt"), model, optimizer, epoch=3)
    contents = torch.load(path, weights_only=True)
    assert contents["format"] == "tutorial_utils.checkpoint/1"
    assert set(contents) == {"format", "epoch", "model", "optimizer", "rng"}


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no checkpoint at this path") as caught:
        load_checkpoint(tmp_path / "missing.pt", NeuralNetwork(2, 2))
    assert caught.value.filename == str(tmp_path / "missing.pt")


def test_a_state_dict_is_not_a_checkpoint(tmp_path: Path) -> None:
    model = NeuralNetwork(2, 2)
    torch.save(model.state_dict(), tmp_path / "weights.pt")
    with pytest.raises(
        ValueError, match=r"not a checkpoint of save_checkpoint: .*layers\.0\.weight"
    ):
        load_checkpoint(tmp_path / "weights.pt", model)
    torch.save([1, 2], tmp_path / "list.pt")
    with pytest.raises(ValueError, match="it holds a list"):
        load_checkpoint(tmp_path / "list.pt", model)


class Harmless:
    pass


def test_files_torch_load_refuses(tmp_path: Path) -> None:
    (tmp_path / "text.pt").write_text("not a checkpoint")
    with pytest.raises(ValueError, match=r"torch\.load refused it"):
        load_checkpoint(tmp_path / "text.pt", NeuralNetwork(2, 2))
    with open(tmp_path / "object.pt", "wb") as file:
        pickle.dump(Harmless(), file)
    with pytest.raises(ValueError, match=r"torch\.load refused it"):
        load_checkpoint(tmp_path / "object.pt", NeuralNetwork(2, 2))


def test_wrong_architecture_is_refused(tmp_path: Path) -> None:
    model, optimizer, _ = make_run()
    path = save_checkpoint(tmp_path / "run.pt", model, optimizer, epoch=1)
    with pytest.raises(RuntimeError, match="size mismatch"):
        load_checkpoint(path, NeuralNetwork(3, 2))


def test_bad_arguments(tmp_path: Path) -> None:
    model, optimizer, _ = make_run()
    with pytest.raises(ValueError, match="epoch must be at least 0; got -1"):
        save_checkpoint(tmp_path / "a.pt", model, optimizer, epoch=-1)
    with pytest.raises(TypeError, match="epoch must be an int; got float"):
        save_checkpoint(tmp_path / "a.pt", model, optimizer, epoch=1.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"optimizer must be a torch\.optim\.Optimizer"):
        save_checkpoint(tmp_path / "a.pt", model, model, epoch=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"model must be a torch\.nn\.Module; got dict"):
        save_checkpoint(tmp_path / "a.pt", {}, optimizer, epoch=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="path must be a str or a path; got int"):
        load_checkpoint(3, model)  # type: ignore[arg-type]
    assert not (tmp_path / "a.pt").exists()
