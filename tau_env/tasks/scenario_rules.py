"""How the user holds to its instructions off the expected path, read from the scenario text.

A scenario tells the user what to do in situations the task's happy path never meets: "Do not
ask to be transferred", "If the agent asks for confirmation, only exchange the desk lamp", "You
do not remember your email address", "If the agent asks for the reason, say you ordered by
mistake", "You are willing to pay up to $100", "Be persistent"... `read_conduct` reads these
instruction kinds into a `Conduct` (with the excerpt each comes from, like the rest of the
brief), sentence by sentence, from every section but the persona:

- ``no_transfer``: "do not (ask to) be transferred", "under no circumstances ...
  transferred": never asks for a human, declines a transfer.
- ``persistence``: "insist", "be persistent", "don't take no for an answer" ("N times"):
  pushes back on a refusal N times (2 by default).
- ``on_refusal``: "if the agent says / denies ..., mention / insist / say ...": says it to
  the first refusal.
- ``no_alternative``: "decline any alternative", "do not want any other flight", "do not
  accept partial changes, alternatives": declines what is offered instead.
- ``declines`` (`ConductReading.declines`): "you do not want to cancel or modify", "no
  baggage and insurance", "do not accept JFK", "never cancel your entire order": declines
  offers naming them.
- ``confirmations``: "if / when the agent asks (you) (for) (final) confirm(ation) (again),
  ...": says what it is told instead of a plain yes ("only the desk lamp").
- ``unknown``: "you do not remember / know (your) <label>", "you don't have an email": says
  it does not know <label>.
- ``answers``: "if the agent asks (for) <topic>, say <answer>", "give the reason when asked:
  <answer>": answers a question on <topic> with <answer>.
- ``withheld``: "do not reveal / share", "prefer not to provide" with an address, a
  birthday, an item id...: will not tell it (it is on file).
- ``budget``: "willing to pay up to $X", "only if it costs less than $X", "$X budget":
  declines a price above X.
- ``healthy``: "you are healthy", "do not have a health(-related) issue": says no to a health
  reason.

Nothing else of the task is looked at (the honesty tests hold this module to it too).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from tau_env.tasks.model import Answer, Conduct, ConfirmRule
from tau_env.tasks.scenario_text import ScenarioText, first_person

__all__ = ["ConductReading", "read_conduct", "rule_sentences"]

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'])|\n+")
_NEGATION = r"(?:do not|don't|does not|doesn't|never|not|won't|will not|no)"

_NO_TRANSFER = re.compile(
    rf"\b{_NEGATION}\b(?:\s+\w+){{0,3}}?\s+(?:ask(?:ing)? (?:to be|for a|for) transfer\w*|"
    rf"(?:be|get|being) transferred)|\bunder no circumstances\b[^.,\n]{{0,40}}\btransferr?ed\b",
    re.IGNORECASE,
)
_PERSIST = re.compile(
    r"(?<!agent )\b(?:insist\w*|be persistent|persistent(?:ly)?|persistence|"
    r"(?:don't|do not) take no|be insistent|(?:don't|do not) accept the first offer)\b",
    re.IGNORECASE,
)
_TIMES = re.compile(
    r"\b(?:maximum of|insisted|up to|at most|try)\s+(?P<n>\w+)\s+times\b|"
    r"\b(?P<few>a few) (?:attempts|times|exchanges)\b",
    re.IGNORECASE,
)
_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "twice": 2}
_AGENT_INSISTS = re.compile(r"\bagent (?:insists|continues|keeps)\b", re.IGNORECASE)

_NO_ALTERNATIVE = re.compile(
    r"\b(?:decline|refuse|(?:do not|don't|not) accept)\s+(?:any\s+)?(?:other\s+)?"
    r"(?:alternatives?|other options?|partial changes)|"
    r"\b(?:do not|don't) want any other\b|\bany other (?:mode of payment|flight)\b",
    re.IGNORECASE,
)
_NOT_ACCEPT_NAME = re.compile(r"\b(?:do not|don't) accept (?P<name>[A-Z]{2,}|[A-Z][a-z]+)\b")
_NO_NEED = re.compile(
    r"\b(?:(?:do not|don't) (?:need|want)|no)\s+(?:any\s+)?(?!to\b)"
    r"(?P<things>[a-z][a-z -]*?(?:\s+(?:or|and)\s+[a-z][a-z -]*?)?)(?=[.,;]|$)",
    re.IGNORECASE,
)
_THINGS = frozenset({"insurance", "baggage", "bags", "bag", "baggages", "luggage", "upgrade"})
"""What a "do not need / want ... X" sentence may decline (the rest is no offer's object)."""
_NEVER_VERBS = re.compile(
    rf"\b(?:{_NEGATION}|under no circumstances (?:will|do) you|absolutely not)\b"
    r"(?:\s+\w+){0,3}?\s+(?P<verbs>(?:cancel|modify|change|upgrade|downgrade|book|buy|split)"
    r"(?:(?:,\s*|\s+or\s+|\s+and\s+)(?:cancel|modify|change|upgrade|downgrade|book|buy|split))*)"
    r"\s*(?P<object>[^.,;\n]{0,40})",
    re.IGNORECASE,
)
_WHOLE = re.compile(r"\b(?:your |the )?(?P<what>(?:entire|whole) \w+|new (?:flight|ticket))\b")

_CONFIRM = re.compile(
    r"\b(?:if|when|once)\s+the agent\s+(?:finally\s+)?asks?\s+(?:you\s+)?(?:for\s+|to\s+)?"
    r"(?:the\s+)?(?:final\s+|your\s+)?confirm(?:ation)?(?P<again>\s+again)?"
    r"(?:\s+before proceeding)?\s*,\s*(?P<then>[^.\n]+)",
    re.IGNORECASE,
)
_ONLY = re.compile(
    r"\bonly\s+(?P<only>(?:exchange|return|modify|cancel|change|keep|do)\s+(?:the\s+)?"
    r"[a-z][a-z -]*?)(?=[.,;]|\s+and\b|$)",
    re.IGNORECASE,
)
_KEEP_REFUSING = re.compile(r"\b(?:regret|keep it|do not|don't|rethink|not to)\b", re.IGNORECASE)
_INSTEAD = tuple(
    (re.compile(pattern, re.IGNORECASE), said)
    for pattern, said in (
        (r",?\s+and then\b.*$", ""),
        (r",?\s+(?:and\s+)?(?:also\s+)?(?:decide|ask) to\s*$", ""),
        (r"^(?:then\s+|suddenly\s+|you\s+|also\s+)+", ""),
        (r"^(?:say|tell (?:them|the agent)|mention|answer|respond|reply)\s+(?:that\s+)?", ""),
        (r"^(?:do not|don't) say yes(?: immediately)?,?\s*(?:because\s+)?", "Not yet: "),
        (r"^change (?:your|my) mind to (?:using\s+)?(?P<x>[A-Z]\w*)", r"I'd rather use \g<x>"),
        (r"^change (?:your|my) mind(?: and)?\s*$", "I've changed my mind"),
        (r"^change (?:your|my) mind (?:and|to)\s+", "I've changed my mind, I'd like to "),
        (r"^add another request and (?:also )?", "Before that, I also "),
        (r"^regret and\s+", "I regret it and "),
    )
)
"""What the user is told to do when asked to confirm, said by the user ("Not yet: ...")."""
_ITEM = re.compile(
    r"\bthe (?P<item>(?:[a-z-]+ ){0,2}[a-z-]+?)(?=\s+and\b|\s+to\b|\s+for\b|\s*[.,;(]|$)"
)
_NOT_ITEMS = frozenset(
    {"agent", "same", "one", "order", "price", "rest", "other", "item", "items", "beginning"}
)
_WISH = re.compile(r"\b(?:want|wish|would like|'d like|need)\b", re.IGNORECASE)
_CONDITION = re.compile(r"\b(?:if|when|once|unless)\b", re.IGNORECASE)

_UNKNOWN = re.compile(
    r"\b(?:do not|don't|can't|cannot|not|no longer)\s+(?:remember|know|recall|"
    r"have(?=\s+(?:an?\s+)?e-?mail))\s+"
    r"(?:any of\s+)?(?:your |the |an? )?(?!that\b|what\b|how\b|why\b|whether\b|if\b|exactly\b|"
    r"which\b|when\b|where\b|it\b|this\b|them\b|much\b)"
    r"(?P<label>[A-Za-z][\w' -]{1,40}?)(?=[.,;]|\s+(?:but|and|for|of|yet|in|on)\b|$)",
    re.IGNORECASE,
)
_LABEL_WORDS = {"ids": "id", "numbers": "number", "emails": "email", "codes": "code"}
_ASKED = re.compile(
    r"^(?:but\s+)?(?:if|when|once)\s+(?:the\s+(?:service\s+|customer service\s+)?agent\s+)?"
    r"(?:asks?|asked)\b\s*(?:you\s+)?(?P<topic>[^,]*?)\s*,\s*(?:then\s+)?(?P<answer>.+)$",
    re.IGNORECASE,
)
_ANSWER_LEAD = re.compile(
    r"^(?:you\s+)?(?:(?:just\s+)?(?:say|answer|tell (?:them|the agent|it)|mention|respond|reply|"
    r"provide|explain)\s+(?:that\s+)?|(?=it is\b|it's\b|you (?:only )?want|you might|"
    r"you prefer|you are|you have|there (?:are|is)))",
    re.IGNORECASE,
)
_REASON_WHEN_ASKED = re.compile(
    r"\b(?:give|state|say) the (?P<topic>reason|purpose) when asked:\s*(?P<answer>[^\n]+)",
    re.IGNORECASE,
)
_PROVIDE_WHEN_ASKED = re.compile(
    r"^when asked for (?:the |your )?(?P<topic>[a-z][\w -]*?), provide (?P<answer>\S+)",
    re.IGNORECASE,
)
_NOT_ANSWERS = re.compile(
    r"^(?:ask|end|cancel|accept|insist|try|move on|thank|agree|confirm|proceed|decline|go|"
    r"transfer|book|upgrade|change|do not|don't)\b",
    re.IGNORECASE,
)
_TOPIC_WORDS_LEFT_OUT = (
    "for the a an your you about which how many much what whether if is are were was "
    "in that of to any it this on there"
)
_TOPIC_STOP = frozenset(_TOPIC_WORDS_LEFT_OUT.split())
"""Words of a question's topic that name nothing ("how many passengers" is "passengers")."""
_ANSWER_END = re.compile(
    r",?\s+(?:but (?:when|if|once|then)|then|and then)\s+.*$|\s+(?:first|initially)\b.*$|"
    r"\s+and be\b.*$"
)
_QUOTED_ANSWER = re.compile(r"^(?:you\s+)?(?:say|answer|tell \w+)\s+['\"]")
"""A quoted answer ("say 'ordered by mistake'"): the brief's facts hold it (``reason``)."""
_ON_REFUSAL = re.compile(
    r"^(?:but\s+)?(?:if|when)\s+(?:and only if\s+)?(?:the\s+)?(?:service\s+)?agent\s+"
    r"(?:tells you|says|denies|refuses|continues to refuse)\b[^,]*,\s*"
    r"(?P<then>(?:mention|insist|say|tell|explain)\b.+)$",
    re.IGNORECASE,
)
_REFUSAL_LEAD = re.compile(
    r"^(?:mention|insist|say|tell (?:them|the agent)|explain)\s+(?:that\s+|on\s+)?",
    re.IGNORECASE,
)
_WITHHOLD = re.compile(
    r"\b(?:(?:do not|don't|does not|never)\s+(?:want to\s+|prefer to\s+)?(?:reveal|share|"
    r"mention|provide|give)|prefer(?:s)? not to (?:reveal|provide|share|mention|give)|"
    r"won't reveal|reluctant to share|want the agent to look it up)\b",
    re.IGNORECASE,
)
_WITHHELD_TOPICS = (
    ("address", r"\baddress\b"),
    ("date of birth", r"\b(?:birthday|date of birth|DOB|birth date)\b"),
    ("item id", r"\bitem id\b"),
    ("gift card id", r"\bgift card id\b"),
)
_BUDGET = (
    re.compile(r"\b(?:willing to|can|ready to) pay\b[^.$\n]{0,40}?\bup to \$(?P<x>\d[\d,]*)"),
    re.compile(
        r"\b(?:only|if)\b[^.$\n]{0,80}?\b(?:costs?|price|charges?|fees?)\b[^.$\n]{0,30}?"
        r"\b(?:less than|under|below|no more than|at most)\s+\$(?P<x>\d[\d,]*)",
        re.IGNORECASE,
    ),
    re.compile(r"\b(?:your|a) \$(?P<x>\d[\d,]*) budget\b"),
)
_HEALTHY = re.compile(
    r"\byou are healthy\b|\b(?:do not|don't|not) have (?:a|any) health|\bfake a health",
    re.IGNORECASE,
)


@dataclass
class ConductReading:
    """A scenario's `Conduct`, the offers it declines beyond its negated wishes, and evidence.

    Attributes:
        conduct: The conduct read.
        declines: Offer keywords to decline ("insurance", "JFK", "entire order").
        evidence: Element (``conduct:no_transfer``, ``confirm:0``, ``unknown:<label>``,
            ``answer:0``, ``withheld:<label>``, ``decline:<word>``...) -> its excerpt.
    """

    conduct: Conduct
    declines: list[str] = field(default_factory=list)
    evidence: dict[str, str] = field(default_factory=dict)


def rule_sentences(scenario: ScenarioText) -> Iterator[str]:
    r"""The sentences instructions may be in: every section but the persona, in order.

    A single line break inside a sentence ("...is not possible,\nmention that...") joins.
    """
    parts = (scenario.reason, scenario.known, scenario.unknown, scenario.instructions)
    for part in dict.fromkeys(p for p in parts if p):
        part = re.sub(r"(?<=[,;:a-z])[ \t]*\n[ \t]*(?=[a-z])", " ", part)
        for sentence in _SENTENCE.split(part):
            sentence = " ".join(sentence.split())
            if sentence:
                yield sentence


class _Reader:
    def __init__(self, scenario: ScenarioText, facts: Mapping[str, str]) -> None:
        self.scenario = scenario
        self.facts = facts
        self.sentences = list(rule_sentences(scenario))
        self.evidence: dict[str, str] = {}
        self.declines: list[str] = []

    def note(self, key: str, excerpt: str) -> None:
        self.evidence.setdefault(key, excerpt)

    def decline(self, word: str, excerpt: str) -> None:
        word = word.strip().lower() if not word.isupper() else word.strip()
        if word and word not in self.declines:
            self.declines.append(word)
            self.note(f"decline:{word}", excerpt)

    def no_transfer(self) -> bool:
        for sentence in self.sentences:
            if found := _NO_TRANSFER.search(sentence):
                self.note("conduct:no_transfer", found.group())
                return True
        return False

    def persistence(self) -> int:
        times = 0
        for sentence in self.sentences:
            found = _PERSIST.search(sentence)
            if found is None or _AGENT_INSISTS.search(sentence[: found.end()]):
                continue
            self.note("conduct:persistence", found.group())
            times = max(times, 2)
        for sentence in self.sentences:
            count = _TIMES.search(sentence)
            if times and count is not None:
                number = count["n"] or ""
                n = int(number) if number.isdigit() else _NUMBERS.get(number.lower(), 2)
                times = max(times, min(n, 5))
        return times

    def no_alternative(self) -> bool:
        found_any = False
        for sentence in self.sentences:
            if found := _NO_ALTERNATIVE.search(sentence):
                self.note("conduct:no_alternative", found.group())
                found_any = True
            for name in _NOT_ACCEPT_NAME.finditer(sentence):
                self.decline(name["name"], name.group())
        return found_any

    def read_declines(self) -> None:
        for sentence in self.sentences:
            if sentence.lower().startswith(("if ", "when ", "once ")):
                continue  # conditional: what happens then is no standing refusal
            for found in _NO_NEED.finditer(sentence):
                for thing in re.split(r"\s+(?:or|and)\s+", found["things"]):
                    last = thing.split()[-1].lower() if thing.split() else ""
                    if last in _THINGS and not sentence.lower().startswith("you only"):
                        self.decline(last, found.group())
            for found in _NEVER_VERBS.finditer(sentence):
                if re.search(r"\b(?:without|unless|if)\b", found["object"]):
                    continue  # "not change the date without changing the cabin": a condition
                whole = _WHOLE.search(found["object"])
                if whole is not None:  # "never cancel your entire order": items may still go
                    self.decline(whole["what"], found.group())
                    continue
                for verb in re.split(r",\s*|\s+or\s+|\s+and\s+", found["verbs"]):
                    self.decline(verb, found.group())

    def confirmations(self) -> list[ConfirmRule]:
        rules: list[ConfirmRule] = []
        items = self.wish_items()
        for sentence in self.sentences:
            for found in _CONFIRM.finditer(sentence):
                then = found["then"].strip()
                only = _ONLY.search(then)
                kept = first_person(only["only"].strip()) if only else ""
                others = [item for item in items if kept and item not in kept]
                said = _said_instead(_ONLY.sub("", then) if only else then)
                if kept:
                    left_out = f", not the {' or the '.join(others)}" if others else ""
                    said = f"{said} Please only {kept}{left_out}.".strip()
                rules.append(
                    ConfirmRule(
                        nth=2 if found["again"] else 1,
                        only=kept,
                        others=others,
                        say=said,
                        keeps_refusing=bool(_KEEP_REFUSING.search(then)) and not kept,
                    )
                )
                self.note(f"confirm:{len(rules) - 1}", found.group())
        return rules

    def wish_items(self) -> list[str]:
        """Things the wishes name ("water bottle", "desk lamp"), in order.

        From the sentences of the reason that state a wish without a condition.
        """
        items: list[str] = []
        for sentence in _SENTENCE.split(self.scenario.reason or self.scenario.instructions):
            if not _WISH.search(sentence) or _CONDITION.search(sentence):
                continue
            for found in _ITEM.finditer(sentence):
                words = found["item"].split()
                if words[-1] == "instead":
                    words = words[:-1]
                if not words or {words[0], words[-1]} & _NOT_ITEMS:
                    continue
                item = " ".join(words)
                if item not in items:
                    items.append(item)
        return items

    def unknown(self) -> list[str]:
        labels: list[str] = []
        for sentence in self.sentences:
            for found in _UNKNOWN.finditer(sentence):
                head = re.split(r"\s+(?:you|that|which|who)\b", found["label"])[0]
                for label in re.split(r"\s+or\s+(?:the\s+)?|\s+and\s+(?:the\s+)?", head):
                    words = [_LABEL_WORDS.get(w.lower(), w.lower()) for w in label.split()]
                    said = " ".join(words).strip()
                    if said and said not in labels:
                        labels.append(said)
                        self.note(f"unknown:{said}", found.group())
        return labels

    def answers(self) -> list[Answer]:
        answers: list[Answer] = []

        def add(topic_text: str, answer_text: str, excerpt: str) -> None:
            if _QUOTED_ANSWER.match(answer_text.strip()):
                return
            said = _ANSWER_END.sub("", _ANSWER_LEAD.sub("", answer_text.strip())).strip(" .")
            said = said.strip("'\"")
            if not said or _NOT_ANSWERS.match(said):
                return
            topic = _topic_words(topic_text)
            known = self.facts.get("_".join(topic), "")
            if known and _squashed(first_person(known)) in _squashed(first_person(said)):
                return  # a fact the brief holds ("reason: ..."): it is told as one
            any_of = not topic
            if any_of:
                topic = [w for w in _topic_words(said) if len(w) > 3][:4]
            if not topic:
                return
            answers.append(Answer(topic=topic, any_of=any_of, say=_sentence_of(first_person(said))))
            self.note(f"answer:{len(answers) - 1}", excerpt)

        for sentence in self.sentences:
            if _CONFIRM.search(sentence):
                continue
            for pattern in (_REASON_WHEN_ASKED, _PROVIDE_WHEN_ASKED, _ASKED):
                if found := pattern.search(sentence):
                    add(found["topic"], found["answer"], found.group())
                    break
        return answers

    def on_refusal(self) -> str:
        for sentence in self.sentences:
            if found := _ON_REFUSAL.search(sentence):
                said = _REFUSAL_LEAD.sub("", found["then"].strip())
                self.note("conduct:on_refusal", found.group())
                return _sentence_of(first_person(said))
        return ""

    def withheld(self) -> list[str]:
        labels: list[str] = []
        for sentence in self.sentences:
            if not _WITHHOLD.search(sentence):
                continue
            for label, pattern in _WITHHELD_TOPICS:
                if re.search(pattern, sentence) and label not in labels:
                    labels.append(label)
                    self.note(f"withheld:{label}", sentence)
        return labels

    def budget(self) -> float | None:
        for sentence in self.sentences:
            for pattern in _BUDGET:
                if found := pattern.search(sentence):
                    self.note("conduct:budget", found.group())
                    return float(found["x"].replace(",", ""))
        return None

    def healthy(self) -> bool:
        for sentence in self.sentences:
            if found := _HEALTHY.search(sentence):
                self.note("conduct:healthy", found.group())
                return True
        return False

    def read(self) -> ConductReading:
        self.read_declines()
        conduct = Conduct(
            no_transfer=self.no_transfer(),
            persistence=self.persistence(),
            on_refusal=self.on_refusal(),
            no_alternative=self.no_alternative(),
            confirmations=self.confirmations(),
            unknown=self.unknown(),
            answers=self.answers(),
            withheld=self.withheld(),
            budget=self.budget(),
            healthy=self.healthy(),
        )
        return ConductReading(conduct=conduct, declines=self.declines, evidence=self.evidence)


def _said_instead(then: str) -> str:
    """The user's words for what it does instead of confirming ("" when nothing is left)."""
    said = " ".join(then.split()).strip(" ,;")
    for pattern, replacement in _INSTEAD:
        said = pattern.sub(replacement, said).strip(" ,;")
    if not re.search(r"[A-Za-z]", said):
        return ""
    sentence = _sentence_of(first_person(said))
    if sentence.startswith(("Not yet", "Before that")):
        return sentence
    if not re.match(r"I\b", sentence):
        sentence = sentence[:1].lower() + sentence[1:]
    return f"Actually, {sentence}"


def _topic_words(text: str) -> list[str]:
    words = re.findall(r"[a-z0-9][a-z0-9-]*", text.lower())
    return list(dict.fromkeys(w for w in words if w not in _TOPIC_STOP))


def _sentence_of(text: str) -> str:
    text = " ".join(text.split()).strip(" ,;")
    if not text:
        return ""
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _squashed(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def read_conduct(scenario: ScenarioText, facts: Mapping[str, str] | None = None) -> ConductReading:
    """The scenario's `Conduct`, extra declines and evidence (see the module docstring).

    Args:
        scenario: The scenario's sections.
        facts: The facts the brief already holds (an answer that only repeats one is left to
            the facts: "Details you can give when asked: reason: ...").
    """
    return _Reader(scenario, facts or {}).read()
