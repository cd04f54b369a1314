"""A small hand-built retail store, and a helper to call tools on it."""

from __future__ import annotations

import copy

import pytest

import tau_env
from tau_env.domains.retail import TOOLBOX
from tau_env.domains.retail.data_model import RetailDB
from tau_env.state import Journal, World
from tau_env.state.database import SeedSource

OPTIONAL_ORDER_FIELDS = (  # the reference's order fields a record may leave out (dumped as null)
    "cancel_reason",
    "exchange_items",
    "exchange_new_items",
    "exchange_payment_method_id",
    "exchange_price_difference",
    "return_items",
    "return_payment_method_id",
)


def _address(street: str, zip_code: str) -> dict:
    return {
        "address1": street,
        "address2": "",
        "city": "Portland",
        "country": "USA",
        "state": "OR",
        "zip": zip_code,
    }


LAMP, MUG = "1000000001", "1000000002"
PRODUCT_NAMES = {LAMP: "Desk Lamp", MUG: "Travel Mug"}
VARIANTS = {  # item id: product, options, available, price
    "2000000001": (LAMP, {"color": "black"}, True, 40.0),
    "2000000002": (LAMP, {"color": "white"}, True, 45.5),
    "2000000003": (LAMP, {"color": "brass"}, False, 60.25),
    "2000000004": (LAMP, {"color": "silver"}, True, 99.99),
    "2000000011": (MUG, {"size": "small"}, True, 10.0),
    "2000000012": (MUG, {"size": "large"}, True, 15.99),
}


def _product(product_id: str) -> dict:
    """A catalogue product with its variants from `VARIANTS`."""
    variants = {
        item_id: {
            "item_id": item_id,
            "options": dict(options),
            "available": available,
            "price": price,
        }
        for item_id, (owner, options, available, price) in VARIANTS.items()
        if owner == product_id
    }
    return {"name": PRODUCT_NAMES[product_id], "product_id": product_id, "variants": variants}


def _item(item_id: str) -> dict:
    """An order line for the variant `item_id`: its product's name, its price and options."""
    product_id, options, _, price = VARIANTS[item_id]
    return {
        "name": PRODUCT_NAMES[product_id],
        "product_id": product_id,
        "item_id": item_id,
        "price": price,
        "options": dict(options),
    }


BLACK, WHITE, SMALL = _item("2000000001"), _item("2000000002"), _item("2000000011")


def _pay(amount: float, method: str, kind: str = "payment") -> dict:
    return {"transaction_type": kind, "amount": amount, "payment_method_id": method}


def _order(order_id: str, user_id: str, status: str, items: list, history: list) -> dict:
    return {
        "order_id": order_id,
        "user_id": user_id,
        "address": _address("1 Old Road", "97201"),
        "items": items,
        "status": status,
        "fulfillments": [],
        "payment_history": history,
    }


STORE = {
    "products": {product_id: _product(product_id) for product_id in PRODUCT_NAMES},
    "users": {
        "ada_abbott_1000": {
            "user_id": "ada_abbott_1000",
            "name": {"first_name": "Ada", "last_name": "Abbott"},
            "address": _address("1 Old Road", "97201"),
            "email": "Ada.Abbott@example.com",
            "payment_methods": {
                "credit_card_1": {
                    "source": "credit_card",
                    "id": "credit_card_1",
                    "brand": "visa",
                    "last_four": "1234",
                },
                "gift_card_1": {"source": "gift_card", "id": "gift_card_1", "balance": 30.0},
                "paypal_1": {"source": "paypal", "id": "paypal_1"},
            },
            "orders": [
                "#W0000001",
                "#W0000002",
                "#W0000003",
                "#W0000004",
                "#W0000007",
                "#W0000009",
            ],
        },
        "bruno_banerjee_2000": {
            "user_id": "bruno_banerjee_2000",
            "name": {"first_name": "Bruno", "last_name": "Banerjee"},
            "address": _address("9 Elm Street", "78701"),
            "email": "bruno@example.com",
            "payment_methods": {
                "gift_card_2": {"source": "gift_card", "id": "gift_card_2", "balance": 10.0}
            },
            "orders": ["#W0000005", "#W0000008"],
        },
        "ada_abbott_3000": {
            "user_id": "ada_abbott_3000",
            "name": {"first_name": "Ada", "last_name": "Abbott"},
            "address": _address("5 Pine Hollow", "12345"),
            "email": "ada.abbott@example.org",
            "payment_methods": {"paypal_3": {"source": "paypal", "id": "paypal_3"}},
            "orders": [],
        },
    },
    "orders": {
        "#W0000001": _order(
            "#W0000001", "ada_abbott_1000", "pending", [BLACK, SMALL], [_pay(50.0, "credit_card_1")]
        ),
        "#W0000002": _order(
            "#W0000002", "ada_abbott_1000", "pending", [SMALL, SMALL], [_pay(20.0, "gift_card_1")]
        ),
        "#W0000003": {
            **_order(
                "#W0000003",
                "ada_abbott_1000",
                "delivered",
                [WHITE, SMALL],
                [_pay(55.5, "paypal_1")],
            ),
            "fulfillments": [{"tracking_id": ["123456789012"], "item_ids": ["2000000002"]}],
        },
        "#W0000004": _order(
            "#W0000004", "ada_abbott_1000", "processed", [BLACK], [_pay(40.0, "credit_card_1")]
        ),
        "#W0000005": _order(
            "#W0000005",
            "bruno_banerjee_2000",
            "pending (item modified)",
            [SMALL],
            [_pay(10.0, "gift_card_2"), _pay(0.0, "gift_card_2", "refund")],
        ),
        "#W0000007": _order(
            "#W0000007", "ada_abbott_1000", "pending", [SMALL], [_pay(25.5, "credit_card_1")]
        ),
        "#W0000009": _order(
            "#W0000009", "ada_abbott_1000", "pending", [WHITE], [_pay(45.5, "paypal_1")]
        ),
        "#W0000008": _order(
            "#W0000008",
            "bruno_banerjee_2000",
            "pending",
            [SMALL],
            [_pay(6.0, "gift_card_2"), _pay(4.0, "credit_card_gone")],
        ),
    },
}
"""Ada (three methods; a gift card of 30.00) and Bruno (a gift card of 10.00), plus a second
Ada Abbott in another zip code. Orders: #1 pending (credit card), #2 pending with two units of
one item (gift card), #3 delivered, #4 processed, #5 already modified, #7 and #9 pending, #8
pending with a payment on a method that no longer exists."""


@pytest.fixture(scope="session")
def store_snapshot():
    return RetailDB.load_snapshot(copy.deepcopy(STORE), source="fixture")


@pytest.fixture
def world(store_snapshot):
    """A fresh episode's world; afterwards, checks that the shared base was not modified."""
    before = store_snapshot.fingerprint()
    journal, source = Journal(), SeedSource(0)
    yield World(TOOLBOX, RetailDB(store_snapshot, journal, source), None, journal, source)
    assert store_snapshot.fingerprint() == before, "a tool modified a shared record"


def call(world: World, name: str, **arguments):
    """Call an agent tool; returns the `ToolResult`."""
    return world.call_tool("agent", name, arguments)


@pytest.fixture(scope="module")
def official(data_dir):
    """The official retail domain (tests that use it skip without the official data)."""
    return tau_env.load_domain("retail", data_dir)
