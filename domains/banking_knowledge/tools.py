"""The agent's 14 always-visible banking tools (retrieval tools come with the variant).

Names, arguments, descriptions, results and error texts are the reference's: descriptions
are interface text the agent reads, reproduced byte for byte. As in the reference, most
failures are ordinary results starting with ``Error:`` (they do not count towards
``max_errors``), and the discoverable-tool wrappers log a write's call even when the write
answered with such an error; an exception is raised only where the reference raises one
(the world answers it as the reference's environment does, error flag set). Arguments come
as sent, unvalidated (`tau_env.domains.banking_knowledge.direct_calls`): a tool given a value
of another JSON type behaves as the reference's body does with it.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import WithJsonSchema

from tau_env.domains.banking_knowledge.constants import CURRENT_TIME_TEXT, TRANSFER_REASONS
from tau_env.domains.banking_knowledge.data_model import BankingDB, CatalogEntry
from tau_env.domains.banking_knowledge.discoverable import (
    AGENT_BEHAVIOURS,
    format_documentation,
    invoke,
)
from tau_env.domains.banking_knowledge.ids import (
    agent_tool_log_id,
    user_tool_given_id,
    verification_id,
)
from tau_env.domains.banking_knowledge.json_text import indented, loads_numbers_as_floats
from tau_env.domains.banking_knowledge.lookups import add, edit, exists, query_by, query_text
from tau_env.tools import env_function, tool

__all__ = [
    "AGENT_ENV_FUNCTIONS",
    "AGENT_TOOLS",
    "TransferReason",
    "call_discoverable_agent_tool",
    "change_user_email",
    "get_credit_card_accounts_by_user",
    "get_credit_card_transactions_by_user",
    "get_current_time",
    "get_referrals_by_user",
    "get_user_information_by_email",
    "get_user_information_by_id",
    "get_user_information_by_name",
    "give_discoverable_user_tool",
    "list_discoverable_agent_tools",
    "log_verification",
    "set_read_log_allowlist",
    "transfer_to_human_agents",
    "unlock_discoverable_agent_tool",
]

TransferReason = Annotated[str, WithJsonSchema({"enum": list(TRANSFER_REASONS), "type": "string"})]
"""A transfer reason code: offered to the model as an enum, checked by the tool itself so a
wrong code gets the reference's own error text."""


@tool(kind="generic")
def transfer_to_human_agents(db: BankingDB, summary: str, reason: TransferReason = "other") -> str:
    """Transfer the user to a human agent.

    The proper transfer reason enum can be found in the knowledge base: search it before calling this tool to select the proper applicable reason.

    Args:
        summary: A summary of the user's issue and what was attempted before transfer.
        reason: The specific reason code for the transfer.
    """  # noqa: E501  (interface text: one line in the reference's schema)
    if reason not in TRANSFER_REASONS:
        return (
            f"Error: Invalid transfer reason '{reason}'. "
            f"Must be one of: {', '.join(TRANSFER_REASONS)}"
        )
    return f"Transfer successful (reason: {reason}). A human agent will assist you shortly."


@tool(kind="read")
def get_current_time(db: BankingDB) -> str:
    """Get the current time. Use this to get the current timestamp for logging verification records.

    Returns:
        The current time in the format "YYYY-MM-DD HH:MM:SS TZ"
    """
    return CURRENT_TIME_TEXT


@tool(kind="read")
def get_user_information_by_id(db: BankingDB, user_id: str) -> str:
    """Get the information (date of birth, email, phone number, address) for a user by their user id.

    Args:
        user_id: The ID of the user
    """  # noqa: E501
    return query_by(db, "users", "user_id", user_id)


@tool(kind="read")
def get_user_information_by_name(db: BankingDB, customer_name: str) -> str:
    """Get the information (date of birth, email, phone number, address) for a user by their name. Case Sensitive.

    Args:
        customer_name: The name of the user
    """  # noqa: E501
    return query_by(db, "users", "name", customer_name)


@tool(kind="read")
def get_user_information_by_email(db: BankingDB, email: str) -> str:
    """Get the information (date of birth, email, phone number, address) for a user by their email.

    Args:
        email: The email of the user
    """
    return query_by(db, "users", "email", email)


@tool(kind="write")
def change_user_email(db: BankingDB, user_id: str, new_email: str) -> str:
    """Change the email address for a user.

    Args:
        user_id: The ID of the user whose email should be changed
        new_email: The new email address to set for the user
    """
    if not exists(db.users, user_id):  # an unhashable id raises, as the reference's lookup
        return f"Error: User with ID '{user_id}' not found."
    edit(db.users, user_id)["email"] = new_email
    return f"Email updated successfully.\n  - User ID: {user_id}\n  - New Email: {new_email}"


@tool(kind="read")
def get_referrals_by_user(db: BankingDB, user_id: str) -> str:
    """Get all referrals made by a user.

    Args:
        user_id: The ID of the user (referrer) to look up referrals for
    """
    return query_by(db, "referrals", "referrer_id", user_id)


@tool(kind="read")
def get_credit_card_transactions_by_user(db: BankingDB, user_id: str) -> str:
    """Get all credit card transactions for a user.

    Args:
        user_id: The ID of the user to look up transactions for
    """
    return query_by(db, "credit_card_transaction_history", "user_id", user_id)


@tool(kind="read")
def get_credit_card_accounts_by_user(db: BankingDB, user_id: str) -> str:
    """Get all credit card accounts for a user.

    Returns information about each credit card account including card type,
    date opened, current balance, and reward points.

    Args:
        user_id: The ID of the user to look up credit card accounts for
    """
    return query_by(db, "credit_card_accounts", "user_id", user_id)


@tool(kind="write")
def log_verification(
    db: BankingDB,
    name: str,
    user_id: str,
    address: str,
    email: str,
    phone_number: str,
    date_of_birth: str,
    time_verified: str,
) -> str:
    """Log a verification record after successfully verifying a user's identity.

    Call this tool after you have verified a user by confirming 2 out of 4 identity fields
    (date of birth, email, phone number, address). This creates an audit record of the verification.

    Args:
        name: The verified user's full name
        user_id: The verified user's ID
        address: The verified user's address
        email: The verified user's email
        phone_number: The verified user's phone number
        date_of_birth: The verified user's date of birth (MM/DD/YYYY format)
        time_verified: The timestamp of the verification (e.g., "2025-11-14 03:40:00 EST")
    """
    record = {
        "name": name,
        "user_id": user_id,
        "address": address,
        "email": email,
        "phone_number": phone_number,
        "date_of_birth": date_of_birth,
        "time_verified": time_verified,
    }
    if not add(db.verification_history, verification_id(user_id, time_verified), record):
        return "Failed to log verification: Record may already exist."
    return (
        "Verification logged successfully.\n"
        f"  - User: {name} (ID: {user_id})\n"
        f"  - Verified at: {time_verified}"
    )


def _catalog_entry(db: BankingDB, name: str, side: Literal["agent", "user"]) -> CatalogEntry | None:
    entry = db.tool_catalog.get(name)
    return entry if entry is not None and entry.side == side else None


def _decoded(arguments: str, *, numbers_as_floats: bool) -> Any:
    """The JSON arguments, integers as floats when asked (the reference's normalisation)."""
    return loads_numbers_as_floats(arguments) if numbers_as_floats else json.loads(arguments)


@tool(kind="generic", mutates_state=True)
def give_discoverable_user_tool(
    db: BankingDB, discoverable_tool_name: str, arguments: str = "{}"
) -> str:
    """Pass a tool to the user so they can execute it themselves.

    Use this when the knowledge base indicates that the user should perform
    an action themselves (e.g., "to do X, have the user call tool_name(args)").

    The user will then be able to call `call_discoverable_tool` with the same
    tool name and arguments to simulate executing the action.

    Args:
        discoverable_tool_name: The name of the discoverable tool (e.g., "open_webpage", "navigate_to_section")
        arguments: JSON string of arguments for the tool (e.g., '{"url": "https://example.com"}')
    """  # noqa: E501
    if not isinstance(discoverable_tool_name, str):  # the reference looks the name up as an
        kind = type(discoverable_tool_name).__name__  # attribute of its user toolkit class
        raise TypeError(f"attribute name must be string, not '{kind}'")
    entry = _catalog_entry(db, discoverable_tool_name, "user")
    if entry is None:
        return f"Error: Unknown discoverable tool '{discoverable_tool_name}'."
    try:
        given = _decoded(arguments, numbers_as_floats=False)
    except json.JSONDecodeError as error:
        return f"Error: Invalid JSON in arguments: {error}"
    # As the reference, whatever JSON value came is checked by iterating it: an object's
    # keys, a list's items, a text's characters (a number or null cannot be iterated).
    parameters = {p.name for p in entry.parameters} | {"self"}
    for key in given:
        if key not in parameters:
            return f"Error: Unexpected parameter: {key}"
    add(
        db.user_discoverable_tools,
        user_tool_given_id(discoverable_tool_name),
        {"tool_name": discoverable_tool_name, "status": "GIVEN"},
    )
    shown = indented(given) if given else "(no arguments)"
    return (
        f"Tool given to user: {discoverable_tool_name}\n"
        f"Description: {entry.description}\n"
        f"Arguments: {shown}\n\n"
        "The user can now execute this action by calling `call_discoverable_user_tool` "
        f"with discoverable_tool_name='{discoverable_tool_name}' and the same arguments."
    )


def _unknown_agent_tool(name: str) -> str:
    return f"Error: Unknown agent tool '{name}'. This tool is not available."


@tool(
    kind="generic",
    mutates_state=True,
    argument_texts={
        "agent_tool_name": (
            "The name of the agent discoverable tool to unlock\n"
            '(e.g., "calculate_apr_adjustment_7842")'
        )
    },
)
def unlock_discoverable_agent_tool(db: BankingDB, agent_tool_name: str) -> str:
    """Unlock an agent discoverable tool that was found in the knowledge base.

    Use this when the knowledge base indicates that you have access to a specialized
    internal tool. The knowledge base will tell you the tool name to unlock.

    After unlocking, you can use the tool by calling `call_discoverable_agent_tool` with
    the tool name and required arguments.

    Args:
        agent_tool_name: The name of the agent discoverable tool to unlock (an example name
            follows on a second line, see argument_texts)
    """
    entry = _catalog_entry(db, agent_tool_name, "agent")
    if entry is None:
        return _unknown_agent_tool(agent_tool_name)
    db.unlocked = db.unlocked | {agent_tool_name}
    return (
        f"Tool unlocked: {agent_tool_name}\n"
        f"Description: {entry.description}\n\n"
        f"{format_documentation(entry)}\n\n"
        "You can now use this tool by calling `call_discoverable_agent_tool` with "
        f"agent_tool_name='{agent_tool_name}' and the required arguments."
    )


@tool(kind="write")
def call_discoverable_agent_tool(db: BankingDB, agent_tool_name: str, arguments: str = "{}") -> str:
    """Call an agent discoverable tool that you have previously unlocked.

    Use this after unlocking a tool with `unlock_discoverable_agent_tool`. The knowledge base
    will tell you which tool to use and what arguments to provide.

    Args:
        agent_tool_name: The name of the agent discoverable tool to call
        arguments: JSON string of arguments for the tool (e.g., '{"user_id": "abc123"}')
    """
    entry = _catalog_entry(db, agent_tool_name, "agent")
    if entry is None:
        return _unknown_agent_tool(agent_tool_name)
    if agent_tool_name not in db.unlocked:
        return (
            f"Error: Tool '{agent_tool_name}' has not been unlocked. "
            "You must first use `unlock_discoverable_agent_tool` to unlock this tool before "
            "calling it."
        )
    try:
        decoded = _decoded(arguments, numbers_as_floats=True)
    except json.JSONDecodeError as error:
        return f"Error: Invalid JSON in arguments: {error}"
    spec = AGENT_BEHAVIOURS[entry.behaviour]
    try:
        result = invoke(spec, db, "KnowledgeTools", agent_tool_name, decoded)
    except TypeError as error:
        return f"Error: Invalid arguments: {error}"
    # Writes are always logged (even when they answered with an error); reads and generic
    # tools only when the task's gold plan calls them, so extra look-ups leave no trace.
    if spec.mutates_state or agent_tool_name in db.read_log_allowlist:
        add(
            db.agent_discoverable_tools,
            agent_tool_log_id(agent_tool_name),
            {"tool_name": agent_tool_name, "status": "CALLED"},
        )
    return result


@tool(kind="read")
def list_discoverable_agent_tools(db: BankingDB) -> str:
    """List all agent discoverable tools that you have called.

    Use this to see what specialized tools you have used.

    Returns:
        A list of tools that you have called
    """
    # The reference tests for "No results found", a phrase the query never writes, so its
    # empty-table message never appears; the header precedes the query's own message.
    return "Your called agent tools:\n" + query_text(db, "agent_discoverable_tools")


@env_function(side="agent")
def set_read_log_allowlist(db: BankingDB, tool_names: list[str]) -> None:
    """Task setup: the read-only discoverable tools whose calls are logged (the gold plan's)."""
    db.read_log_allowlist = frozenset(tool_names)


AGENT_TOOLS = (
    transfer_to_human_agents,
    get_current_time,
    get_user_information_by_id,
    get_user_information_by_name,
    get_user_information_by_email,
    change_user_email,
    get_referrals_by_user,
    get_credit_card_transactions_by_user,
    get_credit_card_accounts_by_user,
    log_verification,
    give_discoverable_user_tool,
    unlock_discoverable_agent_tool,
    call_discoverable_agent_tool,
    list_discoverable_agent_tools,
)
AGENT_ENV_FUNCTIONS = (set_read_log_allowlist,)
