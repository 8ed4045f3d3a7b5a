from __future__ import annotations

import math
import os
import re
from pathlib import Path

import numpy as np
import pytest

from tutorial_utils._checks import (
    check_choice,
    check_instance,
    check_int,
    check_number,
)


def test_check_int_accepts_whole_numbers_in_range() -> None:
    assert check_int("n", 3) == 3
    assert check_int("n", np.int64(7), minimum=0) == 7
    assert type(check_int("n", np.int64(7))) is int
    assert check_int("n", 5, minimum=5, maximum=5) == 5


@pytest.mark.parametrize(
    ("value", "limits", "error", "message"),
    [
        (1.0, {}, TypeError, "n must be an int; got float 1.0"),
        (True, {}, TypeError, "n must be an int; got bool True"),
        ("3", {}, TypeError, "n must be an int; got str '3'"),
        (0, {"minimum": 1}, ValueError, "n must be at least 1; got 0"),
        (9, {"maximum": 8}, ValueError, "n must be at most 8; got 9"),
        (-1, {"minimum": 0, "maximum": 8}, ValueError, "between 0 and 8; got -1"),
    ],
)
def test_check_int_refuses(
    value: object, limits: dict[str, int], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=re.escape(message)):
        check_int("n", value, **limits)


def test_check_number_accepts_finite_numbers_in_range() -> None:
    assert check_number("x", 2) == 2.0
    assert check_number("x", np.float32(0.5), minimum=0, maximum=1) == 0.5
    assert check_number("x", 0, minimum=0) == 0.0
    assert check_number("x", 1, minimum=0, maximum=1) == 1.0


@pytest.mark.parametrize(
    ("value", "limits", "error", "message"),
    [
        ("1", {}, TypeError, "x must be a number; got str '1'"),
        (False, {}, TypeError, "x must be a number; got bool False"),
        (math.inf, {}, ValueError, "x must be a finite number; got inf"),
        (math.nan, {"minimum": 0}, ValueError, "of at least 0; got nan"),
        (-0.5, {"minimum": 0}, ValueError, "x must be a finite number of at least 0"),
        (0, {"minimum": 0, "exclusive": True}, ValueError, "greater than 0; got 0"),
        (2, {"maximum": 1}, ValueError, "of at most 1; got 2"),
        (1, {"maximum": 1, "exclusive": True}, ValueError, "less than 1; got 1"),
        (31, {"minimum": 4, "maximum": 30}, ValueError, "from 4 to 30; got 31"),
        (
            1,
            {"minimum": 0, "maximum": 1, "exclusive": True},
            ValueError,
            "strictly between 0 and 1; got 1",
        ),
    ],
)
def test_check_number_refuses(
    value: object, limits: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=re.escape(message)):
        check_number("x", value, **limits)  # type: ignore[arg-type]


def test_check_instance() -> None:
    path = Path("a")
    assert check_instance("path", path, (str, os.PathLike), "a path") is path
    with pytest.raises(TypeError, match=re.escape("path must be a path; got int 3")):
        check_instance("path", 3, (str, os.PathLike), "a path")
    # A value whose text spans lines is named by its type alone.
    with pytest.raises(TypeError, match=r"got ndarray$"):
        check_instance("x", np.zeros((2, 2)), list, "a list")


def test_check_choice() -> None:
    assert check_choice("mode", "b", ("a", "b")) == "b"
    with pytest.raises(ValueError, match=re.escape("one of 'a', 'b'; got 'c'")):
        check_choice("mode", "c", ("a", "b"))
