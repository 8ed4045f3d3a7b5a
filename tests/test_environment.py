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


def test_report_checks_every_device() -> None:
    from tutorial_utils.devices import available_devices
    from tutorial_utils.environment import environment_report

    report = environment_report()
    lines = dict(line.split(": ", 1) for line in report.splitlines())
    assert lines["torch"].startswith(torch.__version__)
    assert lines["devices"] == ", ".join(available_devices())
    for device in available_devices():
        assert lines[device].startswith("OK"), report


def test_report_runs_as_a_module() -> None:
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "tutorial_utils.environment"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert result.stdout.startswith("Python: ")
    assert "cpu: OK" in result.stdout
