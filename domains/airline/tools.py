"""The airline's 14 agent tools.

Names, arguments, results and error texts are the reference's (results are compared byte for
byte when recorded trajectories are replayed); the descriptions are our own. Like the
reference, the tools enforce only what the data requires (seats, balances, amounts adding up):
the policy's rules on changes, cancellations and compensation are the agent's to apply.
"""

from __future__ import annotations

from typing import Any

from tau_env.domains.airline.constants import (
    AIRPORTS,
    BAG_FEE,
    CERTIFICATE_ID_POOL,
    CREATED_AT,
    INSURANCE_FEE,
    RESERVATION_ID_POOL,
    CabinClass,
    FlightType,
    Insurance,
)
from tau_env.domains.airline.data_model import (
    AirlineDB,
    AirportCode,
    Certificate,
    DirectFlight,
    FlightInfo,
    Passenger,
    Payment,
    Reservation,
    ReservationFlight,
    StatusAvailable,
    User,
)
from tau_env.domains.airline.lookups import (
    bookable,
    charge_for_update,
    find_flight_date,
    find_reservation,
    find_user,
    new_payment,
    reservation_flight,
    seats_taken,
    spent,
)
from tau_env.domains.airline.search import direct_flights, onestop_flights
from tau_env.errors import ToolError
from tau_env.messages import trusted
from tau_env.state.record_copy import copy_record
from tau_env.tools import tool
from tau_env.tools.calculator import evaluate_expression

__all__ = [
    "AGENT_ENV_FUNCTIONS",
    "AGENT_TOOLS",
    "book_reservation",
    "calculate",
    "cancel_reservation",
    "get_flight_status",
    "get_reservation_details",
    "get_user_details",
    "list_all_airports",
    "search_direct_flight",
    "search_onestop_flight",
    "send_certificate",
    "transfer_to_human_agents",
    "update_reservation_baggages",
    "update_reservation_flights",
    "update_reservation_passengers",
]


_BOOKED_FIELDS = frozenset(name for name in Reservation.model_fields if name != "status")
"""The fields a booking gives (`status` keeps its default)."""


@tool(kind="write")
def book_reservation(
    db: AirlineDB,
    user_id: str,
    origin: str,
    destination: str,
    flight_type: FlightType,
    cabin: CabinClass,
    flights: list[FlightInfo],
    passengers: list[Passenger],
    payment_methods: list[Payment],
    total_baggages: int,
    nonfree_baggages: int,
    insurance: Insurance,
) -> Reservation:
    """Book a new reservation for a user and charge it to the user's payment methods.

    Every flight must be bookable on its date with enough free seats in the cabin. The total
    is the cabin price of each flight times the passengers, plus 30 per passenger with
    insurance, plus 50 per non-free bag; the payment amounts must add up to it exactly. Gift
    cards are debited, a certificate used is spent whole, and the seats are taken.

    Args:
        user_id: Id of the booking user, such as 'sara_doe_496'.
        origin: IATA code where the trip starts, such as 'SFO'.
        destination: IATA code of the trip's destination, such as 'JFK'.
        flight_type: 'one_way' or 'round_trip'.
        cabin: 'basic_economy', 'economy' or 'business'; the same for every flight.
        flights: Each flight of the trip in travel order, as flight number and date.
        passengers: Each traveller's first name, last name and date of birth.
        payment_methods: Payment method ids from the user's profile with the amount each pays.
        total_baggages: Checked bags on the reservation.
        nonfree_baggages: How many of those bags are paid for.
        insurance: 'yes' to buy travel insurance, else 'no'.
    """
    user = find_user(db, user_id)
    reservation_id = next((rid for rid in RESERVATION_ID_POOL if rid not in db.reservations), None)
    if reservation_id is None:
        raise ToolError("Too many reservations")
    count = len(passengers)
    booked = []
    total = 0
    for info in flights:
        flight, price = bookable(db, info, cabin, count)
        booked.append(reservation_flight(info, flight, price))
        total += price * count
    if insurance == "yes":
        total += INSURANCE_FEE * count
    total += BAG_FEE * nonfree_baggages
    for payment in payment_methods:  # every amount is checked against the balance before use
        method = user.payment_methods.get(payment.payment_id)
        if method is None:
            raise ToolError(f"Payment method {payment.payment_id} not found")
        if method.source != "credit_card" and method.amount < payment.amount:
            raise ToolError(f"Not enough balance in payment method {payment.payment_id}")
    paid = sum(payment.amount for payment in payment_methods)
    if paid != total:
        raise ToolError(f"Payment amount does not add up, total price is {total}, but paid {paid}")
    methods = spent(user.payment_methods, payment_methods)
    for info in flights:  # a flight listed twice loses seats twice, as in the reference
        flight = db.flights[info.flight_number]  # as this call left it, when listed twice
        status = flight.dates[info.date]
        if isinstance(status, StatusAvailable):
            dates = {**flight.dates, info.date: seats_taken(status, cabin, count)}
            db.flights.update(info.flight_number, dates=dates)
    # Every value is of its field's type (validated arguments and records): built as the
    # validating constructor would build it, without validating again. The arguments are
    # copied so that the record shares nothing with the caller.
    fields = {
        "reservation_id": reservation_id,
        "user_id": user_id,
        "origin": origin,
        "destination": destination,
        "flight_type": flight_type,
        "cabin": cabin,
        "flights": booked,
        "passengers": [copy_record(passenger) for passenger in passengers],
        "payment_history": [copy_record(payment) for payment in payment_methods],
        "created_at": CREATED_AT,
        "total_baggages": total_baggages,
        "nonfree_baggages": nonfree_baggages,
        "insurance": insurance,
        "status": None,
    }
    reservation = trusted(Reservation, fields, _BOOKED_FIELDS)
    db.reservations.insert(reservation_id, reservation)
    db.users.update(
        user_id, payment_methods=methods, reservations=[*user.reservations, reservation_id]
    )
    return reservation


@tool(kind="generic")
def calculate(db: AirlineDB, expression: str) -> str:
    """Work out an arithmetic expression and return the result rounded to two decimals.

    Args:
        expression: The expression, such as '2 + 2'; digits, + - * /, parentheses, dots and
            spaces only.
    """
    return evaluate_expression(expression)


@tool(kind="write")
def cancel_reservation(db: AirlineDB, reservation_id: str) -> Reservation:
    """Cancel a whole reservation and refund every payment made on it.

    A refund entry (the negated amount) is added for each payment in the history. Seats on the
    flights are not released, as in the reference.

    Args:
        reservation_id: The reservation id, such as 'ZFA04Y'.
    """
    reservation = find_reservation(db, reservation_id)
    refunds = [
        new_payment(payment.payment_id, -payment.amount) for payment in reservation.payment_history
    ]
    history = [*reservation.payment_history, *refunds]
    db.reservations.update(reservation_id, payment_history=history, status="cancelled")
    return db.reservations[reservation_id]


@tool(kind="read")
def get_reservation_details(db: AirlineDB, reservation_id: str) -> Reservation:
    """Look up a reservation: flights, passengers, payments, bags, insurance and status.

    Args:
        reservation_id: The reservation id, such as '8JX2WO'.
    """
    return find_reservation(db, reservation_id)


@tool(kind="read")
def get_user_details(db: AirlineDB, user_id: str) -> User:
    """Look up a user's profile: name, contact, payment methods, membership and reservations.

    Args:
        user_id: The user id, such as 'sara_doe_496'.
    """
    return find_user(db, user_id)


@tool(kind="read")
def list_all_airports(db: AirlineDB) -> list[AirportCode]:
    """List every airport the airline serves, with its IATA code and city."""
    return [AirportCode(iata=iata, city=city) for iata, city in AIRPORTS]


@tool(kind="read")
def search_direct_flight(
    db: AirlineDB, origin: str, destination: str, date: str
) -> list[DirectFlight]:
    """Find nonstop flights between two airports that can be booked on a date.

    Each result carries the seats left and the price per cabin; its ``date`` is null (as in
    the reference: the date is the one searched).

    Args:
        origin: IATA code of the departure airport, such as 'JFK'.
        destination: IATA code of the arrival airport, such as 'LAX'.
        date: The travel date, YYYY-MM-DD, such as '2024-01-01'.
    """
    return direct_flights(db.flights, origin, date, destination)


@tool(kind="read")
def search_onestop_flight(
    db: AirlineDB, origin: str, destination: str, date: str
) -> list[list[DirectFlight]]:
    """Find connections with one stop between two airports, leaving on a date.

    Each result is a pair [first flight, second flight]; the second leaves the connecting
    airport no earlier than the first arrives, and each carries its own date. As in the
    reference, when the first flight lands the next day the second is searched on
    '2024-05-' followed by the day number without zero padding.

    Args:
        origin: IATA code of the departure airport, such as 'JFK'.
        destination: IATA code of the final arrival airport, such as 'LAX'.
        date: The departure date, YYYY-MM-DD, such as '2024-05-01'.
    """
    try:
        return onestop_flights(db.flights, origin, destination, date)
    except ValueError as error:  # a malformed day number, as ``int()`` reports it
        raise ToolError(str(error)) from None


@tool(kind="write")
def send_certificate(db: AirlineDB, user_id: str, amount: int) -> str:
    """Give a user a travel certificate worth `amount` dollars (compensation; use with care).

    Args:
        user_id: The user id, such as 'sara_doe_496'.
        amount: The certificate's value in dollars.
    """
    user = find_user(db, user_id)
    for certificate_id in CERTIFICATE_ID_POOL:
        if certificate_id not in user.payment_methods:
            certificate = Certificate(source="certificate", id=certificate_id, amount=amount)
            db.users.edit_part(user_id, "payment_methods")[certificate_id] = certificate
            return f"Certificate {certificate_id} added to user {user_id} with amount {amount}."
    raise ToolError("Too many certificates")


@tool(kind="generic")
def transfer_to_human_agents(db: AirlineDB, summary: str) -> str:
    """Hand the conversation to a human agent, with a summary of the user's request.

    Transfer only when the user asks for a human agent, or when the policy and these tools
    cannot resolve the request.

    Args:
        summary: What the user needs, for the human agent who takes over.
    """
    return "Transfer successful"


@tool(kind="write")
def update_reservation_baggages(
    db: AirlineDB, reservation_id: str, total_baggages: int, nonfree_baggages: int, payment_id: str
) -> Reservation:
    """Set a reservation's checked bags and charge 50 per added non-free bag.

    Args:
        reservation_id: The reservation id, such as 'ZFA04Y'.
        total_baggages: The new total of checked bags.
        nonfree_baggages: The new number of paid bags among them.
        payment_id: A credit card or gift card id from the user's profile, such as
            'credit_card_7815826' or 'gift_card_7815826'.
    """
    reservation = find_reservation(db, reservation_id)
    user = find_user(db, reservation.user_id)
    fee = BAG_FEE * max(0, nonfree_baggages - reservation.nonfree_baggages)
    payment = charge_for_update(db, user, payment_id, fee)
    return _charged_update(
        db, reservation, payment, total_baggages=total_baggages, nonfree_baggages=nonfree_baggages
    )


@tool(kind="write")
def update_reservation_flights(
    db: AirlineDB,
    reservation_id: str,
    cabin: CabinClass,
    flights: list[FlightInfo],
    payment_id: str,
) -> Reservation:
    """Replace a reservation's flights and cabin, charging or refunding the difference.

    A flight already on the reservation (same number and date) keeps the price paid when the
    cabin does not change; every other flight must be bookable with enough seats and costs
    today's price. The difference with what was paid, times the passengers, goes to one
    credit card or gift card (negative: a refund). Seats are not moved, as in the reference.

    Args:
        reservation_id: The reservation id, such as 'ZFA04Y'.
        cabin: The cabin for every flight: 'basic_economy', 'economy' or 'business'.
        flights: Every flight of the new itinerary, as flight number and date, including the
            ones that do not change.
        payment_id: A credit card or gift card id from the user's profile, such as
            'credit_card_7815826' or 'gift_card_7815826'.
    """
    reservation = find_reservation(db, reservation_id)
    user = find_user(db, reservation.user_id)
    count = len(reservation.passengers)
    same_cabin = cabin == reservation.cabin
    new_flights: list[ReservationFlight] = []
    for info in flights:
        kept = _booked_flight(reservation, info) if same_cabin else None
        if kept is None:
            flight, price = bookable(db, info, cabin, count)
            kept = reservation_flight(info, flight, price)
        new_flights.append(kept)
    difference = (
        sum(f.price for f in new_flights) - sum(f.price for f in reservation.flights)
    ) * count
    payment = charge_for_update(db, user, payment_id, difference)
    return _charged_update(db, reservation, payment, flights=new_flights, cabin=cabin)


@tool(kind="write")
def update_reservation_passengers(
    db: AirlineDB, reservation_id: str, passengers: list[Passenger]
) -> Reservation:
    """Replace the details of a reservation's passengers; their number cannot change.

    Args:
        reservation_id: The reservation id, such as 'ZFA04Y'.
        passengers: Every passenger's first name, last name and date of birth, in order.
    """
    if len(passengers) != len(find_reservation(db, reservation_id).passengers):
        raise ToolError("Number of passengers does not match")
    new_passengers = [copy_record(passenger) for passenger in passengers]
    db.reservations.update(reservation_id, passengers=new_passengers)
    return db.reservations[reservation_id]


def _charged_update(
    db: AirlineDB, reservation: Reservation, payment: Payment | None, **changes: Any
) -> Reservation:
    """Apply `changes` to the reservation, adding `payment` (if any) to its payment history."""
    history = reservation.payment_history
    if payment is not None:
        history = [*history, payment]
    db.reservations.update(reservation.reservation_id, payment_history=history, **changes)
    return db.reservations[reservation.reservation_id]


def _booked_flight(reservation: Reservation, info: FlightInfo) -> ReservationFlight | None:
    """The reservation's flight with the number and date `info` names (the first), if any."""
    for flight in reservation.flights:
        if flight.flight_number == info.flight_number and flight.date == info.date:
            return flight
    return None


@tool(kind="read")
def get_flight_status(db: AirlineDB, flight_number: str, date: str) -> str:
    """Tell a flight's status on a date: available, on time, delayed, flying, landed or cancelled.

    Args:
        flight_number: The flight number, such as 'HAT001'.
        date: The date, YYYY-MM-DD.
    """
    return find_flight_date(db, flight_number, date).status


AGENT_TOOLS = (
    book_reservation,
    calculate,
    cancel_reservation,
    get_reservation_details,
    get_user_details,
    list_all_airports,
    search_direct_flight,
    search_onestop_flight,
    send_certificate,
    transfer_to_human_agents,
    update_reservation_baggages,
    update_reservation_flights,
    update_reservation_passengers,
    get_flight_status,
)
AGENT_ENV_FUNCTIONS = ()
