"""Finding records, pricing flights and charging payment methods, with the reference's error texts.

Shared by the agent tools; every failure is a `ToolError` whose message is the reference's.
The records made here (payments, reservation flights, debited gift cards, seat counts) are
built without validation (`trusted`) from values that are already valid, exactly as the
validating constructor would build them.
"""

from __future__ import annotations

from collections.abc import Mapping

from tau_env.domains.airline.constants import CabinClass
from tau_env.domains.airline.data_model import (
    AirlineDB,
    Certificate,
    Flight,
    FlightDateStatus,
    FlightInfo,
    GiftCard,
    Payment,
    PaymentMethod,
    Reservation,
    ReservationFlight,
    StatusAvailable,
    User,
)
from tau_env.errors import ToolError
from tau_env.messages import trusted

__all__ = [
    "bookable",
    "charge_for_update",
    "find_flight",
    "find_flight_date",
    "find_reservation",
    "find_user",
    "new_payment",
    "reservation_flight",
    "seats_taken",
    "spent",
]

_PAYMENT_FIELDS = frozenset(Payment.model_fields)
_FLIGHT_FIELDS = frozenset(ReservationFlight.model_fields)
_GIFT_CARD_FIELDS = frozenset(GiftCard.model_fields)
_STATUS_FIELDS = frozenset(StatusAvailable.model_fields)


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
    return _status_on(find_flight(db, flight_number), flight_number, date)


def _status_on(flight: Flight, flight_number: str, date: str) -> FlightDateStatus:
    """`flight`'s status on `date`, or ``Flight <number> not found on date <date>``."""
    status = flight.dates.get(date)
    if status is None:
        raise ToolError(f"Flight {flight_number} not found on date {date}")
    return status


def bookable(
    db: AirlineDB, info: FlightInfo, cabin: CabinClass, passengers: int
) -> tuple[Flight, int]:
    """The flight `info` names and its price per seat in `cabin` on the date it names.

    The flight must be bookable that day with room for `passengers` in `cabin`.

    Raises:
        ToolError: Unknown flight or date; ``Flight <n> not available on date <d>`` when the
            flight cannot be booked that day; ``Not enough seats on flight <n>``.
    """
    number, date = info.flight_number, info.date
    flight = find_flight(db, number)
    status = _status_on(flight, number, date)
    if not isinstance(status, StatusAvailable):
        raise ToolError(f"Flight {number} not available on date {date}")
    seats, prices = status.available_seats, status.prices
    if cabin not in seats or cabin not in prices:
        raise ToolError(f"'{cabin}'")  # the reference's KeyError text for a missing cabin
    if seats[cabin] < passengers:
        raise ToolError(f"Not enough seats on flight {number}")
    return flight, prices[cabin]


def reservation_flight(info: FlightInfo, flight: Flight, price: int) -> ReservationFlight:
    """The reservation's entry for the flight `info` names (`flight`), at `price` per seat."""
    fields = {
        "flight_number": info.flight_number,
        "origin": flight.origin,
        "destination": flight.destination,
        "date": info.date,
        "price": price,
    }
    return trusted(ReservationFlight, fields, _FLIGHT_FIELDS)


def new_payment(payment_id: str, amount: int) -> Payment:
    """A payment (negative: a refund) of `amount` with the method `payment_id`."""
    return trusted(Payment, {"payment_id": payment_id, "amount": amount}, _PAYMENT_FIELDS)


def seats_taken(status: StatusAvailable, cabin: CabinClass, count: int) -> StatusAvailable:
    """A copy of `status` with `count` fewer seats in `cabin` (its prices map is shared)."""
    seats = {**status.available_seats, cabin: status.available_seats[cabin] - count}
    fields = {"status": "available", "available_seats": seats, "prices": status.prices}
    return trusted(StatusAvailable, fields, _STATUS_FIELDS)


def _debited(card: GiftCard, amount: int | float) -> GiftCard:
    """A copy of `card` holding `amount` less (more when negative)."""
    fields = {"source": "gift_card", "id": card.id, "amount": card.amount - amount}
    return trusted(GiftCard, fields, _GIFT_CARD_FIELDS)


def charge_for_update(db: AirlineDB, user: User, payment_id: str, amount: int) -> Payment | None:
    """Charge (or, when negative, refund) a change of reservation to one payment method.

    Certificates are refused; a gift card must hold at least `amount` and is debited (or
    credited). No payment record is made for a zero amount.

    Args:
        db: The database; `user` is its committed record of the user.
        user: The reservation's owner.
        payment_id: The method to charge.
        amount: The amount to charge.

    Returns:
        The payment to append to the reservation's history, or None when `amount` is 0.

    Raises:
        ToolError: ``Payment method not found``, ``Certificate cannot be used to update
            reservation`` or ``Gift card balance is not enough``.
    """
    methods = user.payment_methods
    method = methods.get(payment_id)
    if method is None:
        raise ToolError("Payment method not found")
    if method.source == "certificate":
        raise ToolError("Certificate cannot be used to update reservation")
    if method.source == "gift_card":
        if method.amount < amount:
            raise ToolError("Gift card balance is not enough")
        if amount != 0 and isinstance(method, GiftCard):
            debited = {**methods, payment_id: _debited(method, amount)}  # same order
            db.users.update(user.user_id, payment_methods=debited)
    return new_payment(payment_id, amount) if amount != 0 else None


def spent(
    methods: Mapping[str, PaymentMethod], payments: list[Payment]
) -> dict[str, PaymentMethod]:
    """The booking user's payment methods once a booking is paid: a new map, in the same order.

    Gift cards are debited (as copies: `methods` is left as it is) and the certificates used
    are removed; the other methods are the same objects as in `methods`.

    Args:
        methods: The user's committed payment methods.
        payments: The booking's payments, already checked against the balances.

    Raises:
        ToolError: A certificate listed twice (the reference fails with a KeyError's text).
    """
    after = dict(methods)
    for payment in payments:
        method = after.get(payment.payment_id)
        if method is None:
            raise ToolError(f"'{payment.payment_id}'")
        if isinstance(method, GiftCard):
            after[payment.payment_id] = _debited(method, payment.amount)
        elif isinstance(method, Certificate):
            del after[payment.payment_id]
    return after
