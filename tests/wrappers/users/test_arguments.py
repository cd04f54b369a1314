"""Arguments of a user-tool request: call syntax, and values read from the agent's words."""

from __future__ import annotations

import json

import tau_env
from tau_env.domains.banking_knowledge.user_script import REQUESTS as BANK_WORDS
from tau_env.tasks.user_vocabulary import ParameterWords
from tau_env.wrappers.users.arguments import call_syntax, fill_arguments, missing_arguments

TELECOM = {
    t["function"]["name"]: t["function"]
    for t in tau_env.load_domain("telecom").toolbox.tools("user").openai_schemas()
}
BANK = {
    t["function"]["name"]: t["function"]
    for t in tau_env.load_domain("banking_knowledge").toolbox.tools("user").openai_schemas()
}


def test_call_syntax__reads_literal_and_bare_values_of_the_users_tools_only():
    calls = call_syntax("- set_network_mode_preference(mode=4g_only)\n- run(x=1)", TELECOM)
    assert [(c.name, c.arguments, c.missing) for c in calls] == [
        ("set_network_mode_preference", {"mode": "4g_only"}, ())
    ]
    assert missing_arguments(TELECOM["grant_app_permission"], {"app_name": "m"}) == ("permission",)


def test_options__named_in_the_text_fill_enums_listed_values_and_object_fields():
    mode = fill_arguments(TELECOM["set_network_mode_preference"], "Set it to 3G only.", {})
    assert mode == {"mode": "3g_only"}
    app = fill_arguments(TELECOM["check_app_status"], "Check the messaging app.", {})
    assert app == {"app_name": "messaging"}  # "e.g. messaging" in the description
    apn = fill_arguments(TELECOM["set_apn_settings"], "Set the APN name to internet.", {})
    assert apn == {"apn_settings": {"apn_name": "internet"}}


def test_stated_values__patterns_money_and_facts_fill_a_banking_application():
    text = "Please apply for the Gold Rewards Card with an annual income of $100,000."
    arguments = fill_arguments(
        BANK["apply_for_credit_card"], text, {"name": "Sarah Bosch"}, {}, BANK_WORDS.parameters
    )
    assert arguments == {
        "card_type": "Gold Rewards Card",
        "customer_name": "Sarah Bosch",  # the customer's own name, from its facts
        "annual_income": 100000.0,
    }


def test_key_value_pairs__become_the_json_arguments_of_a_given_tool():
    text = "Use the deposit_check_3847 tool with account_id 7e48bf3b0589cfad and check_amount 1500."
    arguments = fill_arguments(
        BANK["call_discoverable_user_tool"], text, {}, {}, BANK_WORDS.parameters
    )
    assert arguments["discoverable_tool_name"] == "deposit_check_3847"
    assert json.loads(arguments["arguments"]) == {
        "account_id": "7e48bf3b0589cfad",
        "check_amount": 1500,
    }


def test_ids__come_from_the_text_before_the_facts():
    schema = BANK["submit_referral"]
    words = BANK_WORDS.parameters
    facts = {"user_id": "own_id_1"}
    said = fill_arguments(
        schema, "Refer them to the Blue Account, user ID ab12cd.", facts, {}, words
    )
    assert said == {"user_id": "ab12cd", "account_type": "Blue Account"}
    unsaid = fill_arguments(
        schema, "Refer them to the Blue Account with your user ID.", facts, {}, words
    )
    assert unsaid["user_id"] == "own_id_1"


def test_parameter_words__name_a_value_after_them():
    schema = {"parameters": {"properties": {"merchant": {"type": "string"}}}}
    words = {"merchant": ParameterWords(say=("shop",))}
    assert fill_arguments(schema, "A purchase at the shop Best Buy.", {}, {}, words) == {
        "merchant": "Best Buy"
    }
