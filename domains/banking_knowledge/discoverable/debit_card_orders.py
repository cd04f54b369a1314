"""Ordering a debit card: checks, fees charged to the account, the new pending card."""

from __future__ import annotations

from typing import Any

from tau_env.domains.banking_knowledge.constants import TODAY_TEXT
from tau_env.domains.banking_knowledge.data_model import BankingDB
from tau_env.domains.banking_knowledge.discoverable.base import behaviour
from tau_env.domains.banking_knowledge.discoverable.checks import found, inserted, one_of
from tau_env.domains.banking_knowledge.ids import debit_card_id, debit_card_order_id, hex_digest
from tau_env.domains.banking_knowledge.lookups import add, edit, row, rows, rows_where

__all__ = ["BEHAVIOURS"]

_DELIVERY_TIMES = {
    "STANDARD": "7-10 business days",
    "EXPEDITED": "3-5 business days",
    "RUSH": "1-2 business days",
}


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
    cards = [card for _, card in rows_where(db.debit_cards, "account_id", account_id)]
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
    option = delivery_option.upper()
    one_of(option, "delivery_option", _DELIVERY_TIMES)
    style = card_design.upper()
    one_of(style, "card_design", ["CLASSIC", "PREMIUM", "CUSTOM"])
    account = found(db.accounts, account_id, "Account")
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
    taken = "Error: Failed to create debit card order. Order may already exist."
    inserted(db.debit_card_orders, order_id, order, taken)
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


BEHAVIOURS = (order_debit_card,)
