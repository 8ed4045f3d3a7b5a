"""Small data sets for the training pages: the toy set and handwritten digits.

- :class:`ToyDataset` wraps a feature matrix and a label vector as a
  :class:`torch.utils.data.Dataset`; :func:`toy_datasets` returns the five
  training and two test points that the training pages start from.
- :func:`load_digits_tensors` loads scikit-learn's 8 x 8 handwritten digits
  (they ship inside scikit-learn: no download) as tensors, split into a
  training and a test set that a seed fixes.
"""

from __future__ import annotations

from typing import NamedTuple

import torch
from torch.utils.data import Dataset

__all__ = [
    "DigitsSplit",
    "ToyDataset",
    "load_digits_tensors",
    "toy_datasets",
    "toy_tensors",
]


class ToyDataset(Dataset[tuple[torch.Tensor, torch.Tensor]]):
    """Features and labels, one row and one label per sample.

    Parameters
    ----------
    features : torch.Tensor
        A matrix with one row per sample, shape ``(n_samples, n_features)``.
    labels : torch.Tensor
        A vector of ``n_samples`` class indices, shape ``(n_samples,)``.

    Raises
    ------
    TypeError
        If `features` or `labels` is not a tensor, or if `labels` does not
        hold integers.
    ValueError
        If `features` is not a matrix, `labels` not a vector, or their
        numbers of samples differ.

    Examples
    --------
    >>> ds = ToyDataset(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([0, 1]))
    >>> len(ds)
    2
    >>> ds[1]
    (tensor([3., 4.]), tensor(1))
    >>> ToyDataset(torch.zeros(3, 2), torch.zeros(2, dtype=torch.long))
    Traceback (most recent call last):
    ...
    ValueError: features has 3 samples but labels has 2; they must match
    """

    def __init__(self, features: torch.Tensor, labels: torch.Tensor) -> None:
        for name, value in (("features", features), ("labels", labels)):
            if not isinstance(value, torch.Tensor):
                raise TypeError(
                    f"{name} must be a torch.Tensor; got {type(value).__name__}"
                )
        if features.dim() != 2:
            raise ValueError(
                "features must be a matrix of shape (n_samples, n_features); "
                f"got shape {tuple(features.shape)}"
            )
        if labels.dim() != 1:
            raise ValueError(
                "labels must be a vector of shape (n_samples,); "
                f"got shape {tuple(labels.shape)}"
            )
        if (
            labels.is_floating_point()
            or labels.is_complex()
            or labels.dtype == torch.bool
        ):
            raise TypeError(
                f"labels must hold integer class indices; got dtype {labels.dtype}"
            )
        if features.shape[0] != labels.shape[0]:
            raise ValueError(
                f"features has {features.shape[0]} samples but labels has "
                f"{labels.shape[0]}; they must match"
            )
        self.features = features
        self.labels = labels

    def __getitem__(self, index: int) -> tuple[torch.Tensor, torch.Tensor]:
        return self.features[index], self.labels[index]

    def __len__(self) -> int:
        return int(self.labels.shape[0])


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


def toy_datasets() -> tuple[ToyDataset, ToyDataset]:
    """Return the toy training set (5 samples) and test set (2 samples).

    Examples
    --------
    >>> train_ds, test_ds = toy_datasets()
    >>> len(train_ds), len(test_ds)
    (5, 2)
    """
    X_train, y_train, X_test, y_test = toy_tensors()
    return ToyDataset(X_train, y_train), ToyDataset(X_test, y_test)


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
    ValueError: test_fraction must be strictly between 0 and 1; got 1.5
    """
    if isinstance(test_fraction, bool) or not isinstance(test_fraction, int | float):
        raise TypeError(
            f"test_fraction must be a number; got {type(test_fraction).__name__}"
        )
    if not 0 < test_fraction < 1:
        raise ValueError(
            f"test_fraction must be strictly between 0 and 1; got {test_fraction}"
        )
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int; got {type(seed).__name__} {seed!r}")
    if not 0 <= seed < 2**32:
        raise ValueError(f"seed must be between 0 and {2**32 - 1}; got {seed}")
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
