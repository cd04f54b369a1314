from tau_env.tasks.model import StructuredUserInstructions, UserScenario
from tau_env.tasks.scenario_text import first_person, parse_scenario_text


def test_parse__recovers_the_sections_of_a_structured_scenario():
    scenario = UserScenario(
        persona="A calm person.\nLikes tea.",
        instructions=StructuredUserInstructions(
            domain="retail",
            reason_for_call="You want a refund.\n\nSoon.",
            known_info="Your email is a@b.co.",
            unknown_info="You forgot the order id.",
            task_instructions="Be brief.",
        ),
    )
    parsed = parse_scenario_text(str(scenario))
    assert parsed.persona == "A calm person.\nLikes tea."
    assert parsed.reason == "You want a refund.\n\nSoon."
    assert (parsed.known, parsed.unknown, parsed.instructions) == (
        "Your email is a@b.co.",
        "You forgot the order id.",
        "Be brief.",
    )
    assert "forgot" not in parsed.facts_text  # unknown info is not a source of facts


def test_parse__free_text_instructions_are_both_reason_and_instructions():
    parsed = parse_scenario_text(str(UserScenario(instructions="Create a task for user_1.")))
    assert parsed.reason == parsed.instructions == "Create a task for user_1."
    assert parsed.persona == ""


def test_first_person__rewrites_pronouns_and_verbs():
    assert first_person("Your phone has no service.") == "My phone has no service."
    assert first_person("You are unable to send MMS; you want it fixed.") == (
        "I am unable to send MMS; I want it fixed."
    )
    assert first_person("An agent told you that you'd get help.") == (
        "An agent told me that I'd get help."
    )
    assert first_person("You mobile data is slow.") == "My mobile data is slow."


def test_first_person__a_lone_you_is_i_as_a_subject_and_me_as_an_object():
    # Question clauses: "you" after a question word is the subject.
    assert first_person("why you didn't get the bonus") == "why I didn't get the bonus"
    assert first_person("how much money you can save") == "how much money I can save"
    assert first_person("second, you might have typed it") == "second, I might have typed it"
    # A relative clause: a verb follows.
    assert first_person("if the camera you just bought works") == (
        "if the camera I just bought works"
    )
    # Objects: after a preposition, at the end, or before a determiner or preposition.
    assert first_person("which card suits you") == "which card suits me"
    assert first_person("The agent transfers you without asking.") == (
        "The agent transfers me without asking."
    )
    assert first_person("They give you a refund for you.") == "They give me a refund for me."


def test_first_person__quoted_words_and_thank_you_stay_as_written():
    assert first_person('If the agent says you are wrong: "Can you check again?"') == (
        'If the agent says I am wrong: "Can you check again?"'
    )
    assert first_person("Thank you, you are kind.") == "Thank you, I am kind."
    # Unbalanced quotes: the whole text is rewritten.
    assert first_person('You say "hi') == 'I say "hi'
