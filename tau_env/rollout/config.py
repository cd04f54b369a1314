"""What a run is: a domain's tasks x trials, two participants, a mode and the episode limits.

A `RunConfig` is plain data (JSON), stored with the run, so a resume, a Ray worker or a later
report rebuilds exactly the same episodes from it. Execution settings (concurrency, backend)
are not part of it: a run may be resumed with other ones.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, FiniteFloat, field_validator

from tau_env.grading.strict import Grading
from tau_env.rollout.bounds import MAX_ERRORS, MAX_SEED, MAX_STEPS, MAX_TRIALS

__all__ = ["MODES", "JudgeSpec", "ParticipantSpec", "RunConfig"]

MODES: tuple[str, ...] = ("default", "no-user", "oracle-plan", "no-user-oracle-plan")
"""The reference's evaluation modes (spec §5)."""


class ParticipantSpec(BaseModel):
    """How to build one side's participant for each episode.

    Attributes:
        kind: A built-in name (agents: ``llm``, ``oracle``, ``random``; users: ``scripted``,
            ``gold``, ``llm``) or ``"package.module:factory"``, a callable that takes the task
            and returns a participant.
        model: Model name for model-backed participants (litellm naming).
        temperature: Sampling temperature for model-backed participants.
        api_base: Base URL of an OpenAI-compatible server (None: the provider's default).
        llm_args: Further keyword arguments of the model calls.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str = Field(min_length=1)
    model: str | None = None
    temperature: FiniteFloat = 0.0
    api_base: str | None = None
    llm_args: dict[str, Any] = Field(default_factory=dict)

    def describe(self) -> str:
        """``kind`` or ``kind(model)``, for run names and reports."""
        return f"{self.kind}({self.model})" if self.model else self.kind


class JudgeSpec(BaseModel):
    """The model that judges a run's NL assertions (`tau_env.grading.LLMJudge`).

    Attributes:
        model: litellm model name (the reference's judge is ``gpt-4.1-2025-04-14``).
        api_base: Base URL of an OpenAI-compatible server (None: the provider's default).
        temperature: Sampling temperature (0, as the reference).
        seed: Sampling seed of every judge call.
        llm_args: Further keyword arguments of the model calls.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str = Field(min_length=1)
    api_base: str | None = None
    temperature: float = 0.0
    seed: int = 0
    llm_args: dict[str, Any] = Field(default_factory=dict)


class RunConfig(BaseModel):
    """A run: which episodes to play and how.

    Attributes:
        run_id: Unique within a store.
        domain: Domain name or versioned id.
        data_dir: Reference data folder (None: built-in data).
        retrieval: Retrieval variant of a domain with a knowledge base (None: its default).
        retrieval_options: Settings of that variant.
        split: Task split the tasks came from (for the record).
        task_ids: The tasks, resolved and fixed when the run is created.
        trials: Trials per task.
        base_seed: Episode seeds derive from (base_seed, task, trial).
        agent: The agent side.
        user: The user side.
        mode: One of `MODES`.
        max_steps: Step limit per episode (truncation).
        max_errors: Cumulative tool-error limit per episode.
        judge: Judges NL assertions (None: they stay not judged, the episodes have no reward
            and are left out of pass^k until a resume brings a judge). Not part of the run's
            fingerprint: a resume may add it.
        grading: ``official`` (the reference's grading) or ``strict``: the report also reads
            every grade strictly (`tau_env.grading.strict`: the task's listed checks added to
            its basis) and shows that score beside the official one, never instead of it.
            Not part of the fingerprint (it changes no episode, only how grades are read).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    run_id: str = Field(min_length=1)
    domain: str
    data_dir: str | None = None
    retrieval: str | None = None
    retrieval_options: dict[str, Any] | None = None
    split: str | None = None
    task_ids: tuple[str, ...] = Field(min_length=1)
    trials: int = Field(ge=1, le=MAX_TRIALS)
    base_seed: int = Field(default=300, ge=-MAX_SEED, le=MAX_SEED)
    agent: ParticipantSpec
    user: ParticipantSpec
    mode: str = "default"
    max_steps: int = Field(default=200, ge=1, le=MAX_STEPS)
    max_errors: int = Field(default=10, ge=1, le=MAX_ERRORS)
    judge: JudgeSpec | None = None
    grading: Grading = "official"

    @field_validator("mode")
    @classmethod
    def _known_mode(cls, mode: str) -> str:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {list(MODES)}, actually: {mode!r}")
        return mode

    @field_validator("task_ids")
    @classmethod
    def _distinct_tasks(cls, task_ids: tuple[str, ...]) -> tuple[str, ...]:
        seen: set[str] = set()
        for task_id in task_ids:
            if task_id in seen:
                raise ValueError(f"task ids must be distinct, {task_id!r} appears twice")
            seen.add(task_id)
        return task_ids

    @property
    def episodes(self) -> int:
        """Planned episodes: tasks x trials."""
        return len(self.task_ids) * self.trials
