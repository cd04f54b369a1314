"""Task kinds about the customer record itself: email changes and callers who fail to verify."""

from __future__ import annotations

from tau_env.domains.banking_knowledge.generator.context import Context
from tau_env.domains.banking_knowledge.generator.drafts import Draft, Plan, Scenario
from tau_env.domains.banking_knowledge.generator.kinds_common import (
    brief,
    draft,
    pick,
    verified_plan,
)
from tau_env.domains.banking_knowledge.generator.people import WORDS

__all__ = ["PROFILE_KINDS"]


def change_email(ctx: Context, family: str, index: int) -> Draft:
    """Verify, then change the email address on file."""
    person = ctx.customer()
    ctx.deposit(person, pick(ctx.bank.checking, index))
    local = person.name.lower().replace(" ", "_")
    new_email = f"{local}{ctx.rng.randint(100, 999)}@{ctx.rng.choice(WORDS.email_domains)}"
    scenario = brief(
        ctx,
        person,
        reason=f"You changed email providers and want the bank to use {new_email} from now on.",
        wishes=f"Your new email address is {new_email}. Confirm it when the agent reads it back.",
        opening="Hi, I'd like to update the email address on my account.",
        facts={"new_email": new_email},
    )
    plan = verified_plan(person).agent(
        "change_user_email", user_id=person.user_id, new_email=new_email
    )
    return draft(
        None,
        "change_email",
        scenario,
        plan,
        "Verify with two details, then change_user_email.",
        family=family,
    )


def verification_failed(ctx: Context, family: str, index: int) -> Draft:
    """The caller gets one detail wrong and knows no other: not verified, so not helped.

    The agent finds the caller's record by name (the verification procedure's first step),
    sees that the date of birth does not match, and says so; it looks up no account and logs
    no verification. Graded DB x ACTION (the record look-up) x COMMUNICATE (the mismatched
    date of birth as the reason), so an agent that refuses without checking fails.
    """
    person = ctx.customer()
    product = pick(ctx.bank.checking, index)
    ctx.deposit(person, product)
    day, month, year = person.date_of_birth[3:5], person.date_of_birth[:2], person.date_of_birth[6:]
    wrong_birth = f"{month}/{int(day) % 28 + 1:02d}/{year}"
    scenario = Scenario(
        reason=f"You want to know the balance of your {product.name}.",
        known=f"You are {person.name}. You believe your date of birth on file is {wrong_birth}, "
        f"and your phone number is {person.phone_number}. You do not remember which email or "
        "address the bank has.",
        wishes="If the agent cannot verify you, accept that and end the call.",
        opening=f"Hi, what's the balance of my {product.name}?",
        facts={
            "name": person.name,
            "date_of_birth": wrong_birth,
            "phone_number": person.phone_number,
        },
    )
    drafted = draft(
        None,
        "verification_failed",
        scenario,
        Plan().agent("get_user_information_by_name", customer_name=person.name),
        f"Only the phone matches (date of birth on file {person.date_of_birth}): find "
        "the record, say the date of birth does not match; no verification, no account look-up.",
        family=family,
        basis=("DB", "ACTION", "COMMUNICATE"),
        communicate=["date of birth"],
    )
    # An unverified caller hears none of the record's values.
    drafted.forbidden = [person.date_of_birth, person.email, person.address]
    return drafted


PROFILE_KINDS = ((change_email, 5), (verification_failed, 4))
"""Kinds of the profile family."""
