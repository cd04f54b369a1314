import json

import pytest

import tau_env
from tau_env.errors import DataError
from tests.tasks.conftest import edit_tasks


def test_builtin_copy__loads_from_a_folder(mock_folder):
    assert len(tau_env.load_tasks("mock", data_dir=mock_folder)) == 10
    assert [t.id for t in tau_env.load_tasks("mock", data_dir=mock_folder, split="test")] == [
        "create_task_with_description",
        "reopen_task",
        "complete_with_patched_data",
    ]


def test_missing_field__names_file_task_and_field(mock_folder):
    edit_tasks(mock_folder, lambda tasks: tasks[2].pop("user_scenario"))
    with pytest.raises(DataError) as error:
        tau_env.load_tasks("mock", data_dir=mock_folder)
    text = str(error.value)
    assert "tasks.json" in text and "'complete_task'" in text and "'user_scenario'" in text


def test_wrong_type__names_the_nested_field(mock_folder):
    def change(tasks):
        tasks[0]["evaluation_criteria"]["reward_basis"] = ["DB", "VIBES"]

    edit_tasks(mock_folder, change)
    with pytest.raises(DataError, match=r"'create_task'.*evaluation_criteria\.reward_basis\.1"):
        tau_env.load_tasks("mock", data_dir=mock_folder)


def test_duplicate_ids_are_rejected(mock_folder):
    edit_tasks(mock_folder, lambda tasks: tasks.append(dict(tasks[0])))
    with pytest.raises(DataError, match="duplicate task id"):
        tau_env.load_tasks("mock", data_dir=mock_folder)


@pytest.mark.parametrize("func_name", ["__init__", "reference_hash", "os.system", "eval"])
def test_setup_calls_may_name_only_registered_functions(mock_folder, func_name):
    def change(tasks):
        tasks[0]["initial_state"] = {
            "initialization_actions": [
                {"env_type": "assistant", "func_name": func_name, "arguments": {}}
            ]
        }

    edit_tasks(mock_folder, change)
    with pytest.raises(DataError) as error:
        tau_env.load_tasks("mock", data_dir=mock_folder)
    text = str(error.value)
    assert "'create_task'" in text and "initialization_actions[0].func_name" in text
    assert "not a registered agent env function or tool" in text


def test_assertions_may_name_only_registered_functions(mock_folder):
    def change(tasks):
        tasks[1]["evaluation_criteria"]["env_assertions"][0]["func_name"] = "__class__"

    edit_tasks(mock_folder, change)
    with pytest.raises(DataError, match=r"env_assertions\[0\]\.func_name"):
        tau_env.load_tasks("mock", data_dir=mock_folder)


def test_broken_json_names_the_file(mock_folder):
    (mock_folder / "domains/mock/tasks.json").write_text("[{")
    with pytest.raises(DataError, match=r"tasks\.json: invalid JSON"):
        tau_env.load_tasks("mock", data_dir=mock_folder)


@pytest.mark.parametrize("name", ["db.json", "user_db.json", "tasks.json", "policy.md"])
def test_missing_file_names_the_file(mock_folder, name):
    (mock_folder / "domains/mock" / name).unlink()
    with pytest.raises(DataError, match=rf"{name}: file not found"):
        tau_env.load_tasks("mock", data_dir=mock_folder)


def test_missing_domain_folder_and_unknown_domain(tmp_path):
    with pytest.raises(DataError, match="domain folder not found"):
        tau_env.load_tasks("mock", data_dir=tmp_path)
    with pytest.raises(KeyError, match="unknown domain 'bank'"):
        tau_env.load_tasks("bank", data_dir=tmp_path)


def test_bad_database_names_file_and_field(mock_folder):
    path = mock_folder / "domains/mock/db.json"
    db = json.loads(path.read_text())
    db["tasks"]["task_1"]["status"] = 3
    path.write_text(json.dumps(db))
    with pytest.raises(DataError, match=r"db\.json: field 'tasks\.task_1\.status'"):
        tau_env.load_tasks("mock", data_dir=mock_folder)


def test_unknown_split_lists_the_known_ones(mock_folder):
    with pytest.raises(DataError, match=r"unknown split 'dev'; known: \['base', 'test', 'train'\]"):
        tau_env.load_tasks("mock", data_dir=mock_folder, split="dev")
