"""The scripted customer's brief comes from the scenario text and the task's own tools only."""

from tau_env.domains.banking_knowledge.user_script import (
    derive_user_script,
    scenario_facts,
    scenario_opening,
)
from tau_env.messages import STOP_TOKENS
from tau_env.tasks.model import Task

SCENARIO = """**Your character:** You are Dana Reyes, a 41-year-old nurse from Tucson, AZ.

**Your situation:** Your debit card was declined twice today.

**Verification info:**
- Name: Dana Reyes | Phone: 520-555-0199 | Email: dana.reyes@example.com
- DOB: 02/03/1984 | Address: 12 Palo Verde Rd, Tucson, AZ 85701

## Conversation Flow:

1. **Opening:** "Hi, my debit card keeps getting declined and I don't know why."

2. If the agent fixes it, thank them and say ###STOP###.
"""


def _task(instructions: str, **fields) -> Task:
    return Task.model_validate(
        {"id": "t", "user_scenario": {"instructions": instructions}, **fields}
    )


def test_opening__is_the_quoted_opening_line():
    assert scenario_opening(SCENARIO) == (
        "Hi, my debit card keeps getting declined and I don't know why."
    )


def test_opening__falls_back_to_the_situation_in_first_person_and_never_stops():
    text = "**Your situation:** You want to close your savings account. Say ###STOP### at the end."
    opening = scenario_opening(text)
    assert opening.startswith("I want to close my savings account.")
    plain = "You are playing a customer.\n\nYou're looking for a card with no fee."
    assert scenario_opening(plain) == "I'm looking for a card with no fee."
    only_stop = "**Your situation:** ###STOP###"
    assert not any(token in scenario_opening(only_stop) for token in STOP_TOKENS.values())


def test_facts__read_from_the_verification_lines():
    assert scenario_facts(SCENARIO) == {
        "name": "Dana Reyes",
        "phone_number": "520-555-0199",
        "email": "dana.reyes@example.com",
        "date_of_birth": "02/03/1984",
        "address": "12 Palo Verde Rd, Tucson, AZ 85701",
    }
    assert scenario_facts("**Your character:** You are Ayan Wang (user_id: 125).")["user_id"] == (
        "125"
    )


def test_script__uses_the_tasks_tools_and_never_the_gold_plan():
    gold = {
        "actions": [
            {
                "action_id": "1",
                "requestor": "user",
                "name": "submit_referral",
                "arguments": {"user_id": "secret_gold_id", "account_type": "Gold"},
            }
        ],
        "reward_basis": ["DB"],
    }
    task = _task(SCENARIO, user_tools=["submit_referral"], evaluation_criteria=gold)
    script = derive_user_script(task)
    assert script is not None
    assert script.accepted_tools == ["submit_referral"]
    assert "secret_gold_id" not in script.model_dump_json()
    assert not script.expects_transfer


def test_script__wants_a_human_when_the_scenario_says_so():
    task = _task("**Your goal:** You demand to speak with a human agent right now.")
    assert derive_user_script(task).expects_transfer


def test_script__every_official_task_gets_an_opening_without_stop_tokens(bank):
    for task in bank.tasks:
        script = derive_user_script(task)
        assert script is not None and script.opening.strip(), task.id
        assert not any(token in script.opening for token in STOP_TOKENS.values()), task.id
