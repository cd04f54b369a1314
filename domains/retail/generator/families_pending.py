"""Task families about pending orders: cancel, change items, address or payment, refusals."""

from __future__ import annotations

from tau_env.domains.retail.constants import CANCEL_REASONS
from tau_env.domains.retail.data_model import GiftCard, RetailDB
from tau_env.domains.retail.generator.store import (
    Draft,
    GoldStep,
    Store,
    describe_item,
    describe_method,
    describe_options,
    money,
)
from tau_env.domains.retail.generator.swaps import plan_variant_swap
from tau_env.domains.retail.generator.tasks import locate

__all__ = [
    "cancel",
    "cancel_refused",
    "modify_address",
    "modify_items",
    "modify_items_refused",
    "modify_payment",
    "modify_payment_refused",
]

_REASON_TEXT = {
    "no longer needed": "you no longer need the items",
    "ordered by mistake": "you placed it by mistake",
}


def cancel(store: Store) -> Draft | None:
    """Cancel a pending order for an allowed reason; the agent states the refund."""
    for order in store.orders("pending"):
        store.take(order)
        user = store.user(order.user_id)
        reason = store.rng.choice(CANCEL_REASONS)
        steps, facts, ref = locate(store, user, order)
        steps.append(
            GoldStep("cancel_pending_order", {"order_id": order.order_id, "reason": reason})
        )
        refund = sum(payment.amount for payment in order.payment_history)
        order_id = order.order_id

        def cancelled(db: RetailDB, order_id: str = order_id, reason: str = reason) -> bool:
            found = db.orders[order_id]
            return found.status == "cancelled" and found.cancel_reason == reason

        return Draft(
            family="cancel",
            purpose="Cancel a pending order after confirming the details and the reason.",
            user=user,
            auth=store.auth_mode(),
            steps=steps,
            communicate=[money(refund)],
            reason=f"You want to cancel {ref} because {_REASON_TEXT[reason]}.",
            behaviour=(
                f"If asked for the reason, say '{reason}'. Confirm when the agent lists the "
                "cancellation. Ask how much will be refunded. End the call once it is cancelled."
            ),
            ticket_request=f"wants {order_id} cancelled; reason: {reason}.",
            facts={**facts, "reason": reason},
            outcome=cancelled,
        )
    return None


def cancel_refused(store: Store) -> Draft | None:
    """Ask to cancel an order that is no longer exactly pending; the agent refuses."""
    for order in store.orders("processed", "delivered", "pending (item modified)"):
        store.take(order)
        user = store.user(order.user_id)
        steps, facts, ref = locate(store, user, order)
        # The reason: its status, or that its items were modified (no longer exactly pending).
        shipped = order.status in ("processed", "delivered")
        said: list[str] = [order.status] if shipped else ["modified"]
        return Draft(
            family="cancel_refused",
            purpose="Refuse to cancel an order whose status is not 'pending'.",
            user=user,
            auth=store.auth_mode(),
            steps=steps,
            communicate=said,
            reason=f"You want to cancel {ref}; you no longer need it.",
            behaviour=(
                "If the agent says the order cannot be cancelled, accept it, ask for nothing "
                "else and end the call. Decline any alternative the agent offers."
            ),
            ticket_request=f"wants {order.order_id} cancelled (status: {order.status}).",
            facts={**facts, "reason": "no longer needed"},
            refusal=True,
        )
    return None


def modify_items(store: Store) -> Draft | None:
    """Swap one or two items of a pending order for other variants; the agent says the cost."""
    swap = plan_variant_swap(store, "pending", "modify_pending_order_items", rounded=False)
    if swap is None:
        return None
    method, changes, order_id = swap.method, swap.changes, swap.order.order_id

    def modified(db: RetailDB, order_id: str = order_id) -> bool:
        return db.orders[order_id].status == "pending (item modified)"

    return Draft(
        family="modify_items",
        purpose="Change items of a pending order to other variants of the same products.",
        user=swap.user,
        auth=store.auth_mode(),
        steps=swap.steps,
        communicate=[money(abs(swap.difference))],
        reason=f"In {swap.reference} you want to swap {changes}.",
        behaviour=(
            f"Ask for all the changes at once. Pay or receive any difference with "
            f"{describe_method(method)}. Confirm when the agent lists the change and ask "
            "what the price difference is. End the call once the order is updated."
        ),
        ticket_request=f"wants to swap in pending order {order_id}: {changes}; "
        f"difference settled with {method.id}.",
        facts={**swap.facts, "items": changes, "payment_method": describe_method(method, "my")},
        outcome=modified,
    )


def modify_items_refused(store: Store) -> Draft | None:
    """Ask to change items a second time; the agent refuses (one item change per order)."""
    for order in store.orders("pending (item modified)"):
        candidates = [item for item in store.distinct_items(order) if store.alternatives(item)]
        if not candidates:
            continue
        store.take(order)
        user = store.user(order.user_id)
        item = store.rng.choice(candidates)
        variant = store.rng.choice(store.alternatives(item))
        steps, facts, ref = locate(store, user, order)
        change = f"the {describe_item(item)} for the one with {describe_options(variant.options)}"
        return Draft(
            family="modify_items_refused",
            purpose="Refuse a second item change on an order already modified.",
            user=user,
            auth=store.auth_mode(),
            steps=steps,
            communicate=["once"],  # items may be changed only once per order
            reason=f"In {ref} you want to swap {change}.",
            behaviour="If the agent says this is not possible, accept it and end the call.",
            ticket_request=f"wants another item change in {order.order_id}, already modified.",
            facts={**facts, "items": change},
            refusal=True,
        )
    return None


def modify_address(store: Store) -> Draft | None:
    """Change the shipping address of a pending order."""
    for order in store.orders("pending", "pending (item modified)"):
        store.take(order)
        user = store.user(order.user_id)
        address = store.new_address("order_id", order.order_id)
        steps, facts, ref = locate(store, user, order)
        steps.append(address.step)
        return Draft(
            family="modify_address",
            purpose="Change the shipping address of a pending order.",
            user=user,
            auth=store.auth_mode(),
            steps=steps,
            communicate=[],
            reason=f"You want {ref} shipped to {address.text} instead.",
            behaviour="Give the full new address when asked, confirm, and end the call.",
            ticket_request=f"wants pending order {order.order_id} shipped to {address.text}.",
            facts={**facts, **address.facts},
            outcome=address.written,
        )
    return None


def modify_payment(store: Store) -> Draft | None:
    """Pay a pending order with another method; the agent states the amount or new balance."""
    for order in store.orders("pending"):
        user = store.user(order.user_id)
        amount = order.payment_history[0].amount
        current = order.payment_history[0].payment_method_id
        options = [
            m
            for m in store.methods(user)
            if m.id != current and (not isinstance(m, GiftCard) or m.balance >= amount)
        ]
        if len(order.payment_history) != 1 or not options:
            continue
        store.take(order)
        method = store.rng.choice(options)
        steps, facts, ref = locate(store, user, order)
        steps.append(GoldStep("get_user_details", {"user_id": user.user_id}))
        steps.append(
            GoldStep(
                "modify_pending_order_payment",
                {"order_id": order.order_id, "payment_method_id": method.id},
            )
        )
        said = money(round(method.balance - amount, 2) if isinstance(method, GiftCard) else amount)
        question = (
            "what balance remains on the gift card"
            if isinstance(method, GiftCard)
            else "how much will be charged"
        )
        order_id, method_id = order.order_id, method.id

        def repaid(db: RetailDB, order_id: str = order_id, method_id: str = method_id) -> bool:
            return db.orders[order_id].payment_history[-2].payment_method_id == method_id

        return Draft(
            family="modify_payment",
            purpose="Switch the payment method of a pending order.",
            user=user,
            auth=store.auth_mode(),
            steps=steps,
            communicate=[said],
            reason=f"You want to pay for {ref} with {describe_method(method)} instead.",
            behaviour=f"Confirm the change, ask {question}, and end the call.",
            ticket_request=f"wants pending order {order_id} paid with {method.id}.",
            facts={**facts, "payment_method": describe_method(method, "my")},
            outcome=repaid,
        )
    return None


def modify_payment_refused(store: Store) -> Draft | None:
    """Ask to pay with a gift card too small for the order; the agent refuses, says the balance."""
    for order in store.orders("pending"):
        user = store.user(order.user_id)
        amount = order.payment_history[0].amount
        cards = [
            m
            for m in store.methods(user, "gift_card")
            if isinstance(m, GiftCard)
            and m.balance < amount
            and m.id != order.payment_history[0].payment_method_id
        ]
        if len(order.payment_history) != 1 or not cards:
            continue
        store.take(order)
        card = cards[0]
        steps, facts, ref = locate(store, user, order)
        steps.append(GoldStep("get_user_details", {"user_id": user.user_id}))
        return Draft(
            family="modify_payment_refused",
            purpose="Refuse a payment change to a gift card whose balance is too low.",
            user=user,
            auth=store.auth_mode(),
            steps=steps,
            communicate=[money(card.balance)],
            reason=f"You want to pay for {ref} with your gift card instead.",
            behaviour=(
                "Ask what the gift card's balance is. If the agent says the card cannot cover "
                "the order, accept it, keep the current payment and end the call."
            ),
            ticket_request=f"wants pending order {order.order_id} paid with {card.id}.",
            facts={**facts, "payment_method": "my gift card"},
            refusal=True,
        )
    return None
