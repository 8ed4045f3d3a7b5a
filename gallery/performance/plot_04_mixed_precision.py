"""
Mixed precision
===============

Run a model in 16-bit floats with :class:`torch.autocast`. After this page
you can tell which operations it runs in 16 bits, say why float16 needs loss
scaling, and measure the accuracy and speed autocast gives.

**Before this page:** :ref:`sphx_glr_auto_examples_tensors_plot_02_data_types.py`,
:ref:`sphx_glr_auto_examples_training_plot_03_training_loop.py` and
:ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py`.
"""

# %%
# The first two lines name the machine and its CPU, through the site's
# ``device_name`` and ``torch.backends.cpu.get_cpu_capability()``. All times
# come from one run there. ``torch.cuda.is_available()`` says if PyTorch can
# use a CUDA GPU here.
from functools import partial

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from tutorial_utils.colours import PALETTE
from tutorial_utils.data import load_digits_tensors
from tutorial_utils.devices import device_name
from tutorial_utils.environment import environment_summary
from tutorial_utils.models import MLP
from tutorial_utils.timing import benchmark, check_timing, format_time
from tutorial_utils.training import evaluate

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(environment_summary(device))
print(f"CPU: {device_name('cpu')}, {torch.backends.cpu.get_cpu_capability()}")

# %%
# Autocast on the CPU
# -------------------
# :term:`Mixed precision <mixed precision>` keeps the parameters in float32
# but runs some operations in a 16-bit :term:`dtype`. :class:`torch.autocast`
# does it in a ``with`` block. Under ``torch.autocast(device_type="cpu",
# dtype=torch.bfloat16)``, operations on CPU tensors follow three rules:
#
# 1. Matrix products on autocast's CPU list, such as ``Linear`` and ``@``,
#    cast float32 and float16 inputs to bfloat16.
# 2. Operations on its CPU float32 list, such as most :term:`loss` functions
#    and ``prod``, cast their inputs to float32.
# 3. Other operations run in the dtype their inputs give: bfloat16 plus
#    float32 of the same shape is float32.
#
# The site's ``load_digits_tensors`` gives ``digits.train_features``, 64
# pixels an image, and ``digits.train_labels``, the digits. The site's
# ``MLP`` keeps its layers in ``model.layers``: Linear, ReLU, Linear.
#
# .. detail:: Other dtype rules
#
#    Convolutions, used on images, and attention, used on sequences, are on
#    the CPU list too. Products off it, such as ``torch.mv`` and
#    ``torch.dot``, stay float32. But ``@`` is ``torch.matmul``, on the list,
#    even for two vectors. bfloat16 plus a float32 with no dimensions is
#    bfloat16. In-place operations and float64 keep their dtype. So does
#    ``out=``, the argument that names a tensor to write the result into. The
#    "Autocast Op Reference" in PyTorch's AMP documentation lists each
#    device's operations.
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
# .. check:: autocast's three CPU rules and the other dtype rules hold
assert inputs.dtype == loss.dtype == torch.float32
assert all(t.dtype == torch.bfloat16 for t in (hidden, activated, logits, log_probs))
heads, stats, square = inputs.view(1, 2, 16, 64), torch.zeros(10), torch.empty(32, 32)
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    lowered = [F.conv1d(inputs[:, None], torch.ones(2, 1, 3)), inputs @ inputs.T]
    lowered += [F.scaled_dot_product_attention(heads, heads, heads)]
    lowered += [F.batch_norm(logits, stats, stats + 1), F.layer_norm(logits, (10,))]
    lowered += [logits + torch.tensor(1.0), inputs[0] @ inputs[1]]
    lowered += [F.linear(inputs.half(), model.layers[0].weight.half())]
    kept = [F.mse_loss(logits, log_probs), F.l1_loss(logits, log_probs)]
    kept += [F.nll_loss(log_probs, labels), logits + inputs[:, :10], logits.prod(1)]
    kept += [torch.mm(inputs, inputs.T, out=square), square.addmm_(inputs, inputs.T)]
    kept += [torch.mv(inputs, inputs[0]), torch.dot(inputs[0], inputs[1])]
    wide = inputs.double()
    as_asked = [logits.prod(1, dtype=torch.bfloat16), wide @ wide.T]
assert all(t.dtype == torch.bfloat16 for t in lowered)
assert all(t.dtype == torch.float32 for t in kept)
assert [t.dtype for t in as_asked] == [torch.bfloat16, torch.float64]

# %%
# The products returned bfloat16, ReLU kept that dtype, the loss is float32. On
# the CPU, :func:`~torch.nn.functional.log_softmax` of bfloat16 :term:`logits`
# stays bfloat16. Under CUDA autocast it is float32, as the last section
# checks on a GPU.
#
# Call ``backward`` outside the block. Autocast need not cover it: each
# backward operation runs in its forward one's dtype. The logits'
# :term:`gradient` is bfloat16. Autocast's cast of a float32 parameter to
# bfloat16 is itself a step of the graph. Its backward turns a bfloat16
# gradient back into float32. So the parameters and their gradients stay
# float32.
#
# Rounding changes the results a little. ``logits_32`` runs the same model
# without autocast. The two sets of logits differ by under 1 % of the
# largest:
loss.backward()
for name, parameter in model.named_parameters():
    print(f"{name:16} {parameter.dtype}, gradient {parameter.grad.dtype}")
logits_32 = model(inputs)
error = (logits.float() - logits_32).abs().max() / logits_32.abs().max()
print(f"largest difference / largest logit: {error:.1e}")
assert error < 0.01

# %%
# .. check:: the logits' gradient has their 16-bit dtype; parameters stay float32
for half in (torch.bfloat16, torch.float16):
    with torch.autocast(device_type="cpu", dtype=half):
        logits_again = model(inputs)
        loss_again = F.cross_entropy(logits_again, labels)
    assert torch.autograd.grad(loss_again, logits_again)[0].dtype == half
for parameter in model.parameters():
    assert parameter.dtype == parameter.grad.dtype == torch.float32

# %%
# bfloat16 and float16
# --------------------
# Both 16-bit formats keep fewer bits than float32. :class:`torch.finfo` gives
# ``eps``, the gap between 1 and the next number. It gives ``max``, the
# largest finite number, and ``tiny``. ``tiny`` is the smallest positive
# *normal* number: one that keeps all the format's binary digits.
formats = (torch.float32, torch.bfloat16, torch.float16)
f32, bf16, f16 = (torch.finfo(dtype) for dtype in formats)
for dtype, info in zip(formats, (f32, bf16, f16), strict=True):
    print(f"{dtype!s:15} eps {info.eps:.1e}, max {info.max:.2e}, tiny {info.tiny:.1e}")

# %%
# bfloat16 keeps float32's 8 bits for the power of two, and so nearly its
# range. But it keeps only 8 binary digits of 24. float16 keeps 11 digits
# but 5 bits for the power: its largest value is 65504. Below ``tiny`` it
# has only *subnormal* numbers, with fewer digits, down to 2⁻²⁴. Half of
# that or less rounds to 0: :term:`underflow`.
#
# The figure rounds float64 values to each format. ``ax.loglog`` draws on log
# axes, which show no 0 or ``inf``: ``drawn`` keeps the errors above 0 that
# pass ``isfinite``. ``ax.axhline``, ``ax.axvline`` and ``ax.legend``
# add lines and a key, in the site's ``PALETTE``.
values = torch.logspace(-10, 6, 801, dtype=torch.float64)
fig, ax = plt.subplots(figsize=(6.5, 3.4), layout="constrained")
for dtype, colour in ((torch.bfloat16, PALETTE[5]), (torch.float16, PALETTE[6])):
    relative = (values.to(dtype).double() - values).abs() / values
    drawn = (relative > 0) & relative.isfinite()
    ax.loglog(values[drawn], relative[drawn], color=colour, label=str(dtype))
    ax.axhline(torch.finfo(dtype).eps / 2, color=colour, linestyle="-.", lw=1)
ax.axvline(f16.max, color=PALETTE[6], linestyle=":", label="float16 max")
ax.axvline(f16.tiny, color=PALETTE[6], linestyle="--", label="float16 tiny")
ax.set(xlabel="value", ylabel="relative rounding error", ylim=(1e-6, 2))
ax.set_title("rounding a float64 value to 16 bits")
ax.legend(loc="upper right", fontsize=8)
plt.show()

# %%
# .. check:: the formats' limits and rounding errors are as stated and drawn
assert (bf16.tiny, bf16.eps, f16.eps, f16.max) == (f32.tiny, 2**-7, 2**-10, 65504)
assert bf16.max > 0.99 * f32.max
normal = values[(values >= f16.tiny) & (values <= f16.max)]
for checked, dtype in ((normal, torch.float16), (values, torch.bfloat16)):
    error_in_range = (checked.to(dtype).double() - checked).abs() / checked
    assert error_in_range.max() <= torch.finfo(dtype).eps / 2
edges = torch.tensor([2.0**-24, 2.0**-25, 2.0**-25 * 1.01, 65519.0, 65520.0])
assert edges.half().tolist() == [2.0**-24, 0, 2.0**-24, f16.max, float("inf")]
assert torch.tensor(1e5).bfloat16().isfinite()
assert (values[values < 2.0**-25].half() == 0).all()

# %%
# Between float16's ``tiny`` and ``max``, its error is at most its ``eps / 2``,
# dash-dotted. Across the figure, bfloat16's is at most its own ``eps / 2``,
# eight times larger.
#
# Loss scaling
# ------------
# Under float16 autocast, the gradients of float16 results are float16: small
# ones underflow. :term:`Loss scaling <loss scaling>` saves them:
#
# 1. Multiply the loss by a large S before ``backward``: every gradient grows
#    S times.
# 2. Divide the parameters' float32 gradients by S before the
#    :term:`optimiser` step.
#
# Four small gradients go to bfloat16 with ``.bfloat16()``, like ``.half()``
# for float16, and back with ``.float()``. The last row multiplies them by
# S = 2¹⁶ before float16 and divides by S after:
grads = torch.tensor([1e-3, 1e-6, 1e-8, 1e-10])
scale = 2.0**16
brain, plain = grads.bfloat16().float(), grads.half().float()
scaled = (grads * scale).half().float() / scale
for name, row in [("float32", grads), ("bfloat16", brain), ("float16", plain)]:
    print(f"{name:16} {row}")
print(f"{'float16, scaled':16} {scaled}")

# %%
# .. check:: scaling by S keeps what float16 loses, down to 2⁻²⁵ / S
assert (plain[2:] == 0).all()
assert 0 < plain[1] < f16.tiny
assert abs(plain[1] / grads[1] - 1) > f16.eps / 2
assert f16.tiny > grads[3] * scale > 2.0**-24
torch.testing.assert_close(brain, grads, rtol=bf16.eps / 2, atol=0)
torch.testing.assert_close(scaled, grads, rtol=1e-2, atol=0)
floor = torch.tensor([2.0**-25 * 1.01 / scale, 2.0**-25 / scale, 1e-13])
assert (floor * scale).half().tolist() == [2.0**-24, 0, 0]
loss_32 = F.cross_entropy(model(inputs), labels)
one = torch.autograd.grad(loss_32, model.parameters(), retain_graph=True)
big = torch.autograd.grad(loss_32 * scale, model.parameters())
torch.testing.assert_close(big, tuple(g * scale for g in one))  # S times larger


# %%
# float16 loses 1e-8 and 1e-10, and keeps 1e-6 with an error above its
# ``eps / 2``. bfloat16 and scaled float16 keep all four within 1 %. A
# gradient of at most 2⁻²⁵ / S would still become 0.
#
# :class:`torch.amp.GradScaler` scales in a training loop.
# ``scaler.scale(loss).backward()`` replaces ``loss.backward()``.
# ``scaler.step(optimizer)`` divides the gradients by S and steps;
# ``scaler.update()`` adjusts S. bfloat16 needs no scaler, and one made with
# ``enabled=False`` passes everything through.
# :ref:`sphx_glr_auto_examples_performance_plot_54_loss_scaling.py` shows the
# scaler at work.
#
# The accuracy cost
# -----------------
# Two runs on the digits compare float32 with bfloat16 autocast.
# ``train_digits`` is the usual loop plus autocast and a scaler. Unlike the
# training section's loop, it weights each batch's loss by the batch's size.
# So an epoch's loss is the mean over samples. With ``dtype=None``,
# ``enabled=False`` turns autocast off. The scaler is enabled only for float16.
# Both runs start from seed 0: same initial weights, same
# :term:`batches <batch>` in each :term:`epoch`.
def train_digits(device_type: str, dtype: torch.dtype | None, epochs: int = 15):
    torch.manual_seed(0)
    dataset = TensorDataset(digits.train_features, digits.train_labels)
    loader = DataLoader(dataset, batch_size=64, shuffle=True)
    net = MLP(64, [64], 10).to(device_type)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    scaler = torch.amp.GradScaler(device_type, enabled=dtype == torch.float16)
    epoch_losses = []
    for _ in range(epochs):
        total = 0.0
        for features, targets in loader:
            features, targets = features.to(device_type), targets.to(device_type)
            with torch.autocast(device_type, dtype=dtype, enabled=dtype is not None):
                batch_loss = F.cross_entropy(net(features), targets)
            optimizer.zero_grad()
            scaler.scale(batch_loss).backward()
            scaler.step(optimizer)
            scaler.update()
            total += batch_loss.item() * len(targets)
        epoch_losses.append(total / len(dataset))
    return net, epoch_losses


net_32, losses_32 = train_digits("cpu", None)
net_16, losses_16 = train_digits("cpu", torch.bfloat16)

# %%
# .. check:: the runs draw the same random numbers; a disabled scaler does nothing
after_16 = torch.get_rng_state()  # where the autocast run left the generator
with torch.random.fork_rng(devices=[]):
    train_digits("cpu", None)  # the float32 run again
    assert torch.equal(torch.get_rng_state(), after_16)
assert torch.amp.GradScaler("cpu", enabled=False).scale(loss) is loss

# %%
# The site's ``evaluate`` gives a network's mean ``.loss`` and ``.accuracy``
# over a list of batches: here the 450 test images, ``digits.test_features``
# and ``digits.test_labels``. It runs in float32, and for the autocast network
# under autocast too:
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
# .. check:: losses within 1 % and 5 %, accuracies within 9 of 450; runs drift
assert len(digits.test_labels) == 450
for result in results.values():
    assert round(abs(result.accuracy - reference.accuracy) * 450) <= 9
    assert abs(result.loss / reference.loss - 1) < 0.05
assert abs(first) < 1e-2
assert abs(last) > abs(first), "the runs drift apart"

# %%
# The checks bound the gaps: first-epoch training losses within 1 %, test
# losses within 5 %, accuracies within 9 of 450 images. The runs drift
# apart: the last epoch's training losses differ more than the first's.
# Measure your own model.
#
# Is it faster?
# -------------
# A bfloat16 product reads half the bytes of a float32 one. CPUs with
# bfloat16 instructions can compute it faster; others can be much slower. The
# site's ``benchmark`` times a call in one thread's CPU time, so waiting for a
# busy CPU does not count. ``.median`` is the median time of a call, and
# ``format_time`` prints it. "Faster" means over 1.5 times float32's speed,
# "slower" under 1 / 1.5.
#
# .. detail:: bfloat16 instructions
#
#    On x86 CPUs they are AVX512-BF16, on some recent AMD and Intel CPUs, and
#    AMX, on Intel Xeons since Sapphire Rapids. ``lscpu`` lists a Linux CPU's
#    flags; no documented ``get_cpu_capability()`` value names them.
a, b = torch.randn(256, 256), torch.randn(256, 256)


def product(enabled: bool) -> torch.Tensor:
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=enabled):
        return a @ b


off_on = [partial(product, enabled) for enabled in (False, True)]
times = [benchmark(f, threads=1, clock="thread").median for f in off_on]
speed = times[0] / times[1]
verdict = "faster" if speed > 1.5 else "slower" if speed < 1 / 1.5 else "no clear gain"
print("256 x 256 product, float32 and autocast:", *map(format_time, times))
print(f"autocast: {speed:.2g} x float32's speed, {verdict}")

# %%
# .. check:: autocast's product is within ``eps / 2`` of the casts' product
exact = a.bfloat16().double() @ b.bfloat16().double()  # no rounding but the casts'
torch.testing.assert_close(product(True).double(), exact, rtol=bf16.eps / 2, atol=1e-3)

# %%
# A verdict is one measurement: run the page again before trusting it. The
# autocast time includes the casts of ``a`` and ``b`` to bfloat16.
# :ref:`sphx_glr_auto_examples_performance_plot_03_profiling.py` shows where
# a step's time goes.
#
# Float16 on a CUDA GPU
# ---------------------
# On a CUDA GPU, autocast's default dtype is float16, with a ``GradScaler``.
# On a GPU, this cell trains with ``train_digits("cuda", torch.float16)``. It
# prints the dtypes of a batch's logits, log_softmax and loss, and of a
# weight's gradient from the last training step. It prints the test accuracy
# and times a 4096-by-4096 product.
#
# .. detail:: Tensor cores and compute capability
#
#    Tensor cores are units of NVIDIA GPUs that multiply small blocks of
#    16-bit numbers fast. ``torch.cuda.get_device_capability()`` gives the
#    GPU's generation: the check asks for twice float32's speed only on 7.0,
#    8.0, 9.0 and 10.0, such as the V100, A100, H100 and B200.
#    ``torch.version.hip`` is None except on ROCm builds, for AMD GPUs.
#
#    float32 products on a GPU can use :term:`TF32`, a faster format with
#    fewer binary digits. PyTorch leaves TF32 off by default, so the float32
#    product here does not use it. The float16 product differs from the
#    float32 one by under ``eps / 2``, in relative norm.
if torch.cuda.is_available():
    gpu_net, _ = train_digits("cuda", torch.float16)
    with torch.autocast("cuda", dtype=torch.float16):
        gpu_logits = gpu_net(inputs.to(device))
        gpu_log_probs = F.log_softmax(gpu_logits, dim=1)
        gpu_loss = F.cross_entropy(gpu_logits, labels.to(device))
    gpu_grad = gpu_net.layers[0].weight.grad
    dtypes = [t.dtype for t in (gpu_logits, gpu_log_probs, gpu_loss, gpu_grad)]
    print("logits, log_softmax, loss, gradient:", *dtypes)
    gpu_result = evaluate(gpu_net, test_batches, device=device)
    print(f"test accuracy {gpu_result.accuracy:.1%}, float32 {reference.accuracy:.1%}")
    x16 = torch.randn(4096, 4096, device=device).half()
    y16 = torch.randn(4096, 4096, device=device).half()
    x32, y32 = x16.float(), y16.float()  # the same values
    products = [partial(torch.matmul, x32, y32), partial(torch.matmul, x16, y16)]
    times = [benchmark(f, device=device).median for f in products]
    speed = times[0] / times[1]
    print(f"4096 x 4096 product: float16 {speed:.1f} x float32's speed")
    tensor_cores = {(7, 0), (8, 0), (9, 0), (10, 0)}  # on NVIDIA GPUs
    if torch.version.hip is None and torch.cuda.get_device_capability() in tensor_cores:
        check_timing("float16 is faster", speed, above=2, clock="wall clock")
else:
    print("torch.cuda.is_available() is False: no usable CUDA GPU, nothing ran.")

# %%
# .. check:: CUDA autocast is float16, with the dtypes and accuracy stated
autocast_dtypes = [torch.get_autocast_dtype(kind) for kind in ("cpu", "cuda")]
assert autocast_dtypes == [torch.bfloat16, torch.float16]
if torch.cuda.is_available():
    assert dtypes == [torch.float16, torch.float32, torch.float32, torch.float32]
    assert round(abs(gpu_result.accuracy - reference.accuracy) * 450) <= 9
    assert torch.get_float32_matmul_precision() == "highest"  # no TF32
    _error = ((x16 @ y16).float() - x32 @ y32).norm() / (x32 @ y32).norm()
    assert _error < f16.eps / 2, "more than one float16 rounding of each element"

# %%
# ``benchmark`` waits for the GPU before reading the clock: these are the
# products' times, not their launches'.
#
# Summary
# -------
# - Put ``torch.autocast`` around the forward pass and the loss only.
# - It runs listed products in 16 bits; parameters and gradients stay float32.
# - Small float16 gradients underflow: scale the loss with ``GradScaler``.
# - Speed depends on the hardware and the sizes: measure it.
#
# Next, :ref:`sphx_glr_auto_examples_performance_plot_05_torch_compile.py`
# compiles a model with :func:`torch.compile`. Exercises for this page:
# :ref:`exercises-performance-04`.
