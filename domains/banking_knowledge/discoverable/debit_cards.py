"""Debit card behaviours: order, activate (three variants), close, freeze, PINs, limits."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from tau_env.domains.banking_knowledge.constants import TODAY_TEXT
from tau_env.domains.banking_knowledge.data_model import BankingDB
from tau_env.domains.banking_knowledge.discoverable.base import behaviour, name_of
from tau_env.domains.banking_knowledge.discoverable.texts import invalid_choice, title
from tau_env.domains.banking_knowledge.ids import debit_card_id, debit_card_order_id, hex_digest
from tau_env.domains.banking_knowledge.lookups import add, edit, row, rows

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

_DELIVERY_TIMES = {
    "STANDARD": "7-10 business days",
    "EXPEDITED": "3-5 business days",
    "RUSH": "1-2 business days",
}


def pin_problem(pin: Any) -> str | None:
    """Why a PIN is refused (4 digits, not sequential, not one repeated digit), or None."""
    if not pin or not pin.isdigit() or len(pin) != 4:
        return "PIN must be exactly 4 digits."
    if pin in _SEQUENTIAL_PINS:
        return "PIN cannot be sequential (e.g., 1234). Please choose a more secure PIN."
    if len(set(pin)) == 1:
        return "PIN cannot be all the same digit (e.g., 1111). Please choose a more secure PIN."
    return None


def _expiration(order_date: str) -> str:
    """Four years on, at the end of the month (February always the 28th)."""
    month, _, year = order_date.split("/")
    if month in ("01", "03", "05", "07", "08", "10", "12"):
        day = "31"
    elif month == "02":
        day = "28"
    else:
        day = "30"
    return f"{month}/{day}/{int(year) + 4}"


def _issue_reason(db: BankingDB, account_id: str) -> str:
    """Why the new card is issued: replacing a lost/stolen/fraud card, a first card, or new."""
    cards = [card for _, card in rows(db.debit_cards) if card.get("account_id") == account_id]
    closed = next((card for card in cards if card.get("status") == "CLOSED"), None)
    if closed is not None:
        reason = closed.get("closure_reason", "first_card")
        if reason in ("lost", "stolen", "fraud", "fraud_suspected"):
            return "fraud" if reason == "fraud_suspected" else reason
        return "first_card"
    return "first_card" if cards else "new_account"


def _fees_text(delivery: float, design: float, excess: float, *, separator: str) -> str:
    parts = []
    if delivery > 0:
        parts.append(f"Delivery{separator} ${delivery}")
    if design > 0:
        parts.append(f"Design{separator} ${design}")
    if excess > 0:
        parts.append(f"Excess Replacement{separator} ${excess:.0f}")
    return ", ".join(parts)


@behaviour("order_debit_card", "write")
def order_debit_card(
    db: BankingDB,
    account_id: str,
    user_id: str,
    delivery_option: str,
    delivery_fee: float,
    card_design: str,
    design_fee: float,
    shipping_address: str,
    excess_replacement_fee: float | None = None,
) -> str:
    """Order a debit card for an open checking account; fees are charged to the account.

    The balance is read without stripping a ``$`` (so a ``$``-prefixed balance counts as 0),
    and the fee is written without one, as the reference does.
    """
    excess: Any = excess_replacement_fee or 0
    try:
        delivery = float(delivery_fee) if delivery_fee is not None else None
    except (TypeError, ValueError):
        return "Error: delivery_fee must be a number."
    try:
        design = float(design_fee) if design_fee is not None else None
    except (TypeError, ValueError):
        return "Error: design_fee must be a number."
    try:
        excess = float(excess)
    except (TypeError, ValueError):
        excess = 0
    required = (account_id, user_id, delivery_option, delivery is not None, card_design)
    if not all((*required, design is not None, shipping_address)):
        return (
            "Error: Missing required parameters. Required: account_id, user_id, "
            "delivery_option, delivery_fee, card_design, design_fee, shipping_address."
        )
    assert delivery is not None and design is not None
    if delivery_option.upper() not in _DELIVERY_TIMES:
        return invalid_choice("delivery_option", list(_DELIVERY_TIMES))
    option = delivery_option.upper()
    designs = ["CLASSIC", "PREMIUM", "CUSTOM"]
    if card_design.upper() not in designs:
        return invalid_choice("card_design", designs)
    style = card_design.upper()
    account = row(db.accounts, account_id)
    if account is None:
        return f"Error: Account '{account_id}' not found."
    if account.get("class") != "checking":
        return (
            "Error: Debit cards can only be ordered for checking accounts. "
            f"Account '{account_id}' is a {account.get('class')} account."
        )
    if account.get("status") != "OPEN":
        status = account.get("status")
        return f"Error: Account must be OPEN. Account '{account_id}' has status: {status}"
    if account.get("user_id") != user_id:
        return f"Error: Account '{account_id}' does not belong to user '{user_id}'."
    try:
        holdings = float(str(account.get("current_holdings", "0")).replace(",", ""))
    except ValueError:
        holdings = 0.0
    if holdings < 25.0:
        return (
            f"Error: Account must have a minimum balance of $25. Current balance: ${holdings:.2f}"
        )
    for _, order in rows(db.debit_card_orders):
        if order.get("account_id") == account_id and order.get("status") == "PENDING":
            return f"Error: There is already a pending debit card order for account '{account_id}'."
    if any(
        card.get("account_id") == account_id and card.get("status") == "ACTIVE"
        for _, card in rows(db.debit_cards)
    ):
        return (
            f"Error: Account '{account_id}' already has an active debit card. "
            "Maximum 1 active card per checking account."
        )
    total = delivery + design + excess
    if total > 0 and holdings < total:
        return (
            f"Error: Insufficient funds for fees. Total fees: ${total:.2f}. "
            f"Current balance: ${holdings:.2f}"
        )
    expected = _DELIVERY_TIMES[option]
    order_id = debit_card_order_id(account_id, user_id, option)
    order = {
        "order_id": order_id,
        "account_id": account_id,
        "user_id": user_id,
        "delivery_option": option,
        "card_design": style,
        "shipping_address": shipping_address,
        "delivery_fee": delivery,
        "design_fee": design,
        "excess_replacement_fee": excess,
        "total_fee": total,
        "order_date": TODAY_TEXT,
        "expected_delivery": expected,
        "status": "PENDING",
    }
    if not add(db.debit_card_orders, order_id, order):
        return "Error: Failed to create debit card order. Order may already exist."
    if total > 0:
        edit(db.accounts, account_id)["current_holdings"] = f"{holdings - total:.2f}"
        fee_id = f"btxn_dcfee_{order_id[-8:]}"
        add(
            db.bank_account_transaction_history,
            fee_id,
            {
                "transaction_id": fee_id,
                "account_id": account_id,
                "date": TODAY_TEXT,
                "description": "DEBIT CARD ORDER FEE - "
                + _fees_text(delivery, design, excess, separator=""),
                "amount": -total,
                "type": "debit_card_fee",
                "status": "posted",
            },
        )
    card_id = debit_card_id(account_id, user_id, TODAY_TEXT)
    last_4 = "".join(c for c in hex_digest(f"card_details:{card_id}:last4", 8) if c.isdigit())
    cvv = "".join(c for c in hex_digest(f"card_details:{card_id}:cvv", 6) if c.isdigit())
    user = row(db.users, user_id)
    holder = user.get("name", "CARDHOLDER").upper() if user is not None else "CARDHOLDER"
    add(
        db.debit_cards,
        card_id,
        {
            "card_id": card_id,
            "account_id": account_id,
            "user_id": user_id,
            "cardholder_name": holder,
            "last_4_digits": last_4[:4].zfill(4),
            "cvv": cvv[:3].zfill(3),
            "status": "PENDING",
            "issue_date": TODAY_TEXT,
            "expiration_date": _expiration(TODAY_TEXT),
            "card_design": style,
            "issue_reason": _issue_reason(db, account_id),
        },
    )
    lines = [
        "Debit Card Order Confirmed",
        f"Order ID: {order_id}",
        f"Card ID: {card_id}",
        f"Linked Account: {account_id}",
        f"Delivery Option: {option}",
        f"Card Design: {style}",
        f"Shipping Address: {shipping_address}",
        f"Expected Delivery: {expected}",
        "",
        "Note: Card will arrive with status PENDING. "
        "Customer must call to activate after receiving the card.",
    ]
    if total > 0:
        fees = _fees_text(delivery, design, excess, separator=":")
        lines.append(f"Total Fees: ${total:.2f} ({fees}) - CHARGED to account {account_id}")
        lines.append(f"New Account Balance: ${holdings - total:.2f}")
    else:
        lines.append("Total Fees: $0 (No additional charges)")
    return "\n".join(lines)


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


def _activation_problem(
    db: BankingDB, key: str, card_id: str, last_4_digits: str, details: tuple[Any, ...]
) -> str | None:
    """The checks every activation variant makes, in the reference's order."""
    expiration_date, cvv, pin = details
    if not all((card_id, last_4_digits, expiration_date, cvv, pin)):
        return (
            "Error: Missing required parameters. "
            "Required: card_id, last_4_digits, expiration_date, cvv, pin."
        )
    problem = pin_problem(pin)
    if problem:
        return f"Error: {problem}"
    if not cvv.isdigit() or len(cvv) != 3:
        return "Error: CVV must be exactly 3 digits."
    if not last_4_digits.isdigit() or len(last_4_digits) != 4:
        return "Error: Last 4 digits must be exactly 4 digits."
    card = row(db.debit_cards, card_id)
    if card is None:
        return f"Error: Debit card '{card_id}' not found."
    reason = card.get("issue_reason", "new_account")
    handler = _ACTIVATION_TOOL_FOR_REASON.get(reason)
    if handler != key:
        right = name_of(db, handler) if handler else "unknown"
        return (
            f"Error: Wrong activation tool. This card has issue_reason='{reason}'. "
            f"Please use {right} instead of {name_of(db, key)}."
        )
    if card.get("status") == "ACTIVE":
        return f"Error: Debit card '{card_id}' is already active."
    if card.get("status") != "PENDING":
        return (
            f"Error: Debit card '{card_id}' cannot be activated. Current status: "
            f"{card.get('status')}. Only PENDING cards can be activated."
        )
    if card.get("last_4_digits") != last_4_digits:
        return "Error: Card verification failed. The last 4 digits do not match our records."
    account_id = card.get("account_id")
    account = row(db.accounts, account_id) if account_id else None
    if account is not None and account.get("status") != "OPEN":
        return (
            f"Error: The linked checking account '{account_id}' is no longer open. "
            "Card cannot be activated."
        )
    return None


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
    key = "activate_new_debit_card"
    problem = _activation_problem(db, key, card_id, last_4_digits, (expiration_date, cvv, pin))
    if problem:
        return problem
    others = _activate(db, card_id, "DEACTIVATED", "New card activated")
    lines = [
        "New Debit Card Activation Successful",
        f"Card ID: {card_id}",
        "Status: ACTIVE",
        f"Activation Date: {TODAY_TEXT}",
        "",
        "Your card is now ready to use at any ATM or point of sale terminal.",
        "For security, please sign the back of your card.",
    ]
    if others:
        lines.append(f"\nNote: Previous card(s) have been deactivated: {', '.join(others)}")
    return "\n".join(lines)


@behaviour("activate_replacement_debit_card", "write")
def activate_replacement_debit_card(
    db: BankingDB, card_id: str, last_4_digits: str, expiration_date: str, cvv: str, pin: str
) -> str:
    """Activate a card replacing a lost, stolen or fraud-suspected one."""
    key = "activate_replacement_debit_card"
    problem = _activation_problem(db, key, card_id, last_4_digits, (expiration_date, cvv, pin))
    if problem:
        return problem
    reason = (row(db.debit_cards, card_id) or {}).get("issue_reason", "lost")
    others = _activate(db, card_id, "DEACTIVATED", f"Replacement card activated ({reason})")
    lines = [
        "Replacement Debit Card Activation Successful",
        f"Card ID: {card_id}",
        f"Replacement Reason: {title(reason)}",
        "Status: ACTIVE",
        f"Activation Date: {TODAY_TEXT}",
        "",
        "Your replacement card is now ready to use.",
        "",
        "IMPORTANT SECURITY REMINDERS:",
        "- Please review your recent transactions for any unauthorized charges",
        "- Report any suspicious activity immediately",
    ]
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
    key = "activate_reissued_debit_card"
    problem = _activation_problem(db, key, card_id, last_4_digits, (expiration_date, cvv, pin))
    if problem:
        return problem
    reason = (row(db.debit_cards, card_id) or {}).get("issue_reason", "expired")
    others = _activate(db, card_id, "GRACE_PERIOD", f"Reissued card activated ({reason})")
    lines = [
        "Reissued Debit Card Activation Successful",
        f"Card ID: {card_id}",
        f"Reissue Reason: {title(reason)}",
        "Status: ACTIVE",
        f"Activation Date: {TODAY_TEXT}",
        "",
        "Your reissued card is now ready to use.",
    ]
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


@behaviour("close_debit_card", "write")
def close_debit_card(db: BankingDB, card_id: str, reason: str) -> str:
    """Close an active or pending card for good."""
    if not card_id or not reason:
        return "Error: Missing required parameters. Required: card_id, reason."
    reasons = [
        "lost",
        "stolen",
        "fraud_suspected",
        "damaged",
        "no_longer_needed",
        "account_closing",
    ]
    if reason.lower() not in reasons:
        return invalid_choice("reason", reasons)
    reason = reason.lower()
    card = row(db.debit_cards, card_id)
    if card is None:
        return f"Error: Debit card '{card_id}' not found."
    previous = card.get("status")
    if previous not in ("ACTIVE", "PENDING"):
        return (
            f"Error: Debit card '{card_id}' cannot be closed. Current status: {previous}. "
            "Only ACTIVE or PENDING cards can be closed."
        )
    closed = edit(db.debit_cards, card_id)
    closed["status"] = "CLOSED"
    closed["closed_date"] = TODAY_TEXT
    closed["closure_reason"] = reason
    lines = [
        "Debit Card Closed Successfully",
        f"Card ID: {card_id}",
        f"Previous Status: {previous}",
        "New Status: CLOSED",
        f"Closure Reason: {title(reason)}",
        f"Closure Date: {TODAY_TEXT}",
        "",
    ]
    if reason in ("lost", "stolen", "fraud_suspected"):
        lines.append("IMPORTANT: This card has been immediately deactivated for security.")
        lines.append("Any pending transactions may still be processed.")
        if reason == "fraud_suspected":
            lines.append(
                "Please advise the customer to review recent transactions and file disputes "
                "for any unauthorized charges."
            )
            lines.append("Also recommend changing their online banking password.")
    lines += [
        "",
        "Note: This card cannot be reactivated. If the customer needs a new card, they can "
        "order one through the standard ordering process.",
        "Any recurring payments linked to this card will need to be updated with new payment "
        "information.",
    ]
    return "\n".join(lines)


@behaviour("freeze_debit_card", "write")
def freeze_debit_card(db: BankingDB, card_id: str) -> str:
    """Freeze an active card until it is unfrozen."""
    if not card_id:
        return "Error: Missing required parameter: card_id."
    card = row(db.debit_cards, card_id)
    if card is None:
        return f"Error: Debit card '{card_id}' not found."
    if card.get("status") == "FROZEN":
        return f"Error: Debit card '{card_id}' is already frozen."
    if card.get("status") != "ACTIVE":
        return (
            f"Error: Debit card '{card_id}' cannot be frozen. Current status: "
            f"{card.get('status')}. Only ACTIVE cards can be frozen."
        )
    frozen = edit(db.debit_cards, card_id)
    frozen["status"] = "FROZEN"
    frozen["frozen_date"] = TODAY_TEXT
    return "\n".join(
        [
            "Debit Card Frozen Successfully",
            f"Card ID: {card_id}",
            "Status: FROZEN",
            f"Frozen Date: {TODAY_TEXT}",
            "",
            "While frozen:",
            "- All new purchase transactions will be declined",
            "- Recurring payments and subscriptions will be declined",
            "- Pending transactions already authorized may still process",
            "",
            "To unfreeze, the customer can call customer service or use the mobile app.",
            "If the card is confirmed lost or stolen, recommend closing the card permanently "
            "instead.",
        ]
    )


@behaviour("unfreeze_debit_card", "write")
def unfreeze_debit_card(db: BankingDB, card_id: str) -> str:
    """Unfreeze a frozen card whose account is still open."""
    if not card_id:
        return "Error: Missing required parameter: card_id."
    card = row(db.debit_cards, card_id)
    if card is None:
        return f"Error: Debit card '{card_id}' not found."
    if card.get("status") == "ACTIVE":
        return f"Error: Debit card '{card_id}' is already active."
    if card.get("status") != "FROZEN":
        return (
            f"Error: Debit card '{card_id}' cannot be unfrozen. Current status: "
            f"{card.get('status')}. Only FROZEN cards can be unfrozen."
        )
    account_id = card.get("account_id")
    account = row(db.accounts, account_id) if account_id else None
    if account is not None and account.get("status") != "OPEN":
        return (
            f"Error: The linked checking account '{account_id}' is no longer open. "
            "Card cannot be unfrozen."
        )
    thawed = edit(db.debit_cards, card_id)
    thawed["status"] = "ACTIVE"
    thawed["unfrozen_date"] = TODAY_TEXT
    return "\n".join(
        [
            "Debit Card Unfrozen Successfully",
            f"Card ID: {card_id}",
            "Status: ACTIVE",
            f"Unfrozen Date: {TODAY_TEXT}",
            "",
            "The card is now active and ready to use immediately.",
            "All transactions will process normally.",
        ]
    )


@behaviour("clear_debit_card_alert", "write")
def clear_debit_card_alert(db: BankingDB, card_id: str, reason: str) -> str:
    """Clear a velocity block, or a fraud alert the bank did not raise itself."""
    if not card_id:
        return "Error: Missing required parameter: card_id."
    if not reason:
        return "Error: Missing required parameter: reason."
    reasons = ["customer_verified", "velocity_clear"]
    if reason not in reasons:
        return f"Error: Invalid reason '{reason}'. Must be one of: {', '.join(reasons)}"
    card = row(db.debit_cards, card_id)
    if card is None:
        return f"Error: Debit card '{card_id}' not found."
    if reason == "velocity_clear":
        if not card.get("velocity_blocked", False):
            return f"Error: Debit card '{card_id}' does not have an active velocity block."
        cleared = edit(db.debit_cards, card_id)
        cleared["velocity_blocked"] = False
        cleared["velocity_cleared_date"] = TODAY_TEXT
        return "\n".join(
            [
                "Velocity Block Cleared Successfully",
                f"Card ID: {card_id}",
                f"Cleared Date: {TODAY_TEXT}",
                "",
                "The card is now unblocked and ready for normal use.",
                "The velocity monitoring will continue - if the same unusual patterns recur,",
                "the card may be blocked again automatically.",
            ]
        )
    if not card.get("fraud_alert_active", False):
        return f"Error: Debit card '{card_id}' does not have an active fraud alert."
    if card.get("alert_source") == "bank_initiated":
        return (
            "Error: BANK_INITIATED_ALERT - This fraud alert was initiated by the bank's fraud "
            "detection system and cannot be cleared by customer service agents. Please transfer "
            "the customer to the security team using transfer_to_human_agents."
        )
    cleared = edit(db.debit_cards, card_id)
    cleared["fraud_alert_active"] = False
    cleared["alert_source"] = None
    cleared["fraud_alert_cleared_date"] = TODAY_TEXT
    return "\n".join(
        [
            "Fraud Alert Cleared Successfully",
            f"Card ID: {card_id}",
            f"Cleared Date: {TODAY_TEXT}",
            "",
            "The fraud alert has been removed from the card.",
            "All transactions will process normally.",
            "",
            "Remind the customer to review recent transactions and report any unauthorized "
            "charges.",
        ]
    )


_PIN_FOOTER = [
    "",
    "The new PIN is effective immediately.",
]


@behaviour("reset_debit_card_pin", "write")
def reset_debit_card_pin(db: BankingDB, card_id: str, last_4_digits: str, new_pin: str) -> str:
    """Set a new PIN for a forgotten one and unlock the card (the PIN itself is not stored)."""
    if not all((card_id, last_4_digits, new_pin)):
        return "Error: Missing required parameters. Required: card_id, last_4_digits, new_pin."
    if not last_4_digits.isdigit() or len(last_4_digits) != 4:
        return "Error: Last 4 digits must be exactly 4 digits."
    problem = pin_problem(new_pin)
    if problem:
        return f"Error: {problem}"
    card = row(db.debit_cards, card_id)
    if card is None:
        return f"Error: Debit card '{card_id}' not found."
    if card.get("last_4_digits") != last_4_digits:
        return "Error: Card verification failed. The last 4 digits do not match our records."
    if card.get("status") != "ACTIVE":
        return (
            f"Error: Cannot reset PIN. Card status is {card.get('status')}. "
            "Only ACTIVE cards can have their PIN reset."
        )
    reset = edit(db.debit_cards, card_id)
    reset["pin_last_changed"] = TODAY_TEXT
    reset["pin_locked"] = False
    reset["pin_attempts_remaining"] = 3
    return "\n".join(
        [
            "Debit Card PIN Reset Successfully",
            f"Card ID: {card_id}",
            f"PIN Changed: {TODAY_TEXT}",
            *_PIN_FOOTER,
            "Your card has been unlocked and is ready to use.",
            "Customer can use the new PIN for ATM withdrawals and point-of-sale transactions.",
            "",
            "Security reminder: Never share your PIN with anyone.",
        ]
    )


@behaviour("change_debit_card_pin", "write")
def change_debit_card_pin(db: BankingDB, card_id: str, current_pin: str, new_pin: str) -> str:
    """Change a known PIN (the current PIN is checked for format only, as in the reference)."""
    if not all((card_id, current_pin, new_pin)):
        return "Error: Missing required parameters. Required: card_id, current_pin, new_pin."
    if not current_pin.isdigit() or len(current_pin) != 4:
        return "Error: Current PIN must be exactly 4 digits."
    problem = pin_problem(new_pin)
    if problem:
        return f"Error: {problem}"
    if current_pin == new_pin:
        return "Error: New PIN must be different from current PIN."
    card = row(db.debit_cards, card_id)
    if card is None:
        return f"Error: Debit card '{card_id}' not found."
    if card.get("status") != "ACTIVE":
        return (
            f"Error: Cannot change PIN. Card status is {card.get('status')}. "
            "Only ACTIVE cards can have their PIN changed."
        )
    edit(db.debit_cards, card_id)["pin_last_changed"] = TODAY_TEXT
    return "\n".join(
        [
            "Debit Card PIN Changed Successfully",
            f"Card ID: {card_id}",
            f"PIN Changed: {TODAY_TEXT}",
            *_PIN_FOOTER,
            "Customer can use the new PIN for ATM withdrawals and point-of-sale transactions.",
            "",
            "Security reminder: Never share your PIN with anyone.",
        ]
    )


@behaviour("get_debit_cards", "read")
def get_debit_cards(db: BankingDB, account_id: str) -> str:
    """A checking account's cards as JSON, newest issue date (compared as text) first."""
    if not account_id:
        return "Error: Missing required parameter 'account_id'."
    account = row(db.accounts, account_id)
    if account is None:
        return f"Error: Account '{account_id}' not found."
    if account.get("class", "").lower() not in ("checking", "business_checking"):
        return (
            f"Error: Account '{account_id}' is not a checking account. "
            "Debit cards are only available for checking accounts."
        )
    cards = []
    for key, card in rows(db.debit_cards):
        if card.get("account_id") != account_id:
            continue
        shown = {"card_id": key, **card}
        if "last_4_digits" in shown and "card_number_last_4" not in shown:
            shown["card_number_last_4"] = shown.pop("last_4_digits")
        if "issue_date" in shown and "date_issued" not in shown:
            shown["date_issued"] = shown.pop("issue_date")
        elif "created_date" in shown and "date_issued" not in shown:
            shown["date_issued"] = shown.pop("created_date")
        cards.append(shown)
    if not cards:
        return f"No debit cards found for account '{account_id}'."
    cards.sort(key=lambda card: card.get("date_issued") or "", reverse=True)
    return json.dumps(cards, indent=2)


_DEFAULT_ATM_LIMITS = {
    "blue account": 500,
    "green account": 600,
    "light blue account": 400,
    "green fee-free account": 500,
    "evergreen account": 750,
    "bluest account": 1500,
    "dark green account": 300,
    "gold years account": 600,
    "purple account": 1000,
}
"""Daily ATM limit by checking tier (lower case) when the card has none of its own."""


@behaviour("raise_debit_card_limit", "write")
def raise_debit_card_limit(db: BankingDB, card_id: str, limit_type: str, new_limit: int) -> str:
    """Raise a card's daily ATM or purchase limit for 24 hours (at most by half)."""
    if not card_id:
        return "Error: Missing required parameter: card_id."
    if not limit_type:
        return "Error: Missing required parameter: limit_type."
    if limit_type not in ("atm", "purchase"):
        return f"Error: Invalid limit_type '{limit_type}'. Must be 'atm' or 'purchase'."
    if new_limit is None:
        return "Error: Missing required parameter: new_limit."
    try:
        requested = float(new_limit)
    except (ValueError, TypeError):
        return f"Error: new_limit must be an integer, got '{new_limit}'."
    if not requested.is_integer():
        return f"Error: new_limit must be an integer, got '{requested}'."
    wanted = int(requested)
    if wanted <= 0:
        return "Error: new_limit must be a positive amount."
    card = row(db.debit_cards, card_id)
    if card is None:
        return f"Error: Debit card '{card_id}' not found."
    if card.get("status") != "ACTIVE":
        return (
            f"Error: Debit card '{card_id}' is not active. Current status: {card.get('status')}. "
            "Only ACTIVE cards can have limit increases."
        )
    account_id = card.get("account_id")
    account = row(db.accounts, account_id) if account_id else None
    if account is None:
        return f"Error: Could not find linked account for debit card '{card_id}'."
    if account.get("status") != "OPEN":
        return (
            f"Error: The linked account '{account_id}' is not in good standing. "
            f"Account status: {account.get('status')}."
        )
    opened = account.get("date_opened")
    if opened:
        try:
            age = (
                datetime.strptime(TODAY_TEXT, "%m/%d/%Y") - datetime.strptime(opened, "%m/%d/%Y")
            ).days
        except ValueError:
            age = None
        if age is not None and age < 60:
            return (
                "Error: Account must be at least 60 days old for a temporary limit increase. "
                f"Account age: {age} days."
            )
    if limit_type == "atm":
        current = card.get("daily_atm_limit")
        field, label = "daily_atm_limit", "Daily ATM Withdrawal Limit"
        if current is None:
            level = account.get("level", "").lower()
            if "light green" in level:
                return (
                    "Error: Light Green Account (teen checking) cards have policy-based limits "
                    "that cannot be modified. The daily ATM withdrawal limit of $150 is fixed by "
                    "account policy for safety reasons. The customer may request the "
                    "parent/guardian to withdraw cash from their own account if needed."
                )
            current = _DEFAULT_ATM_LIMITS.get(level)
            if current is None:
                return (
                    "Error: Could not determine the default ATM limit for account type "
                    f"'{account.get('level')}'. Please verify the account type."
                )
    else:
        current = card.get("daily_purchase_limit")
        field, label = "daily_purchase_limit", "Daily Purchase Limit"
    if current is None:
        return (
            f"Error: The card does not have a {label.lower()} configured. This may be a "
            "restricted account type where limits are set by account policy and cannot be "
            "modified."
        )
    ceiling = int(current * 1.5)
    if wanted > ceiling:
        return (
            f"Error: Requested limit ${wanted} exceeds the maximum allowed temporary increase. "
            f"Maximum temporary limit is ${ceiling} (150% of current ${current} limit)."
        )
    if wanted <= current:
        return (
            f"Error: Requested limit ${wanted} is not higher than the current limit of ${current}."
        )
    raised = edit(db.debit_cards, card_id)
    raised[field] = wanted
    raised[f"temporary_{limit_type}_limit_increase"] = True
    raised[f"original_{limit_type}_limit"] = current
    raised[f"temporary_{limit_type}_limit_expires"] = TODAY_TEXT
    return "\n".join(
        [
            f"Temporary {label} Increase Granted Successfully",
            f"Card ID: {card_id}",
            f"Previous Limit: ${current}",
            f"New Temporary Limit: ${wanted}",
            f"Increase Amount: ${wanted - current}",
            "",
            "Important Information:",
            "- This temporary increase expires in 24 hours",
            f"- After expiration, the limit will revert to ${current}",
            "- Only one temporary increase is allowed per 24-hour period",
            "",
            "Note: If the customer is at a third-party (non-Rho-Bank) ATM, that ATM may have its "
            "own",
            "per-transaction or daily limits that Rho-Bank cannot override. The customer may need "
            "to",
            "use a Rho-Bank ATM or make multiple smaller withdrawals at third-party ATMs.",
        ]
    )


@behaviour("set_debit_card_recurring_block", "write")
def set_debit_card_recurring_block(db: BankingDB, card_id: str, block_recurring: bool) -> str:
    """Block or allow recurring charges on an active card."""
    if not card_id:
        return "Error: Missing required parameter: card_id"
    card = row(db.debit_cards, card_id)
    if not card:
        return f"Error: Debit card '{card_id}' not found."
    status = card.get("status", "").upper()
    if status != "ACTIVE":
        return (
            f"Error: Cannot update recurring block settings for a card with status '{status}'. "
            "Card must be ACTIVE."
        )
    edit(db.debit_cards, card_id)["recurring_blocked"] = block_recurring
    if block_recurring:
        return (
            f"Recurring payments BLOCKED for debit card {card_id}.\n"
            "All recurring/subscription charges will be declined.\n"
            "One-time purchases are not affected.\n"
            "This change takes effect within 24 hours."
        )
    return (
        f"Recurring payments UNBLOCKED for debit card {card_id}.\n"
        "Recurring/subscription charges will now be allowed.\n"
        "This change takes effect within 24 hours."
    )


BEHAVIOURS = (
    order_debit_card,
    activate_new_debit_card,
    activate_replacement_debit_card,
    activate_reissued_debit_card,
    close_debit_card,
    freeze_debit_card,
    unfreeze_debit_card,
    clear_debit_card_alert,
    reset_debit_card_pin,
    change_debit_card_pin,
    get_debit_cards,
    raise_debit_card_limit,
    set_debit_card_recurring_block,
)
