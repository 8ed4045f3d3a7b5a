"""
Safe loading and safetensors
============================

After this page you can say what a ``.pt`` file holds, and why
:func:`torch.load` with ``weights_only=True`` refuses most objects. You can
also save weights as a safetensors file and read its header. A first
reading can skip this in-depth page.

**Before this page:**
:ref:`sphx_glr_auto_examples_training_plot_08_saving_and_loading.py`.
"""

# %%
# This page computes on the CPU. It writes its files into a
# ``tempfile.TemporaryDirectory`` folder and prints only file names.
# safetensors is a separate library, not part of PyTorch.
import contextlib
import io
import json
import os
import pickle
import tempfile
import warnings
import zipfile
from pathlib import Path
from unittest import mock

import matplotlib.pyplot as plt
import torch
from matplotlib.patches import Patch
from safetensors import safe_open
from safetensors.torch import load_file, load_model, save_file, save_model

from tutorial_utils.colours import PALETTE
from tutorial_utils.environment import environment_summary
from tutorial_utils.models import NeuralNetwork

print(environment_summary(torch.device("cpu")))

workdir = tempfile.TemporaryDirectory()
folder = Path(workdir.name)

# %%
# What a ``.pt`` file holds
# -------------------------
# A new ``NeuralNetwork(2, 2)`` has the six tensors of the saving page's model, with
# other values. :func:`torch.save` writes its :term:`state dict` as a zip archive.
# Python's ``zipfile.ZipFile`` opens the archive, and its ``namelist`` method lists
# the entries. All sit in one folder, here ``model/``:
#
# - ``data.pkl`` is a :mod:`pickle`, Python's format for objects. It
#   describes the dictionary.
# - Each ``data/N`` entry holds the bytes of one :term:`storage`, the block
#   of memory a tensor's elements live in. Here each tensor has its own.
# - The other entries are small records, such as the byte order.
#
# .. detail:: Saving a view
#
#    A :term:`view` shares its storage with the tensor it came from.
#    :func:`torch.save` writes the whole storage, so a view of a large
#    tensor saves all of it. ``clone()`` the view to save only its elements.
torch.manual_seed(123)
model = NeuralNetwork(2, 2)
state = model.state_dict()
weights_path = folder / "model.pth"
torch.save(state, weights_path)
with zipfile.ZipFile(weights_path) as archive:
    print(archive.namelist())

# %%
# .. check:: a pickle, one storage entry per tensor, small records; a view saves its whole storage
with zipfile.ZipFile(weights_path) as archive:
    assert {name.split("/")[0] for name in archive.namelist()} == {"model"}
    sizes = {i.filename.split("/", 1)[1]: i.file_size for i in archive.infolist()}
entries = [name for name in sizes if name.startswith("data/")]
assert entries == [f"data/{i}" for i in range(len(state))]
assert all(size <= 64 for name, size in sizes.items() if not name.startswith("data"))
torch.save(torch.zeros(1000)[:2], folder / "view.pt")  # 4,000 bytes of storage
torch.save(torch.zeros(1000)[:2].clone(), folder / "clone.pt")
assert (folder / "clone.pt").stat().st_size < 4000 < (folder / "view.pt").stat().st_size


# %%
# Why ``torch.load`` refuses most objects
# ---------------------------------------
# A pickle can do more than rebuild data. An object's ``__reduce__`` method
# tells the unpickler which function to *call* to rebuild it. Here is a
# harmless object whose file says "call ``print``". It could as well say
# "delete my files".
class Surprise:
    def __reduce__(self):
        return (print, ("this line was printed by loading a file",))


surprise_path = folder / "surprise.pt"
torch.save(Surprise(), surprise_path)

# %%
# With ``weights_only=True``, :func:`torch.load` uses a restricted unpickler.
# It rebuilds tensors and plain data such as ints, floats, strings, lists,
# tuples, dicts and ``None``. It refuses any other function before calling it,
# with a :class:`pickle.UnpicklingError`; :ref:`its atlas entry
# <error-weights-only-load>` shows the fixes. ``GLOBAL`` is the pickle
# instruction that names a function or class. The cell prints the message's line
# with ``GLOBAL``, up to "Please". Its wording varies by version.
#
# Did the file's ``print`` run? ``contextlib.redirect_stdout`` sends what is
# printed into an ``io.StringIO`` buffer; ``getvalue`` reads it. It stays empty:
captured = io.StringIO()
with contextlib.redirect_stdout(captured):
    try:
        torch.load(surprise_path, weights_only=True)
    except pickle.UnpicklingError as error:
        refusal = str(error)
    else:
        raise AssertionError("weights_only=True loaded a call to print")
naming = next(line for line in refusal.splitlines() if "GLOBAL" in line)
print(naming.strip().split(". Please")[0])
print("printed while loading:", repr(captured.getvalue()))

# %%
# .. check:: the pickle names ``print`` by ``GLOBAL``, as does the refusal; nothing printed
assert pickle.GLOBAL + b"__builtin__\nprint\n" in surprise_path.read_bytes()
assert "print" in naming
assert captured.getvalue() == ""

# %%
# Never pass ``weights_only=False`` for a file you did not write: it runs
# whatever the file says. :func:`torch.serialization.add_safe_globals`
# allows your own classes that you list and trust. A state dict needs none
# of this, nor does a checkpoint of tensors and the plain data above.
#
# Without ``weights_only``, :func:`torch.load` uses your version's default;
# ``torch.__version__`` names the version. Passing ``pickle_module`` makes it ``False``.
#
# - Since PyTorch 2.6 the default is ``True``: the load refuses this file.
# - In torch 2.4 it is ``False``: the load runs the file's ``print``, and
#   warns with a :class:`FutureWarning`.
#
# .. detail:: Environment variables
#
#    In torch 2.4 and 2.13, ``TORCH_FORCE_WEIGHTS_ONLY_LOAD=1`` makes every
#    load weights-only, even one that passes ``weights_only=False``. In
#    torch 2.13, ``TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD=1`` sets the default to
#    ``False``.
during_default = io.StringIO()
with (
    contextlib.redirect_stdout(during_default),
    warnings.catch_warnings(record=True) as caught,  # collects the warnings
):
    warnings.simplefilter("always")  # keep each one
    try:
        torch.load(surprise_path)  # no weights_only: this version's default
    except pickle.UnpicklingError:
        outcome = "refused to call print"
    else:
        outcome = "called print"
print(f"torch {torch.__version__}, no weights_only: {outcome}")
print("warnings:", [warning.category.__name__ for warning in caught])


# %%
# .. check:: a listed class loads; the plain data loads; a NumPy number does not
class Point:  # a class of one's own, refused until allowed
    def __init__(self, x):
        self.x = x


buffer = io.BytesIO()
torch.save({"point": Point(3), "data": [1, "a", None, (2.5,)]}, buffer)
buffer.seek(0)
try:
    torch.load(buffer, weights_only=True)
except pickle.UnpicklingError:
    pass
else:
    raise AssertionError("weights_only=True loaded a class not allowed")
torch.serialization.add_safe_globals([Point])
buffer.seek(0)
allowed = torch.load(buffer, weights_only=True)
torch.serialization.clear_safe_globals()
assert allowed["point"].x == 3
assert allowed["data"] == [1, "a", None, (2.5,)]
numpy_number = torch.zeros(1, dtype=torch.float64).numpy()[0]  # a numpy.float64
for other in (numpy_number, frozenset({1})):  # not the plain data named
    torch.save(other, folder / "other.pt")
    with contextlib.suppress(pickle.UnpicklingError):
        torch.load(folder / "other.pt", weights_only=True)
        raise AssertionError(f"weights_only=True loaded {other!r}")

# %%
# .. check:: without ``weights_only``, loads follow the default and the variables
yes = ("1", "y", "yes", "true")  # the values that switch either variable on
names = ("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD")
forced_on, forced_off = (os.environ.get(name, "").lower() in yes for name in names)
safe_default = forced_on or (torch.__version__ >= "2.6" and not forced_off)
assert (during_default.getvalue() == "") == safe_default
assert (outcome == "refused to call print") == safe_default
if not forced_on and not forced_off and torch.__version__ < "2.5":
    assert [warning.category for warning in caught] == [FutureWarning]
if not forced_on:  # with a pickle_module, the default is False: print runs
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        torch.load(surprise_path, pickle_module=pickle)
    assert printed.getvalue() != ""
cases = [(names[0], {"weights_only": False})]  # the detail: 2.4 and 2.13
cases += [(names[1], {})] if torch.__version__ >= "2.13" else []
for variable, options in cases:  # load the file with one variable set
    with (
        mock.patch.dict(os.environ),
        contextlib.redirect_stdout(io.StringIO()) as printed,
    ):
        for name in names:
            os.environ.pop(name, None)
        os.environ[variable] = "1"
        with warnings.catch_warnings(), contextlib.suppress(pickle.UnpicklingError):
            warnings.simplefilter("ignore")
            torch.load(surprise_path, **options)
    assert (printed.getvalue() != "") == (variable == names[1])

# %%
# safetensors: tensors and text
# -----------------------------
# A safetensors file has three parts, and nothing to execute:
#
# 1. eight bytes that give the length of the header;
# 2. the header, a JSON text. It gives each tensor's name, :term:`dtype`,
#    shape and ``data_offsets``: where its bytes start and end, counted from
#    the header's end. It can also hold a dictionary of strings;
# 3. the raw bytes of the tensors.
#
# The cell below uses ``safetensors.torch``:
#
# 1. ``save_file`` saves a dictionary of tensors, here the state dict, and
#    ``metadata`` strings: the epoch, and an SGD optimiser's settings as JSON
#    text from ``json.dumps``.
# 2. To read the header by hand, ``read_bytes`` reads the file.
#    ``int.from_bytes`` turns the first eight bytes into the length, lowest
#    byte first: ``"little"``. ``json.loads`` reads the JSON.
# 3. ``load_file`` returns the dictionary; the cell prints its names.
# 4. ``safe_open`` opens the file; ``framework="pt"`` asks for PyTorch
#    tensors. Its ``get_tensor`` reads one tensor by name, and its
#    ``metadata`` gives the strings back.
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
settings = {key: optimizer.param_groups[0][key] for key in ("lr", "momentum")}
metadata = {"epoch": "3", "optimizer": json.dumps(settings)}
safe_path = folder / "model.safetensors"
save_file(state, safe_path, metadata=metadata)
raw = safe_path.read_bytes()
length = int.from_bytes(raw[:8], "little")
header = json.loads(raw[8 : 8 + length])
print(f"{safe_path.name}: {len(raw):,} bytes; layers.4.bias: {header['layers.4.bias']}")

print(list(load_file(safe_path)))
with safe_open(safe_path, framework="pt") as lazy:
    print(lazy.get_tensor("layers.4.bias"))
    print(dict(sorted(lazy.metadata().items())))  # stored in no fixed order

# %%
# .. check:: ``load_file`` and ``safe_open`` give back the tensors and the strings saved
loaded = load_file(safe_path)
assert all(torch.equal(loaded[name], tensor) for name, tensor in state.items())
with safe_open(safe_path, framework="pt") as lazy:
    assert torch.equal(lazy.get_tensor("layers.4.bias"), state["layers.4.bias"])
    assert lazy.metadata() == metadata
assert header["__metadata__"] == metadata  # the strings are in the header

# %%
# The dictionary takes tensors and nothing else. An epoch number goes into
# the strings. A checkpoint of numbers, lists and dicts is
# simpler as a :func:`torch.save` file. ``save_file`` also refuses:
#
# - two tensors that share memory, with a :class:`RuntimeError`. A model
#   that uses one layer twice has such "tied" weights. ``save_model`` and
#   ``load_model`` handle them.
# - a tensor that is not :term:`contiguous`, with a :class:`ValueError`.
#   Save its ``.contiguous()`` copy.
shared = torch.zeros(2)  # one tensor under two names, as tied weights are
for bad in ({"epoch": 3}, {"a": shared, "b": shared}, {"t": torch.zeros(2, 3).t()}):
    try:
        save_file(bad, folder / "bad.safetensors")
    except (ValueError, RuntimeError) as error:
        print(f"{type(error).__name__}: {str(error).strip().split(':')[0]}")
    else:
        raise AssertionError(f"safetensors saved {list(bad)}")


# %%
# .. check:: ``save_model`` and ``load_model`` handle tied weights; a contiguous copy saves
class Tied(torch.nn.Module):  # one weight under two names
    def __init__(self):
        super().__init__()
        self.first = torch.nn.Linear(2, 2, bias=False)
        self.second = torch.nn.Linear(2, 2, bias=False)
        self.second.weight = self.first.weight


with torch.random.fork_rng(devices=[]):  # a new layer draws its weights
    tied, tied_copy = Tied(), Tied()
save_model(tied, folder / "tied.safetensors")
load_model(tied_copy, folder / "tied.safetensors")
assert torch.equal(tied_copy.second.weight, tied.first.weight)
assert tied_copy.second.weight is tied_copy.first.weight
save_file({"t": torch.zeros(2, 3).t().contiguous()}, folder / "t.safetensors")

# %%
# The two files side by side
# --------------------------
# The figure draws both files to scale.
#
# - The ``.pt`` archive starts with its pickle. Each tensor's bytes follow
#   in an entry of their own, uncompressed, between zip headers and a few
#   small records. Padding, filler bytes, makes them start at a multiple of
#   64 bytes. The zip's index of its entries comes last.
# - The safetensors file is the length, the header, then all tensor bytes.
#
# Both hold the same tensor bytes. The ``.pt`` file keeps the state dict's
# order; safetensors has an order of its own. The rest is bookkeeping for
# each tensor and for the file. It grows with the number of tensors, not
# their size. So a large model's files are almost all tensor bytes.
#
# .. detail:: How the code finds and draws the parts
#
#    The archive's ``infolist`` describes each entry: its ``filename``, and
#    its ``header_offset``, where its zip header starts. ``archive.read``
#    gives an entry's bytes, found right after that header.
#    ``.numpy().tobytes()`` gives a tensor's bytes. Matplotlib's
#    ``broken_barh`` draws the spans, ``ax.text`` writes the sizes, and
#    ``fig.legend`` with ``Patch`` names the colours of the site's
#    ``PALETTE``.
in_order = [t.numpy().tobytes() for t in state.values()]  # the state dict's order
tensor_bytes = sum(map(len, in_order))
pt_raw = weights_path.read_bytes()
pt_spans = {"tensors": [], "description": []}  # (start, size) of each part
with zipfile.ZipFile(weights_path) as archive:
    for info in archive.infolist():
        kind = "tensors" if "/data/" in info.filename else "description"
        if kind == "tensors" or info.filename.endswith("/data.pkl"):
            content = archive.read(info)  # found right after the entry's header
            start = pt_raw.index(content, info.header_offset)
            pt_spans[kind].append((start, len(content)))
safe_spans = {"tensors": [(8 + length, tensor_bytes)], "description": [(8, length)]}
print(f"tensor bytes in each file: {tensor_bytes:,}")

fig, ax = plt.subplots(figsize=(9, 2.4), layout="constrained")
files = {weights_path.name: (pt_raw, pt_spans), safe_path.name: (raw, safe_spans)}
for row, (data, spans) in enumerate(files.values()):
    ax.broken_barh([(0, len(data))], (row - 0.3, 0.6), color=PALETTE[7])
    ax.broken_barh(spans["description"], (row - 0.3, 0.6), color=PALETTE[1])
    ax.broken_barh(spans["tensors"], (row - 0.3, 0.6), color=PALETTE[5])
    ax.text(len(data) + 50, row, f"{len(data):,} bytes", va="center")
ax.set(yticks=[0, 1], yticklabels=list(files), ylim=(1.5, -0.5))
ax.set(xlabel="byte offset in the file", xlim=(0, 1.15 * len(pt_raw)))
legend = {5: "tensor bytes", 1: "pickle / JSON header"}
legend[7] = "zip records and padding / length"
patches = [Patch(color=PALETTE[i], label=label) for i, label in legend.items()]
fig.legend(handles=patches, loc="outside upper center", ncols=3)
plt.show()

# %%
# .. check:: both files hold the tensor bytes as drawn; a large model's files are almost all tensors
with zipfile.ZipFile(weights_path) as archive:
    assert all(i.compress_type == zipfile.ZIP_STORED for i in archive.infolist())
assert [pt_raw[s : s + n] for s, n in pt_spans["tensors"]] == in_order
offsets = [header[name]["data_offsets"] for name in state]
assert [raw[8 + length + a : 8 + length + b] for a, b in offsets] == in_order
assert sorted(offsets) != offsets  # safetensors' own order
assert len(raw) - 8 - length == tensor_bytes
assert all(start % 64 == 0 for start, _ in pt_spans["tensors"])
assert pt_spans["description"][0][0] < min(start for start, _ in pt_spans["tensors"])
assert pt_raw.index(b"PK\x01\x02") > max(sum(span) for span in pt_spans["tensors"])
big = {"weight": torch.zeros(1000, 1000)}  # one tensor of 4,000,000 bytes
torch.save(big, folder / "big.pt")
save_file(big, folder / "big.safetensors")
for name, data in (("big.pt", pt_raw), ("big.safetensors", raw)):
    extra = (folder / name).stat().st_size - 4_000_000
    assert extra < len(data) - tensor_bytes  # less than for six tiny tensors
    assert extra < 0.001 * 4_000_000
assert (folder / "big.safetensors").stat().st_size < (folder / "big.pt").stat().st_size

# %%
# ``workdir.cleanup()`` deletes the folder.
workdir.cleanup()

# %%
# Summary
# -------
# - A ``.pt`` file is a zip archive: a pickle and each storage's bytes.
# - A pickle can name any function to call. :func:`torch.load` with
#   ``weights_only=True`` refuses them; never switch it off for a file you
#   did not write.
# - A safetensors file holds tensors and strings, and nothing to run.
#
# Next, if you have not read it:
# :ref:`sphx_glr_auto_examples_training_plot_09_checkpoints_and_resuming.py`,
# which saves and resumes a whole run.
