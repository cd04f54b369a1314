"""The airline's company database: flights with a status per date, users, reservations.

Field names, their order and their types follow the reference's models, because tool results
are these records' dumps and are compared byte for byte when trajectories are replayed (for
example gift-card amounts are floats, so ``100`` is shown as ``100.0``). Records that the
agent passes as tool arguments (`FlightInfo`, `Passenger`, `Payment`) ignore unknown keys, as
the reference does; the other records reject them so that malformed data files fail loudly.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from tau_env.domains.airline.constants import CabinClass, FlightType, Insurance, MembershipLevel
from tau_env.domains.records import ArgumentRecord, CreditCard, Record
from tau_env.domains.records import PersonName as Name
from tau_env.state import Database, Table

__all__ = [
    "Address",
    "AirlineDB",
    "AirlineData",
    "AirportCode",
    "Certificate",
    "CreditCard",
    "DirectFlight",
    "EasternTime",
    "Flight",
    "FlightDateStatus",
    "FlightInfo",
    "GiftCard",
    "Name",
    "Passenger",
    "Payment",
    "PaymentMethod",
    "Reservation",
    "ReservationFlight",
    "StatusAvailable",
    "StatusCancelled",
    "StatusDelayed",
    "StatusFlying",
    "StatusLanded",
    "StatusOnTime",
    "User",
]


# -- people and money --------------------------------------------------------------------------
class Address(Record):
    """A user's postal address."""

    address1: str = Field(description="Street line.")
    address2: str | None = Field(default=None, description="Optional second line.")
    city: str = Field(description="City.")
    country: str = Field(description="Country.")
    state: str = Field(description="State or province.")
    zip: str = Field(description="Postal code.")


class Passenger(ArgumentRecord):
    """A traveller on a reservation, or one saved in a user's profile."""

    first_name: str = Field(description="The passenger's first name.")
    last_name: str = Field(description="The passenger's last name.")
    dob: str = Field(description="Date of birth, YYYY-MM-DD.")


class Payment(ArgumentRecord):
    """One movement of money on a reservation (negative for a refund)."""

    payment_id: str = Field(description="Id of a payment method in the user's profile.")
    amount: int = Field(description="Amount in dollars.")


class GiftCard(Record):
    """A gift card with a remaining balance."""

    source: Literal["gift_card"] = Field(description="Kind of payment method.")
    id: str = Field(description="Payment method id, e.g. gift_card_7815826.")
    amount: float = Field(description="Remaining balance in dollars.")


class Certificate(Record):
    """A travel certificate; used whole on one booking (the rest is lost)."""

    source: Literal["certificate"] = Field(description="Kind of payment method.")
    id: str = Field(description="Payment method id, e.g. certificate_3221322.")
    amount: float = Field(description="Value in dollars.")


PaymentMethod = Annotated[CreditCard | GiftCard | Certificate, Field(discriminator="source")]


class User(Record):
    """A customer profile."""

    user_id: str = Field(description="Unique id, e.g. sara_doe_496.")
    name: Name = Field(description="Full name.")
    address: Address = Field(description="Postal address.")
    email: str = Field(description="E-mail address.")
    dob: str = Field(description="Date of birth, YYYY-MM-DD.")
    payment_methods: dict[str, PaymentMethod] = Field(description="Payment methods by id.")
    saved_passengers: list[Passenger] = Field(description="Travellers saved for quick booking.")
    membership: MembershipLevel = Field(description="regular, silver or gold.")
    reservations: list[str] = Field(description="Ids of the user's reservations.")


# -- flights -----------------------------------------------------------------------------------
EasternTime = Annotated[str, Field(description="YYYY-MM-DDTHH:MM:SS, EST.")]
"""A flight's date and time of departure or arrival, on US Eastern time as the data writes it."""


class StatusAvailable(Record):
    """The flight has not left on that date and can be booked."""

    status: Literal["available"] = Field(description="Discriminator.")
    available_seats: dict[CabinClass, int] = Field(description="Free seats per cabin.")
    prices: dict[CabinClass, int] = Field(description="Price per seat per cabin, dollars.")


class StatusOnTime(Record):
    """The flight has not left yet and is expected on time; it can no longer be booked."""

    status: Literal["on time"] = Field(description="Discriminator.")
    estimated_departure_time_est: EasternTime
    estimated_arrival_time_est: EasternTime


class StatusDelayed(Record):
    """The flight has not left yet and will leave late."""

    status: Literal["delayed"] = Field(description="Discriminator.")
    estimated_departure_time_est: EasternTime
    estimated_arrival_time_est: EasternTime


class StatusFlying(Record):
    """The flight is in the air."""

    status: Literal["flying"] = Field(description="Discriminator.")
    actual_departure_time_est: EasternTime
    estimated_arrival_time_est: EasternTime


class StatusLanded(Record):
    """The flight has flown."""

    status: Literal["landed"] = Field(description="Discriminator.")
    actual_departure_time_est: EasternTime
    actual_arrival_time_est: EasternTime


class StatusCancelled(Record):
    """The airline cancelled the flight on that date."""

    status: Literal["cancelled"] = Field(description="Discriminator.")


FlightDateStatus = Annotated[
    StatusAvailable | StatusOnTime | StatusDelayed | StatusFlying | StatusLanded | StatusCancelled,
    Field(discriminator="status"),
]


class Flight(Record):
    """A scheduled flight and its status on each date it operates."""

    flight_number: str = Field(description="Unique id, e.g. HAT001.")
    origin: str = Field(description="IATA code of the departure airport.")
    destination: str = Field(description="IATA code of the arrival airport.")
    scheduled_departure_time_est: str = Field(description="HH:MM:SS, EST.")
    scheduled_arrival_time_est: str = Field(description="HH:MM:SS, EST; '+1' when next day.")
    dates: dict[str, FlightDateStatus] = Field(description="Status by date, YYYY-MM-DD.")


class DirectFlight(Record):
    """A bookable flight as the search tools show it."""

    flight_number: str = Field(description="Flight number.")
    origin: str = Field(description="IATA code of the departure airport.")
    destination: str = Field(description="IATA code of the arrival airport.")
    status: Literal["available"] = Field(description="Always available.")
    scheduled_departure_time_est: str = Field(description="HH:MM:SS, EST.")
    scheduled_arrival_time_est: str = Field(description="HH:MM:SS, EST; '+1' when next day.")
    date: str | None = Field(default=None, description="Set by the one-stop search only.")
    available_seats: dict[CabinClass, int] = Field(description="Free seats per cabin.")
    prices: dict[CabinClass, int] = Field(description="Price per seat per cabin, dollars.")


class FlightInfo(ArgumentRecord):
    """A flight on a date, as the agent names it when booking or changing flights."""

    flight_number: str = Field(description="Flight number, such as 'HAT001'.")
    date: str = Field(description="Date of the flight, YYYY-MM-DD, such as '2024-05-01'.")


class AirportCode(Record):
    """An airport the airline serves."""

    iata: str = Field(description="IATA code.")
    city: str = Field(description="City name.")


# -- reservations ------------------------------------------------------------------------------
class ReservationFlight(Record):
    """One flight of a reservation, with the price per passenger paid for it."""

    flight_number: str = Field(description="Flight number.")
    origin: str = Field(description="IATA code of the departure airport.")
    destination: str = Field(description="IATA code of the arrival airport.")
    date: str = Field(description="YYYY-MM-DD.")
    price: int = Field(description="Price per passenger, dollars.")


class Reservation(Record):
    """A booking: flights, passengers, payments, bags and insurance."""

    reservation_id: str = Field(description="Unique id, e.g. ZFA04Y.")
    user_id: str = Field(description="The booking user.")
    origin: str = Field(description="IATA code where the trip starts.")
    destination: str = Field(description="IATA code of the trip's destination.")
    flight_type: FlightType = Field(description="one_way or round_trip.")
    cabin: CabinClass = Field(description="One cabin for every flight.")
    flights: list[ReservationFlight] = Field(description="Flights in travel order.")
    passengers: list[Passenger] = Field(description="Travellers.")
    payment_history: list[Payment] = Field(description="Payments and refunds, oldest first.")
    created_at: str = Field(description="Booking time, YYYY-MM-DDTHH:MM:SS.")
    total_baggages: int = Field(description="Checked bags.")
    nonfree_baggages: int = Field(description="Checked bags that were paid for.")
    insurance: Insurance = Field(description="Travel insurance bought: yes or no.")
    status: Literal["cancelled"] | None = Field(default=None, description="cancelled or None.")


# -- the database ------------------------------------------------------------------------------
class AirlineData(Record):
    """Layout of the airline ``db.json`` file."""

    flights: dict[str, Flight] = Field(description="Flights by flight number.")
    users: dict[str, User] = Field(description="Users by user id.")
    reservations: dict[str, Reservation] = Field(description="Reservations by id.")


class AirlineDB(Database):
    """The agent side's view of the airline database for one episode."""

    data_model = AirlineData
    flights: Table[Flight]
    users: Table[User]
    reservations: Table[Reservation]
