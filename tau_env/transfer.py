"""The hand-over to a human agent: the tool every domain shares and what the agent then says.

Every τ²-bench domain has an agent tool ``transfer_to_human_agents``; the policies tell the
agent to follow it with a fixed announcement, which the user simulator answers with
``###TRANSFER###``. Oracles, templates, generators and users name them from here only.
"""

from __future__ import annotations

from typing import Final

__all__ = ["TRANSFER_ANNOUNCEMENT", "TRANSFER_TOOL"]

TRANSFER_TOOL: Final = "transfer_to_human_agents"
"""The agent tool whose call hands the conversation to a human (every domain has it)."""

TRANSFER_ANNOUNCEMENT: Final = "YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON."
"""What the policies tell the agent to say right after `TRANSFER_TOOL`."""
