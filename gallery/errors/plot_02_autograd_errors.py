"""
Errors in autograd
==================

The errors that :meth:`~torch.Tensor.backward` and in-place changes to tensors
that autograd records raise most often, each with its cause and its fix. The
messages in the output were printed by the PyTorch that built the page.
"""

# %%
# The messages below come from the version of PyTorch named on the next line;
# the tensors are tiny, so the page runs on the CPU.
import warnings

import torch

from tutorial_utils.environment import environment_summary

print(environment_summary("cpu"))

# %%
# .. _error-backward-twice:
#
# Trying to backward through the graph a second time
# --------------------------------------------------
# Raised by :meth:`~torch.Tensor.backward` (or :func:`torch.autograd.grad`)
# when part of the :term:`computational graph` was already used by an earlier
# backward pass: here a tensor computed once, before the loop, takes part in
# every step's loss.
w = torch.tensor([1.0, 2.0], requires_grad=True)
features = w.exp()
try:
    for step in range(2):
        loss = (features * 3).sum()
        loss.backward()
        print(f"step {step}: backward done")
except RuntimeError as error:
    message = str(error)
    print(f"step {step}: {type(error).__name__}: {message}")
else:
    raise AssertionError("the second backward did not raise")

# %%
# .. check:: the second step's backward gets the heading's message
assert "Trying to backward through the graph a second time" in message

# %%
# **Why.** Nodes of the graph keep the tensors their :term:`gradient` needs
# (:func:`torch.exp` keeps its result), and a backward pass frees them once it
# has used them, to save memory. Step 0 went through the ``exp`` node built
# before the loop; step 1 needs that node again. The same happens when a
# recurrent network's hidden state is carried from one batch to the next.
#
# **Fix.** Build the graph inside the loop, so that each backward pass has a
# graph of its own (and reset the gradients each step, which add up
# otherwise); use ``features.detach()`` instead when the earlier part should
# not be trained (for a hidden state: ``hidden = hidden.detach()``).
# ``retain_graph=True`` keeps the saved tensors for a second pass, which is
# needed only when you really differentiate the same graph twice.
#
# .. detail:: A reused part that saved nothing
#
#    A reused part that saved nothing (``w + 1``) raises no error, but its
#    values were computed from the old ``w``: once a step changes ``w``,
#    backward still gives the gradient at the old values, silently.
for _ in range(2):
    w.grad = None
    loss = (w.exp() * 3).sum()
    loss.backward()
print(w.grad)
torch.testing.assert_close(w.grad, 3 * w.detach().exp())
shifted, grads = w + 1, []  # saves nothing: reusing it raises no error
for _ in range(2):
    w.grad = None
    (shifted**2).sum().backward()
    grads.append(w.grad)
    with torch.no_grad():
        w -= 0.1 * w.grad  # a training step changes w
print(grads)
assert torch.equal(grads[0], grads[1])  # the same gradient: from the old w

# %%
# .. check:: step 1 failed; ``shifted`` is stale; gradients add up; a carried hidden state fails, detached works
assert step == 1
assert not torch.equal(shifted, w + 1)
# Without the reset, gradients of fresh graphs add up.
w.grad = None
for _ in range(2):
    (w.exp() * 3).sum().backward()
torch.testing.assert_close(w.grad, 6 * w.detach().exp())
# A carried hidden state raises the same error; detaching it each batch works.
with torch.random.fork_rng(devices=[]):  # the cell's weights draw random numbers
    cell, hidden = torch.nn.RNNCell(2, 2), torch.zeros(1, 2)
try:
    for _ in range(2):
        hidden = cell(torch.ones(1, 2), hidden)
        hidden.sum().backward()
except RuntimeError as error:
    hidden_message = str(error)
else:
    raise AssertionError("carrying the hidden state did not raise")
assert "Trying to backward through the graph a second time" in hidden_message
for _ in range(2):
    hidden = cell(torch.ones(1, 2), hidden.detach())
    hidden.sum().backward()
# features.detach(): the earlier part is not trained, the rest is.
v = torch.ones(2, requires_grad=True)
for _ in range(2):
    (features.detach() * v).sum().backward()
torch.testing.assert_close(v.grad, 2 * features.detach())

# %%
# .. _error-backward-non-scalar:
#
# grad can be implicitly created only for scalar outputs
# ------------------------------------------------------
# Raised by :meth:`~torch.Tensor.backward` called without an argument on a
# real tensor with more than one element, such as a loss computed with
# ``reduction="none"`` or one value per sample. A complex output, even of one
# element, is refused in other words.
w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
per_sample = (w - 2.0) ** 2
try:
    per_sample.backward()
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("per_sample.backward() did not raise")

# %%
# .. check:: three values get the heading's message; a complex one gets other words
assert "grad can be implicitly created only for scalar outputs" in message
try:
    (w[:1] * 1j).sum().backward()
except RuntimeError as error:
    complex_message = str(error)
else:
    raise AssertionError("backward of a complex output did not raise")
assert "only for real scalar outputs" in complex_message
assert "grad can be implicitly created only for scalar outputs" not in complex_message

# %%
# **Why.** ``loss.backward()`` starts from the gradient 1 of a single number.
# The derivative of a tensor with several elements is a :term:`Jacobian`, and
# what backward computes is a :term:`vector-Jacobian product`: autograd needs
# the vector, and supplies it (a 1) only for a tensor of one element.
#
# **Fix.** Reduce to the one number you minimise, usually with
# :meth:`~torch.Tensor.mean`. Passing the vector,
# ``backward(gradient=torch.ones_like(per_sample))``, is the same as
# backward of the :meth:`~torch.Tensor.sum`.
per_sample.mean().backward()
print(w.grad)
torch.testing.assert_close(w.grad, 2 * (w.detach() - 2.0) / 3)
w.grad = None
((w - 2.0) ** 2).backward(gradient=torch.ones(3))
from_vector = w.grad
w.grad = None
((w - 2.0) ** 2).sum().backward()

# %%
# .. check:: a vector of ones as ``gradient=`` gives the gradient of the sum
torch.testing.assert_close(from_vector, w.grad)

# %%
# .. _error-no-grad-fn:
#
# element … of tensors does not require grad and does not have a grad_fn
# ----------------------------------------------------------------------
# Raised by :meth:`~torch.Tensor.backward` (or :func:`torch.autograd.grad`)
# when the tensor it starts from was not recorded by autograd. "element 0"
# is the first (here the only) tensor it starts from. An input of
# :func:`torch.autograd.grad` that does not require gradients is reported in
# other words.
w = torch.tensor([1.0, 2.0])
loss = (w**2).sum()
try:
    loss.backward()
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("loss.backward() did not raise")

# %%
# .. check:: the loss has no ``grad_fn`` and gets the heading's message
assert "element" in message
assert "of tensors does not require grad and does not have a grad_fn" in message
assert loss.grad_fn is None
assert not loss.requires_grad

# %%
# **Why.** Autograd records an operation only when one of its inputs requires
# gradients. Here none does, since ``w`` was created without
# ``requires_grad=True``, so ``loss`` has no :attr:`~torch.Tensor.grad_fn` to
# start from. The same happens when the loss is computed under
# :class:`torch.no_grad` (for example, code moved from an evaluation loop), or
# from a tensor that went through :meth:`~torch.Tensor.detach`.
#
# **Fix.** Ask for gradients where you want them (a model's parameters
# already do), and compute the loss outside :class:`torch.no_grad`.
w.requires_grad_()
loss = (w**2).sum()
loss.backward()
print(w.grad)
torch.testing.assert_close(w.grad, 2 * w.detach())

# %%
# .. check:: no ``grad_fn`` under ``no_grad`` or after ``detach``; a second tensor and ``grad``'s input as said
with torch.no_grad():
    assert (w**2).sum().grad_fn is None
assert (w.detach() ** 2).sum().grad_fn is None
constant, other_messages = torch.ones(2), []
for call in [
    lambda: torch.autograd.backward([(w * 2).sum(), constant.sum()]),
    lambda: torch.autograd.grad((w * constant).sum(), constant),
]:
    try:
        call()
    except RuntimeError as error:
        other_messages.append(str(error))
    else:
        raise AssertionError("a tensor without gradients did not raise")
assert "element 1 of tensors does not require grad" in other_messages[0]
assert "One of the differentiated Tensors does not require grad" in other_messages[1]

# %%
# .. _error-inplace-saved-tensor:
#
# one of the variables needed for gradient computation has been modified by an inplace operation
# ----------------------------------------------------------------------------------------------
# Raised by :meth:`~torch.Tensor.backward` when a tensor that the graph kept
# for the backward pass was changed in place after it was kept: here the
# output of :func:`torch.sigmoid`, shifted with ``+=``.
w = torch.tensor([0.0, 1.0], requires_grad=True)
probs = torch.sigmoid(w)
version_before = probs._version
probs += 1
try:
    probs.sum().backward()
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("backward after probs += 1 did not raise")

# %%
# .. check:: ``probs += 1`` took ``probs`` from version 0 to 1, and backward gets the heading's message
assert (version_before, probs._version) == (0, 1)
heading = (
    "one of the variables needed for gradient computation has been modified by "
    "an inplace operation"
)
assert heading in message

# %%
# **Why.** The gradient of the sigmoid, ``s * (1 - s)``, is computed from its
# output ``s``, which the graph keeps. Every tensor carries a
# :term:`version counter` that each :term:`in-place operation` increases, and
# backward checks that what it kept is still at the version it kept. The rest
# of the message gives the kept tensor's shape, a node and the two versions.
# For a kept output, as here, the node is the operation that made it.
# Other frequent causes: ``nn.ReLU(inplace=True)`` after an operation that
# keeps its output, and ``optimizer.step()`` (which changes the parameters in
# place) between a forward pass and its backward; its message names
# ``AsStrided``, an operation you never wrote.
#
# **Fix.** Compute out of place (``probs = probs + 1``): a new tensor, and
# the kept one stays as it was. To find which forward operation kept the
# changed tensor, run the forward and backward passes under
# :class:`torch.autograd.detect_anomaly`: the failing backward pass then also
# warns with the traceback of the forward call that made the failing node
# (slowly: for debugging only).
#
# .. detail:: The node in the message
#
#    The name of a kept output's node depends on the version: ``Sigmoid`` in
#    PyTorch 2.13, ``SigmoidBackward0`` in 2.4. For a kept input, the node is
#    the tensor's current :attr:`~torch.Tensor.grad_fn`, often the in-place
#    operation itself, and none for a leaf or a tensor that requires no
#    gradient.
probs = torch.sigmoid(w)
shifted = probs + 1
shifted.sum().backward()

# %%
# .. check:: the rest of the message, the kept inputs' nodes, the fix, the other causes and anomaly mode as said
assert "is at version 1; expected version 0 instead" in message
assert "output 0 of Sigmoid" in message
s = torch.sigmoid(w.detach())
torch.testing.assert_close(w.grad, s * (1 - s))
if torch.__version__ >= (2, 13):
    assert "output 0 of Sigmoid," in message
if torch.__version__ < (2, 5):
    assert "output 0 of SigmoidBackward0," in message
# A kept input names its current grad_fn; a leaf or a constant names no node.
v = torch.tensor([0.0, 1.0], requires_grad=True)
leaf = torch.tensor([0.0, 1.0], requires_grad=True)
doubled, constant = v * 2, torch.ones(2)
losses = [(doubled * doubled).sum(), (v * constant).sum(), (leaf * leaf).sum()]
doubled.relu_()
constant += 1
with torch.no_grad():
    leaf += 1
node_messages = []
for loss in losses:
    try:
        loss.backward()
    except RuntimeError as error:
        node_messages.append(str(error))
    else:
        raise AssertionError("backward after an in-place change did not raise")
assert doubled.grad_fn.name() == "ReluBackward0"
assert "output 0 of Relu" in node_messages[0]
for node_message in node_messages[1:]:
    assert heading in node_message
    assert "which is output" not in node_message
# The two other causes named above raise the same error.
kept = torch.sigmoid(v)
torch.nn.ReLU(inplace=True)(kept)
try:
    kept.sum().backward()
except RuntimeError as error:
    relu_message = str(error)
else:
    raise AssertionError("backward after an in-place ReLU did not raise")
assert heading in relu_message
with torch.random.fork_rng(devices=[]):  # the layers' weights draw random numbers
    layer = torch.nn.Linear(2, 1)
    optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
    loss = layer(torch.nn.Linear(2, 2)(torch.ones(3, 2))).sum()
for parameter in layer.parameters():
    parameter.grad = torch.ones_like(parameter)
optimizer.step()
try:
    loss.backward()
except RuntimeError as error:
    optimiser_message = str(error)
else:
    raise AssertionError("backward after optimizer.step() did not raise")
assert heading in optimiser_message
assert "output 0 of AsStrided" in optimiser_message
# Anomaly detection warns with the forward call's traceback.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.autograd.detect_anomaly():
        kept = torch.sigmoid(v)
        kept += 1
        try:
            kept.sum().backward()
        except RuntimeError as error:
            anomaly_message = str(error)
        else:
            raise AssertionError("backward under detect_anomaly did not raise")
assert heading in anomaly_message
assert any("Traceback of forward call" in str(entry.message) for entry in caught)

# %%
# .. _error-inplace-leaf:
#
# a leaf Variable that requires grad is being used in an in-place operation
# -------------------------------------------------------------------------
# Raised by an in-place operation on a :term:`leaf` tensor that requires
# gradients while autograd records: typically a hand-written update step.
w = torch.tensor([1.0, -1.0], requires_grad=True)
(w**2).sum().backward()
try:
    w -= 0.1 * w.grad
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("w -= 0.1 * w.grad did not raise")

# %%
# .. check:: a hand-written update step gets the heading's message
assert (
    "a leaf Variable that requires grad is being used in an in-place operation"
    in message
)

# %%
# **Why.** A leaf is where gradients end up, in its
# :attr:`~torch.Tensor.grad`. Recording an in-place change would put an
# operation before it in the graph, so it would no longer be a leaf; autograd
# refuses instead.
#
# **Fix.** Update parameters with autograd off, inside :class:`torch.no_grad`,
# as the optimisers of :mod:`torch.optim` also do in their ``step()`` (unless
# built with ``differentiable=True``). The tensor is changed in place and
# stays a leaf that requires gradients.
#
# .. detail:: Through an index or a slice
#
#    Assigning through an integer index or a slice (``w[0] = 0``) raises the same
#    error, worded ``a view of a leaf Variable that requires grad is being
#    used in an in-place operation``.
with torch.no_grad():
    w -= 0.1 * w.grad
print(w)

# %%
# .. check:: ``w[0] = 0`` is worded as said; updated, ``w`` stays a leaf that requires grad, also by ``step()``
try:
    w[0] = 0.0
except RuntimeError as error:
    view_message = str(error)
else:
    raise AssertionError("w[0] = 0.0 did not raise")
assert "a view of a leaf Variable that requires grad" in view_message
torch.testing.assert_close(w.detach(), torch.tensor([0.8, -0.8]))
assert w.is_leaf
assert w.requires_grad
# step() updates a leaf in place with autograd on around it, so it switches
# autograd off; differentiable=True keeps it on, and the update raises.
torch.optim.SGD([w], lr=0.1).step()
assert w.is_leaf
try:
    torch.optim.SGD([w], lr=0.1, differentiable=True).step()
except RuntimeError as error:
    step_message = str(error)
else:
    raise AssertionError("a differentiable step on a leaf did not raise")
assert "a leaf Variable that requires grad" in step_message

# %%
# See also: :ref:`sphx_glr_auto_examples_gradients_plot_01_automatic_differentiation.py`
# and :ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`.
