"""What the episode viewer shows: each trajectory message tagged with the sides that saw it.

The env gives each side its own view of the conversation (`tau_env.env.conversation`): a tool
result reaches only the side that called the tool, and a message that carries tool calls reaches
no one but its sender. The viewer redraws both views from the stored trajectory, so the
visibility rule is applied here once, in Python, and the page's script only filters on the tag.
"""

from __future__ import annotations

from typing import Any

from tau_env.store.records import EpisodeRecord, ParticipantInfo

__all__ = ["episode_payload", "seen_by"]


def seen_by(message: dict[str, Any]) -> str:
    """The sides that saw a stored message: ``"a"`` (agent), ``"u"`` (user) or ``"au"``.

    Mirrors the env's rule: a tool result is seen by its requestor; a side always sees its own
    messages; the other side sees a message only when it carries no tool calls.
    """
    role = message.get("role")
    if role == "tool":
        return "u" if message.get("requestor") == "user" else "a"
    own = "a" if role == "assistant" else "u"
    if message.get("tool_calls"):
        return own
    return "au"


def _who(side: ParticipantInfo) -> str:
    return f"{side.implementation}({side.model})" if side.model else side.implementation


def episode_payload(record: EpisodeRecord) -> dict[str, Any]:
    """One episode as the page's script reads it (JSON-ready; rendered only on demand).

    Every string here comes from the store and is untrusted: the page inserts it as text,
    never as markup.
    """
    return {
        "run": record.run_id,
        "task": record.task_id,
        "trial": record.trial,
        "seed": record.seed,
        "reward": record.reward,  # None: waits for a judge
        "success": record.success,
        "termination": record.termination,
        "steps": record.steps,
        "duration": record.duration,
        "agent": _who(record.agent),
        "user": _who(record.user),
        "note": record.note,
        "grade": record.grade,
        "messages": [{**message, "seen": seen_by(message)} for message in record.trajectory],
    }
