"""The airline featurizer: the agent's belief as a fixed vector, its moves as templates.

Templates ask for the user id, the reservation code, the reason, the bags and the payment;
look up the user, the reservation and each flight's status; propose and (after a yes) make the
change the customer's wish needs (cancel the reservation, add checked bags, send the
compensation certificate, update one passenger's details); tell the figures (refund, free
bags, the added bags' price, certificate); refuse (with no reason, or stating one of the
policy's reasons: the agent picks which); transfer; end. A template is masked only while it
cannot be formed (its arguments are unknown); whether the policy allows the change is never in
the mask.

Features are facts, not verdicts (issue 53): what the customer asked (the wish, the party size
of a booking, a new card, removing bags, another city), the flights' statuses, the booking's
date against the 24-hour window, the cabin, insurance, membership, the reason's kind, the
number of passengers. No feature says whether the policy allows the change or why not.
Bookings, flight and cabin changes have no change template: the featurized agent can only
refuse or transfer them. Two write arguments still follow the policy's tables: the non-free
bag count (the free-bag table) and the certificate's amount ($100 per passenger).
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

__all__ = ["NEEDS", "REFUSALS", "TEMPLATES", "AirlineFeaturizer", "writes"]

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


REFUSALS: dict[str, str] = {
    "refuse_party_size": "A reservation holds at most five passengers.",
    "refuse_new_card": "Only payment methods saved in your profile can be used.",
    "refuse_passenger_count": "The number of passengers on a reservation cannot change.",
    "refuse_insurance": "Travel insurance cannot be added after booking.",
    "refuse_not_eligible": (
        "A regular member without travel insurance in economy gets no compensation."
    ),
    "refuse_no_disruption": "Compensation is given only when a flight is cancelled or delayed.",
    "refuse_cancellation": (
        "It was booked more than 24 hours ago, no flight was cancelled by the airline, "
        "the cabin is not business and no insurance covers this reason."
    ),
    "refuse_flown": "A flight of this reservation has already flown.",
    "refuse_remove_bags": "Checked bags can be added but never removed.",
    "refuse_basic_economy": "Basic economy flights cannot be changed.",
    "refuse_route": "The origin, destination and trip type of a reservation cannot change.",
}
"""The reasoned refusals (template name -> the reason it states; the policy's rules)."""

_PARTY = re.compile(r"(?:group of|party of|for) (\d+)\b")
_ASKED = {
    "asked:new_card": "new card",
    "asked:remove": "remove",
    "asked:different_city": "different city",
}
"""What the opening asked, as words the customer used (facts of the request)."""


def party_size(b: AirlineBelief) -> int | None:
    """The number of travellers a booking request names, if any."""
    group = _PARTY.search(b.request) if "book" in b.intents else None
    return int(group.group(1)) if group else None


# -- templates ---------------------------------------------------------------------------------
NEEDS = {
    "cancel": ("reservation_id", "reason"),
    "allowance": ("reservation_id",),
    "bags": ("reservation_id", "bags_to_add", "payment"),
    "compensation": ("reservation_id",),
    "insurance": ("reservation_id",),
    "change": ("reservation_id",),
    "passengers": ("reservation_id",),
    "passenger_details": ("reservation_id",),
}


"""Intent -> the facts its tool calls take (the tools' schemas; for heuristics only)."""


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
    ask("ask_user_id", ("user_id",), "Could you tell me your user id?"),
    ask("ask_reservation_id", ("reservation_id",), "What is the reservation id?"),
    ask("ask_reason", ("reason",), "What is the reason?"),
    ask("ask_details", ("bags_to_add", "payment"), "How many bags to add, and which payment?"),
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
        can_refuse=lambda b: b.user is not None,
        refusals=REFUSALS,
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
        "reservation_cancelled",
        "statuses_known",
        "flown",
        "airline_cancelled",
        "booked_recently",
        *(f"cabin={cabin}" for cabin in _CABINS),
        "insured",
        "member_silver_or_gold",
        *(f"reason={kind}" for kind in _REASON_KINDS),
        "count:passengers",
        "count:party_size",
        *_ASKED,
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
            target.get("status") == "cancelled",
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
        party = party_size(b)
        values += [
            min(len(target.get("passengers", [])), 10) / 10,
            min(party, 10) / 10 if party is not None else 0.0,
        ]
        values += [float(words in b.request) for words in _ASKED.values()]
        return values + self.progress_features(calls, needed=bool(calls), all_made=all_made)
