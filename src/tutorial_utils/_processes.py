"""Start processes that cannot outlive their time limit (private).

What :mod:`tutorial_utils.distributed` needs to run its training processes
safely, from any program: a free TCP port on this machine, processes started
with the ``"spawn"`` start method and stopped at a deadline, and a command
run in a session of its own, so that a timeout, Ctrl-C or any other
exception in the caller (such as the build's time limit on a page) ends it
and every process it started. A signal that ends Python without an
exception, such as SIGTERM, does not: then only the launcher's own deadline
stops the processes. None of this imports torch.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Sequence
from typing import Any

#: The address processes on this machine meet at: its loopback interface.
LOOPBACK = "127.0.0.1"


def find_free_port(host: str = LOOPBACK) -> int:
    """Ask the operating system for a TCP port that is free right now.

    Binding to port 0 makes the system choose an unused port; the socket is
    closed again at once, so a process can listen on it moments later
    (unless another program takes the port in between, which is rare).

    Examples
    --------
    >>> 1024 <= find_free_port() <= 65535
    True
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
    return port


def run_spawned(
    target: Callable[[int, int, dict[str, Any]], None],
    nprocs: int,
    options: dict[str, Any],
    timeout: float,
) -> None:
    """Run ``target(rank, nprocs, options)`` in `nprocs` spawned processes.

    The standard library's :mod:`multiprocessing` is enough here:
    :mod:`torch.multiprocessing` adds sharing of tensors between processes,
    and the processes are sent none. Every process still running at
    `timeout` seconds, or when one of them fails, is killed.

    Raises
    ------
    TimeoutError
        If the processes did not all finish within `timeout` seconds.
    RuntimeError
        If a process ended with a non-zero exit code.

    Examples
    --------
    >>> run_spawned(print, 0, {}, timeout=1.0)  # no process: nothing to wait for
    """
    import multiprocessing
    import multiprocessing.connection

    context = multiprocessing.get_context("spawn")
    processes = [
        context.Process(
            target=target, args=(rank, nprocs, options), name=f"rank {rank}"
        )
        for rank in range(nprocs)
    ]
    deadline = time.monotonic() + timeout
    try:
        for process in processes:
            process.start()
        running = {process.sentinel: process for process in processes}
        while running:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(
                    f"the {nprocs} processes did not finish within {timeout:g} s; "
                    "they were stopped"
                )
            for sentinel in multiprocessing.connection.wait(running, remaining):
                process = running.pop(sentinel)  # type: ignore[arg-type]
                process.join()
                if process.exitcode != 0:
                    raise RuntimeError(
                        f"{process.name} failed (exit code {process.exitcode}); "
                        "the other processes were stopped"
                    )
    finally:
        for process in processes:
            if process.is_alive():
                process.kill()
            if process.pid is not None:
                process.join()


def run_stoppable(
    command: Sequence[str], env: dict[str, str], timeout: float
) -> tuple[int, str]:
    """Run `command`; kill it and everything it started at `timeout` seconds.

    The command runs in a session of its own (an operating-system process
    group), so that a timeout, Ctrl-C or any other exception in the caller
    kills its children too, on POSIX systems; elsewhere only the command
    itself is killed.

    Returns
    -------
    tuple of (int, str)
        The exit status and what the command wrote to standard error.

    Raises
    ------
    subprocess.TimeoutExpired
        If it ran past `timeout` seconds (it was killed).

    Examples
    --------
    >>> import sys
    >>> run_stoppable([sys.executable, "-c", "pass"], dict(os.environ), timeout=30)
    (0, '')
    """
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=os.name == "posix",
    )
    try:
        _, stderr = process.communicate(timeout=timeout)
    except BaseException:  # a timeout, Ctrl-C, a page's time limit
        if os.name == "posix":
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
        process.communicate()
        raise
    return process.returncode, stderr
