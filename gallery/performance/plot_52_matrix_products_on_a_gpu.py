"""
Matrix products on a GPU
========================

After this page you can compare a GPU's measured rate with the peak rate
its maker publishes. You can race the CPU against a GPU fairly, copies
included. You can also let float32 products on a recent NVIDIA GPU use
TF32, and see what it costs in precision.

**Before this page:**
:ref:`sphx_glr_auto_examples_tensors_plot_51_choosing_a_device.py`,
:ref:`sphx_glr_auto_examples_performance_plot_01_timing_pytorch_code.py` and
:ref:`sphx_glr_auto_examples_performance_plot_02_matrix_products_and_peak.py`.
"""

# %%
# Every page starts by printing what computed it. The timings on this page
# need a CUDA GPU, NVIDIA's kind. Without one, each timing cell prints a
# line that says so. The site's helper ``device_name`` gives the device's
# model name, printed with its peaks below.
from functools import partial

import matplotlib.pyplot as plt
import torch

from tutorial_utils.devices import device_name, pick_device
from tutorial_utils.environment import environment_summary
from tutorial_utils.timing import benchmark, check_timing

device = pick_device()
print(environment_summary(device))
name = device_name(device)

# %%
# Peaks from the datasheets
# -------------------------
# A device's peak rate is the most FLOP/s it can run. NVIDIA's datasheets
# give the peaks of its data-centre GPUs, one for each kind of arithmetic.
# A float32 product can run in two kinds:
#
# - fp32: float32 arithmetic on the GPU's general-purpose arithmetic
#   units, which NVIDIA calls *CUDA cores*;
# - :term:`TF32`: a less precise format, computed by the *Tensor Cores*,
#   units built for matrix products.
#
# The table holds both peaks of three GPUs, in FLOP/s. Its keys are the
# names that :func:`torch.cuda.get_device_name` reports, which
# ``device_name`` returns for a CUDA GPU.
#
# *PCIe* is the usual link between a CPU and its devices. NVIDIA sells
# some GPUs in two forms, with different peaks:
#
# - a *PCIe card* plugs into a slot of that link;
# - an *SXM module* sits on a board built for it, and the board links it to
#   the CPU over PCIe.
#
# The table's first key is the H100's SXM module. Its second key,
# ``"NVIDIA H200"``, is the H200's SXM module.
#
# .. detail:: Peaks with sparsity
#
#    The datasheets give the Tensor Cores' peaks with sparsity: for
#    products where two of every four numbers of one matrix are zero.
#    Without sparsity, the peak is half as high. The table's TF32 peaks are
#    the datasheets' figures halved.
PEAK_FLOPS = {
    "NVIDIA H100 80GB HBM3": {"fp32": 67e12, "tf32": 494.5e12},
    "NVIDIA H200": {"fp32": 67e12, "tf32": 494.5e12},
    "NVIDIA H100 PCIe": {"fp32": 51e12, "tf32": 378e12},
}
print(f"{name}: {PEAK_FLOPS.get(name, 'no peak in this table')}")

# %%
# The figure draws the table, in TFLOP/s: 10¹² FLOP/s. ``bar`` draws one
# bar per value, at the positions given. The GPUs sit at 0, 1 and 2 on the
# x axis. Their fp32 bars are shifted 0.2 to the left and their TF32 bars
# 0.2 to the right. Each bar is 0.4 wide, so each pair stands side by side.
# On each GPU, the TF32 peak is over seven times the fp32 one.
gpus = list(PEAK_FLOPS)
fig, ax = plt.subplots(figsize=(7, 3.2), layout="constrained")
for shift, kind in [(-0.2, "fp32"), (0.2, "tf32")]:
    peaks = [PEAK_FLOPS[gpu][kind] / 1e12 for gpu in gpus]
    ax.bar([i + shift for i in range(len(gpus))], peaks, width=0.4, label=kind)
ax.set(xticks=range(len(gpus)), xticklabels=gpus, ylabel="peak TFLOP/s")
ax.set_title("Dense peaks from NVIDIA's datasheets")
ax.legend()
plt.show()

# %%
# .. check:: on each GPU in the table, the TF32 peak is over 7 times fp32's
assert all(peak["tf32"] > 7 * peak["fp32"] for peak in PEAK_FLOPS.values())

# %%
# .. check:: each GPU's two bars stand side by side, around its place
fp32_bars, tf32_bars = ax.patches[: len(gpus)], ax.patches[len(gpus) :]
for place, (left, right) in enumerate(zip(fp32_bars, tf32_bars, strict=True)):
    assert abs(left.get_x() + left.get_width() - place) < 1e-9
    assert abs(right.get_x() - place) < 1e-9

# %%
# CPU against GPU
# ---------------
# :ref:`sphx_glr_auto_examples_performance_plot_51_fair_comparisons.py`
# gives both sides the same threads, to compare two libraries on one CPU.
# Here the question is which device is quicker.
# So a fair race lets each side use all its hardware. When the data starts
# on the CPU, it also counts the copies. The :term:`tensors <tensor>` go to
# the GPU with :meth:`~torch.Tensor.to`, and the result comes back with
# :meth:`~torch.Tensor.cpu`. On a CUDA GPU, the cell below times two
# products, n = 512 and n = 4096, three ways:
#
# 1. on the CPU, with all the threads PyTorch uses by default;
# 2. on the GPU, with the inputs already there;
# 3. as a round trip: copies there, the product, the copy back.
#
# ``device=device`` makes ``benchmark`` wait for the GPU before every
# reading of the clock. Without it, the clock could be read before the GPU
# had finished. The times are wall-clock times, which include that wait.
#
# The copies take the round trip's time minus the GPU product's. Their
# speed is the bytes copied over that time: ``a`` and ``b`` go over, and
# the product, as large as ``a``, comes back.
#
# Three checks bound the results. The site's helper ``check_timing``, from
# the timing page, checks each bound. A busy machine can upset a time, so
# each check measures up to three times before it fails.
#
# 1. By default, a float32 product on the GPU runs in fp32, so its rate
#    stays below the fp32 peak. A rate above the peak would mean a broken
#    measurement, such as a clock read too early.
# 2. The round trip takes longer than the product alone.
# 3. The GPUs in the table, SXM modules included, reach the CPU's memory
#    over PCIe. Their link has 16 *lanes*, wires that carry data side by
#    side. It is PCIe version 5.0 at most, which carries about 64 GB/s each
#    way. The copies cannot go faster. The check leaves a wide margin, as
#    the site's timing checks do: it allows 200 GB/s.
if torch.cuda.is_available():

    def round_trip(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return (a.to(device) @ b.to(device)).cpu()

    peak = PEAK_FLOPS.get(name, {}).get("fp32")
    for n in (512, 4096):
        a, b = torch.randn(n, n), torch.randn(n, n)
        a_gpu, b_gpu = a.to(device), b.to(device)
        cpu = benchmark(partial(torch.matmul, a, b), label="CPU, all threads")
        gpu = benchmark(partial(torch.matmul, a_gpu, b_gpu), label="GPU", device=device)
        trip = benchmark(partial(round_trip, a, b), label="round trip", device=device)
        rate = 2 * n**3 / gpu.median
        share = "peak unknown" if peak is None else f"{rate / peak:.0%} of its peak"
        copied = 3 * a.nbytes  # a and b to the GPU, their product back
        bandwidth = copied / (trip.median - gpu.median)
        print(f"n={n}:", cpu, gpu, trip, sep="\n  ")
        print(f"  GPU rate: {rate / 1e12:.1f} TFLOP/s in fp32 ({share})")
        print(f"  CPU time / GPU time: {cpu.median / gpu.median:.1f}")
        print(f"  CPU time / round trip: {cpu.median / trip.median:.1f}")
        print(f"  copies: {copied / 1e6:.0f} MB at {bandwidth / 1e9:.0f} GB/s")
else:
    print("No CUDA GPU here (torch.cuda.is_available() is False): no race.")

# %%
# .. check:: no rate above the peak; the copies take time, below the link's
if torch.cuda.is_available():

    def race(n: int) -> tuple[float, float]:
        """Median seconds of the GPU product and of the round trip, again."""
        with torch.random.fork_rng(devices=[]):
            a, b = torch.randn(n, n), torch.randn(n, n)
        on_gpu = partial(torch.matmul, a.to(device), b.to(device))
        gpu = benchmark(on_gpu, device=device).median
        return gpu, benchmark(partial(round_trip, a, b), device=device).median

    def peak_share(n: int) -> float:
        return 2 * n**3 / race(n)[0] / peak

    def trip_over_product(n: int) -> float:
        gpu, trip = race(n)
        return trip / gpu

    def copy_time_share(n: int) -> float:
        """The copies' time over their time at 200 GB/s; negative fails too."""
        gpu, trip = race(n)
        return (trip - gpu) / (3 * n * n * torch.float32.itemsize / 200e9)

    wall = "wall clock"  # on a GPU, the time until its queue is done
    for n in (512, 4096):
        if peak is not None:
            claim = "no rate above the peak: timing is not broken"
            share = partial(peak_share, n)
            check_timing(claim, share, below=1, clock=wall, attempts=3)
        claim = "the round trip takes longer than the product alone"
        longer = partial(trip_over_product, n)
        check_timing(claim, longer, above=1, clock=wall, attempts=3)
        if name in PEAK_FLOPS:  # reached over PCIe
            claim = "the copies go no faster than 200 GB/s"
            slower = partial(copy_time_share, n)
            check_timing(claim, slower, above=1, clock=wall, attempts=3)

# %%
# .. check:: by default, float32 matrix products use no TF32
assert torch.get_float32_matmul_precision() == "highest"
assert not torch.backends.cuda.matmul.allow_tf32

# %%
# Let float32 products use TF32
# -----------------------------
# cuBLAS is NVIDIA's :term:`BLAS` library. On NVIDIA GPUs from the Ampere
# generation on, it can run float32 products in TF32.
# :func:`torch.cuda.get_device_capability` returns a GPU's *compute
# capability*: NVIDIA's number for its generation. Ampere and later GPUs
# have ``(8, 0)`` and up.
#
# PyTorch's builds for AMD GPUs are called ROCm builds. They use
# ``torch.cuda`` too. In them, ``torch.version.cuda`` is ``None``, so the
# test below leaves AMD GPUs out.
#
# PyTorch runs float32 matrix products in TF32 only when asked, through
# :func:`torch.set_float32_matmul_precision`. The default, ``"highest"``,
# keeps fp32; ``"high"`` allows TF32. On such a GPU, the cell below times
# the n = 4096 product both ways. It reuses ``a_gpu`` and ``b_gpu``, which
# the race's last pass left on the GPU. On an H100 or H200, TF32 at least
# halves the time. ``finally`` puts the default back, even after an error.
#
# The cell also measures each product's error. The reference is the
# float64 product, more precise; ``.double()`` makes a float64 copy.
# For each entry, the cell takes its distance from the reference's entry.
# It divides the largest distance by the reference's largest entry in size.
# So the error is relative. TF32's error is over ten times fp32's.
#
# .. detail:: A second way to ask
#
#    Newer versions, 2.13 among them, have a second way to ask for TF32:
#    ``torch.backends.cuda.matmul.fp32_precision = "tf32"``. Use one way or
#    the other. After setting it to ``"tf32"`` the new way, reading the
#    setting the old way raises an error.
#
# .. detail:: Convolutions use TF32 by default
#
#    On an NVIDIA GPU, convolutions go to cuDNN, NVIDIA's library for them.
#    PyTorch lets cuDNN use TF32 by default:
#    ``torch.backends.cudnn.allow_tf32`` is ``True``.
nvidia = torch.cuda.is_available() and torch.version.cuda is not None
if nvidia and torch.cuda.get_device_capability() >= (8, 0):
    exact = a_gpu.double() @ b_gpu.double()
    errors = {}
    try:
        for setting in ("highest", "high"):
            torch.set_float32_matmul_precision(setting)
            timing = benchmark(partial(torch.matmul, a_gpu, b_gpu), device=device)
            error = (a_gpu @ b_gpu - exact).abs().max() / exact.abs().max()
            errors[setting] = error.item()
            print(f"{setting!r}: {timing}, relative error {error:.1e}")
    finally:
        torch.set_float32_matmul_precision("highest")
else:
    print("No NVIDIA GPU of the Ampere generation or later here: no TF32 to time.")

# %%
# .. check:: on an H100 or H200, TF32 at least halves the time
on_h100_or_h200 = "tf32" in PEAK_FLOPS.get(name, {})
if nvidia and torch.cuda.get_device_capability() >= (8, 0) and on_h100_or_h200:

    def tf32_share() -> float:
        """Median time of the n = 4096 product in TF32 over fp32, again."""
        medians = {}
        try:
            for setting in ("highest", "high"):
                torch.set_float32_matmul_precision(setting)
                product = partial(torch.matmul, a_gpu, b_gpu)
                medians[setting] = benchmark(product, device=device).median
        finally:
            torch.set_float32_matmul_precision("highest")
        return medians["high"] / medians["highest"]

    claim = "on an H100 or H200, TF32 at least halves the time"
    check_timing(claim, tf32_share, below=0.5, clock="wall clock", attempts=3)

# %%
# .. check:: TF32's error is over ten times that of the fp32 product
if nvidia and torch.cuda.get_device_capability() >= (8, 0):
    assert errors["high"] > 10 * errors["highest"], "TF32 is less precise"

# %%
# .. check:: after ``fp32_precision = "tf32"``, the old way of reading raises
import subprocess
import sys


def read_after(precision: str) -> subprocess.CompletedProcess:
    """Set the new way to `precision`, then read the old way, in a new Python."""
    mixed = (
        "import torch\n"
        "matmul = torch.backends.cuda.matmul\n"
        "if not hasattr(matmul, 'fp32_precision'):  # versions without the new way\n"
        "    raise SystemExit('no fp32_precision')\n"
        f"matmul.fp32_precision = {precision!r}\n"
        "print(torch.get_float32_matmul_precision())\n"
    )
    command = [sys.executable, "-c", mixed]
    return subprocess.run(command, capture_output=True, text=True, check=False)


ran = read_after("tf32")
assert ran.returncode != 0, ran.stdout
assert "no fp32_precision" in ran.stderr or "RuntimeError" in ran.stderr, ran.stderr
if "no fp32_precision" not in ran.stderr:  # versions with the new way
    ran = read_after("ieee")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == "highest", ran.stdout

# %%
# .. check:: by default, cuDNN may run float32 convolutions in TF32
assert torch.backends.cudnn.allow_tf32

# %%
# Summary
# -------
# - NVIDIA publishes each data-centre GPU's peak for each kind of
#   arithmetic. A measured rate above the peak of the arithmetic used
#   means a broken measurement.
# - When the data starts on the CPU, a fair race counts the copies to the
#   GPU and back.
# - On NVIDIA GPUs from Ampere on,
#   ``torch.set_float32_matmul_precision("high")`` lets float32 products
#   run in TF32: less precise and, on an H100 or H200, at least twice as
#   fast.
#
# Back to the lesson this page deepens:
# :ref:`sphx_glr_auto_examples_performance_plot_02_matrix_products_and_peak.py`,
# or on to its exercises: :ref:`exercises-performance-02`.
