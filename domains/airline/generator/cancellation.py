"""Task families about cancellations: each rule that allows one, refusals, and flown trips."""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType

from tau_env.domains.airline.data_model import Reservation, User
from tau_env.domains.airline.generator import rules
from tau_env.domains.airline.generator.common import lookups
from tau_env.domains.airline.generator.context import Context
from tau_env.domains.airline.generator.drafts import Draft, money, route

__all__ = [
    "cancel_airline_cancelled",
    "cancel_business",
    "cancel_flown_transfer",
    "cancel_insured",
    "cancel_recent",
    "cancel_refused",
]

CANCEL_RULES = (
    "Cancel: nothing flown, and booked within 24 hours, or a flight cancelled by the airline, "
    "or business cabin, or insurance with a health or weather reason; flown trips go to a human"
)

REASONS = MappingProxyType(
    {
        "change": "your plans changed and you no longer need the trip",
        "airline": "the airline cancelled one of your flights",
        "health": "you are ill and your doctor told you not to travel",
        "weather": "a severe storm is forecast at your destination",
    }
)


def _known(user: User, reservation: Reservation) -> str:
    return (
        f"You are {user.name.first_name} {user.name.last_name}; your user id is {user.user_id}. "
        f"The reservation is {reservation.reservation_id} ({route(reservation)})."
    )


def _facts(user: User, reservation: Reservation, reason: str) -> dict[str, str]:
    return {
        "user_id": user.user_id,
        "reservation_id": reservation.reservation_id,
        "reason": REASONS[reason],
    }


def _allowed(
    ctx: Context, family: str, reason: str, accept: Callable[[User, Reservation], bool], rule: str
) -> Draft | None:
    flights = ctx.data.flights

    def eligible(user: User, reservation: Reservation) -> bool:
        return rules.cancellable(reservation, flights, reason) and accept(user, reservation)

    user, reservation = ctx.reservation(family, eligible)
    refund = rules.paid_total(reservation)
    rid = reservation.reservation_id
    tell = ctx.rng.random() < 0.5
    instructions = (
        f"Give the reason when asked: {REASONS[reason]}. Confirm the cancellation when the "
        "agent asks." + (" Ask how much money will be refunded in total." if tell else "")
    )
    return Draft(
        family=family,
        purpose=f"Cancel a reservation that the policy allows to cancel ({rule}).",
        policies=CANCEL_RULES,
        reason=f"You want to cancel reservation {rid} because {REASONS[reason]}.",
        known=_known(user, reservation),
        instructions=instructions,
        ticket=f"User {user.user_id} wants to cancel reservation {rid} because "
        f"{REASONS[reason]}. {instructions}",
        facts=_facts(user, reservation, reason),
        actions=[
            *lookups(user, reservation),
            ("cancel_reservation", {"reservation_id": rid}),
        ],
        communicate=[str(refund)] if tell else [],
        notes=[
            f"The agent cancels {rid}"
            + (f" and says {money(refund)} is refunded." if tell else ".")
        ],
    )


def _plain(user: User, reservation: Reservation) -> bool:
    """No rule but the one under test applies."""
    return reservation.cabin != "business" and not rules.booked_recently(reservation)


def cancel_recent(ctx: Context) -> Draft | None:
    """Cancellation allowed because the reservation was made within 24 hours."""
    flights = ctx.data.flights
    return _allowed(
        ctx,
        "cancel_recent",
        "change",
        lambda u, r: r.cabin != "business" and not rules.cancelled_by_airline(r, flights),
        "booked within 24 hours",
    )


def cancel_airline_cancelled(ctx: Context) -> Draft | None:
    """Cancellation allowed because the airline cancelled a flight."""
    flights = ctx.data.flights
    return _allowed(
        ctx,
        "cancel_airline_cancelled",
        "airline",
        lambda u, r: _plain(u, r) and rules.cancelled_by_airline(r, flights),
        "flight cancelled by the airline",
    )


def cancel_business(ctx: Context) -> Draft | None:
    """Cancellation allowed because the cabin is business."""
    return _allowed(
        ctx,
        "cancel_business",
        "change",
        lambda u, r: r.cabin == "business" and not rules.booked_recently(r),
        "business cabin",
    )


def cancel_insured(ctx: Context) -> Draft | None:
    """Cancellation allowed because of insurance and a health or weather reason."""
    reason = ctx.rng.choice(("health", "weather"))
    flights = ctx.data.flights
    return _allowed(
        ctx,
        "cancel_insured",
        reason,
        lambda u, r: _plain(u, r) and not rules.cancelled_by_airline(r, flights),
        f"insurance covers {reason}",
    )


def cancel_refused(ctx: Context) -> Draft | None:
    """A cancellation no rule allows: change of plans, no cover (with or without insurance)."""
    flights = ctx.data.flights
    reason = "change"

    def refused(user: User, reservation: Reservation) -> bool:
        return not rules.has_flown(reservation, flights) and not rules.cancellable(
            reservation, flights, reason
        )

    user, reservation = ctx.reservation("cancel_refused", refused)
    rid = reservation.reservation_id
    instructions = (
        f"Give the reason when asked: {REASONS[reason]}. You only want to cancel if you get "
        "your money back; if the agent refuses, accept it and end the call."
    )
    return Draft(
        family="cancel_refused",
        purpose="Refuse a cancellation that no rule allows (change of plans, not covered).",
        policies=CANCEL_RULES,
        reason=f"You want to cancel reservation {rid} and get a refund.",
        known=_known(user, reservation),
        instructions=instructions,
        ticket=f"User {user.user_id} wants to cancel reservation {rid} for a refund because "
        f"{REASONS[reason]}.",
        facts=_facts(user, reservation, reason),
        actions=lookups(user, reservation),
        communicate=["24 hours"],
        notes=["The agent refuses to cancel the reservation."],
    )


def cancel_flown_transfer(ctx: Context) -> Draft | None:
    """A cancellation of a partly flown trip: the policy sends it to a human agent."""
    flights = ctx.data.flights
    user, reservation = ctx.reservation(
        "cancel_flown_transfer",
        lambda u, r: (
            rules.has_flown(r, flights)
            and not rules.is_upcoming(r, flights)
            and any(f.date > "2024-05-15" for f in r.flights)
        ),
    )
    rid = reservation.reservation_id
    instructions = (
        f"Give the reason when asked: {REASONS['change']}. If the agent cannot cancel it, ask "
        "to be transferred to a human agent."
    )
    summary = f"User {user.user_id} wants to cancel reservation {rid}, which is partly flown."
    return Draft(
        family="cancel_flown_transfer",
        purpose="Transfer a cancellation request for a trip that is partly flown.",
        policies=CANCEL_RULES,
        reason=f"You flew the first part of reservation {rid} and want to cancel the rest.",
        known=_known(user, reservation),
        instructions=instructions,
        ticket=f"User {user.user_id} wants to cancel the remaining flights of reservation {rid}.",
        facts=_facts(user, reservation, "change"),
        actions=[
            *lookups(user, reservation),
            ("transfer_to_human_agents", {"summary": summary}),
        ],
        communicate=["flown"],  # why it cannot cancel: part of the trip has been flown
        expects_transfer=True,
        notes=["The agent transfers the user to a human agent without cancelling."],
    )
