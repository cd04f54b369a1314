"""No-User mode: the user is removed; the agent resolves the ticket alone with every tool.

The reference's solo mode (spec §5): there is no greeting and no one to talk to. The agent
sees the task's ticket, and calls its own tools, the user's tools (which act on the user's
device, as when the user performs them) and a ``done`` tool that ends the episode. A message
without a stop token ends the episode as the agent's error, as in the reference. Where the
data has a No-User policy (``policy_solo.md``) the agent gets it instead of the normal one.
"""

from __future__ import annotations

from typing import Any, cast

from gymnasium import spaces
from pettingzoo.utils.wrappers import BaseWrapper

from tau_env.actions import Action, CallTool, SendMessage, Stop, decode_action
from tau_env.env.aec import SideContext, TauEnv
from tau_env.env.conversation import Seating
from tau_env.env.spaces import action_space
from tau_env.messages import STOP_TOKENS, AssistantMessage, Side, UserMessage, has_text
from tau_env.tasks.model import Task
from tau_env.wrappers.users.script import opening_line

__all__ = [
    "DONE_TOOL",
    "NoUser",
    "needs_a_listener",
    "no_user_refusal",
    "playable_without_user",
    "solo_compatible",
]

DONE_TOOL = "done"
"""The tool the agent calls when the ticket is resolved (the reference's solo stop tool)."""

DONE_SCHEMA: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": DONE_TOOL,
        "description": "Call this once the ticket is resolved; it ends the episode.",
        "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
    },
}

NO_USER_NOTE = (
    "There is no customer in this conversation: nobody reads your messages. Resolve the ticket "
    "below using only tool calls (your own tools and the tools of the customer's device), then "
    f"call `{DONE_TOOL}`."
)


def playable_without_user(task: Task) -> bool:
    """True when the task's message history (if any) leaves the floor to the agent.

    A history with user messages or agent text is a conversation in progress: there is no
    way to continue it without the user.
    """
    history = task.initial_state.message_history if task.initial_state else None
    return not any(
        isinstance(m, UserMessage) or (isinstance(m, AssistantMessage) and has_text(m.content))
        for m in history or []
    )


def needs_a_listener(task: Task) -> bool:
    """True when the task's reward needs information told to the user.

    That is a COMMUNICATE check with something to say. Without a user nobody receives the
    information (the agent only calls tools), so the check cannot pass and even a perfect
    agent would score 0: such a task cannot be graded fairly in No-User mode.
    """
    criteria = task.evaluation_criteria
    return bool(
        criteria is not None
        and "COMMUNICATE" in criteria.reward_basis
        and criteria.communicate_info
    )


def no_user_refusal(task: Task) -> str | None:
    """Why the task cannot be played (or graded fairly) without a user; None when it can."""
    if not playable_without_user(task):
        return "the message history is a conversation in progress, waiting for the user"
    if needs_a_listener(task):
        return "the reward needs COMMUNICATE, information told to a user this mode removes"
    return None


def solo_compatible(task: Task) -> bool:
    """The reference's test of whether a task can be played without a user.

    A task with an initial state qualifies when its message history holds no user message and
    no agent text; a task without one needs a ticket and at least one gold action.
    """
    if task.initial_state is not None:
        return playable_without_user(task)
    return task.ticket is not None and bool(task.gold_actions)


def _agent_only(values: dict[str, Any]) -> dict[str, Any]:
    return {side: value for side, value in values.items() if side == "agent"}


class NoUser(BaseWrapper):  # type: ignore[misc]  # pettingzoo ships no type information
    """Removes the ``"user"`` agent; the agent works alone on the ticket.

    Changes one thing, the cast: ``possible_agents`` is ``["agent"]``; the agent's tools are
    its own, then the user's, then ``done``; its instructions are the (solo) policy plus the
    ticket. Works on any domain: without user tools the agent has its own tools and ``done``.

    Args:
        env: A tau_env AEC environment (wrapped or not), not reset yet or between episodes.

    Attributes:
        tasks: The env's tasks that can be played and graded fairly without a user: no
            conversation in progress, no reward that needs COMMUNICATE (`no_user_refusal`).

    Raises:
        TypeError: `env` is not a tau_env environment.
        ValueError: None of the env's tasks can be played without a user.
    """

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        raw = env.unwrapped
        if not isinstance(raw, TauEnv):
            raise TypeError(f"NoUser wraps tau_env environments, actually: {type(raw).__name__}")
        toolbox = raw.domain.toolbox
        agent_tools = toolbox.tools("agent")
        own = set(agent_tools.names)
        borrowed = [spec for spec in toolbox.tools("user") if spec.name not in own]
        self.tool_names: tuple[str, ...] = (
            *agent_tools.names,
            *(spec.name for spec in borrowed),
            DONE_TOOL,
        )
        self._schemas = [
            *agent_tools.openai_schemas(),
            *(spec.openai_schema() for spec in borrowed),
            DONE_SCHEMA,
        ]
        self._seating = Seating(
            greeting=None, borrowed_tools={"agent": frozenset(s.name for s in borrowed)}
        )
        content = cast(spaces.Text, cast(spaces.Dict, raw.action_space("agent"))["content"])
        self._action_space = action_space(len(self.tool_names), content.max_length)
        self.possible_agents: list[Side] = ["agent"]
        self.tasks: tuple[Task, ...] = tuple(t for t in raw.tasks if no_user_refusal(t) is None)
        if not self.tasks:
            raise ValueError(
                "none of the env's tasks can be played without a user (each has a "
                "conversation in progress, or a reward that needs COMMUNICATE)"
            )
        self._next_task = 0
        self._context: SideContext | None = None
        self._note: str | None = None

    # -- the cast ------------------------------------------------------------------------------
    @property
    def agents(self) -> list[Side]:
        """``["agent"]`` while the agent is in the episode, then ``[]``."""
        return [a for a in self.env.agents if a == "agent"]

    @property
    def agent_selection(self) -> Side:
        """Always the agent."""
        return "agent"

    @property
    def rewards(self) -> dict[str, float]:
        """The agent's reward (empty once the agent has left the episode)."""
        return _agent_only(self.env.rewards)

    @property
    def terminations(self) -> dict[str, bool]:
        """The agent's termination flag."""
        return _agent_only(self.env.terminations)

    @property
    def truncations(self) -> dict[str, bool]:
        """The agent's truncation flag."""
        return _agent_only(self.env.truncations)

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        """The agent's info (with ``no_user_error`` when a message ended the episode)."""
        infos = _agent_only(self.env.infos)
        if "agent" in infos and self._note is not None:
            infos["agent"] = {**infos["agent"], "no_user_error": self._note}
        return infos

    def action_space(self, agent: Side) -> spaces.Space[Any]:
        """The agent's action space over its own tools, the user's tools and ``done``."""
        if agent != "agent":
            raise KeyError(f"No-User mode has only the agent, actually asked for: {agent!r}")
        return self._action_space

    # -- the episode ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode without a user.

        Without ``options["task_id"]``, the tasks that can be played without a user (`tasks`)
        are taken in turn.

        Raises:
            ValueError: The chosen task cannot be played or graded fairly without a user: its
                message history leaves the floor to the user, or its reward needs COMMUNICATE
                (see `no_user_refusal`).
        """
        options = dict(options or {})
        if "task_id" not in options:
            options["task_id"] = self.tasks[self._next_task % len(self.tasks)].id
            self._next_task += 1
        raw = self.env.unwrapped
        task = raw.domain.task(options["task_id"])
        refusal = no_user_refusal(task)
        if refusal is not None:
            raise ValueError(
                f"task {task.id!r} cannot be played without a user: {refusal} "
                "(see tau_env.wrappers.no_user_refusal)"
            )
        self.env.reset(seed=seed, options={**options, "seating": self._seating})
        self._note = None
        self._context = SideContext(
            side="agent",
            instructions=self._instructions(task),
            tools=self._tools_for(task),
            tool_names=self.tool_names,
        )

    def step(self, action: Any) -> None:
        """Act for the agent: ``done`` stops, user tools act on the user's device."""
        ended = self.terminations.get("agent", True) or self.truncations.get("agent", True)
        if action is None or ended:
            self.env.step(action)
            return
        decoded: Action = decode_action(action, self.tool_names)
        if isinstance(decoded, CallTool) and decoded.name == DONE_TOOL:
            decoded = Stop()
        elif isinstance(decoded, SendMessage) and not any(
            token in decoded.content for token in STOP_TOKENS.values()
        ):
            self._note = "the agent sent a message, but there is no user in No-User mode"
            decoded = SendMessage(content="")  # ends the episode as the agent's error
        self.env.step(decoded)

    def observe(self, agent: Side) -> dict[str, Any]:
        """The agent's observation, with the No-User instructions."""
        observation = dict(self.env.observe(agent))
        observation["instructions"] = self.context(agent).instructions
        return observation

    def context(self, side: Side) -> SideContext:
        """The agent's instructions (policy and ticket) and tools (agent, user, ``done``)."""
        if side != "agent":
            raise KeyError(f"No-User mode has only the agent, actually asked for: {side!r}")
        if self._context is None:
            raise RuntimeError("call reset() first")
        return self._context

    def _instructions(self, task: Task) -> str:
        raw = self.env.unwrapped
        policy = raw.domain.data.solo_policy or raw.domain.policy_for(task)
        ticket = task.ticket or opening_line(task, raw.domain)
        return f"{policy}\n\n{NO_USER_NOTE}\n\n<ticket>\n{ticket}\n</ticket>"

    def _tools_for(self, task: Task) -> list[dict[str, Any]]:
        if task.user_tools is None:
            return list(self._schemas)
        allowed = set(task.user_tools) | set(self.env.unwrapped.domain.toolbox.tools("agent").names)
        allowed.add(DONE_TOOL)
        return [s for s in self._schemas if s["function"]["name"] in allowed]
