import pytest

import tau_env
from tau_env.errors import DataError
from tests.tasks.conftest import edit_tasks


def test_initial_state__history_writes_are_replayed_once_per_task():
    domain = tau_env.load_domain("mock")
    prepared = domain.prepare(domain.task("complete_after_history"))
    assert prepared.initial_world.agent_db.tasks["task_4"].title == "Call the bank"
    assert domain.prepare(domain.task("complete_after_history")) is prepared


def test_initial_state__patches_and_setup_calls_apply_to_their_own_side():
    domain = tau_env.load_domain("mock")
    patched = domain.prepare(domain.task("complete_with_patched_data")).initial_world
    assert patched.agent_db.users["user_2"].tasks == ["task_3", "task_9"]
    # the reference re-points the user toolkit at the agent DB here; we keep them separate
    assert "notif_1" in patched.user_db.notifications
    setup = domain.prepare(domain.task("complete_with_setup_call")).initial_world
    assert setup.agent_db.tasks["task_4"].title == "Send invoices"


def test_history_whose_recorded_output_differs_is_rejected(mock_folder):
    def change(tasks):
        history = next(t for t in tasks if t["id"] == "complete_after_history")
        history["initial_state"]["message_history"][3]["content"] = '{"task_id": "task_99"}'

    edit_tasks(mock_folder, change)
    domain = tau_env.load_domain("mock", mock_folder)
    with pytest.raises(
        DataError, match=r"'complete_after_history'.*message_history.*replaying create_task"
    ):
        domain.prepare(domain.task("complete_after_history"))


def test_history_with_unanswered_tool_call_is_rejected(mock_folder):
    def change(tasks):
        history = next(t for t in tasks if t["id"] == "complete_after_history")
        del history["initial_state"]["message_history"][3]

    edit_tasks(mock_folder, change)
    domain = tau_env.load_domain("mock", mock_folder)
    with pytest.raises(DataError, match="lack their results"):
        domain.prepare(domain.task("complete_after_history"))


def test_failing_setup_call_names_the_field(mock_folder):
    def change(tasks):
        task = next(t for t in tasks if t["id"] == "complete_with_setup_call")
        task["initial_state"]["initialization_actions"][0]["arguments"]["user_id"] = "user_42"

    edit_tasks(mock_folder, change)
    domain = tau_env.load_domain("mock", mock_folder)
    with pytest.raises(DataError, match=r"initialization_actions\[0\]'.*User user_42 not found"):
        domain.prepare(domain.task("complete_with_setup_call"))
