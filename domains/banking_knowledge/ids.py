"""Deterministic record ids: a prefix plus the start of a SHA-256 of a seed string.

The seeds are the reference's, character for character, so the same call gives the same id
(and the same database hash) in both implementations.
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any

from tau_env.domains.banking_knowledge.json_text import sorted_json

__all__ = [
    "account_flag_id",
    "agent_tool_log_id",
    "application_id",
    "card_last_4_digits",
    "closure_reason_id",
    "credit_card_order_id",
    "credit_limit_request_id",
    "debit_card_id",
    "debit_card_order_id",
    "dispute_id",
    "hex_digest",
    "referral_id",
    "referral_link_id",
    "transaction_id",
    "user_tool_call_id",
    "user_tool_given_id",
    "verification_id",
]


@functools.lru_cache(maxsize=4096)
def hex_digest(seed: str, length: int = 16) -> str:
    """The first ``length`` hex characters of the seed's SHA-256 (``length`` even).

    Remembered for recent seeds: a task's episodes make the same records, so the same ids.
    """
    return hashlib.sha256(seed.encode()).digest()[: length // 2].hex()


def transaction_id(
    user_id: str, card_type: str, merchant: str, amount: float, category: str
) -> str:
    """Id of a credit card transaction: ``txn_`` + 12 hex.

    The seed is joined from its parts, so a part that is not text fails with the reference's
    `TypeError`.
    """
    seed = ":".join(["transaction", user_id, card_type, merchant, f"{amount:.2f}", category])
    return "txn_" + hex_digest(seed, 12)


def referral_id(referrer_id: str, account_type: str) -> str:
    """Id of a referral submitted by the customer: 16 hex (parts joined, as for transactions)."""
    return hex_digest(":".join(["referral", referrer_id, account_type]))


def application_id(card_type: str, name: str, income: float, subscription: Any) -> str:
    """Id of a credit card application (income and flag as Python prints them): 16 hex."""
    return hex_digest(f"credit_card:{card_type}:{name}:{income}:{subscription}")


def verification_id(user_id: str, time_verified: str) -> str:
    """Id of a verification record: the user id and the compacted timestamp."""
    compact = time_verified.replace(" ", "_").replace(":", "").replace("-", "")
    return f"{user_id}_{compact}"


def user_tool_given_id(tool_name: str) -> str:
    """Id of the record saying a user discoverable tool was given: 16 hex of its name."""
    return hex_digest(f"user_discoverable_tool:{tool_name}")


def user_tool_call_id(tool_name: str, arguments: dict[str, Any]) -> str:
    """Id of a logged user discoverable call: 16 hex of the name and the sorted arguments."""
    return hex_digest(f"user_discoverable_tool_call:{tool_name}:{sorted_json(arguments)}")


def agent_tool_log_id(tool_name: str) -> str:
    """Id of the record saying an agent discoverable tool was called: 16 hex of its name."""
    return hex_digest(f"agent_discoverable_tool:{tool_name}")


def dispute_id(user_id: str, transaction: str) -> str:
    """Id of a dispute (credit, debit or cash back): ``dsp_`` + 12 hex."""
    return "dsp_" + hex_digest(f"dispute:{user_id}:{transaction}", 12)


def referral_link_id(user_id: str, card_name: str) -> str:
    """Id of a referral link: 16 hex."""
    return hex_digest(f"referral_link:{user_id}:{card_name}")


def credit_card_order_id(account_id: str, user_id: str, reason: str) -> str:
    """Id of a replacement credit card order: ``ccord_`` + 12 hex."""
    return "ccord_" + hex_digest(f"credit_card_order:{account_id}:{user_id}:{reason}", 12)


def closure_reason_id(account_id: str, user_id: str) -> str:
    """Id of a logged credit card closure reason: ``clsr_`` + 12 hex."""
    return "clsr_" + hex_digest(f"closure_reason:{account_id}:{user_id}", 12)


def account_flag_id(account_id: str, flag_type: str, expiration: str) -> str:
    """Id of a credit card account flag: ``ccflag_`` + 12 hex."""
    return "ccflag_" + hex_digest(f"account_flag:{account_id}:{flag_type}:{expiration}", 12)


def credit_limit_request_id(account_id: str, user_id: str, amount: float) -> str:
    """Id of a credit limit increase record: ``cli_`` + 12 hex (amount with 2 decimals)."""
    return "cli_" + hex_digest(f"cli_request:{account_id}:{user_id}:{amount:.2f}", 12)


def debit_card_order_id(account_id: str, user_id: str, delivery: str) -> str:
    """Id of a debit card order: ``dcord_`` + 12 hex."""
    return "dcord_" + hex_digest(f"debit_card_order:{account_id}:{user_id}:{delivery}", 12)


def debit_card_id(account_id: str, user_id: str, issue_date: str) -> str:
    """Id of a new debit card: ``dbc_`` + 12 hex."""
    return "dbc_" + hex_digest(f"debit_card:{account_id}:{user_id}:{issue_date}", 12)


def card_last_4_digits(credit_card_account_id: str) -> str:
    """The last 4 digits the customer's card lookup shows: digits of a SHA-256, 0-padded."""
    digest = hashlib.sha256(f"card_last4:{credit_card_account_id}".encode()).hexdigest()
    return digest.translate(_HEX_LETTERS_DROPPED)[:4].ljust(4, "0")


_HEX_LETTERS_DROPPED = str.maketrans("", "", "abcdef")
"""Keeps the digits of a (lower-case) hex digest: its only other characters are a-f."""
