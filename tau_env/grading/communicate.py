"""COMMUNICATE check: the agent said each required piece of information."""

from __future__ import annotations

from tau_env.grading.context import Episode
from tau_env.grading.outcome import Check, new_check
from tau_env.messages import has_text

__all__ = ["CommunicateGrader"]


class CommunicateGrader:
    """Each ``communicate_info`` string must occur in some agent message text.

    The reference's rule, kept for comparable scores: case-insensitive substring match after
    removing commas from the message (not from the expected string), over every agent message
    with text, including text sent alongside tool calls.
    """

    component = "COMMUNICATE"

    def check(self, episode: Episode) -> Check:
        """Grade one episode."""
        criteria = episode.task.evaluation_criteria
        expected = (criteria.communicate_info if criteria else None) or []
        if not expected:
            return new_check("COMMUNICATE", 1.0)
        said = [
            message.content.lower().replace(",", "")
            for message in episode.trajectory
            if message.role == "assistant"  # (cheaper than `isinstance` on a pydantic class)
            and message.content
            and has_text(message.content)
        ]
        details = [
            {"info": info, "met": any(info.lower() in text for text in said)} for info in expected
        ]
        reward = 1.0 if all(d["met"] for d in details) else 0.0
        return new_check("COMMUNICATE", reward, details)
