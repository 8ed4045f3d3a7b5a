"""
Errors with data and saving
===========================

This page explains the error a :class:`~torch.utils.data.DataLoader` raises
when the samples of a :term:`batch` do not stack. It also explains the errors
of :meth:`~torch.nn.Module.load_state_dict` when saved weights do not fit the
model. Open this page when one of these messages stops your code. Each entry
raises the error, prints the message, says why and runs the fix.

**Before this page:**
:ref:`sphx_glr_auto_examples_tensors_plot_06_splitting_and_joining.py`,
:ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py`,
:ref:`sphx_glr_auto_examples_training_plot_08_saving_and_loading.py` and
:ref:`sphx_glr_auto_examples_training_plot_10_distributed_training.py`.
"""

# %%
# The page runs on the CPU.
from collections import OrderedDict

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
# By default, a :class:`~torch.utils.data.DataLoader` raises it when the
# samples of one :term:`batch` are tensors of different
# :term:`shapes <shape>`. Sentences of different lengths do this, and so do
# images of different sizes.
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
# **Why.** The loader's default :term:`collate function`,
# :func:`~torch.utils.data.default_collate`, joins the samples of a batch into
# one tensor with :func:`torch.stack`. A tensor is rectangular: all its rows
# have the same length. So ``torch.stack`` needs tensors of one shape. The
# message is its own. "Entry" counts the samples of the batch from 0.
#
# .. detail:: Samples that are pairs or Python lists
#
#    When each sample is a pair, an input and a label, the inputs are
#    stacked together, and the labels are combined into one tensor. Lists of
#    different lengths fail at an earlier check. Its message is
#    ``each element in list of batch should be of equal size``.

# %%
# .. check:: integer labels of pairs are combined into one tensor
with torch.random.fork_rng(devices=[]):  # iterating a DataLoader draws a seed
    pairs = next(iter(DataLoader([(torch.ones(2), 0), (torch.zeros(2), 1)], 2)))
assert pairs[0].shape == (2, 2)
assert torch.equal(pairs[1], torch.tensor([0, 1]))

# %%
# .. check:: ``torch.stack``'s message; pairs and images get it, lists another
try:
    torch.stack(sequences)
except RuntimeError as error:
    stack_message = str(error)
else:
    raise AssertionError("torch.stack stacked tensors of lengths 2, 4 and 3")
assert stack_message == message
assert "but got [2] at entry 0 and [4] at entry 1" in message
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
    assert "equal size" in other


# %%
# **Fix.** Sequences differ only in their first dimension, so pad them:
#
# 1. Give the loader a ``collate_fn``, a function that gets the list of samples.
# 2. In it, pad the samples with zeros to the longest one, with
#    :func:`torch.nn.utils.rnn.pad_sequence`. ``batch_first=True`` gives the
#    shape ``(batch, longest)``.
# 3. Return the true lengths too. They tell data from :term:`padding` later.
#
# Resize or crop images to one size in the data set instead.
# ``pad_sequence`` pads only the first dimension, so it fails on them.
def pad_batch(batch):
    lengths = torch.tensor([len(sample) for sample in batch])
    return pad_sequence(batch, batch_first=True, padding_value=0.0), lengths


padded, lengths = next(iter(DataLoader(sequences, batch_size=3, collate_fn=pad_batch)))
print(padded)
print("lengths:", lengths)

# %%
# .. check:: zeros pad the batch to ``(3, 4)``, lengths 2, 4, 3; images fail
assert padded.shape == (3, 4)
assert lengths.tolist() == [2, 4, 3]
assert padded[0, 2:].tolist() == [0.0, 0.0]
images = [torch.ones(3, 32, 32), torch.ones(3, 32, 40)]
try:
    pad_sequence(images, batch_first=True)
except RuntimeError:
    pass
else:
    raise AssertionError("pad_sequence padded images along their last dimension")

# %%
# .. _error-state-dict-missing-keys:
#
# Missing key(s) in state_dict
# ----------------------------
# :meth:`~torch.nn.Module.load_state_dict` raises it when a name of the
# model's own :term:`state dict` is missing from the one you load. Here a
# layer was renamed: ``out`` became ``head``. A :class:`~torch.nn.Sequential`
# built from an ``OrderedDict`` gives its layers the dictionary's names.
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
# **Why.** Loading matches tensors by name, not by position. A name is the
# path of attributes that leads to the tensor, such as ``hidden.weight``.
# With the default ``strict=True``, loading raises when a name of the model
# is missing. It also raises when the dictionary holds a name the model
# lacks. The message's ``Unexpected key(s)`` line lists those. The tensors that
# matched were copied before the error.

# %%
# .. check:: the ``Unexpected key(s)`` line lists extra names; ``hidden`` was copied
assert 'Unexpected key(s) in state_dict: "out.weight", "out.bias"' in message
assert torch.equal(model.hidden.weight, saved["hidden.weight"])

# %%
# **Fix.** Rename the keys of the dictionary to the model's names, then load.
# Loading returns the lists of missing and unexpected keys. Both are empty
# here, so they print as ``<All keys matched successfully>``.
renamed = dict(saved)
for name in ("weight", "bias"):
    renamed[f"head.{name}"] = renamed.pop(f"out.{name}")
result = model.load_state_dict(renamed)
print(result)

# %%
# .. check:: nothing missing or unexpected; ``head`` holds the old ``out`` weights
assert result.missing_keys == []
assert result.unexpected_keys == []
assert str(result) == "<All keys matched successfully>"
assert torch.equal(model.head.weight, old.out.weight)

# %%
# .. _error-state-dict-unexpected-keys:
#
# Unexpected key(s) in state_dict
# -------------------------------
# :meth:`~torch.nn.Module.load_state_dict` raises it when the dictionary names
# tensors the model does not have. Weights saved from a wrapped model are the
# usual cause. :class:`~torch.nn.DataParallel` is a wrapper that splits each
# batch across several GPUs. With no GPU, it just calls the model. It and
# :class:`~torch.nn.parallel.DistributedDataParallel` put ``module.`` before
# every name. The model that :func:`torch.compile` returns puts
# ``_orig_mod.`` there. Here ``DataParallel`` wraps one small layer.
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
# .. check:: ``DataParallel`` splits batches, or just calls the model with no GPU
import inspect

assert "chunking in the batch dimension" in " ".join(nn.DataParallel.__doc__.split())
forward = inspect.getsource(nn.DataParallel.forward)
assert "if not self.device_ids:" in forward
assert "return self.module(*inputs, **kwargs)" in forward
if not torch.cuda.is_available():
    assert wrapped.device_ids == []
assert "Unexpected key(s) in state_dict" in message

# %%
# **Why.** The wrapper keeps your model as an attribute, ``module`` or
# ``_orig_mod``. So every name in its state dict starts with that attribute's
# name. None matches the plain model's names, which are then missing too.
#
# **Fix.** Save ``wrapped.module.state_dict()``, which has the model's own
# names. For a file already saved, remove the prefix.
#
# .. detail:: ``model.compile()``
#
#    The method ``model.compile()`` compiles the module in place, like
#    :func:`torch.compile` but without a wrapper. It adds no prefix.
print(f"the model's own names: {list(wrapped.module.state_dict())}")
plain = {key.removeprefix("module."): value for key, value in saved.items()}
model = nn.Linear(2, 1)
print(model.load_state_dict(plain))

# %%
# .. check:: plain names go missing too; the wrappers keep the model as stated
import inspect

assert "Missing key(s) in state_dict" in message
ddp_init = inspect.getsource(nn.parallel.DistributedDataParallel.__init__)
assert "self.module = module" in ddp_init
with torch.random.fork_rng(devices=[]):  # a new layer draws its initial weights
    compiled = torch.compile(nn.Linear(2, 1), backend="eager")  # compiles nothing yet
    in_place = nn.Linear(2, 1)
in_place.compile(backend="eager")
assert list(compiled.state_dict()) == ["_orig_mod." + k for k in ["weight", "bias"]]
assert list(in_place.state_dict()) == list(wrapped.module.state_dict())
assert "This Module's `__call__` method is compiled" in nn.Module.compile.__doc__
assert list(wrapped.module.state_dict()) == ["weight", "bias"]
assert torch.equal(model.weight, wrapped.module.weight.cpu())

# %%
# .. _error-state-dict-size-mismatch:
#
# size mismatch for …: copying a param with shape … from checkpoint, the shape in current model is …
# --------------------------------------------------------------------------------------------------
# For a layer such as :class:`~torch.nn.Linear`,
# :meth:`~torch.nn.Module.load_state_dict` raises it when a name matches but
# the :term:`shape` does not. Here weights trained for 10 classes go into a
# model with 3 classes. Its last layer is named ``head``, and the layer
# before it ``body``.
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
# **Why.** Loading copies each saved tensor into the model's tensor of the
# same name. For a built layer such as ``Linear``, it first checks that the two shapes are equal.
# ``strict=False`` does not help: it skips names that do not match, not
# shapes.
#
# .. detail:: Two exceptions
#
#    A parameter with no dimensions accepts a saved tensor of shape ``(1,)``,
#    as PyTorch 0.3 saved it. And a lazy layer such as
#    :class:`torch.nn.LazyLinear` takes its shapes from the file: its shapes
#    are not set until its first input.

# %%
# .. check:: a 0-d parameter loads a ``(1,)`` tensor; a lazy layer takes any shape
import inspect

scale = nn.Module()
scale.weight = nn.Parameter(torch.tensor(1.0))
scale.load_state_dict({"weight": torch.tensor([5.0])})
assert scale.weight.shape == ()
assert scale.weight.item() == 5.0
loading = inspect.getsource(nn.Module._load_from_state_dict)
assert "loading 1-dim tensor from 0.3.* to version 0.4+" in loading
with torch.random.fork_rng(devices=[]):  # in case a new layer draws weights
    lazy = nn.LazyLinear(3)
    lazy.load_state_dict({"weight": saved["head.weight"], "bias": saved["head.bias"]})
assert lazy.weight.shape == (10, 16)  # although built as LazyLinear(3)

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
# **Fix.** Decide which tensors to keep. To reuse the body and train a new
# head, drop the saved tensors whose shape differs. Load the rest with
# ``strict=False``, and check that exactly the head was left out.
own = model.state_dict()
kept = {key: value for key, value in saved.items() if value.shape == own[key].shape}
result = model.load_state_dict(kept, strict=False)
print(result)

# %%
# .. check:: only the head is missing, nothing is unexpected, the body loaded
assert result.missing_keys == ["head.weight", "head.bias"]
assert result.unexpected_keys == []
assert torch.equal(model.body.weight, pretrained.body.weight)

# %%
# More on these topics: data sets and loaders in
# :ref:`sphx_glr_auto_examples_training_plot_02_datasets_and_loaders.py`,
# state dicts in
# :ref:`sphx_glr_auto_examples_training_plot_08_saving_and_loading.py`.
# The errors of loader workers and of ``torch.load`` are in
# :ref:`sphx_glr_auto_examples_errors_plot_08_pickle_errors.py`.
