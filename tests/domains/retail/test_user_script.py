"""Scripted-user briefs derived from official retail tasks."""

import pytest

import tau_env
from tau_env.domains.retail import DEFINITION
from tau_env.domains.retail.constants import REFUSAL_PHRASES
from tau_env.domains.retail.user_script import derive_user_script

WRITES = {
    "cancel_pending_order",
    "modify_pending_order_address",
    "modify_pending_order_items",
    "modify_pending_order_payment",
    "modify_user_address",
    "exchange_delivered_order_items",
    "return_delivered_order_items",
}


@pytest.fixture(scope="module")
def official(data_dir):
    return tau_env.load_domain("retail", data_dir)


def test_definition__offers_the_hook():
    assert DEFINITION.derive_user_script is derive_user_script


def test_derive__every_official_customer_can_be_identified_from_the_facts(official):
    world = official.new_world()
    for task in official.tasks:
        facts = derive_user_script(task).facts
        found = set()
        for email in facts.get("emails", facts.get("email", "")).split(", "):
            if email:
                result = world.call_tool("agent", "find_user_id_by_email", {"email": email})
                found.add(result.content)
        if {"first_name", "last_name", "zip"} <= set(facts):
            arguments = {k: facts[k] for k in ("first_name", "last_name", "zip")}
            found.add(world.call_tool("agent", "find_user_id_by_name_zip", arguments).content)
        if "user_id" in facts:
            found.add(facts["user_id"] if facts["user_id"] in world.agent_db.users else "?")
        known = {f for f in found if not f.startswith("Error") and f != "?"}
        assert len(known) == 1, (task.id, facts, found)


def test_derive__gold_look_ups_win_over_the_text(official):
    script = derive_user_script(official.task("0"))
    assert script.facts == {
        "first_name": "Yusuf",
        "last_name": "Rossi",
        "zip": "19122",
        "order_id": "#W2378156",
    }
    assert script.done_phrases == ["exchange"] and script.accepts == ["confirm"]
    assert script.opening.startswith("You received your order #W2378156")


def test_derive__outcome_cues_follow_the_gold_writes(official):
    for task in official.tasks:
        script = derive_user_script(task)
        names = {action.name for action in task.gold_actions}
        assert script.expects_transfer == ("transfer_to_human_agents" in names)
        if names & WRITES:
            assert script.accepts == ["confirm"] and script.done_phrases != list(REFUSAL_PHRASES)
        else:
            assert script.accepts == [] and script.done_phrases == list(REFUSAL_PHRASES)
