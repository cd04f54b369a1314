"""``tau-env``: run, resume, report, export and import rollouts; list and validate tasks.

Every failure the user can act on is one line on stderr, ``tau-env: error: ...``, and a non-zero
exit code; never a traceback. Ctrl-C at any moment (even while the subcommands are imported)
exits with 130; a reader that stops early (``tau-env tasks | head``) ends the output quietly.
Set ``TAU_ENV_DEBUG=1`` to see the traceback of an unexpected error.

This module imports only the standard library at import time: the subcommand modules, which
import the rest of tau_env, are imported inside `main`, where Ctrl-C is handled.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sqlite3
import sys
import textwrap
import threading
from collections.abc import Sequence
from typing import Any, NoReturn

from tau_env.cli.startup import restore_interrupts

__all__ = [
    "EXIT_BROKEN_PIPE",
    "EXIT_CODES",
    "EXIT_ERROR",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "SUBCOMMANDS",
    "Interrupted",
    "OneLineParser",
    "build_parser",
    "ignore_sigint",
    "main",
]

SUBCOMMANDS = (
    "run",
    "resume",
    "report",
    "view",
    "play",
    "export",
    "import",
    "runs",
    "tasks",
    "validate",
    "audit",
    "generate",
    "serve",
    "fake_server",
)
"""Every subcommand's module, in the order ``--help`` lists them: ``tau_env.cli.<name>``
defines ``add_parser(commands)``, which registers the subcommand (``<name>`` with ``-`` for
``_``) and its handler. A new subcommand is one module and one name here."""

EXIT_INTERRUPTED = 130
"""Exit code after Ctrl-C (128 + SIGINT, as a shell reports it)."""

EXIT_BROKEN_PIPE = 141
"""Exit code when the reader of standard output went away (128 + SIGPIPE, as a shell reports
a command that a closed pipe stopped)."""

EXIT_ERROR = 2
"""Exit code of an error the message explains (bad input, missing file, refused run)."""

EXIT_INTERNAL = 3
"""Exit code of an unexpected error (a bug): one line, the traceback with ``TAU_ENV_DEBUG=1``."""

EXIT_CODES = (
    (
        0,
        "done: run and resume stored, graded and reported every episode; validate: every task "
        "reaches 1.0",
    ),
    (
        1,
        "done, with something to look at: run and resume left failed attempts, or episodes "
        "without a reward because no judge ruled on their NL assertions (none was given, or it "
        "could not rule; the output says how to resume or judge them); report --all left out "
        "incomplete runs (named on stderr); validate: a task below 1.0 or not judged",
    ),
    (
        2,
        "an error the message explains: a bad option, an unknown domain, task or split, a "
        "missing file, a refused run",
    ),
    (3, "an unexpected error (a bug); TAU_ENV_DEBUG=1 shows its traceback"),
    (130, "interrupted (Ctrl-C); what finished is stored, and the output says how to resume"),
    (141, "standard output closed early (piped into head, say)"),
)
"""Every exit code of ``tau-env``, with its meaning (``--help`` and the README list them)."""

DOMAIN_NOTE = (
    "run, play, tasks, validate, audit and serve take the domain as --domain (default: telecom),\n"
    "a name or a versioned id; a mistyped domain, task or split is answered with the closest\n"
    "known name. --data-dir defaults to $TAU2_DATA_DIR when it is set."
)
"""The ``--help`` note on naming a domain (`tau_env.cli.common.DEFAULT_DOMAIN`)."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C, with what the user should know (how much is stored, how to continue).

    A handler raises it after cleaning up, with Ctrl-C still ignored (`ignore_sigint`) until
    `main` has printed it: the one place that prints the "interrupted" line, so a second
    Ctrl-C during the cleanup or the way out adds no line (nor a traceback).

    Args:
        message: The line to print (after ``tau-env: ``).
        sigint_handler: The Ctrl-C handler to restore once the line is printed.
    """

    def __init__(self, message: str, sigint_handler: Any = None) -> None:
        super().__init__(message)
        self.sigint_handler = sigint_handler


def ignore_sigint() -> Any:
    """Ignore Ctrl-C from now on; returns the handler it replaced.

    None off the main thread, where signals cannot be set.
    """
    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGINT, signal.SIG_IGN)


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, as every other error of ``tau-env``.

    argparse prints the usage, then the error; here the error comes alone, naming the
    command's ``--help`` (which shows the usage), and the exit code is `EXIT_ERROR`.
    """

    def error(self, message: str) -> NoReturn:
        """Print ``tau-env: error: <message> (see <prog> --help)`` and exit with 2."""
        _error(f"{message} (see `{self.prog} --help`)")
        sys.exit(EXIT_ERROR)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand (imports the subcommand modules)."""
    from tau_env import __version__

    codes = "\n".join(
        textwrap.fill(meaning, 79, initial_indent=f"  {code:<5}", subsequent_indent=" " * 7)
        for code, meaning in EXIT_CODES
    )
    parser = OneLineParser(
        prog="tau-env",
        description="τ²-bench as a dual-control RL environment.",
        epilog=f"{DOMAIN_NOTE}\n\nexit codes:\n{codes}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"tau-env {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    for name in SUBCOMMANDS:
        importlib.import_module(f"tau_env.cli.{name}").add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code.

    Args:
        argv: The arguments; None: the program's own (``sys.argv``), as the ``tau-env`` command
            calls it. Then, after Ctrl-C, Ctrl-C stays ignored until the process exits (another
            one during the interpreter's shutdown would print a traceback from an exit hook);
            called with arguments (in-process), the previous handler is restored.
    """
    restore_interrupts()  # Ctrl-C is a KeyboardInterrupt, handled below, from here on
    try:
        arguments = list(sys.argv[1:] if argv is None else argv)
        undecodable = next((a for a in arguments if not _is_text(a)), None)
        if undecodable is not None:
            shown = undecodable.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
            _error(f"an argument is not UTF-8 text: {shown[:60]!r}")
            return EXIT_ERROR
        args = build_parser().parse_args(arguments)
        code: int = args.handler(args)
        sys.stdout.flush()  # a closed pipe shows here, inside the handlers below
    except KeyboardInterrupt as interrupt:
        previous = ignore_sigint()  # another Ctrl-C now would add a second line or a traceback
        # `Interrupted` says more; matched by its message, not its class: run as
        # `python -m tau_env.cli.main`, this module is also imported under its own name.
        _error(str(interrupt) or "interrupted", kind="")
        if argv is not None:
            # the handler before the interrupt (`Interrupted` ignored Ctrl-C since it was raised)
            handler = getattr(interrupt, "sigint_handler", None) or previous
            if handler is not None:
                signal.signal(signal.SIGINT, handler)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _detach_stdout()
        return EXIT_BROKEN_PIPE
    except Exception as error:
        return _report(error)
    return code


def _is_text(argument: str) -> bool:
    """False for an argument holding bytes that are not UTF-8 (decoded as lone surrogates)."""
    try:
        argument.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _report(error: Exception) -> int:
    """Print `error` as one line and return its exit code."""
    from tau_env.errors import TauEnvError

    if isinstance(error, TauEnvError | KeyError):
        message = error.args[0] if isinstance(error, KeyError) and error.args else error
        _error(str(message))
        return EXIT_ERROR
    if isinstance(error, sqlite3.Error):
        _error(f"result store: {error}")
        return EXIT_ERROR
    if isinstance(error, OSError):  # a file or folder that cannot be read or written
        _error(str(error))
        return EXIT_ERROR
    if os.environ.get("TAU_ENV_DEBUG"):
        raise error
    _error(
        f"unexpected {type(error).__name__}: {error} (a bug in tau_env or a plug-in; "
        "TAU_ENV_DEBUG=1 shows the traceback)",
        kind="internal error",
    )
    return EXIT_INTERNAL


def _error(message: str, *, kind: str = "error") -> None:
    """``tau-env: <kind>: <message>`` on stderr, on one line, with API keys redacted."""
    from tau_env.secrets import redact

    one_line = " ".join(redact(message).split())
    print(f"tau-env: {kind}: {one_line}" if kind else f"tau-env: {one_line}", file=sys.stderr)


def _detach_stdout() -> None:
    """Point standard output at /dev/null after its reader went away.

    The interpreter's final flush of what could not be written then raises no second
    BrokenPipeError (the recipe of the Python docs on SIGPIPE).
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (tests capture stdout)
        pass


if __name__ == "__main__":
    sys.exit(main())
