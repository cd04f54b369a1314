"""Named constants of the airline domain: the fixed "now", id pools, prices and allowances.

The reference hard-codes these inside its tools; they are gathered here so that the tools, the
policy, the built-in data generator and the tests agree on one value each.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, Literal

__all__ = [
    "AIRPORTS",
    "BAG_FEE",
    "CABINS",
    "CANCELLED_FLIGHT_COMPENSATION",
    "CERTIFICATE_ID_POOL",
    "CREATED_AT",
    "DELAYED_FLIGHT_COMPENSATION",
    "FREE_BAGS",
    "INSURANCE_FEE",
    "MAX_PASSENGERS",
    "NOW",
    "ONESTOP_NEXT_DAY_PREFIX",
    "RESERVATION_ID_POOL",
    "TODAY",
    "CabinClass",
    "FlightType",
    "Insurance",
    "MembershipLevel",
]

CabinClass = Literal["business", "economy", "basic_economy"]
FlightType = Literal["round_trip", "one_way"]
Insurance = Literal["yes", "no"]
MembershipLevel = Literal["gold", "silver", "regular"]

CABINS: Final[tuple[CabinClass, ...]] = ("basic_economy", "economy", "business")

NOW: Final = "2024-05-15 15:00:00 EST"
"""The moment every airline conversation takes place (the policy states it)."""

TODAY: Final = "2024-05-15"
"""The date part of `NOW`: flights on earlier dates have flown or were cancelled."""

CREATED_AT: Final = "2024-05-15T15:00:00"
"""``created_at`` of every reservation booked during an episode."""

RESERVATION_ID_POOL: Final = ("HATHAT", "HATHAU", "HATHAV")
"""Ids given to new reservations, first free one first (at most three bookings per episode)."""

CERTIFICATE_ID_POOL: Final = (
    "certificate_3221322",
    "certificate_3221323",
    "certificate_3221324",
)
"""Ids given to certificates sent during an episode, first free one first."""

INSURANCE_FEE: Final = 30
"""Travel insurance, dollars per passenger."""

BAG_FEE: Final = 50
"""Each checked bag beyond the free allowance, dollars."""

FREE_BAGS: Final[Mapping[str, Mapping[str, int]]] = MappingProxyType(
    {
        "regular": MappingProxyType({"basic_economy": 0, "economy": 1, "business": 2}),
        "silver": MappingProxyType({"basic_economy": 1, "economy": 2, "business": 3}),
        "gold": MappingProxyType({"basic_economy": 2, "economy": 3, "business": 4}),
    }
)
"""Free checked bags per passenger, by the booking user's membership and the cabin."""

MAX_PASSENGERS: Final = 5

CANCELLED_FLIGHT_COMPENSATION: Final = 100
"""Certificate value per passenger for a cancelled flight, dollars."""

DELAYED_FLIGHT_COMPENSATION: Final = 50
"""Certificate value per passenger for a delayed flight that was then changed or cancelled."""


ONESTOP_NEXT_DAY_PREFIX: Final = "2024-05-"
"""The reference builds a connection's next-day date as this prefix plus the unpadded day."""

AIRPORTS: Final[tuple[tuple[str, str], ...]] = (
    ("SFO", "San Francisco"),
    ("JFK", "New York"),
    ("LAX", "Los Angeles"),
    ("ORD", "Chicago"),
    ("DFW", "Dallas"),
    ("DEN", "Denver"),
    ("SEA", "Seattle"),
    ("ATL", "Atlanta"),
    ("MIA", "Miami"),
    ("BOS", "Boston"),
    ("PHX", "Phoenix"),
    ("IAH", "Houston"),
    ("LAS", "Las Vegas"),
    ("MCO", "Orlando"),
    ("EWR", "Newark"),
    ("CLT", "Charlotte"),
    ("MSP", "Minneapolis"),
    ("DTW", "Detroit"),
    ("PHL", "Philadelphia"),
    ("LGA", "LaGuardia"),
)
"""(IATA code, city) of every airport served, in the order `list_all_airports` gives them."""
