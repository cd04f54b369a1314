"""The environment: a tau_env episode played by one verifiers agent, turn by turn.

The conversation is the one ``tau-env run --agent llm`` holds with a model (`tau_env.chat`):
the system prompt (the agent's policy), the greeting as the assistant's first turn, the
customer's words as user turns, the episode's tools as native tool schemas. Each segment of
the agent is one model reply; `tau_env.chat.ChatEnv.step` applies it (tool calls run in
tau_env's world, plain text is a message to the customer) and what comes back (tool results,
the customer's reply) opens the next segment, until the episode ends. The grade is left on the
trace's state for the task's rubric (`tau_env_verifiers.taskset.TauTask`).

Each rollout plays an episode seed of its own (`TauEnv.episode_seed`), recorded in the
trace's ``info["seed"]``: replaying the task with that seed and the same replies replays the
episode.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import Counter
from typing import Any

import verifiers.v1 as vf
from verifiers.v1.dialects.chat import message_to_wire

from tau_env_verifiers.taskset import TauTask, chat_options

__all__ = ["TauEnv", "TauEnvConfig"]

INLINE_USERS = frozenset({"scripted", "gold"})
"""Users that answer at once: their episodes step in the event loop (others in a thread)."""


class TauEnvConfig(vf.EnvConfig):  # type: ignore[misc]  # verifiers is untyped here
    """One role, ``agent``; its harness runs in-process, so its runtime is a local one."""

    agent: vf.AgentConfig = vf.AgentConfig(runtime=vf.SubprocessConfig())


class TauEnv(vf.Env[TauEnvConfig]):  # type: ignore[misc]
    """Plays each task as a tau_env episode (see the module)."""

    def __init__(self, config: TauEnvConfig) -> None:
        super().__init__(config)
        self._idle: list[Any] = []  # ChatEnvs between episodes (reset is cheap, building is not)
        self._played: Counter[str] = Counter()  # rollouts begun per task (a numbered seed)

    def episode_seed(self, task_id: str) -> int:
        """The seed of a new rollout of `task_id` (see `TauTasksetConfig.seed`).

        Fresh from the OS's entropy by default; with a configured seed, the k-th rollout of
        the task in this process plays ``episode_seed(seed, task, k)``.
        """
        base = self.taskset.config.seed
        if base is None:
            return secrets.randbits(31)
        from tau_env.rollout_seeds import episode_seed

        count = self._played[task_id]
        self._played[task_id] += 1
        return episode_seed(base, task_id, count)

    async def run(self, task: TauTask, agents: Any) -> None:
        """One episode: reset, then one agent segment per turn until the episode ends."""
        chat = self._idle.pop() if self._idle else self._chat_env()
        try:
            await self._play(chat, task, agents)
        finally:
            self._idle.append(chat)

    async def _play(self, chat: Any, task: TauTask, agents: Any) -> None:
        data = task.data
        seed = self.episode_seed(data.task_id)
        turn = chat.reset(task_id=data.task_id, seed=seed)
        system, *opening = turn.messages
        played = task.with_data(system_prompt=system["content"], tools=chat.tools)
        step = _stepper(chat, inline=self.taskset.config.user in INLINE_USERS)
        async with agents.agent.interaction(played) as interaction:
            interaction.trace.info["seed"] = seed
            state = interaction.trace.state
            incoming = opening
            while not turn.done:
                segment = await interaction.turn(incoming)
                if segment.terminated:  # a limit, a stop or a failure ended the rollout
                    condition = interaction.trace.stop_condition or "failed"
                    state.termination = f"ended by verifiers: {condition}"
                    return
                turn = await step(message_to_wire(segment.messages[-1]))
                incoming = turn.messages
            state.reward = turn.reward
            state.grade = turn.grade
            state.judge_failure = chat.judge_failure
            state.termination = str(turn.info.get("termination"))

    def _chat_env(self) -> Any:
        from tau_env.chat import make_chat_env

        config = self.taskset.config
        return make_chat_env(config.domain, **chat_options(config))


def _stepper(chat: Any, *, inline: bool) -> Any:
    """`chat.step` as a coroutine: in the event loop, or in a thread for a user that waits."""

    async def step(message: dict[str, Any]) -> Any:
        if inline:
            return chat.step(message)
        return await asyncio.to_thread(chat.step, message)

    return step
