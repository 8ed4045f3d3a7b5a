"""
Batch normalisation
===================

After this page you can say what :class:`torch.nn.BatchNorm1d` computes in
training mode and in evaluation mode. You can follow its running estimates,
and say why a batch of shape ``(1, C)`` fails in training mode. This in-depth page
goes further than
:ref:`sphx_glr_auto_examples_training_plot_06_validation_and_overfitting.py`.
A first reading can skip it.

**Before this page:**
:ref:`sphx_glr_auto_examples_training_plot_06_validation_and_overfitting.py`.
"""

# %%
# The layers here are tiny, so the page runs on the CPU.
import matplotlib.pyplot as plt
import torch

from tutorial_utils.colours import PALETTE
from tutorial_utils.environment import environment_summary

print(environment_summary(torch.device("cpu")))

# %%
# Training mode: the batch's own statistics
# -----------------------------------------
# :class:`torch.nn.BatchNorm1d` is a :term:`batch normalisation` layer. Its
# input has shape ``(N, C)``: ``N`` samples of ``C`` features. It
# normalises each feature over the batch. This is meant to keep each
# feature's scale steady while training changes the earlier layers. That
# often lets training use larger steps. In :term:`training mode` it follows
# three steps for each feature:
#
# 1. It computes the mean and the variance ``σ²`` of the ``N`` values.
# 2. It subtracts the mean and divides by ``√(σ² + eps)``. The small
#    ``eps``, ``1e-5`` by default, keeps it from dividing by 0.
# 3. It multiplies by a learnt scale, ``weight``, and adds a learnt shift,
#    ``bias``. By default they start at 1 and 0.
#
# Here ``σ²`` is the sum of the squared distances from the mean, divided by
# ``N``. A tensor's ``var(dim=0, correction=0)`` computes that for each
# column. Its default, ``correction=1``, divides by ``N - 1`` instead.
#
# Here the scale is 1 and the shift 0. So each output feature has mean 0.
# Its variance, computed the same way, is ``σ² / (σ² + eps)``, almost 1.
# Below, ``randn``'s draws times ``[1.0, 2.0, 5.0]``, plus 10, form a batch
# of 8 samples. So the three features are drawn with standard deviations 1,
# 2 and 5 around 10.
# Seeding first gives the same draws on every run.
# ``BatchNorm1d(3)`` expects ``C = 3`` features. The output and the
# parameters require gradients, so ``.detach()`` drops that before printing.
#
# .. detail:: Features that do not vary
#
#    A feature constant across the batch comes out as one value for all
#    samples, 0 in exact arithmetic, but rounding moves it. With one thread,
#    37 samples of 10000.1 come out more than 0.1 from 0. For each value
#    ``x``, the layer computes ``x * a - mean * a``. Here
#    ``a = 1 / √(σ² + eps)``. It is at most ``1 / √eps``, about 316. Three
#    float32 roundings move it:
#
#    1. The batch mean is rounded, and ``a`` multiplies its error.
#    2. ``mean * a`` is rounded. For those samples it exceeds 2 million,
#       where float32 values lie 0.25 apart.
#    3. ``x * a`` is rounded too, unless the CPU code *fuses* the multiply
#       and the subtraction into one rounding.
#
#    So for a given constant, the value depends on the batch size, the CPU
#    code and the thread count: each split of the mean's sum over threads
#    rounds differently.
torch.manual_seed(0)
norm = torch.nn.BatchNorm1d(3)
batch = torch.randn(8, 3) * torch.tensor([1.0, 2.0, 5.0]) + 10
out = norm(batch).detach()
variances = out.var(dim=0, correction=0)
print(f"scale {norm.weight.detach()}, shift {norm.bias.detach()}")
print(f"largest |mean| {out.mean(dim=0).abs().max():.1e}, variances {variances}")

# %%
# .. check:: mean 0, variance σ²/(σ²+ε); scale 1, shift 0 by default; a constant: one value
sigma2 = batch.var(dim=0, correction=0)
torch.testing.assert_close(out.mean(dim=0), torch.zeros(3), atol=1e-6, rtol=0)
torch.testing.assert_close(variances, sigma2 / (sigma2 + norm.eps))
torch.testing.assert_close(variances, torch.ones(3), rtol=1e-3, atol=0)
assert norm.eps == 1e-5
assert torch.equal(norm.weight, torch.ones(3))
assert torch.equal(norm.bias, torch.zeros(3))
assert torch.nn.BatchNorm1d(3, affine=False).weight is None  # no scale at all
_constant = torch.nn.BatchNorm1d(1)(torch.full((8, 1), 7.0)).detach()
assert _constant.var() == 0  # one value for all samples
assert _constant.abs().max() < 1e-3  # 0 but for rounding
_n = len(batch)
torch.testing.assert_close(out.var(dim=0), variances * _n / (_n - 1))

# %%
# .. check:: one thread: 37 samples of 10000.1 give one value, over 0.1 from 0
_threads = torch.get_num_threads()
_runs = {}
try:
    for _t, _n in ((8, 37), (2, 37), (1, 8), (1, 37)):
        torch.set_num_threads(_t)
        _x = torch.full((_n, 1), 10000.1)
        _runs[_t, _n] = torch.native_batch_norm(_x, *[None] * 4, True, 0.1, 1e-5)
    _large = torch.nn.BatchNorm1d(1)(_x).detach()  # 37 samples, one thread
finally:
    torch.set_num_threads(_threads)
assert torch.equal(_large, _runs[1, 37][0])
assert _large.min() == _large.max()  # one value for all samples
assert _large.abs().min() > 0.1  # 0 in exact arithmetic
assert _runs[1, 8][0][0, 0] != _large[0, 0]  # depends on the batch size
assert len({_runs[_t, 37][0][0, 0].item() for _t in (1, 2, 8)}) > 1  # and threads
_mean, _alpha = _runs[1, 37][1:3]
assert _mean != _x[0, 0]  # the mean is rounded
assert _alpha <= 1.0001 / 1e-5**0.5  # at most 1 / √eps
assert round(1 / 1e-5**0.5) == 316
_p = _mean * _alpha  # rounded to float32
assert _p.double() != _mean.double() * _alpha.double()
assert 2e6 < _p < 2**22  # over 2 million
assert torch.nextafter(_p, 2 * _p) - _p == 0.25  # float32 values 0.25 apart
_separate = _x[0, 0] * _alpha - _p  # each value's product rounded too
_fused = (_x[0, 0].double() * _alpha.double() - _p.double()).float()  # not
assert _separate != _fused
assert _large[0, 0] == _separate or _large[0, 0] == _fused  # per CPU code path

# %%
# Running estimates
# -----------------
# The layer also keeps three *buffers*: tensors a module keeps that are not
# parameters. ``num_batches_tracked`` counts the calls in training mode.
# ``running_mean`` starts at 0 and ``running_var`` at 1. A training-mode call
# on a batch like this one updates both with the layer's ``momentum=0.1``:
# ``running_mean = 0.9 * running_mean + 0.1 * batch_mean``. ``running_var``
# follows the same rule, with the batch's variance computed with ``N - 1``,
# not ``N``.
#
# Here ``momentum`` is the weight of the new batch. An optimiser's
# :term:`momentum` is the weight of the old value instead. By default, SGD
# with momentum 0.9 computes ``buf = 0.9 * buf + grad``.
#
# .. detail:: Why ``N - 1``
#
#    Dividing by ``N`` gives the *biased* variance. Averaged over many
#    batches, it falls short of the variance the values are drawn from, by
#    the factor ``(N - 1) / N``. Dividing by ``N - 1`` gives the *unbiased*
#    variance, which does not.
print("running mean:", norm.running_mean)
print("running var: ", norm.running_var)
print("batches tracked:", norm.num_batches_tracked)

# %%
# .. check:: three buffers changed; the estimates moved 10 %, to mean and unbiased var
assert norm.momentum == 0.1
_fresh = torch.nn.BatchNorm1d(3).state_dict()
_changed = {k for k, v in norm.state_dict().items() if not torch.equal(v, _fresh[k])}
assert _changed == {"running_mean", "running_var", "num_batches_tracked"}
assert _changed == {name for name, _ in norm.named_buffers()}
assert norm.num_batches_tracked == 1
torch.testing.assert_close(norm.running_mean, 0.1 * batch.mean(dim=0))
torch.testing.assert_close(norm.running_var, 0.9 + 0.1 * batch.var(dim=0))

# %%
# .. check:: the estimate averages batches; SGD's momentum buffer sums gradients
_layer = torch.nn.BatchNorm1d(1)
_q = torch.zeros(1, requires_grad=True)
_sgd = torch.optim.SGD([_q], lr=0.0, momentum=0.9)
assert _sgd.defaults["dampening"] == 0  # by default
for _ in range(300):
    _layer(torch.tensor([[0.0], [2.0]]))  # every batch has mean 1
    _q.grad = torch.ones(1)  # every gradient is 1
    _sgd.step()
torch.testing.assert_close(_layer.running_mean, torch.tensor([1.0]))
torch.testing.assert_close(_sgd.state[_q]["momentum_buffer"], torch.tensor([10.0]))

# %%
# .. check:: averaged over batches, the biased variance is low by ``(N - 1) / N``
with torch.random.fork_rng(devices=[]):
    torch.manual_seed(0)
    _draws = torch.randn(20000, 8)  # 20000 batches of 8, from variance 1
assert abs(_draws.var(dim=1, correction=0).mean() - 7 / 8) < 0.02
assert abs(_draws.var(dim=1).mean() - 1) < 0.02

# %%
# Fed the same batch again and again, a new layer's running mean closes 10 %
# of the remaining gap each time. After ``k`` calls it has covered
# ``1 - 0.9 ** k`` of the way. The figure follows the running mean of the
# third feature, index 2, over 50 calls. ``axhline`` draws the batch's mean.
tracker = torch.nn.BatchNorm1d(3)
path = [tracker.running_mean[2].item()]
for _ in range(50):
    tracker(batch)
    path.append(tracker.running_mean[2].item())
fig, ax = plt.subplots(figsize=(6, 3), layout="constrained")
ax.plot(path, color=PALETTE[5], label="running_mean of feature 2")
ax.axhline(
    batch[:, 2].mean().item(), color=PALETTE[7], linestyle=":", label="batch mean"
)
ax.set(xlabel="calls in training mode", ylabel="value")
ax.legend()
plt.show()

# %%
# .. check:: after ``k`` calls the running mean has covered ``1 - 0.9 ** k`` of the way
_target = batch[:, 2].mean().item()
for _k, _value in enumerate(path):
    assert abs(_value - (1 - 0.9**_k) * _target) < 1e-4

# %%
# Evaluation mode: the running estimates
# --------------------------------------
# In evaluation mode the layer normalises with the running estimates instead,
# then applies the scale and shift. It leaves the estimates alone.
#
# In a model such as ``Sequential(Linear(2, 30), BatchNorm1d(30), ReLU())``,
# the layer normalises the 30 outputs of ``Linear`` before the activation.
# The model's ``.eval()`` switches it to evaluation mode with the other
# layers.
#
# In training mode, a sample's output depends on the other samples of its
# batch, through the batch's statistics. In evaluation mode it does not: the
# estimates are fixed. Below, under ``no_grad``, the batch goes through in
# evaluation mode. Then its first sample goes through alone, as
# ``batch[:1]``. It gives the same output as in the batch.
#
# The two modes give different outputs here. After the one training-mode
# call above, the estimates are still far from this batch's statistics.
#
# .. detail:: Without running estimates
#
#    With ``track_running_stats=False``, not the default, a layer keeps no
#    running estimates. Evaluation mode then uses the batch's statistics
#    too, and refuses a batch of one as well.
norm.eval()
with torch.no_grad():
    out_eval = norm(batch)
    alone = norm(batch[:1])
print("training mode, first sample:", out[0])
print("evaluation mode, in a batch:", out_eval[0])
print("evaluation mode, alone:     ", alone[0])

# %%
# .. check:: eval mode uses and keeps the estimates; a sample's output depends on its batch in training only
import copy

expected = (batch - norm.running_mean) / (norm.running_var + norm.eps).sqrt()
torch.testing.assert_close(out_eval, expected)
assert norm.track_running_stats
running = copy.deepcopy(norm.state_dict())
norm(batch)  # in evaluation mode again
assert all(torch.equal(norm.state_dict()[k], v) for k, v in running.items())
torch.testing.assert_close(alone, out_eval[:1])
assert not torch.allclose(out_eval, out, atol=0.5)
_copy = copy.deepcopy(norm).train()
assert not torch.allclose(_copy(batch[:2])[0], out[0])
with torch.random.fork_rng(devices=[]):
    _model = torch.nn.Sequential(torch.nn.Linear(2, 30), torch.nn.BatchNorm1d(30))
assert not _model.eval()[1].training  # eval() reaches the layer
_free = torch.nn.BatchNorm1d(3, track_running_stats=False).eval()
assert _free.running_mean is None
torch.testing.assert_close(_free(batch), out)

# %%
# A batch of one sample
# ---------------------
# In training mode the layer refuses a batch with exactly one value per
# feature. A batch of shape ``(1, C)`` is such a batch;
# :ref:`its atlas entry <error-batchnorm-one-value>` shows the error. Its variance is 0
# and each value equals its mean. So every output would be the shift,
# whatever the input. Evaluation mode took it above. Below,
# ``norm.train()`` puts the layer back in training mode. The refused call
# still adds 1 to ``num_batches_tracked``.
#
# .. detail:: Input with a length, and empty batches
#
#    Input may have shape ``(N, C, L)``, where ``L`` is a length, such as
#    a sequence's steps. Each feature then has ``N · L`` values, so one
#    sample with ``L = 2`` passes in training mode. An empty batch,
#    ``N = 0``, passes too, but only adds 1 to ``num_batches_tracked``.
norm.train()
try:
    norm(batch[:1])
except ValueError as error:
    print(f"ValueError: {error}")
else:  # runs only if nothing was raised
    raise AssertionError("a one-sample batch in training mode did not raise")

# %%
# .. check:: one sample: variance 0, the value is its mean; output would be the shift
_one = batch[:1]
assert (_one.var(dim=0, correction=0) == 0).all()
assert torch.equal(_one - _one.mean(dim=0), torch.zeros(1, 3))
_shift = torch.tensor([0.5, -1.0, 2.0])
_stats = _one.mean(dim=0), _one.var(dim=0, correction=0)
_out = torch.nn.functional.batch_norm(_one, *_stats, None, _shift)  # up to rounding
torch.testing.assert_close(_out, _shift.unsqueeze(0), atol=1e-4, rtol=0)

# %%
# .. check:: two values or one image pass, and none; refusals count; eval without estimates refuses
assert norm.num_batches_tracked == 2  # the refused call above counted
with torch.random.fork_rng(devices=[]):  # one sample, more than one value
    assert torch.nn.BatchNorm1d(3)(torch.randn(1, 3, 2)).shape == (1, 3, 2)
    _image = torch.randn(1, 3, 4, 4)  # one image of 3 channels, 4 by 4
    assert torch.nn.BatchNorm2d(3)(_image).shape == (1, 3, 4, 4)
_empty = torch.nn.BatchNorm1d(3)
assert _empty(torch.empty(0, 3)).shape == (0, 3)
assert _empty.num_batches_tracked == 1  # counted, but the estimates stay
assert torch.equal(_empty.running_mean, torch.zeros(3))
assert torch.equal(_empty.running_var, torch.ones(3))
_free = torch.nn.BatchNorm1d(3, track_running_stats=False).eval()
try:
    _free(batch[:1])
except ValueError:
    pass
else:
    raise AssertionError("eval mode without running estimates took one sample")

# %%
# Summary
# -------
# - In training mode, :class:`~torch.nn.BatchNorm1d` normalises each feature
#   with the batch's mean and variance ``σ²``, then scales and shifts.
# - Training-mode calls on batches like these move ``running_mean`` and
#   ``running_var`` by ``momentum``, 10 %, towards the batch's mean and its
#   variance computed with ``N - 1``.
# - In evaluation mode it uses those estimates, by default, so a sample's
#   output no longer depends on its batch.
# - In training mode it refuses a batch with one value per feature.
#
# Next: the section's exercises,
# :ref:`sphx_glr_auto_examples_training_plot_90_training_exercises.py`.
