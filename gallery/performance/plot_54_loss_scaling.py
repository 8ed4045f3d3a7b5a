"""
Loss scaling with GradScaler
============================

See what :class:`torch.amp.GradScaler` does for float16 training. After
this page you can tell which gradients a loss scale saves and which it loses.
You can follow the scale as the scaler skips steps and grows it, and use the
scaler with gradient clipping and checkpoints.

**Before this page:** :ref:`sphx_glr_auto_examples_performance_plot_04_mixed_precision.py`
and :ref:`sphx_glr_auto_examples_training_plot_09_checkpoints_and_resuming.py`.
"""

# %%
# Everything on this page runs on the CPU.
import matplotlib.pyplot as plt
import torch

from tutorial_utils.colours import PALETTE
from tutorial_utils.environment import environment_summary

device = torch.device("cpu")
print(environment_summary(device))

# %%
# The window that scaling moves
# -----------------------------
# float16 keeps a gradient nonzero and finite only inside a window of sizes.
# A float32 value rounds to the nearest float16 number. float16's smallest
# positive number is 2⁻²⁴, so a value of at most half that, 2⁻²⁵, rounds to
# 0. Its largest, ``max``, is 65504. Near ``max``, neighbouring float16
# numbers are 32 apart, so the next one would be 65536. A value from 65520
# up, halfway there, rounds to ``inf``. A
# :term:`loss scaling` factor S multiplies every gradient before the rounding
# and divides it after. So the window moves down by a factor S. The figure
# rounds gradient sizes from 1e-14 to 100 to float16, plain and scaled by
# S = 2¹⁶, and draws the relative error. Dashed lines mark 2⁻²⁵ / S, dotted
# lines ``max`` / S.
f16 = torch.finfo(torch.float16)
scale = 2.0**16
sizes = torch.logspace(-14, 2, 801, dtype=torch.float64)
fig, ax = plt.subplots(figsize=(6.5, 3.4), layout="constrained")
for s, colour in ((1.0, PALETTE[6]), (scale, PALETTE[2])):
    back = (sizes * s).half().double() / s
    relative = (back - sizes).abs() / sizes
    drawn = (relative > 0) & relative.isfinite()
    ax.loglog(sizes[drawn], relative[drawn], color=colour, label=f"S = {s:g}")
    ax.axvline(2.0**-25 / s, color=colour, linestyle="--", lw=1)
    ax.axvline(f16.max / s, color=colour, linestyle=":", lw=1)
ax.axhline(f16.eps / 2, color="grey", linestyle="-.", lw=1, label="eps / 2")
ax.set(xlabel="gradient size", ylabel="relative error", ylim=(1e-6, 2))
ax.set_title("a float16 gradient, scaled by S, rounded, divided by S")
ax.legend(loc="lower left", fontsize=8)
plt.show()

# %%
# .. check:: scaled by S: 0 up to 2⁻²⁵ / S, finite below 65520 / S, ``inf`` from it
back = (sizes * scale).half().double() / scale
relative = (back - sizes).abs() / sizes
bottom, top = 2.0**-25 / scale, f16.max / scale
assert (back[sizes <= bottom] == 0).all()
inside = (sizes > bottom) & (sizes <= top)
assert (back[inside] > 0).all()
assert back[inside].isfinite().all()
assert back[sizes >= 65520 / scale].isinf().all()
assert relative[(sizes >= f16.tiny / scale) & inside].max() <= f16.eps / 2
assert 0.99 < top < 65520 / scale < 1
between = torch.tensor([65505.0, 65519.0]) / scale  # above max / S, below 65520 / S
assert ((between * scale).half() == f16.max).all(), "finite, not inf"
edges = torch.tensor([2.0**-25, 65520.0])  # float32 values
inward = torch.nextafter(edges, torch.tensor([1.0, 0.0]))
assert edges.half().tolist() == [0, float("inf")]
assert inward.half().tolist() == [2.0**-24, f16.max]
ends = torch.tensor([0.0, f16.max], dtype=torch.float16)
smallest, under_max = torch.nextafter(ends, ends.flip(0)).tolist()
assert smallest == 2.0**-24
assert f16.max - under_max == 32  # a step of 32 from max gives 65536
assert (f16.max + 2**16) / 2 == 65520

# %%
# Scaled by S, a gradient comes back nonzero and finite from just above
# 2⁻²⁵ / S to just below 65520 / S. Its error is at most ``eps / 2`` in a
# narrower window, from ``tiny`` / S to ``max`` / S. With S = 2¹⁶, the top
# is just under 1, so a gradient of 1 already overflows to ``inf``. No
# single S suits every model and every step. So the scaler changes S as it
# goes.
#
# The scaler at work
# ------------------
# Each step, the scaler does three things:
#
# 1. ``scaler.scale(loss)`` multiplies the loss by the current scale, which
#    ``scaler.get_scale()`` returns: 2¹⁶ at first.
# 2. ``scaler.step(optimizer)`` divides the gradients by it and takes the
#    step. If a gradient is ``inf`` or NaN, it skips the step.
# 3. ``scaler.update()`` halves the scale after a skipped step. It doubles
#    the scale after ``growth_interval`` steps in a row without a skip: 2000
#    by default, 2 here. After a skip or a doubling, the count starts again.
#
# The loss ``(weight * x).sum()`` has the gradient ``x``. So an ``inf`` or a
# NaN in ``x`` plants one in the gradient. Planted by hand, they stand in for
# a float16 overflow. The loop plants one in each of its first two steps. It
# keeps each step's weight and next scale in ``history``, and prints them:
weight = torch.nn.Parameter(torch.ones(2))
sgd = torch.optim.SGD([weight], lr=0.1)
scaler = torch.amp.GradScaler("cpu", growth_interval=2)
print(f"scale at first: {scaler.get_scale():g}")
inf, nan = float("inf"), float("nan")
history = []
for x in ([1.0, inf], [nan, 1.0], [1.0, 1.0], [1.0, 1.0], [1.0, 1.0]):
    sgd.zero_grad()
    scaler.scale((weight * torch.tensor(x)).sum()).backward()
    scaler.step(sgd)
    scaler.update()
    history.append((weight.tolist(), scaler.get_scale()))
    print(f"x {x}: weight {history[-1][0]}, next scale {history[-1][1]:g}")

# %%
# .. check:: skips keep the weight and halve; two good steps double; defaults
assert [s for _, s in history] == [
    scale / 2,
    scale / 4,
    scale / 4,
    scale / 2,
    scale / 2,
]
assert history[0][0] == history[1][0] == [1.0, 1.0], "the steps were skipped"
torch.testing.assert_close(weight, torch.full((2,), 0.7), rtol=0, atol=1e-6)
default = torch.amp.GradScaler("cpu")
assert default.get_scale() == scale
assert (default.get_growth_interval(), default.get_growth_factor()) == (2000, 2.0)
assert default.get_backoff_factor() == 0.5

# %%
# The two skipped steps left the weight alone and halved the scale twice.
# Three good steps then moved the weight by 0.1 each. After the second one in
# a row, the scale doubled.
#
# Clipping and checkpoints
# ------------------------
# Two places in a real loop need care:
#
# 1. :term:`Gradient clipping <gradient clipping>` must see the true
#    gradients. Call ``scaler.unscale_(optimizer)`` before
#    ``torch.nn.utils.clip_grad_norm_``. It divides the gradients by the
#    scale in place, and the next ``scaler.step`` does not divide again.
# 2. A :term:`checkpoint` should hold ``scaler.state_dict()``, so that a
#    resumed run keeps its scale. A new scaler's ``load_state_dict`` puts it
#    back.
#
# Here the gradient is (3, 4), of norm 5, clipped to norm 1. The step
# changes the weight in place, so ``before`` keeps a copy, made by
# ``.clone()``:
sgd.zero_grad()
scaler.scale((weight * torch.tensor([3.0, 4.0])).sum()).backward()
print("scaled gradient:  ", weight.grad)
scaler.unscale_(sgd)
print("unscaled gradient:", weight.grad)
norm = torch.nn.utils.clip_grad_norm_([weight], max_norm=1.0)
print(f"norm {norm:.1f}, clipped to {weight.grad.norm():.1f}")
before = weight.detach().clone()
scaler.step(sgd)
scaler.update()
print("the step moved the weight by", before - weight.detach())
resumed = torch.amp.GradScaler("cpu")
resumed.load_state_dict(scaler.state_dict())
print(f"scale {scaler.get_scale():g}, resumed {resumed.get_scale():g}")

# %%
# .. check:: unscaled once: step is lr times the clipped gradient; resumed; in place
torch.testing.assert_close(before - weight.detach(), torch.tensor([0.06, 0.08]))
assert history[-1][1] == scale / 2, "the scale before this step"
assert resumed.get_scale() == scaler.get_scale() == scale, "doubled again"
assert resumed.state_dict() == scaler.state_dict()
spare = torch.nn.Parameter(torch.ones(2))  # the step writes into the weight itself
spare.grad, alias, address = torch.ones(2), spare.detach(), spare.data_ptr()
torch.optim.SGD([spare], lr=0.1).step()
assert spare.data_ptr() == address
assert torch.equal(alias, torch.full((2,), 0.9)), "detach() alone shares the memory"

# %%
# The clipped gradient is (0.6, 0.8). The step moved the weight by 0.1 times
# that: the scaler did not divide a second time. It was the second good step
# since the last doubling, so the scale doubled again. The resumed scaler
# has that scale too.
#
# Summary
# -------
# - Scaling by S moves float16's window of gradient sizes down by S. Below
#   it gradients still become 0; above it they overflow.
# - ``GradScaler`` skips a step with an ``inf`` or NaN gradient and halves
#   the scale. By default, it doubles the scale after 2000 good steps in a
#   row.
# - Call ``scaler.unscale_(optimizer)`` before clipping, and save
#   ``scaler.state_dict()`` in checkpoints.
#
# Next, :ref:`sphx_glr_auto_examples_performance_plot_05_torch_compile.py`
# compiles a model with :func:`torch.compile`.
