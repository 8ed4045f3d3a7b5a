from __future__ import annotations

import re

import pytest
import torch

from tutorial_utils.devices import (
    available_devices,
    device_name,
    draw_device_choice,
    pick_device,
)


def test_cpu_is_always_listed_last() -> None:
    devices = available_devices()
    assert devices[-1] == "cpu"
    assert devices.count("cpu") == 1


def test_default_is_the_first_available_device() -> None:
    assert pick_device() == torch.device(available_devices()[0])


@pytest.mark.parametrize("name", ["cpu", torch.device("cpu")])
def test_cpu_by_name_or_device(name: str | torch.device) -> None:
    assert pick_device(name) == torch.device("cpu")


def test_accelerator_without_index_gets_index_zero() -> None:
    accelerators = available_devices()[:-1]
    if not accelerators:
        pytest.skip("no accelerator on this machine")
    kind = accelerators[0].split(":")[0]
    assert pick_device(kind) == torch.device(kind, 0)


def test_unknown_name_lists_what_is_there() -> None:
    with pytest.raises(ValueError, match=r"'gpu' is not a device name") as info:
        pick_device("gpu")
    assert "cpu" in str(info.value)


def test_missing_device_lists_what_is_there() -> None:
    missing = "cuda:63" if torch.cuda.is_available() else "cuda"
    with pytest.raises(ValueError, match="is not available on this machine") as info:
        pick_device(missing)
    assert "devices here:" in str(info.value)
    assert "cpu" in str(info.value)


@pytest.mark.parametrize("bad", [0, 1.5, ["cpu"]])
def test_wrong_type_is_a_type_error(bad: object) -> None:
    with pytest.raises(TypeError, match="preference must be a device name"):
        pick_device(bad)  # type: ignore[arg-type]


def test_device_name_is_a_non_empty_description() -> None:
    assert device_name("cpu").strip()
    with pytest.raises(ValueError, match="not a device name"):
        device_name("tpu9")


@pytest.mark.parametrize(
    ("found", "chosen"),
    [
        ({"cuda": False, "mps": False}, "cpu"),
        ({"cuda": True, "mps": False}, "cuda"),
        ({"cuda": False, "mps": True}, "mps"),
        ({"cuda": True, "mps": True}, "cuda"),  # the first one asked wins
        ({"mps": True, "cuda": True}, "mps"),
    ],
)
def test_device_choice_takes_the_first_found(
    found: dict[str, bool], chosen: str
) -> None:
    import matplotlib.pyplot as plt

    fig = draw_device_choice(found)
    assert fig.axes[0].get_title() == f"chosen: {chosen}"
    plt.close(fig)


@pytest.mark.parametrize(
    ("found", "error", "words"),
    [
        ({}, ValueError, "at least one kind of GPU"),
        ({"cpu": True}, ValueError, "the CPU is always there"),
        ({"cuda": 1}, TypeError, "found['cuda'] must be a bool"),
        ({3: True}, TypeError, "a name in found must be a str"),
        ([("cuda", True)], TypeError, "found must be a mapping"),
    ],
)
def test_device_choice_names_bad_input(found: object, error: type, words: str) -> None:
    with pytest.raises(error, match=re.escape(words)):
        draw_device_choice(found)  # type: ignore[arg-type]
