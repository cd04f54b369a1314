"""A task in the making: what a family of the generator fills in, and how it becomes a `Task`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tau_env.domains.airline.data_model import Passenger, Reservation
from tau_env.tasks.model import Task
from tau_env.tasks.scenario_reading import with_details

__all__ = ["WRITE_TOOLS", "Draft", "money", "people", "route"]

WRITE_TOOLS = frozenset(
    {
        "book_reservation",
        "cancel_reservation",
        "send_certificate",
        "update_reservation_baggages",
        "update_reservation_flights",
        "update_reservation_passengers",
    }
)
"""The airline tools that change the database (a gold plan without them changes nothing)."""


@dataclass
class Draft:
    """Everything one generated task says, before it gets its id.

    Attributes:
        family: The task family (the split stratum, kept in the task's description).
        purpose: What the task tests, for reviewers.
        policies: The policy rules it exercises.
        reason: The user's reason for calling (scenario).
        known: What the user knows (scenario).
        instructions: How the user behaves (scenario).
        ticket: The whole request in one paragraph, for No-User mode.
        facts: What the user can tell when asked, by key; written into the scenario's known
            info as "Details you can give when asked: <key words>: <value>; ...".
        actions: The gold plan as (tool, arguments).
        communicate: Values the agent must say. A task whose gold plan writes nothing (a
            refusal, a question) must name at least one: the reason of the refusal in the
            policy's words, or the figure asked for.
        expects_transfer: A transfer is the right outcome (grading only: the user is told
            nothing of it).
        unknown: What the user does not know (scenario), if worth saying.
        notes: Extra expectations, as natural-language assertions (diagnostic only).
    """

    family: str
    purpose: str
    policies: str
    reason: str
    known: str
    instructions: str
    ticket: str
    facts: dict[str, str]
    actions: list[tuple[str, dict[str, Any]]]
    communicate: list[str] = field(default_factory=list)
    expects_transfer: bool = False
    unknown: str | None = None
    notes: list[str] = field(default_factory=list)

    def to_task(self, task_id: str) -> Task:
        """The finished task, in the reference's task layout.

        The basis is chosen so that an agent that does not do the work fails (issue 45's
        audit, `tau_env.audit`): a transfer changes nothing in the database, so ACTION makes
        the transfer call itself required (DB x ACTION); a task whose right outcome changes
        nothing (a refusal, a question) needs the gold plan's look-ups and the reason or
        figure said (DB x ACTION x COMMUNICATE); every other task DB x COMMUNICATE.

        Raises:
            ValueError: A task whose gold plan writes nothing names nothing to communicate.
        """
        transfer: dict[str, Any] = {"compare_args": []}
        changes = any(name in WRITE_TOOLS for name, _ in self.actions)
        if self.expects_transfer:
            basis = ["DB", "ACTION"]
        elif not changes:
            if not self.communicate:
                raise ValueError(f"{task_id}: a task that changes nothing must name what to say")
            basis = ["DB", "ACTION", "COMMUNICATE"]
        else:
            basis = ["DB", "COMMUNICATE"]
        actions = [
            {
                "action_id": f"{name}_{i}",
                "name": name,
                "arguments": arguments,
                **(transfer if self.expects_transfer else {}),
            }
            for i, (name, arguments) in enumerate(self.actions)
        ]
        return Task.model_validate(
            {
                "id": task_id,
                "description": {
                    "purpose": self.purpose,
                    "relevant_policies": self.policies,
                    "family": self.family,
                },
                "user_scenario": {
                    "persona": None,
                    "instructions": {
                        "domain": "airline",
                        "reason_for_call": self.reason,
                        "known_info": with_details(self.known, self.facts),
                        "unknown_info": self.unknown,
                        "task_instructions": self.instructions,
                    },
                },
                "ticket": self.ticket,
                "evaluation_criteria": {
                    "actions": actions,
                    "communicate_info": self.communicate,
                    "nl_assertions": self.notes,
                    "reward_basis": basis,
                },
            }
        )


def money(amount: float) -> str:
    """Dollars as the agent would say them: ``$1234``."""
    return f"${amount:g}"


def people(passengers: list[Passenger]) -> str:
    """Passengers as a reader would list them: names and dates of birth."""
    return " and ".join(f"{p.first_name} {p.last_name}, born {p.dob}" for p in passengers)


def route(reservation: Reservation) -> str:
    """``JFK to SEA, round trip`` for a reservation."""
    kind = "round trip" if reservation.flight_type == "round_trip" else "one way"
    return f"{reservation.origin} to {reservation.destination}, {kind}"
