"""Hand-written template policies for the retail and airline featurized views.

Like the telecom `ManualPolicy`, each reads only the feature vector and the action mask. The
plan is the same for both desks: transfer what no tool covers; identify the customer; look up
what the request is about; ask for what is missing; when the policy allows the change (the
features say so), propose it, make it once the customer agrees, and tell the figures; when it
does not, refuse with the facts; answer questions with the figures; end.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

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


class DeskPolicy:
    """A desk's manual as a template policy: ``policy(features, mask) -> template index``.

    Args:
        feature_names: The featurizer's feature names.
        template_names: The templates, by action index.
    """

    def __init__(self, feature_names: Sequence[str], template_names: Sequence[str]) -> None:
        self.feature = {name: index for index, name in enumerate(feature_names)}
        self.template = {name: index for index, name in enumerate(template_names)}

    def __call__(self, features: NDArray[np.float32], mask: NDArray[np.bool_]) -> int:
        """The next template."""

        def on(name: str) -> bool:
            index = self.feature.get(name)
            return index is not None and bool(features[index] > 0)

        def can(name: str) -> bool:
            index = self.template.get(name)
            return index is not None and bool(mask[index])

        def first(names: Sequence[str]) -> int | None:
            return next((self.template[n] for n in names if can(n)), None)

        end = self.template["end"]
        if not on("user_found"):
            return _or(first([*_IDENTIFY, *_ASK_FIRST]), end)
        if on("intent=other") or (on("flown") and on("intent=cancel")):
            step = first(("get_reservation_details", "get_flight_status"))
            return _or(step, self.template["transfer"])
        step = self.next_look_up(features, mask)
        if step is not None:
            return step
        if on("changes_needed") and not on("all_changes_made"):
            if on("changes_allowed"):
                return _or(first(("act",) if on("confirmed") else ("propose",)), end)
            if can("refuse") and not on("taken:refuse"):
                return self.template["refuse"]
            return end
        if can("tell") and (on("customer_asked") or not on("taken:tell")):
            return self.template["tell"]
        return end

    def next_look_up(self, features: NDArray[np.float32], mask: NDArray[np.bool_]) -> int | None:
        """The next identification, look-up or question that applies (None: nothing left).

        What the manual does before it decides; the trivial heuristics
        (`tau_env.baselines.rl.desk_heuristics`) do the same, then decide without the rules.
        """
        index = self.feature["user_found"]
        if features[index] > 0:
            names: tuple[str, ...] = (*_IDENTIFY, *_LOOK_UP, *_ASK_MORE)
        else:
            names = (*_IDENTIFY, *_ASK_FIRST)
        return next(
            (self.template[n] for n in names if n in self.template and mask[self.template[n]]),
            None,
        )


def _or(step: int | None, otherwise: int) -> int:
    """`step` unless it is None (index 0 is a template like any other)."""
    return otherwise if step is None else step
