"""`TauEnv`: a τ²-bench domain as a two-agent PettingZoo AEC environment."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from tau_env.actions import decode_action
from tau_env.domain import Domain
from tau_env.env.conversation import DUAL_CONTROL, Conversation, Seating, SideView
from tau_env.env.spaces import action_space, observation_space
from tau_env.errors import InvalidAction, ResetNeeded, UnsupportedRenderMode
from tau_env.grading.context import Episode
from tau_env.grading.grader import TaskGrader
from tau_env.grading.judge import as_judge
from tau_env.grading.outcome import Grade, TerminationReason
from tau_env.grading.strict import Grading, check_grading, read_strictly
from tau_env.messages import Side
from tau_env.tasks.model import Task

__all__ = ["SideContext", "TauEnv"]

SIDES: tuple[Side, Side] = ("agent", "user")


@dataclass(frozen=True)
class SideContext:
    """A side's standing information for one episode.

    It never names the task (issue 53): an id can spell out the answer (official telecom ids
    list the faults). A participant that may know its task (an oracle, a simulated user with
    its scenario) gets the `Task` from its factory; the env's `task` property is for graders
    and logging.

    Attributes:
        side: ``"agent"`` or ``"user"``.
        instructions: The policy (agent) or the user scenario (user).
        tools: OpenAI function schemas of the side's tools.
        tool_names: The tools' names, in the order of the action space's ``tool`` index.
    """

    side: Side
    instructions: str
    tools: list[dict[str, Any]]
    tool_names: tuple[str, ...]


_RESET_FIRST = "call reset() before using the environment"

_SEED_BOUND = 1 << 63
"""Episode seeds are drawn in [0, 2**63)."""


class TauEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """A customer-service conversation between an agent and a user over one shared world.

    Description:
        One episode plays one task of a τ²-bench domain. The agent has tools on the company's
        database; the user (in telecom) has tools on their own phone; both change the world.
        Either side acts in turn: a tool call keeps the floor, a message passes it.

    Agents:
        ``"agent"`` and ``"user"``: a cooperative Dec-POMDP in which each side observes only
        its own view (no side sees the other's tool traffic; the user never sees the policy;
        the agent never sees the user's scenario).

    Observation:
        ``Dict(messages, instructions, step)``, see `tau_env.env.spaces.observation_space`.
        The full history of a side is `view(side).history`.

    Action (tools):
        ``Dict(kind, content, tool, arguments)``, or the models `SendMessage`, `CallTool`,
        `Stop`. Malformed tool calls give an ``Error: ...`` result and change nothing; objects
        that are not actions raise `InvalidAction` and change nothing.

    Reward/Grading:
        0 on every step but the last; at the end both agents receive the grade of the task
        (product of its reward-basis checks; 0 for any ending other than a stop). The
        breakdown is in ``infos[agent]["grade"]``. NL assertions need a judge (``judge=``):
        without one (or when it fails) the grade has no reward (``grade["reward"]`` None,
        ``grade["not_judged"]`` lists the check) and both agents receive 0, never a pass.
        With ``grading="strict"`` the reward stays the official one and ``infos[agent]``
        also holds ``strict``, the grade under the strict reading (the task's listed checks
        added to its basis; `tau_env.grading.strict`).

    Termination:
        A stop (action or stop token) or ``max_errors`` cumulative tool errors terminate; an
        empty message terminates as that side's error; ``max_steps`` truncates.

    Tasks and seeds:
        The env has one random generator, ``np_random``, seeded as Gymnasium seeds its envs:
        ``reset(seed=s)`` re-seeds it (`gymnasium.utils.seeding.np_random`), a reset without
        a seed goes on drawing from it. Each reset draws twice: first the index of the task,
        uniformly among `tasks` (the Gymnasium view draws its task the same way), then the
        episode's seed (`episode_seed`: ids that tools invent, the simulated user's wording).
        ``options={"task_id": ...}`` plays the named task instead of the drawn one; the draw
        still happens, so the episode seed of a seed does not depend on how the task was
        chosen. Hence ``reset(seed=s)`` always plays the same task the same way, and
        ``reset(seed=s, options={"task_id": t})`` is that episode whenever the seed draws `t`.

    Parallel API:
        The sides take turns, and a tool call keeps the floor, so the sides do not act in a
        fixed cycle: ``is_parallelizable`` is False and PettingZoo's ``aec_to_parallel``
        refuses the env. ``turn_based_aec_to_parallel`` gives a parallel env in which only
        the side whose turn it is acts on each step.

    Registered IDs:
        ``tau/<domain>-v<version>``, see `tau_env.registry`.

    Version History:
        v0: first release.

    Args:
        domain: The loaded domain.
        tasks: Tasks a reset draws from (default: the domain's default split); see "Tasks
            and seeds".
        grader: Grades finished episodes (default: `TaskGrader(judge=judge)`).
        judge: Rules on NL assertions: an `LLMJudge`, any callable ``(trajectory,
            assertions) -> [Verdict, ...]``, a `tau_env.llm.ModelConfig` or a model name
            (an `LLMJudge` at temperature 0 is built). None: NL assertions are not judged.
        grading: ``"official"`` (default) or ``"strict"``: also read each grade strictly
            (``infos[agent]["strict"]``), beside the official reward, never instead of it.
        max_steps: Step limit (truncation).
        max_errors: Cumulative tool-error limit (termination).
        render_mode: ``"ansi"`` (render returns the transcript) or ``"human"`` (prints it);
            another mode raises `UnsupportedRenderMode` (a ValueError and a TypeError).
        max_text_length: Upper bound of the text spaces.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "tau_env",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        domain: Domain,
        tasks: Sequence[Task] | None = None,
        *,
        grader: TaskGrader | None = None,
        judge: Any = None,
        grading: Grading = "official",
        max_steps: int = 200,
        max_errors: int = 10,
        render_mode: str | None = None,
        max_text_length: int = 1 << 20,
    ) -> None:
        super().__init__()
        if max_steps < 1 or max_errors < 1:
            raise ValueError(
                f"max_steps and max_errors must be >= 1, actually: {max_steps}, {max_errors}"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise UnsupportedRenderMode(
                f"render_mode must be one of {self.metadata['render_modes']} (the transcript "
                f"as text), actually: {render_mode!r}"
            )
        self.domain = domain
        self.tasks: tuple[Task, ...] = (
            tuple(tasks) if tasks is not None else tuple(domain.split(None))
        )
        if not self.tasks:
            raise ValueError(f"no tasks to play in {domain!r}")
        if grader is not None and judge is not None:
            raise ValueError("give either grader or judge, not both (TaskGrader(judge=...))")
        grading = check_grading(grading)
        if grader is not None and grading != getattr(grader, "grading", "official"):
            raise ValueError(f"give grading={grading!r} to the TaskGrader, not to the env")
        self.grader = grader or TaskGrader(judge=as_judge(judge), grading=grading)
        self.grading: Grading = grading
        self.max_steps = max_steps
        self.max_errors = max_errors
        self.max_text_length = max_text_length
        self.render_mode = render_mode
        self.possible_agents: list[Side] = list(SIDES)
        self._tool_names = {side: domain.toolbox.tools(side).names for side in SIDES}
        obs_space = observation_space(max_text_length, max_steps)
        self._observation_spaces = {side: obs_space for side in SIDES}
        self._action_spaces = {
            side: action_space(len(self._tool_names[side]), max_text_length) for side in SIDES
        }
        self._tool_schemas = {side: domain.toolbox.tools(side).openai_schemas() for side in SIDES}
        self.np_random, self.np_random_seed = seeding.np_random()  # until reset gets a seed
        self._conversation: Conversation | None = None
        self._task: Task | None = None
        self._contexts: dict[Side, SideContext] = {}
        self._context_cache: dict[str, tuple[Task, dict[Side, SideContext]]] = {}
        self.grade: Grade | None = None
        self.episode_seed: int | None = None
        # The end of episode's infos, still to be written (`infos`): grade, ending, error note
        # and the sides to write them for (a dead step takes its side out).
        self._final_info: tuple[Grade, TerminationReason, str | None, list[Side]] | None
        self._final_info = None
        self._infos: dict[str, dict[str, Any]] = {}
        self._skip_agent_selection: Side | None = None  # see `_dead_step`

    # -- PettingZoo API ------------------------------------------------------------------------
    def observation_space(self, agent: Side) -> spaces.Space[Any]:
        """The (shared, identical) observation space of `agent`."""
        return self._observation_spaces[agent]

    def action_space(self, agent: Side) -> spaces.Space[Any]:
        """The action space of `agent` (its tool count differs per side)."""
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode.

        Args:
            seed: Re-seeds the env's generator, which draws the task and the episode's seed
                (see "Tasks and seeds" above); None: the generator goes on.
            options: ``{"task_id": ...}`` plays that task instead of the drawn one.
                ``{"seating": Seating(...)}`` changes who opens and whose tools each side may
                call, for this episode (how the No-User mode removes the user).
        """
        options = options or {}
        seating = options.get("seating", DUAL_CONTROL)
        if not isinstance(seating, Seating):
            raise ValueError(f"options['seating'] must be a Seating, actually: {seating!r}")
        task_id = options.get("task_id")
        if task_id is not None and not isinstance(task_id, str):
            raise ValueError(f"options['task_id'] must be a string, actually: {task_id!r}")
        named = None if task_id is None else self.domain.task(task_id)
        if seed is not None:
            self.np_random, self.np_random_seed = seeding.np_random(seed)
        drawn = self.tasks[int(self.np_random.integers(len(self.tasks)))]
        task = drawn if named is None else named
        self.episode_seed = int(self.np_random.integers(_SEED_BOUND))
        world = self.domain.prepare(task).initial_world.fork(self.episode_seed)
        history = task.initial_state.message_history if task.initial_state else None
        conversation = self._conversation = Conversation(
            world,
            history,
            max_steps=self.max_steps,
            max_errors=self.max_errors,
            seating=seating,
            max_text_length=self.max_text_length,
        )
        self._task = task
        cached = self._context_cache.get(task.id)  # made once per task (`_remember_contexts`)
        self._contexts = (
            cached[1] if cached is not None and cached[0] is task else self._remember_contexts(task)
        )
        self.grade = None
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {side: {} for side in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = conversation.turn
        if conversation.termination is not None:  # a history that already ends with a stop
            self._finish(conversation, task)

    def step(self, action: Any) -> None:
        """Act for `agent_selection`; pass None for an agent that is done.

        Raises:
            InvalidAction: `action` is not an action (nothing changes).
            ResetNeeded: Called before `reset`.
        """
        conversation = self._conversation
        if conversation is None:
            raise ResetNeeded(_RESET_FIRST)
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._dead_step(action)
            return
        if action is None:
            raise InvalidAction(f"the {agent} is not done; None is only valid for a finished side")
        decoded = decode_action(action, self._tool_names[agent])
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        conversation.act(decoded)
        if conversation.termination is not None:
            task = self._task
            assert task is not None, "reset() set the task"
            self._finish(conversation, task)
        else:
            self.agent_selection = conversation.turn
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: Side) -> dict[str, Any]:
        """What `agent` observes now (see `tau_env.env.spaces.observation_space`)."""
        conversation = self.conversation
        return {
            "messages": tuple(conversation.views[agent].inbox_entries),
            "instructions": self._contexts[agent].instructions[: self.max_text_length],
            "step": min(conversation.step_count, self.max_steps + 1),
        }

    def render(self) -> str | None:
        """The transcript as text (``ansi``), or print it (``human``)."""
        if self._conversation is None:
            return None
        lines = []
        for message in self._conversation.trajectory:
            if message.role == "tool":
                lines.append(f"tool[{message.requestor}]: {message.content}")
            elif message.tool_calls:
                calls = ", ".join(f"{c.name}({c.arguments})" for c in message.tool_calls)
                lines.append(f"{message.role}: [calls] {calls}")
            else:
                lines.append(f"{message.role}: {message.content}")
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release; present because `render` is overridden."""

    # -- tau_env API ---------------------------------------------------------------------------
    @property
    def task(self) -> Task:
        """The task of the current episode (privileged: for oracles, graders and logging)."""
        if self._task is None:
            raise ResetNeeded("call reset() first")
        return self._task

    @property
    def conversation(self) -> Conversation:
        """The current episode's protocol state (trajectory, counters, termination)."""
        conversation = self._conversation
        if conversation is None:
            raise ResetNeeded(_RESET_FIRST)
        return conversation

    def view(self, side: Side) -> SideView:
        """Everything `side` has seen: full history and what is new since it last acted."""
        return self.conversation.views[side]

    def context(self, side: Side) -> SideContext:
        """`side`'s instructions and tool schemas for the current episode."""
        if self._conversation is None:
            raise ResetNeeded(_RESET_FIRST)
        return self._contexts[side]

    def _remember_contexts(self, task: Task) -> dict[Side, SideContext]:
        """Both sides' contexts for `task`, made and kept for the task's next resets."""
        contexts = {side: self._context(side, task) for side in SIDES}
        self._context_cache[task.id] = (task, contexts)
        return contexts

    def _context(self, side: Side, task: Task) -> SideContext:
        instructions = self.domain.policy_for(task) if side == "agent" else str(task.user_scenario)
        tools = self._tool_schemas[side]
        names = self._tool_names[side]
        if side == "user" and task.user_tools is not None:
            allowed = set(task.user_tools)
            tools = [t for t in tools if t["function"]["name"] in allowed]
        return SideContext(side, instructions, tools, names)

    def _finish(self, conversation: Conversation, task: Task) -> None:
        """Grade the ended episode and give every side its reward and ending."""
        termination = conversation.termination or TerminationReason.AGENT_ERROR
        # Gold plans that draw random ids replay with the episode's seed (same ids, no
        # spurious DB difference); an episode that drew nothing needs no per-seed replay.
        seed = self.episode_seed if conversation.world.seed_source.drawn else None
        episode = Episode(  # task, trajectory, world, termination, expected_world_factory
            task,
            conversation.trajectory,
            conversation.world,
            termination,
            partial(self.domain.expected_world, task, seed),
            partial(self.domain.baseline, task),
        )
        grade = self.grade = self.grader.grade(episode)
        truncated = conversation.truncated
        reward = grade.reward
        if reward is None:  # not judged
            reward = 0.0
        rewards, terminations, truncations = self.rewards, self.terminations, self.truncations
        for side in self.agents:
            rewards[side] = reward
            terminations[side] = not truncated
            truncations[side] = truncated
        # The infos (the grade as JSON, its diagnostics included) are written when first read.
        sides = list(self.agents)
        self._final_info = (grade, termination, conversation.error_note, sides)

    def _dead_step(self, action: Any) -> None:
        """PettingZoo's dead step (`AECEnv._was_dead_step`), done here in the env's own terms.

        The stepped side (done, as `step` checked) leaves `agents` and every per-side dict; its
        info is dropped unbuilt (see `infos`). The turn goes to the next side that is done,
        the side to come back to being kept in `_skip_agent_selection`, or, once none is left,
        back to that side; the remaining rewards are cleared to 0. Every attribute PettingZoo
        exposes is left as its own dead step leaves it; only the Python overhead goes (its
        list comprehension, ``getattr`` calls and helper calls; here no infos are built).

        Raises:
            ValueError: `action` is not None (nothing changes).
        """
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        self._forget_side(agent)
        agents = self.agents
        agents.remove(agent)
        terminations, truncations, rewards = self.terminations, self.truncations, self.rewards
        for side in agents:
            if terminations[side] or truncations[side]:  # the next side to step dead
                if self._skip_agent_selection is None:
                    self._skip_agent_selection = agent
                self.agent_selection = side
                break
        else:
            if self._skip_agent_selection is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        for side in rewards:
            rewards[side] = 0

    def step_dead_sides(self) -> bool:
        """Every remaining side's dead step at once, when every remaining side is done.

        An episode's loop ends by stepping each finished side with None (`step` with None, one
        dead step per side). When every side left is done, this leaves exactly the state those
        dead steps leave, in one call: no side left, their entries gone from every per-side
        dict (infos never built), the turn back on the side stepped first. Runners call it
        once an episode has ended, instead of one `step` per side.

        Returns:
            False, changing nothing, when some remaining side is not done, or when the env's
            class has its own `step` (it is owed each dead step): step them with None instead.
        """
        if type(self).step is not TauEnv.step:
            return False
        agents = self.agents
        terminations, truncations = self.terminations, self.truncations
        for side in agents:
            if not (terminations[side] or truncations[side]):
                return False
        if agents:
            # `_forget_side` for each, spelled out (one call each was a tenth of the ending).
            rewards, cumulative, infos = self.rewards, self._cumulative_rewards, self._infos
            for side in agents:
                del terminations[side], truncations[side], rewards[side]
                del cumulative[side], infos[side]
            final = self._final_info
            if final is not None:  # its sides are among `agents`: every one goes
                final[3].clear()
            agents.clear()
            # As the last dead step: the turn goes back to the side kept for it, if any.
            if self._skip_agent_selection is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        return True

    def _forget_side(self, side: Side) -> None:
        """Drop a side stepped dead from every per-side dict; its info is never built."""
        del self.terminations[side], self.truncations[side], self.rewards[side]
        del self._cumulative_rewards[side], self._infos[side]
        final = self._final_info
        if final is not None and side in final[3]:
            final[3].remove(side)

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        """Per side, PettingZoo's info dict.

        At the end: ``grade`` (the grade as JSON, with every check), ``termination`` and,
        after an empty message, ``error``; never the task's id (a policy reads these: the
        `task` property is for logging). These entries are built on first read: a loop that
        never looks at them (a rollout keeps `grade`) pays neither for dumping the grade nor
        for its diagnostics.
        """
        final = self._final_info
        if final is not None:
            self._final_info = None
            grade, termination, error_note, sides = final
            if not sides:  # every side was stepped dead before anyone read them
                return self._infos
            info: dict[str, Any] = {
                "grade": grade.model_dump(mode="json"),
                "termination": termination.value,
            }
            if error_note:
                info["error"] = error_note
            if self.grading == "strict" and self._task is not None:
                judged = getattr(self.grader, "judge", None) is not None
                info["strict"] = read_strictly(grade, self._task, judged=judged).as_dict()
            for side in sides:
                self._infos[side] = dict(info)
        return self._infos

    @infos.setter
    def infos(self, value: dict[str, dict[str, Any]]) -> None:
        self._final_info = None
        self._infos = value
