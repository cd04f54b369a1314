"""Cancellation, bags, flights, passengers and certificates: effects and error texts."""

import pytest

from tests.domains.airline.conftest import ALICE, BOB, CAROL, parsed


def user(call, user_id="alice_smith_1000"):
    return parsed(call("get_user_details", user_id=user_id)[0])


# -- cancel_reservation ------------------------------------------------------------------------
def test_cancel__refunds_every_payment_and_keeps_seats(call, world):
    content, error = call("cancel_reservation", reservation_id="RES001")
    assert not error
    reservation = parsed(content)
    assert reservation["status"] == "cancelled"
    assert reservation["payment_history"] == [
        {"payment_id": "credit_card_1", "amount": 90},
        {"payment_id": "credit_card_1", "amount": -90},
    ]
    assert world.agent_db.flights["HAT001"].dates["2024-05-16"].available_seats["economy"] == 3


def test_cancel__unknown_reservation(call):
    assert call("cancel_reservation", reservation_id="XXXXXX") == (
        "Error: Reservation XXXXXX not found",
        True,
    )


# -- update_reservation_baggages ---------------------------------------------------------------
def change_bags(call, total, nonfree, payment_id):
    """Sets RES001's bags to `total`, `nonfree` of them paid for with `payment_id`."""
    return call(
        "update_reservation_baggages",
        reservation_id="RES001",
        total_baggages=total,
        nonfree_baggages=nonfree,
        payment_id=payment_id,
    )


def test_bags__fee_is_fifty_per_added_nonfree_bag_and_debits_a_gift_card(call):
    content, error = change_bags(call, 3, 2, "gift_card_1")
    assert not error
    reservation = parsed(content)
    assert (reservation["total_baggages"], reservation["nonfree_baggages"]) == (3, 2)
    assert reservation["payment_history"][-1] == {"payment_id": "gift_card_1", "amount": 100}
    assert user(call)["payment_methods"]["gift_card_1"]["amount"] == 100.0


def test_bags__no_payment_record_when_nothing_is_charged(call):
    content, _ = change_bags(call, 0, 0, "credit_card_1")
    assert parsed(content)["payment_history"] == [{"payment_id": "credit_card_1", "amount": 90}]


@pytest.mark.parametrize(
    ("payment_id", "nonfree", "message"),
    [
        ("credit_card_9", 1, "Payment method not found"),
        ("certificate_1", 1, "Certificate cannot be used to update reservation"),
        ("gift_card_1", 5, "Gift card balance is not enough"),
    ],
)
def test_bags__payment_errors_change_nothing(call, world, base, payment_id, nonfree, message):
    result = change_bags(call, 6, nonfree, payment_id)
    assert result == (f"Error: {message}", True)
    assert world.differences(base) == []


@pytest.mark.parametrize(
    ("total", "nonfree", "argument"),
    [(1, "0", "nonfree_baggages"), ("1", 0, "total_baggages"), (1.0, 0, "total_baggages")],
)
def test_bags__numbers_given_as_strings_or_floats_change_nothing(
    call, world, base, total, nonfree, argument
):
    # The reference fails on nonfree_baggages="0" (str minus int); tau_env refuses every
    # number that is not of its declared type (see the README's differences).
    content, error = change_bags(call, total, nonfree, "gift_card_1")
    assert error and f"'{argument}': Input should be a valid integer" in content
    assert world.differences(base) == []


# -- update_reservation_flights ----------------------------------------------------------------
def change_flights(call, **arguments):
    """Moves RES002 to business on HAT001 and HAT002 of 2024-05-16, paid with credit_card_1;
    `arguments` override any of these."""
    request = {
        "reservation_id": "RES002",
        "cabin": "business",
        "flights": [
            {"flight_number": "HAT001", "date": "2024-05-16"},
            {"flight_number": "HAT002", "date": "2024-05-16"},
        ],
        "payment_id": "credit_card_1",
    }
    return call("update_reservation_flights", **(request | arguments))


def test_flights__kept_flight_keeps_its_price_new_one_costs_todays(call):
    content, error = change_flights(call)
    assert not error, content
    reservation = parsed(content)
    assert [f["price"] for f in reservation["flights"]] == [280, 350]
    # (280 + 350 - 280 - 330) * 2 passengers
    assert reservation["payment_history"][-1] == {"payment_id": "credit_card_1", "amount": 40}


def test_flights__cheaper_cabin_refunds_the_difference_to_a_gift_card(call):
    content, error = change_flights(
        call,
        cabin="basic_economy",
        flights=[
            {"flight_number": "HAT001", "date": "2024-05-16"},
            {"flight_number": "HAT002", "date": "2024-05-20"},
        ],
        payment_id="gift_card_1",
    )
    assert not error, content
    reservation = parsed(content)
    assert reservation["cabin"] == "basic_economy"
    assert [f["price"] for f in reservation["flights"]] == [50, 65]
    # (50 + 65 - 280 - 330) * 2 = -990: a refund
    assert reservation["payment_history"][-1] == {"payment_id": "gift_card_1", "amount": -990}
    assert user(call)["payment_methods"]["gift_card_1"]["amount"] == 1190.0


def test_flights__same_price_means_no_payment_and_seats_are_not_moved(call, world):
    content, _ = change_flights(
        call,
        reservation_id="RES001",
        cabin="economy",
        flights=[{"flight_number": "HAT001", "date": "2024-05-16"}],
    )
    assert parsed(content)["payment_history"] == [{"payment_id": "credit_card_1", "amount": 90}]
    assert world.agent_db.flights["HAT001"].dates["2024-05-16"].available_seats["economy"] == 3


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"reservation_id": "XXXXXX"}, "Reservation XXXXXX not found"),
        (
            {"flights": [{"flight_number": "HAT001", "date": "2024-05-17"}]},
            "Flight HAT001 not available on date 2024-05-17",
        ),
        (
            {"cabin": "economy", "flights": [{"flight_number": "HAT002", "date": "2024-05-20"}]},
            "Not enough seats on flight HAT002",
        ),
        ({"payment_id": "certificate_1"}, "Certificate cannot be used to update reservation"),
        ({"cabin": "business", "payment_id": "gift_card_9"}, "Payment method not found"),
    ],
)
def test_flights__errors_change_nothing(call, world, base, arguments, message):
    assert change_flights(call, **arguments) == (f"Error: {message}", True)
    assert world.differences(base) == []


# -- update_reservation_passengers -------------------------------------------------------------
def test_passengers__replaced_in_order(call):
    renamed = {**BOB, "first_name": "Robert"}
    content, error = call(
        "update_reservation_passengers", reservation_id="RES002", passengers=[ALICE, renamed]
    )
    assert not error
    assert parsed(content)["passengers"] == [ALICE, renamed]


def test_passengers__count_must_not_change(call, world, base):
    assert call(
        "update_reservation_passengers", reservation_id="RES002", passengers=[ALICE, BOB, CAROL]
    ) == ("Error: Number of passengers does not match", True)
    assert call("update_reservation_passengers", reservation_id="NOPE", passengers=[ALICE]) == (
        "Error: Reservation NOPE not found",
        True,
    )
    assert world.differences(base) == []


# -- send_certificate --------------------------------------------------------------------------
def test_certificate__first_free_id_and_float_amount(call):
    assert call("send_certificate", user_id="alice_smith_1000", amount=150) == (
        "Certificate certificate_3221322 added to user alice_smith_1000 with amount 150.",
        False,
    )
    assert call("send_certificate", user_id="alice_smith_1000", amount=50)[0].startswith(
        "Certificate certificate_3221323 added"
    )
    certificate = user(call)["payment_methods"]["certificate_3221322"]
    assert certificate == {"source": "certificate", "id": "certificate_3221322", "amount": 150.0}


def test_certificate__errors(call, world, base):
    assert call("send_certificate", user_id="carol_jones_2000", amount=100) == (
        "Error: Too many certificates",
        True,
    )
    assert call("send_certificate", user_id="nobody", amount=100) == (
        "Error: User nobody not found",
        True,
    )
    assert world.differences(base) == []
