"""The LLM user: any litellm model plays the customer, as the reference's user simulator does.

System prompt: the user-simulation guidelines (the tools variant when the user has tools),
then the task's scenario (``str(task.user_scenario)``, which is the user side's
``context.instructions``) inside ``<scenario>`` tags. The history the user has seen is sent
role-flipped (its own messages as ``assistant``, the agent's as ``user``); its tools are offered
as function schemas with ``tool_choice="auto"``. Replies become actions through
`tau_env.llm.response_actions`: several tool calls are performed one per step before the
model is asked again; malformed tool-call arguments reach the env and come back as a user-side
tool error; stop tokens in the text end the episode (the env detects them).

Errors: an empty reply (neither text nor tool calls) is the provider's failure, not the
customer's: it is asked again (`EMPTY_RETRIES` times, each with the next seed, so neither the
response cache nor a deterministic sampler hands back the same empty reply), then
`InfrastructureError` is raised: the episode is not scored and a resume plays it again. The
retried replies are counted (``empty_replies``; the episode's ``empty_turns`` flag,
`tau_env.user_faults`). `InfrastructureError` (provider down after retries) propagates, as
does `ContextWindowExceeded`, which the single-agent view turns into a user error (reward 0).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from tau_env.actions import Action
from tau_env.domain import Domain
from tau_env.env.aec import SideContext
from tau_env.env.conversation import SideView
from tau_env.errors import InfrastructureError
from tau_env.llm import LLMClient, LLMResponse, response_actions, to_openai_messages
from tau_env.tasks.model import Task
from tau_env.wrappers.users.guidelines import UserGuidelines, guidelines_for

__all__ = ["EMPTY_RETRIES", "LLMUser", "user_system_prompt"]

EMPTY_RETRIES = 2
"""How many times an empty reply of the user's model is asked again before giving up."""


def user_system_prompt(guidelines: str, scenario: str) -> str:
    """The user model's system prompt: guidelines, then the scenario in ``<scenario>`` tags."""
    return f"{guidelines}\n\n<scenario>\n{scenario}\n</scenario>"


class LLMUser:
    """Plays the user side of one episode with a model.

    Args:
        task: The task being played (its scenario reaches the model through the context).
        client: The model to call (injected; see `tau_env.llm.LLMClient`).
        guidelines: Simulation guidelines (default: tau_env's; use `guidelines_for(domain)`
            to get the official ones with official data, as `factory` does).
        seed: Sampling seed sent with every call (None: the client's configured seed).

    Attributes:
        responses: Every model reply of the episode (usage, cost, cache hits).
        empty_replies: Empty replies that were asked again.
    """

    def __init__(
        self,
        task: Task,
        client: LLMClient,
        *,
        guidelines: UserGuidelines | None = None,
        seed: int | None = None,
    ) -> None:
        if not isinstance(client, LLMClient):
            raise TypeError(f"client must be an LLMClient, actually: {type(client).__name__}")
        self.task_id = task.id
        self.client = client
        self.guidelines = guidelines or guidelines_for(None)
        self.seed = seed
        self.pending: deque[Action] = deque()
        self.responses: list[LLMResponse] = []
        self.empty_replies = 0

    @classmethod
    def factory(
        cls, client: LLMClient, domain: Domain | None = None, *, seed: int | None = None
    ) -> Callable[[Task], LLMUser]:
        """A participant factory that uses the domain's guidelines (official ones if present)."""
        return partial(cls, client=client, guidelines=guidelines_for(domain), seed=seed)

    def request(self, view: SideView, context: SideContext) -> dict[str, Any]:
        """The chat request for the next turn (``messages`` and ``tools``)."""
        system = user_system_prompt(self.guidelines.text(bool(context.tools)), context.instructions)
        messages = to_openai_messages(view.history, side="user", system=system)
        return {"messages": messages, "tools": context.tools or None}

    def act(self, view: SideView, context: SideContext) -> Action:
        """The next action: a queued tool call, or what the model says now (blocking)."""
        if self.pending:
            return self.pending.popleft()
        request = self.request(view, context)
        for attempt in range(EMPTY_RETRIES + 1):
            response = self.client.complete_sync(**request, seed=self._seed(attempt))
            if not self._empty(response):
                return self._take(response)
        raise self._gave_up()

    async def aact(self, view: SideView, context: SideContext) -> Action:
        """`act` for async runners (the model call is awaited)."""
        if self.pending:
            return self.pending.popleft()
        request = self.request(view, context)
        for attempt in range(EMPTY_RETRIES + 1):
            response = await self.client.complete(**request, seed=self._seed(attempt))
            if not self._empty(response):
                return self._take(response)
        raise self._gave_up()

    def _seed(self, attempt: int) -> int | None:
        """The request seed of an attempt: the episode's, then the next ones."""
        if attempt == 0:
            return self.seed
        base = self.seed if self.seed is not None else (self.client.config.seed or 0)
        return (base + attempt) & 0x7FFFFFFF

    def _empty(self, response: LLMResponse) -> bool:
        if not response.is_empty:
            return False
        self.responses.append(response)
        self.empty_replies += 1
        return True

    def _gave_up(self) -> InfrastructureError:
        return InfrastructureError(
            f"{self.client.config.model}: the user model replied empty "
            f"{EMPTY_RETRIES + 1} times in a row",
            attempts=EMPTY_RETRIES + 1,
            transient=True,
        )

    def _take(self, response: LLMResponse) -> Action:
        self.responses.append(response)
        actions: Sequence[Action] = response_actions(response)
        self.pending.extend(actions[1:])
        return actions[0]
