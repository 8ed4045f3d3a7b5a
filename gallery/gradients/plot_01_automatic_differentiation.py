"""
Automatic differentiation
=========================

After this page you can get the :term:`gradient` of a :term:`loss` with
:func:`torch.autograd.grad` and :meth:`torch.Tensor.backward`, and check
it by hand. You can also switch the recording off, with
:meth:`~torch.Tensor.detach` and :class:`torch.no_grad`.

**Before this page:**
:ref:`sphx_glr_auto_examples_tensors_plot_01_creating_tensors.py`,
:ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py` for ``eps``,
:ref:`sphx_glr_auto_examples_tensors_plot_04_arithmetic_and_broadcasting.py`
for in-place operations, and
:ref:`sphx_glr_auto_examples_tensors_plot_08_tensors_and_numpy.py`, which
met ``requires_grad``.
"""

# %%
# This page computes on the CPU. The module ``torch.nn.functional``,
# imported as ``F``, holds functions that models use.
import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F

from tutorial_utils.environment import environment_summary
from tutorial_utils.graphs import autograd_graph, draw_graph

print(environment_summary(torch.device("cpu")))

# %%
# A model, its loss and ``requires_grad``
# ---------------------------------------
# The example is a classifier with one input ``x1``, a weight ``w1`` and a
# bias ``b``. It computes in three steps:
#
# 1. ``z = x1 * w1 + b``.
# 2. :func:`torch.sigmoid` turns ``z`` into ``a``, between 0 and 1. That is
#    the :term:`sigmoid`, ``1 / (1 + exp(-z))``. ``a`` is the predicted
#    probability that the label ``y`` is 1.
# 3. The :term:`loss`, here the binary cross-entropy, says how wrong ``a``
#    is. For ``y = 1``,
#    :func:`~torch.nn.functional.binary_cross_entropy` gives ``-log(a)``, a
#    single number.
#
# Training changes ``w1`` and ``b`` to lower the loss. It needs the
# gradient: how fast the loss changes with each of them.
# ``requires_grad=True`` asks :term:`autograd`, PyTorch's automatic
# differentiation, to record what is computed from a tensor.
y = torch.tensor([1.0])
x1 = torch.tensor([1.1])
w1 = torch.tensor([2.2], requires_grad=True)
b = torch.tensor([0.0], requires_grad=True)

z = x1 * w1 + b
a = torch.sigmoid(z)
loss = F.binary_cross_entropy(a, y)

# %%
# The four tensors made directly are :term:`leaves <leaf>`: ``is_leaf`` is
# ``True``. Autograd records by default. Here each operation has an input
# that requires gradients. So each result, ``z``, ``a`` and ``loss``,
# requires them too, and is not a leaf.
#
# Autograd records each such operation as a node of the
# :term:`computational graph`. A result's ``grad_fn`` is its node, and
# ``name()`` gives the node's name. A leaf's ``grad_fn`` is ``None``. The
# loop prints these three facts for each tensor.
#
# .. detail:: Results that are leaves or carry no gradient
#
#    A comparison such as ``w1 > 2`` gives booleans, which carry no
#    gradient. A conversion that changes nothing, such as ``w1.float()`` for
#    a float32 ``w1``, returns ``w1`` itself, still a leaf.
tensors = {"y": y, "x1": x1, "w1": w1, "b": b, "z": z, "a": a, "loss": loss}
for name, t in tensors.items():
    grad_fn = t.grad_fn.name() if t.grad_fn else None
    flags = f"requires_grad={t.requires_grad}  is_leaf={t.is_leaf}"
    print(f"{name:5} {flags}  grad_fn={grad_fn}")

# %%
# .. check:: the sigmoid and the loss are as said; autograd records by default
torch.testing.assert_close(a, 1 / (1 + torch.exp(-z)))
torch.testing.assert_close(loss, -torch.log(a)[0])
assert loss.shape == ()
assert torch.is_grad_enabled()
assert all(t.is_leaf and t.grad_fn is None for t in (y, x1, w1, b))
assert all(t.requires_grad and not t.is_leaf for t in (z, a, loss))
assert not (w1 > 2).requires_grad
assert w1.float() is w1
assert w1.float().is_leaf

# %%
# The graph autograd records
# --------------------------
# Each node links to the nodes of its operation's inputs. The site's helper
# ``autograd_graph`` follows these links back from ``loss``, and
# ``draw_graph`` draws them. A node shows the name its tensor has in
# ``tensors``. ``x1 * w1`` has none.
#
# The arrows follow the :term:`forward pass`, the computation from the
# inputs to the loss. ``x1`` and ``y`` need no gradient, so they have no
# node.
#
# Each leaf that requires gradients gets an ``AccumulateGrad`` node. It
# adds the gradient into the leaf's :attr:`~torch.Tensor.grad`. A
# :term:`backward pass` follows the arrows in reverse. At each node it
# applies the chain rule, worked by hand below.
#
# .. detail:: The links themselves
#
#    Here, a node's ``next_functions`` holds one ``(node, index)`` pair for
#    each input of its operation. The index picks one output of that node.
#    The node is ``None`` for an input that needs no gradient, such as ``y``.
graph = autograd_graph(loss, tensors)
print(graph)
draw_graph(graph)
plt.show()

# %%
# .. check:: links go to the inputs' nodes; ``y`` has none; ``b`` has AccumulateGrad
assert [len(t.grad_fn.next_functions) for t in (z, a, loss)] == [2, 1, 2]
assert len(z.grad_fn.next_functions[0][0].next_functions) == 2
loss_inputs = [node for node, _ in loss.grad_fn.next_functions]
assert loss_inputs[0] is a.grad_fn
assert loss_inputs[1] is None
assert a.grad_fn.next_functions[0][0] is z.grad_fn
assert z.grad_fn.next_functions[1][0].variable is b
assert "AccumulateGrad" in z.grad_fn.next_functions[1][0].name()

# %%
# Gradients with ``torch.autograd.grad``
# --------------------------------------
# :func:`torch.autograd.grad` takes an output of one element, such as
# ``loss``, and the inputs you name. It returns their gradients, from one
# backward pass, and leaves ``.grad`` alone. An output of several elements
# needs one more argument, ``grad_outputs=``, which the in-depth page
# teaches.
#
# Some nodes save tensors that their derivative needs. The
# sigmoid's derivative is ``a·(1-a)``, so its node saved ``a``. A backward
# pass then frees the saved tensors. ``retain_graph=True`` keeps them, for
# the passes later on this page.
#
# .. detail:: When the graph is kept
#
#    ``retain_graph`` takes the value of ``create_graph`` unless you give it.
#    ``create_graph=True`` records the backward pass itself, for gradients
#    of gradients, and so it keeps the graph too.
grad_w1, grad_b = torch.autograd.grad(loss, (w1, b), retain_graph=True)
print(grad_w1, grad_b, "  w1.grad:", w1.grad)

# %%
# .. check:: ``w1.grad`` stays None; the sigmoid saved ``a``; create_graph keeps
assert w1.grad is None
try:
    torch.autograd.grad(w1 * torch.ones(3), w1)
except RuntimeError:
    pass
else:
    raise AssertionError("an output of three elements should need grad_outputs=")
torch.autograd.grad(w1 * torch.ones(3), w1, grad_outputs=torch.ones(3))
assert torch.equal(a.grad_fn._saved_result, a)
_w = torch.tensor([2.2], requires_grad=True)
_loss = F.binary_cross_entropy(torch.sigmoid(1.1 * _w), torch.tensor([1.0]))
torch.autograd.grad(_loss, _w, create_graph=True)
torch.autograd.grad(_loss, _w)  # a second pass: the graph was kept
try:
    torch.autograd.grad(_loss, _w)
except RuntimeError:
    pass
else:
    raise AssertionError("without create_graph the pass should free the graph")

# %%
# The chain rule gives these numbers by hand. ``∂L/∂w1`` is the derivative
# of the loss ``L`` with respect to ``w1``, the other inputs held fixed:
#
# 1. For a label ``y`` of 0 or 1, the loss is
#    ``L = -[y·log(a) + (1-y)·log(1-a)]``. With ``y = 1``, that is
#    ``-log(a)``.
# 2. Its derivative is ``∂L/∂a = -y/a + (1-y)/(1-a)``. Over the common
#    denominator ``a·(1-a)``, that is ``(a - y) / (a·(1-a))``.
# 3. The sigmoid gives ``∂a/∂z = a·(1-a)``. The product of the two is
#    ``∂L/∂z = a - y``.
# 4. ``z = x1·w1 + b`` gives ``∂z/∂w1 = x1`` and ``∂z/∂b = 1``. Each times
#    ``∂L/∂z`` gives ``∂L/∂w1 = (a - y)·x1`` and ``∂L/∂b = a - y``.
#
# :func:`torch.testing.assert_close` raises an error unless two tensors
# agree within a relative tolerance ``rtol`` and an absolute one ``atol``.
# Autograd and the hand calculation agree within 4 float32 ``eps``
# relative.
by_hand_w1 = (a - y) * x1
by_hand_b = a - y
print(f"∂L/∂w1 = (a - y) * x1 = {by_hand_w1.item():.4f}")
print(f"∂L/∂b  = (a - y)      = {by_hand_b.item():.4f}")
eps = torch.finfo(torch.float32).eps
torch.testing.assert_close(grad_w1, by_hand_w1, atol=0, rtol=4 * eps)

# %%
# .. check:: steps 1 to 3 hold; ``∂L/∂b`` agrees within 4 eps relative too
for _y in (torch.zeros(1), torch.ones(1)):
    _formula = -(_y * torch.log(a) + (1 - _y) * torch.log(1 - a))[0]
    torch.testing.assert_close(F.binary_cross_entropy(a, _y), _formula)
grad_a, grad_z = torch.autograd.grad(loss, (a, z), retain_graph=True)
torch.testing.assert_close(grad_a, (a - y) / (a * (1 - a)), atol=0, rtol=4 * eps)
torch.testing.assert_close(grad_z, a - y, atol=0, rtol=4 * eps)
torch.testing.assert_close(
    torch.autograd.grad(torch.sigmoid(z), z, retain_graph=True)[0], a * (1 - a)
)
torch.testing.assert_close(grad_b, by_hand_b, atol=0, rtol=4 * eps)

# %%
# A gradient is a slope. With ``x1 = 1.1``, ``y = 1`` and ``b = 0``, the
# loss is ``-log(sigmoid(1.1·w1))``. ``torch.log`` is the natural logarithm.
# The figure draws the loss, and the dashed line ``loss + slope·(w1 - 2.2)``
# with autograd's slope. ``ax.plot`` takes these tensors as they are, and
# ``ax.legend`` labels the lines.
#
# The slope is negative, so a slightly larger ``w1`` lowers the loss.
# Moving against the gradient like this is gradient descent.
#
# .. detail:: A finite difference
#
#    A central difference, ``(L(w1 + h) - L(w1 - h)) / 2h``, estimates the
#    slope without autograd. Here, in float64 with ``h = 1e-3``, it agrees
#    with autograd within ``1e-5``. In float32, rounding makes it miss by
#    more.
slope = grad_w1.item()
w_grid = torch.linspace(-1.0, 5.0, 200)
fig, ax = plt.subplots(figsize=(6.5, 3.2), layout="constrained")
ax.plot(w_grid, -torch.log(torch.sigmoid(1.1 * w_grid)), label="loss(w1)")
ax.plot(w_grid, loss.item() + slope * (w_grid - 2.2), "--", label=f"slope {slope:.4f}")
ax.set(xlabel="w1", ylabel="binary cross-entropy", ylim=(0, 1.5))
ax.legend()
plt.show()

# %%
# .. check:: the curve is the loss; the slope is negative; larger ``w1`` lowers it
torch.testing.assert_close(torch.log(torch.exp(torch.tensor(1.0))), torch.tensor(1.0))
torch.testing.assert_close(-torch.log(torch.sigmoid(1.1 * w1))[0], loss)
assert slope < 0
_h = 1e-3
_ends = torch.tensor([2.2 - _h, 2.2 + _h], dtype=torch.float64)
_ends_loss = -torch.log(torch.sigmoid(1.1 * _ends))
assert _ends_loss[1] < _ends_loss[0]

# %%
# .. check:: a central difference agrees within 1e-5 in float64, not in float32
for _dtype, _agrees in ((torch.float64, True), (torch.float32, False)):
    _ends_loss = -torch.log(torch.sigmoid(1.1 * _ends.to(_dtype)))
    _difference = (_ends_loss[1] - _ends_loss[0]).item() / (2 * _h)
    print(f"{_dtype}: finite difference {_difference:.6f}, autograd {slope:.6f}")
    assert (abs(_difference - slope) < 1e-5) == _agrees

# %%
# ``backward()`` and ``.grad``
# ----------------------------
# Usually you call :meth:`~torch.Tensor.backward` on the loss instead. It
# returns nothing. Its ``AccumulateGrad`` nodes *add* the gradients into
# ``.grad``, which was ``None`` until now.
print(loss.backward())
print(w1.grad, b.grad)

# %%
# .. check:: ``backward`` puts into ``.grad`` what ``torch.autograd.grad`` gave
assert torch.equal(w1.grad, grad_w1)
assert torch.equal(b.grad, grad_b)
_cut = torch.tensor([3.0], requires_grad=True)
_kept = torch.tensor([1.0], requires_grad=True)
((_cut > 2).float() * x1 + _kept).sum().backward()
assert _cut.grad is None
assert _kept.grad is not None

# %%
# That call freed the graph's saved tensors, so a second pass fails. A
# ``try`` whose ``else`` raises shows an error the page expects.
# :ref:`Its atlas entry <error-backward-twice>` has the fix.
try:
    loss.backward()
except RuntimeError as error:
    print("RuntimeError:", error)
else:
    raise AssertionError("the second backward pass should fail")

# %%
# Outputs with several elements
# -----------------------------
# ``backward()`` without arguments needs a floating-point output of one
# element. Below, ``t`` holds 15 random numbers that require gradients.
# ``t * 5`` has 15 elements, so ``backward()`` refuses it. :ref:`The atlas
# entry <error-backward-non-scalar>` explains the message.
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
# .. check:: a floating-point output with one element needs no argument
(torch.ones(1, 1, requires_grad=True) * 5).backward()
(torch.ones((), requires_grad=True) * 5).backward()
_complex = torch.ones(1, dtype=torch.complex64, requires_grad=True) * 5
assert not _complex.is_floating_point()
try:
    _complex.backward()
except RuntimeError:
    pass
else:
    raise AssertionError("a complex output should need gradient=")

# %%
# Gradients accumulate
# --------------------
# Reduce the output to one element first, usually with
# :meth:`~torch.Tensor.sum`. Each element of ``t`` was multiplied by 5, so
# each gradient is 5. A second pass makes it 10: ``backward`` adds into
# ``.grad``. Each line builds a new graph, so both passes run. The code
# prints the first row, ``t.grad[0]``; the check tests all 15 elements.
#
# .. detail:: ``mean`` instead of ``sum``
#
#    ``mean`` divides the sum by the number of elements, 15 here. Each
#    gradient is then 5 / 15.
(t * 5).sum().backward()
print("after one backward: ", t.grad[0])
(t * 5).sum().backward()
print("after a second one: ", t.grad[0])

# %%
# .. check:: every element's gradient is 10; ``mean`` gives 5 / 15; a reused graph fails
assert torch.equal(t.grad, torch.full((3, 5), 10.0))
_u = torch.ones(2, requires_grad=True)
_reused = (_u * 5).sum()
_reused.backward()
try:
    _reused.backward()
except RuntimeError:
    pass
else:
    raise AssertionError("a second pass through the graph of t * 5 should fail")
torch.testing.assert_close(
    torch.autograd.grad((t * 5).mean(), t)[0], torch.full((3, 5), 5 / 15)
)

# %%
# A training loop usually resets ``.grad`` before each backward pass. For
# one tensor, write ``t.grad = None``. An :term:`optimiser`, taught later,
# resets all of its tensors with ``zero_grad()``.
t.grad = None
print("after t.grad = None:", t.grad)

# %%
# .. check:: an optimiser's ``zero_grad()`` sets ``.grad`` to None
_held = torch.ones(2, requires_grad=True)
_held.grad = torch.ones(2)
torch.optim.SGD([_held], lr=0.1).zero_grad()
assert _held.grad is None

# %%
# Stop recording: ``detach``
# --------------------------
# :meth:`~torch.Tensor.detach`, met on the :ref:`previous page
# <sphx_glr_auto_examples_tensors_plot_08_tensors_and_numpy.py>`, returns a
# tensor on the same memory that does not require gradients. Autograd treats
# it as a constant. In ``t * 10 + detached_t * 5``, the second product is
# not recorded. So ``t``'s gradient is 10, not 15 as without ``detach``.
# Below, a new random ``t`` replaces the old one, and the code prints the
# first row of its gradient.
#
# .. detail:: A write through a detached tensor
#
#    The memory is shared, so an in-place write through a detached tensor
#    changes the original too. The in-depth page
#    :ref:`sphx_glr_auto_examples_gradients_plot_51_autograd_in_depth.py`
#    shows how a backward pass catches such a write.
t = torch.rand((3, 5), requires_grad=True)
detached_t = t.detach()
print("detached_t:", detached_t.requires_grad, detached_t.grad_fn)
(t * 10 + detached_t * 5).sum().backward()
print(t.grad[0])

# %%
# .. check:: ``detach`` shares memory, so writes show; 10 with ``detach``, 15 without
assert detached_t.data_ptr() == t.data_ptr()
assert torch.equal(t.grad, torch.full((3, 5), 10.0))
assert torch.autograd.grad((t * 10 + t * 5).sum(), t)[0].eq(15).all()
_origin = torch.zeros(3, requires_grad=True)
_origin.detach().fill_(2.0)
assert _origin.tolist() == [2.0, 2.0, 2.0]

# %%
# Stop recording: ``torch.no_grad``
# ---------------------------------
# Inside a ``with`` :class:`torch.no_grad` block, autograd records no graph
# for the backward pass. A result computed there, such as ``t * 5``, does
# not require gradients, even though ``t`` does. Later, such a result is a
# constant: the gradient of ``(detached_result * t).sum()`` is
# ``detached_result``. Below, ``t`` is replaced again, and the code prints
# the first row of each.
#
# .. detail:: A view made inside ``no_grad``
#
#    A view such as ``t[0]``, made inside the block, still reports
#    ``requires_grad=True``. It has no ``grad_fn``, so a backward pass
#    through it never reaches ``t``.
t = torch.rand((3, 5), requires_grad=True)
with torch.no_grad():
    detached_result = t * 5
print("detached_result:", detached_result.requires_grad, detached_result.grad_fn)
(detached_result * t).sum().backward()
print("t.grad[0]:         ", t.grad[0])
print("detached_result[0]:", detached_result[0])

# %%
# .. check:: the gradient of ``(detached_result * t).sum()`` is ``detached_result``
assert torch.equal(t.grad, detached_result)
assert not detached_result.requires_grad
assert detached_result.grad_fn is None
_source = torch.ones(3, requires_grad=True)
with torch.no_grad():
    _view = _source[0]
assert _view.requires_grad
assert _view.grad_fn is None
(_view * 2).backward()
assert _source.grad is None

# %%
# ``no_grad`` is also how an update changes a leaf that requires gradients.
# ``t -= 0.1 * t.grad`` steps against the gradient, as gradient descent
# does. 0.1 is the step size, the :term:`learning rate`. While autograd
# records, it refuses this in-place change. :ref:`The atlas entry
# <error-inplace-leaf>` explains the message. Inside ``no_grad`` it works,
# and ``t`` stays a leaf.
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
# .. check:: after the update inside ``no_grad``, ``t`` is a leaf that requires grad
assert t.is_leaf
assert t.requires_grad
torch.testing.assert_close(t, detached_result / 5 - 0.1 * t.grad)

# %%
# Summary
# -------
# - ``requires_grad=True`` asks autograd to record what is computed from a
#   leaf. A recorded result has a ``grad_fn``.
# - :func:`torch.autograd.grad` returns gradients;
#   :meth:`~torch.Tensor.backward` adds them into ``.grad``. Both free the
#   saved tensors unless told not to.
# - :meth:`~torch.Tensor.detach` and :class:`torch.no_grad` give constants.
#
# Next: :ref:`sphx_glr_auto_examples_gradients_plot_02_linear_algebra.py`.
# Exercises: :ref:`exercises-gradients-01`. In depth:
# :ref:`sphx_glr_auto_examples_gradients_plot_51_autograd_in_depth.py`
# covers saved tensors, ``gradient=`` and :class:`torch.inference_mode`;
# :ref:`sphx_glr_auto_examples_gradients_plot_52_custom_functions.py`, a
# derivative of your own.
