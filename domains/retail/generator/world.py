"""The built-in store: products with variants, customers, orders in every status.

Deterministic for a given `random.Random` state.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping

from tau_env.domains.retail.constants import CANCEL_REASONS, OrderStatus
from tau_env.domains.retail.data_model import (
    CreditCard,
    GiftCard,
    Order,
    OrderFulfillment,
    OrderItem,
    OrderPayment,
    PaymentMethod,
    Paypal,
    Product,
    RetailData,
    User,
    UserAddress,
    UserName,
    Variant,
)
from tau_env.domains.retail.generator.catalog import CATALOG, ProductSpec
from tau_env.domains.retail.generator.people import PEOPLE

__all__ = ["STATUS_WEIGHTS", "customer_names", "generate_world", "random_address"]

STATUS_WEIGHTS: dict[OrderStatus, int] = {
    "pending": 34,
    "delivered": 34,
    "processed": 10,
    "cancelled": 9,
    "pending (item modified)": 5,
    "exchange requested": 4,
    "return requested": 4,
}
"""Relative frequency of each order status in the built-in world."""


_DIGITS = "0123456789"


class _Ids:
    """Draws ids that are unique across the whole world (product, item, order, payment...)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def digits(self, count: int, prefix: str = "") -> str:
        choice = self.rng.choice  # one draw per digit, as ``str(rng.randrange(10))`` makes it
        while True:
            candidate = prefix + "".join([choice(_DIGITS) for _ in range(count)])
            if candidate[len(prefix)] != "0" and candidate not in self.used:
                self.used.add(candidate)
                return candidate


def random_address(rng: random.Random) -> UserAddress:
    """A plausible invented US address."""
    city, state, zip_prefix = rng.choice(PEOPLE.cities)
    second = rng.choice(("", "", f"Apt {rng.randint(1, 40)}", f"Suite {rng.randint(100, 999)}"))
    return UserAddress(
        address1=f"{rng.randint(10, 2999)} {rng.choice(PEOPLE.streets)}",
        address2=second,
        city=city,
        country="USA",
        state=state,
        zip=f"{zip_prefix}{rng.randint(0, 99):02d}",
    )


def _product(spec: ProductSpec, rng: random.Random, ids: _Ids) -> Product:
    combos = list(itertools.product(*(values for _, values in spec.options)))
    chosen = rng.sample(combos, rng.randint(6, min(14, len(combos))))
    base = rng.uniform(*spec.price)
    variants: dict[str, Variant] = {}
    for index, combo in enumerate(chosen):
        item_id = ids.digits(10)
        variants[item_id] = Variant(
            item_id=item_id,
            options={name: value for (name, _), value in zip(spec.options, combo, strict=True)},
            available=index < 3 or rng.random() < 0.75,  # at least three can be bought
            price=round(base * rng.uniform(0.8, 1.25), 2),
        )
    shuffled = list(variants.items())
    rng.shuffle(shuffled)
    return Product(name=spec.name, product_id=ids.digits(10), variants=dict(shuffled))


def _payment_methods(rng: random.Random, ids: _Ids) -> dict[str, PaymentMethod]:
    cards: list[CreditCard] = []
    for _ in range(rng.choice((0, 1, 1, 2))):
        card = CreditCard(
            source="credit_card",
            id=ids.digits(7, "credit_card_"),
            brand=rng.choice(PEOPLE.card_brands),
            last_four=f"{rng.randint(0, 9999):04d}",
        )
        # Customers tell their cards apart by brand and last digits: keep those distinct.
        if all((c.brand, c.last_four) != (card.brand, card.last_four) for c in cards):
            cards.append(card)
    methods: list[PaymentMethod] = list(cards)
    if rng.random() < 0.5:
        methods.append(Paypal(source="paypal", id=ids.digits(7, "paypal_")))
    if rng.random() < 0.5 or not methods:
        balance = round(rng.uniform(0, 350), 2) if rng.random() < 0.85 else 0.0
        methods.append(
            GiftCard(source="gift_card", id=ids.digits(7, "gift_card_"), balance=balance)
        )
    rng.shuffle(methods)
    return {method.id: method for method in methods}


def customer_names() -> list[tuple[str, str]]:
    """Every distinct customer name: first x last, then first x double-barrelled last names.

    A store of up to 1,200 customers (first x last) draws plain names only, as the built-in
    one does; a larger one (``tau-env generate`` grows the store with the task set) draws from
    the double-barrelled ones too (36,000 in all).
    """
    plain = list(itertools.product(PEOPLE.first_names, PEOPLE.last_names))
    doubled = [
        (first, f"{a}-{b}")
        for first in PEOPLE.first_names
        for a in PEOPLE.last_names
        for b in PEOPLE.last_names
        if a != b
    ]
    return plain + doubled


def _users(rng: random.Random, ids: _Ids, count: int) -> list[User]:
    plain = list(itertools.product(PEOPLE.first_names, PEOPLE.last_names))
    names = rng.sample(plain if count <= len(plain) else customer_names(), count)
    users = []
    for first, last in names:
        handle = f"{first.lower()}_{last.lower()}"
        users.append(
            User(
                user_id=ids.digits(4, f"{handle}_"),
                name=UserName(first_name=first, last_name=last),
                address=random_address(rng),
                email=f"{first.lower()}.{last.lower()}{rng.randint(10, 9999)}@example.com",
                payment_methods=_payment_methods(rng, ids),
                orders=[],
            )
        )
    return users


def _shipments(items: list[OrderItem], rng: random.Random, ids: _Ids) -> list[OrderFulfillment]:
    item_ids = [item.item_id for item in items]
    cut = rng.randint(1, len(item_ids)) if len(item_ids) > 1 and rng.random() < 0.3 else 0
    groups = [item_ids[:cut], item_ids[cut:]] if cut else [item_ids]
    return [OrderFulfillment(tracking_id=[ids.digits(12)], item_ids=group) for group in groups]


def _alternative(product: Product, item: OrderItem, rng: random.Random) -> Variant | None:
    others = [v for v in product.variants.values() if v.item_id != item.item_id and v.available]
    return rng.choice(others) if others else None


def _order(
    user: User,
    products: list[Product],
    product_of: Mapping[str, Product],
    status: OrderStatus,
    rng: random.Random,
    ids: _Ids,
) -> Order:
    items: list[OrderItem] = []
    for product in rng.sample(products, rng.choice((1, 1, 2, 2, 3, 4))):
        variant = rng.choice(list(product.variants.values()))
        for _ in range(2 if rng.random() < 0.04 else 1):
            items.append(
                OrderItem(
                    name=product.name,
                    product_id=product.product_id,
                    item_id=variant.item_id,
                    price=variant.price,
                    options=dict(variant.options),
                )
            )
    method_id = rng.choice(list(user.payment_methods))
    total = round(sum(item.price for item in items), 2)
    order = Order(
        order_id=ids.digits(7, "#W"),
        user_id=user.user_id,
        address=user.address.model_copy() if rng.random() < 0.9 else random_address(rng),
        items=items,
        status=status,
        fulfillments=[],
        payment_history=[
            OrderPayment(transaction_type="payment", amount=total, payment_method_id=method_id)
        ],
    )
    _settle(order, product_of, rng, ids)
    return order


def _settle(order: Order, product_of: Mapping[str, Product], rng: random.Random, ids: _Ids) -> None:
    """Give an order the shipments and history that its status implies.

    `product_of`: product id -> product, of the whole catalogue.
    """
    history = order.payment_history
    method_id = history[0].payment_method_id
    if order.status in ("processed", "delivered", "exchange requested", "return requested"):
        order.fulfillments = _shipments(order.items, rng, ids)
    if order.status == "cancelled":
        order.cancel_reason = rng.choice(CANCEL_REASONS)
        history.append(
            OrderPayment(
                transaction_type="refund", amount=history[0].amount, payment_method_id=method_id
            )
        )
    item = order.items[0]
    swap = _alternative(product_of[item.product_id], item, rng)
    if order.status == "pending (item modified)":
        if swap is None:
            order.status = "pending"
            return
        difference = round(swap.price - item.price, 2)
        item.item_id, item.price, item.options = swap.item_id, swap.price, dict(swap.options)
        kind = "payment" if difference > 0 else "refund"
        history.append(
            OrderPayment(transaction_type=kind, amount=abs(difference), payment_method_id=method_id)
        )
    if order.status == "exchange requested":
        if swap is None:
            order.status = "delivered"
            return
        order.exchange_items = [item.item_id]
        order.exchange_new_items = [swap.item_id]
        order.exchange_payment_method_id = method_id
        order.exchange_price_difference = round(swap.price - item.price, 2)
    if order.status == "return requested":
        order.return_items = sorted(
            i.item_id for i in order.items[: rng.randint(1, len(order.items))]
        )
        order.return_payment_method_id = method_id


def generate_world(rng: random.Random, *, users: int = 150) -> RetailData:
    """A complete store.

    Args:
        rng: The generator's random source (consumed; same state, same world).
        users: How many customers; each has one to five orders.
    """
    ids = _Ids(rng)
    products = [_product(spec, rng, ids) for spec in CATALOG]
    product_of = {product.product_id: product for product in products}
    customers = _users(rng, ids, users)
    statuses = list(STATUS_WEIGHTS)
    weights = list(STATUS_WEIGHTS.values())
    orders: list[Order] = []
    for user in customers:
        for _ in range(rng.choice((1, 2, 2, 3, 3, 4, 5))):
            status = rng.choices(statuses, weights)[0]
            order = _order(user, products, product_of, status, rng, ids)
            user.orders.append(order.order_id)
            orders.append(order)
    rng.shuffle(orders)
    return RetailData(
        products={product.product_id: product for product in products},
        users={user.user_id: user for user in customers},
        orders={order.order_id: order for order in orders},
    )
