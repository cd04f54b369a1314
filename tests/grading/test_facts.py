"""Whole words and whole numbers: how the strict COMMUNICATE check hears a fact."""

import pytest

from tau_env.grading.facts import heard_in, phrase, tokens


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        ("22.30", "Your balance is $22.3."),
        ("22.3", "It is 22.30 dollars"),
        ("156", "The total is $156.00, paid by card"),
        ("1066", "a refund of $1,066"),
        ("24 hours", "within 24 hours, as the policy says"),
        ("basic economy", "Basic Economy flights cannot change"),
        ("#W5557067", "order W5557067 is pending"),
        ("another person", "I cannot act on another person's order"),
    ],
)
def test_heard__normalised_whole_words_and_numbers(fact, text):
    assert heard_in(phrase(fact), tokens(text))


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        ("2", "within 24 hours"),  # never inside another number
        ("once", "the id of the order concerned"),  # never inside another word
        ("15", "on 2024-05-15"),  # a date is one token
        ("5421", "order W5421"),  # an id is one token
        ("24 hours", "a 24-hour window"),
        ("basic economy", "basic_economy"),  # a value's spelling is not the phrase
        ("22.30", "22.31"),
    ],
)
def test_not_heard__inside_other_tokens_or_other_values(fact, text):
    assert not heard_in(phrase(fact), tokens(text))


def test_tokens__json_results_read_as_their_keys_and_values():
    said = tokens('{"destination": "SEA", "price": 156.0, "status": "landed"}')
    assert said == ("destination", "sea", "price", "156", "status", "landed")


def test_heard__an_empty_fact_is_never_heard():
    assert not heard_in(phrase(" , "), tokens("anything"))
