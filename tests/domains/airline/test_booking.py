"""book_reservation: price arithmetic, payment checks, effects, and every error text."""

import pytest

from tests.domains.airline.conftest import ALICE, BOB, parsed


def booking(**overrides):
    arguments = {
        "user_id": "alice_smith_1000",
        "origin": "JFK",
        "destination": "LAX",
        "flight_type": "one_way",
        "cabin": "economy",
        "flights": [{"flight_number": "HAT001", "date": "2024-05-16"}],
        "passengers": [ALICE],
        "payment_methods": [{"payment_id": "credit_card_1", "amount": 100}],
        "total_baggages": 0,
        "nonfree_baggages": 0,
        "insurance": "no",
    }
    return arguments | overrides


ROUND_TRIP = booking(
    flight_type="round_trip",
    flights=[
        {"flight_number": "HAT001", "date": "2024-05-16"},
        {"flight_number": "HAT002", "date": "2024-05-16"},
    ],
    passengers=[ALICE, BOB],
    total_baggages=7,
    nonfree_baggages=1,
    insurance="yes",
    # (100 + 120) * 2 passengers + 30 * 2 insurance + 50 * 1 bag = 550
    payment_methods=[
        {"payment_id": "certificate_1", "amount": 150},
        {"payment_id": "gift_card_1", "amount": 200},
        {"payment_id": "credit_card_1", "amount": 200},
    ],
)


def test_book__total_is_fares_times_passengers_plus_insurance_plus_bags(call):
    content, error = call("book_reservation", **ROUND_TRIP)
    assert not error, content
    reservation = parsed(content)
    assert reservation["reservation_id"] == "HATHAT"
    assert reservation["created_at"] == "2024-05-15T15:00:00"
    assert [f["price"] for f in reservation["flights"]] == [100, 120]
    assert reservation["flights"][1] == {
        "flight_number": "HAT002",
        "origin": "LAX",
        "destination": "JFK",
        "date": "2024-05-16",
        "price": 120,
    }
    assert reservation["payment_history"] == ROUND_TRIP["payment_methods"]
    assert reservation["status"] is None


def test_book__spends_gift_cards_deletes_the_certificate_and_takes_seats(call, world):
    call("book_reservation", **ROUND_TRIP)
    user = parsed(call("get_user_details", user_id="alice_smith_1000")[0])
    assert user["payment_methods"]["gift_card_1"]["amount"] == 0.0
    assert "certificate_1" not in user["payment_methods"]
    assert user["reservations"] == ["RES001", "RES002", "HATHAT"]
    db = world.agent_db
    assert db.flights["HAT001"].dates["2024-05-16"].available_seats["economy"] == 1
    assert db.flights["HAT002"].dates["2024-05-16"].available_seats["economy"] == 2
    assert parsed(call("get_reservation_details", reservation_id="HATHAT")[0])["cabin"] == "economy"


def test_book__ids_come_from_the_pool_in_order(call):
    ids = [parsed(call("book_reservation", **booking())[0])["reservation_id"] for _ in range(3)]
    assert ids == ["HATHAT", "HATHAU", "HATHAV"]
    assert call("book_reservation", **booking()) == ("Error: Too many reservations", True)


def test_book__leftover_certificate_value_is_lost(call):
    content, error = call(
        "book_reservation",
        **booking(payment_methods=[{"payment_id": "certificate_1", "amount": 100}]),
    )
    assert not error, content
    user = parsed(call("get_user_details", user_id="alice_smith_1000")[0])
    assert "certificate_1" not in user["payment_methods"]


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"user_id": "nobody"}, "User nobody not found"),
        (
            {"flights": [{"flight_number": "HAT999", "date": "2024-05-16"}]},
            "Flight HAT999 not found",
        ),
        (
            {"flights": [{"flight_number": "HAT001", "date": "2024-06-01"}]},
            "Flight HAT001 not found on date 2024-06-01",
        ),
        (
            {"flights": [{"flight_number": "HAT001", "date": "2024-05-15"}]},
            "Flight HAT001 not available on date 2024-05-15",
        ),
        (
            {"cabin": "business", "passengers": [ALICE, BOB, ALICE]},
            "Not enough seats on flight HAT001",
        ),
        (
            {"payment_methods": [{"payment_id": "credit_card_9", "amount": 100}]},
            "Payment method credit_card_9 not found",
        ),
        (
            {
                "cabin": "business",
                "payment_methods": [{"payment_id": "gift_card_1", "amount": 300}],
            },
            "Not enough balance in payment method gift_card_1",
        ),
        (
            {"payment_methods": [{"payment_id": "credit_card_1", "amount": 90}]},
            "Payment amount does not add up, total price is 100, but paid 90",
        ),
        (
            {"insurance": "yes", "nonfree_baggages": 2},
            "Payment amount does not add up, total price is 230, but paid 100",
        ),
        (
            {
                "payment_methods": [
                    {"payment_id": "certificate_1", "amount": 50},
                    {"payment_id": "certificate_1", "amount": 50},
                ]
            },
            "'certificate_1'",
        ),
    ],
)
def test_book__errors_change_nothing(call, world, base, overrides, message):
    assert call("book_reservation", **booking(**overrides)) == (f"Error: {message}", True)
    assert world.differences(base) == []


def test_book__policy_limits_on_payment_mix_are_not_enforced(call):
    # The policy allows one credit card per booking; the tool, like the reference, does not check.
    content, error = call(
        "book_reservation",
        **booking(
            payment_methods=[
                {"payment_id": "credit_card_1", "amount": 50},
                {"payment_id": "credit_card_1", "amount": 50},
            ]
        ),
    )
    assert not error, content


def test_book__unknown_keys_in_nested_arguments_are_ignored_like_the_reference(call):
    flights = [{"flight_number": "HAT001", "date": "2024-05-16", "origin": "JFK"}]
    content, error = call("book_reservation", **booking(flights=flights))
    assert not error, content
    assert parsed(content)["flights"][0]["origin"] == "JFK"


def test_book__invalid_argument_types_are_refused_before_any_change(call, world, base):
    content, error = call("book_reservation", **booking(cabin="first"))
    assert error and content.startswith("Error: Invalid arguments for tool 'book_reservation'")
    assert "cabin" in content
    assert world.differences(base) == []


def test_writes__copy_records_and_never_touch_the_shared_base(call, base):
    before = base.agent_db.snapshot.fingerprint()
    call("book_reservation", **ROUND_TRIP)
    call("cancel_reservation", reservation_id="RES001")
    call("send_certificate", user_id="alice_smith_1000", amount=100)
    assert base.agent_db.snapshot.fingerprint() == before
    fresh = base.fork()
    assert "HATHAT" not in fresh.agent_db.reservations
    assert fresh.agent_db.users["alice_smith_1000"].payment_methods["gift_card_1"].amount == 200.0
    assert fresh.agent_db.flights["HAT001"].dates["2024-05-16"].available_seats["economy"] == 3
