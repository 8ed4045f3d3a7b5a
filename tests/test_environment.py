from __future__ import annotations

import platform

import pytest
import torch

from tutorial_utils.environment import environment_summary


def test_summary_names_versions_device_and_threads() -> None:
    line = environment_summary("cpu")
    assert "\n" not in line
    assert f"torch {torch.__version__}" in line
    assert f"Python {platform.python_version()}" in line
    assert "device cpu (" in line
    assert f"{torch.get_num_threads()} CPU thread" in line


def test_summary_follows_thread_count() -> None:
    threads = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        assert environment_summary("cpu").endswith("| 1 CPU thread")
    finally:
        torch.set_num_threads(threads)


def test_summary_rejects_unknown_device() -> None:
    with pytest.raises(ValueError, match="devices here"):
        environment_summary("quantum")
