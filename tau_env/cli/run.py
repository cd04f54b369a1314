"""``tau-env run``: create a run (tasks x trials, an agent, a user, a mode) and play it.

With no arguments this is the offline main job: the default domain's built-in tasks, the
oracle agent and the scripted user, no network, no API key. Every episode is written to the
result store as it finishes; a killed run continues with ``tau-env resume``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from tau_env.cli.common import (
    DEFAULT_DOMAIN,
    add_data_arguments,
    add_retrieval_arguments,
    add_store_arguments,
)
from tau_env.cli.execution import add_execution_arguments, execute
from tau_env.errors import TauEnvError
from tau_env.registry import load_tasks
from tau_env.rollout.config import MODES, ParticipantSpec, RunConfig
from tau_env.rollout.modes import playable_in_mode
from tau_env.rollout.runner import create_run
from tau_env.store.sqlite import ResultStore

__all__ = ["add_parser"]


def add_parser(commands: Any) -> None:
    """Register the subcommand."""
    parser = commands.add_parser(
        "run",
        help="play tasks x trials, store every episode, print pass^k",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_data_arguments(parser, default_domain=DEFAULT_DOMAIN)
    add_retrieval_arguments(parser)
    for side, default, kinds in (
        ("agent", "oracle", "llm, oracle, random"),
        ("user", "scripted", "scripted, llm, gold"),
    ):
        parser.add_argument(
            f"--{side}",
            default=default,
            help=f"{kinds}, or package.module:factory (default: %(default)s)",
        )
        parser.add_argument(f"--{side}-model", default=None, help=f"model of an llm {side}")
        parser.add_argument(
            f"--{side}-temperature",
            type=float,
            default=0.0,
            help=f"temperature of an llm {side} (default: %(default)s)",
        )
        parser.add_argument(
            f"--{side}-api-base",
            default=None,
            help=f"OpenAI-compatible base URL for an llm {side} (default: the provider's)",
        )
    parser.add_argument("--mode", choices=MODES, default="default", help="evaluation mode")
    parser.add_argument("--trials", type=int, default=1, help="trials per task (default: 1)")
    parser.add_argument("--seed", type=int, default=300, help="base seed (default: 300)")
    parser.add_argument("--max-steps", type=int, default=200, help="step limit (default: 200)")
    parser.add_argument(
        "--max-errors", type=int, default=10, help="cumulative tool-error limit (default: 10)"
    )
    add_store_arguments(parser, run_help="name of the new run (default: derived from the setup)")
    add_execution_arguments(parser)
    parser.set_defaults(handler=handle)


def _spec(args: argparse.Namespace, side: str) -> ParticipantSpec:
    return ParticipantSpec(
        kind=getattr(args, side),
        model=getattr(args, f"{side}_model"),
        temperature=getattr(args, f"{side}_temperature"),
        api_base=getattr(args, f"{side}_api_base"),
    )


def build_config(args: argparse.Namespace) -> RunConfig:
    """The run the arguments describe (tasks resolved now, so the run's plan is fixed).

    Raises:
        TauEnvError: A limit is out of range or a task id is unknown.
    """
    for flag, value in (
        ("--trials", args.trials),
        ("--max-steps", args.max_steps),
        ("--max-errors", args.max_errors),
    ):
        if value < 1:
            raise TauEnvError(f"{flag} must be >= 1, actually: {value}")
    tasks = load_tasks(
        args.domain,
        data_dir=args.data_dir,
        split=args.split,
        retrieval=args.retrieval,
        retrieval_options=args.retrieval_options,
    )
    known = [task.id for task in tasks]
    playable = [task.id for task in tasks if playable_in_mode(task, args.mode)]
    task_ids = playable
    if args.tasks:
        task_ids = [task_id.strip() for task_id in args.tasks.split(",") if task_id.strip()]
        unknown = [task_id for task_id in task_ids if task_id not in known]
        if unknown:
            raise TauEnvError(
                f"--tasks: {unknown[0]!r} is not a task of {args.domain} split "
                f"{args.split or 'default'}; `tau-env tasks --domain {args.domain}` lists them"
            )
        if len(set(task_ids)) != len(task_ids):
            raise TauEnvError("--tasks: a task id appears twice")
        unplayable = [task_id for task_id in task_ids if task_id not in playable]
        if unplayable:
            raise TauEnvError(
                f"--tasks: {unplayable[0]!r} cannot be played in mode {args.mode!r} "
                "(No-User needs a ticket and gold actions, or a history that leaves the agent "
                "the floor)"
            )
    if not task_ids:
        raise TauEnvError(f"no task of {args.domain} can be played in mode {args.mode!r}")
    agent, user = _spec(args, "agent"), _spec(args, "user")
    run_id = args.run or "-".join(
        [
            args.domain.replace("/", "_"),
            agent.describe().replace("/", "_").replace(":", "."),
            user.describe().replace("/", "_").replace(":", "."),
            time.strftime("%Y%m%d-%H%M%S") + f".{int(time.time() * 1000) % 1000:03d}",
        ]
    )
    return RunConfig(
        run_id=run_id,
        domain=args.domain,
        # Absolute, so `resume` finds the data from any working directory.
        data_dir=str(Path(args.data_dir).expanduser().resolve()) if args.data_dir else None,
        split=args.split,
        retrieval=args.retrieval,
        retrieval_options=args.retrieval_options,
        task_ids=tuple(task_ids),
        trials=args.trials,
        base_seed=args.seed,
        agent=agent,
        user=user,
        mode=args.mode,
        max_steps=args.max_steps,
        max_errors=args.max_errors,
    )


def handle(args: argparse.Namespace) -> int:
    """Create the run, play it, print the report; exit 1 if attempts failed."""
    config = build_config(args)
    with ResultStore(args.store) as store:
        create_run(store, config)
        return execute(args, store, config)
