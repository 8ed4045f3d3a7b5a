"""
Custom autograd functions
=========================

After this page you can give autograd the derivative of an operation
yourself, with a subclass of :class:`torch.autograd.Function`. You can test
that derivative with :func:`torch.autograd.gradcheck`, and say why the test
wants float64. This in-depth page goes further than the automatic
differentiation page. A first reading can skip it.

**Before this page:**
:ref:`sphx_glr_auto_examples_gradients_plot_01_automatic_differentiation.py`.
"""

# %%
# Every page starts by saying what computed it: here, the CPU. Python's
# ``warnings`` module silences a warning further down.
import warnings

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F

from tutorial_utils.environment import environment_summary

print(environment_summary(torch.device("cpu")))

# %%
# A Function: ``forward`` and ``backward``
# ----------------------------------------
# Autograd differentiates what you build from PyTorch's differentiable
# operations. Sometimes you want to give a derivative yourself: for a step
# computed outside PyTorch, say, or for a cheaper formula. A subclass of
# :class:`torch.autograd.Function` does that. It defines two static methods,
# which take no ``self``:
#
# 1. ``forward(ctx, x)`` computes the output. ``ctx`` is an object that
#    carries things from this call's ``forward`` to its ``backward``.
#    ``ctx.save_for_backward(x)`` saves ``x`` for the backward pass.
# 2. ``backward(ctx, grad_output)`` returns the gradient with respect to
#    the input. ``ctx.saved_tensors`` gives back the saved tensors, as a
#    tuple.
#
# ``grad_output`` is what the backward pass hands to this Function. It is
# the gradient of the final result, such as a loss ``L``, with respect to
# this Function's output. In the automatic differentiation page's notation,
# it is ``∂L/∂out``. ``backward`` turns it into ``∂L/∂x``, the gradient with
# respect to the input ``x``.
#
# The example is softplus, ``log(1 + exp(x))``. :func:`torch.exp` computes
# ``exp(x)``, e to the power ``x``. :func:`torch.log1p` computes
# ``log(1 + u)``. It stays accurate for tiny ``u``, where ``1 + u`` rounds
# to 1. The derivative of softplus is ``sigmoid(x)``. Softplus is
# :term:`element-wise`, so the chain rule multiplies ``grad_output`` by that
# derivative, element by element.
#
# .. detail:: Another style: ``setup_context``
#
#    ``forward`` may take the inputs alone, without ``ctx``. A third static
#    method, ``setup_context(ctx, inputs, output)``, then saves what
#    ``backward`` needs. ``backward`` stays the same.


class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.log1p(torch.exp(x))

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * torch.sigmoid(x)


# %%
# .. check:: ``exp`` and ``log1p`` as said; ``grad_output`` is ``∂L/∂out``
torch.testing.assert_close(torch.exp(torch.tensor(1.0)), torch.tensor(2.7182818))
_u = torch.linspace(0.0, 5.0, 11, dtype=torch.float64)
torch.testing.assert_close(torch.log1p(_u), torch.log(1 + _u))
_tiny = torch.tensor(1e-10)  # float32: 1 + u rounds to 1, log1p stays right
assert torch.log(1 + _tiny).item() == 0.0
torch.testing.assert_close(torch.log1p(_tiny), _tiny)
_x = torch.linspace(-4.0, 4.0, 9, dtype=torch.float64, requires_grad=True)
_slope = torch.autograd.grad(torch.log(1 + torch.exp(_x)).sum(), _x)[0]
torch.testing.assert_close(_slope, torch.sigmoid(_x))
_received = []


class _Spy(Softplus):
    @staticmethod
    def backward(ctx, grad_output):
        _received.append(grad_output.clone())
        return Softplus.backward(ctx, grad_output)


class _Setup(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return torch.log1p(torch.exp(x))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    backward = Softplus.backward


_out = _Spy.apply(_x)
_loss = (3 * _out).sum()
(_dl_dout,) = torch.autograd.grad(_loss, _out, retain_graph=True)
_loss.backward()
torch.testing.assert_close(_received[0], _dl_dout)
torch.testing.assert_close(_x.grad, 3 * torch.sigmoid(_x))
assert torch.autograd.gradcheck(_Setup.apply, (_x,))

# %%
# You call a Function through its class's ``apply``. Calling an instance,
# ``Softplus()(x)``, raises an error. Below, ``grid`` holds 81 points from
# -4 to 4. It is float64, the dtype that the test further down wants. The
# figure draws softplus and the derivative that its ``backward`` gives.
# :func:`~torch.nn.functional.softplus` is PyTorch's own softplus. On this
# grid, it gives the same values, and autograd's derivative of it agrees.
#
# .. detail:: Large inputs
#
#    For large ``x``, ``exp(x)`` overflows to ``inf``. In float32,
#    ``Softplus.apply`` gives ``inf`` at ``x = 100``. ``F.softplus`` returns
#    ``x`` itself past ``x = 20``. There ``log(1 + exp(x))`` and ``x`` agree
#    to float32 precision.
grid = torch.linspace(-4.0, 4.0, 81, dtype=torch.float64, requires_grad=True)
out = Softplus.apply(grid)
(derivative,) = torch.autograd.grad(out.sum(), grid)
(builtin,) = torch.autograd.grad(F.softplus(grid).sum(), grid)
torch.testing.assert_close(derivative, builtin)

fig, ax = plt.subplots(figsize=(6.5, 3.2), layout="constrained")
ax.plot(grid.detach(), out.detach(), label="Softplus.apply(x)")
ax.plot(grid.detach(), derivative, label="its backward: sigmoid(x)")
ax.set(xlabel="x")
ax.legend()
plt.show()

# %%
# .. check:: on this grid, ``Softplus.apply`` computes what ``F.softplus`` does
torch.testing.assert_close(out, F.softplus(grid))
try:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # torch 2.4 warns
        Softplus()(grid)
except RuntimeError:
    pass
else:
    raise AssertionError("calling an instance should raise")
_big = torch.tensor([25.0, 100.0])
assert torch.isinf(Softplus.apply(_big)[1])
assert torch.equal(F.softplus(_big), _big)
_gap = torch.log1p(torch.exp(torch.tensor(-20.0, dtype=torch.float64)))
assert _gap / 20 < torch.finfo(torch.float32).eps  # log(1 + exp(20)) - 20

# %%
# Check a derivative: ``torch.autograd.gradcheck``
# ------------------------------------------------
# :func:`torch.autograd.gradcheck` tests a ``backward``. It compares two
# :term:`Jacobians <Jacobian>`. A Jacobian is the table of the derivatives of
# each output element with respect to each input element.
#
# - ``gradcheck`` gets the first from ``backward``. It calls ``backward``
#   with a ``grad_output`` that is 1 at one output element and 0 elsewhere.
#   That call returns one row of the Jacobian.
# - It gets the second from finite differences. For each input element it
#   computes ``(f(x + ε) - f(x - ε)) / 2ε``, with a small step ``ε``.
#
# It raises an error if the two differ by more than its tolerances. It
# takes the inputs as a tuple, here ``(x,)``. Here the two agree, and it
# returns ``True``.
torch.manual_seed(0)
x = torch.randn(4, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(Softplus.apply, (x,)))

# %%
# .. check:: ``gradcheck`` passes one-hot ``grad_output`` values; each gives a row
_received.clear()
assert torch.autograd.gradcheck(_Spy.apply, (x,))
_jacobian = torch.autograd.functional.jacobian(F.softplus, x.detach())
for _row, _one_hot in enumerate(torch.eye(4, dtype=torch.float64)):
    assert any(torch.equal(_g, _one_hot) for _g in _received)
    _given = torch.autograd.grad(Softplus.apply(x), x, grad_outputs=_one_hot)[0]
    torch.testing.assert_close(_given, _jacobian[_row])

# %%
# Its defaults suit float64. The argument ``eps`` is the step ``ε``, by
# default ``1e-6``. This ``eps`` is a step size, not the ``eps`` of
# :class:`torch.finfo`.
#
# Two tolerances set the allowed gap. Let ``n`` be one element of the
# finite-difference Jacobian. The gap allowed there is ``atol + rtol·|n|``.
# By default ``atol=1e-5`` and ``rtol=1e-3``.
#
# float32 keeps 24 binary digits, about seven decimal ones. Here
# ``f(x + ε)`` and ``f(x - ε)`` differ by about a millionth of their size.
# So they share about six of those seven digits, and subtracting cancels
# them. Divided by ``2ε``, what remains has one or two correct digits.
# For inputs like these, that error is larger than the allowed gap. So even
# the correct ``backward`` fails in float32. A larger ``eps`` and ``atol`` let it pass.
# They would also let through a mistake that float64's defaults catch.
#
# Below, ``x.detach().float()`` is a float32 copy of ``x`` that records
# nothing. ``requires_grad_()`` makes it require gradients, in place.
# ``raise_exception=False`` makes ``gradcheck`` return ``False`` instead of
# raising. ``gradcheck`` warns about float32 first, and
# ``warnings.catch_warnings`` with ``warnings.simplefilter`` hides that.
x32 = x.detach().float().requires_grad_()
with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    passed = torch.autograd.gradcheck(Softplus.apply, (x32,), raise_exception=False)
    loose = torch.autograd.gradcheck(Softplus.apply, (x32,), eps=1e-2, atol=1e-3)
print("float32, defaults:", passed, "  eps=1e-2, atol=1e-3:", loose)

# %%
# .. check:: float32: defaults fail a right ``backward``; loose ones pass a wrong one
_defaults = torch.autograd.gradcheck.__kwdefaults__
assert [_defaults[k] for k in ("eps", "atol", "rtol")] == [1e-6, 1e-5, 1e-3]
assert torch.finfo(torch.float32).eps == 2.0**-23  # 24 binary digits
assert round(24 * torch.log10(torch.tensor(2.0)).item()) == 7
_x32 = x32.detach()
_f64 = F.softplus(_x32.double() + 1e-6), F.softplus(_x32.double() - 1e-6)
_apart = ((_f64[0] - _f64[1]) / _f64[1]).abs()
assert ((_apart > 1e-7) & (_apart < 1e-5)).all()  # about a millionth: six digits shared
_fd = (Softplus.apply(_x32 + 1e-6) - Softplus.apply(_x32 - 1e-6)) / 2e-6
_relative = ((_fd - torch.sigmoid(_x32)) / torch.sigmoid(_x32)).abs()
assert ((_relative > 1e-3) & (_relative < 1e-1)).all()  # one or two digits
_h, _x0 = 1e-6, x32.detach()[:1]
_difference = (Softplus.apply(_x0 + _h) - Softplus.apply(_x0 - _h)) / (2 * _h)
_off_by = (_difference - torch.sigmoid(_x0)).abs().item()
assert _off_by > 1e-5 + 1e-3 * torch.sigmoid(_x0).item()  # rounding beats the tolerance
assert not passed
assert loose
assert x32.is_leaf
assert x32.dtype == torch.float32
with warnings.catch_warnings(record=True) as _caught:
    warnings.simplefilter("always")
    torch.autograd.gradcheck(Softplus.apply, (x32,), raise_exception=False)
assert any(issubclass(w.category, UserWarning) for w in _caught)


class _Offset(Softplus):  # off by 5e-4: caught where the allowed gap is smaller
    @staticmethod
    def backward(ctx, grad_output):
        (saved,) = ctx.saved_tensors
        return grad_output * (torch.sigmoid(saved) + 5e-4)


assert not torch.autograd.gradcheck(_Offset.apply, (x,), raise_exception=False)
for _xi in x.detach():
    _one = _xi.reshape(1).requires_grad_()
    _caught_here = not torch.autograd.gradcheck(
        _Offset.apply, (_one,), raise_exception=False
    )
    assert _caught_here == (1e-5 + 1e-3 * torch.sigmoid(_xi).item() < 5e-4)
with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    assert torch.autograd.gradcheck(_Offset.apply, (x32,), eps=1e-2, atol=1e-3)
    try:
        torch.autograd.gradcheck(Softplus.apply, (x32,))
    except RuntimeError:
        pass
    else:
        raise AssertionError("gradcheck should raise by default")

# %%
# In float64, a large mistake fails. Below, ``WrongSoftplus`` subclasses
# ``Softplus``: it keeps ``forward`` and replaces ``backward``. The new one
# returns the derivative of ``exp(x)`` instead of ``log(1 + exp(x))``.
# ``gradcheck`` raises a ``GradcheckError``, a kind of
# :class:`RuntimeError`. Its message shows both Jacobians. "numerical" is
# the one from finite differences, and "analytical" the one from
# ``backward``.
#
# .. detail:: A mistake within the tolerances
#
#    ``gradcheck`` misses a mistake smaller than its allowed gap, even in
#    float64. A ``backward`` that returns 1.0009 times the right derivative
#    passes on this page's ``x``.


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
# .. check:: ``gradcheck`` raises a ``GradcheckError`` that shows both Jacobians
try:
    torch.autograd.gradcheck(WrongSoftplus.apply, (x,))
except RuntimeError as _error:
    _raised, _message = type(_error).__name__, str(_error)
else:
    raise AssertionError("gradcheck should catch the wrong backward")
assert _raised == "GradcheckError"
assert "numerical" in _message
assert "analytical" in _message
_numerical, _analytical = _message.split("analytical")
assert f"{torch.sigmoid(x[0]).item():.4f}" in _numerical
assert f"{torch.exp(x[0]).item():.4f}" in _analytical


class _Scaled(Softplus):
    @staticmethod
    def backward(ctx, grad_output):
        return 1.0009 * Softplus.backward(ctx, grad_output)


assert torch.autograd.gradcheck(_Scaled.apply, (x,))

# %%
# Summary
# -------
# - A :class:`torch.autograd.Function` pairs a ``forward`` with your own
#   ``backward``. Call it through ``apply``.
# - Test the ``backward`` with :func:`torch.autograd.gradcheck`, in float64.
#   It catches a large mistake, not one within its tolerances.
#
# Next: :ref:`sphx_glr_auto_examples_gradients_plot_02_linear_algebra.py`,
# if you have not read it. Exercises: :ref:`exercises-gradients-01`.
