"""`ChatEnv`: the agent's side of an episode as OpenAI chat, one call per agent turn.

The model sees chat messages and tool schemas and answers with one assistant message (text
and/or tool calls, as a chat completion returns it). `ChatEnv.step` applies it (each tool call
is one env step, the text one message), lets the user play until the floor comes back (through
`tau_env.wrappers.SingleAgentEnv`, with whatever user participant it was given) and returns
what came back: the tool results and the user's reply as chat messages, and, at the end, the
terminal reward with the grade's breakdown.

Nothing here plays the episode's rules: the AEC env and its wrappers do; this module only
translates between chat messages and actions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tau_env.chat.convert import assistant_actions
from tau_env.chat.transcript import AgentTranscript
from tau_env.errors import JudgeError, ResetNeeded
from tau_env.grading.reward import RewardKind
from tau_env.participant import ParticipantFactory
from tau_env.wrappers.single_agent import SingleAgentEnv

__all__ = ["ChatEnv", "ChatTurn", "SystemPrompt"]

SystemPrompt = Callable[[str], str]
"""The agent side's instructions (policy, or No-User brief) -> the system message text."""


@dataclass(frozen=True)
class ChatTurn:
    """What comes back after a reset or an agent turn.

    Attributes:
        messages: The new chat messages: after a reset the whole chat so far (system prompt,
            greeting, the user's opening); after a turn the tool results and the user's reply.
        done: True once the episode has ended (terminated or truncated).
        reward: The terminal reward on the env's scale (`tau_env.grading.reward`) once done,
            else 0; None when the task's NL judge failed to rule (never scored 0 for it).
        truncated: True when the step limit ended the episode.
        info: The env's info: at the end ``grade`` (the breakdown), ``termination``,
            ``reward_breakdown`` (with ``reward="breakdown"``) and, when the user failed,
            ``user_error``. It never names the task (`ChatEnv.task_id` does, for the trainer).
    """

    messages: list[dict[str, Any]]
    done: bool = False
    reward: float | None = 0.0
    truncated: bool = False
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def grade(self) -> dict[str, Any] | None:
        """The grade's breakdown (reward, termination, every check) once done, else None."""
        grade: dict[str, Any] | None = self.info.get("grade")
        return grade


class ChatEnv:
    """A tau_env episode, agent side, as a chat: messages and tools in, an assistant message out.

    Args:
        env: A tau_env AEC env, possibly wrapped in modes (`NoUser`, `OraclePlan`...).
        user: Builds the user participant for each episode's task (any participant: scripted,
            LLM-backed, a style of either); None only when the env has no user side.
        system_prompt: Turns the agent's instructions into the system message (default: the
            prompt of tau_env's LLM agent, `tau_env.baselines.llm_agent.agent_system_prompt`).
        reward: ``"binary"`` (the benchmark's), ``"partial"`` (the fraction of checks met) or
            ``"breakdown"`` (binary, plus the per-check vector in the info); see
            `tau_env.grading.reward`. Tasks that need an NL judge the env lacks are left out
            of draws and refused by id (`tau_env.wrappers.SingleAgentEnv`).

    Attributes:
        transcript: The chat so far (`messages`), in the format every route shares
            (`tau_env.chat.transcript`): the agent's own messages as it sent them.
        tools: The agent's tool schemas for the current episode (OpenAI format).
    """

    def __init__(
        self,
        env: Any,
        user: ParticipantFactory | None = None,
        *,
        system_prompt: SystemPrompt | None = None,
        reward: RewardKind = "binary",
    ) -> None:
        self.single = SingleAgentEnv(env, user, reward=reward)
        self.system_prompt = system_prompt or _default_system_prompt()
        self.transcript = AgentTranscript()
        self.tools: list[dict[str, Any]] = []
        self._done = True
        self._reward: float | None = 0.0
        self._instructions: str | None = None
        self._system_text = ""

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The whole chat so far (`tau_env.chat.transcript`'s format), system prompt first."""
        return self.transcript.messages

    @property
    def done(self) -> bool:
        """True when there is no episode in progress."""
        return self._done

    @property
    def reward(self) -> float | None:
        """The terminal reward once the episode has ended, else 0 (see `ChatTurn.reward`)."""
        return self._reward if self._done else 0.0

    def scored_reward(self) -> float:
        """`reward`, for trainers that would read a missing reward as 0.

        Raises:
            JudgeError: The episode's NL judge failed to rule (after its retries).
        """
        failure = self.judge_failure
        if failure is not None:
            raise JudgeError(failure, transient=False)
        return self._reward if self._done and self._reward is not None else 0.0

    @property
    def judge_failure(self) -> str | None:
        """Why the ended episode has no reward when its NL judge failed to rule, else None.

        Training routes mark such a rollout (no reward, left out of the loss, counted)
        instead of stopping the batch.
        """
        if not self._done or self._reward is not None:
            return None
        note = self.single.driven.unwrapped.grade.note
        return f"task {self.task_id}: no reward, the NL judge did not rule ({note})"

    @property
    def reward_breakdown(self) -> dict[str, float | None]:
        """Each reward-basis check -> the fraction of its items met, once ended (else empty)."""
        if not self._done:
            return {}
        return self.single.reward_breakdown()

    @property
    def task_id(self) -> str:
        """The task of the current episode."""
        return str(self.single.task.id)

    def reset(self, *, task_id: str | None = None, seed: int | None = None) -> ChatTurn:
        """Start an episode; returns the chat up to the agent's first turn.

        Args:
            task_id: The task to play (None: drawn with the seeded generator).
            seed: Seeds the episode (the env, the user and the task draw).
        """
        single = self.single
        if task_id is None:
            single.reset(seed=seed)  # draws the task with the view's seeded generator
        else:
            single.begin(task_id, seed=seed)
        aec = single.driven
        context = aec.context("agent")
        self.tools = list(context.tools)
        history = aec.view("agent").history  # the greeting and any task history
        self.transcript.start(self._system(context.instructions), history)
        terminated, truncated = bool(aec.terminations["agent"]), bool(aec.truncations["agent"])
        self._done = terminated or truncated
        self._reward = self.single.final_reward() if self._done else 0.0
        return ChatTurn(
            list(self.messages), self._done, self._reward, truncated, self.single.info()
        )

    def step(self, message: Mapping[str, Any]) -> ChatTurn:
        """Apply one assistant message; returns what came back.

        Raises:
            InvalidAction: `message` is not an assistant message (nothing changes).
            ResetNeeded: No episode is in progress.
        """
        if self._done:
            raise ResetNeeded("the episode has ended; call reset()")
        normal = self.transcript.add_model_turn(message)  # checked before anything changes
        actions = assistant_actions(normal)
        single = self.single
        terminated = truncated = False
        for action in actions:
            terminated, truncated = single.advance(action)
            if terminated or truncated:
                self._done = True
                self._reward = self.single.final_reward()
                break
        new = self.transcript.catch_up(single.driven.view("agent").history)
        return ChatTurn(new, self._done, self._reward, truncated, self.single.info())

    # -- internals -----------------------------------------------------------------------------
    def _system(self, instructions: str) -> str:
        """The system message for `instructions`, built once per distinct instructions."""
        if instructions != self._instructions:
            self._instructions = instructions
            self._system_text = self.system_prompt(instructions)
        return self._system_text


def _default_system_prompt() -> SystemPrompt:
    from tau_env.baselines.llm_agent import agent_system_prompt

    return agent_system_prompt
