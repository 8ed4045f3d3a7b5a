"""
Autograd in depth
=================

After this page you can tell what a graph saves for its backward pass, and
why a second pass fails. You can read the error that a changed saved tensor
raises. You can weight a several-element output with ``gradient=``, and
know what :class:`torch.inference_mode` refuses. A first reading can skip
this in-depth page.

**Before this page:**
:ref:`sphx_glr_auto_examples_gradients_plot_01_automatic_differentiation.py`.
"""

# %%
# Every page starts by saying what computed it: here, the CPU.
import matplotlib.pyplot as plt
import torch

from tutorial_utils.environment import environment_summary

print(environment_summary(torch.device("cpu")))

# %%
# What a node saves
# -----------------
# A node saves the tensors that its derivative needs. The sigmoid's
# derivative is ``a·(1-a)``, computed from its output ``a`` alone. So the
# sigmoid's node saves ``a``.
#
# Below, ``z`` holds 121 points from -6 to 6. The sum adds the elements of
# ``a``, each with weight 1. Element ``i`` of ``a`` depends on element ``i``
# of ``z`` only. So element ``i`` of the gradient of ``a.sum()`` is the
# sigmoid's slope at ``z[i]``.
#
# The code prints the largest difference between that gradient and
# ``a·(1-a)``. ``.abs()`` gives each element's absolute value. The figure
# draws ``a``, the gradient, and ``a·(1-a)`` dotted in black, on top of the
# gradient.
#
# Matplotlib needs tensors that do not require gradients, hence ``detach``.
# The ``derivative`` that ``torch.autograd.grad`` returns requires none.
z = torch.linspace(-6.0, 6.0, 121, requires_grad=True)
a = torch.sigmoid(z)
(derivative,) = torch.autograd.grad(a.sum(), z)
from_output = (a * (1 - a)).detach()
print("largest difference:", (derivative - from_output).abs().max().item())

fig, ax = plt.subplots(figsize=(6.5, 3.2), layout="constrained")
ax.plot(z.detach(), a.detach(), label="a = sigmoid(z)")
ax.plot(z.detach(), derivative, label="autograd's derivative")
ax.plot(z.detach(), from_output, ":", color="black", label="a·(1-a)")
ax.set(xlabel="z")
ax.legend()
plt.show()

# %%
# .. check:: the two agree; the node saves ``a``; ``z`` needs ``detach``
torch.testing.assert_close(derivative, from_output)
assert not derivative.requires_grad
try:
    z.numpy()
except RuntimeError:
    pass
else:
    raise AssertionError("a tensor that requires grad should refuse .numpy()")
_z = torch.zeros(2, requires_grad=True)
_a = torch.sigmoid(_z)
assert torch.equal(_a.grad_fn._saved_result, _a)

# %%
# A graph that saves nothing
# --------------------------
# A backward pass frees the saved tensors. A second pass fails when it
# reaches a node whose saved tensors are gone. Adding a constant and summing
# save nothing: their derivatives need no values. So the graph of
# ``(w + 1).sum()`` runs twice. The two gradients of 1 add up to 2.
# Multiplying saves the other factor: it is the derivative of ``w * 3`` with
# respect to ``w``. So the graph of ``(w * 3).sum()`` fails a second pass.
w = torch.tensor([2.2], requires_grad=True)
twice = (w + 1).sum()
twice.backward()
twice.backward()
print("two passes through a graph that saved nothing:", w.grad)

# %%
# .. check:: the two gradients add up to 2; ``w * 3`` saves 3; both fail twice
assert torch.equal(w.grad, torch.tensor([2.0]))
_w = torch.tensor([2.2], requires_grad=True)
assert (_w * 3).grad_fn._saved_other.item() == 3
assert not [n for n in dir((_w + 1).grad_fn) if n in ("_saved_self", "_saved_other")]
for _once in (torch.sigmoid(_w).sum(), (_w * 3).sum()):
    _once.backward()
    try:
        _once.backward()
    except RuntimeError:
        pass
    else:
        raise AssertionError("this graph should refuse a second pass")

# %%
# The version counter
# -------------------
# An in-place operation changes a tensor's values. If the graph saved that
# tensor, the backward pass would compute with wrong values. So each tensor
# carries a :term:`version counter`, shown as ``_version``. An in-place
# PyTorch operation on the tensor increments it. So does one on a view of
# it, or on what ``detach()`` returns: these share its memory and counter.
# A few writes escape the counter: the detail below names them.
#
# A node notes the version of each tensor it saves. The backward pass
# compares, and refuses a changed one.
# :ref:`The atlas entry <error-inplace-saved-tensor>` explains the message.
#
# Below, the sigmoid's node saved its output ``s``. ``zero_`` writes zeros
# through ``s.detach()``, and ``s`` counts it.
#
# .. detail:: Writes the counter does not see
#
#    ``s.data`` is an older, unchecked form of ``s.detach()``. It and the
#    array from ``s.detach().numpy()`` share the values of ``s`` but not its
#    counter. A write through them changes the saved tensor silently. The
#    backward pass then returns a wrong gradient. Inside
#    ``torch.autograd.graph.allow_mutation_on_saved_tensors()``, autograd
#    copies a saved tensor before an in-place change, and does not refuse.
t = torch.ones(3, requires_grad=True)
s = torch.sigmoid(t)
print("version before:", s._version)
s.detach().zero_()
print("version after: ", s._version)
try:
    s.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)
else:
    raise AssertionError("backward should refuse the changed saved tensor")

# %%
# .. check:: ``zero_`` wrote through the detached tensor into ``s``
assert s.detach().eq(0).all()
assert s._version == 1
_t = torch.ones(3, requires_grad=True)
_right = torch.autograd.grad(torch.sigmoid(_t).sum(), _t)[0]
_s = torch.sigmoid(_t)
_s.view(-1).mul_(1)
assert _s._version == 1  # a view shares the counter
for _write in (lambda v: v.data.zero_(), lambda v: v.detach().numpy().fill(0)):
    _s = torch.sigmoid(_t)
    _write(_s)
    assert _s._version == 0
    assert _s.detach().eq(0).all()
    _wrong = torch.autograd.grad(_s.sum(), _t)[0]  # no error
    assert not torch.allclose(_wrong, _right)
with torch.autograd.graph.allow_mutation_on_saved_tensors():
    _s = torch.sigmoid(_t)
    _s.detach().zero_()
    torch.testing.assert_close(torch.autograd.grad(_s.sum(), _t)[0], _right)

# %%
# Outputs with several elements: ``gradient=``
# --------------------------------------------
# ``backward(gradient=v)`` takes a tensor ``v`` of the output's shape. It
# gives the gradient of ``(output * v).sum()``: each output element is
# weighted by the matching element of ``v``. A ``v`` of ones gives what
# ``output.sum()`` gives.
#
# Below, ``t`` holds 3-by-5 random numbers, and ``weights`` is ``v``.
# ``torch.arange(15.0)`` gives the numbers 0 to 14. The ``.0`` makes them
# floats, like ``t``. ``reshape`` gives them ``t``'s shape. For ``t * 5``,
# each element of ``t`` gets 5 times the matching element of ``v``.
#
# .. detail:: The vector-Jacobian product
#
#    Flatten the input and the output to 15 elements each. The
#    :term:`Jacobian` ``J`` is the 15-by-15 table of the derivatives of each
#    output element with respect to each input element. Here it is 5 times
#    the identity. ``backward(gradient=v)`` computes the
#    :term:`vector-Jacobian product` ``vᵀJ``: the flattened ``v`` as a row,
#    times ``J``. It does so without making ``J``.
#    :func:`torch.autograd.grad` takes ``v`` as ``grad_outputs=``.
torch.manual_seed(0)
t = torch.rand((3, 5), requires_grad=True)
weights = torch.arange(15.0).reshape(3, 5)
(t * 5).backward(gradient=weights)
print(t.grad)

# %%
# .. check:: ``gradient=v`` gives ``5 * v``, as ``(output * v).sum()`` does
torch.testing.assert_close(t.grad, 5 * weights)
assert weights.dtype == t.dtype
assert weights.flatten().tolist() == list(range(15))
assert torch.equal(t.grad, torch.autograd.grad((t * 5 * weights).sum(), t)[0])
assert torch.equal(t.grad, torch.autograd.grad(t * 5, t, grad_outputs=weights)[0])
_ones = torch.ones_like(t)
assert torch.equal(
    torch.autograd.grad(t * 5, t, grad_outputs=_ones)[0],
    torch.autograd.grad((t * 5).sum(), t)[0],
)

# %%
# ``torch.inference_mode``
# ------------------------
# :class:`torch.inference_mode` turns recording off, as ``no_grad`` does,
# and goes further:
#
# - A tensor newly made inside it is an :term:`inference tensor`. It stays
#   one after the block, and ``is_inference()`` says so.
# - Inference tensors skip bookkeeping that only autograd needs: they have
#   no version counter.
# - Skipping it buys speed, the documentation says. It says to use the mode
#   only for code that will not interact with autograd.
#
# Outside the block, an in-place change to an inference tensor raises an
# error. The change may already have happened. Below, ``add_(1)`` raises,
# yet ``inferred`` holds 6 afterwards, not 5. ``requires_grad_()``, which
# asks a tensor to require gradients, raises and changes nothing.
#
# .. detail:: Views made inside the block
#
#    A view of a normal tensor, taken inside the block, is not an inference
#    tensor. ``t.view(-1)`` is an example.
t = torch.ones(3, requires_grad=True)
with torch.inference_mode():
    inferred = t * 5
print("inference tensor:", inferred.is_inference())
try:
    inferred.add_(1)
except RuntimeError as error:
    print("RuntimeError:", error)
else:
    raise AssertionError("an in-place change to an inference tensor should raise")
print("after the error:", inferred)

# %%
# .. check:: ``add_`` raised but wrote; ``requires_grad_()`` raised, wrote nothing
assert torch.equal(inferred, t.detach() * 5 + 1)
assert not inferred.requires_grad
assert inferred.grad_fn is None
for _refused in (lambda: inferred._version, inferred.requires_grad_):
    try:
        _refused()
    except RuntimeError as error:
        _message = str(error)
    else:
        raise AssertionError("an inference tensor should refuse this")
    assert "nference" in _message
assert not inferred.requires_grad
assert "interact" in torch.inference_mode.__doc__
assert "performance" in torch.inference_mode.__doc__
with torch.inference_mode():
    _flat = t.view(-1)
assert not _flat.is_inference()

# %%
# Autograd refuses to record an operation that would save an inference
# tensor. It refuses at once, before any backward pass. ``inferred * t``
# would save ``inferred`` for ``t``'s gradient. A :meth:`~torch.Tensor.clone`
# made outside the block is a normal tensor, and works. The gradient of
# ``(normal * t).sum()`` with respect to ``t`` is ``normal``: 6 in each
# element, after the ``add_``.
#
# .. detail:: An operation that saves nothing
#
#    ``inferred + t`` saves neither input, and torch 2.4 to 2.13 record it
#    without an error. The documentation does not promise this: use a clone.
try:
    inferred * t
except RuntimeError as error:
    print("RuntimeError:", error)
else:
    raise AssertionError("autograd should refuse to save an inference tensor")
normal = inferred.clone()
(normal * t).sum().backward()
print("clone is an inference tensor:", normal.is_inference(), " t.grad:", t.grad)

# %%
# .. check:: the sum records; with a clone the gradient is ``inferred``, all 6
assert torch.equal(torch.autograd.grad((inferred + t).sum(), t)[0], torch.ones(3))
torch.testing.assert_close(t.grad, inferred)
assert torch.equal(t.grad, torch.full((3,), 6.0))

# %%
# Summary
# -------
# - A node saves what its derivative needs. A backward pass frees it, and a
#   second pass fails where it needs it.
# - The backward pass refuses a saved tensor whose version counter moved.
# - ``backward(gradient=v)`` gives the gradient of ``(output * v).sum()``.
# - Outside the block, an in-place change to an inference tensor raises,
#   possibly after writing. Clone one before autograd records with it.
#
# Next: :ref:`sphx_glr_auto_examples_gradients_plot_52_custom_functions.py`
# gives autograd a derivative of your own.
