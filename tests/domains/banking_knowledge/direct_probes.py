"""Probe calls of every tool by its own name, with argument values as sent (issue 43).

Three kinds of call the reference answers in its own way (``spec/banking-knowledge.md`` §3):

- every discoverable tool called directly by its name, by its own side (no unlock, no call
  log; a customer tool still checks that it was given) and by the other side (unknown there);
- every always-visible tool of both sides with each argument replaced by values of other JSON
  types, left out, or joined by an unexpected one (no validation, no coercion: each tool
  answers as its body does);
- the JSON-text arguments of the discoverable-tool wrappers given text that is not a JSON
  object, or a value that is not text.

Each probe runs on a fresh world of its template's task; calls that may write run twice, so
duplicate-record paths are covered too. The same list was replayed in the reference to record
``reference_direct_probes.json``.
"""

from __future__ import annotations

import json
from typing import Any

from tau_env.domain import Domain
from tau_env.domains.banking_knowledge.discoverable import reference_catalog
from tests.domains.banking_knowledge.probes import _MUTATIONS, Probe, _templates

__all__ = ["direct_probes"]

Call = tuple[str, str, dict[str, Any]]

_BASE_TEMPLATES: dict[str, tuple[str, str, dict[str, Any]]] = {
    # tool: (requestor, task id, a valid call)
    "transfer_to_human_agents": ("assistant", "task_004", {"summary": "s", "reason": "other"}),
    "get_current_time": ("assistant", "task_001", {}),
    "get_user_information_by_id": ("assistant", "task_001", {"user_id": "lj82d4f1a9"}),
    "get_user_information_by_name": ("assistant", "task_001", {"customer_name": "Sarah Bosch"}),
    "get_user_information_by_email": (
        "assistant",
        "task_005",
        {"email": "kenji.tanaka@gmail.com"},
    ),
    "change_user_email": (
        "assistant",
        "task_005",
        {"user_id": "6680a37184", "new_email": "kenji.tanaka@gmail.com"},
    ),
    "get_referrals_by_user": ("assistant", "task_098", {"user_id": "pj94k7x3m2"}),
    "get_credit_card_transactions_by_user": ("assistant", "task_001", {"user_id": "76ad9cc60e"}),
    "get_credit_card_accounts_by_user": ("assistant", "task_077", {"user_id": "lj82d4f1a9"}),
    "log_verification": (
        "assistant",
        "task_005",
        {
            "name": "Kenji Tanaka",
            "user_id": "6680a37184",
            "address": "1 Main St",
            "email": "kenji@example.com",
            "phone_number": "555-0100",
            "date_of_birth": "01/02/1980",
            "time_verified": "2025-11-14 03:40:00 EST",
        },
    ),
    "give_discoverable_user_tool": (
        "assistant",
        "task_015",
        {"discoverable_tool_name": "get_referral_link", "arguments": "{}"},
    ),
    "unlock_discoverable_agent_tool": (
        "assistant",
        "task_026",
        {"agent_tool_name": "update_transaction_rewards_3847"},
    ),
    "call_discoverable_agent_tool": (
        "assistant",
        "task_001",
        {
            "agent_tool_name": "get_all_user_accounts_by_user_id_3847",
            "arguments": '{"user_id": "lj82d4f1a9"}',
        },
    ),
    "list_discoverable_agent_tools": ("assistant", "task_001", {}),
    "apply_for_credit_card": (
        "user",
        "task_001",
        {
            "card_type": "Gold Rewards Card",
            "customer_name": "Sarah Bosch",
            "annual_income": 100000,
            "rho_bank_subscription": True,
        },
    ),
    "submit_referral": (
        "user",
        "task_010",
        {"user_id": "76ad9cc60e", "account_type": "Platinum Rewards Card"},
    ),
    "call_discoverable_user_tool": (
        "user",
        "task_015",
        {
            "discoverable_tool_name": "get_referral_link",
            "arguments": '{"user_id": "890389b165", "card_name": "Platinum Rewards Card"}',
        },
    ),
    "list_discoverable_user_tools": ("user", "task_015", {}),
    "request_human_agent_transfer": ("user", "task_034", {}),
    "submit_transaction": (
        "user",
        "task_016",
        {
            "user_id": "friend_user_5839",
            "credit_card_type": "Silver Rewards Card",
            "merchant_name": "Best Buy",
            "amount": 750,
            "category": "Shopping",
        },
    ),
}

_JSON_TEXTS = ["[1, 2]", '"ab"', "5", "null", "[]", "true", '["user_id"]', '{"self": 1}', "{bad"]
"""Values of the wrappers' ``arguments`` text that are not a JSON object (or not JSON)."""

_BIG_VALUES: list[Any] = [10**30, -(10**30), 1e308, "x" * 300, {"a": {"b": [1, {"c": None}]}}]


def _variants(template: dict[str, Any], parameters: list[str]) -> list[dict[str, Any]]:
    found = [template, {}]
    for parameter in parameters:
        values = [*_MUTATIONS, *_BIG_VALUES]
        if parameter == "arguments":
            values += _JSON_TEXTS
        found += [{**template, parameter: value} for value in values]
        found.append({k: v for k, v in template.items() if k != parameter})
    found.append({**template, "unexpected": 1})
    for collision in ("self", "tool_name", "requestor"):  # the reference's call parameters
        found.append({**template, collision: 1})
    return found


def _discoverable_probes(bank: Domain) -> list[Probe]:
    found: list[Probe] = []
    for name, (task_id, template, side) in _templates(bank).items():
        entry = next(e for e in reference_catalog() if e.name == name)
        parameters = [p.name for p in entry.parameters]
        requestor = "assistant" if side == "agent" else "user"
        other = "user" if side == "agent" else "assistant"
        found.append((name, task_id, [(other, name, template)]))  # not the other side's tool
        for arguments in _variants(template, parameters):
            call = (requestor, name, arguments)
            if side == "agent":
                found.append((name, task_id, [call, call]))
            else:  # not given yet, then given, then called again
                give = (
                    "assistant",
                    "give_discoverable_user_tool",
                    {"discoverable_tool_name": name, "arguments": "{}"},
                )
                found.append((name, task_id, [call, give, call, call]))
    return found


def _base_probes() -> list[Probe]:
    found: list[Probe] = []
    for name, (requestor, task_id, template) in _BASE_TEMPLATES.items():
        for arguments in _variants(template, list(template)):
            call = (requestor, name, arguments)
            found.append((name, task_id, [call, call]))
    return found


def _mechanism() -> list[list[Call]]:
    last_4 = {"credit_card_account_id": "cc_lj82d4f1a9_silver"}
    return [
        [("assistant", "downgrade_credit_card_3847", {})],
        [("assistant", "unlock_discoverable_agent_tool", {"agent_tool_name": "not_a_tool_1234"})],
        # given with arguments that are not a JSON object, then called by name
        [
            (
                "assistant",
                "give_discoverable_user_tool",
                {"discoverable_tool_name": "get_card_last_4_digits", "arguments": '["self"]'},
            ),
            ("user", "get_card_last_4_digits", last_4),
            ("user", "list_discoverable_user_tools", {}),
        ],
        # a direct write, then the wrapper's log: the direct call logs nothing
        [
            (
                "assistant",
                "get_all_user_accounts_by_user_id_3847",
                {"user_id": "lj82d4f1a9"},
            ),
            ("assistant", "list_discoverable_agent_tools", {}),
        ],
    ]


def direct_probes(bank: Domain) -> list[Probe]:
    """Every probe, in the order the reference replayed them."""
    found = _discoverable_probes(bank) + _base_probes()
    found += [("(mechanism)", "task_001", calls) for calls in _mechanism()]
    return found


def probe_arguments_text(probe: Probe) -> str:
    """The last call's arguments as JSON (for messages naming a mismatched probe)."""
    return json.dumps(probe[2][-1][2], default=str)[:200]
