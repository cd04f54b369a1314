"""Task families about the account: address, questions, transfers, other people's orders.

Also a two-part request (cancel an order and change the default address in one call).
"""

from __future__ import annotations

from tau_env.domains.retail.data_model import GiftCard, RetailDB
from tau_env.domains.retail.generator.store import (
    Draft,
    GoldStep,
    NewAddress,
    Store,
    describe_item,
    describe_options,
    money,
)
from tau_env.domains.retail.generator.tasks import locate

__all__ = [
    "cancel_and_move",
    "info_balance",
    "info_price",
    "info_tracking",
    "other_user_refused",
    "transfer",
    "user_address",
]


def user_address(store: Store) -> Draft | None:
    """Change the customer's default address."""
    for user in store.users():
        store.serve(user)
        address = store.new_address("user_id", user.user_id)
        return Draft(
            family="user_address",
            purpose="Change the customer's default address.",
            user=user,
            auth=store.auth_mode(),
            steps=[GoldStep("get_user_details", {"user_id": user.user_id}), address.step],
            communicate=[],
            reason=f"You moved to {address.text} and want it as your default address.",
            behaviour="Give the full new address when asked, confirm, and end the call.",
            ticket_request=f"has moved; new default address: {address.text}.",
            facts=address.facts,
            outcome=address.written,
        )
    return None


def info_tracking(store: Store) -> Draft | None:
    """Ask for the tracking numbers of a shipped order."""
    for order in store.orders("processed", "delivered"):
        store.take(order)
        user = store.user(order.user_id)
        steps, facts, ref = locate(store, user, order)
        numbers = [shipment.tracking_id[0] for shipment in order.fulfillments]
        return Draft(
            family="info_tracking",
            purpose="Give the tracking numbers of a shipped order.",
            user=user,
            auth=store.auth_mode(),
            steps=steps,
            communicate=numbers,
            reason=f"You want the tracking number of {ref}.",
            behaviour="Write down every tracking number the agent gives, then end the call.",
            ticket_request=f"asks for the tracking numbers of {order.order_id}.",
            facts=facts,
        )
    return None


def info_balance(store: Store) -> Draft | None:
    """Ask for the gift card's balance."""
    for user in store.users():
        cards = [m for m in store.methods(user, "gift_card") if isinstance(m, GiftCard)]
        if not cards:
            continue
        store.serve(user)
        return Draft(
            family="info_balance",
            purpose="Tell the customer the balance of their gift card.",
            user=user,
            auth=store.auth_mode(),
            steps=[GoldStep("get_user_details", {"user_id": user.user_id})],
            communicate=[money(cards[0].balance)],
            reason="You want to know how much is left on your gift card.",
            behaviour="Once the agent tells you the balance, thank them and end the call.",
            ticket_request="asks for the balance of their gift card.",
        )
    return None


def info_price(store: Store) -> Draft | None:
    """Ask the price of a particular variant of a product."""
    for user in store.users():
        store.serve(user)
        product = store.rng.choice(list(store.data.products.values()))
        variant = store.rng.choice(list(product.variants.values()))
        wanted = describe_item(variant, product.name)
        return Draft(
            family="info_price",
            purpose="Find a product variant and tell its price.",
            user=user,
            auth=store.auth_mode(),
            steps=[
                GoldStep("list_all_product_types", {}),
                GoldStep("get_product_details", {"product_id": product.product_id}),
            ],
            communicate=[money(variant.price)],
            reason=f"You are thinking of buying a {wanted} and want to know its price.",
            behaviour="Once the agent tells you the price, thank them and end the call.",
            ticket_request=f"asks the price of the {wanted}.",
            facts={"items": wanted, "options": describe_options(variant.options)},
        )
    return None


_OUT_OF_SCOPE = (
    (
        "You saw that an item you bought recently is now cheaper, and you want the difference "
        "refunded.",
        "asks for a refund of a price drop",
    ),
    (
        "You want the email address on your account replaced by a new one.",
        "wants the email address on the account changed",
    ),
    (
        "A parcel arrived damaged and you want compensation for the trouble.",
        "wants compensation for a damaged parcel",
    ),
    ("You want to speak with a human agent about your account.", "asks for a human agent"),
)


def transfer(store: Store) -> Draft | None:
    """Ask for something the tools cannot do; the agent transfers to a human."""
    for user in store.users():
        store.serve(user)
        reason, summary = store.rng.choice(_OUT_OF_SCOPE)
        return Draft(
            family="transfer",
            purpose="Transfer a request that no tool and no rule covers.",
            user=user,
            auth=store.auth_mode(),
            steps=[GoldStep("transfer_to_human_agents", {"summary": f"The customer {summary}."})],
            communicate=[],
            reason=reason,
            behaviour="Insist politely. If the agent transfers you to a human, end the call.",
            ticket_request=f"{summary}.",
            expects_transfer=True,
        )
    return None


def other_user_refused(store: Store) -> Draft | None:
    """Ask to cancel someone else's order; the agent refuses (one customer per call)."""
    for order in store.orders("pending"):
        caller = next((u for u in store.users() if u.user_id != order.user_id), None)
        if caller is None:
            return None
        store.take(order)
        store.serve(caller)
        return Draft(
            family="other_user_refused",
            purpose="Refuse to act on an order that belongs to another customer.",
            user=caller,
            auth=store.auth_mode(),
            steps=[GoldStep("get_order_details", {"order_id": order.order_id})],
            communicate=["another"],  # the order belongs to another customer
            reason=(
                f"A relative asked you to cancel their order {order.order_id}; you do not "
                "have their login details."
            ),
            behaviour="If the agent says it cannot help with another person's order, accept it.",
            ticket_request=f"wants {order.order_id}, which belongs to another customer, cancelled.",
            facts={"order_id": order.order_id, "reason": "no longer needed"},
            refusal=True,
        )
    return None


def cancel_and_move(store: Store) -> Draft | None:
    """Cancel a pending order and change the default address in one call."""
    for order in store.orders("pending"):
        store.take(order)
        user = store.user(order.user_id)
        store.serve(user)
        address = store.new_address("user_id", user.user_id)
        steps, facts, ref = locate(store, user, order)
        steps.append(
            GoldStep(
                "cancel_pending_order", {"order_id": order.order_id, "reason": "no longer needed"}
            )
        )
        steps.append(address.step)
        refund = sum(payment.amount for payment in order.payment_history)
        order_id = order.order_id
        items = " and ".join(describe_item(item) for item in order.items)

        def done(db: RetailDB, order_id: str = order_id, address: NewAddress = address) -> bool:
            return address.written(db) and db.orders[order_id].status == "cancelled"

        return Draft(
            family="cancel_and_move",
            purpose="Two requests in one call: cancel a pending order, change the address.",
            user=user,
            auth=store.auth_mode(),
            steps=steps,
            communicate=[money(refund)],
            reason=(
                f"You are moving to {address.text}. You want to cancel {ref} ({items}), "
                "which you no longer need, and make the new address your default."
            ),
            behaviour=(
                "Start with the cancellation; the reason is 'no longer needed'. Ask how much will "
                "be refunded. Then ask for the address change, confirm it, and end the call."
            ),
            ticket_request=(
                f"wants {order_id} cancelled (no longer needed) and the default address set "
                f"to {address.text}."
            ),
            facts={**facts, "reason": "no longer needed", **address.facts},
            outcome=done,
        )
    return None
