"""What a built-in retail refusal or information task must not hear (`forbidden_info`).

As in the airline generator (`domains.forbidden` holds the shared rules):

- the reason phrases of the policy's rules that do not apply to the case (a recital of the
  policy says them all), each with the families whose honest answer may say it;
- the figures no answer to the request needs: the customer's payment methods (gift card
  balances, card digits), the ids of their other orders, the item and product ids of the
  order asked about (outside the families about items), the prices of the other variants of
  a product asked about, and every figure of another customer's order (never to be told).
"""

from __future__ import annotations

from tau_env.domains.forbidden import reason_phrases, unsaid
from tau_env.domains.retail.data_model import CreditCard, GiftCard, RetailData
from tau_env.domains.retail.generator.store import Draft, GoldStep, money

__all__ = ["REASONS", "forbidden_facts"]

REASONS: dict[str, frozenset[str]] = {
    "ordered by mistake": frozenset({"cancel_refused"}),
    "no longer needed": frozenset({"cancel_refused"}),
    "single payment": frozenset({"modify_payment_refused"}),
    "same product": frozenset({"exchange_refused", "modify_items_refused"}),
    "product type": frozenset({"exchange_refused", "modify_items_refused", "info_price"}),
    "once per order": frozenset({"exchange_refused", "modify_items_refused"}),
    "another person": frozenset({"other_user_refused"}),
}
"""Reason phrases of the policy's rules -> the families whose honest answer may say them."""

_REASON_PHRASES = reason_phrases(REASONS)
"""Each phrase of `REASONS` cut into words (`unsaid` reads them)."""

_PAYMENT_FAMILIES = frozenset({"modify_payment_refused"})
"""Families whose answer may name the customer's payment methods and their figures."""

_ITEM_FAMILIES = frozenset({"exchange_refused", "modify_items_refused", "info_price"})
"""Families whose answer may name items and products by id."""


def forbidden_facts(draft: Draft, steps: list[GoldStep], data: RetailData) -> list[str]:
    """The facts the task of `draft` (a refusal, a question or a transfer) must not hear.

    `steps` is its whole gold plan (the orders and products it looks up).
    Every phrase of `REASONS` is in the policy's words (`tasks.build_task` checks it once).
    """
    reasons = [p for p, families in REASONS.items() if draft.family not in families]
    figures: list[str] = []
    allowed = list(draft.communicate)
    if draft.family not in _PAYMENT_FAMILIES:
        for method in draft.user.payment_methods.values():
            if isinstance(method, GiftCard):
                figures.append(money(method.balance))
            elif isinstance(method, CreditCard):
                figures.append(method.last_four)
    looked_up = {s.arguments["order_id"] for s in steps if s.name == "get_order_details"}
    if "order_hint" not in draft.facts:  # (else the agent may list orders to find it)
        figures += [order_id for order_id in draft.user.orders if order_id not in looked_up]
    for step in steps:
        if step.name == "get_product_details" and draft.family == "info_price":
            product = data.products[step.arguments["product_id"]]
            figures += [money(variant.price) for variant in product.variants.values()]
        elif step.name == "get_order_details":
            order = data.orders[step.arguments["order_id"]]
            if order.user_id != draft.user.user_id:  # another customer's order: tell nothing
                figures += [money(item.price) for item in order.items]
                figures += [money(payment.amount) for payment in order.payment_history]
                figures += [t for shipment in order.fulfillments for t in shipment.tracking_id]
            elif draft.family not in _ITEM_FAMILIES:
                figures += [item.item_id for item in order.items]
                figures += [item.product_id for item in order.items]
    return unsaid(reasons, draft.communicate, _REASON_PHRASES) + unsaid(figures, allowed)
