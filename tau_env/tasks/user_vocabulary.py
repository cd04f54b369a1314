"""What a domain tells the scripted user: how to read its scenarios and how to report its tools.

`UserVocabulary` is the whole plug-in of a domain for the offline user: a `ScenarioVocabulary`
(patterns the shared scenario reading adds for the domain) and a `ReportLexicon` (how a user
says in their own words what their tools showed, which tool a novice confuses with which, and
what a novice may misread). Both are plain data; a domain without user tools and with
ordinary scenarios needs neither (`UserVocabulary()` reads every scenario generically).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tau_env.tasks.scenario_reading import ScenarioVocabulary

__all__ = ["ReportLexicon", "UserVocabulary"]

_GENERIC_SCENARIO = ScenarioVocabulary()
"""The one generic reading: `read_scenario` caches per vocabulary *object* (they compare by
identity), so every `UserVocabulary()` shares it and a scenario text is read once, not once
per episode."""


@dataclass(frozen=True, eq=False)
class ReportLexicon:
    """How a user paraphrases tool results (regexes over one line of a tool's output).

    Attributes:
        lines: ``(pattern, alternatives)``: a line matching ``pattern`` (whole line) is said
            as one of the alternatives, ``{1}``, ``{2}``... standing for the pattern's groups
            and ``{on:1}`` for group 1 said as a switch state (on/off words).
        tokens: ``(text, alternatives)``: literal parts (status icons...) said in words.
        tool_phrases: ``(tool, alternatives)``: what the user says they did ("I restarted
            the phone") before reporting the result.
        neighbours: ``(tool, other)``: the tool a novice runs instead of the one asked for.
        misreads: ``(text, instead)``: what a novice may read instead of a literal part.
    """

    lines: tuple[tuple[str, tuple[str, ...]], ...] = ()
    tokens: tuple[tuple[str, tuple[str, ...]], ...] = ()
    tool_phrases: tuple[tuple[str, tuple[str, ...]], ...] = ()
    neighbours: tuple[tuple[str, str], ...] = ()
    misreads: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, eq=False)
class UserVocabulary:
    """A domain's additions for the scripted user (see the module docstring)."""

    scenario: ScenarioVocabulary = _GENERIC_SCENARIO
    reports: ReportLexicon = field(default_factory=ReportLexicon)
