"""Run the pages' processes side by side, one per CPU, ahead of the tests that read them.

Each page, and each of its downloads, runs in a process of its own, and a
test then reads what that process did. One after another, these runs took
most of the tests session. :func:`side_by_side` starts every run that the
session selected (``-k`` selects fewer) in a pool of one thread per CPU, in
the order the tests come, and each test waits for its own run. The site's
build also runs its pages side by side, and the pages' timing checks hold
beside other processes (``nox -s stress``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest


def scheduled(request: pytest.FixtureRequest, *tests: str) -> list[tuple[str, Any]]:
    """The tests of these names that the session will run: (name, ``script``), in order.

    Only tests parametrized by ``script`` count.
    """
    found = []
    for item in request.session.items:
        name = getattr(item, "originalname", None)
        callspec = getattr(item, "callspec", None)
        if name in tests and callspec is not None and "script" in callspec.params:
            found.append((name, callspec.params["script"]))
    return found


class Runs:
    """The results of runs started side by side, each read by its key."""

    def __init__(self, futures: dict[Hashable, Future[Any]]) -> None:
        self._futures = futures

    def result(self, key: Hashable) -> Any:
        """Wait for the run of ``key``; its result, or the exception it raised."""
        if key not in self._futures:
            raise KeyError(f"no run was started for {key!r}")
        return self._futures[key].result()


@contextmanager
def side_by_side(jobs: dict[Hashable, Callable[[], Any]]) -> Iterator[Runs]:
    """Start the jobs, one thread per CPU, in the dict's order.

    On leaving, jobs not yet started are cancelled (a test session stopped
    early, with ``-x`` say, does not wait for them), and running ones end.

    >>> with side_by_side({"a": lambda: 1, "b": lambda: 2}) as runs:
    ...     runs.result("b"), runs.result("a")
    (2, 1)
    """
    pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 1)
    try:
        yield Runs({key: pool.submit(job) for key, job in jobs.items()})
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
