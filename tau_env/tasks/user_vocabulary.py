"""What a domain tells the scripted user: how to read its scenarios, requests and tools.

`UserVocabulary` is the whole plug-in of a domain for the offline user: a `ScenarioVocabulary`
(patterns the shared scenario reading adds for the domain), a `RequestLexicon` (the things an
agent may ask the customer to act on, and which user tool does what to which) and a
`ReportLexicon` (how a user says in their own words what their tools showed, which tool a
novice confuses with which, and what a novice may misread). All are plain data; a domain
without user tools and with ordinary scenarios needs none (`UserVocabulary()` reads every
scenario generically, and requests by the words of the tools' names).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tau_env.tasks.scenario_reading import ScenarioVocabulary

__all__ = ["ParameterWords", "ReportLexicon", "RequestLexicon", "ToolWords", "UserVocabulary"]

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


@dataclass(frozen=True)
class ToolWords:
    """Which requests a user tool answers: an action (``does``) on a thing (``on``).

    Attributes:
        does: Actions (the shared ones of ``wrappers/users/understanding.toml`` or the
            domain's own) that ask for the tool.
        on: The domain's objects the tool acts on or shows.
        alone: Actions that ask for the tool with no object named ("Please restart.").
        toggle: The tool flips a switch: asked on and then off, it is run twice.
    """

    does: tuple[str, ...]
    on: tuple[str, ...] = ()
    alone: tuple[str, ...] = ()
    toggle: bool = False


@dataclass(frozen=True)
class ParameterWords:
    """How an agent states a parameter's value in words.

    Attributes:
        say: Words naming the parameter, followed by its value ("annual income of $100,000").
        pattern: A regular expression for the value in the text (group 1, or the whole match).
        facts: The customer's facts that give the value when the text does not.
        read: ``"pairs"``: the value is the JSON object of the ``key value`` pairs the text
            states (snake_case keys), or of a JSON object written in it.
    """

    say: tuple[str, ...] = ()
    pattern: str | None = None
    facts: tuple[str, ...] = ()
    read: str | None = None


@dataclass(frozen=True, eq=False)
class RequestLexicon:
    """The things a domain's customer acts on, and how requests name them (a concept lexicon).

    An agent's request is read as an *action* (turn off, restart, check...) on an *object*
    (airplane mode, the SIM card...); the tool whose ``does`` and ``on`` hold both is run.

    Attributes:
        actions: The domain's own actions -> phrases (added to the shared ones).
        objects: Object -> phrases that name it ("flight mode" for airplane mode).
        shown_by: Object -> the read tool that shows its state ("Is Wi-Fi on?").
        tools: User tool -> `ToolWords`.
        values: Parameter -> value -> phrases that name the value ("LTE only" for 4g_only).
        value_objects: Parameter -> the object its values name ("SMS" names a permission).
        parameters: Parameter -> `ParameterWords`.
        containers: Objects that hold the others (the phone): "it" stands for one of them
            only when nothing else was named, and with another object they name no tool.
    """

    actions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    objects: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    shown_by: Mapping[str, str] = field(default_factory=dict)
    tools: Mapping[str, ToolWords] = field(default_factory=dict)
    values: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    value_objects: Mapping[str, str] = field(default_factory=dict)
    parameters: Mapping[str, ParameterWords] = field(default_factory=dict)
    containers: frozenset[str] = frozenset()

    @classmethod
    def from_toml(cls, data: Mapping[str, Any]) -> RequestLexicon:
        """The lexicon a domain's ``request_words.toml`` holds (its comments say the layout)."""
        objects = data.get("objects", {})
        values = data.get("values", {})
        return cls(
            actions={name: tuple(said) for name, said in data.get("actions", {}).items()},
            objects={name: tuple(entry["say"]) for name, entry in objects.items()},
            shown_by={name: e["shown_by"] for name, e in objects.items() if "shown_by" in e},
            tools={
                name: ToolWords(
                    does=tuple(entry["does"]),
                    on=tuple(entry.get("on", ())),
                    alone=tuple(entry.get("alone", ())),
                    toggle=bool(entry.get("toggle", False)),
                )
                for name, entry in data.get("tools", {}).items()
            },
            values={
                parameter: {v: tuple(said) for v, said in entry.items() if v != "object"}
                for parameter, entry in values.items()
            },
            value_objects={p: entry["object"] for p, entry in values.items() if "object" in entry},
            parameters={
                name: ParameterWords(
                    say=tuple(entry.get("say", ())),
                    pattern=entry.get("pattern"),
                    facts=tuple(entry.get("facts", ())),
                    read=entry.get("read"),
                )
                for name, entry in data.get("parameters", {}).items()
            },
            containers=frozenset(name for name, e in objects.items() if e.get("container")),
        )


@dataclass(frozen=True, eq=False)
class UserVocabulary:
    """A domain's additions for the scripted user (see the module docstring)."""

    scenario: ScenarioVocabulary = _GENERIC_SCENARIO
    reports: ReportLexicon = field(default_factory=ReportLexicon)
    requests: RequestLexicon | None = None
