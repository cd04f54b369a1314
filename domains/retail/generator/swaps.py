"""The plan shared by exchanges (delivered orders) and item changes (pending orders).

Both swap one or two items of an order for other variants of the same products, settle the
price difference with one payment method, and read the same records first; they differ only in
the tool and in rounding: the exchange tool rounds the difference to cents, the modify tool
does not (the reference's behaviour), so the gift-card check follows each tool.
"""

from __future__ import annotations

from dataclasses import dataclass

from tau_env.domains.retail.data_model import (
    GiftCard,
    Order,
    OrderItem,
    PaymentMethod,
    User,
    Variant,
)
from tau_env.domains.retail.generator.store import (
    GoldStep,
    Store,
    describe_item,
    describe_options,
)
from tau_env.domains.retail.generator.tasks import locate

__all__ = ["VariantSwap", "plan_variant_swap"]


@dataclass(frozen=True)
class VariantSwap:
    """A swap the customer will ask for, and the agent's gold steps to carry it out.

    Attributes:
        order: The order whose items change.
        user: Its owner.
        method: The payment method that settles the difference.
        difference: New total minus old total (rounded to cents when the tool rounds).
        steps: Authentication, look-ups, then the swap call.
        facts: What the customer knows, by key (from `locate`).
        reference: How the customer names the order.
        changes: The swap in words ("the ... for the one with ...").
    """

    order: Order
    user: User
    method: PaymentMethod
    difference: float
    steps: list[GoldStep]
    facts: dict[str, str]
    reference: str
    changes: str


def plan_variant_swap(store: Store, status: str, tool: str, *, rounded: bool) -> VariantSwap | None:
    """The first order in `status` with swappable items that some payment method can settle."""
    for order in store.orders(status):
        candidates = [item for item in store.distinct_items(order) if store.alternatives(item)]
        if not candidates:
            continue
        user = store.user(order.user_id)
        chosen = store.sample(candidates, 2)
        new = [store.rng.choice(store.alternatives(item)) for item in chosen]
        difference = _difference(chosen, new, rounded=rounded)
        methods = [
            m for m in store.methods(user) if not isinstance(m, GiftCard) or m.balance >= difference
        ]
        if not methods:
            continue
        store.take(order)
        method = store.rng.choice(methods)
        steps, facts, reference = locate(store, user, order)
        for product_id in dict.fromkeys(item.product_id for item in chosen):
            steps.append(GoldStep("get_product_details", {"product_id": product_id}))
        if method.id != order.payment_history[0].payment_method_id:
            steps.append(GoldStep("get_user_details", {"user_id": user.user_id}))
        arguments = {
            "order_id": order.order_id,
            "item_ids": [item.item_id for item in chosen],
            "new_item_ids": [variant.item_id for variant in new],
            "payment_method_id": method.id,
        }
        steps.append(GoldStep(tool, arguments))
        changes = " and ".join(
            f"the {describe_item(old)} for the one with {describe_options(variant.options)}"
            for old, variant in zip(chosen, new, strict=True)
        )
        return VariantSwap(order, user, method, difference, steps, facts, reference, changes)
    return None


def _difference(old: list[OrderItem], new: list[Variant], *, rounded: bool) -> float:
    difference: float = 0
    for before, after in zip(old, new, strict=True):
        difference += after.price - before.price
    return round(difference, 2) if rounded else difference
