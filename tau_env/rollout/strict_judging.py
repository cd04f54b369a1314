"""Judging, for the strict reading of a run, the NL assertions a task lists outside its basis.

A run with ``grading="strict"`` and a judge reads each grade with the task's listed NL
assertions multiplied in (`tau_env.grading.strict`). Where the official basis names them, the
run's usual judging (`tau_env.rollout.judging`) rules on them; where it does not, this module
does, on the driver, from the stored conversation, and adds the ruling to the stored grade
as a diagnostic check. The episode's reward (the official one) never changes.

No call is made for an episode whose strict reading is already decided: one that scored 0
officially, or failed a check the strict reading adds.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tau_env.domain import Domain
from tau_env.errors import LLMError
from tau_env.grading.nl_assertions import Judge, Verdict, assertions_of, ruled_check
from tau_env.grading.strict import read_strictly
from tau_env.messages import Message
from tau_env.rollout.config import RunConfig
from tau_env.rollout.judging import judge_failure, stored_trajectory
from tau_env.store.records import EpisodeRecord

if TYPE_CHECKING:
    from tau_env.store.sqlite import ResultStore

__all__ = ["judge_strictly", "needs_strict_judge"]


def needs_strict_judge(config: RunConfig, record: EpisodeRecord, domain: Domain) -> bool:
    """True when the episode's strict reading waits only for its NL assertions' ruling."""
    if config.grading != "strict" or config.judge is None or record.reward is None:
        return False
    reading = read_strictly(record.grade, domain.task(record.task_id), judged=True)
    return reading.reward is None and reading.not_judged == ("NL_ASSERTION",)


async def judge_strictly(
    store: ResultStore, record: EpisodeRecord, domain: Domain, judge: Judge
) -> bool:
    """Rule on the NL assertions of one stored episode for the strict reading, and store it.

    Returns:
        True when the ruling was stored (or none was needed); False when the judge failed
        (an infrastructure failure is logged and the strict reading stays not judged).
    """
    task = domain.task(record.task_id)
    assertions = assertions_of(task)
    started = time.time()
    try:
        verdicts = await _verdicts(judge, stored_trajectory(record), assertions)
    except LLMError as error:
        message = f"judge (strict reading): {type(error).__name__}: {error}"
        store.add_failure(judge_failure(record, message, started))
        return False
    grade = dict(record.grade)
    checks = dict(grade.get("checks") or {})
    checks["NL_ASSERTION"] = ruled_check(assertions, verdicts).model_dump(mode="json")
    grade["checks"] = checks
    store.add_diagnostic_check(record.model_copy(update={"grade": grade}))
    return True


async def _verdicts(
    judge: Judge, trajectory: Sequence[Message], assertions: Sequence[str]
) -> Sequence[Verdict]:
    ajudge = getattr(judge, "ajudge", None)
    if ajudge is not None:
        verdicts: Sequence[Verdict] = await ajudge(trajectory, assertions)
        return verdicts
    return await asyncio.to_thread(judge, trajectory, assertions)
