"""SkyRL-gym for tau_env: a ``BaseTextEnv`` that reads tool calls from the model's raw text.

Registered as ``tau_env/<domain>`` for every domain (``skyrl_gym.make("tau_env/telecom",
env_config={...}, extras={"task_id": ...})``). ``init`` starts the row's task and returns the
chat so far, with the tool schemas and the call format written into the system message
(SkyRL renders chats without a ``tools`` argument); ``step`` parses the model's text
(`tau_env.chat.parse_assistant_text`: Hermes/Qwen ``<tool_call>`` blocks or OpenAI JSON),
applies it and returns the tool results and the user's reply as chat messages. The reward is
the grade's, at the end. Requires the ``skyrl`` extra.

Configuration: ``env_config`` (or keyword arguments) ``domain``, ``user``, ``mode``, ``split``,
``data_dir``, ``user_model``; per row (``extras``) ``task_id``, ``seed``, ``max_turns``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tau_env.utils.extras import missing_extra

try:
    from skyrl_gym.envs.base_text_env import BaseTextEnv, BaseTextEnvStepOutput
    from skyrl_gym.envs.registration import register
except ImportError as error:  # a one-line message naming the extra to install
    raise missing_extra("skyrl", error, feature="tau_env.integrations.skyrl") from error

from tau_env.chat import make_chat_env, parse_assistant_text

__all__ = ["TauTextEnv", "register_envs", "tools_prompt"]

_OPTIONS = ("user", "mode", "split", "data_dir", "user_model", "user_api_base")


def tools_prompt(tools: list[dict[str, Any]]) -> str:
    """The tool schemas and the call format, for a system message."""
    lines = "\n".join(json.dumps(tool) for tool in tools)
    return (
        "You can call these tools (JSON schemas):\n<tools>\n"
        f"{lines}\n</tools>\n"
        'To call a tool, write <tool_call>{"name": <tool name>, "arguments": <JSON object>}'
        "</tool_call>. To talk to the customer, write plain text."
    )


class TauTextEnv(BaseTextEnv):  # type: ignore[misc]  # skyrl_gym is untyped
    """One tau_env episode, agent side, for SkyRL's text-in / text-out loop.

    Args:
        env_config: Server-wide options (``domain`` and `make_chat_env` arguments).
        extras: The dataset row's options (``task_id``, ``seed``, ``max_turns``).
        domain: Domain, when not in `env_config` (the registered ids pass it).
    """

    def __init__(
        self,
        env_config: Mapping[str, Any] | None = None,
        extras: Mapping[str, Any] | None = None,
        domain: str | None = None,
    ) -> None:
        super().__init__()
        config = dict(env_config or {})
        row = dict(extras or {})
        name = config.get("domain") or domain
        if not name:
            raise ValueError("TauTextEnv needs a domain (env_config['domain'] or domain=...)")
        options = {key: config[key] for key in _OPTIONS if config.get(key) is not None}
        self.chat = make_chat_env(str(name), **options)
        self.task_id: str | None = row.get("task_id")
        self.seed: int | None = row.get("seed")
        self.max_turns = int(row.get("max_turns", config.get("max_turns", 30)))

    def init(self, prompt: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Start the row's task; the dataset prompt is replaced by the episode's chat."""
        turn = self.chat.reset(task_id=self.task_id, seed=self.seed)
        self.turns = 0
        messages = [dict(m) for m in turn.messages]
        messages[0]["content"] = f"{messages[0]['content']}\n\n{tools_prompt(self.chat.tools)}"
        return messages, {"task_id": self.chat.task_id, "tools": self.chat.tools}

    def step(self, action: str) -> BaseTextEnvStepOutput:
        """Apply the model's text as one assistant message; return what came back."""
        self.turns += 1
        turn = self.chat.step(parse_assistant_text(action))
        done = turn.done or self.turns >= self.max_turns
        metadata = dict(turn.info)
        metadata["finished"] = turn.done
        return BaseTextEnvStepOutput(
            observations=[] if done else turn.messages,
            reward=turn.reward if turn.done else 0.0,
            done=done,
            metadata=metadata,
            postprocessed_action=action,
        )


def register_envs() -> list[str]:
    """Register ``tau_env/<domain>`` for every tau_env domain; returns the ids."""
    from skyrl_gym.envs.registration import registry

    from tau_env.domain import registered_domains

    ids = []
    for name in registered_domains():
        env_id = f"tau_env/{name}"
        if env_id not in registry:
            register(id=env_id, entry_point=TauTextEnv, kwargs={"domain": name})
        ids.append(env_id)
    return ids


register_envs()
