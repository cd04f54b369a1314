"""Playing a task set with every probe and the oracle, against the scripted user.

Each (task, player) is one episode with seed 0, graded as the env grades it (the official
reward; the strict reading beside it when asked). The probes and the scripted user never read
the task's grading data; the oracle follows the gold plan (it is the upper bound, named so);
the audit reads the criteria only through the grader.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tau_env.audit.report import ORACLE, AuditReport, TaskAudit
from tau_env.audit.shared import shared_audit
from tau_env.baselines.oracle import OracleAgent
from tau_env.baselines.probes import probe_factories
from tau_env.episode_runner import run_episode
from tau_env.grading.nl_assertions import Judge, judge_name
from tau_env.grading.strict import Grading, check_grading
from tau_env.loader import make_env
from tau_env.participant import ParticipantFactory
from tau_env.wrappers.users import ScriptedUser

__all__ = ["USER_SEED", "audit"]

USER_SEED = 0
"""Seed of the scripted user's style and of every episode, unless the audit is given seeds."""


def audit(
    domain: str,
    *,
    data_dir: str | Path | None = None,
    split: str | None = None,
    task_ids: Sequence[str] | None = None,
    retrieval: str | None = None,
    retrieval_options: Mapping[str, Any] | None = None,
    judge: Judge | None = None,
    grading: Grading = "official",
    probes: Sequence[str] | None = None,
    on_task: Callable[[int, int], None] | None = None,
    seeds: Sequence[int] = (USER_SEED,),
    workers: int = 1,
) -> AuditReport:
    """Play every task of a set with each probe and the oracle, and report who passes.

    Args:
        domain: Domain name or versioned id.
        data_dir: A reference data folder (None: the built-in data).
        split: The split (None: the default one).
        task_ids: Only these tasks (None: the whole split).
        retrieval: Retrieval variant (banking_knowledge).
        retrieval_options: Settings of the variant.
        judge: Rules on NL assertions (None: tasks graded on them are not judged, never
            passed).
        grading: ``"strict"`` also reads every grade strictly (`tau_env.grading.strict`).
        probes: The probes to play (None: every one, `tau_env.baselines.probes.PROBE_NAMES`).
        on_task: Called with (tasks done, tasks in all) after each task (progress display).
        seeds: Each (task, player) is played once per seed (the episode's and the scripted
            user's). A probe passes a task when it passes under some seed (a shortcut that
            works once counts); the oracle only when it passes under every seed.
        workers: Processes sharing the tasks (1: this one). Every episode is seeded on its
            own, so the report is the same; `on_task` is then called as each process's share
            ends.

    Raises:
        KeyError: An unknown task id or probe name.
        ValueError: No seed.
    """
    grading = check_grading(grading)
    seeds = tuple(seeds)
    if not seeds:
        raise ValueError("an audit needs at least one seed")
    env = make_env(
        domain,
        data_dir=data_dir,
        split=split,
        retrieval=retrieval,
        retrieval_options=retrieval_options,
        judge=judge,
        grading=grading,
    )
    bare = env.unwrapped
    loaded = bare.domain
    tasks = [loaded.task(task_id) for task_id in task_ids] if task_ids else list(bare.tasks)
    available = probe_factories(loaded)
    names = list(probes) if probes is not None else list(available)
    unknown = [name for name in names if name not in available]
    if unknown:
        raise KeyError(f"no probe {unknown[0]!r}; probes: {', '.join(available)}")
    players: dict[str, ParticipantFactory] = {name: available[name] for name in names}
    players[ORACLE] = OracleAgent
    users = {seed: ScriptedUser.factory(loaded, seed=seed) for seed in seeds}
    grader = bare.grader
    audited: list[TaskAudit] = []
    if workers > 1 and len(tasks) > 1:
        options = {
            "domain": domain,
            "data_dir": data_dir,
            "split": split,
            "retrieval": retrieval,
            "retrieval_options": retrieval_options,
            "judge": judge,
            "grading": grading,
            "probes": names,
            "seeds": seeds,
        }
        audited = shared_audit(audit, options, [task.id for task in tasks], workers, on_task)
        tasks = []
    for number, task in enumerate(tasks, 1):
        passed: dict[str, bool | None] = {}
        strict: dict[str, bool | None] = {}
        for name, player in players.items():
            official: list[bool | None] = []
            stricter: list[bool | None] = []
            for seed, user in users.items():
                grade = run_episode(env, player, user, task_id=task.id, seed=seed).grade
                official.append(grade.success if grade.reward is not None else None)
                if grading == "strict":
                    reading = grader.strict_reading(grade, task)
                    stricter.append(reading.success if reading.reward is not None else None)
            passed[name] = _over_seeds(official, oracle=name == ORACLE)
            if grading == "strict":
                strict[name] = _over_seeds(stricter, oracle=name == ORACLE)
        audited.append(
            TaskAudit(
                task_id=task.id, passed=passed, strict=strict if grading == "strict" else None
            )
        )
        if on_task is not None:
            on_task(number, len(tasks))
    return AuditReport(
        domain=loaded.name,
        env_id=loaded.env_id,
        data=loaded.data.source,
        split=split,
        grading=grading,
        judge=judge_name(judge),
        user=f"scripted user (seed{'s' if len(seeds) > 1 else ''} {', '.join(map(str, seeds))})",
        players=list(players),
        tasks=audited,
        seeds=list(seeds),
    )


def _over_seeds(outcomes: Sequence[bool | None], *, oracle: bool) -> bool | None:
    """One outcome from a player's outcomes under each seed.

    A probe passes when it passes under some seed; the oracle when it passes under every one.
    None (not judged) only when no seed decides it.
    """
    deciding = not oracle  # a failing seed fails the oracle; a passing one passes
    if deciding in outcomes:  # a probe
        return deciding
    return None if None in outcomes else not deciding
