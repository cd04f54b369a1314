"""What the scripted user needs to know about airline scenarios: reservation codes.

Everything else (names, user ids, wishes such as "cancel" or "book", questions, reactions)
the shared reading finds in any scenario (`tau_env.tasks.scenario_reading`).
"""

from __future__ import annotations

from tau_env.tasks.scenario_reading import ScenarioVocabulary
from tau_env.tasks.user_vocabulary import UserVocabulary

__all__ = ["RESERVATION_ID", "USER_VOCABULARY"]

RESERVATION_ID = r"\b(?!HAT\d{3}\b)(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{6}\b"
"""Six capitals and digits with both kinds, but not a flight number such as HAT045."""

USER_VOCABULARY = UserVocabulary(
    scenario=ScenarioVocabulary(fact_patterns=(("reservation_id", RESERVATION_ID),))
)
"""The airline domain's `UserVocabulary`."""
