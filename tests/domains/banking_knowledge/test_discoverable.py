"""Discoverable tools: unlock and call (agent), give and call (customer), and their logs."""

import json
import re

from tau_env.domains.banking_knowledge.discoverable import reference_catalog
from tau_env.domains.banking_knowledge.ids import agent_tool_log_id, user_tool_given_id
from tau_env.domains.banking_knowledge.lookups import add, rows
from tests.domains.banking_knowledge.conftest import call

ACCOUNTS = "get_all_user_accounts_by_user_id_3847"
OPEN = "open_bank_account_4821"


def _unlock(played, name):
    return call(played, "agent", "unlock_discoverable_agent_tool", agent_tool_name=name)


def _call(played, name, arguments):
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return call(
        played, "agent", "call_discoverable_agent_tool", agent_tool_name=name, arguments=text
    )


def _logged(played) -> set[str]:
    return {row.root["tool_name"] for row in played.agent_db.agent_discoverable_tools.values()}


def test_catalog__44_agent_and_4_customer_tools():
    sides = [entry.side for entry in reference_catalog()]
    assert sides.count("agent") == 44 and sides.count("user") == 4


def test_unlock__shows_the_documentation_twice_then_how_to_call(world):
    text, error = _unlock(world(), ACCOUNTS)
    description = "Retrieve all accounts (checking, savings, credit cards) for a customer."
    assert not error
    assert text == (
        f"Tool unlocked: {ACCOUNTS}\nDescription: {description}\n\n"
        f"Tool: {ACCOUNTS}\nDescription: {description}\nParameters:\n"
        "  - user_id: string (required) - The customer's unique identifier in the system\n\n"
        "You can now use this tool by calling `call_discoverable_agent_tool` with "
        f"agent_tool_name='{ACCOUNTS}' and the required arguments."
    )


def test_unlock__tools_without_args_show_their_returns_block_and_no_parameters(world):
    text, _ = _unlock(world(), "initial_transfer_to_human_agent_0218")
    assert "\nReturns:\n    Initial Transfer Initiated" in text
    assert "Parameters:\n  (no parameters)\n\n" in text


def test_unlock__unknown_names_including_documented_but_unimplemented(world):
    for name in ("downgrade_credit_card_3847", "deposit_check_3847", "nope"):
        assert _unlock(world(), name) == (
            f"Error: Unknown agent tool '{name}'. This tool is not available.",
            False,
        )


def test_call__needs_an_unlock_and_valid_json(world):
    played = world()
    text, _ = _call(played, OPEN, {})
    assert text == (
        f"Error: Tool '{OPEN}' has not been unlocked. You must first use "
        "`unlock_discoverable_agent_tool` to unlock this tool before calling it."
    )
    _unlock(played, OPEN)
    assert _call(played, OPEN, "{bad") == (
        "Error: Invalid JSON in arguments: Expecting property name enclosed in double quotes: "
        "line 1 column 2 (char 1)",
        False,
    )


def test_call__argument_errors_read_like_the_reference_method(world):
    played = world()
    _unlock(played, OPEN)
    assert _call(played, OPEN, {"user_id": "1"}) == (
        f"Error: Invalid arguments: KnowledgeTools.{OPEN}() missing 2 required positional "
        "arguments: 'account_type' and 'account_class'",
        False,
    )
    assert _call(played, OPEN, {"user": "1"})[0] == (
        f"Error: Invalid arguments: KnowledgeTools.{OPEN}() got an unexpected keyword "
        "argument 'user'"
    )
    assert _logged(played) == set()  # a call that does not bind is never logged


def test_call__integers_arrive_as_floats(world):
    played = world()
    _unlock(played, "submit_credit_limit_increase_request_7392")
    text, _ = _call(
        played,
        "submit_credit_limit_increase_request_7392",
        '{"credit_card_account_id": "nope", "user_id": "u", "requested_increase_amount": 2500.5}',
    )
    assert text == "Error: Invalid requested_increase_amount. Must be a whole number of dollars."


def test_call__a_wrong_json_type_is_an_error_result_and_changes_nothing(world):
    played = world()
    _unlock(played, "reset_debit_card_pin_6284")
    arguments = {"card_id": "c", "last_4_digits": 1234, "new_pin": "2468"}
    before = played.agent_db.reference_hash()
    assert _call(played, "reset_debit_card_pin_6284", arguments) == (
        "Error: 'float' object has no attribute 'isdigit'",
        True,
    )
    assert played.agent_db.reference_hash() == before


def test_log__writes_always_even_when_they_answer_an_error(world):
    played = world()
    _unlock(played, OPEN)
    text, _ = _call(played, OPEN, {"user_id": "u", "account_type": "bad", "account_class": "x"})
    assert text.startswith("Error: Invalid account_type.")
    assert _logged(played) == {OPEN}
    record = played.agent_db.agent_discoverable_tools[agent_tool_log_id(OPEN)].root
    assert record == {"tool_name": OPEN, "status": "CALLED"}


def test_log__reads_only_when_the_gold_plan_calls_them(world):
    # task_001's gold plan calls no discoverable tool; task_043's calls the accounts read.
    quiet = world("task_001")
    _unlock(quiet, ACCOUNTS)
    _call(quiet, ACCOUNTS, {"user_id": "lj82d4f1a9"})
    assert _logged(quiet) == set()
    required = world("task_043")
    assert ACCOUNTS in required.agent_db.read_log_allowlist
    _unlock(required, ACCOUNTS)
    _call(required, ACCOUNTS, {"user_id": "x"})
    _call(required, ACCOUNTS, {"user_id": "y"})
    assert _logged(required) == {ACCOUNTS}  # a set of names: not counts, not arguments


def test_unlocks__are_episode_state_never_hashed(world):
    played = world()
    before = played.agent_db.reference_hash()
    _unlock(played, OPEN)
    assert played.agent_db.reference_hash() == before
    assert OPEN not in world().agent_db.unlocked


def test_give__checks_the_tool_and_argument_names_then_records_once(world):
    played = world()
    assert call(played, "agent", "give_discoverable_user_tool", discoverable_tool_name=OPEN) == (
        f"Error: Unknown discoverable tool '{OPEN}'.",
        False,
    )
    bad = call(
        played,
        "agent",
        "give_discoverable_user_tool",
        discoverable_tool_name="deposit_check_3847",
        arguments='{"amount": 5}',
    )
    assert bad == ("Error: Unexpected parameter: amount", False)
    for _ in range(2):
        text, _ = call(
            played,
            "agent",
            "give_discoverable_user_tool",
            discoverable_tool_name="deposit_check_3847",
            arguments='{"check_amount": 25}',
        )
    assert text.startswith(
        "Tool given to user: deposit_check_3847\nDescription: Deposit a check into a checking "
    )
    assert '\nArguments: {\n  "check_amount": 25\n}\n\nThe user can now execute' in text
    given = played.agent_db.user_discoverable_tools
    assert [key for key in given] == [user_tool_given_id("deposit_check_3847")]


def test_customer_call__refused_until_given_then_logged_per_distinct_arguments(world):
    played = world()
    arguments = '{"credit_card_account_id": "cc_lj82d4f1a9_silver"}'
    refused = call(
        played,
        "user",
        "call_discoverable_user_tool",
        discoverable_tool_name="get_card_last_4_digits",
        arguments=arguments,
    )
    assert refused == (
        "Error: Tool 'get_card_last_4_digits' has not been given to you by the agent. "
        "The agent must first use `give_discoverable_user_tool` to give this tool to you.",
        False,
    )
    call(
        played,
        "agent",
        "give_discoverable_user_tool",
        discoverable_tool_name="get_card_last_4_digits",
    )
    text, _ = call(
        played,
        "user",
        "call_discoverable_user_tool",
        discoverable_tool_name="get_card_last_4_digits",
        arguments=arguments,
    )
    assert text.endswith("Last 4 digits of card: 3845")
    (logged,) = [row.root for row in played.agent_db.user_discoverable_tool_calls.values()]
    assert logged["arguments"] == {"credit_card_account_id": "cc_lj82d4f1a9_silver"}


def test_customer_call__missing_and_unexpected_parameters(world):
    played = world()
    missing = call(
        played,
        "user",
        "call_discoverable_user_tool",
        discoverable_tool_name="deposit_check_3847",
        arguments='{"account_id": "a"}',
    )
    assert missing == ("Error: Missing required parameter: check_amount", False)
    extra = call(
        played,
        "user",
        "call_discoverable_user_tool",
        discoverable_tool_name="deposit_check_3847",
        arguments='{"account_id": "a", "check_amount": 1, "memo": "x"}',
    )
    assert extra == ("Error: Unexpected parameter: memo", False)


def test_customer_call__logged_before_its_own_checks_and_echoes_floats(world):
    played = world()
    call(
        played, "agent", "give_discoverable_user_tool", discoverable_tool_name="deposit_check_3847"
    )
    text, _ = call(
        played,
        "user",
        "call_discoverable_user_tool",
        discoverable_tool_name="deposit_check_3847",
        arguments='{"account_id": "nope", "check_amount": 25}',
    )
    assert text == "Error: Account 'nope' not found."
    (logged,) = [row.root for row in played.agent_db.user_discoverable_tool_calls.values()]
    assert logged["arguments"] == {"account_id": "nope", "check_amount": 25.0}


def test_name_of__the_first_catalogue_entry_of_a_behaviour_changed_catalogues_too():
    from tau_env.domain import load_domain
    from tau_env.domains.banking_knowledge.discoverable import name_of

    bank = load_domain("banking_knowledge")  # built-in: no official data needed

    def fresh():
        return bank.prepare(bank.tasks[0]).initial_world.fork()

    played = fresh()
    catalog = played.agent_db.tool_catalog
    entries = list(catalog.values())
    first = entries[0]
    assert name_of(played.agent_db, first.behaviour) == next(
        e.name for e in entries if e.behaviour == first.behaviour
    )
    assert name_of(played.agent_db, "no_such_behaviour") == "no_such_behaviour"
    renamed = first.model_copy(update={"name": "renamed_0001"})
    catalog.delete(first.name)
    catalog.insert("renamed_0001", renamed)  # after every other entry now
    played.journal.commit()
    others = [e.name for e in catalog.values() if e.behaviour == first.behaviour]
    assert name_of(played.agent_db, first.behaviour) == others[0]
    assert name_of(fresh().agent_db, first.behaviour) == first.name  # the bank's own, unchanged


def test_transactions__newest_first_and_same_date_records_keep_their_order(world):
    played = world()
    account = next(key for key, _ in rows(played.agent_db.accounts))
    history = played.agent_db.bank_account_transaction_history
    dates = ["01/02/2025", "03/04/2025 10:00:00", "01/02/2025", "not a date", "03/04/2025"]
    for number, date in enumerate(dates):
        add(
            history,
            f"t{number}",
            {"transaction_id": f"t{number}", "account_id": account, "date": date},
        )
    played.agent_db.journal.commit()
    name = "get_bank_account_transactions_9173"
    _unlock(played, name)
    text, _ = _call(played, name, {"account_id": account})
    shown = [line.split(": ")[1] for line in text.splitlines() if re.search(r"ID: t\d$", line)]
    # 03/04 10:00 > 03/04 > 01/02 (t0 before t2, as stored) > unreadable (earliest)
    assert shown == ["t1", "t4", "t0", "t2", "t3"]
