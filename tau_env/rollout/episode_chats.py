"""Stored episodes as the agent's chat: the conversation a model in the agent's seat was shown.

A run's episodes are stored as trajectories (both sides, every message). `RunChats` turns each
into the chat of the training routes and of ``tau-env run --agent llm``
(`tau_env.chat.transcript`): tau_env's agent system prompt with the policy the run's mode
gives the agent, what the agent saw, and the agent's tool schemas, with tool-call arguments as
JSON objects, the form chat templates read (`tau_env.chat.tokens.template_message`). The chat
ends at the agent's last turn: what came after it (the customer's goodbye, a last result) was
never acted on.

The system prompt and tools are the run's own: the run's env stack is built once
(`tau_env.rollout.worker.run_env`) and reset once per task to read the agent's context.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter

from tau_env.baselines.llm_agent import agent_system_prompt
from tau_env.chat.tokens import template_message
from tau_env.chat.transcript import recorded_chat
from tau_env.episode_runner import bare_env
from tau_env.messages import Message
from tau_env.rollout.config import RunConfig
from tau_env.rollout.worker import run_env
from tau_env.store.records import EpisodeRecord
from tau_env.store.sqlite import ResultStore

__all__ = ["AgentSetting", "EpisodeChat", "RunChats"]

_TRAJECTORY = TypeAdapter(list[Message])


@dataclass(frozen=True)
class AgentSetting:
    """What the agent is given for one task of a run, before anything is said.

    Attributes:
        system: The system message (tau_env's agent instructions, then the mode's policy).
        tools: The agent's tool schemas (OpenAI format).
        opening: How many messages the agent's view holds at reset (the greeting, a task's
            history): none of them is the model's.
        task_key: The task's id and a hash of its content: episodes of two runs are of the
            same task only when both agree.
    """

    system: str
    tools: list[dict[str, Any]]
    opening: int
    task_key: tuple[str, str]


@dataclass(frozen=True)
class EpisodeChat:
    """One stored episode as the agent's chat.

    Attributes:
        messages: The chat, system prompt first, through the agent's last turn.
        tools: The agent's tool schemas.
        prompt_length: How many messages precede the model's first turn (the system prompt,
            the greeting, a task's history, the customer's opening): `tokenize_episode`'s
            ``prompt_length``.
        task_key: See `AgentSetting.task_key`.
        episode: The stored episode.
    """

    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    prompt_length: int
    task_key: tuple[str, str]
    episode: EpisodeRecord


class RunChats:
    """The episodes of one stored run as agent chats.

    Every task of the run is reset once up front, so a run whose data cannot be loaded fails
    here, before anything is written.

    Args:
        store: The store holding the run.
        run_id: The run (None: the latest).

    Raises:
        UnknownRun: No such run.
        TauEnvError: The run's data or mode cannot be loaded.
    """

    def __init__(self, store: ResultStore, run_id: str | None = None) -> None:
        self.store = store
        self.record = store.run(run_id)
        config = RunConfig.model_validate(self.record.config)
        env = run_env(config)
        self.settings = {task_id: _setting(env, task_id) for task_id in config.task_ids}

    @property
    def run_id(self) -> str:
        """The run's id."""
        return self.record.run_id

    def episodes(self) -> Iterator[EpisodeRecord]:
        """The run's stored episodes, by task then trial, one at a time.

        Episodes of tasks the run's configuration does not list (none, unless the store was
        edited) are left out.
        """
        settings = self.settings
        return (e for e in self.store.episodes(self.run_id) if e.task_id in settings)

    def chat(self, episode: EpisodeRecord) -> EpisodeChat | None:
        """`episode`'s chat; None when the model never took a turn (nothing to learn from)."""
        setting = self.settings[episode.task_id]
        messages = recorded_chat(setting.system, _TRAJECTORY.validate_python(episode.trajectory))
        turns = [
            index
            for index in range(1 + setting.opening, len(messages))
            if messages[index]["role"] == "assistant"
        ]
        if not turns:
            return None
        return EpisodeChat(
            messages=[template_message(message) for message in messages[: turns[-1] + 1]],
            tools=setting.tools,
            prompt_length=turns[0],
            task_key=setting.task_key,
            episode=episode,
        )


def _setting(env: Any, task_id: str) -> AgentSetting:
    """The agent's setting for a task: the env reset on it (a mode may change the context)."""
    env.reset(seed=0, options={"task_id": task_id})
    driven = bare_env(env)
    driven = env if driven is None else driven
    context = driven.context("agent")
    task = env.unwrapped.task
    digest = hashlib.sha256(task.model_dump_json().encode()).hexdigest()[:16]
    return AgentSetting(
        system=agent_system_prompt(context.instructions),
        tools=list(context.tools),
        opening=len(driven.view("agent").history),
        task_key=(task_id, digest),
    )
