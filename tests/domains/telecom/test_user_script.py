"""The telecom vocabulary of the scripted user: goal checks, offers, official scenarios."""

import pytest

import tau_env
from tau_env.domains.telecom import DEFINITION, WORKFLOW_DEFINITION
from tau_env.domains.telecom.user_script import USER_VOCABULARY
from tau_env.tasks.scenario_reading import read_scenario
from tests.domains.telecom.conftest import call


def brief(task):
    return read_scenario(str(task.user_scenario), USER_VOCABULARY.scenario).script


def test_definitions__plug_in_the_vocabulary():
    assert DEFINITION.user_vocabulary is WORKFLOW_DEFINITION.user_vocabulary is USER_VOCABULARY


def test_goal_checks__read_the_success_texts_of_the_real_tools():
    checks = [check for _, check in USER_VOCABULARY.scenario.goal_checks]
    world = tau_env.load_domain("telecom").new_world(seed=0)
    for check in checks:
        assert check.expect in call(world, "user", check.tool, **check.arguments)
    world.run_env_function("user", "turn_airplane_mode_on", {})
    for check in checks:
        assert check.expect not in call(world, "user", check.tool, **check.arguments)


@pytest.fixture(scope="module")
def official(data_dir):
    return {t.id: t for t in tau_env.load_tasks("telecom", data_dir=data_dir, split="full")}


def test_official__every_scenario_gives_its_goal_check_and_facts(official):
    expected = {
        "service_issue": "check_status_bar",
        "mobile_data_issue": "run_speed_test",
        "mms_issue": "can_send_mms",
    }
    for task_id, task in official.items():
        script = brief(task)
        intent = task_id.split("]")[0][1:]
        assert [check.tool for check in script.goal_checks] == [expected[intent]], task_id
        assert script.facts["name"] == "John Smith", task_id
        assert script.facts["phone_number"] == "555-123-2002", task_id


def test_official__offers_follow_the_scenario_not_the_outcome(official):
    service = brief(official["[service_issue]overdue_bill_suspension[PERSONA:Easy]"])
    assert "pay" in service.accepts and "refuel" not in service.accepts
    data = next(t for i, t in official.items() if i.startswith("[mobile_data_issue]user_abroad"))
    script = brief(data)
    assert script.facts["location"] == "abroad in France"
    assert "refuel" in script.accepts and "plan" in script.declines
    # A task whose right outcome is a transfer reads exactly like one whose issue is fixable.
    locked = official["[service_issue]lock_sim_card_pin[PERSONA:Hard]"]
    fixable = official["[service_issue]airplane_mode_on|break_apn_settings[PERSONA:Hard]"]
    assert brief(locked) == brief(fixable)
