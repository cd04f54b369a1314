"""Agreement of tau_env's grades with the rewards a results file recorded, check by check.

For each re-graded simulation, the reward and each component of the reward basis (the
``reward_breakdown`` the reference records: DB, ENV_ASSERTION, ACTION, COMMUNICATE,
NL_ASSERTION) is **same**, **differs**, or **not comparable** when either side has no value:
the file recorded none (a premature ending has no breakdown; an infrastructure error no
reward), or tau_env has none (NL assertions that no judge ruled on). Values are the same when
they are within 1e-6, the reference's tolerance for a success.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from tau_env.store.records import EpisodeRecord, ImportedSimulation

__all__ = ["COMPONENTS", "Agreement", "Verdict", "agreement_of", "compare"]

Verdict = Literal["same", "differs", "not comparable"]

COMPONENTS = ("reward", "DB", "ENV_ASSERTION", "ACTION", "COMMUNICATE", "NL_ASSERTION")
"""What is compared: the reward, then each reward-basis component."""

_LISTS = {
    "ENV_ASSERTION": ("env_assertions", "met"),
    "ACTION": ("action_checks", "action_match"),
    "COMMUNICATE": ("communicate_checks", "met"),
    "NL_ASSERTION": ("nl_assertions", "met"),
}


def _recorded(reward_info: Mapping[str, Any] | None) -> dict[str, float]:
    """The recorded reward and breakdown (the breakdown derived from the checks if absent)."""
    if not reward_info:
        return {}
    values = {"reward": float(reward_info["reward"])}
    breakdown = reward_info.get("reward_breakdown")
    basis = reward_info.get("reward_basis")
    if breakdown is not None:
        values.update({name: float(value) for name, value in breakdown.items()})
    elif basis:  # older files: derive each basis component from its checks
        for name in basis:
            value = _derived(reward_info, name)
            if value is not None:
                values[name] = value
    return values


def _derived(reward_info: Mapping[str, Any], component: str) -> float | None:
    if component == "DB":
        check = reward_info.get("db_check")
        return None if check is None else float(check["db_reward"])
    key, flag = _LISTS.get(component, (None, None))
    checks = reward_info.get(key) if key else None
    if checks is None or flag is None:
        return None
    return 1.0 if all(check.get(flag) for check in checks) else 0.0


def _regraded(grade: Mapping[str, Any]) -> dict[str, float]:
    values: dict[str, float] = {}
    if grade.get("reward") is not None:
        values["reward"] = float(grade["reward"])
    values.update({name: float(value) for name, value in (grade.get("breakdown") or {}).items()})
    return values


def compare(reward_info: Mapping[str, Any] | None, grade: Mapping[str, Any]) -> dict[str, Verdict]:
    """Component -> verdict, for one simulation's recorded reward info and tau_env's grade."""
    recorded, regraded = _recorded(reward_info), _regraded(grade)
    verdicts: dict[str, Verdict] = {}
    for component in COMPONENTS:
        left, right = recorded.get(component), regraded.get(component)
        if left is None or right is None:
            verdicts[component] = "not comparable"
        else:
            verdicts[component] = "same" if abs(left - right) <= 1e-6 else "differs"
    return verdicts


@dataclass(frozen=True)
class Difference:
    """One component of one simulation on which tau_env and the file disagree."""

    task_id: str
    trial: int
    component: str
    recorded: float
    regraded: float


@dataclass
class Agreement:
    """Counts per component, and every difference.

    Attributes:
        counts: component -> verdict -> simulations.
        differences: Each disagreement, by task then trial.
        regraded: Simulations compared.
    """

    counts: dict[str, dict[Verdict, int]] = field(
        default_factory=lambda: {
            name: {"same": 0, "differs": 0, "not comparable": 0} for name in COMPONENTS
        }
    )
    differences: list[Difference] = field(default_factory=list)
    regraded: int = 0

    def add(self, task_id: str, trial: int, reward_info: Any, grade: Mapping[str, Any]) -> None:
        """Count one simulation."""
        self.regraded += 1
        recorded, regraded = _recorded(reward_info), _regraded(grade)
        for component, verdict in compare(reward_info, grade).items():
            self.counts[component][verdict] += 1
            if verdict == "differs":
                self.differences.append(
                    Difference(task_id, trial, component, recorded[component], regraded[component])
                )

    def differing_tasks(self, component: str) -> dict[str, list[int]]:
        """Task -> its trials on which `component` differs."""
        tasks: dict[str, list[int]] = {}
        for difference in self.differences:
            if difference.component == component:
                tasks.setdefault(difference.task_id, []).append(difference.trial)
        return tasks

    def to_json(self) -> dict[str, Any]:
        """The counts and differences as JSON-ready data."""
        return {
            "regraded": self.regraded,
            "counts": self.counts,
            "differences": [
                {
                    "task_id": d.task_id,
                    "trial": d.trial,
                    "component": d.component,
                    "recorded": d.recorded,
                    "regraded": d.regraded,
                }
                for d in self.differences
            ],
        }


def agreement_of(
    episodes: Iterable[EpisodeRecord], simulations: Iterable[ImportedSimulation]
) -> Agreement:
    """The agreement of an imported run's episodes with what its file recorded."""
    recorded = {
        (s.task_id, s.trial): s.recorded.get("reward_info")
        for s in simulations
        if s.status == "regraded"
    }
    agreement = Agreement()
    for episode in episodes:
        key = (episode.task_id, episode.trial)
        if key in recorded:
            agreement.add(episode.task_id, episode.trial, recorded[key], episode.grade)
    return agreement
