"""What the result store holds: runs, finished episodes and failed attempts.

These are plain pydantic records (JSON-serializable, so they cross process boundaries such as
Ray's unchanged). An `EpisodeRecord` is written once per (run, task, trial) and never replaced;
a `FailureRecord` logs one attempt that produced no episode (an infrastructure error or a crash)
and is kept even after a later attempt succeeds, so no failure is ever silently dropped.
"""

from __future__ import annotations

import time
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tau_env.metrics import is_success

__all__ = [
    "EpisodeRecord",
    "EpisodeSummary",
    "FailureKind",
    "FailureRecord",
    "ImportRecord",
    "ImportedSimulation",
    "ParticipantInfo",
    "RunRecord",
    "SimulationStatus",
    "TokenTurn",
    "Usage",
    "UserFaultFlags",
    "token_turns",
]

FailureKind = Literal["infrastructure", "crash"]
"""Why an attempt produced no episode: a provider or network outage that outlived the retries
(``infrastructure``), or an unexpected exception in a participant or the env (``crash``).
Both are retried on resume; neither ever counts as a pass or a fail."""


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Usage(_Record):
    """Model usage of one side over one episode (zero for participants without a model)."""

    calls: int = Field(default=0, description="Model calls made (cache hits included).")
    prompt_tokens: int = Field(default=0, description="Prompt tokens over all calls.")
    completion_tokens: int = Field(default=0, description="Completion tokens over all calls.")
    cost: float | None = Field(default=None, description="USD, when the provider's price is known.")


class UserFaultFlags(_Record):
    """What the simulated user got wrong in an episode (`tau_env.user_faults`)."""

    empty_turns: int = Field(default=0, description="Empty user replies, retried or sent.")
    early_stop: bool = Field(
        default=False, description="The user ended the call while an agent action was pending."
    )
    instruction_leak: bool = Field(
        default=False,
        description="A user message repeats 8+ words of its instructions (12+ read plainly).",
    )
    program_speech: bool = Field(
        default=False,
        description="A user message holds a tool name, a program literal or raw tool output.",
    )

    @property
    def any(self) -> bool:
        """True when any flag is raised."""
        return bool(
            self.empty_turns or self.early_stop or self.instruction_leak or self.program_speech
        )


class TokenTurn(_Record):
    """One agent turn's exact tokens, as the model server returned them (stored compactly).

    A turn's prompt usually begins with the previous turn's prompt and completion (the chat
    only grows); `prefix` counts the tokens it shares with them, so only the rest is stored.
    When it does not (the server rendered or tokenized the earlier turns differently this
    time: re-tokenization drift), the turn is flagged `retokenized`: a trainer cannot join its
    ids to the previous turn's. `EpisodeRecord.token_turns` gives the turns whole. A logprob
    of minus infinity (a token the model held impossible) or NaN is stored as JSON's string
    ``"-Infinity"`` or ``"NaN"`` and read back as the float, where JSON's ``null`` would make
    the episode unreadable.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", ser_json_inf_nan="strings")

    prefix: int = Field(
        default=0, ge=0, description="Leading prompt ids shared with the previous turn's."
    )
    prompt_tail: list[int] = Field(default_factory=list, description="The prompt's other ids.")
    completion_ids: list[int] = Field(default_factory=list, description="The sampled ids.")
    logprobs: list[float] = Field(default_factory=list, description="Each sampled id's logprob.")
    retokenized: bool = Field(
        default=False,
        description="The prompt does not begin with the previous turn's prompt and completion.",
    )


def token_turns(turns: list[dict[str, list[Any]]]) -> list[TokenTurn]:
    """Turns of ``{"prompt_ids", "completion_ids", "logprobs"}`` in their stored form.

    A turn whose prompt does not extend the previous turn's ids is flagged ``retokenized``.
    """
    stored: list[TokenTurn] = []
    previous: list[Any] = []
    for turn in turns:
        prompt = list(turn["prompt_ids"])
        shared = 0
        for mine, theirs in zip(prompt, previous, strict=False):
            if mine != theirs:
                break
            shared += 1
        stored.append(
            TokenTurn(
                prefix=shared,
                prompt_tail=prompt[shared:],
                completion_ids=list(turn["completion_ids"]),
                logprobs=list(turn["logprobs"]),
                retokenized=shared < len(previous),
            )
        )
        previous = prompt + list(turn["completion_ids"])
    return stored


class ParticipantInfo(_Record):
    """Who played a side of an episode, with which model settings, at what usage."""

    implementation: str = Field(description="The participant's kind, e.g. 'oracle' or 'llm'.")
    model: str | None = Field(default=None, description="Model name, for model-backed sides.")
    temperature: float | None = Field(default=None, description="Sampling temperature.")
    seed: int | None = Field(default=None, description="Seed passed to the participant.")
    usage: Usage = Field(default_factory=Usage, description="Model usage over the episode.")
    route: str | None = Field(
        default=None,
        description="How its model was called: 'lean' (OpenAI-compatible HTTP) or 'litellm'.",
    )


class RunRecord(_Record):
    """One run: its configuration (tasks x trials, participants, limits) and provenance.

    Attributes:
        run_id: Unique within the store.
        created_at: Unix time of creation.
        domain: The domain played (a run plays one domain).
        config: The run configuration, as JSON (see `tau_env.rollout.RunConfig`).
        fingerprint: Hash of the tasks and limits; resume refuses when it changed.
        versions: Package, domain and data versions at creation.
    """

    run_id: str
    created_at: float
    domain: str
    config: dict[str, Any]
    fingerprint: str
    versions: dict[str, str]


class EpisodeRecord(_Record):
    """One finished episode, graded (including episodes a participant ended by failing).

    Attributes:
        run_id: The run it belongs to.
        task_id: The task played.
        trial: Trial index, from 0.
        seed: The episode seed (env reset and participants).
        reward: The terminal reward; None while a basis check waits for a judge (NL
            assertions not judged): never a pass, left out of pass^k, judged on resume.
        termination: How it ended (the reference's termination reasons).
        grade: The full grade (`tau_env.grading.outcome.Grade` as JSON).
        trajectory: Every message of both sides (reference message layout).
        steps: Steps as the reference counts them.
        agent: Who played the agent side, and its usage.
        user: Who played the user side, and its usage.
        started_at: Unix time at reset.
        duration: Seconds from reset to grade.
        versions: Package, domain and data versions.
        note: Why an episode ended early, when a participant failed.
        user_faults: What the simulated user got wrong (reports can leave such episodes out).
        agent_tokens: Each agent model call's exact prompt and completion token ids and
            logprobs, when the model server returned them (``--agent-tokens``); read them
            whole with `token_turns`.
    """

    run_id: str
    task_id: str
    trial: int
    seed: int
    reward: float | None
    termination: str
    grade: dict[str, Any]
    trajectory: list[dict[str, Any]]
    steps: int
    agent: ParticipantInfo
    user: ParticipantInfo
    started_at: float
    duration: float
    versions: dict[str, str] = Field(default_factory=dict)
    note: str | None = None
    user_faults: UserFaultFlags = Field(default_factory=UserFaultFlags)
    agent_tokens: list[TokenTurn] = Field(default_factory=list)

    @property
    def success(self) -> bool:
        """The reference's success rule: reward within 1e-6 of 1 (never without a reward)."""
        return self.reward is not None and is_success(self.reward)

    def token_turns(self) -> list[dict[str, Any]]:
        """`agent_tokens` whole, per turn: ``prompt_ids``, ``completion_ids``, ``logprobs``.

        And ``retokenized``: the prompt does not extend the previous turn's ids.
        """
        turns: list[dict[str, Any]] = []
        previous: list[Any] = []
        for turn in self.agent_tokens:
            prompt = previous[: turn.prefix] + turn.prompt_tail
            turns.append(
                {
                    "prompt_ids": prompt,
                    "completion_ids": list(turn.completion_ids),
                    "logprobs": list(turn.logprobs),
                    "retokenized": turn.retokenized,
                }
            )
            previous = prompt + turn.completion_ids
        return turns

    @property
    def judged(self) -> bool:
        """False while a basis check waits for a judge (the episode has no reward)."""
        return self.reward is not None

    @property
    def cost(self) -> float | None:
        """Agent plus user cost; None when either side's cost is unknown but it used a model."""
        costs = [side.usage.cost for side in (self.agent, self.user) if side.usage.calls]
        if any(cost is None for cost in costs):
            return None
        return sum(cost for cost in costs if cost is not None)


class EpisodeSummary(_Record):
    """An episode without its trajectory and grade: what reports aggregate."""

    task_id: str
    trial: int
    reward: float | None
    termination: str
    steps: int
    duration: float
    agent_usage: Usage
    user_usage: Usage
    not_judged: bool = False  # a basis check waits for a judge: no reward (None)
    judge_call_saved: bool = False  # NL assertions left to no judge: the reward was 0 anyway
    user_faults: UserFaultFlags = Field(default_factory=UserFaultFlags)
    token_turns: int = 0  # agent turns with exact tokens stored (--agent-tokens)
    retokenized_turns: int = 0  # of those, turns flagged `TokenTurn.retokenized`

    @property
    def success(self) -> bool:
        """The reference's success rule: reward within 1e-6 of 1 (never without a reward)."""
        return self.reward is not None and is_success(self.reward)


class FailureRecord(_Record):
    """One attempt at a (task, trial) that produced no episode.

    Attributes:
        run_id: The run it belongs to.
        task_id: The task attempted.
        trial: Trial index.
        seed: The episode seed.
        kind: ``infrastructure`` or ``crash`` (see `FailureKind`).
        error: The exception, one line (``Type: message``).
        traceback: The formatted traceback, for crashes.
        at: Unix time of the failure.
        duration: Seconds spent on the attempt.
    """

    run_id: str
    task_id: str
    trial: int
    seed: int
    kind: FailureKind
    error: str
    traceback: str | None = None
    at: float
    duration: float

    @classmethod
    def of_episode(
        cls, record: EpisodeRecord, kind: FailureKind, error: str, duration: float
    ) -> FailureRecord:
        """A failed attempt at `record`'s (task, trial), with its seed, logged now."""
        return cls(
            run_id=record.run_id,
            task_id=record.task_id,
            trial=record.trial,
            seed=record.seed,
            kind=kind,
            error=error,
            at=time.time(),
            duration=duration,
        )


SimulationStatus = Literal["regraded", "not_regradable", "infrastructure_error"]
"""What became of an imported simulation: re-graded into an episode of the run; left out
because its conversation breaks the protocol (`ImportedSimulation.reason` says how); or left
out because the file records no conversation for it (the reference's infrastructure error)."""


class ImportRecord(_Record):
    """Where an imported run came from: a results file of the reference (``tau-env import``).

    Attributes:
        run_id: The run it created.
        source: The file, as named on the command line (made absolute).
        sha256: SHA-256 of the file's bytes (the same file is never imported twice).
        imported_at: Unix time of the import.
        timestamp: The file's own ``timestamp``, as written.
        info: The file's ``info`` object (participants, limits, seeds, versions), as written.
        changed_tasks: Ids of tasks whose copy embedded in the file differs from the data's
            (the episodes were re-graded against the data's).
        notes: What else the import had to decide (e.g. a retrieval variant tau_env lacks).
    """

    run_id: str
    source: str
    sha256: str
    imported_at: float
    timestamp: str | None = None
    info: dict[str, Any]
    changed_tasks: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


class ImportedSimulation(_Record):
    """One simulation of an imported file, with what tau_env could not re-derive from it.

    Attributes:
        run_id: The run it belongs to.
        task_id: The task.
        trial: Trial index.
        status: See `SimulationStatus`.
        reason: Why a simulation was left out (None when re-graded).
        recorded: The simulation as written in the file, without its messages: its id, times,
            costs, seed, termination and the recorded ``reward_info`` it is compared with.
        messages: The messages as written, for simulations left out (a re-graded one keeps
            its conversation in its episode).
    """

    run_id: str
    task_id: str
    trial: int
    status: SimulationStatus
    reason: str | None = None
    recorded: dict[str, Any]
    messages: list[Any] | None = None
