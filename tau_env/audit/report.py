"""What an audit found: per task, which players pass; per player, its pass rate.

A *player* is one of the probes (`tau_env.baselines.probes`) or the oracle, which follows the
task's gold plan and is named so. A task that a probe passes can be passed without doing its
work; the tasks that only the oracle passes are the ones whose grade requires it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from tau_env.grading.strict import Grading

__all__ = ["ORACLE", "ORACLE_LABEL", "AuditReport", "PlayerRate", "TaskAudit", "render_text"]

ORACLE = "oracle"
"""The player that follows each task's gold plan (it reads the plan: an upper bound)."""

ORACLE_LABEL = "oracle (gold plan)"
"""How reports name `ORACLE`."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TaskAudit(_Model):
    """One task's outcomes.

    Attributes:
        task_id: The task.
        passed: Player -> True (reward 1), False, or None (not judged: NL assertions without
            a judge), under the official grading.
        strict: The same under the strict reading (None when the audit did not ask for it).
    """

    task_id: str
    passed: dict[str, bool | None]
    strict: dict[str, bool | None] | None = None


class PlayerRate(_Model):
    """A player's pass rate over the audited tasks that could be judged.

    Attributes:
        player: Probe name or `ORACLE`.
        passed: Tasks it passed.
        judged: Tasks with a reward (not-judged tasks are left out, never counted as passes).
        tasks: Every audited task.
    """

    player: str
    passed: int
    judged: int
    tasks: int

    @property
    def rate(self) -> float | None:
        """``passed / judged`` (None when no task could be judged)."""
        return self.passed / self.judged if self.judged else None


class AuditReport(_Model):
    """The audit of one domain's task set.

    Attributes:
        domain: The domain's name.
        env_id: Its versioned id.
        data: ``built-in`` or the data folder.
        split: The split audited (None: the default one).
        grading: ``official``, or ``strict`` (then each task also has its strict outcomes).
        judge: The judge of NL assertions, if any.
        user: The user side (the scripted user, its seeds).
        players: The probes, then `ORACLE`.
        tasks: Per task, in task order.
        seeds: The seeds each (task, player) was played with (`tau_env.audit.audit`).
    """

    domain: str
    env_id: str
    data: str
    split: str | None
    grading: Grading
    judge: str | None = None
    user: str
    players: list[str]
    tasks: list[TaskAudit] = Field(default_factory=list)
    seeds: list[int] = Field(default_factory=lambda: [0])

    @model_validator(mode="after")
    def _strict_outcomes_iff_strict(self) -> AuditReport:
        strict = self.grading == "strict"
        for task in self.tasks:
            if (task.strict is not None) != strict:
                raise ValueError(
                    f"task {task.task_id!r}: strict outcomes are required exactly when the "
                    f"grading is strict (grading {self.grading!r})"
                )
        return self

    @property
    def probes(self) -> list[str]:
        """The players that are not the oracle."""
        return [player for player in self.players if player != ORACLE]

    def _outcomes(self, task: TaskAudit, strict: bool) -> dict[str, bool | None]:
        if not strict:
            return task.passed
        if task.strict is None:
            raise ValueError("this audit has no strict reading (audit with grading='strict')")
        return task.strict

    def rates(self, *, strict: bool = False) -> list[PlayerRate]:
        """Every player's pass rate, in `players` order."""
        rates = []
        for player in self.players:
            outcomes = [self._outcomes(task, strict).get(player) for task in self.tasks]
            rates.append(
                PlayerRate(
                    player=player,
                    passed=sum(1 for o in outcomes if o is True),
                    judged=sum(1 for o in outcomes if o is not None),
                    tasks=len(self.tasks),
                )
            )
        return rates

    def rate(self, player: str, *, strict: bool = False) -> float | None:
        """One player's pass rate (None when no task could be judged)."""
        for rate in self.rates(strict=strict):
            if rate.player == player:
                return rate.rate
        raise KeyError(f"no player {player!r} in this audit; players: {self.players}")

    def passed_by_probes(self, *, strict: bool = False) -> dict[str, list[str]]:
        """Task id -> the probes that pass it, for every task at least one probe passes."""
        found = {}
        for task in self.tasks:
            outcomes = self._outcomes(task, strict)
            passing = [probe for probe in self.probes if outcomes.get(probe) is True]
            if passing:
                found[task.task_id] = passing
        return found

    def only_oracle(self, *, strict: bool = False) -> list[str]:
        """The tasks the oracle passes and no probe does: their grade requires the work."""
        return [
            task.task_id
            for task in self.tasks
            if self._outcomes(task, strict).get(ORACLE) is True
            and not any(self._outcomes(task, strict).get(p) is True for p in self.probes)
        ]

    def oracle_failures(self, *, strict: bool = False) -> list[str]:
        """Tasks the oracle does not pass (None outcomes aside): a broken task or grader."""
        return [
            task.task_id for task in self.tasks if self._outcomes(task, strict).get(ORACLE) is False
        ]

    def summary(self) -> dict[str, Any]:
        """The report as JSON-ready data, with the rates and task lists worked out."""
        readings = ["official", "strict"] if self.grading == "strict" else ["official"]
        data = self.model_dump(mode="json")
        for reading in readings:
            strict = reading == "strict"
            data[reading] = {
                "rates": {
                    r.player: {"rate": r.rate, "passed": r.passed, "judged": r.judged}
                    for r in self.rates(strict=strict)
                },
                "passed_by_probes": self.passed_by_probes(strict=strict),
                "only_oracle": self.only_oracle(strict=strict),
                "oracle_failures": self.oracle_failures(strict=strict),
            }
        return data


def _label(player: str) -> str:
    return ORACLE_LABEL if player == ORACLE else player


def _rate_cell(rate: PlayerRate) -> str:
    if rate.rate is None:
        return "n/a (none judged)"
    cell = f"{rate.rate:.3f} ({rate.passed}/{rate.judged})"
    if rate.judged < rate.tasks:
        cell += f", {rate.tasks - rate.judged} not judged"
    return cell


def render_text(report: AuditReport) -> str:
    """The audit as plain text: the rates table, then the tasks probes pass."""
    strict = report.grading == "strict"
    split = report.split or "default"
    judge = f", judge {report.judge}" if report.judge else ""
    lines = [
        f"audit of {report.domain} ({report.data}, split {split}, {len(report.tasks)} tasks), "
        f"{report.user}, {report.grading} grading{judge}",
    ]
    width = max(len(_label(p)) for p in report.players) + 2
    official = report.rates()
    head = f"{'player':<{width}}{'official pass rate':<30}"
    lines.append((head + ("strict pass rate" if strict else "")).rstrip())
    stricter = report.rates(strict=True) if strict else [None] * len(official)
    for rate, strict_rate in zip(official, stricter, strict=True):
        row = f"{_label(rate.player):<{width}}{_rate_cell(rate):<30}"
        if strict_rate is not None:
            row += _rate_cell(strict_rate)
        lines.append(row.rstrip())
    for reading in ("official", "strict") if strict else ("official",):
        is_strict = reading == "strict"
        passed = report.passed_by_probes(strict=is_strict)
        lines.append("")
        lines.append(f"{reading}: tasks a probe passes ({len(passed)} of {len(report.tasks)}):")
        groups: dict[tuple[str, ...], list[str]] = {}
        for task_id, probes in passed.items():
            groups.setdefault(tuple(probes), []).append(task_id)
        for group, task_ids in groups.items():
            lines.append(f"  {', '.join(group)} ({len(task_ids)}): {', '.join(task_ids)}")
        failures = report.oracle_failures(strict=is_strict)
        if failures:
            lines.append(
                f"{reading}: tasks the oracle fails ({len(failures)}): {', '.join(failures)}"
            )
        only = report.only_oracle(strict=is_strict)
        lines.append(f"{reading}: {len(only)}/{len(report.tasks)} tasks only the oracle passes")
    return "\n".join(lines)
