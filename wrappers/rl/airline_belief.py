"""What an airline agent knows so far, read from the messages it really receives.

`AirlineBelief` holds what the customer asked for (read from the opening: cancel, free bags,
more bags, compensation, a passenger's new details, or something the featurized agent can
only refuse or transfer), the facts the customer gave (user id, reservation code, reason, bags,
payment, the passenger to change), and the records
the agent's tools returned (the user, reservations, flight statuses). Nothing is read from the
task or the gold plan.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from tau_env.wrappers.rl.desk import DeskBelief

__all__ = ["INTENTS", "AirlineBelief", "reason_kind"]

INTENTS: tuple[str, ...] = (
    "cancel",
    "allowance",
    "bags",
    "compensation",
    "insurance",
    "book",
    "change",
    "passengers",
    "passenger_details",
    "other",
)
"""What an airline customer can call about."""

_INTENT_WORDS = (
    ("allowance", r"how many checked bags|bags? (?:can|travel) (?:we take )?(?:for )?free"),
    ("compensation", r"compensation|upset|what are you going to do about it"),
    ("insurance", r"\binsurance\b"),
    ("bags", r"more (?:suitcases?|bags?|checked bags?)|add (?:\w+ )?(?:checked )?bags"),
    ("cancel", r"\bcancel\b"),
    ("book", r"\bbook\b"),
    ("passenger_details", r"passenger's (?:details|info)"),
    ("passengers", r"passenger"),
    (
        "change",
        r"another day|move the flights|different city|economy|business|upgrade|change|"
        r"remove|delayed",
    ),
)
_RESERVATION = re.compile(r"\b(?!HAT\d{3}\b)(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{6}\b")
_USER_ID = re.compile(r"\b[a-z]+_[a-z]+_\d+\b")
_DATE = r"(\d{4}-\d{2}-\d{2})"
_NEW_BIRTH_DATE = re.compile(
    rf"date of birth of ([A-Za-z]+) ([A-Za-z]+) (?:[a-z]+ ){{1,3}}?{_DATE}"
)
_REPLACED = re.compile(
    rf"([A-Za-z]+) ([A-Za-z]+) (?:is|should be|must be) replaced by ([A-Za-z]+) ([A-Za-z]+) "
    rf"\(born {_DATE}\)"
)


def passenger_change(text: str) -> tuple[tuple[str, str], dict[str, str]] | None:
    """The passenger a customer's message asks to change, and the new details.

    ``((first, last), {"first_name": ..., "last_name": ..., "dob": ...})`` for "the date of
    birth of A B should be D" (or "is actually D"...; the name stays) or "A B is replaced by
    C D (born D)"; None when the message asks neither.
    """
    if found := _NEW_BIRTH_DATE.search(text):
        first, last, dob = found.groups()
        return (first, last), {"first_name": first, "last_name": last, "dob": dob}
    if found := _REPLACED.search(text):
        first, last, new_first, new_last, dob = found.groups()
        return (first, last), {"first_name": new_first, "last_name": new_last, "dob": dob}
    return None


def reason_kind(text: str) -> str:
    """The cancellation reason's kind: ``health``, ``weather``, ``airline`` or ``change``."""
    lowered = text.lower()
    if re.search(r"ill\b|sick|doctor|health|medical", lowered):
        return "health"
    if "weather" in lowered or "storm" in lowered:
        return "weather"
    if "airline cancelled" in lowered or "cancelled one of" in lowered:
        return "airline"
    return "change"


@dataclass
class AirlineBelief(DeskBelief):
    """The agent's knowledge in one airline episode (see the module docstring).

    Attributes:
        intents: What the customer asked for.
        request: The customer's opening, lowercased (what exactly it asks for).
        user: The user's record; ``reservations`` reservation records by code.
        statuses: (flight number, date) -> status (``available``, ``cancelled``, ``landed``...).
        certificates: Certificates sent.
        passenger: The passenger to change and the new details (`passenger_change`).
    """

    request: str = ""
    user: dict[str, Any] | None = None
    reservations: dict[str, dict[str, Any]] = field(default_factory=dict)
    statuses: dict[tuple[str, str], str] = field(default_factory=dict)
    certificates: list[int] = field(default_factory=list)
    passenger: tuple[tuple[str, str], dict[str, str]] | None = None

    def read_customer(self, text: str, *, opening: bool) -> None:
        """The opening's wishes; user ids and reservation codes anywhere."""
        if opening:
            lowered = self.request = text.lower()
            found = [name for name, words in _INTENT_WORDS if re.search(words, lowered)]
            self.intents = {found[0]} if found else {"other"}
        if user := _USER_ID.search(text):
            self.facts.setdefault("user_id", user.group())
        if code := _RESERVATION.search(text):
            self.facts.setdefault("reservation_id", code.group())
        if self.passenger is None:
            self.passenger = passenger_change(text)

    def read_tool_result(self, tool: str, content: str, error: bool) -> None:
        """Update from the result of one of the agent's own tool calls."""
        if error:
            return
        if tool == "get_flight_status":
            self._pending_status(content)
            return
        if tool == "send_certificate":
            self.done.append(tool)
            return
        try:
            data: Any = json.loads(content)
        except ValueError:
            return
        if not isinstance(data, dict):
            return
        if tool == "get_user_details":
            self.user = data
        elif "reservation_id" in data:
            self.reservations[str(data["reservation_id"])] = data
            if tool != "get_reservation_details":
                self.done.append(tool)

    # The flight a status answers is the one asked last (set by the template).
    asked_flight: tuple[str, str] | None = None

    def _pending_status(self, content: str) -> None:
        if self.asked_flight is not None:
            self.statuses[self.asked_flight] = content.strip().strip('"')
            self.asked_flight = None

    # -- derived facts -------------------------------------------------------------------------
    @property
    def user_id(self) -> str | None:
        """The user id, once the lookup confirmed it."""
        return str(self.user["user_id"]) if self.user else None

    @property
    def target(self) -> dict[str, Any] | None:
        """The reservation the customer means, once looked up."""
        return self.reservations.get(self.facts.get("reservation_id", ""))

    def unknown_statuses(self) -> list[tuple[str, str]]:
        """Flights of the target reservation whose status is not known yet."""
        target = self.target
        flights = [(f["flight_number"], f["date"]) for f in (target or {}).get("flights", [])]
        return [flight for flight in flights if flight not in self.statuses]

    def flight_statuses(self) -> list[str]:
        """The known statuses of the target reservation's flights."""
        target = self.target or {}
        return [
            self.statuses[(f["flight_number"], f["date"])]
            for f in target.get("flights", [])
            if (f["flight_number"], f["date"]) in self.statuses
        ]
