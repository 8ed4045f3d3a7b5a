"""
Choosing a device
=================

Choose between the CPU and a GPU on any machine, read the name of a
tensor's device, and recognise the error you get when a GPU is missing.
This in-depth page goes further than the last section of the first page.

**Before this page:**
:ref:`sphx_glr_auto_examples_tensors_plot_01_creating_tensors.py`.
"""

# %%
# Every page starts by printing what computed it. On this page the output
# depends on the machine most of all. Without a GPU, every :term:`tensor`
# stays on the CPU.
import matplotlib.pyplot as plt
import torch

from tutorial_utils.devices import draw_device_choice, pick_device
from tutorial_utils.environment import environment_summary

device = pick_device()
print(environment_summary(device))

# %%
# Which GPUs PyTorch can use
# --------------------------
# The first page tested for a CUDA GPU, NVIDIA's kind, with
# :func:`torch.cuda.is_available`. Two other kinds are common:
#
# - A PyTorch built for ROCm, AMD's GPU platform, reuses the
#   :mod:`torch.cuda` functions and the device name ``"cuda"`` for AMD GPUs.
# - Apple's GPUs are named ``"mps"``, for Metal Performance Shaders.
#   :func:`torch.backends.mps.is_available` tests for one.
#
# A :class:`torch.device` has a ``.type``, its kind of device. The code
# below tries CUDA first, then MPS, and falls back on the CPU.
by_hand = torch.device("cuda" if torch.cuda.is_available() else "cpu")
if by_hand.type == "cpu" and torch.backends.mps.is_available():
    by_hand = torch.device("mps")
print("CUDA:", torch.cuda.is_available(), " MPS:", torch.backends.mps.is_available())
print("chosen:", by_hand)

# %%
# .. check:: ``torch.cuda`` finds a GPU only in a CUDA or a ROCm build
if torch.cuda.is_available():  # a CUDA or a ROCm build
    assert torch.version.cuda is not None or torch.version.hip is not None

# %%
# The picture asks the same questions in the same order. The path drawn in
# colour is the one this machine took. ``draw_device_choice`` is the site's
# helper that draws it, and ``plt.show()`` shows the figure.
found = {"cuda": torch.cuda.is_available(), "mps": torch.backends.mps.is_available()}
figure = draw_device_choice(found)
plt.show()

# %%
# .. check:: the coloured path ends at the device chosen by hand
assert figure.axes[0].get_title() == f"chosen: {by_hand.type}"

# %%
# Made there, or moved there
# --------------------------
# A tensor made where it will be used needs no copy. On a GPU,
# ``torch.zeros(2, 3, device=by_hand)`` fills GPU memory directly. By
# default, ``torch.zeros(2, 3)`` is made on the CPU. Its ``.to(by_hand)``
# then copies it across.
#
# A GPU tensor names its device with an index, such as ``cuda:0``. The index
# says which GPU. Plain ``"cuda"`` asks for the current one.
on_device = torch.zeros(2, 3, device=by_hand)
moved = torch.zeros(2, 3).to(by_hand)
print(on_device.device, moved.device, torch.equal(on_device, moved))
if by_hand.type == "cpu":
    print("This machine has no GPU: both tensors are on the CPU.")

# %%
# .. check:: a tensor is made on the CPU by default; a GPU tensor's device has an index
assert torch.zeros(2, 3).device.type == "cpu"
if by_hand.type != "cpu":
    assert by_hand.index is None  # asked for plain "cuda" (or "mps")
    assert on_device.device.index is not None  # got "cuda:0" (or "mps:0")
assert on_device.device.type == moved.device.type == by_hand.type

# %%
# The site's helper
# -----------------
# The first cell of every page makes this choice with the site's helper
# :func:`~tutorial_utils.devices.pick_device`. Called with no argument, it
# returns the first GPU that PyTorch reports, with its index, or else the
# CPU. On PyTorch 2.6 and newer it asks :mod:`torch.accelerator`. That module
# also knows other kinds of device, such as Intel's XPU.
print("pick_device():", device, "  by hand:", by_hand)

# %%
# .. check:: ``pick_device()`` finds the device that the tests and ``torch.accelerator`` find
assert by_hand.type == "cpu" or device == torch.device(by_hand.type, 0)
accelerator = getattr(torch, "accelerator", None)  # PyTorch 2.6 and newer
if accelerator is not None and accelerator.is_available():
    assert device.type == accelerator.current_accelerator().type

# %%
# A missing GPU
# -------------
# ``torch.device("cuda")`` is only a name, so making it works without a GPU.
# The error comes when a tensor is put there, and it depends on the build. A
# PyTorch built without CUDA or ROCm raises an ``AssertionError``.
# :ref:`The error atlas <error-not-compiled-with-cuda>` explains its message.
#
# Given a name, ``pick_device`` checks at once. Its ``ValueError`` lists the
# devices there are:
try:
    on_cuda = torch.zeros(1, device="cuda")
except (AssertionError, RuntimeError) as error:
    print(f"{type(error).__name__}: {error}")
else:
    print("made on cuda:", on_cuda.device)
for wanted in ("cuda", "mps"):
    try:
        found = pick_device(wanted)
    except ValueError as error:
        print(f"{wanted}: {error}")
    else:
        print(f"{wanted}: available as {found}")

# %%
# .. check:: a tensor goes only to a GPU that is there; ``pick_device`` agrees
assert torch.device("cuda").type == "cuda"
no_cuda_build = torch.version.cuda is None and torch.version.hip is None
try:
    torch.zeros(1, device="cuda")
except AssertionError:
    assert no_cuda_build
except RuntimeError:
    assert not torch.cuda.is_available()
else:
    assert torch.cuda.is_available(), "a tensor went to a CUDA device that is not there"
present = {"cuda": torch.cuda.is_available(), "mps": torch.backends.mps.is_available()}
for wanted in ("cuda", "mps"):
    try:
        pick_device(wanted)
    except ValueError:
        assert not present[wanted], f"pick_device missed a {wanted} device"
    else:
        assert present[wanted], f"pick_device found a {wanted} device that is not there"

# %%
# Summary
# -------
# - :func:`torch.cuda.is_available` finds NVIDIA GPUs, and AMD GPUs in a ROCm
#   build. :func:`torch.backends.mps.is_available` finds Apple's.
# - Make a tensor on its device with ``device=``. ``.to`` copies one there.
# - A GPU tensor's device has an index, such as ``cuda:0``.
# - ``torch.device("cuda")`` never fails by itself. Putting a tensor there
#   fails when there is no such GPU.
#
# The exercises on creating tensors are at :ref:`exercises-tensors-01`.
