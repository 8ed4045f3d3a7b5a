from __future__ import annotations

import pytest
import torch

from tutorial_utils.models import MLP, NeuralNetwork


def count(model: torch.nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


class SourceTextNetwork(torch.nn.Module):
    """The network exactly as the source text writes it."""

    def __init__(self, num_inputs: int, num_outputs: int) -> None:
        super().__init__()
        self.layers = torch.nn.Sequential(
            torch.nn.Linear(num_inputs, 30),
            torch.nn.ReLU(),
            torch.nn.Linear(30, 20),
            torch.nn.ReLU(),
            torch.nn.Linear(20, num_outputs),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        logits: torch.Tensor = self.layers(x)
        return logits


def test_same_modules_and_weights_as_the_source_text() -> None:
    torch.manual_seed(3)
    ours = NeuralNetwork(50, 3)
    torch.manual_seed(3)
    theirs = SourceTextNetwork(50, 3)
    assert repr(ours).replace("NeuralNetwork", "X") == repr(theirs).replace(
        "SourceTextNetwork", "X"
    )
    assert ours.state_dict().keys() == theirs.state_dict().keys()
    for a, b in zip(
        ours.state_dict().values(), theirs.state_dict().values(), strict=True
    ):
        assert torch.equal(a, b)


def test_parameter_count() -> None:
    assert count(NeuralNetwork(50, 3)) == 2213
    assert count(NeuralNetwork(2, 2)) == 752
    # 64*32 + 32 + 32*10 + 10
    assert count(MLP(64, [32], 10)) == 2410


def test_mlp_without_hidden_layers_is_linear() -> None:
    model = MLP(4, [], 3)
    assert len(model.layers) == 1
    assert isinstance(model.layers[0], torch.nn.Linear)


def test_forward_shapes_and_wrong_width() -> None:
    model = MLP(4, [8, 8], 3)
    assert model(torch.zeros(7, 4)).shape == (7, 3)
    with pytest.raises(ValueError, match=r"4 features .* got shape \(7, 5\)"):
        model(torch.zeros(7, 5))


def test_bad_sizes() -> None:
    with pytest.raises(ValueError, match="num_outputs must be at least 1; got 0"):
        NeuralNetwork(2, 0)
    with pytest.raises(TypeError, match=r"num_inputs must be an int; got float 2\.0"):
        MLP(2.0, [3], 1)  # type: ignore[arg-type]
    with pytest.raises(
        ValueError, match=r"hidden_sizes\[1\] must be at least 1; got -3"
    ):
        MLP(2, [4, -3], 1)
