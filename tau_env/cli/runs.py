"""tau-env runs: list the runs of a store; tau-env runs delete RUN: remove one.

The list shows, per run, when it was created, what played, how many of its planned episodes
are stored and its state (complete; incomplete, which tau-env resume finishes; or empty). The
list opens the store read-only. "delete" removes a run with its episodes and failed attempts,
in one transaction; nothing else in the store changes.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from tau_env.cli.common import DEFAULT_STORE, open_existing_store
from tau_env.rollout.config import RunConfig
from tau_env.rollout.modes import has_user
from tau_env.store.sqlite import ResultStore

__all__ = ["add_parser"]


def add_parser(commands: Any) -> None:
    """Register the subcommand and its ``delete`` action."""
    parser = commands.add_parser(
        "runs",
        help="list the runs of a store, or delete one",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _store_argument(parser, DEFAULT_STORE)
    parser.add_argument("--json", action="store_true", help="print the list as JSON")
    parser.set_defaults(handler=handle_list)
    actions = parser.add_subparsers(dest="action", metavar="{delete}")
    delete = actions.add_parser(
        "delete", help="remove runs with their episodes and failed attempts"
    )
    delete.add_argument("run_ids", nargs="+", metavar="RUN", help="the runs to remove")
    _store_argument(delete, argparse.SUPPRESS)  # given before or after `delete`
    delete.set_defaults(handler=handle_delete)


def _store_argument(parser: argparse.ArgumentParser, default: str) -> None:
    parser.add_argument(
        "--store",
        default=default,
        help=f"SQLite result store (default: {DEFAULT_STORE} in the current folder)",
    )


def _row(store: ResultStore, run_id: str, created_at: float, config: RunConfig) -> dict[str, Any]:
    stored = store.episode_count(run_id)
    planned = config.episodes
    state = "complete" if stored >= planned else ("empty" if stored == 0 else "incomplete")
    return {
        "run_id": run_id,
        "created": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(created_at)),
        "domain": config.domain,
        "agent": config.agent.describe(),
        "user": config.user.describe() if has_user(config.mode) else "none",
        "mode": config.mode,
        "episodes": stored,
        "planned": planned,
        "failed_attempts": len(store.failures(run_id)),
        "state": state,
    }


def handle_list(args: argparse.Namespace) -> int:
    """Print one line per run, oldest first."""
    with open_existing_store(args.store, read_only=True) as store:
        rows = [
            _row(store, run.run_id, run.created_at, RunConfig.model_validate(run.config))
            for run in store.runs()
        ]
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    if not rows:
        print(f"no runs in {args.store}")
        return 0
    header = ("run", "created", "domain", "agent", "user", "mode", "episodes", "state")
    table = [
        (
            row["run_id"],
            row["created"],
            row["domain"],
            row["agent"],
            row["user"],
            row["mode"],
            f"{row['episodes']}/{row['planned']}",
            row["state"],
        )
        for row in rows
    ]
    widths = [max(len(line[i]) for line in [header, *table]) for i in range(len(header))]
    for line in [header, *table]:
        print(
            "  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip()
        )
    return 0


def handle_delete(args: argparse.Namespace) -> int:
    """Remove each named run (all must exist: none is removed otherwise)."""
    with open_existing_store(args.store) as store:
        for run_id in args.run_ids:
            store.run(run_id)  # UnknownRun before anything is removed
        for run_id in dict.fromkeys(args.run_ids):
            episodes, failures = store.delete_run(run_id)
            print(f"deleted run {run_id}: {episodes} episodes, {failures} failed attempts")
    return 0
