"""The scripted user holding to its instructions when the agent leaves the expected path.

The brief's `Conduct` (`tau_env.tasks.scenario_rules`) says what the scenario tells the user
to do off the happy path; `Keeper` applies it to one agent message at a time, for one
episode (it remembers how many confirmations were asked, what was declined, how often it
pushed back). Each method returns the user's words when its rule applies, else None, and
`ScriptedUser` falls back to its ordinary reply:

- `transfer_offer`: an offer to transfer to a human ("Would you like me to transfer you?"),
  declined by a user told not to be transferred;
- `topic_answer`: a question on a topic the scenario says how to answer ("If the agent asks
  for the reason, say...");
- `health_answer`: a question about a health reason, for a user told it is healthy;
- `unknown_or_withheld`: a question for a detail the user does not know or will not tell;
- `decision`: an offer or a request for confirmation: the scenario's words instead of a yes
  (only part of the scope, a change of mind), a price over the budget, an alternative the user
  does not accept, a declined offer pushed again;
- `pushback`: a refusal, for a user told what to answer to one, or to insist (a few times,
  then as the brief says).

What the user says from its instructions is said in its own words (never a run of its
instructions: `paraphrase.said_in_own_words`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tau_env.tasks.model import Conduct, ConfirmRule, UserScript
from tau_env.wrappers.users.matcher import asked_facts, asks_question, mentions, sentences
from tau_env.wrappers.users.voice import Voice

__all__ = ["Keeper", "asks_for_confirmation", "offers_transfer"]

_TRANSFER_WORDS = re.compile(
    r"\b(?:transfer\w*|human agent|live agent|real person|supervisor|representative|"
    r"specialist|escalat\w*)\b"
)
_OFFERING = re.compile(
    r"\b(?:would you (?:also )?like|do you (?:also )?want|shall i|should i|want me to|"
    r"like me to|if you(?:'d| would)? (?:like|prefer|want))\b"
)
_CONFIRMING = re.compile(
    r"\b(?:confirm\w*|proceed|go ahead|shall i|should i|is (?:that|this) (?:correct|right|ok"
    r"(?:ay)?)|do you agree|are you sure|ok(?:ay)? with)\b"
)
_ALTERNATIVE = re.compile(
    r"\b(?:instead|alternative\w*|another|other|different|rather|how about|what about)\b"
)
_PUSHED = re.compile(
    r"\b(?:are you sure|sure about that|(?:really |strongly )?recommend\w*|reconsider|"
    r"good option|think (?:again|it over)|last chance|still (?:want|say)|won't regret)\b"
)
"""An offer pushed again after the user said no ("Are you sure? I'd really recommend it.")."""
_HEALTH = re.compile(r"\b(?:health\w*|sick|ill|illness|medical|doctor|unwell|injur\w*)\b")
_ASKING = re.compile(
    r"\?|\b(?:please (?:provide|give|tell|share|confirm)|could you (?:provide|give|tell|share)|"
    r"can you (?:provide|give|tell|share)|i(?:'ll| will) need|i need your)\b"
)
_AMOUNT = re.compile(r"\$\s?(\d[\d,]*(?:\.\d+)?)")
_COST = re.compile(r"\b(?:cost\w*|price|charge\w*|fee\w*|pay\w*|total|difference|extra)\b")
_GAIN = re.compile(r"\b(?:refund\w*|credit\w*|back to you|receive|compensation|voucher)\b")
_LABEL_KEYS = {
    "email address": "email",
    "e-mail address": "email",
    "e-mail": "email",
    "date of birth": "dob",
    "birthday": "dob",
    "birth date": "dob",
    "reservation number": "reservation_id",
    "confirmation number": "reservation_id",
    "order number": "order_id",
}


def offers_transfer(text: str) -> bool:
    """True when a sentence offers (asks about) a transfer to a human."""
    for sentence in sentences(text.lower()):
        if _TRANSFER_WORDS.search(sentence) and (
            asks_question(sentence) or _OFFERING.search(sentence)
        ):
            return True
    return False


def asks_for_confirmation(text: str) -> bool:
    """True when the agent asks the user to confirm or offers to go ahead with something."""
    return any(
        (asks_question(s) and (_CONFIRMING.search(s) or _OFFERING.search(s)))
        or "please confirm" in s
        for s in sentences(text.lower())
    )


def _label_key(label: str) -> str:
    """The fact key a label is asked for by ("email address" -> "email", "dob" -> "dob")."""
    label = label.lower()
    if label.endswith("'s dob") or label.endswith(" dob"):
        return "dob"
    key = _LABEL_KEYS.get(label, label)
    return re.sub(r"[^a-z0-9]+", "_", key).strip("_")


def _named(text: str, item: str) -> bool:
    """`text` names `item` (its last word: "the lamp" names the "desk lamp")."""
    words = item.lower().split()
    return bool(words) and re.search(rf"\b{re.escape(words[-1])}", text.lower()) is not None


class Keeper:
    """Applies one brief's conduct to the agent's messages of one episode.

    Args:
        script: The user's brief (its conduct, accepts and declines).
        voice: The user's voice (its register and its check against its instructions).
    """

    def __init__(self, script: UserScript, voice: Voice) -> None:
        self.conduct: Conduct = script.conduct
        self.script = script
        self.voice = voice
        self.confirmations = 0
        self.fired: list[ConfirmRule] = []
        self.declined = False
        self.pushed = 0

    # -- questions -----------------------------------------------------------------------------
    def transfer_offer(self, text: str) -> str | None:
        """A declined transfer offer (only for a user told not to be transferred)."""
        if self.conduct.no_transfer and offers_transfer(text):
            self.declined = True
            return self.voice.say("decline_transfer")
        return None

    def topic_answer(self, text: str) -> str | None:
        """The scenario's answer to a question on its topic (the first that fits)."""
        if not self.conduct.answers or not _ASKING.search(text):
            return None
        lowered = text.lower()
        best, most = None, 0
        for answer in self.conduct.answers:  # the one naming most of its topic's words
            present = sum(_has_word(lowered, word) for word in answer.topic)
            enough = 1 if answer.any_of else max(1, (2 * len(answer.topic) + 2) // 3)
            if present >= enough and present > most:
                best, most = answer, present
        return (self.voice.own_words(best.say) or None) if best is not None else None

    def health_answer(self, text: str) -> str | None:
        """No health reason, for a healthy user asked about one."""
        if self.conduct.healthy and _ASKING.search(text) and _HEALTH.search(text.lower()):
            return self.voice.say("healthy")
        return None

    def unknown_or_withheld(self, text: str, known: Sequence[str]) -> list[str]:
        """What the user says about the details it is asked for and does not know or tell.

        Args:
            text: The agent's message.
            known: Fact keys the user knows (those are answered as usual).
        """
        if not _ASKING.search(text):
            return []
        said: list[str] = []
        for label in self.conduct.withheld:
            if asked_facts(text, [_label_key(label)]):
                said.append(self.voice.withhold(label))
        for label in self.conduct.unknown:
            key = _label_key(label)
            if key not in known and asked_facts(text, [key]):
                said.append(self.voice.unknown_fact(label))
        return said

    # -- offers and confirmations --------------------------------------------------------------
    def decision(self, text: str, ordinary: bool | None) -> str | None:
        """What the user says to an offer or request for confirmation, when its conduct says.

        Args:
            text: The agent's message.
            ordinary: The user's decision without its conduct (None: nothing is offered).
        """
        confirming = asks_for_confirmation(text)
        if not confirming and ordinary is None:
            self.declined = False
            return None
        own = ordinary is None  # an offer the matcher does not read ("would you also like")
        if own:
            ordinary = not mentions(text, self.script.declines) and (
                self._offers_a_wish(text) or "confirm" in self.script.accepts
            )
        if confirming:
            self.confirmations += 1
            rule = self._confirm_rule(text)
            if rule is not None:
                return rule
        if self._over_budget(text):
            self.declined = True
            return self.voice.say("too_expensive")
        if self.conduct.no_alternative and _ALTERNATIVE.search(text.lower()):
            self.declined = True
            return self.voice.say("no")
        if self.declined and _PUSHED.search(text.lower()):
            return self.voice.say("decline_again")  # the declined offer, pushed again
        if ordinary is False and self._offers_a_wish(text):
            self.declined = False  # "...a voucher instead. Would you like that?"
            return self.voice.say("yes")
        self.declined = ordinary is False
        if own:
            return self.voice.say("yes" if ordinary else "no")
        return None

    def _offers_a_wish(self, text: str) -> bool:
        """Whether the message offers what the user accepts and nothing it declines.

        The offer may be named in a sentence before the question ("...a voucher instead.
        Would you like that?").
        """
        wishes = [word for word in self.script.accepts if word != "confirm"]
        return mentions(text, wishes) and not mentions(text, self.script.declines)

    def _confirm_rule(self, text: str) -> str | None:
        rules = self.conduct.confirmations
        now = next((r for r in rules if r.nth == self.confirmations), None)
        if now is None:  # a scope rule holds for every later request; a refusal too
            earlier = [r for r in self.fired if r.only or r.keeps_refusing]
            now = earlier[-1] if earlier else None
            if now is not None and not now.only:
                self.declined = True
                return self.voice.say("no")
        if now is None:
            return None
        if now.only and _named(text, now.only) and not any(_named(text, o) for o in now.others):
            return None  # the scope is right: the ordinary yes
        if now not in self.fired:
            self.fired.append(now)
        said = self.voice.own_words(now.say)
        self.declined = now.keeps_refusing
        return said or self.voice.say("no")

    def _over_budget(self, text: str) -> bool:
        budget = self.conduct.budget
        if budget is None:
            return False
        for sentence in sentences(text.lower()):
            if not _COST.search(sentence) or _GAIN.search(sentence):
                continue
            amounts = [float(a.replace(",", "")) for a in _AMOUNT.findall(sentence)]
            if any(amount > budget for amount in amounts):
                return True
        return False

    # -- refusals ------------------------------------------------------------------------------
    def pushback(self) -> str | None:
        """Pushing back on a refusal, or None when the user gives in.

        What the scenario says to answer the first refusal, then the user's own words while
        its persistence lasts.
        """
        first = self.pushed == 0 and self.conduct.on_refusal
        if not first and self.pushed >= self.conduct.persistence:
            return None
        self.pushed += 1
        if first:
            return self.voice.own_words(self.conduct.on_refusal) or self.voice.say("insist")
        return self.voice.say("insist")


def _has_word(text: str, word: str) -> bool:
    """`text` holds `word` or a form of it ("passengers" for "passenger", "why" for "reason")."""
    if word == "reason" and re.search(r"\bwhy\b", text):
        return True
    stem = word[:-1] if word.endswith("s") and len(word) > 3 else word
    return re.search(rf"\b{re.escape(stem)}", text) is not None
