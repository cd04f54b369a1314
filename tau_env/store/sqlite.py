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
their other checks as reward) are migrated when opened (opened read-only: in a private copy in
memory): those episodes lose that reward.

A file is checked to be a tau_env store before anything is written to it, and commands that
only read open it read-only (`tau_env.store.opening`).
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
from tau_env.store.codec import read_record, record_json
from tau_env.store.opening import check_store, connect, in_memory_copy
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

_IMPORT_TABLES = {
    "imports": "run_id TEXT PRIMARY KEY REFERENCES runs(run_id), sha256 TEXT NOT NULL, "
    "body TEXT NOT NULL",
    "imported_simulations": "run_id TEXT NOT NULL REFERENCES runs(run_id), "
    "task_id TEXT NOT NULL, trial INTEGER NOT NULL, status TEXT NOT NULL, body TEXT NOT NULL, "
    "PRIMARY KEY (run_id, task_id, trial)",
}
"""Tables of imported runs' provenance, added without a schema change: a store of an older
tau_env gains them when opened for writing; opened read-only, empty temporary ones stand in."""

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
"""
    + "".join(
        f"CREATE TABLE IF NOT EXISTS {name} ({columns});\n"
        for name, columns in _IMPORT_TABLES.items()
    )
    + "CREATE INDEX IF NOT EXISTS imports_by_file ON imports (sha256);\n"
)


class RunExists(TauEnvError, ValueError):
    """A run with that id is already in the store (resume it instead)."""


class UnknownRun(TauEnvError, LookupError):
    """The store holds no run with that id."""


class ResultStore:
    """A SQLite result store; one instance per process, used from one thread.

    Args:
        path: The database file (created with its folder when missing), or ``":memory:"``.
        read_only: Open an existing store only to read it (``report``, ``export``): the file
            is never changed, and may be in a read-only folder or file system.

    Raises:
        NotAStore: The file is another SQLite database; it is left unchanged.
        TauEnvError: The file cannot be opened, is not a database, or has a newer schema.
    """

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = str(path)
        self.read_only = read_only
        self._db = connect(self.path, read_only=read_only)
        try:
            check_store(self._db, self.path, allow_empty=not read_only)
            self._db.execute("PRAGMA busy_timeout=10000")
            if not read_only:
                self._db.execute("PRAGMA journal_mode=WAL")
                # NORMAL is durable against a killed process (not against power loss), and fast.
                self._db.execute("PRAGMA synchronous=NORMAL")
                self._db.executescript(_SCHEMA)  # an older store gains the newer tables
            self._check_schema_version()
            if read_only:
                self._stand_in_tables()
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise TauEnvError(f"{self.path}: not a usable result store: {error}") from None
        except TauEnvError:
            self._db.close()
            raise

    def _stand_in_tables(self) -> None:
        """Empty temporary tables for the optional ones an older store lacks (read-only)."""
        rows = self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        present = {name for (name,) in rows}
        for name, columns in _IMPORT_TABLES.items():
            if name not in present:
                self._db.execute(f"CREATE TEMP TABLE {name} ({columns})")

    def _check_schema_version(self) -> None:
        row = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif int(row[0]) == 1:
            if self.read_only:  # migrated in a private copy: the file is left as it is
                self._db, on_disk = in_memory_copy(self._db), self._db
                on_disk.close()
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
                    (run.run_id, source.sha256, redact(record_json(source))),
                )
                self._db.executemany(
                    "INSERT INTO imported_simulations VALUES (?, ?, ?, ?, ?)",
                    [
                        (s.run_id, s.task_id, s.trial, s.status, redact(record_json(s)))
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
        return None if row is None else read_record(ImportRecord, row[0])

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
        return [read_record(ImportedSimulation, body) for (body,) in rows]

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

    def delete_run(self, run_id: str) -> tuple[int, int]:
        """Remove a run with its episodes, failed attempts and import record, in one transaction.

        Returns:
            How many episodes and failed attempts were removed.

        Raises:
            UnknownRun: No such run (nothing is removed).
        """
        self.run(run_id)  # raises UnknownRun with the known runs
        with self._transaction():
            episodes = self._db.execute("DELETE FROM episodes WHERE run_id = ?", (run_id,))
            failures = self._db.execute("DELETE FROM failures WHERE run_id = ?", (run_id,))
            for table in _IMPORT_TABLES:  # an imported run's provenance goes with it
                self._db.execute(f"DELETE FROM {table} WHERE run_id = ?", (run_id,))
            self._db.execute("DELETE FROM runs WHERE run_id = ?", (run_id,))
        return episodes.rowcount, failures.rowcount

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
        """Write a finished episode in its own transaction.

        Text without a UTF-8 form (a lone surrogate) is stored escaped, losslessly.

        Returns:
            False when the (run, task, trial) already had an episode (nothing is written).

        Raises:
            UnstorableRecord: The episode holds a value JSON cannot represent (nothing is
                written; the caller records the attempt as failed).
        """
        row = _episode_row(record)  # before the transaction: an unstorable one writes nothing
        with self._transaction():
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO episodes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", row
            )
        return cursor.rowcount == 1

    def add_episodes(self, records: Sequence[EpisodeRecord]) -> list[bool]:
        """Write finished episodes, each in its own transaction (see `add_episode`).

        One episode's failure never takes the others with it: those before it are committed.

        Returns:
            Per record, False when its (run, task, trial) already had an episode (that record
            is not written; the others are).
        """
        return [self.add_episode(record) for record in records]

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
                    redact(record_json(record)),
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
                    redact(record_json(record)),
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
            yield read_record(EpisodeRecord, body)

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
            yield read_record(EpisodeRecord, body)

    def episode(self, run_id: str, task_id: str, trial: int) -> EpisodeRecord | None:
        """One episode of a run (None when the run has none for that task and trial)."""
        row = self._db.execute(
            "SELECT body FROM episodes WHERE run_id = ? AND task_id = ? AND trial = ?",
            (run_id, task_id, trial),
        ).fetchone()
        return None if row is None else read_record(EpisodeRecord, row[0])

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
                    redact(record_json(record)),
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
        return [read_record(FailureRecord, body) for (body,) in rows]

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
        redact(record_json(record)),
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
        "token_turns": len(record.agent_tokens),
        "retokenized_turns": sum(turn.retokenized for turn in record.agent_tokens),
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
