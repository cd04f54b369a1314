"""Probe calls that exercise every discoverable tool's checks and error texts.

For each tool, a valid call taken from a gold plan (or written here for tools no gold plan
uses) is varied: no arguments, each argument replaced by an empty string, a wrong value, a
number, a negative number, null, booleans, a list, an object..., each argument left out, and
an unexpected argument. Each variant runs twice on a fresh world of the template's task
(unlock or give first), so duplicate-record paths are covered too. Mechanism probes cover the
wrappers' own errors and the plain tools. The same list was replayed in the reference to
record ``reference_probes.json``.
"""

from __future__ import annotations

import json
from typing import Any

from tau_env.domain import Domain
from tau_env.domains.banking_knowledge.discoverable import reference_catalog

__all__ = ["Probe", "probes"]

Probe = tuple[str, str, list[tuple[str, str, dict[str, Any]]]]
"""(tool probed, task id, calls as (requestor, tool, arguments))."""

_MUTATIONS: list[Any] = [
    "",
    "bogus",
    0,
    -5,
    2.5,
    None,
    True,
    False,
    "0",
    [1],
    {"a": 1},
    "lost",
    "STANDARD",
    "checking",
]

_EXTRA_TEMPLATES: dict[str, tuple[str, dict[str, Any]]] = {
    "example_agent_tool_0000": ("task_001", {}),
    "get_atm_deposit_images_8473": ("task_001", {"transaction_id": "btxn_834027370c20"}),
    "set_debit_card_recurring_block_7382": (
        "task_001",
        {"card_id": "dbc_kj93a7b2e1_blue", "block_recurring": True},
    ),
    "activate_debit_card_8291": (
        "task_001",
        {
            "card_id": "dbc_7a3f9c2b1e",
            "last_4_digits": "2847",
            "expiration_date": "11/29",
            "cvv": "123",
            "pin": "4821",
        },
    ),
    "activate_debit_card_8293": (
        "task_001",
        {
            "card_id": "dbc_9b1c5d7e3a",
            "last_4_digits": "5291",
            "expiration_date": "11/29",
            "cvv": "123",
            "pin": "4821",
        },
    ),
    "change_debit_card_pin_6285": (
        "task_001",
        {"card_id": "dbc_kj93a7b2e1_blue", "current_pin": "1357", "new_pin": "2468"},
    ),
    "submit_interest_discrepancy_report_7294": (
        "task_094",
        {
            "account_id": "x",
            "user_id": "y",
            "expected_apy": 2.5,
            "actual_apy": 2.0,
            "amount_difference": 10,
        },
    ),
}


DELTA_FLIGHT = {
    "user_id": "123",
    "credit_card_type": "Silver Rewards Card",
    "merchant_name": "Delta",
    "amount": 123.45,
    "category": "Travel",
}
"""A travel purchase on a Silver Rewards Card (4% back), as the customer submits it."""


def _templates(bank: Domain) -> dict[str, tuple[str, dict[str, Any], str]]:
    found: dict[str, tuple[str, dict[str, Any], str]] = {}
    for task in bank.tasks:
        for action in task.gold_actions:
            if action.name == "call_discoverable_agent_tool":
                name, side = action.arguments["agent_tool_name"], "agent"
            elif action.name == "call_discoverable_user_tool":
                name, side = action.arguments["discoverable_tool_name"], "user"
            else:
                continue
            if name not in found:
                found[name] = (task.id, json.loads(action.arguments.get("arguments", "{}")), side)
    for name, (task_id, arguments) in _EXTRA_TEMPLATES.items():
        found.setdefault(name, (task_id, arguments, "agent"))
    return found


def _tool_probes(name: str, task_id: str, template: dict[str, Any], side: str) -> list[Probe]:
    parameters = [p.name for p in next(e for e in reference_catalog() if e.name == name).parameters]
    variants = [template, {}]
    for parameter in parameters:
        variants += [{**template, parameter: value} for value in _MUTATIONS]
        variants.append({k: v for k, v in template.items() if k != parameter})
    variants.append({**template, "unexpected": 1})
    found: list[Probe] = []
    for arguments in variants:
        text = json.dumps(arguments)
        if side == "agent":
            call = (
                "assistant",
                "call_discoverable_agent_tool",
                {"agent_tool_name": name, "arguments": text},
            )
            first = ("assistant", "unlock_discoverable_agent_tool", {"agent_tool_name": name})
        else:
            call = (
                "user",
                "call_discoverable_user_tool",
                {"discoverable_tool_name": name, "arguments": text},
            )
            first = (
                "assistant",
                "give_discoverable_user_tool",
                {"discoverable_tool_name": name, "arguments": text},
            )
        found.append((name, task_id, [first, call, call]))
    return found


def _user(tool: str, **arguments: Any) -> tuple[str, str, dict[str, Any]]:
    return ("user", tool, arguments)


def _agent(tool: str, **arguments: Any) -> tuple[str, str, dict[str, Any]]:
    return ("assistant", tool, arguments)


def _mechanism() -> list[list[tuple[str, str, dict[str, Any]]]]:
    open_account = "open_bank_account_4821"
    deposit = "deposit_check_3847"
    last_4 = '{"credit_card_account_id": "cc_lj82d4f1a9_silver"}'
    verification = {
        "name": "A",
        "user_id": "u",
        "address": "x",
        "email": "e",
        "phone_number": "p",
        "date_of_birth": "d",
        "time_verified": "2025-11-14 03:40:00 EST",
    }
    eco = {"card_type": "EcoCard", "customer_name": "A"}
    referral = {"user_id": "123", "account_type": "Blue Account"}
    return [
        [_agent("call_discoverable_agent_tool", agent_tool_name=open_account, arguments="{}")],
        [_agent("unlock_discoverable_agent_tool", agent_tool_name="nope_1234")],
        [_agent("unlock_discoverable_agent_tool", agent_tool_name="downgrade_credit_card_3847")],
        [_agent("unlock_discoverable_agent_tool", agent_tool_name=deposit)],
        [
            _agent("unlock_discoverable_agent_tool", agent_tool_name=open_account),
            _agent("call_discoverable_agent_tool", agent_tool_name=open_account, arguments="{bad"),
        ],
        [
            _agent("unlock_discoverable_agent_tool", agent_tool_name=open_account),
            _agent("call_discoverable_agent_tool", agent_tool_name=open_account, arguments="[1,2]"),
        ],
        [
            _agent("unlock_discoverable_agent_tool", agent_tool_name=open_account),
            _agent(
                "call_discoverable_agent_tool",
                agent_tool_name=open_account,
                arguments='{"user_id": 1}',
            ),
        ],
        [_agent("give_discoverable_user_tool", discoverable_tool_name=open_account)],
        [_agent("give_discoverable_user_tool", discoverable_tool_name=deposit, arguments="{bad")],
        [
            _agent(
                "give_discoverable_user_tool",
                discoverable_tool_name=deposit,
                arguments='{"zzz": 1}',
            )
        ],
        [
            _agent("give_discoverable_user_tool", discoverable_tool_name=deposit),
            _agent("give_discoverable_user_tool", discoverable_tool_name=deposit),
        ],
        [
            _user(
                "call_discoverable_user_tool",
                discoverable_tool_name=deposit,
                arguments='{"account_id": "a", "check_amount": 5}',
            )
        ],
        [_user("call_discoverable_user_tool", discoverable_tool_name="nope", arguments="{}")],
        [_user("call_discoverable_user_tool", discoverable_tool_name=deposit, arguments="{bad")],
        [_user("list_discoverable_user_tools")],
        [_agent("list_discoverable_agent_tools")],
        [
            _agent(
                "give_discoverable_user_tool",
                discoverable_tool_name="get_card_last_4_digits",
                arguments=last_4,
            ),
            _user(
                "call_discoverable_user_tool",
                discoverable_tool_name="get_card_last_4_digits",
                arguments=last_4,
            ),
            _user("list_discoverable_user_tools"),
        ],
        [
            _agent(
                "unlock_discoverable_agent_tool",
                agent_tool_name="get_all_user_accounts_by_user_id_3847",
            ),
            _agent(
                "call_discoverable_agent_tool",
                agent_tool_name="get_all_user_accounts_by_user_id_3847",
                arguments='{"user_id": "lj82d4f1a9"}',
            ),
            _agent("list_discoverable_agent_tools"),
            _agent("unlock_discoverable_agent_tool", agent_tool_name="example_agent_tool_0000"),
            _agent("call_discoverable_agent_tool", agent_tool_name="example_agent_tool_0000"),
            _agent("list_discoverable_agent_tools"),
        ],
        [_agent("transfer_to_human_agents", summary="x", reason="bad_reason")],
        [_agent("transfer_to_human_agents", summary="x")],
        [_agent("get_current_time")],
        [_agent("get_user_information_by_id", user_id="lj82d4f1a9")],
        [_agent("get_user_information_by_id", user_id="nobody")],
        [_agent("get_user_information_by_id", user_id='a"b')],
        [_agent("get_user_information_by_name", customer_name="Sarah Bosch")],
        [_agent("get_user_information_by_email", email="x\\y")],
        [_agent("change_user_email", user_id="nobody", new_email="a@b.c")],
        [_agent("get_referrals_by_user", user_id="76ad9cc60e")],
        [_agent("get_credit_card_transactions_by_user", user_id="76ad9cc60e")],
        [_agent("get_credit_card_accounts_by_user", user_id="76ad9cc60e")],
        [_agent("log_verification", **verification), _agent("log_verification", **verification)],
        [_user("apply_for_credit_card", card_type="Nope", customer_name="A", annual_income=5)],
        [
            _user("apply_for_credit_card", **eco, annual_income=5),
            _user("apply_for_credit_card", **eco, annual_income=5.0),
        ],
        [_user("submit_referral", **referral), _user("submit_referral", **referral)],
        [_user("submit_transaction", **DELTA_FLIGHT)],
        [
            _user(
                "submit_transaction",
                user_id="123",
                credit_card_type="Nope",
                merchant_name="Delta",
                amount=1,
                category="Travel",
            )
        ],
        [_user("request_human_agent_transfer")] * 3,
    ]


def probes(bank: Domain) -> list[Probe]:
    """Every probe, in the order the reference replayed them."""
    found: list[Probe] = []
    for name, (task_id, template, side) in _templates(bank).items():
        found += _tool_probes(name, task_id, template, side)
    found += [("(mechanism)", "task_001", calls) for calls in _mechanism()]
    return found
