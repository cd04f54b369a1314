"""The retail company's database: products with variants, users with payment methods, orders.

Field names, field order and optional fields follow the reference's ``RetailDB`` so that tool
results (pydantic dumps) and database hashes are byte-identical to the reference's.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Annotated, Any, Literal

from pydantic import Field

from tau_env.domains.records import CreditCard, Record
from tau_env.domains.records import PersonName as UserName
from tau_env.domains.retail.constants import (
    CancelReason,
    OrderStatus,
    TransactionType,
)
from tau_env.domains.retail.lookup import with_user_directory
from tau_env.state import Database, Snapshot, Table

__all__ = [
    "CreditCard",
    "GiftCard",
    "Order",
    "OrderFulfillment",
    "OrderItem",
    "OrderPayment",
    "PaymentMethod",
    "Paypal",
    "Product",
    "RetailDB",
    "RetailData",
    "User",
    "UserAddress",
    "UserName",
    "Variant",
    "email_key",
    "name_zip_key",
]


class Variant(Record):
    """One purchasable version of a product (the agent calls it an item)."""

    item_id: str = Field(description="Unique item id, e.g. '1008292230'; unrelated to product ids.")
    options: dict[str, str] = Field(description="Option name -> value, e.g. {'color': 'blue'}.")
    available: bool = Field(description="Whether the item can be bought now.")
    price: float = Field(description="Current price in dollars.")


class Product(Record):
    """A product type and its variants."""

    name: str = Field(description="Product type name, e.g. 'Desk Lamp'.")
    product_id: str = Field(description="Unique product id.")
    variants: dict[str, Variant] = Field(description="Item id -> variant.")


class UserAddress(Record):
    """A postal address (a user's default address or an order's shipping address)."""

    address1: str = Field(description="Street line.")
    address2: str = Field(description="Second line (suite, apartment), may be empty.")
    city: str = Field(description="City.")
    country: str = Field(description="Country.")
    state: str = Field(description="State code.")
    zip: str = Field(description="Zip code.")


class Paypal(Record):
    """A PayPal account on file."""

    source: Literal["paypal"] = Field(description="Always 'paypal'.")
    id: str = Field(description="Payment method id, e.g. 'paypal_1234567'.")


class GiftCard(Record):
    """A store gift card with a balance; refunds to it are credited at once."""

    source: Literal["gift_card"] = Field(description="Always 'gift_card'.")
    id: str = Field(description="Payment method id, e.g. 'gift_card_1234567'.")
    balance: float = Field(description="Remaining balance in dollars.")


PaymentMethod = Annotated[CreditCard | GiftCard | Paypal, Field(discriminator="source")]
"""Any payment method; the ``source`` field tells which."""


class User(Record):
    """A customer: identity, default address, payment methods and order ids."""

    user_id: str = Field(description="Unique id, e.g. 'sara_doe_496'.")
    name: UserName = Field(description="The customer's name.")
    address: UserAddress = Field(description="Default address.")
    email: str = Field(description="Email address (look-ups ignore case).")
    payment_methods: dict[str, PaymentMethod] = Field(description="Id -> payment method.")
    orders: list[str] = Field(description="Ids of the user's orders.")


def email_key(user: User) -> Hashable:
    """Look-up key of a user by email: case is ignored."""
    return user.email.lower()


def name_zip_key(user: User) -> Hashable:
    """Look-up key of a user by name and zip: case of the names is ignored, the zip is exact."""
    return (user.name.first_name.lower(), user.name.last_name.lower(), user.address.zip)


class OrderFulfillment(Record):
    """A shipment: tracking numbers and the items it carries."""

    tracking_id: list[str] = Field(description="Tracking numbers.")
    item_ids: list[str] = Field(description="Items in this shipment.")


class OrderItem(Record):
    """One item of an order, with the price paid for it."""

    name: str = Field(description="Product type name.")
    product_id: str = Field(description="Product the item belongs to.")
    item_id: str = Field(description="The variant bought.")
    price: float = Field(description="Price paid.")
    options: dict[str, str] = Field(description="The variant's options.")


class OrderPayment(Record):
    """A payment or refund on an order."""

    transaction_type: TransactionType = Field(description="'payment' or 'refund'.")
    amount: float = Field(description="Amount in dollars.")
    payment_method_id: str = Field(description="The payment method charged or credited.")


class Order(Record):
    """An order; the optional fields record a cancellation, exchange or return request."""

    order_id: str = Field(description="Unique id, e.g. '#W1234567' (with the '#').")
    user_id: str = Field(description="The customer who placed it.")
    address: UserAddress = Field(description="Shipping address.")
    items: list[OrderItem] = Field(description="Items bought (an item id may repeat).")
    status: OrderStatus = Field(description="Where the order stands.")
    fulfillments: list[OrderFulfillment] = Field(description="Shipments so far.")
    payment_history: list[OrderPayment] = Field(description="Payments and refunds, oldest first.")
    cancel_reason: CancelReason | None = Field(default=None, description="Why it was cancelled.")
    exchange_items: list[str] | None = Field(default=None, description="Items to exchange.")
    exchange_new_items: list[str] | None = Field(default=None, description="Replacements.")
    exchange_payment_method_id: str | None = Field(
        default=None, description="Method that settles the exchange's price difference."
    )
    exchange_price_difference: float | None = Field(
        default=None, description="New minus old price of the exchanged items."
    )
    return_items: list[str] | None = Field(default=None, description="Items to return.")
    return_payment_method_id: str | None = Field(
        default=None, description="Method that receives the return's refund."
    )


class RetailData(Record):
    """Layout of the retail ``db.json`` file."""

    products: dict[str, Product] = Field(description="Product id -> product.")
    users: dict[str, User] = Field(description="User id -> user.")
    orders: dict[str, Order] = Field(description="Order id -> order.")


class RetailDB(Database):
    """The agent side's view of the retail database for one episode.

    The shared users table carries look-up indexes (by email, by name and zip) built on first
    use; `tau_env.domains.retail.lookup` combines them with this episode's changes.
    """

    data_model = RetailData
    products: Table[Product]
    users: Table[User]
    orders: Table[Order]

    @classmethod
    def load_snapshot(cls, data: Mapping[str, Any], *, source: str) -> Snapshot:
        """Validate and index file content, giving the users table its look-up indexes."""
        return with_user_directory(super().load_snapshot(data, source=source))

    @classmethod
    def snapshot_of(cls, data: RetailData) -> Snapshot:
        """Index an already validated database (the built-in generator's output)."""
        return with_user_directory(Snapshot.from_model(data, cls.list_keys))
