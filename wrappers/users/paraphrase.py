"""The scripted user's reason for calling, said in its own words (never its instructions').

The brief's ``opening`` is the scenario's reason for calling put in the first person: the
instructions' own sentences. A customer says the same wish in other words and leaves the stage
directions out. `spoken_variants` turns the brief's opening into a few spoken versions:

1. **What is said.** Item details are said in words (`attributes.speak_attributes`: "the blue
   T-Shirt in size S", never a literal or an attribute list). The opening is cut into
   sentences; stage directions are left out
   (sentences that start like an instruction: "If the agent...", "Mention...", "Make sure...",
   "First, try to..."; sentences about the play itself: "pretend", "make up a story", "do not
   reveal", "upfront"...; the same inside a sentence after a comma, and in parentheses). A
   conditional preference of the customer's own ("If there is no clicky one, I'd go for...")
   stays. Sentences follow while the opening stays under `WORD_BUDGET` words (the first is
   always said): a customer gives the gist first and details when asked.
2. **How it is said.** Seeded rewrites: the wish ("I want to" -> "I'd like to", "I need to",
   "I'm hoping to"...), linking words ("because" -> "since"), a possessive for the customer's
   own records ("cancel order #W1" -> "cancel my order #W1"), and everyday synonyms (`SYNONYMS`,
   applied now and then for variety). Content words -- what the customer wants and the things it
   concerns -- are never replaced, so an agent reads the same wish.
3. **Checked.** Each sentence is checked against the scenario with `parroting.ScenarioWords`;
   where a run of 8 scenario words remains, a synonym inside the run is used, or a filler of the
   customer's register ("you know", "um") is put in the run's middle at a word boundary; a
   sentence that still copies is dropped (the first is then said as its gist).

Variants are computed once per (opening, scenario text, fillers) and cached: the episode only
picks one (`tau_env.wrappers.users.voice`).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from functools import lru_cache, partial

from tau_env.wrappers.users.attributes import speak_attributes
from tau_env.wrappers.users.parroting import ScenarioWords, masked_words
from tau_env.wrappers.users.phrasebook import (
    CONNECTORS,
    LINKS,
    QUESTION_STARTS,
    REWRITES,
    SYNONYMS,
)

__all__ = [
    "FILLER_BUDGET",
    "WORD_BUDGET",
    "said_in_own_words",
    "sayable_sentences",
    "spoken_variants",
]

WORD_BUDGET = 50
"""Sentences after the first are said while the opening stays within this many words (the
words `parroting.masked_words` counts: ids, names, numbers and quoted facts are free)."""

FILLER_BUDGET = 2
"""Fillers an opening may take to break copied runs; a sentence needing more is left out."""

_SENTENCES = re.compile(r"(?<=[.!?])\s+(?=[\"“'(]?[A-Z0-9#])|\n+")
_STOP = re.compile(r"#{3}[A-Z_]+#{3}")
_MARKUP = re.compile(r"\*\*|`|^\s*[-*•]\s+|^#+\s*", re.MULTILINE)
_BULLET = re.compile(r"\s+-\s+(?=[a-z])")
_LIST_INTRO = re.compile(r":\s*-\s+")
_LEAD = r"^(?:(?:first|then|also|next|finally|lastly|afterwards|after that|and|but|so)\b,?\s+)*"
_IMPERATIVE = re.compile(
    _LEAD + r"(?:if|when|whenever|once|after|before|halfway|during|throughout|until|unless|"
    r"do not|don't|never|always|only|make sure|be|try|ask|tell|say|mention|insist|pretend|"
    r"remember|note|act|keep|avoid|respond|reply|answer|continue|start|begin|end|wait|use|"
    r"request|demand|push|stay|let|give|provide|refuse|accept|agree|confirm|decline|follow|"
    r"report|repeat|explain|see|get|cancel|return|exchange|modify|change|create|call|contact|"
    r"swear|forget|choose|pick|check|switch|split|ignore|play|speak|send)\b",
    re.IGNORECASE,
)
"""A sentence that starts like an instruction (base-form verb, condition on the agent...)."""
_META = re.compile(
    r"\b(?:pretend|make up|story|not allowed|role|playing|simulat\w*|instructions?|upfront|"
    r"up front|bring (?:this|it) up|unless (?:you are |I am )?asked|at once|in this order|"
    r"same time|halfway|abruptly|persistent\w*|insist\w*|reveal\w*|mention\w*|conversation|"
    r"information (?:I|you) should|do not share|don't share|tell (?:the agent|them|it)|"
    r"you are the customer|dump|ground\w* (?:your|my) responses?)\b",
    re.IGNORECASE,
)
"""Words about the play rather than the customer's situation."""
_CONDITION = re.compile(
    r"^(?:if|when|once|in case)\b.*?,\s*(?P<main>(?:I'd|I would|I prefer|I'm|I am|I can|I'll|"
    r"I will)\b.*)$|^(?:if|when|once|in case)\b",
    re.IGNORECASE,
)
_PREFERENCE = re.compile(
    r"^(?:I'd|I would|I prefer|I'm (?:ok|okay|fine)|I am (?:ok|okay|fine)|I can|I'll take)\b"
)
_TRY = re.compile(r"^(?:first,?\s+)?try to\b", re.IGNORECASE)
_AGENT = re.compile(r"\bthe (?:customer (?:service|support) )?agent(?:'s)?\b", re.IGNORECASE)
_CLAUSE = re.compile(r",\s+|;\s+|:\s+|\s+-\s+|\s+—\s+")
_DIRECTIVE_CLAUSE = re.compile(
    r"^(?:so |and |then |but |or )*(?:insist|ask (?:the agent|for|them|to)|mention|tell|say|"
    r"try to|make sure|do not|don't|just say|pretend|swear|see if|confirm|agree)\b",
    re.IGNORECASE,
)
_DIRECTIVE_PARENS = re.compile(r"\s*\([^()]*\)")
_WORD_CHARS = re.compile(r"[A-Za-z0-9]")

_COMPILED_REWRITES = tuple(
    (re.compile(pattern, re.IGNORECASE), options) for pattern, options in REWRITES
)
_SYNONYM_WORD = {
    word: re.compile(rf"(?<![\w-]){word}(?![\w-])", re.IGNORECASE) for word in SYNONYMS
}
_VARIETY = 0.3
"""Chance that a synonym is used where no copying forces it (variety across seeds)."""
_ATTEMPTS = 16
_PRONOUN_I = re.compile(r"I\b")


def _clean(text: str) -> str:
    text = speak_attributes(_STOP.sub("", text))
    text = _MARKUP.sub("", text)
    text = _LIST_INTRO.sub(": ", text)
    text = _BULLET.sub(", ", text)
    return " ".join(text.split())


def _sayable(sentence: str) -> str:
    """`sentence` without its stage directions ("" when it is one)."""
    sentence = _DIRECTIVE_PARENS.sub(_unless_directive, sentence)
    sentence = _TRY.sub("I want to", sentence)
    condition = _CONDITION.match(sentence)
    if condition is not None:  # "If there is no clicky one, I'd go for..." is the customer's
        main = condition["main"]
        own = main is not None and _PREFERENCE.match(main) and not _META.search(sentence)
        return _before_directive_clause(sentence) if own else ""
    if _IMPERATIVE.match(sentence):
        return ""
    sentence = _AGENT.sub(lambda m: "your" if m.group().endswith("'s") else "you", sentence)
    if _META.search(sentence):
        return _before_meta(sentence)
    return _before_directive_clause(sentence)


def _unless_directive(found: re.Match[str]) -> str:
    """A parenthesis kept, unless it is a stage direction ("(do not mention...)")."""
    inner = found.group().strip()[1:]
    return "" if _META.search(inner) or _DIRECTIVE_CLAUSE.match(inner) else found.group()


def _before_meta(sentence: str) -> str:
    """The clauses of `sentence` before the first one about the play ("" when it starts so)."""
    kept: list[str] = []
    for clause in _CLAUSE.split(sentence):
        if _META.search(clause):
            break
        kept.append(clause)
    return _end(", ".join(kept))


def _before_directive_clause(sentence: str) -> str:
    parts = _CLAUSE.split(sentence)
    for index, clause in enumerate(parts[1:], start=1):
        if _DIRECTIVE_CLAUSE.match(clause):
            return _end(", ".join(parts[:index]))
    return sentence


def _end(text: str) -> str:
    text = text.strip().rstrip(",;:-—").strip()
    if not _WORD_CHARS.search(text):
        return ""
    return text if text.endswith((".", "!", "?")) else text + "."


def sayable_sentences(opening: str) -> list[str]:
    """The sentences of `opening` a customer would say, in order (see the module docstring).

    Never empty for an opening with words: when every sentence is a stage direction, the first
    sentence is kept (then only its gist may be said).
    """
    sentences = [s.strip() for s in _SENTENCES.split(_clean(opening)) if s and s.strip()]
    sentences = [s for s in sentences if _WORD_CHARS.search(s)]
    said = [_end(kept) for kept in (_sayable(s) for s in sentences) if kept]
    return [s for s in said if s] or [_end(s) for s in sentences[:1]]


def _match_case(replacement: str, found: str) -> str:
    if found[:1].isupper():
        return replacement[:1].upper() + replacement[1:]
    return replacement


def _rewrite(sentence: str, rng: random.Random, variety: float = _VARIETY) -> str:
    """`sentence` with every rewrite that applies, each with a seeded choice of alternative.

    Each synonym that could be used is, with the chance `variety`.
    """
    for pattern, options in _COMPILED_REWRITES:
        if pattern.search(sentence):
            sentence = pattern.sub(partial(_said_as, rng.choice(options)), sentence)
    for word, pattern in _SYNONYM_WORD.items():
        if variety and rng.random() < variety and pattern.search(sentence):
            sentence = _substitute(sentence, pattern, rng.choice(SYNONYMS[word]), 0)
    if sentence.startswith(QUESTION_STARTS) and sentence.endswith("."):
        sentence = sentence[:-1] + "?"
    return sentence


def _said_as(template: str, found: re.Match[str]) -> str:
    """What a rewrite says for one match: its alternative, groups filled in, case kept."""
    return _match_case(found.expand(template), found.group())


def _substitute(text: str, pattern: re.Pattern[str], replacement: str, occurrence: int) -> str:
    """`text` with the `occurrence`-th match of `pattern` replaced (case kept)."""
    matches = list(pattern.finditer(text))
    if occurrence >= len(matches):
        return text
    found = matches[occurrence]
    said = _match_case(replacement, found.group())
    return text[: found.start()] + said + text[found.end() :]


def _copied_length(text: str, words: ScenarioWords) -> int:
    return sum(len(run.split()) for run in words.copied(text))


class _Check:
    """Copying of a sentence said after `context` (runs may cross a sentence end)."""

    def __init__(self, words: ScenarioWords, context: str) -> None:
        self.words = words
        self.context = context

    def copied(self, sentence: str) -> int:
        return _copied_length(f"{self.context} {sentence}", self.words)

    def first_run(self, sentence: str) -> list[str]:
        return self.words.copied(f"{self.context} {sentence}")[0].split()


def _repaired(
    sentence: str, check: _Check, rng: random.Random, fillers: Sequence[str], budget: int
) -> tuple[str, int] | None:
    """`sentence` changed until it copies no run of the scenario, and the fillers it took.

    None when it cannot be done with at most `budget` fillers.
    """
    copied = check.copied(sentence)
    used = 0
    for _ in range(_ATTEMPTS):
        if not copied:
            return sentence, used
        run = check.first_run(sentence)
        better = _with_synonym(sentence, run, check, copied, rng) or _with_connector(
            sentence, check, copied, rng
        )
        if better is None and used < budget:
            better = _with_filler(sentence, run, check, copied, rng, fillers)
            used += 1
        if better is None:
            return None
        sentence, copied = better
    return (sentence, used) if not copied else None


def _with_connector(
    sentence: str, check: _Check, copied: int, rng: random.Random
) -> tuple[str, int] | None:
    """A run across the previous sentence's end: the sentence starts with a link word."""
    if not check.context or sentence.startswith(CONNECTORS):
        return None
    connector = rng.choice(CONNECTORS)
    first = sentence[:1] if _PRONOUN_I.match(sentence) else sentence[:1].lower()
    changed = f"{connector} {first}{sentence[1:]}"
    now = check.copied(changed)
    return (changed, now) if now < copied else None


def _middle_out(run: Sequence[str]) -> list[str]:
    middle = len(run) // 2
    order = sorted(range(len(run)), key=lambda i: abs(i - middle))
    return [run[i] for i in order if not run[i].startswith("<")]


def _with_synonym(
    sentence: str, run: Sequence[str], check: _Check, copied: int, rng: random.Random
) -> tuple[str, int] | None:
    for word in _middle_out(run):
        pattern = _SYNONYM_WORD.get(word)
        if pattern is None:
            continue
        for occurrence in range(len(pattern.findall(sentence))):
            changed = _substitute(sentence, pattern, rng.choice(SYNONYMS[word]), occurrence)
            now = check.copied(changed)
            if now < copied:
                return changed, now
    return None


def _with_filler(
    sentence: str,
    run: Sequence[str],
    check: _Check,
    copied: int,
    rng: random.Random,
    fillers: Sequence[str],
) -> tuple[str, int] | None:
    """A filler said between two words of the run, before a linking word where there is one."""
    filler = rng.choice(fillers)
    candidates = _middle_out(run)[:5]
    candidates.sort(key=lambda word: word not in LINKS)
    for word in candidates:
        pattern = re.compile(rf"(?<=\w)[,;:]?\s+(?={re.escape(word)}\b)", re.IGNORECASE)
        for found in pattern.finditer(sentence):
            changed = f"{sentence[: found.start()]}, {filler}, {sentence[found.end() :]}"
            now = check.copied(changed)
            if now < copied:
                return changed, now
    return None


_GIST_VERB = re.compile(
    r"\b(cancel|book|exchange|return|change|modify|update|swap|upgrade|downgrade|add|remove|"
    r"refund|pay|open|close|dispute|check|know|fix|create|delete|mark)\b",
    re.IGNORECASE,
)
_GIST_ITEM = re.compile(r"#?\b[A-Z][\w-]*\d[\w-]*\b|\b[a-z]+_[a-z_]*\d+\b|\b[A-Z]{2,}\b")


def _gist(sentence: str) -> str:
    """What a sentence is about, said without its words: its first wish verb and its ids."""
    verb = _GIST_VERB.search(sentence)
    items = list(dict.fromkeys(_GIST_ITEM.findall(sentence)))[:3]
    said = f"I'm calling to {verb.group(1).lower()} something." if verb else "I need some help."
    return f"{said} It's about {', '.join(items)}." if items else said


def _first_clause(sentence: str) -> str:
    """The sentence's first clause (up to its first comma, semicolon or "and"), as a sentence."""
    head = re.split(r",\s+|;\s+|\s+and\s+|\s+but\s+", sentence, maxsplit=1)[0]
    return _end(head)


@lru_cache(maxsize=16384)
def spoken_variants(
    opening: str, scenario_text: str, fillers: tuple[str, ...], count: int = 6
) -> tuple[str, ...]:
    """`count` spoken versions of a brief's `opening`, none copying `scenario_text` (cached).

    Args:
        opening: The brief's opening (the reason for calling in the first person).
        scenario_text: The scenario as the user receives it (what must not be read aloud).
        fillers: The customer's fillers, put inside a run that nothing else breaks.
        count: How many versions.
    """
    words = ScenarioWords.of(scenario_text)
    sentences = sayable_sentences(opening)
    variants: list[str] = []
    for index in range(count):
        rng = random.Random(f"{index}:{opening}")
        said: list[str] = []
        total = 0
        budget = FILLER_BUDGET
        for position, sentence in enumerate(sentences):
            size = len(masked_words(sentence))  # ids, names and item details are not counted
            if position and total + size > WORD_BUDGET:
                break
            check = _Check(words, " ".join(said))
            tries = [sentence] if position else [sentence, _first_clause(sentence)]
            spoken = None
            for attempt in tries:
                spoken = _repaired(_rewrite(attempt, rng), check, rng, fillers, budget)
                if spoken is not None:
                    break
            if spoken is None:
                if position:
                    continue
                spoken = (_gist(sentence), 0)
            said.append(spoken[0])
            budget -= spoken[1]
            total += size
        variants.append(" ".join(said))
    return tuple(dict.fromkeys(variants))


@lru_cache(maxsize=16384)
def said_in_own_words(line: str, scenario_text: str, fillers: tuple[str, ...]) -> str:
    """`line` (a reply the scenario tells the user to give) in words that copy no run of it.

    Item details said in words, a seeded rewrite of its phrasing (no synonym for variety: the
    reply says what it was told, "by mistake" stays), then the repairs of `spoken_variants`
    (synonyms, link words, at most `FILLER_BUDGET` fillers). "" when it cannot be said so.
    """
    rng = random.Random(line)
    sentence = _rewrite(speak_attributes(" ".join(line.split())), rng, variety=0.0)
    repaired = _repaired(
        sentence, _Check(ScenarioWords.of(scenario_text), ""), rng, fillers, FILLER_BUDGET
    )
    return repaired[0] if repaired is not None else ""
