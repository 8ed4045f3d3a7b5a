"""Small data sets for the training pages: the toy set and handwritten digits.

- :func:`toy_tensors` returns the five training and two test points that
  the training pages start from; :func:`toy_datasets` returns them wrapped
  in two :class:`torch.utils.data.TensorDataset`.
- :func:`load_digits_tensors` loads scikit-learn's 8 x 8 handwritten digits
  (they ship inside scikit-learn: no download) as tensors, split into a
  training and a test set that a seed fixes.
"""

from __future__ import annotations

from typing import NamedTuple

import torch
from torch.utils.data import TensorDataset

from tutorial_utils._checks import check_int, check_number

__all__ = ["DigitsSplit", "load_digits_tensors", "toy_datasets", "toy_tensors"]


def toy_tensors() -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Return the toy data as new tensors: two features, two classes.

    Returns
    -------
    tuple of torch.Tensor
        ``X_train`` (5 x 2, the default float dtype: float32 unless
        :func:`torch.set_default_dtype` changed it), ``y_train`` (5, int64),
        ``X_test`` (2 x 2) and ``y_test`` (2,). Class 0 sits at negative
        first and positive second features, class 1 the other way round.

    Examples
    --------
    >>> X_train, y_train, X_test, y_test = toy_tensors()
    >>> X_train.shape, y_train.tolist(), y_test.tolist()
    (torch.Size([5, 2]), [0, 0, 0, 1, 1], [0, 1])
    """
    X_train = torch.tensor(
        [[-1.2, 3.1], [-0.9, 2.9], [-0.5, 2.6], [2.3, -1.1], [2.7, -1.5]]
    )
    y_train = torch.tensor([0, 0, 0, 1, 1])
    X_test = torch.tensor([[-0.8, 2.8], [2.6, -1.6]])
    y_test = torch.tensor([0, 1])
    return X_train, y_train, X_test, y_test


def toy_datasets() -> tuple[TensorDataset, TensorDataset]:
    """Return the toy training set (5 samples) and test set (2 samples).

    Each is a :class:`torch.utils.data.TensorDataset` of the tensors that
    :func:`toy_tensors` returns: sample ``i`` is ``(features[i], labels[i])``.

    Examples
    --------
    >>> train_ds, test_ds = toy_datasets()
    >>> len(train_ds), len(test_ds)
    (5, 2)
    >>> train_ds[3]
    (tensor([ 2.3000, -1.1000]), tensor(1))
    """
    X_train, y_train, X_test, y_test = toy_tensors()
    return TensorDataset(X_train, y_train), TensorDataset(X_test, y_test)


class DigitsSplit(NamedTuple):
    """The handwritten digits as tensors, split into training and test sets.

    Features are the 64 pixels of an 8 x 8 image scaled to [0, 1] (float32);
    ``features.reshape(-1, 8, 8)`` gives the images back. Labels are the
    digits 0 to 9 (int64).
    """

    train_features: torch.Tensor
    train_labels: torch.Tensor
    test_features: torch.Tensor
    test_labels: torch.Tensor


def load_digits_tensors(test_fraction: float = 0.25, seed: int = 0) -> DigitsSplit:
    """Load scikit-learn's handwritten digits as tensors, split by a seed.

    The 1,797 images come with scikit-learn (no download). The split is
    stratified: each digit appears in the test set in about the same
    proportion as in the whole set. The same seed gives the same split with
    the same scikit-learn version.

    Parameters
    ----------
    test_fraction : float, default 0.25
        Share of the images held out for testing, strictly between 0 and 1.
    seed : int, default 0
        Chooses the split; any whole number from 0 to 2**32 - 1.

    Returns
    -------
    DigitsSplit
        Training and test features (pixels / 16, float32) and labels (int64).

    Raises
    ------
    ValueError
        If `test_fraction` is not strictly between 0 and 1, or `seed` is
        negative or too large.
    TypeError
        If `test_fraction` is not a number or `seed` is not an int.

    Examples
    --------
    >>> split = load_digits_tensors(seed=0)
    >>> split.train_features.shape, split.test_features.shape
    (torch.Size([1347, 64]), torch.Size([450, 64]))
    >>> float(split.train_features.max()), split.test_labels.unique().tolist()
    (1.0, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    >>> load_digits_tensors(test_fraction=1.5)
    Traceback (most recent call last):
    ...
    ValueError: test_fraction must be a finite number strictly between 0 and 1; got 1.5
    """
    test_fraction = check_number(
        "test_fraction", test_fraction, minimum=0, maximum=1, exclusive=True
    )
    seed = check_int("seed", seed, minimum=0, maximum=2**32 - 1)
    # Imported here: scikit-learn takes a while to import, and only this
    # function needs it.
    from sklearn.datasets import load_digits  # type: ignore[import-untyped]
    from sklearn.model_selection import train_test_split  # type: ignore[import-untyped]

    digits = load_digits()
    features = torch.as_tensor(digits.data, dtype=torch.float32) / 16.0
    labels = torch.as_tensor(digits.target, dtype=torch.int64)
    train_index, test_index = train_test_split(
        torch.arange(len(labels)).numpy(),
        test_size=test_fraction,
        random_state=seed,
        stratify=labels.numpy(),
    )
    train_index = torch.as_tensor(train_index)
    test_index = torch.as_tensor(test_index)
    return DigitsSplit(
        features[train_index],
        labels[train_index],
        features[test_index],
        labels[test_index],
    )
