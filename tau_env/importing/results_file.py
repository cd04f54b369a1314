"""Reading a results file of the reference (its ``Results`` JSON), refusing what it cannot be.

The layout is the reference's data model (spec §1.3): ``{timestamp, info, tasks, simulations}``,
``info`` naming the participants, limits and seed, each simulation carrying its messages,
termination, trial, seed and recorded ``reward_info``. The models here are written from that
layout and check only what importing needs; unknown keys are ignored, as the reference ignores
them. Files in the reference's directory format (``results.json`` beside a ``simulations/``
folder of one file per simulation) are read too.

The reference's files carry no version number; what changed between its versions is the
layout, so "another schema version" is recognised by layout: a τ-bench (v1) results list, a
version field the reference never wrote, voice (full-duplex) results, or a termination reason
the reference does not have.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from tau_env.errors import TauEnvError
from tau_env.grading.outcome import TerminationReason
from tau_env.rollout.bounds import MAX_DURATION, MAX_ERRORS, MAX_STEPS, MAX_TRIALS
from tau_env.utils.strict_json import UnsafeJson, read_json

__all__ = [
    "ImportRefused",
    "ParticipantInfo",
    "RecordedRewardInfo",
    "RecordedSimulation",
    "ResultsFile",
    "read_results_file",
]


YEARS = range(1970, 2200)
"""Years a simulation's start time may fall in (no run was played before; an export must be
able to write the time back)."""


class ImportRefused(TauEnvError, ValueError):
    """A results file cannot be imported as a whole; nothing of it is written."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore")


class ParticipantInfo(_Model):
    """``info.agent_info`` / ``info.user_info``: who played a side."""

    implementation: str
    llm: str | None = None
    llm_args: dict[str, Any] | None = None


class EnvironmentInfo(_Model):
    """``info.environment_info``: the domain played."""

    domain_name: str


class Info(_Model):
    """``info``: the run's participants, limits and seed."""

    git_commit: str | None = None
    num_trials: int = Field(ge=1, le=MAX_TRIALS)
    max_steps: int = Field(ge=1, le=MAX_STEPS)
    max_errors: int = Field(ge=1, le=MAX_ERRORS)
    user_info: ParticipantInfo
    agent_info: ParticipantInfo
    environment_info: EnvironmentInfo
    seed: int | None = None
    retrieval_config: str | None = None
    retrieval_config_kwargs: dict[str, Any] | None = None
    audio_native_config: dict[str, Any] | None = None


class RecordedRewardInfo(_Model):
    """A simulation's recorded ``reward_info``: the reward and each check behind it."""

    reward: float
    reward_basis: list[str] | None = None
    reward_breakdown: dict[str, float] | None = None
    db_check: dict[str, Any] | None = None
    env_assertions: list[dict[str, Any]] | None = None
    action_checks: list[dict[str, Any]] | None = None
    nl_assertions: list[dict[str, Any]] | None = None
    communicate_checks: list[dict[str, Any]] | None = None


class RecordedSimulation(_Model):
    """One simulation as the file records it (its messages are checked one by one later)."""

    id: str
    task_id: str
    start_time: str | None = None
    duration: float = Field(default=0.0, ge=0.0, le=MAX_DURATION)
    termination_reason: str
    agent_cost: float | None = None
    user_cost: float | None = None
    reward_info: RecordedRewardInfo | None = None
    messages: list[Any] | None = None
    ticks: list[Any] | None = None
    trial: int = Field(ge=0)
    seed: int | None = None
    mode: str = "half_duplex"
    info: dict[str, Any] | None = None

    @field_validator("start_time")
    @classmethod
    def _plausible_time(cls, text: str | None) -> str | None:
        """A readable start time must fall in `YEARS` (an unreadable one is replaced)."""
        try:
            year = datetime.fromisoformat(text).year if text else None
        except ValueError:
            return text
        if year is not None and year not in YEARS:
            raise ValueError(f"a time in the years {YEARS.start} to {YEARS.stop - 1}, not {year}")
        return text


class _Results(_Model):
    timestamp: str | None = None
    info: Info
    tasks: list[dict[str, Any]]
    simulations: list[RecordedSimulation]


@dataclass(frozen=True)
class ResultsFile:
    """A results file that has the reference's layout.

    Attributes:
        path: The file (absolute).
        sha256: SHA-256 of its bytes (of every file, for the directory format).
        timestamp: The file's ``timestamp``, as written.
        info: The parsed ``info``.
        raw_info: ``info`` as written (kept with the run).
        tasks: The embedded tasks, as written.
        simulations: The parsed simulations, in file order.
        raw_simulations: The simulations as written, in the same order.
    """

    path: Path
    sha256: str
    timestamp: str | None
    info: Info
    raw_info: dict[str, Any]
    tasks: list[dict[str, Any]]
    simulations: list[RecordedSimulation]
    raw_simulations: list[dict[str, Any]]


_TERMINATIONS = frozenset(reason.value for reason in TerminationReason)
_VERSION_KEYS = ("schema_version", "version")


def read_results_file(path: str | Path) -> ResultsFile:
    """Read and check a results file of the reference.

    Args:
        path: A ``results.json`` (monolithic, or the metadata of the directory format) or the
            run folder holding it.

    Raises:
        ImportRefused: The file is missing, is not JSON, or is not a text results file of the
            reference; the message names the file and what is wrong.
    """
    file = Path(path).expanduser().resolve()
    if file.is_dir():
        file = file / "results.json"
    data, digest = _load(file)
    _check_kind(file, data)
    raw_simulations = data.get("simulations")
    folder = file.parent / "simulations"
    if raw_simulations is None and folder.is_dir():  # the directory format
        raw_simulations, digest = _load_simulations(folder, digest)
        data = {**data, "simulations": raw_simulations}
    try:
        results = _Results.model_validate(data)
    except ValidationError as error:
        raise ImportRefused(f"{file}: not a τ²-bench results file: {_first(error)}") from None
    _check_simulations(file, results.info, results.simulations)
    return ResultsFile(
        path=file,
        sha256=digest,
        timestamp=results.timestamp,
        info=results.info,
        raw_info=data["info"],
        tasks=results.tasks,
        simulations=results.simulations,
        raw_simulations=list(data["simulations"]),
    )


def _load(file: Path) -> tuple[Any, str]:
    try:
        raw = file.read_bytes()
    except OSError as error:
        raise ImportRefused(f"{file}: cannot read it: {error.strerror or error}") from None
    try:
        return read_json(raw), hashlib.sha256(raw).hexdigest()
    except UnsafeJson as error:
        raise ImportRefused(f"{file}: not JSON: {error}") from None


def _load_simulations(folder: Path, digest: str) -> tuple[list[Any], str]:
    """The directory format's simulations (one file each, in name order) and the hash of all."""
    combined = hashlib.sha256(digest.encode())
    simulations = []
    for file in sorted(folder.glob("*.json")):
        simulation, file_digest = _load(file)
        simulations.append(simulation)
        combined.update(file_digest.encode())
    return simulations, combined.hexdigest()


def _check_kind(file: Path, data: Any) -> None:
    """Refuse what is not a τ²-bench text results object, saying what it looks like instead."""
    if isinstance(data, list):
        if data and all(isinstance(item, dict) and "traj" in item for item in data):
            raise ImportRefused(
                f"{file}: a τ-bench (v1) results list, another schema: tau_env imports "
                "τ²-bench results files (an object with info, tasks and simulations)"
            )
        raise ImportRefused(
            f"{file}: not a τ²-bench results file: the top level is a list, not an object "
            "with info, tasks and simulations"
        )
    if not isinstance(data, dict):
        raise ImportRefused(
            f"{file}: not a τ²-bench results file: the top level is of type "
            f"{type(data).__name__}, not an object with info, tasks and simulations"
        )
    for key in _VERSION_KEYS:
        if key in data:
            raise ImportRefused(
                f"{file}: schema version {data[key]!r}: tau_env reads the results files of "
                "τ²-bench 0.2 to 1.0.1, which carry no version field"
            )
    info = data.get("info")
    if isinstance(info, dict) and info.get("audio_native_config") is not None:
        raise ImportRefused(
            f"{file}: voice (full-duplex) results: tau_env re-grades text conversations only"
        )


def _check_simulations(file: Path, info: Info, simulations: Sequence[RecordedSimulation]) -> None:
    seen: dict[tuple[str, int], str] = {}
    for index, simulation in enumerate(simulations):
        where = f"{file}: simulations[{index}] (task {simulation.task_id!r})"
        if simulation.termination_reason not in _TERMINATIONS:
            raise ImportRefused(
                f"{where}: termination_reason {simulation.termination_reason!r} is not one of "
                f"the reference's ({', '.join(sorted(_TERMINATIONS))}): another schema version"
            )
        if simulation.mode != "half_duplex" or simulation.ticks is not None:
            raise ImportRefused(
                f"{where}: a voice (full-duplex) simulation: tau_env re-grades text "
                "conversations only"
            )
        if simulation.trial >= info.num_trials:
            raise ImportRefused(
                f"{where}: trial {simulation.trial} is outside info.num_trials ({info.num_trials})"
            )
        key = (simulation.task_id, simulation.trial)
        if key in seen:
            raise ImportRefused(
                f"{where}: a second simulation of trial {simulation.trial} (the first is "
                f"{seen[key]!r})"
            )
        seen[key] = simulation.id


def _first(error: ValidationError) -> str:
    """The first problem pydantic found, as ``field a.b[2].c: message``."""
    first = error.errors()[0]
    location = "".join(
        f"[{part}]" if isinstance(part, int) else f".{part}" for part in first["loc"]
    ).lstrip(".")
    count = error.error_count()
    more = f" (and {count - 1} more)" if count > 1 else ""
    return f"field {location or '(top level)'}: {first['msg']}{more}"
