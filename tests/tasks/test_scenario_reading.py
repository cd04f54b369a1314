import pytest

from tau_env.tasks.model import GoalCheck, StructuredUserInstructions, UserScenario
from tau_env.tasks.scenario_reading import ScenarioVocabulary, read_scenario, with_details


def read(reason, known="", instructions="", vocabulary=None, persona=None):
    scenario = UserScenario(
        persona=persona,
        instructions=StructuredUserInstructions(
            domain="d", reason_for_call=reason, known_info=known, task_instructions=instructions
        ),
    )
    return read_scenario(str(scenario), vocabulary)


def test_facts__common_phrasings_give_keys_and_exact_values():
    brief = read(
        "You want to cancel order #W1234567.",
        known=(
            "You are Ana Lima, living in zip code 02139. Your user id is ana_lima_42. "
            "Your email address is ana@example.com. You were born on 1990-01-02."
        ),
        instructions="If asked for the reason, say 'no longer needed'.",
        vocabulary=ScenarioVocabulary(fact_patterns=(("order_id", r"#W\d{7}"),)),
    )
    facts = brief.script.facts
    assert facts["name"] == "Ana Lima" and facts["last_name"] == "Lima"
    assert facts["zip"] == "02139" and facts["user_id"] == "ana_lima_42"
    assert facts["email"] == "ana@example.com" and facts["date_of_birth"] == "1990-01-02"
    assert facts["reason"] == "no longer needed" and facts["order_id"] == "#W1234567"
    assert brief.evidence["fact:reason"] == "If asked for the reason, say 'no longer needed'"


def test_facts__double_barrelled_names_are_read_whole():
    # A generated store of more than 1,200 customers names them "Kira Sato-Ibarra": the
    # scripted user gave "Sato-" as the last name and no name-and-zip look-up found them.
    facts = read(
        "You want to cancel an order.",
        known="You are Kira Sato-Ibarra, living in zip code 68152. Your user id is "
        "kira_sato-ibarra_8150.",
    ).script.facts
    assert facts["name"] == "Kira Sato-Ibarra"
    assert (facts["first_name"], facts["last_name"]) == ("Kira", "Sato-Ibarra")
    assert facts["user_id"] == "kira_sato-ibarra_8150"
    assert read("x", known="You are Mia de Vries.").script.facts["last_name"] == "de Vries"


def test_facts__details_sentence_round_trips_and_unknown_info_is_never_read():
    known = with_details("You are Ana Lima.", {"travel_date": "2024-05-19", "new_zip": "10001"})
    assert known.endswith(
        "Details you can give when asked: travel date: 2024-05-19; new zip: 10001."
    )
    facts = read("You want to book a flight.", known=known).script.facts
    assert facts["travel_date"] == facts["date"] == "2024-05-19"
    assert facts["new_zip"] == "10001" and "zip" not in facts  # "new zip" is not the zip
    with pytest.raises(ValueError, match="cannot be listed"):
        with_details("", {"items": "a; b"})


def test_wishes__give_done_words_and_accepts_negated_ones_are_declined():
    script = read(
        "You want to exchange a lamp.",
        instructions="You will never cancel the order. Accept a travel certificate.",
    ).script
    assert script.done_phrases[:2] == ["exchanged", "exchange"]
    assert script.accepts[:2] == ["confirm", "exchange"] and "certificate" in script.accepts
    assert "cancel" in script.declines and "cancelled" not in script.done_phrases


def test_wishes__verbs_outside_a_wish_are_not_wishes():
    script = read("Your phone is slow.", instructions="If the tool does not return, retry.").script
    assert script.done_phrases == [] and script.accepts == []


def test_questions_and_reactions__are_read_from_the_instructions():
    script = read(
        "You want to cancel order #W1.",
        instructions=(
            "Ask how much will be refunded. If the agent says the order does not exist, end the "
            "call. If the agent refuses, ask to be transferred to a human agent."
        ),
    ).script
    assert script.questions == ["How much will be refunded?"]
    assert "does not exist" in script.done_phrases
    assert script.after_refusal == "ask_human"


def test_vocabulary__goal_checks_offers_and_declines():
    vocabulary = ScenarioVocabulary(
        goal_checks=(
            (r"resolved when the light is green", GoalCheck(tool="look", expect="green")),
        ),
        offers=((r"willing to pay", ("pay",)),),
        declines=((r"no new plan", ("plan",)),),
    )
    script = read(
        "Your lamp is off.",
        instructions="It is resolved when the light is green. You are willing to pay. No new plan.",
        vocabulary=vocabulary,
    ).script
    assert script.goal_checks == [GoalCheck(tool="look", expect="green")]
    assert "pay" in script.accepts and script.declines == ["plan"]


def test_read__is_cached_per_text():
    first = read("You want to book a trip.")
    assert read("You want to book a trip.") is first
