"""Hand-made episode and failure records for store, report and page tests."""

from typing import Any

from tau_env.store import EpisodeRecord, FailureRecord, ParticipantInfo


def episode_record(task_id: str, trial: int, reward: float | None, **fields: Any) -> EpisodeRecord:
    """An episode of run ``r`` seeded with its trial, one step long; `fields` override the rest."""
    defaults: dict[str, Any] = {
        "run_id": "r",
        "seed": trial,
        "termination": "user_stop",
        "grade": {},
        "trajectory": [],
        "steps": 1,
        "agent": ParticipantInfo(implementation="oracle"),
        "user": ParticipantInfo(implementation="scripted"),
        "started_at": 0.0,
        "duration": 1.0,
    }
    return EpisodeRecord(task_id=task_id, trial=trial, reward=reward, **(defaults | fields))


def failure_record(task_id: str, trial: int, kind: str, error: str, **fields: Any) -> FailureRecord:
    """A failure of run ``r`` with seed 1 at time 1.0; `fields` override the rest."""
    defaults: dict[str, Any] = {"run_id": "r", "seed": 1, "at": 1.0, "duration": 0.1}
    return FailureRecord(
        task_id=task_id, trial=trial, kind=kind, error=error, **(defaults | fields)
    )
