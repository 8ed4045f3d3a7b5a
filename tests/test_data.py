from __future__ import annotations

import pytest
import torch
from torch.utils.data import DataLoader, TensorDataset

from tutorial_utils.data import load_digits_tensors, toy_datasets, toy_tensors


def test_toy_tensors_are_the_source_texts_data() -> None:
    X_train, y_train, X_test, y_test = toy_tensors()
    assert X_train.shape == (5, 2)
    assert X_train.dtype == torch.float32
    assert y_train.tolist() == [0, 0, 0, 1, 1]
    torch.testing.assert_close(X_test, torch.tensor([[-0.8, 2.8], [2.6, -1.6]]))
    assert y_test.tolist() == [0, 1]


def test_toy_tensors_are_new_on_every_call() -> None:
    first = toy_tensors()[0]
    first[0, 0] = 100.0
    assert toy_tensors()[0][0, 0] == pytest.approx(-1.2)


def test_dataset_indexing_and_length() -> None:
    train_ds, test_ds = toy_datasets()
    assert isinstance(train_ds, TensorDataset)
    assert (len(train_ds), len(test_ds)) == (5, 2)
    for dataset, tensors in (
        (train_ds, toy_tensors()[:2]),
        (test_ds, toy_tensors()[2:]),
    ):
        for got, expected in zip(dataset.tensors, tensors, strict=True):
            assert torch.equal(got, expected)
    features, label = train_ds[3]
    torch.testing.assert_close(features, torch.tensor([2.3, -1.1]))
    assert label.item() == 1


def test_seeded_loader_gives_the_source_texts_batches() -> None:
    train_ds, _ = toy_datasets()
    torch.manual_seed(123)
    loader = DataLoader(train_ds, batch_size=2, shuffle=True)
    labels = [y.tolist() for _, y in loader]
    assert labels == [[1, 0], [0, 0], [1]]


def test_digits_split_is_seeded_and_stratified() -> None:
    first = load_digits_tensors(seed=1)
    again = load_digits_tensors(seed=1)
    other = load_digits_tensors(seed=2)
    assert torch.equal(first.test_labels, again.test_labels)
    assert not torch.equal(first.test_labels, other.test_labels)
    assert first.train_features.shape == (1347, 64)
    assert first.train_features.min() >= 0.0
    assert first.train_features.max() <= 1.0
    counts = torch.bincount(first.test_labels, minlength=10)
    # About 450 / 10 of each digit.
    assert counts.min() >= 43
    assert counts.max() <= 47


def test_digits_split_bad_arguments() -> None:
    with pytest.raises(ValueError, match="strictly between 0 and 1; got 0"):
        load_digits_tensors(test_fraction=0)
    with pytest.raises(TypeError, match="test_fraction must be a number; got str"):
        load_digits_tensors(test_fraction="0.2")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"seed must be an int; got float 1\.5"):
        load_digits_tensors(seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(
        ValueError, match="seed must be between 0 and 4294967295; got -1"
    ):
        load_digits_tensors(seed=-1)
