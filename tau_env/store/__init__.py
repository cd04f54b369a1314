"""The result store: every run, finished episode and failed attempt, in one SQLite file."""

from tau_env.store.opening import NotAStore
from tau_env.store.records import (
    EpisodeRecord,
    EpisodeSummary,
    FailureRecord,
    ImportedSimulation,
    ImportRecord,
    ParticipantInfo,
    RunRecord,
    TokenTurn,
    Usage,
    UserFaultFlags,
)
from tau_env.store.sqlite import ResultStore, RunExists, UnknownRun

__all__ = [
    "EpisodeRecord",
    "EpisodeSummary",
    "FailureRecord",
    "ImportRecord",
    "ImportedSimulation",
    "NotAStore",
    "ParticipantInfo",
    "ResultStore",
    "RunExists",
    "RunRecord",
    "TokenTurn",
    "UnknownRun",
    "Usage",
    "UserFaultFlags",
]
