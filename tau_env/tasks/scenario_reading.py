"""The scripted user's brief, read from the scenario text alone (one mechanism for every domain).

`read_scenario` takes the text an LLM user receives (``str(task.user_scenario)``) and a domain's
`ScenarioVocabulary`, and returns a `UserScript` with its `evidence`: for every element, the
excerpt of the scenario it was read from. It sees nothing else: not the task, its id, its gold
actions, its evaluation criteria or any label; a test checks that every excerpt is part of the
scenario and that changing a task's criteria leaves the scripted user byte-identical.

What is read, and where (`ScenarioText` names the sections):

- **opening**: the reason for calling, in the first person (`first_person`), unless the
  domain's `ScenarioVocabulary.openings` find the line the scenario tells the user to open with.
- **facts** (known info, reason, instructions; never unknown info): "Details you can give when
  asked: <label>: <value>; ..." (`with_details` writes it), "Your <label> is <value>"
  (the label becomes the key: ``user id`` -> ``user_id``, ``email address`` -> ``email``), "You
  are <Name>" (``name``, ``full_name``, ``first_name``, ``last_name``), "born on <date>",
  "phone number <number>", "zip code <digits>", "You are currently <place>" (``location``),
  "If asked for the <label>, say '<value>'", e-mail addresses anywhere, and the domain's
  `ScenarioVocabulary.fact_patterns` (order ids, reservation codes...).
- **wishes** (reason and instructions): verbs of `WISH_VERBS` that are not negated ("cancel",
  "exchange"...). Each gives its done words ("cancelled") and is an offer the user accepts;
  a wish also means the user confirms what the agent proposes. Negated verbs ("you will never
  cancel") are declined.
- **questions**: "Ask how/what/whether..." and "You want to know how/what...".
- **reactions**: "ask for a human / supervisor / to be transferred" after a refusal (not
  when negated: "Do not ask to be transferred"); "if the agent says <something>, end the
  call" (its last words become done words); "accept / agree to <offer>" and "decline
  <offer>"; the domain's goal checks, offers and declines (`ScenarioVocabulary`).
- **conduct** off the expected path (`tau_env.tasks.scenario_rules`): no transfer,
  persistence, no alternative, what to say when asked to confirm, what the user does not know
  or will not tell, answers to questions on a topic, a budget, no health reason; the offers
  it declines join ``declines``.

A new domain plugs in with a `ScenarioVocabulary` of a few patterns, or none at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType

from tau_env.tasks.model import AfterRefusal, GoalCheck, UserScript
from tau_env.tasks.scenario_rules import read_conduct
from tau_env.tasks.scenario_text import ScenarioText, first_person, parse_scenario_text

__all__ = [
    "DETAILS_LEAD",
    "FACT_LABELS",
    "WISH_VERBS",
    "ReadScript",
    "ScenarioVocabulary",
    "read_scenario",
    "with_details",
]

DETAILS_LEAD = "Details you can give when asked:"
"""Starts a scenario sentence listing facts as ``label: value`` pairs separated by ``; ``."""

WISH_VERBS: MappingProxyType[str, tuple[str, ...]] = MappingProxyType(
    {
        "cancel": ("cancelled", "canceled"),
        "book": ("booked",),
        "exchange": ("exchanged", "exchange"),
        "return": ("returned", "return"),
        "change": ("changed", "updated", "modified"),
        "modify": ("modified", "updated", "changed"),
        "update": ("updated", "changed"),
        "swap": ("swapped", "modified", "updated"),
        "upgrade": ("upgraded", "updated"),
        "downgrade": ("downgraded", "updated"),
        "move": ("updated", "changed"),
        "add": ("added", "created"),
        "create": ("created", "added"),
        "remove": ("removed", "deleted"),
        "delete": ("deleted", "removed"),
        "complete": ("completed",),
        "mark": ("marked", "completed"),
        "dismiss": ("dismissed",),
        "refund": ("refunded",),
    }
)
"""Verbs of a wish -> words an agent uses to say it was carried out (generic English)."""

FACT_LABELS: MappingProxyType[str, str] = MappingProxyType(
    {
        "email address": "email",
        "e-mail address": "email",
        "e-mail": "email",
        "zip code": "zip",
        "zipcode": "zip",
        "postal code": "zip",
        "postcode": "zip",
        "phone's number": "phone_number",
        "phone number": "phone_number",
        "mobile number": "phone_number",
        "date of birth": "date_of_birth",
        "birth date": "date_of_birth",
        "birthday": "date_of_birth",
        "user id": "user_id",
        "user name": "user_id",
        "full name": "name",
    }
)
"""Labels of "Your <label> is ..." sentences -> fact keys (others: the label in snake_case)."""

_END = r"(?=[.;!?,]?\s*$|[.;!?,]\s|\s+and\s+(?:your|you)\b|\n)"
_YOUR = re.compile(
    r"\b[Yy]our (?P<label>[a-z][a-z'-]*(?: [a-z][a-z'-]*){0,3}) (?:is|are) (?P<value>[^\n]+?)"
    + _END
)
_NAME = re.compile(
    r"\b(?:You are|You're|Your name is|You name is|called) "
    r"(?P<value>{word}(?: (?:{word}|de|da|van|von|del))+)".format(
        word=r"[A-Z][a-z']+(?:-[A-Za-z][a-z']*)*"  # "Sato-Ibarra": double-barrelled names
    )
)
_BORN = re.compile(r"\bborn (?:on )?(?P<value>\d{4}-\d{2}-\d{2})\b")
_PHONE = re.compile(r"\bphone(?:'s)? number (?:is )?(?P<value>\+?[\d(][\d()\- ]{5,}\d)")
_ZIP = re.compile(r"\bzip ?code (?:is )?(?P<value>\d{5})\b")
_HOME = re.compile(r"\b(?:live|lives|living|reside|residing|based)\b[^.;\n]*?\b(?P<value>\d{5})\b")
_HANDLE = re.compile(r"\b(?P<value>[a-z]+_[a-z]+(?:-[a-z]+)*_\d{3,5})\b")
_WHERE = re.compile(
    r"\b(?:You are currently|Right now you are|At the moment you are|You are now) "
    r"(?P<value>(?:at|in|abroad|travelling|traveling)\b[^.\n]*)"
)
_SAY = re.compile(
    r"\bIf (?:the agent )?ask(?:s|ed)? (?:you )?(?:for|about) (?:your |the )?"
    r"(?P<label>[a-z][a-z ]{1,30}?), (?:say|answer|tell (?:them|the agent)) "
    r"['\"](?P<value>[^'\"]+)['\"]"
)
_DETAILS = re.compile(re.escape(DETAILS_LEAD) + r" (?P<items>[^\n]+)")
_ACCEPT = re.compile(
    r"\b(?:[Aa]ccept|[Aa]gree to) (?:a |an |the |to a |to an |to the )?(?P<what>[a-z][a-z -]*?)"
    r"(?=[.,;]|\s+and\b|\s+if\b|\s+once\b|$)"
)
_DECLINE = re.compile(r"\b[Dd]ecline (?:any |every |all |the )?(?P<what>[a-z]+)")
_END_WHEN = re.compile(
    r"\bIf the agent (?:says|tells you|confirms|explains) (?:that )?(?P<what>[^,.;]+?),? "
    r"(?:then )?(?:end|accept|thank|hang up|say goodbye)",
    re.IGNORECASE,
)
_PRONOUNS = frozenset({"it", "that", "this", "them", "everything", "anything"})
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_NEGATION = re.compile(
    r"\b(?:never|not|no|don't|do not|won't|will not|doesn't|didn't|refuse to|refuse any)"
    r"\s+(?:\w+\s+){0,3}(?:(?:or|and|nor)\s+)?$",
    re.IGNORECASE,
)
_QUESTION = re.compile(
    r"\b(?:[Aa]sk (?:the agent |them )?|[Yy]ou (?:also )?want to know |[Yy]ou wonder )"
    r"(?P<q>(?:exactly )?(?:how|what|whether|if|when|which|why|where|who)\b[^.?!\n]*?)"
    r"(?=,? and (?:agree|end|confirm|then)\b|[.?!\n]|$)"
)
_ASK_HUMAN = re.compile(
    r"\b(?:ask|request|demand|insist)\w*\b[^.\n]{0,60}?\b"
    r"(?:human|real person|supervisor|manager|representative|transferr\w*|"
    # "a transfer" to someone, not a money transfer ("ask for the transfer" of $1,500)
    r"transfer\w*(?=\s+(?:me\s+|you\s+)?to\b|[^.\n]{0,30}\b(?:human|agent|person|supervisor)\b))\b",
    re.IGNORECASE,
)
_CONFIRM = re.compile(r"\b(?:[Cc]onfirm|[Aa]gree to|[Aa]ccept)\b[^.\n]*")
_HEARSAY = re.compile(
    r"\b(?:says|tells you|mentions|claims|insists|thinks|denies)(?: that)?\s*$", re.IGNORECASE
)
_WHERE_NOT_WHAT = re.compile(r"(?:in|on|at|inside|within) (?:your|my|the) ", re.IGNORECASE)
_DENIED = re.compile(r"\b(?:not|don't|never|no)\b(?:\s+\w+){0,2}\s*$", re.IGNORECASE)
_NOT_A_REFUSAL = re.compile(
    r"\b(?:a|an|any|full)\s+$|\bagent (?:does not|doesn't|cannot|can't|won't|will not)\b",
    re.IGNORECASE,
)
_WHOLE_REFUSED = re.compile(
    r"\w+\s+(?:your |the )?(?:entire|whole)\b|\w+\b[^.,;]{0,50}\b(?:without|unless)\b",
    re.IGNORECASE,
)
"""A negated wish verb that is no refusal of the user's: a noun ("you don't get a refund"),
the agent's refusal ("if the agent doesn't allow the exchange"), or a whole that is refused
while its parts are wanted ("never cancel your entire order": `scenario_rules` declines it),
or a condition ("not change the date without changing the cabin")."""
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")


@dataclass(frozen=True, eq=False)
class ScenarioVocabulary:
    """What a domain adds to the shared reading (all optional; patterns are regexes).

    Attributes:
        fact_patterns: ``(key, pattern)``: values that are recognisable on their own (order
            ids, reservation codes). The first match is ``key``; several distinct matches are
            also given together under ``key + "s"``.
        goal_checks: ``(pattern, check)``: when the scenario says this, the user verifies its
            goal with this probe of its own tools.
        offers: ``(pattern, keywords)``: when the scenario says this, offers naming one of
            the keywords are accepted.
        declines: ``(pattern, keywords)``: when the scenario says this, offers naming one of
            the keywords are declined.
        openings: ``(pattern, verbatim)``: where a scenario states the opening line (its
            group ``line``), tried in order on the instructions; a ``verbatim`` line (the
            user's own quoted words) is said as written, others in the first person. None
            found: the reason for calling.
    """

    fact_patterns: tuple[tuple[str, str], ...] = ()
    goal_checks: tuple[tuple[str, GoalCheck], ...] = ()
    offers: tuple[tuple[str, tuple[str, ...]], ...] = ()
    declines: tuple[tuple[str, tuple[str, ...]], ...] = ()
    openings: tuple[tuple[str, bool], ...] = ()


@dataclass(frozen=True)
class ReadScript:
    """A brief and where each of its elements comes from.

    Attributes:
        script: The brief.
        evidence: Element (``opening``, ``fact:<key>``, ``done:<word>``, ``accept:<word>``,
            ``decline:<word>``, ``goal:<tool>``, ``question:<n>``, ``after_refusal``, and the
            conduct's: ``conduct:<flag>``, ``confirm:<n>``, ``unknown:<label>``,
            ``answer:<n>``, ``withheld:<label>``) -> the excerpt of the scenario text it was
            read from.
        persona: The scenario's persona text (empty when it has none).
    """

    script: UserScript
    evidence: dict[str, str] = field(default_factory=dict)
    persona: str = ""


_GENERIC_LAST = frozenset({"id", "ids", "number", "name", "code", "address", "info", "details"})
_QUALIFIERS = frozenset(
    {"new", "old", "previous", "current", "other", "second", "alternate", "shipping", "billing"}
)
_NOT_FACTS = frozenset({"goal", "task", "problem", "issue", "job", "aim", "plan", "phone"})
"""Labels of "Your <label> is ..." that describe the situation rather than a fact to tell."""

_WISH_CUE = re.compile(
    r"\b(?:want|wants|wish|wishes|would like|'d like|need|needs|hope|try|trying|help|"
    r"request|like to|going to|plan to)\b",
    re.IGNORECASE,
)


def _label_key(label: str) -> str:
    label = label.lower().strip()
    key = FACT_LABELS.get(label) or re.sub(r"[^a-z0-9]+", "_", label).strip("_")
    return "" if key in _NOT_FACTS else key


def _clean(value: str) -> str:
    return value.strip().strip("'\"").rstrip(".").strip()


class _Reader:
    """Accumulates one scenario's brief and evidence."""

    def __init__(self, scenario: ScenarioText, vocabulary: ScenarioVocabulary) -> None:
        self.scenario = scenario
        self.vocabulary = vocabulary
        self.evidence: dict[str, str] = {}
        self.facts: dict[str, str] = {}

    def fact(self, key: str, value: str, excerpt: str) -> None:
        value = _clean(value)
        if not (key and value and value in self.scenario.text):
            return
        # "task title" is also the "title": agents ask for the last word alone (not so for
        # "new zip", which is not the zip).
        first, last = key.split("_", 1)[0], key.rsplit("_", 1)[-1]
        alias = last != key and last not in _GENERIC_LAST and first not in _QUALIFIERS
        keys = [key, last] if alias else [key]
        for name in keys:
            if name not in self.facts:
                self.facts[name] = value
                self.evidence[f"fact:{name}"] = excerpt

    def read_facts(self) -> None:
        text = self.scenario.facts_text
        for match in _NAME.finditer(text):
            name = match["value"]
            for key in ("name", "full_name"):
                self.fact(key, name, match.group())
            first, _, last = name.partition(" ")
            self.fact("first_name", first, match.group())
            self.fact("last_name", last, match.group())
        for key, pattern in (
            ("date_of_birth", _BORN),
            ("phone_number", _PHONE),
            ("location", _WHERE),
        ):
            if found := pattern.search(text):
                self.fact(key, found["value"], found.group())
        if found := _ZIP.search(text) or _HOME.search(text):
            self.fact("zip", found["value"], found.group())
        if found := _HANDLE.search(self.scenario.known or text):  # "You are mei_kovacs_8020"
            self.fact("user_id", found["value"], found.group())
        for match in _SAY.finditer(text):
            self.fact(_label_key(match["label"]), match["value"], match.group())
        for match in _YOUR.finditer(text):
            if _HEARSAY.search(text[max(0, match.start() - 40) : match.start()]):
                continue  # "if the agent says your ticket is basic economy": not a known fact
            if _WHERE_NOT_WHAT.match(match["value"]):
                continue  # "your birthday is in your user profile": where it is, not what
            key = _label_key(match["label"])
            if key == "name" and "name" in self.facts:
                continue
            self.fact(key, match["value"], match.group())
        emails = list(dict.fromkeys(email.rstrip(".") for email in _EMAIL.findall(text)))
        if emails:
            self.fact("email", emails[0], emails[0])
        if len(emails) > 1:  # "your emails are a and b": the user offers both
            self.facts.setdefault("emails", ", ".join(emails))
            self.evidence.setdefault("fact:emails", emails[-1])
        for block in _DETAILS.finditer(text):
            for item in block["items"].rstrip(".").split("; "):
                label, sep, value = item.partition(": ")
                if sep:
                    self.fact(_label_key(label), value, item)
        for key, regex in self.vocabulary.fact_patterns:
            values = list(dict.fromkeys(re.findall(regex, self.scenario.text)))
            if values:
                self.fact(key, values[0], values[0])
            if len(values) > 1 and all(v in self.scenario.text for v in values):
                self.facts.setdefault(f"{key}s", ", ".join(values))
                self.evidence.setdefault(f"fact:{key}s", values[-1])

    def wishes(self) -> Iterator[tuple[str, bool, str]]:
        """(verb, negated, sentence) for every wish verb of the reason and instructions."""
        verbs = "|".join(WISH_VERBS)
        pattern = re.compile(rf"\b({verbs})\b", re.IGNORECASE)
        for sentence in _SENTENCE.findall(self.scenario.wishes_text):
            for match in pattern.finditer(sentence):
                before = sentence[: match.start()]
                negated = bool(_NEGATION.search(before))
                after = sentence[match.start() : match.end() + 30]
                if negated and (_NOT_A_REFUSAL.search(before) or _WHOLE_REFUSED.match(after)):
                    continue  # "a refund" (a noun), "the agent doesn't", "your entire order"
                if not (negated or not before.strip() or _WISH_CUE.search(before)):
                    continue  # "if the tool call returns...": no wish
                yield match.group(1).lower(), negated, sentence.strip()

    def note(self, bucket: list[str], kind: str, word: str, excerpt: str) -> None:
        """Add `word` to `bucket` (accepts, declines, done words) with its evidence."""
        if word and word not in bucket:
            bucket.append(word)
            self.evidence[f"{kind}:{word}"] = excerpt

    def read_wishes(self) -> tuple[list[str], list[str], list[str]]:
        """The done words, accepted offers and declined offers the scenario states."""
        text = self.scenario.wishes_text
        done: list[str] = []
        accepts: list[str] = []
        declines: list[str] = []
        for verb, negated, sentence in self.wishes():
            if negated:
                self.note(declines, "decline", verb, sentence)
                continue
            self.note(accepts, "accept", verb, sentence)
            for word in WISH_VERBS[verb]:
                self.note(done, "done", word, sentence)
        declines = [verb for verb in declines if verb not in accepts]
        for found in _END_WHEN.finditer(text):
            self.note(done, "done", " ".join(found["what"].lower().split()[-3:]), found.group())
        # A user with a wish confirms what the agent proposes for it; so does one told to.
        confirm = _CONFIRM.search(text)
        excerpt = self.evidence[f"accept:{accepts[0]}"] if accepts else None
        if excerpt is None and confirm is not None:
            excerpt = confirm.group()
        if excerpt is not None:
            accepts.insert(0, "confirm")
            self.evidence["accept:confirm"] = excerpt
        for found in _ACCEPT.finditer(text):
            words = found["what"].split()
            if _DENIED.search(text[max(0, found.start() - 30) : found.start()]):
                continue  # "Don't accept the first offer"
            if words and words[-1] not in _PRONOUNS:
                self.note(accepts, "accept", words[-1], found.group())
            if len(words) > 2 and words[1] in ("for", "of", "to"):  # "a voucher for travel"
                self.note(accepts, "accept", words[0], found.group())
        for found in _DECLINE.finditer(text):
            if found["what"] not in _PRONOUNS and found["what"] not in accepts:
                self.note(declines, "decline", found["what"], found.group())
        for regex, words in self.vocabulary.offers:
            if offer := re.search(regex, self.scenario.text, re.IGNORECASE):
                for word in words:
                    self.note(accepts, "accept", word, offer.group())
        for regex, words in self.vocabulary.declines:
            if refusal := re.search(regex, self.scenario.text, re.IGNORECASE):
                for word in words:
                    self.note(declines, "decline", word, refusal.group())
        return done, accepts, declines

    def read_goal_checks(self) -> list[GoalCheck]:
        """The domain's goal checks whose phrases the scenario contains."""
        checks: list[GoalCheck] = []
        for regex, check in self.vocabulary.goal_checks:
            found = re.search(regex, self.scenario.text, re.IGNORECASE)
            if found and check not in checks:
                checks.append(check)
                self.evidence[f"goal:{check.tool}"] = found.group()
        return checks

    def read_questions(self) -> list[str]:
        """What the scenario tells the user to ask, as first-person questions."""
        questions = []
        for match in _QUESTION.finditer(self.scenario.wishes_text):
            question = first_person(match["q"].strip())
            questions.append(question[:1].upper() + question[1:] + "?")
            self.evidence[f"question:{len(questions) - 1}"] = match.group()
        return questions

    def read_after_refusal(self) -> AfterRefusal:
        """``ask_human`` when the scenario says to ask for a human after a refusal.

        Not when it says not to ("Do not ask to be transferred"): a negation before the ask.
        """
        text = self.scenario.wishes_text
        for found in _ASK_HUMAN.finditer(text):
            if _DENIED.search(text[max(0, found.start() - 30) : found.start()]):
                continue  # "Do not ask to be transferred"
            self.evidence["after_refusal"] = found.group()
            return "ask_human"
        return "stop"

    def read_opening(self) -> str:
        """The opening line: where the domain says a scenario states it, else the reason."""
        for regex, verbatim in self.vocabulary.openings:
            found = re.search(regex, self.scenario.instructions)
            line = found["line"].strip() if found else ""
            if line:
                self.evidence["opening"] = line
                return " ".join((line if verbatim else first_person(line)).split())
        reason = self.scenario.reason or self.scenario.instructions
        self.evidence["opening"] = reason
        return " ".join(first_person(reason).split())

    def read(self) -> ReadScript:
        """The whole brief."""
        scenario = self.scenario
        opening = self.read_opening()
        self.read_facts()
        done, accepts, declines = self.read_wishes()
        conduct = read_conduct(scenario, self.facts)
        for word in conduct.declines:
            if word not in accepts and word not in declines:
                declines.append(word)
                self.evidence[f"decline:{word}"] = conduct.evidence[f"decline:{word}"]
        self.evidence.update(
            (key, excerpt) for key, excerpt in conduct.evidence.items() if key not in self.evidence
        )
        after_refusal = self.read_after_refusal()
        if conduct.conduct.no_transfer and after_refusal == "ask_human":
            after_refusal = "stop"  # "never to a human" wins over an ask read elsewhere
            del self.evidence["after_refusal"]
        script = UserScript(
            opening=opening,
            facts=self.facts,
            goal_checks=self.read_goal_checks(),
            done_phrases=done,
            accepts=accepts,
            declines=declines,
            questions=self.read_questions(),
            after_refusal=after_refusal,
            conduct=conduct.conduct,
        )
        return ReadScript(script=script, evidence=self.evidence, persona=scenario.persona)


def with_details(known: str, facts: Mapping[str, str]) -> str:
    """`known` followed by a sentence listing `facts` the way `read_scenario` reads them.

    Keys are written as words (``payment_method`` -> ``payment method``).

    Raises:
        ValueError: A value contains ``"; "`` or a line break (the list could not be read).
    """
    items = []
    for key, value in facts.items():
        if "; " in value or "\n" in value or not value:
            raise ValueError(f"fact {key!r} cannot be listed in a scenario: {value!r}")
        items.append(f"{key.replace('_', ' ')}: {value}")
    if not items:
        return known
    return f"{known} {DETAILS_LEAD} {'; '.join(items)}."


@lru_cache(maxsize=8192)
def read_scenario(text: str, vocabulary: ScenarioVocabulary | None = None) -> ReadScript:
    """The brief a scripted user reads from a scenario text (cached: one read per text).

    Args:
        text: The scenario as the user receives it (``str(task.user_scenario)``).
        vocabulary: The domain's additions (None: the generic reading only).
    """
    return _Reader(parse_scenario_text(text), vocabulary or ScenarioVocabulary()).read()
