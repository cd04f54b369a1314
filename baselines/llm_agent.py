"""The LLM tool-calling agent: a model plays the agent side, with the domain policy as its brief.

Each decision sends the agent's whole view (its system prompt, what the user said, its own
messages and tool calls, and their results) to the model with the agent's tool schemas, and
turns the reply into actions (`tau_env.llm.response_actions`). The env takes one action per
step, so a reply with several tool calls is fed to it one call at a time: the first now, the
rest on the agent's next turns (the agent keeps the floor after a tool call), before the
model is asked again. Model, temperature and per-episode seed are the run's to record.
"""

from __future__ import annotations

from collections import deque

from tau_env.actions import Action
from tau_env.env.aec import SideContext
from tau_env.env.conversation import SideView
from tau_env.llm import LLMClient, LLMResponse, ModelUsage, response_actions, to_openai_messages

__all__ = ["AGENT_INSTRUCTIONS", "LLMAgent", "agent_system_prompt"]

AGENT_INSTRUCTIONS = """\
You act as a customer service representative. Resolve the customer's request while \
following the policy below to the letter; when the policy forbids something, decline it.
Each turn, do exactly one thing: either write a message to the customer, or call one of \
your tools. Never do both in the same turn.
Rely only on the policy, on what the customer tells you and on tool results; never make \
up identifiers, amounts or facts. Ask the customer when you are missing information.
Tool arguments must be valid JSON matching the tool's schema."""
"""The agent's standing instructions (tau_env's own wording), placed before the policy."""


def agent_system_prompt(policy: str) -> str:
    """The system prompt: the instructions, then the policy, each in its own tag."""
    return f"<instructions>\n{AGENT_INSTRUCTIONS}\n</instructions>\n<policy>\n{policy}\n</policy>"


class LLMAgent:
    """Plays the agent side of one episode with a tool-calling model.

    Args:
        client: The model behind the agent; build one per episode (its usage log is this
            episode's usage) sharing a limiter and a cache across episodes.
        seed: Sampling seed sent with every call (the runner sets the episode seed).

    Attributes:
        replies: The model replies of the episode, in order.
    """

    def __init__(self, client: LLMClient, *, seed: int | None = None) -> None:
        self.client = client
        self.seed = seed
        self.replies: list[LLMResponse] = []
        self._queued: deque[Action] = deque()

    def set_seed(self, seed: int) -> None:
        """Use `seed` for this episode's model calls."""
        self.seed = seed

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
        messages = to_openai_messages(
            view.history, side="agent", system=agent_system_prompt(context.instructions)
        )
        reply = await self.client.complete(messages, context.tools, seed=self.seed)
        return self._take(reply)

    def act(self, view: SideView, context: SideContext) -> Action:
        """`aact` for synchronous loops (blocks on the model call)."""
        if self._queued:
            return self._queued.popleft()
        messages = to_openai_messages(
            view.history, side="agent", system=agent_system_prompt(context.instructions)
        )
        reply = self.client.complete_sync(messages, context.tools, seed=self.seed)
        return self._take(reply)

    def _take(self, reply: LLMResponse) -> Action:
        self.replies.append(reply)
        first, *rest = response_actions(reply)
        self._queued.extend(rest)
        return first
