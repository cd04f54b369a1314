"""The scripted user: a deterministic, offline, free simulated customer.

It knows only what an LLM user playing the same task is told: its brief is read from the
scenario text (`tau_env.wrappers.users.script`), its tools are its own, and its `UserStyle`
decides how it acts (by default the one the scenario's persona describes). Its `Voice`
(`tau_env.wrappers.users.voice`) decides the words: a register the persona picks, phrasings the
seed picks, and the reason for calling and the scenario's questions said in the customer's own
words -- never 8 words in a row of its instructions (`tau_env.wrappers.users.parroting`).
Each turn it does the first of these that applies:

1. **Performs** the next queued tool call (requested calls first, then goal checks).
2. After a batch of calls, **reports** what its tools showed (and any answers held back); when
   goal checks were run and all pass, it **stops satisfied** (``closing ###STOP###``).
3. **Opens** with its reason for calling (the script's ``opening``, in its own words).
4. Reads the agent's latest message (its first `READ_LIMIT` characters, as much as a customer
   reads of a message). Its conduct off the path comes first (`conduct.Keeper`, read from the
   scenario by `tau_env.tasks.scenario_rules`): a transfer offer declined by a user told not
   to be transferred, a question on a topic the scenario says how to answer (unless the
   message asks for something on the phone: that is done), a health reason denied; then:
   - a transfer announcement or offer (that asks for no user tool): **stops** with
     ``###TRANSFER###``;
   - requested user-tool calls (the structured ``request`` when the style reads it, else the
     words through `tau_env.wrappers.users.matcher`, with the domain's `RequestLexicon`):
     performs those in ``accepted_tools``, declines the others, asks for missing arguments
     (a novice may ask for the instruction again first, or run a neighbouring tool instead;
     asked the same message again after that, it does the step it missed and leaves the
     switches it already flipped as they are); handed more than `MAX_STEPS` steps at once (a
     manual read out), it asks to go one step at a time (an unproductive turn);
   - a request it does not understand (asking for nothing else it understood): **says it
     does not understand** and asks what to do, in its register's words (an unproductive
     turn); with other requests understood, it does those and says so after its report;
   - fact questions: answers from ``facts``, says it does not know anything else (what the
     scenario says it does not know, or will not tell, is said as such);
   - an offer or a request for confirmation: what the scenario says to answer instead of yes
     (only part of the scope, a change of mind), a price over its budget or an alternative it
     does not accept declined, a declined offer pushed again declined again; else declines
     what ``declines`` names, accepts what ``accepts`` names (its wishes and what the scenario
     allows), declines the rest;
   - a statement that the work is done (never a question or a promise): runs its goal checks
     (and stops if they pass), asks the scenario's questions, then stops satisfied;
   - an answer, when the user only wanted to know something: asks its next question or stops;
   - a refusal: asks for a human when the scenario says so (once), pushes back when it says
     to insist (or says what it says to answer a refusal), otherwise stops;
   - anything else: a short neutral answer, its reason again when asked why (with goal
     checks: it checks again and reports). After ``patience`` such turns in a row it gives up
     and stops.

It never improvises facts, so the same agent behaviour and seed always give the same
conversation.
"""

from __future__ import annotations

import random
import re
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any, Literal

from tau_env.actions import Action, CallTool, SendMessage, Stop
from tau_env.domain import Domain
from tau_env.env.aec import SideContext
from tau_env.env.conversation import SideView
from tau_env.messages import STOP_TOKENS, AssistantMessage, ToolMessage
from tau_env.tasks.model import Task, UserScript
from tau_env.tasks.scenario_reading import read_scenario
from tau_env.tasks.scenario_text import first_person
from tau_env.wrappers.users.attributes import speak_attributes
from tau_env.wrappers.users.conduct import Keeper
from tau_env.wrappers.users.matcher import (
    RequestedCall,
    ToolRequests,
    announces_transfer,
    asked_facts,
    asks_question,
    claims_done,
    offer_decision,
    read_requests,
    refuses,
    sentences,
)
from tau_env.wrappers.users.register import register_for
from tau_env.wrappers.users.report import Reporter
from tau_env.wrappers.users.script import vocabulary_of
from tau_env.wrappers.users.style import UserStyle, resolve_style
from tau_env.wrappers.users.voice import Voice

__all__ = ["ScriptedUser"]

READ_LIMIT = 20_000
"""Characters of an agent message the user reads (about 3,000 words). Reading costs about 10
microseconds a character, and a megabyte message that a server plays in one process would hold
that process for seconds, in regular-expression calls no thread switch can interrupt."""

MAX_STEPS = 10
"""Phone steps a customer follows from one message. Handed more (a manual read out: 13 to 32
requests; a gold plan lists at most 9 in a row), it asks to go one step at a time."""

_STOP = STOP_TOKENS["done"]
_ANSWER = re.compile(r"\d")
_CLOSING = re.compile(
    r"\b(?:anything else|something else|any other questions?|anything more)\b", re.IGNORECASE
)
_WHY = re.compile(r"\b(?:why|reason|what for|what happened)\b", re.IGNORECASE)


class ScriptedUser:
    """Plays the user side of one episode.

    Args:
        task: The task being played (only its scenario is read).
        domain: The task's domain, for its `UserVocabulary` (None: the generic reading).
        script: Use this brief instead of the one read from the scenario.
        style: A `UserStyle`, a style name (``structured``, ``plain``, ``paraphrase``,
            ``novice``), or None / ``"persona"``: the style the scenario's persona describes.
        seed: Seeds the style's chances (with the scenario text), when `style` is a name or None.
        patience: Overrides the style's patience.
    """

    def __init__(
        self,
        task: Task,
        domain: Domain | None = None,
        *,
        script: UserScript | None = None,
        style: UserStyle | str | None = None,
        seed: int = 0,
        patience: int | None = None,
    ) -> None:
        if patience is not None and patience < 1:
            raise ValueError(f"patience must be >= 1, actually: {patience}")
        vocabulary = vocabulary_of(domain)
        scenario_text = str(task.user_scenario)
        brief = read_scenario(scenario_text, vocabulary.scenario)
        self.script = script if script is not None else brief.script
        self.style = resolve_style(style, brief.persona, seed)
        if patience is not None:
            self.style = replace(self.style, patience=patience)
        register = register_for(brief.persona, self.style)
        self.voice = Voice(self.script, scenario_text, register, seed, task.id)
        self.keeper = Keeper(self.script, self.voice)
        self.lexicon = vocabulary.requests
        lexicon = vocabulary.reports
        self.rng = random.Random(f"{self.style.seed}:{zlib.crc32(brief.script.opening.encode())}")
        self.reporter = Reporter(self.style, lexicon, self.rng)
        self.neighbours = dict(lexicon.neighbours)
        self.opened = False
        self.pending: deque[CallTool] = deque()
        self.phase: Literal["requested", "probe"] = "requested"
        self.results: list[ToolMessage] = []
        self.reported: list[ToolMessage] = []
        self.held: list[str] = []
        self.idle = 0
        self.asked_for_human = False
        self.questions = deque(range(len(self.script.questions)))
        self.awaiting_answer = not (self.script.done_phrases or self.script.goal_checks)
        self.asked_question = False
        self.heard: set[str] = set()
        self.confused: set[str] = set()
        self.substituted: set[str] = set()
        self.redo: tuple[str, frozenset[str]] | None = None  # see `_not_redone`
        self.tools: list[dict[str, Any]] = []

    @property
    def patience(self) -> int:
        """Unproductive agent turns in a row after which the user gives up."""
        return self.style.patience

    @classmethod
    def factory(
        cls,
        domain: Domain | None = None,
        *,
        style: UserStyle | str | None = None,
        seed: int | None = None,
        patience: int | None = None,
    ) -> Callable[..., ScriptedUser]:
        """A participant factory (task -> user) that knows the domain and style, for runners.

        `seed` None (the default): each episode's user takes the episode's seed, which the
        runners and views pass (`tau_env.participant.build_participant`); an int: every
        episode's user uses that seed.
        """
        if seed is None:
            return partial(cls, domain=domain, style=style, patience=patience)
        return partial(cls, domain=domain, style=style, seed=seed, patience=patience)

    # -- the turn ------------------------------------------------------------------------------
    def act(self, view: SideView, context: SideContext) -> Action:
        """The user's next action (see the module docstring for the rules)."""
        self.tools = context.tools
        self.results.extend(m for m in view.inbox if isinstance(m, ToolMessage))
        if self.pending:
            return self.pending.popleft()
        if self.results:
            return self._after_batch()
        if not self.opened:
            self.opened = True
            return SendMessage(content=self.voice.opening)
        message = _latest_agent_message(view)
        text = (message.content or "")[:READ_LIMIT] if message else ""
        return self._respond(text, message, context)

    def _respond(self, text: str, message: AssistantMessage | None, context: SideContext) -> Action:
        script = self.script
        keeper = self.keeper
        requests, facts = self._requests(text, message, context)
        calls = list(requests.calls)
        if len(calls) > MAX_STEPS:  # an unproductive turn: its patience runs out on it
            self.idle += 1
            if self.idle >= self.patience:
                return self._give_up()
            return SendMessage(content=self.voice.say("too_many"))
        if not calls:  # a transfer offer or announcement that asks for nothing on the phone
            if (declined := keeper.transfer_offer(text)) is not None:
                self.idle = 0
                return SendMessage(content=declined)
            if announces_transfer(text):  # an offer too: the user takes it, as it always has
                return Stop(reason="transfer")
        # A request to do something on the phone is answered by doing it: "If the agent asks
        # you to pay a bill, you accept" does not stand in for paying it.
        told = None if calls else keeper.topic_answer(text) or keeper.health_answer(text)
        if told is not None:
            self.idle = 0
            return SendMessage(content=told)
        not_told = keeper.unknown_or_withheld(text, list(facts))
        replies = self._answers(facts) + not_told
        runnable: list[CallTool] = []
        for call in calls:
            if script.accepted_tools is not None and call.name not in script.accepted_tools:
                replies.append("I'd rather not do that myself.")
            elif call.missing:
                missing = " and ".join(name.replace("_", " ") for name in call.missing)
                replies.append(f"Which {missing} should I use for that?")
            else:
                runnable.append(CallTool(name=call.name, arguments=dict(call.arguments)))
        # "Can you confirm your user id?" asks for a fact, not for a decision.
        asked = bool(facts or not_told)
        decision = None if asked else offer_decision(text, script.accepts, script.declines)
        held = None if asked else keeper.decision(text, decision)
        if held is not None:
            replies.append(held)
        elif decision is not None:
            replies.append(self.voice.say("yes") if decision else self.voice.say("no"))
        if requests.unclear and (
            runnable or not (replies or claims_done(text, script.done_phrases))
        ):
            replies.append(self.voice.not_understood(requests.unclear[0]))
            if not runnable:
                return self._not_understood(replies[-1])
        runnable = self._not_redone(text, runnable)
        if runnable:
            self.idle = 0
            if self._needs_repeat(runnable):
                return SendMessage(content=self.voice.say("repeat"))
            asked_for = runnable
            runnable = [self._maybe_mistaken(call) for call in runnable]
            self._remember(text, asked_for, runnable)
            self.held = replies
            self.pending.extend(runnable[1:])
            return runnable[0]
        if replies:
            self.idle = 0
            return SendMessage(content=" ".join(replies))
        if claims_done(text, script.done_phrases):
            return self._goal_reached()
        if self.asked_question and not asks_question(text) and not refuses(text):
            return self._satisfied()  # the agent answered the question the user asked
        if self.awaiting_answer and _answers_something(text):
            return self._satisfied()
        if refuses(text):
            if script.after_refusal == "ask_human" and not self.asked_for_human:
                self.asked_for_human = True
                return SendMessage(content=self.voice.say("ask_human"))
            if (pushback := keeper.pushback()) is not None:
                self.idle = 0
                return SendMessage(content=pushback)
            return SendMessage(content=f"{self.voice.say('accept_refusal')} {_STOP}")
        return self._idle_turn(text)

    def _requests(
        self, text: str, message: AssistantMessage | None, context: SideContext
    ) -> tuple[ToolRequests, list[str]]:
        """The tool calls and facts the agent asks for: structured if read, else from words."""
        facts = self.script.facts
        request = message.request if message is not None else None
        if request is not None and self.style.structured_requests:
            calls = tuple(RequestedCall(c.name, dict(c.arguments)) for c in request.tool_calls)
            return ToolRequests(calls), list(request.facts)
        found = read_requests(text, context.tools, facts, self.lexicon)
        return found, asked_facts(text, facts, self.lexicon)

    def _answers(self, keys: list[str]) -> list[str]:
        answers = [self._answer(key) for key in keys]
        if len(answers) > 1 and self.style.omission and self.rng.random() < self.style.omission:
            answers = answers[:1]  # a novice answers only the first of several questions
        return [self.voice.facts(answers)] if answers else []

    def _answer(self, key: str) -> str:
        facts = self.script.facts
        if key not in facts:  # "full_name" asked, "name" known: the same fact in other words
            alike = asked_facts(key.replace("_", " "), facts)
            key = alike[0] if alike else key
        value = facts.get(key)
        label = key.replace("_", " ")
        if value is None:
            return self.voice.unknown_fact(label)
        return f"My {label} {_verb(label)} {speak_attributes(first_person(value))}."

    def _needs_repeat(self, calls: list[CallTool]) -> bool:
        """A novice asks once to hear a new instruction again before following it."""
        new = [call.name for call in calls if call.name not in self.heard]
        self.heard.update(call.name for call in calls)
        return bool(new) and self.style.repeat > 0 and self.rng.random() < self.style.repeat

    def _not_redone(self, text: str, calls: list[CallTool]) -> list[CallTool]:
        """The calls of a message asked again after the user did one of its steps wrong.

        Without the switches it already flipped as asked (flipping them again would undo
        them): the customer does the step it missed.
        """
        if self.redo is None or self.redo[0] != text:
            return calls
        return [call for call in calls if call.name not in self.redo[1]]

    def _remember(self, text: str, asked: list[CallTool], ran: list[CallTool]) -> None:
        """What the user did for `text`, when it did one of its steps wrong (`_not_redone`)."""
        if all(a.name == r.name for a, r in zip(asked, ran, strict=True)):
            self.redo = None
            return
        tools = self.lexicon.tools if self.lexicon is not None else {}
        flipped = frozenset(
            a.name
            for a, r in zip(asked, ran, strict=True)
            if a.name == r.name and a.name in tools and tools[a.name].toggle
        )
        self.redo = (text, flipped)

    def _maybe_mistaken(self, call: CallTool) -> CallTool:
        """A novice may run the neighbouring tool instead (once per tool)."""
        other = self.neighbours.get(call.name)
        if other is None or call.name in self.confused or not self.style.mistake:
            return call
        if self.rng.random() >= self.style.mistake:
            return call
        self.confused.add(call.name)
        self.substituted.add(other)
        arguments = call.arguments if isinstance(call.arguments, dict) else {}
        return CallTool(name=other, arguments=_filtered(arguments, other, self.tools))

    def _idle_turn(self, text: str) -> Action:
        self.idle += 1
        if self.idle >= self.patience:
            return self._give_up()
        if self.script.goal_checks:
            return self._start_probe()
        if asks_question(text):
            if _WHY.search(text):  # "Why do you want to...?": the reason, said again
                return SendMessage(content=self.voice.reason())
            return SendMessage(content=self.voice.say("unknown"))
        return SendMessage(content=self.voice.say("okay"))

    def _not_understood(self, reply: str) -> SendMessage:
        """Says it did not understand (an unproductive turn: patience runs out on it too)."""
        self.idle += 1
        if self.idle >= self.patience:
            return self._give_up()
        return SendMessage(content=reply)

    def _give_up(self) -> SendMessage:
        return SendMessage(content=f"{self.voice.say('give_up')} {_STOP}")

    # -- goal checks ---------------------------------------------------------------------------
    def _goal_reached(self) -> Action:
        """The agent says the work is done: verify with goal checks, or end satisfied.

        Claims that the checks then refute count against the user's patience.
        """
        if not self.script.goal_checks:
            return self._satisfied()
        self.idle += 1
        if self.idle >= self.patience:
            return self._give_up()
        return self._start_probe()

    def _satisfied(self) -> SendMessage:
        """Ask the scenario's next question, or end the call satisfied."""
        if self.questions:
            self.asked_question = True
            return SendMessage(content=self.voice.question(self.questions.popleft()))
        return SendMessage(content=f"{self.voice.say('closing')} {_STOP}")

    def _start_probe(self) -> Action:
        self.phase = "probe"
        self.pending.extend(
            CallTool(name=check.tool, arguments=dict(check.arguments))
            for check in self.script.goal_checks
        )
        return self.pending.popleft()

    def _after_batch(self) -> Action:
        results, self.results = self.results, []
        if self.phase == "requested":
            self.reported.extend(results)
            if self.script.goal_checks:
                return self._start_probe()
            return self._report([])
        self.phase = "requested"
        if self._goal_met(results):
            self.reported = []
            return self._satisfied()
        return self._report(results)

    def _goal_met(self, probes: list[ToolMessage]) -> bool:
        checks = self.script.goal_checks
        if len(probes) != len(checks):
            return False
        return all(
            not probe.error and check.expect.lower() in (probe.content or "").lower()
            for check, probe in zip(checks, probes, strict=True)
        )

    def _report(self, probes: list[ToolMessage]) -> SendMessage:
        parts = []
        if self.reported:
            parts.append(self.reporter.performed(self.reported, instead=self.substituted))
            self.substituted = set()
        if probes:
            parts.append(self.reporter.unresolved(probes))
        parts.extend(self.held)
        self.reported, self.held = [], []
        return SendMessage(content=" ".join(parts) or self.voice.say("okay"))


def _filtered(arguments: dict[str, Any], tool: str, tools: list[dict[str, Any]]) -> dict[str, Any]:
    """The arguments `tool` takes among `arguments` (a neighbouring tool may take fewer)."""
    schema = next((t["function"] for t in tools if t["function"]["name"] == tool), None)
    accepted = (schema or {}).get("parameters", {}).get("properties", {})
    return {key: value for key, value in arguments.items() if key in accepted}


def _answers_something(text: str) -> bool:
    """An agent statement that could answer a question: a sentence with a figure.

    A message that asks a question of its own ("How many bags? I see 2.") is no answer,
    whatever figures come with it; "Anything else?" asks nothing.
    """
    said = sentences(text)
    if any(asks_question(s) and not _CLOSING.search(s) for s in said):
        return False
    return any(not asks_question(s) and _ANSWER.search(s) for s in said)


def _latest_agent_message(view: SideView) -> AssistantMessage | None:
    for message in reversed(view.inbox):
        if isinstance(message, AssistantMessage):
            return message
    return None


def _verb(label: str) -> str:
    """The verb after a label: "are" for a plural ("items", "order ids"), else "is"."""
    return "are" if label.endswith("s") and not label.endswith(("ss", "us", "is")) else "is"
