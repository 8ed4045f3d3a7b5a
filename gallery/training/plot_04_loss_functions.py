"""
Loss functions
==============

Choose a loss for regression or classification, give it targets of the
dtype and shape it expects, and know what its ``reduction`` averages over
and which gradient it sends back to the model.
"""

# %%
# The losses on this page are small, so it computes on the CPU; the error
# messages it prints are those of the version and device named here.
import warnings

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch import nn

from tutorial_utils.colours import PALETTE
from tutorial_utils.environment import environment_summary

device = torch.device("cpu")
print(environment_summary(device))

# %%
# Regression: MSE, L1 and Huber
# -----------------------------
# A :term:`loss` scores a model's predictions against the targets, by
# default as one number. For numbers to predict, the usual three act on
# each error ``e = prediction - target`` and then, by default, average over
# all the elements: :func:`~torch.nn.functional.mse_loss` takes ``e²``,
# :func:`~torch.nn.functional.l1_loss` takes ``|e|``, and
# :func:`~torch.nn.functional.huber_loss` takes ``e² / 2`` while
# ``|e| ≤ delta`` (1 by default) and ``delta · (|e| - delta / 2)`` beyond:
# a parabola that turns into straight lines without a kink. Below, four
# predictions, one of them an outlier 4 away from its target, and the
# :term:`gradient` that each loss sends back to the predictions.
target = torch.tensor([1.0, 2.0, 3.0, 4.0])
prediction = torch.tensor([1.2, 1.6, 3.6, 8.0], requires_grad=True)
e = (prediction - target).detach()
n = len(e)
huber = torch.where(e.abs() <= 1, e**2 / 2, e.abs() - 0.5)
formulas = {  # name: (loss function, loss of each element, its derivative)
    "MSE": (F.mse_loss, e**2, 2 * e),
    "L1": (F.l1_loss, e.abs(), e.sign()),
    "Huber": (F.huber_loss, huber, e.clamp(-1, 1)),
}
print("errors:", [round(x, 2) for x in e.tolist()])
for name, (loss_fn, *_) in formulas.items():
    loss = loss_fn(prediction, target)
    (grad,) = torch.autograd.grad(loss, prediction)
    print(f"{name:>5}: loss {loss:.3f}, gradient {grad.numpy().round(3)}")

# %%
# .. check:: each loss is the mean of its formula, and its gradient the derivative over ``n``
for _loss_fn, _per_element, _derivative in formulas.values():
    _loss = _loss_fn(prediction, target)
    (_grad,) = torch.autograd.grad(_loss, prediction)
    torch.testing.assert_close(_loss, _per_element.mean())
    torch.testing.assert_close(_grad, _derivative / n)

# %%
# Under MSE, the outlier's gradient, ``2 · 4 / n``, is ten times the size
# of the error -0.4's and outweighs the other three together: MSE lets one
# outlier dominate the gradient. Under L1 and Huber (``delta = 1``), no
# element's gradient exceeds ``1 / n`` in size: an outlier pulls no harder
# than any error beyond ``delta``. The figure draws each loss and its
# derivative; Huber's derivative has no jump.
errors = torch.linspace(-3, 3, 601, requires_grad=True)
fig, (ax_loss, ax_grad) = plt.subplots(1, 2, figsize=(9, 3.4), layout="constrained")
for colour, (name, (loss_fn, *_)) in zip(PALETTE[5:], formulas.items(), strict=True):
    curve = loss_fn(errors, torch.zeros_like(errors), reduction="none")
    (slope,) = torch.autograd.grad(curve.sum(), errors)
    ax_loss.plot(errors.detach(), curve.detach(), color=colour, label=name)
    ax_grad.plot(errors.detach(), slope, color=colour)
ax_loss.set(xlabel="error (prediction - target)", ylabel="loss", ylim=(0, 4.5))
ax_grad.set(xlabel="error (prediction - target)", ylabel="derivative of the loss")
ax_loss.legend(fontsize=8)
plt.show()

# %%
# .. check:: MSE lets the outlier's gradient dominate; L1 and Huber cap it at ``1 / n``; Huber's has no jump
mse_grad, l1_grad, huber_grad = 2 * e / n, e.sign() / n, e.clamp(-1, 1) / n
torch.testing.assert_close(mse_grad[3] / mse_grad[1].abs(), torch.tensor(10.0))
assert mse_grad[3] > mse_grad[:3].abs().sum()
assert max(l1_grad.abs().max(), huber_grad.abs().max()) <= 1 / n
assert slope.diff().abs().max() < 0.02  # Huber's derivative, the last: steps of 0.01

# %%
# Predictions and targets should have the same :term:`shape`. A model with
# one output returns a column of shape ``(N, 1)``; against targets of shape
# ``(N,)``, :term:`broadcasting` makes an N-by-N table that compares every
# prediction with every target. MSE, L1 and Huber warn (a ``UserWarning``)
# but compute the wrong number all the same:
column = prediction.detach().unsqueeze(1)  # shape (4, 1)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    wrong = {loss_fn: loss_fn(column, target) for loss_fn, *_ in formulas.values()}
print(f"{caught[0].category.__name__}: {caught[0].message}")
right = F.mse_loss(column.squeeze(1), target)
print(f"MSE of (4, 1) against (4,): {wrong[F.mse_loss]:.3f}, not {right:.3f}")

# %%
# .. check:: all three warn and return the mean over the 4-by-4 table, not the right loss
assert [w.category for w in caught] == [UserWarning] * 3
for loss_fn, value in wrong.items():  # the mean over the 4-by-4 table
    torch.testing.assert_close(value, loss_fn(column.expand(4, 4), target.expand(4, 4)))
assert not torch.isclose(wrong[F.mse_loss], right)

# %%
# Classification: class indices
# -----------------------------
# :func:`~torch.nn.functional.cross_entropy` takes :term:`logits` of shape
# ``(N, C)`` (``N`` examples, ``C`` classes, a floating-point :term:`dtype`)
# and, most often, one class index per example: shape ``(N,)``, dtype int64
# (``torch.long``), from 0 to ``C - 1``: what :func:`torch.tensor` and a
# :class:`~torch.utils.data.DataLoader` make of Python integers. The loss is
# ``-log`` of each example's :term:`softmax` probability of its own class,
# averaged over the :term:`batch`: :func:`~torch.nn.functional.log_softmax`
# and :func:`~torch.nn.functional.nll_loss` (negative log-likelihood) in one
# call. :class:`torch.nn.CrossEntropyLoss` is the same loss as a module.
torch.manual_seed(0)
logits = torch.randn(5, 3)  # 5 examples, 3 classes
labels = torch.tensor([0, 2, 1, 2, 0])
loss = F.cross_entropy(logits, labels)
print(f"logits {logits.dtype} {tuple(logits.shape)}")
print(f"labels {labels.dtype} {tuple(labels.shape)}, cross-entropy {loss:.4f}")
log_p = F.log_softmax(logits, dim=1)
loaded = next(iter(torch.utils.data.DataLoader([0, 2, 1], batch_size=3)))

# %%
# .. check:: cross-entropy is ``log_softmax`` then ``nll_loss``; the labels are int64 as loaded
torch.testing.assert_close(loss, F.nll_loss(log_p, labels))
torch.testing.assert_close(loss, -log_p[torch.arange(5), labels].mean())
assert torch.equal(nn.CrossEntropyLoss()(logits, labels), loss)
assert labels.dtype == loaded.dtype == torch.int64

# %%
# Why one call and not ``torch.log(torch.softmax(...))``: for logits 200
# apart, the smaller class's probability, ``e⁻²⁰⁰``, is below the smallest
# positive float32 number and rounds to 0, whose log is ``-inf``.
# :func:`~torch.nn.functional.log_softmax` computes ``x - logsumexp(x)``
# instead, which stays finite.
far = torch.tensor([[200.0, 0.0]])
second = torch.tensor([1])
naive = F.nll_loss(torch.log(torch.softmax(far, dim=1)), second)
print(f"log(softmax): {naive.item()}, cross_entropy: {F.cross_entropy(far, second)}")

# %%
# .. check:: the small probability rounds to 0 and its log is ``-inf``; ``log_softmax`` stays finite
assert torch.softmax(far, dim=1)[0, 1] == 0
assert naive.isinf()
assert F.cross_entropy(far, second) == 200
torch.testing.assert_close(F.log_softmax(far, 1), far - far.logsumexp(1, keepdim=True))

# %%
# Targets that go wrong
# ---------------------
# Each of these targets is a mistake met in practice: labels stored as floats (read
# from a CSV file, say), a column of labels (:ref:`atlas <error-multi-target>`), a
# 32-bit integer dtype, :term:`one-hot` rows left as integers (what
# :func:`~torch.nn.functional.one_hot` returns), and classes numbered from 1 to
# ``C`` instead of from 0. Each raises an error, but the last only in a batch that
# holds class ``C``; any other batch gets a wrong loss, silently:
wrong_targets = {
    "float labels (N,)": labels.float(),
    "float column (N, 1)": labels.float().unsqueeze(1),
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
print(f"labels 1 to C, no class C in the batch: {silent:.4f}, no error")

# %%
# .. check:: without class C in the batch, labels from 1 give a wrong loss
assert not torch.isclose(silent, F.cross_entropy(logits[no_c], labels[no_c]))

# %%
# The fixes: ``.long()`` for the dtype, ``.squeeze(1).long()`` for the float
# column, ``.float()`` for one-hot rows (see the next section) and ``- 1`` for
# classes counted from 1. Each gives the right labels' loss.
#
# .. detail:: Why the messages differ
#
#    :func:`~torch.nn.functional.cross_entropy` reads a target of the logits'
#    shape as class probabilities, which must be floats (:ref:`atlas
#    <error-class-probabilities-dtype>`). It reads any other target as class
#    indices, which it takes as int64 or uint8, not int32 (:ref:`atlas
#    <error-target-dtype>`). So float labels of shape ``(N,)`` fail on their
#    dtype, not on their shape.
fixes = [
    wrong_targets["float labels (N,)"].long(),
    wrong_targets["float column (N, 1)"].squeeze(1).long(),
    wrong_targets["int32 labels"].long(),
    wrong_targets["one-hot, int64 (N, C)"].float(),
    wrong_targets["labels 1 to C"] - 1,
]

# %%
# .. check:: each fix gives the right labels' loss, and uint8 labels are accepted
for repaired in fixes:
    torch.testing.assert_close(F.cross_entropy(logits, repaired), loss)
torch.testing.assert_close(F.cross_entropy(logits, labels.to(torch.uint8)), loss)

# %%
# Class probabilities as targets
# ------------------------------
# A floating-point target of the logits' shape ``(N, C)`` holds a
# probability for each class ("soft labels"). Each example's loss is then
# ``-Σ p_c · log softmax(x)_c`` over the classes ``c``, and the batch's is
# their mean. A one-hot row puts all the probability on one class and,
# without class weights, gives the same loss as that class's index.
probabilities = torch.softmax(torch.randn(5, 3), dim=1)
soft = F.cross_entropy(logits, probabilities)
print(f"soft labels: {soft:.4f}")
one_hot = F.one_hot(labels, num_classes=3).float()

# %%
# .. check:: soft labels give the mean of ``-Σ p_c · log softmax(x)_c``; one-hot rows, the index's loss
torch.testing.assert_close(soft, -(probabilities * log_p).sum(dim=1).mean())
torch.testing.assert_close(F.cross_entropy(logits, one_hot), loss)

# %%
# :term:`Label smoothing <label smoothing>` is one use of soft labels:
# ``label_smoothing=eps`` trains against ``(1 - eps) · one_hot + eps / C``
# instead of the one-hot rows. Without it, an example's loss never rises as
# its correct logit pulls ahead of the others; with it (and the others
# equal), the loss is lowest at a lead of ``log(1 + C (1 - eps) / eps)`` and
# grows beyond, so the model is not rewarded for ever larger logits.
eps = 0.1
smoothed = F.cross_entropy(logits, labels, label_smoothing=eps)
print(f"label_smoothing={eps}: {smoothed:.4f} (without: {loss:.4f})")
smooth_rows = (1 - eps) * one_hot + eps / 3
lead = torch.linspace(0, 20, 201)  # how far class 0, the right one, is ahead
ahead, class_0 = F.pad(lead.unsqueeze(1), (0, 2)), torch.zeros(201, dtype=torch.long)
plain = F.cross_entropy(ahead, class_0, reduction="none")
smooth = F.cross_entropy(ahead, class_0, reduction="none", label_smoothing=eps)
best, formula = smooth.argmin(), torch.tensor(1 + 3 * (1 - eps) / eps).log()
print(f"smoothed loss lowest at a lead of {lead[best]:.1f}; formula: {formula:.3f}")

# %%
# .. check:: smoothing trains against the smoothed rows; its loss is lowest at the formula's lead
torch.testing.assert_close(smoothed, F.cross_entropy(logits, smooth_rows))
assert (plain.diff() <= 0).all()
assert (smooth[best:].diff() > 0).all()
assert (lead[best] - formula).abs() <= 0.05  # the grid's step is 0.1

# %%
# Yes or no: BCEWithLogitsLoss
# ----------------------------
# For a yes-or-no question, the model outputs one logit per example and the
# target is 0 or 1 as a float, of the same shape.
# :class:`torch.nn.BCEWithLogitsLoss` takes the logits; :class:`torch.nn.BCELoss`
# takes probabilities, so it needs a :term:`sigmoid` first. For moderate logits
# the two agree; integer targets (:ref:`atlas <error-result-type-cast>`) and a
# column of targets (:ref:`atlas <error-bce-target-size>`) raise errors in both:
#
# .. detail:: Several questions, soft targets
#
#    With several independent yes-or-no questions, the model outputs one
#    logit per question. The target may also be a probability between 0 and
#    1, as a float.
torch.manual_seed(1)
scores = torch.randn(6)  # one logit per example
answers = torch.tensor([0.0, 1.0, 1.0, 0.0, 1.0, 0.0])
with_logits = nn.BCEWithLogitsLoss()(scores, answers)
two_steps = nn.BCELoss()(torch.sigmoid(scores), answers)
print(f"BCEWithLogitsLoss: {with_logits:.6f}, sigmoid + BCELoss: {two_steps:.6f}")
torch.testing.assert_close(with_logits, two_steps)
inputs = {nn.BCEWithLogitsLoss(): scores, nn.BCELoss(): torch.sigmoid(scores)}
for name, bad in {"int64": answers.long(), "(N, 1)": answers.unsqueeze(1)}.items():
    for loss_fn, given in inputs.items():
        try:
            loss_fn(given, bad)
        except (RuntimeError, ValueError) as error:
            print(f"{type(loss_fn).__name__}, {name}: {type(error).__name__}: {error}")
        else:
            raise AssertionError(f"{name} targets did not raise")

# %%
# For large logits they part. In float32 on the CPU, the sigmoid rounds to
# exactly 1.0 from a logit between 16.6 and 16.7 on, and the loss for target
# 0, ``-log(1 - 1.0)``, would be infinite; :class:`~torch.nn.BCELoss` clamps
# the log at -100 and reports 100, for a logit of 16.7 as for 1,000. The true
# loss, ``log(1 + eˣ)``, is about ``x``; BCEWithLogitsLoss computes it from
# the logit. Worse, the sigmoid's derivative ``p (1 - p)`` is 0 once ``p`` is
# 1.0, so the gradient is 0: a confidently wrong example teaches the model
# nothing. From the logits, the gradient is ``sigmoid(x) - y``, close to 1.
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
for label, values in rows.items():
    print(f"{label:>21}: {[float(f'{v:.8g}') for v in values.tolist()]}")

# %%
# .. check:: the sigmoid is 1.0 from 16.7: BCELoss clamps at 100, gradient 0; from logits, both are right
assert torch.equal(p == 1, torch.tensor([False, False, True, True]))
assert torch.equal(clamped[2:], torch.full((2,), 100.0))
torch.testing.assert_close(exact, big + torch.log1p(torch.exp(-big)))
torch.testing.assert_close(grad_exact, p.detach() - no)
assert torch.equal(grad_clamped[2:], torch.zeros(2))
(sigmoid_slope,) = torch.autograd.grad(torch.sigmoid(big).sum(), big)
assert torch.equal(sigmoid_slope[2:], torch.zeros(2))  # p (1 - p) once p is 1.0

# %%
# Drawn against the logit, for target 0: sigmoid followed by BCELoss agrees
# with the true loss for moderate logits, strays as the sigmoid nears 1.0,
# then jumps to the clamp at 100; its gradient, to 0.
#
# .. detail:: How far it strays
#
#    The loss is 0.06 too low at a logit of 16, and over 0.5 too low at 16.6:
#    float32 cannot keep ``1 - p`` accurate so close to 1.
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
# .. check:: sigmoid + BCELoss is 0.06 too low at a logit of 16, over 0.5 at 16.6
assert 0.05 < exact[0] - clamped[0] < 0.07
assert exact[1] - clamped[1] > 0.5

# %%
# Reductions: mean, sum, none
# ---------------------------
# Each loss on this page takes ``reduction=``: ``"none"`` returns one loss
# per element for MSE, L1, Huber and BCE, one per example for cross-entropy
# on ``(N, C)`` logits (with either kind of target); ``"sum"`` their sum and
# ``"mean"``, the default, their mean: a :term:`reduction` of the ``"none"``
# result. With several outputs per example (below, two examples of three
# yes-or-no answers), ``"mean"`` divides by the number of elements, not ``N``.
per_example = F.cross_entropy(logits, labels, reduction="none")
summed = F.cross_entropy(logits, labels, reduction="sum")
print(f"none: {per_example}\nsum: {summed:.4f}, mean: {loss:.4f}")
grid = (scores.view(2, 3), answers.view(2, 3))  # 2 examples of 3 answers each
per_answer = F.binary_cross_entropy_with_logits(*grid, reduction="none")
mean_answer = F.binary_cross_entropy_with_logits(*grid)

# %%
# .. check:: ``"none"`` keeps one loss per example or element; ``"mean"`` divides by the elements
assert per_example.shape == labels.shape
assert F.cross_entropy(logits, probabilities, reduction="none").shape == (5,)
torch.testing.assert_close(summed, per_example.sum())
torch.testing.assert_close(loss, per_example.mean())
assert per_answer.shape == (2, 3)
torch.testing.assert_close(mean_answer, per_answer.sum() / 6)

# %%
# Two options of :func:`~torch.nn.functional.cross_entropy` change what ``"mean"``
# divides by. With class ``weight=`` and class indices, each loss is weighted by its
# class and the mean divides by the sum of those weights. With ``ignore_index=`` (-100
# by default), the mean leaves out examples with that label (``nan`` if none is left).
weight = torch.tensor([1.0, 2.0, 4.0])
weighted = F.cross_entropy(logits, labels, weight=weight, reduction="none")
mean_weighted = F.cross_entropy(logits, labels, weight=weight)
print(f"weighted mean: {mean_weighted:.4f}")
masked = torch.where(torch.arange(5) == 1, -100, labels)  # ignore the second
ignored = F.cross_entropy(logits, masked)

# %%
# .. check:: the weighted mean divides by the weights' sum; ``ignore_index`` drops examples, or gives nan
torch.testing.assert_close(weighted, weight[labels] * per_example)
torch.testing.assert_close(mean_weighted, weighted.sum() / weight[labels].sum())
torch.testing.assert_close(ignored, per_example[masked != -100].mean())
assert F.cross_entropy(logits, torch.full((5,), -100)).isnan()

# %%
# The gradient of a loss
# ----------------------
# A loss reduced to one number is a scalar: :meth:`~torch.Tensor.backward` on it
# adds its gradient into the ``.grad`` of each :term:`leaf` tensor it came from
# that has ``requires_grad=True`` (another forward and backward add to it
# again). For the mean cross-entropy, the gradient with respect to the logits is
# ``(softmax(logits) - one_hot) / N``: negative only at each example's own
# class, so a step against it raises that logit and lowers the others, and each
# row sums to 0. With ``reduction="sum"`` there is no ``/ N``: the gradients are
# ``N`` times larger, and so are the steps of plain SGD (an :term:`optimiser`
# that moves each parameter by the learning rate times its gradient). A
# ``"none"`` loss of several elements is not a scalar, and ``backward`` refuses
# it (:ref:`atlas <error-backward-non-scalar>`): reduce it first.
leaf = logits.clone().requires_grad_()
F.cross_entropy(leaf, labels).backward()
print(leaf.grad)
(grad_sum,) = torch.autograd.grad(F.cross_entropy(leaf, labels, reduction="sum"), leaf)
try:
    F.cross_entropy(leaf, labels, reduction="none").backward()
except RuntimeError as error:
    print(f"RuntimeError: {error}")
else:
    raise AssertionError("backward on a vector did not raise")
F.cross_entropy(leaf, labels).backward()  # a second call: .grad doubles

# %%
# .. check:: the gradient is ``(softmax - one_hot) / N``, ``N`` times larger summed, and adds up
_leaf = logits.clone().requires_grad_()
F.cross_entropy(_leaf, labels).backward()
_once = _leaf.grad  # the gradient printed above, before the second call
torch.testing.assert_close(_once, (torch.softmax(logits, dim=1) - one_hot) / 5)
torch.testing.assert_close(_once.sum(dim=1), torch.zeros(5))
assert torch.equal(_once.sign(), 1 - 2 * one_hot)
torch.testing.assert_close(grad_sum, 5 * _once)
torch.testing.assert_close(leaf.grad, 2 * grad_sum / 5)

# %%
# Summary
# -------
# - Regression: under :func:`~torch.nn.functional.mse_loss`, an outlier's
#   gradient grows with its error; :func:`~torch.nn.functional.l1_loss` and
#   :func:`~torch.nn.functional.huber_loss` cap it. Give predictions and
#   targets one shape: ``(N, 1)`` against ``(N,)`` only warns.
# - :func:`~torch.nn.functional.cross_entropy` takes logits ``(N, C)`` and
#   int64 class indices ``(N,)`` from 0 to ``C - 1``, or float class
#   probabilities ``(N, C)``; it is ``log_softmax`` and ``nll_loss`` in one
#   numerically safe call.
# - For yes-or-no targets, pass logits to :class:`~torch.nn.BCEWithLogitsLoss`,
#   with float targets of the same shape. A sigmoid followed by
#   :class:`~torch.nn.BCELoss` loses confidently wrong examples in float32
#   (loss clamped at 100, gradient 0): for target 0, above a logit of about 16.6.
# - ``reduction="mean"`` divides by the number of elements (``N`` for
#   cross-entropy on ``(N, C)`` logits; with class indices, by the sum of
#   their class weights with ``weight=``, or by the number of examples kept
#   with ``ignore_index``). ``"sum"`` does not divide; ``"none"`` keeps one
#   loss per element, or per example for cross-entropy.
# - The mean cross-entropy's gradient with respect to the logits is
#   ``(softmax - one_hot) / N``.
#
# Next, :ref:`sphx_glr_auto_examples_training_plot_05_optimisers_and_learning_rates.py`
# turns such gradients into steps. Exercises for this page:
# :ref:`exercises-training-04`.
