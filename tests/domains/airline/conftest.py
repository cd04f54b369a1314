"""A small hand-built airline database, and worlds over it."""

from __future__ import annotations

import copy
import json

import pytest

import tau_env
from tau_env.domains.airline import TOOLBOX
from tau_env.domains.airline.data_model import AirlineDB
from tau_env.state import World
from tau_env.state.database import SeedSource
from tau_env.state.journal import Journal


def cabins(basic: int, economy: int, business: int) -> dict:
    """A value per cabin class: free seats or fares."""
    return {"basic_economy": basic, "economy": economy, "business": business}


def available(seat_counts: dict, prices: dict) -> dict:
    return {"status": "available", "available_seats": seat_counts, "prices": prices}


PRICES = cabins(50, 100, 300)


SCHEDULES = {  # flight number: route, scheduled departure and arrival (EST)
    "HAT001": ("JFK", "LAX", "08:00:00", "11:00:00"),
    "HAT002": ("LAX", "JFK", "12:00:00", "20:00:00"),
    "HAT003": ("JFK", "ORD", "06:00:00", "08:00:00"),
    "HAT004": ("ORD", "LAX", "09:00:00", "11:00:00"),
    "HAT005": ("ORD", "LAX", "07:00:00", "09:00:00"),
    "HAT006": ("JFK", "ORD", "22:00:00", "01:00:00+1"),
    "HAT007": ("ORD", "LAX", "02:00:00", "04:00:00"),
}

DATES = {  # flight number: its record per date
    "HAT001": {
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
        "2024-05-16": available(cabins(5, 3, 2), PRICES),
        "2024-05-17": {"status": "cancelled"},
        "2024-05-20": available(cabins(9, 9, 9), cabins(70, 150, 400)),
    },
    "HAT002": {
        "2024-05-16": available(cabins(4, 4, 4), cabins(60, 120, 350)),
        "2024-05-20": available(cabins(4, 0, 4), cabins(65, 125, 355)),
    },
    "HAT003": {"2024-05-16": available(cabins(1, 1, 1), cabins(40, 80, 200))},
    "HAT004": {
        "2024-05-16": available(cabins(2, 2, 2), cabins(45, 90, 210)),
        "2024-05-09": available(cabins(2, 2, 2), cabins(45, 90, 210)),
    },
    "HAT005": {"2024-05-16": available(cabins(2, 2, 2), PRICES)},
    "HAT006": {
        "2024-05-08": available(cabins(3, 3, 3), PRICES),
        "2024-05-16": available(cabins(3, 3, 3), PRICES),
    },
    "HAT007": {
        "2024-05-09": available(cabins(3, 3, 3), PRICES),
        "2024-05-17": available(cabins(3, 3, 3), PRICES),
    },
}

FLIGHTS = {
    number: {
        "flight_number": number,
        "origin": origin,
        "destination": destination,
        "scheduled_departure_time_est": departure,
        "scheduled_arrival_time_est": arrival,
        "dates": DATES[number],
    }
    for number, (origin, destination, departure, arrival) in SCHEDULES.items()
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


@pytest.fixture(scope="module")
def official(data_dir):
    """The official airline domain (tests that use it skip without the official data)."""
    return tau_env.load_domain("airline", data_dir)
