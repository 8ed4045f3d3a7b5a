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
# The page runs on the CPU; its one file goes into a temporary folder.
import argparse
import pickle
import re
import sys
import tempfile
import warnings
from collections import OrderedDict
from functools import partial
from multiprocessing import get_all_start_methods
from multiprocessing.reduction import ForkingPickler
from pathlib import Path

import torch
from torch import nn
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader

from tutorial_utils.environment import environment_summary

print(environment_summary(torch.device("cpu")))

# %%
# .. _error-collate-unequal-size:
#
# stack expects each tensor to be equal size, but got … at entry … and … at entry …
# ---------------------------------------------------------------------------------
# Raised by a :class:`~torch.utils.data.DataLoader` whose samples have different
# :term:`shapes <shape>`: sentences or recordings of different lengths, or images
# of different sizes.
sequences = [torch.arange(1.0, 3), torch.arange(3.0, 7), torch.arange(7.0, 10)]
loader = DataLoader(sequences, batch_size=3)
try:
    next(iter(loader))
except RuntimeError as error:
    message = str(error)
    print(f"{type(error).__name__}: {message}")
else:
    raise AssertionError("samples of lengths 2, 4 and 3 were batched")

# %%
# .. check:: samples of lengths 2, 4 and 3 get the heading's message
assert "stack expects each tensor to be equal size, but got " in message
assert " at entry " in message
assert " and " in message

# %%
# **Why.** Each field of a :term:`batch` (the inputs, the labels) becomes one tensor,
# and a tensor is rectangular: every row has the same length. The loader's default
# :term:`collate function`, :func:`~torch.utils.data.default_collate`, joins the
# samples' tensors with :func:`torch.stack`, which puts equal-shaped tensors side by
# side along a new first :term:`dimension`; the message is :func:`torch.stack`'s
# own, and "entry" counts the samples of the batch from 0. (Samples that are Python
# lists stop at an earlier check, with a message of its own.)

# %%
# .. check:: the message is ``torch.stack``'s; pairs and images get it too, lists another
try:
    torch.stack(sequences)
except RuntimeError as error:
    stack_message = str(error)
else:
    raise AssertionError("torch.stack stacked tensors of lengths 2, 4 and 3")
assert stack_message == message
images = [torch.ones(3, 32, 32), torch.ones(3, 32, 40)]
for samples in ([(x, 0) for x in sequences], [x.tolist() for x in sequences], images):
    try:
        with torch.random.fork_rng(devices=[]):  # iterating a DataLoader draws a seed
            next(iter(DataLoader(samples, batch_size=len(samples))))
    except RuntimeError as error:
        other = str(error)
    else:
        raise AssertionError("samples of different shapes were batched")
    assert ("stack expects each" in other) != isinstance(samples[0], list)


# %%
# **Fix.** For sequences, which differ only in their first dimension, give the
# loader a ``collate_fn`` that pads the samples to the longest one in the batch with
# :func:`torch.nn.utils.rnn.pad_sequence` (``batch_first=True`` gives the shape
# ``(batch, longest)``), and return the true lengths too, to tell data from
# :term:`padding` later. Images of different sizes are resized or cropped to one
# size in the data set's transform instead: ``pad_sequence`` pads only the first
# dimension, and fails on them.
def pad_batch(batch):
    lengths = torch.tensor([len(sample) for sample in batch])
    return pad_sequence(batch, batch_first=True, padding_value=0.0), lengths


padded, lengths = next(iter(DataLoader(sequences, batch_size=3, collate_fn=pad_batch)))
print(padded)
print("lengths:", lengths)

# %%
# .. check:: the batch is padded to ``(3, 4)`` with lengths 2, 4, 3; images make ``pad_sequence`` fail
assert padded.shape == (3, 4)
assert lengths.tolist() == [2, 4, 3]
images = [torch.ones(3, 32, 32), torch.ones(3, 32, 40)]
try:
    pad_sequence(images, batch_first=True)
except RuntimeError:
    pass
else:
    raise AssertionError("pad_sequence padded images along their last dimension")

# %%
# .. _error-pickle-worker:
#
# Can't pickle …
# --------------
# Raised when a :class:`~torch.utils.data.DataLoader` with ``num_workers > 0`` starts
# workers with the ``spawn`` or ``forkserver`` :term:`start method` and something it
# must send them, here a ``lambda`` as ``collate_fn``, cannot be pickled. Naming
# ``spawn`` makes it fail on every platform. The message is Python's, and its end
# depends on the version. The page prints ``0x…`` for the memory address, which
# varies.
#
# .. detail:: Other versions
#
#    The message ends ``attribute lookup <lambda> on __main__ failed`` up to Python
#    3.13, ``it's not found as __main__.<lambda>`` from 3.14. Recent versions of
#    PyTorch (2.13 among them, not 2.4) first warn "Got pickle error when attempting
#    to start a worker Process".
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

# %%
# .. check:: ``Can't pickle`` ends as this Python words it; PyTorch 2.13 warns first, 2.4 does not
new_pickle = sys.version_info >= (3, 14)  # Python 3.14 rewrote pickle's messages
tail = r"it's not found as .*<lambda>" if new_pickle else r"attribute lookup .* failed"
assert re.fullmatch(r"Can't pickle <function <lambda> at 0x\w+>: " + tail, message)
warned = "Got pickle error when attempting to start a worker Process"
assert all(str(warning.message).startswith(warned) for warning in caught)
assert caught or torch.__version__ < "2.13"
assert not caught or torch.__version__ >= "2.5"

# %%
# **Why.** A spawned worker is a new Python process, and the loader sends it the
# data set, the ``collate_fn`` and the ``worker_init_fn`` with :mod:`pickle`. Pickle
# stores a function as a reference, its module and name, for the worker to import,
# and first looks the name up to check that it leads back to the function. A
# ``lambda`` is called ``<lambda>``, a name no module holds, so that lookup fails,
# in the main process, which does the pickling: pickling the lambda there with the
# workers' pickler gives the same message.

# %%
# .. check:: pickling the lambda in the main process gives the same message
try:
    ForkingPickler.dumps(loader.collate_fn)
except pickle.PicklingError as error:
    parent_message = str(error)
else:
    raise AssertionError("the lambda was pickled")
assert parent_message == message

# %%
# A function made inside another function (here a lambda) fails in the same way,
# with a message that depends on the Python version. ``spawn`` is the default start
# method on Windows and macOS. With ``fork``, the default on Linux before Python 3.14,
# each worker is a copy of the parent process that already holds the function, so the
# same loader works there and fails on the others. The platform's default comes first in
# :func:`multiprocessing.get_all_start_methods` (a script can choose another with
# :func:`multiprocessing.set_start_method`, a loader with ``multiprocessing_context``):
#
# .. detail:: Python versions
#
#    The error is :class:`AttributeError` "Can't pickle local object" in Python 3.10,
#    3.11 and the first 3.12 releases, and "Can't get local object" in later 3.12
#    releases and 3.13. From 3.14 it is :class:`~pickle.PicklingError` "Can't pickle
#    local object".
print("default start method here:", get_all_start_methods()[0])


def make_collate():
    return lambda batch: pad_sequence(batch, batch_first=True)


try:
    ForkingPickler.dumps(make_collate())
except (AttributeError, pickle.PicklingError) as error:
    local_error, local_message = type(error), re.sub("0x[0-9a-f]+", "0x…", str(error))
    print(f"{local_error.__name__}: {local_message}")
else:
    raise AssertionError("a local function was pickled")

# %%
# .. check:: the local function's message and error type are this Python version's
verbs = {(3, 12): ["pickle", "get"], (3, 13): ["get"]}.get(sys.version_info[:2])
assert any(f"Can't {v} local object" in local_message for v in verbs or ["pickle"])
assert local_error is (pickle.PicklingError if new_pickle else AttributeError)

# %%
# **Fix.** Pass something pickle can find by name: a function defined at the top
# level of a module the workers can import (a script keeps its work behind
# ``if __name__ == "__main__":``, see
# :ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py`), or a
# :class:`functools.partial` of one, which pickles as the function plus its
# arguments. A spawned worker would rerun this unguarded script, so the page checks
# the step that failed, pickling, and then loads in the main process.
collate = partial(pad_sequence, batch_first=True)
received = ForkingPickler.loads(ForkingPickler.dumps(collate))
batch = next(iter(DataLoader(sequences, batch_size=3, collate_fn=received)))

# %%
# .. check:: the ``partial`` survives pickling and pads the batch as ``pad_batch`` did
assert torch.equal(batch, padded)

# %%
# .. _error-state-dict-missing-keys:
#
# Missing key(s) in state_dict
# ----------------------------
# Raised by :meth:`~torch.nn.Module.load_state_dict` when the model has parameters
# or persistent buffers that the :term:`state dict` does not name, for example after
# a layer was renamed (here ``out`` became ``head``).
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

# %%
# .. check:: the renamed layer gets the heading's message
assert "Missing key(s) in state_dict" in message

# %%
# **Why.** :meth:`~torch.nn.Module.load_state_dict` matches tensors by name (the
# path of attributes that leads to each parameter), not by position. With the
# default ``strict=True`` it raises when a name of the model is missing from the
# dictionary, or (the second line) a name in the dictionary is not in the model.
# The tensors whose names matched were copied before the error.

# %%
# .. check:: the matching ``hidden`` weights were copied before the error
assert torch.equal(model.hidden.weight, saved["hidden.weight"])

# %%
# **Fix.** Rename the keys of the dictionary to the model's names, then load; the
# returned lists of missing and unexpected keys are empty.
renamed = {
    "head." + key.removeprefix("out.") if key.startswith("out.") else key: value
    for key, value in saved.items()
}
result = model.load_state_dict(renamed)
print(result)

# %%
# .. check:: no key is missing or unexpected, and ``head`` holds the old ``out`` weights
assert result.missing_keys == []
assert result.unexpected_keys == []
assert torch.equal(model.head.weight, old.out.weight)

# %%
# .. _error-state-dict-unexpected-keys:
#
# Unexpected key(s) in state_dict
# -------------------------------
# Raised by :meth:`~torch.nn.Module.load_state_dict` when the dictionary names
# tensors the model does not have, typically weights saved from a wrapped model:
# every name starts with ``module.`` after :class:`~torch.nn.DataParallel` or
# :class:`~torch.nn.parallel.DistributedDataParallel`, with ``_orig_mod.`` after
# :func:`torch.compile`.
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

# %%
# .. check:: the ``module.`` names get the heading's message
assert "Unexpected key(s) in state_dict" in message

# %%
# **Why.** The wrapper keeps the model as an attribute (``module``; ``_orig_mod``
# in what :func:`torch.compile` returns), so every name in its state dict gets that
# prefix, and none matches the plain model's names (which are then missing, too).
#
# **Fix.** Save ``wrapped.module.state_dict()``, the model's own names; for a file
# already saved, remove the prefix.
print(f"the model's own names: {list(wrapped.module.state_dict())}")
plain = {key.removeprefix("module."): value for key, value in saved.items()}
model = nn.Linear(2, 1)
print(model.load_state_dict(plain))

# %%
# .. check:: ``torch.compile`` prefixes ``_orig_mod.``; ``wrapped.module`` has plain names, now loaded
with torch.random.fork_rng(devices=[]):  # a new layer draws its initial weights
    compiled = torch.compile(nn.Linear(2, 1), backend="eager")  # compiles nothing yet
assert list(compiled.state_dict()) == ["_orig_mod." + k for k in ["weight", "bias"]]
assert list(wrapped.module.state_dict()) == ["weight", "bias"]
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

# %%
# .. check:: the 10-class head in a 3-class model gets the heading's message
assert "size mismatch for " in message
assert ": copying a param with shape " in message
assert " from checkpoint, the shape in current model is " in message

# %%
# **Why.** Loading copies each saved tensor into the existing parameter of the same
# name (or, with ``assign=True``, puts it in its place), and it checks first that
# the shapes are equal. ``strict=False`` does not help: it skips names that do not
# match, not shapes.

# %%
# .. check:: ``strict=False`` raises the same size mismatch
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

# %%
# .. check:: exactly the head is missing, nothing is unexpected, and the body was loaded
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
# script's options. Shown: the first sentence and the line naming the refused type.
#
# .. detail:: Before PyTorch 2.6
#
#    ``weights_only`` is ``True`` by default since PyTorch 2.6 and ``False`` before,
#    so on older versions (2.4, say) pass it, as this page does.
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

# %%
# .. check:: the checkpoint gets the heading's message, naming ``argparse.Namespace``
assert "Weights only load failed" in message
assert "argparse.Namespace" in refused[0]

# %%
# **Why.** A ``.pt`` file is a pickle, and unpickling can call any function the
# file names. With ``weights_only=True``, :func:`torch.load` rebuilds only tensors,
# plain Python data (numbers, strings, ``None``, lists, tuples, dicts) and a short
# list of allowed types, and refuses any other class or function before calling
# it. PyTorch's documentation says never to load data from an untrusted source
# that way; the safe habit is ``weights_only=False`` only for files you wrote.
#
# **Fix.** Save plain data: a state dict, and the options as a dictionary
# (``vars(args)``). That loads with ``weights_only=True``, with nothing to allow.
torch.save({"model": checkpoint["model"], "args": vars(args)}, path)
loaded = torch.load(path, weights_only=True)
print(loaded["args"])

# %%
# .. check:: the options come back whole, and ``torch.load``'s doc warns of untrusted sources
assert argparse.Namespace(**loaded["args"]) == args
assert "untrusted source" in " ".join(torch.load.__doc__.split())

# %%
# For a file you trust whose types you cannot change, allow exactly those types:
# :func:`torch.serialization.add_safe_globals` (PyTorch 2.4 and later) for the rest
# of the process, the context manager :class:`torch.serialization.safe_globals`
# (PyTorch 2.5 and later) only inside its ``with`` block.
torch.save(checkpoint, path)
if hasattr(torch.serialization, "safe_globals"):
    with torch.serialization.safe_globals([argparse.Namespace]):
        loaded = torch.load(path, weights_only=True)
else:
    torch.serialization.add_safe_globals([argparse.Namespace])
    loaded = torch.load(path, weights_only=True)
print(loaded["args"])
workdir.cleanup()

# %%
# .. check:: ``safe_globals`` exists from 2.5, allows only inside ``with``, and the load works
assert hasattr(torch.serialization, "safe_globals") == (torch.__version__ >= "2.5")
if hasattr(torch.serialization, "safe_globals"):
    assert argparse.Namespace not in torch.serialization.get_safe_globals()
assert loaded["args"] == args

# %%
# See also :ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py`,
# :ref:`sphx_glr_auto_examples_training_plot_08_saving_and_loading.py` and
# :ref:`sphx_glr_auto_examples_training_plot_09_checkpoints_and_resuming.py`.
