"""Task families about compensation certificates, and an information request about bags."""

from __future__ import annotations

from tau_env.domains.airline.constants import FREE_BAGS, TODAY
from tau_env.domains.airline.data_model import Reservation, User
from tau_env.domains.airline.generator import rules
from tau_env.domains.airline.generator.booking import cabin_name
from tau_env.domains.airline.generator.common import lookups
from tau_env.domains.airline.generator.context import Context, describe_method
from tau_env.domains.airline.generator.drafts import Draft, money, route

__all__ = [
    "baggage_allowance",
    "compensation_cancelled",
    "compensation_delayed",
    "compensation_refused",
]

COMPENSATION_RULES = (
    "Compensation only when asked and after checking; silver/gold, insured or business only; "
    "$100 per passenger for a cancelled flight; $50 per passenger for a delay followed by a "
    "change or cancellation"
)


def _known(user: User, reservation: Reservation) -> str:
    return (
        f"You are {user.name.first_name} {user.name.last_name}; your user id is {user.user_id}. "
        f"The reservation is {reservation.reservation_id} ({route(reservation)})."
    )


def compensation_cancelled(ctx: Context) -> Draft | None:
    """An eligible user whose flight the airline cancelled asks for compensation."""
    flights = ctx.data.flights
    user, reservation = ctx.reservation(
        "compensation_cancelled",
        lambda u, r: rules.cancelled_by_airline(r, flights) and rules.compensation_eligible(u, r),
    )
    amount = rules.compensation_for_cancelled(reservation)
    rid = reservation.reservation_id
    cancelled = next(
        f
        for f in reservation.flights
        if flights[f.flight_number].dates[f.date].status == "cancelled"
    )
    complaint = (
        f"flight {cancelled.flight_number} on {cancelled.date} (reservation {rid}) was cancelled"
    )
    return Draft(
        family="compensation_cancelled",
        purpose="Compensate an eligible user for a flight the airline cancelled: $100 each.",
        policies=COMPENSATION_RULES,
        reason=f"Your {complaint}, and you are upset about it.",
        known=_known(user, reservation),
        instructions="Ask for compensation for the cancelled flight. You do not want to change or "
        "cancel the reservation. Accept a travel certificate.",
        ticket=f"User {user.user_id} complains that {complaint} and asks for compensation.",
        facts={
            "user_id": user.user_id,
            "reservation_id": rid,
            "cancelled_flight": cancelled.flight_number,
        },
        actions=[
            *lookups(user, reservation),
            ("send_certificate", {"user_id": user.user_id, "amount": amount}),
        ],
        communicate=[str(amount)],
        notes=[f"The agent sends a {money(amount)} certificate."],
    )


def compensation_refused(ctx: Context) -> Draft | None:
    """Compensation the policy does not give: an ineligible user, or a reason not listed."""
    flights = ctx.data.flights

    def ineligible(u: User, r: Reservation) -> bool:
        return rules.cancelled_by_airline(r, flights) and not rules.compensation_eligible(u, r)

    def unlisted(u: User, r: Reservation) -> bool:
        return rules.compensation_eligible(u, r) and all(
            flights[f.flight_number].dates[f.date].status == "landed" for f in r.flights
        )

    if ctx.rng.random() < 0.6:
        accept = ineligible
        complaint = "one of your flights on reservation {rid} was cancelled by the airline"
        purpose = "Refuse compensation to a regular member without insurance in (basic) economy."
        reasons = ["regular", "insurance"]
    else:
        accept = unlisted
        complaint = (
            "the seats on your flights of reservation {rid} were uncomfortable and the meal "
            "was cold"
        )
        purpose = "Refuse compensation for a reason the policy does not list."
        reasons = ["cancelled", "delayed"]
    user, reservation = ctx.reservation("compensation_refused", accept)  # kept between draws
    said = complaint.format(rid=reservation.reservation_id)
    return Draft(
        family="compensation_refused",
        purpose=purpose,
        policies=COMPENSATION_RULES,
        reason=f"You want compensation because {said}.",
        known=_known(user, reservation),
        instructions="Ask for a travel certificate as compensation. If the agent refuses, "
        "accept it "
        "and end the call.",
        ticket=f"User {user.user_id} asks for compensation because {said}.",
        facts={"user_id": user.user_id, "reservation_id": reservation.reservation_id},
        actions=lookups(user, reservation),
        communicate=reasons,
        notes=["The agent gives no compensation."],
    )


def compensation_delayed(ctx: Context) -> Draft | None:
    """A delayed flight today: move it to a later day, then a $50-per-passenger certificate."""
    flights = ctx.data.flights

    def eligible(user: User, reservation: Reservation) -> bool:
        first = reservation.flights[0]
        return (
            reservation.cabin != "basic_economy"
            and rules.compensation_eligible(user, reservation)
            and first.date == TODAY
            and flights[first.flight_number].dates[first.date].status == "delayed"
            and len(reservation.flights) == (2 if reservation.flight_type == "round_trip" else 1)
        )

    user, reservation = ctx.reservation("compensation_delayed", eligible)
    old = reservation.flights[0]
    new_date = f"2024-05-{16 + ctx.rng.randint(0, 1)}"
    if len(reservation.flights) == 2 and new_date >= reservation.flights[1].date:
        return None
    cabin, count = reservation.cabin, len(reservation.passengers)
    best = ctx.cheapest_direct(old.origin, old.destination, new_date, cabin, count)
    if best is None:
        return None
    legs = [{"flight_number": f.flight_number, "date": f.date} for f in reservation.flights]
    legs[0] = {"flight_number": best["flight_number"], "date": new_date}
    difference = (best["prices"][cabin] - old.price) * count
    method = ctx.card_for(user, difference)
    if method is None:
        return None
    rid = reservation.reservation_id
    update = {"reservation_id": rid, "cabin": cabin, "flights": legs, "payment_id": method.id}
    if ctx.call("update_reservation_flights", **update) is None:
        return None
    amount = rules.compensation_for_delayed(reservation)
    wants = (
        f"Your flight {old.flight_number} today is delayed. Move it to {new_date} on the cheapest "
        f"nonstop flight in {cabin_name(cabin)}, paying or being refunded with your "
        f"{describe_method(method)}. Once the change is done, ask for compensation for the delay."
    )
    return Draft(
        family="compensation_delayed",
        purpose="Change a delayed flight, then compensate an eligible user: $50 each.",
        policies=COMPENSATION_RULES,
        reason=f"Flight {old.flight_number} on your reservation {rid} is delayed and you would "
        "rather travel another day.",
        known=_known(user, reservation),
        instructions=wants + " Agree to the change and to a certificate.",
        ticket=f"User {user.user_id}: {wants}",
        facts={
            "user_id": user.user_id,
            "reservation_id": rid,
            "new_date": new_date,
            "flight_choice": "the cheapest nonstop flight in the same cabin",
            "payment": describe_method(method),
        },
        actions=[
            *lookups(user, reservation),
            (
                "search_direct_flight",
                {"origin": old.origin, "destination": old.destination, "date": new_date},
            ),
            ("update_reservation_flights", update),
            ("send_certificate", {"user_id": user.user_id, "amount": amount}),
        ],
        communicate=[str(amount)],
        notes=[f"The agent changes the flight, then sends a {money(amount)} certificate."],
    )


def baggage_allowance(ctx: Context) -> Draft | None:
    """How many checked bags travel free on a reservation (membership x cabin x passengers)."""
    flights = ctx.data.flights
    user, reservation = ctx.reservation(
        "baggage_allowance",
        lambda u, r: not rules.has_flown(r, flights) and rules.free_bags(u, r) >= 2,
    )
    free = rules.free_bags(user, reservation)
    per_person = FREE_BAGS[user.membership][reservation.cabin]
    rid = reservation.reservation_id
    return Draft(
        family="baggage_allowance",
        purpose="Tell the number of free checked bags from membership, cabin and passengers.",
        policies="Free bags per passenger: regular 0/1/2, silver 1/2/3, gold 2/3/4 by cabin",
        reason=f"You want to know how many checked bags travel free on reservation {rid}.",
        known=_known(user, reservation),
        unknown="You do not remember your membership level or the cabin.",
        instructions="Ask for the total number of free checked bags for the whole reservation, "
        "as a "
        "number. You do not want to change anything.",
        ticket=f"User {user.user_id} asks how many checked bags are free on reservation {rid}.",
        facts={"user_id": user.user_id, "reservation_id": rid},
        actions=lookups(user, reservation),
        communicate=[str(free)],
        notes=[
            f"The agent says {free} bags are free ({per_person} per passenger, "
            f"{user.membership} member in {cabin_name(reservation.cabin)})."
        ],
    )
