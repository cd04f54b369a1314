"""Participants for rollout tests, importable as ``tests.rollout.agents:<name>`` by the runner."""

from __future__ import annotations

import asyncio
import os

from tau_env.actions import CallTool, SendMessage
from tau_env.baselines.oracle import OracleAgent, PlainTextOracleAgent

OUTAGE = {"active": True}
"""While active, `OutageOracle` fails as a provider outage would (tests switch it off)."""

IN_FLIGHT = {"now": 0, "max": 0}
"""Decisions of `CountingOracle` awaited at once: now, and the most seen."""


class SlowOracle(OracleAgent):
    """The oracle, thinking 20 ms per decision asynchronously (like a model call)."""

    async def aact(self, view, context):
        await asyncio.sleep(0.02)
        return self.act(view, context)


class CountingOracle(OracleAgent):
    """The oracle, recording how many of its decisions are awaited at the same time."""

    async def aact(self, view, context):
        IN_FLIGHT["now"] += 1
        IN_FLIGHT["max"] = max(IN_FLIGHT["max"], IN_FLIGHT["now"])
        try:
            await asyncio.sleep(0.005)
        finally:
            IN_FLIGHT["now"] -= 1
        return self.act(view, context)


class OutageOracle(OracleAgent):
    """The oracle behind a provider that is down on task ``complete_task`` while OUTAGE is on."""

    def __init__(self, task):
        super().__init__(task)
        self.task_id = task.id

    def act(self, view, context):
        if OUTAGE["active"] and self.task_id == "complete_task":
            raise ConnectionError("provider unreachable after 3 retries")
        return super().act(view, context)


class BuggyAgent(OracleAgent):
    """An agent with a bug on task ``reopen_task``."""

    def __init__(self, task):
        super().__init__(task)
        self.task_id = task.id

    def act(self, view, context):
        if self.task_id == "reopen_task":
            raise ZeroDivisionError("division by zero in the agent")
        return super().act(view, context)


class NonsenseAgent:
    """Hands the env something that is not an action."""

    def __init__(self, task):
        pass

    def act(self, view, context):
        return 42


SURROGATE_TASK = "TAU_ENV_TEST_SURROGATE_TASK"
"""The environment variable naming the task on which `SurrogateOracle` appends half an emoji
(an environment variable, so worker processes see it too)."""


class SurrogateOracle(OracleAgent):
    """The oracle, whose messages on one task end with text that has no UTF-8 form."""

    def __init__(self, task):
        super().__init__(task)
        self.task_id = task.id

    def act(self, view, context):
        action = super().act(view, context)
        if self.task_id == os.environ.get(SURROGATE_TASK) and isinstance(action, SendMessage):
            # a lone surrogate: what a JSON "\ud83d" escape in a model reply decodes to
            return action.model_copy(update={"content": action.content + " \ud83d"})
        return action


class QuittingUser:
    """A user who hangs up at once on ``create_task`` (an early stop); elsewhere it asks for
    task_1 to be completed and thanks the agent's first reply."""

    def __init__(self, task, seed=None):
        self.quits = task.id == "create_task"
        self.turns = 0

    def act(self, view, context):
        from tau_env.actions import SendMessage

        self.turns += 1
        if self.quits:
            return SendMessage(content="Never mind. ###STOP###")
        if self.turns == 1:
            return SendMessage(content="Please mark task_1 as completed.")
        return SendMessage(content="Thanks. ###STOP###")


class ForgetfulTextOracle(PlainTextOracleAgent):
    """The plain-text oracle without its last tool call: it parts from the oracle there."""

    def actions(self):
        actions = list(super().actions())
        calls = [i for i, action in enumerate(actions) if isinstance(action, CallTool)]
        if calls:
            del actions[calls[-1]]
        return iter(actions)
