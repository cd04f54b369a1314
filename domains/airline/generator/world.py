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
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from tau_env.domains.airline.constants import (
    AIRPORTS,
    CABINS,
    CERTIFICATE_ID_POOL,
)
from tau_env.domains.airline.data_model import (
    AirlineData,
    Flight,
    Reservation,
    StatusAvailable,
    User,
)
from tau_env.domains.airline.generator.common import (
    DATES,
    NOW,
    PRICE_RANGES,
    TODAY_DAY,
    birthday,
    person,
    stamp,
)
from tau_env.domains.airline.generator.names import NAMES
from tau_env.domains.airline.generator.reservations import draw_reservation

__all__ = ["WorldConfig", "generate_world"]


# West-to-east position of each airport; flight time grows with the distance.
_POSITION = MappingProxyType({
    "SFO": 0, "LAX": 0, "SEA": 0, "LAS": 1, "PHX": 1, "DEN": 2, "DFW": 3, "IAH": 3, "MSP": 3,
    "ORD": 4, "DTW": 4, "ATL": 5, "CLT": 5, "MIA": 5, "MCO": 5, "PHL": 6, "EWR": 6, "JFK": 6,
    "LGA": 6, "BOS": 6,
})  # fmt: skip


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
    taken: set[str] = set()
    for user in users.values():
        for _ in range(rng.randint(0, config.max_reservations_per_user)):
            reservation = draw_reservation(rng, user, flights, taken)
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


def _status(rng: random.Random, date: str, departure: int, duration: int) -> Any:
    day = int(date[-2:])
    start = dt.datetime(2024, 5, day) + dt.timedelta(minutes=departure)
    if day > TODAY_DAY:
        if rng.random() < 0.03:
            return {"status": "cancelled"}
        seats = {cabin: rng.choice((0, *range(3, 21))) for cabin in CABINS}
        prices = {cabin: rng.randint(*PRICE_RANGES[cabin]) for cabin in CABINS}
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
            "estimated_departure_time_est": stamp(leave),
            "estimated_arrival_time_est": stamp(land),
        }
    leave = start + shift
    land = leave + dt.timedelta(minutes=duration + rng.randint(-20, 20))
    if land > NOW:
        return {
            "status": "flying",
            "actual_departure_time_est": stamp(leave),
            "estimated_arrival_time_est": stamp(land),
        }
    return {
        "status": "landed",
        "actual_departure_time_est": stamp(leave),
        "actual_arrival_time_est": stamp(land),
    }


# -- users -------------------------------------------------------------------------------------
def _users(rng: random.Random, config: WorldConfig) -> dict[str, User]:
    users: dict[str, User] = {}
    taken_ids: set[str] = set(CERTIFICATE_ID_POOL)
    while len(users) < config.users:
        first, last = rng.choice(NAMES.first_names), rng.choice(NAMES.last_names)
        number = rng.randint(1000, 9999)
        user_id = f"{first.lower()}_{last.lower()}_{number}"
        if user_id in users:
            continue
        city, state, zip_prefix = rng.choice(NAMES.cities)
        address = {
            "address1": f"{rng.randint(10, 999)} {rng.choice(NAMES.streets)}",
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
                "dob": birthday(rng),
                "payment_methods": _payment_methods(rng, taken_ids),
                "saved_passengers": [person(rng) for _ in range(rng.choice((0, 1, 1, 2, 3)))],
                "membership": rng.choice(("regular", "silver", "gold")),
                "reservations": [],
            }
        )
    return users


def _payment_methods(rng: random.Random, taken: set[str]) -> dict[str, Any]:
    methods: list[dict[str, Any]] = []
    for _ in range(rng.choice((1, 1, 2))):
        methods.append(
            {
                "source": "credit_card",
                "brand": rng.choice(NAMES.card_brands),
                "last_four": _digits(rng),
            }
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
