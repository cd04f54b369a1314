"""Task kinds of the checking families: ATM fee refunds, daily limits, opening and closing.

Each kind takes the context, the family and the kind's task number, and returns a draft (or
None when the family has no product it applies to). The number chooses the product and the
variant, so a kind's tasks cover the family's products evenly.
"""

from __future__ import annotations

from datetime import date

from tau_env.domains.banking_knowledge.generator.context import Context, november
from tau_env.domains.banking_knowledge.generator.drafts import Draft, Scenario
from tau_env.domains.banking_knowledge.generator.kinds_common import (
    T,
    account_opening,
    accounts_plan,
    brief,
    debit_cards_plan,
    draft,
    pick,
    refusal,
)
from tau_env.domains.banking_knowledge.generator.products import BANK_NAME

__all__ = ["CHECKING_KINDS"]


def atm_fee_refund(ctx: Context, family: str, index: int) -> Draft | None:
    """Refund this month's out-of-network ATM fees, up to the product's monthly number."""
    refunding = [p for p in ctx.bank.checking_of(family) if p.atm_refunds]
    if not refunding:
        return None
    product = pick(refunding, index)
    rng = ctx.rng
    person = ctx.customer()
    account = ctx.deposit(person, product)
    if rng.random() < 0.5:
        ctx.deposit(person, rng.choice(ctx.bank.savings))
    ledger = ctx.ledger
    old = date(2025, 10, rng.randint(5, 28))
    ledger.add_bank_transaction(account, old, "ATM WITHDRAWAL - OTHER BANK", -60.0, "withdrawal")
    ledger.add_bank_transaction(account, old, "OUT-OF-NETWORK ATM FEE", -product.atm_fee, "fee")
    count = [product.atm_refunds - 1, product.atm_refunds, product.atm_refunds + 2][index % 3]
    count = max(count, 1)
    for day in sorted(rng.sample(range(2, 14), count)):
        cash = -float(rng.choice((40, 60, 80, 100, 200)))
        ledger.add_bank_transaction(
            account, november(day), "ATM WITHDRAWAL - OTHER BANK", cash, "withdrawal"
        )
        ledger.add_bank_transaction(
            account, november(day), "OUT-OF-NETWORK ATM FEE", -product.atm_fee, "fee"
        )
    refund = round(min(count, product.atm_refunds) * product.atm_fee, 2)
    scenario = brief(
        ctx,
        person,
        reason="This month you withdrew cash at other banks' ATMs several times and "
        f"{BANK_NAME} charged you a fee each time. You want those fees refunded.",
        wishes=f"Ask for this month's ATM fees on your {product.name} to be refunded. You do "
        "not know exactly how many there were. Accept the refund the agent says your account "
        "allows; if asked to confirm, confirm.",
        opening="Hi, I was charged fees for using other banks' ATMs this month. Can you refund "
        "them?",
    )
    plan = (
        accounts_plan(person)
        .call(T["get_account_transactions"], account_id=account)
        .call(
            T["apply_checking_credit"], account_id=account, amount=refund, credit_type="fee_refund"
        )
    )
    return draft(
        product,
        "atm_fee_refund",
        scenario,
        plan,
        f"{count} fees this month (one more in October, not refundable); {product.name} "
        f"refunds {product.atm_refunds} a month: one fee_refund credit of ${refund:.2f}.",
    )


def atm_fee_refund_refused(ctx: Context, family: str, index: int) -> Draft | None:
    """A product without ATM fee refunds: explain, credit nothing."""
    plain = [p for p in ctx.bank.checking_of(family) if not p.atm_refunds]
    if not plain:
        return None
    product = pick(plain, index)
    person = ctx.customer()
    account = ctx.deposit(person, product)
    for day in (4, 9):
        ctx.ledger.add_bank_transaction(
            account, november(day), "ATM WITHDRAWAL - OTHER BANK", -80.0, "withdrawal"
        )
        ctx.ledger.add_bank_transaction(
            account, november(day), "OUT-OF-NETWORK ATM FEE", -product.atm_fee, "fee"
        )
    scenario = brief(
        ctx,
        person,
        reason="You were charged two fees for using another bank's ATM this month and want "
        "them refunded.",
        wishes="Ask for the two ATM fees to be refunded. If the agent explains that your "
        "account does not refund them, accept the explanation and end the call.",
        opening="Hello, can you refund the ATM fees I was charged this month?",
    )
    plan = accounts_plan(person)
    return refusal(
        product,
        "atm_fee_refund_refused",
        scenario,
        plan,
        f"{product.name} has no ATM fee refunds: look up the account, explain, no credit.",
        "ATM fee refunds",
    )


def temporary_limit(ctx: Context, family: str, index: int) -> Draft | None:
    """Raise a daily limit for 24 hours: the amount asked, or the product's highest."""
    raising = [p for p in ctx.bank.checking_of(family) if p.debit.temp_cap_percent]
    if not raising:
        return None
    product = pick(raising, index)
    person = ctx.customer()
    account = ctx.deposit(person, product, age_days=ctx.rng.randint(120, 2000))
    card = ctx.debit_card(person, account, product)
    limit_type = ("atm", "purchase")[index % 2]
    standard = product.debit.atm_limit if limit_type == "atm" else product.debit.purchase_limit
    highest = product.debit.temp_cap(standard)
    over = index % 3 == 2
    step = 50 if limit_type == "atm" else 250
    if over:
        asked = (highest // step + 2) * step
        granted = highest
    else:
        options = [v for v in range(standard + step, highest + 1, step)]
        asked = granted = ctx.rng.choice(options or [highest])
    label = "daily ATM withdrawal limit" if limit_type == "atm" else "daily purchase limit"
    scenario = brief(
        ctx,
        person,
        reason=f"Tomorrow you need a higher {label} on your debit card for a one-off expense.",
        wishes=f"The card belongs to your {product.name}. Ask for a {label} of ${asked}. If the "
        "agent says it cannot go that high, accept the highest limit it offers.",
        opening=f"Hi, could you raise my {label} for a day? I need ${asked}.",
        facts={"requested_limit": f"${asked}"},
        accepts=["confirm", "limit"],
    )
    plan = debit_cards_plan(person, account).call(
        T["raise_debit_card_limit"],
        card_id=card["card_id"],
        limit_type=limit_type,
        new_limit=granted,
    )
    return draft(
        product,
        "temporary_limit",
        scenario,
        plan,
        f"Standard ${standard}, product cap {product.debit.temp_cap_percent}% = "
        f"${highest}; asked ${asked}, granted ${granted}.",
    )


def temporary_limit_refused(ctx: Context, family: str, index: int) -> Draft:
    """No increase: the product has none, or the account is younger than 60 days."""
    products = ctx.bank.checking_of(family)
    plain = [p for p in products if not p.debit.temp_cap_percent]
    young = not plain or index % 2 == 1
    product = pick(products if young else plain, index)
    person = ctx.customer()
    age = ctx.rng.randint(15, 50) if young else ctx.rng.randint(200, 1500)
    if young:
        ctx.deposit(person, ctx.rng.choice(ctx.bank.savings))
    account = ctx.deposit(person, product, age_days=age)
    ctx.debit_card(person, account, product, issued_days_ago=max(age - 5, 1))
    scenario = brief(
        ctx,
        person,
        reason="You want a higher daily ATM withdrawal limit on your debit card for tomorrow.",
        wishes=f"The card belongs to your {product.name}. Ask for a daily ATM limit $200 above "
        "your current one. If the agent explains that it is not possible, accept that.",
        opening="Hello, can you raise my daily ATM limit for tomorrow?",
    )
    plan = accounts_plan(person)
    why = "account younger than 60 days" if young else "product without temporary increases"
    return refusal(
        product,
        "temporary_limit_refused",
        scenario,
        plan,
        f"Refused: {why}. Nothing changes beyond the verification and the account look-up.",
        "60 days" if young else "temporary increases",
    )


_CLOSING = (
    ("consolidating_accounts", "you want to keep all your money in your other account"),
    ("fees_too_high", "you find the monthly fee too high"),
    ("no_longer_needed", "you no longer use it"),
)


def close_checking(ctx: Context, family: str, index: int) -> Draft:
    """Cancel the account's cards, move the balance to another account, then close it."""
    product = pick(ctx.bank.checking_of(family), index)
    person = ctx.customer()
    account = ctx.deposit(person, product)
    balance = ctx.ledger.balance(account)
    savings_product = ctx.rng.choice(ctx.bank.savings)
    other = ctx.deposit(person, savings_product)
    card = ctx.debit_card(person, account, product) if index % 3 != 1 else None
    code, why = _CLOSING[index % 3]
    known, facts = ctx.identity(person)
    scenario = Scenario(
        reason=f"You want to close your {product.name} because {why}.",
        known=f"{known} You also have a {savings_product.name} account.",
        wishes=f"Whatever is left in the checking account should go to your "
        f"{savings_product.name}. Confirm when the agent asks.",
        opening=f"Hi, I'd like to close my {product.name}.",
        facts=facts,
    )
    plan = debit_cards_plan(person, account)
    if card is not None:
        plan.call(T["close_debit_card"], card_id=card["card_id"], reason="account_closing")
    plan.call(
        T["transfer_funds"], source_account_id=account, destination_account_id=other, amount=balance
    )
    plan.call(T["close_bank_account"], account_id=account, reason=code)
    return draft(
        product,
        "close_checking",
        scenario,
        plan,
        f"Move ${balance:.2f} to {other}; close with reason {code}.",
    )


def open_checking(ctx: Context, family: str, index: int) -> Draft:
    """Open a checking product; premier ones only when the balances meet the requirement."""
    product = pick(ctx.bank.checking_of(family), index)
    person = ctx.customer()
    savings_product = ctx.rng.choice(ctx.bank.savings)
    required = product.opening_balance
    eligible = required == 0 or index % 2 == 0
    if required:
        total = required + ctx.rng.randint(500, 8000) if eligible else required * 0.6
        existing = ctx.deposit(person, savings_product, balance=round(total * 0.7, 2))
        ctx.deposit(
            person,
            ctx.bank.checking_of("everyday_checking")[1],
            balance=round(total - ctx.ledger.balance(existing), 2),
        )
    else:
        ctx.deposit(person, savings_product)
    scenario = brief(
        ctx,
        person,
        reason=f"You want to open a {product.name} account in addition to what you have.",
        wishes=f"Ask to open a {product.name}. If the agent says you do not qualify, accept "
        "that and end the call.",
        opening=f"Hello, I'd like to open a {product.name}.",
    )
    return account_opening(
        product,
        person,
        scenario,
        eligible=eligible,
        notes=(
            f"Requirement ${required}: eligible, open it."
            if eligible
            else f"Balances below the ${required} requirement: open nothing."
        ),
        reason=str(required),
    )


CHECKING_KINDS = (
    (atm_fee_refund, 3),
    (atm_fee_refund_refused, 2),
    (temporary_limit, 3),
    (temporary_limit_refused, 2),
    (close_checking, 3),
    (open_checking, 3),
)
"""(kind, tasks per family) of the checking families; deposits and referrals are shared."""
