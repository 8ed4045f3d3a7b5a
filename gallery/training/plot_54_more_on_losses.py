"""
More on loss functions
======================

Give cross-entropy class probabilities as targets, and smooth its labels.
After this page you can choose what a loss's reduction averages over, and
read the gradient that cross-entropy sends back to the logits.

This in-depth page goes further than
:ref:`sphx_glr_auto_examples_training_plot_04_loss_functions.py`. A first
reading can skip it.

**Before this page:**
:ref:`sphx_glr_auto_examples_training_plot_04_loss_functions.py`.
"""

# %%
# This page runs on the CPU. The site's helper ``environment_summary``
# describes the machine, and ``PALETTE`` holds the site's figure colours.
import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F

from tutorial_utils.colours import PALETTE
from tutorial_utils.environment import environment_summary

device = torch.device("cpu")
print(environment_summary(device))

# %%
# The logits and labels of the loss functions page come back: 5 examples, 3
# classes. :func:`~torch.nn.functional.cross_entropy` gives their mean loss.
torch.manual_seed(0)
logits = torch.randn(5, 3)  # 5 examples, 3 classes
labels = torch.tensor([0, 2, 1, 2, 0])
loss = F.cross_entropy(logits, labels)
print(f"cross-entropy {loss:.4f}")

# %%
# Why one call
# ------------
# Cross-entropy needs the log of the :term:`softmax`. Computing
# ``torch.log(torch.softmax(...))`` in two steps can fail. Take logits 200
# apart. The smaller class's probability, ``e⁻²⁰⁰``, is below the smallest
# positive float32 number. It rounds to 0, whose log is ``-inf``.
# :func:`~torch.nn.functional.log_softmax` computes ``x - logsumexp(x)``
# instead, for a row of logits ``x``. Here ``logsumexp(x)`` is the log of
# the sum of ``e`` raised to each logit. For these logits it is 200.
# Cross-entropy uses ``log_softmax``, so class 1's loss is 200.
#
# .. detail:: How ``logsumexp`` stays finite
#
#    ``e²⁰⁰`` alone would overflow to ``inf``. So ``logsumexp`` subtracts
#    the largest logit first, and adds it back after the log.
far = torch.tensor([[200.0, 0.0]])  # one example, two classes
print("log(softmax):", torch.log(torch.softmax(far, dim=1)))
print("log_softmax: ", F.log_softmax(far, dim=1))
print("cross_entropy for class 1:", F.cross_entropy(far, torch.tensor([1])))

# %%
# .. check:: the small probability rounds to 0 and its log is ``-inf``; ``log_softmax`` stays finite
_second = torch.tensor([1])
assert torch.softmax(far, dim=1)[0, 1] == 0
assert F.nll_loss(torch.log(torch.softmax(far, dim=1)), _second).isinf()
assert F.cross_entropy(far, _second) == 200
torch.testing.assert_close(F.log_softmax(far, 1), far - far.logsumexp(1, keepdim=True))
assert far.logsumexp(1) == 200
assert F.log_softmax(far, 1)[0, 1] == -200

# %%
# .. check:: ``e²⁰⁰`` overflows; ``logsumexp`` subtracts the largest logit first
assert far.exp()[0, 0].isinf()
_top = far.max()
assert far.logsumexp(1) == _top + (far - _top).exp().sum().log()

# %%
# Class probabilities as targets
# ------------------------------
# A floating-point target of the logits' shape ``(N, C)`` holds a
# probability for each class. Such targets are called soft labels. For
# one example, write ``p_c`` for the target's probability of class ``c``,
# and ``log softmax(x)_c`` for the log-probability that ``log_softmax``
# gives it. The example's loss is ``-Σ p_c · log softmax(x)_c``, a sum over
# the classes. The batch's loss is the mean over examples. Below, each
# target row is a softmax of random numbers.
#
# A :term:`one-hot` row puts all the probability on one class. Made float,
# it gives each example the same loss as that class's index.
probabilities = torch.softmax(torch.randn(5, 3), dim=1)
soft = F.cross_entropy(logits, probabilities)
print(f"soft labels: {soft:.4f}")
one_hot = F.one_hot(labels, num_classes=3).float()
print(f"one-hot rows: {F.cross_entropy(logits, one_hot):.4f}, indices: {loss:.4f}")

# %%
# .. check:: soft labels give the mean of ``-Σ p_c · log softmax(x)_c``; one-hot rows, the index's loss
_log_p = F.log_softmax(logits, dim=1)
torch.testing.assert_close(probabilities.sum(dim=1), torch.ones(5))
torch.testing.assert_close(soft, -(probabilities * _log_p).sum(dim=1).mean())
torch.testing.assert_close(F.cross_entropy(logits, one_hot), loss)
_w = {"weight": torch.tensor([1.0, 2.0, 4.0]), "reduction": "none"}  # even so
_per_row = F.cross_entropy(logits, one_hot, **_w)
torch.testing.assert_close(_per_row, F.cross_entropy(logits, labels, **_w))

# %%
# :term:`Label smoothing <label smoothing>` is one use of soft labels.
# Here ``eps`` names the smoothing amount. ``label_smoothing=eps`` trains
# against ``(1 - eps) · one_hot + eps / C`` instead of the one-hot rows.
# Call the gap between the right class's logit and the others its lead.
# Without smoothing, an example's loss never rises as its lead grows. With
# it, and the other logits equal, setting the loss's derivative to 0 gives
# its lowest point: a lead of ``log(1 + C (1 - eps) / eps)``. Beyond that
# lead the loss grows again.
#
# .. detail:: Where the formula's lead comes from
#
#    Write ``L`` for the lead and ``q = 1 - eps + eps / C`` for the right
#    class's smoothed target. With the other logits 0, the loss is
#    ``log(e^L + C - 1) - q · L``. Its derivative is the right class's
#    probability, ``e^L / (e^L + C - 1)``, minus ``q``. Setting it to 0 and
#    solving for ``e^L`` gives ``1 + C (1 - eps) / eps``.
eps = 0.1
smoothed = F.cross_entropy(logits, labels, label_smoothing=eps)
print(f"label_smoothing={eps}: {smoothed:.4f} (without: {loss:.4f})")

# %%
# .. check:: smoothing trains against the smoothed rows
_smooth_rows = (1 - eps) * one_hot + eps / 3
torch.testing.assert_close(smoothed, F.cross_entropy(logits, _smooth_rows))

# %%
# The figure draws one example's loss against its lead, with and without
# smoothing. Class 0 is the right one: its logit is the lead, and the other
# two are 0. Each of the 201 rows of ``ahead`` is one such example.
# ``reduction="none"`` keeps one loss per example, and
# :meth:`~torch.Tensor.argmin` gives the position of the smallest. A dotted
# line marks the formula's lead.
lead = torch.linspace(0, 20, 201)
ahead = torch.zeros(201, 3)
ahead[:, 0] = lead
class_0 = torch.zeros(201, dtype=torch.long)
plain = F.cross_entropy(ahead, class_0, reduction="none")
smooth = F.cross_entropy(ahead, class_0, reduction="none", label_smoothing=eps)
best, formula = smooth.argmin(), torch.tensor(1 + 3 * (1 - eps) / eps).log()  # C = 3
print(f"smoothed loss lowest at a lead of {lead[best]:.1f}; formula: {formula:.3f}")
fig, ax = plt.subplots(figsize=(6, 3.4), layout="constrained")
ax.plot(lead, plain, color=PALETTE[5], label="no smoothing")
ax.plot(lead, smooth, color=PALETTE[6], label=f"label_smoothing={eps}")
ax.axvline(formula, color="grey", linestyle=":", label="formula's lead")
ax.set(xlabel="lead of the right class's logit", ylabel="loss")
ax.legend()
plt.show()

# %%
# .. check:: without smoothing the loss never rises; with it, it is lowest at the formula's lead
assert (plain.diff() <= 0).all()
assert (smooth[best:].diff() > 0).all()
assert (lead[best] - formula).abs() <= 0.05  # the grid's step is 0.1

# %%
# .. check:: at the formula's lead, the derivative is 0 and the probability ``q``
_q = 1 - eps + eps / 3
_lead = formula.clone().requires_grad_()
_row = torch.stack([_lead, torch.tensor(0.0), torch.tensor(0.0)]).unsqueeze(0)
F.cross_entropy(_row, class_0[:1], label_smoothing=eps).backward()
assert _lead.grad.abs() < 1e-6
torch.testing.assert_close(torch.softmax(_row, 1)[0, 0].item(), _q)
torch.testing.assert_close(
    F.cross_entropy(_row, class_0[:1], label_smoothing=eps),
    (_lead.exp() + 2).log() - _q * _lead,
)

# %%
# Reductions: mean, sum, none
# ---------------------------
# Every loss of the loss functions page takes ``reduction=``. It says what
# happens to the separate losses:
#
# 1. ``"none"`` keeps them all: one per element, or one per example for
#    cross-entropy on ``(N, C)`` logits.
# 2. ``"sum"`` adds them up.
# 3. ``"mean"``, the default, averages them. It divides by the number of
#    losses that ``"none"`` keeps.
#
# So with several outputs per example, the mean of MSE or binary
# cross-entropy divides by the number of elements, not by ``N``. Below,
# ``.view(2, 3)`` arranges six yes-or-no answers as two examples of three
# questions. Such a model outputs one logit per question.
#
# .. detail:: Soft targets and ``"none"``
#
#    With class probabilities as targets too, cross-entropy's ``"none"``
#    keeps one loss per example. Binary cross-entropy also takes soft
#    targets: a float probability between 0 and 1.
per_example = F.cross_entropy(logits, labels, reduction="none")
summed = F.cross_entropy(logits, labels, reduction="sum")
print(f"none: {per_example}\nsum: {summed:.4f}, mean: {loss:.4f}")
torch.manual_seed(1)
scores = torch.randn(6)
answers = torch.tensor([0.0, 1.0, 1.0, 0.0, 1.0, 0.0])
grid = (scores.view(2, 3), answers.view(2, 3))  # 2 examples of 3 answers each
per_answer = F.binary_cross_entropy_with_logits(*grid, reduction="none")
mean_answer = F.binary_cross_entropy_with_logits(*grid)
print(f"per answer: {tuple(per_answer.shape)}, mean: {mean_answer:.4f}")

# %%
# .. check:: ``"none"`` keeps one loss per example or element; ``"mean"`` divides by their count
assert per_example.shape == labels.shape
assert not torch.isclose(loss, summed / logits.numel())  # N, not N times C
_seq = torch.stack([logits, logits.flip(0)], dim=2)  # (N, C, 2) logits
_seq_labels = torch.stack([labels, labels.flip(0)], dim=1)
_seq_none = F.cross_entropy(_seq, _seq_labels, reduction="none")
assert _seq_none.shape == (5, 2)
torch.testing.assert_close(F.cross_entropy(_seq, _seq_labels), _seq_none.mean())
_mse_none = F.mse_loss(*grid, reduction="none")
torch.testing.assert_close(F.mse_loss(*grid), _mse_none.sum() / 6)
assert F.cross_entropy(logits, probabilities, reduction="none").shape == (5,)
torch.testing.assert_close(summed, per_example.sum())
torch.testing.assert_close(loss, per_example.mean())
assert per_answer.shape == (2, 3)
torch.testing.assert_close(mean_answer, per_answer.sum() / 6)
for _loss_fn in (F.mse_loss, F.l1_loss, F.huber_loss):
    assert _loss_fn(scores, answers, reduction="none").shape == (6,)
_soft = torch.tensor([0.2, 1.0, 0.7, 0.0, 0.5, 0.9])  # soft targets
_by_hand = -(_soft * scores.sigmoid().log() + (1 - _soft) * (-scores).sigmoid().log())
torch.testing.assert_close(
    F.binary_cross_entropy_with_logits(scores, _soft), _by_hand.mean()
)

# %%
# Two options of cross-entropy change what ``"mean"`` divides by:
#
# - With class ``weight=`` and class indices, each loss is weighted by its
#   class. The mean divides by the sum of each example's class weight.
# - With ``ignore_index=``, the mean leaves out the examples with that
#   label. Its default is -100.
#
# Below, label -100 drops the second example.
#
# .. detail:: When every example is ignored
#
#    If no example is left, the mean is ``nan``.
weight = torch.tensor([1.0, 2.0, 4.0])
mean_weighted = F.cross_entropy(logits, labels, weight=weight)
print(f"weighted mean: {mean_weighted:.4f}")
masked = torch.where(torch.arange(5) == 1, -100, labels)  # ignore the second
ignored = F.cross_entropy(logits, masked)
print(f"second example ignored: {ignored:.4f}")

# %%
# .. check:: the weighted mean divides by the weights' sum; ``ignore_index`` drops examples, or gives nan
_weighted = F.cross_entropy(logits, labels, weight=weight, reduction="none")
torch.testing.assert_close(_weighted, weight[labels] * per_example)
torch.testing.assert_close(mean_weighted, _weighted.sum() / weight[labels].sum())
assert not torch.isclose(mean_weighted, _weighted.sum() / weight.sum())
torch.testing.assert_close(ignored, per_example[masked != -100].mean())
assert F.cross_entropy(logits, torch.full((5,), -100)).isnan()

# %%
# The gradient of a loss
# ----------------------
# On a loss reduced to one number, :meth:`~torch.Tensor.backward` adds the
# :term:`gradient` into the ``.grad`` of each :term:`leaf` tensor
# that the loss came from and that has ``requires_grad=True``. A second
# forward and backward pass adds to it again, in place. Below,
# ``.clone()`` copies the logits, and ``.requires_grad_()`` makes the copy such a leaf.
#
# For the mean cross-entropy, the gradient with respect to the logits is
# ``(softmax(logits) - one_hot) / N``. It is negative only at each example's
# own class, and each row sums to 0. So a step against it raises that logit
# and lowers the others.
leaf = logits.clone().requires_grad_()
F.cross_entropy(leaf, labels).backward()
print(leaf.grad)
by_formula = (torch.softmax(logits, dim=1) - one_hot) / 5
print(
    f"largest difference from the formula: {(leaf.grad - by_formula).abs().max():.1e}"
)

# %%
# .. check:: the gradient is ``(softmax - one_hot) / N``: negative only at the own class, rows sum to 0
torch.testing.assert_close(leaf.grad, by_formula)
torch.testing.assert_close(leaf.grad.sum(dim=1), torch.zeros(5))
assert torch.equal(leaf.grad.sign(), 1 - 2 * one_hot)

# %%
# With ``reduction="sum"`` there is no ``/ N``, so the gradients are ``N``
# times larger. As ``.grad`` changes in place, ``once`` keeps a copy of the
# first gradient. :func:`torch.autograd.grad` returns a gradient and leaves
# ``.grad`` alone.
#
# A ``"none"`` loss of several elements is not one number. Called with no
# argument, ``backward()`` refuses it (:ref:`atlas
# <error-backward-non-scalar>`). Reduce it first.
#
# .. detail:: Larger gradients, larger steps
#
#    Plain SGD, an :term:`optimiser`, moves each parameter by the learning
#    rate times its gradient. So with ``"sum"``, its steps are ``N`` times
#    larger too.
once = leaf.grad.clone()
(grad_sum,) = torch.autograd.grad(F.cross_entropy(leaf, labels, reduction="sum"), leaf)
ratio = grad_sum / once
print(f"sum's gradient over mean's: {ratio.min():.4f} to {ratio.max():.4f}")
try:
    F.cross_entropy(leaf, labels, reduction="none").backward()
except RuntimeError as error:
    print(f"RuntimeError: {error}")
else:
    raise AssertionError("backward on a vector did not raise")
F.cross_entropy(leaf, labels).backward()  # a second call adds to .grad
ratio = leaf.grad / once
print(
    f".grad after two backward calls, over one: {ratio.min():.4f} to {ratio.max():.4f}"
)

# %%
# .. check:: the summed loss's gradient is ``N`` times larger, and a second backward adds up
torch.testing.assert_close(grad_sum, 5 * once)
torch.testing.assert_close(leaf.grad, 2 * once)

# %%
# .. check:: a second ``backward`` adds into the same ``.grad`` tensor, in place
_again = logits.clone().requires_grad_()
F.cross_entropy(_again, labels).backward()
_first = _again.grad
F.cross_entropy(_again, labels).backward()
assert _again.grad is _first
torch.testing.assert_close(_first, 2 * once)

# %%
# .. check:: ``backward`` takes a ``"none"`` loss when given a ``gradient=``
_copy = logits.clone().requires_grad_()
F.cross_entropy(_copy, labels, reduction="none").backward(gradient=torch.ones(5))
torch.testing.assert_close(_copy.grad, grad_sum)

# %%
# Summary
# -------
# - Float targets of the logits' shape are class probabilities. With label
#   smoothing, the loss is lowest at a finite lead.
# - ``"none"`` keeps the separate losses, ``"sum"`` adds them, and
#   ``"mean"`` averages them. Class weights and ``ignore_index`` change what
#   the mean divides by.
# - The mean cross-entropy's gradient with respect to the logits is
#   ``(softmax - one_hot) / N``.
#
# Back to the core path:
# :ref:`sphx_glr_auto_examples_training_plot_05_optimisers_and_learning_rates.py`.
# Exercise 8 of :ref:`exercises-training-04` uses the gradient formula.
