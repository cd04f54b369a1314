"""Whether a task's id, or any part of it, reached what a policy or a model receives (issue 53).

The id itself must appear nowhere. Its parts are the names in it: split on non-alphanumerics,
and on everything but ``_`` (an official telecom id gives ``bad_network_preference``,
``mms_issue``...). For a generated task, what its id used to name counts too: the family and
parameters in its description (the customer excepted: the agent legitimately looks the
customer up). Ordinary content does not count: parts of fewer than 4 characters, numbers,
plain words (``network``, ``setting``), and names the side legitimately sees whatever the
task (in its instructions or tool schemas), domains, splits, persona labels, roles. A part is
found when it stands as a whole word (``data_mode_off`` is not found in ``toggle_data``).
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable
from typing import Any

import tau_env
from tau_env.actions import Action, CallTool
from tau_env.chat import action_message
from tau_env.chat.parsing import render_tool_call
from tau_env.tasks import Task

__all__ = [
    "agent_sees",
    "as_text",
    "id_parts",
    "leaked",
    "legitimate_text",
    "model_text",
    "revealing_task",
]

ORDINARY = frozenset(
    {
        *("airline", "retail", "telecom", "banking", "knowledge", "mock"),
        *("base", "train", "test", "test_ood", "small", "full"),
        *("none", "easy", "hard", "persona", "issue"),
        *("user", "assistant", "tool", "system", "agent"),
    }
)
"""Words of ids that carry nothing on their own: domains, splits, persona labels, roles."""


def id_parts(task: Task, legitimate: str) -> set[str]:
    """The parts of `task`'s id (and of what its description says it names) to look for.

    Args:
        task: The task played.
        legitimate: What the side sees whatever the task (instructions, tool schemas): its
            words are not parts.
    """
    names = [task.id]
    description = task.description
    if description is not None and description.family:
        names.append(description.family)
        parameters = description.parameters or {}
        names += [value for key, value in parameters.items() if key not in ("customer", "persona")]
    parts: set[str] = set()
    for name in names:
        parts.update(re.split(r"[^A-Za-z0-9]+", name))
        parts.update(re.split(r"[^A-Za-z0-9_]+", name))
    ordinary = ORDINARY | _words(legitimate)
    return {
        part
        for part in parts
        if len(part) >= 4
        and not part.isdigit()
        and not part.isalpha()  # a plain word ("setting", "exceeded") is ordinary language
        and part.lower() not in ordinary
    }


def leaked(task: Task, payload: Any, legitimate: str) -> list[str]:
    """The id, or its parts, found in `payload` (anything: serialized as `as_text`).

    Raises:
        AssertionError: The id has no part to look for (the check would prove nothing).
    """
    parts = id_parts(task, legitimate)
    assert parts, f"{task.id}: no part of the id to look for"
    text = as_text(payload)
    found = [task.id] if task.id in text else []
    words = _words(text)
    return found + sorted(part for part in parts if part.lower() in words)


def as_text(payload: Any) -> str:
    """`payload` as JSON text: models, dataclasses, arrays and sets included."""
    return json.dumps(payload, default=_plain, ensure_ascii=False)


def _plain(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    return str(value)


def _words(text: str) -> set[str]:
    """Every word of `text`, lower-cased: split on non-alphanumerics, and on all but ``_``."""
    lowered = text.lower()
    return set(re.split(r"[^a-z0-9]+", lowered)) | set(re.split(r"[^a-z0-9_]+", lowered))


def legitimate_text(*parts: Iterable[Any] | Any) -> str:
    """What a side legitimately sees, as one text (instructions, schemas...)."""
    return as_text(list(parts))


def revealing_task(data_dir: Any) -> tuple[Any, Task]:
    """(the telecom domain, its task of the default split whose id or description names the
    most faults): a built-in one for ``data_dir=None``, an official one for the data folder.

    Of a persona the scripted user plays plainly (not ``Hard``, a novice who may not follow
    the plain-text oracle), so the whole episode is played to a reward of 1.
    """
    domain = tau_env.load_domain("telecom", data_dir)

    def faults(task: Task) -> tuple[bool, int]:
        if task.family:
            parameters = task.description.parameters or {}  # type: ignore[union-attr]
            return parameters["persona"] != "Hard", parameters["issues"].count("|")
        return "[PERSONA:Hard]" not in task.id, task.id.count("|")

    return domain, max(domain.split(None), key=faults)


def agent_sees(domain: Any, task: Task) -> str:
    """What the agent side sees whatever the task: its instructions and tool schemas."""
    from tau_env.baselines.llm_agent import AGENT_INSTRUCTIONS

    tools = domain.toolbox.tools("agent").openai_schemas()
    return legitimate_text(AGENT_INSTRUCTIONS, domain.policy_for(task), tools)


def model_text(action: Action) -> str:
    """An agent action as a Qwen-style model writes it: text, or a ``<tool_call>`` block."""
    if isinstance(action, CallTool):
        return render_tool_call(action.name, dict(action.arguments))
    return str(action_message(action)["content"])  # text, or the stop token
