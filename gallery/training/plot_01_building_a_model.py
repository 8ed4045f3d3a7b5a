"""
Building a model
================

Write a neural network as a :class:`torch.nn.Module`, count its parameters by
formula and by code, run inputs through it with and without autograd, turn
its outputs into class probabilities, and move it to another device.
"""

# %%
# Every page starts by saying what computed it. This page computes on the
# CPU; its last section shows the code that moves a model to a GPU, which
# runs only where there is one.
import copy

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F

from tutorial_utils.colours import PALETTE
from tutorial_utils.environment import environment_summary
from tutorial_utils.models import NeuralNetwork as HelperNetwork

device = torch.device("cpu")
print(environment_summary(device))

# %%
# A network is a class
# --------------------
# A model in PyTorch is an instance of a subclass of :class:`torch.nn.Module`.
# Its ``__init__`` creates the layers and stores them as attributes, which
# registers them, and their :term:`parameters <parameter>`, with the
# :term:`module`;
# :meth:`~torch.nn.Module.forward` says how an input flows through them.
# There is no ``backward`` to write: autograd records the forward pass and
# differentiates it.
#
# This one is a *multilayer perceptron*: a chain of linear layers with a
# nonlinearity between them. It has two *hidden* layers (neither input nor
# output) of 30 and 20 *units* (outputs), each a :class:`torch.nn.Linear`
# followed by a :class:`torch.nn.ReLU`, and a linear output layer.
# :class:`torch.nn.Sequential` chains them in order.


class NeuralNetwork(torch.nn.Module):
    def __init__(self, num_inputs, num_outputs):
        super().__init__()
        self.layers = torch.nn.Sequential(
            torch.nn.Linear(num_inputs, 30),  # 1st hidden layer
            torch.nn.ReLU(),
            torch.nn.Linear(30, 20),  # 2nd hidden layer
            torch.nn.ReLU(),
            torch.nn.Linear(20, num_outputs),  # output layer
        )

    def forward(self, x):
        logits = self.layers(x)
        return logits


# %%
# An instance with 50 inputs and 3 outputs turns each sample of 50 numbers
# into three scores, one per class. Seeding first fixes its random initial
# weights. Printing a module lists its sub-modules, numbered in the order
# :class:`~torch.nn.Sequential` runs them.
torch.manual_seed(123)
model = NeuralNetwork(50, 3)
print(model)

# %%
# Counting parameters
# -------------------
# :meth:`~torch.nn.Module.named_parameters` yields every weight and bias
# :term:`tensor` of every layer, with its name. A linear layer from ``n``
# inputs to ``m`` outputs holds an ``m`` x ``n`` weight matrix and, with
# ``bias=True`` (the default), ``m`` biases; the ReLUs hold none.
for name, parameter in model.named_parameters():
    print(f"{name:15} shape {tuple(parameter.shape)!s:9} {parameter.numel():5d}")

# %%
# .. check:: the ReLUs hold no parameters
assert not list(model.layers[1].parameters())  # a ReLU

# %%
# So a linear layer with a bias has ``m·n + m`` parameters (``m·n`` with
# ``bias=False``), and the network has the sum over its three layers. The
# formula and PyTorch's own count agree, and more than two thirds of the
# parameters sit in the first layer, where the inputs are many:


def linear_parameters(n, m):
    """Weights and biases of a linear layer from n inputs to m outputs."""
    return m * n + m


by_formula = (
    linear_parameters(50, 30) + linear_parameters(30, 20) + linear_parameters(20, 3)
)
num_params = sum(p.numel() for p in model.parameters())
print("by formula:", by_formula, "| counted by PyTorch:", num_params)

# %%
# .. check:: formula and count agree, over two thirds sit in layer 0, ``bias=False`` leaves ``m·n``
assert by_formula == num_params
assert linear_parameters(50, 30) > 2 / 3 * num_params
with torch.random.fork_rng(devices=[]):  # a new layer draws its initial weights
    unbiased = torch.nn.Linear(50, 30, bias=False)
assert sum(p.numel() for p in unbiased.parameters()) == 1500

# %%
# A parameter is *trainable* when its ``requires_grad`` is ``True``, the
# default: the backward pass computes a :term:`gradient` for it, which an
# :term:`optimiser` uses to update it. Setting it to ``False`` *freezes* the
# parameter, as when fine-tuning only the last layer of a model; the count of
# trainable parameters drops by the frozen layer's ``50·30 + 30``.
model.layers[0].requires_grad_(False)
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
print("trainable with layer 0 frozen:", trainable)
print("all parameters:               ", sum(p.numel() for p in model.parameters()))
model.layers[0].requires_grad_(True)

# %%
# .. check:: freezing drops the count by ``50·30 + 30``; a frozen layer gets no gradient, no update
assert trainable == num_params - linear_parameters(50, 30)
# A frozen layer gets no gradient, and an optimiser step leaves it as it is.
frozen = copy.deepcopy(model).requires_grad_(False)
frozen.layers[4].requires_grad_(True)
before = frozen.layers[0].weight.clone()
frozen(torch.ones(2, 50)).sum().backward()
torch.optim.SGD(frozen.parameters(), lr=0.1).step()
assert frozen.layers[0].weight.grad is None
assert torch.equal(frozen.layers[0].weight, before)

# %%
# One layer up close
# ------------------
# A layer's ``weight`` is a :class:`torch.nn.Parameter`: a tensor that a
# module registers as one of its parameters when it is stored as an
# attribute, with ``requires_grad=True``. It has more than 1,000 elements,
# PyTorch's default print threshold, so printing it shows only the corners of
# its 30 rows and 50 columns.
print(model.layers[0].weight)
print(model.layers[0].weight.shape)

# %%
# .. check:: the weight is a ``Parameter`` with more than 1,000 elements
assert isinstance(model.layers[0].weight, torch.nn.Parameter)
assert model.layers[0].weight.numel() > 1000

# %%
# The :term:`shape` is (outputs, inputs): the layer computes
# ``x @ W.T + b``, so each of the 30 rows of ``W`` makes one output from all
# 50 inputs.
torch.manual_seed(1)
x = torch.rand(2, 50)
layer = model.layers[0]
by_hand = x @ layer.weight.T + layer.bias
torch.testing.assert_close(layer(x), by_hand)
print("layer(x) equals x @ W.T + b, shape", tuple(by_hand.shape))

# %%
# The initial weights
# -------------------
# The weights start random. By default, :class:`~torch.nn.Linear` draws each
# weight and each bias uniformly between ``-1/√n`` and ``1/√n`` for ``n``
# inputs. The picture shows the 30 x 50 weight matrix: no structure yet,
# only noise within those bounds.
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
# For inputs of mean 0 and variance 1, these bounds make a layer's outputs
# *smaller* than its inputs. A weight drawn uniformly from ``±1/√n`` has
# variance ``1/(3n)``; an output adds up ``n`` products of such weights with
# the inputs, so its variance is about ``n · 1/(3n) = 1/3`` (the bias adds
# only ``1/(3n)``): the standard deviation shrinks by about
# ``1/√3 ≈ 0.58``, as a wide layer shows:
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
# The forward pass
# ----------------
# Calling the model on a :term:`batch` runs :meth:`~torch.nn.Module.forward`
# (call the model, not ``forward`` itself: the call also runs the hooks that
# some tools register). The input is one sample of 50 random numbers, so the
# batch :term:`dimension` is 1 and the output holds one
# :term:`logit <logits>` per class.
torch.manual_seed(123)
X = torch.rand((1, 50))
out = model(X)
print(out)

# %%
# .. check:: calling the model runs its hooks; calling ``forward`` skips them
calls = []
hook = model.register_forward_hook(lambda module, args, output: calls.append(1))
with torch.no_grad():
    model(X)
    model.forward(X)
hook.remove()
assert len(calls) == 1

# %%
# The ``grad_fn`` says that autograd recorded the computation in a
# :term:`computational graph`, ready for a backward pass: for this
# two-dimensional input, the last operation was an ``addmm``, the matrix
# product plus bias of the output layer. It is there because the parameters
# require gradients (an input that requires them would do too), and it keeps
# intermediate results, such as the input of each linear layer, in memory
# for a backward pass. To only use a model, none of that is needed: inside
# :class:`torch.no_grad` nothing is recorded, and the numbers are the same:
with torch.no_grad():
    out_no_grad = model(X)
print(out_no_grad)

# %%
# .. check:: no graph under ``no_grad`` or with nothing to train, same numbers; the graph keeps inputs
assert out_no_grad.grad_fn is None
assert torch.equal(out_no_grad, out.detach())
# The graph keeps the output layer's input; with nothing requiring gradients,
# nothing is recorded.
torch.testing.assert_close(out.grad_fn._saved_mat1, model.layers[:4](X))
assert copy.deepcopy(model).requires_grad_(False)(X).grad_fn is None

# %%
# From logits to probabilities
# ----------------------------
# The last layer has no activation: a classifier returns logits, because
# :func:`~torch.nn.functional.cross_entropy`, the :term:`loss` of
# :ref:`the training page <sphx_glr_auto_examples_training_plot_03_training_loop.py>`,
# takes logits and applies a log-softmax itself, which is
# numerically safer than taking the log of probabilities. For probabilities,
# apply :func:`torch.softmax` over the class dimension: ``exp(logit)``
# divided by the sum of those of the sample, so that each row lies between
# 0 and 1 and sums to 1.
with torch.no_grad():
    probas = torch.softmax(model(X), dim=1)
print(probas)
print("sum of each row:", probas.sum(dim=1))

# %%
# .. check:: softmax is ``exp`` over its row sum; ``cross_entropy``'s own log-softmax stays finite
exp = out_no_grad.exp()
torch.testing.assert_close(probas, exp / exp.sum(dim=1, keepdim=True))
# cross_entropy is the negative log-softmax of the target class ...
target = torch.tensor([1])
torch.testing.assert_close(
    F.cross_entropy(out_no_grad, target), -torch.log_softmax(out_no_grad, dim=1)[0, 1]
)
# ... and log_softmax stays finite where log(softmax) underflows to -inf.
far_apart = torch.tensor([0.0, -200.0, -300.0])
assert torch.log(torch.softmax(far_apart, dim=0))[1] == -float("inf")
assert torch.log_softmax(far_apart, dim=0)[1] == -200.0

# %%
# The softmax never reverses the order of the logits, so the largest logit
# is the most likely class. Side by side, the logits of the model above and
# the probabilities they become:
#
# .. detail:: Ties after rounding
#
#    In float32, logits far below the largest can all round to probability 0
#    and tie.
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
# .. check:: the softmax keeps the order of the logits, and far-apart logits tie at 0
assert torch.equal(probas.argsort(dim=1), out_no_grad.argsort(dim=1))
# The softmax never reverses the order, but distinct logits can tie after rounding.
assert torch.softmax(far_apart, dim=0).tolist() == [1.0, 0.0, 0.0]
assert (torch.softmax(torch.linspace(30, -30, 1001), dim=0).diff() <= 0).all()

# %%
# Batches and wrong shapes
# ------------------------
# Layers such as these work on whole batches: each row of the input is one
# sample, and every layer of this model treats the rows separately. Four
# samples at once give the same rows as four separate calls, up to rounding.
#
# .. detail:: Why the last bits differ
#
#    A product of a 4-row matrix may add its terms in another order than four
#    products of one row, so the last bits can differ.
torch.manual_seed(2)
batch = torch.rand(4, 50)
with torch.no_grad():
    together = model(batch)
    one_by_one = torch.cat([model(row.unsqueeze(0)) for row in batch])
difference = (together - one_by_one).abs().max()
print(together.shape, f"| largest difference on this machine: {difference:.1e}")
torch.testing.assert_close(together, one_by_one)

# %%
# The last dimension must be the number of inputs. A sample of 40 numbers
# cannot be multiplied with the transposed weight matrix, 50 x 30 (:ref:`the
# error atlas <error-linear-in-features>` has the fix):
try:
    model(torch.rand(1, 40))
except RuntimeError as error:
    print("RuntimeError:", error)
else:
    raise AssertionError("an input of 40 numbers should have raised")

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
else:
    raise AssertionError("the helper should refuse an input of 40 numbers")

# %%
# .. check:: the helper's network has the same layers and, from the same seed, the same weights
assert same
assert str(helper_model) == str(model)

# %%
# On another device
# -----------------
# To compute on a GPU, the parameters must be there:
# :meth:`torch.nn.Module.to` changes the module *in place*, moving every
# parameter (and buffer) to the device, and returns the module itself. The
# inputs must follow with :meth:`torch.Tensor.to`, which returns a moved
# copy: a model on one device refuses an input on another. Any build can
# show both rules with the ``meta`` device, whose tensors have a shape and
# a dtype but no values:
moved = copy.deepcopy(model)
assert moved.to("meta") is moved
print(moved.layers[4].bias)
try:
    moved(X)  # X is on the CPU
except RuntimeError as error:
    print("RuntimeError:", error)
else:
    raise AssertionError("a model on the meta device should refuse a CPU input")

# %%
# Where PyTorch sees a GPU (``"cuda"`` or ``"mps"``), this cell moves a copy
# of the model there and runs it on the moved input; the logits agree with
# the CPU's to rounding: a GPU may add the terms of a product in another
# order. Whether it is faster depends on the size of the work:
# :ref:`sphx_glr_auto_examples_performance_plot_52_matrix_products_on_a_gpu.py`
# times matrix products of two sizes on both.
#
# .. detail:: Device names
#
#    ROCm builds also use ``"cuda"`` for AMD GPUs. ``"mps"`` is Apple's GPU.
gpu = None
if torch.cuda.is_available():
    gpu = torch.device("cuda")
elif torch.backends.mps.is_available():
    gpu = torch.device("mps")

if gpu is None:
    print("This build had no GPU: the model stayed on the CPU.")
else:
    gpu_model = copy.deepcopy(model).to(gpu)
    print("parameters on:", next(gpu_model.parameters()).device)
    with torch.no_grad():
        out_gpu = gpu_model(X.to(gpu))
    print("logits on the GPU:", out_gpu.cpu())

# %%
# .. check:: on a GPU, the logits agree with the CPU's to rounding
if gpu is not None:
    torch.testing.assert_close(out_gpu.cpu(), out_no_grad)

# %%
# Summary
# -------
# - A model subclasses :class:`torch.nn.Module`: layers in ``__init__``,
#   the computation in :meth:`~torch.nn.Module.forward`; autograd provides
#   the backward pass.
# - A linear layer from ``n`` to ``m`` units has ``m·n + m`` parameters with
#   its default bias (``m·n`` without), and its weight has the shape ``(m, n)``;
#   ``sum(p.numel() for p in model.parameters())`` counts them all.
# - The default initialisation draws from ``±1/√n`` and shrinks zero-mean,
#   unit-variance inputs by about ``1/√3``.
# - Calling the model records a graph (``grad_fn``) when parameters or inputs
#   require gradients; under :class:`torch.no_grad` it does not, same numbers.
# - Classifiers return logits; :func:`torch.softmax` over ``dim=1`` turns
#   them into probabilities, never in reverse order.
# - ``model.to(device)`` moves the parameters in place and returns the
#   model; the inputs must follow.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py`,
# which feeds a model batches of data. Exercises for this page:
# :ref:`exercises-training-01`.
