"""Figures of how the scripted user sounds: opening diversity and copying of its instructions.

Used by the tests (tests/wrappers/users/test_voice_measures.py) and by
``benchmarks/user_voice.py``, which prints them for every task set:

- `opening_diversity`: the openings of every task for each seed -- distinct openings per seed
  and over all seeds, the largest share of the tasks one opening takes for one seed, and how
  many tasks sound different under another seed.
- `copied_messages`: the messages of a conversation that repeat a run of `parroting.RUN` words
  of the scenario (see `parroting` for what counts).
- `Prober`: an agent that says what tends to trigger a user's reactions, to play against.
- `speech_faults`: over played episodes, the user messages that speak like a program (a tool
  name, a literal, raw tool output: `plain_reading.program_speech`) or read a run of their
  instructions (12 words read plainly, or 8 masked: `parroting`), with examples.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from tau_env.actions import SendMessage
from tau_env.domain import Domain
from tau_env.messages import Message
from tau_env.tasks.model import Task
from tau_env.wrappers.users.parroting import ScenarioWords
from tau_env.wrappers.users.plain_reading import program_speech
from tau_env.wrappers.users.scripted import ScriptedUser

__all__ = [
    "OpeningDiversity",
    "Prober",
    "SpeechFaults",
    "copied_messages",
    "opening_diversity",
    "openings",
    "speech_faults",
]


@dataclass(frozen=True)
class OpeningDiversity:
    """How varied the openings of a task set are.

    Attributes:
        tasks: Tasks measured.
        seeds: The seeds.
        distinct_per_seed: Distinct openings among the tasks, for each seed.
        distinct_over_seeds: Distinct openings over every task and seed.
        max_share_per_seed: For each seed, the largest fraction of the tasks sharing one opening.
        varied_tasks: Tasks whose opening is not the same for every seed.
        copied: (task id, seed, copied runs) for each opening that repeats its scenario.
    """

    tasks: int
    seeds: tuple[int, ...]
    distinct_per_seed: tuple[int, ...]
    distinct_over_seeds: int
    max_share_per_seed: tuple[float, ...]
    varied_tasks: int
    copied: tuple[tuple[str, int, tuple[str, ...]], ...]

    @property
    def max_share(self) -> float:
        """The largest share of the tasks one opening takes, over the seeds."""
        return max(self.max_share_per_seed, default=0.0)


def openings(tasks: Sequence[Task], domain: Domain | None, seed: int) -> list[str]:
    """What the scripted user (its default style, the persona's) says first on each task."""
    return [ScriptedUser(task, domain, seed=seed).voice.opening for task in tasks]


def opening_diversity(
    tasks: Sequence[Task], domain: Domain | None, seeds: Iterable[int]
) -> OpeningDiversity:
    """The diversity and copying figures of the openings of `tasks` under each of `seeds`."""
    seeds = tuple(seeds)
    by_seed = [openings(tasks, domain, seed) for seed in seeds]
    counts = [Counter(said) for said in by_seed]
    copied = [
        (task.id, seed, tuple(runs))
        for seed, said in zip(seeds, by_seed, strict=True)
        for task, opening in zip(tasks, said, strict=True)
        if (runs := ScenarioWords.of(str(task.user_scenario)).copied(opening))
    ]
    varied = sum(len(set(per_task)) > 1 for per_task in zip(*by_seed, strict=True))
    return OpeningDiversity(
        tasks=len(tasks),
        seeds=seeds,
        distinct_per_seed=tuple(len(count) for count in counts),
        distinct_over_seeds=len(set().union(*by_seed)) if by_seed else 0,
        max_share_per_seed=tuple(
            max(count.values()) / len(tasks) if tasks else 0.0 for count in counts
        ),
        varied_tasks=varied,
        copied=tuple(copied),
    )


def copied_messages(messages: Iterable[str], scenario_text: str) -> list[tuple[str, list[str]]]:
    """(message, copied runs) for each of `messages` that repeats a run of the scenario."""
    words = ScenarioWords.of(scenario_text)
    return [(message, runs) for message in messages if (runs := words.copied(message))]


class Prober:
    """An agent that says what tends to trigger a user's reactions.

    Questions, offers, claims and refusals: `LINES` in order, then the last one again.
    """

    LINES = (
        "Could you give me your user id, email, name, zip code and phone number?",
        "I can do that now. It will cost $12.50. Do you confirm?",
        "Would you like me to add 2 GB of data or change your plan?",
        "Could you restart your phone and turn airplane mode off?",
        "It has been cancelled and updated; everything is done now.",
        "I'm sorry, I cannot do that.",
        "Let me check.",
    )

    def __init__(self, task: object) -> None:
        self.lines = list(self.LINES)

    def act(self, view: object, context: object) -> SendMessage:
        """The next line (the last one once the others are said)."""
        return SendMessage(content=self.lines.pop(0) if len(self.lines) > 1 else self.lines[0])


@dataclass
class SpeechFaults:
    """User messages that speak like a program or read their instructions, over episodes.

    Attributes:
        episodes: Episodes read.
        messages: User messages read.
        tool_names: Messages naming a tool (or using call syntax or an identifier).
        literals: Messages holding a program literal.
        raw_output: Messages repeating a formatted line of a tool result.
        copied: Messages holding a run of their instructions (`ScenarioWords.copied`).
        examples: (what, message) for the first few of each.
    """

    episodes: int = 0
    messages: int = 0
    tool_names: int = 0
    literals: int = 0
    raw_output: int = 0
    copied: int = 0
    examples: list[tuple[str, str]] = field(default_factory=list)

    @property
    def faulty(self) -> int:
        """Messages with any fault."""
        return self.tool_names + self.literals + self.raw_output + self.copied

    def add(
        self, trajectory: Sequence[Message], scenario_text: str, tools: Collection[str]
    ) -> None:
        """Read one episode's user messages."""
        self.episodes += 1
        outputs = [
            m.content or ""
            for m in trajectory
            if m.role == "tool" and getattr(m, "requestor", "") == "user"
        ]
        words = ScenarioWords.of(scenario_text)
        for message in trajectory:
            if message.role != "user" or not message.content:
                continue
            self.messages += 1
            found = program_speech(message.content, tools, outputs)
            kinds = {finding.split(":", 1)[0] for finding in found}
            named = bool(kinds & {"tool name", "call", "assignment", "identifier"})
            self.tool_names += named
            self.literals += "literal" in kinds
            self.raw_output += "raw output" in kinds
            runs = words.copied(message.content)
            self.copied += bool(runs)
            for what in [*found, *(f"copied: {run}" for run in runs)]:
                if len(self.examples) < 20:
                    self.examples.append((what, message.content))


def speech_faults(
    trajectories: Iterable[tuple[Sequence[Message], str]], tools: Collection[str]
) -> SpeechFaults:
    """The `SpeechFaults` of (trajectory, scenario text) pairs, `tools` the domain's tools."""
    figures = SpeechFaults()
    for trajectory, scenario_text in trajectories:
        figures.add(trajectory, scenario_text, tools)
    return figures
