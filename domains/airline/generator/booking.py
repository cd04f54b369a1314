"""Task families about new bookings: nonstop, round trip, one-stop, and refused bookings."""

from __future__ import annotations

import datetime as dt
from types import MappingProxyType
from typing import Any

from tau_env.domains.airline.constants import (
    AIRPORTS,
    BAG_FEE,
    CABINS,
    FREE_BAGS,
    INSURANCE_FEE,
    MAX_PASSENGERS,
    CabinClass,
)
from tau_env.domains.airline.data_model import Certificate, GiftCard, Passenger, User
from tau_env.domains.airline.generator.context import Context, describe_method
from tau_env.domains.airline.generator.drafts import Draft, money, people

__all__ = ["book_one_stop", "book_one_way", "book_refused", "book_round_trip"]

CITY = MappingProxyType(dict(AIRPORTS))
BOOKING_RULES = "Booking: user id first; one cabin; at most five passengers; payment from profile"


def cabin_name(cabin: CabinClass) -> str:
    """``basic economy`` for ``basic_economy``."""
    return cabin.replace("_", " ")


def _later(date: str, days: int) -> str:
    return (dt.date.fromisoformat(date) + dt.timedelta(days=days)).isoformat()


def _party(ctx: Context, user: User) -> list[Passenger]:
    """The user plus up to two companions from their saved passengers."""
    me = Passenger(first_name=user.name.first_name, last_name=user.name.last_name, dob=user.dob)
    companions = [p.model_copy() for p in user.saved_passengers]
    return [me, *companions[: ctx.rng.randint(0, 2)]]


def _payments(ctx: Context, user: User, total: int) -> tuple[list[dict[str, Any]], str] | None:
    """How the user pays `total`, as book_reservation arguments and in the user's words."""
    methods = user.payment_methods.values()
    certificates = [m for m in methods if isinstance(m, Certificate)]
    gifts = [m for m in methods if isinstance(m, GiftCard) and m.amount >= total]
    card = ctx.credit_card(user)
    options = ["card"] + ["gift"] * bool(gifts) + ["certificate"] * bool(certificates and card)
    choice = ctx.rng.choice(options)
    if choice == "gift":
        gift = ctx.rng.choice(gifts)
        return [{"payment_id": gift.id, "amount": total}], describe_method(gift)
    if card is None:
        return None
    if choice == "card":
        return [{"payment_id": card.id, "amount": total}], describe_method(card)
    certificate = ctx.rng.choice(certificates)
    covered = min(int(certificate.amount), total)
    paid = [{"payment_id": certificate.id, "amount": covered}]
    if total > covered:
        paid.append({"payment_id": card.id, "amount": total - covered})
    words = f"{describe_method(certificate)} first, and the rest with the {describe_method(card)}"
    return paid, words


def _book(ctx: Context, family: str, *, round_trip: bool, one_stop: bool) -> Draft | None:
    rng = ctx.rng
    user = ctx.pick_user(family)
    if user is None:
        return None
    cabin: CabinClass = rng.choice(CABINS)
    party = _party(ctx, user)
    date = f"2024-05-{rng.randint(17, 24)}"
    origin, destination = rng.sample([code for code, _ in AIRPORTS], k=2)
    searches: list[tuple[str, dict[str, Any]]] = []
    if one_stop:
        legs = ctx.cheapest_onestop(origin, destination, date, cabin, len(party))
        searches.append(
            ("search_onestop_flight", {"origin": origin, "destination": destination, "date": date})
        )
    else:
        flight = rng.choice(list(ctx.data.flights.values()))
        origin, destination = flight.origin, flight.destination
        best = ctx.cheapest_direct(origin, destination, date, cabin, len(party))
        legs = None if best is None else [best]
        searches.append(
            ("search_direct_flight", {"origin": origin, "destination": destination, "date": date})
        )
    if legs is None:
        return None
    back_date = _later(date, rng.randint(2, 5))
    if round_trip:
        back = ctx.cheapest_direct(destination, origin, back_date, cabin, len(party))
        if back is None:
            return None
        back["date"] = back_date
        legs = [*legs, back]
        searches.append(
            (
                "search_direct_flight",
                {"origin": destination, "destination": origin, "date": back_date},
            )
        )
    bags = rng.randint(0, 2 * len(party))
    free = FREE_BAGS[user.membership][cabin] * len(party)
    nonfree = max(0, bags - free)
    insured = rng.random() < 0.4
    fare = sum(leg["prices"][cabin] for leg in legs) * len(party)
    total = fare + BAG_FEE * nonfree + (INSURANCE_FEE * len(party) if insured else 0)
    payment = _payments(ctx, user, total)
    if payment is None:
        return None
    payments, pay_words = payment
    booking = {
        "user_id": user.user_id,
        "origin": origin,
        "destination": destination,
        "flight_type": "round_trip" if round_trip else "one_way",
        "cabin": cabin,
        "flights": [
            {"flight_number": leg["flight_number"], "date": leg["date"] or date} for leg in legs
        ],
        "passengers": [p.model_dump() for p in party],
        "payment_methods": payments,
        "total_baggages": bags,
        "nonfree_baggages": nonfree,
        "insurance": "yes" if insured else "no",
    }
    if ctx.call("book_reservation", **booking) is None:
        return None
    trip = "round trip" if round_trip else "one-way trip"
    kind = "one-stop connection" if one_stop else "nonstop flight"
    when = f"leaving on {date}" + (f" and coming back on {back_date}" if round_trip else "")
    wants = (
        f"Travel {when} in {cabin_name(cabin)}, on the cheapest {kind} that has seats for "
        f"everyone{' in each direction' if round_trip else ''}. Travellers: {people(party)}. "
        f"You want {bags} checked bag{'s' * (bags != 1)} in total and "
        f"{'travel insurance' if insured else 'no travel insurance'}. Pay with the {pay_words}."
    )
    facts = {
        "user_id": user.user_id,
        "trip_type": trip,
        "origin": origin,
        "destination": destination,
        "date": date,
        "cabin": cabin_name(cabin),
        "flight_choice": f"the cheapest {kind}",
        "passengers": people(party),
        "bags": str(bags),
        "insurance": "yes" if insured else "no",
        "payment": pay_words,
    }
    if round_trip:
        facts["return_date"] = back_date
    return Draft(
        family=family,
        purpose=f"Book a {trip} on the cheapest {kind}: bag allowance, insurance and payment.",
        policies=BOOKING_RULES + "; free bags by membership and cabin; insurance $30 each",
        reason=f"You want to book a {trip} from {CITY[origin]} ({origin}) to "
        f"{CITY[destination]} ({destination}).",
        known=f"You are {user.name.first_name} {user.name.last_name}; your user id is "
        f"{user.user_id}.",
        instructions=wants + " Agree to the booking once the agent has summarised it.",
        ticket=f"User {user.user_id} wants a {trip} from {origin} to {destination}. {wants}",
        facts=facts,
        actions=[
            ("get_user_details", {"user_id": user.user_id}),
            *searches,
            ("book_reservation", booking),
        ],
        communicate=[str(total)],
        notes=[f"The agent books the trip for a total of {money(total)}."],
    )


def book_one_way(ctx: Context) -> Draft | None:
    """A one-way booking on the cheapest nonstop flight."""
    return _book(ctx, "book_one_way", round_trip=False, one_stop=False)


def book_round_trip(ctx: Context) -> Draft | None:
    """A round-trip booking on the cheapest nonstop flights."""
    return _book(ctx, "book_round_trip", round_trip=True, one_stop=False)


def book_one_stop(ctx: Context) -> Draft | None:
    """A one-way booking on the cheapest one-stop connection."""
    return _book(ctx, "book_one_stop", round_trip=False, one_stop=True)


def book_refused(ctx: Context) -> Draft | None:
    """A booking the policy forbids: six travellers, or a card that is not in the profile."""
    rng = ctx.rng
    user = ctx.pick_user("book_refused")
    if user is None:
        return None
    flight = rng.choice(list(ctx.data.flights.values()))
    date = f"2024-05-{rng.randint(17, 24)}"
    origin, destination = flight.origin, flight.destination
    where = f"from {CITY[origin]} ({origin}) to {CITY[destination]} ({destination})"
    known = f"You are {user.name.first_name} {user.name.last_name}; your user id is {user.user_id}."
    facts = {
        "user_id": user.user_id,
        "trip_type": "one-way trip",
        "origin": flight.origin,
        "destination": flight.destination,
        "date": date,
        "cabin": "economy",
    }
    if rng.random() < 0.5:
        count = MAX_PASSENGERS + 1
        wants = f"a one-way economy trip {where} on {date} for a group of {count} people"
        instructions = (
            f"You travel as a group of {count} and want everyone on one reservation. Do not "
            "split the group. If the agent says this is not possible, thank them and end the call."
        )
        facts["passengers"] = f"{count} people, all adults"
        purpose = "Refuse a booking for more than five passengers."
        reasons = ["five"]
    else:
        last_four = f"{rng.randint(0, 9999):04d}"
        wants = f"a one-way economy trip {where} on {date}, paid with a new card"
        instructions = (
            f"You want to pay with a new mastercard ending in {last_four} that is not in your "
            "profile, and with nothing else. If the agent says it cannot use that card, end the "
            "call."
        )
        me = Passenger(first_name=user.name.first_name, last_name=user.name.last_name, dob=user.dob)
        facts["passengers"] = people([me])
        facts["payment"] = f"a new mastercard ending in {last_four}, not saved in the profile"
        purpose = "Refuse a payment method that is not in the user's profile."
        reasons = ["profile"]
    return Draft(
        family="book_refused",
        purpose=purpose,
        policies=BOOKING_RULES,
        reason=f"You want to book {wants}.",
        known=known,
        instructions=instructions,
        ticket=f"User {user.user_id} wants to book {wants}. {instructions}",
        facts=facts,
        actions=[("get_user_details", {"user_id": user.user_id})],
        communicate=reasons,
        notes=["The agent does not book anything."],
    )
