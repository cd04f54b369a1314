"""``tau-env export``: write a stored run in the reference's results layout (``results.json``).

τ²-bench viewers and scripts read the file as they read the reference's own results.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from tau_env.cli.common import add_store_arguments, open_existing_store
from tau_env.rollout.export import export_run
from tau_env.utils.wording import plain_help

__all__ = ["add_parser"]


def add_parser(commands: Any) -> None:
    """Register the subcommand."""
    parser = commands.add_parser(
        "export",
        help="write a run as the reference's results.json",
        description=plain_help(__doc__),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_store_arguments(parser, run_help="the run to export (default: the latest in the store)")
    parser.add_argument("--out", "-o", default="-", help="output file (default: standard output)")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    """Write the export; say where when writing a file."""
    with open_existing_store(args.store, read_only=True) as store:
        results = export_run(store, args.run)
    text = json.dumps(results, indent=2)
    if args.out == "-":
        sys.stdout.write(text + "\n")
        return 0
    path = Path(args.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {len(results['simulations'])} simulations to {path}", file=sys.stderr)
    return 0
