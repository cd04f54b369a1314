"""What a built-in airline refusal or information task must not hear (`forbidden_info`).

Two kinds of facts, chosen per case (`domains.forbidden` holds the shared rules):

- the reason phrases of the policy's rules that do not apply: each phrase below names one
  rule in the policy's words, with the cases where an honest answer may still say it (the
  rule applies, or the reservation has that property). A recital of the policy says them all.
- the figures of the customer's payment methods (gift card and certificate amounts, card
  digits): no refusal or question here needs them, and a dump of every looked-up value says
  them. A figure that the reservation itself or the answer holds is left out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tau_env.domains.airline.data_model import AirlineData, CreditCard, Reservation, User
from tau_env.domains.airline.generator import rules
from tau_env.domains.airline.generator.drafts import Draft
from tau_env.domains.forbidden import reason_phrases, unsaid

__all__ = ["REASONS", "Case", "forbidden_facts"]


@dataclass(frozen=True)
class Case:
    """What a task is about, as its gold look-ups name it."""

    draft: Draft
    user: User | None
    reservation: Reservation | None
    flown: bool


def _cancelling(case: Case) -> bool:
    return case.draft.family.startswith("cancel")


def _cabin_is_basic(case: Case) -> bool:
    reservation = case.reservation
    return reservation is not None and reservation.cabin == "basic_economy"


def _family_in(*families: str) -> Callable[[Case], bool]:
    return lambda case: case.draft.family in families


def _communicates(word: str) -> Callable[[Case], bool]:
    return lambda case: word in case.draft.communicate


REASONS: dict[str, Callable[[Case], bool]] = {
    "24 hours": _cancelling,
    "basic economy": lambda case: (
        _cabin_is_basic(case)
        or _family_in("change_refused_basic", "compensation_refused", "book_refused")(case)
    ),
    "destination": _family_in("change_refused_route", "book_refused"),
    "flown": lambda case: case.flown,
    "removed": _communicates("removed"),
    "after booking": _communicates("after booking"),
    "number of passengers": _family_in("passenger_count_refused", "book_refused"),
    "five": _family_in("passenger_count_refused", "book_refused"),
}
"""Reason phrases of the policy's rules -> when an honest answer may say the phrase."""

_REASON_PHRASES = reason_phrases(REASONS)
"""Each phrase of `REASONS` cut into words (`unsaid` reads them)."""

_PAYMENT_FAMILIES = frozenset({"book_refused"})
"""Families whose answer may name the customer's payment methods."""


def forbidden_facts(draft: Draft, data: AirlineData) -> list[str]:
    """The facts the task of `draft` (a refusal or a question) must not hear.

    The user and reservation are the ones its gold plan looks up. Every phrase of `REASONS`
    is in the policy's words (`draw_tasks` checks it once per draw).
    """
    user = reservation = None
    for name, arguments in draft.actions:
        if name == "get_user_details":
            user = data.users[arguments["user_id"]]
        elif name == "get_reservation_details":
            reservation = data.reservations[arguments["reservation_id"]]
    flown = reservation is not None and rules.has_flown(reservation, data.flights)
    case = Case(draft, user, reservation, flown)
    reasons = [phrase for phrase, may_say in REASONS.items() if not may_say(case)]
    figures: list[str] = []
    if user is not None and draft.family not in _PAYMENT_FAMILIES:
        for method in user.payment_methods.values():
            if isinstance(method, CreditCard):
                figures.append(method.last_four)
            else:
                figures.append(f"{method.amount:g}")
    allowed = list(draft.communicate)
    if reservation is not None:
        allowed.append(reservation.model_dump_json())
    return unsaid(reasons, draft.communicate, _REASON_PHRASES) + unsaid(figures, allowed)
