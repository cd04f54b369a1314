"""A domain with one data source, loaded once per process.

A domain package (``tau_env.domains.<name>``) exposes a `DomainDefinition`: its code (tools,
database classes) and two loaders, one for the built-in data written by this project and one
for a reference data folder (a domain whose files follow the usual layout names neither).
`load_domain` pairs the definition with data, validates every task against the registered
functions, and caches the result, so no file is parsed twice.
"""

from __future__ import annotations

import importlib
import json
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tau_env.data_files import DomainData, load_builtin_data, load_official_folder
from tau_env.errors import DataError, InvalidOption, NoBuiltinData, did_you_mean
from tau_env.heap_collector import collector_paused
from tau_env.messages import Requestor, side_of
from tau_env.registry import registered_domains, spec_for
from tau_env.state.database import Database, SeedSource
from tau_env.state.journal import Journal
from tau_env.state.world import Toolbox, World
from tau_env.tasks.loading import select_split
from tau_env.tasks.model import Task
from tau_env.tasks.setup import build_initial_world
from tau_env.tasks.user_vocabulary import UserVocabulary
from tau_env.utils.commands import tau_env_command

if TYPE_CHECKING:
    from tau_env.grading.context import TaskBaseline

__all__ = [
    "Domain",
    "DomainData",
    "DomainDefinition",
    "PreparedTask",
    "RetrievalSupport",
    "clear_domain_cache",
    "domain_definition",
    "forget_with_domains",
    "has_builtin_data",
    "load_domain",
    "registered_domains",
]


@dataclass(frozen=True)
class RetrievalSupport:
    """How a domain whose agent searches a knowledge base is set up for one retrieval variant.

    A variant decides the agent's retrieval tools and its policy, nothing else (never the
    database, the tasks or the grading), so one loaded data source serves every variant.

    Attributes:
        variants: Every name ``make_env(..., retrieval=...)`` accepts (for help texts).
        default: The variant used when none is named.
        configure: ``(definition, data, variant, options) -> (definition, data)`` with the
            variant's toolbox and policy; raises `InvalidOption` for a name or an option it
            does not accept, saying why.
    """

    variants: tuple[str, ...]
    default: str
    configure: Callable[
        [DomainDefinition, DomainData, str, Mapping[str, Any]],
        tuple[DomainDefinition, DomainData],
    ]


@dataclass(frozen=True)
class DomainDefinition:
    """The code of a domain: tools, database classes and data loaders.

    Attributes:
        name: Registry name (``"mock"``, ``"airline"``...).
        toolbox: Tools and env functions of both sides, and the sync rule.
        agent_db: Database class of the agent side.
        load_builtin: Reads the built-in data; None: the usual layout, the ``data/`` folder
            of the package that defines the domain (`tau_env.data_files.load_builtin_data`).
        load_official: Reads a reference data folder; None: the usual layout,
            ``<data_dir>/domains/<name>/`` (`tau_env.data_files.load_official_folder`).
        version: Bumped whenever tools, data, policy, tasks or grading change.
        user_db: Database class of the user side; None when the user has no tools of its own.
        user_vocabulary: What the scripted user needs to know about the domain: patterns of
            its scenarios (ids, goal checks, offers) and how its tool results are said in
            words (`tau_env.tasks.user_vocabulary`); None: the generic reading.
        shared_database: The user's tools work on the agent's database (one database for both
            sides, as in banking); `user_db` is then unused.
        retrieval: Retrieval variants, for domains whose agent searches a knowledge base.
    """

    name: str
    toolbox: Toolbox
    agent_db: type[Database]
    load_builtin: Callable[[], DomainData] | None = None
    load_official: Callable[[Path], DomainData] | None = None
    version: int = 0
    user_db: type[Database] | None = None
    user_vocabulary: UserVocabulary | None = None
    shared_database: bool = False
    retrieval: RetrievalSupport | None = None


@dataclass
class PreparedTask:
    """A task's starting world (after patches, setup calls and history replay), built once."""

    task: Task
    initial_world: World
    _expected: World | None = None  # the gold replay with seed 0
    _failing: tuple[bool, ...] | None = None  # per gold action of that replay: it failed
    _baseline: TaskBaseline | None = None  # the checks on the untouched start


class Domain:
    """A domain definition paired with loaded data; shared by every env of the process."""

    def __init__(
        self, definition: DomainDefinition, data: DomainData, retrieval: str | None = None
    ) -> None:
        self.definition = definition
        self.data = data
        self.retrieval = retrieval
        self.name = definition.name
        self.toolbox = definition.toolbox
        self.policy = data.policy
        self.tasks: tuple[Task, ...] = data.tasks
        self._by_id = {task.id: task for task in data.tasks}
        self._prepared: dict[str, PreparedTask] = {}
        self._lock = threading.Lock()
        _check_task_functions(self)

    def __repr__(self) -> str:
        variant = f", retrieval={self.retrieval!r}" if self.retrieval else ""
        return (
            f"Domain({self.name!r}, source={self.data.source!r}{variant}, tasks={len(self.tasks)})"
        )

    def policy_for(self, task: Task) -> str:
        """The policy the agent receives for `task` (the domain's, unless it is per task)."""
        if self.data.task_policy is not None:
            return self.data.task_policy(task)
        return self.policy

    @property
    def env_id(self) -> str:
        """The versioned id, e.g. ``tau/mock-v0``."""
        return f"tau/{self.name}-v{self.definition.version}"

    def task(self, task_id: str) -> Task:
        """The task with that id.

        Raises:
            KeyError: No such task; the message lists how to find the known ids.
        """
        try:
            return self._by_id[task_id]
        except KeyError:
            hint = did_you_mean(task_id, self._by_id)
            raise KeyError(
                f"no task {task_id!r} in domain {self.name!r} ({self.data.source}); "
                + (f"{hint} " if hint else "")
                + f"`{tau_env_command('tasks', ('--domain', self.name))}` lists them"
            ) from None

    def split(self, split: str | None) -> list[Task]:
        """The tasks of a split (None: ``base`` if defined, else all)."""
        splits = {name: list(ids) for name, ids in self.data.splits.items()}
        # Built-in data is named as the user knows it, not by the package file holding it.
        builtin = self.data.source == "built-in"
        source = f"{self.name} (built-in data)" if builtin else self.data.splits_file
        return select_split(self.tasks, splits, split, source=source or self.data.source)

    @property
    def tasks_source(self) -> str:
        """Where the tasks come from, for errors about one of them (the task file if known)."""
        return self.data.tasks_file or self.data.source

    def new_world(self, seed: int | None = 0) -> World:
        """A world holding the domain's untouched databases."""
        source = SeedSource(seed)
        journal = Journal()
        agent_db = self.definition.agent_db(self.data.agent_snapshot, journal, source)
        user_db = None
        if self.definition.shared_database:
            user_db = agent_db
        elif self.definition.user_db is not None and self.data.user_snapshot is not None:
            user_db = self.definition.user_db(self.data.user_snapshot, journal, source)
        return World(self.toolbox, agent_db, user_db, journal, source)

    def prepare(self, task: Task) -> PreparedTask:
        """The task's starting world, built on first use and cached.

        Raises:
            DataError: The task's initial state cannot be applied; the message names the
                source, the task and the field.
        """
        prepared = self._prepared.get(task.id)
        if prepared is not None and prepared.task is task:
            return prepared
        with self._lock:
            prepared = self._prepared.get(task.id)
            if prepared is None or prepared.task is not task:
                world = build_initial_world(self, task)
                prepared = PreparedTask(task, world)
                self._prepared[task.id] = prepared
        return prepared

    def release(self, task: Task) -> None:
        """Forget the task's cached starting and expected worlds (built again on next use).

        A pass that plays each of many tasks once (the gold replays of ``tau-env generate``)
        calls it after each, so its memory stays that of one task, not of the whole set.
        """
        with self._lock:
            self._prepared.pop(task.id, None)

    def expected_world(self, task: Task, seed: int | None = None) -> World:
        """The world after the task's gold actions: the DB check's target.

        The gold actions replay with the episode's seed, so ids a tool draws at random (a new
        telecom bill) are those the episode drew. A replay that draws nothing does not depend
        on the seed and is computed once per task; one that draws is replayed per seed.

        Args:
            task: The task.
            seed: The episode's seed (None: 0).
        """
        seed = seed or 0
        prepared = self._prepared.get(task.id)  # `prepare`'s cached answer, looked up here
        if prepared is None or prepared.task is not task:
            prepared = self.prepare(task)
        base = prepared._expected
        if base is not None and (not seed or not base.seed_source.drawn):
            return base
        from tau_env.grading.expected import replay_gold_actions, replayed_with_failures

        if base is None:
            # The seed-0 replay also says which gold steps fail (the baseline's
            # `failing_gold`): one replay for both.
            base, failing = replayed_with_failures(prepared.initial_world, task.gold_actions)
            with self._lock:
                if prepared._expected is None:
                    prepared._expected, prepared._failing = base, failing
                base = prepared._expected
            if not seed or not base.seed_source.drawn:
                return base
        return replay_gold_actions(prepared.initial_world, task.gold_actions, seed=seed)

    def baseline(self, task: Task) -> TaskBaseline:
        """What the task's checks say of its untouched starting world (computed once per task).

        Partial credit reads it: the database is an item only when the gold plan changes it,
        an env assertion only when it does not hold at the start (`tau_env.grading.baseline`).
        """
        prepared = self._prepared.get(task.id)
        if prepared is None or prepared.task is not task:
            prepared = self.prepare(task)
        found = prepared._baseline
        if found is None:
            from tau_env.grading.baseline import baseline_of

            expected = self.expected_world(task)
            found = baseline_of(task, prepared.initial_world, expected, prepared._failing)
            with self._lock:
                if prepared._baseline is None:
                    prepared._baseline = found
                found = prepared._baseline
        return found


def _check_task_functions(domain: Domain) -> None:
    """Reject tasks that name functions the domain did not register (never run arbitrary code)."""
    toolbox = domain.toolbox
    for task in domain.tasks:
        calls: list[tuple[str, Requestor, str]] = []
        if task.initial_state and task.initial_state.initialization_actions:
            for i, call in enumerate(task.initial_state.initialization_actions):
                path = f"initial_state.initialization_actions[{i}].func_name"
                calls.append((path, call.env_type, call.func_name))
        criteria = task.evaluation_criteria
        if criteria and criteria.env_assertions:
            for i, assertion in enumerate(criteria.env_assertions):
                path = f"evaluation_criteria.env_assertions[{i}].func_name"
                calls.append((path, assertion.env_type, assertion.func_name))
        for path, requestor, name in calls:
            side = side_of(requestor)
            if name not in toolbox.env_functions(side) and name not in toolbox.tools(side):
                raise DataError(
                    f"{domain.tasks_source}: task {task.id!r}: field {path!r}: "
                    f"{name!r} is not a registered {side} env function or tool"
                )
        # A gold step naming no tool would make the task silently unsolvable: refuse it too.
        for i, action in enumerate(task.gold_actions):
            side = side_of(action.requestor)
            if action.name not in toolbox.tools(side):
                raise DataError(
                    f"{domain.tasks_source}: task {task.id!r}: field "
                    f"'evaluation_criteria.actions[{i}].name': {action.name!r} is not a "
                    f"registered {side} tool"
                )


def domain_definition(name: str) -> DomainDefinition:
    """The code of the registered domain `name` (tools, database classes); reads no data."""
    return _definition(name)


def _definition(name: str) -> DomainDefinition:
    """The definition a registered domain name's entry point names (imported now)."""
    module_name, attribute = _entry_point(name)
    definition = getattr(importlib.import_module(module_name), attribute)
    if not isinstance(definition, DomainDefinition):
        raise TypeError(f"{module_name}:{attribute} is not a DomainDefinition")
    return definition


def _entry_point(name: str) -> tuple[str, str]:
    """The module and attribute of a registered domain's entry point (``module:attribute``)."""
    module_name, _, attribute = spec_for(name).entry_point.partition(":")
    return module_name, attribute


def default_retrieval(name: str) -> str | None:
    """The retrieval variant `load_domain` uses for `name` when none is named.

    None for a domain without a knowledge base. Reads the domain's definition, no data.
    """
    support = _definition(name).retrieval
    return support.default if support is not None else None


def has_builtin_data(name: str) -> bool:
    """Whether the registered domain `name` ships built-in data (loads it, once per process).

    False for a domain whose built-in loader raises `NoBuiltinData` (it needs a reference
    data folder); every domain of tau_env ships its own.
    """
    try:
        load_domain(name)
    except NoBuiltinData:
        return False
    return True


def load_domain(
    name: str,
    data_dir: str | Path | None = None,
    *,
    retrieval: str | None = None,
    retrieval_options: Mapping[str, Any] | None = None,
) -> Domain:
    """The domain `name` with built-in data (``data_dir=None``) or a reference data folder.

    Cached per process: the second call with the same arguments parses nothing, and every
    retrieval variant of a data source shares its parsed data and indexes.

    Args:
        name: A registered domain name.
        data_dir: A folder laid out like the reference's ``data/tau2`` (``domains/<name>/``).
        retrieval: The retrieval variant, for domains with a knowledge base (None: the
            domain's default).
        retrieval_options: Settings of the variant (JSON values; see the domain's README).

    Raises:
        UnregisteredEnv: Unknown domain name.
        DataError: Missing or malformed files; the message names the file.
        InvalidOption: A retrieval variant or option the domain does not know, or retrieval
            settings for a domain without a knowledge base.
    """
    folder = None if data_dir is None else str(Path(data_dir).expanduser().resolve())
    support = _definition(name).retrieval
    if support is None:
        if retrieval is not None or retrieval_options:
            raise InvalidOption(f"domain {name!r} has no retrieval variants")
        return _load_domain(name, folder, None, "{}")
    variant = retrieval or support.default  # `configure` explains names it refuses
    options = json.dumps(dict(retrieval_options or {}), sort_keys=True)
    return _load_domain(name, folder, variant, options)


def clear_domain_cache() -> None:
    """Forget every loaded domain and data source (for tests that edit a data folder).

    Data a domain's own loader caches (`forget_with_domains`) is forgotten too.
    """
    _load_domain.cache_clear()
    _load_data.cache_clear()
    for forget in _LOADER_CACHES:
        forget()


_LOADER_CACHES: list[Callable[[], None]] = []


def forget_with_domains(clear: Callable[[], None]) -> None:
    """Have `clear_domain_cache` also call `clear` (a domain loader's own cache of parsed data)."""
    _LOADER_CACHES.append(clear)


@cache
@collector_paused()  # the parsed world and tasks all live on: collections would find nothing
def _load_data(name: str, folder: str | None) -> DomainData:
    definition = _definition(name)
    agent_db, user_db = definition.agent_db, definition.user_db
    if folder is None:
        if definition.load_builtin is not None:
            return definition.load_builtin()
        package, _ = _entry_point(name)
        return load_builtin_data(package, agent_db=agent_db, user_db=user_db)
    if not Path(folder).is_dir():
        raise DataError(f"{folder}: data folder not found")
    if definition.load_official is not None:
        return definition.load_official(Path(folder))
    return load_official_folder(Path(folder), name, agent_db, user_db)


@cache
def _load_domain(name: str, folder: str | None, retrieval: str | None, options: str) -> Domain:
    definition = _definition(name)
    data = _load_data(name, folder)
    if retrieval is not None and definition.retrieval is not None:
        definition, data = definition.retrieval.configure(
            definition, data, retrieval, json.loads(options)
        )
    return Domain(definition, data, retrieval)
