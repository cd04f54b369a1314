"""Results files in the reference's layout, built for tests from its documented data model.

The layout follows the reference's ``Results`` (spec §1.3 and its data model): ``info`` with
git commit, trials, limits, the two participants (implementation, llm, llm_args, guidelines...),
the environment (domain, policy) and the seed; the tasks; and simulations with id, times,
termination reason, costs, the recorded ``reward_info`` (reward, the per-check lists, basis,
breakdown), messages (with ``turn_idx``, timestamps, costs, usage, ``raw_data``), trial, seed and
mode. Fields of the reference that tau_env does not read are filled too, as a real file has them.

Conversations come from gold replays played by tau_env (oracle agent, gold user), turned into
the reference's message layout; failing simulations are made from them by known changes
(a dropped write, a premature ending), and their recorded rewards are written by the
reference's rules for that change, never by tau_env's grader.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from tau_env.domain import load_domain
from tau_env.rollout import ParticipantSpec, RunConfig, create_run, run
from tau_env.store import ResultStore
from tau_env.tasks.model import Task

START = datetime(2025, 9, 1, 12, 0, 0, tzinfo=UTC)


def gold_conversations(domain: str, task_ids: list[str], data_dir: str | None = None) -> dict:
    """Task id -> its gold conversation (tau_env message dicts), played by oracle + gold user."""
    config = RunConfig(
        run_id="gold",
        domain=domain,
        data_dir=data_dir,
        task_ids=tuple(task_ids),
        trials=1,
        agent=ParticipantSpec(kind="oracle"),
        user=ParticipantSpec(kind="gold"),
    )
    with ResultStore(":memory:") as store:
        create_run(store, config)
        run(store, config)
        return {episode.task_id: episode.trajectory for episode in store.episodes("gold")}


def reference_messages(messages: list[dict[str, Any]], start: datetime = START) -> list[dict]:
    """tau_env message dicts in the reference's layout, with its bookkeeping fields."""
    written = []
    for index, message in enumerate(messages):
        at = (start + timedelta(seconds=index)).isoformat()
        role = message["role"]
        if role == "tool":
            written.append(
                {
                    "id": message.get("id", ""),
                    "role": "tool",
                    "content": message.get("content"),
                    "requestor": message.get("requestor", "assistant"),
                    "error": message.get("error", False),
                    "turn_idx": index,
                    "timestamp": at,
                }
            )
            continue
        generated = not (index == 0 and role == "assistant" and not message.get("tool_calls"))
        written.append(
            {
                "role": role,
                "content": message.get("content"),
                "tool_calls": [
                    {
                        "id": call["id"],
                        "name": call["name"],
                        "arguments": call["arguments"],
                        "requestor": call.get("requestor", role),
                    }
                    for call in message.get("tool_calls") or []
                ]
                or None,
                "turn_idx": index,
                "timestamp": at,
                "cost": 0.0012 if generated else 0.0,
                "usage": {"prompt_tokens": 900, "completion_tokens": 40} if generated else None,
                "raw_data": None,
                "generation_time_seconds": 0.8 if generated else None,
                "is_audio": False,
            }
        )
    return written


def drop_call(messages: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """The conversation without the message calling `name` and that call's result."""
    for index, message in enumerate(messages):
        calls = message.get("tool_calls") or []
        if [call["name"] for call in calls] == [name]:
            return messages[:index] + messages[index + 2 :]
    raise AssertionError(f"no call of {name!r}")


def _checks(task: Task, met: dict[str, bool]) -> dict[str, Any]:
    """The per-check lists of a reward info, each check met as `met` says per component."""
    criteria = task.evaluation_criteria
    assert criteria is not None
    return {
        "db_check": {"db_match": met["DB"], "db_reward": float(met["DB"])},
        "env_assertions": [
            {
                "env_assertion": assertion.model_dump(mode="json"),
                "met": met["ENV_ASSERTION"],
                "reward": float(met["ENV_ASSERTION"]),
            }
            for assertion in criteria.env_assertions or []
        ],
        "action_checks": [
            {
                "action": action.model_dump(mode="json"),
                "action_match": met["ACTION"],
                "action_reward": float(met["ACTION"]),
                "tool_type": None,
            }
            for action in criteria.actions or []
        ]
        or None,
        "communicate_checks": [
            {"info": info, "met": met["COMMUNICATE"], "justification": ""}
            for info in criteria.communicate_info or []
        ]
        or None,
        "nl_assertions": [
            {"nl_assertion": a, "met": met["NL_ASSERTION"], "justification": "as recorded"}
            for a in criteria.nl_assertions or []
        ]
        if "NL_ASSERTION" in criteria.reward_basis
        else None,
    }


def graded_reward_info(task: Task, failing: tuple[str, ...] = ()) -> dict[str, Any]:
    """The reference's reward info of a stopped conversation whose `failing` checks failed."""
    basis = list(task.reward_basis)
    met = {name: name not in failing for name in COMPONENTS}
    breakdown = {name: float(met[name]) for name in basis}
    reward = 1.0
    for value in breakdown.values():
        reward *= value
    return {
        "reward": reward,
        **_checks(task, met),
        "reward_basis": basis,
        "reward_breakdown": breakdown,
        "info": None,
    }


COMPONENTS = ("DB", "ENV_ASSERTION", "ACTION", "COMMUNICATE", "NL_ASSERTION")


def premature_reward_info(termination: str) -> dict[str, Any]:
    """The reference's reward info of a conversation that did not end with a stop."""
    return {
        "reward": 0.0,
        "db_check": None,
        "env_assertions": None,
        "action_checks": None,
        "nl_assertions": None,
        "communicate_checks": None,
        "reward_basis": None,
        "reward_breakdown": None,
        "info": {"note": f"Simulation terminated prematurely. Termination reason: {termination}"},
    }


def simulation(
    task_id: str,
    trial: int,
    messages: list[dict[str, Any]] | None,
    *,
    termination: str = "user_stop",
    reward_info: dict[str, Any] | None,
    seed: int = 4242,
) -> dict[str, Any]:
    """One ``SimulationRun`` in the reference's layout."""
    start = START + timedelta(minutes=trial)
    written = reference_messages(messages, start) if messages is not None else []
    duration = float(len(written))
    end = start + timedelta(seconds=duration)
    generated = [m for m in written if m["role"] != "tool" and m.get("cost")]
    agent_cost = sum(m["cost"] for m in generated if m["role"] == "assistant")
    user_cost = sum(m["cost"] for m in generated if m["role"] == "user")
    return {
        "id": str(uuid.uuid5(uuid.NAMESPACE_URL, f"{task_id}/{trial}")),
        "task_id": task_id,
        "timestamp": end.isoformat(),
        "start_time": start.isoformat(),
        "end_time": end.isoformat(),
        "duration": duration,
        "termination_reason": termination,
        "agent_cost": round(agent_cost, 6) if messages else None,
        "user_cost": round(user_cost, 6) if messages else None,
        "agent_usage": None,
        "reward_info": reward_info,
        "messages": written,
        "ticks": None,
        "trial": trial,
        "seed": seed,
        "mode": "half_duplex",
        "speech_environment": None,
        "review": None,
        "user_only_review": None,
        "info": None,
        "auth_classification": None,
        "hallucination_retries_used": 0,
        "hallucination_check": None,
        "provider_session_id": None,
        "policy": None,
        "effect_timeline": None,
    }


def results_file(
    domain: str,
    tasks: list[Task],
    simulations: list[dict[str, Any]],
    *,
    trials: int,
    data_dir: str | None = None,
) -> dict[str, Any]:
    """A whole ``Results`` object of the reference."""
    args = {"temperature": 0.0}
    return {
        "timestamp": START.isoformat(),
        "info": {
            "git_commit": "a2c024725189473d2d7cea3a5cfdbcc67478e41f",
            "num_trials": trials,
            "max_steps": 200,
            "max_errors": 10,
            "user_info": {
                "implementation": "user_simulator",
                "llm": "gpt-4.1-2025-04-14",
                "llm_args": dict(args),
                "global_simulation_guidelines": "(the guidelines text)",
                "voice_settings": None,
                "persona_config": None,
            },
            "agent_info": {
                "implementation": "llm_agent",
                "llm": "gpt-4.1-2025-04-14",
                "llm_args": dict(args),
            },
            "environment_info": {
                "domain_name": domain,
                "policy": load_domain(domain, data_dir).policy,
                "tool_defs": None,
            },
            "seed": 300,
            "text_streaming_config": None,
            "speech_complexity": None,
            "audio_native_config": None,
            "retrieval_config": None,
            "retrieval_config_kwargs": None,
        },
        "tasks": [task.model_dump(mode="json", exclude_none=True) for task in tasks],
        "simulations": simulations,
    }
