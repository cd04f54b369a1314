"""The built-in airline world: airports, flights with a status per date, users, reservations.

Everything is drawn from one `random.Random`, in a fixed order, so a seed always gives the same
world. The world is built around the fixed "now" (2024-05-15 15:00 EST): flights before today
have landed or were cancelled, today's are landed, flying, on time or delayed, later ones are
bookable (a few cancelled). Reservations are drawn in situations the policy treats differently
(all flown, half flown, upcoming, booked within the last day, caught by a delay today).
"""

from __future__ import annotations

import datetime as dt
import random
import string
from dataclasses import dataclass
from typing import Any

from tau_env.domains.airline.constants import (
    AIRPORTS,
    BAG_FEE,
    CABINS,
    CERTIFICATE_ID_POOL,
    FREE_BAGS,
    INSURANCE_FEE,
    RESERVATION_ID_POOL,
    CabinClass,
)
from tau_env.domains.airline.data_model import (
    AirlineData,
    Flight,
    Passenger,
    Reservation,
    ReservationFlight,
    StatusAvailable,
    User,
)
from tau_env.domains.airline.generator.names import (
    CARD_BRANDS,
    CITIES,
    FIRST_NAMES,
    LAST_NAMES,
    STREETS,
)

__all__ = ["WorldConfig", "generate_world"]

DATES = tuple(f"2024-05-{day:02d}" for day in range(1, 31))
TODAY_DAY = 15
NOW = dt.datetime(2024, 5, 15, 15, 0)

# West-to-east position of each airport; flight time grows with the distance.
_POSITION = {
    "SFO": 0, "LAX": 0, "SEA": 0, "LAS": 1, "PHX": 1, "DEN": 2, "DFW": 3, "IAH": 3, "MSP": 3,
    "ORD": 4, "DTW": 4, "ATL": 5, "CLT": 5, "MIA": 5, "MCO": 5, "PHL": 6, "EWR": 6, "JFK": 6,
    "LGA": 6, "BOS": 6,
}  # fmt: skip

_PRICE_RANGES: dict[CabinClass, tuple[int, int]] = {
    "basic_economy": (50, 100),
    "economy": (100, 200),
    "business": (200, 500),
}

_SITUATIONS = ("past", "half_flown", "upcoming", "recent", "delayed_today")
_SITUATION_WEIGHTS = (18, 12, 52, 10, 8)


@dataclass(frozen=True)
class WorldConfig:
    """Size of the generated world.

    Attributes:
        destinations_per_airport: Routes drawn from each airport (their returns are added).
        second_flight_share: Share of routes served by a second flight at another time.
        users: Number of customers.
        max_reservations_per_user: Each user holds 0 to this many reservations.
    """

    destinations_per_airport: int = 2
    second_flight_share: float = 0.25
    users: int = 120
    max_reservations_per_user: int = 5


def generate_world(rng: random.Random, config: WorldConfig | None = None) -> AirlineData:
    """Draw a complete, consistent airline database."""
    config = config or WorldConfig()
    flights = _flights(rng, config)
    users = _users(rng, config)
    reservations: dict[str, Reservation] = {}
    for user in users.values():
        for _ in range(rng.randint(0, config.max_reservations_per_user)):
            reservation = _reservation(rng, user, flights, set(reservations))
            if reservation is not None:
                reservations[reservation.reservation_id] = reservation
                user.reservations.append(reservation.reservation_id)
    return AirlineData(flights=flights, users=users, reservations=reservations)


# -- flights -----------------------------------------------------------------------------------
def _flights(rng: random.Random, config: WorldConfig) -> dict[str, Flight]:
    codes = [code for code, _ in AIRPORTS]
    routes: list[tuple[str, str]] = []
    for origin in codes:
        for destination in rng.sample([c for c in codes if c != origin], k=len(codes) - 1):
            if len([r for r in routes if r[0] == origin]) >= config.destinations_per_airport:
                break
            for route in ((origin, destination), (destination, origin)):
                if route not in routes:
                    routes.append(route)
    schedule = [(route, 0) for route in routes]
    schedule += [(route, 1) for route in routes if rng.random() < config.second_flight_share]
    flights = {}
    for number, ((origin, destination), _) in enumerate(schedule, start=1):
        flight_number = f"HAT{number:03d}"
        departure = rng.randrange(0, 48) * 30  # minutes after midnight
        duration = 60 + 60 * abs(_POSITION[origin] - _POSITION[destination]) + rng.choice((0, 30))
        flights[flight_number] = Flight(
            flight_number=flight_number,
            origin=origin,
            destination=destination,
            scheduled_departure_time_est=_clock(departure),
            scheduled_arrival_time_est=_clock(departure + duration),
            dates={date: _status(rng, date, departure, duration) for date in DATES},
        )
    return flights


def _clock(minutes: int) -> str:
    suffix = "+1" if minutes >= 24 * 60 else ""
    minutes %= 24 * 60
    return f"{minutes // 60:02d}:{minutes % 60:02d}:00{suffix}"


def _stamp(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S")


def _status(rng: random.Random, date: str, departure: int, duration: int) -> Any:
    day = int(date[-2:])
    start = dt.datetime(2024, 5, day) + dt.timedelta(minutes=departure)
    if day > TODAY_DAY:
        if rng.random() < 0.03:
            return {"status": "cancelled"}
        seats = {cabin: rng.choice((0, *range(3, 21))) for cabin in CABINS}
        prices = {cabin: rng.randint(*_PRICE_RANGES[cabin]) for cabin in CABINS}
        return StatusAvailable(status="available", available_seats=seats, prices=prices)
    if rng.random() < (0.08 if day < TODAY_DAY else 0.04):
        return {"status": "cancelled"}
    shift = dt.timedelta(minutes=rng.randint(-15, 40))
    if day == TODAY_DAY and start + shift > NOW:
        late = dt.timedelta(minutes=rng.randint(60, 240)) if rng.random() < 0.3 else shift
        leave, land = start + late, start + late + dt.timedelta(minutes=duration)
        status = "delayed" if late > dt.timedelta(minutes=45) else "on time"
        return {
            "status": status,
            "estimated_departure_time_est": _stamp(leave),
            "estimated_arrival_time_est": _stamp(land),
        }
    leave = start + shift
    land = leave + dt.timedelta(minutes=duration + rng.randint(-20, 20))
    if land > NOW:
        return {
            "status": "flying",
            "actual_departure_time_est": _stamp(leave),
            "estimated_arrival_time_est": _stamp(land),
        }
    return {
        "status": "landed",
        "actual_departure_time_est": _stamp(leave),
        "actual_arrival_time_est": _stamp(land),
    }


# -- users -------------------------------------------------------------------------------------
def _users(rng: random.Random, config: WorldConfig) -> dict[str, User]:
    users: dict[str, User] = {}
    taken_ids: set[str] = set(CERTIFICATE_ID_POOL)
    while len(users) < config.users:
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        number = rng.randint(1000, 9999)
        user_id = f"{first.lower()}_{last.lower()}_{number}"
        if user_id in users:
            continue
        city, state, zip_prefix = rng.choice(CITIES)
        address = {
            "address1": f"{rng.randint(10, 999)} {rng.choice(STREETS)}",
            "address2": f"Apt {rng.randint(1, 40)}" if rng.random() < 0.4 else None,
            "city": city,
            "country": "USA",
            "state": state,
            "zip": f"{zip_prefix}{rng.randint(10, 99)}",
        }
        users[user_id] = User.model_validate(
            {
                "user_id": user_id,
                "name": {"first_name": first, "last_name": last},
                "address": address,
                "email": f"{first.lower()}.{last.lower()}{rng.randint(10, 99)}@example.com",
                "dob": _birthday(rng),
                "payment_methods": _payment_methods(rng, taken_ids),
                "saved_passengers": [_person(rng) for _ in range(rng.choice((0, 1, 1, 2, 3)))],
                "membership": rng.choice(("regular", "silver", "gold")),
                "reservations": [],
            }
        )
    return users


def _birthday(rng: random.Random) -> str:
    return f"{rng.randint(1950, 2004)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def _person(rng: random.Random) -> Passenger:
    first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
    return Passenger(first_name=first, last_name=last, dob=_birthday(rng))


def _payment_methods(rng: random.Random, taken: set[str]) -> dict[str, Any]:
    methods: list[dict[str, Any]] = []
    for _ in range(rng.choice((1, 1, 2))):
        methods.append(
            {"source": "credit_card", "brand": rng.choice(CARD_BRANDS), "last_four": _digits(rng)}
        )
    for _ in range(rng.choice((0, 1, 1, 2))):
        methods.append({"source": "gift_card", "amount": float(rng.randint(0, 60) * 10)})
    for _ in range(rng.choice((0, 0, 1, 2))):
        methods.append({"source": "certificate", "amount": float(rng.choice((100, 150, 250, 500)))})
    rng.shuffle(methods)
    found = {}
    for method in methods:
        method_id = f"{method['source']}_{rng.randint(1_000_000, 9_999_999)}"
        while method_id in taken:
            method_id = f"{method['source']}_{rng.randint(1_000_000, 9_999_999)}"
        taken.add(method_id)
        found[method_id] = {"source": method["source"], "id": method_id} | method
    return found


def _digits(rng: random.Random) -> str:
    return f"{rng.randint(0, 9999):04d}"


# -- reservations ------------------------------------------------------------------------------
def _reservation(
    rng: random.Random, user: User, flights: dict[str, Flight], taken: set[str]
) -> Reservation | None:
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
    return rng.randint(*_PRICE_RANGES[cabin])


def _travellers(rng: random.Random, user: User) -> list[Passenger]:
    count = rng.choices((1, 2, 3, 4), weights=(5, 4, 2, 1))[0]
    people = []
    if rng.random() < 0.85:
        people.append(
            Passenger(first_name=user.name.first_name, last_name=user.name.last_name, dob=user.dob)
        )
    people += [p.model_copy() for p in user.saved_passengers]
    while len(people) < count:
        people.append(_person(rng))
    return people[:count]


def _created_at(rng: random.Random, situation: str, first_date: str) -> str:
    if situation == "recent":
        earliest = NOW - dt.timedelta(hours=23)
        return _stamp(earliest + dt.timedelta(minutes=rng.randint(0, 22 * 60)))
    departure = dt.datetime.fromisoformat(first_date)
    latest = min(departure, NOW - dt.timedelta(hours=30))
    earliest = dt.datetime(2024, 4, 20)
    span = int((latest - earliest).total_seconds())
    return _stamp(earliest + dt.timedelta(seconds=rng.randrange(max(span, 1))))


def _reservation_id(rng: random.Random, taken: set[str]) -> str:
    alphabet = string.ascii_uppercase + string.digits
    while True:
        candidate = "".join(rng.choice(alphabet) for _ in range(6))
        if candidate not in taken and candidate not in RESERVATION_ID_POOL:
            taken.add(candidate)
            return candidate
