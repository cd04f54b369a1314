"""The retail agent's tools: look-ups, reads and the generic tools, and the list of all.

The order writes live in `tau_env.domains.retail.order_tools`; `AGENT_TOOLS` lists all sixteen
in the reference's order.

Names, arguments, results and error texts follow the reference exactly; the docstrings (what
the model reads) are tau_env's own.
"""

from __future__ import annotations

import json

from tau_env.domains.retail.access import get_item, get_order, get_product, get_user
from tau_env.domains.retail.constants import TRANSFER_RESULT
from tau_env.domains.retail.data_model import (
    Order,
    Product,
    RetailDB,
    User,
    Variant,
    email_key,
    name_zip_key,
)
from tau_env.domains.retail.lookup import first_user_matching
from tau_env.domains.retail.order_tools import (
    cancel_pending_order,
    exchange_delivered_order_items,
    modify_pending_order_address,
    modify_pending_order_items,
    modify_pending_order_payment,
    modify_user_address,
    return_delivered_order_items,
)
from tau_env.errors import ToolError
from tau_env.state import Toolbox
from tau_env.tools import tool
from tau_env.tools.calculator import evaluate_expression

__all__ = [
    "AGENT_ENV_FUNCTIONS",
    "AGENT_TOOLS",
    "TOOLBOX",
    "calculate",
    "find_user_id_by_email",
    "find_user_id_by_name_zip",
    "get_item_details",
    "get_order_details",
    "get_product_details",
    "get_user_details",
    "list_all_product_types",
    "transfer_to_human_agents",
]


@tool(kind="generic")
def calculate(db: RetailDB, expression: str) -> str:
    """Work out an arithmetic expression and return the result rounded to two decimals.

    Args:
        expression: Numbers combined with + - * / and parentheses, for example
            '(129.99 - 99.5) * 2'.
    """
    return evaluate_expression(expression)


@tool(kind="read")
def find_user_id_by_email(db: RetailDB, email: str) -> str:
    """Return the id of the customer with this email address (case does not matter).

    Args:
        email: The customer's email address, such as 'jane.roe123@example.com'.
    """
    user_id = first_user_matching(db.users, db.snapshot.records["users"], email_key, email.lower())
    if user_id is None:
        raise ToolError("User not found")
    return user_id


@tool(kind="read")
def find_user_id_by_name_zip(db: RetailDB, first_name: str, last_name: str, zip: str) -> str:
    """Return the id of the customer with this name and zip code.

    Prefer the email look-up; use this one when the customer cannot give an email address or
    the email is not found. Names ignore case; the zip must match exactly.

    Args:
        first_name: The customer's first name, such as 'Jane'.
        last_name: The customer's last name, such as 'Roe'.
        zip: The zip code of the customer's default address, such as '94110'.
    """
    key = (first_name.lower(), last_name.lower(), zip)
    user_id = first_user_matching(db.users, db.snapshot.records["users"], name_zip_key, key)
    if user_id is None:
        raise ToolError("User not found")
    return user_id


@tool(kind="read")
def get_order_details(db: RetailDB, order_id: str) -> Order:
    """Show an order: status, items, shipping address, shipments and payments.

    Args:
        order_id: The order id, which starts with '#', such as '#W1234567'.
    """
    return get_order(db, order_id)


@tool(kind="read")
def get_product_details(db: RetailDB, product_id: str) -> Product:
    """Show a product type and every variant of it (options, price, availability).

    Args:
        product_id: The product id, such as '6086499569'. Product ids are not item ids.
    """
    return get_product(db, product_id)


@tool(kind="read")
def get_item_details(db: RetailDB, item_id: str) -> Variant:
    """Show one item (a product variant): its options, price and availability.

    Args:
        item_id: The item id, such as '1008292230'. Item ids are not product ids.
    """
    return get_item(db, item_id)


@tool(kind="read")
def get_user_details(db: RetailDB, user_id: str) -> User:
    """Show a customer's profile: name, default address, email, payment methods and orders.

    Args:
        user_id: The customer's user id, such as 'jane_roe_1234'.
    """
    return get_user(db, user_id)


@tool(kind="read")
def list_all_product_types(db: RetailDB) -> str:
    """List every product type the store sells, as a JSON object of name -> product id.

    Each product type comes in variants (items) that differ in their options.
    """
    names = {product.name: product.product_id for product in db.products.values()}
    return json.dumps(names, sort_keys=True)


@tool(kind="generic")
def transfer_to_human_agents(db: RetailDB, summary: str) -> str:
    """Hand the customer over to a human agent, with a summary of their issue.

    Use it only when the customer asks for a human, or when the policy and your tools cannot
    resolve the request.

    Args:
        summary: What the customer needs, for the human agent who takes over.
    """
    return TRANSFER_RESULT


AGENT_TOOLS = (
    calculate,
    cancel_pending_order,
    exchange_delivered_order_items,
    find_user_id_by_name_zip,
    find_user_id_by_email,
    get_order_details,
    get_product_details,
    get_item_details,
    get_user_details,
    list_all_product_types,
    modify_pending_order_address,
    modify_pending_order_items,
    modify_pending_order_payment,
    modify_user_address,
    return_delivered_order_items,
    transfer_to_human_agents,
)
"""The sixteen agent tools, in the order of the reference's tool file."""

AGENT_ENV_FUNCTIONS: tuple[()] = ()
"""Retail task files call no setup or assertion helpers."""

TOOLBOX = Toolbox.of(AGENT_TOOLS, agent_env_functions=AGENT_ENV_FUNCTIONS)
"""Both sides' tools and env functions (the user has none). Defined here, beside the tools,
so the generator can use it without importing the package that imports the generator."""
