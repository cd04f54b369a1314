import hashlib
import sqlite3

import pytest

from tau_env.errors import TauEnvError
from tau_env.store import NotAStore, ResultStore
from tests.store.test_sqlite import _episode, _run, _schema_1_store


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_read_only__reads_everything_and_cannot_write(tmp_path):
    path = tmp_path / "s.sqlite"
    with ResultStore(path) as store:
        store.create_run(_run("a"))
        store.add_episode(_episode())
    before = _digest(path)
    with ResultStore(path, read_only=True) as store:
        assert [run.run_id for run in store.runs()] == ["a"]
        assert list(store.episodes("a")) == [_episode()]
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            store.add_episode(_episode(trial=1))
    assert _digest(path) == before


def test_read_only__a_missing_file_is_not_created(tmp_path):
    with pytest.raises(TauEnvError, match="no such result store"):
        ResultStore(tmp_path / "none.sqlite", read_only=True)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("read_only", [True, False])
def test_foreign_database__is_refused_before_anything_is_written(tmp_path, read_only):
    path = tmp_path / "app.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE runs (x)")  # even a table of the same name
    db.commit()
    db.close()
    before = _digest(path)
    with pytest.raises(NotAStore, match=r"holds runs; a store has the tables episodes"):
        ResultStore(path, read_only=read_only)
    assert _digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app.db"]


def test_empty_database__becomes_a_store_when_written(tmp_path):
    path = tmp_path / "new.sqlite"
    sqlite3.connect(path).close()  # an empty SQLite file
    with ResultStore(path) as store:
        store.create_run(_run("a"))
    with ResultStore(path, read_only=True) as store:
        assert store.run().run_id == "a"


def test_read_only__a_schema_1_store_is_migrated_in_memory_and_left_on_disk(tmp_path):
    path = _schema_1_store(tmp_path)
    before = _digest(path)
    with ResultStore(path, read_only=True) as store:
        assert store.rewards("a") == {"t": {0: None, 1: 1.0}}
    assert _digest(path) == before
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("1",)


def test_a_store_older_than_the_import_tables__read_only_and_writable(tmp_path):
    path = tmp_path / "old.sqlite"
    with ResultStore(path) as store:
        store.create_run(_run("a"))
    db = sqlite3.connect(path)
    db.execute("DROP TABLE imports")
    db.execute("DROP TABLE imported_simulations")
    db.commit()
    db.close()
    before = _digest(path)
    with ResultStore(path, read_only=True) as store:  # stand-in tables, nothing written
        assert store.import_of("a") is None and store.imported_simulations("a") == []
    assert _digest(path) == before
    with ResultStore(path) as store:  # opened for writing: it gains the tables
        assert store.import_of("a") is None
    tables = {row[0] for row in sqlite3.connect(path).execute("SELECT name FROM sqlite_master")}
    assert {"imports", "imported_simulations"} <= tables


def test_delete_run__an_imported_run_takes_its_import_record_with_it(tmp_path):
    from tau_env.store import ImportedSimulation, ImportRecord

    with ResultStore(tmp_path / "s.sqlite") as store:
        source = ImportRecord(
            run_id="a", source="r.json", sha256="f" * 64, imported_at=1.0, info={}
        )
        simulation = ImportedSimulation(
            run_id="a", task_id="t", trial=0, status="regraded", recorded={"reward": 1.0}
        )
        store.add_imported_run(_run("a"), source, [_episode()], [simulation])
        assert store.imports_of_file("f" * 64) == ["a"]
        assert store.delete_run("a") == (1, 0)
        assert store.imports_of_file("f" * 64) == [] and store.imported_simulations("a") == []
