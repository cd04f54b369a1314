"""The scripted user: a deterministic, offline, free simulated customer that follows a `UserScript`.

Each turn it does the first of these that applies:

1. **Performs** the next queued tool call (requested calls first, then goal checks).
2. After a batch of calls, **reports** what its tools showed (and any answers held back); when
   goal checks were run and all pass, it **stops satisfied** (``closing ###STOP###``).
3. **Opens** with the script's ``opening`` (its reason for calling).
4. Reads the agent's latest message:
   - a transfer announcement: **stops** with ``###TRANSFER###``;
   - the script's ``done_phrases``: the goal is reached (**stops**, or probes with goal checks);
   - requested user-tool calls (the message's structured ``request``, else plain text through
     `tau_env.wrappers.users.matcher`): performs the ones in ``accepted_tools``, declines the
     others, asks for missing arguments;
   - fact questions (by key in the ``request``, else in words): answers from ``facts``, and
     says it does not know anything else;
   - an offer or a request for confirmation: accepts what ``accepts`` names, declines the rest;
   - a claim that the work is done: runs its goal checks (and stops if they pass), or stops
     satisfied when it has none;
   - a refusal: asks once for a human when a transfer is the expected outcome, otherwise stops;
   - anything else: a short neutral answer (with goal checks: it checks again and reports).
     After ``patience`` such turns in a row it gives up and stops.

It never improvises facts, so the same agent behaviour always gives the same conversation.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from functools import partial
from typing import Literal

from tau_env.actions import Action, CallTool, SendMessage, Stop
from tau_env.domain import Domain
from tau_env.env.aec import SideContext
from tau_env.env.conversation import SideView
from tau_env.messages import STOP_TOKENS, AssistantMessage, ToolMessage
from tau_env.tasks.model import Task, UserScript
from tau_env.wrappers.users.matcher import (
    RequestedCall,
    announces_transfer,
    asked_facts,
    asks_question,
    claims_done,
    mentions,
    offer_decision,
    refuses,
    requested_calls,
)
from tau_env.wrappers.users.script import resolve_script

__all__ = ["ScriptedUser"]

_STOP = STOP_TOKENS["done"]


class ScriptedUser:
    """Plays the user side of one episode from a `UserScript`.

    Args:
        task: The task being played.
        domain: The task's domain, to derive a script for tasks that carry none (official
            telecom tasks); see `resolve_script`.
        script: Use this script instead of the task's.
        patience: Unproductive agent turns in a row after which the user gives up.
    """

    def __init__(
        self,
        task: Task,
        domain: Domain | None = None,
        *,
        script: UserScript | None = None,
        patience: int = 6,
    ) -> None:
        if patience < 1:
            raise ValueError(f"patience must be >= 1, actually: {patience}")
        self.script = script if script is not None else resolve_script(task, domain)
        self.patience = patience
        self.opened = False
        self.pending: deque[CallTool] = deque()
        self.phase: Literal["requested", "probe"] = "requested"
        self.results: list[ToolMessage] = []
        self.reported: list[ToolMessage] = []
        self.held: list[str] = []
        self.idle = 0
        self.asked_for_transfer = False

    @classmethod
    def factory(
        cls, domain: Domain | None = None, *, patience: int = 6
    ) -> Callable[[Task], ScriptedUser]:
        """A participant factory (task -> user) that knows the domain, for runners."""
        return partial(cls, domain=domain, patience=patience)

    # -- the turn ------------------------------------------------------------------------------
    def act(self, view: SideView, context: SideContext) -> Action:
        """The user's next action (see the module docstring for the rules)."""
        self.results.extend(m for m in view.inbox if isinstance(m, ToolMessage))
        if self.pending:
            return self.pending.popleft()
        if self.results:
            return self._after_batch()
        if not self.opened:
            self.opened = True
            return SendMessage(content=self.script.opening)
        message = _latest_agent_message(view)
        return self._respond(message.content or "" if message else "", message, context)

    def _respond(self, text: str, message: AssistantMessage | None, context: SideContext) -> Action:
        script = self.script
        if announces_transfer(text):
            return Stop(reason="transfer")
        if script.done_phrases and mentions(text, script.done_phrases):
            return self._goal_reached()
        calls, facts = self._requests(text, message, context)
        replies = [self._answer(key) for key in facts]
        runnable: list[CallTool] = []
        for call in calls:
            if script.accepted_tools is not None and call.name not in script.accepted_tools:
                replies.append(f"I'd rather not do {call.name} on my side.")
            elif call.missing:
                replies.append(f"Which {', '.join(call.missing)} should I use for {call.name}?")
            else:
                runnable.append(CallTool(name=call.name, arguments=dict(call.arguments)))
        # "Can you confirm your user id?" asks for a fact, not for a decision.
        decision = None if facts else offer_decision(text, script.accepts)
        if decision is not None:
            replies.append("Yes, please go ahead." if decision else "No, thank you.")
        if runnable:
            self.idle = 0
            self.held = replies
            self.pending.extend(runnable[1:])
            return runnable[0]
        if replies:
            self.idle = 0
            return SendMessage(content=" ".join(replies))
        if claims_done(text):
            return self._goal_reached()
        if refuses(text):
            if script.expects_transfer and not self.asked_for_transfer:
                self.asked_for_transfer = True
                return SendMessage(content="Then please transfer me to a human agent.")
            return SendMessage(content=f"I understand. {_STOP}")
        return self._idle_turn(text)

    def _requests(
        self, text: str, message: AssistantMessage | None, context: SideContext
    ) -> tuple[list[RequestedCall], list[str]]:
        """The tool calls and facts the agent asks for: structured if given, else from text."""
        facts = self.script.facts
        request = message.request if message is not None else None
        if request is not None:
            calls = [RequestedCall(c.name, dict(c.arguments)) for c in request.tool_calls]
            return calls, list(request.facts)
        return requested_calls(text, context.tools, facts), asked_facts(text, facts)

    def _answer(self, key: str) -> str:
        value = self.script.facts.get(key)
        label = key.replace("_", " ")
        if value is None:
            return f"Sorry, I don't know my {label}."
        return f"My {label} is {value}."

    def _idle_turn(self, text: str) -> Action:
        self.idle += 1
        if self.idle >= self.patience:
            return SendMessage(content=f"I'll try again another time. {_STOP}")
        if self.script.goal_checks:
            return self._start_probe()
        if asks_question(text):
            return SendMessage(content="Sorry, I don't know that.")
        return SendMessage(content="Okay.")

    # -- goal checks ---------------------------------------------------------------------------
    def _goal_reached(self) -> Action:
        """The agent says the work is done: verify with goal checks, or stop satisfied.

        Claims that the checks then refute count against the user's patience.
        """
        if not self.script.goal_checks:
            return SendMessage(content=f"{self.script.closing} {_STOP}")
        self.idle += 1
        if self.idle >= self.patience:
            return SendMessage(content=f"I'll try again another time. {_STOP}")
        return self._start_probe()

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
            return SendMessage(content=f"{self.script.closing} {_STOP}")
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
            parts.append("I did that. " + " ".join(_shown(m) for m in self.reported))
        if probes:
            parts.append("It is still not resolved: " + " ".join(_shown(m) for m in probes))
        parts.extend(self.held)
        self.reported, self.held = [], []
        return SendMessage(content=" ".join(parts) or "Okay.")


def _shown(result: ToolMessage) -> str:
    name = result.name or "the tool"
    if result.error:
        return f"{name} failed: {result.content}."
    return f"{name} shows: {result.content}."


def _latest_agent_message(view: SideView) -> AssistantMessage | None:
    for message in reversed(view.inbox):
        if isinstance(message, AssistantMessage):
            return message
    return None
