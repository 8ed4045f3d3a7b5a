"""
Mixed precision
===============

Run a model's matrix products in 16-bit floats with :class:`torch.autocast`:
bfloat16 on the CPU, float16 with a gradient scaler on a CUDA GPU; tell which
operations it runs in 16 bits and why float16 needs loss scaling; and measure
what mixed precision changes in accuracy and speed on your machine.
"""

# %%
# Every time on this page was measured on the machine named by the first two
# lines of output; the last section runs only on a machine with a CUDA GPU.
import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch.utils.benchmark import Timer
from torch.utils.data import DataLoader, TensorDataset

from tutorial_utils.colours import PALETTE
from tutorial_utils.data import load_digits_tensors
from tutorial_utils.devices import device_name
from tutorial_utils.environment import environment_summary
from tutorial_utils.models import MLP
from tutorial_utils.timing import check_timing
from tutorial_utils.training import evaluate

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(environment_summary(device))
print(f"CPU: {device_name('cpu')}, {torch.backends.cpu.get_cpu_capability()}")

# %%
# Autocast on the CPU
# -------------------
# :term:`Mixed precision <mixed precision>` keeps a model's parameters in float32 and
# runs some of its operations in a 16-bit :term:`dtype`. Inside a ``with
# torch.autocast(device_type="cpu", dtype=torch.bfloat16):`` block, operations on CPU
# tensors are looked up in autocast's lists. Matrix products, convolutions and
# attention (``Linear``, ``matmul``, ``conv1d``, among others) that make a new
# tensor cast their float32 inputs to bfloat16 and return bfloat16. Operations that
# need float32's precision or range, such as most :term:`loss` functions, cast their
# inputs to float32. Unlisted operations run in the dtype their inputs give them, by
# each operation's own rule: a bfloat16 tensor ``+`` a float32 one of the same shape
# is float32. Here is one batch of the handwritten digits through a network with
# one hidden layer of 64 units:
#
# .. detail:: Other dtype rules
#
#    ``batch_norm`` of a bfloat16 input returns bfloat16 although its statistics
#    are float32. In-place operations, calls with ``out=`` and float64 tensors keep
#    their dtype; a call with ``dtype=`` returns that dtype.
digits = load_digits_tensors(seed=0)
inputs, labels = digits.train_features[:32], digits.train_labels[:32]
torch.manual_seed(0)
model = MLP(64, [64], 10)
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    hidden = model.layers[0](inputs)  # Linear
    activated = model.layers[1](hidden)  # ReLU
    logits = model.layers[2](activated)  # Linear
    log_probs = F.log_softmax(logits, dim=1)
    loss = F.cross_entropy(logits, labels)
steps = {"inputs": inputs, "Linear": hidden, "ReLU": activated, "Linear 2": logits}
for name, tensor in {**steps, "log_softmax": log_probs, "cross_entropy": loss}.items():
    print(f"{name:14} {tensor.dtype}")

# %%
# .. check:: CPU autocast: products and attention return bfloat16, losses float32, the rest by their rule
assert inputs.dtype == loss.dtype == torch.float32
assert all(t.dtype == torch.bfloat16 for t in (hidden, activated, logits, log_probs))
heads, stats, square = inputs.view(1, 2, 16, 64), torch.zeros(10), torch.empty(32, 32)
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    lowered = [F.conv1d(inputs[:, None], torch.ones(2, 1, 3)), inputs @ inputs.T]
    lowered += [F.scaled_dot_product_attention(heads, heads, heads)]
    lowered += [F.batch_norm(logits, stats, stats + 1), F.layer_norm(logits, (10,))]
    kept = [F.mse_loss(logits, log_probs), F.l1_loss(logits, log_probs)]
    kept += [F.nll_loss(log_probs, labels), logits + inputs[:, :10], logits.prod(1)]
    kept += [torch.mm(inputs, inputs.T, out=square), square.addmm_(inputs, inputs.T)]
    wide = inputs.double()
    as_asked = [logits.prod(1, dtype=torch.bfloat16), wide @ wide.T]
assert all(t.dtype == torch.bfloat16 for t in lowered)
assert all(t.dtype == torch.float32 for t in kept)
assert [t.dtype for t in as_asked] == [torch.bfloat16, torch.float64]

# %%
# The products returned bfloat16, ReLU kept its input's dtype, and the loss
# is float32. On the CPU, :func:`~torch.nn.functional.log_softmax` of bfloat16
# :term:`logits` stays bfloat16.
#
# Call ``backward`` after the block: as the :class:`torch.autocast`
# documentation says, backward operations run in the dtype that autocast chose
# for their forward ones anyway, so the :term:`gradients <gradient>` of
# bfloat16 results such as the logits are bfloat16. The parameters stay
# float32, and so do their gradients: the backward of each cast turns a
# bfloat16 gradient back into float32. The logits differ from float32's by
# bfloat16's rounding, less than 1 % of the largest logit:
#
# .. detail:: log_softmax on a CUDA GPU
#
#    On the CPU, PyTorch 2.4 and 2.13 both keep ``log_softmax`` of bfloat16 logits
#    in bfloat16. Under CUDA autocast it is float32 (the last section shows it, on
#    a GPU): the lists, in the "Autocast Op Reference" of PyTorch's AMP
#    documentation, differ by device.
logits.retain_grad()  # keep a non-leaf tensor's gradient
loss.backward()
for name, parameter in model.named_parameters():
    print(f"{name:16} {parameter.dtype}, gradient {parameter.grad.dtype}")
logits_32 = model(inputs)
error = (logits.float() - logits_32).abs().max() / logits_32.abs().max()
print(f"largest difference / largest logit: {error:.1e}")
assert error < 0.01

# %%
# .. check:: the logits' gradient is bfloat16; the parameters and their gradients are float32
assert logits.grad.dtype == torch.bfloat16
for parameter in model.parameters():
    assert parameter.dtype == parameter.grad.dtype == torch.float32

# %%
# bfloat16 and float16
# --------------------
# Both 16-bit formats keep fewer bits than float32, in different places.
# :class:`torch.finfo` gives ``eps`` (the gap between 1 and the next number:
# the precision), ``max`` and ``tiny`` (the smallest positive normal number;
# see :ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py`):
formats = (torch.float32, torch.bfloat16, torch.float16)
f32, bf16, f16 = (torch.finfo(dtype) for dtype in formats)
for dtype, info in zip(formats, (f32, bf16, f16), strict=True):
    print(f"{dtype!s:15} eps {info.eps:.1e}, max {info.max:.2e}, tiny {info.tiny:.1e}")

# %%
# bfloat16 keeps float32's 8 exponent bits, and so its range (the same
# ``tiny``, a ``max`` within 1 %), but only 8 significant bits of float32's
# 24. float16 keeps 11, eight times bfloat16's precision, but only 5 exponent
# bits: its largest finite value is 65504 (from 65520 up, values round to
# ``inf``), and below ``tiny`` (6.1e-5) it has only *subnormal* numbers, with
# ever fewer significant bits, down to 2⁻²⁴ (6.0e-8). Values of at most half
# of that round to 0: :term:`underflow`. The relative error of rounding a
# float64 number to each format shows it: between float16's ``tiny`` and
# maximum, its error is at most ``eps / 2`` (dash-dotted), and bfloat16's at
# most its own, eight times larger, over the whole range drawn.
values = torch.logspace(-10, 6, 801, dtype=torch.float64)
fig, ax = plt.subplots(figsize=(6.5, 3.4), layout="constrained")
for dtype, colour in ((torch.bfloat16, PALETTE[5]), (torch.float16, PALETTE[6])):
    rounded = values.to(dtype).double()
    relative = ((rounded - values).abs() / values).clamp(min=1e-6)
    relative[rounded.isinf()] = float("nan")  # overflow: no finite error
    ax.loglog(values.numpy(), relative.numpy(), color=colour, label=str(dtype))
    ax.axhline(torch.finfo(dtype).eps / 2, color=colour, linestyle="-.", lw=1)
ax.axvline(f16.max, color=PALETTE[6], linestyle=":", label="float16 max")
ax.axvline(f16.tiny, color=PALETTE[6], linestyle="--", label="float16 tiny")
ax.set(xlabel="value", ylabel="relative rounding error", ylim=(1e-6, 2))
ax.set_title("rounding a float64 value to 16 bits")
ax.legend(loc="upper right", fontsize=8)
plt.show()

# %%
# .. check:: the formats' bits, range and ``tiny``; each rounds within ``eps / 2`` where the text says
assert (bf16.tiny, bf16.eps, f16.eps, f16.max) == (f32.tiny, 2**-7, 2**-10, 65504)
assert bf16.max > 0.99 * f32.max
normal = values[(values >= f16.tiny) & (values <= f16.max)]
for drawn, dtype in ((normal, torch.float16), (values, torch.bfloat16)):
    error_in_range = (drawn.to(dtype).double() - drawn).abs() / drawn
    assert error_in_range.max() <= torch.finfo(dtype).eps / 2
edges = torch.tensor([2.0**-24, 2.0**-25, 2.0**-25 * 1.01, 65519.0, 65520.0])
rounded_edges = [2.0**-24, 0, 2.0**-24, f16.max, float("inf")]
assert edges.half().tolist() == rounded_edges
assert torch.tensor(1e5).bfloat16().isfinite()

# %%
# Loss scaling
# ------------
# Under float16 autocast, the gradients of float16 results are float16, and
# small ones underflow to 0. :term:`Loss scaling <loss scaling>` multiplies the
# loss by a large factor S before ``backward``: every gradient comes out S times
# larger (backward is linear), above the underflow, and dividing the
# parameters' float32 gradients by S before the :term:`optimiser` step gives
# them back. Four small gradients, cast to bfloat16 and to float16 as they
# are, and scaled by 2¹⁶ before the cast to float16, then divided in float32:
# float16 rounds 1e-8 and 1e-10 to 0, and 1e-6, a subnormal, with an error
# above its ``eps / 2``; bfloat16 keeps all four within its ``eps / 2``; the
# scaled ones come back within 1 % (1e-10 times 2¹⁶ is subnormal, above 2⁻²⁴).
grads = torch.tensor([1e-3, 1e-6, 1e-8, 1e-10])
scale = 2.0**16
brain, plain = grads.bfloat16().float(), grads.half().float()
scaled = (grads * scale).half().float() / scale
for name, row in [("float32", grads), ("bfloat16", brain), ("float16", plain)]:
    print(f"{name:16} {row}")
print(f"{'float16, scaled':16} {scaled}")

# %%
# .. check:: float16 loses the two smallest and rounds 1e-6 coarsely; bfloat16 and scaling keep all four
assert (plain[2:] == 0).all()
assert abs(plain[1] / grads[1] - 1) > f16.eps / 2
assert f16.tiny > grads[3] * scale > 2.0**-24
torch.testing.assert_close(brain, grads, rtol=bf16.eps / 2, atol=0)
torch.testing.assert_close(scaled, grads, rtol=1e-2, atol=0)
loss_32 = F.cross_entropy(model(inputs), labels)
one = torch.autograd.grad(loss_32, model.parameters(), retain_graph=True)
big = torch.autograd.grad(loss_32 * scale, model.parameters())
for unscaled, scaled_up in zip(one, big, strict=True):
    torch.testing.assert_close(scaled_up, unscaled * scale)

# %%
# ``torch.amp.GradScaler`` does this in a training loop: ``scaler.scale(loss)``
# multiplies the loss by the current scale (2¹⁶ at first);
# ``scaler.step(optimizer)`` divides the gradients by it and takes the step,
# or skips it if a gradient is ``inf`` or NaN (its documentation: often in
# the first few steps, as the scale calibrates); ``scaler.update()`` halves the
# scale after a skipped step and doubles it after 2000 steps in a row without
# one (the defaults). A CPU scaler shows this, with an ``inf`` planted first.
weight = torch.nn.Parameter(torch.ones(2))
sgd = torch.optim.SGD([weight], lr=0.1)
scaler = torch.amp.GradScaler("cpu")
print(f"scale at first: {scaler.get_scale():g}")
history = []
for second_input in (float("inf"), 1.0):
    sgd.zero_grad()
    scaler.scale((weight * torch.tensor([1.0, second_input])).sum()).backward()
    scaler.step(sgd)
    scaler.update()
    print(f"weight {weight.detach()}, next scale {scaler.get_scale():g}")
    history.append((weight.tolist(), scaler.get_scale()))

# %%
# .. check:: the step with ``inf`` is skipped and the scale halved; the next is taken; the scaler's defaults
assert history[0] == ([1.0, 1.0], 2.0**15), "the step was skipped, the scale halved"
torch.testing.assert_close(weight, torch.full((2,), 0.9), rtol=0, atol=1e-6)
growth = scaler.get_growth_interval(), scaler.get_growth_factor()
assert (*growth, scaler.get_backoff_factor()) == (2000, 2.0, 0.5)


# %%
# The accuracy cost
# -----------------
# Two training runs on the handwritten digits, the same in everything but
# autocast: the same seed gives both the same initial weights and, epoch by
# :term:`epoch`, the same order of :term:`batches <batch>`, as neither run draws
# other random numbers (the generator ends in the same state).
# ``enabled=`` turns autocast off without changing the code; the loss is
# computed inside the block, ``backward`` and the step outside.
def train_digits(use_autocast: bool, epochs: int = 15) -> tuple[MLP, list[float]]:
    torch.manual_seed(0)
    dataset = TensorDataset(digits.train_features, digits.train_labels)
    loader = DataLoader(dataset, batch_size=64, shuffle=True)
    net = MLP(64, [64], 10)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    epoch_losses = []
    for _ in range(epochs):
        total = 0.0
        for features, targets in loader:
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=use_autocast):
                batch_loss = F.cross_entropy(net(features), targets)
            optimizer.zero_grad()
            batch_loss.backward()
            optimizer.step()
            total += batch_loss.item() * len(targets)
        epoch_losses.append(total / len(dataset))
    return net, epoch_losses


net_32, losses_32 = train_digits(use_autocast=False)
generator_state = torch.get_rng_state()
net_16, losses_16 = train_digits(use_autocast=True)

# %%
# .. check:: both runs leave the random number generator in the same state
assert torch.equal(torch.get_rng_state(), generator_state)

# %%
# Both networks are evaluated on the 450 test images in float32, and the
# bfloat16-trained one also under autocast, as it would run if inference used
# autocast too:
test_batches = [(digits.test_features, digits.test_labels)]
results = {"trained in float32": evaluate(net_32, test_batches)}
results["trained in autocast"] = evaluate(net_16, test_batches)
with torch.autocast("cpu", dtype=torch.bfloat16):
    results["trained and tested in autocast"] = evaluate(net_16, test_batches)
for name, result in results.items():
    print(f"{name:31} test loss {result.loss:.4f}, accuracy {result.accuracy:.1%}")
first, last = losses_16[0] / losses_32[0] - 1, losses_16[-1] / losses_32[-1] - 1
print(f"training loss ratio - 1: first epoch {first:+.1e}, last epoch {last:+.1e}")
reference = results["trained in float32"]

# %%
# .. check:: the losses within 1 % and 5 %, the test accuracies within 9 of the 450 images
assert len(digits.test_labels) == 450
for result in results.values():
    assert round(abs(result.accuracy - reference.accuracy) * 450) <= 9
    assert abs(result.loss / reference.loss - 1) < 0.05
assert abs(first) < 1e-2

# %%
# The checks are bounds for any machine, not the gaps printed above: the
# first epoch's training losses within 1 %, the test accuracies within 9 of
# the 450 images (two percentage points), the test losses within 5 %; for one
# small network on one data set. Measure on yours before relying on it.
#
# Is it faster?
# -------------
# A bfloat16 matrix product reads half the bytes of a float32 one, and CPUs
# with bfloat16 instructions can compute it faster; elsewhere it can be
# slower. Timed here, with autocast off and on: a 512-by-512
# product and a training step of the digits network (32 images); and the
# step's first product (32 by 64 times 64 by 64) with its operands already
# float32 or bfloat16, so without casts. Each time is the quickest block of
# calls a :class:`~torch.utils.benchmark.Timer` measured (one thread, its
# default); faster means above 1.5 times float32's speed, slower below 1 / 1.5.
#
# .. detail:: bfloat16 instructions
#
#    On x86 CPUs they are AVX512-BF16, on some recent AMD and Intel CPUs, and
#    AMX, on Intel Xeons since Sapphire Rapids; Arm CPUs have bfloat16
#    instructions of their own. The CPU's flags (``lscpu`` on Linux) list them;
#    no documented value of :func:`torch.backends.cpu.get_cpu_capability`
#    (printed at the top) names them.
a, b = torch.randn(512, 512), torch.randn(512, 512)
step_sgd = torch.optim.SGD(net_16.parameters(), lr=0.01)
autocast = "with torch.autocast('cpu', dtype=torch.bfloat16, enabled={}):\n"
step = autocast + "    step_loss = F.cross_entropy(net_16(inputs), labels)\n"
step += "step_sgd.zero_grad()\nstep_loss.backward()\nstep_sgd.step()"
product, layer_weight = autocast + "    a @ b", net_16.layers[0].weight.detach()
cases = {
    name: [Timer(stmt.format(on), globals=globals()) for on in (False, True)]
    for name, stmt in (("512 x 512 product", product), ("training step", step))
}
cases["first product, no casts"] = [
    Timer("x @ w.T", globals={"x": inputs.to(dtype), "w": layer_weight.to(dtype)})
    for dtype in (torch.float32, torch.bfloat16)
]
for name, timers in cases.items():
    seconds = [min(t.blocked_autorange(min_run_time=0.2).times) for t in timers]
    speed = seconds[0] / seconds[1]
    verdict = "slower" if speed < 1 / 1.5 else "no clear gain"
    verdict = "faster" if speed > 1.5 else verdict
    float32_us, bfloat16_us = (f"{t * 1e6:.0f} us" for t in seconds)
    print(f"{name}: {float32_us} and {bfloat16_us}, {speed:.1f} x, {verdict}")

# %%
# .. check:: the autocast product is one bfloat16 rounding of the exact product of the casts
with torch.autocast("cpu", dtype=torch.bfloat16):
    product_16 = a @ b
exact = a.bfloat16().double() @ b.bfloat16().double()  # no rounding but the casts'
torch.testing.assert_close(product_16.double(), exact, rtol=bf16.eps / 2, atol=1e-3)

# %%
# The verdicts are this machine's. The autocast product's time includes
# casting ``a`` and ``b`` to bfloat16; each element of its result is within
# bfloat16's ``eps / 2``, relative, of the exact product of the casts: one
# rounding (``atol`` allows for float32 sums). Where the last line
# says slower, the bfloat16 kernel itself is slower than float32's at the
# digits network's tiny size; for where the rest of the step's time goes, see
# :ref:`sphx_glr_auto_examples_performance_plot_03_profiling.py`.
#
# Float16 on a CUDA GPU
# ---------------------
# On a CUDA GPU, autocast's default dtype is float16 (the CPU's, bfloat16),
# used with a :class:`torch.amp.GradScaler`: in the loop above, ``backward``
# and the step become ``scaler.scale(loss).backward()``,
# ``scaler.step(optimizer)`` and ``scaler.update()``. bfloat16, with float32's
# range, needs no scaler; NVIDIA GPUs of compute capability 8.0 and later
# compute it natively. On a GPU, this cell trains the same
# network, prints the dtypes and the test accuracy beside the float32 run's,
# and times a 4096-by-4096 product.
#
# .. detail:: Asking for bfloat16 support
#
#    On those NVIDIA GPUs, ``torch.cuda.is_bf16_supported(False)`` is True. On
#    ROCm builds it is True for any GPU.
if torch.cuda.is_available():
    torch.manual_seed(0)
    dataset = TensorDataset(digits.train_features, digits.train_labels)
    loader = DataLoader(dataset, batch_size=64, shuffle=True)
    gpu_net = MLP(64, [64], 10).to(device)
    optimizer = torch.optim.SGD(gpu_net.parameters(), lr=0.1, momentum=0.9)
    scaler = torch.amp.GradScaler("cuda")
    for _ in range(len(losses_32)):
        for features, targets in loader:
            features, targets = features.to(device), targets.to(device)
            with torch.autocast(device_type="cuda", dtype=torch.float16):
                gpu_logits = gpu_net(features)
                gpu_log_probs = F.log_softmax(gpu_logits, dim=1)
                gpu_loss = F.cross_entropy(gpu_logits, targets)
            optimizer.zero_grad()
            scaler.scale(gpu_loss).backward()
            scaler.step(optimizer)
            scaler.update()
    gpu_grad = gpu_net.layers[0].weight.grad
    dtypes = [t.dtype for t in (gpu_logits, gpu_log_probs, gpu_loss, gpu_grad)]
    print("logits, log_softmax, loss, gradient:", *dtypes)
    gpu_result = evaluate(gpu_net, test_batches, device=device)
    print(f"test accuracy {gpu_result.accuracy:.1%}, float32 {reference.accuracy:.1%}")
    x16, y16 = torch.randn(2, 4096, 4096, device=device).half()
    x32, y32 = x16.float(), y16.float()  # the same values
    timers = [Timer(f"x{bits} @ y{bits}", globals=globals()) for bits in (32, 16)]
    seconds = [min(t.blocked_autorange(min_run_time=0.2).times) for t in timers]
    speed = seconds[0] / seconds[1]
    print(f"4096 x 4096 product: float16 {speed:.1f} x float32's speed")
    tensor_cores = {(7, 0), (8, 0), (9, 0), (10, 0)}  # on NVIDIA GPUs
    if torch.version.hip is None and torch.cuda.get_device_capability() in tensor_cores:
        check_timing("float16 is faster", speed, above=2, clock="wall clock")
else:
    print("torch.cuda.is_available() is False: no GPU here, nothing ran on one.")

# %%
# .. check:: autocast is float16 on CUDA; the GPU's dtypes and accuracy; no TF32; one float16 rounding
autocast_dtypes = [torch.get_autocast_dtype(kind) for kind in ("cpu", "cuda")]
assert autocast_dtypes == [torch.bfloat16, torch.float16]
if torch.cuda.is_available():
    assert dtypes == [torch.float16, torch.float32, torch.float32, torch.float32]
    assert round(abs(gpu_result.accuracy - reference.accuracy) * 450) <= 9
    assert torch.get_float32_matmul_precision() == "highest"  # no TF32
    _error = ((x16 @ y16).float() - x32 @ y32).norm() / (x32 @ y32).norm()
    assert _error < f16.eps / 2, "more than one float16 rounding of each element"

# %%
# A Timer synchronises the GPU before reading the clock: these are the products' times,
# not their launches'. The float32 product does not use :term:`TF32` (the default), and
# float16's differs from it by less than one float16 rounding, ``eps / 2``, in relative
# norm. How much faster float16 is depends on the GPU: the check asks for
# over twice float32's speed only on NVIDIA GPUs of compute capability 7.0, 8.0, 9.0 or
# 10.0 (V100, A100, H100 and H200, B200, among others), all with tensor cores.
#
# Summary
# -------
# - ``with torch.autocast(device_type=..., dtype=...):`` around the forward
#   pass and the loss; ``backward`` and the optimiser step outside it.
# - It runs products in the 16-bit dtype and most losses in float32 (on CUDA
#   also softmax, ``layer_norm``, ``exp``, ``log``, sums and more); the rest
#   in the dtype their inputs give. Backward follows the forward's dtypes;
#   parameters and their gradients stay float32.
# - bfloat16 has float32's range and 8 significant bits; float16 has 11, but
#   small gradients underflow: scale the loss, ``torch.amp.GradScaler("cuda")``.
# - Speed depends on the hardware, so measure it: on CPUs without bfloat16
#   instructions, and for tiny layers, autocast can be slower.
#
# Next, :ref:`sphx_glr_auto_examples_performance_plot_05_torch_compile.py`
# compiles a model with :func:`torch.compile`. Exercises for this page:
# :ref:`exercises-performance-04`.
