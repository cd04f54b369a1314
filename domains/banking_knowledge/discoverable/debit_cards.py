"""Debit card behaviours: close, freeze and unfreeze, alerts, limits, recurring blocks, listing."""

from __future__ import annotations

from datetime import datetime

from tau_env.domains.banking_knowledge.constants import TODAY_TEXT
from tau_env.domains.banking_knowledge.data_model import BankingDB
from tau_env.domains.banking_knowledge.discoverable.base import behaviour
from tau_env.domains.banking_knowledge.discoverable.checks import (
    found,
    given,
    linked_account_open,
    number,
    one_of,
    transition,
)
from tau_env.domains.banking_knowledge.discoverable.texts import result, title
from tau_env.domains.banking_knowledge.json_text import indented
from tau_env.domains.banking_knowledge.lookups import edit, row, rows_where

__all__ = ["BEHAVIOURS"]


@behaviour("close_debit_card", "write")
def close_debit_card(db: BankingDB, card_id: str, reason: str) -> str:
    """Close an active or pending card for good."""
    given(all((card_id, reason)), "Error: Missing required parameters. Required: card_id, reason.")
    reasons = [
        "lost",
        "stolen",
        "fraud_suspected",
        "damaged",
        "no_longer_needed",
        "account_closing",
    ]
    reason = reason.lower()
    one_of(reason, "reason", reasons)
    card = found(db.debit_cards, card_id, "Debit card")
    previous = card.get("status")
    if previous not in ("ACTIVE", "PENDING"):
        return (
            f"Error: Debit card '{card_id}' cannot be closed. Current status: {previous}. "
            "Only ACTIVE or PENDING cards can be closed."
        )
    edit(db.debit_cards, card_id).update(
        status="CLOSED", closed_date=TODAY_TEXT, closure_reason=reason
    )
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
    given(card_id, "Error: Missing required parameter: card_id.")
    card = found(db.debit_cards, card_id, "Debit card")
    transition(card_id, card, "ACTIVE", "FROZEN", "frozen")
    edit(db.debit_cards, card_id).update(status="FROZEN", frozen_date=TODAY_TEXT)
    return result("freeze_debit_card", card_id=card_id)


@behaviour("unfreeze_debit_card", "write")
def unfreeze_debit_card(db: BankingDB, card_id: str) -> str:
    """Unfreeze a frozen card whose account is still open."""
    given(card_id, "Error: Missing required parameter: card_id.")
    card = found(db.debit_cards, card_id, "Debit card")
    transition(card_id, card, "FROZEN", "ACTIVE", "unfrozen")
    linked_account_open(db, card, "unfrozen")
    edit(db.debit_cards, card_id).update(status="ACTIVE", unfrozen_date=TODAY_TEXT)
    return result("unfreeze_debit_card", card_id=card_id)


@behaviour("clear_debit_card_alert", "write")
def clear_debit_card_alert(db: BankingDB, card_id: str, reason: str) -> str:
    """Clear a velocity block, or a fraud alert the bank did not raise itself."""
    given(card_id, "Error: Missing required parameter: card_id.")
    given(reason, "Error: Missing required parameter: reason.")
    reasons = ["customer_verified", "velocity_clear"]
    if reason not in reasons:
        return f"Error: Invalid reason '{reason}'. Must be one of: {', '.join(reasons)}"
    card = found(db.debit_cards, card_id, "Debit card")
    if reason == "velocity_clear":
        if not card.get("velocity_blocked", False):
            return f"Error: Debit card '{card_id}' does not have an active velocity block."
        cleared = {"velocity_blocked": False, "velocity_cleared_date": TODAY_TEXT}
        edit(db.debit_cards, card_id).update(cleared)
        return result("clear_velocity_block", card_id=card_id)
    if not card.get("fraud_alert_active", False):
        return f"Error: Debit card '{card_id}' does not have an active fraud alert."
    if card.get("alert_source") == "bank_initiated":
        return (
            "Error: BANK_INITIATED_ALERT - This fraud alert was initiated by the bank's fraud "
            "detection system and cannot be cleared by customer service agents. Please transfer "
            "the customer to the security team using transfer_to_human_agents."
        )
    edit(db.debit_cards, card_id).update(
        fraud_alert_active=False, alert_source=None, fraud_alert_cleared_date=TODAY_TEXT
    )
    return result("clear_fraud_alert", card_id=card_id)


@behaviour("get_debit_cards", "read")
def get_debit_cards(db: BankingDB, account_id: str) -> str:
    """A checking account's cards as JSON, newest issue date (compared as text) first."""
    given(account_id, "Error: Missing required parameter 'account_id'.")
    account = found(db.accounts, account_id, "Account")
    if account.get("class", "").lower() not in ("checking", "business_checking"):
        return (
            f"Error: Account '{account_id}' is not a checking account. "
            "Debit cards are only available for checking accounts."
        )
    cards = []
    for key, card in rows_where(db.debit_cards, "account_id", account_id):
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
    return indented(cards)


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
    given(card_id, "Error: Missing required parameter: card_id.")
    given(limit_type, "Error: Missing required parameter: limit_type.")
    if limit_type not in ("atm", "purchase"):
        return f"Error: Invalid limit_type '{limit_type}'. Must be 'atm' or 'purchase'."
    given(new_limit is not None, "Error: Missing required parameter: new_limit.")
    requested = number(new_limit, f"Error: new_limit must be an integer, got '{new_limit}'.")
    if not requested.is_integer():
        return f"Error: new_limit must be an integer, got '{requested}'."
    wanted = int(requested)
    if wanted <= 0:
        return "Error: new_limit must be a positive amount."
    card = found(db.debit_cards, card_id, "Debit card")
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
    return result(
        "raise_debit_card_limit",
        label=label,
        card_id=card_id,
        current=current,
        wanted=wanted,
        increase=wanted - current,
    )


@behaviour("set_debit_card_recurring_block", "write")
def set_debit_card_recurring_block(db: BankingDB, card_id: str, block_recurring: bool) -> str:
    """Block or allow recurring charges on an active card."""
    given(card_id, "Error: Missing required parameter: card_id")
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
    close_debit_card,
    freeze_debit_card,
    unfreeze_debit_card,
    clear_debit_card_alert,
    get_debit_cards,
    raise_debit_card_limit,
    set_debit_card_recurring_block,
)
