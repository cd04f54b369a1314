"""Named constants of the banking domain: the frozen clock, the tables and the product tables.

Values are the reference's (they decide ids, hashes and texts the agent reads); names are ours.
"""

from __future__ import annotations

from datetime import date, datetime
from types import MappingProxyType

__all__ = [
    "CREDIT_CARD_REWARDS",
    "CURRENT_TIME_TEXT",
    "NOW",
    "QUERYABLE_TABLES",
    "TABLES",
    "TODAY",
    "TODAY_TEXT",
    "TRANSFER_REASONS",
    "VALID_CREDIT_CARD_TYPES",
]

TODAY = date(2025, 11, 14)
"""The fixed 'today' of every scenario."""

TODAY_TEXT = TODAY.strftime("%m/%d/%Y")
"""``11/14/2025``: the date every record written by a tool carries."""

NOW = datetime(2025, 11, 14, 3, 40, 0)
"""The fixed 'now' (account ages, eligibility windows)."""

CURRENT_TIME_TEXT = "The current time is 2025-11-14 03:40:00 EST."
"""What ``get_current_time`` answers."""

TABLES: tuple[str, ...] = (
    "users",
    "accounts",
    "debit_cards",
    "referrals",
    "credit_card_applications",
    "user_discoverable_tools",
    "user_discoverable_tool_calls",
    "verification_history",
    "credit_card_transaction_history",
    "cash_back_disputes",
    "bank_account_transaction_history",
    "credit_card_accounts",
    "agent_discoverable_tools",
    "task_config",
    "human_transfer_requests",
    "transaction_disputes",
    "credit_card_orders",
    "debit_card_orders",
    "credit_card_closure_reasons",
    "credit_card_account_flags",
    "credit_limit_increase_requests",
    "payment_history",
    "debit_card_disputes",
)
"""The 23 tables of the bank's database, in the reference's field order (part of its hash)."""

QUERYABLE_TABLES: tuple[str, ...] = (
    "users",
    "accounts",
    "referrals",
    "credit_card_applications",
    "user_discoverable_tools",
    "user_discoverable_tool_calls",
    "agent_discoverable_tools",
    "task_config",
    "verification_history",
    "credit_card_transaction_history",
    "cash_back_disputes",
    "bank_account_transaction_history",
    "credit_card_accounts",
    "human_transfer_requests",
    "transaction_disputes",
    "credit_card_orders",
    "credit_card_closure_reasons",
    "credit_card_account_flags",
    "debit_cards",
    "debit_card_orders",
    "debit_card_disputes",
    "credit_limit_increase_requests",
    "payment_history",
)
"""Tables the text query helper knows, in the order its 'not found' error lists them."""

TRANSFER_REASONS: tuple[str, ...] = (
    "fraud_or_security_concern",
    "account_closure_request",
    "deceased_account_holder",
    "legal_or_regulatory_matter",
    "account_ownership_dispute",
    "complex_billing_dispute",
    "abusive_customer_behavior",
    "third_party_inquiry",
    "technical_system_error",
    "unconfirmed_external_communication",
    "customer_demands_after_unavailable_offer_refusal",
    "kb_search_unsuccessful_customer_requests_transfer",
    "specialized_department_required",
    "accessibility_or_special_needs",
    "customer_frustrated_demands_human",
    "supervisor_request_service_complaint",
    "customer_requests_human_no_specific_reason",
    "request_completed_customer_wants_human_followup",
    "other",
)
"""Reason codes ``transfer_to_human_agents`` accepts, in the order its error lists them."""

CREDIT_CARD_REWARDS = MappingProxyType(
    {
        "Bronze Rewards Card": {"default": 1.0},
        "Silver Rewards Card": {"Travel": 4.0, "Software": 4.0, "default": 1.0},
        "Gold Rewards Card": {"default": 2.5},
        "Platinum Rewards Card": {"default": 10.0},
        "Business Bronze Rewards Card": {"default": 1.0},
        "Business Silver Rewards Card": {"Travel": 10.0, "Software": 10.0, "default": 1.0},
        "Green Rewards Card": {"Sustainable": 3.0, "default": 1.0},
        "Business Gold Rewards Card": {"Operations": 2.5, "default": 1.0},
        "Business Platinum Rewards Card": {
            "Travel": 4.0,
            "Software": 4.0,
            "Media": 4.0,
            "default": 1.5,
        },
        "Silver Zoom Card": {"Transportation": 3.0, "default": 1.0},
        "Diamond Elite Card": {"default": 5.0},
        "EcoCard": {"Green": 5.0, "default": 1.0},
        "Crypto-Cash Back": {"default": 2.0},
    }
)
"""Reward rate (percent, as points per dollar) per card type and purchase category.

The order of the card names is the order ``submit_transaction`` lists them in its error.
"""

VALID_CREDIT_CARD_TYPES: tuple[str, ...] = (
    "Bronze Rewards Card",
    "Business Bronze Rewards Card",
    "Business Gold Rewards Card",
    "Business Platinum Rewards Card",
    "Business Silver Rewards Card",
    "Crypto-Cash Back",
    "Diamond Elite Card",
    "EcoCard",
    "Gold Rewards Card",
    "Green Rewards Card",
    "Platinum Rewards Card",
    "Silver Rewards Card",
    "Silver Zoom Card",
)
"""Card types ``apply_for_credit_card`` accepts (alphabetical, as its error lists them)."""
