"""
Initial weights
===============

After this page you can say how a linear layer draws its initial weights,
and how much those weights shrink the layer's inputs. You can also give a
model other initial weights with :mod:`torch.nn.init`.

This in-depth page goes further than
:ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py`. A first
reading can skip it.

**Before this page:**
:ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py` for the
network and its layers, and
:ref:`sphx_glr_auto_examples_gradients_plot_01_automatic_differentiation.py`
for ``torch.no_grad``.
"""

# %%
# This page computes on the CPU.
import matplotlib.pyplot as plt
import torch

from tutorial_utils.environment import environment_summary
from tutorial_utils.models import MLP, NeuralNetwork

print(environment_summary(torch.device("cpu")))

# %%
# The default draw
# ----------------
# A new :class:`torch.nn.Linear` layer with ``n`` inputs draws each weight and
# each bias *uniformly* between ``-1/√n`` and ``1/√n``: every value in that
# range is equally likely.
#
# The site's :class:`~tutorial_utils.models.NeuralNetwork` builds the network
# of the lesson. Seeded the same way, it gets the same weights. Its first
# layer, ``model.layers[0]``, has 50 inputs and 30 outputs, so 1,500
# weights. Printed, it shows only its first and last three rows
# and columns.
torch.manual_seed(123)
model = NeuralNetwork(50, 3)
print(model.layers[0].weight)

# %%
# .. check:: a 30 x 50 tensor prints its first and last three rows and columns
assert isinstance(model.layers[0].weight, torch.nn.Parameter)
assert model.layers[0].weight.numel() > 1000
assert "..." in str(model.layers[0].weight)
_shown = str(torch.arange(1500).view(30, 50)).replace(" ", "")
assert "[[0,1,2,...,47,48,49]," in _shown
assert "[1450,1451,1452,...,1497,1498,1499]])" in _shown
assert _shown.count("\n") == 6  # three rows, a "...," line, three rows
assert "..." not in str(torch.zeros(1000))
assert "..." not in str(torch.zeros(6, 6, 6, 6))  # more elements, printed in full

# %%
# .. check:: seeded the same way, the lesson's layers get the same weights
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(123)
    _lesson = torch.nn.Sequential(
        *(torch.nn.Linear(50, 30), torch.nn.ReLU(), torch.nn.Linear(30, 20)),
        *(torch.nn.ReLU(), torch.nn.Linear(20, 3)),
    )
for _mine, _theirs in zip(_lesson.parameters(), model.parameters(), strict=True):
    assert torch.equal(_mine, _theirs)

# %%
# All 1,500 weights lie within ``±1/√50``. To draw them, ``.numpy()`` needs a
# tensor that does not require gradients: ``detach()`` gives one, and leaves
# the layer as it is. ``ax.imshow`` draws a matrix as an image, one square
# per entry, and ``fig.colorbar`` adds its colour scale. ``vmin`` and
# ``vmax`` fix its ends. The picture shows random
# values spread over the whole range.
bound = 1 / 50**0.5
weight = model.layers[0].weight.detach()
print(f"bound 1/√50 = {bound:.4f}")
print(f"weights from {weight.min():.4f} to {weight.max():.4f}")
assert weight.abs().max() <= bound

fig, ax = plt.subplots(figsize=(8, 4.4), layout="constrained")
image = ax.imshow(weight.numpy(), cmap="PuOr", vmin=-bound, vmax=bound)
ax.set(xlabel="input (column)", ylabel="unit (row)", title="model.layers[0].weight")
fig.colorbar(image, ax=ax, shrink=0.8, label="value")
plt.show()

# %%
# .. check:: the biases lie within ``±1/√50`` too
assert model.layers[0].bias.abs().max() <= bound

# %%
# .. check:: the weights spread over the whole range
assert weight.min() < -0.9 * bound
assert weight.max() > 0.9 * bound

# %%
# .. check:: ``.numpy()`` refuses the weight itself; ``detach`` leaves it as it was
assert model.layers[0].weight.requires_grad
try:
    model.layers[0].weight.numpy()
except RuntimeError:
    pass
else:
    raise AssertionError("numpy() of a tensor that requires grad should raise")
_weight = model.layers[0].weight
_saved = _weight.clone()
_weight.detach()
assert model.layers[0].weight is _weight  # the same Parameter, still in the layer
assert _weight.requires_grad
assert torch.equal(_weight, _saved)
assert not weight.requires_grad

# %%
# Outputs shrink
# --------------
# The *variance* of some numbers measures their spread: the mean of their
# squared distances from their mean. The standard deviation is its square
# root, and ``std()`` computes it. Feed a layer inputs of mean 0 and
# variance 1:
#
# 1. A number drawn uniformly between ``-a`` and ``a`` has variance ``a²/3``.
#    So each weight has variance ``1/(3n)``.
# 2. An output adds ``n`` products of a weight and an input. The weights and
#    inputs are drawn *independently*: no value depends on another.
# 3. For independent numbers of mean 0, a product's variance is the product
#    of their variances. A sum's variance is the sum of theirs. So the
#    output's variance is about ``n · 1/(3n) = 1/3``.
# 4. The biases add their own variance, ``1/(3n)``, too little to matter in
#    a wide layer.
#
# So the standard deviation shrinks by about ``1/√3 ≈ 0.58``. A layer of 512
# inputs and outputs shows it on 4,096 rows of inputs. ``torch.randn`` draws
# numbers of mean 0 and variance 1. ``std()`` runs over every element.
# :class:`torch.no_grad` skips the graph.
#
# .. detail:: ``std()`` divides by one less
#
#    By default, ``std()`` and ``var()`` divide the sum of squared distances
#    by one less than the count. For thousands of numbers, that changes the
#    result by far less than 1 %.
#
# .. detail:: Why the product and sum rules hold
#
#    For independent ``x`` and ``w`` of mean 0, the mean of ``(x·w)²`` is
#    the mean of ``x²`` times that of ``w²``. The mean of ``x·w`` is 0. So
#    the mean of ``(x + w)² = x² + 2·x·w + w²`` is that of ``x²`` plus that
#    of ``w²``. With mean 0, each mean of squares is a variance.
torch.manual_seed(123)
wide = torch.nn.Linear(512, 512)
inputs = torch.randn(4096, 512)
with torch.no_grad():
    outputs = wide(inputs)
ratio = outputs.std() / inputs.std()
print(f"std in {inputs.std():.3f}, out {outputs.std():.3f}: ratio {ratio:.3f}")
print(f"1/√3 = {3**-0.5:.3f}")
assert abs(ratio - 3**-0.5) < 0.01

# %%
# .. check:: uniform on ``±a`` has variance ``a²/3``; the product and sum rules hold
with torch.random.fork_rng(devices=[]):
    _a, _b = torch.rand(100_000) * 2 - 1, torch.randn(100_000)
    assert abs(_a.var() * 3 - 1) < 0.02
    assert abs((_a * _b).var() / (_a.var() * _b.var()) - 1) < 0.02
    assert abs((_a + _b).var() / (_a.var() + _b.var()) - 1) < 0.02
    assert abs(((_a * _b) ** 2).mean() / ((_a**2).mean() * (_b**2).mean()) - 1) < 0.02
    assert abs((_a * _b).mean()) < 0.01

# %%
# .. check:: each weight of the wide layer has variance about ``1/(3n)``
assert abs(wide.weight.var().item() * 3 * 512 - 1) < 0.02

# %%
# .. check:: the biases change the spread little
with torch.no_grad():
    _without_bias = (outputs - wide.bias).std() / inputs.std()
assert abs(_without_bias - ratio) < 0.002
assert abs(_without_bias - 3**-0.5) < 0.01

# %%
# .. check:: dividing by one less changes the std by far less than 1 %
assert abs(outputs.std() / outputs.std(correction=0) - 1) < 1e-6
with torch.random.fork_rng(devices=[]):
    _thousand = torch.randn(1000)
assert abs(_thousand.std() / _thousand.std(correction=0) - 1) < 0.001


# %%
# Choosing other initial weights
# ------------------------------
# To choose other initial weights, write a function that sets one layer.
# It must skip the parts without weights, such as ReLU. Pass it to the model's
# :meth:`~torch.nn.Module.apply`. The parts of a model are modules too: each
# layer, and the ``Sequential`` that holds them. ``apply`` calls the
# function on each part, inner parts first, and last on the model itself.
# It returns the model. The first ``apply`` below only records the order of
# its visits.
#
# The functions of :mod:`torch.nn.init` whose names end in ``_`` fill a
# tensor in place and return it. Each switches :class:`torch.no_grad` on
# itself, so it may change :term:`parameters <parameter>`. Two of them:
#
# - ``kaiming_normal_``, named after Kaiming He, draws from a normal
#   distribution. ``nonlinearity="relu"`` suits layers followed by a ReLU.
#   Its default ``mode="fan_in"`` counts the *fan-in*: the number of inputs
#   of each output. For ``n`` inputs, its standard deviation is ``√(2/n)``.
#   Here the output layer gets it too.
# - ``zeros_`` sets every element to 0.
#
# The site's :class:`~tutorial_utils.models.MLP` builds a network like the
# lesson's, with hidden sizes of your choice. ``MLP(64, [256, 256], 10)`` has
# 64 inputs, two hidden layers of 256 units and 10 outputs. ``layers[::2]``
# picks every second layer: the linear ones. A linear layer's
# ``in_features`` is its number of inputs.
#
# .. detail:: Why under ``no_grad``
#
#    Outside :class:`torch.no_grad`, autograd refuses an in-place operation,
#    such as ``p.zero_()``, on a parameter ``p`` that requires gradients.
#    Under it, autograd records nothing and allows the change.
#
# .. detail:: Why ``√(2/n)``
#
#    With weights of mean 0 and biases 0, the outputs' variance follows the
#    mean of the inputs' squares, not their variance. They agree for inputs
#    of mean 0. A ReLU's outputs are never negative, so their mean is not 0.
#    For inputs spread evenly around 0, a ReLU sets about half of them to
#    0. That halves the mean of their squares. Kaiming's variance, ``2/n``,
#    makes up for the lost half. So the variance stays about the same from
#    one linear layer to the next. With the default draw, it falls to about
#    ``1/3 · 1/2 = 1/6`` at each layer.
def init_weights(module: torch.nn.Module) -> None:
    if isinstance(module, torch.nn.Linear):
        torch.nn.init.kaiming_normal_(module.weight, nonlinearity="relu")
        torch.nn.init.zeros_(module.bias)


torch.manual_seed(0)
mlp = MLP(64, [256, 256], 10)
visited = []
mlp.apply(lambda module: visited.append(type(module).__name__))
print("apply visits:", visited)
mlp.apply(init_weights)
for layer in mlp.layers[::2]:
    std, target = layer.weight.std().item(), (2 / layer.in_features) ** 0.5
    print(f"{tuple(layer.weight.shape)}: std {std:.4f}, sqrt(2/n_in) {target:.4f}")

# %%
# .. check:: the default draw of each layer lies within ``±1/√n``
with torch.random.fork_rng(devices=[]):
    _default = MLP(64, [256, 256], 10)  # a new model: the default
for _layer in _default.layers[::2]:
    _bound = 1 / _layer.in_features**0.5
    assert max(_layer.weight.abs().max(), _layer.bias.abs().max()) <= _bound

# %%
# .. check:: ``apply`` visits children first, the model last, and returns it
assert visited == ["Linear", "ReLU", "Linear", "ReLU", "Linear", "Sequential", "MLP"]
assert mlp.apply(lambda module: None) is mlp

# %%
# .. check:: Kaiming's weights have std ``√(2/n)``; the biases are 0
for _layer in mlp.layers[::2]:
    _std, _target = _layer.weight.std().item(), (2 / _layer.in_features) ** 0.5
    assert abs(_std / _target - 1) < 0.1
    assert not _layer.bias.any()
    assert _layer.weight.is_leaf
    assert _layer.weight.requires_grad
with torch.random.fork_rng(devices=[]):  # mode="fan_out" counts the outputs
    _w = torch.empty(256, 64)
    torch.nn.init.kaiming_normal_(_w, mode="fan_out", nonlinearity="relu")
assert abs(_w.std() / (2 / 256) ** 0.5 - 1) < 0.1

# %%
# .. check:: init works outside ``no_grad``; ``p.zero_()`` there raises
with torch.random.fork_rng(devices=[]):
    _probe = torch.nn.Linear(4, 4)
_weight, _address = _probe.weight, _probe.weight.data_ptr()
assert torch.is_grad_enabled()
assert _weight.requires_grad
assert torch.nn.init.zeros_(_weight) is _weight
assert _weight.data_ptr() == _address
assert _probe.weight is _weight
try:  # outside torch.no_grad, with requires_grad=True
    mlp.layers[0].bias.zero_()
except RuntimeError:
    pass
else:
    raise AssertionError("an in-place change of a leaf parameter did not raise")
with torch.no_grad():
    _probe.bias.zero_()
_probe.weight.detach().fill_(1.0)  # not on the parameter itself: allowed
assert not _probe.bias.any()
assert _probe.weight.eq(1).all()

# %%
# .. check:: per layer, Kaiming's draw keeps the variance, the default cuts it
with torch.random.fork_rng(devices=[]), torch.no_grad():
    _fresh = MLP(64, [256, 256], 10)  # a new model: the default draw
    for _net, _low, _high in ((mlp, 0.8, 1.25), (_fresh, 0.1, 0.25)):
        _y = _net.layers[0](torch.randn(4096, 64))
        for _linear in _net.layers[2::2]:
            _next = _linear(_y.relu())
            assert _low < _next.var() / _y.var() < _high
            _y = _next

# %%
# .. check:: with weights of mean 0, output variance follows the inputs' mean square
with torch.random.fork_rng(devices=[]), torch.no_grad():
    _layer, _x = torch.nn.Linear(256, 256, bias=False), torch.randn(4096, 256)
    _kept = _layer(_x.abs()).var() / _layer(_x).var()  # same mean square
    assert abs(_kept - 1) < 0.1
    assert _x.abs().var() < 0.5 * _x.var()

# %%
# .. check:: a ReLU halves the mean square of inputs spread evenly around 0
with torch.random.fork_rng(devices=[]), torch.no_grad():
    for _net in (mlp, MLP(64, [256, 256], 10)):
        _y = _net.layers[0](torch.randn(4096, 64))
        assert abs((_y.relu() ** 2).mean() / (_y**2).mean() - 0.5) < 0.05

# %%
# Summary
# -------
# - A new :class:`torch.nn.Linear` draws its weights and biases uniformly
#   between ``±1/√n``, for ``n`` inputs.
# - A wide layer drawn this way turns inputs of mean 0 and variance 1 into
#   outputs of standard deviation about ``1/√3``.
# - ``model.apply(init_weights)`` with :mod:`torch.nn.init` sets other
#   initial weights, layer by layer.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_52_loader_order_and_workers.py`.
