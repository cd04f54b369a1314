"""Banking's vocabulary for the scripted user: openings and customer details, read from the
scenario text through the shared reading (`tau_env.tasks.scenario_reading`)."""

import pytest

import tau_env
from tau_env.domains.banking_knowledge.user_script import USER_VOCABULARY
from tau_env.messages import STOP_TOKENS, has_stop_token
from tau_env.tasks.model import Task
from tau_env.tasks.scenario_reading import read_scenario
from tau_env.wrappers.users import GoldUser
from tau_env.wrappers.users.script import opening_line, resolve_script

SCENARIO = """**Your character:** You are Dana Reyes, a 41-year-old nurse from Tucson, AZ.

**Your situation:** Your debit card was declined twice today.

**Verification info:**
- Name: Dana Reyes | Phone: 520-555-0199 | Email: dana.reyes@example.com
- DOB: 02/03/1984 | Address: 12 Palo Verde Rd, Tucson, AZ 85701

## Conversation Flow:

1. **Opening:** "Hi, my debit card keeps getting declined and I don't know why."

2. If the agent fixes it, thank them and say ###STOP###.
"""


def _read(text: str):
    return read_scenario(text, USER_VOCABULARY.scenario).script


def _task(instructions: str, **fields) -> Task:
    return Task.model_validate(
        {"id": "t", "user_scenario": {"instructions": instructions}, **fields}
    )


def test_opening__is_the_quoted_opening_line():
    assert _read(SCENARIO).opening == (
        "Hi, my debit card keeps getting declined and I don't know why."
    )


def test_opening__of_a_builtin_scenario_is_the_line_it_opens_with():
    text = 'You open the call by saying: "Hi, could you raise my daily ATM limit?" Ask for $750.'
    assert _read(text).opening == "Hi, could you raise my daily ATM limit?"


def test_opening__falls_back_to_the_situation_in_first_person_and_never_stops():
    text = "**Your situation:** You want to close your savings account. Say ###STOP### at the end."
    opening = _read(text).opening
    assert opening.startswith("I want to close my savings account.")
    assert not any(token in opening for token in STOP_TOKENS.values())
    plain = "You are playing a customer.\n\nYou're looking for a card with no fee."
    assert _read(plain).opening == "I'm looking for a card with no fee."


def test_facts__read_from_the_verification_lines():
    facts = _read(SCENARIO).facts
    assert (
        facts.items()
        >= {
            "name": "Dana Reyes",
            "phone_number": "520-555-0199",
            "email": "dana.reyes@example.com",
            "date_of_birth": "02/03/1984",
            "address": "12 Palo Verde Rd, Tucson, AZ 85701",
        }.items()
    )
    assert _read("**Your character:** You are Ayan Wang (user_id: 125).").facts["user_id"] == "125"


def test_script__never_reads_the_gold_plan():
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
    domain = tau_env.load_domain("banking_knowledge")
    script = resolve_script(task, domain)
    assert "secret_gold_id" not in script.model_dump_json()
    assert script.after_refusal == "stop"


def test_script__asks_for_a_human_when_the_scenario_says_so():
    assert _read("**Your goal:** You demand to speak with a human agent.").after_refusal == (
        "ask_human"
    )


def test_script__every_official_task_gets_an_opening_without_stop_tokens(bank):
    for task in bank.tasks:
        script = resolve_script(task, bank)
        assert script.opening.strip(), task.id
        assert not any(token in script.opening for token in STOP_TOKENS.values()), task.id


def test_gold_user__refuses_an_opening_read_without_the_domain_that_would_stop_at_once(bank):
    task = next(t for t in bank.tasks if has_stop_token(opening_line(t)))  # no vocabulary
    with pytest.raises(ValueError, match=r"opening line for task .* GoldUser\.factory\(domain\)"):
        GoldUser(task)
    assert not has_stop_token(GoldUser.factory(bank)(task).opening)
