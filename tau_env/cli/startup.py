"""Ctrl-C while the ``tau-env`` command is still starting: one line and exit 130, no traceback.

The command's entry point, `tau_env.cli.main.main`, handles Ctrl-C from its first line on; but
before it runs, Python imports the ``tau_env`` package, which registers its Gymnasium ids and so
imports Gymnasium and NumPy (about a fifth of a second). A Ctrl-C then would end in a traceback.
`quiet_start` is called first thing in ``tau_env/__init__.py``: only when the process is the
``tau-env`` command (by its program name), it sets a Ctrl-C handler that says "interrupted" and
exits with 130 at once (nothing has started yet, so nothing needs cleaning up); `main` puts
Python's usual handler back when it starts. For any other program importing tau_env it does
nothing.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from types import FrameType

__all__ = ["COMMAND", "quiet_start", "restore_interrupts"]

COMMAND = "tau-env"
"""The console script's name (``[project.scripts]`` in pyproject.toml)."""

EXIT_INTERRUPTED = 130
"""128 + SIGINT, as `tau_env.cli.main.EXIT_INTERRUPTED`."""


def quiet_start() -> None:
    """In the ``tau-env`` process, exit quietly on Ctrl-C until `restore_interrupts`."""
    program = os.path.basename(sys.argv[0]) if sys.argv else ""
    if program != COMMAND or threading.current_thread() is not threading.main_thread():
        return
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _exit_interrupted)


def restore_interrupts() -> None:
    """Python's usual Ctrl-C (a KeyboardInterrupt), if `quiet_start` replaced it."""
    if signal.getsignal(signal.SIGINT) is _exit_interrupted:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _exit_interrupted(signum: int, frame: FrameType | None) -> None:
    os.write(2, f"{COMMAND}: interrupted\n".encode())
    os._exit(EXIT_INTERRUPTED)  # no cleanup to run: the command has not started
