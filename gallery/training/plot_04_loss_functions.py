"""
Loss functions
==============

Choose a loss for numbers to predict, for classes, or for yes-or-no answers.
After this page you can give each loss targets of the dtype and shape it
expects, and spot the targets that give a wrong loss without an error.

**Before this page:**
:ref:`sphx_glr_auto_examples_gradients_plot_01_automatic_differentiation.py`
and :ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`.
"""

# %%
# This page computes on the CPU. Its error messages are those of the PyTorch named
# below. The site's helper ``environment_summary`` describes the machine, and
# ``PALETTE`` holds the site's figure colours.
import warnings

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F

from tutorial_utils.colours import PALETTE
from tutorial_utils.environment import environment_summary

device = torch.device("cpu")
print(environment_summary(device))

# %%
# Regression: MSE, L1 and Huber
# -----------------------------
# A :term:`loss` scores a model's predictions against the targets. By default it returns
# one number. Predicting numbers is called regression. Three common losses each look at
# every error ``e = prediction - target``:
#
# 1. :func:`~torch.nn.functional.mse_loss`, the mean squared error, takes ``e²``.
# 2. :func:`~torch.nn.functional.l1_loss`, the mean absolute error, takes ``|e|``.
# 3. :func:`~torch.nn.functional.huber_loss`, with its default ``delta`` of 1, takes
#    ``e² / 2`` for errors up to 1 and ``|e| - 1/2`` beyond.
#
# Each then averages over the ``n`` elements, so each element's gradient holds a factor
# ``1 / n``. Below, four predictions, one an outlier 4 away from its target.
# :func:`torch.autograd.grad` returns each loss's :term:`gradient` with respect to the
# predictions, in a tuple. ``.detach()`` gives the errors untracked by autograd.
#
# .. detail:: Other values of ``delta``
#
#    Beyond ``delta``, Huber takes ``delta (|e| - delta / 2)``.
target = torch.tensor([1.0, 2.0, 3.0, 4.0])
prediction = torch.tensor([1.2, 1.6, 3.6, 8.0], requires_grad=True)
e = (prediction - target).detach()
n = len(e)
losses = {"MSE": F.mse_loss, "L1": F.l1_loss, "Huber": F.huber_loss}
print("errors:", [round(x, 2) for x in e.tolist()])
for name, loss_fn in losses.items():
    loss = loss_fn(prediction, target)
    (grad,) = torch.autograd.grad(loss, prediction)
    rounded = [round(g, 3) for g in grad.tolist()]
    print(f"{name:>5}: loss {loss:.3f}, gradient {rounded}")

# %%
# .. check:: each loss is the mean of its formula, and its gradient the derivative over ``n``
_huber = torch.where(e.abs() <= 1, e**2 / 2, e.abs() - 0.5)
_formulas = {
    F.mse_loss: (e**2, 2 * e),
    F.l1_loss: (e.abs(), e.sign()),
    F.huber_loss: (_huber, e.clamp(-1, 1)),
}
for _loss_fn, (_per_element, _derivative) in _formulas.items():
    _loss = _loss_fn(prediction, target)
    (_grad,) = torch.autograd.grad(_loss, prediction)
    torch.testing.assert_close(_loss, _per_element.mean())
    torch.testing.assert_close(_grad, _derivative / n)

# %%
# .. check:: beyond ``delta``, Huber is ``delta (|e| - delta / 2)``, slope ``delta``
_e = torch.tensor([3.0, -0.5], requires_grad=True)
_huber2 = F.huber_loss(_e, torch.zeros(2), delta=2.0, reduction="none")
assert _huber2.tolist() == [2.0 * (3.0 - 1.0), 0.5**2 / 2]  # 4, not 3 - 1/2
assert torch.autograd.grad(_huber2.sum(), _e)[0].tolist() == [2.0, -0.5]

# %%
# Compare the sizes of the gradients, whatever their signs:
#
# - Under MSE, the outlier's gradient is ``2 · 4 / n``, ten times the size of
#   the error -0.4's.
# - Under L1, every error here has a gradient of size ``1 / n``.
# - Under Huber, every error of 1 or more has a gradient of size ``1 / n``.
#
# So under L1 and Huber, the outlier's gradient is no larger than the gradient
# of an error of 1.
#
# The figure draws each loss and its derivative against the error. L1's derivative
# jumps at 0, from -1 to 1; Huber's has no jump. To draw the derivatives, the code:
#
# 1. passes ``reduction="none"``, so a loss returns one value per element;
# 2. sums them: called as here, :func:`~torch.autograd.grad` needs an output of
#    one element;
# 3. takes the sum's gradient. Each value depends on its own error alone, so
#    the gradient at each error is that value's derivative.
#
# .. detail:: How the figure is computed
#
#    The figure's targets are 0. PyTorch will not hand Matplotlib a tensor that
#    requires gradients, hence ``.detach()``.
errors = torch.linspace(-3, 3, 601, requires_grad=True)
fig, (ax_loss, ax_grad) = plt.subplots(1, 2, figsize=(9, 3.4), layout="constrained")
for colour, (name, loss_fn) in zip(PALETTE[5:], losses.items(), strict=True):
    curve = loss_fn(errors, torch.zeros_like(errors), reduction="none")
    (slope,) = torch.autograd.grad(curve.sum(), errors)
    ax_loss.plot(errors.detach(), curve.detach(), color=colour, label=name)
    ax_grad.plot(errors.detach(), slope, color=colour)
ax_loss.set(xlabel="error (prediction - target)", ylabel="loss", ylim=(0, 4.5))
ax_grad.set(xlabel="error (prediction - target)", ylabel="derivative of the loss")
ax_loss.legend(fontsize=8)
plt.show()

# %%
# .. check:: the outlier dominates MSE; L1 and Huber give it an error of 1's gradient
mse_grad, l1_grad, huber_grad = 2 * e / n, e.sign() / n, e.clamp(-1, 1) / n
torch.testing.assert_close(mse_grad[3] / mse_grad[1].abs(), torch.tensor(10.0))
assert mse_grad[3] > mse_grad[:3].abs().sum()
assert max(l1_grad.abs().max(), huber_grad.abs().max()) <= 1 / n  # an error of 1's pull
assert (l1_grad.abs() == 1 / n).all()  # every error here; Huber only beyond 1:
assert torch.equal(huber_grad.abs() == 1 / n, e.abs() >= 1)
assert (huber_grad[3] > huber_grad[:3].abs()).all()  # so more than each modest error
_z = torch.zeros(2, requires_grad=True)  # an error of 0 gets 0 under L1
(_l1_grad,) = torch.autograd.grad(F.l1_loss(_z, torch.tensor([0, -1.0])), _z)
assert _l1_grad.tolist() == [0, 0.5]
assert slope.diff().abs().max() < 0.02  # Huber's derivative, the last: steps of 0.01
_l1_curve = F.l1_loss(errors, torch.zeros_like(errors), reduction="none")
(_l1_slope,) = torch.autograd.grad(_l1_curve.sum(), errors)
assert (_l1_slope[errors < 0] == -1).all()
assert (_l1_slope[errors > 0] == 1).all()
try:  # without the sum: more than one element
    torch.autograd.grad(_l1_curve, errors)
except RuntimeError:
    pass
else:
    raise AssertionError("autograd.grad of many elements did not raise")

# %%
# Predictions and targets should have the same :term:`shape`. A model with one output
# returns a column of shape ``(N, 1)`` for ``N`` examples. Against targets of shape
# ``(N,)``, :term:`broadcasting` makes an N-by-N table of every prediction against
# every target. All three warn, and return the mean over that table.
# Below, ``unsqueeze(1)`` turns the predictions into such a column. The code records
# the warnings and prints the first. The fix is ``squeeze(1)``, which removes
# dimension 1 again.
#
# .. detail:: Recording the warnings
#
#    ``warnings.catch_warnings(record=True)`` collects warnings in the list ``caught``.
#    ``simplefilter("always")`` keeps every one. ``.message`` holds a warning's text.
#
# .. detail:: Not a bare ``squeeze()``
#
#    ``squeeze()`` removes every dimension of size 1. A batch of one goes from
#    ``(1, 1)`` to ``()``: the shapes differ again.
column = prediction.unsqueeze(1)  # shape (4, 1)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    wrong = {loss_fn: loss_fn(column, target) for loss_fn in losses.values()}
print(f"UserWarning: {caught[0].message}")
right = F.mse_loss(column.squeeze(1), target)
print(f"MSE of (4, 1) against (4,): {wrong[F.mse_loss]:.3f}, not {right:.3f}")

# %%
# .. check:: all three warn and return the mean over the 4-by-4 table, not the right loss
assert [w.category for w in caught] == [UserWarning] * 3
for loss_fn, value in wrong.items():  # the mean over the 4-by-4 table
    torch.testing.assert_close(value, loss_fn(column.expand(4, 4), target.expand(4, 4)))
assert not torch.isclose(wrong[F.mse_loss], right)

# %%
# .. check:: a batch of one: ``squeeze()`` gives shape ``()``; the column warns but is right
assert column[:1].squeeze().shape == ()
assert column[:1].squeeze(1).shape == (1,)
with warnings.catch_warnings(record=True) as _one:
    warnings.simplefilter("always")
    assert F.mse_loss(column[:1], target[:1]) == F.mse_loss(prediction[:1], target[:1])
assert len(_one) == 1

# %%
# Classification: class indices
# -----------------------------
# A classifier picks one of ``C`` classes. For each example it outputs :term:`logits`,
# one raw score per class. For ``N`` examples they form a tensor of shape ``(N, C)``
# with a floating-point :term:`dtype`. :func:`~torch.nn.functional.cross_entropy` takes
# these logits and, as targets, one class index per example. The indices have shape
# ``(N,)``, dtype int64 and values from 0 to ``C - 1``. :func:`torch.tensor` and a
# :class:`~torch.utils.data.DataLoader` make int64 from Python integers.
#
# The targets may instead be class probabilities: floats of the logits' shape.
# Each row holds one probability per class, adding to 1. Take each class's target
# probability times the log of the model's :term:`softmax` probability. An
# example's loss is minus the sum of these. A row with 1 at one class and 0
# elsewhere gives the same loss as that class's index.
#
# .. detail:: What cross-entropy computes
#
#    Each example's loss is ``-log`` of the :term:`softmax` probability of its own
#    class, averaged over the :term:`batch`. It is
#    :func:`~torch.nn.functional.log_softmax`, then
#    :func:`~torch.nn.functional.nll_loss`, the "negative log-likelihood" loss.
#    ``nll_loss`` takes each example's value at its class, negates it, and averages.
#
# .. detail:: Logits with more dimensions
#
#    Per-pixel or per-word logits have shape ``(N, C, d1, ...)``. Their targets hold
#    one class index each: ``(N, d1, ...)``.
#
# .. detail:: Skipped labels, uint8 and class weights
#
#    - A label of -100 skips its example; skipping all gives a NaN mean.
#    - uint8 indices work too, except with ``(N, C, d1, ...)`` logits.
#    - ``weight=`` multiplies each example's loss by its class's weight.
#    - With class indices, the mean divides by the sum of the examples' weights;
#      with class probabilities, by ``N``. So one-hot rows match indices per
#      example, not in the mean.
torch.manual_seed(0)
logits = torch.randn(5, 3)  # 5 examples, 3 classes
labels = torch.tensor([0, 2, 1, 2, 0])
loss = F.cross_entropy(logits, labels)
print(f"logits {logits.dtype} {tuple(logits.shape)}")
print(f"labels {labels.dtype} {tuple(labels.shape)}, cross-entropy {loss:.4f}")

# %%
# .. check:: cross-entropy is ``log_softmax`` then ``nll_loss``; the labels are int64 as loaded
_log_p = F.log_softmax(logits, dim=1)
torch.testing.assert_close(loss, F.nll_loss(_log_p, labels))
torch.testing.assert_close(loss, -_log_p[torch.arange(5), labels].mean())
assert torch.equal(torch.nn.CrossEntropyLoss()(logits, labels), loss)
with torch.random.fork_rng(devices=[]):  # iterating a DataLoader draws a seed
    _loaded = next(iter(torch.utils.data.DataLoader([0, 2, 1], batch_size=3)))
assert labels.dtype == _loaded.dtype == torch.int64

# %%
# .. check:: probability rows: minus the sum of probability times log-softmax
_q = F.softmax(logits.flip(0), dim=1)  # rows of probabilities, adding to 1
torch.testing.assert_close(_q.sum(1), torch.ones(5))
_by_formula = -(_q * F.log_softmax(logits, dim=1)).sum(1)
_by_loss = F.cross_entropy(logits, _q, reduction="none")
torch.testing.assert_close(_by_loss, _by_formula)
_onehot = F.one_hot(labels, 3).float()  # 1 at the class, 0 elsewhere
_per_index = F.cross_entropy(logits, labels, reduction="none")
_per_row = F.cross_entropy(logits, _onehot, reduction="none")
torch.testing.assert_close(_per_row, _per_index)

# %%
# .. check:: logits ``(N, C, T)`` take targets ``(N, T)``, one index per element
_seq = torch.stack([logits, logits.flip(0)], dim=2)  # (5, 3, 2): N, C, T
_both = F.cross_entropy(_seq, torch.stack([labels, labels.flip(0)], dim=1))
_flipped = F.cross_entropy(logits.flip(0), labels.flip(0))
torch.testing.assert_close(_both, (loss + _flipped) / 2)

# %%
# .. check:: a label of -100 is skipped: the mean is over the other examples
_skip, _kept = torch.tensor([0, -100, 1, 2, 0]), [0, 2, 3, 4]
_rest = F.cross_entropy(logits[_kept], _skip[_kept])
torch.testing.assert_close(F.cross_entropy(logits, _skip), _rest)
_none = torch.full((5,), -100)  # all skipped: a NaN mean, a sum of 0
assert F.cross_entropy(logits, _none).isnan()
assert F.cross_entropy(logits, _none, reduction="sum") == 0

# %%
# .. check:: uint8 indices work, except with ``(N, C, d1, ...)`` logits
torch.testing.assert_close(F.cross_entropy(logits, labels.to(torch.uint8)), loss)
_one = F.cross_entropy(logits[0], labels[0])  # one example: logits (C,), index ()
torch.testing.assert_close(F.cross_entropy(logits[0], labels[0].to(torch.uint8)), _one)
try:  # logits (N, C, 1): int64 only
    F.cross_entropy(logits.unsqueeze(2), labels.unsqueeze(1).to(torch.uint8))
except RuntimeError:
    pass
else:
    raise AssertionError("uint8 targets with (N, C, 1) logits did not raise")

# %%
# .. check:: with class weights, one-hot rows agree per example, not in the mean
_w, _rows = torch.tensor([1.0, 2.0, 4.0]), F.one_hot(labels, 3).float()
_each = F.cross_entropy(logits, labels, weight=_w, reduction="none")
_plain = F.cross_entropy(logits, labels, reduction="none")
torch.testing.assert_close(_each, _w[labels] * _plain)  # the weight multiplies
torch.testing.assert_close(
    F.cross_entropy(logits, _rows, weight=_w, reduction="none"), _each
)
_by_index = F.cross_entropy(logits, labels, weight=_w)
_by_row = F.cross_entropy(logits, _rows, weight=_w)
torch.testing.assert_close(_by_index, _each.sum() / _w[labels].sum())
torch.testing.assert_close(_by_row, _each.mean())
assert not torch.isclose(_by_index, _by_row)

# %%
# Targets that go wrong
# ---------------------
# Each target below is a common mistake:
#
# 1. labels stored as floats, read from a CSV file, say;
# 2. a column of int64 labels, shape ``(N, 1)`` (:ref:`atlas <error-multi-target>`);
# 3. labels of the 32-bit integer dtype, int32;
# 4. :term:`one-hot` rows left as integers, as
#    :func:`~torch.nn.functional.one_hot` returns them;
# 5. classes numbered from 1 to ``C`` instead of from 0.
#
# Each raises an error, the last only in a batch that holds class ``C``. Label ``C``
# is past the last index, ``C - 1``. Any other batch gets a wrong
# loss, silently. The last raises an ``IndexError``, the others a
# ``RuntimeError``. The column's message is about its shape, not its dtype. The
# methods ``.float()``, ``.int()`` and ``.long()`` convert a tensor to float32,
# int32 and int64.
wrong_targets = {
    "float labels (N,)": labels.float(),
    "column (N, 1)": labels.unsqueeze(1),
    "int32 labels": labels.int(),
    "one-hot, int64 (N, C)": F.one_hot(labels, num_classes=3),
    "labels 1 to C": labels + 1,
}
for name, bad in wrong_targets.items():
    try:
        F.cross_entropy(logits, bad)
    except (RuntimeError, IndexError) as error:
        print(f"{name}: {type(error).__name__}: {error}")
    else:
        raise AssertionError(f"{name} did not raise")
no_c = torch.tensor([0, 2, 4])  # examples whose classes are 0 and 1, not 2
silent = F.cross_entropy(logits[no_c], labels[no_c] + 1)
meant = F.cross_entropy(logits[no_c], labels[no_c])
print(f"labels 1 to C, no class C in the batch: {silent:.4f}, not {meant:.4f}")

# %%
# .. check:: without class C in the batch, labels from 1 give a wrong loss; theirs is an IndexError
assert not torch.isclose(silent, meant)
assert wrong_targets["column (N, 1)"].dtype == torch.int64
try:  # the column fails on its shape
    F.cross_entropy(logits, wrong_targets["column (N, 1)"])
except RuntimeError as _error:
    _message = str(_error)
else:
    raise AssertionError("the int64 column did not raise")
assert "1D target" in _message
for _name, _bad in wrong_targets.items():
    _kind = IndexError if _name == "labels 1 to C" else RuntimeError
    try:
        F.cross_entropy(logits, _bad)
    except _kind:  # another kind of error fails the page
        pass
    else:
        raise AssertionError(f"{_name} did not raise")

# %%
# Below, one fix per mistake, in order. Each gives the int64 labels' loss. Fix 4's
# float one-hot rows are class probabilities.
#
# .. detail:: ``.long()`` and fractions
#
#    ``.long()`` drops a fraction silently: 1.9 becomes 1. For finite labels,
#    ``(t == t.round()).all()`` tells whether all are whole numbers.
#
# .. detail:: Why the messages differ
#
#    Only a target of the logits' shape is read as class probabilities
#    (:ref:`atlas <error-class-probabilities-dtype>`). Any other is read as class
#    indices, which must be int64 or uint8 (:ref:`atlas <error-target-dtype>`).
#    So float labels of shape ``(N,)`` fail on their dtype, not their shape.
fixes = [
    wrong_targets["float labels (N,)"].long(),
    wrong_targets["column (N, 1)"].squeeze(1),
    wrong_targets["int32 labels"].long(),
    wrong_targets["one-hot, int64 (N, C)"].float(),
    wrong_targets["labels 1 to C"] - 1,
]
print("after each fix:", ", ".join(f"{F.cross_entropy(logits, t):.4f}" for t in fixes))

# %%
# .. check:: each fix gives the int64 labels' loss; fix 4 is class probabilities
for repaired in fixes:
    torch.testing.assert_close(F.cross_entropy(logits, repaired), loss)
assert fixes[3].shape == logits.shape
assert fixes[3].dtype == torch.float32

# %%
# .. check:: class indices must be int64 or uint8: int8, int16, bool also raise
for _dtype in (torch.int8, torch.int16, torch.int32, torch.bool, torch.float64):
    try:
        F.cross_entropy(logits, labels.to(_dtype))
    except RuntimeError:
        pass
    else:
        raise AssertionError(f"{_dtype} class indices did not raise")

# %%
# .. check:: ``.long()`` drops fractions; the round test tells whole numbers apart
_t = torch.tensor([0.7, 1.9, 2.0])
assert _t.long().tolist() == [0, 1, 2]
assert not (_t == _t.round()).all()
assert torch.tensor(float("inf")).round().isinf()  # so inf passes: "finite labels"

# %%
# Yes or no: BCEWithLogitsLoss
# ----------------------------
# For a yes-or-no question, the model outputs one logit per example. The target ``y`` is
# 0 or 1, as floats, in the logits' shape. For a probability ``p`` of yes, the
# loss is binary cross-entropy (BCE): ``-(y log p + (1 - y) log(1 - p))``. With ``y``
# 0 or 1, only one term survives.
#
# 1. :class:`torch.nn.BCEWithLogitsLoss` takes the logits.
# 2. :class:`torch.nn.BCELoss` takes probabilities, so it needs a :term:`sigmoid`
#    first: :func:`torch.sigmoid`. For moderate logits the two agree.
# 3. Integer targets (:ref:`atlas <error-result-type-cast>`) and a column of targets
#    (:ref:`atlas <error-bce-target-size>`) raise errors in both. In BCELoss, the
#    targets must also have the same dtype as the probabilities.
#
# Each loss also comes as a class in ``torch.nn``. Below, an object of each is made,
# then called.
torch.manual_seed(1)
scores = torch.randn(6)  # one logit per example
answers = torch.tensor([0.0, 1.0, 1.0, 0.0, 1.0, 0.0])
with_logits = torch.nn.BCEWithLogitsLoss()(scores, answers)
two_steps = torch.nn.BCELoss()(torch.sigmoid(scores), answers)
print(f"BCEWithLogitsLoss: {with_logits:.6f}, sigmoid + BCELoss: {two_steps:.6f}")
torch.testing.assert_close(with_logits, two_steps)

# %%
# .. check:: BCE is its formula; int, column, other-dtype targets raise
_nn, _p = torch.nn, torch.sigmoid(scores)
_bce = -(answers * _p.log() + (1 - answers) * (1 - _p).log())
torch.testing.assert_close(two_steps, _bce.mean())
_nn.BCEWithLogitsLoss()(scores, answers.double())  # takes float64 targets
_cases = [(_nn.BCEWithLogitsLoss(), scores), (_nn.BCELoss(), _p)]
_cases = [(f, x, t) for f, x in _cases for t in (answers.long(), answers.unsqueeze(1))]
_cases += [(_nn.BCELoss(), _p, answers.double()), (_nn.BCELoss(), _p.double(), answers)]
for _loss_fn, _given, _bad in _cases:
    try:
        _loss_fn(_given, _bad)
    except (RuntimeError, ValueError):
        pass
    else:
        raise AssertionError(f"{_bad.dtype} {tuple(_bad.shape)} targets did not raise")

# %%
# .. check:: each loss here is also a class in ``torch.nn`` that gives the same value
_pairs = {_nn.MSELoss: F.mse_loss, _nn.L1Loss: F.l1_loss, _nn.HuberLoss: F.huber_loss}
for _cls, _fn in _pairs.items():
    assert torch.equal(_cls()(prediction, target), _fn(prediction, target))
assert torch.equal(
    _nn.CrossEntropyLoss()(logits, labels), F.cross_entropy(logits, labels)
)
_bce_fn = F.binary_cross_entropy_with_logits
assert torch.equal(with_logits, _bce_fn(scores, answers))
assert torch.equal(two_steps, F.binary_cross_entropy(_p, answers))

# %%
# For large logits they part. Take a logit ``x``, ``p = sigmoid(x)`` and target 0.
# The loss ``-log(1 - p)`` is then about ``x`` for large ``x``.
#
# 1. BCEWithLogitsLoss computes it from the logit, and stays right.
# 2. In float32 on the CPU, ``p`` is exactly 1.0 by a logit of 16.7. Then
#    ``-log(1 - p)`` is infinite.
# 3. :class:`~torch.nn.BCELoss` clamps the log at -100. So it reports 100,
#    for a logit of 16.7 as for 1,000.
# 4. Once ``p`` is 1.0, the sigmoid's slope is 0. So through BCELoss, no gradient
#    reaches the logit.
#
# From the logit, the gradient is ``p - y``, here close to 1. The functions
# :func:`~torch.nn.functional.binary_cross_entropy_with_logits` and
# :func:`~torch.nn.functional.binary_cross_entropy` compute the same two losses.
#
# .. detail:: The steps behind the table
#
#    - ``1 - p`` is ``e⁻ˣ / (1 + e⁻ˣ)``, which is ``1 / (1 + eˣ)``. So the loss is
#      ``log(1 + eˣ)``, whose derivative ``eˣ / (1 + eˣ)`` is ``p``.
#    - :func:`torch.sigmoid` computes ``1 / (1 + e⁻ˣ)``. In float32, ``1 + e⁻ˣ``
#      rounds to 1 from a logit of about 16.64. So ``p`` is 1.0, though at 16.7 a
#      float32 value below 1 is closer to the true sigmoid.
#    - Through BCELoss, the gradient holds the sigmoid's slope ``p (1 - p)``: 0 once
#      ``p`` is 1.0.
big = torch.tensor([16.0, 16.6, 16.7, 1000.0], requires_grad=True)
no = torch.zeros(4)  # target 0, the answer "no", for all four
p = torch.sigmoid(big)
exact = F.binary_cross_entropy_with_logits(big, no, reduction="none")
clamped = F.binary_cross_entropy(p, no, reduction="none")
(grad_exact,) = torch.autograd.grad(exact.sum(), big)
(grad_clamped,) = torch.autograd.grad(clamped.sum(), big)
rows = {"sigmoid": p, "BCEWithLogitsLoss": exact, "sigmoid + BCELoss": clamped}
rows |= {"gradient, with logits": grad_exact, "gradient, two steps": grad_clamped}
print(f"{'logit':>21}: {[round(v, 1) for v in big.tolist()]}")
for label, values in rows.items():  # 8 significant digits tell p from 1.0
    print(f"{label:>21}: {[float(f'{v:.8g}') for v in values.tolist()]}")

# %%
# .. check:: the sigmoid is 1.0 from 16.7: BCELoss clamps at 100, gradient 0; from logits, both are right
assert torch.equal(p == 1, torch.tensor([False, False, True, True]))
assert [float(f"{v:.8g}") < 1 for v in p.tolist()] == [True, True, False, False]
assert torch.equal(clamped[2:], torch.full((2,), 100.0))
torch.testing.assert_close(exact, big + torch.log1p(torch.exp(-big)))
torch.testing.assert_close(grad_exact, p.detach() - no)
assert torch.equal(grad_clamped[2:], torch.zeros(2))
assert (grad_clamped[:2] > 0.9).all()  # before the jump to 0
(sigmoid_slope,) = torch.autograd.grad(torch.sigmoid(big).sum(), big)
assert torch.equal(sigmoid_slope[2:], torch.zeros(2))  # p (1 - p) once p is 1.0
_p1 = p.detach()[2:].requires_grad_()  # BCELoss's own gradient, in p, is not 0
(_grad_p,) = torch.autograd.grad(F.binary_cross_entropy(_p1, no[2:]), _p1)
assert (_grad_p > 1e11).all()
_sums = 1 + torch.exp(-big.detach())  # the sigmoid's sum, in float32
assert _sums[1] > 1
assert (_sums[2:] == 1).all()
assert 1 + torch.exp(torch.tensor(-16.63)) > 1  # "from about 16.64"
assert 1 + torch.exp(torch.tensor(-16.65)) == 1
_true_p = torch.sigmoid(big.detach().double()).float()  # rounded once, to float32
assert (_true_p[1:3] < 1).all()  # at 16.6 and 16.7, float32 has values below 1

# %%
# The figure draws both losses for target 0 against the logit. The dashed one, sigmoid
# and BCELoss, leaves the true loss as the sigmoid nears 1.0. Then it jumps to the
# clamp at 100. The right panel draws their derivatives: the dashed one drops to 0
# there.
#
# .. detail:: How far it strays
#
#    The loss is 0.06 too low at a logit of 16, over 0.5 at 16.6: the same rounding
#    of ``1 + e⁻ˣ``.
x = torch.linspace(-5, 120, 2001, requires_grad=True)
y_0 = torch.zeros_like(x)
paths = {
    "BCEWithLogitsLoss": F.binary_cross_entropy_with_logits(x, y_0, reduction="none"),
    "sigmoid + BCELoss": F.binary_cross_entropy(x.sigmoid(), y_0, reduction="none"),
}
fig, (ax_loss, ax_grad) = plt.subplots(1, 2, figsize=(9, 3.4), layout="constrained")
looks = [(PALETTE[5], "-"), (PALETTE[6], "--")]
for (name, curve), (colour, style) in zip(paths.items(), looks, strict=True):
    (slope,) = torch.autograd.grad(curve.sum(), x)
    ax_loss.plot(x.detach(), curve.detach(), style, color=colour, label=name)
    ax_grad.plot(x.detach(), slope, style, color=colour)
ax_loss.set(xlabel="logit (target 0)", ylabel="loss")
ax_grad.set(xlabel="logit (target 0)", ylabel="derivative of the loss")
ax_loss.legend()
plt.show()

# %%
# .. check:: sigmoid + BCELoss is 0.06 too low at a logit of 16, over 0.5 at 16.6; its derivative drops to 0
assert 0.05 < exact[0] - clamped[0] < 0.07
assert exact[1] - clamped[1] > 0.5
assert (slope[x.detach() < 16] > 0).all()  # slope: the dashed curve's, drawn last
assert (slope[x.detach() >= 16.7] == 0).all()

# %%
# Summary
# -------
# - For numbers, MSE lets an outlier's gradient grow with its error; L1 and
#   Huber cap it. ``(N, 1)`` predictions against ``(N,)`` targets only warn.
# - :func:`~torch.nn.functional.cross_entropy` takes logits ``(N, C)`` and
#   int64 class indices ``(N,)`` from 0 to ``C - 1``.
# - For yes or no, pass logits to :class:`~torch.nn.BCEWithLogitsLoss`, with
#   float targets of the logits' shape.
#
# Next, :ref:`sphx_glr_auto_examples_training_plot_05_optimisers_and_learning_rates.py`
# turns gradients into steps. Exercises for this page: :ref:`exercises-training-04`. In
# depth, after the core pages:
# :ref:`sphx_glr_auto_examples_training_plot_54_more_on_losses.py`.
