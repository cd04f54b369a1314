"""``tau-env import FILE...``: bring τ²-bench results files into the store, re-graded by tau_env.

Each file (the reference's ``results.json``, or the run folder holding it) becomes one run:
its participants, limits, seeds and trials are the file's, its tasks are looked up in the data
named by ``--data-dir``, and every simulation is re-graded by tau_env's grader (NL assertions
by ``--judge-model``, else left not judged). The agreement of tau_env's grades with the rewards
the file recorded is printed per check (same / differs / not comparable), with the tasks that
differ. ``report``, ``report --html`` and ``export`` then work on the run as on any other.

A file that cannot be imported (not JSON, another schema, a task absent from the data, already
imported) is refused whole, with one line saying why, and nothing of it is written; the other
files are still imported. A simulation whose conversation breaks the protocol is left out of
its run, with the reason.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from tau_env.cli.common import (
    add_data_dir_argument,
    add_judge_arguments,
    add_store_arguments,
    documented_parser,
    judge_spec,
)
from tau_env.errors import TauEnvError
from tau_env.importing import COMPONENTS, ImportResult, import_results
from tau_env.importing.results_file import ResultsFile, read_results_file
from tau_env.rollout.provenance import run_task_set
from tau_env.secrets import redact
from tau_env.store.sqlite import ResultStore
from tau_env.utils.commands import tau_env_command
from tau_env.utils.wording import counted

__all__ = ["add_parser", "print_import"]

_SHOWN = 8
"""Differing tasks listed per check (the rest are counted)."""

_SUMMARY = "import τ²-bench results files as runs, re-graded by tau_env"
"""The subcommand's line in ``tau-env --help``."""


def add_parser(commands: Any) -> None:
    """Register the subcommand."""
    parser = documented_parser(commands, "import", _SUMMARY, __doc__)
    parser.add_argument("files", nargs="+", metavar="FILE", help="results.json or its folder")
    add_store_arguments(parser, run_help="id of the new run (one FILE only; default: its name)")
    add_data_dir_argument(parser)
    add_judge_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print each import as JSON")
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    """Import every file; a refused file is reported and the others still imported.

    Every file is read before the store is opened: when none can be read, no store is
    created (a mistyped path leaves nothing behind).
    """
    if args.run is not None and len(args.files) > 1:
        raise TauEnvError("--run names one run: give one FILE with it")
    judge = judge_spec(args)
    if args.data_dir is not None and not Path(args.data_dir).expanduser().is_dir():
        raise TauEnvError(f"--data-dir {args.data_dir}: no such folder")
    readable: list[ResultsFile] = []
    refused = 0
    for path in args.files:
        try:
            readable.append(read_results_file(path))
        except TauEnvError as error:
            refused += 1
            _refusal(error)
    if not readable:
        return 2
    with ResultStore(args.store) as store:
        for results in readable:
            try:
                result = import_results(
                    store, results, data_dir=args.data_dir, run_id=args.run, judge=judge
                )
            except TauEnvError as error:
                refused += 1
                _refusal(error)
                continue
            if args.json:
                print(json.dumps(import_json(result), indent=2))
            else:
                print_import(result, store.path)
    return 2 if refused else 0


def _refusal(error: TauEnvError) -> None:
    one_line = " ".join(redact(str(error)).split())
    print(f"tau-env: error: {one_line}", file=sys.stderr)


def import_json(result: ImportResult) -> dict[str, Any]:
    """One import as JSON-ready data."""
    return {
        "run_id": result.run_id,
        "file": str(result.source.path),
        "sha256": result.source.sha256,
        "domain": result.config.domain,
        "task_set": run_task_set(result.config).to_json(),
        "regraded": result.regraded,
        "left_out": [
            {"task_id": s.task_id, "trial": s.trial, "status": s.status, "reason": s.reason}
            for s in result.left_out
        ],
        "changed_tasks": result.record.changed_tasks,
        "notes": result.record.notes,
        "agreement": result.agreement.to_json(),
    }


def print_import(result: ImportResult, store: str) -> None:
    """What one import did, and how tau_env's grades agree with the recorded rewards."""
    config = result.config
    print(
        f"imported {result.source.path} as run {result.run_id}: {config.domain}, agent "
        f"{config.agent.describe()}, user {config.user.describe()}, mode {config.mode}, "
        f"{counted(len(config.task_ids), 'task')} x {counted(config.trials, 'trial')}"
    )
    print(f"  task set: {run_task_set(config).describe()}")
    for note in result.record.notes:
        print(f"  note: {note}")
    if result.record.changed_tasks:
        changed = result.record.changed_tasks
        print(
            f"  {len(changed)} tasks embedded in the file differ from the data's (graded "
            f"with the data's): {_listed(changed)}"
        )
    simulations = result.regraded + len(result.left_out)
    print(
        f"  {counted(simulations, 'simulation')}: {result.regraded} re-graded, "
        f"{len(result.left_out)} left out"
    )
    for simulation in result.left_out[:_SHOWN]:
        why = simulation.reason or simulation.status
        print(f"    task {simulation.task_id!r} trial {simulation.trial}: {why}")
    if len(result.left_out) > _SHOWN:
        print(f"    ... and {len(result.left_out) - _SHOWN} more")
    agreement = result.agreement
    print("  agreement with the recorded rewards:")
    print(f"    {'check':<15}{'same':>6}{'differs':>9}{'not comparable':>16}")
    for component in COMPONENTS:
        counts = agreement.counts[component]
        print(
            f"    {component:<15}{counts['same']:>6}{counts['differs']:>9}"
            f"{counts['not comparable']:>16}"
        )
    for component in COMPONENTS:
        tasks = agreement.differing_tasks(component)
        if tasks:
            listed = [
                f"{task} (trial {', '.join(map(str, trials))})" for task, trials in tasks.items()
            ]
            print(f"  {component} differs on {counted(len(tasks), 'task')}: {_listed(listed)}")
    print(f"  report: {tau_env_command('report', ('--store', store), ('--run', result.run_id))}")


def _listed(items: list[str]) -> str:
    shown = ", ".join(items[:_SHOWN])
    return shown + (f", ... and {len(items) - _SHOWN} more" if len(items) > _SHOWN else "")
