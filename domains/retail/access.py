"""Fetching records with the reference's error texts; shared by the read and the write tools.

Every function returns the shared record (never modify it; call ``edit`` on the table for a
modifiable copy) or raises `ToolError` with the message the reference gives.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from tau_env.domains.retail.data_model import (
    Order,
    OrderItem,
    PaymentMethod,
    Product,
    RetailDB,
    User,
    Variant,
)
from tau_env.errors import ToolError

__all__ = [
    "check_item_counts",
    "first_in",
    "first_item",
    "get_item",
    "get_order",
    "get_payment_method",
    "get_product",
    "get_user",
    "get_variant",
]

_Record = TypeVar("_Record")


def get_order(db: RetailDB, order_id: str) -> Order:
    """The order, or ``Order not found``."""
    return db.orders.require(order_id, "Order not found")


def get_user(db: RetailDB, user_id: str) -> User:
    """The user, or ``User not found``."""
    return db.users.require(user_id, "User not found")


def get_product(db: RetailDB, product_id: str) -> Product:
    """The product, or ``Product not found``."""
    return db.products.require(product_id, "Product not found")


def get_variant(db: RetailDB, product_id: str, item_id: str) -> Variant:
    """A variant of a given product, or ``Product not found`` / ``Variant not found``."""
    return _entry(get_product(db, product_id).variants, item_id, "Variant not found")


def get_item(db: RetailDB, item_id: str) -> Variant:
    """The variant with this item id in any product (first product in table order)."""
    for product in db.products.values():
        variant = product.variants.get(item_id)
        if variant is not None:
            return variant
    raise ToolError("Item not found")


def get_payment_method(db: RetailDB, user_id: str, payment_method_id: str) -> PaymentMethod:
    """One of a user's payment methods, or ``User not found`` / ``Payment method not found``."""
    methods = get_user(db, user_id).payment_methods
    return _entry(methods, payment_method_id, "Payment method not found")


def _entry(records: Mapping[str, _Record], key: str, missing: str) -> _Record:
    """``records[key]``, or a `ToolError` with the `missing` message."""
    record = records.get(key)
    if record is None:
        raise ToolError(missing)
    return record


def first_item(order: Order, item_id: str) -> OrderItem:
    """The first item of the order with this item id, or ``Item <id> not found``."""
    return first_in(order.items, item_id)


def first_in(items: list[OrderItem], item_id: str) -> OrderItem:
    """The first of `items` with this item id, or ``Item <id> not found``."""
    for item in items:
        if item.item_id == item_id:
            return item
    raise ToolError(f"Item {item_id} not found")


def check_item_counts(order: Order, item_ids: list[str], message: str) -> None:
    """Each id must occur in the order at least as often as in `item_ids`.

    Args:
        order: The order the items should belong to.
        item_ids: The requested items (duplicates mean several units).
        message: The error text; ``{item_id}`` is replaced by the first id that fails.
    """
    present = [item.item_id for item in order.items]
    for item_id in item_ids:
        if item_ids.count(item_id) > present.count(item_id):
            raise ToolError(message.format(item_id=item_id))
