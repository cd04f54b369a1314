"""The LLM tool-calling agent: a model plays the agent side, with the domain policy as its brief.

Each decision sends the agent's chat (its system prompt, its greeting, what the customer said,
its own replies as it sent them, and the results of its calls) to the model with the agent's
tool schemas, in the format training routes use too (`tau_env.chat.transcript`), and turns the
reply into actions (`tau_env.llm.response_actions`). The env takes one action per step, so a
reply with several tool calls is fed to it one call at a time: the first now, the rest on the
agent's next turns (the agent keeps the floor after a tool call), before the model is asked
again. Model, temperature and per-episode seed are the run's to record.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from tau_env.actions import Action
from tau_env.chat.transcript import AgentTranscript
from tau_env.env.aec import SideContext
from tau_env.env.conversation import SideView
from tau_env.llm import LLMClient, LLMResponse, ModelUsage, response_actions
from tau_env.llm.convert import response_message

__all__ = ["AGENT_INSTRUCTIONS", "LLMAgent", "agent_system_prompt", "message_tool_instructions"]

AGENT_INSTRUCTIONS = """\
You act as a customer service representative. Resolve the customer's request while \
following the policy below to the letter; when the policy forbids something, decline it.
Each turn, do exactly one thing: either write a message to the customer, or call one of \
your tools. Never do both in the same turn.
Rely only on the policy, on what the customer tells you and on tool results; never make \
up identifiers, amounts or facts. Ask the customer when you are missing information.
Tool arguments must be valid JSON matching the tool's schema."""
"""The agent's standing instructions (tau_env's own wording), placed before the policy."""


_ONE_THING = """\
Each turn, do exactly one thing: either write a message to the customer, or call one of \
your tools. Never do both in the same turn."""


def message_tool_instructions(tool: str) -> str:
    """`AGENT_INSTRUCTIONS` for a loop where talking to the customer is a tool call.

    TRL's ``environment_factory`` loop ends at the first reply without a tool call, so there
    the agent talks through `tool` (`tau_env.integrations.trl.environment`).
    """
    return AGENT_INSTRUCTIONS.replace(
        _ONE_THING,
        f"Each turn, call exactly one tool: {tool} to write a message to the customer, or one "
        "of your other tools. A reply without a tool call ends the conversation.",
    )


def agent_system_prompt(policy: str, *, instructions: str = AGENT_INSTRUCTIONS) -> str:
    """The system prompt: the instructions, then the policy, each in its own tag."""
    return f"<instructions>\n{instructions}\n</instructions>\n<policy>\n{policy}\n</policy>"


class LLMAgent:
    """Plays the agent side of one episode with a tool-calling model.

    Args:
        client: The model behind the agent; build one per episode (its usage log is this
            episode's usage) sharing a limiter and a cache across episodes.
        seed: Sampling seed sent with every call (the runner sets the episode seed).

    Attributes:
        replies: The model replies of the episode, in order.
        transcript: The chat sent to the model (its ``messages``, system prompt first).
    """

    def __init__(self, client: LLMClient, *, seed: int | None = None) -> None:
        self.client = client
        self.seed = seed
        self.replies: list[LLMResponse] = []
        self.transcript = AgentTranscript()
        self._queued: deque[Action] = deque()

    def set_seed(self, seed: int) -> None:
        """Use `seed` for this episode's model calls."""
        self.seed = seed

    @property
    def turn_tokens(self) -> list[dict[str, list[Any]]]:
        """Each model call's exact tokens, when the server returned them (`TurnTokens`)."""
        return [reply.tokens.to_dict() for reply in self.replies if reply.tokens is not None]

    @property
    def usage(self) -> ModelUsage:
        """Calls, tokens and cost of this episode (cost unknown when `unpriced_calls`)."""
        models = self.client.usage.by_model()  # copies
        if len(models) == 1:  # the usual log, of one model: its totals as they are
            return next(iter(models.values()))
        total = ModelUsage()
        for usage in models.values():
            for name, value in vars(usage).items():
                setattr(total, name, getattr(total, name) + value)
        return total

    async def aact(self, view: SideView, context: SideContext) -> Action:
        """The next action: a queued tool call, else the model's next reply.

        Raises:
            InfrastructureError: The provider kept failing.
            ParticipantError: The model replied with neither text nor tool calls.
            ContextWindowExceeded: The conversation outgrew the model's context.
        """
        if self._queued:
            return self._queued.popleft()
        messages = self._messages(view, context)
        reply = await self.client.complete(messages, context.tools, seed=self.seed)
        return self._take(reply)

    def act(self, view: SideView, context: SideContext) -> Action:
        """`aact` for synchronous loops (blocks on the model call)."""
        if self._queued:
            return self._queued.popleft()
        messages = self._messages(view, context)
        reply = self.client.complete_sync(messages, context.tools, seed=self.seed)
        return self._take(reply)

    def _messages(self, view: SideView, context: SideContext) -> list[dict[str, Any]]:
        """The chat for the next request: the transcript, caught up with the view."""
        transcript = self.transcript
        if transcript.messages:
            transcript.catch_up(view.history)
        else:
            transcript.start(agent_system_prompt(context.instructions), view.history)
        return list(transcript.messages)

    def _take(self, reply: LLMResponse) -> Action:
        self.replies.append(reply)
        self.transcript.add_model_turn(response_message(reply))
        first, *rest = response_actions(reply)
        self._queued.extend(rest)
        return first
