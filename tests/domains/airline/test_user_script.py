"""The scripted user's brief for airline scenarios: read from the scenario text alone."""

import tau_env
from tau_env.domains.airline import DEFINITION
from tau_env.domains.airline.user_script import USER_VOCABULARY
from tau_env.tasks.scenario_reading import read_scenario


def brief(task):
    return read_scenario(str(task.user_scenario), USER_VOCABULARY.scenario).script


def test_definition__plugs_in_the_vocabulary():
    assert DEFINITION.user_vocabulary is USER_VOCABULARY


def test_read__a_cancellation_gives_ids_the_wish_and_its_done_words(official):
    script = brief(official.task("0"))
    assert script.facts["user_id"] == "emma_kim_9957"
    assert script.facts["reservation_id"] == "EHGLP3" and script.facts["name"] == "Emma Kim"
    assert script.done_phrases == ["cancelled", "canceled"]
    assert script.accepts[:2] == ["confirm", "cancel"]
    assert script.opening.startswith("I want to cancel reservation EHGLP3.")


def test_read__flight_numbers_are_not_reservations(official):
    for task in official.tasks:
        reservation = brief(task).facts.get("reservation_id", "")
        assert not reservation.startswith("HAT"), task.id


def test_read__the_same_wish_gives_the_same_brief_whatever_the_gold_outcome(official):
    # Tasks 0 (refusal expected) and a copy whose gold plan cancels read the same brief.
    task = official.task("0")
    changed = task.model_copy(
        update={"evaluation_criteria": official.task("29").evaluation_criteria}
    )
    assert brief(changed) == brief(task)


def test_read__builtin_details_give_every_listed_fact():
    for task in tau_env.load_domain("airline").tasks:
        script = brief(task)
        known = task.user_scenario.instructions.known_info
        assert script.facts["user_id"] in known, task.id
        if "Details you can give when asked:" in known:
            assert len(script.facts) >= 4, (task.id, script.facts)
