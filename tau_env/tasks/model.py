"""Tasks, in the layout of the reference's task files (spec §1.2).

Official ``tasks.json`` files load into these models unchanged; keys the reference ignores
(``annotations``, ``description.info``) are ignored here too, as is the ``user_script`` key
of task files written before the scripted user read scenarios (it is read from the scenario now).
"""

from __future__ import annotations

import json
import textwrap
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tau_env.messages import Message, Requestor

__all__ = [
    "AfterRefusal",
    "Answer",
    "Conduct",
    "ConfirmRule",
    "Description",
    "EnvAssertion",
    "EnvFunctionCall",
    "EvaluationCriteria",
    "GoalCheck",
    "GoldAction",
    "InitialState",
    "InitializationData",
    "RewardType",
    "StructuredUserInstructions",
    "Task",
    "TaskRules",
    "UserScenario",
    "UserScript",
]

RewardType = Literal["DB", "ENV_ASSERTION", "NL_ASSERTION", "ACTION", "COMMUNICATE"]
"""Grading components a task's ``reward_basis`` can multiply together."""

TaskRules = Literal["reference", "strict"]
"""The rules a task's checks are read with (`EvaluationCriteria.grading`): the reference's,
or the strict ones only doing the task passes (`tau_env.grading.strict_graders`)."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class StructuredUserInstructions(_Model):
    """What the simulated user knows and wants; seen by the user side only."""

    domain: str = Field(description="Domain name.")
    reason_for_call: str = Field(description="Why the user calls; the opening of the talk.")
    known_info: str | None = Field(default=None, description="Facts the user can give.")
    unknown_info: str | None = Field(default=None, description="Facts the user does not know.")
    task_instructions: str = Field(description="How the user should behave.")

    def __str__(self) -> str:
        lines = [
            f"Domain: {self.domain}",
            f"Reason for call:\n{_indent(self.reason_for_call)}",
        ]
        if self.known_info is not None:
            lines.append(f"Known info:\n{_indent(self.known_info)}")
        if self.unknown_info is not None:
            lines.append(f"Unknown info:\n{_indent(self.unknown_info)}")
        lines.append(f"Task instructions:\n{_indent(self.task_instructions)}")
        return "\n".join(lines)


class UserScenario(_Model):
    """The user simulator's whole brief. ``str()`` gives the text an LLM user receives."""

    persona: str | None = Field(default=None, description="Who the user is, in general.")
    instructions: StructuredUserInstructions | str = Field(description="The situation.")

    def __str__(self) -> str:
        lines = []
        if self.persona is not None:
            lines += ["Persona:", _indent(self.persona)]
        lines += ["Instructions:", _indent(str(self.instructions))]
        return "\n".join(lines)


def _indent(text: str) -> str:
    return textwrap.indent(text, "\t")


class Description(_Model):
    """Documentation of a task for reviewers and reports; never shown to either side.

    Generated task sets keep here what their ids no longer say (`tau_env.domains.opaque_ids`):
    the task's ``family`` (``cancel_refused``, ``mms_issue``), by which reports group tasks,
    and its ``parameters`` (telecom: the faults, persona, customer and settings kept);
    ``difficulty`` holds the features ``tau-env generate`` measured (gold plan length, look-ups,
    distractor records...; `tau_env.generation.difficulty`), for curricula.
    """

    purpose: str | None = None
    relevant_policies: str | None = None
    notes: str | None = None
    family: str | None = Field(default=None, description="The task's family (generated sets).")
    parameters: dict[str, str] | None = Field(
        default=None, description="What the generator drew the task with, by name."
    )
    difficulty: dict[str, int | str] | None = Field(
        default=None,
        description="Measured difficulty features and level (`tau-env generate` sets).",
    )


class EnvFunctionCall(_Model):
    """A call of a registered setup helper or tool, named by a task file."""

    env_type: Requestor = Field(description="Which side's database the function works on.")
    func_name: str = Field(description="A tool or env function the domain registered.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="Keyword arguments.")


class EnvAssertion(EnvFunctionCall):
    """A check on the final world: passes when the function returns `assert_value`."""

    assert_value: bool = Field(default=True, description="Expected return value.")
    message: str | None = Field(default=None, description="Shown when the check fails.")


class InitializationData(_Model):
    """Deep-merge patches applied to the databases before the episode starts."""

    agent_data: dict[str, Any] | None = None
    user_data: dict[str, Any] | None = None


class InitialState(_Model):
    """How a task's world and conversation differ from the domain's defaults."""

    initialization_data: InitializationData | None = None
    initialization_actions: list[EnvFunctionCall] | None = None
    message_history: list[Message] | None = Field(
        default=None, description="Conversation so far; its writes are replayed at reset."
    )


class GoldAction(_Model):
    """One step of the reference solution (the reference's ``Action``)."""

    action_id: str = Field(description="Unique within the task.")
    requestor: Requestor = Field(default="assistant", description="Side that performs it.")
    name: str = Field(description="Tool name.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="Keyword arguments.")
    info: str | None = Field(default=None, description="Why this step is taken.")
    compare_args: list[str] | None = Field(
        default=None,
        description="Arguments the ACTION check compares; None: the call's own keys; []: none.",
    )

    def call_text(self) -> str:
        """The step as ``name(k=v, ...)`` with unquoted values (the oracle plan's format)."""
        rendered = ", ".join(f"{key}={value}" for key, value in self.arguments.items())
        return f"{self.name}({rendered})"

    def __str__(self) -> str:
        return f"{self.name} {json.dumps(self.arguments, sort_keys=True)}"


def _default_basis() -> list[RewardType]:
    return ["DB", "COMMUNICATE"]


class EvaluationCriteria(_Model):
    """What the grader checks; `reward_basis` says which checks gate the reward.

    `forbidden_info` and `grading` are tau_env extensions (official task files have neither):
    the built-in task generators write them.
    """

    actions: list[GoldAction] | None = None
    env_assertions: list[EnvAssertion] | None = None
    communicate_info: list[str] | None = None
    nl_assertions: list[str] | None = None
    reward_basis: list[RewardType] = Field(default_factory=_default_basis)
    forbidden_info: list[str] | None = Field(
        default=None,
        description="Facts the agent must not say (the strict COMMUNICATE check): reasons of "
        "rules that do not apply, figures of the customer's other records.",
    )
    grading: TaskRules | None = Field(
        default=None,
        description="The rules the checks are read with: 'strict' (built-in tasks), or the "
        "reference's (None or 'reference').",
    )

    @property
    def rules(self) -> TaskRules:
        """``"strict"`` or ``"reference"`` (what `grading` says; None is the reference's)."""
        return "strict" if self.grading == "strict" else "reference"


class GoalCheck(_Model):
    """A probe the scripted user runs with one of its own tools to see whether its goal is met.

    Example (telecom, mobile data): ``{"tool": "run_speed_test", "expect": "Excellent"}``.
    """

    tool: str = Field(description="A user tool to call.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="Its arguments.")
    expect: str = Field(description="Text whose presence in the output means 'resolved'.")


AfterRefusal = Literal["stop", "ask_human"]
"""What a user does when the agent turns its request down: end the call, or ask for a human."""


class ConfirmRule(_Model):
    """What the user says, instead of a plain yes, when the agent asks it to confirm.

    Example (retail): "If the agent asks for confirmation, only exchange the desk lamp" is
    ``{"only": "exchange the desk lamp", "others": ["water bottle"], "say": "..."}``.
    """

    nth: int = Field(default=1, description="Which request for confirmation (1: the first).")
    only: str = Field(default="", description="The one thing the user goes ahead with.")
    others: list[str] = Field(
        default_factory=list, description="What the user leaves out when `only` is set."
    )
    say: str = Field(default="", description="What the user says instead (first person).")
    keeps_refusing: bool = Field(
        default=False, description="Later requests for confirmation are declined too."
    )


class Answer(_Model):
    """What the user answers when the agent asks about a topic ("If asked for the reason...")."""

    topic: list[str] = Field(description="Words a question names (all of them; see any_of).")
    any_of: bool = Field(default=False, description="One of the topic's words is enough.")
    say: str = Field(description="The answer, in the first person.")


class Conduct(_Model):
    """How the user holds to its instructions when the agent leaves the expected path.

    Read from the scenario text like the rest of the brief (`tau_env.tasks.scenario_rules`).
    """

    no_transfer: bool = Field(default=False, description="Never ask for, nor accept, a human.")
    persistence: int = Field(
        default=0, description="Times the user pushes back on a refusal before giving in."
    )
    on_refusal: str = Field(
        default="", description="What the user says to the first refusal (first person)."
    )
    no_alternative: bool = Field(default=False, description="Decline any alternative offered.")
    confirmations: list[ConfirmRule] = Field(default_factory=list)
    unknown: list[str] = Field(
        default_factory=list, description="What the user does not know (labels, as words)."
    )
    answers: list[Answer] = Field(default_factory=list)
    withheld: list[str] = Field(
        default_factory=list, description="What the user will not tell (labels, as words)."
    )
    budget: float | None = Field(default=None, description="The most the user will pay.")
    healthy: bool = Field(default=False, description="The user has no health reason to give.")


class UserScript(_Model):
    """Machine-readable brief of the offline scripted user (tau_env extension).

    It is read from the user scenario alone (`tau_env.tasks.scenario_reading`): everything in it
    is something an LLM user playing the same scenario is told. It never comes from the gold
    actions, the evaluation criteria or any label of the task.

    Attributes:
        opening: The user's first message: why they are calling.
        facts: What the user knows and tells when asked, by key (``user_id``, ``email``,
            ``zip``, ``order_id``, ``phone_number``...). Keys are lower_snake_case; agents ask
            for them by key in a structured request, or in words the keyword matcher knows.
        accepted_tools: User tools the user agrees to run when asked (None: any of them).
        goal_checks: Probes that show the goal is met (telecom): after performing requested
            device actions the user runs them, and stops satisfied when all pass.
        done_phrases: Words that, in an agent's statement that the work is finished, mean the
            user's wish was carried out (``"cancelled"`` for a user who wants a cancellation).
        accepts: Offers the user agrees to, as keywords (``"refuel"``, ``"cancel"``,
            ``"confirm"``...): the wishes of the scenario and what it says the user accepts.
        declines: Offers the user turns down even when asked to confirm (``"plan"`` for a
            user who will not change plans); they win over `accepts`.
        questions: What the scenario tells the user to ask (``"How much will be refunded?"``);
            asked once each before the user ends a satisfied call.
        after_refusal: What the user does when the agent turns the request down.
        closing: What the user says when ending the conversation satisfied.
        conduct: How the user holds to its instructions off the expected path (transfers,
            confirmations, what it does not know or will not tell, its budget...).
    """

    opening: str
    facts: dict[str, str] = Field(default_factory=dict)
    accepted_tools: list[str] | None = None
    goal_checks: list[GoalCheck] = Field(default_factory=list)
    done_phrases: list[str] = Field(default_factory=list)
    accepts: list[str] = Field(default_factory=lambda: ["confirm"])
    declines: list[str] = Field(default_factory=list)
    questions: list[str] = Field(default_factory=list)
    after_refusal: AfterRefusal = "stop"
    closing: str = "Thank you, that is all I needed."
    conduct: Conduct = Field(default_factory=Conduct)


class Task(_Model):
    """One benchmark task: the user's brief, the starting state and the grading criteria."""

    id: str = Field(description="Unique within the domain.")
    description: Description | None = None
    user_scenario: UserScenario = Field(description="Seen by the user side only.")
    ticket: str | None = Field(default=None, description="Problem statement for No-User mode.")
    initial_state: InitialState | None = None
    evaluation_criteria: EvaluationCriteria | None = None
    user_tools: list[str] | None = Field(
        default=None, description="Restricts the user's tools (None: all)."
    )

    @property
    def family(self) -> str | None:
        """The family of a generated task (`Description.family`; None when it has none)."""
        return self.description.family if self.description else None

    @property
    def gold_actions(self) -> list[GoldAction]:
        """The reference solution (empty when the task has none)."""
        criteria = self.evaluation_criteria
        return list(criteria.actions or []) if criteria else []

    @property
    def reward_basis(self) -> list[RewardType]:
        """The checks that gate the reward (empty: the task always scores 1)."""
        return list(self.evaluation_criteria.reward_basis) if self.evaluation_criteria else []
