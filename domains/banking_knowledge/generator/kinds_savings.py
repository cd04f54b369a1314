"""Task kinds of savings accounts, and those every deposit family shares (deposits, referrals).

Savings kinds: withdrawal fee refunds (all, some or none of the fees were due), interest
corrections, opening (with the 14-day checking rule), moving money in, closing.
"""

from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from tau_env.domains.banking_knowledge.generator.context import Context, november
from tau_env.domains.banking_knowledge.generator.drafts import Draft
from tau_env.domains.banking_knowledge.generator.kinds_common import (
    T,
    account_opening,
    accounts_plan,
    brief,
    draft,
    pick,
    refusal,
    transfer_third_party,
    verified_plan,
)
from tau_env.domains.banking_knowledge.generator.people import Person
from tau_env.domains.banking_knowledge.generator.products import CheckingProduct, SavingsProduct

__all__ = ["DEPOSIT_KINDS", "SAVINGS_KINDS"]


def _deposit_products(ctx: Context, family: str) -> tuple[CheckingProduct | SavingsProduct, ...]:
    if family == "savings":
        return ctx.bank.savings
    return ctx.bank.checking_of(family)


def _everyday(ctx: Context) -> CheckingProduct:
    return ctx.bank.checking_of("everyday_checking")[1]


def _open(ctx: Context, person: Person, product: CheckingProduct | SavingsProduct) -> str:
    """The account of `product` (savings customers also get the checking it requires)."""
    if isinstance(product, SavingsProduct):
        ctx.deposit(person, _everyday(ctx))
        return ctx.deposit(person, product)
    return ctx.deposit(person, product)


def photo_deposit(ctx: Context, family: str, index: int) -> Draft:
    """Give the customer the photo deposit tool, unless the check is over the product's limit."""
    product = pick(_deposit_products(ctx, family), index)
    person = ctx.customer()
    account = _open(ctx, person, product)
    limit = product.mobile_deposit_limit
    allowed = index % 3 != 2
    amount = (
        round(ctx.rng.uniform(limit * 0.1, limit * 0.9), 2)
        if allowed
        else round(limit + ctx.rng.uniform(50, limit), 2)
    )
    scenario = brief(
        ctx,
        person,
        reason=f"You received a paper check for ${amount:,.2f} and want to deposit it into "
        f"your {product.name} without going to a branch.",
        wishes="If the agent gives you a tool to deposit it, run it with the details the agent "
        "gives. If the agent says the check must go to a branch, accept that.",
        opening="Hi, can I deposit a check from my phone?",
        facts={"check_amount": f"${amount:,.2f}"},
    )
    plan = accounts_plan(person)
    if allowed:
        plan.give(T["deposit_check"], account_id=account, check_amount=amount)
    return draft(
        product,
        "photo_deposit" if allowed else "photo_deposit_refused",
        scenario,
        plan,
        f"Limit ${limit}; check ${amount:.2f}: "
        + ("give the deposit tool." if allowed else "too large, nothing given."),
        # A refusal says the limit (or an agent that verifies and refuses would pass it).
        basis=("DB",) if allowed else ("DB", "COMMUNICATE"),
        communicate=() if allowed else (str(limit),),
        user_tools=["call_discoverable_user_tool"],
    )


def referral(ctx: Context, family: str, index: int) -> Draft:
    """The customer refers a friend with their own tool, if the product is in the program."""
    products = _deposit_products(ctx, family)
    in_program = [p for p in products if p.referral_bonus]
    outside = [p for p in products if not p.referral_bonus]
    allowed = not outside or index % 2 == 0
    product = pick(in_program if allowed else outside, index)
    person = ctx.customer()
    _open(ctx, person, product)
    scenario = brief(
        ctx,
        person,
        reason=f"A friend wants to open a {product.name} and you want to refer them.",
        wishes="Do the referral yourself if the agent tells you how. If the agent says this "
        "product cannot be referred, accept that.",
        opening=f"Hello, I'd like to refer a friend for a {product.name}.",
        tells_user_id=True,
    )
    plan = verified_plan(person)
    if allowed:
        plan.user("submit_referral", user_id=person.user_id, account_type=product.name)
    return draft(
        product,
        "referral" if allowed else "referral_refused",
        scenario,
        plan,
        "In the program: the customer submits it."
        if allowed
        else "Not in the referral program: nothing to submit.",
        user_tools=["submit_referral"],
        # A refusal says why: the product is not part of the referral program.
        basis=("DB",) if allowed else ("DB", "COMMUNICATE"),
        communicate=() if allowed else ("referral program",),
    )


def third_party(ctx: Context, family: str, index: int) -> Draft:
    """A relative calls about the holder's account (transfer)."""
    return transfer_third_party(ctx, pick(_deposit_products(ctx, family), index), index)


def withdrawal_fee_refund(ctx: Context, family: str, index: int) -> Draft:
    """Refund excess withdrawal fees that were not due (all, part, or none of them)."""
    product = pick(ctx.bank.savings, index)
    person = ctx.customer()
    ctx.deposit(person, _everyday(ctx))
    account = ctx.deposit(person, product, history=False)
    variant = index % 3  # 0: all wrong, 1: one of two wrong, 2: all due (refused)
    free = product.free_withdrawals
    withdrawals = {0: free - 1, 1: free + 1, 2: free + 2}[variant]
    wrong = {0: 1, 1: 1, 2: 0}[variant]
    fees_after = set(range(free + 1, withdrawals + 1))
    if variant == 0:
        fees_after = {withdrawals}
    elif variant == 1:
        fees_after.add(free)
    ledger = ctx.ledger
    ledger.add_bank_transaction(
        account, date(2025, 10, 2), "TRANSFER FROM CHECKING", 900.0, "transfer"
    )
    days = sorted(ctx.rng.sample(range(1, 14), withdrawals))
    for number, day in enumerate(days, 1):
        kind = ctx.rng.choice(("TRANSFER TO CHECKING", "ATM WITHDRAWAL - LARKSPUR"))
        amount = -float(ctx.rng.choice((20, 40, 50, 75, 100, 150)))
        ledger.add_bank_transaction(account, november(day), kind, amount, "withdrawal")
        if number in fees_after:
            ledger.add_bank_transaction(
                account, november(day), "EXCESS WITHDRAWAL FEE", -product.excess_fee, "fee"
            )
    refund = round(wrong * product.excess_fee, 2)
    scenario = brief(
        ctx,
        person,
        reason=f"You were charged excess withdrawal fees on your {product.name} this month "
        "and think that is wrong.",
        wishes="Ask the agent to check the fees and refund any that were charged by mistake. "
        "Accept what the agent finds.",
        opening="Hi, I was charged withdrawal fees on my savings this month. Can you check them?",
    )
    plan = accounts_plan(person).call(T["get_account_transactions"], account_id=account)
    if refund:
        plan.call(
            T["apply_savings_credit"], account_id=account, amount=refund, credit_type="fee_refund"
        )
    return draft(
        product,
        "withdrawal_fee_refund" if refund else "withdrawal_fee_refund_refused",
        scenario,
        plan,
        f"{withdrawals} withdrawals this month, allowance {free}, {len(fees_after)} fees; "
        f"{wrong} not due: refund ${refund:.2f}.",
    )


def _cents(value: Decimal) -> Decimal:
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _monthly(balance: Decimal, apy: Decimal) -> Decimal | None:
    """A month's interest, or None when the unrounded value is too close to a half cent."""
    exact = balance * apy / Decimal(1200)
    fraction = (exact * 100) % 1
    if abs(fraction - Decimal("0.5")) < Decimal("0.05"):
        return None
    return _cents(exact)


def interest_correction(ctx: Context, family: str, index: int) -> Draft:
    """Interest paid at a wrong rate: report and credit the difference (or nothing if right)."""
    product = pick(ctx.bank.savings, index)
    right = index % 4 == 3
    apy = Decimal(f"{product.apy:.2f}")
    while True:
        balance = Decimal(f"{ctx.rng.randint(max(product.min_balance, 2000), 60000)}.00")
        applied = apy if right else apy - Decimal(ctx.rng.choice(("0.25", "0.50", "0.75", "1.00")))
        correct, paid = _monthly(balance, apy), _monthly(balance, applied)
        if correct is not None and paid is not None and (right or correct > paid):
            break
    person = ctx.customer()
    ctx.deposit(person, _everyday(ctx))
    account = ctx.deposit(person, product, balance=float(balance + paid), history=False)
    ctx.ledger.add_bank_transaction(
        account, date(2025, 10, 2), "TRANSFER FROM CHECKING", 500.0, "transfer"
    )
    ctx.ledger.add_bank_transaction(
        account,
        date(2025, 11, 1),
        f"MONTHLY INTEREST ON BALANCE ${balance:,.2f} AT {applied:.2f}% APY",
        float(paid),
        "interest",
    )
    owed = float(correct - paid)
    scenario = brief(
        ctx,
        person,
        reason=f"The interest paid into your {product.name} on November 1 looks lower than "
        "you expected.",
        wishes="Ask the agent to check the interest and correct it if it is wrong. Accept what "
        "the agent finds.",
        opening="Hello, my savings interest this month seems too low. Could you check it?",
    )
    plan = accounts_plan(person).call(T["get_account_transactions"], account_id=account)
    if not right:
        plan.call(
            T["submit_interest_discrepancy_report"],
            account_id=account,
            user_id=person.user_id,
            expected_apy=float(apy),
            actual_apy=float(applied),
            amount_difference=owed,
        )
        plan.call(
            T["apply_savings_credit"],
            account_id=account,
            amount=owed,
            credit_type="interest_correction",
        )
    return draft(
        product,
        "interest_correction_refused" if right else "interest_correction",
        scenario,
        plan,
        f"Balance ${balance}, APY {apy}%, applied {applied}%: paid ${paid}, correct "
        f"${correct}" + ("" if right else f", credit ${owed:.2f}."),
    )


def open_savings(ctx: Context, family: str, index: int) -> Draft:
    """Open a savings product; refused while the checking account is under 14 days old."""
    product = pick(ctx.bank.savings, index)
    eligible = index % 3 != 2
    person = ctx.customer()
    age = ctx.rng.randint(30, 1500) if eligible else ctx.rng.randint(2, 12)
    checking = _everyday(ctx)
    ctx.deposit(person, checking, age_days=age, history=eligible)
    scenario = brief(
        ctx,
        person,
        reason=f"You want to open a {product.name} next to your {checking.name}.",
        wishes=f"Ask to open a {product.name}. If the agent says you cannot yet, accept that.",
        opening=f"Hi, I'd like to open a {product.name} account.",
    )
    return account_opening(
        product,
        person,
        scenario,
        eligible=eligible,
        notes=f"Checking is {age} days old: " + ("open it." if eligible else "too new, refuse."),
        reason="14 days",
    )


def move_to_savings(ctx: Context, family: str, index: int) -> Draft:
    """Move money from checking into savings (refused when checking cannot cover it)."""
    product = pick(ctx.bank.savings, index)
    person = ctx.customer()
    checking = ctx.deposit(person, _everyday(ctx), balance=ctx.amount(800, 5000))
    savings = ctx.deposit(person, product)
    ctx.remember("close_savings", person, checking, savings)
    available = ctx.ledger.balance(checking)
    possible = index % 4 != 3
    amount = (
        float(ctx.rng.randint(2, int(available // 100)) * 50)
        if possible
        else float((int(available // 100) + 3) * 100)
    )
    scenario = brief(
        ctx,
        person,
        reason=f"You want to move ${amount:,.2f} from your checking account into your "
        f"{product.name}.",
        wishes="Ask for the transfer. If the agent says there is not enough money, accept that "
        "and do not ask for a smaller amount.",
        opening=f"Hi, please move ${amount:,.2f} from my checking into my savings.",
        facts={"amount": f"${amount:,.2f}"},
    )
    plan = accounts_plan(person)
    if possible:
        plan.call(
            T["transfer_funds"],
            source_account_id=checking,
            destination_account_id=savings,
            amount=amount,
        )
    notes = f"Checking holds ${available:.2f}; move ${amount:.2f}"
    if possible:
        return draft(product, "move_to_savings", scenario, plan, notes + ".")
    return refusal(
        product,
        "move_to_savings_refused",
        scenario,
        plan,
        notes + ": too much, refuse.",
        f"{available:.2f}",
    )


def close_savings(ctx: Context, family: str, index: int) -> Draft:
    """Move the savings balance to checking and close the savings account.

    Some of these customers already called to move money into that savings account (another
    task, on the same records).
    """
    product = pick(ctx.bank.savings, index)
    returning = ctx.recall("close_savings", product.name) if index % 2 == 0 else None
    if returning is not None:  # the customer of an earlier task calls again
        person, checking, savings = returning
    else:
        person = ctx.customer()
        checking = ctx.deposit(person, _everyday(ctx))
        savings = ctx.deposit(person, product)
    balance = ctx.ledger.balance(savings)
    code, why = (
        ("consolidating_accounts", "you prefer to keep everything in your checking account"),
        ("no_longer_needed", "you have finished saving for what you wanted"),
    )[index % 2]
    scenario = brief(
        ctx,
        person,
        reason=f"You want to close your {product.name} because {why}.",
        wishes="The remaining savings should go to your checking account. Confirm when asked.",
        opening=f"Hello, I want to close my {product.name}.",
    )
    plan = (
        accounts_plan(person)
        .call(
            T["transfer_funds"],
            source_account_id=savings,
            destination_account_id=checking,
            amount=balance,
        )
        .call(T["close_bank_account"], account_id=savings, reason=code)
    )
    return draft(
        product,
        "close_savings",
        scenario,
        plan,
        f"Move ${balance:.2f} to {checking}; close with reason {code}.",
    )


DEPOSIT_KINDS = ((photo_deposit, 3), (referral, 2), (third_party, 2))
"""Kinds every deposit family has."""

SAVINGS_KINDS = (
    (withdrawal_fee_refund, 6),
    (interest_correction, 4),
    (open_savings, 4),
    (move_to_savings, 4),
    (close_savings, 3),
)
"""Kinds of the savings family."""
