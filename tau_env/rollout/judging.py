"""Judging a run's NL assertions: on the driver, from the stored conversations.

Episodes are played without a judge (the env's step stays free of model calls) and written at
once; an episode whose basis names NL assertions is stored without reward. The driver then
asks the run's judge (`JudgeSpec`) and completes the stored grade. A kill between the two
loses only the verdict; a resume with a judge (the run's, or ``--judge-model``) judges every
episode that waits, without replaying it. A judge that fails (provider outage, no usable
verdict after its retries) leaves the episode waiting and logs an infrastructure failure.

Usable rulings are cached in the result store's file, so judging the same conversation again
(another resume, a re-export) costs no call.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pydantic import TypeAdapter

from tau_env.domain import Domain
from tau_env.errors import TauEnvError
from tau_env.grading.nl_assertions import Judge
from tau_env.grading.outcome import Grade
from tau_env.grading.rejudge import arejudge, needs_judge
from tau_env.messages import Message
from tau_env.rollout.config import JudgeSpec, RunConfig
from tau_env.store.records import EpisodeRecord, FailureRecord

if TYPE_CHECKING:
    from tau_env.grading.judge import LLMJudge
    from tau_env.store.sqlite import ResultStore

__all__ = [
    "build_judge",
    "judge_episode",
    "judge_failure",
    "judge_for_resume",
    "stored_trajectory",
]

_TRAJECTORY: TypeAdapter[list[Message]] = TypeAdapter(list[Message])


def build_judge(spec: JudgeSpec, cache_path: str | None = None) -> LLMJudge:
    """The `LLMJudge` a spec describes (API keys come from the environment).

    Args:
        spec: The judge's model and settings.
        cache_path: SQLite file that caches usable rulings (the result store's file); None or
            ``":memory:"``: no cache.
    """
    from tau_env.grading.judge import LLMJudge
    from tau_env.llm import LLMClient, ModelConfig, ResponseCache

    params = dict(spec.llm_args)
    timeout = params.pop("timeout", None)
    config = ModelConfig(
        model=spec.model,
        api_base=spec.api_base,
        temperature=spec.temperature,
        seed=spec.seed,
        params=params,
    )
    if timeout is not None:
        config = dataclasses.replace(config, timeout=float(timeout))
    cache = ResponseCache(cache_path) if cache_path and cache_path != ":memory:" else None
    return LLMJudge(LLMClient(config), cache=cache)


def judge_for_resume(config: RunConfig, judge: JudgeSpec | None) -> RunConfig:
    """The run's configuration with the judge a resume brings.

    Raises:
        TauEnvError: The run is judged by another model (mixing judges in one run would make
            its episodes incomparable).
    """
    if judge is None:
        return config
    current = config.judge
    if current is not None and current.model != judge.model:
        raise TauEnvError(
            f"run {config.run_id!r} is judged by {current.model!r}, not {judge.model!r}: "
            "one run has one judge; start a new run to use another"
        )
    return config.model_copy(update={"judge": judge})


def stored_trajectory(record: EpisodeRecord) -> Sequence[Message]:
    """An episode's stored conversation as messages."""
    return _TRAJECTORY.validate_python(record.trajectory)


def judge_failure(record: EpisodeRecord, error: str, started: float) -> FailureRecord:
    """The infrastructure failure logged for `record` when a judge call begun at `started` failed.

    The episode keeps its grade (it stays waiting for a judge); the failure says why.
    """
    return FailureRecord.of_episode(record, "infrastructure", error, time.time() - started)


async def judge_episode(
    store: ResultStore, record: EpisodeRecord, domain: Domain, judge: Judge
) -> bool:
    """Judge one stored episode that waits for a judge and write its completed grade.

    Returns:
        True when the episode now has a reward; False when the judge failed (an
        infrastructure failure is logged and the episode keeps waiting).
    """
    grade = Grade.model_validate(record.grade)
    if not needs_judge(grade):
        return record.reward is not None
    started = time.time()
    judged = await arejudge(grade, stored_trajectory(record), domain.task(record.task_id), judge)
    if judged.reward is None:
        store.add_failure(judge_failure(record, f"judge: {judged.note}", started))
        return False
    update = {"reward": judged.reward, "grade": judged.model_dump(mode="json")}
    store.set_judged_grade(record.model_copy(update=update))
    return True
