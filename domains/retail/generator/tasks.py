"""From drafts to tasks: authentication steps, the task text, gold replay checks, splits."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache

from tau_env.data_files import builtin_text
from tau_env.domains.forbidden import check_in_policy
from tau_env.domains.retail.data_model import Order, User
from tau_env.domains.retail.generator.forbidden import REASONS, forbidden_facts
from tau_env.domains.retail.generator.store import Draft, GoldStep, Store, full_name
from tau_env.domains.retail.tools import TOOLBOX
from tau_env.errors import DataError
from tau_env.state import World
from tau_env.tasks import (
    Description,
    EvaluationCriteria,
    GoldAction,
    RewardType,
    StructuredUserInstructions,
    Task,
    UserScenario,
)
from tau_env.tasks.scenario_reading import with_details
from tau_env.transfer import TRANSFER_TOOL

__all__ = ["Family", "build_task", "generate_tasks", "locate", "split_tasks", "verify_draft"]

Family = Callable[[Store], Draft | None]
"""Draws one draft from the store, or None when no suitable customer or order is left."""

_WRITES = frozenset(spec.name for spec in TOOLBOX.agent_tools if spec.kind == "write")


def locate(store: Store, user: User, order: Order) -> tuple[list[GoldStep], dict[str, str], str]:
    """How the agent finds the order the customer means, and how the customer names it.

    Most customers know the order id. Others only remember one product in it (the fact
    ``order_hint``; the task then says they do not know the id): the agent reads the profile and
    opens the orders one by one until it finds that product.

    Returns:
        The gold reads, the facts the customer can give, and a phrase naming the order.
    """
    names = {item.name for item in order.items}
    others = [store.data.orders[i] for i in user.orders if i != order.order_id]
    unique = sorted(n for n in names if all(n not in {i.name for i in o.items} for o in others))
    if not unique or store.rng.random() < 0.7:
        step = GoldStep("get_order_details", {"order_id": order.order_id})
        return [step], {"order_id": order.order_id}, f"order {order.order_id}"
    product = store.rng.choice(unique)
    steps = [GoldStep("get_user_details", {"user_id": user.user_id})]
    for order_id in user.orders:
        steps.append(GoldStep("get_order_details", {"order_id": order_id}))
        if order_id == order.order_id:
            break
    return steps, {"order_hint": f"the order with the {product}"}, f"your order with the {product}"


def _authentication(
    draft: Draft, store: Store
) -> tuple[list[GoldStep], dict[str, str], str, str | None]:
    """Gold steps, facts, known and unknown info for the draft's way of identifying."""
    user = draft.user
    name_zip = {
        "first_name": user.name.first_name,
        "last_name": user.name.last_name,
        "zip": user.address.zip,
    }
    by_name = GoldStep("find_user_id_by_name_zip", name_zip)
    who = f"You are {full_name(user)}, living in zip code {user.address.zip}."
    if draft.auth == "email":
        step = GoldStep("find_user_id_by_email", {"email": user.email})
        known = f"You are {full_name(user)}; your email address is {user.email}."
        return [step], {"email": user.email}, known, None
    if draft.auth == "name_zip":
        return [by_name], name_zip, who, "You do not remember your email address."
    stale = store.stale_email(user)
    steps = [GoldStep("find_user_id_by_email", {"email": stale}, fails=True), by_name]
    known = f"{who} You think your email address is {stale}."
    unknown = "You do not know that this email address is no longer on file."
    return steps, {"email": stale, **name_zip}, known, unknown


def build_task(draft: Draft, task_id: str, store: Store) -> tuple[Task, list[GoldStep]]:
    """The task a draft of `store` describes, and its whole gold plan (authentication included)."""
    auth_steps, _, known, unknown = _authentication(draft, store)
    if "order_hint" in draft.facts:
        forgotten = "You do not remember the order id."
        unknown = forgotten if unknown is None else f"{unknown} {forgotten}"
    steps = auth_steps + draft.steps
    writes = any(step.name in _WRITES and not step.fails for step in steps)
    forbidden = None
    if draft.expects_transfer or not writes:  # a refusal, a question or a transfer
        _check_reasons()
        forbidden = forbidden_facts(draft, steps, store.data) or None
    basis = _basis(draft, steps, task_id, forbidden=bool(forbidden))
    # A step expected to fail (a stale e-mail tried first) is no requirement: the strict
    # ACTION check never matches a call the env answered with an error.
    actions = [
        GoldAction(
            action_id=f"{step.name}_{index}",
            name=step.name,
            arguments=step.arguments,
            compare_args=[] if draft.expects_transfer and step.name == TRANSFER_TOOL else None,
        )
        for index, step in enumerate(steps)
        if not step.fails
    ]
    identity = f"{full_name(draft.user)} (email {draft.user.email}, zip {draft.user.address.zip})"
    details = {key: value for key, value in draft.facts.items() if value}
    task = Task(
        id=task_id,
        description=Description(purpose=draft.purpose, family=draft.family),
        user_scenario=UserScenario(
            instructions=StructuredUserInstructions(
                domain="retail",
                reason_for_call=draft.reason,
                known_info=with_details(known, details),
                unknown_info=unknown,
                task_instructions=draft.behaviour,
            )
        ),
        ticket=f"Customer {identity} {draft.ticket_request}",
        evaluation_criteria=EvaluationCriteria(
            actions=actions,
            communicate_info=list(draft.communicate),
            reward_basis=basis,
            forbidden_info=forbidden,
            grading="strict",
        ),
    )
    return task, steps


def _basis(
    draft: Draft, steps: Sequence[GoldStep], task_id: str, *, forbidden: bool
) -> list[RewardType]:
    """The reward basis that an agent which does not do the work fails (issues 45 and 53).

    A transfer changes nothing in the database, so ACTION makes the transfer call required
    (DB x ACTION, x COMMUNICATE when it lists facts not to say). A task whose right outcome
    changes nothing (a refusal, a question) needs the gold plan's look-ups and its reason or
    figure said (DB x ACTION x COMMUNICATE). Every other task: DB x COMMUNICATE. Every task
    is graded with the strict rules (``grading``).

    Raises:
        DataError: A task that changes nothing names nothing to communicate.
    """
    if draft.expects_transfer:
        return ["DB", "ACTION", "COMMUNICATE"] if forbidden else ["DB", "ACTION"]
    if any(step.name in _WRITES and not step.fails for step in steps):
        return ["DB", "COMMUNICATE"]
    if not draft.communicate:
        raise DataError(
            f"built-in task {task_id}: a task that changes nothing must name what to say"
        )
    return ["DB", "ACTION", "COMMUNICATE"]


@cache
def _check_reasons() -> None:
    """Check the reason phrases of `forbidden.REASONS` against the packaged policy, once.

    The policy is fixed: tokenizing it for every refusal cost a third of a large draw.

    Raises:
        DataError: A reason phrase is not in the policy's words (raised again on each call).
    """
    check_in_policy(
        REASONS, builtin_text("tau_env.domains.retail", "policy.md"), "retail generator"
    )


def verify_draft(initial: World, task_id: str, draft: Draft, steps: Sequence[GoldStep]) -> None:
    """Replay the gold plan on a fork of the store and check it does what the task says.

    Raises:
        DataError: A call failed or succeeded against expectation, the store changed although
            the plan has no successful write (or did not change although it has one), or the
            family's outcome check does not hold.
    """
    world = initial.fork(seed=0)
    for step in steps:
        failure = world.tool_failure("agent", step.name, step.arguments)  # (results unread)
        if (failure is not None) != step.fails:
            gave = "success" if failure is None else failure.content[:200]
            raise DataError(f"built-in task {task_id}: {step.name} gave {gave}")
    writes = any(step.name in _WRITES and not step.fails for step in steps)
    if bool(world.differences(initial)) != writes:
        raise DataError(f"built-in task {task_id}: the gold plan changes the wrong things")
    if draft.outcome is not None and not draft.outcome(world.agent_db):  # type: ignore[arg-type]
        raise DataError(f"built-in task {task_id}: the outcome check fails after the gold plan")


def generate_tasks(
    store: Store,
    families: Sequence[Family],
    per_family: int,
    initial: World,
    fewer: Mapping[str, int] | None = None,
) -> Iterator[Task]:
    """Up to `per_family` verified tasks of each family, named ``<family>_<nn>``, as drawn.

    The names are the generator's own (the split reads the number from them); `generate` then
    gives the tasks their plain ids (`tau_env.domains.opaque_ids`). `fewer`: family name -> a
    smaller quota for it (its share of the set stays small).
    """
    for family in families:
        quota = min(per_family, (fewer or {}).get(family.__name__, per_family))
        for number in range(quota):
            draft = family(store)
            if draft is None:
                break
            task_id = f"{draft.family}_{number:02d}"
            task, steps = build_task(draft, task_id, store)
            verify_draft(initial, task_id, draft, steps)
            yield task


def split_tasks(task_ids: Sequence[str]) -> dict[str, list[str]]:
    """``base`` (all), ``train`` and ``test`` (every third task of each family), disjoint."""
    test = [task_id for task_id in task_ids if int(task_id.rsplit("_", 1)[1]) % 3 == 2]
    chosen = set(test)
    train = [task_id for task_id in task_ids if task_id not in chosen]
    return {"base": list(task_ids), "train": train, "test": test}
