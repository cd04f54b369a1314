import tau_env
from tau_env.tasks import Task, UserScenario


def test_user_scenario__str_matches_the_reference_layout():
    scenario = UserScenario.model_validate(
        {
            "persona": "Calm\nand brief",
            "instructions": {
                "domain": "mock",
                "reason_for_call": "Need help",
                "known_info": "id u1",
                "task_instructions": "Be nice",
            },
        }
    )
    assert str(scenario) == (
        "Persona:\n\tCalm\n\tand brief\nInstructions:\n\tDomain: mock\n\tReason for call:\n"
        "\t\tNeed help\n\tKnown info:\n\t\tid u1\n\tTask instructions:\n\t\tBe nice"
    )
    plain = UserScenario(instructions="Delete everything.")
    assert str(plain) == "Instructions:\n\tDelete everything."


def test_task__ignores_keys_the_reference_ignores():
    task = Task.model_validate(
        {
            "id": "t",
            "annotations": {"x": 1},
            "description": {"purpose": "p", "info": "dropped"},
            "user_scenario": {"instructions": "hi"},
        }
    )
    assert task.description is not None and task.description.purpose == "p"
    assert task.reward_basis == []


def test_task__default_reward_basis_is_db_and_communicate():
    task = Task.model_validate(
        {"id": "t", "user_scenario": {"instructions": "x"}, "evaluation_criteria": {"actions": []}}
    )
    assert task.reward_basis == ["DB", "COMMUNICATE"]


def test_official_mock_tasks__load_with_every_feature(data_dir):
    tasks = tau_env.load_tasks("mock", data_dir=data_dir)
    assert len(tasks) == 10
    by_id = {t.id: t for t in tasks}
    assert by_id["update_task_with_message_history"].initial_state.message_history
    assert by_id[
        "update_task_with_initialization_data"
    ].initial_state.initialization_data.agent_data
    assert by_id["impossible_task_1"].gold_actions[0].compare_args == []
    assert by_id["update_task_with_user_tools"].reward_basis == ["DB", "ACTION", "ENV_ASSERTION"]
