"""Argument checks shared by the modules of this package (private).

Every check takes the argument's name, then its value, then keyword-only
limits, and returns the value it accepted. A wrong type raises
:class:`TypeError`, a value out of range :class:`ValueError`; both messages
name the argument, say what it must be, and show what was passed.
"""

from __future__ import annotations

import math
import numbers
import reprlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def _shown(value: object) -> str:
    """The value's type and, unless its text spans lines, the value, shortened."""
    kind = type(value).__name__
    return kind if "\n" in repr(value) else f"{kind} {reprlib.repr(value)}"


def check_int(
    name: str, value: object, *, minimum: int | None = None, maximum: int | None = None
) -> int:
    """Return `value` as an int, or raise if it is not a whole number in range.

    A NumPy integer is accepted; a bool, a float or a string is not.

    Examples
    --------
    >>> check_int("threads", 2, minimum=1)
    2
    >>> check_int("seed", -1, minimum=0, maximum=9)
    Traceback (most recent call last):
    ...
    ValueError: seed must be between 0 and 9; got -1
    >>> check_int("threads", 1.5, minimum=1)
    Traceback (most recent call last):
    ...
    TypeError: threads must be an int; got float 1.5
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int; got {_shown(value)}")
    number = int(value)
    too_small = minimum is not None and number < minimum
    if too_small or (maximum is not None and number > maximum):
        if maximum is None:
            accepted = f"at least {minimum}"
        elif minimum is None:
            accepted = f"at most {maximum}"
        else:
            accepted = f"between {minimum} and {maximum}"
        raise ValueError(f"{name} must be {accepted}; got {number}")
    return number


def check_number(
    name: str,
    value: object,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    exclusive: bool = False,
) -> float:
    """Return `value` as a float, or raise if it is not a finite number in range.

    With ``exclusive=True`` the value must lie strictly inside the bounds.
    Infinity and NaN are always refused; a bool or a string is not a number.

    Examples
    --------
    >>> check_number("min_run_time", 0.2, minimum=0, exclusive=True)
    0.2
    >>> check_number("min_run_time", 0, minimum=0, exclusive=True)
    Traceback (most recent call last):
    ...
    ValueError: min_run_time must be a finite number greater than 0; got 0
    >>> check_number("fontsize", "big", minimum=4, maximum=30)
    Traceback (most recent call last):
    ...
    TypeError: fontsize must be a number; got str 'big'
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number; got {_shown(value)}")
    number = float(value)
    if exclusive:
        inside = (minimum is None or number > minimum) and (
            maximum is None or number < maximum
        )
    else:
        inside = (minimum is None or number >= minimum) and (
            maximum is None or number <= maximum
        )
    if not (inside and math.isfinite(number)):
        if minimum is not None and maximum is not None:
            accepted = (
                f"strictly between {minimum} and {maximum}"
                if exclusive
                else f"from {minimum} to {maximum}"
            )
        elif minimum is not None:
            accepted = (
                f"greater than {minimum}" if exclusive else f"of at least {minimum}"
            )
        elif maximum is not None:
            accepted = f"less than {maximum}" if exclusive else f"of at most {maximum}"
        else:
            accepted = ""
        raise ValueError(
            f"{name} must be a finite number {accepted}".rstrip() + f"; got {value!r}"
        )
    return number


def check_instance(
    name: str, value: object, expected: type[T] | tuple[type, ...], what: str
) -> T:
    """Return `value` if it is an instance of `expected`, else raise TypeError.

    `expected` is a class or a tuple of classes, as for :func:`isinstance`;
    `what` says in words what is accepted, such as ``"a torch.nn.Module"``.

    Examples
    --------
    >>> check_instance("label", 3, str, "a str")
    Traceback (most recent call last):
    ...
    TypeError: label must be a str; got int 3
    """
    if not isinstance(value, expected):
        raise TypeError(f"{name} must be {what}; got {_shown(value)}")
    return value  # type: ignore[return-value]


def check_choice(name: str, value: object, choices: Sequence[T]) -> T:
    """Return `value` if it is one of `choices`, else raise ValueError.

    Examples
    --------
    >>> check_choice("direction", "RL", ("LR", "TB"))
    Traceback (most recent call last):
    ...
    ValueError: direction must be one of 'LR', 'TB'; got 'RL'
    """
    for choice in choices:
        if value == choice:
            return choice
    raise ValueError(
        f"{name} must be one of {', '.join(map(repr, choices))}; got {value!r}"
    )
