"""The small networks the training pages build, train, save and distribute.

- :class:`NeuralNetwork`: an :class:`MLP` with two hidden layers of 30 and
  20 units and ReLU between the layers; with 50 inputs and 3 outputs it has
  2,213 parameters.
- :class:`MLP`: the same kind of network with hidden sizes of your choice,
  used for the handwritten digits.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import torch

from tutorial_utils._checks import check_int

__all__ = ["MLP", "NeuralNetwork"]


class MLP(torch.nn.Module):
    """A multilayer perceptron: linear layers with ReLU between them.

    The last layer has no activation: the network returns :term:`logits`,
    which :func:`torch.nn.functional.cross_entropy` and :func:`torch.softmax`
    take.

    Parameters
    ----------
    num_inputs : int
        Features per sample.
    hidden_sizes : sequence of int
        Units in each hidden layer, in order; may be empty.
    num_outputs : int
        Classes (logits per sample).

    Raises
    ------
    TypeError
        If a size is not an int.
    ValueError
        If a size is below 1.

    Examples
    --------
    >>> model = MLP(64, [32], 10)
    >>> model(torch.zeros(5, 64)).shape
    torch.Size([5, 10])
    >>> MLP(64, [0], 10)
    Traceback (most recent call last):
    ...
    ValueError: hidden_sizes[0] must be at least 1; got 0
    """

    def __init__(
        self, num_inputs: int, hidden_sizes: Sequence[int], num_outputs: int
    ) -> None:
        super().__init__()
        sizes = [check_int("num_inputs", num_inputs, minimum=1)]
        sizes += [
            check_int(f"hidden_sizes[{i}]", size, minimum=1)
            for i, size in enumerate(hidden_sizes)
        ]
        sizes.append(check_int("num_outputs", num_outputs, minimum=1))
        layers: list[torch.nn.Module] = []
        for fan_in, fan_out in pairwise(sizes):
            layers += [torch.nn.Linear(fan_in, fan_out), torch.nn.ReLU()]
        self.num_inputs = sizes[0]
        self.layers = torch.nn.Sequential(*layers[:-1])  # no ReLU after the output

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Return the logits: ``(..., num_inputs)`` in, ``(..., num_outputs)`` out.

        A batch of shape ``(batch, num_inputs)`` gives ``(batch, num_outputs)``.

        Raises
        ------
        ValueError
            If `x` does not have ``num_inputs`` features in its last dimension.
        """
        if x.dim() == 0 or x.shape[-1] != self.num_inputs:
            raise ValueError(
                f"expected inputs with {self.num_inputs} features in the last "
                f"dimension; got shape {tuple(x.shape)}"
            )
        logits: torch.Tensor = self.layers(x)
        return logits


class NeuralNetwork(MLP):
    """An :class:`MLP` with two hidden layers, of 30 and 20 units.

    Its modules are ``Linear``, ``ReLU``, ``Linear``, ``ReLU``, ``Linear``
    in one :class:`torch.nn.Sequential` named ``layers``, so the keys of its
    :term:`state dict` are ``layers.0.weight``, ``layers.0.bias``,
    ``layers.2.weight``, ... ``layers.4.bias``.

    Parameters
    ----------
    num_inputs : int
        Features per sample.
    num_outputs : int
        Classes.

    Examples
    --------
    >>> model = NeuralNetwork(50, 3)
    >>> sum(p.numel() for p in model.parameters())
    2213
    >>> tuple(model.layers[0].weight.shape)
    (30, 50)
    """

    def __init__(self, num_inputs: int, num_outputs: int) -> None:
        super().__init__(num_inputs, [30, 20], num_outputs)
