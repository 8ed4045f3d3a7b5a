"""
Errors in autograd
==================

This page explains the errors that :term:`autograd` raises most often. They
come from :meth:`~torch.Tensor.backward` and from in-place changes to tensors
that autograd records. Each entry shows the error, says why it happens and
runs the fix.

**Before this page:**
:ref:`sphx_glr_auto_examples_gradients_plot_01_automatic_differentiation.py`,
:ref:`sphx_glr_auto_examples_gradients_plot_51_autograd_in_depth.py` and
:ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`.
"""

# %%
# The line below names the PyTorch that printed the messages.
import warnings

import torch

from tutorial_utils.environment import environment_summary

print(environment_summary("cpu"))

# %%
# .. _error-backward-twice:
#
# Trying to backward through the graph a second time
# --------------------------------------------------
# :meth:`~torch.Tensor.backward` raises it, and so does
# :func:`torch.autograd.grad`. Part of the :term:`computational graph` was
# already used by an earlier backward pass. Here a tensor computed once,
# before the loop, takes part in every step's loss.
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
assert step == 1
assert "Trying to backward through the graph a second time" in message

# %%
# **Why.** Each node of the graph keeps the tensors its :term:`gradient`
# needs. :func:`torch.exp` keeps its result. By default, a backward pass
# frees these tensors once it has used them, to save memory. Step 1 needs
# the ``exp`` node that step 0 already went through. A state that a model
# carries from one batch to the next fails the same way.
#
# **Fix.** Build the graph inside the loop, so each backward pass has its
# own. Reset the gradients each step too, since they add up otherwise. If
# the earlier part should not be trained, detach it: ``features.detach()``,
# or ``state = state.detach()`` before each batch. ``retain_graph=True``
# keeps the saved tensors. It is for going through one graph twice on
# purpose, such as two losses from one forward pass. Here it would hide the
# error, and ``features`` would keep the values of the old ``w``.
#
# .. detail:: A reused part that saved nothing
#
#    A reused part that saved nothing, such as ``w + 1``, raises no error.
#    But its values were computed from the old ``w``. Once a step changes
#    ``w``, the gradient is the one at the old values, without a warning.
for _ in range(2):
    w.grad = None
    loss = (w.exp() * 3).sum()
    loss.backward()
print(w.grad)
torch.testing.assert_close(w.grad, 3 * w.detach().exp())

# %%
# .. check:: gradients add up; ``w + 1`` or a retained graph is stale; ``detach`` works
w.grad = None  # without the reset, gradients of fresh graphs add up
for _ in range(2):
    (w.exp() * 3).sum().backward()
torch.testing.assert_close(w.grad, 6 * w.detach().exp())
shifted, kept, grads = w + 1, w.exp(), []  # w + 1 saves nothing: no error
for _ in range(2):
    grads.append(torch.autograd.grad((shifted**2).sum(), w)[0])
    grads.append(torch.autograd.grad(kept.sum(), w, retain_graph=True)[0])
    with torch.no_grad():
        w -= 0.1 * grads[-2]  # a training step changes w
assert torch.equal(torch.stack(grads[:2]), torch.stack(grads[2:]))
assert not any([torch.equal(shifted, w + 1), torch.equal(kept, w.exp())])
kept.sum().backward(retain_graph=True)  # two losses from one forward pass
(kept * 2).sum().backward()
with torch.random.fork_rng(devices=[]):  # the cell's weights draw random numbers
    cell, hidden = torch.nn.RNNCell(2, 2), torch.zeros(1, 2)
v = torch.ones(2, requires_grad=True)  # trained; features.detach() is not
for _ in range(2):  # a hidden state detached before each batch works
    hidden = cell(torch.ones(1, 2), hidden.detach())
    (hidden.sum() + (features.detach() * v).sum()).backward()
torch.testing.assert_close(v.grad, 2 * features.detach())
try:  # a carried one reuses the last batch's graph
    cell(torch.ones(1, 2), hidden).sum().backward()
except RuntimeError as error:
    hidden_message = str(error)
else:
    raise AssertionError("carrying the hidden state did not raise")
assert "Trying to backward through the graph a second time" in hidden_message

# %%
# .. _error-backward-non-scalar:
#
# grad can be implicitly created only for scalar outputs
# ------------------------------------------------------
# :meth:`~torch.Tensor.backward` raises it when called with no argument on a
# tensor of several numbers. A typical case is one loss per sample, as
# ``reduction="none"`` gives.
#
# .. detail:: Empty and complex outputs
#
#    An empty tensor gets the same message. A complex output is refused in
#    other words, even with one element: ``only for real scalar outputs``.
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
# .. check:: three values or none get the message; a complex one gets other words
assert "grad can be implicitly created only for scalar outputs" in message
messages = []
for output in [w[:0] * 2, (w[:1] * 1j).sum()]:
    try:
        output.backward()
    except RuntimeError as error:
        messages.append(str(error))
    else:
        raise AssertionError("backward of an empty or complex output did not raise")
assert "grad can be implicitly created only for scalar outputs" in messages[0]
assert "only for real scalar outputs" in messages[1]
assert "grad can be implicitly created only for scalar outputs" not in messages[1]

# %%
# **Why.** Backward computes a :term:`vector-Jacobian product`, so it needs
# a vector. Autograd supplies one, a 1, only for a tensor of one number.
#
# **Fix.** Reduce the tensor to the one number you minimise, usually with
# :meth:`~torch.Tensor.mean`. You can also pass the vector yourself:
# ``backward(gradient=torch.ones_like(per_sample))`` gives the gradient of
# the :meth:`~torch.Tensor.sum`.
per_sample.mean().backward()
print(w.grad)
torch.testing.assert_close(w.grad, 2 * (w.detach() - 2.0) / 3)

# %%
# .. check:: a vector of ones as ``gradient=`` gives the gradient of the sum
w.grad = None
((w - 2.0) ** 2).backward(gradient=torch.ones_like(per_sample))
torch.testing.assert_close(w.grad, torch.autograd.grad(((w - 2.0) ** 2).sum(), w)[0])

# %%
# .. _error-no-grad-fn:
#
# element … of tensors does not require grad and does not have a grad_fn
# ----------------------------------------------------------------------
# :meth:`~torch.Tensor.backward` raises it, and so does
# :func:`torch.autograd.grad`, when the tensor it starts from does not
# require gradients. Such a tensor has no :attr:`~torch.Tensor.grad_fn`:
# autograd did not record how it was made. "element 0" is the first tensor
# it starts from, here the only one.
#
# .. detail:: Other wordings
#
#    A second tensor to start from is "element 1". An input of
#    :func:`torch.autograd.grad` that does not require gradients gets other
#    words: ``One of the differentiated Tensors does not require grad``.
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
assert "element 0 of tensors" in message
assert "does not require grad and does not have a grad_fn" in message
assert loss.grad_fn is None
assert not loss.requires_grad

# %%
# **Why.** Autograd records an operation only when one of its inputs
# requires gradients. Here none does: ``w`` was made without
# ``requires_grad=True``. Two other causes are common. The loss was computed
# under :class:`torch.no_grad`, say in code copied from an evaluation loop.
# Or every input of the loss went through :meth:`~torch.Tensor.detach`.
#
# **Fix.** Ask for gradients where you want them. A model's parameters
# already do. Here ``w.requires_grad_()`` turns them on for ``w``, in place.
# Compute the loss outside :class:`torch.no_grad`.
w.requires_grad_()
loss = (w**2).sum()
loss.backward()
print(w.grad)
torch.testing.assert_close(w.grad, 2 * w.detach())

# %%
# .. check:: no ``grad_fn`` under ``no_grad`` or after ``detach``; other wordings
with torch.no_grad():
    assert (w**2).sum().grad_fn is None
assert (w.detach() ** 2).sum().grad_fn is None
constant, other_messages = torch.ones(2), []
for call in [
    lambda: torch.autograd.grad(constant.sum(), w),
    lambda: torch.autograd.backward([(w * 2).sum(), constant.sum()]),
    lambda: torch.autograd.grad((w * constant).sum(), constant),
]:
    try:
        call()
    except RuntimeError as error:
        other_messages.append(str(error))
    else:
        raise AssertionError("a tensor without gradients did not raise")
assert "element 0 of tensors does not require grad" in other_messages[0]
assert "element 1 of tensors does not require grad" in other_messages[1]
assert "One of the differentiated Tensors does not require grad" in other_messages[2]

# %%
# .. _error-inplace-saved-tensor:
#
# one of the variables needed for gradient computation has been modified by an inplace operation
# ----------------------------------------------------------------------------------------------
# :meth:`~torch.Tensor.backward` and :func:`torch.autograd.grad` raise it
# when a tensor that the graph kept for them was then changed in place. Here
# the kept tensor is the output of :func:`torch.sigmoid`, shifted with ``+=``.
w = torch.tensor([0.0, 1.0], requires_grad=True)
probs = torch.sigmoid(w)
probs += 1
try:
    probs.sum().backward()
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("backward after probs += 1 did not raise")

# %%
# .. check:: ``probs += 1`` took ``probs`` from version 0 to 1; ``grad`` gets it too
assert (torch.sigmoid(w)._version, probs._version) == (0, 1)
try:
    torch.autograd.grad(probs.sum(), w)
except RuntimeError as error:
    grad_message = str(error)
else:
    raise AssertionError("autograd.grad after probs += 1 did not raise")
heading = "one of the variables needed for gradient computation has been modified by "
heading += "an inplace operation"
assert all(heading in text for text in (message, grad_message))

# %%
# **Why.** The gradient of the sigmoid, ``s * (1 - s)``, is computed from its
# output ``s``, which the graph keeps. Each :term:`in-place operation` on a
# kept tensor increases its :term:`version counter`. Backward checks that
# each kept tensor is still at the version it was kept at.
#
# .. detail:: Other causes
#
#    ``nn.ReLU(inplace=True)``, a ReLU that overwrites its input, causes it
#    too after the sigmoid. So does ``optimizer.step()`` between a forward
#    pass and its backward, when the graph kept a parameter. For a
#    :class:`~torch.nn.Linear` layer's weight, the message then names
#    ``AsStrided``, an operation you never wrote.
#
# **Fix.** Compute out of place, as in ``probs = probs + 1``: a new tensor,
# and the kept one stays as it was. To find the operation that kept the
# changed tensor, run both passes under :class:`torch.autograd.detect_anomaly`.
# The failing backward pass then also warns with that operation's traceback.
# Anomaly mode is slow: use it only to debug.
#
# .. detail:: The rest of the message
#
#    It gives the kept tensor's shape, a node and the two versions. A kept
#    output names the operation that made it: ``SigmoidBackward0`` in
#    PyTorch 2.4, ``Sigmoid`` in 2.13. A kept input names its current
#    ``grad_fn``, often the in-place operation itself. A leaf, or a tensor
#    that requires no gradient, names no node.
probs = torch.sigmoid(w)
shifted = probs + 1
shifted.sum().backward()

# %%
# .. check:: the message's parts, the fix, the nodes, the other causes, anomaly mode
assert "is at version 1; expected version 0 instead" in message
assert "output 0 of Sigmoid" in message
torch.testing.assert_close(w.grad, (probs * (1 - probs)).detach())
assert torch.__version__ < (2, 13) or "output 0 of Sigmoid," in message
assert torch.__version__ >= (2, 5) or "output 0 of SigmoidBackward0," in message
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.autograd.detect_anomaly():
        v, leaf = (torch.tensor([0.0, 1.0], requires_grad=True) for _ in range(2))
        doubled, constant, kept = v * 2, torch.ones(2), torch.sigmoid(v)
        broken = [(doubled * doubled).sum(), (v * constant).sum(), (leaf * leaf).sum()]
        broken.append(kept.sum())
        doubled.relu_()
        constant += 1
        with torch.no_grad():
            leaf += 1
        torch.nn.ReLU(inplace=True)(kept)
        for make_optimizer in (torch.optim.SGD, torch.optim.Adam):
            with torch.random.fork_rng(devices=[]):  # the layers draw random weights
                layer = torch.nn.Linear(2, 1)
                broken.append(layer(torch.nn.Linear(2, 2)(torch.ones(3, 2))).sum())
            for parameter in layer.parameters():
                parameter.grad = torch.ones_like(parameter)
            make_optimizer(layer.parameters(), lr=0.1).step()
        node_messages = []
        for output in broken:
            try:
                output.backward()
            except RuntimeError as error:
                node_messages.append(str(error))
            else:
                raise AssertionError("backward after an in-place change did not raise")
assert all(heading in node_message for node_message in node_messages)
assert doubled.grad_fn.name() == "ReluBackward0"
assert "output 0 of Relu" in node_messages[0]
assert all("which is output" not in text for text in node_messages[1:3])
assert all("output 0 of AsStrided" in text for text in node_messages[4:])
assert any("Traceback of forward call" in str(entry.message) for entry in caught)

# %%
# .. _error-inplace-leaf:
#
# a leaf Variable that requires grad is being used in an in-place operation
# -------------------------------------------------------------------------
# An in-place change to a :term:`leaf` that requires gradients raises it
# while autograd records. The usual case is a hand-written update step.
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
assert "a leaf Variable that requires grad" in message
assert "is being used in an in-place operation" in message

# %%
# **Why.** A leaf is where gradients end up, in its :attr:`~torch.Tensor.grad`.
# Recording an in-place change would put an operation before the leaf in the
# graph. It would then no longer be a leaf, so autograd refuses.
#
# **Fix.** Update parameters with autograd off, inside
# :class:`torch.no_grad`. The tensor changes in place and stays a leaf that
# requires gradients. The optimisers of :mod:`torch.optim` do the same in
# their ``step()``.
#
# .. detail:: Indexes, slices and ``differentiable=True``
#
#    Assigning through an integer index or a slice, such as ``w[0] = 0``,
#    raises it worded ``a view of a leaf Variable that requires grad``. An
#    optimiser built with ``differentiable=True`` keeps autograd on in its
#    ``step()``, which then raises this error for a leaf.
with torch.no_grad():
    w -= 0.1 * w.grad
print(w)

# %%
# .. check:: ``w`` stays a leaf needing grad, also after ``step()``; other wordings
torch.testing.assert_close(w.detach(), torch.tensor([0.8, -0.8]))
assert (w.is_leaf, w.requires_grad) == (True, True)
torch.optim.SGD([w], lr=0.1).step()
assert w.is_leaf
sgd = torch.optim.SGD([w], lr=0.1, differentiable=True)
leaf_messages, setitem = [], w.__setitem__
for call in [lambda: setitem(0, 0.0), lambda: setitem(slice(0, 1), 0.0), sgd.step]:
    try:
        call()
    except RuntimeError as error:
        leaf_messages.append(str(error))
    else:
        raise AssertionError("an in-place change of a leaf did not raise")
assert all("a view of a leaf Variable" in text for text in leaf_messages[:2])
assert "a leaf Variable that requires grad" in leaf_messages[2]
