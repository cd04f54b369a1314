"""Behaviours the customer runs once the agent has given them (the user discoverable tools).

Each first checks that the agent gave the tool, then logs the call (tool and arguments),
then acts: a call that fails its own checks afterwards is still logged, as in the reference.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tau_env.domains.banking_knowledge.constants import TODAY_TEXT
from tau_env.domains.banking_knowledge.data_model import BankingDB
from tau_env.domains.banking_knowledge.discoverable.base import Answer, behaviour, name_of
from tau_env.domains.banking_knowledge.discoverable.card_accounts import check_card_exists
from tau_env.domains.banking_knowledge.discoverable.checks import found, number
from tau_env.domains.banking_knowledge.ids import (
    card_last_4_digits,
    dispute_id,
    referral_link_id,
    user_tool_call_id,
)
from tau_env.domains.banking_knowledge.json_text import indented
from tau_env.domains.banking_knowledge.lookups import (
    add,
    add_referral,
    edit,
    parse_balance,
    query_by,
    row,
)

__all__ = ["BEHAVIOURS", "log_user_call", "not_given"]


def not_given(db: BankingDB, name: str) -> str | None:
    """The refusal when the agent has not given the tool `name` to the customer."""
    given = query_by(db, "user_discoverable_tools", "tool_name", name)
    if "No records found" in given:
        return (
            f"Error: Tool '{name}' has not been given to you by the agent. "
            "The agent must first use `give_discoverable_user_tool` to give this tool to you."
        )
    return None


def log_user_call(db: BankingDB, name: str, arguments: dict[str, Any]) -> None:
    """Log a customer call: one record per distinct (tool, arguments) pair."""
    add(
        db.user_discoverable_tool_calls,
        user_tool_call_id(name, arguments),
        {"tool_name": name, "arguments": arguments, "called_at": TODAY_TEXT, "status": "CALLED"},
    )


@dataclass(frozen=True)
class _Call:
    """A logged customer call: the tool's public name and the arguments, echoed in answers."""

    name: str
    arguments: dict[str, Any]

    def echo(self, first_line: str) -> str:
        """The answer's opening: `first_line`, then the tool and its arguments."""
        arguments = indented(self.arguments)
        return f"{first_line}\n\nExecuted: {self.name}\nArguments: {arguments}\n"


def _start(db: BankingDB, key: str, **arguments: Any) -> _Call:
    """Log the call of the behaviour `key` (the customer's tool).

    Raises:
        Answer: The refusal when the agent has not given the tool (the call is not logged).
    """
    name = name_of(db, key)
    refusal = not_given(db, name)
    if refusal is not None:
        raise Answer(refusal)
    log_user_call(db, name, arguments)
    return _Call(name, arguments)


@behaviour("submit_cash_back_dispute", "write")
def submit_cash_back_dispute(db: BankingDB, user_id: str, transaction_id: str) -> str:
    """Dispute the cash back of a transaction; resolved at once when the task says so."""
    call = _start(db, "submit_cash_back_dispute", user_id=user_id, transaction_id=transaction_id)
    case_id = dispute_id(user_id, transaction_id)
    settings = row(db.task_config, "dispute_settings") or {}
    record = {
        "dispute_id": case_id,
        "user_id": user_id,
        "transaction_id": transaction_id,
        "submitted_at": TODAY_TEXT,
    }
    if settings.get("auto_resolve_disputes", False):
        record.update(status="RESOLVED", resolution="APPROVED")
        status = (
            "Status: RESOLVED - The dispute has been reviewed and approved. "
            "The transaction rewards need to be updated."
        )
    else:
        record["status"] = "SUBMITTED"
        status = "Status: SUBMITTED - Your dispute has been queued for review."
    text = call.echo(
        "Cash back dispute submitted successfully. Your case has been queued for review."
    )
    if add(db.cash_back_disputes, case_id, record):
        return f"{text}Dispute ID: {case_id}\n{status}"
    return f"{text}Note: Dispute may have already been submitted for this transaction."


@behaviour("get_referral_link", "write")
def get_referral_link(db: BankingDB, user_id: str, card_name: str) -> str:
    """Create a referral for a card and the link to share."""
    call = _start(db, "get_referral_link", user_id=user_id, card_name=card_name)
    link_id = referral_link_id(user_id, card_name)
    text = call.echo(
        "Referral link generated successfully. Share this link with the person you want to refer."
    )
    if add_referral(db, link_id, user_id, card_name):
        return f"{text}Referral ID: {link_id}\nReferral link: https://rhobank.com/refer/{link_id}"
    return f"{text}Note: A referral link for this card may have already been generated."


@behaviour("get_card_last_4_digits", "read")
def get_card_last_4_digits(db: BankingDB, credit_card_account_id: str) -> str:
    """The last 4 digits of a card (derived from the account id; the call is still logged)."""
    call = _start(db, "get_card_last_4_digits", credit_card_account_id=credit_card_account_id)
    check_card_exists(db, credit_card_account_id)
    digits = card_last_4_digits(credit_card_account_id)
    text = call.echo("Card information retrieved successfully.")
    return f"{text}Last 4 digits of card: {digits}"


@behaviour("deposit_check", "write")
def deposit_check(db: BankingDB, account_id: str, check_amount: float) -> str:
    """Deposit a check into an open account (the balance is written with a ``$``)."""
    call = _start(db, "deposit_check", account_id=account_id, check_amount=check_amount)
    invalid = f"Error: Invalid check amount '{check_amount}'. Must be a number."
    amount = number(check_amount, invalid)
    if amount <= 0:
        return "Error: Check amount must be positive."
    account = found(db.accounts, account_id, "Account")
    if account.get("status") not in ("ACTIVE", "OPEN"):
        return f"Error: Account '{account_id}' is not active."
    previous = parse_balance(account.get("current_holdings", account.get("balance", 0)))
    new_balance = previous + amount
    edit(db.accounts, account_id)["current_holdings"] = f"${new_balance:.2f}"
    text = call.echo(
        "Check deposited successfully. Funds will be available according to your account's "
        "deposit policy."
    )
    return (
        f"{text}Check deposit processed!\n"
        f"  - Account: {account_id}\n"
        f"  - Check Amount: ${amount:.2f}\n"
        f"  - Previous Balance: ${previous:.2f}\n"
        f"  - New Balance: ${new_balance:.2f}"
    )


BEHAVIOURS = (submit_cash_back_dispute, get_referral_link, get_card_last_4_digits, deposit_check)
