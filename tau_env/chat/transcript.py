"""The agent's conversation as the model sees it: one format for training and evaluation.

Every route that puts a model in the agent's seat builds its chat here: the chat view
(`tau_env.chat.ChatEnv`, behind the TRL ``rollout_func``, the OpenEnv server and SkyRL) and the
LLM agent of ``tau-env run --agent llm`` (`tau_env.baselines.LLMAgent`). The format:

- the system prompt first (the agent's instructions and policy);
- the agent's fixed greeting as the assistant's first turn (and any task history as it was);
- the customer's words as ``user`` turns; results of the agent's own calls as ``tool``
  messages (the customer's own tool traffic is never shown);
- each model turn as the model sent it: several tool calls in one message, text alongside
  calls kept (though it reaches no one), call ids as given (a call sent without an id gets
  the id the env recorded), so a turn's tokens are never re-rendered differently later;
- tools as native OpenAI-style tool schemas (sent with the request, not written into text).

Plain text is a message to the customer.

`recorded_chat` rebuilds that chat from a stored trajectory (`tau-env export --format sft`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tau_env.chat.convert import normalize_assistant_message
from tau_env.env.conversation import visible_to
from tau_env.llm.convert import to_openai_messages
from tau_env.messages import AssistantMessage, Message

__all__ = ["AgentTranscript", "recorded_chat"]


class AgentTranscript:
    """Builds the agent's chat turn by turn from its view's history, never rebuilding it.

    Attributes:
        messages: The chat so far, system prompt first.
    """

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self._seen = 0
        self._last_turn: dict[str, Any] | None = None

    def start(self, system: str, history: Sequence[Message]) -> list[dict[str, Any]]:
        """Begin with the system prompt and what the agent has seen so far.

        `history` holds the greeting and any task history. Returns the messages after the
        system prompt.
        """
        self.messages = [{"role": "system", "content": system}]
        self._seen = 0
        self._last_turn = None
        return self._take(history, own=True)

    def add_model_turn(self, message: Mapping[str, Any]) -> dict[str, Any]:
        """Record a model turn as the model sent it (normalized); returns the recorded message.

        Raises:
            InvalidAction: `message` is not an assistant message.
        """
        normal = normalize_assistant_message(message)
        self.messages.append(normal)
        self._last_turn = normal
        return normal

    def catch_up(self, history: Sequence[Message]) -> list[dict[str, Any]]:
        """Add what reached the agent since the last turn; returns it.

        Tool results and the customer's replies; the agent's own messages are already there,
        as it sent them.
        """
        return self._take(history, own=False)

    def _take(self, history: Sequence[Message], *, own: bool) -> list[dict[str, Any]]:
        fresh = history[self._seen :]
        self._seen = len(history)
        if not own:
            fresh = [m for m in fresh if not isinstance(m, AssistantMessage)]
        new = to_openai_messages(fresh, side="agent")
        last = self._last_turn
        if last is not None and "tool_calls" in last:
            _fill_call_ids(last, new)
            self._last_turn = None
        self.messages.extend(new)
        return new


def recorded_chat(system: str, trajectory: Sequence[Message]) -> list[dict[str, Any]]:
    """The agent's chat of a recorded episode, system prompt first, in the format above.

    What the agent saw of `trajectory` (its own messages, the customer's words, the results of
    its own calls), as `AgentTranscript` holds it at the end of an episode whose model sent one
    action per turn. A trajectory keeps one tool call per message and drops text sent alongside
    calls, so a model turn of several calls comes back as one turn per call.
    """
    transcript = AgentTranscript()
    transcript.start(system, [message for message in trajectory if visible_to(message, "agent")])
    return transcript.messages


def _fill_call_ids(message: dict[str, Any], results: list[dict[str, Any]]) -> None:
    """Give the calls the model sent without an id the ids the env recorded, in call order.

    Calls that never ran (the episode ended first) have no result and lose the empty id.
    """
    ids = iter([r["tool_call_id"] for r in results if r["role"] == "tool"])
    for call in message.get("tool_calls", ()):
        if not call["id"]:
            found = next(ids, None)
            if found is None:
                del call["id"]
            else:
                call["id"] = found
        else:
            next(ids, None)
