"""The chat view: a tau_env episode, agent side, as OpenAI chat: messages in, one reply a turn.

- `ChatEnv` / `make_chat_env`: messages and tool schemas in, an assistant message out, the
  user's reply, tool results and the terminal reward with its breakdown back.
- `parse_assistant_text`: an assistant message from raw model text (Hermes / Qwen
  ``<tool_call>`` blocks, OpenAI JSON).
- `EpisodeTokens` / `tokenize_episode`: prompt ids, completion ids and the loss mask of an
  episode through a tokenizer's chat template.
- `AgentTranscript`: the agent's conversation in the one format every route (and the LLM
  agent of ``tau-env run``) shows the model.

Nothing here imports a training library; the adapters of `tau_env.integrations` build on it.
"""

from __future__ import annotations

from tau_env.chat.convert import action_message, assistant_actions, normalize_assistant_message
from tau_env.chat.env import ChatEnv, ChatTurn, SystemPrompt
from tau_env.chat.make import UserSpec, make_chat_env, user_factory
from tau_env.chat.parsing import parse_assistant_text, render_tool_call
from tau_env.chat.tokens import EpisodeTokens, TokenizedEpisode, tokenize_episode
from tau_env.chat.transcript import AgentTranscript

__all__ = [
    "AgentTranscript",
    "ChatEnv",
    "ChatTurn",
    "EpisodeTokens",
    "SystemPrompt",
    "TokenizedEpisode",
    "UserSpec",
    "action_message",
    "assistant_actions",
    "make_chat_env",
    "normalize_assistant_message",
    "parse_assistant_text",
    "render_tool_call",
    "tokenize_episode",
    "user_factory",
]
