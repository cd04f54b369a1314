"""The airline featurizer: the agent's belief as a fixed vector, its moves as templates.

Templates ask for the user id, the reservation code, the reason, the bags and the payment;
look up the user, the reservation and each flight's status; propose and (after a yes) make the
change the customer's wish needs (cancel the reservation, add checked bags, send the
compensation certificate, update one passenger's details); tell the figures (refund, free
bags, the added bags' price, certificate); refuse; transfer; end. Features state the facts the
policy's rules need: whether a flight flew or was cancelled by the airline, whether the
booking is recent, the cabin, insurance, membership, the reason's kind. Bookings, flight and
cabin changes have no change template: the featurized agent can only refuse or transfer them.
"""

from __future__ import annotations

import re
from typing import Any

from tau_env.actions import Action, CallTool
from tau_env.wrappers.rl.airline_belief import INTENTS, AirlineBelief, reason_kind
from tau_env.wrappers.rl.desk import (
    DeskFeaturizer,
    Template,
    ask,
    desk_state_names,
    ending_templates,
    read_template,
)

__all__ = ["TEMPLATES", "AirlineFeaturizer", "allowed", "refusal_reasons", "writes"]

_BOOKED_RECENTLY_AFTER = "2024-05-14T15:00:00"
_FREE_BAGS = {
    "regular": {"basic_economy": 0, "economy": 1, "business": 2},
    "silver": {"basic_economy": 1, "economy": 2, "business": 3},
    "gold": {"basic_economy": 2, "economy": 3, "business": 4},
}
"""Free checked bags per passenger (the policy's table)."""
_CERTIFICATE_PER_PASSENGER = 100
_BAG_PRICE = 50
_PAYMENT_ID = re.compile(r"\b(?:credit_card|gift_card|certificate)_\d+\b")
_CABINS = ("basic_economy", "economy", "business")


def _flown(b: AirlineBelief) -> bool:
    return any(s in ("flying", "landed") for s in b.flight_statuses())


def _airline_cancelled(b: AirlineBelief) -> bool:
    return "cancelled" in b.flight_statuses()


def _free_bags(b: AirlineBelief) -> int | None:
    target = b.target
    if target is None or b.user is None:
        return None
    per = _FREE_BAGS[b.user.get("membership", "regular")][target["cabin"]]
    return int(per * len(target["passengers"]))


def _eligible(b: AirlineBelief) -> bool:
    target = b.target or {}
    return (
        (b.user or {}).get("membership") in ("silver", "gold")
        or target.get("insurance") == "yes"
        or target.get("cabin") == "business"
    )


def cancellable(b: AirlineBelief) -> bool:
    """The policy's cancellation rule, from what the tools showed and the reason given."""
    target = b.target
    if target is None or target.get("status") == "cancelled" or _flown(b):
        return False
    insured = target.get("insurance") == "yes" and reason_kind(b.facts.get("reason", "")) in (
        "health",
        "weather",
    )
    return (
        str(target.get("created_at", "")) > _BOOKED_RECENTLY_AFTER
        or _airline_cancelled(b)
        or target.get("cabin") == "business"
        or insured
    )


def writes(b: AirlineBelief) -> list[CallTool | None]:
    """The write calls the customer's wish needs (None: arguments unresolved)."""
    target = b.target
    if "cancel" in b.intents:
        ok = target is not None and "reason" in b.facts
        code = target["reservation_id"] if target else None
        return [
            CallTool(name="cancel_reservation", arguments={"reservation_id": code}) if ok else None
        ]
    if "bags" in b.intents:
        return [_bags(b)]
    if "passenger_details" in b.intents:
        return [_passengers(b)]
    if "compensation" in b.intents and b.user_id is not None and target is not None:
        amount = _CERTIFICATE_PER_PASSENGER * len(target["passengers"])
        return [
            CallTool(name="send_certificate", arguments={"user_id": b.user_id, "amount": amount})
        ]
    # Wishes no template carries out (adding insurance is never allowed): a change to refuse.
    wishes = {"compensation", "book", "change", "passengers", "insurance"}
    return [None] if b.intents & wishes else []


def _bags(b: AirlineBelief) -> CallTool | None:
    target, free = b.target, _free_bags(b)
    added = re.search(r"\d+", b.facts.get("bags_to_add", ""))
    payment = _PAYMENT_ID.search(b.facts.get("payment", ""))
    if target is None or free is None or not added or not payment:
        return None
    total = int(target["total_baggages"]) + int(added.group())
    arguments: dict[str, Any] = {
        "reservation_id": target["reservation_id"],
        "total_baggages": total,
        "nonfree_baggages": max(0, total - free),
        "payment_id": payment.group(),
    }
    return CallTool(name="update_reservation_baggages", arguments=arguments)


def _passengers(b: AirlineBelief) -> CallTool | None:
    """The passenger update: the reservation's passengers with the one asked for changed."""
    target, change = b.target, b.passenger
    if target is None or change is None:
        return None
    (first, last), new = change
    passengers = [
        {key: str(p[key]) for key in ("first_name", "last_name", "dob")}
        for p in target["passengers"]
    ]
    matches = [
        i
        for i, p in enumerate(passengers)
        if (p["first_name"].lower(), p["last_name"].lower()) == (first.lower(), last.lower())
    ]
    if len(matches) != 1:
        return None
    passengers[matches[0]] = new
    arguments = {"reservation_id": target["reservation_id"], "passengers": passengers}
    return CallTool(name="update_reservation_passengers", arguments=arguments)


def _bag_cost(b: AirlineBelief) -> int | None:
    """What the bags to add cost (the non-free ones beyond those already paid), if known."""
    call, target = _bags(b), b.target
    if call is None or target is None or not isinstance(call.arguments, dict):
        return None
    paid = int(target.get("nonfree_baggages", 0))
    return _BAG_PRICE * max(0, int(call.arguments["nonfree_baggages"]) - paid)


def allowed(b: AirlineBelief) -> bool:
    """Whether the policy lets the agent make the changes still to make."""
    left = [c for c in writes(b) if c is None or c.name not in b.done]
    if not left or any(c is None for c in left):
        return False
    if "cancel" in b.intents:
        return cancellable(b)
    if "compensation" in b.intents:
        return _eligible(b) and _airline_cancelled(b)
    return True


def figures(b: AirlineBelief) -> list[str]:
    """What the customer needs to hear: refund, free bags, certificate."""
    target, said = b.target, []
    if target is not None and "cancel" in b.intents:
        total = sum(float(p["amount"]) for p in target.get("payment_history", []))
        said.append(f"The refund is ${total:g}.")
    free = _free_bags(b)
    if free is not None and b.intents & {"allowance", "bags"}:
        said.append(f"{free} checked bags are free on this reservation.")
    cost = _bag_cost(b) if "update_reservation_baggages" not in b.done else None
    if cost is not None and "bags" in b.intents:
        said.append(f"The added bags cost ${cost}.")
    if "compensation" in b.intents and target is not None:
        amount = _CERTIFICATE_PER_PASSENGER * len(target["passengers"])
        said.append(f"The certificate is worth ${amount}.")
    return said


def refusal_reasons(b: AirlineBelief) -> list[str]:
    """Why the policy forbids what the customer asks, as the belief shows it (for a refusal)."""
    target, request = b.target or {}, b.request
    if "book" in b.intents:
        group = re.search(r"(?:group of|party of|for) (\d+)\b", request)
        if group and int(group.group(1)) > 5:
            return ["A reservation holds at most five passengers."]
        if "new card" in request:
            return ["Only payment methods saved in your profile can be used."]
        return []
    if "passengers" in b.intents:
        return ["The number of passengers on a reservation cannot change."]
    if "insurance" in b.intents:
        return ["Travel insurance cannot be added after booking."]
    if "compensation" in b.intents:
        if not _eligible(b):
            return ["A regular member without travel insurance in economy gets no compensation."]
        return ["Compensation is given only when a flight is cancelled or delayed."]
    if "cancel" in b.intents and target and not cancellable(b):
        return [
            "It was booked more than 24 hours ago, no flight was cancelled by the airline, "
            "the cabin is not business and no insurance covers this reason."
        ]
    if "change" in b.intents and target:
        if _flown(b):
            return ["A flight of this reservation has already flown."]
        if "remove" in request:
            return ["Checked bags can be added but never removed."]
        if target.get("cabin") == "basic_economy":
            return ["Basic economy flights cannot be changed."]
        if "different city" in request:
            return ["The origin, destination and trip type of a reservation cannot change."]
    return []


# -- templates ---------------------------------------------------------------------------------
_NEEDS = {
    "cancel": ("reservation_id", "reason"),
    "allowance": ("reservation_id",),
    "bags": ("reservation_id", "bags_to_add", "payment"),
    "compensation": ("reservation_id",),
    "insurance": ("reservation_id",),
    "change": ("reservation_id",),
    "passengers": ("reservation_id",),
    "passenger_details": ("reservation_id",),
}


def needed(b: AirlineBelief) -> set[str]:
    """The facts the customer's wishes need and the agent does not know yet."""
    keys = {"user_id"} | {key for intent in b.intents for key in _NEEDS.get(intent, ())}
    return {key for key in keys if key not in b.facts and key not in b.unknown}


def _status_query(b: AirlineBelief) -> list[Action]:
    flight = b.unknown_statuses()[0]
    b.asked_flight = flight
    return [
        CallTool(
            name="get_flight_status", arguments={"flight_number": flight[0], "date": flight[1]}
        )
    ]


_PLANS = {
    "cancel_reservation": "cancel reservation {reservation_id}",
    "update_reservation_baggages": "set {total_baggages} checked bags on {reservation_id}",
    "send_certificate": "send you a certificate of ${amount}",
    "update_reservation_passengers": "update the passengers of {reservation_id}",
}


TEMPLATES: tuple[Template[AirlineBelief], ...] = (
    ask("ask_user_id", ("user_id",), "Could you tell me your user id?", needed),
    ask("ask_reservation_id", ("reservation_id",), "What is the reservation id?", needed),
    ask("ask_reason", ("reason",), "What is the reason?", needed),
    ask(
        "ask_details",
        ("bags_to_add", "payment"),
        "How many bags to add, and which payment?",
        needed,
    ),
    read_template(
        "find_user",
        "get_user_details",
        lambda b: (
            {"user_id": b.facts["user_id"]} if "user_id" in b.facts and b.user is None else None
        ),
    ),
    read_template(
        "get_reservation_details",
        "get_reservation_details",
        lambda b: (
            {"reservation_id": b.facts["reservation_id"]}
            if b.user is not None and "reservation_id" in b.facts and b.target is None
            else None
        ),
    ),
    Template("get_flight_status", lambda b, c: bool(b.unknown_statuses()), _status_query),
    *ending_templates(
        writes,
        _PLANS,
        figures,
        allowed=allowed,
        can_refuse=lambda b: b.user is not None,
        reasons=refusal_reasons,
    ),
)
"""Every airline template, in the order of the Discrete action index."""

_FACT_KEYS = ("user_id", "reservation_id", "reason", "bags_to_add", "payment")
_REASON_KINDS = ("health", "weather", "airline", "change")
_STATE_NAMES = desk_state_names(
    INTENTS,
    _FACT_KEYS,
    (
        "user_found",
        "reservation_found",
        "statuses_known",
        "flown",
        "airline_cancelled",
        "booked_recently",
        *(f"cabin={cabin}" for cabin in _CABINS),
        "insured",
        "member_silver_or_gold",
        *(f"reason={kind}" for kind in _REASON_KINDS),
    ),
)


class AirlineFeaturizer(DeskFeaturizer[AirlineBelief]):
    """Belief and templates of one airline episode (a new one per episode)."""

    templates = TEMPLATES
    state_names = _STATE_NAMES
    belief_type = AirlineBelief

    def state_features(self) -> list[float]:
        """The airline features (`state_names`)."""
        b = self.belief
        target = b.target or {}
        calls = writes(b)
        reason = reason_kind(b.facts["reason"]) if "reason" in b.facts else None
        all_made = bool(calls) and all(c is not None and c.name in b.done for c in calls)
        values = self.said_features(INTENTS, _FACT_KEYS)
        values += [
            b.user is not None,
            bool(target),
            bool(target) and not b.unknown_statuses(),
            _flown(b),
            _airline_cancelled(b),
            str(target.get("created_at", "")) > _BOOKED_RECENTLY_AFTER,
        ]
        values += [float(target.get("cabin") == cabin) for cabin in _CABINS]
        values += [
            target.get("insurance") == "yes",
            (b.user or {}).get("membership") in ("silver", "gold"),
        ]
        values += [float(reason == kind) for kind in _REASON_KINDS]
        return values + self.progress_features(
            calls, allowed=allowed(b), needed=bool(calls), all_made=all_made
        )
