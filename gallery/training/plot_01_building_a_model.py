"""
Building a model
================

After this page you can write a neural network as a :class:`torch.nn.Module`,
count its parameters, run a batch of inputs through it, and turn its outputs
into class probabilities.

**Before this page:** ``@`` from
:ref:`sphx_glr_auto_examples_tensors_plot_04_arithmetic_and_broadcasting.py`,
the softmax from
:ref:`sphx_glr_auto_examples_tensors_plot_05_selecting_and_rearranging.py`,
``cat`` from :ref:`sphx_glr_auto_examples_tensors_plot_06_splitting_and_joining.py`
and ``torch.no_grad`` from
:ref:`sphx_glr_auto_examples_gradients_plot_01_automatic_differentiation.py`.
"""

# %%
# This page computes on the CPU. ``PALETTE`` holds the site's colours,
# used in the figure.
import matplotlib.pyplot as plt
import torch

from tutorial_utils.colours import PALETTE
from tutorial_utils.environment import environment_summary

device = torch.device("cpu")
print(environment_summary(device))

# %%
# A network is a class
# --------------------
# A model in PyTorch is a :term:`module`: an instance of a subclass of
# :class:`torch.nn.Module`.
#
# 1. Its ``__init__`` first runs ``super().__init__()``, the set-up of
#    ``torch.nn.Module``. Then it creates the layers.
# 2. Its :meth:`~torch.nn.Module.forward` says how an input flows through
#    the layers. :term:`Autograd` provides the backward pass.
#
# This network uses three kinds of layer:
#
# - ``torch.nn.Linear(n, m)`` makes ``m`` outputs from ``n`` inputs. Each
#   output is a weighted sum of all the inputs, plus a bias by default.
# - ``torch.nn.ReLU()`` sets each negative element to 0. Without
#   this *activation*, two linear layers in a row would compute no more
#   than one linear layer could.
# - :class:`torch.nn.Sequential` runs the layers it holds in order.
#
# The first two linear layers are *hidden*: their outputs are neither the
# model's input nor its output.
#
# ``__init__`` assigns the ``Sequential`` to the attribute ``self.layers``.
# This *registers* it and the layers it holds. The model can then find their
# :term:`parameters <parameter>`, the numbers that training adjusts. Layers
# kept in a plain Python list are not registered.


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
# This model turns each sample of 50 numbers into three scores, one per
# class. Its weights start random, so seeding first fixes them
# (:ref:`sphx_glr_auto_examples_training_plot_51_initial_weights.py` shows
# how). Printing a module lists its layers. Their numbers index the
# ``Sequential`` like a list: ``model.layers[0]`` is the first layer.
torch.manual_seed(123)
model = NeuralNetwork(50, 3)
print(model)

# %%
# .. check:: a ReLU zeroes negatives, keeps NaN; two linear layers make one
_h = torch.linspace(-2, 2, 30)
assert torch.equal(model.layers[1](_h), torch.maximum(_h, torch.zeros(30)))
_nan = torch.tensor([float("nan")])
assert model.layers[1](_nan).isnan().all()
assert max(0, _nan.item()) == 0  # unlike Python's max
_second, _last = model.layers[2], model.layers[4]
with torch.no_grad():
    _w = _last.weight @ _second.weight
    _b = _last.weight @ _second.bias + _last.bias
    torch.testing.assert_close(_last(_second(_h)), _h @ _w.T + _b)

# %%
# .. check:: a module in an attribute is registered; layers in a list are not
assert dict(model.named_children()) == {"layers": model.layers}
assert len(list(model.parameters())) == 6


class _Listed(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [torch.nn.Linear(50, 30)]  # a plain list


with torch.random.fork_rng(devices=[]):  # a new layer draws its initial weights
    assert list(_Listed().parameters()) == []

# %%
# Counting parameters
# -------------------
# A linear layer from ``n`` inputs to ``m`` outputs holds two parameter
# tensors: a ``weight`` of shape ``(m, n)`` and a ``bias`` of ``m``
# numbers. A ReLU holds none. Each parameter is a
# :class:`torch.nn.Parameter`, a tensor that by default requires gradients.
# :meth:`~torch.nn.Module.named_parameters` yields each parameter
# :term:`tensor` with its name. ``numel()`` gives a tensor's number of
# elements.
for name, parameter in model.named_parameters():
    print(f"{name:15} {parameter.numel():5d} shape {tuple(parameter.shape)}")

# %%
# .. check:: ReLUs hold none; each parameter is a ``Parameter`` needing gradients
assert not [*model.layers[1].parameters(), *model.layers[3].parameters()]
assert {type(p) for p in model.parameters()} == {torch.nn.Parameter}
assert all(p.requires_grad for p in model.parameters())

# %%
# A linear layer has ``m·n + m`` parameters, or ``m·n`` with ``bias=False``.
# :meth:`~torch.nn.Module.parameters` yields them without names, and one ``sum``
# adds up their sizes. Over two thirds sit in the first layer.
#
# .. detail:: Trainable and frozen parameters
#
#    A parameter is *trainable* while its ``requires_grad`` is ``True``, the
#    default. ``layer.requires_grad_(False)`` *freezes* a layer's parameters:
#    a backward pass then gives them no gradient. Adding ``if
#    p.requires_grad`` to the sum below counts only the trainable ones.
#    Freeze before the first backward pass. A gradient computed earlier stays
#    in ``.grad``, where an update could still use it.


def linear_parameters(n, m):
    """Weights and biases of a linear layer from n inputs to m outputs."""
    return m * n + m


by_formula = sum(linear_parameters(n, m) for n, m in [(50, 30), (30, 20), (20, 3)])
num_params = sum(p.numel() for p in model.parameters())
print("by formula:", by_formula, "| counted by PyTorch:", num_params)

# %%
# .. check:: the formula holds, with and without bias; layer 0 holds over 2/3
assert by_formula == num_params
assert linear_parameters(50, 30) > 2 / 3 * num_params
with torch.random.fork_rng(devices=[]):  # a new layer draws its initial weights
    unbiased = torch.nn.Linear(50, 30, bias=False)
assert (unbiased.bias, sum(p.numel() for p in unbiased.parameters())) == (None, 1500)

# %%
# .. check:: frozen before a backward: no gradient or update; frozen after, it moves
with torch.random.fork_rng(devices=[]):
    frozen, late = NeuralNetwork(50, 3), NeuralNetwork(50, 3)
late(torch.ones(2, 50)).sum().backward()  # a gradient before freezing
for _net in (frozen, late):
    _net.layers[0].requires_grad_(False)
    assert not any(p.requires_grad for p in _net.layers[0].parameters())
    _before = _net.layers[0].weight.clone()
    _net(torch.ones(2, 50)).sum().backward()
    torch.optim.SGD(_net.parameters(), lr=0.1).step()
    assert (_net.layers[0].weight.grad is None) == (_net is frozen)
    assert torch.equal(_net.layers[0].weight, _before) == (_net is frozen)
_trainable = sum(p.numel() for p in frozen.parameters() if p.requires_grad)
assert _trainable == num_params - linear_parameters(50, 30)
torch.optim.SGD(late.parameters(), lr=0.1).zero_grad()
assert late.layers[0].weight.grad is None

# %%
# One layer up close
# ------------------
# A linear layer computes ``x @ W.T + b``, where ``W`` is its weight and ``b``
# its bias. Each of the 30 rows of ``W`` makes one output from all 50 inputs.
# Calling a module, as in ``layer(x)``, runs its ``forward``. Below, ``x``
# holds two rows of random numbers, fixed by a :term:`seed`.
# Here ``torch.testing.assert_close`` raises an error unless the two results
# have the same shape and dtype and agree within a small tolerance.
torch.manual_seed(1)
x = torch.rand(2, 50)
layer = model.layers[0]
by_hand = x @ layer.weight.T + layer.bias
torch.testing.assert_close(layer(x), by_hand)
print("layer(x) equals x @ W.T + b, shape", tuple(by_hand.shape))

# %%
# .. check:: ``assert_close`` also refuses equal values of another shape or dtype
for _other in (by_hand.double(), by_hand.unsqueeze(0)):
    try:
        torch.testing.assert_close(by_hand, _other)
    except AssertionError:
        pass
    else:
        raise AssertionError("assert_close should refuse another dtype or shape")

# %%
# The forward pass
# ----------------
# Called on a :term:`batch` of one sample of 50 random numbers, the model
# returns one row of :term:`logits`.
#
# .. detail:: Why call the model, not ``forward``
#
#    Tools can attach functions, called *hooks*, to a module. Calling the
#    module runs its hooks. Calling its ``forward`` directly skips the hooks
#    on the model itself. Those on its layers still run.
torch.manual_seed(123)
X = torch.rand(1, 50)
out = model(X)
print(out)

# %%
# .. check:: ``forward`` skips the model's own hooks, not those of its layers
calls, hooks = [], []
for module in (model, model.layers[0]):
    hooks.append(module.register_forward_hook(lambda m, a, o: calls.append(m)))
with torch.no_grad():
    model.forward(X)  # runs the hook of layers[0] only
    model(X)  # runs both
for hook in hooks:
    hook.remove()
assert calls == [model.layers[0], model.layers[0], model]

# %%
# The output has a ``grad_fn``: autograd recorded a :term:`computational graph`,
# because the parameters require gradients. Here it is ``AddmmBackward0``, the
# node of the output layer: *addmm* adds a bias to a matrix product. The graph
# keeps in memory what a backward pass needs, such as each linear layer's input.
# Using a model needs none of that. Inside :class:`torch.no_grad`, nothing is
# recorded. For this model, the numbers are the same:
with torch.no_grad():
    out_no_grad = model(X)
print(out_no_grad)

# %%
# .. check:: ``no_grad``: no graph, same numbers; a graph keeps each input
assert out.grad_fn.name() == "AddmmBackward0"
assert out_no_grad.grad_fn is None
assert torch.equal(out_no_grad, out.detach())
torch.testing.assert_close(out.grad_fn._saved_mat1, model.layers[:4](X))
_nodes, _saved_widths = [out.grad_fn], []
while _nodes:  # each linear layer's node saved its input
    _node = _nodes.pop()
    if _node.name() == "AddmmBackward0":
        _saved_widths.append(_node._saved_mat1.shape[1])
    _nodes += [_next for _next, _ in _node.next_functions if _next is not None]
assert sorted(_saved_widths) == [20, 30, 50]
_detached = {name: p.detach() for name, p in model.named_parameters()}
assert torch.func.functional_call(model, _detached, (X,)).grad_fn is None

# %%
# .. check:: not for every model: ``no_grad`` changes a transformer's last bits
with torch.random.fork_rng(devices=[]):  # a new layer draws its initial weights
    _encoder = torch.nn.TransformerEncoderLayer(16, 4, 32, batch_first=True)
_encoder.eval()
_sequences = torch.linspace(-1, 1, 160).reshape(2, 5, 16)
with torch.no_grad():
    _fast = _encoder(_sequences)  # a faster path, taken only without a graph
assert not torch.equal(_encoder(_sequences), _fast)
torch.testing.assert_close(_encoder(_sequences), _fast)

# %%
# From logits to probabilities
# ----------------------------
# The last layer has no ReLU: a classifier returns logits, which may be any
# numbers. For probabilities, apply :func:`torch.softmax` over the class
# dimension, ``dim=1``. It equals the ``exp`` of each logit divided by the
# row's sum. So each entry lies between 0 and 1, and each row sums to 1, up
# to rounding.
#
# .. detail:: How ``torch.softmax`` avoids overflow
#
#    In float32, ``exp(90)`` overflows to infinity. So ``torch.softmax``
#    first subtracts the row's largest logit from each logit. The ratios stay
#    the same, and no ``exp`` exceeds 1.
#
# The :term:`loss` :func:`~torch.nn.functional.cross_entropy`, met in
# :ref:`sphx_glr_auto_examples_tensors_plot_05_selecting_and_rearranging.py`,
# takes logits, not probabilities. It computes the log-probabilities,
# ``log_softmax``, straight from the logits. That avoids the log of a
# probability that float32 rounded to 0.
#
# .. detail:: Why ``cross_entropy`` takes logits
#
#    Take the float32 logits 0, -200 and -300.
#
#    1. Their softmax rounds the last two probabilities to exactly 0. The log
#       of 0 is minus infinity.
#    2. ``log_softmax`` instead first subtracts the largest logit, here 0.
#    3. From these it subtracts the log of the sum of their ``exp``. That sum
#       rounds to ``exp(0)``, which is 1, and its log is 0.
#
#    So the log-probabilities are 0, -200 and -300, all finite.
with torch.no_grad():
    probas = torch.softmax(model(X), dim=1)
print(probas)
print("sum of each row:", probas.sum(dim=1))

# %%
# .. check:: the softmax is ``exp`` over its row sum, after a shift by the max
exp = out_no_grad.exp()
torch.testing.assert_close(probas, exp / exp.sum(dim=1, keepdim=True))
_big = torch.tensor([[90.0, 89.0]])  # exp(90) overflows float32
assert _big.exp()[0, 0].isinf()
assert (_big.exp() / _big.exp().sum()).isnan().all()
_shifted = (_big - _big.max()).exp()
torch.testing.assert_close(torch.softmax(_big, dim=1), _shifted / _shifted.sum())
assert ((probas >= 0) & (probas <= 1)).all()
torch.testing.assert_close(probas.sum(dim=1), torch.ones(1))

# %%
# .. check:: ``cross_entropy`` uses the log-softmax, shifted by the largest logit
target = torch.tensor([1])
torch.testing.assert_close(
    torch.nn.functional.cross_entropy(out_no_grad, target),
    -torch.log_softmax(out_no_grad, dim=1)[0, 1],
)
far_apart = torch.tensor([0.0, -200.0, -300.0])
assert torch.log(torch.softmax(far_apart, dim=0))[1] == -float("inf")
assert (torch.softmax(far_apart.double(), dim=0) > 0).all()  # not in float64
assert far_apart.exp().sum() == 1  # so the log-softmax keeps the logits:
assert torch.log_softmax(far_apart, dim=0).tolist() == [0.0, -200.0, -300.0]
_high = far_apart + 1000  # without the shift, the sum of exp overflows
assert (_high - _high.exp().sum().log()).isinf().all()
assert torch.equal(torch.log_softmax(_high, dim=0), _high - _high.max())

# %%
# The softmax never reverses the order of the logits, so the largest logit
# marks the most likely class. In the figure, ``ax.bar`` draws one bar per
# class in the site's colours. ``ax.axhline`` draws the zero
# line, and ``ax.text`` writes each probability. The other arguments only
# style the plot.
fig, (ax_l, ax_p) = plt.subplots(1, 2, figsize=(8, 2.6), layout="constrained")
classes = ["class 0", "class 1", "class 2"]
ax_l.bar(classes, out_no_grad[0].tolist(), color=PALETTE[5])
ax_l.axhline(0, color="black", linewidth=0.8)
ax_l.set(title="logits: model(X)", ylabel="value")
ax_p.bar(classes, probas[0].tolist(), color=PALETTE[2])
ax_p.set(title="torch.softmax(model(X), dim=1)", ylim=(0, 1))
for i, p in enumerate(probas[0].tolist()):
    ax_p.text(i, p + 0.03, f"{p:.4f}", ha="center")
plt.show()

# %%
# .. check:: the softmax never reverses the logits' order; far-apart ones tie at 0
assert torch.equal(probas.argsort(dim=1), out_no_grad.argsort(dim=1))
assert torch.softmax(far_apart, dim=0).tolist() == [1.0, 0.0, 0.0]
assert (torch.softmax(torch.linspace(30, -30, 1001), dim=0).diff() <= 0).all()

# %%
# Batches and wrong shapes
# ------------------------
# Each layer of this model treats the rows of a batch separately. So four
# samples at once give the same rows as four separate calls, up to rounding.
# Below, ``row.unsqueeze(0)`` makes each row a batch of one, and
# :func:`torch.cat` joins the four outputs. The code prints the largest
# difference between the two results. ``assert_close`` then checks that they
# agree within its tolerance.
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
# The last dimension of the input must be the number of inputs, 50. A sample
# of 40 numbers cannot be multiplied by ``W.T``, of shape 50 x 30.
# :ref:`The error atlas <error-linear-in-features>` has the fix.
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
# :class:`tutorial_utils.models.NeuralNetwork`, here named ``HelperNetwork``.
# Its layers are the same, so the same seed gives the same weights. The code
# compares their weights and printed layers. For an input of the wrong width,
# it raises a ``ValueError``.
#
# .. detail:: On another device
#
#    ``model.to(device)`` moves every parameter to ``device`` and returns the
#    model itself. The inputs must follow: this model refuses an input on
#    another device. Given only a device, a tensor's ``X.to(device)``
#    returns a copy of ``X`` on ``device``. If ``X`` is there already, it
#    returns ``X`` itself. On a GPU, the logits agree with the CPU's up to
#    rounding.
from tutorial_utils.models import NeuralNetwork as HelperNetwork

torch.manual_seed(123)
helper_model = HelperNetwork(50, 3)
pairs = zip(helper_model.parameters(), model.parameters(), strict=True)
same = all(torch.equal(a, b) for a, b in pairs)
print("same weights:", same, "| same layers:", str(helper_model) == str(model))
try:
    helper_model(torch.rand(1, 40))
except ValueError as error:
    print("ValueError:", error)
else:
    raise AssertionError("the helper should refuse an input of 40 numbers")

# %%
# .. check:: the helper has the same layers and, from one seed, the same weights
assert (same, str(helper_model)) == (True, str(model))

# %%
# .. check:: ``to``: a model in place, a tensor copied if needed; GPU logits agree
import copy

moved = copy.deepcopy(model)
assert moved.to("meta") is moved
assert all(p.device.type == "meta" for p in moved.parameters())
assert (X.to("meta").device.type, X.device.type) == ("meta", "cpu")  # a copy
assert X.to("cpu") is X  # already there
assert X.to("cpu", copy=True) is not X  # unless a copy is asked for
try:
    moved(X)  # X is on the CPU
except RuntimeError:
    pass
else:
    raise AssertionError("a model on the meta device should refuse a CPU input")
_found = {"cuda": torch.cuda.is_available(), "mps": torch.backends.mps.is_available()}
for _gpu in [torch.device(name) for name, there in _found.items() if there]:
    with torch.no_grad():
        _out_gpu = copy.deepcopy(model).to(_gpu)(X.to(_gpu))
    torch.testing.assert_close(_out_gpu.cpu(), out_no_grad)

# %%
# Summary
# -------
# - A model subclasses :class:`torch.nn.Module`: layers in ``__init__``,
#   the computation in :meth:`~torch.nn.Module.forward`.
# - A linear layer from ``n`` inputs to ``m`` outputs computes
#   ``x @ W.T + b`` and has ``m·n + m`` parameters.
# - ``sum(p.numel() for p in model.parameters())`` counts them all.
# - Under :class:`torch.no_grad`, calling a model records no graph.
# - :func:`torch.softmax` over ``dim=1`` turns logits into probabilities.
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py`,
# which feeds a model batches of data. Exercises for this page:
# :ref:`exercises-training-01`.
