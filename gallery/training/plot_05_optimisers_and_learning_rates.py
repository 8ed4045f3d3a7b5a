"""
Optimisers and learning rates
=============================

After this page you can write an optimiser's step by hand and check it
against PyTorch's. You can compare SGD, momentum, Adam and AdamW. You can
tell AdamW's weight decay from Adam's, and turn it off for the biases.

**Before this page:**
:ref:`sphx_glr_auto_examples_training_plot_01_building_a_model.py` and
:ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py`.
"""

# %%
# Every page starts by saying what computed it: here, the CPU.
from functools import partial

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
# An :term:`optimiser` holds the parameters it was given. Its
# :meth:`~torch.optim.Optimizer.step` updates them in place from their
# ``.grad``. :class:`torch.optim.SGD`, plain stochastic gradient descent,
# steps downhill by the :term:`learning rate` ``lr`` times the
# :term:`gradient`: ``p -= lr * p.grad``.
#
# The digits are the training-loop page's: 1,347 training images of
# 64 pixels. The site's :class:`~tutorial_utils.models.MLP` stacks linear
# layers with ReLU between them. ``MLP(64, [64], 10)`` has one hidden layer
# of 64 outputs and returns 10 :term:`logits`, one per digit. Each step uses
# all the images as one :term:`batch`. Below, one step by hand, under
# :class:`torch.no_grad`, then by SGD.
#
# .. detail:: Parameters without a gradient
#
#    ``step`` skips a parameter whose ``.grad`` is ``None``. It skips that
#    parameter's weight decay too, a setting taught below.
#    :meth:`~torch.optim.Optimizer.zero_grad` sets ``.grad`` to ``None``, as
#    on the training-loop page.
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
    difference = (p.detach() - expected).abs().max().item()  # detach: no graph
    shape = str(tuple(p.shape))
    print(f"{name:15} {shape:9} largest difference {difference:.1e}")
    torch.testing.assert_close(p.detach(), expected)

# %%
# .. check:: ``step`` skips a ``None`` ``.grad``, decay included; ``zero_grad`` sets it
kept, skipped = torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)
kept.grad = torch.zeros(2)
torch.optim.AdamW([kept, skipped], lr=0.1, weight_decay=0.01).step()
assert (kept < 1).all()
assert (skipped == 1).all()
torch.optim.SGD([kept], lr=0.1).zero_grad()
assert kept.grad is None

# %%
# .. check:: 1,347 images of 64 pixels; the model returns 10 logits each
assert X.shape == (1347, 64)
assert model(X).shape == (1347, 10)

# %%
# The two agree exactly. At other rates they may differ by float32
# rounding, which :func:`torch.testing.assert_close` allows.
#
# .. detail:: Why exactly
#
#    The rate 0.5 is a power of two, so ``0.5 * p.grad`` is exact for
#    sizes of at least about ``2.4e-38``. Below that, the half is smaller
#    than about ``1.2e-38``. There float32 keeps fewer bits, and halving can
#    lose the last one. At a rate such as 0.1, the product is rounded.

# %%
# .. check:: exact here; ``0.5 * g`` is exact unless tiny, ``0.1 * g`` is rounded
for p, expected in zip(model.parameters(), by_hand, strict=True):
    assert torch.equal(p.detach(), expected)
g = torch.cat([p.grad.flatten() for p in model.parameters()])
assert torch.equal((0.5 * g) * 2, g)
assert not torch.equal((0.1 * g).double(), 0.1 * g.double())
_full = torch.finfo(torch.float32).tiny  # the smallest full-precision size
assert 1.1e-38 < _full < 1.2e-38
assert 2.3e-38 < 2 * _full < 2.4e-38
_odd = torch.nextafter(torch.tensor([2 * _full]), torch.tensor([1.0]))
assert torch.equal((0.5 * _odd) * 2, _odd)  # from twice it, halving is exact
_below = torch.nextafter(torch.tensor([_full]), torch.tensor([1.0]))
assert not torch.equal((0.5 * _below) * 2, _below)  # below twice it, not always
_tiny = torch.tensor([1e-45])  # the smallest float32 above 0, far from normal
assert not torch.equal((0.5 * _tiny) * 2, _tiny)

# %%
# Momentum
# --------
# With ``momentum=mu``, SGD keeps a buffer ``b`` for each parameter, in
# ``optimizer.state[p]["momentum_buffer"]``. The first step sets ``b = g``,
# the gradient. Each later step sets ``b = mu * b + g``. Then ``p -= lr * b``.
# So :term:`momentum` adds up past gradients. For a constant ``g``, ``b``
# grows towards ``g / (1 - mu)``: ten times ``g`` for ``mu = 0.9``.
#
# Below, the loss is ``0.5 * (curvature * w**2).sum()``, with ``curvature``
# equal to ``[1, 10]``. Its gradient is ``curvature * w``. So the loss
# curves ten times more steeply along ``w[1]`` than along ``w[0]``. Three
# steps both ways:
#
# .. detail:: Other gradients, other settings
#
#    For a gradient that flips sign at every step, the terms partly cancel.
#    These formulas assume no weight decay and two of SGD's defaults:
#
#    1. ``dampening=d``, by default 0, makes later steps add ``(1 - d) * g``
#       to ``b``.
#    2. ``nesterov=True``, by default ``False``, steps by ``g + mu * b``,
#       not ``b``.
w = torch.tensor([1.0, -2.0], requires_grad=True)
curvature = torch.tensor([1.0, 10.0])
sgd_momentum = torch.optim.SGD([w], lr=0.05, momentum=0.9)
w_hand, buffer = w.detach().clone(), None  # detach alone would share w's memory
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
# .. check:: ``state[p]["momentum_buffer"]`` nears ``g / (1 - mu)``, less if ``g`` flips
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
# .. check:: ``dampening`` and ``nesterov`` change ``b`` and the step as stated
for d, nesterov in ((0.5, False), (0.0, True)):
    v = torch.tensor([1.0, -2.0], requires_grad=True)
    sgd_variant = torch.optim.SGD(
        [v], 0.05, momentum=0.9, dampening=d, nesterov=nesterov
    )
    v_hand, b = v.detach().clone(), None
    for _ in range(3):
        v.grad = curvature * v.detach()
        sgd_variant.step()
        g_hand = curvature * v_hand
        b = g_hand if b is None else 0.9 * b + (1 - d) * g_hand
        v_hand = v_hand - 0.05 * (g_hand + 0.9 * b if nesterov else b)
    torch.testing.assert_close(v.detach(), v_hand)

# %%
# Plain SGD would multiply ``w[0]`` by ``1 - 0.05`` at each step; momentum
# moves it further. Along the steep ``w[1]`` it overshoots, crossing 0. So
# momentum speeds up gentle slopes but can swing across steep ones.

# %%
# .. check:: momentum moves ``w[0]`` further than plain SGD; ``w[1]`` crosses 0
plain = torch.tensor([1.0, -2.0])
for _ in range(3):
    plain = plain - 0.05 * curvature * plain
torch.testing.assert_close(plain[0], torch.tensor(0.95**3))
assert w[0] < plain[0]
assert w[1] > 0 > plain[1]

# %%
# Four optimisers, one problem
# ----------------------------
# :class:`torch.optim.Adam` keeps two running averages per parameter: one of
# the gradient, one of its square. Each weights recent gradients most. Its
# step is ``lr`` times the first divided by ``sqrt(second) + eps``, element
# by element. ``eps = 1e-8`` keeps it from dividing by zero.
#
# On the first step the averages amount to ``g`` and ``g**2``. So Adam's
# first step moves each element by ``lr * g / (abs(g) + eps)``.
# That is almost exactly ``lr`` for gradients far above ``eps``. Without
# weight decay, scaling all gradients by one factor scales SGD's steps but
# not Adam's.
#
# .. detail:: Adam's averages, and its start-up correction
#
#    Each average keeps a fraction ``beta`` of its old value and adds
#    ``1 - beta`` of the new one. The defaults are ``betas=(0.9, 0.999)``.
#    Both averages start at zero. So after one step they hold ``0.1 * g``
#    and ``0.001 * g**2``. At step ``t``, Adam divides each by
#    ``1 - beta**t`` to undo that start. That gives the first step above.
#
# :class:`torch.optim.AdamW` differs from Adam only in its
# :term:`weight decay`, a pull of every weight towards 0, taught below.
# AdamW decays by default; Adam does not.
#
# Each optimiser takes 150 full-batch steps from the same initial weights.
# ``functools.partial`` fills in each recipe's settings; the loop adds
# ``model.parameters()``. The figure plots each loss on a log y-axis.
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
    print(f"{label:26} loss at step {steps}: {losses[-1]:.4f}")

fig, ax = plt.subplots(figsize=(6.5, 3.8), layout="constrained")
for colour, (label, losses) in zip((7, 5, 1, 2), curves.items(), strict=True):
    ax.plot(range(1, steps + 1), losses, color=PALETTE[colour], label=label)
ax.set(xlabel="step", ylabel="training loss (cross-entropy)", yscale="log")
ax.set_title("digits, one hidden layer, full-batch steps")
ax.legend()
plt.show()

# %%
# .. check:: without decay, scaling gradients scales SGD's steps, not Adam's
for make, factor in ((torch.optim.SGD, 100), (torch.optim.Adam, 1)):
    moves = []
    for scale in (1.0, 100.0):
        opt = make([q := torch.zeros(1, requires_grad=True)], lr=0.1)
        for g in [0.01] * 300 + [10.0]:  # small gradients, then a jump
            before, q.grad = q.item(), scale * torch.tensor([g])
            opt.step()
        moves.append(torch.tensor([q.item(), before - q.item()]))
    torch.testing.assert_close(moves[1], factor * moves[0])
assert moves[0][1] > 1.5 * 0.1  # Adam's step at the jump: well over lr
for make, factor in ((torch.optim.SGD, 100), (torch.optim.Adam, 1)):
    ends = []  # with weight decay, neither ratio holds
    for scale in (1.0, 100.0):
        opt = make([q := torch.ones(1, requires_grad=True)], lr=0.1, weight_decay=0.1)
        for _ in range(15):
            q.grad = scale * torch.tensor([1.0])
            opt.step()
        ends.append(1 - q.item())
    assert abs(ends[1] / ends[0] / factor - 1) > 0.005

# %%
# .. check:: Adam's first step: ``lr`` for large gradients, less near ``eps``
q = torch.ones(5, requires_grad=True)
q.grad = torch.tensor([1.0, -2.0, 4.0, 1e-8, 0.0])
adam_once = torch.optim.Adam([q], lr=0.1)
adam_once.step()
torch.testing.assert_close(adam_once.state[q]["exp_avg"], 0.1 * q.grad)
torch.testing.assert_close(adam_once.state[q]["exp_avg_sq"], 0.001 * q.grad**2)
first_step = 0.1 * q.grad / (q.grad.abs() + 1e-8)
torch.testing.assert_close(q.detach(), 1 - first_step)
torch.testing.assert_close(q.detach()[3:], torch.tensor([1 - 0.05, 1.0]))

# %%
# .. check:: each of Adam's averages weights a recent gradient above an older one
q = torch.zeros(2, requires_grad=True)
adam_order = torch.optim.Adam([q], lr=0.1)
for g in ([1.0, 0.0], [0.0, 1.0]):  # element 1's gradient is the more recent
    q.grad = torch.tensor(g)
    adam_order.step()
for average in ("exp_avg", "exp_avg_sq"):
    assert adam_order.state[q][average][1] > adam_order.state[q][average][0]

# %%
# .. check:: only AdamW decays by default, its only difference from Adam
assert torch.optim.AdamW([w]).defaults["weight_decay"] == 0.01
assert torch.optim.Adam([w]).defaults["weight_decay"] == 0
twins = [torch.ones(3, requires_grad=True) for _ in range(2)]
adamw_no_decay = torch.optim.AdamW([twins[1]], lr=0.01, weight_decay=0.0)
pair = torch.optim.Adam([twins[0]], lr=0.01), adamw_no_decay
for n in range(5):
    for t, opt in zip(twins, pair, strict=True):
        t.grad = torch.tensor([1.0, -0.5, 0.2]) * (n + 1)
        opt.step()
torch.testing.assert_close(twins[0], twins[1])

# %%
# At these rates, plain SGD's last loss is more than five times that of any
# other. SGD with momentum ends lowest. Adam and AdamW
# end within 10 % of each other. Other rates can change the order: Adam at
# 0.03 ends lowest of all.

# %%
# .. check:: plain SGD ends far behind, momentum lowest, Adam and AdamW within 10 %
sgd, momentum, adam, adamw = (curves[label][-1] for label in recipes)
assert sgd > 5 * max(momentum, adam, adamw)
assert momentum < min(adam, adamw)
assert abs(adamw / adam - 1) < 0.1

# %%
# .. check:: Adam at 0.03 ends lowest of all
lowest = min(curves[label][-1] for label in recipes)
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(0)
    net = MLP(64, [64], 10)
opt = torch.optim.Adam(net.parameters(), lr=0.03)
for _ in range(steps):
    opt.zero_grad()
    (last_loss := F.cross_entropy(net(X), y)).backward()
    opt.step()
assert last_loss.item() < lowest

# %%
# Weight decay: Adam against AdamW
# --------------------------------
# :term:`Weight decay <weight decay>` comes in two forms, for a weight ``p``
# with gradient ``g``:
#
# 1. The L2 form adds ``wd * p`` to ``g``. That is the same as adding
#    ``wd / 2 * (p**2).sum()`` to the loss: this term's gradient is ``wd * p``.
#    The L2 length of ``p`` is the square root of ``(p**2).sum()``, hence the
#    name. SGD, and Adam with its default settings, use this form for
#    ``weight_decay=wd``.
# 2. The decoupled form multiplies ``p`` by ``1 - lr * wd``, then steps
#    with ``g`` alone. AdamW does this.
#
# .. detail:: Adam's ``decoupled_weight_decay``
#
#    PyTorch 2.13's Adam has a ``decoupled_weight_decay`` setting, ``False``
#    by default. PyTorch 2.4's Adam lacks it. Set to ``True``, it makes Adam
#    step as AdamW does.
#
# For plain SGD the two forms give the same update:
# ``p - lr * (g + wd * p)`` equals ``(1 - lr * wd) * p - lr * g``.
#
# .. detail:: SGD with momentum
#
#    With momentum, ``wd * p`` is summed in the buffer like the gradients.
#    The shrink per step then grows well past ``lr * wd``.
#
# For Adam the two forms differ, because Adam divides by the gradient's
# size. Below, SGD, Adam and AdamW each take one step from three weights
# equal to 1, with ``p.grad`` set by hand.
#
# .. detail:: The formulas of the first step
#
#    Adam's first step moves each element by ``lr * g2 / (abs(g2) + eps)``,
#    where ``g2 = g + wd * p``. AdamW's is ``lr * wd * p`` plus
#    ``lr * g / (abs(g) + eps)``.
lr, wd = 0.1, 0.01
p0 = torch.tensor([1.0, 1.0, 1.0])
grad = torch.tensor([0.0, 0.1, -1.0])
after = {}
for optimizer_class in (torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW):
    # copies, so that each optimiser starts from the same weights and gradient
    p = p0.clone().requires_grad_()
    p.grad = grad.clone()
    optimizer_class([p], lr=lr, weight_decay=wd).step()
    after[optimizer_class.__name__] = p.detach()
    print(f"{optimizer_class.__name__:5}", [f"{v:.4f}" for v in p.tolist()])

# %%
# .. check:: the formulas hold; ``wd * p`` is the penalty's gradient; decoupled Adam is AdamW
eps = 1e-8  # Adam's and AdamW's default
assert torch.optim.Adam([w]).defaults["eps"] == eps
with_l2 = grad + wd * p0
_penalty_grad = torch.func.grad(lambda v: wd / 2 * (v**2).sum())(p0)
torch.testing.assert_close(_penalty_grad, wd * p0)
torch.testing.assert_close(after["SGD"], (1 - lr * wd) * p0 - lr * grad)
torch.testing.assert_close(after["SGD"], p0 - lr * with_l2)
torch.testing.assert_close(after["Adam"], p0 - lr * with_l2 / (with_l2.abs() + eps))
adamw_formula = (1 - lr * wd) * p0 - lr * grad / (grad.abs() + eps)
torch.testing.assert_close(after["AdamW"], adamw_formula)
q = p0.clone().requires_grad_()  # Adam, decoupled_weight_decay=True, if it exists
q.grad = grad.clone()
adam_defaults = torch.optim.Adam([q]).defaults
if "decoupled_weight_decay" in adam_defaults:
    assert adam_defaults["decoupled_weight_decay"] is False
    torch.optim.Adam([q], lr, weight_decay=wd, decoupled_weight_decay=True).step()
    torch.testing.assert_close(q.detach(), after["AdamW"])
else:
    assert torch.torch_version.TorchVersion(torch.__version__) < "2.13"

# %%
# .. check:: with momentum, the shrink per step grows past ``lr * wd``
q = torch.ones(1, requires_grad=True)
sgd_decay = torch.optim.SGD([q], lr=lr, momentum=0.9, weight_decay=wd)
for _ in range(60):
    previous, q.grad = q.item(), torch.zeros(1)
    sgd_decay.step()
assert 1 - q.item() / previous > 5 * lr * wd

# %%
# The first weight has a zero gradient, so only the decay moves it:
#
# - SGD and AdamW move it by ``lr * wd * p``.
# - Adam adds ``wd * p`` to the zero gradient, then divides this sum by its
#   size. So its first step moves it a full ``lr``.
#
# The other two weights have gradients 0.1 and -1:
#
# - Adding ``wd * p``, 0.01, keeps their signs. Adam's first step is about
#   ``lr`` against that sign. So here the decay barely changes it.
# - AdamW still takes ``lr * wd * p`` off each.
#
# So Adam's L2 decay depends on the gradients.

# %%
# .. check:: Adam's decay: a full step or barely any; SGD's and AdamW's: ``lr * wd``
downhill = lr * grad[1:].sign()
torch.testing.assert_close(p0[0] - after["SGD"][0], torch.tensor(lr * wd))
torch.testing.assert_close(p0[0] - after["AdamW"][0], torch.tensor(lr * wd))
torch.testing.assert_close(p0[0] - after["Adam"][0], torch.tensor(lr))
torch.testing.assert_close(after["Adam"][1:], p0[1:] - downhill)
torch.testing.assert_close(after["AdamW"][1:], (1 - lr * wd) * p0[1:] - downhill)
q = p0.clone().requires_grad_()  # Adam without decay: nearly equal for weights 1, 2
q.grad = grad.clone()
torch.optim.Adam([q], lr=lr).step()
assert (q.detach()[1:] - after["Adam"][1:]).abs().max() < lr * wd / 1000

# %%
# No decay for the biases
# -----------------------
# A bias only shifts an output, so biases are commonly left undecayed. An
# optimiser can hold several *parameter groups*, each with its own settings.
# Its constructor then takes a list of dictionaries, one per group. Each
# holds the group's ``"params"`` and the settings it changes. The settings
# a group does not name come from the optimiser's keyword arguments.
# ``optimizer.param_groups`` lists the groups.
#
# Each name from :meth:`~torch.nn.Module.named_parameters` ends in
# ``weight`` or ``bias``: a test on the name sorts them.
#
# .. detail:: Other layers' names
#
#    :class:`torch.nn.LSTM`, a layer for sequences, names its parameters
#    otherwise, such as ``weight_ih_l0``. This test would leave them out,
#    and the optimiser would never update them. So check that each
#    parameter lands in exactly one group.
torch.manual_seed(0)
model = MLP(64, [64], 10)
named = list(model.named_parameters())
weights = [p for name, p in named if name.endswith("weight")]
biases = [p for name, p in named if name.endswith("bias")]
print("names:", [name for name, p in named])
groups = [{"params": weights}, {"params": biases, "weight_decay": 0.0}]
optimizer = torch.optim.AdamW(groups, lr=0.01, weight_decay=0.01)
for group in optimizer.param_groups:
    size, decay = len(group["params"]), group["weight_decay"]
    print(f"{size} tensors: lr {group['lr']}, weight decay {decay}")

# %%
# .. check:: groups take the rest from the keyword arguments; here none is missed
settings = [(g["lr"], g["weight_decay"]) for g in optimizer.param_groups]
assert settings == [(0.01, 0.01), (0.01, 0.0)]
grouped = [p for group in optimizer.param_groups for p in group["params"]]
assert len(grouped) == len(named)
assert {id(p) for p in grouped} == {id(p) for _, p in named}
with torch.random.fork_rng(devices=[]):
    lstm_names = [name for name, _ in torch.nn.LSTM(2, 2).named_parameters()]
assert not any(name.endswith(("weight", "bias")) for name in lstm_names)

# %%
# Summary
# -------
# - Momentum adds up past gradients. Adam divides each element's step by
#   its gradients' typical size.
# - Which optimiser ends lowest depends on the rates.
# - Adam's L2 decay depends on the gradients. AdamW's does not.
# - Parameter groups hold their own settings.
#
# In depth: :ref:`sphx_glr_auto_examples_training_plot_55_schedules_and_clipping.py`.
# Next: :ref:`sphx_glr_auto_examples_training_plot_06_validation_and_overfitting.py`,
# on overfitting. Exercises: :ref:`exercises-training-05`.
