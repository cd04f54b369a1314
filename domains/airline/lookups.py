"""Finding records and charging payment methods, with the reference's error texts.

Shared by the agent tools; every failure is a `ToolError` whose message is the reference's.
"""

from __future__ import annotations

from tau_env.domains.airline.constants import CabinClass
from tau_env.domains.airline.data_model import (
    AirlineDB,
    Certificate,
    Flight,
    FlightDateStatus,
    GiftCard,
    Payment,
    PaymentMethod,
    Reservation,
    StatusAvailable,
    User,
)
from tau_env.errors import ToolError

__all__ = [
    "charge_for_update",
    "find_flight",
    "find_flight_date",
    "find_reservation",
    "find_user",
    "seats_and_price",
    "spend",
]


def find_user(db: AirlineDB, user_id: str) -> User:
    """The user (shared record: do not modify), or ``User <id> not found``."""
    return db.users.require(user_id, f"User {user_id} not found")


def find_reservation(db: AirlineDB, reservation_id: str) -> Reservation:
    """The reservation (shared record), or ``Reservation <id> not found``."""
    return db.reservations.require(reservation_id, f"Reservation {reservation_id} not found")


def find_flight(db: AirlineDB, flight_number: str) -> Flight:
    """The flight (shared record), or ``Flight <number> not found``."""
    return db.flights.require(flight_number, f"Flight {flight_number} not found")


def find_flight_date(db: AirlineDB, flight_number: str, date: str) -> FlightDateStatus:
    """A flight's status on a date, or ``Flight <number> not found on date <date>``."""
    status = find_flight(db, flight_number).dates.get(date)
    if status is None:
        raise ToolError(f"Flight {flight_number} not found on date {date}")
    return status


def seats_and_price(
    db: AirlineDB, flight_number: str, date: str, cabin: CabinClass, passengers: int
) -> int:
    """The price per seat of a bookable flight with room for `passengers` in `cabin`.

    Raises:
        ToolError: Unknown flight or date; ``Flight <n> not available on date <d>`` when the
            flight cannot be booked that day; ``Not enough seats on flight <n>``.
    """
    status = find_flight_date(db, flight_number, date)
    if not isinstance(status, StatusAvailable):
        raise ToolError(f"Flight {flight_number} not available on date {date}")
    if cabin not in status.available_seats or cabin not in status.prices:
        raise ToolError(f"'{cabin}'")  # the reference's KeyError text for a missing cabin
    if status.available_seats[cabin] < passengers:
        raise ToolError(f"Not enough seats on flight {flight_number}")
    return status.prices[cabin]


def charge_for_update(db: AirlineDB, user: User, payment_id: str, amount: int) -> Payment | None:
    """Charge (or, when negative, refund) a change of reservation to one payment method.

    Certificates are refused; a gift card must hold at least `amount` and is debited (or
    credited). No payment record is made for a zero amount.

    Returns:
        The payment to append to the reservation's history, or None when `amount` is 0.

    Raises:
        ToolError: ``Payment method not found``, ``Certificate cannot be used to update
            reservation`` or ``Gift card balance is not enough``.
    """
    method = user.payment_methods.get(payment_id)
    if method is None:
        raise ToolError("Payment method not found")
    if method.source == "certificate":
        raise ToolError("Certificate cannot be used to update reservation")
    if method.source == "gift_card":
        if method.amount < amount:
            raise ToolError("Gift card balance is not enough")
        if amount != 0:
            card = db.users.edit_part(user.user_id, "payment_methods", payment_id)
            if isinstance(card, GiftCard):
                card.amount -= amount
    return Payment(payment_id=payment_id, amount=amount) if amount != 0 else None


def spend(methods: dict[str, PaymentMethod], payments: list[Payment]) -> None:
    """Debit gift cards and delete the certificates used by a booking.

    Args:
        methods: This episode's modifiable copy of the booking user's payment methods.
        payments: The booking's payments, already checked against the balances.

    Raises:
        ToolError: A certificate listed twice (the reference fails with a KeyError's text).
    """
    for payment in payments:
        method = methods.get(payment.payment_id)
        if method is None:
            raise ToolError(f"'{payment.payment_id}'")
        if isinstance(method, GiftCard):
            method.amount -= payment.amount
        elif isinstance(method, Certificate):
            del methods[payment.payment_id]
