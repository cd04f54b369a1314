"""Hand-made episode records for store, report and page tests."""

from typing import Any

from tau_env.store import EpisodeRecord, ParticipantInfo


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
