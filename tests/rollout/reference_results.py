"""The reference's results layout (spec §1.3) as strict pydantic models, for reading exports.

Written from the spec's field lists: what a τ²-bench tool that loads ``results.json`` with the
reference's ``Results`` model requires. Strict: a verdict's ``met`` must be a bool, a reward a
number; the models ignore extra keys, as the reference's do.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

RewardType = Literal["DB", "ENV_ASSERTION", "NL_ASSERTION", "ACTION", "COMMUNICATE"]
Termination = Literal[
    "user_stop",
    "agent_stop",
    "max_steps",
    "timeout",
    "too_many_errors",
    "agent_error",
    "user_error",
    "infrastructure_error",
    "context_window_exceeded",
    "unexpected_error",
]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")


class NLAssertionCheck(_Strict):
    nl_assertion: str
    met: bool
    justification: str


class CommunicateCheck(_Strict):
    info: str
    met: bool
    justification: str


class DBCheck(_Strict):
    db_match: bool
    db_reward: float


class ActionCheck(_Strict):
    action: dict[str, Any]
    action_match: bool
    action_reward: float
    tool_type: Literal["read", "write", "think", "generic"] | None = None


class EnvAssertionCheck(_Strict):
    env_assertion: dict[str, Any]
    met: bool
    reward: float


class RewardInfo(_Strict):
    reward: float
    db_check: DBCheck | None = None
    env_assertions: list[EnvAssertionCheck] | None = None
    action_checks: list[ActionCheck] | None = None
    nl_assertions: list[NLAssertionCheck] | None = None
    communicate_checks: list[CommunicateCheck] | None = None
    reward_basis: list[RewardType] | None = None
    reward_breakdown: dict[RewardType, float] | None = None
    info: dict[str, Any] | None = None


class SimulationRun(_Strict):
    id: str
    task_id: str
    timestamp: str
    start_time: str
    end_time: str
    duration: float
    termination_reason: Termination
    agent_cost: float | None = None
    user_cost: float | None = None
    reward_info: RewardInfo | None = None
    messages: list[dict[str, Any]]
    trial: int | None = None
    seed: int | None = None
    mode: str = "half_duplex"
    info: dict[str, Any] | None = None


class Info(_Strict):
    git_commit: str
    num_trials: int
    max_steps: int
    max_errors: int
    user_info: dict[str, Any]
    agent_info: dict[str, Any]
    environment_info: dict[str, Any]
    seed: int | None = None


class Results(_Strict):
    timestamp: str | None = None
    info: Info
    tasks: list[dict[str, Any]]
    simulations: list[SimulationRun]


def reference_pass_hat_1(results: Results) -> float:
    """The reference's pass^1: infrastructure errors left out, success = reward within 1e-6 of 1."""
    by_task: dict[str, list[bool]] = {}
    for sim in results.simulations:
        if sim.termination_reason == "infrastructure_error":
            continue
        assert sim.reward_info is not None
        by_task.setdefault(sim.task_id, []).append(abs(sim.reward_info.reward - 1.0) <= 1e-6)
    return sum(sum(v) / len(v) for v in by_task.values()) / len(by_task)
