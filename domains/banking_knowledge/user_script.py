"""What the scripted user needs to know about banking scenarios: openings and customer details.

Banking scenarios state the line the customer opens with: built-in ones say ``You open the call
by saying: "..."``; official ones are free text, with an ``Opening`` (or ``Start naturally``)
step and quoted lines under ``## Conversation Flow``, or ``**Your goal:**`` /
``**Your situation:**`` sections, or else a second paragraph that says why the customer calls.
They also state details in their own layout (``named <Name>``, ``Address: ...``, dates of
birth as ``MM/DD/YYYY``, bare phone numbers). Everything else (wishes, questions, asking for a
human) the shared reading finds in any scenario (`tau_env.tasks.scenario_reading`). How the
customer reads the agent's requests for its own tools (apply for a card, refer, submit a
transaction, ask for a human, call a tool the agent gave it) is ``request_words.toml``.
"""

from __future__ import annotations

from tau_env.data_files import builtin_toml
from tau_env.tasks.scenario_reading import ScenarioVocabulary
from tau_env.tasks.user_vocabulary import RequestLexicon, UserVocabulary

__all__ = ["USER_VOCABULARY"]

_QUOTED = r"[\"“](?P<line>[^\"“”\n#]{12,})[\"”]"
"""A quoted line the customer says (at least 12 characters, no stop token)."""

_NAME = r"[A-Z][\w.'-]+(?: [A-Z][\w.'-]+)+"

OPENINGS: tuple[tuple[str, bool], ...] = (
    (r"You open the call by saying: " + _QUOTED, True),
    (r"\*\*(?:Opening|Start naturally)[^*\n]*\*\*[^\n]*?\n?[^\n]*?" + _QUOTED, True),
    (r"(?im)^#+\s*(?:Conversation Flow|How to Behave)[\s\S]*?" + _QUOTED, True),
    (r"\*\*Your goal:\*\*\s*(?P<line>[^\n#]+)", False),
    (r"\*\*Your situation:\*\*\s*(?P<line>[^\n#]+)", False),
    (r"\A[^\n]*(?:\n[^\n]+)*\n\s*\n\s*(?P<line>[^\n#]+)", False),
)
"""Where a banking scenario states the opening line, in order of preference."""

FACT_PATTERNS: tuple[tuple[str, str], ...] = (
    ("name", r"(?:[Ff]ull name|Name):\s*(" + _NAME + ")"),
    ("name", r"\*\*Your character:\*\*\s*(?:You are )?(" + _NAME + "),"),
    ("name", r"named (" + _NAME + ")"),
    ("user_id", r"(?i)user[ _]?id(?:\s+is|:)?\s*[`\"']?([A-Za-z0-9_]*\d[A-Za-z0-9_]*)"),
    ("phone_number", r"\b\d{3}-\d{3}-\d{4}\b"),
    ("date_of_birth", r"(?i)(?:DOB|date of birth)[^0-9\n]{0,20}(\d{1,2}/\d{1,2}/\d{4})"),
    (
        "address",
        r"(?im)(?:home address is|(?:^|\|)[^\w\n]*Address:)\s*([^|\n;]+?)\s*"
        r"(?:\||;|\.(?=\s+[A-Z])|\.?$)",
    ),
)
"""Customer details in the layouts banking scenarios use."""

OFFERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"accept the highest limit", ("limit",)),
    (r"offers to waive [^.]*, take the offer", ("waive",)),
)
"""Offers banking scenarios tell the customer to take, in their own words."""

REQUESTS = RequestLexicon.from_toml(builtin_toml(__package__, "request_words.toml"))
"""How the customer reads requests for its own tools (``request_words.toml``)."""

USER_VOCABULARY = UserVocabulary(
    scenario=ScenarioVocabulary(fact_patterns=FACT_PATTERNS, offers=OFFERS, openings=OPENINGS),
    requests=REQUESTS,
)
"""The banking domain's `UserVocabulary`."""
