"""The 8-word-run check: what is masked, what is normalised, what counts as copying."""

from tau_env.wrappers.users.parroting import RUN, ScenarioWords, copied_runs, masked_words

SCENARIO = (
    "Instructions:\n\tDomain: airline\n\tReason for call:\n"
    "\t\tYou want to book a one-way trip from Dallas (DFW) to San Francisco (SFO).\n"
    "\tKnown info:\n\t\tYou are Noor Xu; your user id is noor_xu_7697. Details you can give "
    "when asked: user id: noor_xu_7697; trip type: one-way trip; bags: 0.\n"
    "\tTask instructions:\n\t\tIf the agent asks, say 'the cheapest nonstop flight'. Halfway "
    "through, abruptly mention that you would like to talk about something else.\n"
)


def test_masked__ids_numbers_codes_names_quotes_parentheses_and_attribute_lists():
    assert masked_words("Cancel order #W4580262 for noor_xu_7697 on 2024-05-19 ($12.50).") == (
        "cancel",
        "order",
        "for",
        "on",
    )
    assert masked_words("I fly with Noor Xu to EHGLP3 and DFW.") == (
        "<person>",
        "fly",
        "with",
        "to",
        "and",
    )
    assert masked_words("Say 'No Service' or \"all good\" now.") == ("say", "or", "now")
    assert masked_words("Swap it for switch: tactile, layout: compact, backlight: none.") == (
        "swap",
        "it",
        "for",
    )
    # A single "label: value" is a sentence, not a list of facts: its words count.
    assert masked_words("My phone is unusable: pages never load.") == (
        "<person>",
        "phone",
        "is",
        "unusable",
        "pages",
        "never",
        "load",
    )
    # A capital at the start of a sentence is not a name.
    assert masked_words("Details. Travel now.")[:2] == ("details", "travel")


def test_normalised__person_and_contractions_are_not_a_paraphrase():
    assert masked_words("You're sure you'd like it; I'm sure I'd like it.") == masked_words(
        "I am sure I would like it; you are sure you would like it."
    )
    assert masked_words("don't, can't, won't, it's") == (
        "do",
        "not",
        "can",
        "not",
        "will",
        "not",
        "it",
        "is",
    )


def test_copied__a_run_of_eight_words_counts_and_seven_do_not():
    assert RUN == 8
    assert copied_runs("I want to book a one-way trip from Dallas to Boston.", SCENARIO) == [
        "<person> want to book a one way trip from to"
    ]
    # Seven words in a row: "book a one way trip from ... to".
    assert copied_runs("Could I book a one-way trip from Dallas (DFW) to SFO?", SCENARIO) == []
    assert copied_runs("I'd like a one-way flight from Dallas to San Francisco.", SCENARIO) == []


def test_copied__the_instructions_read_aloud_are_caught_the_facts_are_not():
    aloud = "Halfway through, abruptly mention that I would like to talk about something else."
    assert copied_runs(aloud, SCENARIO)
    facts = "My user id is noor_xu_7697. My trip type is one-way trip. It's 'the cheapest nonstop"
    facts += " flight'."
    assert copied_runs(facts, SCENARIO) == []


def test_copied__runs_may_cross_a_sentence_end_and_overlapping_runs_merge():
    text = "alpha beta gamma delta epsilon zeta eta theta iota kappa"
    words = ScenarioWords.of(text)
    assert words.copied("Alpha beta gamma delta. Epsilon zeta eta theta iota!") == [
        "alpha beta gamma delta epsilon zeta eta theta iota"
    ]
    assert words.copied("alpha beta gamma delta epsilon zeta eta") == []
