"""`EpisodeWorker`: plays the episodes of one run and turns each into a store record.

A worker holds the run's participant factories and a pool of envs (one per episode in flight,
reused across episodes: a reset is O(1)). The local runner drives one worker from many asyncio
tasks; the Ray backend puts one worker in each actor. Either way the records go back to a
single writer, the store on the driver.
"""

from __future__ import annotations

import time
import traceback
from contextlib import AbstractAsyncContextManager
from typing import Any

from tau_env.errors import ModelAccessError
from tau_env.loader import make_env
from tau_env.messages import Side
from tau_env.participant import ParticipantFactory
from tau_env.rollout.config import RunConfig
from tau_env.rollout.episode import EpisodeAborted, PlayedEpisode, play_episode
from tau_env.rollout.failures import Fault
from tau_env.rollout.modes import apply_mode, has_user
from tau_env.rollout.participants import build_factory, participant_info
from tau_env.rollout.plan import Unit
from tau_env.rollout.provenance import domain_of
from tau_env.store.codec import UnstorableRecord, read_record, record_json, unstorable_failure
from tau_env.store.records import (
    EpisodeRecord,
    FailureRecord,
    ParticipantInfo,
    UserFaultFlags,
    token_turns,
)

__all__ = ["EpisodeWorker", "Outcome", "decode_outcome", "encode_outcome", "run_env"]

Outcome = EpisodeRecord | FailureRecord
"""What one attempt at a unit yields: a finished episode, or a logged failure."""


def encode_outcome(outcome: Outcome) -> tuple[str, str]:
    """(``"episode"`` or ``"failure"``, the record's JSON), for a worker in another process.

    An episode that has no JSON form becomes the failed attempt that says why
    (`tau_env.store.codec.unstorable_failure`), so one bad episode never stops a worker.
    """
    if isinstance(outcome, EpisodeRecord):
        try:
            return "episode", record_json(outcome)
        except UnstorableRecord as error:
            outcome = unstorable_failure(outcome, error)
    return "failure", record_json(outcome)


def decode_outcome(kind: str, body: str) -> Outcome:
    """The outcome `encode_outcome` encoded."""
    if kind == "episode":
        return read_record(EpisodeRecord, body)
    return read_record(FailureRecord, body)


class EpisodeWorker:
    """Plays units of one run.

    Args:
        config: The run.
        versions: Versions to stamp on every episode record.
        gate: Entered around every awaited participant decision (a model-call limit).

    Raises:
        TauEnvError: A participant spec or the mode cannot be built (checked up front, so a
            bad run fails before its first episode).
    """

    def __init__(
        self,
        config: RunConfig,
        versions: dict[str, str],
        gate: AbstractAsyncContextManager[Any] | None = None,
    ) -> None:
        self.config = config
        self.versions = versions
        self.gate = gate
        domain = domain_of(config)
        with_user = has_user(config.mode)
        self.factories: dict[Side, ParticipantFactory] = {
            "agent": build_factory("agent", config.agent, domain, with_user=with_user),
        }
        if with_user:
            self.factories["user"] = build_factory("user", config.user, domain)
        self._free: list[Any] = [self._new_env()]

    def _new_env(self) -> Any:
        return run_env(self.config)

    async def play(self, unit: Unit) -> Outcome:
        """Play one unit; a fault inside the episode becomes a record.

        Raises:
            ModelAccessError: A model's provider refused the key or does not know the model:
                no episode of the run can succeed, so the run must stop (nothing recorded).
        """
        env = self._free.pop() if self._free else self._new_env()
        started = time.time()
        try:
            played = await play_episode(
                env, self.factories, task_id=unit.task_id, seed=unit.seed, gate=self.gate
            )
        except EpisodeAborted as aborted:
            if isinstance(aborted.error, ModelAccessError):
                raise aborted.error from None
            return self._failure(unit, aborted, started)
        finally:
            self._free.append(env)
        try:
            return self._episode(unit, played, started)
        except Exception as error:  # a value in the trajectory that no record can hold
            return self._failure(unit, EpisodeAborted(Fault.CRASH, error), started)

    def _episode(self, unit: Unit, played: PlayedEpisode, started: float) -> EpisodeRecord:
        config = self.config
        return EpisodeRecord(
            run_id=config.run_id,
            task_id=unit.task_id,
            trial=unit.trial,
            seed=unit.seed,
            reward=played.grade.reward,
            termination=played.termination,
            grade=played.grade.model_dump(mode="json"),
            trajectory=[m.model_dump(mode="json", exclude_none=True) for m in played.trajectory],
            steps=played.steps,
            agent=participant_info(played.players["agent"], config.agent, unit.seed),
            user=(
                participant_info(played.players["user"], config.user, unit.seed)
                if "user" in played.players
                else ParticipantInfo(implementation="none")
            ),
            started_at=started,
            duration=time.time() - started,
            versions=self.versions,
            note=played.note,
            user_faults=UserFaultFlags(**played.user_faults.to_dict()),
            agent_tokens=token_turns(_turn_tokens(played.players["agent"])),
        )

    def _failure(self, unit: Unit, aborted: EpisodeAborted, started: float) -> FailureRecord:
        error = aborted.error
        crash = aborted.fault is Fault.CRASH
        return FailureRecord(
            run_id=self.config.run_id,
            task_id=unit.task_id,
            trial=unit.trial,
            seed=unit.seed,
            kind="crash" if crash else "infrastructure",
            error=f"{type(error).__name__}: {error}",
            traceback="".join(traceback.format_exception(error)) if crash else None,
            at=time.time(),
            duration=time.time() - started,
        )


def run_env(config: RunConfig) -> Any:
    """A fresh env stack of the run: its domain, data, limits and mode, as its episodes play."""
    env = make_env(
        config.domain,
        data_dir=config.data_dir,
        retrieval=config.retrieval,
        retrieval_options=config.retrieval_options,
        split=config.split,
        max_steps=config.max_steps,
        max_errors=config.max_errors,
    )
    return apply_mode(env, config.mode)


def _turn_tokens(participant: Any) -> list[dict[str, list[Any]]]:
    """The exact tokens a participant reports per model call (``turn_tokens``), if any."""
    turns = getattr(participant, "turn_tokens", None)
    return list(turns) if isinstance(turns, list) else []
