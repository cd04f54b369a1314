"""pass^k reports of stored runs: per task, per run (one domain each), with a coverage check.

pass^k is reported only when every task of the run has all of its planned trials. A run with
missing episodes (killed, or attempts that hit infrastructure errors) raises `IncompleteRun`,
which says how many are missing and how to resume; it never averages over what happens to be
there. Failed attempts are reported apart and never counted as passes or fails.

Episodes that wait for a judge (NL assertions not judged) have no reward: they are never
passes, and pass^k leaves them out (each task counting its graded trials), with their count
in the report (`RunReport.not_judged`) so the figure is never mistaken for the whole run's.

A run imported from a results file (``tau-env import``) cannot be resumed: tau_env does not
replay its participants. Its simulations that the file records as infrastructure errors, that
break the protocol, or that the file lacks are left out of pass^k as the reference leaves out
infrastructure errors (each task counting the trials it has), and the report lists them with
the reason (`RunReport.left_out`).

A run made with ``grading="strict"`` also gets the strict reading of every stored grade
(`RunReport.strict`, `tau_env.grading.strict`), computed the same way, beside the official
figures and never instead of them.

Episodes the simulated user spoiled (`tau_env.user_faults`: empty turns, an early stop, its
instructions read out) are counted (`RunReport.user_faults`); ``without_user_faults=True``
leaves them out of pass^k and the average the same way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tau_env.grading.strict import read_strictly
from tau_env.metrics import (
    CoverageError,
    is_success,
    pass_hat_k_curve,
    pass_hat_k_excluding,
    task_pass_hat_k,
)
from tau_env.rollout.config import RunConfig
from tau_env.rollout.preflight import run_resume_command
from tau_env.rollout.provenance import (
    data_source,
    domain_of,
    recorded_task_set,
    retrieval_variant,
)
from tau_env.rollout.task_set import TaskSet
from tau_env.store.records import EpisodeSummary, Usage
from tau_env.store.sqlite import ResultStore
from tau_env.utils.wording import counted

__all__ = ["IncompleteRun", "RunReport", "StrictResults", "TaskResult", "run_report"]


class IncompleteRun(CoverageError):
    """A run lacks episodes, so its tasks have unequal trial counts and pass^k is undefined."""


@dataclass(frozen=True)
class TaskResult:
    """One task's trials.

    Attributes:
        task_id: The task.
        rewards: Rewards by trial index (None: the trial waits for a judge).
        pass_hat_k: k -> C(successes, k) / C(graded trials, k), for k up to the graded trials.
        trials: The trial index of each reward (empty: 0, 1, 2...); an imported run may lack
            some (`RunReport.left_out`).
    """

    task_id: str
    rewards: list[float | None]
    pass_hat_k: dict[int, float]
    trials: tuple[int, ...] = ()

    @property
    def trial_indices(self) -> tuple[int, ...]:
        """The trial index of each reward."""
        return self.trials or tuple(range(len(self.rewards)))

    @property
    def successes(self) -> int:
        """Trials with reward 1."""
        return sum(reward is not None and is_success(reward) for reward in self.rewards)

    @property
    def graded(self) -> int:
        """Trials with a reward (not waiting for a judge)."""
        return sum(reward is not None for reward in self.rewards)


@dataclass(frozen=True)
class StrictResults:
    """A run's figures under the strict reading (reported beside the official ones).

    Attributes:
        tasks: Per task, the strict rewards by trial (None: a check of the strict basis
            was not judged, such as NL assertions the run's judge has not ruled on yet).
        pass_hat_k: k -> pass^k over the strict rewards (the not-judged ones left out).
        not_judged: Episodes without a strict reward.
    """

    tasks: list[TaskResult]
    pass_hat_k: dict[int, float]
    not_judged: int

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "pass_hat_k": {str(k): value for k, value in self.pass_hat_k.items()},
            "not_judged": self.not_judged,
            "tasks": [
                {"task_id": task.task_id, "rewards": task.rewards, "successes": task.successes}
                for task in self.tasks
            ],
        }


@dataclass(frozen=True)
class RunReport:
    """The results of one complete run.

    Attributes:
        run_id: The run.
        domain: Its domain.
        config: Its configuration.
        tasks: Per-task results, in the run's task order.
        pass_hat_k: k -> mean over tasks of the task's pass^k (the domain's figure), over the
            graded episodes only when some wait for a judge.
        terminations: Termination reason -> episode count.
        failed_attempts: Failed attempts: attempts that produced no episode (all retried and
            since completed) and judge failures.
        not_judged: Episodes without reward because their NL assertions wait for a judge;
            left out of pass^k and the average reward.
        judge_calls_saved: Episodes whose NL assertions no judge was asked about, because
            another component of their reward was already 0.
        judge: The run's NL-assertion judge (a model name), if it has one.
        agent_usage: Summed agent usage (cost None when any call's price was unknown).
        user_usage: Summed user usage.
        task_set: The task set the run played (data folder, content hash, task count).
        left_out: Imported runs: (task, trial) -> why the file's simulation of it has no
            episode (left out of pass^k).
        unrecorded: Imported runs: planned (task, trial) pairs the file holds no simulation
            of (left out of pass^k too).
        imported_from: Imported runs: the results file.
        strict: The strict reading's figures, for a run with ``grading="strict"`` (None
            otherwise).
        user_faults: Episodes with each user-fault flag (``empty_turns``, ``early_stop``,
            ``instruction_leak``, ``program_speech``) and with any (``episodes``).
        without_user_faults: True when those episodes are left out of pass^k and the average.
        token_turns: Agent turns stored with their exact tokens (``--agent-tokens``).
        retokenized_turns: Of those, turns whose prompt does not extend the previous turn's
            ids (flagged ``retokenized``: re-tokenization drift).
    """

    run_id: str
    domain: str
    config: RunConfig
    tasks: list[TaskResult]
    pass_hat_k: dict[int, float]
    terminations: dict[str, int]
    failed_attempts: int
    not_judged: int
    agent_usage: Usage
    user_usage: Usage
    seconds: float = field(default=0.0)
    judge: str | None = None
    judge_calls_saved: int = 0
    task_set: TaskSet | None = None
    left_out: dict[tuple[str, int], str] = field(default_factory=dict)
    unrecorded: int = 0
    imported_from: str | None = None
    strict: StrictResults | None = None
    user_faults: dict[str, int] = field(default_factory=dict)
    without_user_faults: bool = False
    token_turns: int = 0
    retokenized_turns: int = 0

    @property
    def retrieval(self) -> str | None:
        """The run's retrieval variant (None: the domain has no knowledge base)."""
        return retrieval_variant(self.config)

    @property
    def data(self) -> str:
        """``"official"``, ``"generated"`` or ``"built-in"``: the data the run played."""
        return data_source(self.config)

    @property
    def judged_tasks(self) -> int:
        """Tasks with at least one graded episode: those pass^k is computed over."""
        return sum(any(reward is not None for reward in task.rewards) for task in self.tasks)

    @property
    def average_reward(self) -> float | None:
        """Mean reward over the graded episodes (None when none is graded)."""
        rewards = [r for task in self.tasks for r in task.rewards if r is not None]
        return sum(rewards) / len(rewards) if rewards else None

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        return {
            "run_id": self.run_id,
            "domain": self.domain,
            "agent": self.config.agent.model_dump(mode="json"),
            "user": self.config.user.model_dump(mode="json"),
            "mode": self.config.mode,
            "retrieval": self.retrieval,
            "retrieval_options": self.config.retrieval_options,
            "data": self.data,
            "data_dir": self.config.data_dir,
            "trials": self.config.trials,
            "episodes": sum(len(task.rewards) for task in self.tasks),
            "average_reward": self.average_reward,
            "pass_hat_k": {str(k): value for k, value in self.pass_hat_k.items()},
            "terminations": self.terminations,
            "failed_attempts": self.failed_attempts,
            "not_judged": self.not_judged,
            "judged_tasks": self.judged_tasks,
            "judge": self.judge,
            "judge_calls_saved": self.judge_calls_saved,
            "grading": self.config.grading,
            **({"strict": self.strict.to_json()} if self.strict is not None else {}),
            "user_faults": self.user_faults,
            "without_user_faults": self.without_user_faults,
            "agent_tokens": {"turns": self.token_turns, "retokenized": self.retokenized_turns},
            "usage": {
                "agent": self.agent_usage.model_dump(),
                "user": self.user_usage.model_dump(),
            },
            "episode_seconds": self.seconds,
            "task_set": None if self.task_set is None else self.task_set.to_json(),
            "imported_from": self.imported_from,
            "left_out": [
                {"task_id": task_id, "trial": trial, "reason": reason}
                for (task_id, trial), reason in sorted(self.left_out.items())
            ],
            "unrecorded": self.unrecorded,
            "tasks": [
                {
                    "task_id": task.task_id,
                    "trials": list(task.trial_indices),
                    "rewards": task.rewards,
                    "successes": task.successes,
                    "pass_hat_k": {str(k): value for k, value in task.pass_hat_k.items()},
                }
                for task in self.tasks
            ],
        }


def run_report(
    store: ResultStore, run_id: str | None = None, *, without_user_faults: bool = False
) -> RunReport:
    """The pass^k report of a stored run (None: the latest run).

    Args:
        store: The result store.
        run_id: The run (None: the latest).
        without_user_faults: Leave episodes with a user-fault flag out of pass^k and the
            average (each task counting its other trials).

    Raises:
        UnknownRun: No such run.
        IncompleteRun: Some (task, trial) has no episode; the message gives the count, the
            outstanding failures and the resume command.
    """
    record = store.run(run_id)
    config = RunConfig.model_validate(record.config)
    summaries = store.summaries(record.run_id)
    by_task: dict[str, dict[int, float | None]] = {task_id: {} for task_id in config.task_ids}
    for summary in summaries:
        by_task.setdefault(summary.task_id, {})[summary.trial] = summary.reward
    imported = store.import_of(record.run_id)
    left_out: dict[tuple[str, int], str] = {}
    unrecorded = 0
    if imported is None:
        _check_complete(store, config, by_task)
    else:
        left_out = _left_out(store, config)
        unrecorded = _unrecorded(config, by_task, left_out)
    not_judged = sum(summary.reward is None for summary in summaries)
    spoiled = [s for s in summaries if s.user_faults.any] if without_user_faults else []
    for summary in spoiled:
        by_task[summary.task_id][summary.trial] = None
    curve = _curve(by_task, partial=bool(not_judged or left_out or unrecorded or spoiled))
    tasks = [_task_result(task_id, by_task[task_id]) for task_id in config.task_ids]
    strict = None
    if config.grading == "strict":
        skipped = {(spoilt.task_id, spoilt.trial) for spoilt in spoiled}
        partial = bool(left_out or unrecorded or spoiled)
        strict = _strict_results(store, config, skipped, partial=partial)
    return RunReport(
        run_id=record.run_id,
        domain=record.domain,
        config=config,
        tasks=tasks,
        pass_hat_k=curve,
        terminations=dict(Counter(summary.termination for summary in summaries)),
        failed_attempts=len(store.failures(record.run_id)),
        not_judged=not_judged,
        agent_usage=_total(summary.agent_usage for summary in summaries),
        user_usage=_total(summary.user_usage for summary in summaries),
        seconds=sum(summary.duration for summary in summaries),
        judge=config.judge.model if config.judge is not None else None,
        judge_calls_saved=sum(summary.judge_call_saved for summary in summaries),
        task_set=recorded_task_set(record),
        left_out=left_out,
        unrecorded=unrecorded,
        imported_from=None if imported is None else imported.source,
        strict=strict,
        user_faults=_fault_counts(summaries),
        without_user_faults=without_user_faults,
        token_turns=sum(summary.token_turns for summary in summaries),
        retokenized_turns=sum(summary.retokenized_turns for summary in summaries),
    )


def _fault_counts(summaries: Iterable[EpisodeSummary]) -> dict[str, int]:
    counts = Counter[str]()
    for summary in summaries:
        faults = summary.user_faults
        counts["episodes"] += faults.any
        counts["empty_turns"] += bool(faults.empty_turns)
        counts["early_stop"] += faults.early_stop
        counts["instruction_leak"] += faults.instruction_leak
        counts["program_speech"] += faults.program_speech
    names = ("episodes", "empty_turns", "early_stop", "instruction_leak", "program_speech")
    return {name: counts[name] for name in names}


def _strict_results(
    store: ResultStore, config: RunConfig, skipped: set[tuple[str, int]], *, partial: bool
) -> StrictResults:
    """The strict reading of every stored grade of a run (`skipped` episodes left out)."""
    domain = domain_of(config)
    judged = config.judge is not None
    by_task: dict[str, dict[int, float | None]] = {task_id: {} for task_id in config.task_ids}
    not_judged = 0
    for record in store.episodes(config.run_id):
        reading = read_strictly(record.grade, domain.task(record.task_id), judged=judged)
        not_judged += reading.reward is None
        left = (record.task_id, record.trial) in skipped
        by_task.setdefault(record.task_id, {})[record.trial] = None if left else reading.reward
    curve = _curve(by_task, partial=bool(not_judged or partial or skipped))
    tasks = [_task_result(task_id, by_task[task_id]) for task_id in config.task_ids]
    return StrictResults(tasks=tasks, pass_hat_k=curve, not_judged=not_judged)


def _curve(by_task: dict[str, dict[int, float | None]], *, partial: bool) -> dict[int, float]:
    """pass^k over the rewards by task and trial.

    `partial`: some episodes are left out (None: not judged, not imported, or set aside), so
    each task's estimate uses only the rewards it has (`pass_hat_k_excluding`).
    """
    rewards = {task: [trials[k] for k in sorted(trials)] for task, trials in by_task.items()}
    if partial:
        return pass_hat_k_excluding(rewards)
    return pass_hat_k_curve(
        {task: [r for r in trials if r is not None] for task, trials in rewards.items()}
    )


def _task_result(task_id: str, by_trial: dict[int, float | None]) -> TaskResult:
    trials = tuple(sorted(by_trial))
    rewards = [by_trial[trial] for trial in trials]
    graded = [reward for reward in rewards if reward is not None]
    successes = sum(is_success(reward) for reward in graded)
    return TaskResult(
        task_id=task_id,
        rewards=rewards,
        pass_hat_k={
            k: task_pass_hat_k(len(graded), successes, k) for k in range(1, len(graded) + 1)
        },
        trials=() if trials == tuple(range(len(trials))) else trials,
    )


def _left_out(store: ResultStore, config: RunConfig) -> dict[tuple[str, int], str]:
    """An imported run's simulations that have no episode, each with why.

    Only simulations the file holds are listed (read once each); planned trials the file
    holds no simulation of are counted by `_unrecorded`, never spelled out one by one.
    """
    return {
        (sim.task_id, sim.trial): (
            f"not re-gradable: {sim.reason}"
            if sim.status == "not_regradable"
            else "the file records an infrastructure error"
        )
        for sim in store.imported_simulations(config.run_id)
        if sim.status != "regraded"
    }


def _unrecorded(
    config: RunConfig,
    by_task: dict[str, dict[int, float | None]],
    left_out: dict[tuple[str, int], str],
) -> int:
    """Planned (task, trial) pairs with neither an episode nor a simulation the file holds."""
    planned = set(config.task_ids)
    held = {(task, trial) for task, trials in by_task.items() for trial in trials}
    held.update(left_out)
    present = sum(1 for task, trial in held if task in planned and 0 <= trial < config.trials)
    return len(planned) * config.trials - present


def _check_complete(
    store: ResultStore, config: RunConfig, by_task: dict[str, dict[int, float | None]]
) -> None:
    """Raise `IncompleteRun` when a planned (task, trial) has no episode.

    Counts what is stored (never lists every planned pair: a run may plan millions).
    """
    planned = len(config.task_ids) * config.trials
    in_plan = range(config.trials)
    have = sum(
        sum(1 for trial in by_task.get(task, {}) if trial in in_plan) for task in config.task_ids
    )
    if have == planned:
        return
    example = next(
        (task, next(t for t in in_plan if t not in by_task.get(task, {})))
        for task in sorted(config.task_ids)
        if sum(1 for t in by_task.get(task, {}) if t in in_plan) < config.trials
    )
    outstanding = store.failures(config.run_id, outstanding=True)
    kinds = Counter(failure.kind for failure in outstanding)
    failed = ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items()))
    raise IncompleteRun(
        f"run {config.run_id!r} is incomplete: {planned - have} of {planned} episodes "
        f"have no result (e.g. task {example[0]!r} trial {example[1]})"
        + (f"; outstanding failed attempts: {failed}" if failed else "")
        + f"; pass^k needs every task at {counted(config.trials, 'trial')}. Finish it with: "
        + run_resume_command(store.path, config)
    )


def _total(usages: Iterable[Usage]) -> Usage:
    calls = prompt = completion = 0
    cost: float | None = 0.0
    for usage in usages:
        calls += usage.calls
        prompt += usage.prompt_tokens
        completion += usage.completion_tokens
        if usage.calls:
            cost = None if cost is None or usage.cost is None else cost + usage.cost
    return Usage(calls=calls, prompt_tokens=prompt, completion_tokens=completion, cost=cost)
