"""``tau-env run``: create a run (tasks x trials, an agent, a user, a mode) and play it.

With no arguments this is the offline main job: the default domain's built-in tasks, the
oracle agent and the scripted user, no network, no API key. Every episode is written to the
result store as it finishes; a killed run continues with ``tau-env resume``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from tau_env.cli.common import (
    DEFAULT_DOMAIN,
    add_data_arguments,
    add_grading_argument,
    add_judge_arguments,
    add_retrieval_arguments,
    add_store_arguments,
    data_options,
    documented_parser,
    judge_spec,
)
from tau_env.cli.execution import add_execution_arguments, backend_of, execute
from tau_env.cli.participant_options import add_participant_arguments, participant_spec
from tau_env.cli.reference_flags import add_no_equivalent_flags
from tau_env.domain import default_retrieval
from tau_env.errors import TauEnvError, did_you_mean
from tau_env.loader import load_tasks
from tau_env.rollout.bounds import (
    MAX_EPISODES,
    MAX_ERRORS,
    MAX_SEED,
    MAX_STEPS,
    MAX_TRIALS,
    check_range,
)
from tau_env.rollout.config import MODES, RunConfig
from tau_env.rollout.modes import has_user, unplayable_reason
from tau_env.rollout.preflight import check_run, refuse_secret_options
from tau_env.rollout.provenance import domain_name
from tau_env.rollout.runner import create_run
from tau_env.store.sqlite import ResultStore
from tau_env.utils.commands import id_part, tau_env_command

__all__ = ["add_parser"]

_SUMMARY = "play tasks x trials, store every episode, print pass^k"
"""The subcommand's line in ``tau-env --help``."""


def add_parser(commands: Any) -> None:
    """Register the subcommand."""
    parser = documented_parser(commands, "run", _SUMMARY, __doc__)
    add_data_arguments(parser, default_domain=DEFAULT_DOMAIN)
    add_retrieval_arguments(parser)
    add_participant_arguments(parser, "agent")
    add_participant_arguments(parser, "user")
    parser.add_argument(
        "--agent-tokens",
        action="store_true",
        help="ask the llm agent's model server for each turn's exact token ids and logprobs "
        "(vLLM 0.10.2+, SGLang: return_token_ids, logprobs) and store them with the episode",
    )
    add_judge_arguments(parser)
    add_grading_argument(parser)
    parser.add_argument("--mode", choices=MODES, default="default", help="evaluation mode")
    parser.add_argument(
        "--trials", "--num-trials", type=int, default=1, help="trials per task (default: 1)"
    )
    parser.add_argument(
        "--num-tasks",
        type=int,
        default=None,
        help="play the first N tasks of the split (default: every task)",
    )
    parser.add_argument(
        "--task-ids",
        nargs="+",
        default=None,
        metavar="ID",
        help="task ids, space-separated (the same as --tasks a,b,c)",
    )
    parser.add_argument("--seed", type=int, default=300, help="base seed (default: 300)")
    parser.add_argument("--max-steps", type=int, default=200, help="step limit (default: 200)")
    parser.add_argument(
        "--max-errors", type=int, default=10, help="cumulative tool-error limit (default: 10)"
    )
    add_store_arguments(parser, run_help="name of the new run (default: derived from the setup)")
    add_execution_arguments(parser)
    add_no_equivalent_flags(parser)
    parser.set_defaults(handler=handle)


def check_run_id(run_id: str) -> None:
    """Refuse a run id that a printed command could not carry on one line as one argument.

    Other characters (spaces, parentheses, quotes) are allowed: printed commands quote them.

    Raises:
        TauEnvError: The id is empty, starts with ``-`` or holds a control character.
    """
    if not run_id.strip():
        raise TauEnvError("--run: a run id cannot be empty")
    if run_id.startswith("-"):
        raise TauEnvError(f"--run: a run id cannot start with '-', actually: {run_id!r}")
    if any(ord(char) < 32 or ord(char) == 127 for char in run_id):
        raise TauEnvError(f"--run: a run id cannot hold control characters, actually: {run_id!r}")


def build_config(args: argparse.Namespace) -> RunConfig:
    """The run the arguments describe (tasks resolved now, so the run's plan is fixed).

    Raises:
        TauEnvError: A limit is out of range or a task id is unknown.
    """
    for flag, value, largest in (
        ("--trials", args.trials, MAX_TRIALS),
        ("--max-steps", args.max_steps, MAX_STEPS),
        ("--max-errors", args.max_errors, MAX_ERRORS),
    ):
        check_range(flag, value, 1, largest)
    check_range("--seed", args.seed, -MAX_SEED, MAX_SEED)
    refuse_secret_options(args.retrieval_options)  # before the variant loads with them
    task_ids = select_tasks(args)
    if len(task_ids) * args.trials > MAX_EPISODES:
        raise TauEnvError(
            f"{len(task_ids)} tasks x {args.trials} trials is more than {MAX_EPISODES:,} "
            "episodes in one run; use fewer trials or tasks"
        )
    agent, user = participant_spec(args, "agent"), participant_spec(args, "user")
    if args.run is not None:
        check_run_id(args.run)
    # Recorded explicitly (None only for a domain without a knowledge base), and named in
    # the run id with the data source: runs of two variants or sources never look alike.
    retrieval = args.retrieval or default_retrieval(domain_name(args.domain))
    run_id = args.run or "-".join(
        [
            id_part(args.domain),
            *([id_part(retrieval)] if retrieval else []),
            *([_data_label(args)] if args.data_dir else []),
            id_part(agent.describe()),
            *([id_part(user.describe())] if has_user(args.mode) else []),
            *([args.mode] if args.mode != "default" else []),
            time.strftime("%Y%m%d-%H%M%S") + f".{int(time.time() * 1000) % 1000:03d}",
        ]
    )
    return RunConfig(
        run_id=run_id,
        domain=args.domain,
        # Absolute, so `resume` finds the data from any working directory.
        data_dir=str(Path(args.data_dir).expanduser().resolve()) if args.data_dir else None,
        split=args.split,
        retrieval=retrieval,
        retrieval_options=args.retrieval_options,
        task_ids=tuple(task_ids),
        trials=args.trials,
        base_seed=args.seed,
        agent=agent,
        user=user,
        mode=args.mode,
        max_steps=args.max_steps,
        max_errors=args.max_errors,
        judge=judge_spec(args),
        grading=args.grading,
    )


def select_tasks(args: argparse.Namespace) -> list[str]:
    """The run's task ids: those named by ``--tasks``, else every task the mode can grade.

    ``--task-ids`` names tasks as ``--tasks`` does; ``--num-tasks N`` keeps the first N.

    Tasks the mode cannot play or grade fairly (`unplayable_reason`) are left out of a whole
    split, with one note on stderr saying how many and why, and refused when named.

    Raises:
        TauEnvError: A named task is unknown, named twice or refused by the mode; or no task
            is left.
    """
    named = [task_id.strip() for task_id in (args.tasks or "").split(",") if task_id.strip()]
    named += [task_id for task_id in args.task_ids or () if task_id.strip()]
    if args.num_tasks is not None and args.num_tasks < 1:
        raise TauEnvError(f"--num-tasks must be >= 1, actually: {args.num_tasks}")
    tasks = load_tasks(args.domain, **data_options(args))
    refused = {task.id: reason for task in tasks if (reason := unplayable_reason(task, args.mode))}
    if not named:
        task_ids = [task.id for task in tasks if task.id not in refused]
        if refused:
            reasons = Counter(refused.values())
            why = "; ".join(f"{count} where {reason}" for reason, count in reasons.items())
            print(
                f"tau-env: note: mode {args.mode} leaves out {len(refused)} of {len(tasks)} "
                f"tasks: {why}",
                file=sys.stderr,
            )
    else:
        known = {task.id for task in tasks}
        task_ids = named
        unknown = [task_id for task_id in task_ids if task_id not in known]
        if unknown:
            hint = did_you_mean(unknown[0], known)
            listing = tau_env_command(
                "tasks",
                ("--domain", args.domain),
                ("--data-dir", args.data_dir),
                ("--split", args.split),
            )
            raise TauEnvError(
                f"--tasks: {unknown[0]!r} is not a task of {args.domain} split "
                f"{args.split or 'default'}; "
                + (f"{hint} " if hint else "")
                + f"`{listing}` lists them"
            )
        if len(set(task_ids)) != len(task_ids):
            raise TauEnvError("--tasks: a task id appears twice")
        refused_ids = [task_id for task_id in task_ids if task_id in refused]
        if refused_ids:
            raise TauEnvError(
                f"--tasks: {refused_ids[0]!r} cannot be played in mode {args.mode!r}: "
                f"{refused[refused_ids[0]]}"
            )
    if not task_ids:
        raise TauEnvError(f"no task of {args.domain} can be played in mode {args.mode!r}")
    return task_ids[: args.num_tasks]


def handle(args: argparse.Namespace) -> int:
    """Create the run, play it, print the report; exit 1 if attempts failed.

    Everything that can fail before the first episode (arguments, tasks, participants, keys,
    execution settings) is checked before the store is opened: a run that cannot start
    writes nothing.
    """
    config = build_config(args)
    check_run(config)
    backend = backend_of(args)
    with ResultStore(args.store) as store:
        create_run(store, config, check=False)
        return execute(args, store, config, backend)


def _data_label(args: argparse.Namespace) -> str:
    """``generated`` for a set ``tau-env generate`` wrote, else ``official`` (run ids)."""
    from tau_env.generation.manifest import read_manifest

    folder = domain_name(args.domain).split("-")[0]  # telecom-workflow reads domains/telecom
    return "generated" if read_manifest(args.data_dir, folder) is not None else "official"
