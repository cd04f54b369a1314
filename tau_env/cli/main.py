"""``tau-env``: run, resume, report and export rollouts; list and validate tasks."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tau_env.cli import export as export_command
from tau_env.cli import report as report_command
from tau_env.cli import resume as resume_command
from tau_env.cli import run as run_command
from tau_env.cli import serve as serve_command
from tau_env.cli import tasks as tasks_command
from tau_env.cli import validate as validate_command
from tau_env.errors import TauEnvError
from tau_env.secrets import redact

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog="tau-env", description="τ²-bench as a dual-control RL environment."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    for module in (
        run_command,
        resume_command,
        report_command,
        export_command,
        tasks_command,
        validate_command,
        serve_command,
    ):
        module.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.handler(args)
    except (TauEnvError, KeyError) as error:
        message = error.args[0] if isinstance(error, KeyError) and error.args else error
        print(f"tau-env: error: {redact(str(message))}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
