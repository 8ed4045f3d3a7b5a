"""
Optimisers and learning rates
=============================

Write an optimiser step by hand and check it against PyTorch's; compare SGD,
momentum, Adam and AdamW on one problem; tell AdamW's weight decay from
Adam's; and add a learning-rate schedule and gradient clipping to a loop.
"""

# %%
# Everything here runs on the CPU; the numbers come from the machine below.
import math
import warnings
from functools import partial
from itertools import pairwise

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F

from tutorial_utils.colours import PALETTE
from tutorial_utils.data import load_digits_tensors
from tutorial_utils.environment import environment_summary
from tutorial_utils.models import MLP

device = torch.device("cpu")
print(environment_summary(device))

# %%
# One step by hand
# ----------------
# An :term:`optimiser` holds the parameters it was given; each call of
# :meth:`~torch.optim.Optimizer.step` changes in place every parameter whose
# ``.grad`` is not ``None`` (the others it skips, weight decay included).
# Plain SGD steps downhill by the :term:`learning rate` times the
# :term:`gradient`: ``p -= lr * p.grad``. Throughout: handwritten digits,
# an :class:`~tutorial_utils.models.MLP` with one hidden layer, and all
# 1,347 training images as one :term:`batch` per step, so the gradient is
# that of the training :term:`loss` itself, free of batch-to-batch noise.
digits = load_digits_tensors(seed=0)
X, y = digits.train_features, digits.train_labels
torch.manual_seed(0)
model = MLP(64, [64], 10)
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
optimizer.zero_grad()
F.cross_entropy(model(X), y).backward()
with torch.no_grad():
    by_hand = [p - 0.5 * p.grad for p in model.parameters()]
optimizer.step()
for (name, p), expected in zip(model.named_parameters(), by_hand, strict=True):
    difference = (p.detach() - expected).abs().max().item()
    print(f"{name:15} {tuple(p.shape)!s:9} largest difference {difference:.1e}")
    torch.testing.assert_close(p.detach(), expected)

# %%
# .. check:: ``step`` skips a parameter whose ``.grad`` is ``None``, weight decay included
kept, skipped = torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)
kept.grad = torch.zeros(2)
torch.optim.AdamW([kept, skipped], lr=0.1, weight_decay=0.01).step()
assert (kept < 1).all()
assert (skipped == 1).all()

# %%
# They agree within the float32 rounding :func:`torch.testing.assert_close`
# allows. With ``momentum=mu`` (and the defaults ``dampening=0``,
# ``nesterov=False``), :class:`torch.optim.SGD` keeps a buffer ``b`` per
# parameter, ``optimizer.state[p]["momentum_buffer"]``: the first step sets
# ``b = g``, later ones ``b = mu * b + g``, then ``p -= lr * b``.
# :term:`Momentum <momentum>` thus adds up past gradients: for a constant
# ``g``, ``b`` grows towards ``g / (1 - mu)`` (ten times ``g`` for
# ``mu = 0.9``); for one that flips sign at every step, the terms partly
# cancel. Three steps on a small quadratic, by hand and by PyTorch:
w = torch.tensor([1.0, -2.0], requires_grad=True)
curvature = torch.tensor([1.0, 10.0])
sgd_momentum = torch.optim.SGD([w], lr=0.05, momentum=0.9)
w_hand, buffer = w.detach().clone(), None
for _ in range(3):
    sgd_momentum.zero_grad()
    (0.5 * curvature * w**2).sum().backward()
    sgd_momentum.step()
    g = curvature * w_hand  # the gradient of the same loss at w_hand
    buffer = g if buffer is None else 0.9 * buffer + g
    w_hand = w_hand - 0.05 * buffer
print("PyTorch:", w.detach(), " by hand:", w_hand)
torch.testing.assert_close(w.detach(), w_hand)

# %%
# .. check:: the buffer is ``state[p]["momentum_buffer"]`` and nears ``g / (1 - mu)``, less if ``g`` flips
torch.testing.assert_close(sgd_momentum.state[w]["momentum_buffer"], buffer)
for signs, limit in (([1.0, 1.0], 10.0), ([1.0, -1.0], 1 / 1.9)):
    q = torch.zeros(1, requires_grad=True)
    sgd_zero = torch.optim.SGD([q], lr=0.0, momentum=0.9)
    for n in range(300):
        q.grad = torch.tensor([signs[n % 2]])
        sgd_zero.step()
    buffer_size = sgd_zero.state[q]["momentum_buffer"].abs()
    torch.testing.assert_close(buffer_size, torch.tensor([limit]))

# %%
# Four optimisers, one problem
# ----------------------------
# The same network from the same initial weights, trained for 150 full-batch
# steps by four optimisers, each at a round rate that trains it. A good rate
# for one is no guide for another: SGD's step, with or without momentum, is
# linear in the gradients; Adam's, as the next section shows, is not.
recipes = {
    "SGD, lr 0.5": partial(torch.optim.SGD, lr=0.5),
    "SGD, momentum 0.9, lr 0.5": partial(torch.optim.SGD, lr=0.5, momentum=0.9),
    "Adam, lr 0.01": partial(torch.optim.Adam, lr=0.01),
    "AdamW, lr 0.01": partial(torch.optim.AdamW, lr=0.01),
}
steps = 150
curves = {}
for label, make_optimizer in recipes.items():
    torch.manual_seed(0)
    model = MLP(64, [64], 10)
    optimizer = make_optimizer(model.parameters())
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(X), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    curves[label] = losses
    print(f"{label:26} loss at the last step: {losses[-1]:.4f}")

fig, ax = plt.subplots(figsize=(6.5, 3.8), layout="constrained")
for colour, (label, losses) in zip((7, 5, 1, 2), curves.items(), strict=True):
    ax.plot(range(steps), losses, color=PALETTE[colour], label=label)
ax.set(xlabel="step", ylabel="training loss (cross-entropy)", yscale="log")
ax.set_title("digits, one hidden layer, full-batch steps")
ax.legend()
plt.show()

# %%
# On this problem, at these rates: plain SGD ends far behind, its loss more
# than five times each of the others'; SGD with momentum ends lowest; Adam and
# AdamW end within 10 % of each other. Other rates can change the order: Adam
# at 0.03 ends lowest of all.
#
# .. detail:: AdamW's default decay
#
#    AdamW's default decay takes a fraction ``lr * 0.01``, a ten-thousandth,
#    off each weight per step.

# %%
# .. check:: plain SGD ends far behind, momentum lowest, Adam and AdamW within 10 %; Adam at 0.03 lower
sgd, momentum, adam, adamw = (curves[label][-1] for label in recipes)
assert sgd > 5 * max(momentum, adam, adamw)
assert momentum < min(adam, adamw)
assert abs(adamw / adam - 1) < 0.1
# Adam at 0.03 ends lowest of all.
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(0)
    net = MLP(64, [64], 10)
opt = torch.optim.Adam(net.parameters(), lr=0.03)
for _ in range(steps):
    opt.zero_grad()
    (last_loss := F.cross_entropy(net(X), y)).backward()
    opt.step()
assert last_loss.item() < min(sgd, momentum, adam, adamw)

# %%
# Weight decay: Adam against AdamW
# --------------------------------
# :term:`Weight decay <weight decay>` pulls every weight towards zero a little
# at each step. :class:`torch.optim.SGD` and :class:`torch.optim.Adam` with
# ``weight_decay=wd`` by default add ``wd * p`` to the gradient ``g`` (an L2
# penalty). Plain SGD then sets ``p`` to ``(1 - lr * wd) * p - lr * g``:
# shrink, then the usual step. Adam divides a running mean of the sum
# ``g2 = g + wd * p`` by the root of a running mean of its square; its first
# step moves each element by ``lr * g2 / (abs(g2) + eps)``, almost exactly
# ``lr`` if ``abs(g2)`` is far above ``eps``.
# :class:`torch.optim.AdamW` *decouples* the decay: it
# multiplies ``p`` by ``1 - lr * wd``, then takes Adam's step with ``g`` alone:
#
# .. detail:: SGD with momentum
#
#    With momentum, ``wd * p`` is summed in the buffer like the gradients,
#    and the shrink per step grows well past ``lr * wd``.
lr, wd, eps = 0.1, 0.01, 1e-8  # eps: Adam's and AdamW's default
p0 = torch.tensor([1.0, 1.0, 1.0])
grad = torch.tensor([0.0, 0.1, -1.0])
after = {}
for optimizer_class in (torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW):
    p = p0.clone().requires_grad_()
    p.grad = grad.clone()
    optimizer_class([p], lr=lr, weight_decay=wd).step()
    after[optimizer_class.__name__] = p.detach()
    print(f"{optimizer_class.__name__:5}", [f"{v:.4f}" for v in p.tolist()])

# %%
# .. check:: SGD, Adam and AdamW follow their formulas; with momentum the decay grows past ``lr * wd``
with_l2 = grad + wd * p0
torch.testing.assert_close(after["SGD"], (1 - lr * wd) * p0 - lr * grad)
torch.testing.assert_close(after["Adam"], p0 - lr * with_l2 / (with_l2.abs() + eps))
adamw_formula = (1 - lr * wd) * p0 - lr * grad / (grad.abs() + eps)
torch.testing.assert_close(after["AdamW"], adamw_formula)
q = torch.ones(1, requires_grad=True)
sgd_decay = torch.optim.SGD([q], lr=lr, momentum=0.9, weight_decay=wd)
for _ in range(60):
    previous, q.grad = q.item(), torch.zeros(1)
    sgd_decay.step()
assert 1 - q.item() / previous > 5 * lr * wd

# %%
# The first element has a zero gradient, so only the decay moves it: AdamW by
# ``lr * wd * p`` = 0.001, Adam by the full ``lr`` = 0.1, its division blowing
# the small decay term up to a full step. The other two have gradients far
# above ``eps``; on this first step Adam's decay vanishes there (each moves
# ``lr`` downhill, as with ``wd = 0``) while AdamW still takes its 0.001 off.
# With the L2 form, how much a weight decays depends on its gradients; with
# AdamW it does not. By default AdamW decays (``weight_decay=0.01``) and Adam
# does not (0).

# %%
# .. check:: Adam's decay is a full step or vanishes, AdamW's always 0.001; only AdamW decays by default
downhill = lr * grad[1:].sign()
torch.testing.assert_close(p0[0] - after["AdamW"][0], torch.tensor(lr * wd))
torch.testing.assert_close(p0[0] - after["Adam"][0], torch.tensor(lr))
torch.testing.assert_close(after["Adam"][1:], p0[1:] - downhill)
torch.testing.assert_close(after["AdamW"][1:], (1 - lr * wd) * p0[1:] - downhill)
assert torch.optim.AdamW([w]).defaults["weight_decay"] == 0.01
assert torch.optim.Adam([w]).defaults["weight_decay"] == 0

# %%
# Parameter groups and the state dict
# -----------------------------------
# An optimiser can hold several *parameter groups*, each with its own
# settings; what a group does not set comes from the keyword arguments. A
# common use: no weight decay for biases (and normalisation layers). The
# list ``optimizer.param_groups`` holds the groups as dictionaries, which
# is also where a scheduler (next section) writes the rate.
torch.manual_seed(0)
model = MLP(64, [64], 10)
weights = [p for name, p in model.named_parameters() if name.endswith("weight")]
biases = [p for name, p in model.named_parameters() if name.endswith("bias")]
groups = [{"params": weights}, {"params": biases, "weight_decay": 0.0}]
optimizer = torch.optim.AdamW(groups, lr=0.01, weight_decay=0.01)
for group in optimizer.param_groups:
    size, decay = len(group["params"]), group["weight_decay"]
    print(f"{size} tensors: lr {group['lr']}, weight decay {decay}")

# %%
# .. check:: a group takes what it does not set from the keyword arguments
settings = [(g["lr"], g["weight_decay"]) for g in optimizer.param_groups]
assert settings == [(0.01, 0.01), (0.01, 0.0)]

# %%
# After one step, the optimiser's :term:`state dict` holds its settings and,
# for AdamW at its defaults, three entries per parameter: the step count and
# the running means of the gradient and of its square, each of the
# parameter's shape. Parameters appear as numbers, in group order: loading
# the state dict into an optimiser built the same way
# (see :ref:`sphx_glr_auto_examples_training_plot_09_checkpoints_and_resuming.py`)
# matches them up by position.
optimizer.zero_grad()
F.cross_entropy(model(X), y).backward()
optimizer.step()
saved = optimizer.state_dict()
print("groups:", [group["params"] for group in saved["param_groups"]])
for key, value in saved["state"][0].items():
    print(f"  state[0][{key!r}]: shape {tuple(value.shape)}")

# %%
# .. check:: three entries per parameter, numbered in group order; loading matches them by position
assert [group["params"] for group in saved["param_groups"]] == [[0, 1], [2, 3]]
assert sorted(saved["state"][0]) == ["exp_avg", "exp_avg_sq", "step"]
assert saved["state"][0]["exp_avg"].shape == weights[0].shape
assert saved["state"][0]["step"].item() == 1
with torch.random.fork_rng(devices=[]):
    twin_params = list(MLP(64, [64], 10).parameters())  # weight, bias, weight, bias
twin_order = twin_params[0::2] + twin_params[1::2]
twin = torch.optim.AdamW([{"params": twin_order[:2]}, {"params": twin_order[2:]}])
twin.load_state_dict(saved)
for mine, theirs in zip(weights + biases, twin_order, strict=True):
    assert torch.equal(twin.state[theirs]["exp_avg"], optimizer.state[mine]["exp_avg"])
assert [g["weight_decay"] for g in twin.param_groups] == [0.01, 0.0]

# %%
# A learning-rate schedule
# ------------------------
# A :term:`learning-rate schedule` changes the rate as training goes. A common
# one rises linearly to the peak rate (a *warm-up*), so that the first steps
# from random weights are small, then decays along half a cosine towards 0.
# :class:`~torch.optim.lr_scheduler.LambdaLR` sets each group's rate to its
# initial rate times ``f(n)``, where ``n`` counts the scheduler's
# :meth:`~torch.optim.lr_scheduler.LRScheduler.step` calls (0 when it is
# created): calling ``scheduler.step()`` after each ``optimizer.step()`` makes
# optimiser step ``n`` use ``lr * f(n)``.
warmup = 15


def warmup_cosine(n: int) -> float:
    """The fraction of the peak rate that optimiser step ``n`` (from 0) uses."""
    if n < warmup:
        return (n + 1) / warmup
    return 0.5 * (1 + math.cos(math.pi * (n - warmup) / (steps - warmup)))


torch.manual_seed(0)
model = MLP(64, [64], 10)
optimizer = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, warmup_cosine)
rates, scheduled = [], []
for _ in range(steps):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(X), y)
    loss.backward()
    rates.append(optimizer.param_groups[0]["lr"])
    optimizer.step()
    scheduler.step()
    scheduled.append(loss.item())
peak = rates.index(max(rates))
print(f"rates: {rates[0]:.4f}, {rates[1]:.4f}, ..., {rates[peak]} at step {peak},")
print(f"..., {rates[-1]:.1e} at the last step, {steps - 1}")

# %%
# .. check:: optimiser step ``n`` uses ``lr * f(n)``
assert rates == [0.5 * warmup_cosine(n) for n in range(steps)]

# %%
# On the right, its loss against the constant-0.5 momentum run of *Four
# optimisers, one problem*. A schedule is no free gain: in this short
# full-batch run, where the loss fell at every step of the constant rate
# already, the constant rate ends with the lower loss.
fig, (ax_rate, ax_loss) = plt.subplots(1, 2, figsize=(9, 3.4), layout="constrained")
ax_rate.plot(range(steps), rates, color=PALETTE[5])
ax_rate.axvline(warmup - 0.5, color="grey", linestyle=":", linewidth=1)
ax_rate.set(xlabel="step", ylabel="learning rate", title="warm-up, then cosine")
constant = curves["SGD, momentum 0.9, lr 0.5"]
ax_loss.plot(range(steps), constant, color=PALETTE[7], label="constant 0.5")
ax_loss.plot(range(steps), scheduled, color=PALETTE[5], label="scheduled, peak 0.5")
ax_loss.set(xlabel="step", ylabel="training loss", yscale="log")
ax_loss.set_title("SGD, momentum 0.9")
ax_loss.legend()
plt.show()

# %%
# .. check:: the constant rate's loss fell at every step and ends lower than the schedule's
assert all(later < earlier for earlier, later in pairwise(constant))
assert scheduled[-1] > constant[-1]

# %%
# The order matters. A scheduler stepped before the optimiser has taken its
# first step warns, and the schedule's first rate is then never used: the
# optimiser's first step runs at ``f(1)``.
wrong = torch.optim.SGD(model.parameters(), lr=0.5)
wrong_scheduler = torch.optim.lr_scheduler.LambdaLR(wrong, warmup_cosine)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    wrong_scheduler.step()
print(f"{caught[0].category.__name__}: {str(caught[0].message).split('. ')[0]}")

# %%
# .. check:: the early scheduler step warns once, and the first optimiser step then uses ``f(1)``
assert len(caught) == 1
assert issubclass(caught[0].category, UserWarning)
assert wrong.param_groups[0]["lr"] == 0.5 * warmup_cosine(1)

# %%
# Gradient clipping
# -----------------
# :term:`Gradient clipping <gradient clipping>` with
# :func:`torch.nn.utils.clip_grad_norm_` treats all the gradients as one vector
# of length ``norm`` (the total norm) and multiplies every gradient by the
# same factor, at most 1: the gradients keep their direction, and a total norm
# above ``max_norm`` ends at ``max_norm``, up to rounding. That caps plain
# SGD's step at ``lr * max_norm``; with momentum (past gradients) or Adam (its
# division) the step can be longer. Call it between ``loss.backward()`` and
# ``optimizer.step()``; it returns the total norm *before* clipping.
#
# .. detail:: The exact factor
#
#    The factor is ``max_norm / (norm + 1e-6)``, capped at 1. A total norm of
#    at most ``max_norm - 1e-6`` is left as it was.
torch.manual_seed(0)
model = MLP(64, [64], 10)
F.cross_entropy(model(X), y).backward()
before = [p.grad.clone() for p in model.parameters()]
norm_by_hand = torch.linalg.vector_norm(torch.cat([g.flatten() for g in before]))
max_norm = 0.1
returned = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)
after = [p.grad for p in model.parameters()]
norm_after = torch.linalg.vector_norm(torch.cat([g.flatten() for g in after]))
print(f"total norm before: {returned:.4f} (by hand {norm_by_hand:.4f})")
print(f"total norm after:  {norm_after:.4f} (max_norm {max_norm})")
torch.testing.assert_close(returned, norm_by_hand)
torch.testing.assert_close(norm_after, torch.tensor(max_norm))

# %%
# .. check:: clipping keeps direction, ends at ``max_norm``, spares small norms; momentum, Adam go further
assert returned > max_norm
for g, clipped in zip(before, after, strict=True):
    torch.testing.assert_close(clipped, g * max_norm / (norm_by_hand + 1e-6))
for make in (partial(torch.optim.SGD, momentum=0.9), torch.optim.Adam):
    q = torch.zeros(2, requires_grad=True)
    opt = make([q], lr=0.1)
    for _ in range(2):
        previous, q.grad = q.detach().clone(), torch.tensor([3.0, -4.0])
        torch.nn.utils.clip_grad_norm_([q], max_norm=0.5)
        opt.step()
    assert torch.linalg.vector_norm(q.detach() - previous) > 0.1 * 0.5
kept = [p.grad.clone() for p in model.parameters()]
assert torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0) <= 1.0 - 1e-6
for p, k in zip(model.parameters(), kept, strict=True):
    assert torch.equal(p.grad, k)

# %%
# Summary
# -------
# - ``optimizer.step()`` updates in place every parameter whose ``.grad``
#   is not ``None``; plain SGD does ``p -= lr * p.grad``. Momentum adds up
#   past gradients in a buffer; Adam divides each element's step by the
#   root of a running mean of its squared gradients.
# - Which optimiser ends lowest depends on the rates: at the four rates
#   first tried here, SGD with momentum did, and plain SGD ended far behind.
# - ``Adam(weight_decay=wd)`` adds ``wd * p`` to the gradient, which Adam's
#   scaling then distorts; :class:`~torch.optim.AdamW` multiplies the
#   weights by ``1 - lr * wd`` separately, whatever the gradients' size.
# - Parameter groups give parameters their own settings (no decay for
#   biases); ``state_dict()`` holds the settings and the per-parameter state.
# - Call ``scheduler.step()`` after ``optimizer.step()``; ``LambdaLR``
#   follows any function of the step count, such as warm-up then cosine.
# - :func:`~torch.nn.utils.clip_grad_norm_`, between backward and step, caps
#   the gradients' total norm (and, for plain SGD, the step's length).
#
# Next: :ref:`sphx_glr_auto_examples_training_plot_06_validation_and_overfitting.py`,
# which holds data out to see when training starts to overfit. Exercises for this
# page: :ref:`exercises-training-05`.
