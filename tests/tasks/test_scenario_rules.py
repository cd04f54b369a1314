"""Reading the instruction kinds that hold off the expected path (scenario_rules), kind by kind."""

import pytest

import tau_env
from tau_env.tasks.scenario_reading import read_scenario
from tau_env.tasks.scenario_rules import read_conduct
from tau_env.tasks.scenario_text import parse_scenario_text


def scenario(
    reason, instructions="", known="You are Ana Lima; your user id is ana_lima_1234.", unknown=""
):
    sections = [
        "Instructions:",
        "\tDomain: airline",
        "\tReason for call:",
        f"\t\t{reason}",
        "\tKnown info:",
        f"\t\t{known}",
    ]
    if unknown:
        sections += ["\tUnknown info:", f"\t\t{unknown}"]
    if instructions:
        sections += ["\tTask instructions:", f"\t\t{instructions}"]
    return "\n".join(sections) + "\n"


def conduct(*args, **kwargs):
    return read_scenario(scenario(*args, **kwargs)).script.conduct


def test_no_transfer__read_in_its_wordings_and_never_from_an_ask():
    for said in (
        "Never ask to be transferred.",
        "You really don't want to be transferred to another agent.",
        "Under no circumstances do you want to get transferred.",
    ):
        brief = read_scenario(scenario("You want a refund for flight HAT001.", said)).script
        assert brief.conduct.no_transfer and brief.after_refusal == "stop", said
    # An ask for a human after a refusal, with a "not" earlier in the sentence, is an ask.
    brief = read_scenario(
        scenario(
            "You want to move your flight.",
            "If the agent says it is not possible, you ask to be transferred.",
        )
    ).script
    assert not brief.conduct.no_transfer and brief.after_refusal == "ask_human"


def test_persistence__insisting_counts_the_times_and_not_the_agents_insisting():
    assert conduct("You want a refund.", "Be persistent.").persistence == 2
    assert conduct("You want a refund.", "Insist, at most four times.").persistence == 4
    assert conduct("You want a refund.", "If the agent insists, say goodbye.").persistence == 0


def test_on_refusal__what_to_answer_a_first_refusal_in_the_first_person():
    found = conduct(
        "You want to cancel reservation ABC123.",
        "If the agent says this is not possible, mention that your doctor wrote you a note.",
    )
    assert found.on_refusal == "My doctor wrote me a note."


def test_declines__negated_wishes_coordinated_nouns_names_and_wholes():
    brief = read_scenario(
        scenario(
            "You want to complain about a delay.",
            "You do not want to cancel or modify anything. You don't need baggage or "
            "insurance. You do not accept LGA. You never want to cancel your entire order.",
        )
    ).script
    assert {"cancel", "modify", "baggage", "insurance", "LGA", "entire order"} <= set(
        brief.declines
    )
    # A condition is no standing refusal: the date may change with the cabin.
    brief = read_scenario(
        scenario("You want to upgrade.", "You do not accept to change the date without the cabin.")
    ).script
    assert "change" not in brief.declines


def test_no_alternative__decline_any_alternative_or_any_other():
    assert conduct("You want flight HAT002.", "You do not want any other flight.").no_alternative
    assert conduct("You want a refund.", "Decline any alternative the agent offers.").no_alternative
    assert not conduct("You want a refund.", "Accept a voucher.").no_alternative


def test_confirmations__only_part_of_the_scope_a_change_of_mind_and_the_second_time():
    found = conduct(
        "You want to exchange the kettle and the blender. If the agent asks for confirmation, "
        "only exchange the blender. If the agent asks for confirmation again, do not exchange "
        "anything."
    )
    first, second = found.confirmations
    assert (first.nth, first.only, first.others) == (1, "exchange the blender", ["kettle"])
    assert first.say == "Please only exchange the blender, not the kettle."
    assert (second.nth, second.keeps_refusing) == (2, True)
    assert second.say == "Actually, do not exchange anything."
    regret = conduct(
        "You want to cancel the order, but if the agent asks you to confirm, you "
        "regret and want to keep it."
    ).confirmations[0]
    assert regret.say == "Actually, I regret it and want to keep it." and regret.keeps_refusing


def test_unknown__labels_of_what_the_user_does_not_know_or_have():
    found = conduct(
        "You want to return a lamp.",
        unknown="You do not remember your email address. You don't know the order numbers. "
        "You do not know that your card expired.",
    )
    assert found.unknown == ["email address", "order number"]
    assert conduct("You want help.", unknown="You don't have an email.").unknown == ["email"]


def test_answers__a_topic_and_its_answer_and_none_for_a_quoted_fact():
    found = conduct(
        "You want to cancel.",
        "If the agent asks how many bags you have, say that you have two. "
        "If the agent asks, you only want an aisle seat. "
        "If asked for the reason, say 'no longer needed'.",
    )
    bags, seat = found.answers
    assert (bags.topic, bags.say) == (["bags", "have"], "I have two.")
    assert seat.any_of and seat.say == "I only want an aisle seat."
    # The quoted reason is a fact of the brief, told as "My reason is ...".
    assert (
        read_scenario(
            scenario("You want to cancel.", "If asked for the reason, say 'moving away'.")
        ).script.facts["reason"]
        == "moving away"
    )


def test_withheld_budget_and_health():
    found = conduct(
        "You want to change your address.",
        "Your birthday is in your profile, so you prefer not to provide it. You do not want to "
        "reveal your new address. You are willing to pay up to $150 for the change. You are "
        "healthy.",
    )
    assert found.withheld == ["date of birth", "address"]
    assert found.budget == 150.0 and found.healthy
    brief = read_scenario(scenario("You want a seat.", "Your birthday is in your profile.")).script
    assert "birthday" not in brief.facts  # where it is, not what it is


def test_every_element__comes_with_its_excerpt_of_the_scenario():
    text = scenario(
        "You want to exchange the kettle and the blender. If the agent asks for confirmation, "
        "only exchange the blender.",
        "Do not ask to be transferred. Be persistent. You are healthy. You are willing to pay "
        "up to $90. If the agent asks for the reason, say it broke.",
        unknown="You do not remember your email address.",
    )
    reading = read_conduct(parse_scenario_text(text))
    for key in (
        "conduct:no_transfer",
        "conduct:persistence",
        "conduct:healthy",
        "conduct:budget",
        "confirm:0",
        "answer:0",
        "unknown:email address",
    ):
        assert reading.evidence[key] in " ".join(text.split()), key


@pytest.mark.parametrize(
    ("domain", "task_id", "expected"),
    [
        ("airline", "5", {"no_transfer": True, "after_refusal": "stop"}),
        ("retail", "6", {"only": "exchange the desk lamp", "others": ["water bottle"]}),
    ],
)
def test_issue_examples__the_official_instructions_are_read(data_dir, domain, task_id, expected):
    env_domain = tau_env.load_domain(domain, data_dir)
    task = next(task for task in env_domain.tasks if task.id == task_id)
    script = read_scenario(
        str(task.user_scenario), env_domain.definition.user_vocabulary.scenario
    ).script
    if "no_transfer" in expected:
        assert script.conduct.no_transfer is expected["no_transfer"]
        assert script.after_refusal == expected["after_refusal"]
    else:
        rule = script.conduct.confirmations[0]
        assert (rule.only, rule.others) == (expected["only"], expected["others"])
