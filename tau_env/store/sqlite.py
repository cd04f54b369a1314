"""`ResultStore`: runs, episodes and failures in one SQLite file, safe against a killed process.

Each finished episode is written in its own transaction as soon as it finishes, with the
database in WAL mode: a process killed at any moment (SIGKILL included) loses no committed
episode and leaves no half-written one. Episodes are keyed by (run, task, trial) and inserted
with ``INSERT OR IGNORE``, so a duplicate can never appear, whatever a resume replays.
Failed attempts go to their own table and are never deleted. Runs imported from the
reference's results files (``tau-env import``) keep their provenance in two more tables, added
without a schema change (a store of an older tau_env gains them when opened). API keys of the
environment are redacted from everything written (`tau_env.secrets.redact`).

An episode whose grade waits for a judge (NL assertions not judged) is stored with no reward
(NULL); its grade is completed once, when a judge rules (`set_judged_grade`), and never
replaced after that. Stores written by schema 1 (where such episodes carried the product of
their other checks as reward) are migrated when opened: those episodes lose that reward.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from tau_env.errors import TauEnvError
from tau_env.grading.nl_assertions import judge_call_saved
from tau_env.secrets import redact
from tau_env.store.records import (
    EpisodeRecord,
    EpisodeSummary,
    FailureRecord,
    ImportedSimulation,
    ImportRecord,
    RunRecord,
)
from tau_env.utils.commands import resume_command

__all__ = ["ResultStore", "RunExists", "UnknownRun"]

SCHEMA_VERSION = 2

_EPISODES = """
CREATE TABLE IF NOT EXISTS episodes (
    run_id TEXT NOT NULL REFERENCES runs(run_id),
    task_id TEXT NOT NULL,
    trial INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    reward REAL,
    termination TEXT NOT NULL,
    finished_at REAL NOT NULL,
    stats TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (run_id, task_id, trial)
)
"""

_SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,
    created_at REAL NOT NULL,
    domain TEXT NOT NULL,
    config TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    versions TEXT NOT NULL
);"""
    + _EPISODES
    + """;
CREATE TABLE IF NOT EXISTS failures (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id TEXT NOT NULL REFERENCES runs(run_id),
    task_id TEXT NOT NULL,
    trial INTEGER NOT NULL,
    kind TEXT NOT NULL,
    at REAL NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS failures_by_run ON failures (run_id, task_id, trial);
CREATE TABLE IF NOT EXISTS imports (
    run_id TEXT PRIMARY KEY REFERENCES runs(run_id),
    sha256 TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS imports_by_file ON imports (sha256);
CREATE TABLE IF NOT EXISTS imported_simulations (
    run_id TEXT NOT NULL REFERENCES runs(run_id),
    task_id TEXT NOT NULL,
    trial INTEGER NOT NULL,
    status TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (run_id, task_id, trial)
);
"""
)


class RunExists(TauEnvError, ValueError):
    """A run with that id is already in the store (resume it instead)."""


class UnknownRun(TauEnvError, LookupError):
    """The store holds no run with that id."""


class ResultStore:
    """A SQLite result store; one instance per process, used from one thread.

    Args:
        path: The database file (created with its folder when missing), or ``":memory:"``.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db = self._connect()
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            # NORMAL is durable against a killed process (not against power loss), and fast.
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA busy_timeout=10000")
            self._db.executescript(_SCHEMA)
            self._check_schema_version()
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise TauEnvError(f"{self.path}: not a usable result store: {error}") from None
        except TauEnvError:
            self._db.close()
            raise

    def _connect(self) -> sqlite3.Connection:
        """Open the database file, creating its folder.

        Raises:
            TauEnvError: The path is a folder, or cannot be created or opened; the message
                names the path (never a bare ``sqlite3.OperationalError``).
        """
        if self.path != ":memory:":
            file = Path(self.path).expanduser()
            if file.is_dir():
                raise TauEnvError(
                    f"{self.path}: is a folder; a result store is a file, such as "
                    f"{file / 'tau_env_runs.sqlite'}"
                )
            try:
                file.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise TauEnvError(f"{self.path}: cannot create its folder: {error}") from None
        try:
            return sqlite3.connect(self.path, isolation_level=None)
        except sqlite3.Error as error:
            raise TauEnvError(f"{self.path}: cannot open the result store: {error}") from None

    def _check_schema_version(self) -> None:
        row = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif int(row[0]) == 1:
            with self._transaction():
                _migrate_from_1(self._db)
        elif int(row[0]) != SCHEMA_VERSION:
            raise TauEnvError(
                f"{self.path}: result store schema {row[0]}, this tau_env reads {SCHEMA_VERSION}"
            )

    def close(self) -> None:
        """Close the connection (committed data is already on disk)."""
        self._db.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- runs ----------------------------------------------------------------------------------
    def create_run(self, run: RunRecord) -> None:
        """Add a run.

        Raises:
            RunExists: The id is taken; the message says how to resume it.
        """
        try:
            with self._transaction():
                self._insert_run(run)
        except sqlite3.IntegrityError:
            raise RunExists(
                f"run {run.run_id!r} already exists in {self.path}; continue it with "
                f"`{resume_command(self.path, run.run_id)}` or pick another --run"
            ) from None

    def _insert_run(self, run: RunRecord) -> None:
        self._db.execute(
            "INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?)",
            (
                run.run_id,
                run.created_at,
                run.domain,
                json.dumps(run.config),
                run.fingerprint,
                json.dumps(run.versions),
            ),
        )

    # -- imported runs -------------------------------------------------------------------------
    def add_imported_run(
        self,
        run: RunRecord,
        source: ImportRecord,
        episodes: Sequence[EpisodeRecord],
        simulations: Sequence[ImportedSimulation],
    ) -> None:
        """Write an imported run whole, in one transaction: all of it, or nothing.

        Args:
            run: The run.
            source: Where it came from.
            episodes: Its re-graded simulations, as episodes.
            simulations: What the file recorded of every simulation (re-graded or not).

        Raises:
            RunExists: The run id is taken (nothing is written).
        """
        try:
            with self._transaction():
                self._insert_run(run)
                self._db.execute(
                    "INSERT INTO imports VALUES (?, ?, ?)",
                    (run.run_id, source.sha256, redact(source.model_dump_json())),
                )
                self._db.executemany(
                    "INSERT INTO imported_simulations VALUES (?, ?, ?, ?, ?)",
                    [
                        (s.run_id, s.task_id, s.trial, s.status, redact(s.model_dump_json()))
                        for s in simulations
                    ],
                )
                self._db.executemany(
                    "INSERT INTO episodes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [_episode_row(record) for record in episodes],
                )
        except sqlite3.IntegrityError:
            raise RunExists(
                f"run {run.run_id!r} already exists in {self.path}; pick another --run"
            ) from None

    def import_of(self, run_id: str) -> ImportRecord | None:
        """Where an imported run came from; None for a run tau_env played."""
        row = self._db.execute("SELECT body FROM imports WHERE run_id = ?", (run_id,)).fetchone()
        return None if row is None else ImportRecord.model_validate_json(row[0])

    def imports_of_file(self, sha256: str) -> list[str]:
        """The runs imported from a file with these bytes (by its SHA-256)."""
        rows = self._db.execute("SELECT run_id FROM imports WHERE sha256 = ?", (sha256,))
        return [run_id for (run_id,) in rows]

    def imported_simulations(self, run_id: str) -> list[ImportedSimulation]:
        """What an imported run's file recorded of each simulation, by task then trial."""
        rows = self._db.execute(
            "SELECT body FROM imported_simulations WHERE run_id = ? ORDER BY task_id, trial",
            (run_id,),
        )
        return [ImportedSimulation.model_validate_json(body) for (body,) in rows]

    def update_run_config(self, run_id: str, config: dict[str, Any]) -> None:
        """Replace a run's stored configuration (used to record the judge a resume brings).

        The fingerprint is kept: only settings outside it (the judge) may change this way.

        Raises:
            UnknownRun: No such run.
        """
        with self._transaction():
            cursor = self._db.execute(
                "UPDATE runs SET config = ? WHERE run_id = ?", (json.dumps(config), run_id)
            )
        if cursor.rowcount != 1:
            self.run(run_id)  # raises UnknownRun with the known runs

    def run(self, run_id: str | None = None) -> RunRecord:
        """A run by id; None: the most recently created run.

        Raises:
            UnknownRun: No such run (the message lists the known ones).
        """
        if run_id is None:
            row = self._db.execute(
                "SELECT * FROM runs ORDER BY created_at DESC, rowid DESC LIMIT 1"
            ).fetchone()
        else:
            row = self._db.execute("SELECT * FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        if row is None:
            known = ", ".join(run.run_id for run in self.runs()) or "none"
            wanted = "any run" if run_id is None else f"run {run_id!r}"
            raise UnknownRun(f"{self.path} holds no {wanted}; runs in it: {known}")
        return _run_of(row)

    def runs(self) -> list[RunRecord]:
        """Every run, oldest first."""
        rows = self._db.execute("SELECT * FROM runs ORDER BY created_at, rowid").fetchall()
        return [_run_of(row) for row in rows]

    # -- episodes ------------------------------------------------------------------------------
    def add_episode(self, record: EpisodeRecord) -> bool:
        """Write a finished episode in one transaction.

        Returns:
            False when the (run, task, trial) already had an episode (nothing is written).
        """
        return self.add_episodes([record])[0]

    def add_episodes(self, records: Sequence[EpisodeRecord]) -> list[bool]:
        """Write finished episodes in one transaction (a commit per episode costs more).

        Returns:
            Per record, False when its (run, task, trial) already had an episode (that record
            is not written; the others are).
        """
        written = []
        with self._transaction():
            for record in records:
                cursor = self._db.execute(
                    "INSERT OR IGNORE INTO episodes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    _episode_row(record),
                )
                written.append(cursor.rowcount == 1)
        return written

    def set_judged_grade(self, record: EpisodeRecord) -> bool:
        """Complete the grade of an episode that waited for a judge (its reward was NULL).

        Args:
            record: The episode with its completed grade and reward (same run, task, trial).

        Returns:
            False when the episode is missing or already had a reward (nothing is written):
            a judged episode is never replaced.
        """
        with self._transaction():
            cursor = self._db.execute(
                "UPDATE episodes SET reward = ?, stats = ?, body = ? WHERE run_id = ? AND "
                "task_id = ? AND trial = ? AND reward IS NULL",
                (
                    record.reward,
                    json.dumps(_stats_of(record)),
                    redact(record.model_dump_json()),
                    record.run_id,
                    record.task_id,
                    record.trial,
                ),
            )
        return cursor.rowcount == 1

    def add_diagnostic_check(self, record: EpisodeRecord) -> bool:
        """Store an episode's grade with a diagnostic check added (its reward unchanged).

        Used for the strict reading of a run (`tau_env.rollout.strict_judging`): the ruling
        on NL assertions outside the task's basis joins the grade's checks. The reward, the
        official grade's outcome, stays as stored.

        Args:
            record: The stored episode with the check added to its grade.

        Returns:
            False when the episode is missing, has no reward yet, or its reward differs
            (nothing is written).
        """
        with self._transaction():
            cursor = self._db.execute(
                "UPDATE episodes SET body = ? WHERE run_id = ? AND task_id = ? AND trial = ? "
                "AND reward IS NOT NULL AND reward = ?",
                (
                    redact(record.model_dump_json()),
                    record.run_id,
                    record.task_id,
                    record.trial,
                    record.reward,
                ),
            )
        return cursor.rowcount == 1

    def unjudged(self, run_id: str) -> Iterator[EpisodeRecord]:
        """A run's episodes that wait for a judge (no reward), by task then trial."""
        rows = self._db.execute(
            "SELECT body FROM episodes WHERE run_id = ? AND reward IS NULL ORDER BY task_id, trial",
            (run_id,),
        ).fetchall()  # fetched at once: callers write judged grades while iterating
        for (body,) in rows:
            yield EpisodeRecord.model_validate_json(body)

    def unjudged_count(self, run_id: str) -> int:
        """How many of a run's episodes wait for a judge."""
        row = self._db.execute(
            "SELECT COUNT(*) FROM episodes WHERE run_id = ? AND reward IS NULL", (run_id,)
        )
        count: int = row.fetchone()[0]
        return count

    def completed(self, run_id: str) -> set[tuple[str, int]]:
        """The (task, trial) pairs of a run that have an episode."""
        rows = self._db.execute("SELECT task_id, trial FROM episodes WHERE run_id = ?", (run_id,))
        return {(task_id, trial) for task_id, trial in rows}

    def rewards(self, run_id: str) -> dict[str, dict[int, float | None]]:
        """Rewards by task, then trial, of a run's episodes (None: waits for a judge)."""
        rows = self._db.execute(
            "SELECT task_id, trial, reward FROM episodes WHERE run_id = ?", (run_id,)
        )
        result: dict[str, dict[int, float | None]] = {}
        for task_id, trial, reward in rows:
            result.setdefault(task_id, {})[trial] = reward
        return result

    def summaries(self, run_id: str) -> list[EpisodeSummary]:
        """A run's episodes without their trajectories and grades (cheap to read)."""
        rows = self._db.execute(
            "SELECT task_id, trial, reward, termination, stats FROM episodes WHERE run_id = ?"
            " ORDER BY task_id, trial",
            (run_id,),
        )
        return [
            EpisodeSummary(
                task_id=task_id,
                trial=trial,
                reward=reward,
                termination=termination,
                **json.loads(stats),
            )
            for task_id, trial, reward, termination, stats in rows
        ]

    def episodes(self, run_id: str) -> Iterator[EpisodeRecord]:
        """A run's episodes, by task then trial."""
        rows = self._db.execute(
            "SELECT body FROM episodes WHERE run_id = ? ORDER BY task_id, trial", (run_id,)
        )
        for (body,) in rows:
            yield EpisodeRecord.model_validate_json(body)

    def episode_count(self, run_id: str) -> int:
        """How many episodes a run has."""
        row = self._db.execute("SELECT COUNT(*) FROM episodes WHERE run_id = ?", (run_id,))
        count: int = row.fetchone()[0]
        return count

    # -- failures ------------------------------------------------------------------------------
    def add_failure(self, record: FailureRecord) -> None:
        """Log a failed attempt (kept forever, even after a later attempt succeeds)."""
        with self._transaction():
            self._db.execute(
                "INSERT INTO failures (run_id, task_id, trial, kind, at, body) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    record.run_id,
                    record.task_id,
                    record.trial,
                    record.kind,
                    record.at,
                    redact(record.model_dump_json()),
                ),
            )

    def failures(self, run_id: str, *, outstanding: bool = False) -> list[FailureRecord]:
        """A run's failed attempts, oldest first.

        Args:
            run_id: The run.
            outstanding: Only failures of (task, trial) pairs that still have no episode.
        """
        query = "SELECT body FROM failures f WHERE run_id = ?"
        if outstanding:
            query += (
                " AND NOT EXISTS (SELECT 1 FROM episodes e WHERE e.run_id = f.run_id"
                " AND e.task_id = f.task_id AND e.trial = f.trial)"
            )
        rows = self._db.execute(query + " ORDER BY id", (run_id,))
        return [FailureRecord.model_validate_json(body) for (body,) in rows]

    # -- internals -----------------------------------------------------------------------------
    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK`` on error) on an autocommit connection."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self._db.execute("ROLLBACK" if exc_type is not None else "COMMIT")


def _episode_row(record: EpisodeRecord) -> tuple[Any, ...]:
    """The values of an episode's row, in the table's column order."""
    return (
        record.run_id,
        record.task_id,
        record.trial,
        record.seed,
        record.reward,
        record.termination,
        record.started_at + record.duration,
        json.dumps(_stats_of(record)),
        redact(record.model_dump_json()),
    )


def _stats_of(record: EpisodeRecord) -> dict[str, Any]:
    return {
        "steps": record.steps,
        "duration": record.duration,
        "agent_usage": record.agent.usage.model_dump(),
        "user_usage": record.user.usage.model_dump(),
        "not_judged": record.reward is None,
        "judge_call_saved": judge_call_saved(record.grade),
        "user_faults": record.user_faults.model_dump(),
    }


def _migrate_from_1(db: sqlite3.Connection) -> None:
    """Schema 1 -> 2: rewards may be NULL; episodes with unjudged checks lose their reward.

    Schema 1 stored the product of the judged checks as the reward of an episode whose NL
    assertions nobody judged, so such episodes counted as passes. Under schema 2 they have no
    reward until a judge rules (their stats already flag them).
    """
    db.execute("ALTER TABLE episodes RENAME TO episodes_v1")
    db.execute(_EPISODES)
    db.execute("INSERT INTO episodes SELECT * FROM episodes_v1")
    db.execute("DROP TABLE episodes_v1")
    rows = db.execute("SELECT run_id, task_id, trial, stats, body FROM episodes").fetchall()
    for run_id, task_id, trial, stats, body in rows:
        flags = json.loads(stats)
        if not flags.get("not_judged"):
            continue
        episode = json.loads(body)
        episode["reward"] = None
        if isinstance(episode.get("grade"), dict):
            episode["grade"]["reward"] = None
        db.execute(
            "UPDATE episodes SET reward = NULL, body = ? WHERE run_id = ? AND task_id = ? "
            "AND trial = ?",
            (json.dumps(episode), run_id, task_id, trial),
        )
    db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA_VERSION),))


def _run_of(row: tuple[Any, ...]) -> RunRecord:
    run_id, created_at, domain, config, fingerprint, versions = row
    return RunRecord(
        run_id=run_id,
        created_at=created_at,
        domain=domain,
        config=json.loads(config),
        fingerprint=fingerprint,
        versions=json.loads(versions),
    )
