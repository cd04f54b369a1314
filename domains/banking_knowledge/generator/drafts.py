"""A task as it is being written: scenario, gold plan, grading, documents; and its file form.

`Plan` writes gold steps the way the bank's documents prescribe them: identity logged first,
each discoverable tool unlocked before its first call, customer-side steps with the
customer's tools. `Draft.to_task` renders the task in the reference's per-task layout, which
`bank_data` loads like an official task (the scripted user reads its scenario text alone).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from tau_env.domains.banking_knowledge.generator.people import Person

__all__ = ["TIME_VERIFIED", "Draft", "Plan", "Scenario"]

TIME_VERIFIED = "2025-11-14 03:40:00 EST"
"""What ``get_current_time`` gives, the time every verification is logged with."""


@dataclass
class Plan:
    """The gold actions of one task, in order (action ids are given when the task is rendered).

    Attributes:
        steps: ``(requestor, tool, arguments, compare_args)`` tuples.
    """

    steps: list[tuple[str, str, dict[str, Any], list[str] | None]] = field(default_factory=list)
    _unlocked: set[str] = field(default_factory=set)

    def agent(self, tool: str, compare_args: list[str] | None = None, **arguments: Any) -> Plan:
        """A call of one of the agent's own tools."""
        return self.add("assistant", tool, arguments, compare_args)

    def add(
        self,
        requestor: str,
        tool: str,
        arguments: dict[str, Any],
        compare_args: list[str] | None = None,
    ) -> Plan:
        """A step of either side."""
        self.steps.append((requestor, tool, arguments, compare_args))
        return self

    def user(self, tool: str, **arguments: Any) -> Plan:
        """A call of one of the customer's own tools."""
        self.steps.append(("user", tool, arguments, None))
        return self

    def verify(self, person: Person) -> Plan:
        """Log the customer's verified identity with their record's values."""
        arguments: dict[str, Any] = {**person.record(), "time_verified": TIME_VERIFIED}
        return self.add("assistant", "log_verification", arguments)

    def call(self, tool: str, **arguments: Any) -> Plan:
        """Unlock a discoverable agent tool (first use only), then call it."""
        if tool not in self._unlocked:
            self._unlocked.add(tool)
            self.agent("unlock_discoverable_agent_tool", agent_tool_name=tool)
        return self.agent(
            "call_discoverable_agent_tool", agent_tool_name=tool, arguments=json.dumps(arguments)
        )

    def give(self, tool: str, **arguments: Any) -> Plan:
        """Give the customer a discoverable tool and have them call it with these arguments."""
        self.agent(
            "give_discoverable_user_tool",
            discoverable_tool_name=tool,
            arguments=json.dumps(arguments),
        )
        return self.user(
            "call_discoverable_user_tool",
            discoverable_tool_name=tool,
            arguments=json.dumps(arguments),
        )

    def calls(self, tool: str) -> list[dict[str, Any]]:
        """Arguments of every call of a discoverable agent tool, decoded."""
        return [
            json.loads(arguments["arguments"])
            for _, name, arguments, _ in self.steps
            if name == "call_discoverable_agent_tool" and arguments["agent_tool_name"] == tool
        ]


@dataclass
class Scenario:
    """What the simulated customer is told (second person) and what they open with.

    Attributes:
        reason: Why they call (``reason_for_call``).
        known: What they know about themselves (``known_info``).
        wishes: How they want it handled, what they accept or refuse (``task_instructions``).
        opening: Their first message (first person).
        facts: What they answer when asked, by key; every value appears in `known` or `wishes`.
        accepts: Offers they agree to, as keywords that appear in `wishes`.
        asks_for_transfer: They ask for a human when the agent says it cannot help (the
            rendered wishes say so).
    """

    reason: str
    known: str
    wishes: str
    opening: str
    facts: dict[str, str]
    accepts: list[str] = field(default_factory=lambda: ["confirm"])
    asks_for_transfer: bool = False


@dataclass
class Draft:
    """One task before it gets its id.

    Attributes:
        family: Product family (decides the split).
        kind: Task kind within the family.
        purpose: One line for reviewers.
        notes: The intended solution in words (never shown to agent or customer).
        scenario: The customer's brief.
        plan: The gold actions.
        basis: Reward basis.
        user_tools: The customer's tools.
        documents: Ids of the documents the task needs (the golden-retrieval prompt).
        agent_data: Patch of the initial database, reference layout (None: untouched).
        communicate: What the agent must say (``communicate_info``), for a basis with
            COMMUNICATE.
    """

    family: str
    kind: str
    purpose: str
    notes: str
    scenario: Scenario
    plan: Plan
    basis: list[str]
    user_tools: list[str]
    documents: list[str]
    agent_data: dict[str, Any] | None = None
    communicate: list[str] = field(default_factory=list)

    def to_task(self, task_id: str) -> dict[str, Any]:
        """The task in the reference's per-task layout, plus the scripted user's brief."""
        scenario = self.scenario
        actions = []
        for number, (requestor, name, arguments, compare) in enumerate(self.plan.steps):
            action: dict[str, Any] = {
                "action_id": f"{name}_{number}",
                "requestor": requestor,
                "name": name,
                "arguments": arguments,
            }
            if compare is not None:
                action["compare_args"] = compare
            actions.append(action)
        wishes = f'You open the call by saying: "{scenario.opening}" {scenario.wishes}'
        if "confirm" in scenario.accepts and "confirm" not in wishes.lower():
            wishes += " If the agent asks you to confirm what you asked for, confirm it."
        if scenario.asks_for_transfer:
            wishes += " If the agent says it cannot help you, ask to be transferred to a human."
        initial = None
        if self.agent_data:
            initial = {"initialization_data": {"agent_data": self.agent_data}}
        return {
            "id": task_id,
            "description": {
                "purpose": self.purpose,
                "notes": self.notes,
                "family": self.kind,
                "parameters": {"product": self.family},
            },
            "user_scenario": {
                "instructions": {
                    "domain": "banking_knowledge",
                    "reason_for_call": scenario.reason,
                    "known_info": scenario.known,
                    "task_instructions": wishes,
                }
            },
            "initial_state": initial,
            "evaluation_criteria": {
                "actions": actions,
                **({"communicate_info": self.communicate} if self.communicate else {}),
                "reward_basis": self.basis,
            },
            "user_tools": self.user_tools,
            "required_documents": self.documents,
        }
