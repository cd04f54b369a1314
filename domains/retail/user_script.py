"""What the scripted user needs to know about retail scenarios: order ids.

Everything else (names, zip codes, e-mails, wishes such as "exchange" or "return", questions,
reactions) the shared reading finds in any scenario (`tau_env.tasks.scenario_reading`).
"""

from __future__ import annotations

from tau_env.tasks.scenario_reading import ScenarioVocabulary
from tau_env.tasks.user_vocabulary import UserVocabulary

__all__ = ["ORDER_ID", "USER_VOCABULARY"]

ORDER_ID = r"#W\d{7}\b"
"""An order id: ``#W`` and seven digits."""

USER_VOCABULARY = UserVocabulary(
    scenario=ScenarioVocabulary(fact_patterns=(("order_id", ORDER_ID),))
)
"""The retail domain's `UserVocabulary`."""
