"""Turning a blueprint, a customer and a persona into a verified `Task`.

The task carries everything its consumers need: the user's scenario (which the LLM user and
the scripted user both read) and the No-User ticket (texts written by tau_env), the setup
calls, the gold plan (agent and user steps) and the env assertions. `Verifier` replays every
task before it is emitted: the issues must really break the intent's goal, and the gold plan
must restore it (or, for a transfer, leave it broken) the same way whatever the seed.
"""

from __future__ import annotations

from collections.abc import Sequence

from tau_env.domain import Domain, DomainData
from tau_env.domains.telecom.tasks.compose import Blueprint
from tau_env.domains.telecom.tasks.personas import Persona
from tau_env.domains.telecom.tasks.scenario import Scenario
from tau_env.domains.telecom.tasks.settings import Setting
from tau_env.errors import TauEnvError, ToolError
from tau_env.messages import side_of
from tau_env.state import World
from tau_env.tasks.model import (
    Description,
    EnvAssertion,
    EnvFunctionCall,
    EvaluationCriteria,
    GoldAction,
    InitialState,
    RewardType,
    StructuredUserInstructions,
    Task,
    UserScenario,
)
from tau_env.tasks.setup import build_initial_world
from tau_env.transfer import TRANSFER_TOOL

__all__ = ["GenerationError", "Verifier", "build_task", "task_id"]

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
            actions=actions, env_assertions=assertions, reward_basis=basis
        ),
    )


class Verifier:
    """Replays generated tasks on the domain's built-in databases.

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
        """Check one task.

        Raises:
            GenerationError: Setup fails, the issues leave the goal reachable without any fix,
                the gold plan does not give the expected final state, or its final state
                depends on the episode's random seed (the DB check would then be unfair).
        """
        try:
            start = build_initial_world(self.domain, task)
        except TauEnvError as error:
            raise GenerationError(f"{task.id}: setup failed: {error}") from None
        criteria = task.evaluation_criteria
        assert criteria is not None and criteria.env_assertions is not None
        if "ACTION" not in criteria.reward_basis and _all_hold(start, criteria.env_assertions):
            raise GenerationError(f"{task.id}: the issues do not break anything")
        end, other = start.fork(seed=0), start.fork(seed=1)
        for action in task.gold_actions:
            result = end.call_tool(side_of(action.requestor), action.name, action.arguments)
            if result.error:
                raise GenerationError(f"{task.id}: gold step {action.action_id}: {result.content}")
            other.call_tool(side_of(action.requestor), action.name, action.arguments)
        if not _all_hold(end, criteria.env_assertions):
            raise GenerationError(f"{task.id}: the gold plan does not reach the expected state")
        if end.differences(other):
            raise GenerationError(f"{task.id}: the gold plan's result depends on the seed")


def _all_hold(world: World, assertions: list[EnvAssertion]) -> bool:
    probe = world.fork()
    for assertion in assertions:
        try:
            value = probe.run_env_function(
                side_of(assertion.env_type), assertion.func_name, assertion.arguments
            )
        except (ToolError, KeyError, ValueError):
            return False
        if value != assertion.assert_value:
            return False
    return True
