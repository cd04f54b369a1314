"""The retail agent's write tools: cancel, modify, exchange, return, and the user's address.

Each tool runs its checks in the reference's order and fails with the reference's text, so the
first failing check is the same. The world runs each call as a transaction: a failure leaves
nothing behind (where the reference can leave a half-applied change, for example a gift card
refunded before a later payment method is found missing, tau_env changes nothing).

Arithmetic follows the reference to the bit: item price differences are summed in item order
(rounded to cents for exchanges, not for item changes), gift card balances are rounded to
cents after each change.
"""

from __future__ import annotations

from tau_env.domains.retail.access import (
    check_item_counts,
    first_in,
    first_item,
    get_order,
    get_payment_method,
    get_user,
    get_variant,
)
from tau_env.domains.retail.constants import CANCEL_REASONS, PENDING_MARKER
from tau_env.domains.retail.data_model import (
    GiftCard,
    Order,
    OrderPayment,
    RetailDB,
    User,
    UserAddress,
    Variant,
)
from tau_env.errors import ToolError
from tau_env.tools import tool

__all__ = [
    "cancel_pending_order",
    "exchange_delivered_order_items",
    "modify_pending_order_address",
    "modify_pending_order_items",
    "modify_pending_order_payment",
    "modify_user_address",
    "return_delivered_order_items",
]


def _credit_gift_card(db: RetailDB, user_id: str, payment_method_id: str, amount: float) -> None:
    """Add `amount` (negative: take it) to a gift card's balance, rounded to cents."""
    card = db.users.edit_part(user_id, "payment_methods", payment_method_id)
    assert isinstance(card, GiftCard)
    card.balance = round(card.balance + amount, 2)


@tool(kind="write")
def cancel_pending_order(db: RetailDB, order_id: str, reason: str) -> Order:
    """Cancel a pending order and refund every payment made on it; returns the order.

    Only orders whose status is exactly 'pending' can be cancelled. Refunds to a gift card are
    credited at once; other refunds take 5 to 7 business days. Explain the details and get the
    customer's explicit yes before calling.

    Args:
        order_id: The order id, which starts with '#', such as '#W1234567'.
        reason: Either 'no longer needed' or 'ordered by mistake'.
    """
    order = get_order(db, order_id)
    if order.status != "pending":
        raise ToolError("Non-pending order cannot be cancelled")
    if reason not in CANCEL_REASONS:
        raise ToolError("Invalid reason")
    refunds = []
    for payment in order.payment_history:
        refunds.append(
            OrderPayment(
                transaction_type="refund",
                amount=payment.amount,
                payment_method_id=payment.payment_method_id,
            )
        )
        user = get_user(db, order.user_id)
        method = get_payment_method(db, user.user_id, payment.payment_method_id)
        if isinstance(method, GiftCard):
            _credit_gift_card(db, user.user_id, method.id, payment.amount)
    db.orders.update(
        order_id,
        status="cancelled",
        cancel_reason=reason,  # checked against CANCEL_REASONS above
        payment_history=[*order.payment_history, *refunds],
    )
    return db.orders[order_id]


@tool(kind="write")
def modify_pending_order_address(
    db: RetailDB,
    order_id: str,
    address1: str,
    address2: str,
    city: str,
    state: str,
    country: str,
    zip: str,
) -> Order:
    """Change the shipping address of a pending order; returns the order.

    Explain the change and get the customer's explicit yes before calling.

    Args:
        order_id: The order id, which starts with '#', such as '#W1234567'.
        address1: Street line, such as '12 Oak Street'.
        address2: Second line, such as 'Apt 4', or '' when there is none.
        city: City, such as 'Portland'.
        state: State code, such as 'OR'.
        country: Country, such as 'USA'.
        zip: Zip code, such as '97201'.
    """
    order = get_order(db, order_id)
    if PENDING_MARKER not in order.status:
        raise ToolError("Non-pending order cannot be modified")
    address = UserAddress(
        address1=address1, address2=address2, city=city, state=state, country=country, zip=zip
    )
    db.orders.update(order_id, address=address)
    return db.orders[order_id]


@tool(kind="write")
def modify_pending_order_items(
    db: RetailDB,
    order_id: str,
    item_ids: list[str],
    new_item_ids: list[str],
    payment_method_id: str,
) -> Order:
    """Swap items of a pending order for other variants of the same products; returns the order.

    Can be used once per order (the status becomes 'pending (item modified)'), so gather every
    item the customer wants changed first. The price difference is charged to, or refunded
    to, the given payment method; a gift card must cover a charge. Explain the change and get
    the customer's explicit yes before calling.

    Args:
        order_id: The order id, which starts with '#', such as '#W1234567'.
        item_ids: Items of the order to change, such as ['1008292230']; repeat an id to change
            several units of it.
        new_item_ids: The replacement items, position by position; each must be a different,
            available variant of the same product as the item it replaces.
        payment_method_id: The customer's payment method that pays or receives the price
            difference, such as 'gift_card_1234567' or 'credit_card_1234567'.
    """
    order = get_order(db, order_id)
    if order.status != "pending":
        raise ToolError("Non-pending order cannot be modified")
    check_item_counts(order, item_ids, "{item_id} not found")
    if len(item_ids) != len(new_item_ids):
        raise ToolError("The number of items to be exchanged should match")
    difference: float = 0
    variant: Variant | None = None
    for item_id, new_item_id in zip(item_ids, new_item_ids, strict=True):
        if item_id == new_item_id:
            raise ToolError("The new item id should be different from the old item id")
        item = first_item(order, item_id)
        variant = get_variant(db, item.product_id, new_item_id)
        if not variant.available:
            raise ToolError(f"New item {new_item_id} not found or available")
        difference += variant.price - item.price
    method = get_payment_method(db, order.user_id, payment_method_id)
    if isinstance(method, GiftCard) and method.balance < difference:
        raise ToolError("Insufficient gift card balance to pay for the new item")
    payment = OrderPayment(
        transaction_type="payment" if difference > 0 else "refund",
        amount=abs(difference),
        payment_method_id=payment_method_id,
    )
    db.orders.update(order_id, payment_history=[*order.payment_history, payment])
    if isinstance(method, GiftCard):
        _credit_gift_card(db, order.user_id, payment_method_id, -difference)
    items = db.orders.edit_part(order_id, "items")
    for item_id, new_item_id in zip(item_ids, new_item_ids, strict=True):
        item = first_in(items, item_id)
        item.item_id = new_item_id
        # The reference's quirk, kept so scores and hashes match (spec §15.6): every changed
        # item takes the price and options of the *last* new variant, not of its own.
        assert variant is not None
        item.price = variant.price
        item.options = dict(variant.options)
    db.orders.update(order_id, status="pending (item modified)")
    return db.orders[order_id]


@tool(kind="write")
def modify_pending_order_payment(db: RetailDB, order_id: str, payment_method_id: str) -> Order:
    """Pay a pending order with another of the customer's payment methods; returns the order.

    The order must have exactly one payment; the new method is charged and the old one
    refunded. A gift card must cover the whole amount. Explain the change and get the
    customer's explicit yes before calling.

    Args:
        order_id: The order id, which starts with '#', such as '#W1234567'.
        payment_method_id: The new payment method, such as 'gift_card_1234567' or
            'paypal_1234567'; it must differ from the current one.
    """
    order = get_order(db, order_id)
    if PENDING_MARKER not in order.status:
        raise ToolError("Non-pending order cannot be modified")
    method = get_payment_method(db, order.user_id, payment_method_id)
    history = order.payment_history
    if len(history) != 1 or history[0].transaction_type != "payment":
        raise ToolError("There should be exactly one payment for a pending order")
    old_method_id = history[0].payment_method_id
    if old_method_id == payment_method_id:
        raise ToolError("The new payment method should be different from the current one")
    amount = history[0].amount
    if isinstance(method, GiftCard) and method.balance < amount:
        raise ToolError("Insufficient gift card balance to pay for the order")
    payments = [
        OrderPayment(
            transaction_type="payment", amount=amount, payment_method_id=payment_method_id
        ),
        OrderPayment(transaction_type="refund", amount=amount, payment_method_id=old_method_id),
    ]
    db.orders.update(order_id, payment_history=[*history, *payments])
    if isinstance(method, GiftCard):
        _credit_gift_card(db, order.user_id, payment_method_id, -amount)
    old_method = get_payment_method(db, order.user_id, old_method_id)
    if isinstance(old_method, GiftCard):
        _credit_gift_card(db, order.user_id, old_method_id, amount)
    return db.orders[order_id]


@tool(kind="write")
def modify_user_address(
    db: RetailDB,
    user_id: str,
    address1: str,
    address2: str,
    city: str,
    state: str,
    country: str,
    zip: str,
) -> User:
    """Change a customer's default address; returns the customer's profile.

    Explain the change and get the customer's explicit yes before calling.

    Args:
        user_id: The customer's user id, such as 'jane_roe_1234'.
        address1: Street line, such as '12 Oak Street'.
        address2: Second line, such as 'Apt 4', or '' when there is none.
        city: City, such as 'Portland'.
        state: State code, such as 'OR'.
        country: Country, such as 'USA'.
        zip: Zip code, such as '97201'.
    """
    get_user(db, user_id)
    address = UserAddress(
        address1=address1, address2=address2, city=city, state=state, country=country, zip=zip
    )
    db.users.update(user_id, address=address)
    return db.users[user_id]


@tool(kind="write")
def exchange_delivered_order_items(
    db: RetailDB,
    order_id: str,
    item_ids: list[str],
    new_item_ids: list[str],
    payment_method_id: str,
) -> Order:
    """Request an exchange of delivered items for other variants of the same products.

    Possible once per delivered order (the status becomes 'exchange requested'), so gather
    every item first. The price difference is settled with the given payment method; a gift
    card must cover a charge. Explain the exchange and get the customer's explicit yes before
    calling. Returns the order.

    Args:
        order_id: The order id, which starts with '#', such as '#W1234567'.
        item_ids: Delivered items to exchange, such as ['1008292230']; repeat an id to
            exchange several units of it.
        new_item_ids: The replacement items, position by position; each must be an available
            variant of the same product as the item it replaces.
        payment_method_id: The customer's payment method that pays or receives the price
            difference, such as 'gift_card_1234567' or 'credit_card_1234567'.
    """
    order = get_order(db, order_id)
    if order.status != "delivered":
        raise ToolError("Non-delivered order cannot be exchanged")
    check_item_counts(order, item_ids, "Number of {item_id} not found.")
    if len(item_ids) != len(new_item_ids):
        raise ToolError("The number of items to be exchanged should match.")
    difference: float = 0
    for item_id, new_item_id in zip(item_ids, new_item_ids, strict=True):
        item = first_item(order, item_id)
        variant = get_variant(db, item.product_id, new_item_id)
        if not variant.available:
            raise ToolError(f"New item {new_item_id} not found or available")
        difference += variant.price - item.price
    difference = round(difference, 2)
    method = get_payment_method(db, order.user_id, payment_method_id)
    if isinstance(method, GiftCard) and method.balance < difference:
        raise ToolError("Insufficient gift card balance to pay for the price difference")
    db.orders.update(
        order_id,
        status="exchange requested",
        exchange_items=sorted(item_ids),
        exchange_new_items=sorted(new_item_ids),
        exchange_payment_method_id=payment_method_id,
        exchange_price_difference=difference,
    )
    return db.orders[order_id]


@tool(kind="write")
def return_delivered_order_items(
    db: RetailDB, order_id: str, item_ids: list[str], payment_method_id: str
) -> Order:
    """Request a return of delivered items; returns the order.

    The status becomes 'return requested' and the customer receives return instructions by
    email. The refund goes to the original payment method or to one of the customer's gift
    cards. Explain the return and get the customer's explicit yes before calling.

    Args:
        order_id: The order id, which starts with '#', such as '#W1234567'.
        item_ids: Delivered items to return, such as ['1008292230']; repeat an id to return
            several units of it.
        payment_method_id: Where the refund goes: the order's original payment method or a
            gift card of the customer, such as 'gift_card_1234567'.
    """
    order = get_order(db, order_id)
    if order.status != "delivered":
        raise ToolError("Non-delivered order cannot be returned")
    user = get_user(db, order.user_id)
    method = get_payment_method(db, user.user_id, payment_method_id)
    if not order.payment_history:
        raise ToolError("list index out of range")  # the reference's IndexError text
    if (
        not isinstance(method, GiftCard)
        and payment_method_id != order.payment_history[0].payment_method_id
    ):
        raise ToolError("Payment method should be the original payment method")
    check_item_counts(order, item_ids, "Some item not found")
    db.orders.update(
        order_id,
        status="return requested",
        return_items=sorted(item_ids),
        return_payment_method_id=payment_method_id,
    )
    return db.orders[order_id]
