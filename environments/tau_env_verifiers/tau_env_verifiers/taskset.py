"""The taskset: one verifiers task per tau_env task, scored by tau_env's grader.

A row names the task and its episode seed; the scenario, the user's instructions and the
grading criteria stay in tau_env (the agent learns the goal only by talking to the user).
The reward is the grade's reward, the benchmark's own; every check of the breakdown is a
metric. An episode that ended early (a verifiers limit or stop) has no grade: it scores 0, as
a truncated episode does in the benchmark, and says so in ``termination``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import verifiers.v1 as vf
from pydantic import Field

__all__ = ["TauData", "TauState", "TauTask", "TauTaskset", "TauTasksetConfig", "chat_options"]


class TauData(vf.TaskData):  # type: ignore[misc]  # verifiers is untyped here
    """One episode to play: a tau_env task id and the episode's seed.

    ``tools`` (OpenAI function schemas) and ``system_prompt`` are filled when the episode
    starts, from the episode itself; the taskset leaves them empty.
    """

    task_id: str
    seed: int = 0
    tools: list[dict[str, Any]] = Field(default_factory=list)


class TauState(vf.State):  # type: ignore[misc]
    """What the episode left for scoring: the grade (None when it ended early)."""

    reward: float = 0.0
    termination: str | None = None
    grade: dict[str, Any] | None = None


class TauTask(vf.Task[TauData, TauState]):  # type: ignore[misc]
    """A tau_env episode; the rubric is tau_env's grader."""

    @vf.reward(weight=1.0)  # type: ignore[untyped-decorator]
    async def tau_reward(self, trace: Any) -> float:
        """The grade's reward (0 for an episode that ended before the benchmark's end)."""
        return float(trace.state.reward)

    @vf.metric  # type: ignore[untyped-decorator]
    async def checks(self, trace: Any) -> dict[str, float]:
        """Each component of the grade's breakdown (``check_DB``, ``check_ACTION``...)."""
        grade = trace.state.grade or {}
        return {f"check_{name}": float(v) for name, v in grade.get("breakdown", {}).items()}


class TauTasksetConfig(vf.TasksetConfig):  # type: ignore[misc]
    """Which tasks load, and how their episodes are played (``--env.taskset.*``).

    Attributes:
        domain: A tau_env domain name or versioned id.
        split: The split to load (None: every task of the domain).
        data_dir: A reference data folder (None: built-in data).
        user: The user: ``scripted``, ``gold``, ``llm`` or ``package.module:factory``.
        user_model: The model of an ``llm`` user.
        user_api_base: Its OpenAI-compatible server.
        mode: The evaluation mode.
        seed: Task i of the split plays with episode seed ``seed + i``.
    """

    domain: str = "telecom"
    split: str | None = "test"
    data_dir: str | None = None
    user: str = "scripted"
    user_model: str | None = None
    user_api_base: str | None = None
    mode: str = "default"
    seed: int = 0


def chat_options(config: TauTasksetConfig) -> dict[str, Any]:
    """`tau_env.chat.make_chat_env` arguments for `config`."""
    return {
        "data_dir": config.data_dir,
        "user": config.user,
        "user_model": config.user_model,
        "user_api_base": config.user_api_base,
        "mode": config.mode,
        "split": config.split,
    }


class TauTaskset(vf.Taskset[TauTask, TauTasksetConfig]):  # type: ignore[misc]
    """The domain's tasks of one split, playable in the configured mode."""

    def load(self) -> Iterator[TauTask]:
        """One task per tau_env task, named by its id."""
        from tau_env.chat import make_chat_env
        from tau_env.rollout.modes import playable_in_mode

        config = self.config
        chat = make_chat_env(config.domain, **chat_options(config))
        domain = chat.single.aec.unwrapped.domain
        for i, task in enumerate(domain.split(config.split)):
            if playable_in_mode(task, config.mode):
                data = TauData(id=task.id, name=task.id, task_id=task.id, seed=config.seed + i)
                yield TauTask(data, config.task)
