"""Read and generic tools: exact outputs (byte for byte, as the reference serializes them)."""

import pytest

from tests.domains.airline.conftest import parsed


def test_get_reservation_details__dumps_fields_in_the_reference_order(call):
    content, error = call("get_reservation_details", reservation_id="RES001")
    assert not error
    assert content == (
        '{"reservation_id": "RES001", "user_id": "alice_smith_1000", "origin": "JFK", '
        '"destination": "LAX", "flight_type": "one_way", "cabin": "economy", "flights": '
        '[{"flight_number": "HAT001", "origin": "JFK", "destination": "LAX", "date": '
        '"2024-05-16", "price": 90}], "passengers": [{"first_name": "Alice", "last_name": '
        '"Smith", "dob": "1980-01-01"}], "payment_history": [{"payment_id": "credit_card_1", '
        '"amount": 90}], "created_at": "2024-05-10T10:00:00", "total_baggages": 1, '
        '"nonfree_baggages": 0, "insurance": "no", "status": null}'
    )


def test_get_reservation_details__unknown_id(call):
    assert call("get_reservation_details", reservation_id="NOPE00") == (
        "Error: Reservation NOPE00 not found",
        True,
    )


def test_get_user_details__shows_balances_as_floats(call):
    content, error = call("get_user_details", user_id="alice_smith_1000")
    assert not error
    assert '"gift_card_1": {"source": "gift_card", "id": "gift_card_1", "amount": 200.0}' in content
    assert '"address2": null' in content
    assert list(parsed(content)) == [
        "user_id",
        "name",
        "address",
        "email",
        "dob",
        "payment_methods",
        "saved_passengers",
        "membership",
        "reservations",
    ]


def test_get_user_details__unknown_id(call):
    assert call("get_user_details", user_id="zed") == ("Error: User zed not found", True)


def test_list_all_airports__twenty_fixed_airports(call):
    content, error = call("list_all_airports")
    airports = parsed(content)
    assert not error and len(airports) == 20
    assert content.startswith('[{"iata": "SFO", "city": "San Francisco"}, {"iata": "JFK"')
    assert airports[-1] == {"iata": "LGA", "city": "LaGuardia"}


@pytest.mark.parametrize(
    ("date", "expected"),
    [("2024-05-14", "landed"), ("2024-05-15", "delayed"), ("2024-05-16", "available")],
)
def test_get_flight_status__is_the_plain_status_string(call, date, expected):
    assert call("get_flight_status", flight_number="HAT001", date=date) == (expected, False)


def test_get_flight_status__unknown_flight_and_unknown_date(call):
    assert call("get_flight_status", flight_number="HAT999", date="2024-05-16") == (
        "Error: Flight HAT999 not found",
        True,
    )
    assert call("get_flight_status", flight_number="HAT001", date="2024-06-01") == (
        "Error: Flight HAT001 not found on date 2024-06-01",
        True,
    )


def test_transfer_to_human_agents__fixed_text(call):
    assert call("transfer_to_human_agents", summary="wants a refund") == (
        "Transfer successful",
        False,
    )


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("2 + 2", "4.0"),
        ("(100 - 30) / 3", "23.33"),
        ("  7*3", "21.0"),
        ("-(2.5 * 2)", "-5.0"),
        ("7 // 2", "3.0"),
        ("2 ** 10", "1024.0"),
    ],
)
def test_calculate__rounds_to_two_decimals(call, expression, expected):
    assert call("calculate", expression=expression) == (expected, False)


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("2 + x", "Invalid characters in expression"),
        ("__import__('os')", "Invalid characters in expression"),
        ("1 / 0", "division by zero"),
        ("(1 + 2", "'(' was never closed (<string>, line 1)"),
        ("1 +", "invalid syntax (<string>, line 1)"),
        ("9 ** 9 ** 9", "int too large to convert to float"),
    ],
)
def test_calculate__errors(call, expression, message):
    assert call("calculate", expression=expression) == (f"Error: {message}", True)
