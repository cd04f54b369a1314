"""The customer's 6 tools: apply for a card, refer, call given tools, ask for a human, pay.

Which of them a task's customer sees is the task's ``user_tools`` list. Names, descriptions,
results and errors are the reference's (descriptions are interface text the simulated
customer reads). They work on the same database as the agent's tools.
"""

from __future__ import annotations

import json

from tau_env.domains.banking_knowledge.constants import (
    CREDIT_CARD_REWARDS,
    TODAY_TEXT,
    VALID_CREDIT_CARD_TYPES,
)
from tau_env.domains.banking_knowledge.data_model import BankingDB
from tau_env.domains.banking_knowledge.discoverable import USER_BEHAVIOURS, invoke
from tau_env.domains.banking_knowledge.ids import application_id, referral_id, transaction_id
from tau_env.domains.banking_knowledge.json_text import loads_numbers_as_floats
from tau_env.domains.banking_knowledge.lookups import (
    add,
    add_referral,
    is_empty_result,
    query_text,
)
from tau_env.tools import tool

__all__ = [
    "USER_TOOLS",
    "apply_for_credit_card",
    "call_discoverable_user_tool",
    "list_discoverable_user_tools",
    "request_human_agent_transfer",
    "submit_referral",
    "submit_transaction",
]


def _card_types(db: BankingDB) -> list[str]:
    """The card names this bank accepts, alphabetically (the reference's when it has none)."""
    return sorted(db.card_products) if len(db.card_products) else list(VALID_CREDIT_CARD_TYPES)


def _card_rates(db: BankingDB) -> dict[str, dict[str, float]]:
    """Reward rates by card name, in the bank's order (the reference's when it has none)."""
    if not len(db.card_products):
        return {name: dict(rates) for name, rates in CREDIT_CARD_REWARDS.items()}
    return {name: product.rates for name, product in db.card_products.items()}


@tool(side="user", kind="write")
def apply_for_credit_card(
    db: BankingDB,
    card_type: str,
    customer_name: str,
    annual_income: float,
    rho_bank_subscription: bool = False,
) -> str:
    """Apply for a credit card.

    Args:
        card_type: Type of credit card
        customer_name: Full legal name
        annual_income: Annual income in USD
        rho_bank_subscription: Whether user has Rho-Bank+ subscription
    """
    valid = _card_types(db)
    if card_type not in valid:
        return f"Error: Invalid card_type '{card_type}'. Must be one of: {valid}"
    try:
        income = float(annual_income)
    except (TypeError, ValueError):
        return "Error: Invalid annual_income. Must be a number."
    record_id = application_id(card_type, customer_name, income, rho_bank_subscription)
    record = {
        "application_id": record_id,
        "card_type": card_type,
        "customer_name": customer_name,
        "annual_income": income,
        "rho_bank_subscription": rho_bank_subscription,
        "status": "PENDING",
        "date": TODAY_TEXT,
    }
    if not add(db.credit_card_applications, record_id, record):
        return f"Failed to submit application: Record ID '{record_id}' may already exist."
    return (
        "Credit card application submitted:\n"
        "Your application has been successfully submitted. "
        "You will receive a decision within 5-7 business days via email."
    )


@tool(side="user", kind="write")
def submit_referral(db: BankingDB, user_id: str, account_type: str) -> str:
    """Submit a referral request to refer someone to open an account.

    Args:
        user_id: Your user ID (the referrer)
        account_type: The type of account you are referring someone to open
    """
    record_id = referral_id(user_id, account_type)
    if not add_referral(db, record_id, user_id, account_type):
        return f"Failed to submit referral: Record ID '{record_id}' may already exist."
    return (
        "Referral request submitted successfully!\n"
        f"  - Referral ID: {record_id}\n"
        f"  - Referrer ID: {user_id}\n"
        f"  - Account Type: {account_type}\n"
        "  - Status: NO_PROGRESS\n"
        f"  - Date: {TODAY_TEXT}\n\n"
        "Share your referral ID with the person you're referring. "
        "They will need to use this when applying for their account."
    )


@tool(side="user", kind="write")
def call_discoverable_user_tool(
    db: BankingDB, discoverable_tool_name: str, arguments: str = "{}"
) -> str:
    """Call a tool that was given to you by the agent.

    Use this when the agent has instructed you to perform an action using
    a discoverable tool. The agent will have told you the tool name and arguments.

    This simulates you performing the action in the real world (e.g., opening
    a webpage, navigating to a section, clicking a button).

    Args:
        discoverable_tool_name: The name of the discoverable tool to call (e.g., "open_webpage")
        arguments: JSON string of arguments for the tool (e.g., '{"url": "https://example.com"}')

    Returns:
        The result of executing the discoverable tool
    """
    entry = db.tool_catalog.get(discoverable_tool_name)
    if entry is None or entry.side != "user":
        return f"Error: Unknown discoverable tool '{discoverable_tool_name}'."
    try:
        decoded = loads_numbers_as_floats(arguments)
    except json.JSONDecodeError as error:
        return f"Error: Invalid JSON in arguments: {error}"
    spec = USER_BEHAVIOURS[entry.behaviour]
    # As the reference, whatever JSON value came is checked with ``in`` and by iterating it
    # (a list's items, a text's characters; a number or null raises `TypeError`).
    for name in spec.required:
        if name not in decoded:
            return f"Error: Missing required parameter: {name}"
    accepted = spec.accepted_with_self
    for key in decoded:
        if key not in accepted:
            return f"Error: Unexpected parameter: {key}"
    try:
        return invoke(spec, db, "KnowledgeUserTools", discoverable_tool_name, decoded)
    except TypeError as error:
        return f"Error: Invalid arguments for tool '{discoverable_tool_name}': {error}"


@tool(side="user", kind="read")
def list_discoverable_user_tools(db: BankingDB) -> str:
    """List all tools that have been given to you by the agent.

    Use this to see what actions the agent has instructed you to perform.

    Returns:
        A list of tools that have been given to you
    """
    # As on the agent side, the reference's empty-table message is never reached.
    return "Tools given to you by the agent:\n" + query_text(db, "user_discoverable_tools")


@tool(side="user", kind="write")
def request_human_agent_transfer(db: BankingDB) -> str:
    """Request to be transferred to a human agent for assistance.

    Use this when you want to speak with a real human agent instead of
    the automated system. Each request will be logged and processed.

    Returns:
        Confirmation that your transfer request has been submitted
    """
    existing = query_text(db, "human_transfer_requests")
    # The reference counts earlier requests by the occurrences of 'request_id' in that text.
    number = 1 if is_empty_result(existing) else existing.count("request_id") + 1
    request_id = f"transfer_request_{number}"
    add(
        db.human_transfer_requests,
        request_id,
        {
            "request_id": request_id,
            "request_number": number,
            "requested_at": TODAY_TEXT,
            "status": "PENDING",
        },
    )
    return f"Transfer request #{number} submitted.\nThe agent will process your request."


@tool(side="user", kind="write")
def submit_transaction(
    db: BankingDB,
    user_id: str,
    credit_card_type: str,
    merchant_name: str,
    amount: float,
    category: str,
) -> str:
    """Submit a credit card transaction.

    Args:
        user_id: Your user ID
        credit_card_type: Type of credit card used (e.g., "Bronze Rewards Card", "Gold Rewards Card")
        merchant_name: Name of the merchant where the purchase was made
        amount: Transaction amount in USD (e.g., 127.43)
        category: Transaction category (e.g., "Groceries", "Dining", "Travel", "Software", "Entertainment", "Utilities", "Shopping")
    """  # noqa: E501
    all_rates = _card_rates(db)
    rates = all_rates.get(credit_card_type)
    if rates is None:
        return (
            f"Error: Unknown credit card type '{credit_card_type}'. "
            f"Available types: {list(all_rates)}"
        )
    record_id = transaction_id(user_id, credit_card_type, merchant_name, amount, category)
    rate = rates.get(category, rates["default"])
    points = int(amount * rate)
    record = {
        "transaction_id": record_id,
        "user_id": user_id,
        "credit_card_type": credit_card_type,
        "merchant_name": merchant_name,
        "transaction_amount": f"${amount:.2f}",
        "transaction_date": TODAY_TEXT,
        "category": category,
        "status": "COMPLETED",
        "rewards_earned": f"{points} points",
    }
    if not add(db.credit_card_transaction_history, record_id, record):
        return f"Failed to submit transaction: Record ID '{record_id}' may already exist."
    return (
        "Transaction submitted successfully!\n"
        f"  - Transaction ID: {record_id}\n"
        f"  - User ID: {user_id}\n"
        f"  - Card Type: {credit_card_type}\n"
        f"  - Merchant: {merchant_name}\n"
        f"  - Amount: ${amount:.2f}\n"
        f"  - Category: {category}\n"
        f"  - Date: {TODAY_TEXT}\n"
        f"  - Rewards Earned: {points} points ({rate}% cashback rate)\n"
    )


USER_TOOLS = (
    apply_for_credit_card,
    submit_referral,
    call_discoverable_user_tool,
    list_discoverable_user_tools,
    request_human_agent_transfer,
    submit_transaction,
)
