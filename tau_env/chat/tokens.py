"""Token ids and the loss mask of a chat episode, through a tokenizer's chat template.

Trainers need one token sequence per episode: the prompt (everything before the model's first
turn), then the completion, in which the model's own tokens count for the loss (mask 1) and
everything the environment added (tool results, the user's replies, the template's turn
headers) does not (mask 0).

`EpisodeTokens` builds it turn by turn, by concatenation, never by re-tokenizing the whole
conversation: the model's turns are the ids it actually generated (`add_model_ids`) or, for a
recorded episode, the template's rendering of its message (`add_model_message`); the
environment's turns are the ids the template puts between the end of the model's turn (its
end-of-turn token) and the next generation prompt, rendered after a minimal stand-in
conversation, as TRL renders tool results, so templates that rewrite earlier turns (Qwen3
dropping old reasoning) do not break the sequence.

Works with any Hugging Face tokenizer with a chat template (`apply_chat_template`); nothing is
imported from transformers here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "EpisodeTokens",
    "TokenizedEpisode",
    "system_with_tools",
    "template_message",
    "tokenize_episode",
]

_STAND_IN = {"role": "user", "content": "dummy"}


@dataclass(frozen=True)
class TokenizedEpisode:
    """One episode as token ids.

    Attributes:
        prompt_ids: Everything before the model's first turn, generation prompt included.
        completion_ids: The rest: model turns and environment turns, in order.
        loss_mask: One per completion id: 1 for the model's tokens, 0 for the environment's.
    """

    prompt_ids: list[int]
    completion_ids: list[int]
    loss_mask: list[int]


class EpisodeTokens:
    """Builds an episode's ids and loss mask turn by turn.

    Args:
        tokenizer: A tokenizer with a chat template (``apply_chat_template``, ``eos_token_id``).
        tools: The tool schemas the prompt is rendered with.
        template_kwargs: Further keyword arguments of ``apply_chat_template``.
    """

    def __init__(
        self,
        tokenizer: Any,
        tools: Sequence[Mapping[str, Any]] | None = None,
        **template_kwargs: Any,
    ) -> None:
        self.tokenizer = tokenizer
        self.tools = [dict(tool) for tool in tools] if tools else None
        self.template_kwargs = template_kwargs
        self.prompt_ids: list[int] = []
        self.completion_ids: list[int] = []
        self.loss_mask: list[int] = []
        self._last_model: dict[str, Any] | None = None

    @property
    def ids(self) -> list[int]:
        """The whole sequence so far (what the model continues from)."""
        return self.prompt_ids + self.completion_ids

    def start(self, messages: Sequence[Mapping[str, Any]]) -> list[int]:
        """Render the chat before the model's first turn; returns the prompt ids."""
        self.prompt_ids = self._render(
            [dict(m) for m in messages], tools=self.tools, generation=True
        )
        self.completion_ids, self.loss_mask, self._last_model = [], [], None
        return list(self.prompt_ids)

    def add_model_ids(self, ids: Sequence[int], message: Mapping[str, Any]) -> None:
        """Append the ids the model generated for a turn (loss mask 1).

        Args:
            ids: The generated ids, up to and including its end-of-turn token.
            message: The assistant message they were parsed to (to render what follows).
        """
        self.completion_ids.extend(ids)
        self.loss_mask.extend([1] * len(ids))
        self._last_model = dict(message)

    def add_model_message(self, message: Mapping[str, Any]) -> list[int]:
        """Append a recorded assistant message as the template renders it (loss mask 1).

        The turn ends at the template's end-of-turn token; what the template writes after it
        belongs to the next environment turn. Returns the ids added.
        """
        head = self._render([_STAND_IN], tools=None, generation=True)
        full = self._render([_STAND_IN, dict(message)], tools=None, generation=False)
        _require_prefix(head, full, "the generation prompt", "the rendered assistant turn")
        ids = _through_last_eos(full[len(head) :], self._eos())
        self.add_model_ids(ids, message)
        return ids

    def add_environment(
        self, messages: Sequence[Mapping[str, Any]], *, final: bool = False
    ) -> list[int]:
        """Append what the environment said after the model's turn (loss mask 0).

        The ids run from the end of the model's turn to the next generation prompt included
        (`final`: to the last end-of-turn token, when no model turn follows). Returns the ids
        added.

        Raises:
            ValueError: No model turn precedes, or the template renders inconsistently.
        """
        if self._last_model is None:
            raise ValueError("environment messages must follow a model turn")
        before = [_STAND_IN, self._last_model]
        prefix = _through_last_eos(self._render(before, tools=None, generation=False), self._eos())
        full = self._render([*before, *map(dict, messages)], tools=None, generation=not final)
        _require_prefix(prefix, full, "the conversation so far", "it with the new messages")
        if final:
            full = _through_last_eos(full, self._eos())
        ids = full[len(prefix) :]
        self.completion_ids.extend(ids)
        self.loss_mask.extend([0] * len(ids))
        return ids

    def result(self) -> TokenizedEpisode:
        """The episode so far."""
        return TokenizedEpisode(
            list(self.prompt_ids), list(self.completion_ids), list(self.loss_mask)
        )

    # -- internals -----------------------------------------------------------------------------
    def _render(self, messages: list[dict[str, Any]], *, tools: Any, generation: bool) -> list[int]:
        ids = self.tokenizer.apply_chat_template(
            [template_message(m) for m in messages],
            tools=tools,
            add_generation_prompt=generation,
            tokenize=True,
            return_dict=False,
            **self.template_kwargs,
        )
        return [int(i) for i in ids]

    def _eos(self) -> int | None:
        eos = getattr(self.tokenizer, "eos_token_id", None)
        return int(eos) if eos is not None else None


def tokenize_episode(
    tokenizer: Any,
    messages: Sequence[Mapping[str, Any]],
    tools: Sequence[Mapping[str, Any]] | None = None,
    *,
    prompt_length: int | None = None,
    **template_kwargs: Any,
) -> TokenizedEpisode:
    """Token ids and loss mask of a recorded chat episode (`tau_env.chat.ChatEnv.messages`).

    Every assistant message after the prompt is a model turn; the other messages are the
    environment's.

    Args:
        tokenizer: A tokenizer with a chat template.
        messages: The whole chat, system prompt first.
        tools: The tool schemas the prompt is rendered with.
        prompt_length: How many messages form the prompt (the chat `ChatEnv.reset` returned:
            the fixed greeting and a task's history are not the model's). None: up to the
            first assistant message that follows a user or tool message, else up to the
            first assistant message.
        **template_kwargs: Further keyword arguments of ``apply_chat_template``.

    Raises:
        ValueError: No assistant message follows the prompt, or the template renders
            inconsistently.
    """
    chat = [dict(m) for m in messages]
    first = _first_model_turn(chat) if prompt_length is None else prompt_length
    if not 0 < first < len(chat) or chat[first].get("role") != "assistant":
        raise ValueError(f"message {first} is not an assistant message following the prompt")
    episode = EpisodeTokens(tokenizer, tools, **template_kwargs)
    episode.start(chat[:first])
    index = first
    while index < len(chat):
        episode.add_model_message(chat[index])
        index += 1
        start = index
        while index < len(chat) and chat[index].get("role") != "assistant":
            index += 1
        if index > start:
            episode.add_environment(chat[start:index], final=index == len(chat))
    return episode.result()


def system_with_tools(
    tokenizer: Any, system: str, tools: Sequence[Mapping[str, Any]], **template_kwargs: Any
) -> str | None:
    """The system message text that renders, without tools, as `system` does with `tools`.

    For stacks that render chats without a ``tools`` argument (SkyRL): with this text as the
    system message, their token sequences are those of the native rendering. Works for
    templates that write the tool schemas into the system turn (Qwen 2.5 / 3, Hermes); None
    for the others (Llama 3.1 writes them into the first user turn).
    """
    marker = "\x00tau_env\x00"

    def render(content: str, with_tools: Any) -> str:
        text = tokenizer.apply_chat_template(
            [{"role": "system", "content": content}],
            tools=with_tools,
            tokenize=False,
            **template_kwargs,
        )
        return str(text)

    native = render(system, [dict(tool) for tool in tools])
    prefix, found, suffix = render(marker, None).partition(marker)
    if not found or not native.startswith(prefix) or not native.endswith(suffix):
        return None
    text = native[len(prefix) : len(native) - len(suffix)]
    return text if render(text, None) == native else None


def template_message(message: dict[str, Any]) -> dict[str, Any]:
    """The message as chat templates expect it: tool-call arguments as objects, not JSON text.

    (OpenAI's wire format carries arguments as text; Hugging Face templates serialize them
    themselves. Arguments that are not a JSON object stay text.)
    """
    calls = message.get("tool_calls")
    if not calls:
        return message
    converted = []
    for call in calls:
        function = dict(call.get("function", {}))
        arguments = function.get("arguments")
        if isinstance(arguments, str):
            try:
                parsed = json.loads(arguments) if arguments.strip() else {}
            except (ValueError, RecursionError):  # (nested deeper than the parser goes)
                parsed = None
            if isinstance(parsed, dict):
                function["arguments"] = parsed
        converted.append({**call, "function": function})
    return {**message, "tool_calls": converted}


def _first_model_turn(chat: list[dict[str, Any]]) -> int:
    assistants = [i for i, m in enumerate(chat) if m.get("role") == "assistant"]
    for index in assistants:
        if any(m.get("role") in ("user", "tool") for m in chat[:index]):
            return index
    return assistants[0] if assistants else -1


def _through_last_eos(ids: list[int], eos: int | None) -> list[int]:
    """`ids` up to and including the last end-of-turn token (all of them when it has none)."""
    if eos is None or eos not in ids:
        return ids
    last = len(ids) - 1 - ids[::-1].index(eos)
    return ids[: last + 1]


def _require_prefix(prefix: list[int], full: list[int], what: str, within: str) -> None:
    if full[: len(prefix)] != prefix:
        raise ValueError(
            f"the chat template renders {what} differently within {within}; the episode cannot "
            "be tokenized by concatenation with this template"
        )
