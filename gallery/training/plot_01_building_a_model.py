"""
Building a model
================

Write a neural network as a :class:`torch.nn.Module`, count and inspect its
parameters, run inputs through it with and without autograd, and turn its
outputs into class probabilities.
"""

# %%
# Every page starts by saying what computed it. The network on this page is
# small enough that a GPU would only add the cost of copying, so the page
# runs on the CPU, where the seeded numbers are the same on every machine.
import matplotlib.pyplot as plt
import torch

from tutorial_utils.devices import pick_device
from tutorial_utils.environment import environment_summary
from tutorial_utils.models import NeuralNetwork as HelperNetwork
from tutorial_utils.models import count_parameters
from tutorial_utils.plotting import PALETTE

device = pick_device("cpu")
print(environment_summary(device))

# %%
# A network is a class
# --------------------
# A model in PyTorch is a subclass of :class:`torch.nn.Module`. Its
# ``__init__`` creates the layers and stores them as attributes, which
# registers their parameters with the module; :meth:`~torch.nn.Module.forward`
# says how an input flows through them. There is no ``backward`` to write:
# autograd records the forward pass and differentiates it.
#
# This one is a *multilayer perceptron*: two hidden layers of 30 and 20 units,
# each a :class:`torch.nn.Linear` followed by a :class:`torch.nn.ReLU`, and a
# linear output layer. :class:`torch.nn.Sequential` chains them in order.


class NeuralNetwork(torch.nn.Module):
    def __init__(self, num_inputs, num_outputs):
        super().__init__()
        self.layers = torch.nn.Sequential(
            # 1st hidden layer
            torch.nn.Linear(num_inputs, 30),
            torch.nn.ReLU(),
            # 2nd hidden layer
            torch.nn.Linear(30, 20),
            torch.nn.ReLU(),
            # output layer
            torch.nn.Linear(20, num_outputs),
        )

    def forward(self, x):
        logits = self.layers(x)
        return logits


# %%
# An instance with 50 inputs and 3 outputs classifies 50-number samples into
# three classes. Printing a module lists its sub-modules, numbered in the
# order :class:`~torch.nn.Sequential` runs them.
torch.manual_seed(123)
model = NeuralNetwork(50, 3)
print(model)

# sphinx_gallery_start_ignore
as_printed_in_the_source_text = """NeuralNetwork(
  (layers): Sequential(
    (0): Linear(in_features=50, out_features=30, bias=True)
    (1): ReLU()
    (2): Linear(in_features=30, out_features=20, bias=True)
    (3): ReLU()
    (4): Linear(in_features=20, out_features=3, bias=True)
  )
)"""
assert str(model) == as_printed_in_the_source_text
# sphinx_gallery_end_ignore

# %%
# Counting parameters
# -------------------
# :meth:`~torch.nn.Module.parameters` yields every weight and bias tensor
# of every layer. A parameter is *trainable* when its ``requires_grad`` is
# ``True``, which is the default; the optimiser will change exactly those
# numbers.
num_params = sum(p.numel() for p in model.parameters() if p.requires_grad)
print("Total number of trainable model parameters:", num_params)

# sphinx_gallery_start_ignore
assert num_params == 2213
# sphinx_gallery_end_ignore

# %%
# :meth:`~torch.nn.Module.named_parameters` says where they are: a linear
# layer from ``n`` inputs to ``m`` outputs holds an ``m`` x ``n`` weight
# matrix and ``m`` biases, so the three layers hold 50·30 + 30, 30·20 + 20
# and 20·3 + 3 numbers. The ReLUs have none.
for name, parameter in model.named_parameters():
    print(f"{name:15} shape {tuple(parameter.shape)!s:9} {parameter.numel():5d}")

# sphinx_gallery_start_ignore
assert [p.numel() for p in model.parameters()] == [1500, 30, 600, 20, 60, 3]
assert num_params == 50 * 30 + 30 + 30 * 20 + 20 + 20 * 3 + 3
# sphinx_gallery_end_ignore

# %%
# The count of trainable parameters changes when a layer is *frozen*, as
# when fine-tuning only the last layer of a model;
# :func:`~tutorial_utils.models.count_parameters` counts either way.
model.layers[0].requires_grad_(False)
print("trainable with layer 0 frozen:", count_parameters(model))
print("all parameters:               ", count_parameters(model, trainable_only=False))
model.layers[0].requires_grad_(True)

# sphinx_gallery_start_ignore
assert count_parameters(model) == num_params
model.layers[0].requires_grad_(False)
assert count_parameters(model) == num_params - 1530
model.layers[0].requires_grad_(True)
# sphinx_gallery_end_ignore

# %%
# Most of the parameters sit in the first layer, where the inputs are many.
# Each bar below is split into weights and biases.
names = ["layers.0 (50 → 30)", "layers.2 (30 → 20)", "layers.4 (20 → 3)"]
linears = [model.layers[0], model.layers[2], model.layers[4]]
weights = [layer.weight.numel() for layer in linears]
biases = [layer.bias.numel() for layer in linears]

fig, ax = plt.subplots(figsize=(8, 2.8), layout="constrained")
ax.barh(names, weights, color=PALETTE[5], label="weights")
ax.barh(names, biases, left=weights, color=PALETTE[1], label="biases")
for row, (w, b) in enumerate(zip(weights, biases, strict=True)):
    ax.text(w + b + 20, row, f"{w} + {b} = {w + b}", va="center")
ax.invert_yaxis()
ax.set(
    xlabel="parameters",
    xlim=(0, 2000),
    title=f"{num_params:,} parameters in three linear layers",
)
ax.legend(loc="lower right")
plt.show()

# %%
# One layer up close
# ------------------
# A layer's ``weight`` is a :class:`torch.nn.Parameter`,
# a tensor that a module registers as trainable. Printing it shows only the
# corners of its 30 rows and 50 columns.
print(model.layers[0].weight)
print(model.layers[0].weight.shape)

# sphinx_gallery_start_ignore
assert isinstance(model.layers[0].weight, torch.nn.Parameter)
assert model.layers[0].weight.shape == (30, 50)
# sphinx_gallery_end_ignore

# %%
# The shape is (outputs, inputs): the layer computes ``x @ W.T + b``, so
# each of the 30 rows of ``W`` makes one output from all 50 inputs.
torch.manual_seed(1)
x = torch.rand(2, 50)
layer = model.layers[0]
by_hand = x @ layer.weight.T + layer.bias
torch.testing.assert_close(layer(x), by_hand)
print("layer(x) equals x @ W.T + b, shape", tuple(by_hand.shape))

# %%
# The weights start random. PyTorch's default draws each weight of a linear
# layer uniformly between ``-1/√n`` and ``1/√n`` for ``n`` inputs, which
# keeps the outputs of the first layer about as large as its inputs. The
# picture shows the 30 x 50 matrix: no structure yet, only noise within
# those bounds. (The source text printed the weights of a model it had not
# seeded, numbers that no one can reproduce: that is why these pages seed
# before every random draw they print.)
bound = 1 / 50**0.5
weight = model.layers[0].weight.detach()
print(
    f"bound 1/√50 = {bound:.4f}; weights from {weight.min():.4f} to {weight.max():.4f}"
)

fig, ax = plt.subplots(figsize=(8, 4.4), layout="constrained")
image = ax.imshow(weight.numpy(), cmap="PuOr", vmin=-bound, vmax=bound)
ax.set(xlabel="input (column)", ylabel="unit (row)", title="model.layers[0].weight")
fig.colorbar(image, ax=ax, shrink=0.8, label="value")
plt.show()

# sphinx_gallery_start_ignore
assert weight.abs().max() <= bound
assert weight.min() < -0.9 * bound
assert weight.max() > 0.9 * bound
# sphinx_gallery_end_ignore

# %%
# The forward pass
# ----------------
# Calling the model on a batch runs :meth:`~torch.nn.Module.forward` (call
# the model, not ``forward`` itself: the call also runs the hooks that some
# tools add). The input is one sample of 50 random numbers, so the batch
# dimension is 1 and the output holds one *logit* per class.
torch.manual_seed(123)
X = torch.rand((1, 50))
out = model(X)
print(out)

# sphinx_gallery_start_ignore
assert out.shape == (1, 3)
assert out.requires_grad
assert type(out.grad_fn).__name__ == "AddmmBackward0"
# sphinx_gallery_end_ignore

# %%
# The ``grad_fn`` says that autograd recorded the computation, ready for a
# backward pass: the last operation was an ``addmm``, the matrix product
# plus bias of the output layer. To only use a model, that record is wasted
# memory and time. Inside :class:`torch.no_grad` nothing is recorded; the
# numbers are the same.
with torch.no_grad():
    out_no_grad = model(X)
print(out_no_grad)

# sphinx_gallery_start_ignore
assert out_no_grad.grad_fn is None
assert not out_no_grad.requires_grad
assert torch.equal(out_no_grad, out.detach())
# sphinx_gallery_end_ignore

# %%
# From logits to probabilities
# ----------------------------
# The last layer has no activation: models return logits, and the loss
# function of the training page applies the softmax itself, in a
# numerically safer way. For probabilities, apply :func:`torch.softmax`
# over the class dimension: ``exp(logit)`` divided by the sum of those of
# the sample, so that each row is positive and sums to 1.
with torch.no_grad():
    probas = torch.softmax(model(X), dim=1)
print(probas)
print("sum of each row:", probas.sum(dim=1))

# sphinx_gallery_start_ignore
torch.testing.assert_close(probas, out_no_grad.exp() / out_no_grad.exp().sum())
torch.testing.assert_close(probas.sum(dim=1), torch.ones(1))
assert torch.equal(probas.argmax(dim=1), out_no_grad.argmax(dim=1))
# sphinx_gallery_end_ignore

# %%
# The softmax keeps the order of the logits, so the largest logit is the
# most likely class. The source text printed the logits
# ``[0.0623, -0.0063, -0.1485]`` and the probabilities
# ``[0.3645, 0.3403, 0.2952]`` of its own, unseeded, model; its two lines
# agree with each other:
source_logits = torch.tensor([[0.0623, -0.0063, -0.1485]])
print(torch.softmax(source_logits, dim=1))

# sphinx_gallery_start_ignore
source_probas = torch.tensor([[0.3645, 0.3403, 0.2952]])
torch.testing.assert_close(
    torch.softmax(source_logits, dim=1), source_probas, atol=1e-4, rtol=0
)
# sphinx_gallery_end_ignore

# %%
# Side by side, the logits of the model above and the probabilities they
# become:
fig, (ax_l, ax_p) = plt.subplots(1, 2, figsize=(8, 2.6), layout="constrained")
classes = ["class 0", "class 1", "class 2"]
ax_l.bar(classes, out_no_grad[0].numpy(), color=PALETTE[5])
ax_l.axhline(0, color="black", linewidth=0.8)
ax_l.set(title="logits: model(X)", ylabel="value")
ax_p.bar(classes, probas[0].numpy(), color=PALETTE[2])
ax_p.set(title="torch.softmax(model(X), dim=1)", ylim=(0, 1))
for i, p in enumerate(probas[0].tolist()):
    ax_p.text(i, p + 0.03, f"{p:.4f}", ha="center")
plt.show()

# %%
# Batches and wrong shapes
# ------------------------
# Layers work on whole batches: each row of the input is one sample, and
# the rows do not affect each other. Four samples at once give the same
# rows as four separate calls.
torch.manual_seed(2)
batch = torch.rand(4, 50)
with torch.no_grad():
    together = model(batch)
    one_by_one = torch.cat([model(row.unsqueeze(0)) for row in batch])
print(together.shape)
torch.testing.assert_close(together, one_by_one)

# %%
# The last dimension must be the number of inputs. A sample of 40 numbers
# cannot be multiplied with the 30 x 50 weight matrix:
try:
    model(torch.rand(1, 40))
except RuntimeError as error:
    print("RuntimeError:", error)

# %%
# The same network for the next pages
# -----------------------------------
# The next pages import this network from
# :class:`tutorial_utils.models.NeuralNetwork`, which has the same layers
# in the same order, so the same seed gives the same weights, and a clearer
# message for an input of the wrong width.
torch.manual_seed(123)
helper_model = HelperNetwork(50, 3)
same = all(
    torch.equal(a, b)
    for a, b in zip(helper_model.parameters(), model.parameters(), strict=True)
)
print("same weights:", same, "| same layers:", str(helper_model) == str(model))
try:
    helper_model(torch.rand(1, 40))
except ValueError as error:
    print("ValueError:", error)

# sphinx_gallery_start_ignore
assert same
assert str(helper_model) == str(model)
# sphinx_gallery_end_ignore

# %%
# Summary
# -------
# - A model subclasses :class:`torch.nn.Module`: layers in ``__init__``,
#   the computation in :meth:`~torch.nn.Module.forward`; autograd provides
#   the backward pass.
# - :meth:`~torch.nn.Module.parameters` lists the weights and biases; a
#   linear layer from ``n`` to ``m`` units has ``m·n + m`` of them, its
#   weight has the shape ``(m, n)``.
# - Calling the model records a graph (``grad_fn``); under
#   :class:`torch.no_grad` it does not, with the same numbers.
# - Models return logits; :func:`torch.softmax` over ``dim=1`` turns them
#   into probabilities, in the same order.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py`,
# which feeds a model batches of data.
