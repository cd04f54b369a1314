"""Executing a run from the command line: backend choice, progress display, final report."""

from __future__ import annotations

import argparse
import sys

from tau_env.cli.main import Interrupted, ignore_sigint
from tau_env.cli.reference_flags import LOG_LEVELS, set_log_level
from tau_env.cli.report import print_report, summary_line
from tau_env.errors import TauEnvError
from tau_env.rollout.bounds import MAX_CONCURRENCY, MAX_WORKERS, check_range
from tau_env.rollout.config import RunConfig
from tau_env.rollout.preflight import run_resume_command
from tau_env.rollout.progress import ProgressBar
from tau_env.rollout.report import IncompleteRun, run_report
from tau_env.rollout.runner import Backend, LocalBackend, run
from tau_env.store.sqlite import ResultStore
from tau_env.utils.commands import tau_env_command

__all__ = ["add_execution_arguments", "backend_of", "execute"]


def add_execution_arguments(parser: argparse.ArgumentParser) -> None:
    """``--concurrency``, ``--llm-concurrency``, ``--backend``, ``--workers``, the output options.

    ``--max-concurrency`` is τ²-bench's name of ``--concurrency``; ``--log-level`` sets the
    level of Python's logging for the run.

    Output: a compact summary by default (the run, pass^k, terminations, usage, and the
    command that prints the per-task table); ``--verbose`` adds that table, ``--quiet`` prints
    one line and no progress bar, ``--json`` the report as JSON.
    """
    parser.add_argument(
        "--concurrency",
        "--max-concurrency",
        type=int,
        default=8,
        help="episodes in flight at once (default: 8)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="local backend: worker processes sharing the episodes, about one core each "
        "(default: 1, this process)",
    )
    parser.add_argument(
        "--llm-concurrency",
        type=int,
        default=None,
        help="model calls in flight at once, over all workers (default: no extra limit)",
    )
    parser.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local: asyncio on this machine; ray: a Ray cluster (RAY_ADDRESS, else local)",
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the report as JSON")
    output.add_argument(
        "--verbose", "-v", action="store_true", help="also print the per-task table"
    )
    output.add_argument(
        "--quiet", "-q", action="store_true", help="print one summary line, no progress bar"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.add_argument(
        "--log-level",
        choices=LOG_LEVELS,
        type=str.upper,
        default=None,
        help="log what tau_env and the model clients log at this level, on stderr "
        "(default: warnings only)",
    )


def backend_of(args: argparse.Namespace) -> Backend:
    """The backend the execution arguments name.

    Raises:
        TauEnvError: An execution setting is out of range or does not fit the backend.
    """
    check_range("--concurrency", args.concurrency, 1, MAX_CONCURRENCY)
    if args.llm_concurrency is not None:
        check_range("--llm-concurrency", args.llm_concurrency, 1, MAX_CONCURRENCY)
    check_range("--workers", args.workers, 1, MAX_WORKERS)
    if args.workers > 1 and args.backend == "ray":
        raise TauEnvError("--workers is for --backend local; Ray spreads episodes over its actors")
    if args.workers > 1:
        from tau_env.rollout.process_backend import ProcessBackend

        return ProcessBackend(args.workers, args.concurrency, args.llm_concurrency)
    if args.backend == "ray":
        try:
            from tau_env.rollout.ray_backend import RayBackend
        except ImportError as error:
            raise TauEnvError(
                f"--backend ray needs Ray ({error}); install it with: pip install 'tau-env[ray]'"
            ) from None
        return RayBackend(concurrency=args.concurrency, llm_concurrency=args.llm_concurrency)
    return LocalBackend(concurrency=args.concurrency, llm_concurrency=args.llm_concurrency)


def execute(
    args: argparse.Namespace,
    store: ResultStore,
    config: RunConfig,
    backend: Backend | None = None,
    *,
    play: bool = True,
) -> int:
    """Play what the run lacks, then print its report.

    `backend` is `backend_of(args)` when not given (callers check it before writing). With
    ``play=False`` (a run imported from a results file) nothing is played: episodes that
    wait for a judge are judged, then the report is printed.

    Returns:
        0 when the run is complete and every episode has a reward; 1 when attempts failed,
        or episodes wait for a judge (none was given, or it could not rule): the output says
        how to resume or judge them.

    Raises:
        Interrupted: Ctrl-C; everything finished is stored, and the message (which
            `tau_env.cli.main.main` prints, exit code 130) says how much and how to resume.
    """
    backend = backend or backend_of(args)
    set_log_level(args.log_level)
    progress = ProgressBar(enabled=False if args.no_progress or args.quiet else None)
    try:
        summary = run(
            store,
            config,
            backend=backend,
            on_outcome=progress.update,
            on_start=progress.start,
            play=play,
        )
    except KeyboardInterrupt:
        handler = ignore_sigint()  # until `main` has printed the line: see `Interrupted`
        progress.close()
        done = store.episode_count(config.run_id)
        raise Interrupted(
            f"interrupted; {done} of {config.episodes} episodes are stored. Continue "
            f"with: {run_resume_command(store.path, config)}",
            sigint_handler=handler,
        ) from None
    progress.close()
    try:
        report = run_report(store, config.run_id)
    except IncompleteRun as error:
        print(f"tau-env: {error}")
        for failure in store.failures(config.run_id, outstanding=True)[-5:]:
            print(
                f"  {failure.kind}: task {failure.task_id!r} trial {failure.trial}: {failure.error}"
            )
        return 1
    unjudged_note = None
    if config.judge is not None and summary.unjudged:
        unjudged_note = (
            f"tau-env: the judge could not rule on {summary.unjudged} episodes (see the failed "
            f"attempts); judge them with: {run_resume_command(store.path, config)}"
        )
    # Episodes without a reward (no judge for their NL assertions) leave the run's figures
    # partial: the report says so, and the exit code is 1 (see `EXIT_CODES`).
    partial = bool(report.not_judged)
    if args.quiet:
        print(summary_line(report))
    else:
        print_report(report, as_json=args.json, store=store.path, tasks=args.verbose)
        if not args.json and not args.verbose:
            listing = tau_env_command("report", ("--store", store.path), ("--run", config.run_id))
            print(f"per-task table: {listing}")
    if unjudged_note is not None:
        print(unjudged_note, file=sys.stderr)
        return 1
    return 1 if partial else 0
