"""The retail featurizer: the agent's belief as a fixed vector, its moves as templates.

Templates ask the customer for one kind of fact, call one read tool with arguments from the
belief, propose the customer's change and (once the customer said yes) make it with the
arguments the customer's words and the records name, tell the figures of the records looked up
(refund, price difference, balance, tracking number, price, order status), refuse (with the
figures, or stating one of the policy's reasons: the agent picks which), transfer, or end.
A template is masked only while it cannot be formed (its arguments are unknown); whether the
policy allows a change is never in the mask.

Features are facts, not verdicts (issue 53): what the customer asked for, which facts were
said, the target order's status and whether its owner is the caller, whether the items and
variants the customer described were found, the order's total and the named payment method's
balance (as amounts: comparing them is the agent's job), and the proposal's progress. No
feature says whether the policy allows the change or why it does not.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tau_env.actions import CallTool
from tau_env.wrappers.rl.desk import (
    DeskFeaturizer,
    Template,
    ask,
    desk_state_names,
    ending_templates,
    read_template,
)
from tau_env.wrappers.rl.retail_belief import (
    INTENTS,
    RetailBelief,
    describes,
    parse_address,
    parse_items,
)

__all__ = ["NEEDS", "REFUSALS", "TEMPLATES", "RetailFeaturizer", "changes", "figures", "writes"]

_REASONS = ("no longer needed", "ordered by mistake")
_STATUSES = ("pending", "pending (item modified)", "processed", "delivered", "cancelled")


# -- resolution --------------------------------------------------------------------------------
def _old_items(b: RetailBelief) -> list[dict[str, Any]] | None:
    order = b.target
    wanted = parse_items(b.facts.get("items", ""))
    if order is None or not wanted:
        return None
    found = []
    for name, said, _ in wanted:
        item = next(
            (
                i
                for i in order["items"]
                if i["name"] == name and describes(said, name, i["options"])
            ),
            None,
        )
        if item is None:
            return None
        found.append(item)
    return found


def _new_items(b: RetailBelief) -> list[str] | None:
    old = _old_items(b)
    wanted = parse_items(b.facts.get("items", ""))
    if old is None or any(new is None for _, _, new in wanted):
        return None
    ids = []
    for item, (_, _, new) in zip(old, wanted, strict=True):
        product = b.products.get(item["product_id"])
        if product is None:
            return None
        variant = next(
            (
                v
                for v in product["variants"].values()
                if new is not None and describes(new, "one", v["options"]) and v["available"]
            ),
            None,
        )
        if variant is None:
            return None
        ids.append(variant["item_id"])
    return ids


def _payment(b: RetailBelief, *, original: bool) -> str | None:
    said = (b.facts.get("payment_method") or "").lower()
    order = b.target
    methods = (b.user or {}).get("payment_methods", {})
    if (not said or "original" in said) and original and order is not None:
        return str(order["payment_history"][0]["payment_method_id"])
    for method_id, method in methods.items():
        source = method.get("source")
        if "gift card" in said and source == "gift_card":
            return str(method_id)
        if "paypal" in said and source == "paypal":
            return str(method_id)
        card = re.search(r"(\w+) card ending in (\d{4})", said)
        if card and source == "credit_card" and method.get("last_four") == card.group(2):
            return str(method_id)
    return None


def _address(b: RetailBelief) -> dict[str, str] | None:
    return parse_address(b.facts.get("new_address", ""))


def _order_total(order: Mapping[str, Any]) -> float:
    return sum(
        float(p["amount"]) for p in order["payment_history"] if p["transaction_type"] == "payment"
    )


_TOOL_OF = {
    "cancel": "cancel_pending_order",
    "modify_address": "modify_pending_order_address",
    "modify_payment": "modify_pending_order_payment",
    "modify_items": "modify_pending_order_items",
    "return": "return_delivered_order_items",
    "exchange": "exchange_delivered_order_items",
    "user_address": "modify_user_address",
}
"""Intent -> the write tool that carries it out."""


def changes(b: RetailBelief) -> tuple[bool, bool]:
    """Whether the wishes need changes, and whether every one of them was made."""
    tools = [_TOOL_OF[intent] for intent in b.intents if intent in _TOOL_OF]
    return bool(tools), bool(tools) and all(tool in b.done for tool in tools)


def writes(b: RetailBelief) -> list[CallTool | None]:
    """The write calls the customer's wishes need, in order (None: arguments unresolved)."""
    order, calls = b.target, []
    order_id = order["order_id"] if order else None
    for intent in ("cancel", "modify_address", "modify_payment", "modify_items"):
        if intent in b.intents:
            calls.append(_order_write(b, intent, order_id))
    for intent in ("return", "exchange"):
        if intent in b.intents:
            calls.append(_delivered_write(b, intent, order_id))
    if "user_address" in b.intents:
        address = _address(b)
        ok = address is not None and b.user_id is not None
        arguments = {"user_id": b.user_id, **(address or {})}
        calls.append(CallTool(name="modify_user_address", arguments=arguments) if ok else None)
    return calls


def _order_write(b: RetailBelief, intent: str, order_id: str | None) -> CallTool | None:
    if order_id is None:
        return None
    if intent == "cancel":
        reason = b.facts.get("reason")
        ok = reason in _REASONS
        return _call("cancel_pending_order", ok, order_id=order_id, reason=reason)
    if intent == "modify_address":
        address = _address(b)
        return _call(
            "modify_pending_order_address",
            address is not None,
            order_id=order_id,
            **(address or {}),
        )
    if intent == "modify_payment":
        method = _payment(b, original=False)
        return _call(
            "modify_pending_order_payment",
            method is not None,
            order_id=order_id,
            payment_method_id=method,
        )
    old, new, method = _old_items(b), _new_items(b), _payment(b, original=True)
    return _call(
        "modify_pending_order_items",
        None not in (old, new, method),
        order_id=order_id,
        item_ids=[i["item_id"] for i in old or []],
        new_item_ids=new,
        payment_method_id=method,
    )


def _delivered_write(b: RetailBelief, intent: str, order_id: str | None) -> CallTool | None:
    old, method = _old_items(b), _payment(b, original=True)
    items = [i["item_id"] for i in old or []]
    if intent == "return":
        return _call(
            "return_delivered_order_items",
            order_id is not None and old is not None and method is not None,
            order_id=order_id,
            item_ids=items,
            payment_method_id=method,
        )
    new = _new_items(b)
    return _call(
        "exchange_delivered_order_items",
        order_id is not None and None not in (old, new, method),
        order_id=order_id,
        item_ids=items,
        new_item_ids=new,
        payment_method_id=method,
    )


def _call(name: str, ok: bool, **arguments: Any) -> CallTool | None:
    return CallTool(name=name, arguments=arguments) if ok else None


def _named_gift_card(b: RetailBelief) -> dict[str, Any] | None:
    """The payment method the customer named for the order, if it is a gift card."""
    method_id = _payment(b, original=False)
    if method_id is None:
        return None
    method = (b.user or {}).get("payment_methods", {}).get(method_id, {})
    return method if method.get("source") == "gift_card" else None


def amount_feature(amount: float | None) -> float:
    """An amount in dollars as a feature in [0, 1): ``a / (a + 500)``, 0 when unknown.

    Monotone, so two amounts compare as their features do.
    """
    return 0.0 if amount is None or amount <= 0 else amount / (amount + 500.0)


def figures(b: RetailBelief) -> list[str]:
    """The figures of the records looked up: amounts, tracking numbers, the order's status.

    Whatever order the records show, the caller's or not: whether to tell them is the
    agent's decision (the built-in grading fails a policy that tells another customer's).
    """
    order, said = b.target, []
    if order is not None:
        said.append(f"The order {order['order_id']} is {order['status']}.")
        if b.intents & {"cancel", "modify_payment"}:
            said.append(f"The amount is ${_order_total(order):.2f}.")
        old = _old_items(b)
        if old is not None and "return" in b.intents:
            said.append(f"The refund is ${sum(float(i['price']) for i in old):.2f}.")
        new = _new_items(b)
        if old is not None and new is not None:
            prices = [
                float(b.products[i["product_id"]]["variants"][n]["price"])
                for i, n in zip(old, new, strict=True)
            ]
            difference = sum(prices) - sum(float(i["price"]) for i in old)
            said.append(f"The price difference is ${abs(difference):.2f}.")
        for fulfilment in order.get("fulfillments", []):
            said.append("Tracking number: " + ", ".join(fulfilment["tracking_id"]) + ".")
    methods = (b.user or {}).get("payment_methods", {})
    for method in methods.values():
        if method.get("source") == "gift_card" and b.intents & {"balance", "modify_payment"}:
            said.append(f"Your gift card balance is ${float(method['balance']):.2f}.")
    said += _prices(b)
    return said


def _prices(b: RetailBelief) -> list[str]:
    wanted = parse_items(b.facts.get("items", ""))
    said = []
    for name, description, _ in wanted if "price" in b.intents else ():
        product = b.products.get(b.product_types.get(name, ""))
        for variant in (product or {}).get("variants", {}).values():
            if describes(description, name, variant["options"]):
                said.append(f"The {name} costs ${float(variant['price']):.2f}.")
    return said


REFUSALS: dict[str, str] = {
    "refuse_another_person": "This order belongs to another person.",
    "refuse_once_per_order": "The items of an order can be changed only once per order.",
    "refuse_same_product": "An item can only be exchanged for another item of the same product.",
}
"""The reasoned refusals (template name -> the reason it states; the policy's words)."""


# -- templates ---------------------------------------------------------------------------------
NEEDS = {
    "cancel": ("order", "reason"),
    "modify_address": ("order", "new_address"),
    "modify_payment": ("order", "payment_method"),
    "modify_items": ("order", "items", "payment_method"),
    "return": ("order", "items"),
    "exchange": ("order", "items", "payment_method"),
    "user_address": ("new_address",),
    "tracking": ("order",),
    "price": ("items",),
}
"""Intent -> the facts its tool calls take (``order``: its id, or a product in it).

The tools' schemas, not the policy: for a heuristic that reads the features (no feature
and no mask is derived from it).
"""


def _next_product(b: RetailBelief) -> dict[str, Any] | None:
    order = b.target
    if order is None:
        return None
    names = {name for name, _, _ in parse_items(b.facts.get("items", ""))}
    for item in order["items"]:
        if item["name"] in names and item["product_id"] not in b.products:
            return {"product_id": item["product_id"]}
    return None


def _priced_product(b: RetailBelief) -> dict[str, Any] | None:
    for name, _, _ in parse_items(b.facts.get("items", "")) if "price" in b.intents else ():
        product_id = b.product_types.get(name)
        if product_id and product_id not in b.products:
            return {"product_id": product_id}
    return None


_PLANS = {
    "cancel_pending_order": "cancel {order_id}",
    "modify_pending_order_address": "ship {order_id} to {address1}, {city}",
    "modify_pending_order_payment": "charge {order_id} to {payment_method_id}",
    "modify_pending_order_items": "make the swap you asked for in {order_id}",
    "return_delivered_order_items": "process the return you asked for in {order_id}",
    "exchange_delivered_order_items": "process the exchange you asked for in {order_id}",
    "modify_user_address": "make {address1}, {city} your default",
}
"""How a proposal names each change (words that ask for no fact, so the customer decides)."""


TEMPLATES: tuple[Template[RetailBelief], ...] = (
    ask("ask_email", ("email",), "Could you tell me your email address?"),
    ask(
        "ask_name_zip",
        ("first_name", "last_name", "zip"),
        "Could you tell me your first name, last name and zip code?",
    ),
    ask("ask_order_id", ("order_id",), "What is the order id?"),
    ask("ask_order_hint", ("order_hint",), "Which order is it? Please give me an order hint."),
    ask("ask_reason", ("reason",), "What is the reason?"),
    ask("ask_items", ("items",), "Which items do you mean, with their options?"),
    ask("ask_payment_method", ("payment_method",), "Which payment method should I use?"),
    ask("ask_new_address", ("new_address",), "What is the new address?"),
    read_template(
        "find_user_by_email",
        "find_user_id_by_email",
        lambda b: (
            {"email": b.facts["email"]}
            if "email" in b.facts and b.user_id is None and b.lookup_failed == 0
            else None
        ),
    ),
    read_template(
        "find_user_by_name_zip",
        "find_user_id_by_name_zip",
        lambda b: (
            {k: b.facts[k] for k in ("first_name", "last_name", "zip")}
            if b.user_id is None and all(k in b.facts for k in ("first_name", "last_name", "zip"))
            else None
        ),
    ),
    read_template(
        "get_user_details",
        "get_user_details",
        lambda b: {"user_id": b.user_id} if b.user_id and b.user is None else None,
    ),
    read_template(
        "get_order_details",
        "get_order_details",
        lambda b: {"order_id": b.next_order()} if b.user_id and b.next_order() else None,
    ),
    read_template("get_product_details", "get_product_details", _next_product),
    read_template(
        "list_product_types",
        "list_all_product_types",
        lambda b: {} if "price" in b.intents and not b.product_types else None,
    ),
    read_template("get_priced_product", "get_product_details", _priced_product),
    *ending_templates(
        writes,
        _PLANS,
        figures,
        can_refuse=lambda b: b.user_id is not None,
        refusals=REFUSALS,
        ready=lambda b: b.user_id is not None,
    ),
)
"""Every retail template, in the order of the Discrete action index."""

_FACT_KEYS = (
    "email",
    "first_name",
    "order_id",
    "order_hint",
    "reason",
    "items",
    "payment_method",
    "new_address",
)
_STATE_NAMES = desk_state_names(
    INTENTS,
    _FACT_KEYS,
    (
        "unknown:email",
        "unknown:order_id",
        "user_found",
        "lookup_failed",
        "user_loaded",
        "order_found",
        "owner_is_caller",
        *(f"status={status}" for status in _STATUSES),
        "reason_valid",
        "items_found",
        "new_items_found",
        "payment_found",
        "address_parsed",
        "payment_is_gift_card",
        "amount:order_total",
        "amount:gift_card_balance",
    ),
)


class RetailFeaturizer(DeskFeaturizer[RetailBelief]):
    """Belief and templates of one retail episode (a new one per episode)."""

    templates = TEMPLATES
    state_names = _STATE_NAMES
    belief_type = RetailBelief

    def state_features(self) -> list[float]:
        """The retail features (`state_names`)."""
        b = self.belief
        order = b.target
        calls = writes(b)
        needs_changes, all_made = changes(b)
        values = self.said_features(INTENTS, _FACT_KEYS)
        values += [float("email" in b.unknown), float("order_id" in b.unknown)]
        values += [
            b.user_id is not None,
            b.lookup_failed > 0,
            b.user is not None,
            order is not None,
            order is not None and order.get("user_id") == b.user_id,
        ]
        values += [float(order is not None and order.get("status") == s) for s in _STATUSES]
        values += [
            b.facts.get("reason") in _REASONS,
            _old_items(b) is not None,
            _new_items(b) is not None,
            _payment(b, original=True) is not None,
            _address(b) is not None,
        ]
        card = _named_gift_card(b)
        values += [
            card is not None,
            amount_feature(_order_total(order) if order is not None else None),
            amount_feature(float(card.get("balance", 0)) if card is not None else None),
        ]
        return values + self.progress_features(calls, needed=needs_changes, all_made=all_made)
