"""``tau-env audit``: which tasks of a set can be passed without doing the work.

Plays every task with the probes of `tau_env.baselines.probes` (refuse, transfer at once,
agree and end, read everything and end, three random agents) and with the oracle (the gold
plan, an upper bound), against the scripted user, then prints each player's pass rate, the
tasks a probe passes, and how many only the oracle passes.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tau_env.cli.common import (
    add_graded_play_arguments,
    checked_judge,
    data_options,
    documented_parser,
)
from tau_env.errors import TauEnvError

__all__ = ["add_parser"]

_SUMMARY = "play every task with probes that do not solve it; report which pass"
"""The subcommand's line in ``tau-env --help``."""

MAX_WORKERS = 256
"""The most processes ``--workers`` shares the tasks among."""


def add_parser(commands: Any) -> None:
    """Register the subcommand."""
    parser = documented_parser(commands, "audit", _SUMMARY, __doc__)
    add_graded_play_arguments(parser)
    parser.add_argument(
        "--seeds",
        default="0",
        metavar="N,N",
        help="play each task with each player once per seed (episode and scripted user): a "
        "probe passes a task when it passes under some seed, the oracle under every one "
        "(default: 0)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="processes sharing the tasks (default: 1; every episode is seeded on its own, so "
        "the audit is the same)",
    )
    parser.add_argument("--json", action="store_true", help="print the audit as JSON")
    parser.add_argument(
        "--html", default=None, metavar="FILE", help="also write the audit as an HTML page"
    )
    parser.set_defaults(handler=handle)


def _seeds(text: str) -> list[int]:
    """``--seeds``: comma-separated integers.

    Raises:
        TauEnvError: Not a list of integers (one line naming the value).
    """
    try:
        seeds = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        seeds = []
    if not seeds:
        raise TauEnvError(f"--seeds must be comma-separated integers, actually: {text!r}")
    return seeds


def handle(args: argparse.Namespace) -> int:
    """Run the audit and print it (text or JSON); exit 0."""
    from tau_env.audit import audit, render_text

    if not 1 <= args.workers <= MAX_WORKERS:
        raise TauEnvError(f"--workers must be between 1 and {MAX_WORKERS}, not {args.workers}")
    judge = checked_judge(args)
    task_ids = [t.strip() for t in args.tasks.split(",") if t.strip()] if args.tasks else None
    report = audit(
        args.domain,
        **data_options(args),
        task_ids=task_ids,
        judge=judge,
        grading=args.grading,
        seeds=_seeds(args.seeds),
        workers=args.workers,
    )
    if args.json:
        print(json.dumps(report.summary(), indent=2))
    else:
        print(render_text(report))
    if args.html:
        from tau_env.html_report.audit import write_audit_page

        sys.stdout.flush()
        written = write_audit_page([report], args.html)
        print(f"tau-env: wrote {written}", file=sys.stderr)
    return 0
