"""``tau-env export``: write stored runs as the reference's files.

``--format results`` (the default) writes one run in the reference's results layout
(``results.json``), which τ²-bench viewers and scripts read as they read the reference's own
results. ``--format submission`` writes the leaderboard's ``submission.json`` for a set of
runs of the official task sets, one per domain (``--run a,b,c`` or ``--all``): pass^1-4 per
domain, cost, user simulator, retrieval configuration for banking, version;
``--model-organization`` and ``--submitting-organization`` are required, as the leaderboard
requires them.

``--format sft`` and ``--format preference`` write training corpora as JSON Lines, in the
conversation format of the training routes and of ``tau-env run --agent llm``
(`tau_env.rollout.corpora`): one SFT example per episode (``--min-reward`` keeps those that
reach a reward), or (prompt, chosen, rejected) pairs of a passed and a failed episode of a
task, from one run's trials or several runs (``--run a,b`` or ``--all``). A file is written
whole or not at all, streamed in bounded memory.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from collections.abc import Iterator
from datetime import date
from typing import Any

from tau_env.cli.common import add_store_arguments, documented_parser, open_existing_store
from tau_env.errors import TauEnvError
from tau_env.rollout.corpora import jsonl_lines, preference_examples, sft_examples
from tau_env.rollout.episode_chats import RunChats
from tau_env.rollout.export import export_run
from tau_env.rollout.submission import SubmissionDetails, build_submission
from tau_env.store.sqlite import ResultStore
from tau_env.utils.atomic_output import atomic_output, write_text_atomically
from tau_env.utils.wording import counted

__all__ = ["add_parser"]

_SUMMARY = (
    "write a run as the reference's results.json, runs as a leaderboard submission, or as "
    "SFT / preference corpora"
)
"""The subcommand's line in ``tau-env --help``."""


def add_parser(commands: Any) -> None:
    """Register the subcommand."""
    parser = documented_parser(commands, "export", _SUMMARY, __doc__)
    add_store_arguments(
        parser,
        run_help="the run to export (default: the latest in the store); submission: "
        "comma-separated runs, one per domain; sft, preference: comma-separated runs",
    )
    parser.add_argument("--out", "-o", default="-", help="output file (default: standard output)")
    parser.add_argument(
        "--format",
        choices=("results", "submission", "sft", "preference"),
        default="results",
        help="results: the reference's results.json; submission: the leaderboard's "
        "submission.json; sft: one chat per episode (JSON Lines); preference: (prompt, chosen, "
        "rejected) pairs of a passed and a failed episode of a task (default: %(default)s)",
    )
    parser.add_argument(
        "--all", action="store_true", help="every run in the store (submission, sft, preference)"
    )
    corpora = parser.add_argument_group("corpora (--format sft, --format preference)")
    corpora.add_argument(
        "--min-reward",
        type=float,
        default=None,
        help="sft: only episodes whose reward reaches this (1.0: the passed ones; default: all)",
    )
    corpora.add_argument(
        "--sft-layout",
        choices=("messages", "prompt-completion"),
        default=None,
        help="sft: the whole chat as 'messages', or the chat before the model's first turn as "
        "'prompt' and the rest as 'completion' (default: messages)",
    )
    corpora.add_argument(
        "--pair-continuation",
        choices=("episode", "turn"),
        default=None,
        help="preference: 'chosen' and 'rejected' run from the turn where the episodes part to "
        "each one's last agent turn, or are that turn alone (default: episode)",
    )
    corpora.add_argument(
        "--no-metadata",
        action="store_true",
        help="leave out each line's metadata (run, task id, trial, seed, reward)",
    )
    group = parser.add_argument_group("submission (--format submission)")
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
    _check_corpus_flags(args)
    if args.format in ("sft", "preference"):
        return _write_corpus(args)
    with open_existing_store(args.store, read_only=True) as store:
        if args.format == "submission":
            run_ids = _run_ids(args, store)
            output = build_submission(store, run_ids, _details(args))
            what = f"a submission of {counted(len(output['results']), 'domain')}"
        else:
            if args.all:
                raise TauEnvError(
                    "--all is for --format submission, sft and preference; export one run "
                    "with --run"
                )
            output = export_run(store, args.run)
            what = counted(len(output["simulations"]), "simulation")
    text = json.dumps(output, indent=2)
    if args.out == "-":
        sys.stdout.write(text + "\n")
        return 0
    path = write_text_atomically(args.out, text + "\n")
    print(f"wrote {what} to {path}", file=sys.stderr)
    return 0


def _run_ids(args: argparse.Namespace, store: ResultStore) -> list[str]:
    """``--all``'s runs, else ``--run``'s comma-separated ones."""
    if args.all:
        return [run.run_id for run in store.runs()]
    return [r.strip() for r in (args.run or "").split(",") if r.strip()]


def _write_corpus(args: argparse.Namespace) -> int:
    """Stream the SFT or preference corpus to ``--out``; say how many lines and what was left out.

    Every run is opened (its data loaded, its tasks reset) before the first line is written.
    """
    left_out: Counter[str] = Counter()
    with open_existing_store(args.store, read_only=True) as store:
        chosen: list[str | None] = [*_run_ids(args, store)] or [None]  # None: the latest run
        runs = [RunChats(store, run_id) for run_id in chosen]
        metadata = not args.no_metadata
        if args.format == "sft":
            examples: Iterator[dict[str, Any]] = sft_examples(
                runs,
                min_reward=args.min_reward,
                layout=args.sft_layout or "messages",
                metadata=metadata,
                left_out=left_out,
            )
            what = "SFT examples"
        else:
            examples = preference_examples(
                runs,
                continuation=args.pair_continuation or "episode",
                metadata=metadata,
                left_out=left_out,
            )
            what = "preference pairs"
        if args.out == "-":
            sys.stdout.flush()
            written = _write_lines(examples, sys.stdout.buffer)
            where = "standard output"
        else:
            with atomic_output(args.out) as file:
                written = _write_lines(examples, file)
            where = args.out
    runs_text = ", ".join(run.run_id for run in runs)
    print(f"wrote {written} {what} from {runs_text} to {where}", file=sys.stderr)
    for reason, count in sorted(left_out.items()):
        print(f"  left out: {count} ({reason})", file=sys.stderr)
    return 0


_CORPUS_FLAGS = {
    "--min-reward": ("sft",),
    "--sft-layout": ("sft",),
    "--pair-continuation": ("preference",),
    "--no-metadata": ("sft", "preference"),
}
"""Each corpus option, and the formats it applies to."""


def _check_corpus_flags(args: argparse.Namespace) -> None:
    """Refuse a corpus option given with a format it does not apply to."""
    given = {
        "--min-reward": args.min_reward is not None,
        "--sft-layout": args.sft_layout is not None,
        "--pair-continuation": args.pair_continuation is not None,
        "--no-metadata": args.no_metadata,
    }
    for flag, formats in _CORPUS_FLAGS.items():
        if given[flag] and args.format not in formats:
            allowed = " and ".join(f"--format {name}" for name in formats)
            raise TauEnvError(f"{flag} is for {allowed}")
    if args.min_reward is not None and not math.isfinite(args.min_reward):
        raise TauEnvError(f"--min-reward must be a finite number, actually: {args.min_reward}")


def _write_lines(examples: Iterator[dict[str, Any]], file: Any) -> int:
    count = 0
    for line in jsonl_lines(examples):
        file.write(line)
        count += 1
    file.flush()
    return count


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
