"""
Errors with pickle
==================

This page explains two errors that come from :mod:`pickle`, Python's format
for storing objects. A :class:`~torch.utils.data.DataLoader` pickles what it
sends to its worker processes. :func:`torch.load` unpickles the file it
reads. Open this page when one of their messages stops your code. Each entry
raises the error, prints the message, says why and runs the fix.

**Before this page:**
:ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py`,
:ref:`sphx_glr_auto_examples_training_plot_52_loader_order_and_workers.py`,
:ref:`sphx_glr_auto_examples_training_plot_08_saving_and_loading.py` and
:ref:`sphx_glr_auto_examples_training_plot_58_safe_loading_and_safetensors.py`.
"""

# %%
# The page runs on the CPU. Its one file goes into a temporary folder.
import argparse
import pickle
import re
import tempfile
import warnings
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
# .. _error-pickle-worker:
#
# Can't pickle …
# --------------
# A :class:`~torch.utils.data.DataLoader` with ``num_workers > 0`` raises it
# when it starts its workers with the ``spawn`` or ``forkserver``
# :term:`start method`. Both start each worker as a fresh Python process. The
# loader sends it, with pickle, what it needs. Here a ``lambda`` cannot be
# pickled: that raises ``pickle.PicklingError``.
#
# The ``lambda`` is the loader's :term:`collate function`, given as
# ``collate_fn``. It pads sequences of different lengths into one
# :term:`batch`, with :func:`torch.nn.utils.rnn.pad_sequence`.
# ``batch_first=True`` puts the batch dimension first. Passing
# ``multiprocessing_context="spawn"`` makes the code fail on every platform.
# The ``with`` block only records a warning that PyTorch may give first.
# The page prints ``0x…`` for the memory address, which varies.
#
# .. detail:: Other versions
#
#    - Up to Python 3.13 the message ends ``attribute lookup <lambda> on
#      __main__ failed``. From 3.14 it ends ``it's not found as
#      __main__.<lambda>``.
#    - PyTorch 2.13 first warns "Got pickle error when attempting to start a
#      worker Process". PyTorch 2.4 does not.
sequences = [torch.arange(1.0, 3), torch.arange(3.0, 7), torch.arange(7.0, 10)]
# three float sequences, of lengths 2, 4 and 3
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
# .. check:: ``Can't pickle`` ends as this Python words it; 2.13 warns first, 2.4 not
import sys

new_pickle = sys.version_info >= (3, 14)  # Python 3.14 rewrote pickle's messages
tail = r"it's not found as .*<lambda>" if new_pickle else r"attribute lookup .* failed"
assert re.fullmatch(r"Can't pickle <function <lambda> at 0x\w+>: " + tail, message)
warned = "Got pickle error when attempting to start a worker Process"
assert all(str(warning.message).startswith(warned) for warning in caught)
assert caught or torch.__version__ < "2.13"
assert not caught or torch.__version__ >= "2.5"

# %%
# **Why.** A spawned worker is a new Python process. The loader sends it the
# data set, the ``collate_fn`` and the ``worker_init_fn`` with :mod:`pickle`.
# Pickle stores a function by its module and name, for the worker to import.
# It first looks that name up, to check that it leads back to the function.
# A ``lambda`` is named ``<lambda>``, which no module holds, so the lookup
# fails. It fails in the main process, which does the pickling.
# ``ForkingPickler.dumps``, the pickler that sends objects to workers, gives
# the same message.
#
# .. detail:: Other things that cannot be pickled
#
#    A function defined inside another function fails too, lambda or not:
#    no module holds it by name. The error depends on the Python version:
#
#    - 3.10, 3.11 and early 3.12: :class:`AttributeError`, "Can't pickle
#      local object".
#    - Later 3.12 and 3.13: :class:`AttributeError`, "Can't get local object".
#    - 3.14 on: ``pickle.PicklingError``, "Can't pickle local object".
#
#    A data set that holds an open file or a generator raises
#    :class:`TypeError`, such as "cannot pickle 'generator' object".
try:
    ForkingPickler.dumps(loader.collate_fn)
except pickle.PicklingError as error:
    parent_message = str(error)
    print(f"{type(error).__name__}: {re.sub('0x[0-9a-fA-F]+', '0x…', parent_message)}")
else:
    raise AssertionError("the lambda was pickled")

# %%
# .. check:: pickling the lambda in the main process gives the same message
assert parent_message == message

# %%
# .. check:: a worker gets the data set, ``collate_fn`` and ``worker_init_fn``
import inspect

loader_iterator = torch.utils.data.dataloader._MultiProcessingDataLoaderIter
source = inspect.getsource(loader_iterator.__init__)
# The block that starts each worker: torch 2.14 wraps the data set in a list.
start = source[
    source.index("for i in range(self._num_workers)") : source.index("w.daemon")
]
for name in ("dataset", "collate_fn", "worker_init_fn"):
    assert f"self._{name}" in start

# %%
# .. check:: a function made inside another one fails as this Python words it
import sys


def make_collate():
    return lambda batch: pad_sequence(batch, batch_first=True)


try:
    ForkingPickler.dumps(make_collate())
except (AttributeError, pickle.PicklingError) as error:
    local_error, local_message = type(error), str(error)
else:
    raise AssertionError("a local function was pickled")
verbs = {(3, 12): ["pickle", "get"], (3, 13): ["get"]}.get(sys.version_info[:2])
assert any(f"Can't {v} local object" in local_message for v in verbs or ["pickle"])
new_pickle = sys.version_info >= (3, 14)
assert local_error is (pickle.PicklingError if new_pickle else AttributeError)

# %%
# .. check:: a generator or an open file gives ``TypeError``, no ``PicklingError``
messages = []
with tempfile.TemporaryFile() as open_file:
    for thing in ((n for n in range(3)), open_file):
        try:
            ForkingPickler.dumps(thing)
        except TypeError as error:
            messages.append((type(error), str(error)))
        else:
            raise AssertionError(f"{type(thing).__name__} was pickled")
assert not any(issubclass(kind, pickle.PicklingError) for kind, _ in messages)
messages = [text for _, text in messages]
assert messages[0] == "cannot pickle 'generator' object"
assert messages[1].startswith("cannot pickle '")

# %%
# Without ``multiprocessing_context``, the loader uses the platform's default
# start method. It comes first in :func:`multiprocessing.get_all_start_methods`.
#
# - Windows and macOS: ``spawn``. The loader above fails there even without it.
# - Linux up to Python 3.13: ``fork``. The same loader works.
# - Linux from Python 3.14: ``forkserver``. It fails, as with ``spawn``.
#
# .. detail:: Why ``fork`` works
#
#    ``fork`` makes each worker a copy of the parent process, which already
#    holds the lambda. The worker needs nothing pickled to start. The messages
#    between the processes are still pickled, such as the indices of each
#    batch. A tensor batch travels back in shared memory, which both
#    processes can reach.
print("default start method here:", get_all_start_methods()[0])

# %%
# .. check:: defaults as stated; ``fork`` runs the lambda; forkserver pickles
import inspect
import sys
from unittest import mock

defaults = {"win32": "spawn", "darwin": "spawn"}
defaults["linux"] = "forkserver" if sys.version_info >= (3, 14) else "fork"
if sys.platform in defaults:
    assert get_all_start_methods()[0] == defaults[sys.platform]
if sys.platform == "linux":
    from multiprocessing import popen_forkserver, popen_spawn_posix

    # forkserver, like spawn, pickles the worker's process object to start it
    for popen in (popen_forkserver, popen_spawn_posix):
        assert "reduction.dump(process_obj" in inspect.getsource(popen)
    forked = DataLoader(
        sequences,
        batch_size=3,
        num_workers=1,
        multiprocessing_context="fork",
        collate_fn=loader.collate_fn,
    )
    sent = mock.patch.object(ForkingPickler, "dumps", wraps=ForkingPickler.dumps)
    back = mock.patch.object(ForkingPickler, "loads", wraps=ForkingPickler.loads)
    with torch.random.fork_rng(devices=[]), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork with threads
        with sent as dumps, back as loads:
            forked_batch = next(iter(forked))
    assert forked_batch.shape == (3, 4)
    assert (0, [0, 1, 2]) in [call.args[0] for call in dumps.call_args_list]  # indices
    assert loads.call_count == 1  # the batch came back pickled, through a queue
    assert forked_batch.is_shared()  # its storage was moved to shared memory

# %%
# **Fix.** Pass something pickle can find by name:
#
# - a function defined at the top level of a module or of a script file. The
#   script then keeps its work behind ``if __name__ == "__main__":``, as
#   :ref:`sphx_glr_auto_examples_training_plot_52_loader_order_and_workers.py`
#   shows;
# - or a :class:`functools.partial` of such a function. It pickles as the
#   function plus its arguments.
#
# This page starts no spawned worker: each would rerun the page's code, which
# is not behind that guard. So it runs only the step that failed: it pickles
# the function, then rebuilds it with ``ForkingPickler.loads``, as a worker
# would. The loader uses the rebuilt function in the main process. Shorter
# sequences end in zeros.
collate = partial(pad_sequence, batch_first=True)
received = ForkingPickler.loads(ForkingPickler.dumps(collate))
batch = next(iter(DataLoader(sequences, batch_size=3, collate_fn=received)))
print(batch)

# %%
# .. check:: ``partial`` and a module's function pickle by name; zeros pad the end
assert torch.equal(batch, pad_sequence(sequences, batch_first=True))
assert batch.shape == (3, 4)
assert [len(s) for s in sequences] == [2, 4, 3]
assert all(s.dtype == torch.float32 for s in sequences)
assert (batch[0, 2:] == 0).all()  # zeros at the end
assert (batch[2, 3:] == 0).all()
assert ForkingPickler.loads(ForkingPickler.dumps(pad_sequence)) is pad_sequence
assert b"pad_sequence" in bytes(ForkingPickler.dumps(pad_sequence))

# %%
# .. _error-weights-only-load:
#
# Weights only load failed
# ------------------------
# :func:`torch.load` with ``weights_only=True`` raises it, as a
# :class:`pickle.UnpicklingError`, when the file holds an object of a type
# that ``torch.load`` does not allow. Here it is a :term:`checkpoint` that
# holds the :class:`argparse.Namespace` of a training script's options. The
# page prints the whole message. Both of its options come up below.
#
# .. detail:: The default of ``weights_only``, by version
#
#    - Before PyTorch 2.6, the default is ``False``. On those versions, such
#      as 2.4, pass ``weights_only=True``, as this page does.
#    - From 2.6, the default is ``True`` when the call passes neither
#      ``weights_only`` nor ``pickle_module``.
#    - The environment variable ``TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD=1`` makes
#      the default ``False`` again.
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
print(f"UnpicklingError: {message}")

# %%
# .. check:: the heading's message; the default refuses the file from 2.6
assert message.startswith("Weights only load failed")
refused = [line for line in message.splitlines() if "global:" in line]
assert "GLOBAL argparse.Namespace" in refused[0]
assert "`weights_only` set to `False`" in message  # option (1)
assert "add_safe_globals" in message  # option (2)
with warnings.catch_warnings():
    warnings.simplefilter("ignore", FutureWarning)  # 2.4 warns of its default
    try:
        torch.load(path)
    except pickle.UnpicklingError:
        refused_by_default = True
    else:
        refused_by_default = False
assert refused_by_default == (torch.__version__ >= "2.6")
# pickle_module= or the environment variable turns the default off
import os
from unittest import mock

no_default = {"TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD": "1"}
with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # 2.4 warns of its default, 2.6+ of the variable
    assert torch.load(path, pickle_module=pickle)["args"] == args
    with mock.patch.dict(os.environ, no_default):
        assert torch.load(path)["args"] == args

# %%
# **Why.** A ``.pt`` file holds a pickle, and unpickling can call any
# function the file names. With ``weights_only=True``, :func:`torch.load`
# rebuilds only tensors, plain Python data and a short list of allowed types.
# Plain data includes numbers, strings, ``None``, lists, tuples and dicts. It
# refuses any other class or function. The documentation of ``torch.load``
# warns against loading data from an untrusted source. So pass
# ``weights_only=False`` only for files you trust.
#
# **Fix.** Save plain data: a state dict, and the options as a dictionary,
# ``vars(args)``. That loads with ``weights_only=True``, with nothing to
# allow.
torch.save({"model": checkpoint["model"], "args": vars(args)}, path)
loaded = torch.load(path, weights_only=True)
print(loaded["args"])

# %%
# .. check:: options and plain data load; ``torch.load``'s doc warns of untrusted data
assert argparse.Namespace(**loaded["args"]) == args
plain_data = {"numbers": [1, 2.5, True], "text": "s", "none": None, "pair": (1, 2)}
torch.save(plain_data, path)
assert torch.load(path, weights_only=True) == plain_data
assert "untrusted source" in " ".join(torch.load.__doc__.split())

# %%
# For a file you trust whose types you cannot change, allow exactly those
# types:
#
# - The context manager :class:`torch.serialization.safe_globals` allows them
#   inside its ``with`` block only. It exists from PyTorch 2.5.
# - :func:`torch.serialization.add_safe_globals` allows them in every later
#   load. It exists in 2.4 too.
# - :func:`torch.serialization.clear_safe_globals` ends what
#   ``add_safe_globals`` allowed.
#
# The fix above overwrote the file, so the code first saves the Namespace
# again.
torch.save(checkpoint, path)
if hasattr(torch.serialization, "safe_globals"):
    with torch.serialization.safe_globals([argparse.Namespace]):
        loaded = torch.load(path, weights_only=True)
else:
    torch.serialization.add_safe_globals([argparse.Namespace])
    loaded = torch.load(path, weights_only=True)
    torch.serialization.clear_safe_globals()
print(loaded["args"])
workdir.cleanup()

# %%
# .. check:: ``safe_globals`` exists from 2.5 and allows only inside ``with``
assert hasattr(torch.serialization, "safe_globals") == (torch.__version__ >= "2.5")
if hasattr(torch.serialization, "safe_globals"):
    assert argparse.Namespace not in torch.serialization.get_safe_globals()
assert loaded["args"] == args
# add_safe_globals holds until clear_safe_globals
torch.serialization.add_safe_globals([argparse.Namespace])
assert argparse.Namespace in torch.serialization.get_safe_globals()
torch.serialization.clear_safe_globals()
assert argparse.Namespace not in torch.serialization.get_safe_globals()

# %%
# See also
# :ref:`sphx_glr_auto_examples_training_plot_52_loader_order_and_workers.py`
# and
# :ref:`sphx_glr_auto_examples_training_plot_58_safe_loading_and_safetensors.py`.
# The other errors of loaders and of ``load_state_dict`` are in
# :ref:`sphx_glr_auto_examples_errors_plot_04_data_and_saving_errors.py`.
