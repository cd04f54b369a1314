"""The taskset: one verifiers task per tau_env task, scored by tau_env's grader.

A row names the task; the scenario, the user's instructions and the grading criteria stay in
tau_env (the agent learns the goal only by talking to the user). Each rollout draws its own
episode seed when it starts (`TauEnv`), so the rollouts of a group and of later epochs meet
different user choices; the seed is recorded in the trace's ``info``. The reward is the
grade's, on the configured scale (``reward``: binary, the benchmark's own, partial or
breakdown); every check of the breakdown is a metric. An episode that ended early (a
verifiers limit or stop) has no grade: it scores 0, as a truncated episode does in the
benchmark, and says so in ``termination``.

Tasks scored by NL assertions need a judge (``judge``: a model name): without one they are
left out of the taskset, with a warning counting them. A judge that fails to rule marks that
rollout (the ``judge_failed`` metric, no reward: its reward function raises, which verifiers
records on the trace as the rollout's error) and no other.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal

import verifiers.v1 as vf
from pydantic import Field

__all__ = ["TauData", "TauState", "TauTask", "TauTaskset", "TauTasksetConfig", "chat_options"]


class TauData(vf.TaskData):  # type: ignore[misc]  # verifiers is untyped here
    """One task to play: a tau_env task id (each rollout draws its own episode seed).

    ``tools`` (OpenAI function schemas) and ``system_prompt`` are filled when the episode
    starts, from the episode itself; the taskset leaves them empty.
    """

    task_id: str
    tools: list[dict[str, Any]] = Field(default_factory=list)


class TauState(vf.State):  # type: ignore[misc]
    """What the episode left for scoring: the grade (None when it ended early).

    ``judge_failure`` says why there is no reward when the NL judge failed to rule.
    """

    reward: float | None = 0.0
    termination: str | None = None
    grade: dict[str, Any] | None = None
    judge_failure: str | None = None


class TauTask(vf.Task[TauData, TauState]):  # type: ignore[misc]
    """A tau_env episode; the rubric is tau_env's grader."""

    @vf.reward(weight=1.0)  # type: ignore[untyped-decorator]
    async def tau_reward(self, trace: Any) -> float:
        """The grade's reward (0 for an episode that ended before the benchmark's end).

        Raises:
            JudgeError: The NL judge failed to rule: the rollout has no reward (verifiers
                records the error on its trace; other rollouts are not touched).
        """
        from tau_env.errors import JudgeError

        state = trace.state
        if state.judge_failure is not None:
            raise JudgeError(state.judge_failure, transient=False)
        return float(state.reward or 0.0)

    @vf.metric  # type: ignore[untyped-decorator]
    async def judge_failed(self, trace: Any) -> float:
        """1 when the episode's NL judge failed to rule (the rollout has no reward), else 0."""
        return float(trace.state.judge_failure is not None)

    @vf.metric  # type: ignore[untyped-decorator]
    async def checks(self, trace: Any) -> dict[str, float]:
        """Each judged component of the grade's breakdown (``check_DB``, ``check_ACTION``...)."""
        grade = trace.state.grade or {}
        breakdown = grade.get("breakdown", {}).items()
        return {f"check_{name}": float(v) for name, v in breakdown if v is not None}


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
        reward: ``binary`` (the benchmark's), ``partial`` (the fraction of checks met) or
            ``breakdown`` (binary; the checks are metrics either way).
        judge: The model (litellm name) that judges NL assertions, at temperature 0; None:
            tasks scored by NL assertions are left out.
        judge_api_base: The judge's OpenAI-compatible server (None: the provider's).
        seed: None: each rollout draws a fresh episode seed (distinct over a group, epochs
            and env-server workers). A number: the k-th rollout of a task in this process
            plays `tau_env.rollout_seeds.episode_seed` (seed, task, k), so a ``vf-eval`` run
            replays; several env-server workers would repeat each other's seeds.
    """

    domain: str = "telecom"
    split: str | None = "test"
    data_dir: str | None = None
    user: str = "scripted"
    user_model: str | None = None
    user_api_base: str | None = None
    mode: str = "default"
    reward: Literal["binary", "partial", "breakdown"] = "binary"
    judge: str | None = None
    judge_api_base: str | None = None
    seed: int | None = None


def chat_options(config: TauTasksetConfig) -> dict[str, Any]:
    """`tau_env.chat.make_chat_env` arguments for `config` (the judge built from its model)."""
    from tau_env.rollout.config import JudgeSpec
    from tau_env.rollout.judging import build_judge

    judge = None
    if config.judge is not None:
        judge = build_judge(JudgeSpec(model=config.judge, api_base=config.judge_api_base))
    return {
        "data_dir": config.data_dir,
        "user": config.user,
        "user_model": config.user_model,
        "user_api_base": config.user_api_base,
        "mode": config.mode,
        "split": config.split,
        "reward": config.reward,
        "judge": judge,
    }


class TauTaskset(vf.Taskset[TauTask, TauTasksetConfig]):  # type: ignore[misc]
    """The domain's tasks of one split, playable in the configured mode."""

    def load(self) -> Iterator[TauTask]:
        """One task per tau_env task the episodes can play, named by its id.

        Those scored by NL assertions are left out without a judge (a warning counts them).

        Raises:
            ModelAccessError: The judge's provider needs an API key that is not set.
        """
        from tau_env.chat import make_chat_env
        from tau_env.rollout.modes import playable_in_mode

        config = self.config
        options = chat_options(config)
        if options["judge"] is not None:  # a missing key: one line now, not an error per rollout
            options["judge"].client.check_access()
        chat = make_chat_env(config.domain, **options)
        for task in chat.single.tasks:  # the split's, less NL-judged ones without a judge
            if playable_in_mode(task, config.mode):
                data = TauData(id=task.id, name=task.id, task_id=task.id)
                yield TauTask(data, config.task)
