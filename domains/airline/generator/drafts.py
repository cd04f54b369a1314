"""A task in the making: what a family of the generator fills in, and how it becomes a `Task`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tau_env.domains.airline.data_model import Passenger, Reservation
from tau_env.tasks.model import Task
from tau_env.tasks.scenario_reading import with_details

__all__ = ["Draft", "money", "people", "route"]


@dataclass
class Draft:
    """Everything one generated task says, before it gets its id.

    Attributes:
        family: The task family (the id prefix and the split stratum).
        purpose: What the task tests, for reviewers.
        policies: The policy rules it exercises.
        reason: The user's reason for calling (scenario).
        known: What the user knows (scenario).
        instructions: How the user behaves (scenario).
        ticket: The whole request in one paragraph, for No-User mode.
        facts: What the user can tell when asked, by key; written into the scenario's known
            info as "Details you can give when asked: <key words>: <value>; ...".
        actions: The gold plan as (tool, arguments).
        communicate: Values the agent must say.
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
        """The finished task, in the reference's task layout."""
        transfer: dict[str, Any] = {"compare_args": []}
        # A transfer changes nothing in the database, so under DB x COMMUNICATE an agent that
        # does nothing would pass; the ACTION check makes the transfer itself required.
        basis = ["DB", "ACTION"] if self.expects_transfer else ["DB", "COMMUNICATE"]
        actions = [
            {
                "action_id": f"{task_id}_{i}",
                "name": name,
                "arguments": arguments,
                **(transfer if self.expects_transfer else {}),
            }
            for i, (name, arguments) in enumerate(self.actions)
        ]
        return Task.model_validate(
            {
                "id": task_id,
                "description": {"purpose": self.purpose, "relevant_policies": self.policies},
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
