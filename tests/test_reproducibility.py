from __future__ import annotations

import random

import numpy as np
import pytest
import torch

from tutorial_utils.reproducibility import reset_global_state

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
