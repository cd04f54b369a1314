"""Task families about delivered orders: returns, exchanges, and refused requests.

Refused: returning an order that is not delivered, exchanging for another product type.
"""

from __future__ import annotations

from collections.abc import Callable

from tau_env.domains.retail.data_model import RetailDB
from tau_env.domains.retail.generator.store import (
    Draft,
    GoldStep,
    Store,
    describe_item,
    describe_method,
    money,
)
from tau_env.domains.retail.generator.swaps import plan_variant_swap
from tau_env.domains.retail.generator.tasks import locate

__all__ = ["exchange", "exchange_refused", "return_items", "return_refused"]


def _requested(status: str, order_id: str) -> Callable[[RetailDB], bool]:
    def check(db: RetailDB) -> bool:
        return db.orders[order_id].status == status

    return check


def return_items(store: Store) -> Draft | None:
    """Return some items of a delivered order; the agent states the refund."""
    for order in store.orders("delivered"):
        store.take(order)
        user = store.user(order.user_id)
        positions = sorted(
            store.rng.sample(range(len(order.items)), store.rng.randint(1, len(order.items)))
        )
        chosen = [order.items[i] for i in positions]
        original = order.payment_history[0].payment_method_id
        cards = [m for m in store.methods(user, "gift_card") if m.id != original]
        method = user.payment_methods.get(original)
        if cards and (method is None or store.rng.random() < 0.35):
            method = cards[0]
        if method is None:
            continue
        steps, facts, ref = locate(store, user, order)
        if method.id != original:
            steps.append(GoldStep("get_user_details", {"user_id": user.user_id}))
        steps.append(
            GoldStep(
                "return_delivered_order_items",
                {
                    "order_id": order.order_id,
                    "item_ids": [item.item_id for item in chosen],
                    "payment_method_id": method.id,
                },
            )
        )
        refund = sum(item.price for item in chosen)
        listed = " and ".join(describe_item(item) for item in chosen)
        where = describe_method(method)
        if method.id == original:
            where = f"the original payment method ({where})"
        return Draft(
            family="return",
            purpose="Return delivered items, refunded to the original method or a gift card.",
            user=user,
            auth=store.auth_mode(),
            steps=steps,
            communicate=[money(refund)],
            reason=f"From {ref} you want to return: {listed}.",
            behaviour=(
                f"You want the refund on {where}. Confirm when the agent lists the return, ask "
                "how much will be refunded, and end the call."
            ),
            ticket_request=f"returns from {order.order_id}: {listed}; refund to {method.id}.",
            facts={**facts, "items": listed, "payment_method": describe_method(method, "my")},
            outcome=_requested("return requested", order.order_id),
        )
    return None


def exchange(store: Store) -> Draft | None:
    """Exchange one or two delivered items for other variants; the agent states the difference."""
    swap = plan_variant_swap(store, "delivered", "exchange_delivered_order_items", rounded=True)
    if swap is None:
        return None
    method, changes = swap.method, swap.changes
    return Draft(
        family="exchange",
        purpose="Exchange delivered items for other variants of the same products.",
        user=swap.user,
        auth=store.auth_mode(),
        steps=swap.steps,
        communicate=[money(abs(swap.difference))],
        reason=f"From {swap.reference} you want to exchange {changes}.",
        behaviour=(
            f"Ask for all exchanges at once. Settle any difference with "
            f"{describe_method(method)}. Confirm when the agent lists the exchange, ask "
            "what the price difference is, and end the call."
        ),
        ticket_request=f"wants to exchange in {swap.order.order_id}: {changes}; "
        f"difference settled with {method.id}.",
        facts={**swap.facts, "items": changes, "payment_method": describe_method(method, "my")},
        outcome=_requested("exchange requested", swap.order.order_id),
    )


def return_refused(store: Store) -> Draft | None:
    """Ask to return items of an order that is not delivered; the agent refuses."""
    for order in store.orders("pending", "processed"):
        store.take(order)
        user = store.user(order.user_id)
        item = store.rng.choice(order.items)
        steps, facts, ref = locate(store, user, order)
        return Draft(
            family="return_refused",
            purpose="Refuse a return on an order that has not been delivered.",
            user=user,
            auth=store.auth_mode(),
            steps=steps,
            communicate=[order.status],
            reason=f"You want to return the {describe_item(item)} from {ref}.",
            behaviour=(
                "Ask what the order's status is. If the agent says a return is not possible, "
                "accept it, decline any alternative, and end the call."
            ),
            ticket_request=f"wants to return an item of {order.order_id} (status: {order.status}).",
            facts={**facts, "items": describe_item(item)},
            refusal=True,
        )
    return None


def exchange_refused(store: Store) -> Draft | None:
    """Ask to exchange a delivered item for a different product type; the agent refuses."""
    for order in store.orders("delivered"):
        item = store.rng.choice(order.items)
        others = [p for p in store.data.products.values() if p.product_id != item.product_id]
        store.take(order)
        user = store.user(order.user_id)
        wanted = store.rng.choice(others).name
        steps, facts, ref = locate(store, user, order)
        return Draft(
            family="exchange_refused",
            purpose="Refuse an exchange for a different product type.",
            user=user,
            auth=store.auth_mode(),
            steps=steps,
            communicate=["same product"],  # an exchange keeps the product type
            reason=f"From {ref} you want to exchange the {describe_item(item)} for a {wanted}.",
            behaviour=(
                "If the agent says an exchange can only be for the same kind of product, "
                "accept it, decline any alternative, and end the call."
            ),
            ticket_request=f"wants to exchange the {item.name} of {order.order_id} for a {wanted}.",
            facts={**facts, "items": describe_item(item), "new_items": wanted},
            refusal=True,
        )
    return None
