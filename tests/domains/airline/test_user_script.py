"""Scripted-user briefs derived from official airline tasks."""

import pytest

import tau_env
from tau_env.domains.airline.constants import REFUSAL_PHRASES
from tau_env.domains.airline.user_script import derive_user_script


@pytest.fixture(scope="module")
def official(data_dir):
    return tau_env.load_domain("airline", data_dir)


def test_derive__refusal_task_gives_ids_and_refusal_cues(official):
    script = derive_user_script(official.task("0"))
    assert script.facts == {
        "user_id": "emma_kim_9957",
        "reservation_id": "EHGLP3",
        "name": "Emma Kim",
    }
    assert script.done_phrases == list(REFUSAL_PHRASES)
    assert script.accepts == [] and not script.expects_transfer
    assert script.opening.startswith("You want to cancel reservation EHGLP3.")


def test_derive__writes_give_done_words_and_flight_numbers_are_not_reservations(official):
    booking = derive_user_script(official.task("29"))
    assert booking.done_phrases == ["cancelled", "booked"] and booking.accepts == ["confirm"]
    assert booking.facts["reservation_id"] == "VA5SGQ" and "reservation_ids" not in booking.facts
    assert derive_user_script(official.task("5")).facts.get("reservation_id") is None


def test_derive__transfer_task(official):
    assert derive_user_script(official.task("13")).expects_transfer


def test_definition__offers_the_hook():
    from tau_env.domains.airline import DEFINITION

    assert DEFINITION.derive_user_script is derive_user_script
