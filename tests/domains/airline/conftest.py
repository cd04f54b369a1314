"""A small hand-built airline database, and worlds over it."""

from __future__ import annotations

import copy
import json

import pytest

from tau_env.domains.airline import TOOLBOX
from tau_env.domains.airline.data_model import AirlineDB
from tau_env.state import World
from tau_env.state.database import SeedSource
from tau_env.state.journal import Journal


def seats(basic: int, economy: int, business: int) -> dict:
    return {"basic_economy": basic, "economy": economy, "business": business}


def available(seat_counts: dict, prices: dict) -> dict:
    return {"status": "available", "available_seats": seat_counts, "prices": prices}


PRICES = {"basic_economy": 50, "economy": 100, "business": 300}

FLIGHTS = {
    "HAT001": {
        "flight_number": "HAT001",
        "origin": "JFK",
        "destination": "LAX",
        "scheduled_departure_time_est": "08:00:00",
        "scheduled_arrival_time_est": "11:00:00",
        "dates": {
            "2024-05-14": {
                "status": "landed",
                "actual_departure_time_est": "2024-05-14T08:05:00",
                "actual_arrival_time_est": "2024-05-14T11:02:00",
            },
            "2024-05-15": {
                "status": "delayed",
                "estimated_departure_time_est": "2024-05-15T18:00:00",
                "estimated_arrival_time_est": "2024-05-15T21:00:00",
            },
            "2024-05-16": available(seats(5, 3, 2), PRICES),
            "2024-05-17": {"status": "cancelled"},
            "2024-05-20": available(
                seats(9, 9, 9), {"basic_economy": 70, "economy": 150, "business": 400}
            ),
        },
    },
    "HAT002": {
        "flight_number": "HAT002",
        "origin": "LAX",
        "destination": "JFK",
        "scheduled_departure_time_est": "12:00:00",
        "scheduled_arrival_time_est": "20:00:00",
        "dates": {
            "2024-05-16": available(
                seats(4, 4, 4), {"basic_economy": 60, "economy": 120, "business": 350}
            ),
            "2024-05-20": available(
                seats(4, 0, 4), {"basic_economy": 65, "economy": 125, "business": 355}
            ),
        },
    },
    "HAT003": {
        "flight_number": "HAT003",
        "origin": "JFK",
        "destination": "ORD",
        "scheduled_departure_time_est": "06:00:00",
        "scheduled_arrival_time_est": "08:00:00",
        "dates": {
            "2024-05-16": available(
                seats(1, 1, 1), {"basic_economy": 40, "economy": 80, "business": 200}
            )
        },
    },
    "HAT004": {
        "flight_number": "HAT004",
        "origin": "ORD",
        "destination": "LAX",
        "scheduled_departure_time_est": "09:00:00",
        "scheduled_arrival_time_est": "11:00:00",
        "dates": {
            "2024-05-16": available(
                seats(2, 2, 2), {"basic_economy": 45, "economy": 90, "business": 210}
            ),
            "2024-05-09": available(
                seats(2, 2, 2), {"basic_economy": 45, "economy": 90, "business": 210}
            ),
        },
    },
    "HAT005": {
        "flight_number": "HAT005",
        "origin": "ORD",
        "destination": "LAX",
        "scheduled_departure_time_est": "07:00:00",
        "scheduled_arrival_time_est": "09:00:00",
        "dates": {"2024-05-16": available(seats(2, 2, 2), PRICES)},
    },
    "HAT006": {
        "flight_number": "HAT006",
        "origin": "JFK",
        "destination": "ORD",
        "scheduled_departure_time_est": "22:00:00",
        "scheduled_arrival_time_est": "01:00:00+1",
        "dates": {
            "2024-05-08": available(seats(3, 3, 3), PRICES),
            "2024-05-16": available(seats(3, 3, 3), PRICES),
        },
    },
    "HAT007": {
        "flight_number": "HAT007",
        "origin": "ORD",
        "destination": "LAX",
        "scheduled_departure_time_est": "02:00:00",
        "scheduled_arrival_time_est": "04:00:00",
        "dates": {
            "2024-05-09": available(seats(3, 3, 3), PRICES),
            "2024-05-17": available(seats(3, 3, 3), PRICES),
        },
    },
}


def person(first: str, last: str, dob: str) -> dict:
    return {"first_name": first, "last_name": last, "dob": dob}


ALICE = person("Alice", "Smith", "1980-01-01")
BOB = person("Bob", "Smith", "1982-02-02")
CAROL = person("Carol", "Jones", "1990-03-03")

USERS = {
    "alice_smith_1000": {
        "user_id": "alice_smith_1000",
        "name": {"first_name": "Alice", "last_name": "Smith"},
        "address": {
            "address1": "1 Elm Row",
            "address2": None,
            "city": "Austin",
            "country": "USA",
            "state": "TX",
            "zip": "78701",
        },
        "email": "alice@example.com",
        "dob": "1980-01-01",
        "payment_methods": {
            "credit_card_1": {
                "source": "credit_card",
                "id": "credit_card_1",
                "brand": "visa",
                "last_four": "1111",
            },
            "gift_card_1": {"source": "gift_card", "id": "gift_card_1", "amount": 200},
            "certificate_1": {"source": "certificate", "id": "certificate_1", "amount": 150},
        },
        "saved_passengers": [BOB],
        "membership": "gold",
        "reservations": ["RES001", "RES002"],
    },
    "carol_jones_2000": {
        "user_id": "carol_jones_2000",
        "name": {"first_name": "Carol", "last_name": "Jones"},
        "address": {
            "address1": "2 Pine Hollow",
            "city": "Boise",
            "country": "USA",
            "state": "ID",
            "zip": "83701",
        },
        "email": "carol@example.com",
        "dob": "1990-03-03",
        "payment_methods": {
            "credit_card_2": {
                "source": "credit_card",
                "id": "credit_card_2",
                "brand": "amex",
                "last_four": "2222",
            },
            **{
                f"certificate_322132{n}": {
                    "source": "certificate",
                    "id": f"certificate_322132{n}",
                    "amount": 50,
                }
                for n in (2, 3, 4)
            },
        },
        "saved_passengers": [],
        "membership": "regular",
        "reservations": ["RES003"],
    },
}

RESERVATIONS = {
    "RES001": {
        "reservation_id": "RES001",
        "user_id": "alice_smith_1000",
        "origin": "JFK",
        "destination": "LAX",
        "flight_type": "one_way",
        "cabin": "economy",
        "flights": [
            {
                "flight_number": "HAT001",
                "origin": "JFK",
                "destination": "LAX",
                "date": "2024-05-16",
                "price": 90,
            }
        ],
        "passengers": [ALICE],
        "payment_history": [{"payment_id": "credit_card_1", "amount": 90}],
        "created_at": "2024-05-10T10:00:00",
        "total_baggages": 1,
        "nonfree_baggages": 0,
        "insurance": "no",
    },
    "RES002": {
        "reservation_id": "RES002",
        "user_id": "alice_smith_1000",
        "origin": "JFK",
        "destination": "LAX",
        "flight_type": "round_trip",
        "cabin": "business",
        "flights": [
            {
                "flight_number": "HAT001",
                "origin": "JFK",
                "destination": "LAX",
                "date": "2024-05-16",
                "price": 280,
            },
            {
                "flight_number": "HAT002",
                "origin": "LAX",
                "destination": "JFK",
                "date": "2024-05-20",
                "price": 330,
            },
        ],
        "passengers": [ALICE, BOB],
        "payment_history": [{"payment_id": "gift_card_1", "amount": 1220}],
        "created_at": "2024-05-01T09:00:00",
        "total_baggages": 2,
        "nonfree_baggages": 0,
        "insurance": "yes",
    },
    "RES003": {
        "reservation_id": "RES003",
        "user_id": "carol_jones_2000",
        "origin": "LAX",
        "destination": "JFK",
        "flight_type": "one_way",
        "cabin": "basic_economy",
        "flights": [
            {
                "flight_number": "HAT002",
                "origin": "LAX",
                "destination": "JFK",
                "date": "2024-05-16",
                "price": 55,
            }
        ],
        "passengers": [CAROL],
        "payment_history": [{"payment_id": "credit_card_2", "amount": 55}],
        "created_at": "2024-05-15T01:00:00",
        "total_baggages": 0,
        "nonfree_baggages": 0,
        "insurance": "no",
    },
}

RAW = {"flights": FLIGHTS, "users": USERS, "reservations": RESERVATIONS}


def make_world(raw: dict | None = None) -> World:
    snapshot = AirlineDB.load_snapshot(copy.deepcopy(raw or RAW), source="fixture")
    journal, source = Journal(), SeedSource(0)
    return World(TOOLBOX, AirlineDB(snapshot, journal, source), None, journal, source)


@pytest.fixture
def base() -> World:
    """The untouched fixture world (compare episodes against it)."""
    return make_world()


@pytest.fixture
def world(base: World) -> World:
    """An episode's world over the fixture."""
    return base.fork()


@pytest.fixture
def call(world: World):
    """Call an agent tool: returns (content, error)."""

    def run(name: str, **arguments):
        result = world.call_tool("agent", name, arguments)
        return result.content, result.error

    return run


def parsed(content: str):
    return json.loads(content)
