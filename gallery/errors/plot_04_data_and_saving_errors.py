"""
Errors with data and saving
===========================

The errors of batching samples, of sending work to
:class:`~torch.utils.data.DataLoader` worker processes, and of saving and
loading weights with :func:`torch.load` and
:meth:`~torch.nn.Module.load_state_dict`. The messages in the output were
printed by the PyTorch that built the page.
"""

# %%
# The page runs on the CPU. The one file it writes goes into a temporary folder
# that the last entry deletes.
import argparse
import pickle
import re
import tempfile
import warnings
from collections import OrderedDict
from functools import partial
from multiprocessing import get_all_start_methods
from multiprocessing.reduction import ForkingPickler
from pathlib import Path

import matplotlib.pyplot as plt
import torch
from matplotlib.colors import ListedColormap
from torch import nn
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader

from tutorial_utils.colours import PALETTE
from tutorial_utils.environment import environment_summary

print(environment_summary(torch.device("cpu")))

# %%
# .. _error-collate-unequal-size:
#
# stack expects each tensor to be equal size, but got … at entry … and … at entry …
# ---------------------------------------------------------------------------------
# Raised by a :class:`~torch.utils.data.DataLoader` whose samples have different
# :term:`shapes <shape>`, such as sentences or recordings of different lengths.
sequences = [torch.arange(1.0, 3), torch.arange(3.0, 7), torch.arange(7.0, 10)]
loader = DataLoader(sequences, batch_size=3)
try:
    next(iter(loader))
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("samples of lengths 2, 4 and 3 were batched")
assert "stack expects each tensor to be equal size, but got " in message
assert " at entry " in message
assert " and " in message

# %%
# **Why.** A :term:`batch` is one tensor, and a tensor is rectangular: every row has
# the same length. The loader's default :term:`collate function`,
# :func:`~torch.utils.data.default_collate`, joins the samples of a batch with
# :func:`torch.stack`, which puts equal-shaped tensors side by side along a new first
# :term:`dimension`; the message is :func:`torch.stack`'s own, and "entry" counts
# the samples of the batch from 0.
try:
    torch.stack(sequences)
except RuntimeError as error:
    stack_message = str(error)
else:
    raise AssertionError("torch.stack stacked tensors of lengths 2, 4 and 3")
assert stack_message == message


# %%
# **Fix.** Give the loader a ``collate_fn`` that pads the samples to the longest
# one in the batch. :func:`torch.nn.utils.rnn.pad_sequence` does the :term:`padding`
# (``batch_first=True`` gives shape ``(batch, longest)``); return the true lengths
# too, because the padded zeros are not data.
def pad_batch(batch):
    lengths = torch.tensor([len(sample) for sample in batch])
    return pad_sequence(batch, batch_first=True, padding_value=0.0), lengths


padded, lengths = next(iter(DataLoader(sequences, batch_size=3, collate_fn=pad_batch)))
print(padded)
print("lengths:", lengths)
assert padded.shape == (3, 4)
assert lengths.tolist() == [2, 4, 3]

# %%
# Whatever comes next must ignore the padding. A :term:`mask` built from the
# lengths picks the real values: here it gives each sequence's true mean, where
# ``padded.mean(dim=1)`` would count the zeros. (:class:`torch.nn.RNN` and its
# relatives take the lengths through :func:`torch.nn.utils.rnn.pack_padded_sequence`
# instead.)
mask = torch.arange(padded.shape[1]) < lengths[:, None]
means = (padded * mask).sum(dim=1) / lengths
print("masked means:", means.tolist(), " padded.mean:", padded.mean(dim=1).tolist())
assert torch.equal(padded[mask], torch.cat(sequences))
torch.testing.assert_close(means, torch.stack([s.mean() for s in sequences]))
assert not torch.allclose(padded.mean(dim=1), means)

fig, ax = plt.subplots(figsize=(4.5, 2.2))
ax.imshow(mask.numpy(), cmap=ListedColormap([PALETTE[7], PALETTE[0]]), vmin=0, vmax=1)
for row, values in enumerate(padded.tolist()):
    for col, value in enumerate(values):
        ax.text(col, row, f"{value:g}", ha="center", va="center")
ax.set_xticks(range(4))
ax.set_yticks(range(3), [f"length {n}" for n in lengths.tolist()])
ax.set_title("pad_sequence: real values (blue), padding (grey)")
plt.show()

# %%
# .. _error-pickle-worker:
#
# Can't pickle …: attribute lookup … failed
# -----------------------------------------
# Raised when a :class:`~torch.utils.data.DataLoader` with ``num_workers > 0`` starts
# workers with the ``spawn`` or ``forkserver`` :term:`start method` and something it
# must send them, here a ``lambda`` as ``collate_fn``, cannot be pickled. Naming
# ``spawn`` makes it fail on every platform. The page prints ``0x…`` for the memory
# address, which changes from run to run.
loader = DataLoader(
    sequences,
    batch_size=3,
    num_workers=1,
    multiprocessing_context="spawn",
    collate_fn=lambda batch: pad_sequence(batch, batch_first=True),
)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        next(iter(loader))
    except pickle.PicklingError as error:
        message = str(error)
        print(f"{type(error).__name__}: {re.sub('0x[0-9a-fA-F]+', '0x…', message)}")
    else:
        raise AssertionError("a lambda was sent to a spawned worker")
assert "Can't pickle " in message
assert ": attribute lookup " in message
assert message.endswith(" failed")

# %%
# Before the error, recent versions of PyTorch (2.13 among them, not 2.4) also issue
# a ``UserWarning`` that starts "Got pickle error when attempting to start a worker
# Process"; the page caught it:
for warning in caught:
    print(f"{warning.category.__name__}: {str(warning.message).split('. ')[0]}")
assert all(issubclass(warning.category, UserWarning) for warning in caught)
assert caught or torch.__version__ < "2.13"
assert not caught or torch.__version__ >= "2.5"

# %%
# **Why.** A spawned worker is a new Python process, and the loader sends it the
# data set, the ``collate_fn`` and the ``worker_init_fn`` with :mod:`pickle`. Pickle
# stores a function as a reference, its module and name, which the worker looks up
# again; :func:`~torch.nn.utils.rnn.pad_sequence` pickles to a few dozen bytes that
# name it. A ``lambda`` is called ``<lambda>``, a name no module holds, so the
# lookup fails.
payload = bytes(ForkingPickler.dumps(pad_sequence))  # as multiprocessing pickles
print(f"{len(payload)} bytes: {payload!r}")
assert b"torch.nn.utils.rnn" in payload
assert b"pad_sequence" in payload
assert len(payload) < 100

# %%
# A function defined inside another function fails in the same way, with "Can't
# pickle local object" (Python 3.10 to 3.12) or "Can't get local object" (Python
# 3.13). ``spawn`` is the default start method on Windows and macOS. With ``fork``,
# the default on Linux before Python 3.14, each worker is a copy of the parent
# process that already holds the function, so the same loader works there and
# fails on the others. The default of the machine that built this page comes first
# in :func:`multiprocessing.get_all_start_methods`:
print("default start method here:", get_all_start_methods()[0])


def make_collate():
    def collate(batch):
        return pad_sequence(batch, batch_first=True)

    return collate


try:
    ForkingPickler.dumps(make_collate())
except (AttributeError, pickle.PicklingError) as error:
    local_message = str(error)
    print(f"{type(error).__name__}: {local_message}")
else:
    raise AssertionError("a local function was pickled")
assert any(f"Can't {verb} local object" in local_message for verb in ("pickle", "get"))

# %%
# **Fix.** Pass something pickle can find by name: a function defined at the top
# level of a module the workers can import (in a script, at its top level, with
# the work behind ``if __name__ == "__main__":``, as
# :ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py` explains),
# or a :class:`functools.partial` of such a function, which pickles as the function
# plus its arguments. A spawned worker would start by running this script again,
# which has no such guard, so the page checks the step that failed, pickling with
# the pickler the workers use, and then loads in the main process:
collate = partial(pad_sequence, batch_first=True)
received = ForkingPickler.loads(ForkingPickler.dumps(collate))
batch = next(iter(DataLoader(sequences, batch_size=3, collate_fn=received)))
print(batch.shape)
assert torch.equal(batch, padded)

# %%
# .. _error-state-dict-missing-keys:
#
# Missing key(s) in state_dict
# ----------------------------
# Raised by :meth:`~torch.nn.Module.load_state_dict` when the model has parameters or
# persistent buffers that the :term:`state dict` does not name, for example after a layer was
# renamed (here ``out`` became ``head``).
torch.manual_seed(0)
old = nn.Sequential(OrderedDict(hidden=nn.Linear(2, 4), out=nn.Linear(4, 1)))
saved = old.state_dict()
model = nn.Sequential(OrderedDict(hidden=nn.Linear(2, 4), head=nn.Linear(4, 1)))
try:
    model.load_state_dict(saved)
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("a state dict without head.* was loaded")
assert "Missing key(s) in state_dict" in message

# %%
# **Why.** :meth:`~torch.nn.Module.load_state_dict` matches tensors by name (the
# path of attributes that leads to each parameter), not by position. With the
# default ``strict=True`` it raises when a name of the model is missing from the
# dictionary, or (the second line) a name in the dictionary is not in the model.
# The tensors whose names matched were copied before the error:
copied = torch.equal(model.hidden.weight, saved["hidden.weight"])
print("hidden.weight was copied anyway:", copied)
assert copied

# %%
# **Fix.** Rename the keys of the dictionary to the model's names, then load; the
# returned lists of missing and unexpected keys are empty.
renamed = {
    "head." + key.removeprefix("out.") if key.startswith("out.") else key: value
    for key, value in saved.items()
}
result = model.load_state_dict(renamed)
print(result)
assert result.missing_keys == []
assert result.unexpected_keys == []
assert torch.equal(model.head.weight, old.out.weight)

# %%
# .. _error-state-dict-unexpected-keys:
#
# Unexpected key(s) in state_dict
# -------------------------------
# Raised by :meth:`~torch.nn.Module.load_state_dict` when the dictionary names
# tensors the model does not have, typically weights saved from a model wrapped in
# :class:`~torch.nn.DataParallel` or :class:`~torch.nn.parallel.DistributedDataParallel`,
# whose names all start with ``module.``.
wrapped = nn.DataParallel(nn.Linear(2, 1))
saved = wrapped.state_dict()
print(list(saved))
try:
    nn.Linear(2, 1).load_state_dict(saved)
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("module.* names were loaded into a plain Linear")
assert "Unexpected key(s) in state_dict" in message

# %%
# **Why.** Both wrappers keep the model as their attribute ``module``, so every
# name in their state dict gets the prefix ``module.``, and none matches the
# plain model's names (which are then missing, too).
#
# **Fix.** Save ``wrapped.module.state_dict()``, the model's own names; for a file
# already saved, remove the prefix.
assert list(wrapped.module.state_dict()) == ["weight", "bias"]
plain = {key.removeprefix("module."): value for key, value in saved.items()}
model = nn.Linear(2, 1)
print(model.load_state_dict(plain))
assert torch.equal(model.weight, wrapped.module.weight.cpu())

# %%
# .. _error-state-dict-size-mismatch:
#
# size mismatch for …: copying a param with shape … from checkpoint, the shape in current model is …
# --------------------------------------------------------------------------------------------------
# Raised by :meth:`~torch.nn.Module.load_state_dict` when a name matches but the
# :term:`shape` does not, for example when weights trained for 10 classes go into a
# model with 3 classes.
torch.manual_seed(0)
pretrained = nn.Sequential(OrderedDict(body=nn.Linear(8, 16), head=nn.Linear(16, 10)))
saved = pretrained.state_dict()
model = nn.Sequential(OrderedDict(body=nn.Linear(8, 16), head=nn.Linear(16, 3)))
try:
    model.load_state_dict(saved)
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("a (10, 16) weight was loaded into a (3, 16) one")
assert "size mismatch for " in message
assert ": copying a param with shape " in message
assert " from checkpoint, the shape in current model is " in message

# %%
# **Why.** Loading copies each saved tensor into the existing parameter of the same
# name (or, with ``assign=True``, puts it in its place), and it checks first that
# the shapes are equal. ``strict=False`` does
# not help: it skips names that do not match, not shapes.
try:
    model.load_state_dict(saved, strict=False)
except RuntimeError as error:
    lenient_message = str(error)
else:
    raise AssertionError("strict=False loaded a (10, 16) weight into a (3, 16) one")
assert "size mismatch for " in lenient_message

# %%
# **Fix.** Decide which tensors to keep. To reuse the body and train a new head,
# drop the saved tensors whose shape differs, load the rest with ``strict=False``,
# and check that exactly the head was left out:
own = model.state_dict()
kept = {key: value for key, value in saved.items() if value.shape == own[key].shape}
result = model.load_state_dict(kept, strict=False)
print(result)
assert result.missing_keys == ["head.weight", "head.bias"]
assert result.unexpected_keys == []
assert torch.equal(model.body.weight, pretrained.body.weight)

# %%
# .. _error-weights-only-load:
#
# Weights only load failed
# ------------------------
# Raised as :class:`pickle.UnpicklingError` by :func:`torch.load` with
# ``weights_only=True`` when the file holds an object of a type it does not allow,
# here a :term:`checkpoint` with the :class:`argparse.Namespace` of a training
# script's options. ``weights_only`` is ``True`` by default since PyTorch 2.6 and
# ``False`` before, so on older versions (2.4, say) pass it, as this page does. Shown:
# the first sentence and the line naming the refused type.
args = argparse.Namespace(lr=0.1, epochs=3)
checkpoint = {"model": nn.Linear(2, 1).state_dict(), "args": args}
workdir = tempfile.TemporaryDirectory()
path = Path(workdir.name) / "checkpoint.pt"
torch.save(checkpoint, path)
try:
    torch.load(path, weights_only=True)
except pickle.UnpicklingError as error:
    message = re.sub(r"\x1b\[[0-9;]*m", "", str(error))  # drop terminal colours
else:
    raise AssertionError("weights_only=True loaded an argparse.Namespace")
refused = [line.strip() for line in message.splitlines() if "global:" in line]
print(f"UnpicklingError: {message.split('. ')[0]}. [...]")
print(refused[0].split(". Please")[0])
assert "Weights only load failed" in message
assert "argparse.Namespace" in refused[0]

# %%
# **Why.** A ``.pt`` file is a pickle, and unpickling can call any function the
# file names. With ``weights_only=True``, :func:`torch.load` rebuilds only tensors,
# plain Python data (numbers, strings, ``None``, lists, tuples, dicts) and a short
# list of allowed types, and refuses any other class or function before calling
# it. Never pass ``weights_only=False`` for a file you did not write yourself.
#
# **Fix.** Save plain data: a state dict, and the options as a dictionary
# (``vars(args)``). That loads with ``weights_only=True``, with nothing to allow.
torch.save({"model": checkpoint["model"], "args": vars(args)}, path)
loaded = torch.load(path, weights_only=True)
print(loaded["args"])
assert argparse.Namespace(**loaded["args"]) == args

# %%
# For a file you trust whose types you cannot change, allow exactly those types.
# :func:`torch.serialization.add_safe_globals` (PyTorch 2.4 and later) allows them
# for the rest of the process; the context manager
# :class:`torch.serialization.safe_globals` (PyTorch 2.5 and later) only inside its
# ``with`` block.
torch.save(checkpoint, path)
assert hasattr(torch.serialization, "safe_globals") == (torch.__version__ >= "2.5")
if hasattr(torch.serialization, "safe_globals"):
    with torch.serialization.safe_globals([argparse.Namespace]):
        loaded = torch.load(path, weights_only=True)
    assert argparse.Namespace not in torch.serialization.get_safe_globals()
else:
    torch.serialization.add_safe_globals([argparse.Namespace])
    loaded = torch.load(path, weights_only=True)
print(loaded["args"])
assert loaded["args"] == args
workdir.cleanup()

# %%
# See also :ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py`,
# :ref:`sphx_glr_auto_examples_training_plot_08_saving_and_loading.py` and
# :ref:`sphx_glr_auto_examples_training_plot_09_checkpoints_and_resuming.py`.
