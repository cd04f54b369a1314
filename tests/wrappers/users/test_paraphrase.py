"""The reason for calling in the customer's own words: what is said, how, and never copied."""

import re

import pytest

from tau_env.wrappers.users.paraphrase import FILLER_BUDGET, sayable_sentences, spoken_variants
from tau_env.wrappers.users.parroting import copied_runs
from tau_env.wrappers.users.phrasebook import REWRITES, SYNONYMS

FILLERS = ("you know", "I mean")
AIRLINE_2 = (
    "First, try to book a flight from sf to ny. I will have 3 passengers. Halfway through the book "
    "flight process, abruptly mention that I would like to talk about something else by saying "
    "that I am frustrated with the delayed flight in my most recent reservation."
)


def test_sayable__stage_directions_are_left_out():
    said = sayable_sentences(AIRLINE_2)
    assert said == ["I want to book a flight from sf to ny.", "I will have 3 passengers."]
    said = sayable_sentences(
        "I want to exchange the lamp. If the agent asks for confirmation, only exchange the lamp. "
        "Make sure to mention both orders. I'd like it in red (do not reveal it to the agent)."
    )
    assert said == ["I want to exchange the lamp.", "I'd like it in red."]


def test_sayable__the_customers_own_conditions_and_the_agent_as_you():
    said = sayable_sentences(
        "I want a clicky keyboard. If there is no clicky one, I'd go for no backlight. "
        "I wonder if the agent can split the payment."
    )
    assert said[1] == "If there is no clicky one, I'd go for no backlight."
    assert said[2] == "I wonder if you can split the payment."


def test_sayable__a_clause_that_directs_is_cut_and_a_play_sentence_dropped():
    said = sayable_sentences(
        "I'm flying with family and everyone has insurance, so insist persistently on it. "
        "I am trying to make the agent issue a compensation that is not allowed."
    )
    assert said == ["I'm flying with family and everyone has insurance."]


def test_sayable__an_opening_of_directions_only_keeps_its_first_sentence():
    assert sayable_sentences("Mention the order. Ask for a refund.") == ["Mention the order."]


SCENARIO = """Instructions:
	Domain: retail
	Reason for call:
		You want to cancel order #W4580262 because you placed it by mistake.
	Task instructions:
		Ask how much will be refunded. End the call once it is cancelled.
"""


def test_variants__never_copy_keep_the_wish_and_the_id_and_differ():
    opening = "I want to cancel order #W4580262 because I placed it by mistake."
    variants = spoken_variants(opening, SCENARIO, FILLERS)
    assert len(variants) >= 3
    for said in variants:
        assert copied_runs(said, SCENARIO) == []
        assert "cancel" in said and "#W4580262" in said


def test_variants__are_fixed_for_an_opening_and_scenario():
    opening = "I want to cancel order #W4580262 because I placed it by mistake."
    spoken_variants.cache_clear()
    first = spoken_variants(opening, SCENARIO, FILLERS)
    spoken_variants.cache_clear()
    assert spoken_variants(opening, SCENARIO, FILLERS) == first


def test_variants__a_sentence_no_rewrite_breaks_takes_fillers_within_the_budget():
    scenario = "You said alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu."
    opening = "I said alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu."
    for said in spoken_variants(opening, scenario, FILLERS):
        assert copied_runs(said, scenario) == []
        assert sum(said.count(f", {filler},") for filler in FILLERS) <= FILLER_BUDGET


def test_variants__what_cannot_be_said_without_copying_is_said_as_its_gist():
    words = " ".join(f"alpha{n}" for n in "abcdefghijklmnopqrstuvwxyz")
    scenario = f"You want to cancel {words}."
    said = spoken_variants(f"I want to cancel {words}.", scenario, FILLERS)
    assert all(copied_runs(s, scenario) == [] for s in said)
    assert all(s.startswith("I'm calling to cancel something.") for s in said)


def test_phrasebook__never_replaces_a_wish_or_what_it_concerns():
    protected = {
        "cancel",
        "book",
        "exchange",
        "return",
        "swap",
        "change",
        "refund",
        "order",
        "reservation",
        "bags",
        "data",
        "mms",
        "insurance",
        "passenger",
        "compensation",
        "balance",
        "price",
        "tracking",
        "upgrade",
        "default",
        "address",
    }
    assert not protected & set(SYNONYMS)
    for pattern, options in REWRITES:
        for word in protected:
            if re.search(rf"\b{word}\b", pattern, re.IGNORECASE):
                kept = all(re.search(rf"\b{word}|\\1", option) for option in options)
                assert kept, (pattern, word)


@pytest.mark.parametrize("pattern", [p for p, _ in REWRITES])
def test_phrasebook__patterns_compile(pattern):
    re.compile(pattern)
