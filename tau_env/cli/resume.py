"""``tau-env resume``: continue a stored run, playing exactly the episodes it lacks.

Skips every (task, trial) that has an episode; replays those never attempted and those whose
attempts hit infrastructure errors or crashes. Refuses when the tasks, policy, domain version
or limits changed since the run was created. Episodes whose NL assertions wait for a judge are
judged from their stored conversations, not replayed: by ``--judge-model`` (recorded as the
run's judge) or by the judge the run already has. A run imported from a results file
(``tau-env import``) is only judged: tau_env cannot replay its participants.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tau_env.cli.common import (
    add_judge_arguments,
    add_store_arguments,
    documented_parser,
    judge_spec,
    open_existing_store,
)
from tau_env.cli.execution import add_execution_arguments, backend_of, execute
from tau_env.rollout.judging import judge_for_resume
from tau_env.rollout.preflight import (
    check_judge,
    check_run,
    confirm_factories,
    restore_endpoints,
    stored_config,
)
from tau_env.rollout.runner import load_run

__all__ = ["add_parser"]

_SUMMARY = "continue a killed or failed run"
"""The subcommand's line in ``tau-env --help``."""


def add_parser(commands: Any) -> None:
    """Register the subcommand."""
    parser = documented_parser(commands, "resume", _SUMMARY, __doc__)
    add_store_arguments(parser, run_help="the run to resume (default: the latest in the store)")
    for side in ("agent", "user"):
        parser.add_argument(
            f"--{side}",
            default=None,
            help=f"the run's --{side}, when it is package.module:factory (a store never runs "
            "code by itself)",
        )
        parser.add_argument(
            f"--{side}-api-base",
            default=None,
            help=f"the run's --{side}-api-base, when it carried a secret (stored redacted)",
        )
    add_judge_arguments(parser, resume=True)
    add_execution_arguments(parser)
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    """Play what the run lacks, then print its report.

    The judge a resume brings, and every key the run needs, are checked before the run's
    stored configuration changes.
    """
    with open_existing_store(args.store) as store:
        config = load_run(store, args.run)
        judged = judge_for_resume(config, judge_spec(args))
        given = {"agent": args.agent_api_base, "user": args.user_api_base}
        live = restore_endpoints(judged, given)
        imported = store.import_of(config.run_id)
        if imported is None:
            confirm_factories(config, {"agent": args.agent, "user": args.user})
            check_run(live)
        else:  # nothing is played: only the judge must be able to work
            check_judge(live)
        backend = backend_of(args)
        if judged != config:
            store.update_run_config(config.run_id, stored_config(judged).model_dump(mode="json"))
        if imported is not None:
            print(
                f"run {config.run_id!r} was imported from {imported.source}: its participants "
                "are not replayed; only episodes that wait for a judge are judged",
                file=sys.stderr,
            )
        return execute(args, store, live, backend, play=imported is None)
