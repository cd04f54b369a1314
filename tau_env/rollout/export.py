"""Exporting a stored run in the reference's results layout (spec §1.3), for τ²-bench viewers.

The output is one JSON object ``{timestamp, info, tasks, simulations}`` as the reference's
``Results`` writes it: ``info`` describes the agent, user and environment; ``tasks`` embeds the
run's tasks; each simulation carries the reference's fields (``termination_reason``,
``reward_info`` with ``db_check``/``env_assertions``/``action_checks``/``nl_assertions``/
``communicate_checks``, ``messages`` with ``turn_idx``, ``trial``, ``seed``...). (task, trial)
pairs whose attempts all failed are exported as the reference records them: a simulation with
``termination_reason = infrastructure_error`` and no messages.

Every export names the run's task set (``info.task_set``: data folder, content hash, task count)
and evaluation mode (``info.mode``), which the reference ignores, and the retrieval variant in
the reference's own ``info.retrieval_config`` (None: the domain's default).

A run imported from a results file (``tau-env import``) is exported with what the file
recorded and tau_env cannot re-derive (the file's timestamp and ``info``, each simulation's id,
times, costs and seed) and tau_env's own grades; simulations left out of the run come back as
the reference records an infrastructure error. Exporting a run, importing the file and
exporting the imported run gives the same file.

An episode that waits for a judge (NL assertions not judged) has no reward, and the reference's
``RewardInfo`` cannot say so; it is exported as the reference records an episode whose judge
failed: ``termination_reason = infrastructure_error`` and no ``reward_info`` (so the
reference's metrics leave it out, as tau_env's pass^k does), with its messages, its real
termination and the unjudged checks in ``info``. ``info.not_judged_simulations`` counts them
and ``info.nl_assertions_judge`` names the run's judge.

Two tau_env extensions sit in a simulation's ``info``: ``user_faults`` (what the simulated user
got wrong, when anything) and ``agent_tokens`` (each agent turn's exact prompt and completion
token ids and logprobs, when the run stored them: ``tau-env run --agent-tokens``).
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import tau_env
from tau_env.domain import Domain
from tau_env.messages import side_of
from tau_env.rollout.config import ParticipantSpec, RunConfig
from tau_env.rollout.provenance import (
    data_source,
    domain_of,
    recorded_task_set,
    retrieval_variant,
)
from tau_env.store.records import (
    EpisodeRecord,
    FailureRecord,
    ImportedSimulation,
    ImportRecord,
    RunRecord,
)
from tau_env.store.sqlite import ResultStore
from tau_env.tasks.model import GoldAction, Task

__all__ = ["export_run"]

_EXTENSIONS = ("request", "name")  # tau_env-only message fields, absent from the reference


def export_run(store: ResultStore, run_id: str | None = None) -> dict[str, Any]:
    """A stored run (None: the latest) as the reference's ``Results`` JSON object."""
    record = store.run(run_id)
    config = RunConfig.model_validate(record.config)
    domain = domain_of(config)
    tasks = {task_id: domain.task(task_id) for task_id in config.task_ids}
    simulations = [
        _simulation(episode, tasks[episode.task_id], domain)
        for episode in store.episodes(record.run_id)
        if episode.task_id in tasks
    ]
    done = {(sim["task_id"], sim["trial"]) for sim in simulations}
    latest: dict[tuple[str, int], FailureRecord] = {}
    for failure in store.failures(record.run_id, outstanding=True):
        latest[(failure.task_id, failure.trial)] = failure
    simulations += [
        _failed_simulation(config.run_id, failure)
        for key, failure in sorted(latest.items())
        if key not in done
    ]
    results = {
        "timestamp": _iso(record.created_at),
        "info": {
            "git_commit": f"tau_env {record.versions.get('tau_env', tau_env.__version__)}",
            "num_trials": config.trials,
            "max_steps": config.max_steps,
            "max_errors": config.max_errors,
            "user_info": {
                **_participant_info(config.user),
                "global_simulation_guidelines": None,
            },
            "agent_info": _participant_info(config.agent),
            "environment_info": {"domain_name": domain.name, "policy": domain.policy},
            "seed": config.base_seed,
            "nl_assertions_judge": _judge_info(config),
            # tau_env's additions: what the run played (absent from the reference's layout)
            "data_source": data_source(config),
            "retrieval_variant": retrieval_variant(config),
            "not_judged_simulations": sum(
                1 for sim in simulations if (sim["info"] or {}).get("not_judged")
            ),
            "retrieval_config": config.retrieval,
            "retrieval_config_kwargs": config.retrieval_options,
            "mode": config.mode,
            "task_set": _task_set_json(record),
        },
        "tasks": [
            task.model_dump(mode="json", exclude_none=True, exclude={"user_script"})
            for task in tasks.values()
        ],
        "simulations": simulations,
    }
    imported = store.import_of(record.run_id)
    if imported is not None:
        return _as_recorded(results, imported, store.imported_simulations(record.run_id))
    return results


def _task_set_json(record: RunRecord) -> dict[str, Any] | None:
    task_set = recorded_task_set(record)
    return None if task_set is None else task_set.to_json()


_DERIVED = ("nl_assertions_judge", "not_judged_simulations", "mode", "task_set")
"""``info`` keys an imported run's export computes (its file's ``info`` gives the others)."""

_GRADED = ("task_id", "termination_reason", "reward_info", "messages", "trial")
"""Simulation keys an imported run's export takes from tau_env's episode, not from the file."""

_JUDGE_MARKS = ("not_judged", "termination_reason", "note")
"""``info`` keys of a simulation exported while waiting for a judge (see the module doc)."""


def _as_recorded(
    results: dict[str, Any], source: ImportRecord, recorded: list[ImportedSimulation]
) -> dict[str, Any]:
    """An imported run's export: the file's own values where tau_env cannot re-derive them."""
    info = {**source.info, **{key: results["info"][key] for key in _DERIVED}}
    by_key = {(sim.task_id, sim.trial): sim for sim in recorded}
    simulations = []
    for exported in results["simulations"]:
        kept = by_key.get((exported["task_id"], exported["trial"]))
        simulations.append(exported if kept is None else _merged(exported, kept))
    simulations += [_left_out(sim) for sim in recorded if sim.status != "regraded"]
    return {
        **results,
        "timestamp": source.timestamp if source.timestamp is not None else results["timestamp"],
        "info": info,
        "simulations": simulations,
    }


def _merged(exported: dict[str, Any], kept: ImportedSimulation) -> dict[str, Any]:
    """A re-graded simulation: the file's fields, tau_env's grade and conversation."""
    recorded_info = dict(kept.recorded.get("info") or {})
    if recorded_info.get("not_judged"):  # the file's own mark of a wait for a judge
        recorded_info = {k: v for k, v in recorded_info.items() if k not in _JUDGE_MARKS}
    waiting = (exported["info"] or {}) if exported["reward_info"] is None else {}
    info = {**recorded_info, **{k: waiting[k] for k in _JUDGE_MARKS if k in waiting}}
    merged = {**kept.recorded, **{key: exported[key] for key in _GRADED}}
    merged["info"] = info or None
    return merged


def _left_out(kept: ImportedSimulation) -> dict[str, Any]:
    """A simulation the import left out, as the reference records an infrastructure error."""
    simulation = {**kept.recorded, "messages": kept.messages or []}
    if kept.status == "not_regradable":
        simulation.update(
            termination_reason="infrastructure_error",
            reward_info=None,
            info={
                **(kept.recorded.get("info") or {}),
                "not_regradable": kept.reason,
                "termination_reason": kept.recorded.get("termination_reason"),
            },
        )
    return simulation


def _judge_info(config: RunConfig) -> dict[str, Any] | None:
    judge = config.judge
    if judge is None:
        return None
    args = {"temperature": judge.temperature, "seed": judge.seed, **judge.llm_args}
    return {"llm": judge.model, "llm_args": args}


def _participant_info(spec: ParticipantSpec) -> dict[str, Any]:
    llm_args = {"temperature": spec.temperature, **spec.llm_args} if spec.model else None
    return {"implementation": spec.kind, "llm": spec.model, "llm_args": llm_args}


def _iso(timestamp: float) -> str | None:
    """The ISO form of a Unix time; None for one no calendar date has (a corrupted store)."""
    try:
        return datetime.fromtimestamp(timestamp, UTC).isoformat()
    except (OverflowError, OSError, ValueError):
        return None


def _simulation_id(run_id: str, task_id: str, trial: int) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"tau_env:{run_id}:{task_id}:{trial}"))


def _simulation(episode: EpisodeRecord, task: Task, domain: Domain) -> dict[str, Any]:
    end = episode.started_at + episode.duration
    messages = []
    for index, message in enumerate(episode.trajectory):
        exported = {k: v for k, v in message.items() if k not in _EXTENSIONS}
        exported["turn_idx"] = index
        messages.append(exported)
    info: dict[str, Any] = {"note": episode.note} if episode.note else {}
    termination = episode.termination
    rewarded = episode.reward is not None
    if not rewarded:  # the reference's RewardInfo needs a reward: exported as its judge failure
        info.update(
            not_judged=episode.grade.get("not_judged") or ["NL_ASSERTION"],
            termination_reason=termination,
            note=episode.grade.get("note") or "NL assertions not judged",
        )
        termination = "infrastructure_error"
    if episode.user_faults.any:
        info["user_faults"] = episode.user_faults.model_dump()
    if episode.agent_tokens:  # tau_env's extension: what a trainer needs to train on it
        info["agent_tokens"] = episode.token_turns()
    return {
        "id": _simulation_id(episode.run_id, episode.task_id, episode.trial),
        "task_id": episode.task_id,
        "timestamp": _iso(end),
        "start_time": _iso(episode.started_at),
        "end_time": _iso(end),
        "duration": episode.duration,
        "termination_reason": termination,
        "agent_cost": _cost(episode.agent.usage.calls, episode.agent.usage.cost),
        "user_cost": _cost(episode.user.usage.calls, episode.user.usage.cost),
        "reward_info": reward_info(episode.grade, task, domain) if rewarded else None,
        "messages": messages,
        "trial": episode.trial,
        "seed": episode.seed,
        "mode": "half_duplex",
        "info": info or None,
    }


def _tool_type(domain: Domain | None, action: GoldAction) -> str | None:
    """``read``/``write``/``think``/``generic`` of the tool a gold action calls, when known."""
    if domain is None:
        return None
    spec = domain.toolbox.tools(side_of(action.requestor)).get(action.name)
    return spec.kind if spec is not None and spec.kind != "env" else None


def _cost(calls: int, cost: float | None) -> float | None:
    return 0.0 if calls == 0 else cost


def _failed_simulation(run_id: str, failure: FailureRecord) -> dict[str, Any]:
    return {
        "id": _simulation_id(run_id, failure.task_id, failure.trial),
        "task_id": failure.task_id,
        "timestamp": _iso(failure.at),
        "start_time": _iso(failure.at - failure.duration),
        "end_time": _iso(failure.at),
        "duration": failure.duration,
        "termination_reason": "infrastructure_error",
        "agent_cost": None,
        "user_cost": None,
        "reward_info": None,
        "messages": [],
        "trial": failure.trial,
        "seed": failure.seed,
        "mode": "half_duplex",
        "info": {"error": failure.error, "kind": failure.kind},
    }


def reward_info(grade: dict[str, Any], task: Task, domain: Domain | None = None) -> dict[str, Any]:
    """A stored grade (with a reward) in the reference's ``RewardInfo`` layout.

    Lists are present (possibly empty) or None exactly where the reference's are: env
    assertions are None when the task has neither gold actions nor env assertions, action
    checks when it has no gold action, communicate checks when it has nothing to say, NL
    assertions when they were not evaluated (not in the basis).

    Args:
        grade: The stored grade (`Grade` as JSON).
        task: The graded task (its criteria give the full assertions and actions).
        domain: Looks up each gold action's tool type (read/write...); None leaves it out.
    """
    checks: dict[str, Any] = grade.get("checks") or {}
    criteria = task.evaluation_criteria
    info: dict[str, Any] = {}
    if grade.get("note"):
        info["note"] = grade["note"]
    if grade.get("judge"):
        info["nl_judge"] = grade["judge"]
    basis = grade.get("reward_basis")
    result: dict[str, Any] = {
        "reward": grade["reward"],
        "db_check": None,
        "env_assertions": None,
        "action_checks": None,
        "nl_assertions": None,
        "communicate_checks": None,
        "reward_basis": basis,
        "reward_breakdown": dict(grade.get("breakdown") or {}) if basis is not None else None,
        "info": info or None,
    }
    if "DB" in checks:
        db_reward = checks["DB"]["reward"]
        result["db_check"] = {"db_match": db_reward == 1.0, "db_reward": db_reward}
    if "ENV_ASSERTION" in checks and checks["ENV_ASSERTION"].get("reported", True):
        details = checks["ENV_ASSERTION"]["details"]
        assertions = (criteria.env_assertions if criteria else None) or []
        result["env_assertions"] = [
            {
                "env_assertion": assertion.model_dump(mode="json"),
                "met": bool(detail["met"]),
                "reward": 1.0 if detail["met"] else 0.0,
            }
            for assertion, detail in zip(assertions, details, strict=False)
        ]
    if "ACTION" in checks and criteria and criteria.actions:
        details = checks["ACTION"]["details"]
        result["action_checks"] = [
            {
                "action": action.model_dump(mode="json"),
                "action_match": bool(detail["met"]),
                "action_reward": 1.0 if detail["met"] else 0.0,
                "tool_type": _tool_type(domain, action),
            }
            for action, detail in zip(criteria.actions, details, strict=False)
        ]
    if "NL_ASSERTION" in checks:
        result["nl_assertions"] = [
            {
                "nl_assertion": detail["assertion"],
                "met": bool(detail["met"]),
                # (an assertion no judge was asked about says why: `skipped`)
                "justification": detail.get("justification") or detail.get("skipped") or "",
            }
            for detail in checks["NL_ASSERTION"]["details"]
        ]
    if "COMMUNICATE" in checks and criteria and criteria.communicate_info:
        result["communicate_checks"] = [
            {"info": detail["info"], "met": bool(detail["met"]), "justification": ""}
            for detail in checks["COMMUNICATE"]["details"]
            if "info" in detail  # (facts not to say have no place in the reference's layout)
        ]
    return result
