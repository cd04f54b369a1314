"""The leaderboard's ``submission.json`` for a set of stored runs (one per domain).

The format is the leaderboard's (its ``submissions/schema.json`` and submission guide): who
made and who ran the model, contact, date, and per domain pass^1..pass^4 as percentages, the
average agent cost per trajectory and, for banking_knowledge, the retrieval configuration;
``methodology`` names the user simulator, the benchmark version, whether prompts were changed
or tasks left out, and notes. Figures are computed as the leaderboard computes them: pass^k
per task from the run's trials (simulations a results file recorded as infrastructure errors
left out), averaged over tasks; cost, the mean agent cost over the episodes whose cost is known.
The percentages are written unrounded, as the reference's own submission tool writes them: the
leaderboard's review recomputes them from the trajectories and compares them for equality.
Only runs of the official task sets are accepted: tau_env's built-in tasks are another
benchmark, which the leaderboard does not rank.

A submission is **standard** only when it evaluates a model through the reference's own agent
scaffold and user simulator on the default mode; runs tau_env played use tau_env's agent
prompt, so they are **custom** (the notes say why), unless the caller says otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

import tau_env
from tau_env.errors import TauEnvError
from tau_env.rollout.config import RunConfig
from tau_env.rollout.participants import ORACLE_KINDS
from tau_env.rollout.provenance import domain_of
from tau_env.rollout.report import RunReport, run_report
from tau_env.store.sqlite import ResultStore
from tau_env.utils.commands import tau_env_command
from tau_env.utils.wording import counted

__all__ = ["LEADERBOARD_DOMAINS", "SubmissionDetails", "build_submission"]

LEADERBOARD_DOMAINS = ("retail", "airline", "telecom", "banking_knowledge")
"""The domains the leaderboard ranks (the schema's ``results`` keys)."""

REFERENCE_VERSION = "1.0.1"
"""The reference version whose rules and data tau_env reproduces."""

_REFERENCE_AGENT, _REFERENCE_USER = "llm_agent", "user_simulator"
"""The reference's default agent scaffold and user simulator (as its results files name them)."""


@dataclass(frozen=True)
class SubmissionDetails:
    """What the runs cannot tell: who made the model, who ran it, how to reach them.

    Attributes:
        model_organization: Organization that developed the model (required).
        submitting_organization: Organization that ran the evaluation (required).
        model_name: The model's name (default: the runs' agent model).
        contact_email: Contact e-mail.
        contact_name: Contact name.
        submission_date: The date to write (default: today, UTC).
        submission_type: ``standard`` or ``custom`` (default: derived from the runs).
    """

    model_organization: str
    submitting_organization: str
    model_name: str | None = None
    contact_email: str | None = None
    contact_name: str | None = None
    submission_date: date | None = None
    submission_type: str | None = None


def build_submission(
    store: ResultStore, run_ids: Sequence[str], details: SubmissionDetails
) -> dict[str, Any]:
    """The ``submission.json`` object of some complete runs, one per leaderboard domain.

    Raises:
        TauEnvError: A run is not a leaderboard domain's, played built-in tasks, plays an
            oracle or another mode, waits for a judge, or differs from the others in agent or
            user; two runs share a domain; no model name is known. The message names the run
            and the fix.
        IncompleteRun: A run tau_env played lacks episodes.
    """
    if not run_ids:
        raise TauEnvError("a submission needs at least one run (--run a,b,c or --all)")
    reports = [run_report(store, run_id) for run_id in run_ids]
    for report in reports:
        _check_run(report, store.path)
    _check_consistent(reports)
    by_domain: dict[str, RunReport] = {}
    for report in reports:
        if report.domain in by_domain:
            raise TauEnvError(
                f"runs {by_domain[report.domain].run_id!r} and {report.run_id!r} are both "
                f"{report.domain}: a submission has one result per domain"
            )
        by_domain[report.domain] = report
    first = reports[0].config
    model = details.model_name or first.agent.model
    if model is None:
        raise TauEnvError(
            f"the agent {first.agent.describe()} has no model: name it with --model-name"
        )
    reasons = _custom_reasons(reports)
    submission_type = details.submission_type or ("custom" if reasons else "standard")
    submission: dict[str, Any] = {
        "model_name": model,
        "model_organization": details.model_organization,
        "submitting_organization": details.submitting_organization,
        "submission_date": (details.submission_date or datetime.now(UTC).date()).isoformat(),
        "submission_type": submission_type,
        "contact_info": {
            key: value
            for key, value in (("email", details.contact_email), ("name", details.contact_name))
            if value is not None
        },
        "trajectories_available": False,
        "results": {
            domain: _domain_results(store, by_domain[domain])
            for domain in LEADERBOARD_DOMAINS
            if domain in by_domain
        },
        "methodology": _methodology(store, reports, reasons),
    }
    effort = first.agent.llm_args.get("reasoning_effort")
    if isinstance(effort, str):
        submission["reasoning_effort"] = effort
    return submission


def _check_run(report: RunReport, store: str) -> None:
    config = report.config
    where = f"run {report.run_id!r}"
    if report.domain not in LEADERBOARD_DOMAINS:
        raise TauEnvError(
            f"{where} plays {report.domain}, which the leaderboard does not rank "
            f"({', '.join(LEADERBOARD_DOMAINS)})"
        )
    if config.data_dir is None:
        raise TauEnvError(
            f"{where} played tau_env's built-in tasks; a leaderboard submission reports the "
            "official task sets: run them with --data-dir DIR (or TAU2_DATA_DIR)"
        )
    if config.agent.kind in ORACLE_KINDS:
        raise TauEnvError(f"{where}: its agent ({config.agent.kind}) reads the gold plan")
    if config.mode != "default":
        raise TauEnvError(
            f"{where} plays mode {config.mode}; the leaderboard ranks the default mode"
        )
    if report.not_judged:
        judge = tau_env_command(
            "resume", ("--store", store), ("--run", report.run_id), ("--judge-model", "MODEL")
        )
        raise TauEnvError(
            f"{where}: {report.not_judged} episodes wait for a judge; judge them first: {judge}"
        )


def _participants(config: RunConfig) -> tuple[Any, ...]:
    agent, user = config.agent, config.user
    return (agent.kind, agent.model, agent.temperature, agent.llm_args,
            user.kind, user.model, user.temperature, user.llm_args)  # fmt: skip


def _check_consistent(reports: Sequence[RunReport]) -> None:
    """Every run has the same agent and user, with the same arguments (the leaderboard's rule)."""
    first = reports[0]
    for report in reports[1:]:
        if _participants(report.config) != _participants(first.config):
            raise TauEnvError(
                f"runs {first.run_id!r} and {report.run_id!r} differ in agent or user "
                f"({first.config.agent.describe()} / {first.config.user.describe()} against "
                f"{report.config.agent.describe()} / {report.config.user.describe()}): a "
                "submission uses one agent and one user simulator, with identical arguments"
            )


def _percent(value: float | None) -> float | None:
    return None if value is None else value * 100


def _domain_results(store: ResultStore, report: RunReport) -> dict[str, Any]:
    costs = [
        summary.agent_usage.cost if summary.agent_usage.calls else 0.0
        for summary in store.summaries(report.run_id)
    ]
    known = [cost for cost in costs if cost is not None]
    results: dict[str, Any] = {f"pass_{k}": _percent(report.pass_hat_k.get(k)) for k in range(1, 5)}
    results["cost"] = sum(known) / len(known) if known else None
    if report.domain == "banking_knowledge":
        results["retrieval_config"] = domain_of(report.config).retrieval
    return results


def _custom_reasons(reports: Sequence[RunReport]) -> list[str]:
    """Why the submission is not standard (empty: it is)."""
    reasons = []
    for report in reports:
        config = report.config
        if report.imported_from is None:
            reasons.append(
                f"{report.run_id}: played by tau_env (agent {config.agent.describe()}), not "
                "through the reference's agent scaffold and prompts"
            )
        elif (config.agent.kind, config.user.kind) != (_REFERENCE_AGENT, _REFERENCE_USER):
            reasons.append(
                f"{report.run_id}: agent {config.agent.kind} and user {config.user.kind} are not "
                f"the reference's defaults ({_REFERENCE_AGENT}, {_REFERENCE_USER})"
            )
    return reasons


def _left_out(report: RunReport) -> int:
    """Simulations of an imported run with no episode (recorded ones and missing ones)."""
    return len(report.left_out) + report.unrecorded


def _omitted(report: RunReport) -> bool:
    base = {task.id for task in domain_of(report.config).split(None)}
    return bool(base - set(report.config.task_ids)) or bool(_left_out(report))


def _methodology(
    store: ResultStore, reports: Sequence[RunReport], reasons: list[str]
) -> dict[str, Any]:
    created = max(store.run(report.run_id).created_at for report in reports)
    user = reports[0].config.user
    sets = "; ".join(
        f"{report.domain}: run {report.run_id}, task set "
        f"{report.task_set.describe() if report.task_set else 'unknown'}"
        + (f", imported from {report.imported_from}" if report.imported_from else "")
        + (f", {omitted} simulations left out" if (omitted := _left_out(report)) else "")
        for report in reports
    )
    notes = f"Scored by tau_env {tau_env.__version__} from stored runs ({sets})."
    if reasons:
        notes += " Custom because: " + "; ".join(reasons) + "."
    return {
        "evaluation_date": datetime.fromtimestamp(created, UTC).date().isoformat(),
        "tau2_bench_version": f"{REFERENCE_VERSION} (rules and data as reproduced by tau_env "
        f"{tau_env.__version__})",
        "user_simulator": user.model or f"tau_env {user.kind} user",
        "notes": notes,
        "verification": {
            "modified_prompts": any(report.imported_from is None for report in reports) or None,
            "omitted_questions": any(_omitted(report) for report in reports),
            "details": "; ".join(
                f"{r.domain}: {counted(len(r.tasks), 'task')} x {counted(r.config.trials, 'trial')}"
                for r in reports
            ),
        },
    }
