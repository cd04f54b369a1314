"""Reservations of the built-in world, drawn in the situations the policy treats differently.

Situations: all flown (``past``), half flown (``half_flown``), upcoming, booked within the last
day (``recent``) and caught by a delay today (``delayed_today``). Prices, bags and payments are
consistent with the booking rules at the time of booking.
"""

from __future__ import annotations

import datetime as dt
import random
import string

from tau_env.domains.airline.constants import (
    BAG_FEE,
    CABINS,
    FREE_BAGS,
    INSURANCE_FEE,
    RESERVATION_ID_POOL,
    CabinClass,
)
from tau_env.domains.airline.data_model import (
    Flight,
    Passenger,
    Reservation,
    ReservationFlight,
    StatusAvailable,
    User,
)
from tau_env.domains.airline.generator.common import (
    DATES,
    NOW,
    PRICE_RANGES,
    TODAY_DAY,
    person,
    stamp,
)

__all__ = ["draw_reservation"]

_SITUATIONS = ("past", "half_flown", "upcoming", "recent", "delayed_today")
_SITUATION_WEIGHTS = (18, 12, 52, 10, 8)


def draw_reservation(
    rng: random.Random, user: User, flights: dict[str, Flight], taken: set[str]
) -> Reservation | None:
    """One reservation of `user` (None when the drawn situation has no fitting flights).

    Args:
        rng: The world's random source.
        user: The booking user (their membership sets the free bags).
        flights: Every flight of the world.
        taken: Reservation ids already used; the new id is added.
    """
    situation = rng.choices(_SITUATIONS, weights=_SITUATION_WEIGHTS)[0]
    legs = _itinerary(rng, situation, flights)
    if legs is None:
        return None
    outbound, inbound = legs
    cabin: CabinClass = rng.choices(CABINS, weights=(3, 5, 3))[0]
    passengers = _travellers(rng, user)
    trip = [*outbound, *inbound]
    booked = [
        ReservationFlight(
            flight_number=flight.flight_number,
            origin=flight.origin,
            destination=flight.destination,
            date=date,
            price=_paid_price(rng, flight, date, cabin),
        )
        for flight, date in trip
    ]
    free = FREE_BAGS[user.membership][cabin] * len(passengers)
    total_bags = rng.randint(0, 2 * len(passengers))
    nonfree = max(0, total_bags - free)
    insurance = "yes" if rng.random() < 0.35 else "no"
    price = sum(f.price for f in booked) * len(passengers) + BAG_FEE * nonfree
    price += INSURANCE_FEE * len(passengers) if insurance == "yes" else 0
    methods = [m for m in user.payment_methods.values() if m.source != "certificate"]
    payer = rng.choice(methods)
    payments = [{"payment_id": payer.id, "amount": price}]
    cancelled = situation == "past" and rng.random() < 0.1
    if cancelled:
        payments.append({"payment_id": payer.id, "amount": -price})
    return Reservation.model_validate(
        {
            "reservation_id": _reservation_id(rng, taken),
            "user_id": user.user_id,
            "origin": outbound[0][0].origin,
            "destination": outbound[-1][0].destination,
            "flight_type": "round_trip" if inbound else "one_way",
            "cabin": cabin,
            "flights": booked,
            "passengers": passengers,
            "payment_history": payments,
            "created_at": _created_at(rng, situation, trip[0][1]),
            "total_baggages": total_bags,
            "nonfree_baggages": nonfree,
            "insurance": insurance,
            "status": "cancelled" if cancelled else None,
        }
    )


Leg = tuple[Flight, str]


def _itinerary(
    rng: random.Random, situation: str, flights: dict[str, Flight]
) -> tuple[list[Leg], list[Leg]] | None:
    """Outbound and return legs (return empty for one way) placed as the situation asks."""
    if situation == "past":
        day, back = rng.randint(1, 10), rng.randint(2, 4)
    elif situation == "half_flown":
        day = rng.randint(9, 14)
        back = rng.randint(TODAY_DAY + 1 - day, 26 - day)
    elif situation == "delayed_today":
        day, back = TODAY_DAY, rng.randint(2, 6)
    else:
        day, back = rng.randint(TODAY_DAY + 2, 26), rng.randint(1, 4)
    candidates = list(flights.values())
    if situation == "delayed_today":
        candidates = [f for f in candidates if f.dates[DATES[day - 1]].status == "delayed"]
    if not candidates:
        return None
    first = rng.choice(candidates)
    date = DATES[day - 1]
    outbound: list[Leg] = [(first, date)]
    if situation != "delayed_today" and rng.random() < 0.25:
        onward = _connection(rng, first, date, flights)
        if onward is not None:
            outbound.append(onward)
    round_trip = situation == "half_flown" or rng.random() < 0.55
    if not round_trip:
        return outbound, []
    inbound = _return_legs(rng, outbound, DATES[day - 1 + back], flights)
    if inbound is None:
        return (outbound, []) if situation != "half_flown" else None
    return outbound, inbound


def _connection(
    rng: random.Random, first: Flight, date: str, flights: dict[str, Flight]
) -> Leg | None:
    if "+1" in first.scheduled_arrival_time_est:
        return None
    options = [
        f
        for f in flights.values()
        if f.origin == first.destination
        and f.destination != first.origin
        and f.scheduled_departure_time_est >= first.scheduled_arrival_time_est
    ]
    return (rng.choice(options), date) if options else None


def _return_legs(
    rng: random.Random, outbound: list[Leg], date: str, flights: dict[str, Flight]
) -> list[Leg] | None:
    start, end = outbound[-1][0].destination, outbound[0][0].origin
    if len(outbound) == 1:
        direct = [f for f in flights.values() if f.origin == start and f.destination == end]
        return [(rng.choice(direct), date)] if direct else None
    middle = outbound[0][0].destination
    back = [f for f in flights.values() if f.origin == start and f.destination == middle]
    if not back:
        return None
    first = rng.choice(back)
    options = [
        f
        for f in flights.values()
        if f.origin == middle
        and f.destination == end
        and "+1" not in first.scheduled_arrival_time_est
        and f.scheduled_departure_time_est >= first.scheduled_arrival_time_est
    ]
    return [(first, date), (rng.choice(options), date)] if options else None


def _paid_price(rng: random.Random, flight: Flight, date: str, cabin: CabinClass) -> int:
    status = flight.dates[date]
    if isinstance(status, StatusAvailable):
        return max(1, status.prices[cabin] + rng.randint(-25, 25))
    return rng.randint(*PRICE_RANGES[cabin])


def _travellers(rng: random.Random, user: User) -> list[Passenger]:
    count = rng.choices((1, 2, 3, 4), weights=(5, 4, 2, 1))[0]
    people = []
    if rng.random() < 0.85:
        people.append(
            Passenger(first_name=user.name.first_name, last_name=user.name.last_name, dob=user.dob)
        )
    people += [p.model_copy() for p in user.saved_passengers[: count - len(people)]]
    while len(people) < count:
        people.append(person(rng))
    return people


def _created_at(rng: random.Random, situation: str, first_date: str) -> str:
    if situation == "recent":
        earliest = NOW - dt.timedelta(hours=23)
        return stamp(earliest + dt.timedelta(minutes=rng.randint(0, 22 * 60)))
    departure = dt.datetime.fromisoformat(first_date)
    latest = min(departure, NOW - dt.timedelta(hours=30))
    earliest = dt.datetime(2024, 4, 20)
    span = int((latest - earliest).total_seconds())
    return stamp(earliest + dt.timedelta(seconds=rng.randrange(max(span, 1))))


def _reservation_id(rng: random.Random, taken: set[str]) -> str:
    alphabet = string.ascii_uppercase + string.digits
    while True:
        candidate = "".join(rng.choice(alphabet) for _ in range(6))
        if candidate not in taken and candidate not in RESERVATION_ID_POOL:
            taken.add(candidate)
            return candidate
