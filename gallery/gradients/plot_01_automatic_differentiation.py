"""
Automatic differentiation
=========================

See the graph that autograd records, ask it for gradients with
:func:`torch.autograd.grad` and :meth:`torch.Tensor.backward`, and check them
against calculus and finite differences. Then switch the recording off, and
know what each way of doing so still allows.
"""

# %%
# Every page starts by saying what computed it. The tensors on this page hold
# a handful of numbers each, so it runs on the CPU whatever the machine has.
import warnings

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F

from tutorial_utils.devices import pick_device
from tutorial_utils.environment import environment_summary
from tutorial_utils.graphs import autograd_graph, draw_graph

device = pick_device("cpu")
print(environment_summary(device))

# %%
# Leaf tensors and ``requires_grad``
# ----------------------------------
# The example is a logistic-regression classifier with one input: the input
# ``x1 = 1.1`` has the label ``y = 1``, the model has a weight ``w1 = 2.2``
# and a bias ``b = 0``. Training needs the gradient of the loss with respect
# to ``w1`` and ``b``, so only those two are created with
# ``requires_grad=True``.
y = torch.tensor([1.0])
x1 = torch.tensor([1.1])
w1 = torch.tensor([2.2], requires_grad=True)
b = torch.tensor([0.0], requires_grad=True)

z = x1 * w1 + b
a = torch.sigmoid(z)
loss = F.binary_cross_entropy(a, y)

tensors = {"y": y, "x1": x1, "w1": w1, "b": b, "z": z, "a": a, "loss": loss}
for name, t in tensors.items():
    grad_fn = None if t.grad_fn is None else t.grad_fn.name()
    print(
        f"{name:5} requires_grad={t.requires_grad!s:5}  is_leaf={t.is_leaf!s:5}  "
        f"grad_fn={grad_fn}"
    )

# sphinx_gallery_start_ignore
assert [t.is_leaf for t in tensors.values()] == [True] * 4 + [False] * 3
assert [t.requires_grad for t in tensors.values()] == [False] * 2 + [True] * 5
assert y.grad_fn is None
assert w1.grad_fn is None
assert type(loss.grad_fn).__name__ == "BinaryCrossEntropyBackward0"
# sphinx_gallery_end_ignore

# %%
# Tensors you create are *leaves* (:attr:`~torch.Tensor.is_leaf`). A result
# requires gradients as soon as one of its inputs does, and then it is not a
# leaf: its :attr:`~torch.Tensor.grad_fn` is the node that records the
# operation which made it. ``y`` and ``x1`` are constants to autograd.
#
# The graph that operations record
# --------------------------------
# Each node links to the nodes of its inputs through ``next_functions``, a
# tuple of ``(node, index)`` pairs. The loss's node has two inputs: ``a``,
# made by a sigmoid, and ``y``, which needs no gradient and so is ``None``.
# (The ``name()`` of an ``AccumulateGrad`` node carries its C++ namespace.)
for node, _ in loss.grad_fn.next_functions:
    print("input of", loss.grad_fn.name(), "->", None if node is None else node.name())

add_node = z.grad_fn
print(add_node.name(), "inputs:", [node.name() for node, _ in add_node.next_functions])
accumulate = add_node.next_functions[1][0]
print("the AccumulateGrad node belongs to b:", accumulate.variable is b)

# sphinx_gallery_start_ignore
assert loss.grad_fn.next_functions[0][0] is a.grad_fn
assert loss.grad_fn.next_functions[1][0] is None
assert accumulate.variable is b
# sphinx_gallery_end_ignore

# %%
# Following ``next_functions`` from node to node reaches every operation, and
# ends at an ``AccumulateGrad`` node for each leaf that requires gradients:
# the node that adds the gradient into that leaf's :attr:`~torch.Tensor.grad`.
# :func:`~tutorial_utils.graphs.autograd_graph` does that walk and names each
# node after the tensor that owns it:
graph = autograd_graph(loss, tensors)
print(graph)

# sphinx_gallery_start_ignore
assert [node.name for node in graph.nodes] == [
    "BinaryCrossEntropyBackward0 (loss)",
    "SigmoidBackward0 (a)",
    "AddBackward0 (z)",
    "MulBackward0",
    "AccumulateGrad (b)",
    "AccumulateGrad (w1)",
]
assert not any("x1" in node.name or "(y)" in node.name for node in graph.nodes)
# sphinx_gallery_end_ignore

# %%
# Drawn with the inputs on the left, the arrows follow the forward pass:
# ``w1`` is multiplied (by the constant ``x1``, which is no node), ``b`` is
# added, then come the sigmoid and the loss. A backward pass starts at the
# loss's node and follows the arrows in reverse, applying the chain rule at
# each node, until it reaches the two ``AccumulateGrad`` nodes.
draw_graph(graph)
plt.show()

# %%
# Gradients with ``torch.autograd.grad``
# --------------------------------------
# :func:`torch.autograd.grad` returns the gradient of an output with respect
# to the inputs you name, as a tuple with one tensor per input. It frees the
# values the graph saved for the backward pass unless ``retain_graph=True``,
# which the first call needs so that the second can run through the graph
# again.
grad_L_w1 = torch.autograd.grad(loss, w1, retain_graph=True)
grad_L_b = torch.autograd.grad(loss, b, retain_graph=True)
print(grad_L_w1)
print(grad_L_b)

# sphinx_gallery_start_ignore
# The notes this site grew from print (tensor([-0.0898]),) (tensor([-0.0817]),).
torch.testing.assert_close(grad_L_w1[0], torch.tensor([-0.0898]), atol=5e-5, rtol=0)
torch.testing.assert_close(grad_L_b[0], torch.tensor([-0.0817]), atol=5e-5, rtol=0)
assert w1.grad is None, "autograd.grad does not write into .grad"
probe = torch.tensor([2.0], requires_grad=True)
probe_loss = (probe * probe).sum()
torch.autograd.grad(probe_loss, probe)
freed = False
try:
    torch.autograd.grad(probe_loss, probe)
except RuntimeError:
    freed = True
assert freed, "without retain_graph the second call must fail"
# sphinx_gallery_end_ignore

# %%
# These numbers are the chain rule, which you can do by hand. The loss is
# ``L = -[y·log(a) + (1-y)·log(1-a)]``, so ``∂L/∂a = (a - y) / (a·(1-a))``;
# the sigmoid's derivative is ``∂a/∂z = a·(1-a)``, so their product is simply
# ``∂L/∂z = a - y``. Last, ``z = x1·w1 + b`` gives ``∂z/∂w1 = x1`` and
# ``∂z/∂b = 1``:
by_hand_w1 = (a - y) * x1
by_hand_b = a - y
print(f"∂L/∂w1 = (a - y) * x1 = {by_hand_w1.item():.4f}")
print(f"∂L/∂b  = (a - y)      = {by_hand_b.item():.4f}")
torch.testing.assert_close(grad_L_w1[0], by_hand_w1)
torch.testing.assert_close(grad_L_b[0], by_hand_b)

# %%
# A gradient is a slope. Here the loss is drawn as a function of ``w1`` alone
# (``b`` held at 0), with the straight line that has the slope autograd
# computed at ``w1 = 2.2``: it touches the curve there. The slope is negative,
# so a larger ``w1`` gives a smaller loss, which is what gradient descent will
# use.
w_grid = torch.linspace(-1.0, 5.0, 200)
loss_curve = F.binary_cross_entropy(
    torch.sigmoid(x1 * w_grid), y.expand(200), reduction="none"
)
slope = grad_L_w1[0].item()
tangent = loss.item() + slope * (w_grid - w1.item())

fig, ax = plt.subplots(figsize=(6.5, 3.2), layout="constrained")
ax.plot(w_grid, loss_curve, color="#0072B2", label="loss as a function of w1")
ax.plot(w_grid, tangent, "--", color="#D55E00", label=f"slope {slope:.4f} at w1 = 2.2")
ax.plot([w1.item()], [loss.item()], "o", color="black")
ax.set(xlabel="w1", ylabel="binary cross-entropy", ylim=(0, 1.5))
ax.legend()
plt.show()

# sphinx_gallery_start_ignore
w_fine = torch.tensor([2.2 - 1e-3, 2.2 + 1e-3], dtype=torch.float64)
ends = F.binary_cross_entropy(
    torch.sigmoid(1.1 * w_fine), torch.ones(2, dtype=torch.float64), reduction="none"
)
assert abs((ends[1] - ends[0]).item() / 2e-3 - slope) < 1e-4
assert slope < 0
# sphinx_gallery_end_ignore

# %%
# ``backward()`` and ``.grad``
# ----------------------------
# Usually you call :meth:`~torch.Tensor.backward` on the loss instead. It
# returns nothing; it computes the gradient for *every* leaf that requires
# one and stores it in that leaf's :attr:`~torch.Tensor.grad`.
print(loss.backward())
print(w1.grad)
print(b.grad)

# sphinx_gallery_start_ignore
assert torch.equal(w1.grad, grad_L_w1[0])
assert torch.equal(b.grad, grad_L_b[0])
# sphinx_gallery_end_ignore

# %%
# That call did not keep the graph, so its saved values are gone and a
# second backward pass through it fails:
try:
    loss.backward()
except RuntimeError as error:
    print("RuntimeError:", error)

# %%
# Non-scalar outputs
# ------------------
# ``backward()`` on a scalar means "the derivative of this number". For a
# tensor of several values there is no single derivative: each output has
# its own gradient, and autograd computes one weighted sum of them, the
# weights being the ``gradient=`` argument. Only for a scalar may it be left
# out. The example of the notes: a random ``a`` (a new one), times 5.
torch.manual_seed(0)
a = torch.rand((3, 5), requires_grad=True)
result = a * 5
print(result)
try:
    result.backward()
except RuntimeError as error:
    print("RuntimeError:", error)

# %%
# Reduce it to a scalar first, usually with :meth:`~torch.Tensor.sum` (or
# ``mean``). Each element of ``a`` was multiplied by 5, so each gradient is 5.
result.sum().backward()
print(a.grad)

# sphinx_gallery_start_ignore
assert torch.equal(a.grad, torch.full((3, 5), 5.0))
# sphinx_gallery_end_ignore

# %%
# Gradients accumulate
# --------------------
# Passing ``gradient=torch.ones_like(result)`` is the same as summing. But
# the result below is 10, not 5: ``backward`` *adds* into ``.grad``, and the
# 5 from the previous cell was still there.
result = a * 5
result.backward(gradient=torch.ones_like(result))
print(a.grad)

# sphinx_gallery_start_ignore
assert torch.equal(a.grad, torch.full((3, 5), 10.0))
# sphinx_gallery_end_ignore

# %%
# Adding up is what you want when one loss is the sum of parts computed
# separately, and what you must undo between training steps:
# ``optimizer.zero_grad()`` does it for a model, ``a.grad = None`` (or
# ``a.grad.zero_()``) for one tensor. After zeroing, a ``gradient=`` of
# weights gives each element ``5 * weight``.
a.grad = None
weights = torch.arange(15.0).reshape(3, 5)
(a * 5).backward(gradient=weights)
print(a.grad)
torch.testing.assert_close(a.grad, 5 * weights)

# %%
# Stop recording: ``detach``
# --------------------------
# Not every computation needs gradients. :meth:`~torch.Tensor.detach` returns
# a tensor on the *same memory* that autograd does not track, so what is
# computed from it records nothing. The notes' example: ``a * 10`` is
# recorded, ``detached_a * 5`` is not, and the gradient of ``a`` is 10.
a = torch.rand((3, 5), requires_grad=True)
detached_a = a.detach()
detached_result = detached_a * 5
result = a * 10
result.sum().backward()
print("detached_a shares a's memory:", detached_a.data_ptr() == a.data_ptr())
print("detached_result:", detached_result.requires_grad, detached_result.grad_fn)
print(a.grad)

# sphinx_gallery_start_ignore
assert detached_a.data_ptr() == a.data_ptr()
assert not detached_a.requires_grad
assert detached_result.grad_fn is None
assert torch.equal(a.grad, torch.full((3, 5), 10.0))
# sphinx_gallery_end_ignore

# %%
# Because the memory is shared, writing through a detached tensor changes
# values that the graph may have saved for its backward pass. Autograd
# notices (every tensor counts its in-place changes) and refuses:
s = torch.sigmoid(a)  # the sigmoid saves its output for the backward pass
s.detach().zero_()
try:
    s.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)

# %%
# Stop recording: ``torch.no_grad``
# ---------------------------------
# The :class:`torch.no_grad` context stops recording for every operation in
# its block, without making new tensors first. Here ``a * 5`` inside is not
# recorded, ``a * 10`` outside is, and the gradient is 10 again.
a = torch.rand((3, 5), requires_grad=True)
with torch.no_grad():
    detached_result = a * 5
result = a * 10
result.sum().backward()
print("detached_result:", detached_result.requires_grad, detached_result.grad_fn)
print(a.grad)

# sphinx_gallery_start_ignore
assert not detached_result.requires_grad
assert detached_result.grad_fn is None
assert torch.equal(a.grad, torch.full((3, 5), 10.0))
# sphinx_gallery_end_ignore

# %%
# ``no_grad`` is also how you *change* a leaf that requires gradients, as an
# optimizer's step does: outside it, an in-place update of such a leaf is an
# error (autograd could not record it and keep the leaf a leaf).
try:
    a -= 0.1 * a.grad
except RuntimeError as error:
    print("RuntimeError:", error)
before = a.detach().clone()
with torch.no_grad():
    a -= 0.1 * a.grad
print("updated:", torch.allclose(a, before - 1.0), "still a leaf:", a.is_leaf)

# sphinx_gallery_start_ignore
torch.testing.assert_close(a.detach(), before - 1.0)
assert a.is_leaf
assert a.requires_grad
# sphinx_gallery_end_ignore

# %%
# A tensor made under ``no_grad`` is an ordinary tensor: used later in a
# recorded computation, it counts as a constant.
a.grad = None
(detached_result * a).sum().backward()
print("gradient equals detached_result:", torch.equal(a.grad, detached_result))

# sphinx_gallery_start_ignore
assert torch.equal(a.grad, detached_result)
# sphinx_gallery_end_ignore

# %%
# Stop recording: ``torch.inference_mode``
# ----------------------------------------
# :class:`torch.inference_mode` goes further than ``no_grad``: its tensors
# skip the bookkeeping that autograd would need later (they do not even
# count their in-place changes). That makes it the choice for pure inference,
# and means such a tensor can never join a recorded computation.
with torch.inference_mode():
    inferred = a * 5
print(
    "is_inference:", inferred.is_inference(), " requires_grad:", inferred.requires_grad
)

# sphinx_gallery_start_ignore
version_error = ""
try:
    inferred._version
except RuntimeError as error:
    version_error = str(error)
assert "do not track version counter" in version_error
# sphinx_gallery_end_ignore

try:
    (inferred * a).sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)

# %%
# As the message says, a :meth:`~torch.Tensor.clone` made outside the block is
# a normal tensor again:
a.grad = None
(inferred.clone() * a).sum().backward()
torch.testing.assert_close(a.grad, inferred)
print("with a clone it works; is_inference:", inferred.clone().is_inference())

# %%
# In short: :meth:`~torch.Tensor.detach` for one tensor that should stop
# carrying gradients (it shares memory: do not write through it),
# :class:`torch.no_grad` for a block of code that needs no graph or that
# updates parameters, :class:`torch.inference_mode` for a block whose results
# will never meet autograd again.
#
# Check gradients: ``torch.autograd.gradcheck``
# ---------------------------------------------
# An operation of your own can tell autograd its derivative, by subclassing
# :class:`torch.autograd.Function` with a ``forward`` and a ``backward``. Here
# it is softplus, ``log(1 + eˣ)``, whose derivative is ``sigmoid(x)``; ``backward``
# receives the gradient of the loss with respect to the output and multiplies
# it by that derivative (the chain rule).


class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.log1p(torch.exp(x))

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * torch.sigmoid(x)


x = torch.randn(4, dtype=torch.float64, requires_grad=True)
torch.testing.assert_close(Softplus.apply(x), F.softplus(x))
print(torch.autograd.gradcheck(Softplus.apply, (x,)))

# %%
# :func:`torch.autograd.gradcheck` compares the gradients ``backward`` gives
# with finite differences, ``(f(x + ε) - f(x - ε)) / 2ε`` for each element of
# ``x``, and returns ``True`` when they agree. It wants float64 inputs: in
# float32 the rounding error of the differences is larger than its
# tolerance, and even the correct ``backward`` fails (after a warning, which
# is silenced here):
x32 = x.detach().float().requires_grad_()
with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    passed = torch.autograd.gradcheck(Softplus.apply, (x32,), raise_exception=False)
print("float32:", passed)

# sphinx_gallery_start_ignore
assert not passed
# sphinx_gallery_end_ignore

# %%
# A ``backward`` with a mistake in it (the derivative of ``eˣ`` instead of
# ``log(1 + eˣ)``) fails in float64 too, and the message shows both
# Jacobians:


class WrongSoftplus(Softplus):
    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * torch.exp(x)


try:
    torch.autograd.gradcheck(WrongSoftplus.apply, (x,))
except RuntimeError as error:
    print(type(error).__name__ + ":", error)

# sphinx_gallery_start_ignore
assert not torch.autograd.gradcheck(WrongSoftplus.apply, (x,), raise_exception=False)
# sphinx_gallery_end_ignore

# %%
# Summary
# -------
# - Leaves are the tensors you create; ``requires_grad=True`` asks for their
#   gradients. Every result of them has a :attr:`~torch.Tensor.grad_fn`, and
#   ``next_functions`` links those nodes into the graph drawn above.
# - :func:`torch.autograd.grad` returns gradients; :meth:`~torch.Tensor.backward`
#   adds them into ``.grad``. Both free the graph unless ``retain_graph=True``.
#   For a non-scalar output, reduce it or pass ``gradient=``.
# - Gradients accumulate until you zero them.
# - :meth:`~torch.Tensor.detach`, :class:`torch.no_grad` and
#   :class:`torch.inference_mode` stop the recording, each with its own rules.
# - Check a hand-written ``backward`` with :func:`torch.autograd.gradcheck`,
#   in float64.
#
# Next: :ref:`sphx_glr_auto_examples_gradients_plot_02_linear_algebra.py`,
# where gradients flow through linear algebra too.
