"""Task families about changing a reservation: flights, cabin, bags and passengers."""

from __future__ import annotations

from typing import Any

from tau_env.data_files import builtin_toml
from tau_env.domains.airline.constants import CABINS, TODAY
from tau_env.domains.airline.data_model import Reservation, StatusAvailable, User
from tau_env.domains.airline.generator import rules
from tau_env.domains.airline.generator.booking import CITY, cabin_name
from tau_env.domains.airline.generator.common import lookups
from tau_env.domains.airline.generator.context import Context, describe_method
from tau_env.domains.airline.generator.drafts import Draft, money, route

__all__ = [
    "cabin_change",
    "cabin_refused_flown",
    "change_flight",
    "change_refused_basic",
    "change_refused_route",
]

CHANGE_RULES = (
    "Modify: basic economy flights cannot change; same origin, destination and trip type; "
    "cabin change only if nothing flown; bags added not removed; no insurance after booking; "
    "passenger count fixed; one card or gift card pays"
)


def known_info(user: User, reservation: Reservation) -> str:
    return (
        f"You are {user.name.first_name} {user.name.last_name}; your user id is {user.user_id}. "
        f"The reservation is {reservation.reservation_id} ({route(reservation)})."
    )


def _legs(reservation: Reservation) -> list[dict[str, str]]:
    return [{"flight_number": f.flight_number, "date": f.date} for f in reservation.flights]


def amount_note(amount: int) -> tuple[str, list[str]]:
    if amount > 0:
        return f"you pay {money(amount)}", [str(amount)]
    if amount < 0:
        return f"you get {money(-amount)} back", [str(-amount)]
    return "the price does not change", []


def paid_change(
    ctx: Context,
    user: User,
    reservation: Reservation,
    call: tuple[str, dict[str, Any]],
    *,
    amount: int,
    family: str,
    purpose: str,
    reason: str,
    wants: str,
    ask: str,
    facts: dict[str, str],
    done: str,
    policies: str = CHANGE_RULES,
    searches: tuple[tuple[str, dict[str, Any]], ...] = (),
) -> Draft | None:
    """A change of `reservation` that costs or refunds `amount`, made by the write `call`.

    The call runs on the context's world (None: it failed there, so no task). The user wants
    `wants` (also the No-User ticket) and behaves as `ask` says; the facts start with the user
    and the reservation; the gold plan looks both up, runs `searches`, then `call`. The agent
    must say the amount paid or refunded, and the note says it `done` the change.
    """
    tool, arguments = call
    if ctx.call(tool, **arguments) is None:
        return None
    outcome, communicate = amount_note(amount)
    return Draft(
        family=family,
        purpose=purpose,
        policies=policies,
        reason=reason,
        known=known_info(user, reservation),
        instructions=f"{wants} {ask}",
        ticket=f"User {user.user_id}: {wants}",
        facts={"user_id": user.user_id, "reservation_id": reservation.reservation_id, **facts},
        actions=[*lookups(user, reservation), *searches, call],
        communicate=communicate,
        notes=[f"The agent {done}; {outcome}."],
    )


def _later_day(ctx: Context, date: str, low: int, high: int) -> str | None:
    day = int(date[-2:]) + ctx.rng.randint(low, high)
    return f"2024-05-{day:02d}" if day <= 28 else None


def change_flight(ctx: Context) -> Draft | None:
    """Move one nonstop flight of an upcoming (not basic economy) reservation to another day."""
    flights = ctx.data.flights

    def eligible(user: User, reservation: Reservation) -> bool:
        return (
            reservation.cabin != "basic_economy"
            and rules.is_upcoming(reservation, flights)
            and len(reservation.flights) == (2 if reservation.flight_type == "round_trip" else 1)
        )

    user, reservation = ctx.reservation("change_flight", eligible)
    index = ctx.rng.randrange(len(reservation.flights))
    old = reservation.flights[index]
    new_date = _later_day(ctx, old.date, 1, 3)
    if new_date is None or (
        index == 0 and len(reservation.flights) == 2 and new_date >= reservation.flights[1].date
    ):
        return None
    cabin, count = reservation.cabin, len(reservation.passengers)
    best = ctx.cheapest_direct(old.origin, old.destination, new_date, cabin, count)
    if best is None:
        return None
    legs = _legs(reservation)
    legs[index] = {"flight_number": best["flight_number"], "date": new_date}
    difference = (best["prices"][cabin] - old.price) * count
    method = ctx.card_for(user, difference)
    if method is None:
        return None
    update = {
        "reservation_id": reservation.reservation_id,
        "cabin": cabin,
        "flights": legs,
        "payment_id": method.id,
    }
    which = "outbound" if index == 0 else "return"
    wants = (
        f"Move your {which} flight ({old.flight_number}, {CITY[old.origin]} to "
        f"{CITY[old.destination]} on {old.date}) to {new_date}, on the cheapest nonstop flight "
        f"in the same cabin. Pay or get refunded with your {describe_method(method)}."
    )
    return paid_change(
        ctx,
        user,
        reservation,
        ("update_reservation_flights", update),
        amount=difference,
        family="change_flight",
        purpose="Change one flight of a reservation to another date; kept flights keep their "
        "price.",
        reason=f"You need to travel on another day for reservation {reservation.reservation_id}.",
        wants=wants,
        ask="Ask what the change costs, and agree once the agent summarises it.",
        facts={
            "flight_to_change": f"{old.flight_number} on {old.date}",
            "new_date": new_date,
            "flight_choice": "the cheapest nonstop flight in the same cabin",
            "payment": describe_method(method),
        },
        done="changes the flight",
        searches=(
            (
                "search_direct_flight",
                {"origin": old.origin, "destination": old.destination, "date": new_date},
            ),
        ),
    )


_REFUSALS = builtin_toml(__package__, "refusals.toml")
"""Request name -> the texts of a forbidden request (``refusals.toml``, next to this module)."""


def refusal(ctx: Context, name: str, eligible: Any) -> Draft | None:
    """A request the policy forbids on a reservation: look it up, refuse and say why.

    Args:
        ctx: The generation context.
        name: The request's entry in ``refusals.toml`` (its family, purpose, the user's
            request and behaviour, and what the refusal must say).
        eligible: ``(user, reservation) -> bool``: the reservations the request suits.
    """
    entry = _REFUSALS[name]
    family = entry["family"]
    user, reservation = ctx.reservation(family, eligible)
    rid = reservation.reservation_id
    asked = entry["request"].format(rid=rid, r=reservation, cabin=cabin_name(reservation.cabin))
    return Draft(
        family=family,
        purpose=entry["purpose"],
        policies=CHANGE_RULES,
        reason=f"You want to {asked}.",
        known=known_info(user, reservation),
        instructions=entry["instructions"]
        + " If the agent says it is not allowed, accept it and end the call.",
        ticket=f"User {user.user_id} wants to {asked}.",
        facts={"user_id": user.user_id, "reservation_id": rid},
        actions=lookups(user, reservation),
        communicate=list(entry["reasons"]),
        notes=["The agent refuses and changes nothing."],
    )


def change_refused_basic(ctx: Context) -> Draft | None:
    """A date change on a basic economy reservation: refused."""
    flights = ctx.data.flights
    return refusal(
        ctx,
        "move_basic_economy",
        lambda u, r: r.cabin == "basic_economy" and rules.is_upcoming(r, flights),
    )


def change_refused_route(ctx: Context) -> Draft | None:
    """A change of destination: refused (origin, destination and trip type are fixed)."""
    flights = ctx.data.flights
    return refusal(
        ctx,
        "change_destination",
        lambda u, r: r.cabin != "basic_economy" and rules.is_upcoming(r, flights),
    )


def cabin_change(ctx: Context) -> Draft | None:
    """Move every flight of an upcoming reservation to another cabin at today's prices."""
    flights = ctx.data.flights
    user, reservation = ctx.reservation("cabin_change", lambda u, r: rules.is_upcoming(r, flights))
    cabin = ctx.rng.choice([c for c in CABINS if c != reservation.cabin])
    count = len(reservation.passengers)
    statuses = [flights[f.flight_number].dates[f.date] for f in reservation.flights]
    open_seats = [s for s in statuses if isinstance(s, StatusAvailable)]
    if len(open_seats) < len(statuses) or any(s.available_seats[cabin] < count for s in open_seats):
        return None
    new_fare = sum(s.prices[cabin] for s in open_seats)
    difference = (new_fare - sum(f.price for f in reservation.flights)) * count
    method = ctx.card_for(user, difference)
    if method is None:
        return None
    rid = reservation.reservation_id
    update = {
        "reservation_id": rid,
        "cabin": cabin,
        "flights": _legs(reservation),
        "payment_id": method.id,
    }
    wants = (
        f"Move all flights of reservation {rid} from {cabin_name(reservation.cabin)} to "
        f"{cabin_name(cabin)}, keeping the same flights. Use your {describe_method(method)} "
        "for the difference."
    )
    return paid_change(
        ctx,
        user,
        reservation,
        ("update_reservation_flights", update),
        amount=difference,
        family="cabin_change",
        purpose="Change the cabin of a whole reservation at current prices.",
        reason=f"You want to travel in {cabin_name(cabin)} on reservation {rid}.",
        wants=wants,
        ask="Ask how much it costs or refunds, and agree once summarised.",
        facts={"new_cabin": cabin_name(cabin), "payment": describe_method(method)},
        done="changes the cabin",
    )


def cabin_refused_flown(ctx: Context) -> Draft | None:
    """A cabin change after part of the trip was flown: refused."""
    flights = ctx.data.flights
    return refusal(
        ctx,
        "cabin_after_flown",
        lambda u, r: (
            rules.has_flown(r, flights)
            and r.cabin != "business"
            and any(f.date > TODAY for f in r.flights)
        ),
    )
