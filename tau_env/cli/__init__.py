"""The ``tau-env`` command line."""

from __future__ import annotations

import argparse
from typing import Any

from tau_env.utils.wording import plain_help

__all__ = ["documented_parser"]


def documented_parser(commands: Any, name: str, summary: str, doc: str | None) -> Any:
    """Add subcommand `name`, its ``--help`` the module docstring `doc` as written.

    Args:
        commands: The subparsers action of the ``tau-env`` parser.
        name: The subcommand.
        summary: Its line in the command list.
        doc: The subcommand module's ``__doc__`` (its line breaks kept; backtick quotes gone).
    """
    parser: argparse.ArgumentParser = commands.add_parser(
        name,
        help=summary,
        description=plain_help(doc),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser
