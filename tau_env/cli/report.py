"""``tau-env report``: pass^k of stored runs, per task and per domain.

Refuses a run whose tasks do not all have every planned trial (pass^k is undefined then) and
says how to resume it; with --all, such runs are named on stderr (with the commands that finish
or remove them), the others reported, and the exit code is 1. ``--html FILE`` also writes the
runs' self-contained HTML report (pass^k charts, failure breakdown, conversation viewer; needs
the ``report`` extra).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections import Counter
from typing import Any

from tau_env.cli.common import add_store_arguments, documented_parser, open_existing_store
from tau_env.html_report import write_html_report
from tau_env.rollout.modes import has_user
from tau_env.rollout.participants import ORACLE_KINDS
from tau_env.rollout.report import IncompleteRun, RunReport, run_report
from tau_env.store.sqlite import ResultStore
from tau_env.utils.commands import tau_env_command
from tau_env.utils.wording import counted

__all__ = [
    "ORACLE_KINDS",
    "add_parser",
    "pass_line",
    "print_domains",
    "print_report",
    "summary_line",
]

_SUMMARY = "pass^k of stored runs, per task and per domain"
"""The subcommand's line in ``tau-env --help``."""


_UNRECORDED = "the file holds no simulation of it"
"""Why a planned trial of an imported run has no episode when the file does not record it."""


def add_parser(commands: Any) -> None:
    """Register the subcommand."""
    parser = documented_parser(commands, "report", _SUMMARY, __doc__)
    add_store_arguments(parser, run_help="comma-separated runs (default: the latest)")
    parser.add_argument("--all", action="store_true", help="report every run in the store")
    parser.add_argument("--json", action="store_true", help="print the reports as JSON")
    parser.add_argument("--quiet", action="store_true", help="omit the per-task table")
    parser.add_argument("--html", default=None, help="also write the HTML report to this file")
    parser.add_argument(
        "--without-user-faults",
        action="store_true",
        help="leave episodes the simulated user spoiled (empty turns, early stop, instructions "
        "read out) out of pass^k and the average",
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    """Print one report per run, then a per-domain summary when there are several."""
    with open_existing_store(args.store, read_only=True) as store:
        if args.all:
            run_ids: list[str | None] = [run.run_id for run in store.runs()]
        elif args.run:
            run_ids = [run_id.strip() for run_id in args.run.split(",") if run_id.strip()]
        else:
            run_ids = [None]
        reports, incomplete = _reports(
            store,
            run_ids,
            skip_incomplete=args.all,
            without_user_faults=args.without_user_faults,
        )
        if incomplete and not reports:
            return 1
        if args.html:
            written = write_html_report(store, reports, args.html)
            print(f"wrote the HTML report to {written}", file=sys.stderr)
        if args.json:
            print(json.dumps([report.to_json() for report in reports], indent=2))
            return 1 if incomplete else 0
        for report in reports:
            print_report(report, as_json=False, store=store.path, tasks=not args.quiet)
        if len(reports) > 1:
            print_domains(reports)
    return 1 if incomplete else 0


def _reports(
    store: ResultStore,
    run_ids: list[str | None],
    *,
    skip_incomplete: bool,
    without_user_faults: bool = False,
) -> tuple[list[RunReport], int]:
    """The runs' reports, and how many runs were left out as incomplete.

    With `skip_incomplete` (``--all``), a run that lacks episodes (a killed or failed run, or
    an empty one an older tau_env stored when a run could not start) is named on stderr with
    the commands that finish or remove it, and the other runs are reported.

    Raises:
        IncompleteRun: A named run lacks episodes (without `skip_incomplete`).
    """
    reports, skipped = [], 0
    for run_id in run_ids:
        try:
            reports.append(run_report(store, run_id, without_user_faults=without_user_faults))
        except IncompleteRun as error:
            if not skip_incomplete:
                raise
            skipped += 1
            command = tau_env_command("runs", ("--store", store.path))
            remove = f"{command} delete {shlex.quote(str(run_id))}"
            print(f"tau-env: left out: {error}; or remove it: {remove}", file=sys.stderr)
    return reports, skipped


def print_report(report: RunReport, *, as_json: bool, store: str, tasks: bool = True) -> None:
    """Print one run's report (a per-task table, then the pass^k line)."""
    if as_json:
        print(json.dumps(report.to_json(), indent=2))
        return
    config = report.config
    ks = list(report.pass_hat_k)
    user = config.user.describe() if has_user(config.mode) else "none"
    mode = f", mode {config.mode}" if config.mode != "default" else ""
    retrieval = f", retrieval {report.retrieval}" if report.retrieval else ""
    print(
        f"run {report.run_id}: {report.domain}, agent {config.agent.describe()}, "
        f"user {user}{mode}, {report.data} data{retrieval} (store {store})"
    )
    if report.task_set is not None:
        print(f"task set: {report.task_set.describe()}")
    if report.imported_from is not None:
        print(f"imported from {report.imported_from} (re-graded by tau_env)")
    if tasks:
        # The task id comes last, unpadded: official ids run to 200+ characters, and padding
        # every row to the longest would stretch all of them.
        header = "".join(f"pass^{k:<5}" for k in ks)
        print(f"  passed  {header}task")
        for task in report.tasks:
            values = "".join(
                f"{task.pass_hat_k[k]:<10.3f}" if k in task.pass_hat_k else f"{'-':<10}" for k in ks
            )
            passed = f"{task.successes:>3}/{len(task.rewards):<3}"
            print(f"  {passed} {values}{task.task_id}")
    episodes = len(report.tasks) * config.trials
    average = report.average_reward
    unjudged = f"; {report.not_judged} not judged" if report.not_judged else ""
    over = " over the judged episodes" if report.not_judged else ""
    print(
        f"{counted(len(report.tasks), 'task')} x {counted(config.trials, 'trial')} "
        f"({counted(episodes, 'episode')}{unjudged}): "
        f"average reward {'n/a' if average is None else f'{average:.3f}'}{over}"
    )
    if report.left_out or report.unrecorded:
        reasons = Counter(reason.partition(":")[0] for reason in report.left_out.values())
        reasons[_UNRECORDED] += report.unrecorded
        why = ", ".join(f"{count} {reason}" for reason, count in sorted(reasons.items()) if count)
        print(
            f"left out: {len(report.left_out) + report.unrecorded} of {episodes} simulations "
            "have no episode "
            f"({why}); pass^k counts each task's other trials"
        )
    print(pass_line(report))
    if report.strict is not None:
        strict = report.strict
        unjudged = f", {strict.not_judged} not judged" if strict.not_judged else ""
        print(
            "strict reading (the task's listed checks added to its basis; beside the official "
            f"score above{unjudged}): "
            + "  ".join(f"pass^{k}={value:.3f}" for k, value in strict.pass_hat_k.items())
        )
    ends = ", ".join(f"{name} {count}" for name, count in sorted(report.terminations.items()))
    extra = (
        f"; {report.failed_attempts} failed attempts (retried)" if report.failed_attempts else ""
    )
    print(f"terminations: {ends}{extra}")
    if config.agent.kind in ORACLE_KINDS:
        print(
            "note: the oracle agent replays each task's gold actions; its score tests the env "
            "and the grader, not an agent"
        )
    if report.not_judged:
        print(
            f"not judged: {report.not_judged} of {episodes} episodes wait for a judge (NL "
            "assertions): no reward, left out of pass^k and the average. Judge them with: "
            + tau_env_command(
                "resume",
                ("--store", store),
                ("--run", report.run_id),
                ("--judge-model", report.judge or "MODEL"),
            )
        )
    faults = report.user_faults
    if faults.get("episodes"):
        kinds = ", ".join(
            f"{faults[name]} {label}"
            for name, label in (
                ("empty_turns", "with empty turns"),
                ("early_stop", "early stops"),
                ("instruction_leak", "instructions read out"),
                ("program_speech", "speaking like a program"),
            )
            if faults[name]
        )
        treatment = (
            "left out of pass^k and the average"
            if report.without_user_faults
            else "counted (--without-user-faults leaves them out)"
        )
        print(f"user faults: {faults['episodes']} of {episodes} episodes ({kinds}); {treatment}")
    if report.token_turns:
        drift = report.retokenized_turns
        print(
            f"agent tokens: {counted(report.token_turns, 'turn')} stored; {drift} re-tokenized "
            "(the prompt does not extend the previous turn's ids: flagged `retokenized`, not to "
            "be joined to it)"
        )
    if report.judge_calls_saved:
        print(
            f"judge calls saved: {report.judge_calls_saved} (episodes whose NL assertions need "
            "no verdict: another component of their reward is 0)"
        )
    usage = [
        f"{side} {u.calls} calls, {u.prompt_tokens}+{u.completion_tokens} tokens"
        + (f", ${u.cost:.4f}" if u.cost else "")
        for side, u in (("agent", report.agent_usage), ("user", report.user_usage))
        if u.calls
    ]
    if usage:
        print("usage: " + "; ".join(usage))


def pass_line(report: RunReport) -> str:
    """pass^k, and, when episodes wait for a judge, over which tasks and how many do not.

    ``pass^1=1.000 over the 74 judged tasks of 114 (40 episodes not judged: no reward until
    a judge rules on their NL assertions)``: a figure over part of the run says so beside it.
    """
    values = "  ".join(f"pass^{k}={value:.3f}" for k, value in report.pass_hat_k.items())
    if not report.not_judged:
        return values
    return (
        f"{values} over the {report.judged_tasks} judged tasks of {len(report.tasks)} "
        f"({counted(report.not_judged, 'episode')} not judged: no reward until a judge rules "
        "on their NL assertions)"
    )


def summary_line(report: RunReport) -> str:
    """The run in one line: id, pass^k, size and average reward (``run --quiet``)."""
    values = pass_line(report)
    average = report.average_reward
    strict = ""
    if report.strict is not None and 1 in report.strict.pass_hat_k:
        strict = f"; strict pass^1={report.strict.pass_hat_k[1]:.3f}"
    size = f"{counted(len(report.tasks), 'task')} x {counted(report.config.trials, 'trial')}"
    return (
        f"run {report.run_id}: {values} ({size}, "
        f"average reward {'n/a' if average is None else f'{average:.3f}'}{strict})"
    )


def print_domains(reports: list[RunReport]) -> None:
    """One line per run: its domain, mode, participants, pass^k, data and retrieval variant.

    The data source, retrieval variant and mode are shown because each changes what a score
    means (official or built-in tasks, what the agent can search, No-User, Oracle-Plan).
    """
    rows = [
        (
            report.domain,
            report.config.mode,
            report.config.agent.describe(),
            report.config.user.describe() if has_user(report.config.mode) else "none",
            "  ".join(f"pass^{k}={v:.3f}" for k, v in report.pass_hat_k.items()),
            report.data,
            report.retrieval or "-",
            f"({report.run_id}"
            + (f", {report.not_judged} not judged" if report.not_judged else "")
            + ")",
        )
        for report in sorted(
            reports, key=lambda r: (r.domain, r.data, r.retrieval or "", r.config.mode, r.run_id)
        )
    ]
    header = ("domain", "mode", "agent", "user", "pass^k", "data", "retrieval", "run")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
    print("per domain:")
    for row in [header, *rows]:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        print("  " + "  ".join([*cells, row[-1]]).rstrip())
