"""``tau-env export``: write stored runs as the reference's files.

``--format results`` (the default) writes one run in the reference's results layout
(``results.json``), which τ²-bench viewers and scripts read as they read the reference's own
results. ``--format submission`` writes the leaderboard's ``submission.json`` for a set of runs,
one per domain (``--run a,b,c`` or ``--all``): pass^1-4 per domain, cost, user simulator,
retrieval configuration for banking, version; ``--model-organization`` and
``--submitting-organization`` are required, as the leaderboard requires them.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from typing import Any

from tau_env.cli.common import add_store_arguments, documented_parser, open_existing_store
from tau_env.errors import TauEnvError
from tau_env.rollout.export import export_run
from tau_env.rollout.submission import SubmissionDetails, build_submission
from tau_env.utils.files import write_text_atomically

__all__ = ["add_parser"]

_SUMMARY = "write a run as the reference's results.json, or runs as a leaderboard submission"
"""The subcommand's line in ``tau-env --help``."""


def add_parser(commands: Any) -> None:
    """Register the subcommand."""
    parser = documented_parser(commands, "export", _SUMMARY, __doc__)
    add_store_arguments(
        parser,
        run_help="the run to export (default: the latest in the store); submission: "
        "comma-separated runs, one per domain",
    )
    parser.add_argument("--out", "-o", default="-", help="output file (default: standard output)")
    parser.add_argument(
        "--format",
        choices=("results", "submission"),
        default="results",
        help="results: the reference's results.json; submission: the leaderboard's "
        "submission.json (default: %(default)s)",
    )
    group = parser.add_argument_group("submission (--format submission)")
    group.add_argument("--all", action="store_true", help="every run in the store")
    group.add_argument("--model-name", default=None, help="default: the runs' agent model")
    group.add_argument("--model-organization", default=None, help="who developed the model")
    group.add_argument("--submitting-organization", default=None, help="who ran the evaluation")
    group.add_argument("--contact-email", default=None, help="contact e-mail")
    group.add_argument("--contact-name", default=None, help="contact name")
    group.add_argument(
        "--submission-date", type=date.fromisoformat, default=None, help="YYYY-MM-DD (today)"
    )
    group.add_argument(
        "--submission-type",
        choices=("standard", "custom"),
        default=None,
        help="default: standard only for runs imported from the reference's own scaffold",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    """Write the export; say where when writing a file."""
    with open_existing_store(args.store, read_only=True) as store:
        if args.format == "submission":
            run_ids = (
                [run.run_id for run in store.runs()]
                if args.all
                else [r.strip() for r in (args.run or "").split(",") if r.strip()]
            )
            output = build_submission(store, run_ids, _details(args))
            what = f"a submission of {len(output['results'])} domains"
        else:
            if args.all:
                raise TauEnvError("--all is for --format submission; export one run with --run")
            output = export_run(store, args.run)
            what = f"{len(output['simulations'])} simulations"
    text = json.dumps(output, indent=2)
    if args.out == "-":
        sys.stdout.write(text + "\n")
        return 0
    path = write_text_atomically(args.out, text + "\n")
    print(f"wrote {what} to {path}", file=sys.stderr)
    return 0


def _details(args: argparse.Namespace) -> SubmissionDetails:
    missing = [
        flag
        for flag, value in (
            ("--model-organization", args.model_organization),
            ("--submitting-organization", args.submitting_organization),
        )
        if not value
    ]
    if missing:
        raise TauEnvError(f"--format submission needs {' and '.join(missing)}")
    return SubmissionDetails(
        model_organization=args.model_organization,
        submitting_organization=args.submitting_organization,
        model_name=args.model_name,
        contact_email=args.contact_email,
        contact_name=args.contact_name,
        submission_date=args.submission_date,
        submission_type=args.submission_type,
    )
