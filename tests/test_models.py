from __future__ import annotations

import pytest
import torch

from tutorial_utils.models import MLP, NeuralNetwork, count_parameters


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
    assert count_parameters(NeuralNetwork(50, 3)) == 2213
    assert count_parameters(NeuralNetwork(2, 2)) == 752
    # 64*32 + 32 + 32*10 + 10
    assert count_parameters(MLP(64, [32], 10)) == 2410


def test_frozen_parameters_are_not_trainable() -> None:
    model = NeuralNetwork(2, 2)
    model.layers[0].requires_grad_(False)
    assert count_parameters(model) == 752 - 90
    assert count_parameters(model, trainable_only=False) == 752


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
    with pytest.raises(TypeError, match="num_inputs must be an int; got float"):
        MLP(2.0, [3], 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"must be a torch\.nn\.Module; got Tensor"):
        count_parameters(torch.zeros(1))  # type: ignore[arg-type]
