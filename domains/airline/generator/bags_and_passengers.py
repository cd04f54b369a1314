"""Task families about bags and passengers.

Adding bags, refused bag removals or late insurance, passenger corrections, and a refused
change of the number of passengers.
"""

from __future__ import annotations

from tau_env.domains.airline.constants import BAG_FEE, MAX_PASSENGERS
from tau_env.domains.airline.data_model import Passenger
from tau_env.domains.airline.generator import rules
from tau_env.domains.airline.generator.changes import (
    CHANGE_RULES,
    known_info,
    paid_change,
    refusal,
)
from tau_env.domains.airline.generator.common import lookups
from tau_env.domains.airline.generator.context import Context, describe_method
from tau_env.domains.airline.generator.drafts import Draft

__all__ = ["add_bags", "bags_refused", "passenger_count_refused", "update_passenger"]


def add_bags(ctx: Context) -> Draft | None:
    """Add checked bags: free ones first, then $50 each, paid with one card."""
    flights = ctx.data.flights
    user, reservation = ctx.reservation("add_bags", lambda u, r: not rules.has_flown(r, flights))
    added = ctx.rng.randint(1, 3)
    total = reservation.total_baggages + added
    nonfree = max(reservation.nonfree_baggages, total - rules.free_bags(user, reservation))
    fee = BAG_FEE * (nonfree - reservation.nonfree_baggages)
    method = ctx.card_for(user, fee)
    if method is None:
        return None
    rid = reservation.reservation_id
    update = {
        "reservation_id": rid,
        "total_baggages": total,
        "nonfree_baggages": nonfree,
        "payment_id": method.id,
    }
    bags = f"{added} checked bag{'s' * (added > 1)}"
    return paid_change(
        ctx,
        user,
        reservation,
        ("update_reservation_baggages", update),
        amount=fee,
        family="add_bags",
        purpose="Add checked bags, counting the free allowance of membership and cabin.",
        policies=CHANGE_RULES + "; free bags by membership and cabin, then $50 each",
        reason=f"You need to bring {added} more suitcase{'s' * (added > 1)} on reservation {rid}.",
        wants=f"Add {bags} to reservation {rid}; pay with your {describe_method(method)}.",
        ask="Ask what it costs, and agree once the agent summarises it.",
        facts={"bags_to_add": str(added), "payment": describe_method(method)},
        done="adds the bags",
    )


def bags_refused(ctx: Context) -> Draft | None:
    """Removing bags or adding insurance after booking: refused."""
    flights = ctx.data.flights
    if ctx.rng.random() < 0.5:
        return refusal(
            ctx,
            "remove_bags",
            lambda u, r: r.total_baggages > 0 and not rules.has_flown(r, flights),
        )
    return refusal(
        ctx,
        "add_insurance",
        lambda u, r: r.insurance == "no" and not rules.has_flown(r, flights),
    )


def update_passenger(ctx: Context) -> Draft | None:
    """Correct one passenger's name or date of birth."""
    flights = ctx.data.flights
    user, reservation = ctx.reservation(
        "update_passenger", lambda u, r: not rules.has_flown(r, flights)
    )
    index = ctx.rng.randrange(len(reservation.passengers))
    old = reservation.passengers[index]
    if ctx.rng.random() < 0.5:
        new = Passenger(
            first_name=old.first_name, last_name=old.last_name, dob=_shift_year(old.dob)
        )
        change = f"the date of birth of {old.first_name} {old.last_name} should be {new.dob}"
    else:
        first = ctx.rng.choice(
            [n for n in ("Ana", "Beth", "Cole", "Dina", "Eli") if n != old.first_name]
        )
        new = Passenger(first_name=first, last_name=old.last_name, dob=old.dob)
        change = (
            f"{old.first_name} {old.last_name} is replaced by {new.first_name} "
            f"{new.last_name} (born {new.dob})"
        )
    passengers = [p.model_dump() for p in reservation.passengers]
    passengers[index] = new.model_dump()
    rid = reservation.reservation_id
    update = {"reservation_id": rid, "passengers": passengers}
    return Draft(
        family="update_passenger",
        purpose="Update one passenger's details, keeping the others and their number.",
        policies=CHANGE_RULES,
        reason=f"A passenger's details on reservation {rid} must change: {change}.",
        known=known_info(user, reservation),
        instructions="Agree to the change once the agent summarises it.",
        ticket=f"User {user.user_id} asks to update reservation {rid}: {change}.",
        facts={"user_id": user.user_id, "reservation_id": rid, "passenger_change": change},
        actions=[*lookups(user, reservation), ("update_reservation_passengers", update)],
        notes=["The agent updates exactly that passenger."],
    )


def _shift_year(dob: str) -> str:
    year = int(dob[:4])
    return f"{year + 1 if year < 2000 else year - 1}{dob[4:]}"


def passenger_count_refused(ctx: Context) -> Draft | None:
    """Adding a passenger to an existing reservation: refused."""
    flights = ctx.data.flights
    return refusal(
        ctx,
        "add_passenger",
        lambda u, r: len(r.passengers) < MAX_PASSENGERS and not rules.has_flown(r, flights),
    )
