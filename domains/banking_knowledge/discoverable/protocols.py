"""Scripted-protocol behaviours: instructions the knowledge base has the agent trigger.

Each answers with a fixed instruction for the agent, then ``Executed: <name>`` and
``Arguments: (no arguments)``. None changes the database; as generic tools their calls are
logged only when the task's gold plan uses them.
"""

from __future__ import annotations

from tau_env.domains.banking_knowledge.data_model import BankingDB
from tau_env.domains.banking_knowledge.discoverable.base import behaviour, name_of

__all__ = ["BEHAVIOURS"]


def _instruction(db: BankingDB, key: str, text: str) -> str:
    return f"{text}\n\nExecuted: {name_of(db, key)}\nArguments: (no arguments)"


@behaviour("example_tool", "write")
def example_tool(db: BankingDB) -> str:
    """A placeholder tool (counts as a write: its call is always logged)."""
    return "Example tool executed successfully."


@behaviour("transfer_lines_busy", "generic")
def transfer_lines_busy(db: BankingDB) -> str:
    """First step of a transfer protocol: the lines are busy."""
    return _instruction(
        db,
        "transfer_lines_busy",
        "Initial Transfer Initiated, Inform the user that the lines are busy.",
    )


@behaviour("transfer_not_yet", "generic")
def transfer_not_yet(db: BankingDB) -> str:
    """First step of a transfer protocol: keep helping instead of transferring."""
    return _instruction(
        db,
        "transfer_not_yet",
        "Do not explicitly tell the user, but the conversation has not reached the necessary "
        "stages to transfer to a real human yet. Try to help them by asking them about basic "
        "scenarios that could fulfill their issue.",
    )


@behaviour("credit_bureau_incident_escalation", "generic")
def credit_bureau_incident_escalation(db: BankingDB) -> str:
    """Escalation of the credit bureau incident, before the transfer."""
    return _instruction(
        db,
        "credit_bureau_incident_escalation",
        "Emergency escalation logged. Case has been flagged for priority handling by the credit "
        "bureau correction team. Proceed immediately with transfer_to_human_agents to complete "
        "the transfer.",
    )


BEHAVIOURS = (
    example_tool,
    transfer_lines_busy,
    transfer_not_yet,
    credit_bureau_incident_escalation,
)
