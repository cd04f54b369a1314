"""Hand-written template policies for the retail and airline featurized views.

Like the telecom `ManualPolicy`, each reads only the feature vector and the action mask. The
plan is the same for both desks: transfer what no tool covers; identify the customer; look up
what the request is about; ask for what the request's tools need; then apply the policy's
rules to the facts the features state (order status and owner, the gift card's balance
against the order's total; the booking's date, cabin, insurance, membership, the flights'
statuses, the reason): when they allow the change, propose it, make it once the customer
agrees, and tell the figures; when they do not, refuse with the rule's reason (or the
figures); answer questions with the figures; end.

The rules live here, in the heuristic that reads the policy, not in the view: no feature and
no mask says whether a change is allowed (issue 53).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from tau_env.wrappers.rl.airline_featurizer import NEEDS as AIRLINE_NEEDS
from tau_env.wrappers.rl.retail_featurizer import NEEDS as RETAIL_NEEDS

__all__ = ["DeskPolicy"]

_IDENTIFY = ("find_user_by_email", "find_user_by_name_zip", "find_user", "get_user_details")
_ASK_FIRST = ("ask_email", "ask_name_zip", "ask_user_id")
_LOOK_UP = (
    "get_order_details",
    "get_reservation_details",
    "get_flight_status",
    "get_product_details",
    "list_product_types",
    "get_priced_product",
)
_ASK_MORE = (
    "ask_order_id",
    "ask_order_hint",
    "ask_reservation_id",
    "ask_reason",
    "ask_items",
    "ask_payment_method",
    "ask_new_address",
    "ask_details",
)
_ASKS = {
    "ask_email": ("email",),
    "ask_name_zip": ("first_name", "last_name", "zip"),
    "ask_user_id": ("user_id",),
    "ask_order_id": ("order_id",),
    "ask_order_hint": ("order_hint",),
    "ask_reservation_id": ("reservation_id",),
    "ask_reason": ("reason",),
    "ask_items": ("items",),
    "ask_payment_method": ("payment_method",),
    "ask_new_address": ("new_address",),
    "ask_details": ("bags_to_add", "payment"),
}
"""Each question -> the facts it asks for."""
_ORDER_INTENTS = ("cancel", "modify_address", "modify_payment", "modify_items")
_DELIVERED_INTENTS = ("return", "exchange")

On = Callable[[str], bool]


class DeskPolicy:
    """A desk's manual as a template policy: ``policy(features, mask) -> template index``.

    Args:
        feature_names: The featurizer's feature names.
        template_names: The templates, by action index.
    """

    def __init__(self, feature_names: Sequence[str], template_names: Sequence[str]) -> None:
        self.feature = {name: index for index, name in enumerate(feature_names)}
        self.template = {name: index for index, name in enumerate(template_names)}
        self.retail = "find_user_by_email" in self.template
        self.needs = RETAIL_NEEDS if self.retail else AIRLINE_NEEDS

    def __call__(self, features: NDArray[np.float32], mask: NDArray[np.bool_]) -> int:
        """The next template."""
        on = self._on(features)

        def can(name: str) -> bool:
            index = self.template.get(name)
            return index is not None and bool(mask[index])

        def first(names: Sequence[str]) -> int | None:
            return next((self.template[n] for n in names if can(n)), None)

        end = self.template["end"]
        if not on("user_found"):
            return _or(self.next_look_up(features, mask), end)
        if on("intent=other") or (on("flown") and on("intent=cancel")):
            step = first(("get_reservation_details", "get_flight_status"))
            if step is None and on("flown") and not on("taken:refuse_flown"):
                step = first(("refuse_flown",))  # why it cannot cancel, then the human
            return _or(step, self.template["transfer"])
        step = self.next_look_up(features, mask)
        if step is not None:
            return step
        if on("changes_needed") and not on("all_changes_made"):
            if on("changes_resolved") and self._allowed(on, features):
                return _or(first(("act",) if on("confirmed") else ("propose",)), end)
            refusal = self._refusal(on, features)
            if can(refusal) and not on(f"taken:{refusal}"):
                return self.template[refusal]
            return end
        if can("tell") and (on("customer_asked") or not on("taken:tell")):
            return self.template["tell"]
        return end

    def _on(self, features: NDArray[np.float32]) -> On:
        def on(name: str) -> bool:
            index = self.feature.get(name)
            return index is not None and bool(features[index] > 0)

        return on

    def _value(self, features: NDArray[np.float32], name: str) -> float:
        return float(features[self.feature[name]])

    # -- the policy's rules, on the facts the features state -----------------------------------
    def _allowed(self, on: On, features: NDArray[np.float32]) -> bool:
        """Whether the policy allows the change the customer asks for."""
        if self.retail:
            if on("changes_made"):  # the first change was allowed; the rest go with it
                return True
            order = any(on(f"intent={i}") for i in _ORDER_INTENTS)
            delivered = any(on(f"intent={i}") for i in _DELIVERED_INTENTS)
            if not (order or delivered):
                return True
            if not (on("order_found") and on("owner_is_caller")):
                return False
            exactly = on("intent=cancel") or on("intent=modify_items")
            modified = on("status=pending (item modified)") and not exactly
            if order and not (on("status=pending") or modified):  # address, payment: either
                return False
            if delivered and not on("status=delivered"):
                return False
            if on("intent=modify_payment") and on("payment_is_gift_card"):
                total = self._value(features, "amount:order_total")
                return self._value(features, "amount:gift_card_balance") >= total
            return True
        if on("intent=cancel"):
            return self._cancellable(on)
        if on("intent=compensation"):
            return self._eligible(on) and on("airline_cancelled")
        return True

    @staticmethod
    def _eligible(on: On) -> bool:
        return on("member_silver_or_gold") or on("insured") or on("cabin=business")

    @staticmethod
    def _cancellable(on: On) -> bool:
        if not on("reservation_found") or on("reservation_cancelled") or on("flown"):
            return False
        insured = on("insured") and (on("reason=health") or on("reason=weather"))
        return on("booked_recently") or on("airline_cancelled") or on("cabin=business") or insured

    def _refusal(self, on: On, features: NDArray[np.float32]) -> str:
        """The refusal template whose reason applies (``refuse``: none does, say the figures)."""
        if self.retail:
            if on("order_found") and not on("owner_is_caller"):
                return "refuse_another_person"
            if on("intent=modify_items") and on("status=pending (item modified)"):
                return "refuse_once_per_order"
            swap = on("intent=exchange") or on("intent=modify_items")
            if swap and on("items_found") and not on("new_items_found"):
                return "refuse_same_product"
            return "refuse"
        if on("intent=book"):
            if self._value(features, "count:party_size") > 0.5:  # more than five travellers
                return "refuse_party_size"
            return "refuse_new_card" if on("asked:new_card") else "refuse"
        if on("intent=passengers"):
            return "refuse_passenger_count"
        if on("intent=insurance"):
            return "refuse_insurance"
        if on("intent=compensation"):
            return "refuse_not_eligible" if not self._eligible(on) else "refuse_no_disruption"
        if on("intent=cancel") and on("reservation_found"):
            return "refuse_cancellation"
        if on("intent=change") and on("reservation_found"):
            if on("flown"):
                return "refuse_flown"
            if on("asked:remove"):
                return "refuse_remove_bags"
            if on("cabin=basic_economy"):
                return "refuse_basic_economy"
            if on("asked:different_city"):
                return "refuse_route"
        return "refuse"

    # -- look-ups and questions ----------------------------------------------------------------
    def _needed(self, on: On) -> set[str]:
        """The facts the request's tools take that the customer has not said.

        Retail: the order id (or a hint once the id is unknown), and name and zip when the
        email does not find the customer.
        """
        intents = [n.removeprefix("intent=") for n in self.feature if n.startswith("intent=")]
        keys = {key for i in intents if on(f"intent={i}") for key in self.needs.get(i, ())}
        if self.retail:
            if "order" in keys:
                keys.discard("order")
                if not on("said:order_id") and not on("order_found"):
                    keys.add("order_hint" if on("unknown:order_id") else "order_id")
            if not on("user_found"):
                keys.add("email")
                if on("unknown:email") or on("lookup_failed"):
                    keys |= {"first_name", "last_name", "zip"}
        elif not on("user_found"):
            keys.add("user_id")
        return {key for key in keys if not on(f"said:{key}")}

    def next_look_up(self, features: NDArray[np.float32], mask: NDArray[np.bool_]) -> int | None:
        """The next identification, look-up or question the request needs (None: nothing left).

        What the manual does before it decides; the trivial heuristics
        (`tau_env.baselines.rl.desk_heuristics`) do the same, then decide without the rules.
        """
        on = self._on(features)
        needed = self._needed(on)
        if on("user_found"):
            names: tuple[str, ...] = (*_IDENTIFY, *_LOOK_UP, *_ASK_MORE)
        else:
            names = (*_IDENTIFY, *_ASK_FIRST)
        for name in names:
            index = self.template.get(name)
            if index is None or not mask[index]:
                continue
            if name in _ASKS and not needed & set(_ASKS[name]):
                continue
            return index
        return None


def _or(step: int | None, otherwise: int) -> int:
    """`step` unless it is None (index 0 is a template like any other)."""
    return otherwise if step is None else step
