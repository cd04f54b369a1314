"""Executing a run from the command line: backend choice, progress display, final report."""

from __future__ import annotations

import argparse
import sys

from tau_env.cli.report import print_report
from tau_env.errors import TauEnvError
from tau_env.rollout.config import RunConfig
from tau_env.rollout.progress import ProgressBar
from tau_env.rollout.report import IncompleteRun, run_report
from tau_env.rollout.runner import Backend, LocalBackend, run
from tau_env.store.sqlite import ResultStore

__all__ = ["add_execution_arguments", "execute"]


def add_execution_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of how a run executes (concurrency, backend, workers, output)."""
    parser.add_argument(
        "--concurrency", type=int, default=8, help="episodes in flight at once (default: 8)"
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
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def _backend(args: argparse.Namespace) -> Backend:
    if args.concurrency < 1:
        raise TauEnvError(f"--concurrency must be >= 1, actually: {args.concurrency}")
    if args.llm_concurrency is not None and args.llm_concurrency < 1:
        raise TauEnvError(f"--llm-concurrency must be >= 1, actually: {args.llm_concurrency}")
    if args.workers < 1:
        raise TauEnvError(f"--workers must be >= 1, actually: {args.workers}")
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


def execute(args: argparse.Namespace, store: ResultStore, config: RunConfig) -> int:
    """Play what the run lacks, then print its report.

    Returns:
        0 when the run is complete, 1 when attempts failed (the message says how to resume),
        130 when interrupted (Ctrl-C; everything finished is stored).
    """
    backend = _backend(args)
    progress = ProgressBar(enabled=False if args.no_progress else None)
    try:
        run(store, config, backend=backend, on_outcome=progress.update, on_start=progress.start)
    except KeyboardInterrupt:
        progress.close()
        done = store.episode_count(config.run_id)
        print(
            f"tau-env: interrupted; {done} of {config.episodes} episodes are stored. Continue "
            f"with: tau-env resume --store {store.path} --run {config.run_id}",
            file=sys.stderr,
        )
        return 130
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
    print_report(report, as_json=args.json, store=store.path)
    return 0
