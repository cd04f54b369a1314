"""Task kinds of the credit card families: points, disputes, fee reversals, referrals, fraud."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from tau_env.domains.banking_knowledge.generator.context import Context
from tau_env.domains.banking_knowledge.generator.drafts import Draft, Plan, Scenario
from tau_env.domains.banking_knowledge.generator.kinds_cards import (
    customer_with_checking,
    monthly_payments,
)
from tau_env.domains.banking_knowledge.generator.kinds_common import (
    T,
    brief,
    draft,
    pick,
    transfer_third_party,
    verified_plan,
)
from tau_env.domains.banking_knowledge.generator.people import Person
from tau_env.domains.banking_knowledge.generator.products import CardOffer
from tau_env.domains.banking_knowledge.generator.world import day

__all__ = ["CARD_SERVICE_KINDS"]


def _cards(ctx: Context, family: str) -> tuple[CardOffer, ...]:
    return ctx.bank.cards_of(family)


def _points(amount: float, rate: float) -> int | None:
    """Points of a purchase, or None when float rounding would disagree with exact math."""
    exact = int(Decimal(f"{amount:.2f}") * Decimal(str(rate)))
    return exact if int(amount * rate) == exact else None


def missing_points(ctx: Context, family: str, index: int) -> Draft | None:
    """A bonus-category purchase earned the base rate: claim, then correct (or nothing)."""
    bonus = [c for c in _cards(ctx, family) if len(c.rates) > 1]
    if not bonus:
        return None
    card = pick(bonus, index)
    right = index % 3 == 2
    person = customer_with_checking(ctx)
    account = ctx.card(person, card)
    rng = ctx.rng
    categories = [c for c in card.rates if c != "default"]
    category = "Shopping" if right else rng.choice(categories)
    while True:
        amount = ctx.amount(30, 400)
        correct = _points(amount, card.rate(category))
        base = _points(amount, card.rates["default"])
        if correct is not None and base is not None and (right or correct > base):
            break
    merchant = ctx.merchant(category)
    when = date(2025, 10, rng.randint(5, 28))
    transaction = ctx.ledger.add_card_transaction(
        person, account, card, merchant=merchant, amount=amount, when=when,
        category=category, points=base,
    )  # fmt: skip
    scenario = brief(
        ctx,
        person,
        reason=f"Your {card.name} purchase at {merchant} on {day(when)} for ${amount:.2f} "
        f"earned only {base} points and you think it should have earned more.",
        wishes="Ask the agent to fix the points. If the agent gives you a tool to file a claim, "
        "run it with the details the agent gives. If the agent explains the points are right, "
        "accept that.",
        opening="Hi, one of my card purchases didn't get the points it should have.",
        tells_user_id=True,
    )
    plan = verified_plan(person)
    if right:  # the purchase's points, as the records show them, before saying they are right
        plan.agent("get_credit_card_transactions_by_user", user_id=person.user_id)
    else:
        plan.give(T["submit_cash_back_dispute"], user_id=person.user_id, transaction_id=transaction)
        plan.call(
            T["update_transaction_rewards"],
            transaction_id=transaction,
            new_rewards_earned=f"{correct} points",
        )
    settings = {"task_config": {"data": {"dispute_settings": {"auto_resolve_disputes": True}}}}
    return draft(
        card,
        "missing_points_refused" if right else "missing_points",
        scenario,
        plan,
        f"{category} at {card.rate(category)}: ${amount:.2f} -> {correct} points "
        f"(recorded {base})" + (": right, nothing to do." if right else "."),
        # Right points: look the purchase up, and explain the rate ("... points per dollar").
        basis=("DB", "ACTION", "COMMUNICATE") if right else ("DB",),
        communicate=("per dollar",) if right else (),
        user_tools=["call_discoverable_user_tool"],
        agent_data=None if right else settings,
    )


_DISPUTES = (
    ("incorrect_amount", "Shopping", "you were charged more than the price you agreed"),
    ("goods_services_not_received", "Shopping", "the order never arrived"),
    ("canceled_subscription_still_charging", "Streaming", "you had cancelled the subscription"),
    ("refund_never_processed", "Travel", "the merchant promised a refund that never came"),
)


def dispute_purchase(ctx: Context, family: str, index: int) -> Draft:
    """Open a purchase dispute with the fields the procedure prescribes."""
    card = pick(_cards(ctx, family), index)
    rng = ctx.rng
    reason, category, story = _DISPUTES[index % len(_DISPUTES)]
    recent = index % 2 == 0
    person = customer_with_checking(ctx)
    account = ctx.card(person, card)
    when = (
        date(2025, 10, rng.randint(1, 28))
        if recent
        else date(2025, rng.choice((7, 8)), rng.randint(1, 28))
    )
    amount = ctx.amount(40, 600)
    merchant = ctx.merchant(category)
    transaction = ctx.ledger.add_card_transaction(
        person, account, card, merchant=merchant, amount=amount, when=when, category=category
    )
    noticed = date(2025, 11, rng.randint(1, 12))
    contacted = rng.random() < 0.6
    ending = ctx.ledger.card_ending(account)
    without_card = index % 4 == 3
    known, facts = ctx.identity(person, count=3)
    facts |= {
        "issue_noticed_date": day(noticed),
        "contacted_merchant": "yes" if contacted else "no",
    }
    extra = ""
    partial = None
    if reason == "incorrect_amount":
        agreed = round(amount - ctx.amount(5, min(80, amount / 2)), 2)
        partial = round(amount - agreed, 2)
        extra = f" The agreed price was ${agreed:.2f}."
        facts["agreed_price"] = f"${agreed:.2f}"
    if not without_card:
        facts["card_last_4_digits"] = ending
    card_line = (
        "You do not have the card with you and do not remember its number."
        if without_card
        else f"Your card's last four digits are {ending}."
    )
    merchant_line = (
        "Asked whether you contacted the merchant, you answer yes: you did, without success."
        if contacted
        else "Asked whether you contacted the merchant, you answer no."
    )
    scenario = Scenario(
        reason=f"You want to dispute the {card.name} charge of ${amount:.2f} at {merchant} on "
        f"{day(when)} because {story}.{extra}",
        known=f"{known} {card_line}",
        wishes=f"You noticed the problem on {day(noticed)}. {merchant_line} If the agent gives "
        "you a tool to look something up, run it with the details the agent gives.",
        opening=f"Hi, I want to dispute a charge from {merchant} on my credit card.",
        facts=facts,
    )
    plan = verified_plan(person)
    if without_card:
        plan.give(T["get_card_last_4_digits"], credit_card_account_id=account)
    fields = {
        "transaction_id": transaction,
        "card_action": "keep_active",
        "card_last_4_digits": ending,
        "full_name": person.name,
        "user_id": person.user_id,
        "phone": person.phone_number,
        "email": person.email,
        "address": person.address,
        "contacted_merchant": contacted,
        "purchase_date": day(when),
        "issue_noticed_date": day(noticed),
        "dispute_reason": reason,
        "resolution_requested": "partial_refund" if partial else "full_refund",
        "eligible_for_provisional_credit": recent,
    }
    if partial:
        fields["partial_refund_amount"] = partial
    plan.call(T["file_credit_card_dispute"], **fields)
    return draft(
        card,
        "dispute_purchase",
        scenario,
        plan,
        f"{reason}; purchase {day(when)} (provisional credit: {recent})"
        + (f"; partial ${partial:.2f}" if partial else "")
        + ("; last four digits via the customer's tool" if without_card else "")
        + ".",
        user_tools=["call_discoverable_user_tool"] if without_card else [],
    )


def _fee_reversal(
    card: CardOffer,
    person: Person,
    account: str,
    plan: Plan,
    scenario: Scenario,
    notes: str,
    *,
    kind: str,
    credit: float | None,
) -> Draft:
    """A fee the customer wants reversed: `credit` dollars credited back (reason `kind`).

    A `credit` of None means the fee stands and nothing is credited. The kind is `kind` or
    ``<kind>_refused``; the purpose and documents are the kind's in `kinds.toml`. A refusal is
    graded on the plan's look-ups too (DB x ACTION): the check that shows the fee stands.
    """
    if credit is None:
        return draft(card, f"{kind}_refused", scenario, plan, notes, basis=("DB", "ACTION"))
    plan.call(
        T["apply_statement_credit"],
        user_id=person.user_id,
        credit_card_account_id=account,
        amount=credit,
        reason=kind,
    )
    return draft(card, kind, scenario, plan, notes)


def annual_fee(ctx: Context, family: str, index: int) -> Draft | None:
    """An annual fee charged in the free first year is reversed; a due one stands."""
    fee_cards = [c for c in _cards(ctx, family) if c.annual_fee]
    if not fee_cards:
        return None
    card = pick(fee_cards, index)
    wrong = card.first_year_free and index % 2 == 0
    age = ctx.rng.randint(3, 10) if wrong else ctx.rng.randint(13, 40)
    person = customer_with_checking(ctx)
    account = ctx.card(person, card, age_months=age)
    ctx.ledger.add_card_transaction(
        person, account, card, merchant="ANNUAL MEMBERSHIP FEE", amount=float(card.annual_fee),
        when=date(2025, 10, ctx.rng.randint(1, 28)), category="Fee", points=0,
    )  # fmt: skip
    scenario = brief(
        ctx,
        person,
        reason=f"An annual fee of ${card.annual_fee} was charged on your {card.name} in October "
        "and you want it refunded.",
        wishes="Ask for the fee to be reversed. If the agent explains that the fee is due, "
        "accept that.",
        opening=f"Hello, why was I charged an annual fee on my {card.name}? I'd like it removed.",
    )
    verdict = "reverse." if wrong else "the fee stands."
    notes = f"Account {age} months old, first year free: {card.first_year_free}: {verdict}"
    credit = float(card.annual_fee) if wrong else None
    plan = verified_plan(person)
    if credit is None:  # the account's age, as the records show it, before saying it stands
        plan.agent("get_credit_card_accounts_by_user", user_id=person.user_id)
    return _fee_reversal(
        card, person, account, plan, scenario, notes, kind="annual_fee_reversal", credit=credit
    )


def late_fee(ctx: Context, family: str, index: int) -> Draft:
    """Reverse a late fee when the payments before it were on time (courtesy rule)."""
    card = pick(_cards(ctx, family), index)
    rules = card.limits
    allowed = index % 2 == 0
    person = customer_with_checking(ctx)
    account = ctx.card(person, card, age_months=ctx.rng.randint(14, 50))
    late = {0} if allowed else {0, ctx.rng.randint(2, rules.on_time_months)}
    monthly_payments(ctx, person, account, late=late)
    ctx.ledger.add_card_transaction(
        person, account, card, merchant="LATE PAYMENT FEE", amount=float(card.late_fee),
        when=date(2025, 10, 21), category="Fee", points=0,
    )  # fmt: skip
    scenario = brief(
        ctx,
        person,
        reason=f"Your October payment on your {card.name} was late and you were charged a "
        f"${card.late_fee} late fee. You want it waived.",
        wishes="Ask for the late fee to be reversed as a courtesy. If the agent says it cannot, "
        "accept that.",
        opening=f"Hi, can you waive the late fee on my {card.name}?",
    )
    plan = verified_plan(person).call(
        T["get_payment_history"], credit_card_account_id=account, months=rules.on_time_months + 1
    )
    verdict = "met, reverse." if allowed else "another late payment, refuse."
    notes = f"Needs {rules.on_time_months} on-time payments before the late one: {verdict}"
    credit = float(card.late_fee) if allowed else None
    return _fee_reversal(
        card, person, account, plan, scenario, notes, kind="late_fee_reversal", credit=credit
    )


def referral_link(ctx: Context, family: str, index: int) -> Draft:
    """Give the customer the referral link tool for their card."""
    card = pick(_cards(ctx, family), index)
    person = customer_with_checking(ctx)
    ctx.card(person, card)
    scenario = brief(
        ctx,
        person,
        reason=f"A friend of yours wants a {card.name} and you want to refer them.",
        wishes="If the agent gives you a tool to create a referral link, run it with the "
        "details the agent gives.",
        opening=f"Hi, how can I refer a friend for the {card.name}?",
        tells_user_id=True,
    )
    plan = verified_plan(person).give(
        T["get_referral_link"], user_id=person.user_id, card_name=card.name
    )
    return draft(
        card,
        "card_referral",
        scenario,
        plan,
        "Give the link tool with the user id and the exact card name.",
        user_tools=["call_discoverable_user_tool"],
    )


def fraud_transfer(ctx: Context, family: str, index: int) -> Draft:
    """Charges the customer did not make go to the fraud team (verified, then transferred)."""
    card = pick(_cards(ctx, family), index)
    person = customer_with_checking(ctx)
    account = ctx.card(person, card)
    merchant = ctx.merchant("Shopping")
    for offset in (0, 1):
        ctx.ledger.add_card_transaction(
            person, account, card, merchant=merchant, amount=ctx.amount(150, 900),
            when=date(2025, 11, 10 + offset), category="Shopping",
        )  # fmt: skip
    scenario = brief(
        ctx,
        person,
        reason=f"You see two charges from {merchant} on your {card.name} that you did not make.",
        wishes="You want the charges investigated. If the agent says a specialist team must "
        "handle it, accept the transfer.",
        opening=f"Hi, there are charges on my {card.name} that I never made.",
        accepts=["confirm", "transfer"],
        asks_for_transfer=True,
    )
    plan: Plan = verified_plan(person).agent(
        "transfer_to_human_agents",
        ["reason"],
        summary=f"Unrecognised {merchant} charges on {account}.",
        reason="fraud_or_security_concern",
    )
    return draft(
        card,
        "fraud_transfer",
        scenario,
        plan,
        "No dispute for unauthorized charges: transfer (fraud_or_security_concern).",
        basis=("DB", "ACTION"),
    )


def third_party(ctx: Context, family: str, index: int) -> Draft:
    """A relative calls about the holder's card (transfer)."""
    return transfer_third_party(ctx, pick(_cards(ctx, family), index), index)


CARD_SERVICE_KINDS = (
    (missing_points, 3),
    (dispute_purchase, 4),
    (annual_fee, 2),
    (late_fee, 2),
    (referral_link, 1),
    (fraud_transfer, 1),
    (third_party, 1),
)
"""(kind, tasks per family) of card services."""
