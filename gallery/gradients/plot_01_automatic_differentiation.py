"""
Automatic differentiation
=========================

See the :term:`computational graph` that autograd records, ask it for
:term:`gradients <gradient>` with :func:`torch.autograd.grad` and
:meth:`torch.Tensor.backward`, and check them against calculus and finite
differences. Then switch the recording off, and know what each way of doing so
still allows.
"""

# %%
# Every page starts by saying what computed it. The :term:`tensors <tensor>`
# on this page hold a handful of numbers each, so it runs on the CPU whatever
# the machine has.
import warnings

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F

from tutorial_utils.environment import environment_summary
from tutorial_utils.graphs import autograd_graph, draw_graph

print(environment_summary(torch.device("cpu")))

# %%
# Leaf tensors and ``requires_grad``
# ----------------------------------
# The example is logistic regression with one input ``x1 = 1.1``, label
# ``y = 1``, weight ``w1 = 2.2`` and bias ``b = 0``. Training needs the
# gradient of the :term:`loss` with respect to ``w1`` and ``b``, so only those
# two are created with ``requires_grad=True``. The four tensors created
# directly are :term:`leaves <leaf>` (:attr:`~torch.Tensor.is_leaf`). While
# autograd records (it does unless told otherwise, see below), the
# floating-point result of a differentiable operation on an input that requires
# gradients requires them too, and is not a leaf: its
# :attr:`~torch.Tensor.grad_fn` is the node that records the operation. A
# comparison's boolean result has no gradient.
y = torch.tensor([1.0])
x1 = torch.tensor([1.1])
w1 = torch.tensor([2.2], requires_grad=True)
b = torch.tensor([0.0], requires_grad=True)

z = x1 * w1 + b
a = torch.sigmoid(z)
loss = F.binary_cross_entropy(a, y)

tensors = {"y": y, "x1": x1, "w1": w1, "b": b, "z": z, "a": a, "loss": loss}
for name, t in tensors.items():
    flags = f"requires_grad={t.requires_grad!s:5}  is_leaf={t.is_leaf!s:5}"
    print(f"{name:5} {flags}  grad_fn={t.grad_fn and t.grad_fn.name()}")
print("(w1 > 2).requires_grad:", (w1 > 2).requires_grad)

# %%
# The graph that operations record
# --------------------------------
# Each node links to the nodes of its inputs through ``next_functions``, a
# tuple of ``(node, index)`` pairs. The loss's node has two inputs: ``a``,
# made by a sigmoid, and ``y``, which needs no gradient and so is ``None``.
# The links end at an ``AccumulateGrad`` node for each leaf that requires
# gradients: the node that adds the gradient into that leaf's
# :attr:`~torch.Tensor.grad` (its ``name()`` carries a C++ namespace).
for node, _ in loss.grad_fn.next_functions:
    print("input of", loss.grad_fn.name(), "->", None if node is None else node.name())
accumulate = z.grad_fn.next_functions[1][0]
print(accumulate.name(), "of the addition belongs to b:", accumulate.variable is b)

# %%
# .. check:: the loss's first input is the sigmoid's node; the addition's ``AccumulateGrad`` belongs to ``b``
assert loss.grad_fn.next_functions[0][0] is a.grad_fn
assert accumulate.variable is b

# %%
# :func:`~tutorial_utils.graphs.autograd_graph` follows every link, and labels
# a node with the name of its tensor when it is given that name (``x1 * w1``
# was not: plain ``MulBackward0``). The arrows follow the forward pass: ``w1``
# is multiplied (by the constant ``x1``, which is no node), ``b`` is added,
# then come the sigmoid and the loss. A backward pass follows them in reverse,
# applying the chain rule at each node, down to the ``AccumulateGrad`` nodes.
graph = autograd_graph(loss, tensors)
print(graph)
draw_graph(graph)
plt.show()

# %%
# Gradients with ``torch.autograd.grad``
# --------------------------------------
# :func:`torch.autograd.grad` returns the gradient of a scalar output with
# respect to the inputs you name, one tensor per input, from one backward pass,
# and leaves ``.grad`` alone. It then frees the tensors the graph saved for the
# backward pass (the sigmoid saved its output), unless ``retain_graph=True``:
# this page goes through the graph again below.
grad_w1, grad_b = torch.autograd.grad(loss, (w1, b), retain_graph=True)
print(grad_w1, grad_b, "  w1.grad:", w1.grad)

# %%
# .. check:: ``torch.autograd.grad`` leaves ``w1.grad`` alone
assert w1.grad is None

# %%
# These numbers are the chain rule, which you can do by hand. The loss is
# ``L = -[y·log(a) + (1-y)·log(1-a)]``, so ``∂L/∂a = (a - y) / (a·(1-a))``;
# the sigmoid's derivative is ``∂a/∂z = a·(1-a)``, so their product is simply
# ``∂L/∂z = a - y``. Last, ``z = x1·w1 + b`` gives ``∂z/∂w1 = x1`` and
# ``∂z/∂b = 1``. Autograd and the hand calculation agree to within 4·eps
# relative, ``eps`` being the gap between 1 and the next float32:
by_hand_w1 = (a - y) * x1
by_hand_b = a - y
print(f"∂L/∂w1 = (a - y) * x1 = {by_hand_w1.item():.4f}")
print(f"∂L/∂b  = (a - y)      = {by_hand_b.item():.4f}")
eps = torch.finfo(torch.float32).eps
relative = ((grad_w1 - by_hand_w1) / by_hand_w1).abs().item()
print(f"relative difference of ∂L/∂w1: {relative / eps:.2f} eps")
torch.testing.assert_close(grad_w1, by_hand_w1, atol=0, rtol=4 * eps)

# %%
# .. check:: autograd's ``∂L/∂b`` agrees with the hand calculation within 4·eps relative too
torch.testing.assert_close(grad_b, by_hand_b, atol=0, rtol=4 * eps)

# %%
# A gradient is a slope. With ``y = 1`` and ``b = 0`` the loss is
# ``-log(sigmoid(1.1·w1))``, drawn below with the line of the slope autograd
# computed at ``w1 = 2.2``: it touches the curve there. As the slope is
# negative, a slightly larger ``w1`` gives a smaller loss (gradient descent
# uses this). A float64 central difference, ``(L(w1 + h) - L(w1 - h)) / 2h``,
# agrees.
slope = grad_w1.item()
ends = torch.tensor([2.2 - 1e-3, 2.2 + 1e-3], dtype=torch.float64)
ends_loss = -torch.log(torch.sigmoid(1.1 * ends))
finite_difference = (ends_loss[1] - ends_loss[0]).item() / 2e-3
print(f"finite difference {finite_difference:.6f}, autograd {slope:.6f}")
assert abs(finite_difference - slope) < 1e-5

w_grid = torch.linspace(-1.0, 5.0, 200)
fig, ax = plt.subplots(figsize=(6.5, 3.2), layout="constrained")
ax.plot(w_grid, -torch.log(torch.sigmoid(1.1 * w_grid)), label="loss(w1)")
ax.plot(w_grid, loss.item() + slope * (w_grid - 2.2), "--", label=f"slope {slope:.4f}")
ax.set(xlabel="w1", ylabel="binary cross-entropy", ylim=(0, 1.5))
ax.legend()
plt.show()

# %%
# ``backward()`` and ``.grad``
# ----------------------------
# Usually you call :meth:`~torch.Tensor.backward` on the loss instead. It
# returns nothing; it computes the gradient for every leaf that requires one
# and that the loss was computed from (here ``w1`` and ``b``, the two
# ``AccumulateGrad`` nodes drawn above) and *adds* it into that leaf's
# :attr:`~torch.Tensor.grad`, which was ``None`` until now.
print(loss.backward())
print(w1.grad, b.grad)

# %%
# .. check:: ``backward`` puts into ``w1.grad`` the gradient ``torch.autograd.grad`` returned
assert torch.equal(w1.grad, grad_w1)

# %%
# That call did not keep the graph, so the tensors it saved are gone and a
# second pass through it fails (:ref:`its atlas entry <error-backward-twice>`
# has the fix).
#
# .. detail:: A graph that saves nothing
#
#    What fails is reading a freed saved tensor: ``(w1 + 1).sum()``
#    saves none, and its graph runs twice (the two gradients of 1 add up).
try:
    loss.backward()
except RuntimeError as error:
    print("RuntimeError:", error)
else:
    raise AssertionError("the second backward pass should fail")
w1.grad = None
twice = (w1 + 1).sum()
twice.backward()
twice.backward()
print("two passes through a graph that saved nothing:", w1.grad)

# %%
# .. check:: the two passes' gradients of 1 add up to 2
assert torch.equal(w1.grad, torch.tensor([2.0]))

# %%
# Non-scalar outputs
# ------------------
# For an output of several values there is no single derivative: autograd
# computes the *vector-Jacobian product* ``vᵀJ``, where ``J`` is the
# :term:`Jacobian` of the output with respect to the input and ``v``, one weight
# per output, is the ``gradient=`` argument. Only for an output with a single
# element may it be left out (:ref:`the atlas entry <error-backward-non-scalar>`):
(torch.ones(1, 1, requires_grad=True) * 5).backward()  # one element: no error
torch.manual_seed(0)
t = torch.rand((3, 5), requires_grad=True)
result = t * 5
try:
    result.backward()
except RuntimeError as error:
    print("RuntimeError:", error)
else:
    raise AssertionError("a non-scalar output needs gradient=")

# %%
# Gradients accumulate
# --------------------
# Reduce the output to a scalar first, usually with :meth:`~torch.Tensor.sum`
# (or ``mean``): each element of ``t`` was multiplied by 5, so each gradient
# is 5. ``gradient=torch.ones_like(result)`` is the same as summing, but the
# second call below gives 10: ``backward`` *adds* into ``.grad``.
result.sum().backward()
print("after .sum().backward():", t.grad[0])
result = t * 5
result.backward(gradient=torch.ones_like(result))
print("after a second backward:", t.grad[0])

# %%
# .. check:: after the second backward every element's gradient is 10
assert torch.equal(t.grad, torch.full((3, 5), 10.0))

# %%
# Adding up is what you want when one loss is the sum of parts computed
# separately (or when you accumulate over several :term:`batches <batch>` on
# purpose), and what a training loop undoes before each new step's backward
# pass. An :term:`optimiser`'s ``zero_grad()`` sets the ``.grad`` of every
# parameter it holds to ``None`` (by default); for one tensor, write
# ``t.grad = None``. Then ``gradient=v`` gives each element ``5 * v``: ``J``
# is 5 times the identity.
torch.optim.SGD([t], lr=0.1).zero_grad()
print("after zero_grad:", t.grad)
weights = torch.arange(15.0).reshape(3, 5)
(t * 5).backward(gradient=weights)
print(t.grad)

# %%
# .. check:: ``zero_grad()`` sets ``.grad`` to ``None``, and ``gradient=v`` gives ``5 * v``
_held = torch.ones(2, requires_grad=True)
_held.grad = torch.ones(2)
torch.optim.SGD([_held], lr=0.1).zero_grad()
assert _held.grad is None
torch.testing.assert_close(t.grad, 5 * weights)

# %%
# Stop recording: ``detach``
# --------------------------
# :meth:`~torch.Tensor.detach` returns a tensor on the *same memory* that does
# not require gradients and has no ``grad_fn`` (the :ref:`previous page
# <sphx_glr_auto_examples_tensors_plot_08_tensors_and_numpy.py>` used it to
# hand a tensor to NumPy). Autograd treats it as a constant: in
# ``t * 10 + detached_t * 5`` only ``t * 10`` is recorded, so the gradient of
# ``t`` is 10, not the 15 it is without ``detach``.
t = torch.rand((3, 5), requires_grad=True)
detached_t = t.detach()
print("detached_t:", detached_t.requires_grad, detached_t.grad_fn)
(t * 10 + detached_t * 5).sum().backward()
print(t.grad[0])

# %%
# .. check:: the detached tensor shares ``t``'s memory; ``t``'s gradient is 10 with ``detach``, 15 without
assert detached_t.data_ptr() == t.data_ptr()
assert torch.equal(t.grad, torch.full((3, 5), 10.0))
assert torch.autograd.grad((t * 10 + t * 5).sum(), t)[0].eq(15).all()

# %%
# Because the memory is shared, writing through a detached tensor changes
# values that the graph may have saved for its backward pass. The detached
# tensor also shares its origin's *version counter*, which every in-place
# operation increments; backward compares it with the version each saved
# tensor had, and refuses (:ref:`the atlas entry <error-inplace-saved-tensor>`):
s = torch.sigmoid(t)  # the sigmoid saves its output for the backward pass
s.detach().zero_()
try:
    s.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)
else:
    raise AssertionError("backward should refuse the changed saved tensor")

# %%
# Stop recording: ``torch.no_grad``
# ---------------------------------
# Inside a :class:`torch.no_grad` block nothing is recorded: results do not
# require gradients even when their inputs do. What comes out is an ordinary
# tensor; in a later recorded computation it counts as a constant, so the
# gradient of ``(detached_result * t).sum()`` is ``detached_result`` itself.
t = torch.rand((3, 5), requires_grad=True)
with torch.no_grad():
    detached_result = t * 5
print("detached_result:", detached_result.requires_grad, detached_result.grad_fn)
(detached_result * t).sum().backward()

# %%
# .. check:: the gradient of ``(detached_result * t).sum()`` is ``detached_result``
assert torch.equal(t.grad, detached_result)

# %%
# ``no_grad`` is also how you *change* a leaf that requires gradients by hand,
# as in an optimiser's update: outside it, autograd refuses an in-place
# operation on such a leaf (:ref:`the atlas entry <error-inplace-leaf>`).
try:
    t -= 0.1 * t.grad
except RuntimeError as error:
    print("RuntimeError:", error)
else:
    raise AssertionError("an in-place change of the leaf should be refused")
with torch.no_grad():
    t -= 0.1 * t.grad
print("updated in place; still a leaf:", t.is_leaf, " requires_grad:", t.requires_grad)

# %%
# Stop recording: ``torch.inference_mode``
# ----------------------------------------
# :class:`torch.inference_mode` goes further than ``no_grad``: tensors newly
# created inside it, *inference tensors*, skip bookkeeping that only autograd
# needs (they have no version counter), and stay inference tensors after the
# block. Outside it, changing one in place is refused.
#
# .. detail:: Views taken inside the block
#
#    A view of a normal tensor taken inside the block is not an inference
#    tensor.
with torch.inference_mode():
    inferred = t * 5
    flat = t.view(-1)
print("inference:", inferred.is_inference(), " requires_grad:", inferred.requires_grad)

# %%
# .. check:: inference tensors have no version counter and, outside the block, refuse in-place changes; the view is not one
assert not flat.is_inference()
for _refused in (lambda: inferred._version, lambda: inferred.add_(1)):
    try:
        _refused()
    except RuntimeError as error:
        _message = str(error)
    else:
        raise AssertionError("an inference tensor should refuse this")
    assert "nference tensor" in _message

# %%
# In a recorded computation, an inference tensor is fine as long as autograd
# need not *save* it: the gradient of ``inferred + t`` does not depend on
# ``inferred``. The gradient of ``inferred * t`` with respect to ``t`` is
# ``inferred`` itself, which autograd would have to save, so that product
# fails at once, in the forward pass. The message's fix is right: a
# :meth:`~torch.Tensor.clone` made outside the block is a normal tensor.
#
# .. detail:: The message's advice
#
#    The message's advice is broader than the rule: the sum above was
#    recorded.
t.grad = None
(inferred + t).sum().backward()
try:
    inferred * t
except RuntimeError as error:
    print("RuntimeError:", error)
else:
    raise AssertionError("autograd should refuse to save an inference tensor")
t.grad = None
(inferred.clone() * t).sum().backward()
print("with a clone it works; is_inference:", inferred.clone().is_inference())

# %%
# .. check:: the sum's gradient does not depend on ``inferred``; with a clone, the product's is ``inferred``
assert torch.equal(torch.autograd.grad((inferred + t).sum(), t)[0], torch.ones(3, 5))
torch.testing.assert_close(t.grad, inferred)

# %%
# Check gradients: ``torch.autograd.gradcheck``
# ---------------------------------------------
# An operation of your own tells autograd its derivative through a subclass
# of :class:`torch.autograd.Function`: ``backward`` receives the gradient with
# respect to the output and multiplies it by the derivative (the chain rule).
# For softplus, ``log(1 + eˣ)``, that is ``sigmoid(x)`` (autograd agrees on
# :func:`~torch.nn.functional.softplus`). :func:`torch.autograd.gradcheck`
# compares the Jacobian from ``backward`` with finite differences,
# ``(f(x + ε) - f(x - ε)) / 2ε`` per element, and returns ``True`` if they agree.


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
print(torch.autograd.gradcheck(Softplus.apply, (x,)))

# %%
# .. check:: ``Softplus`` computes ``F.softplus``, whose derivative autograd gives as ``sigmoid(x)``
torch.testing.assert_close(Softplus.apply(x), F.softplus(x))
torch.testing.assert_close(torch.autograd.grad(F.softplus(x).sum(), x)[0], x.sigmoid())

# %%
# Its defaults (``eps=1e-6``, ``atol=1e-5``) are made for float64: in float32
# the rounding error of the differences is larger than the tolerance, and even
# the correct ``backward`` fails (after a warning, silenced here); a larger
# ``eps`` and ``atol`` let it pass, and would catch fewer mistakes.
x32 = x.detach().float().requires_grad_()
with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    passed = torch.autograd.gradcheck(Softplus.apply, (x32,), raise_exception=False)
    loose = torch.autograd.gradcheck(Softplus.apply, (x32,), eps=1e-2, atol=1e-3)
print("float32, defaults:", passed, "  eps=1e-2, atol=1e-3:", loose)

# %%
# .. check:: in float32 the defaults fail the correct ``backward``; the larger ``eps`` and ``atol`` pass it
assert not passed
assert loose

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
else:
    raise AssertionError("gradcheck should catch the wrong backward")

# %%
# Summary
# -------
# - ``requires_grad=True`` on a leaf asks for its gradient; while autograd
#   records, differentiable results computed from it get a ``grad_fn``.
# - :func:`torch.autograd.grad` returns gradients; :meth:`~torch.Tensor.backward`
#   adds them into ``.grad`` until you zero it. Both free the saved tensors
#   unless ``retain_graph=True``. Reduce a non-scalar output to a scalar, or
#   pass ``gradient=`` (a vector-Jacobian product).
# - :meth:`~torch.Tensor.detach` (one tensor, same memory) and
#   :class:`torch.no_grad` (a block) give constants; an inference tensor is a
#   constant too, except where autograd would have to save it.
# - Check a hand-written ``backward`` with :func:`torch.autograd.gradcheck`,
#   in float64.
#
# Next: :ref:`sphx_glr_auto_examples_gradients_plot_02_linear_algebra.py`,
# where gradients flow through linear algebra too. Exercises for this page:
# :ref:`exercises-gradients-01`.
