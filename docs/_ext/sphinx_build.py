"""Run ``sphinx-build``, then end the process without tearing Python down.

At exit, Python frees every object one at a time and runs the destructors
of the libraries it loaded. After a build that ran a page in its own process
(a one-page edit), that took about 1 s of a 5.4 s build on the two-core
build machine; torch alone adds about 0.35 s (``python -c "import torch"``
took 1.20 s, and 0.86 s ending with ``os._exit``).

Everything the build writes is closed when Sphinx's ``main`` returns. This
then does what a normal exit does first: it waits for the threads, runs
their exit callbacks (joblib's loky stops Sphinx-Gallery's worker processes
there), and runs the ``atexit`` handlers (the logs are flushed there). It
flushes the standard streams, and ends the process with the build's exit
status. Sphinx's own errors and interruptions leave the normal way.

``nox -s docs`` runs ``python docs/_ext/sphinx_build.py <sphinx-build options>``.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading


def run(argv: list[str]) -> None:
    """Build as ``sphinx-build argv`` does, and end the process with its status."""
    from sphinx.cmd.build import main

    status = main(argv)
    # What CPython's exit runs before its teardown, in the same order (both
    # functions are CPython's own; present in 3.10 to 3.13, checked).
    threading._shutdown()  # type: ignore[attr-defined]
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


if __name__ == "__main__":
    run(sys.argv[1:])
