"""An OpenEnv server for tau_env: any domain, mode, split and user, concurrent sessions.

Each WebSocket session of OpenEnv's protocol gets its own `TauOpenEnv`, a `tau_env.chat.ChatEnv`
behind OpenEnv's ``reset``/``step``/``state``. ``reset`` takes ``task_id``, or ``split`` and
``index`` (OpenEnv's task convention), and ``seed``. The task discovery routes
(``/{env_name}/splits``, ``tasks``, ``num_tasks``, ``task``, ``task_range``) list task ids
only: a task's scenario and grading criteria stay on the server. A bad request (unknown task,
split or index, a task this server cannot score, a step without an episode, a field of the
wrong type) changes nothing and is answered with a 4xx JSON error over HTTP, an error frame over
the WebSocket (`tau_env.integrations.openenv.errors`); the limits on sessions, message size and
idle time are `tau_env.integrations.openenv.limits`, who may open and drive a session
`tau_env.integrations.openenv.guard`.
"""

from __future__ import annotations

import asyncio
import json
import reprlib
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from openenv.core import Environment, create_app

from tau_env.chat import ChatTurn, make_chat_env
from tau_env.errors import InvalidAction
from tau_env.grading.reward import has_nl_judge, needs_nl_judge
from tau_env.integrations.openenv.errors import (
    InvalidRequest,
    NoEpisode,
    NotFound,
    install_error_handlers,
)
from tau_env.integrations.openenv.guard import LONE_SURROGATE, GuardMiddleware
from tau_env.integrations.openenv.limits import Limits, LimitsMiddleware, SessionSlots
from tau_env.integrations.openenv.models import TauAction, TauObservation, TauState
from tau_env.utils.surrogates import has_surrogate

__all__ = ["InlineTauOpenEnv", "TauOpenEnv", "create_server_app", "env_name"]


def env_name(domain: str) -> str:
    """The OpenEnv environment name of a domain (``tau_env-telecom``)."""
    return f"tau_env-{domain.replace('/', '-')}"


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 100


def _shown(value: Any) -> str:
    """A request's value as an error message quotes it: at most about 100 characters."""
    try:
        return _REPR.repr(value)
    except ValueError:  # an integer of more than 4,300 digits
        return "a value too large to show"


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
        self._split_cache: dict[str | None, list[str]] = {}
        self._judged = has_nl_judge(self.chat.single.aec.unwrapped.grader)

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
        """Start an episode on `task_id`, or task `index` of `split`, or a seeded draw.

        Raises:
            InvalidRequest: A field of the wrong type, or both a task id and an index.
            NotFound: No such task, split or index, or a task this server cannot play or
                score (nothing changes).
        """
        _check_seed(seed)
        if episode_id is not None and (
            not isinstance(episode_id, str) or has_surrogate(episode_id)
        ):
            raise InvalidRequest(f"episode_id must be a string of text, got {_shown(episode_id)}")
        task_id = self._requested_task(task_id, split, index)
        turn = self.chat.reset(task_id=task_id, seed=seed)
        self._state = TauState(
            episode_id=episode_id or uuid.uuid4().hex, step_count=0, done=turn.done
        )
        return self._observation(turn, tools=self.chat.tools)

    def step(
        self, action: TauAction, timeout_s: float | None = None, **kwargs: Any
    ) -> TauObservation:
        """Apply one assistant message (an invalid one is answered with an error, no change).

        Raises:
            NoEpisode: No episode in progress (never reset, or it has ended).
        """
        if self.chat.done:
            raise NoEpisode(self._no_episode())
        if has_surrogate(action.content) or has_surrogate(action.tool_calls):
            return self._refused(LONE_SURROGATE)  # the WebSocket refuses it before (guard)
        message = {"role": "assistant", "content": action.content, "tool_calls": action.tool_calls}
        try:
            turn = self.chat.step(message)
        except InvalidAction as error:
            return self._refused(str(error))
        self._state.step_count += 1
        self._state.done = turn.done
        return self._observation(turn)

    def _refused(self, error: str) -> TauObservation:
        """The answer to an action that is not one: the error, and nothing changed."""
        return TauObservation(done=False, reward=0.0, metadata={"error": error})

    def _requested_task(self, task_id: Any, split: Any, index: Any) -> str | None:
        """The task id a reset asks for (None: a seeded draw), checked before anything moves."""
        if split is not None and not isinstance(split, str):
            raise InvalidRequest(f"split must be a string, got {_shown(split)}")
        if task_id is not None:
            if not isinstance(task_id, str):
                raise InvalidRequest(f"task_id must be a string, got {_shown(task_id)}")
            if index is not None or split is not None:
                raise InvalidRequest("give task_id, or split and index, not both")
            self._check_task(task_id)
            return task_id
        if index is None:
            if split is not None:
                raise InvalidRequest(f"split {_shown(split)} needs an index (or give a task_id)")
            return None
        if isinstance(index, bool) or not isinstance(index, int):
            raise InvalidRequest(f"index must be an integer, got {_shown(index)}")
        ids = self._split_ids(split)
        if not 0 <= index < len(ids):
            name = split or "all"
            raise NotFound(
                f"index {index} is out of range: split {name!r} has {len(ids)} tasks "
                f"(0 to {len(ids) - 1})"
            )
        return ids[index]

    def _check_task(self, task_id: str) -> None:
        tasks = f"POST /{env_name(self.domain)}/tasks lists them"
        try:
            task = self._domain().task(task_id)
        except KeyError:
            shown = _shown(task_id)
            raise NotFound(f"no task {shown} in domain {self.domain!r}; {tasks}") from None
        reason = self._unplayable(task)
        if reason is not None:
            raise NotFound(f"task {task_id!r} cannot be played here: {reason}; {tasks}")

    def _unplayable(self, task: Any) -> str | None:
        """Why this server cannot play or score `task` (its mode, its judge); None: it can."""
        from tau_env.rollout.modes import unplayable_reason

        reason = unplayable_reason(task, self.options.get("mode", "default"))
        if reason is None and not self._judged and needs_nl_judge(task):
            reason = "it is scored by NL assertions and this server has no judge (--judge-model)"
        return reason

    def _no_episode(self) -> str:
        if self._state.episode_id is not None:
            return "the episode has ended: reset to start another"
        return (
            "no episode in progress: reset first. A new session has none: a client that "
            "reconnected (for example after its idle session was closed, --idle-timeout) "
            "must reset again, and over HTTP every request is a new session (OpenEnv's "
            "stateless /reset and /step): play episodes over the WebSocket /ws"
        )

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
        """Task `index` of `split` as ``{"id", "index"}`` (NotFound when out of range)."""
        return {"id": self._requested_task(None, split, index), "index": index}

    def get_task_range(self, split: str, start: int, stop: int) -> list[dict[str, Any]]:
        """Tasks ``start`` to ``stop`` (exclusive) of `split`."""
        return self.list_tasks(split)[start:stop]

    def _domain(self) -> Any:
        return self.chat.single.aec.unwrapped.domain

    def _split_ids(self, split: str | None) -> list[str]:
        """The ids of `split`'s tasks this server can play and score (NotFound: no such split)."""
        from tau_env.errors import DataError

        name = None if split in (None, "all") else split
        ids = self._split_cache.get(name)
        if ids is None:
            try:
                tasks = self._domain().split(name)
            except DataError as error:  # quoting the name short: a request may send megabytes
                raise NotFound(str(error).replace(repr(name), _shown(name))) from None
            ids = self._split_cache[name] = [t.id for t in tasks if self._unplayable(t) is None]
        return ids


class InlineTauOpenEnv(TauOpenEnv):
    """A `TauOpenEnv` that plays in the server's event loop instead of a worker thread.

    OpenEnv runs a synchronous ``reset``/``step`` in a thread pool; for an episode whose
    user never waits (scripted, gold, no user) a step takes about a millisecond of pure CPU,
    and the thread hop (queue, wake-up, GIL hand-over) costs more than the step. The server
    picks this class for such users; an LLM user, which waits for its model, keeps the
    threads so one session's wait never stalls the others.

    Two kinds of step are the exception and run in a thread, where the interpreter hands the
    event loop the GIL every few milliseconds and the other sessions go on:

    - a long message: the user reads it sentence by sentence (the scripted user about 10
      microseconds a character, up to its `READ_LIMIT` of 20,000: a fifth of a second), so a
      step whose message is longer than `LONG_MESSAGE` characters;
    - a call of a slow tool (`tau_env.tools.FunctionSpec.slow`: a search over a corpus, a
      call to a service), which bounds its own time (banking's ``grep``: 2 s of CPU).
    """

    LONG_MESSAGE = 16_384

    def __init__(self, domain: str, **options: Any) -> None:
        super().__init__(domain, **options)
        tools = self._domain().toolbox.agent_tools
        self._slow_tools = frozenset(spec.name for spec in tools if spec.slow)

    async def reset_async(self, **request: Any) -> TauObservation:
        """`reset`, run in the event loop (the request's fields are `reset`'s keywords)."""
        return self.reset(**request)

    async def step_async(
        self, action: TauAction, timeout_s: float | None = None, **kwargs: Any
    ) -> TauObservation:
        """`step`, run in the event loop (in a thread for a long message or a slow tool)."""
        if _length(action) > self.LONG_MESSAGE or self._calls_slow_tool(action):
            return await asyncio.to_thread(self.step, action, timeout_s, **kwargs)
        return self.step(action, timeout_s, **kwargs)

    def _calls_slow_tool(self, action: TauAction) -> bool:
        if not self._slow_tools or not action.tool_calls:
            return False
        for call in action.tool_calls:
            function = call.get("function")
            name = function.get("name") if isinstance(function, dict) else None
            if isinstance(name, str) and name in self._slow_tools:
                return True
        return False


def _length(action: TauAction) -> int:
    """The characters of an action's text and tool-call arguments (a cheap size)."""
    size = len(action.content or "")
    for call in action.tool_calls or ():
        function = call.get("function")
        arguments = function.get("arguments") if isinstance(function, dict) else None
        if isinstance(arguments, str):
            size += len(arguments)
        elif arguments is not None:  # a mapping: its JSON is what the tool receives
            size += len(json.dumps(arguments, default=str))
    return size


def _check_seed(seed: Any) -> None:
    """A reset's seed: None or a non-negative integer (a WebSocket's is not validated before).

    Raises:
        InvalidRequest: Anything else.
    """
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise InvalidRequest(f"seed must be a non-negative integer, got {_shown(seed)}")


INLINE_USERS = frozenset({"scripted", "gold"})
"""Users that answer at once, without waiting on anything (their episodes run inline)."""


def _metadata(turn: ChatTurn) -> dict[str, Any]:
    info: Mapping[str, Any] = turn.info
    keys = ("grade", "termination", "user_error", "user_faults", "reward_breakdown")
    return {key: info[key] for key in keys if key in info}


def create_server_app(
    domain: str,
    *,
    limits: Limits | None = None,
    slots: SessionSlots | None = None,
    data_dir: str | Path | None = None,
    allowed_origins: Sequence[str] = (),
    **options: Any,
) -> Any:
    """The FastAPI app serving `domain` over OpenEnv's protocol, within `limits`.

    Args:
        domain: Domain name or versioned id.
        limits: Sessions, message size, idle time (None: the defaults of `Limits`).
        slots: The session counter shared by the worker processes of one server (None: this
            app's own, with ``limits.max_sessions`` slots).
        data_dir: A reference data folder (None: built-in data).
        allowed_origins: Origins of web pages that may use the server (``--allow-origin``;
            `tau_env.integrations.openenv.guard`).
        **options: `make_chat_env` arguments (``user``, ``mode``, ``split``, ``user_model``,
            ``reward``, ``judge``...).
    """
    from tau_env.rollout.modes import has_user

    limits = limits or Limits()
    slots = slots or SessionSlots(limits.max_sessions)
    folder = str(data_dir) if data_dir is not None else None
    make_chat_env(domain, data_dir=folder, **options)  # fail now, not in the first session
    user = options.get("user", "scripted")
    inline = user in INLINE_USERS or not has_user(options.get("mode", "default"))
    session_cls = InlineTauOpenEnv if inline else TauOpenEnv

    def factory() -> TauOpenEnv:
        return session_cls(domain, data_dir=folder, **options)

    app = create_app(
        factory,
        TauAction,
        TauObservation,
        env_name=env_name(domain),
        max_concurrent_envs=limits.max_sessions,  # LimitsMiddleware admits sessions first
        state_cls=TauState,
    )
    install_error_handlers(app)
    app.add_middleware(LimitsMiddleware, limits=limits, slots=slots)
    app.add_middleware(GuardMiddleware, allowed_origins=allowed_origins)  # the outer one
    return app
