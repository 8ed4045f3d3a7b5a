from __future__ import annotations

import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

from tutorial_utils._processes import LOOPBACK, find_free_port
from tutorial_utils.data import toy_tensors
from tutorial_utils.distributed import RankReport, main, run_ddp, train_rank
from tutorial_utils.models import NeuralNetwork


@pytest.fixture(scope="module")
def reports() -> list[RankReport]:
    # Two processes importing torch take a few seconds; a hang is stopped at 90.
    return run_ddp(2, epochs=3, timeout=90)


def test_one_report_per_rank_in_order(reports: list[RankReport]) -> None:
    assert [r.rank for r in reports] == [0, 1]
    assert all(r.world_size == 2 and r.backend == "gloo" for r in reports)
    assert all(r.device == "cpu" for r in reports)


def test_sampler_splits_every_epoch(reports: list[RankReport]) -> None:
    for epoch in range(3):
        shares = [r.samples[epoch] for r in reports]
        assert len(shares[0]) == len(shares[1]) == 3
        # Five samples padded to six: every sample is used, one of them twice.
        assert sorted(set(shares[0] + shares[1])) == [0, 1, 2, 3, 4]
    assert reports[0].samples[0] != reports[0].samples[1]  # set_epoch reshuffles


def test_ddp_copies_rank_zero_and_keeps_ranks_equal(reports: list[RankReport]) -> None:
    first, second = reports
    assert not torch.equal(first.initial_parameters, second.initial_parameters)
    assert torch.equal(second.synced_parameters, first.initial_parameters)
    assert torch.equal(first.parameters, second.parameters)


def test_ddp_equals_one_process_on_the_combined_batch(
    reports: list[RankReport],
) -> None:
    features, labels, _, _ = toy_tensors()
    torch.manual_seed(123)  # rank 0's seed
    model = NeuralNetwork(2, 2)
    sgd = torch.optim.SGD(model.parameters(), lr=0.5)
    for epoch in range(3):
        batch = torch.tensor(reports[0].samples[epoch] + reports[1].samples[epoch])
        loss = F.cross_entropy(model(features[batch]), labels[batch])
        sgd.zero_grad()
        loss.backward()
        sgd.step()
        mean_of_ranks = (reports[0].losses[epoch] + reports[1].losses[epoch]) / 2
        assert loss.item() == pytest.approx(mean_of_ranks, abs=1e-6)
    expected = torch.nn.utils.parameters_to_vector(model.parameters()).detach()
    torch.testing.assert_close(reports[0].parameters, expected)


def test_a_run_over_its_time_limit_is_stopped() -> None:
    # Starting two processes that import torch takes longer than 0.2 s.
    with pytest.raises(TimeoutError, match=r"did not finish within 0\.2 s"):
        run_ddp(2, timeout=0.2)


@pytest.mark.skipif(torch.cuda.is_available(), reason="nccl would work here")
def test_a_failing_rank_stops_the_run(capfd: pytest.CaptureFixture[str]) -> None:
    assert main(["--nprocs=2", "--backend=nccl", "--timeout=90"]) == 1
    assert "failed (exit code 1)" in capfd.readouterr().err


def test_under_torchrun_one_rank_runs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    for name, value in {
        "RANK": "0",
        "LOCAL_RANK": "0",
        "WORLD_SIZE": "1",
        "MASTER_ADDR": LOOPBACK,
        "MASTER_PORT": str(find_free_port()),
    }.items():
        monkeypatch.setenv(name, value)
    assert main(["--epochs=1", f"--output={tmp_path}"]) == 0
    report = torch.load(tmp_path / "rank0.pt", weights_only=True)
    assert report["world_size"] == 1
    assert report["samples"] == [[2, 0, 1, 3, 4]]


def test_train_rank_prints_nothing_and_saves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = train_rank(0, 1, port=find_free_port(), epochs=1, output_dir=tmp_path)
    assert capsys.readouterr().out == ""
    saved = torch.load(tmp_path / "rank0.pt", weights_only=True)
    assert torch.equal(saved["parameters"], report.parameters)


def test_free_port_can_be_bound() -> None:
    port = find_free_port()
    with socket.socket() as sock:
        sock.bind((LOOPBACK, port))


def test_help_names_torchrun() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tutorial_utils.distributed", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "torchrun" in result.stdout
    assert "--nprocs" in result.stdout


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"world_size": 0}, ValueError, "world_size must be at least 1; got 0"),
        ({"world_size": -2}, ValueError, "world_size must be at least 1; got -2"),
        ({"world_size": "2"}, TypeError, "world_size must be an int; got str '2'"),
        ({"epochs": 0}, ValueError, "epochs must be at least 1; got 0"),
        ({"timeout": 0}, ValueError, "timeout must be a finite number greater than 0"),
        (
            {"lr": -0.1},
            ValueError,
            "lr must be a finite number greater than 0; got -0.1",
        ),
    ],
)
def test_run_ddp_bad_arguments(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        run_ddp(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rank", "world_size", "kwargs", "message"),
    [
        (0, 0, {}, "world_size must be at least 1; got 0"),
        (2, 2, {}, "rank must be below world_size 2; got 2"),
        (-1, 2, {}, "rank must be at least 0; got -1"),
        (
            0,
            1,
            {"backend": "mpi"},
            "backend must be one of 'gloo', 'nccl'; got 'mpi'",
        ),
        (0, 1, {"output_dir": "no/such/folder"}, "is not a folder"),
    ],
)
def test_train_rank_bad_arguments(
    rank: int, world_size: int, kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises((ValueError, FileNotFoundError), match=message):
        train_rank(rank, world_size, port=1, **kwargs)  # type: ignore[arg-type]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX process groups")
def test_a_launcher_that_hangs_is_killed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from tutorial_utils import distributed

    stuck = tmp_path / "stuck"
    stuck.write_text("#!/bin/sh\nsleep 60 &\nsleep 60\n")  # and a child of its own
    stuck.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(stuck))
    monkeypatch.setattr(distributed, "_START_MARGIN", 0.5)
    with pytest.raises(TimeoutError, match="every process was stopped"):
        run_ddp(2, timeout=0.5)
    if shutil.which("pgrep"):
        found = subprocess.run(
            ["pgrep", "-f", str(stuck)], capture_output=True, check=False
        )
        assert found.stdout == b"", "the launcher outlived its time limit"


def test_spawned_processes_are_stopped_at_their_time_limit(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import importlib

    from tutorial_utils._processes import run_spawned

    # What a spawned process runs must be importable by it: a module on the
    # path, which the children inherit.
    (tmp_path / "sleeper.py").write_text(
        "import time\n\ndef forever(rank, world_size, options):\n    time.sleep(10**6)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    sleeper = importlib.import_module("sleeper")
    with pytest.raises(TimeoutError, match=r"did not finish within 2 s"):
        run_spawned(sleeper.forever, 2, {}, timeout=2.0)
