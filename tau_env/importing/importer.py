"""`import_results`: a results file of the reference becomes a run of the result store.

Each file becomes one run (a file holds one domain): its participants, limits, seeds and trials
are the file's; its tasks are looked up in the data the caller names; every simulation is
re-graded by tau_env (`tau_env.importing.regrade`) and stored as an episode, so ``report``,
the HTML page and ``export`` treat the run as any other. What tau_env cannot re-derive (the
file's ids, times, costs, recorded rewards) is kept beside the run and used by ``export``.

The whole file is checked and re-graded before anything is written, and the run is written in
one transaction: a refused file leaves the store as it was. Only a conversation the protocol
forbids is left out on its own (with the reason), as are simulations the file records as
infrastructure errors; the rest of the file is imported. NL assertions are judged afterwards,
by the judge given, from the stored conversations (as ``resume --judge-model`` judges).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from tau_env.domain import Domain, load_domain
from tau_env.errors import InvalidOption
from tau_env.grading.grader import TaskGrader
from tau_env.grading.outcome import STOP_TERMINATIONS, TerminationReason
from tau_env.importing.agreement import Agreement, agreement_of
from tau_env.importing.conversation import ProtocolViolation, read_conversation
from tau_env.importing.regrade import regrade
from tau_env.importing.results_file import (
    ImportRefused,
    ParticipantInfo,
    RecordedSimulation,
    ResultsFile,
    read_results_file,
)
from tau_env.messages import AssistantMessage, Message, ToolMessage, UserMessage
from tau_env.registry import registered_domains
from tau_env.rollout.config import MODES, JudgeSpec, ParticipantSpec, RunConfig
from tau_env.rollout.provenance import run_fingerprint, run_versions
from tau_env.rollout.runner import run
from tau_env.secrets import redact_settings
from tau_env.store.records import (
    EpisodeRecord,
    ImportedSimulation,
    ImportRecord,
    RunRecord,
    Usage,
)
from tau_env.store.records import ParticipantInfo as StoredParticipant
from tau_env.store.sqlite import ResultStore
from tau_env.tasks.model import Task
from tau_env.utils.commands import id_part
from tau_env.utils.wording import counted

__all__ = ["ImportResult", "import_results"]

_SOLO_AGENTS = frozenset({"llm_agent_solo"})
_SOLO_USERS = frozenset({"dummy_user"})
_ORACLE_PLAN_AGENTS = frozenset({"llm_agent_gt"})
_DEFAULT_SEED = 300  # the reference's (and `RunConfig`'s) base seed


@dataclass(frozen=True)
class ImportResult:
    """What importing one file did.

    Attributes:
        run_id: The run created.
        source: The file.
        config: The run's configuration.
        regraded: Simulations re-graded and stored as episodes.
        left_out: Simulations left out (not re-gradable, or infrastructure errors), with why.
        agreement: tau_env's grades against the recorded rewards.
        record: The provenance kept with the run.
    """

    run_id: str
    source: ResultsFile
    config: RunConfig
    regraded: int
    left_out: list[ImportedSimulation]
    agreement: Agreement
    record: ImportRecord


def import_results(
    store: ResultStore,
    path: str | ResultsFile,
    *,
    data_dir: str | None = None,
    run_id: str | None = None,
    judge: JudgeSpec | None = None,
) -> ImportResult:
    """Import one results file of the reference as a run of `store`.

    Args:
        store: Receives the run.
        path: The results file (or the run folder holding ``results.json``), or the file
            as `read_results_file` read it.
        data_dir: The data the run played (None: tau_env's built-in data); its tasks grade it.
        run_id: The new run's id (default: from the file's name, made unique in the store).
        judge: Judges NL assertions (None: those episodes stay not judged, as in a run).

    Raises:
        ImportRefused: The file cannot be imported (not JSON, another schema, a task absent
            from the data, already imported...); nothing was written.
        DataError: The data folder cannot be read.
    """
    results = path if isinstance(path, ResultsFile) else read_results_file(path)
    earlier = store.imports_of_file(results.sha256)
    if earlier:
        raise ImportRefused(
            f"{results.path}: already imported as run {earlier[0]!r} (same bytes, sha256 "
            f"{results.sha256[:16]})"
        )
    notes: list[str] = []
    domain, retrieval, options = _domain(results, data_dir, notes)
    config = _config(results, domain, data_dir, retrieval, options, _run_id(store, results, run_id))
    if config.trials < results.info.num_trials:
        notes.append(
            f"info.num_trials is {results.info.num_trials} but no simulation has a trial above "
            f"{config.trials - 1}: imported as {counted(config.trials, 'trial')}"
        )
    changed = _changed_tasks(results, domain)
    versions = run_versions(config)
    grader = TaskGrader()
    episodes: list[EpisodeRecord] = []
    simulations: list[ImportedSimulation] = []
    for simulation, raw in zip(results.simulations, results.raw_simulations, strict=True):
        task = domain.task(simulation.task_id)
        stored, episode = _simulation(config, domain, task, simulation, raw, grader, versions)
        simulations.append(stored)
        if episode is not None:
            episodes.append(episode)
    source = ImportRecord(
        run_id=config.run_id,
        source=str(results.path),
        sha256=results.sha256,
        imported_at=time.time(),
        timestamp=results.timestamp,
        info=redact_settings(results.raw_info),
        changed_tasks=changed,
        notes=notes,
    )
    record = RunRecord(
        run_id=config.run_id,
        created_at=source.imported_at,
        domain=config.domain,
        config=config.model_dump(mode="json"),
        fingerprint=run_fingerprint(config),
        versions=versions,
    )
    store.add_imported_run(record, source, episodes, simulations)
    if judge is not None:
        config = config.model_copy(update={"judge": judge})
        store.update_run_config(config.run_id, config.model_dump(mode="json"))
        run(store, config, play=False)
    return ImportResult(
        run_id=config.run_id,
        source=results,
        config=config,
        regraded=len(episodes),
        left_out=[s for s in simulations if s.status != "regraded"],
        agreement=agreement_of(store.episodes(config.run_id), simulations),
        record=source,
    )


def _domain(
    results: ResultsFile, data_dir: str | None, notes: list[str]
) -> tuple[Domain, str | None, dict[str, Any] | None]:
    """The domain the file played, loaded with its retrieval variant when tau_env has it."""
    name = results.info.environment_info.domain_name
    if name not in registered_domains():
        raise ImportRefused(
            f"{results.path}: domain {name!r} is not a tau_env domain "
            f"({', '.join(registered_domains())})"
        )
    variant = results.info.retrieval_config
    options = results.info.retrieval_config_kwargs or None
    try:
        domain = load_domain(name, data_dir, retrieval=variant, retrieval_options=options)
    except InvalidOption as error:
        if variant is None:
            raise
        notes.append(
            f"retrieval variant {variant!r} is not tau_env's ({error}); re-graded under the "
            "domain's default variant: grading replays only state-changing calls, which no "
            "retrieval tool makes"
        )
        return load_domain(name, data_dir), None, None
    return domain, variant, options


def _mode(results: ResultsFile) -> str:
    """The evaluation mode: tau_env's own files say it; the reference's implementations do."""
    recorded = results.raw_info.get("mode")
    if isinstance(recorded, str) and recorded in MODES:
        return recorded
    agent, user = results.info.agent_info.implementation, results.info.user_info.implementation
    solo = agent in _SOLO_AGENTS or user in _SOLO_USERS
    if agent in _ORACLE_PLAN_AGENTS:
        return "no-user-oracle-plan" if solo else "oracle-plan"
    return "no-user" if solo else "default"


def _participant(info: ParticipantInfo, side: str, results: ResultsFile) -> ParticipantSpec:
    args = redact_settings(info.llm_args or {})  # a file may hold keys: they are not kept
    temperature = args.pop("temperature", 0.0)
    if temperature is None:
        temperature = 0.0
    if not isinstance(temperature, int | float) or isinstance(temperature, bool):
        raise ImportRefused(
            f"{results.path}: field info.{side}_info.llm_args.temperature: not a number: "
            f"{temperature!r}"
        )
    return ParticipantSpec(
        kind=info.implementation or "unknown",
        model=info.llm,
        temperature=float(temperature),
        llm_args=args,
    )


def _config(
    results: ResultsFile,
    domain: Domain,
    data_dir: str | None,
    retrieval: str | None,
    options: dict[str, Any] | None,
    run_id: str,
) -> RunConfig:
    info = results.info
    # The embedded tasks in file order, then any task only a simulation names.
    task_ids = list(
        dict.fromkeys(
            [str(task.get("id")) for task in results.tasks]
            + [simulation.task_id for simulation in results.simulations]
        )
    )
    known = {task.id for task in domain.tasks}
    missing = [task_id for task_id in task_ids if task_id not in known]
    if missing:
        shown = ", ".join(repr(task_id) for task_id in missing[:5])
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        raise ImportRefused(
            f"{results.path}: task ids absent from the data ({domain.data.source}): "
            f"{shown}{more}; name the data the run played with --data-dir"
        )
    if not task_ids:
        raise ImportRefused(f"{results.path}: the file holds no task and no simulation")
    return RunConfig(
        run_id=run_id,
        domain=domain.name,
        data_dir=None if data_dir is None else str(data_dir),
        retrieval=retrieval,
        retrieval_options=options,
        task_ids=tuple(task_ids),
        # Bounded by the file's own simulations: a plan the file holds nothing of is no plan.
        trials=min(info.num_trials, 1 + max((s.trial for s in results.simulations), default=0)),
        base_seed=info.seed
        if info.seed is not None
        else RunConfig.model_fields["base_seed"].default,
        agent=_participant(info.agent_info, "agent", results),
        user=_participant(info.user_info, "user", results),
        mode=_mode(results),
        max_steps=info.max_steps,
        max_errors=info.max_errors,
    )


def _run_id(store: ResultStore, results: ResultsFile, wanted: str | None) -> str:
    if wanted is not None:
        return wanted
    path = results.path
    base = id_part(path.parent.name if path.name == "results.json" else path.stem)
    taken = {run.run_id for run in store.runs()}
    candidate, number = base, 1
    while candidate in taken:
        number += 1
        candidate = f"{base}-{number}"
    return candidate


def _graded_part(task: Task) -> dict[str, Any]:
    return task.model_dump(
        mode="json", include={"initial_state", "evaluation_criteria"}, exclude_none=True
    )


def _changed_tasks(results: ResultsFile, domain: Domain) -> list[str]:
    """Tasks whose embedded copy grades differently from the data's (parsed or not)."""
    changed = []
    for embedded in results.tasks:
        data = domain.task(str(embedded.get("id")))
        try:
            same = _graded_part(Task.model_validate(embedded)) == _graded_part(data)
        except ValueError:
            same = False
        if not same:
            changed.append(data.id)
    return changed


def _simulation(
    config: RunConfig,
    domain: Domain,
    task: Task,
    simulation: RecordedSimulation,
    raw: dict[str, Any],
    grader: TaskGrader,
    versions: dict[str, str],
) -> tuple[ImportedSimulation, EpisodeRecord | None]:
    """What to store of one simulation: its record, and its episode when it can be re-graded."""
    # The messages are kept apart (in the episode, or beside a simulation left out); their
    # key stays, so an export writes the file's keys in the file's order.
    recorded = {key: None if key == "messages" else value for key, value in raw.items()}
    termination = _termination(simulation)

    def left_out(status: Any, reason: str) -> tuple[ImportedSimulation, None]:
        kept = ImportedSimulation(
            run_id=config.run_id,
            task_id=simulation.task_id,
            trial=simulation.trial,
            status=status,
            reason=reason,
            recorded=recorded,
            messages=list(simulation.messages or []),
        )
        return kept, None

    if termination is None:
        return left_out("infrastructure_error", "the file records an infrastructure error")
    if not simulation.messages:
        return left_out("not_regradable", "the file records no messages")
    solo = config.mode.startswith("no-user")
    try:
        messages = read_conversation(simulation.messages, task, solo=solo)
    except ProtocolViolation as violation:
        return left_out("not_regradable", str(violation))
    seed = simulation.seed if simulation.seed is not None else 0
    grade = regrade(domain, task, messages, termination, seed=seed, solo=solo, grader=grader)
    history = len((task.initial_state.message_history if task.initial_state else None) or [])
    played = messages[history:]
    opening = played[0] if played else None
    if not history and isinstance(opening, AssistantMessage) and not opening.tool_calls:
        played = played[1:]  # the agent's fixed greeting: not a step, not a model call
    episode = EpisodeRecord(
        run_id=config.run_id,
        task_id=simulation.task_id,
        trial=simulation.trial,
        seed=seed,
        reward=grade.reward,
        termination=termination.value,
        grade=grade.model_dump(mode="json"),
        trajectory=[m.model_dump(mode="json", exclude_none=True) for m in messages],
        steps=_steps(played),
        agent=_side(config.agent, "assistant", played, simulation.agent_cost, seed),
        user=_side(config.user, "user", played, simulation.user_cost, seed),
        started_at=_time(simulation.start_time),
        duration=simulation.duration,
        versions=versions,
    )
    kept = ImportedSimulation(
        run_id=config.run_id,
        task_id=simulation.task_id,
        trial=simulation.trial,
        status="regraded",
        recorded=recorded,
    )
    return kept, episode


def _termination(simulation: RecordedSimulation) -> TerminationReason | None:
    """How the conversation ended; None when the file records no graded conversation.

    tau_env's own exports mark an episode that waits for a judge as an infrastructure error
    (so the reference's metrics leave it out, as tau_env's do) with its real ending in
    ``info.termination_reason``: that episode is re-graded like any other.
    """
    reason = TerminationReason(simulation.termination_reason)
    if reason is not TerminationReason.INFRASTRUCTURE_ERROR:
        return reason
    info = simulation.info or {}
    real = info.get("termination_reason")
    if info.get("not_judged") and real in {r.value for r in STOP_TERMINATIONS}:
        return TerminationReason(real)
    return None


def _steps(messages: Sequence[Message]) -> int:
    """Steps as the reference counts them: each participant message, each batch of results."""
    steps = 0
    for index, message in enumerate(messages):
        previous = messages[index - 1] if index else None
        steps += not (isinstance(message, ToolMessage) and isinstance(previous, ToolMessage))
    return steps


def _side(
    spec: ParticipantSpec,
    role: str,
    messages: Sequence[Message],
    cost: float | None,
    seed: int,
) -> StoredParticipant:
    """Who played a side, with one model call per message it wrote (the reference's count)."""
    calls = 0
    if spec.model is not None:
        calls = sum(
            1 for m in messages if isinstance(m, AssistantMessage | UserMessage) and m.role == role
        )
    return StoredParticipant(
        implementation=spec.kind,
        model=spec.model,
        temperature=spec.temperature,
        seed=seed,
        usage=Usage(calls=calls, cost=cost),
    )


def _time(text: str | None) -> float:
    """Unix time of an ISO timestamp of the file (now when absent or unreadable)."""
    if text:
        try:
            moment = datetime.fromisoformat(text)
        except ValueError:
            return time.time()
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return moment.timestamp()
    return time.time()
