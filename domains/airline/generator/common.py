"""Shared pieces of the built-in world: its calendar, price ranges, timestamps and people."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from tau_env.domains.airline.constants import CabinClass
from tau_env.domains.airline.data_model import Passenger, Reservation, User
from tau_env.domains.airline.generator.names import NAMES

__all__ = [
    "DATES",
    "NOW",
    "PRICE_RANGES",
    "TODAY_DAY",
    "birthday",
    "lookups",
    "person",
    "stamp",
]

DATES = tuple(f"2024-05-{day:02d}" for day in range(1, 31))
"""Every date a flight operates on (May 2024, the reference's calendar)."""

TODAY_DAY = 15
NOW = dt.datetime(2024, 5, 15, 15, 0)

PRICE_RANGES: Mapping[CabinClass, tuple[int, int]] = MappingProxyType(
    {
        "basic_economy": (50, 100),
        "economy": (100, 200),
        "business": (200, 500),
    }
)
"""Price of a seat per cabin, dollars (inclusive bounds)."""


def stamp(moment: dt.datetime) -> str:
    """``YYYY-MM-DDTHH:MM:SS`` (`moment` has no time zone)."""
    return moment.isoformat(timespec="seconds")


def birthday(rng: random.Random) -> str:
    """A date of birth between 1950 and 2004."""
    return f"{rng.randint(1950, 2004)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def person(rng: random.Random) -> Passenger:
    """A traveller with a random name and date of birth."""
    first, last = rng.choice(NAMES.first_names), rng.choice(NAMES.last_names)
    return Passenger(first_name=first, last_name=last, dob=birthday(rng))


def lookups(user: User, reservation: Reservation) -> list[tuple[str, dict[str, Any]]]:
    """The gold plan's first steps on an existing reservation: the user, then the reservation."""
    return [
        ("get_user_details", {"user_id": user.user_id}),
        ("get_reservation_details", {"reservation_id": reservation.reservation_id}),
    ]
