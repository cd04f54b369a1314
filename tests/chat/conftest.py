"""Helpers for the chat view's tests: an oracle that plays through chat messages."""

from __future__ import annotations

from typing import Any

from tau_env.baselines.oracle import PlainTextOracleAgent
from tau_env.chat import ChatEnv, action_message


def play_oracle(chat: ChatEnv, *, task_id: str, seed: int) -> list[Any]:
    """Play one episode with the plain-text oracle's actions sent as assistant messages."""
    turns = [chat.reset(task_id=task_id, seed=seed)]
    agent = PlainTextOracleAgent(chat.single.task)
    while not chat.done:
        action = agent.act(chat.single.aec.view("agent"), chat.single.aec.context("agent"))
        turns.append(chat.step(action_message(action)))
    return turns
