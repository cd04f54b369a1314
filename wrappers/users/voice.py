"""What the scripted user says, in its register and in its own words: `Voice`.

One voice per episode. Its choices are keyed by the episode seed, the task id and the scenario
text (`_Picks`), so the same (task, seed) always sounds the same and other seeds sound
different (the user's other chances -- a novice's mistakes -- keep their own random source).

- **The opening**: maybe a greeting, maybe a preface ("I hope you can help me."), the reason
  for calling in the customer's words (`paraphrase.spoken_variants`, worked out once per
  scenario) and maybe a closing ask ("Can you help me with that?").
- **Replies**: each kind of reply is said in one of its register's phrasings (`register`);
  facts are told as ``My <label> is <value>.``, several in an order the scenario does not use.
- **Questions** from the scenario are said like the opening: in other words, with a lead.

Nothing said copies 8 words of the scenario (`parroting`): the reason and the questions are
checked when worked out, the opening's assembly (a few tuple look-ups) in every episode.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence
from functools import lru_cache
from typing import Literal, TypeVar

from tau_env.tasks.model import UserScript
from tau_env.wrappers.users.paraphrase import said_in_own_words, spoken_variants
from tau_env.wrappers.users.parroting import ScenarioWords, masked_words
from tau_env.wrappers.users.register import Register

__all__ = ["Phrase", "Voice"]

T = TypeVar("T")

Phrase = Literal[
    "yes",
    "no",
    "okay",
    "unknown",
    "ask_human",
    "accept_refusal",
    "closing",
    "give_up",
    "repeat",
    "decline_transfer",
    "insist",
    "decline_again",
    "too_expensive",
    "healthy",
    "too_many",
]
"""What a customer says without content of its own: a bank of `Register` phrasings each."""


class _Picks:
    """Deterministic choices from a key, without a `random.Random`.

    Seeding a Mersenne Twister costs about 20 µs, a twentieth of a whole mock episode, and a
    voice only picks a few phrasings: each pick hashes the previous state (ints hash the same
    in every process), which spreads well enough over a handful of options.
    """

    def __init__(self, key: str) -> None:
        self.state = zlib.crc32(key.encode())

    def below(self, n: int) -> int:
        """An index in ``range(n)``."""
        self.state = hash((self.state, n))
        return self.state % n

    def choice(self, options: Sequence[T]) -> T:
        """One of `options`."""
        return options[self.below(len(options))]


_LOWER_AFTER = (",", "and")
_BECAUSE = re.compile(r"\b(?:because|since|as|due to)\b", re.IGNORECASE)
_GREETING = re.compile(r"(?:hi|hello|hey|good (?:morning|afternoon|evening))\b", re.IGNORECASE)


class Voice:
    """The words of one scripted customer in one episode.

    Args:
        script: The customer's brief (its opening and questions are said in other words).
        scenario_text: The scenario as the customer received it (never read aloud).
        register: How the customer talks.
        seed: The episode seed.
        task_id: The task's id (two tasks with one scenario still sound different).
    """

    def __init__(
        self, script: UserScript, scenario_text: str, register: Register, seed: int, task_id: str
    ) -> None:
        self.register = register
        self.scenario_text = scenario_text
        self.rng = _Picks(f"{seed}:{task_id}:{scenario_text}")
        cores = spoken_variants(script.opening, scenario_text, register.fillers)
        rng = self.rng
        parts = (
            rng.below(len(cores)),
            rng.below(len(register.greetings)),
            rng.below(len(register.prefaces)),
            rng.below(len(register.closers)),
        )
        self.opening = _opening(cores, scenario_text, register, parts)
        self.reasons = cores
        self._questions = script.questions

    # -- replies -------------------------------------------------------------------------------
    def say(self, phrase: Phrase) -> str:
        """One of the register's phrasings of `phrase` (see `Register`'s banks)."""
        bank: tuple[str, ...] = getattr(self.register, phrase)
        return self.rng.choice(bank)

    def facts(self, answers: list[str]) -> str:
        """The answers to the agent's fact questions, after a lead of the register.

        Several answers in the order the scenario states them would retell its "your name
        is ..., your phone number is ..." line: they are then said in another order.
        """
        lead = self.rng.choice(self.register.fact_leads)
        words = ScenarioWords.of(self.scenario_text)
        orders = [answers, answers[::-1]] + [
            answers[i:] + answers[:i] for i in range(1, len(answers))
        ]
        said = next((" ".join(o) for o in orders if not words.copied(" ".join(o))), None)
        if said is None:  # every order copies: the answers in other words
            said = self.own_words(" ".join(answers)) or " ".join(answers)
        return f"{lead} {said}" if lead else said

    def unknown_fact(self, label: str) -> str:
        """Not knowing the fact `label` ("Sorry, I don't know my email.")."""
        return self.rng.choice(self.register.unknown_fact).format(label=label)

    def withhold(self, label: str) -> str:
        """Not telling the detail `label`, which the agent can look up."""
        return self.rng.choice(self.register.withhold).format(label=label)

    def own_words(self, line: str) -> str:
        """A reply the scenario tells the user to give, in words copying none of it.

        "" when it cannot be said so (see `paraphrase.said_in_own_words`).
        """
        return said_in_own_words(line, self.scenario_text, self.register.fillers)

    def reason(self) -> str:
        """Why the user calls, said again when the agent asks (the opening's reason)."""
        if not self.reasons:
            return self.say("unknown")
        said = re.split(r"(?<=[.!?])\s+", self.reasons[0])
        because = [s for s in said if _BECAUSE.search(s)]
        return (because or said)[0]

    def not_understood(self, thing: str = "") -> str:
        """Not understanding what the agent asks to be done (about `thing`, when it named one)."""
        if thing:
            return self.rng.choice(self.register.not_understood_thing).format(thing=thing)
        return self.rng.choice(self.register.not_understood)

    def question(self, index: int) -> str:
        """The scenario's question `index`, in other words and with a lead."""
        said = spoken_variants(self._questions[index], self.scenario_text, self.register.fillers)
        question = self.rng.choice(said)
        lead = self.rng.choice(self.register.question_leads)
        if not lead:
            return question
        if lead.endswith(_LOWER_AFTER) and not question.startswith(("I ", "I'")):
            question = question[:1].lower() + question[1:]
        return _checked(f"{lead} {question}", question, self.scenario_text)


def _checked(said: str, fallback: str, scenario_text: str) -> str:
    """`said` unless it copies the scenario (its parts were checked alone), else `fallback`."""
    return fallback if ScenarioWords.of(scenario_text).copied(said) else said


@lru_cache(maxsize=65536)
def _opening(
    cores: tuple[str, ...],
    scenario_text: str,
    register: Register,
    parts: tuple[int, int, int, int],
) -> str:
    """The opening put together from its chosen parts (the reason alone if they copy).

    Each part was checked alone; together they could still copy the scenario. Every part ends
    a sentence, so the words of the whole are the parts' words end to end (`masked_words` of
    each part is cached; the check is a few tuple look-ups). Cached per combination of parts.
    """
    core_index, greeting, preface, closer = parts
    core = cores[core_index]
    hello = register.greetings[greeting]
    ask = register.closers[closer]
    greets = _GREETING.match(core)  # the scenario's own line: "Hi, could you..."
    if greets is not None:  # said with the customer's own greeting word instead
        if hello and "," not in hello:
            core = hello.rstrip(".!") + core[greets.end() :]
        hello = ""
    said = [
        hello,
        "" if greets else register.prefaces[preface],
        core,
        "" if core.endswith("?") and ask.endswith("?") else ask,  # asked already
    ]
    said = [part for part in said if part]
    words = tuple(word for part in said for word in masked_words(part))
    scenario = ScenarioWords.of(scenario_text)
    if scenario.repeats(words) or scenario.plain.copied(" ".join(said)):
        return cores[core_index]
    return " ".join(said)
