"""SkyRL-gym for tau_env: a ``BaseTextEnv`` that reads tool calls from the model's raw text.

Registered as ``tau_env/<domain>`` for every domain (``skyrl_gym.make("tau_env/telecom",
env_config={...}, extras={"task_id": ...})``). ``init`` starts the row's task and returns the
chat so far in the format every route shares (`tau_env.chat.transcript`); ``step`` parses
the model's text
(`tau_env.chat.parse_assistant_text`: Hermes/Qwen ``<tool_call>`` blocks or OpenAI JSON),
applies it and returns the tool results and the user's reply as chat messages. The reward is
the grade's, at the end. Requires the ``skyrl`` extra.

The one difference SkyRL forces: it renders chats without a ``tools`` argument, so the tool
schemas are written into the system message. Give ``env_config["tokenizer"]`` (the policy's
tokenizer, or its Hugging Face name) and they are written exactly as the model's chat template
writes native tools (`tau_env.chat.tokens.system_with_tools`), so the tokens are those of the
other routes; without it (or for a template that puts tools elsewhere) a Hermes-style listing
(`tools_prompt`) is used.

Configuration: ``env_config`` (or keyword arguments) ``domain``, ``user``, ``mode``, ``split``,
``data_dir``, ``user_model``, ``reward`` (``binary``, ``partial``, ``breakdown``: the per-check
vector is in the last step's metadata), ``judge`` (a model name: tasks scored by NL assertions
are refused without one); per row (``extras``) ``task_id``, ``seed``, ``max_turns``. A judge
that fails to rule marks that rollout and no other: its last step's reward is None (SkyRL's
generator places no reward for it), its metadata says ``judge_failed``, `get_metrics` counts
it and a warning says so (an env cannot take a rollout out of SkyRL's loss: filter on the
``judge_failed`` metric or metadata to leave it out). The
row's ``seed`` is the episode seed: the user's choices follow it (`tau_env.participant`), and
every rollout of the row (SkyRL's samples per prompt) shares it; without one each episode
draws its own.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Mapping
from typing import Any

from tau_env.utils.extras import missing_extra

try:
    from skyrl_gym.envs.base_text_env import BaseTextEnv, BaseTextEnvStepOutput
    from skyrl_gym.envs.registration import register
except ImportError as error:  # a one-line message naming the extra to install
    raise missing_extra("skyrl", error, feature="tau_env.integrations.skyrl") from error

from tau_env.chat import make_chat_env, parse_assistant_text
from tau_env.chat.tokens import system_with_tools

__all__ = ["TauTextEnv", "register_envs", "tools_prompt"]

_OPTIONS = ("user", "mode", "split", "data_dir", "user_model", "user_api_base", "reward", "judge")


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
        env_config: Server-wide options (``domain``, `make_chat_env` arguments and
            ``tokenizer``).
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
        self.tokenizer = _tokenizer(config.get("tokenizer"))
        self.task_id: str | None = row.get("task_id")
        self.seed: int | None = row.get("seed")
        self.max_turns = int(row.get("max_turns", config.get("max_turns", 30)))
        self.judge_failed = False

    def init(self, prompt: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Start the row's task; the dataset prompt is replaced by the episode's chat."""
        turn = self.chat.reset(task_id=self.task_id, seed=self.seed)
        self.turns = 0
        self.judge_failed = False
        messages = [dict(m) for m in turn.messages]
        system, tools = messages[0]["content"], self.chat.tools
        exact = None
        if self.tokenizer is not None:
            exact = system_with_tools(self.tokenizer, system, tools)
        messages[0]["content"] = exact or f"{system}\n\n{tools_prompt(tools)}"
        return messages, {"tools": tools}  # never the task's id (issue 53)

    def step(self, action: str) -> BaseTextEnvStepOutput:
        """Apply the model's text as one assistant message; return what came back."""
        self.turns += 1
        turn = self.chat.step(parse_assistant_text(action))
        done = turn.done or self.turns >= self.max_turns
        metadata = dict(turn.info)
        metadata["finished"] = turn.done
        failure = self.chat.judge_failure
        metadata["judge_failed"] = self.judge_failed = failure is not None
        if failure is not None:
            warnings.warn(f"tau_env: {failure}; rollout left without a reward", stacklevel=2)
        return BaseTextEnvStepOutput(
            observations=[] if done else turn.messages,
            reward=self.chat.reward if turn.done else 0.0,  # None: the judge did not rule
            done=done,
            metadata=metadata,
            postprocessed_action=None,  # the model's tokens stand as sampled
        )

    def get_metrics(self) -> dict[str, float]:
        """The episode's metrics: ``judge_failed`` (1 when its NL judge failed to rule)."""
        return {"judge_failed": float(self.judge_failed)}


_TOKENIZERS: dict[str, Any] = {}


def _tokenizer(spec: Any) -> Any:
    """A tokenizer object as given, or loaded once per process from its name."""
    if spec is None or not isinstance(spec, str):
        return spec
    if spec not in _TOKENIZERS:
        from transformers import AutoTokenizer

        _TOKENIZERS[spec] = AutoTokenizer.from_pretrained(spec)
    return _TOKENIZERS[spec]


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
