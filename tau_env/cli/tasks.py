"""``tau-env tasks``: list a domain's tasks."""

from __future__ import annotations

import argparse
import json
from typing import Any

from tau_env.cli.common import DEFAULT_DOMAIN, add_data_arguments
from tau_env.loader import load_tasks

__all__ = ["add_parser"]


def add_parser(commands: Any) -> None:
    """Register the subcommand."""
    parser = commands.add_parser("tasks", help="list the tasks of a domain split")
    add_data_arguments(parser, default_domain=DEFAULT_DOMAIN)
    parser.add_argument("--json", action="store_true", help="print the tasks as JSON")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    """Print one task id per line (with its reward basis), or JSON."""
    tasks = load_tasks(args.domain, data_dir=args.data_dir, split=args.split)
    if args.json:
        print(
            json.dumps(
                [task.model_dump(mode="json", exclude_none=True) for task in tasks], indent=2
            )
        )
        return 0
    for task in tasks:
        print(f"{task.id}\t{','.join(task.reward_basis) or '-'}")
    return 0
