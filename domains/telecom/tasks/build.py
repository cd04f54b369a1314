"""Turning a blueprint, a customer and a persona into a verified `Task`.

The task carries everything its consumers need: the user's scenario (which the LLM user and
the scripted user both read) and the No-User ticket (texts written by tau_env), the setup
calls, the gold plan (agent and user steps) and the env assertions. Every task is checked
before it is emitted (`refusal`): the issues must really break the intent's goal, and the gold
plan must restore it (or, for a transfer, leave it broken) the same way whatever the seed. The
built-in set is checked by `Verifier`; ``tau-env generate`` makes the same checks in each
task's gold replay, on the worlds the replay built (`tau_env.generation.telecom`).
"""

from __future__ import annotations

from collections.abc import Sequence

from tau_env.domain import Domain, DomainData
from tau_env.domains.telecom.tasks.compose import Blueprint
from tau_env.domains.telecom.tasks.personas import Persona
from tau_env.domains.telecom.tasks.scenario import Scenario
from tau_env.domains.telecom.tasks.settings import Setting
from tau_env.errors import TauEnvError
from tau_env.grading.env_assertions import run_assertions
from tau_env.tasks.model import (
    Description,
    EnvFunctionCall,
    EvaluationCriteria,
    GoldAction,
    InitialState,
    RewardType,
    StructuredUserInstructions,
    Task,
    UserScenario,
)
from tau_env.transfer import TRANSFER_TOOL

__all__ = ["GenerationError", "Verifier", "build_task", "refusal", "task_id"]

_COMMON_INSTRUCTIONS = (
    "Do what the agent asks you to do on your phone, one action at a time, and report honestly "
    "what the phone shows: answer only from what your tools report, never from memory or "
    "guesses. If a step does not solve the problem, say so, and sound a little annoyed the "
    "first time it happens. If a tool's answer does not show the new state, check again with "
    "another tool. If you are unsure whether a step is needed, ask the agent."
)
_OFFER_INSTRUCTIONS = {
    "payment": "If the agent asks you to pay an overdue bill, agree, and pay it on your phone.",
    "refuel": (
        "If the agent proposes it, you agree to buy up to 2.0 GB of extra data, but you refuse "
        "any change of plan."
    ),
}


class GenerationError(TauEnvError, RuntimeError):
    """A generated task does not behave as designed (a bug in the issue catalogue)."""


def task_id(
    blueprint: Blueprint, persona: Persona, scenario: Scenario, settings: Sequence[Setting] = ()
) -> str:
    """The generator's name of a task (unique in the set; the shipped id is a plain one).

    ``[intent]issue|issue[PERSONA:label][CUSTOMER:id]``, then ``[KEEP:setting|...]``: the
    reference's naming, extended. `generate` renames the tasks ``telecom/<split>/<NNNN>``
    (`tau_env.domains.opaque_ids`); what the name says stays in the task's description
    (``family``: the intent; ``parameters``: issues, persona, customer, keep).
    """
    keep = f"[KEEP:{'|'.join(s.name for s in settings)}]" if settings else ""
    return (
        f"[{blueprint.intent.name}]{blueprint.name}"
        f"[PERSONA:{persona.label}][CUSTOMER:{scenario.customer_id}]{keep}"
    )


def build_task(
    blueprint: Blueprint,
    persona: Persona,
    scenario: Scenario,
    location: str,
    settings: Sequence[Setting] = (),
) -> Task:
    """The task for one blueprint, customer, persona, location and settings (not yet verified).

    Grading is strict. A fixable task needs the goal reached (ENV_ASSERTION) and the world
    equal to the gold plan's (DB): a change the issues do not call for, such as turning off
    a setting the customer keeps, fails. An unfixable task needs every fixable issue fixed and
    then a transfer (gold plan = those fixes + the transfer; ENV_ASSERTION: the goal is still
    unmet; DB; ACTION: the transfer and the fixes were made).

    Args:
        blueprint: The issues and the intent.
        persona: How the user behaves.
        scenario: The customer and line concerned.
        location: Where the user is (``"abroad in Portugal"``); only roaming issues put the
            user abroad, the caller passes the matching text.
        settings: Harmless settings the customer keeps (distractors), set after the issues.
    """
    intent = blueprint.intent
    setup = [
        EnvFunctionCall(
            env_type="user",
            func_name="set_user_info",
            arguments={"name": scenario.full_name, "phone_number": scenario.phone_number},
        )
    ]
    for issue in blueprint.issues:
        setup += issue.breaks(scenario)
    for setting in settings:
        setup += setting.calls
    fixable = [issue for issue in blueprint.issues if issue.fixes is not None]
    steps = [step for issue in fixable for step in issue.fixes(scenario)]  # type: ignore[misc]
    actions = [
        GoldAction(action_id=f"{name}_{index}", requestor=who, name=name, arguments=args)
        for index, (who, name, args) in enumerate(steps)
    ]
    checks = [check for issue in fixable for check in issue.checks(scenario)]
    basis: list[RewardType]
    if blueprint.fixable:
        assertions = intent.success_assertions(scenario) + checks
        basis = ["ENV_ASSERTION", "DB"]
    else:
        actions.append(
            GoldAction(
                action_id=f"{TRANSFER_TOOL}_{len(actions)}",
                name=TRANSFER_TOOL,
                arguments={"summary": "The issue cannot be fixed with the available tools."},
                compare_args=[],
            )
        )
        assertions = intent.failure_assertions() + checks
        basis = ["ENV_ASSERTION", "DB", "ACTION"]
    notes = [issue.summary for issue in blueprint.issues]
    notes += [f"Keep (not a problem): {setting.summary}" for setting in settings]
    place = f" Right now you are {location}." if intent.name != "service_issue" else ""
    instructions = StructuredUserInstructions(
        domain="telecom",
        reason_for_call=intent.reason,
        known_info=(
            f"Your name is {scenario.full_name} and your phone's number is "
            f"{scenario.phone_number}. You were born on {scenario.date_of_birth}.{place}"
        ),
        task_instructions=(
            f"{_COMMON_INSTRUCTIONS} The problem is solved once {intent.resolved_when}. "
            f"{_OFFER_INSTRUCTIONS[intent.offer]}"
        ),
    )
    parameters = {
        "issues": blueprint.name,
        "persona": persona.label,
        "customer": scenario.customer_id,
    }
    if settings:
        parameters["keep"] = "|".join(setting.name for setting in settings)
    return Task(
        id=task_id(blueprint, persona, scenario, settings),
        description=Description(
            purpose=intent.purpose,
            notes=" ".join(notes),
            family=intent.name,
            parameters=parameters,
        ),
        user_scenario=UserScenario(persona=persona.text, instructions=instructions),
        ticket=intent.ticket.format(
            name=scenario.full_name, phone_number=scenario.phone_number, location=location
        ),
        initial_state=InitialState(initialization_actions=setup),
        evaluation_criteria=EvaluationCriteria(
            actions=actions, env_assertions=assertions, reward_basis=basis, grading="strict"
        ),
    )


class Verifier:
    """Checks generated tasks on the domain's built-in databases (`refusal`, one task at a time).

    Args:
        data: Built-in data of the telecom domain (its databases are used; tasks are ignored).
    """

    def __init__(self, data: DomainData) -> None:
        from tau_env.domains.telecom import DEFINITION

        empty = DomainData(
            policy="",
            agent_snapshot=data.agent_snapshot,
            user_snapshot=data.user_snapshot,
            tasks=(),
            splits={},
            source="telecom generator",
        )
        self.domain = Domain(DEFINITION, empty)

    def verify(self, task: Task) -> None:
        """Check one task (`refusal`); its worlds are not kept.

        Raises:
            GenerationError: Setup fails, the issues leave the goal reachable without any fix,
                a gold step fails, the gold plan does not give the expected final state, or its
                final state depends on the episode's random seed (the DB check would then be
                unfair).
        """
        try:
            problem = refusal(self.domain, task)
        finally:
            self.domain.release(task)
        if problem is not None:
            raise GenerationError(f"{task.id}: {problem}")


def refusal(domain: Domain, task: Task) -> str | None:
    """Why the composer refuses a task, in a few words (None: it does not).

    Its checks, beyond what the reward of a gold replay checks:

    - setup: the task's starting world builds;
    - the issues break the goal: the env assertions do not all hold on the starting world
      (unless the gold plan ends in a transfer, whose goal stays broken);
    - the gold plan works: no gold step fails, and the env assertions hold on the world it
      leaves (the expected world, gold plan replayed with seed 0);
    - that world does not depend on the seed: when the seed-0 replay drew from the episode's
      random generator, the seed-1 replay must leave the same databases (a replay that draws
      nothing takes the same path whatever the seed).

    It reads the worlds the domain caches for the task (`Domain.prepare`, `expected_world`,
    `baseline`): after the task's gold replay graded it (`tau-env generate`), they are built
    already, and the checks cost a few assertions.
    """
    try:
        domain.prepare(task)
    except TauEnvError as error:
        return f"setup failed: {error}"
    criteria = task.evaluation_criteria
    if criteria is None or not criteria.env_assertions:
        return "no env assertions (the goal is never checked)"
    baseline = domain.baseline(task)
    if "ACTION" not in criteria.reward_basis and all(baseline.assertions_at_start):
        return "the issues do not break anything"
    for action, failed in zip(task.gold_actions, baseline.failing_gold, strict=True):
        if failed:
            return f"gold step {action.action_id} fails on the starting world"
    end = domain.expected_world(task)
    if not all(detail["met"] for detail in run_assertions(end, criteria.env_assertions)):
        return "the gold plan does not reach the expected state"
    if end.seed_source.drawn and end.differences(domain.expected_world(task, seed=1)):
        return "the gold plan's result depends on the seed"
    return None
