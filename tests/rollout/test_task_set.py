"""Task-set identity: the data folder's name and a hash of the tasks, databases and policy."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tau_env.domain import clear_domain_cache, load_domain
from tau_env.rollout import create_run, export_run, run, run_report
from tau_env.rollout.task_set import data_folder_name, task_set_of
from tau_env.store import ResultStore
from tests.rollout.conftest import mock_config


def test_data_folder_name__the_clone_names_a_reference_layout(tmp_path):
    assert data_folder_name(None) == "built-in"
    assert data_folder_name(tmp_path / "tau2-data") == "tau2-data"
    assert data_folder_name(tmp_path / "tau2-bench-verified" / "data" / "tau2") == (
        "tau2-bench-verified"
    )


def test_task_set__depends_on_the_tasks_not_on_their_order():
    mock = load_domain("mock")
    both = task_set_of(mock, ("create_task", "complete_task"), None)
    assert both == task_set_of(mock, ("complete_task", "create_task"), None)
    assert both.digest != task_set_of(mock, ("create_task",), None).digest
    assert (both.name, both.tasks, len(both.digest)) == ("built-in", 2, 16)


def test_task_set__is_recorded_with_the_run_and_shown_by_report_and_export(tmp_path):
    config = mock_config(trials=1, tasks=("create_task",))
    expected = task_set_of(load_domain("mock"), config.task_ids, None)
    with ResultStore(tmp_path / "s.sqlite") as store:
        create_run(store, config)
        run(store, config)
        versions = store.run("r").versions
        assert (versions["task_set"], versions["task_set_hash"]) == ("built-in", expected.digest)
        assert run_report(store, "r").task_set == expected
        assert run_report(store, "r").to_json()["task_set"] == expected.to_json()
        assert export_run(store, "r")["info"]["task_set"] == expected.to_json()


def test_task_set__changes_with_the_data_not_with_the_folder(tmp_path, data_dir):
    tasks = ("create_task_1", "update_task_with_message_history")
    copy = tmp_path / "elsewhere" / "data" / "tau2"
    shutil.copytree(data_dir / "domains" / "mock", copy / "domains" / "mock")
    try:
        official = task_set_of(load_domain("mock", data_dir), tasks, str(data_dir))
        moved = task_set_of(load_domain("mock", copy), tasks, str(copy))
        assert moved.name == "elsewhere" and moved.digest == official.digest
        path = copy / "domains" / "mock" / "tasks.json"
        changed = json.loads(path.read_text())
        changed[0]["evaluation_criteria"]["reward_basis"] = ["DB"]
        path.write_text(json.dumps(changed))
        clear_domain_cache()
        assert task_set_of(load_domain("mock", copy), tasks, str(copy)).digest != official.digest
        policy = copy / "domains" / "mock" / "policy.md"
        path.write_text(json.dumps(json.loads((data_dir / "domains/mock/tasks.json").read_text())))
        policy.write_text(policy.read_text() + "\nBe brief.\n")
        clear_domain_cache()
        assert task_set_of(load_domain("mock", copy), tasks, str(copy)).digest != official.digest
    finally:
        clear_domain_cache()


def test_task_set__the_documented_hashes_of_the_official_base_splits(data_dir):
    page = Path(__file__).resolve().parents[2] / "docs" / "importing.md"
    text = page.read_text(encoding="utf-8")
    listed = text.split("Hashes of the official base splits", 1)[1].split("tau2-bench-verified")[0]
    for domain in ("airline", "retail", "telecom", "banking_knowledge"):
        loaded = load_domain(domain, data_dir)
        ids = tuple(task.id for task in loaded.split(None))
        digest = task_set_of(loaded, ids, str(data_dir)).digest
        assert f"{domain} `{digest}`" in " ".join(listed.split()), domain
