"""TRL's ``environment_factory``: one class per domain whose methods are the agent's tools.

TRL turns an environment class's public methods into tools (schemas from their type hints and
Google docstrings), calls ``reset(**row)`` before each rollout and appends what it returns to
the prompt's last user message, runs the model's tool calls against the instance, stops at the
first reply without a tool call, and reads ``get_reward()`` as a reward. Here:

- each agent tool of the domain (mode) is a method built from its OpenAI schema;
- ``send_message_to_customer(message)`` sends text to the user and returns the user's reply
  (TRL's loop ends at plain text, so talking must be a tool);
- ``reset`` starts the row's task (``task_key``, the opaque key of `environment_dataset`'s
  rows, or ``task_id`` in rows made by hand; optional ``seed``: the base of the episode
  seeds, see `tau_env.integrations.trl.seeds`) and returns the customer's opening;
  ``get_reward`` returns the grade's reward. A rollout that ends without the episode ending
  (the model answered in plain text) counts as the agent ending the conversation, as an LLM
  agent's ``###STOP###`` would, and is graded as it stands.

How this route's conversation differs from the format every other route shares
(`tau_env.chat.transcript`), all forced by TRL's loop (tested in
``tests/integrations/test_format_routes.py``):

1. Talking to the customer is a tool call, ``send_message_to_customer``: the loop ends the
   rollout at the first reply without a tool call. The system prompt says so
   (`message_tool_prompt`), and the customer's replies come back as that tool's results
   (``<tool_response>`` blocks in Qwen-style templates), not as user turns.
2. The tools are TRL's schemas of the methods (from their signatures and docstrings): the
   native names and parameters; nested argument schemas reach the model as ``dict``/``list``
   with the JSON schema in the description.
3. Up to the agent's first turn the chat is the shared one: the system prompt, the greeting
   as the assistant's first turn (from `environment_dataset`'s prompt), the customer's
   opening as the user turn (``reset`` fills it). With a prompt of the older layout (system
   prompt, empty user message) the greeting arrives as text in that user message.
"""

from __future__ import annotations

import inspect
import json
import re
import warnings
from typing import Any, Literal

from tau_env.chat import ChatEnv, make_chat_env
from tau_env.integrations.trl.keys import keyed
from tau_env.integrations.trl.seeds import GroupSeeds, SeedSchedule
from tau_env.rollout.modes import has_user

__all__ = ["MESSAGE_TOOL", "TauToolEnvironment", "environment_factory", "message_tool_prompt"]

MESSAGE_TOOL = "send_message_to_customer"
"""The tool through which the model talks to the customer."""

ENDED = "The conversation has ended."
"""What a tool returns once the episode is over."""

_JSON_TYPES: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "object": dict,
}


class TauToolEnvironment:
    """Base of the generated classes: one tau_env episode driven through tool calls.

    Only ``reset`` and ``get_reward`` are public here, so TRL exposes nothing else but the
    generated tool methods.

    Attributes:
        chat: The chat view the episode runs in.
        tool_calls: Tool calls executed in the current episode (the message tool included).
        seed: The current episode's seed.
        judge_failures: Rollouts of the class, in this process, whose NL judge failed to rule.
    """

    _chat_options: dict[str, Any] = {}  # noqa: RUF012  # set per generated class, never mutated
    _seeds = SeedSchedule()  # one per generated class: its pooled instances share it
    _tasks_by_key: dict[str, str] = {}  # noqa: RUF012  # per generated class: key -> task id
    judge_failures = 0

    def __init__(self) -> None:
        self.chat: ChatEnv = make_chat_env(**self._chat_options)
        self.tool_calls = 0
        self.seed: int | None = None
        self._failure_counted = False

    def reset(
        self,
        task_id: str | None = None,
        seed: int | None = None,
        task_key: str | None = None,
        **row: Any,
    ) -> str | None:
        """Start the row's task; returns what reached the agent before its first turn.

        The task is the row's `task_key` (`environment_dataset`'s opaque key) or `task_id`
        (None for both: drawn). The episode's seed derives from the row's `seed` and the task
        by the class's seed schedule (`tau_env.integrations.trl.seeds`). Other dataset columns
        (``prompt``...) are ignored.

        Raises:
            ValueError: `task_key` is no key of this domain's tasks in this process.
        """
        if task_key is not None:
            task_id = self._tasks_by_key.get(task_key)
            if task_id is None:
                raise ValueError(
                    f"unknown task key {task_key!r}: keys are made per process; build the "
                    "dataset in the process that trains on it"
                )
        self.seed = type(self)._seeds.next(task_id, seed)
        turn = self.chat.reset(task_id=task_id, seed=self.seed)
        self.tool_calls = 0
        self._failure_counted = False
        opening = [m for m in turn.messages if m["role"] != "system"]
        if not opening:
            return None
        if opening[-1]["role"] == "user" and _has_greeting(row.get("prompt")):
            return str(opening[-1]["content"])  # the prompt holds the greeting and history
        return "\n".join(f"{_speaker(m)}: {m.get('content') or ''}" for m in opening)

    def get_reward(self) -> float | None:
        """The episode's reward, ending it first (as the agent's stop) when still running.

        On the scale the factory was given (``reward=``: binary, partial or breakdown). None
        when the task's NL judge failed to rule: the rollout is marked, not scored 0 and not
        stopping the batch. TRL leaves a rollout every reward function left None out of its
        group's baseline and gives it advantage 0, so it moves nothing (`component_rewards`
        give None for it too); each one is warned about with a count (`judge_failures`).
        """
        if not self.chat.done:
            self.chat.step({"role": "assistant", "content": "###STOP###"})
        failure = self.chat.judge_failure
        if failure is None:
            return self.chat.scored_reward()
        if not self._failure_counted:  # once per episode, however often its reward is read
            self._failure_counted = True
            cls = type(self)
            cls.judge_failures += 1
            warnings.warn(
                f"tau_env: {failure}; rollout left unscored "
                f"({cls.judge_failures} so far in this process)",
                stacklevel=2,
            )
        return None

    def _call(self, name: str, arguments: dict[str, Any]) -> str:
        if self.chat.done:
            return ENDED
        self.tool_calls += 1
        call = {"type": "function", "function": {"name": name, "arguments": arguments}}
        turn = self.chat.step({"role": "assistant", "content": None, "tool_calls": [call]})
        results = [m["content"] for m in turn.messages if m["role"] == "tool"]
        return "\n".join(results) if results else ENDED

    def _say(self, message: str) -> str:
        if self.chat.done:
            return ENDED
        self.tool_calls += 1
        turn = self.chat.step({"role": "assistant", "content": message})
        replies = [m["content"] or "" for m in turn.messages if m["role"] == "user"]
        return "\n".join(replies) if replies else ENDED


def environment_factory(
    domain: str,
    *,
    user: Any = "scripted",
    mode: str = "default",
    split: str | None = None,
    data_dir: str | None = None,
    group_seeds: GroupSeeds = "shared",
    group_size: int | None = None,
    **options: Any,
) -> type[TauToolEnvironment]:
    """The TRL environment class of a domain (pass the class as ``environment_factory``).

    Args:
        domain: Domain name or versioned id.
        user: The user participant (a `tau_env.chat.UserSpec`: ``"scripted"``, ``"llm"``, a
            factory or ``"module:factory"``).
        mode: Evaluation mode; No-User modes have no message tool (the agent calls ``done``).
        split: Split drawn from when a row has no task id.
        data_dir: A reference data folder (None: built-in data).
        group_seeds: ``"shared"`` (a GRPO group plays one seed), ``"distinct"`` (every rollout
            its own) or ``"fixed"`` (the row's seed); see `tau_env.integrations.trl.seeds`
            (with several processes: rank-aware, from accelerate).
        group_size: Rollouts per group (GRPO's ``num_generations``), when known (then a group
            split over two processes is warned about).
        **options: Further `make_chat_env` arguments: ``reward`` (``"binary"``,
            ``"partial"``, ``"breakdown"``; per-check rewards: `component_rewards`), ``judge``
            (tasks scored by NL assertions need one), ``user_model``, ``max_steps``...
    """
    seeds = SeedSchedule(group_seeds, group_size)
    if has_user(mode):
        options.setdefault("system_prompt", message_tool_prompt)
    chat_options = {
        "domain": domain,
        "user": user,
        "mode": mode,
        "split": split,
        "data_dir": data_dir,
        **options,
    }
    probe = make_chat_env(**chat_options)
    probe.reset(seed=0)
    tasks_by_key = keyed(task.id for task in probe.single.aec.unwrapped.domain.tasks)
    namespace: dict[str, Any] = {
        "_chat_options": chat_options,
        "_seeds": seeds,
        "_tasks_by_key": tasks_by_key,
    }
    for schema in probe.tools:
        method = _tool_method(schema)
        namespace[method.__name__] = method
    if "user" in probe.single.aec.possible_agents:
        namespace[MESSAGE_TOOL] = _message_method()
    name = "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", domain) if part)
    return type(f"{name}Environment", (TauToolEnvironment,), namespace)


def _message_method() -> Any:
    # A method defined here, bound by `type()`: ``self`` is no tool argument (noqa: D417).
    def send_message_to_customer(self: TauToolEnvironment, message: str) -> str:  # noqa: D417
        """Send a message to the customer and get their reply.

        Args:
            message: The text to send to the customer.
        """
        return self._say(message)

    # Without a hint on ``self`` (transformers reads every hint as a tool argument).
    send_message_to_customer.__annotations__ = {"message": str, "return": str}
    return send_message_to_customer


def _tool_method(schema: dict[str, Any]) -> Any:
    """A method with the tool's name, signature and Google docstring, calling the env."""
    function = schema["function"]
    name: str = function["name"]
    parameters = function.get("parameters") or {}
    properties: dict[str, Any] = parameters.get("properties") or {}
    required = set(parameters.get("required") or ())

    def method(self: TauToolEnvironment, **arguments: Any) -> str:
        return self._call(name, arguments)

    signature = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {}
    lines = [_one_line(function.get("description") or name), "", "Args:"]
    for key, spec in properties.items():
        annotation = _annotation(spec)
        default = inspect.Parameter.empty if key in required else None
        if default is None:
            annotation = annotation | None
        signature.append(
            inspect.Parameter(
                key, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
            )
        )
        annotations[key] = annotation
        lines.append(f"    {key}: {_describe(spec, key)}")
    annotations["return"] = str
    method.__name__ = method.__qualname__ = name
    method.__signature__ = inspect.Signature(signature, return_annotation=str)  # type: ignore[attr-defined]
    method.__annotations__ = annotations
    method.__doc__ = "\n".join(lines if properties else lines[:1])
    return method


def _annotation(spec: dict[str, Any]) -> Any:
    enum = spec.get("enum")
    if enum and all(isinstance(value, str) for value in enum):
        return Literal[tuple(enum)]
    kind = spec.get("type")
    if kind == "array":
        items = spec.get("items") or {}
        if items.get("type") not in _JSON_TYPES:
            return list
        item: Any = _annotation(items)
        return list[item]  # built at run time from the schema
    return _JSON_TYPES.get(kind, str) if isinstance(kind, str) else Any


def _describe(spec: dict[str, Any], key: str) -> str:
    text = _one_line(spec.get("description") or key)
    nested = spec.get("items") if spec.get("type") == "array" else spec
    if isinstance(nested, dict) and nested.get("type") == "object" and nested.get("properties"):
        text += f" JSON schema: {json.dumps(spec, separators=(',', ':'))}"
    return text


def _one_line(text: str) -> str:
    return " ".join(text.split())


def message_tool_prompt(policy: str) -> str:
    """The system prompt of this route: tau_env's LLM agent prompt, talking as a tool call.

    Talking to the customer is the `MESSAGE_TOOL` call here (TRL's loop ends at a reply
    without a tool call).
    """
    from tau_env.baselines.llm_agent import agent_system_prompt, message_tool_instructions

    return agent_system_prompt(policy, instructions=message_tool_instructions(MESSAGE_TOOL))


def _has_greeting(prompt: Any) -> bool:
    """True unless a row's prompt is of the older layout (system prompt, empty user message).

    `environment_dataset`'s layout shows the chat before the customer's first words: an
    assistant turn (the greeting) right before the last user message.
    """
    if not isinstance(prompt, list) or len(prompt) < 2:
        return True  # no prompt to read: the opening alone
    return isinstance(prompt[-2], dict) and prompt[-2].get("role") == "assistant"


def _speaker(message: dict[str, Any]) -> str:
    return {"assistant": "Agent", "user": "Customer"}.get(message["role"], "Tool")
