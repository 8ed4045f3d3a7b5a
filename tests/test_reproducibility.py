from __future__ import annotations

import multiprocessing
import random

import numpy as np
import pytest
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset

from tutorial_utils.reproducibility import (
    reset_global_state,
    seed_everything,
    seed_worker,
)

MAX_SEED = 2**32 - 1  # the largest seed NumPy's global generator takes


def draw() -> tuple[float, float, torch.Tensor]:
    return random.random(), float(np.random.rand()), torch.rand(3)  # noqa: NPY002


def test_same_seed_same_numbers_in_every_library() -> None:
    reset_global_state(123)
    first = draw()
    reset_global_state(123)
    second = draw()
    assert first[:2] == second[:2]
    torch.testing.assert_close(first[2], second[2], rtol=0, atol=0)


def test_other_seed_other_numbers() -> None:
    reset_global_state(1)
    first = draw()
    reset_global_state(2)
    assert draw()[0] != first[0]


def test_seed_matches_torch_manual_seed() -> None:
    torch.manual_seed(1)
    expected = torch.rand(6)
    reset_global_state(1)
    torch.testing.assert_close(torch.rand(6), expected, rtol=0, atol=0)


@pytest.mark.parametrize("seed", [0, MAX_SEED, np.int64(7)])
def test_accepted_seeds(seed: int) -> None:
    reset_global_state(seed)
    assert random.random() == random.Random(int(seed)).random()


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1])
def test_out_of_range_seed(seed: int) -> None:
    with pytest.raises(ValueError, match=f"between 0 and {MAX_SEED}; got {seed}"):
        reset_global_state(seed)


@pytest.mark.parametrize("seed", [1.0, "1", True, None])
def test_seed_of_wrong_type(seed: object) -> None:
    with pytest.raises(TypeError, match="seed must be an int"):
        reset_global_state(seed)  # type: ignore[arg-type]


def test_reset_restores_defaults_and_seeds() -> None:
    torch.set_default_dtype(torch.float64)
    torch.set_grad_enabled(False)
    torch.set_printoptions(precision=1)
    torch.set_float32_matmul_precision("medium")
    torch.manual_seed(99)
    try:
        reset_global_state(seed=0)
        assert torch.get_default_dtype() == torch.float32
        assert torch.is_grad_enabled()
        assert torch.get_float32_matmul_precision() == "highest"
        assert torch.tensor([1 / 3]).__repr__() == "tensor([0.3333])"
        assert torch.empty(1).device == torch.device("cpu")
        torch.testing.assert_close(
            torch.rand(1), torch.tensor([0.4963]), atol=1e-4, rtol=0
        )
    finally:
        reset_global_state()


@pytest.mark.parametrize("warn_only", [False, True])
def test_reset_turns_deterministic_algorithms_off(warn_only: bool) -> None:
    import torch._inductor.config as inductor_config

    torch.use_deterministic_algorithms(True, warn_only=warn_only)
    try:
        reset_global_state()
        assert not torch.are_deterministic_algorithms_enabled()
        assert not torch.is_deterministic_algorithms_warn_only_enabled()
        assert inductor_config.deterministic is False
    finally:
        torch.use_deterministic_algorithms(False)


@pytest.mark.parametrize("seed", [0, 123, MAX_SEED, np.int64(7)])
def test_seed_everything_makes_the_three_calls(seed: int) -> None:
    random.seed(int(seed))
    np.random.seed(int(seed))  # noqa: NPY002
    torch.manual_seed(int(seed))
    expected = draw()
    returned = seed_everything(seed)
    assert type(returned) is int
    assert returned == seed
    got = draw()
    assert got[:2] == expected[:2]
    torch.testing.assert_close(got[2], expected[2], rtol=0, atol=0)


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1])
def test_seed_everything_refuses_out_of_range_seeds(seed: int) -> None:
    with pytest.raises(ValueError, match=f"seed must be between 0 and {MAX_SEED}"):
        seed_everything(seed)


@pytest.mark.parametrize("seed", [1.0, "1", True, None])
def test_seed_everything_refuses_seeds_of_wrong_type(seed: object) -> None:
    with pytest.raises(TypeError, match="seed must be an int"):
        seed_everything(seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("torch_seed", [0, 5, 2**32 + 5, 2**64 - 1])
def test_seed_worker_follows_the_recipe(torch_seed: int) -> None:
    torch.manual_seed(torch_seed)
    expected = torch_seed % 2**32
    assert seed_worker(3) == expected
    assert random.random() == random.Random(expected).random()
    assert np.random.rand() == np.random.RandomState(expected).rand()  # noqa: NPY002


@pytest.mark.parametrize(
    ("worker_id", "error"), [(-1, ValueError), (1.0, TypeError), (True, TypeError)]
)
def test_seed_worker_refuses_bad_ids(worker_id: object, error: type) -> None:
    with pytest.raises(error, match="worker_id must be"):
        seed_worker(worker_id)  # type: ignore[arg-type]


class Draws(Dataset[tuple[int, float, float]]):
    """Four samples, each what the process that loads it draws."""

    def __len__(self) -> int:
        return 4

    def __getitem__(self, index: int) -> tuple[int, float, float]:
        return torch.initial_seed(), random.random(), float(np.random.rand())  # noqa: NPY002


def worker_draws(seed: int) -> list[tuple[int, float, float]]:
    loader = DataLoader(
        Draws(),
        batch_size=None,
        num_workers=2,
        generator=torch.Generator().manual_seed(seed),
        worker_init_fn=seed_worker,
        multiprocessing_context="fork",
    )
    return [tuple(sample) for sample in loader]


@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="needs fork"
)
def test_seed_worker_seeds_each_worker_from_its_torch_seed() -> None:
    draws = worker_draws(5)
    base = torch.empty((), dtype=torch.int64)
    base = int(base.random_(generator=torch.Generator().manual_seed(5)))
    # Samples go to the workers in turn: 0 and 2 to worker 0, 1 and 3 to worker 1.
    assert [torch_seed for torch_seed, _, _ in draws] == [base, base + 1] * 2
    for torch_seed, first_random, first_numpy in draws[:2]:
        seed = torch_seed % 2**32
        assert first_random == random.Random(seed).random()
        assert first_numpy == np.random.RandomState(seed).rand()
    assert worker_draws(5) == draws
    assert worker_draws(6) != draws


def test_seed_worker_can_be_imported_by_spawned_workers() -> None:
    """A worker started with spawn unpickles worker_init_fn by importing it."""
    data = TensorDataset(torch.arange(12.0))

    def batches(num_workers: int) -> list[torch.Tensor]:
        loader = DataLoader(
            data,
            batch_size=4,
            shuffle=True,
            num_workers=num_workers,
            generator=torch.Generator().manual_seed(0),
            worker_init_fn=seed_worker,
            multiprocessing_context="spawn" if num_workers else None,
        )
        return [batch for (batch,) in loader]

    in_workers, in_main = batches(2), batches(0)
    assert len(in_workers) == len(in_main) == 3
    for got, expected in zip(in_workers, in_main, strict=True):
        torch.testing.assert_close(got, expected, rtol=0, atol=0)
