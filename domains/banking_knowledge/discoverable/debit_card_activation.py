"""Debit card activation (three variants by issue reason) and PIN changes.

The reference's activation tools validate the expiry date, CVV and PIN for format only;
none of them is compared or stored.
"""

from __future__ import annotations

from typing import Any

from tau_env.domains.banking_knowledge.constants import TODAY_TEXT
from tau_env.domains.banking_knowledge.data_model import BankingDB
from tau_env.domains.banking_knowledge.discoverable.base import Answer, behaviour, name_of
from tau_env.domains.banking_knowledge.discoverable.checks import (
    found,
    given,
    linked_account_open,
    transition,
)
from tau_env.domains.banking_knowledge.discoverable.texts import result, title
from tau_env.domains.banking_knowledge.lookups import edit, rows

__all__ = ["BEHAVIOURS"]

_SEQUENTIAL_PINS = frozenset(
    [
        "0123",
        "1234",
        "2345",
        "3456",
        "4567",
        "5678",
        "6789",
        "9876",
        "8765",
        "7654",
        "6543",
        "5432",
        "4321",
        "3210",
    ]
)


def pin_problem(pin: Any) -> str | None:
    """Why a PIN is refused (4 digits, not sequential, not one repeated digit), or None."""
    if not pin or not pin.isdigit() or len(pin) != 4:
        return "PIN must be exactly 4 digits."
    if pin in _SEQUENTIAL_PINS:
        return "PIN cannot be sequential (e.g., 1234). Please choose a more secure PIN."
    if len(set(pin)) == 1:
        return "PIN cannot be all the same digit (e.g., 1111). Please choose a more secure PIN."
    return None


_ACTIVATION_TOOL_FOR_REASON = {
    "new_account": "activate_new_debit_card",
    "first_card": "activate_new_debit_card",
    "lost": "activate_replacement_debit_card",
    "stolen": "activate_replacement_debit_card",
    "fraud": "activate_replacement_debit_card",
    "expired": "activate_reissued_debit_card",
    "damaged": "activate_reissued_debit_card",
    "upgrade": "activate_reissued_debit_card",
    "bank_reissue": "activate_reissued_debit_card",
}
"""Issue reason -> the activation behaviour that handles it (the reference's three tools)."""


def _checked_reason(
    db: BankingDB, key: str, card_id: str, last_4_digits: str, details: tuple[Any, ...]
) -> str:
    """The card's issue reason, once the checks every activation variant makes have passed.

    Raises:
        Answer: The first check that fails, in the reference's order.
    """
    expiration_date, cvv, pin = details
    missing = (
        "Error: Missing required parameters. "
        "Required: card_id, last_4_digits, expiration_date, cvv, pin."
    )
    given(all((card_id, last_4_digits, expiration_date, cvv, pin)), missing)
    problem = pin_problem(pin)
    if problem:
        raise Answer(f"Error: {problem}")
    if not cvv.isdigit() or len(cvv) != 3:
        raise Answer("Error: CVV must be exactly 3 digits.")
    if not last_4_digits.isdigit() or len(last_4_digits) != 4:
        raise Answer("Error: Last 4 digits must be exactly 4 digits.")
    card = found(db.debit_cards, card_id, "Debit card")
    reason = card.get("issue_reason", "new_account")
    handler = _ACTIVATION_TOOL_FOR_REASON.get(reason)
    if handler != key:
        right = name_of(db, handler) if handler else "unknown"
        raise Answer(
            f"Error: Wrong activation tool. This card has issue_reason='{reason}'. "
            f"Please use {right} instead of {name_of(db, key)}."
        )
    transition(card_id, card, "PENDING", "ACTIVE", "activated")
    if card.get("last_4_digits") != last_4_digits:
        raise Answer("Error: Card verification failed. The last 4 digits do not match our records.")
    linked_account_open(db, card, "activated")
    return str(reason)


def _activate(db: BankingDB, card_id: str, old_status: str, reason_text: str) -> list[str]:
    """Activate the card; the account's other active cards get `old_status` (their ids)."""
    card = edit(db.debit_cards, card_id)
    card["status"] = "ACTIVE"
    card["activated_date"] = TODAY_TEXT
    account_id = card.get("account_id")
    others = [
        key
        for key, other in rows(db.debit_cards)
        if key != card_id
        and other.get("account_id") == account_id
        and other.get("status") == "ACTIVE"
    ]
    for key in others:
        other = edit(db.debit_cards, key)
        other["status"] = old_status
        if old_status == "GRACE_PERIOD":
            other["grace_period_ends"] = TODAY_TEXT
        else:
            other["deactivated_date"] = TODAY_TEXT
        other["deactivation_reason"] = reason_text
    return others


@behaviour("activate_new_debit_card", "write")
def activate_new_debit_card(
    db: BankingDB, card_id: str, last_4_digits: str, expiration_date: str, cvv: str, pin: str
) -> str:
    """Activate a first card (issue reason new_account or first_card)."""
    details = (expiration_date, cvv, pin)
    _checked_reason(db, "activate_new_debit_card", card_id, last_4_digits, details)
    others = _activate(db, card_id, "DEACTIVATED", "New card activated")
    lines = [result("activate_new_debit_card", card_id=card_id)]
    if others:
        lines.append(f"\nNote: Previous card(s) have been deactivated: {', '.join(others)}")
    return "\n".join(lines)


@behaviour("activate_replacement_debit_card", "write")
def activate_replacement_debit_card(
    db: BankingDB, card_id: str, last_4_digits: str, expiration_date: str, cvv: str, pin: str
) -> str:
    """Activate a card replacing a lost, stolen or fraud-suspected one."""
    details = (expiration_date, cvv, pin)
    reason = _checked_reason(db, "activate_replacement_debit_card", card_id, last_4_digits, details)
    others = _activate(db, card_id, "DEACTIVATED", f"Replacement card activated ({reason})")
    lines = [result("activate_replacement_debit_card", card_id=card_id, reason=title(reason))]
    if reason == "fraud":
        lines.append(
            "- Since fraud was suspected, we recommend changing your online banking password"
        )
    if others:
        lines.append(f"\nPrevious card(s) have been deactivated for security: {', '.join(others)}")
    return "\n".join(lines)


@behaviour("activate_reissued_debit_card", "write")
def activate_reissued_debit_card(
    db: BankingDB, card_id: str, last_4_digits: str, expiration_date: str, cvv: str, pin: str
) -> str:
    """Activate a reissued card; the old card keeps a one-day grace period."""
    details = (expiration_date, cvv, pin)
    reason = _checked_reason(db, "activate_reissued_debit_card", card_id, last_4_digits, details)
    others = _activate(db, card_id, "GRACE_PERIOD", f"Reissued card activated ({reason})")
    lines = [result("activate_reissued_debit_card", card_id=card_id, reason=title(reason))]
    if others:
        lines.append(
            f"\nNote: Your previous card(s) ({', '.join(others)}) will remain active for 24 "
            "hours as a grace period."
        )
        lines.append("After 24 hours, the old card(s) will be automatically deactivated.")
    if reason in ("expired", "bank_reissue"):
        lines.append(
            "\nReminder: If your card number changed, please update any recurring payments "
            "with your new card details."
        )
    return "\n".join(lines)


@behaviour("reset_debit_card_pin", "write")
def reset_debit_card_pin(db: BankingDB, card_id: str, last_4_digits: str, new_pin: str) -> str:
    """Set a new PIN for a forgotten one and unlock the card (the PIN itself is not stored)."""
    missing = "Error: Missing required parameters. Required: card_id, last_4_digits, new_pin."
    given(all((card_id, last_4_digits, new_pin)), missing)
    if not last_4_digits.isdigit() or len(last_4_digits) != 4:
        return "Error: Last 4 digits must be exactly 4 digits."
    problem = pin_problem(new_pin)
    if problem:
        return f"Error: {problem}"
    card = found(db.debit_cards, card_id, "Debit card")
    if card.get("last_4_digits") != last_4_digits:
        return "Error: Card verification failed. The last 4 digits do not match our records."
    if card.get("status") != "ACTIVE":
        return (
            f"Error: Cannot reset PIN. Card status is {card.get('status')}. "
            "Only ACTIVE cards can have their PIN reset."
        )
    edit(db.debit_cards, card_id).update(
        pin_last_changed=TODAY_TEXT, pin_locked=False, pin_attempts_remaining=3
    )
    return result("reset_debit_card_pin", card_id=card_id)


@behaviour("change_debit_card_pin", "write")
def change_debit_card_pin(db: BankingDB, card_id: str, current_pin: str, new_pin: str) -> str:
    """Change a known PIN (the current PIN is checked for format only, as in the reference)."""
    missing = "Error: Missing required parameters. Required: card_id, current_pin, new_pin."
    given(all((card_id, current_pin, new_pin)), missing)
    if not current_pin.isdigit() or len(current_pin) != 4:
        return "Error: Current PIN must be exactly 4 digits."
    problem = pin_problem(new_pin)
    if problem:
        return f"Error: {problem}"
    if current_pin == new_pin:
        return "Error: New PIN must be different from current PIN."
    card = found(db.debit_cards, card_id, "Debit card")
    if card.get("status") != "ACTIVE":
        return (
            f"Error: Cannot change PIN. Card status is {card.get('status')}. "
            "Only ACTIVE cards can have their PIN changed."
        )
    edit(db.debit_cards, card_id)["pin_last_changed"] = TODAY_TEXT
    return result("change_debit_card_pin", card_id=card_id)


BEHAVIOURS = (
    activate_new_debit_card,
    activate_replacement_debit_card,
    activate_reissued_debit_card,
    reset_debit_card_pin,
    change_debit_card_pin,
)
