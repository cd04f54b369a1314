"""Hostile task files on every domain's official data (issue 9, item 2).

Each defect is planted in a copy of the official folder (in tmp; nothing is committed) and
must be refused with a `DataError` naming the file, the task and the field. Task files may only
name functions the domain registered: a setup call or assertion naming ``os.system``, ``eval``,
a dunder, a method of the world or a real but unregistered helper of the domain's code is
refused at load time, and nothing runs (a marker file the call would create never appears).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import tau_env
from tau_env.errors import DataError
from tests.reliability.hostile_data import (
    forget_loaded_data,
    read_tasks,
    refused,
    task_with_actions,
    unregistered_helpers,
    write_tasks,
)
from tests.reliability.tally import count


def _refused(layout, folder, *fragments: str) -> str:
    return refused(tau_env.load_tasks, layout, folder, *fragments)


def _plant(layout, folder, change) -> dict:
    """Apply `change(task)` to the first task with gold actions; return the changed task."""
    tasks = read_tasks(folder, layout)
    index = task_with_actions(tasks)
    change(tasks[index])
    write_tasks(folder, layout, tasks)
    return tasks[index]


def test_copy__loads_untouched(layout, folder):
    assert len(tau_env.load_tasks(layout.domain, data_dir=folder)) > 0


@pytest.mark.parametrize(
    ("defect", "field"),
    [
        (lambda t: t.pop("user_scenario"), "'user_scenario'"),
        (lambda t: t["user_scenario"].update(instructions=17), "'user_scenario.instructions"),
        (
            lambda t: t["evaluation_criteria"]["actions"][0].update(arguments="rm -rf /"),
            "'evaluation_criteria.actions.0.arguments'",
        ),
        (
            lambda t: t["evaluation_criteria"]["actions"][0].update(requestor="root"),
            "'evaluation_criteria.actions.0.requestor'",
        ),
        (
            lambda t: t["evaluation_criteria"].update(reward_basis=["DB", "VIBES"]),
            "'evaluation_criteria.reward_basis.1'",
        ),
        (
            lambda t: t["evaluation_criteria"].update(actions={"a": 1}),
            "'evaluation_criteria.actions'",
        ),
        (lambda t: t.update(initial_state=[1, 2]), "'initial_state'"),
        (lambda t: t.update(user_tools="all"), "'user_tools'"),
    ],
    ids=[
        "missing-scenario",
        "instructions-number",
        "arguments-string",
        "unknown-requestor",
        "unknown-basis",
        "actions-object",
        "initial-state-list",
        "user-tools-string",
    ],
)
def test_malformed_task__names_file_task_and_field(layout, folder, defect, field):
    task = _plant(layout, folder, defect)
    _refused(layout, folder, "tasks.json", f"task {task['id']!r}", field)


def test_task_without_a_usable_id__is_named_by_position(layout, folder):
    tasks = read_tasks(folder, layout)
    tasks[3]["id"] = 7
    tasks[5].pop("id")
    write_tasks(folder, layout, tasks)
    _refused(layout, folder, "tasks.json", "task #3", "'id'")


def test_duplicate_task_id__is_refused(layout, folder):
    tasks = read_tasks(folder, layout)
    write_tasks(folder, layout, [*tasks, copy.deepcopy(tasks[1])])
    _refused(layout, folder, "tasks.json", f"task {tasks[1]['id']!r}", "duplicate task id")


def _forbidden_names(layout) -> list[str]:
    return [
        "os.system",
        "eval",
        "__import__",
        "__init__",
        "__class__",
        "reference_hash",
        "fork",
        "call_tool",
        *unregistered_helpers(layout),
    ]


@pytest.mark.parametrize("env_type", ["assistant", "user"])
def test_setup_calls__may_name_only_registered_functions(layout, folder, env_type, tmp_path):
    marker = tmp_path / "executed"
    for name in _forbidden_names(layout):
        call = {
            "env_type": env_type,
            "func_name": name,
            "arguments": {"command": f"touch {marker}", "source": f"open('{marker}', 'w')"},
        }
        task = _plant(
            layout,
            folder,
            lambda t, c=call: t.update(initial_state={"initialization_actions": [c]}),
        )
        side = "agent" if env_type == "assistant" else "user"
        _refused(
            layout,
            folder,
            "tasks.json",
            f"task {task['id']!r}",
            "'initial_state.initialization_actions[0].func_name'",
            f"{name!r} is not a registered {side} env function or tool",
        )
        assert not marker.exists(), f"{name} was executed"


def test_assertions__may_name_only_registered_functions(layout, folder, tmp_path):
    marker = tmp_path / "executed"
    for name in _forbidden_names(layout):
        assertion = {
            "env_type": "assistant",
            "func_name": name,
            "arguments": {"command": f"touch {marker}"},
            "assert_value": True,
        }
        task = _plant(
            layout,
            folder,
            lambda t, a=assertion: t["evaluation_criteria"].update(env_assertions=[a]),
        )
        _refused(
            layout,
            folder,
            f"task {task['id']!r}",
            "'evaluation_criteria.env_assertions[0].func_name'",
        )
        assert not marker.exists(), f"{name} was executed"


def test_gold_actions__may_name_only_registered_tools(layout, folder):
    for name in ["__class__", "os.system", *unregistered_helpers(layout)]:
        task = _plant(
            layout, folder, lambda t, n=name: t["evaluation_criteria"]["actions"][0].update(name=n)
        )
        _refused(
            layout,
            folder,
            f"task {task['id']!r}",
            "'evaluation_criteria.actions[0].name'",
            repr(name),
        )


def test_unknown_domain__is_refused_with_the_registered_names(folder, layout):
    for name in ("bank", "tau/bank-v0", "../telecom", ""):
        with pytest.raises(KeyError) as raised:
            tau_env.load_tasks(name, data_dir=folder)
        assert "unknown domain" in str(raised.value) and "mock" in str(raised.value)
    with pytest.raises(KeyError, match="not registered; available versions"):
        tau_env.make(f"tau/{layout.domain}-v99", data_dir=folder)


# -- defects found when a task's world is built (first reset) ----------------------------------


def _reset_refused(layout, folder, task_id: str, *fragments: str) -> None:
    forget_loaded_data()
    env = tau_env.make_env(layout.domain, data_dir=folder).unwrapped
    with pytest.raises(DataError) as raised:
        env.reset(seed=0, options={"task_id": task_id})
    text = str(raised.value)
    for fragment in (f"task {task_id!r}", *fragments):
        assert fragment in text, f"{fragment!r} missing from: {text}"
    count("hostile data cases refused", layout.domain)


def _first_function(layout) -> tuple[str, str]:
    toolbox = tau_env.load_domain(layout.domain).toolbox
    for side, env_type in (("agent", "assistant"), ("user", "user")):
        names = list(toolbox.env_functions(side).names) + list(toolbox.tools(side).names)
        if names:
            return env_type, names[0]
    raise AssertionError("the domain registers no function")


def test_setup_call_with_bad_arguments__fails_at_reset_naming_the_field(layout, folder):
    env_type, name = _first_function(layout)
    call = {"env_type": env_type, "func_name": name, "arguments": {"no_such_argument": [1]}}
    task = _plant(
        layout, folder, lambda t: t.update(initial_state={"initialization_actions": [call]})
    )
    _reset_refused(layout, folder, task["id"], "'initial_state.initialization_actions[0]'", name)


def test_data_patch_of_the_wrong_shape__fails_at_reset_naming_the_field(layout, folder):
    domain = tau_env.load_domain(layout.domain)
    table = domain.data.agent_snapshot.layout[0].name
    for patch, fragment in (
        ({"no_such_table": {}}, "unknown field 'no_such_table'"),
        ({table: 5}, table),
    ):
        state = {"initialization_data": {"agent_data": patch}}
        task = _plant(layout, folder, lambda t, s=state: t.update(initial_state=s))
        _reset_refused(
            layout, folder, task["id"], "'initial_state.initialization_data.agent_data'", fragment
        )


def test_history_with_an_unanswered_tool_call__fails_at_reset(layout, folder):
    toolbox = tau_env.load_domain(layout.domain).toolbox
    tools = toolbox.tools("agent")
    name = next(n for n in tools.names if tools.get(n).mutates_state)
    history = [
        {"role": "assistant", "content": "Hi! How can I help you today?"},
        {"role": "user", "content": "Please help."},
        {
            "role": "assistant",
            "tool_calls": [{"id": "c1", "name": name, "arguments": {}, "requestor": "assistant"}],
        },
    ]
    state = {"message_history": history}
    task = _plant(layout, folder, lambda t: t.update(initial_state=state))
    _reset_refused(
        layout, folder, task["id"], "'initial_state.message_history'", "lack their results"
    )


def test_refused_task_file__is_a_clean_command_line_error(layout, folder, capsys):
    from tau_env.cli.main import main

    task = _plant(layout, folder, lambda t: t.pop("user_scenario"))
    code = main(["tasks", "--domain", layout.domain, "--data-dir", str(folder)])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("tau-env: error: ")
    assert "tasks.json" in err and repr(task["id"]) in err and "'user_scenario'" in err
    assert "Traceback" not in err


def test_task_file_values_are_data__never_code(layout, folder, tmp_path):
    """Strings that look like code (in arguments, scenarios, assertions) stay inert text."""
    marker = tmp_path / "executed"
    payload = f"__import__('os').system('touch {marker}')"

    def change(task):
        task["user_scenario"]["persona"] = payload
        task["evaluation_criteria"]["actions"][0]["arguments"] = {"x": payload}
        task["evaluation_criteria"]["nl_assertions"] = [payload]
        task["description"] = {"purpose": payload}

    task = _plant(layout, folder, change)
    env = tau_env.make_env(layout.domain, data_dir=folder).unwrapped
    env.reset(seed=0, options={"task_id": task["id"]})
    assert payload in json.dumps(env.task.model_dump(mode="json"))
    assert not Path(marker).exists()
