"""The policy's rules as functions: what the built-in tasks' gold plans are computed from.

Each function answers one question the policy asks the agent (may this reservation be
cancelled? how many bags are free? is compensation due?), from the records as the agent's
tools show them. The task generator follows these answers, so the gold plans follow the
policy in ``policy.md``.
"""

from __future__ import annotations

from collections.abc import Mapping

from tau_env.domains.airline.constants import (
    CANCELLED_FLIGHT_COMPENSATION,
    DELAYED_FLIGHT_COMPENSATION,
    FREE_BAGS,
    TODAY,
)
from tau_env.domains.airline.data_model import Flight, Reservation, User

__all__ = [
    "BOOKED_RECENTLY_AFTER",
    "INSURED_REASONS",
    "booked_recently",
    "cancellable",
    "cancelled_by_airline",
    "compensation_eligible",
    "compensation_for_cancelled",
    "compensation_for_delayed",
    "delayed_flights",
    "flight_statuses",
    "free_bags",
    "has_flown",
    "is_upcoming",
    "paid_total",
]

BOOKED_RECENTLY_AFTER = "2024-05-14T15:00:00"
"""A reservation created after this moment was made within the last 24 hours."""

INSURED_REASONS = ("health", "weather")
"""Cancellation reasons that travel insurance covers."""


def flight_statuses(reservation: Reservation, flights: Mapping[str, Flight]) -> list[str]:
    """The status of each flight of the reservation on its date."""
    return [flights[f.flight_number].dates[f.date].status for f in reservation.flights]


def has_flown(reservation: Reservation, flights: Mapping[str, Flight]) -> bool:
    """True when some flight of the reservation has taken off (flying or landed).

    Stops at the first such flight: every family's scan of the world asks it of each
    reservation.
    """
    for flight in reservation.flights:
        if flights[flight.flight_number].dates[flight.date].status in ("flying", "landed"):
            return True
    return False


def is_upcoming(reservation: Reservation, flights: Mapping[str, Flight]) -> bool:
    """True when every flight is still bookable: dated after today and available."""
    return all(f.date > TODAY for f in reservation.flights) and all(
        s == "available" for s in flight_statuses(reservation, flights)
    )


def cancelled_by_airline(reservation: Reservation, flights: Mapping[str, Flight]) -> bool:
    """True when the airline cancelled at least one flight of the reservation."""
    return "cancelled" in flight_statuses(reservation, flights)


def delayed_flights(reservation: Reservation, flights: Mapping[str, Flight]) -> list[str]:
    """Flight numbers of the reservation that are delayed."""
    statuses = flight_statuses(reservation, flights)
    return [
        f.flight_number
        for f, s in zip(reservation.flights, statuses, strict=True)
        if s == "delayed"
    ]


def booked_recently(reservation: Reservation) -> bool:
    """True when the reservation was made within the 24 hours before now."""
    return reservation.created_at > BOOKED_RECENTLY_AFTER


def cancellable(reservation: Reservation, flights: Mapping[str, Flight], reason: str) -> bool:
    """Whether the policy lets the agent cancel the reservation for `reason`.

    Nothing flown, and one of: booked within 24 hours, a flight cancelled by the airline,
    business cabin, or insurance with a health or weather reason.
    """
    if reservation.status == "cancelled" or has_flown(reservation, flights):
        return False
    insured = reservation.insurance == "yes" and reason in INSURED_REASONS
    return (  # the record's own fields first: the flights' statuses are looked up last
        booked_recently(reservation)
        or reservation.cabin == "business"
        or insured
        or cancelled_by_airline(reservation, flights)
    )


def free_bags(user: User, reservation: Reservation) -> int:
    """Checked bags the reservation carries for free (membership, cabin, passengers)."""
    return FREE_BAGS[user.membership][reservation.cabin] * len(reservation.passengers)


def compensation_eligible(user: User, reservation: Reservation) -> bool:
    """Silver or gold members, insured reservations and business travellers may be compensated."""
    return (
        user.membership in ("silver", "gold")
        or reservation.insurance == "yes"
        or reservation.cabin == "business"
    )


def compensation_for_cancelled(reservation: Reservation) -> int:
    """Certificate value for a flight cancelled by the airline."""
    return CANCELLED_FLIGHT_COMPENSATION * len(reservation.passengers)


def compensation_for_delayed(reservation: Reservation) -> int:
    """Certificate value for a delayed flight followed by a change or cancellation."""
    return DELAYED_FLIGHT_COMPENSATION * len(reservation.passengers)


def paid_total(reservation: Reservation) -> int:
    """What the payment history adds up to (the refund a cancellation makes)."""
    return sum(payment.amount for payment in reservation.payment_history)
