"""``tau-env validate``: replay every task's gold actions through the env and grade them.

Exit codes (`EXIT_CODES`): 0 when every task reaches reward 1.0; 1 when one does not, or is
not judged (its NL assertions need ``--judge-model``); 2 for bad input. Exit 1 is an expected
outcome on some data: the official mock tasks give 8/10, as in the reference, and official
retail without a judge leaves its NL-assertion tasks not judged.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tau_env.baselines.oracle import OracleAgent
from tau_env.cli.common import add_graded_play_arguments, checked_judge, data_options
from tau_env.episode_runner import EpisodeResult, run_episode
from tau_env.grading.nl_assertions import judge_call_saved
from tau_env.grading.outcome import Grade
from tau_env.loader import make_env
from tau_env.wrappers.users import GoldUser

__all__ = ["EXIT_CODES", "add_parser", "describe_failure"]

EXIT_CODES = (
    "exit codes: 0 every task reaches reward 1.0; 1 a task does not (a FAIL line says which "
    "check), or is not judged (NL assertions without --judge-model): expected on some data, "
    "such as the official mock tasks (8/10, as in the reference) or official retail without "
    "a judge; 2 bad input (unknown domain, task or data folder)"
)
"""What `handle` returns, as the help text says it."""


def add_parser(commands: Any) -> None:
    """Register the subcommand."""
    parser = commands.add_parser(
        "validate",
        help="replay gold actions of every task and report which reach reward 1.0",
        description=(
            "Plays every task with the oracle agent (gold agent actions) and the gold user "
            "(gold user actions, then a stop). NL assertions need a judge (--judge-model); "
            "without one, tasks graded on them are reported as not judged, never as passed."
        ),
        epilog=EXIT_CODES,
    )
    add_graded_play_arguments(parser)
    parser.set_defaults(handler=handle)


def describe_failure(grade: Grade) -> str:
    """Which checks failed, and on what."""
    if grade.reward_basis is None:
        return grade.note or grade.termination.value
    parts = []
    for component in grade.failed_components():
        check = grade.checks[component]
        misses = [
            d
            for d in check.details
            if (not d.get("met", True) and "database" not in d) or "different" in d
        ]
        shown = ", ".join(_describe_detail(d) for d in misses[:3]) or "failed"
        parts.append(f"{component} ({shown})")
    return "; ".join(parts)


def _describe_detail(detail: dict[str, Any]) -> str:
    if "different" in detail:
        return f"differs at {detail['different']}"
    if "assertion" in detail:
        args = ", ".join(f"{k}={v!r}" for k, v in detail.get("arguments", {}).items())
        outcome = detail.get("error") or f"returned {detail.get('returned')!r}"
        return f"{detail['assertion']}({args}) {outcome}"
    if "info" in detail:
        return f"never said {detail['info']!r}"
    if "forbidden" in detail:
        return f"said {detail['forbidden']!r}, which it must not"
    if "handover" in detail:
        return (
            "a transfer the gold plan does not make"
            if detail["handover"] == "none"
            else ("not the gold plan's transfer")
        )
    if "action_id" in detail:
        return f"action {detail['action_id']} not performed"
    return str(detail)


def handle(args: argparse.Namespace) -> int:
    """Run the subcommand; exit code 0 when every task reaches 1.0, else 1 (`EXIT_CODES`)."""
    judge = checked_judge(args)
    env = make_env(args.domain, **data_options(args), judge=judge, grading=args.grading)
    task_ids = [t.id for t in env.unwrapped.tasks]
    if args.tasks:
        task_ids = args.tasks.split(",")
    user = GoldUser.factory(env.unwrapped.domain)
    results: list[EpisodeResult] = [
        run_episode(env, OracleAgent, user, task_id=task_id, seed=0) for task_id in task_ids
    ]
    passed = 0
    unjudged = 0
    strict_passed = 0
    grader = env.unwrapped.grader
    asked = saved = 0  # tasks whose NL assertions went to the judge / needed no verdict
    for result in results:
        if args.grading == "strict":
            reading = grader.strict_reading(result.grade, env.unwrapped.domain.task(result.task_id))
            strict_passed += reading.success
            if result.grade.success and not reading.success and reading.reward is not None:
                print(f"FAIL (strict) {result.task_id}: {', '.join(reading.failed)}")
        if judge_call_saved(result.grade):
            saved += 1
        elif judge is not None and _has_assertions(result.grade):
            asked += 1
        if result.reward is None:
            unjudged += 1
        elif result.grade.success:
            passed += 1
        else:
            reason = describe_failure(result.grade)
            print(f"FAIL {result.task_id}: reward {result.reward:.1f}: {reason}")
    note = ""
    if unjudged:
        why = "the judge failed" if judge is not None else "pass --judge-model to judge them"
        note = f"; {unjudged} not judged (NL assertions: {why})"
    if saved:
        note += f"; {saved} judge calls saved (NL assertions of tasks already at reward 0)"
    strict_note = ""
    if args.grading == "strict":
        strict_note = f"; strict reading: {strict_passed}/{len(results)}"
    print(f"{passed}/{len(results)} tasks reach reward 1.0{note}{strict_note}")
    if judge is not None:
        print(
            f"tau-env validate: the judge was asked about {asked} tasks; {saved} calls saved "
            "(tasks whose reward another component had already made 0)",
            file=sys.stderr,
        )
    return 0 if passed == len(results) else 1


def _has_assertions(grade: Grade) -> bool:
    """Whether the grade has NL assertions in its basis (to rule on, or ruled on)."""
    if grade.reward_basis is None or "NL_ASSERTION" not in grade.reward_basis:
        return False
    return bool(grade.checks["NL_ASSERTION"].details)
