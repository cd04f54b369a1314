"""The replayed episodes: the oracle's steps recorded once, played back over a WebSocket."""

from __future__ import annotations

import json
from typing import Any


def record_plans(domain: str = "telecom") -> dict[str, list[str]]:
    """Task id -> the oracle's steps as pre-serialised WebSocket messages (reset first)."""
    from tau_env.baselines.oracle import PlainTextOracleAgent
    from tau_env.chat import action_message, make_chat_env

    chat = make_chat_env(domain)
    plans: dict[str, list[str]] = {}
    for task in chat.single.aec.unwrapped.domain.split(None):
        chat.reset(task_id=task.id, seed=0)
        agent = PlainTextOracleAgent(task)
        steps = [json.dumps({"type": "reset", "data": {"task_id": task.id, "seed": 0}})]
        while not chat.done:
            message = action_message(agent.act(None, None))  # type: ignore[arg-type]
            chat.step(message)
            action = {k: message[k] for k in ("content", "tool_calls") if message.get(k)}
            steps.append(json.dumps({"type": "step", "data": action}))
        if chat.reward == 1.0:  # a user that needs a request repeated is no fixed replay
            plans[task.id] = steps
    return plans


async def play(ws: Any, steps: list[str]) -> int:
    """One replayed episode on an open session; returns the steps taken."""
    for message in steps:
        await ws.send(message)
        answer = await ws.recv()
        if '"type":"error"' in answer[:40]:
            raise RuntimeError(answer[:500])
    data = json.loads(answer)["data"]
    if not data["done"] or data["reward"] != 1.0:
        raise RuntimeError(f"episode ended with done={data['done']} reward={data['reward']}")
    return len(steps)


async def connect(url: str, sessions: int) -> list[Any]:
    """`sessions` websockets open to the server (no size limit, no pings, a patient opening)."""
    import websockets

    return [
        await websockets.connect(url, max_size=None, open_timeout=120, ping_interval=None)
        for _ in range(sessions)
    ]
