"""An OpenEnv server for tau_env: any domain, mode, split and user, concurrent sessions.

Each WebSocket session of OpenEnv's protocol gets its own `TauOpenEnv`, a `tau_env.chat.ChatEnv`
behind OpenEnv's ``reset``/``step``/``state``. ``reset`` takes ``task_id``, or ``split`` and
``index`` (OpenEnv's task convention), and ``seed``. The task discovery routes
(``/{env_name}/splits``, ``tasks``, ``num_tasks``, ``task``, ``task_range``) list task ids
only: a task's scenario and grading criteria stay on the server.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from openenv.core import Environment, create_app

from tau_env.chat import ChatTurn, make_chat_env
from tau_env.errors import InvalidAction
from tau_env.integrations.openenv.models import TauAction, TauObservation, TauState

__all__ = ["InlineTauOpenEnv", "TauOpenEnv", "create_server_app", "env_name"]


def env_name(domain: str) -> str:
    """The OpenEnv environment name of a domain (``tau_env-telecom``)."""
    return f"tau_env-{domain.replace('/', '-')}"


class TauOpenEnv(Environment):  # type: ignore[misc]  # openenv is untyped
    """One session's episode. Built by the server's factory with the server's options.

    Args:
        domain: Domain name or versioned id.
        **options: `tau_env.chat.make_chat_env` arguments (``user``, ``mode``, ``split``,
            ``data_dir``, ``user_model``...).
    """

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, domain: str, **options: Any) -> None:
        super().__init__()
        self.domain = domain
        self.options = options
        self.chat = make_chat_env(domain, **options)
        self._state = TauState()

    # -- the episode ---------------------------------------------------------------------------
    def reset(
        self,
        seed: int | None = None,
        episode_id: str | None = None,
        task_id: str | None = None,
        split: str | None = None,
        index: int | None = None,
        **kwargs: Any,
    ) -> TauObservation:
        """Start an episode on `task_id`, or task `index` of `split`, or a seeded draw."""
        if task_id is None and index is not None:
            task_id = self._split_ids(split)[int(index)]
        turn = self.chat.reset(task_id=task_id, seed=seed)
        self._state = TauState(
            episode_id=episode_id or uuid.uuid4().hex,
            step_count=0,
            task_id=self.chat.task_id,
            done=turn.done,
        )
        return self._observation(turn, tools=self.chat.tools)

    def step(
        self, action: TauAction, timeout_s: float | None = None, **kwargs: Any
    ) -> TauObservation:
        """Apply one assistant message (an invalid one is answered with an error, no change)."""
        message = {"role": "assistant", "content": action.content, "tool_calls": action.tool_calls}
        try:
            turn = self.chat.step(message)
        except InvalidAction as error:
            return TauObservation(
                done=False,
                reward=0.0,
                task_id=self._state.task_id or "",
                metadata={"error": str(error)},
            )
        self._state.step_count += 1
        self._state.done = turn.done
        return self._observation(turn)

    @property
    def state(self) -> TauState:
        """The session's episode."""
        return self._state

    def _observation(
        self, turn: ChatTurn, tools: list[dict[str, Any]] | None = None
    ) -> TauObservation:
        return TauObservation(
            messages=turn.messages,
            tools=tools or [],
            task_id=self.chat.task_id,
            done=turn.done,
            reward=turn.reward if turn.done else 0.0,  # None: the NL judge failed to rule
            metadata=_metadata(turn),
        )

    # -- task discovery (ids only) -------------------------------------------------------------
    def list_splits(self) -> list[str]:
        """The data's split names."""
        return list(self._domain().data.splits) or ["all"]

    def list_tasks(self, split: str) -> list[dict[str, Any]]:
        """Every task of `split` as ``{"id", "index"}``."""
        return [{"id": task_id, "index": i} for i, task_id in enumerate(self._split_ids(split))]

    def num_tasks(self, split: str) -> int:
        """How many tasks `split` has."""
        return len(self._split_ids(split))

    def get_task(self, split: str, index: int) -> dict[str, Any]:
        """Task `index` of `split` as ``{"id", "index"}`` (IndexError when out of range)."""
        ids = self._split_ids(split)
        if not 0 <= index < len(ids):
            raise IndexError(index)
        return {"id": ids[index], "index": index}

    def get_task_range(self, split: str, start: int, stop: int) -> list[dict[str, Any]]:
        """Tasks ``start`` to ``stop`` (exclusive) of `split`."""
        return self.list_tasks(split)[start:stop]

    def _domain(self) -> Any:
        return self.chat.single.aec.unwrapped.domain

    def _split_ids(self, split: str | None) -> list[str]:
        from tau_env.rollout.modes import playable_in_mode

        mode = self.options.get("mode", "default")
        name = None if split in (None, "all") else split
        return [t.id for t in self._domain().split(name) if playable_in_mode(t, mode)]


class InlineTauOpenEnv(TauOpenEnv):
    """A `TauOpenEnv` that plays in the server's event loop instead of a worker thread.

    OpenEnv runs a synchronous ``reset``/``step`` in a thread pool; for an episode whose
    user never waits (scripted, gold, no user) a step takes about a millisecond of pure CPU,
    and the thread hop (queue, wake-up, GIL hand-over) costs more than the step. The server
    picks this class for such users; an LLM user, which waits for its model, keeps the
    threads so one session's wait never stalls the others.
    """

    async def reset_async(
        self,
        seed: int | None = None,
        episode_id: str | None = None,
        task_id: str | None = None,
        split: str | None = None,
        index: int | None = None,
        **kwargs: Any,
    ) -> TauObservation:
        """`reset`, run in the event loop."""
        return self.reset(seed, episode_id, task_id, split, index, **kwargs)

    async def step_async(
        self, action: TauAction, timeout_s: float | None = None, **kwargs: Any
    ) -> TauObservation:
        """`step`, run in the event loop."""
        return self.step(action, timeout_s, **kwargs)


INLINE_USERS = frozenset({"scripted", "gold"})
"""Users that answer at once, without waiting on anything (their episodes run inline)."""


def _metadata(turn: ChatTurn) -> dict[str, Any]:
    info: Mapping[str, Any] = turn.info
    keys = ("grade", "termination", "user_error", "user_faults", "reward_breakdown")
    return {key: info[key] for key in keys if key in info}


def create_server_app(
    domain: str,
    *,
    max_sessions: int = 256,
    data_dir: str | Path | None = None,
    **options: Any,
) -> Any:
    """The FastAPI app serving `domain` over OpenEnv's protocol.

    Args:
        domain: Domain name or versioned id.
        max_sessions: Concurrent WebSocket sessions (one episode each at a time).
        data_dir: A reference data folder (None: built-in data).
        **options: `make_chat_env` arguments (``user``, ``mode``, ``split``, ``user_model``,
            ``reward``, ``judge``...).
    """
    from tau_env.rollout.modes import has_user

    folder = str(data_dir) if data_dir is not None else None
    make_chat_env(domain, data_dir=folder, **options)  # fail now, not in the first session
    user = options.get("user", "scripted")
    inline = user in INLINE_USERS or not has_user(options.get("mode", "default"))
    session_cls = InlineTauOpenEnv if inline else TauOpenEnv

    def factory() -> TauOpenEnv:
        return session_cls(domain, data_dir=folder, **options)

    return create_app(
        factory,
        TauAction,
        TauObservation,
        env_name=env_name(domain),
        max_concurrent_envs=max_sessions,
        state_cls=TauState,
    )
