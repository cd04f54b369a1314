"""Pieces every task kind uses: choosing a product, writing the draft, transfer tasks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from tau_env.data_files import builtin_toml
from tau_env.domains.banking_knowledge.generator.catalog import TOOLS
from tau_env.domains.banking_knowledge.generator.context import Context
from tau_env.domains.banking_knowledge.generator.drafts import Draft, Plan, Scenario
from tau_env.domains.banking_knowledge.generator.library import product_doc
from tau_env.domains.banking_knowledge.generator.people import Person
from tau_env.domains.banking_knowledge.generator.procedure_ids import PROCEDURES
from tau_env.domains.banking_knowledge.generator.products import (
    BANK_NAME,
    CardOffer,
    CheckingProduct,
    SavingsProduct,
)

__all__ = [
    "Product",
    "T",
    "account_opening",
    "accounts_plan",
    "brief",
    "debit_cards_plan",
    "draft",
    "pick",
    "refusal",
    "transfer_third_party",
    "verified_plan",
]

T = TOOLS
P = TypeVar("P")
Product = CheckingProduct | SavingsProduct | CardOffer


def pick(options: Sequence[P], index: int) -> P:
    """The `index`-th option, cycling (spreads a kind's tasks over the products evenly)."""
    return options[index % len(options)]


def brief(
    ctx: Context,
    person: Person,
    *,
    reason: str,
    wishes: str,
    opening: str,
    facts: Mapping[str, str] | None = None,
    accepts: Sequence[str] = ("confirm",),
    asks_for_transfer: bool = False,
    tells_user_id: bool = False,
) -> Scenario:
    """The brief of a caller who is `person` and knows what `Context.identity` draws for them.

    `facts` are what else they answer when asked (after their identity's). With
    `tells_user_id`, they also know their user id (for a tool the agent gives them).
    """
    known, answers = ctx.identity(person)
    if tells_user_id:
        known += f" Your user id is {person.user_id}."
        answers["user_id"] = person.user_id
    answers |= facts or {}
    return Scenario(
        reason, known, wishes, opening, answers, list(accepts), asks_for_transfer=asks_for_transfer
    )


def verified_plan(person: Person) -> Plan:
    """A plan that starts by logging the customer's verification."""
    return Plan().verify(person)


def accounts_plan(person: Person) -> Plan:
    """A verified plan that looks up the customer's accounts."""
    return verified_plan(person).call(T["get_user_accounts"], user_id=person.user_id)


def debit_cards_plan(person: Person, account: str) -> Plan:
    """A verified plan that looks up the customer's accounts, then the debit cards of `account`."""
    return accounts_plan(person).call(T["get_debit_cards"], account_id=account)


_KIND_TEXTS: dict[str, dict[str, Any]] = {
    kind: texts
    for name, texts in builtin_toml(__package__, "kinds.toml").items()
    for kind in texts.pop("kinds", [name])
}
"""`kinds.toml` by task kind: the purpose line and the documents all the kind's tasks need."""


def draft(
    product: Product | None,
    kind: str,
    scenario: Scenario,
    plan: Plan,
    notes: str,
    *,
    family: str = "",
    documents: Sequence[str] = (),
    user_tools: Sequence[str] = (),
    basis: Sequence[str] = ("DB",),
    agent_data: dict[str, Any] | None = None,
    communicate: Sequence[str] = (),
) -> Draft:
    """A draft of task kind `kind`, with the purpose and documents `kinds.toml` gives the kind.

    The task's family is its product's, or `family` for a task about no product.

    The documents are the verification procedure, the kind's procedures, the product's document
    on the kind's topic (when the kind names one), then the task's own `documents`.
    """
    texts = _KIND_TEXTS[kind]
    docs = [PROCEDURES.VERIFY, *(getattr(PROCEDURES, name) for name in texts["procedures"])]
    if "product_document" in texts:
        if product is None:
            raise ValueError(f"task kind {kind!r} names a product document but has no product")
        docs.append(product_doc(product, texts["product_document"]))
    return Draft(
        family=product.family if product is not None else family,
        kind=kind,
        purpose=texts["purpose"],
        notes=notes,
        scenario=scenario,
        plan=plan,
        basis=list(basis),
        user_tools=list(user_tools),
        documents=list(dict.fromkeys([*docs, *documents])),
        agent_data=agent_data,
        communicate=list(communicate),
    )


def transfer_third_party(ctx: Context, product: Product, index: int) -> Draft:
    """A relative calls about a holder's product: deceased holder, or just asking for them.

    The caller is not the holder, so nobody is verified; the only step is the transfer with
    the right reason (graded on the database staying unchanged and on the reason).
    """
    holder = ctx.customer(min_age=55)
    if isinstance(product, CheckingProduct | SavingsProduct):
        ctx.deposit(holder, product)
    else:
        ctx.card(holder, product)
    caller = ctx.people.draw()
    died = index % 2 == 0
    relation = ctx.rng.choice(("mother", "father", "aunt", "uncle"))
    if died:
        reason_code = "deceased_account_holder"
        reason = (
            f"Your {relation}, {holder.name}, died last month. They had a {product.name} at "
            f"{BANK_NAME} and you want to know what happens to it."
        )
        opening = (
            f"Hello, I'm calling because my {relation} {holder.name} passed away and had a "
            f"{product.name} with you."
        )
    else:
        reason_code = "third_party_inquiry"
        reason = (
            f"Your {relation}, {holder.name}, is in hospital and asked you to check the "
            f"balance of their {product.name}."
        )
        opening = (
            f"Hi, I'm calling for my {relation} {holder.name}; they asked me to check their "
            f"{product.name} balance."
        )
    scenario = Scenario(
        reason=reason,
        known=f"You are {caller.name}. You do not know {holder.name}'s date of birth or other "
        "details and cannot give them.",
        wishes="You are not the account holder. If the agent offers to transfer you to a "
        "specialist team, accept and wait for the transfer.",
        opening=opening,
        facts={"name": caller.name},
        accepts=["confirm", "transfer"],
        asks_for_transfer=True,
    )
    plan = Plan().agent(
        "transfer_to_human_agents",
        ["reason"],
        summary=f"{caller.name} calls about {holder.name}'s {product.name}.",
        reason=reason_code,
    )
    return draft(
        product,
        "third_party_transfer",
        scenario,
        plan,
        f"Not the holder: no verification; transfer with reason {reason_code}.",
        basis=("DB", "ACTION"),
    )


def account_opening(
    product: CheckingProduct | SavingsProduct,
    person: Person,
    scenario: Scenario,
    *,
    eligible: bool,
    notes: str,
    reason: str = "",
) -> Draft:
    """Opening a deposit product (kind ``open_<type>``), or refusing it (``..._refused``).

    The agent looks the customer's accounts up and, when the customer qualifies, opens the
    product; the purpose and documents are the kind's in `kinds.toml`. A refusal says its
    `reason` (the rule's figure, graded DB x COMMUNICATE).
    """
    account_type = "checking" if isinstance(product, CheckingProduct) else "savings"
    plan = accounts_plan(person)
    if eligible:
        plan.call(
            T["open_bank_account"],
            user_id=person.user_id,
            account_type=account_type,
            account_class=product.name,
        )
    if eligible:
        return draft(product, f"open_{account_type}", scenario, plan, notes)
    return refusal(product, f"open_{account_type}_refused", scenario, plan, notes, reason)


def refusal(
    product: Product, kind: str, scenario: Scenario, plan: Plan, notes: str, reason: str
) -> Draft:
    """A refusal whose gold plan only verifies and looks the accounts up, graded on its reason.

    It must also say why (`reason`, in the documents' words or figures: DB x COMMUNICATE), or
    an agent that always verifies, lists the accounts and refuses would pass it.
    """
    return draft(
        product, kind, scenario, plan, notes, basis=("DB", "COMMUNICATE"), communicate=[reason]
    )
