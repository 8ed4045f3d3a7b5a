"""
Schedules and clipping
======================

After this page you can change the learning rate as training goes, with a
warm-up and a cosine decay. You can clip the gradients inside a training
loop. You can read what an optimiser's state dict holds. A first reading
can skip this in-depth page.

**Before this page:**
:ref:`sphx_glr_auto_examples_training_plot_05_optimisers_and_learning_rates.py`
and :ref:`sphx_glr_auto_examples_training_plot_09_checkpoints_and_resuming.py`.
"""

# %%
# Every page starts by saying what computed it: here, the CPU.
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
# A learning-rate schedule
# ------------------------
# As on the optimisers page, an :class:`~tutorial_utils.models.MLP` with one
# hidden layer trains on the digits: 150 full-batch steps of SGD with
# :term:`momentum` 0.9.
#
# A :term:`learning-rate schedule` changes the rate as training goes. A
# common one has two parts:
#
# 1. a *warm-up*: the rate rises linearly to its peak, so that the first
#    steps from random weights are small;
# 2. a decay along half a cosine curve, from the peak towards 0. It is
#    often meant to let the last steps settle.
#
# :class:`~torch.optim.lr_scheduler.LambdaLR` takes a function ``f``. It
# sets each group's rate to the group's initial rate times ``f(n)``:
#
# 1. ``n`` counts the calls of the scheduler's
#    :meth:`~torch.optim.lr_scheduler.LRScheduler.step`, from 0.
# 2. Building the scheduler already applies ``f(0)``.
# 3. So call ``scheduler.step()`` after each ``optimizer.step()``. Optimiser
#    step ``n`` then uses ``lr * f(n)``.
#
# Below, ``math.cos`` is Python's cosine. ``0.5 * (1 + cos(a))`` falls from
# 1 to 0 as the angle ``a`` goes from 0 to ``math.pi``.
warmup, steps = 15, 150


def warmup_cosine(n: int) -> float:
    """The fraction of the peak rate that optimiser step ``n`` (from 0) uses."""
    if n < warmup:
        return (n + 1) / warmup
    return 0.5 * (1 + math.cos(math.pi * (n - warmup) / (steps - warmup)))


# %%
# A constant rate is the schedule ``f(n) = 1``. The loop below runs both
# schedules from the same initial weights. It records the rate from
# ``optimizer.param_groups``.
#
# .. detail:: Steps 0, 14 and 15
#
#    The ``n + 1`` makes step 0 use ``1 / warmup`` of the peak, not 0. Steps
#    14 and 15 both use the peak: the warm-up's last step and the cosine's
#    first.
digits = load_digits_tensors(seed=0)
X, y = digits.train_features, digits.train_labels
curves, rates = {}, {}
for name, schedule in (("constant", lambda n: 1.0), ("scheduled", warmup_cosine)):
    torch.manual_seed(0)
    model = MLP(64, [64], 10)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, schedule)
    curves[name], rates[name] = [], []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(X), y)
        loss.backward()
        rates[name].append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
        curves[name].append(loss.item())
    print(f"{name:9} loss at the last step, {steps - 1}: {curves[name][-1]:.4f}")
scheduled_rates = rates["scheduled"]
peak = scheduled_rates.index(max(scheduled_rates))
print(f"rates: {scheduled_rates[0]:.4f}, {scheduled_rates[1]:.4f}, ...,", end=" ")
print(f"{scheduled_rates[peak]} at step {peak}, ...,", end=" ")
print(f"{scheduled_rates[-1]:.1e} at the last step")

# %%
# .. check:: optimiser step ``n`` uses ``lr * f(n)``
assert scheduled_rates == [0.5 * warmup_cosine(n) for n in range(steps)]
assert rates["constant"] == [0.5] * steps

# %%
# .. check:: ``0.5 * (1 + cos(a))`` falls from 1 to 0 as ``a`` goes to π
_angles = [n * math.pi / 100 for n in range(101)]
_cosines = [0.5 * (1 + math.cos(a)) for a in _angles]
assert _cosines[0] == 1
assert abs(_cosines[-1]) < 1e-15
assert all(later < earlier for earlier, later in pairwise(_cosines))

# %%
# .. check:: step 0 uses ``1 / warmup`` of the peak; steps 14 and 15 the peak
assert scheduled_rates[0] == 0.5 / warmup
assert scheduled_rates[warmup - 1] == scheduled_rates[warmup] == 0.5

# %%
# The figure shows the rate, left, and both losses, right.
# ``ax.axvline`` draws a vertical line, here between steps 14 and 15, where
# the warm-up ends.
#
# A schedule is no free gain. In this short run, the constant rate's loss
# fell at every step, and it ends lower.
fig, (ax_rate, ax_loss) = plt.subplots(1, 2, figsize=(9, 3.4), layout="constrained")
ax_rate.plot(range(steps), scheduled_rates, color=PALETTE[5])
ax_rate.axvline(warmup - 0.5, color="grey", linestyle=":", linewidth=1)
ax_rate.set(xlabel="step", ylabel="learning rate", title="warm-up, then cosine")
constant, scheduled = curves["constant"], curves["scheduled"]
ax_loss.plot(range(steps), constant, color=PALETTE[7], label="constant 0.5")
ax_loss.plot(range(steps), scheduled, color=PALETTE[5], label="scheduled, peak 0.5")
ax_loss.set(xlabel="step", ylabel="training loss", yscale="log")
ax_loss.set_title("SGD, momentum 0.9")
ax_loss.legend()
plt.show()

# %%
# .. check:: the constant rate's loss fell at every step and ends lower
assert all(later < earlier for earlier, later in pairwise(constant))
assert scheduled[-1] > constant[-1]

# %%
# A scheduler stepped before the optimiser's first step warns. The
# schedule's first rate is then never used: the optimiser's first step runs
# at ``f(1)``. The code prints the warning's first sentence.
#
# .. detail:: Catching warnings
#
#    Python's :class:`warnings.catch_warnings` with ``record=True`` collects
#    the warnings in a list instead of showing them.
#    ``warnings.simplefilter`` with ``"always"`` makes it keep every one.
#    Each has a ``category``, its class.
wrong = torch.optim.SGD(model.parameters(), lr=0.5)
wrong_scheduler = torch.optim.lr_scheduler.LambdaLR(wrong, warmup_cosine)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    wrong_scheduler.step()
print(f"{caught[0].category.__name__}: {str(caught[0].message).split('. ')[0]}")

# %%
# .. check:: an early scheduler step warns; the first step then uses ``f(1)``
assert len(caught) == 1
assert issubclass(caught[0].category, UserWarning)
assert wrong.param_groups[0]["lr"] == 0.5 * warmup_cosine(1)

# %%
# Gradient clipping
# -----------------
# Plain SGD's step is ``lr`` times the gradient. So a rare, very large
# gradient throws the weights far. :term:`Gradient clipping <gradient clipping>`
# guards against that. :func:`torch.nn.utils.clip_grad_norm_` works in
# three steps:
#
# 1. It measures the *total norm*: with the default ``norm_type=2``, the
#    Euclidean length of all the gradients, laid end to end as one vector.
# 2. If that norm is above ``max_norm``, it multiplies every gradient by one
#    factor, which keeps their direction. For a usual ``max_norm``, the
#    total norm becomes ``max_norm``, up to rounding.
# 3. It returns the total norm from before clipping.
#
# So plain SGD without weight decay steps at most ``lr * max_norm``. With
# momentum or Adam, a step can be longer.
#
# ``clip_grad_norm_`` rewrites each ``.grad`` in place. So the code keeps
# copies in ``before``.
#
# .. detail:: The exact factor
#
#    A usual ``max_norm`` is one far above ``1e-6``. The factor is
#    ``max_norm / (norm + 1e-6)``, capped at 1. So:
#
#    1. A clipped norm ends just below ``max_norm``. When both are near
#       ``1e-6``, it ends far below.
#    2. A total norm up to ``max_norm - 1e-6`` gets the factor 1: it is
#       left as it was.
#    3. An infinite element makes the norm infinite and the factor 0. That
#       element becomes NaN and the others 0: clipping cannot save it.
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
# .. check:: clipping keeps the direction and ends just below ``max_norm``
assert returned > max_norm
assert norm_after < max_norm
for g, clipped in zip(before, after, strict=True):
    torch.testing.assert_close(clipped, g * max_norm / (norm_by_hand + 1e-6))

# %%
# .. check:: near ``1e-6`` the norm ends far below ``max_norm``; ``inf`` gives NaN
q = torch.zeros(1, requires_grad=True)
for size, expected in ((3e-6, 1.5e-6), (1.5e-6, 1.2e-6)):
    q.grad = torch.tensor([size])
    torch.nn.utils.clip_grad_norm_([q], max_norm=2e-6)
    torch.testing.assert_close(q.grad, torch.tensor([expected]))
q = torch.zeros(3, requires_grad=True)
q.grad = torch.tensor([math.inf, 1.0, 2.0])
torch.nn.utils.clip_grad_norm_([q], max_norm)
assert q.grad[0].isnan()
assert (q.grad[1:] == 0).all()

# %%
# .. check:: clipping caps plain SGD's step, not with decay, momentum or Adam
decayed = partial(torch.optim.SGD, weight_decay=1.0)
for make in (decayed, partial(torch.optim.SGD, momentum=0.9), torch.optim.Adam):
    q = torch.ones(2, requires_grad=True)
    opt = make([q], lr=0.1)
    for _ in range(2):
        previous, q.grad = q.detach().clone(), torch.tensor([3.0, -4.0])
        torch.nn.utils.clip_grad_norm_([q], max_norm=0.5)
        opt.step()
    assert torch.linalg.vector_norm(q.detach() - previous) > 0.1 * 0.5
q = torch.zeros(2, requires_grad=True)
q.grad = torch.tensor([3.0, -4.0])
torch.nn.utils.clip_grad_norm_([q], max_norm=0.5)
torch.optim.SGD([q], lr=0.1).step()
assert torch.linalg.vector_norm(q.detach()) <= 0.1 * 0.5

# %%
# .. check:: a total norm of at most ``max_norm - 1e-6`` is left as it was
kept = [p.grad.clone() for p in model.parameters()]
assert torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0) <= 1.0 - 1e-6
for p, k in zip(model.parameters(), kept, strict=True):
    assert torch.equal(p.grad, k)

# %%
# In a loop, clipping sits between ``loss.backward()`` and
# ``optimizer.step()``. Below, the scheduled run's first 50 steps are each
# clipped at total norm 0.1. The loop counts those whose norm was above it.
torch.manual_seed(0)
model = MLP(64, [64], 10)
optimizer = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, warmup_cosine)
clipped_steps, clipped_run = [], 50
for n in range(clipped_run):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(X), y)
    loss.backward()
    if torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm) > max_norm:
        clipped_steps.append(n)
    optimizer.step()
    scheduler.step()
print(f"clipped at {len(clipped_steps)} of {clipped_run} steps,", end=" ")
print(f"the last at step {clipped_steps[-1]}")
print(f"loss at step {n}: {loss.item():.4f}, without clipping {scheduled[n]:.4f}")

# %%
# Only the first steps were clipped, one after another. After them, the
# total norm stayed at or below 0.1. Here clipping had a cost: at step 49,
# the clipped run's loss is higher than the unclipped run's.

# %%
# .. check:: the first steps were clipped, with no gap; the loss ends higher
assert clipped_steps == list(range(len(clipped_steps)))
assert 0 < len(clipped_steps) < clipped_run
assert n == 49
assert loss.item() > scheduled[n]

# %%
# The optimiser's state dict
# --------------------------
# An optimiser's :term:`state dict` holds its settings and its state for
# each parameter. Below, AdamW holds two
# parameter groups: the weights with decay, the biases without. After one
# step, each parameter has three entries:
#
# 1. ``step``, a 0-d tensor that counts the steps;
# 2. ``exp_avg``, the running average of the gradient;
# 3. ``exp_avg_sq``, the running average of its square.
#
# The last two have the parameter's shape. Each average keeps a fraction
# ``beta`` of its old value and adds ``1 - beta`` of the new one. The
# defaults are ``betas=(0.9, 0.999)``. The averages start at zero, so after
# one step they hold ``0.1 * g`` and ``0.001 * g**2``.
#
# .. detail:: ``amsgrad``
#
#    The three entries hold with AdamW's default ``amsgrad=False``. With
#    ``amsgrad=True``, a fourth, ``max_exp_avg_sq``, keeps the largest
#    ``exp_avg_sq`` so far. Before the first step, the state is empty.
torch.manual_seed(0)
model = MLP(64, [64], 10)
named = list(model.named_parameters())
weights = [p for name, p in named if name.endswith("weight")]
biases = [p for name, p in named if name.endswith("bias")]
groups = [{"params": weights}, {"params": biases, "weight_decay": 0.0}]
optimizer = torch.optim.AdamW(groups, lr=0.01, weight_decay=0.01)
optimizer.zero_grad()
F.cross_entropy(model(X), y).backward()
optimizer.step()
saved = optimizer.state_dict()
print("groups:", [group["params"] for group in saved["param_groups"]])
for key, value in saved["state"][0].items():
    print(f"  state[0][{key!r}]: shape {tuple(value.shape)}")

# %%
# .. check:: ``step`` is 0-d; the averages hold ``0.1 * g`` and ``0.001 * g**2``
state = saved["state"][0]
assert state["step"].shape == ()
torch.testing.assert_close(state["exp_avg"], 0.1 * weights[0].grad)
torch.testing.assert_close(state["exp_avg_sq"], 0.001 * weights[0].grad ** 2)

# %%
# The parameters appear as numbers, in group order. Loading the state dict
# into an optimiser built the same way matches them up by position, as on
# the checkpoints page.

# %%
# .. check:: three entries per parameter, the parameters numbered in group order
assert [group["params"] for group in saved["param_groups"]] == [[0, 1], [2, 3]]
assert sorted(saved["state"][0]) == ["exp_avg", "exp_avg_sq", "step"]
assert saved["state"][0]["exp_avg"].shape == weights[0].shape
assert saved["state"][0]["step"].item() == 1
with torch.random.fork_rng(devices=[]):
    _q = torch.randn(2, requires_grad=True)
_amsgrad = torch.optim.AdamW([_q], amsgrad=True)
assert not _amsgrad.state_dict()["state"]
_q.grad = torch.ones(2)
_amsgrad.step()
assert sorted(_amsgrad.state[_q]) == ["exp_avg", "exp_avg_sq", "max_exp_avg_sq", "step"]

# %%
# .. check:: loading matches the parameters up by position
with torch.random.fork_rng(devices=[]):
    twin_params = list(MLP(64, [64], 10).parameters())  # weight, bias, weight, bias
twin_order = twin_params[0::2] + twin_params[1::2]
twin = torch.optim.AdamW([{"params": twin_order[:2]}, {"params": twin_order[2:]}])
twin.load_state_dict(saved)
for mine, theirs in zip(weights + biases, twin_order, strict=True):
    assert torch.equal(twin.state[theirs]["exp_avg"], optimizer.state[mine]["exp_avg"])
assert [g["weight_decay"] for g in twin.param_groups] == [0.01, 0.0]

# %%
# Summary
# -------
# - ``LambdaLR`` follows any function of the step count. Call
#   ``scheduler.step()`` after ``optimizer.step()``.
# - A schedule is no free gain: here the constant rate ended lower.
# - :func:`~torch.nn.utils.clip_grad_norm_`, between backward and step,
#   caps the gradients' total norm.
# - An optimiser's state dict holds its settings. For AdamW, after a step,
#   it holds a step count and two running averages per parameter.
#
# Exercises: :ref:`exercises-training-05`. Back to the lesson path:
# :ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`.
