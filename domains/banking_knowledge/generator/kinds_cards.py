"""Task kinds of the credit card families (cash back, travel, business, starter): accounts.

Choosing a card and applying, limit increases (approve, counter-offer, refer, decline),
replacements, closing with or without a retention offer, payments from checking.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import date

from tau_env.domains.banking_knowledge.generator.context import Context
from tau_env.domains.banking_knowledge.generator.documents_products import (
    FAMILY_LABELS,
    family_doc,
)
from tau_env.domains.banking_knowledge.generator.drafts import Draft, Scenario
from tau_env.domains.banking_knowledge.generator.kinds_common import (
    T,
    accounts_plan,
    brief,
    draft,
    pick,
    verified_plan,
)
from tau_env.domains.banking_knowledge.generator.library import product_doc
from tau_env.domains.banking_knowledge.generator.people import Person
from tau_env.domains.banking_knowledge.generator.products import CardOffer

__all__ = ["CARD_KINDS", "customer_with_checking", "monthly_payments"]


def _cards(ctx: Context, family: str) -> tuple[CardOffer, ...]:
    return ctx.bank.cards_of(family)


def monthly_payments(
    ctx: Context,
    person: Person,
    account: str,
    *,
    late: Collection[int] = (),
) -> None:
    """Monthly payments from October 2025 back to January 2025 (or the month after opening).

    `late` holds positions counted from the latest (0 = October) that were late.
    """
    opened = ctx.ledger.tables["credit_card_accounts"][account]["date_of_account_open"]
    month, _, year = opened.split("/")
    first = 1 if int(year) < 2025 else int(month) + 1
    for position, number in enumerate(range(10, first - 1, -1)):
        status = "LATE" if position in late else "ON_TIME"
        ctx.ledger.add_payment(person, account, date(2025, number, 20), ctx.amount(60, 650), status)


def customer_with_checking(ctx: Context) -> Person:
    """A new customer who also holds an everyday checking account."""
    person = ctx.customer()
    ctx.deposit(person, ctx.bank.checking_of("everyday_checking")[1])
    return person


def apply_card(ctx: Context, family: str, index: int) -> Draft | None:
    """Recommend the one card the rules leave; the customer applies for it themselves."""
    cards = _cards(ctx, family)
    rng = ctx.rng
    categories = sorted({c for card in cards for c in card.rates if c != "default"} | {"Shopping"})
    for _ in range(400):
        income = rng.randint(10, 200) * 1000
        category = rng.choice(categories)
        max_fee = rng.choice((0, 0, 50, 100, 150, 500))
        eligible = [c for c in cards if c.min_income <= income and c.annual_fee <= max_fee]
        if not eligible or (len(eligible) == len(cards) and index % 2 == 0):
            continue
        best = max(c.rate(category) for c in eligible)
        top = sorted((c for c in eligible if c.rate(category) == best), key=lambda c: c.annual_fee)
        if len(top) > 1 and top[0].annual_fee == top[1].annual_fee:
            continue
        chosen = top[0]
        if chosen is not pick(cards, index) and rng.random() < 0.7:
            continue
        break
    else:
        return None
    person = customer_with_checking(ctx)
    known, facts = ctx.identity(person)
    fee_text = (
        "You do not want to pay any annual fee ($0 at most)."
        if max_fee == 0
        else f"You would pay an annual fee of at most ${max_fee}."
    )
    facts |= {
        "annual_income": f"${income:,}",
        "spending_category": category,
        "max_annual_fee": f"${max_fee}",
    }
    label = FAMILY_LABELS[family].removesuffix(" cards").lower()
    scenario = Scenario(
        reason=f"You want a {label} credit card from the bank and would like advice on which "
        "one to choose.",
        known=f"{known} Your annual income is ${income:,}. Most of your card spending is on "
        f"{category}. {fee_text}",
        wishes="Ask the agent which card suits you. Then apply yourself for the card the agent "
        "recommends, giving your full name and your annual income.",
        opening=f"Hi, I'm looking for a {label} credit card. Which one would you recommend?",
        facts=facts,
    )
    plan = verified_plan(person).user(
        "apply_for_credit_card",
        card_type=chosen.name,
        customer_name=person.name,
        annual_income=float(income),
    )
    documents = [family_doc(family)]
    for card in cards:
        documents += [product_doc(card, "overview"), product_doc(card, "rewards")]
    return draft(
        chosen,
        "apply_card",
        scenario,
        plan,
        f"Income ${income}, fee at most ${max_fee}, top category {category}: {chosen.name}.",
        documents=documents,
        user_tools=["apply_for_credit_card"],
    )


def limit_increase(ctx: Context, family: str, index: int) -> Draft | None:
    """Approve, counter-offer, refer or decline a credit limit increase, by the card's rules."""
    card = pick(_cards(ctx, family), index)
    rules = card.limits
    variant = index % 5  # 0 approve, 1 counter-offer, 2 refer, 3 too young, 4 late payment
    rng = ctx.rng
    current = rng.choice(card.starting_limits)
    highest = rules.highest(current)
    if variant == 1 and highest + 500 > rules.phone_cap:
        current = min(card.starting_limits)
        highest = rules.highest(current)
        if highest + 500 > rules.phone_cap:
            return None
    if variant == 3:
        age = rng.randint(2, rules.min_age_months - 1)
    else:
        age = rng.randint(max(rules.min_age_months, rules.on_time_months + 2), 40)
    person = customer_with_checking(ctx)
    account = ctx.card(person, card, age_months=age, limit=current)
    late = {rng.randint(1, rules.on_time_months - 1)} if variant == 4 else set()
    monthly_payments(ctx, person, account, late=late)
    if variant == 0:
        asked = rng.choice(range(current + 100, highest + 1, 100))
    elif variant == 1:
        asked = rng.choice(range(highest + 500, rules.phone_cap + 1, 500))
    elif variant == 2:
        asked = rules.phone_cap + rng.choice((2000, 5000, 10000))
    else:
        asked = rng.choice(range(current + 100, highest + 1, 100))
    scenario = brief(
        ctx,
        person,
        reason=f"You want the credit limit of your {card.name} raised to ${asked:,}.",
        wishes="Ask for the new limit. If the agent cannot give you that much but offers a "
        "lower limit, accept the highest limit it offers. If the agent declines or says the "
        "request goes to another team, accept that.",
        opening=f"Hi, I'd like a higher credit limit on my {card.name}, ${asked:,} if possible.",
        facts={"requested_limit": f"${asked:,}"},
        accepts=["confirm", "limit"],
    )
    plan = verified_plan(person)
    if variant != 3:
        plan.call(
            T["get_payment_history"], credit_card_account_id=account, months=rules.on_time_months
        )
    granted = asked if variant == 0 else highest
    approve = (
        "approve_credit_limit_increase",
        {"new_credit_limit": granted},
        f"approve ${granted}",
    )
    refer = {"requested_increase_amount": asked - current}
    deny = "deny_credit_limit_increase"
    # Each variant's decision tool, its own arguments and the outcome in the notes.
    decision, details, outcome = (
        approve,
        approve,
        ("submit_credit_limit_request", refer, "refer to the credit team"),
        (deny, {"denial_reason": "insufficient_account_age"}, "decline: account too young"),
        (deny, {"denial_reason": "insufficient_payment_history"}, "decline: a late payment"),
    )[variant]
    plan.call(T[decision], credit_card_account_id=account, user_id=person.user_id, **details)
    kind = (
        "limit_increase",
        "limit_counter_offer",
        "limit_referral",
        "limit_declined_age",
        "limit_declined_payments",
    )[variant]
    return draft(
        card,
        kind,
        scenario,
        plan,
        f"Age {age} months, current ${current}, highest ${highest}, cap "
        f"${rules.phone_cap}, asked ${asked}: {outcome}.",
    )


def replace_card(ctx: Context, family: str, index: int) -> Draft:
    """Replace a lost, stolen or damaged card, expedited only where the card offers it."""
    card = pick(_cards(ctx, family), index)
    person = customer_with_checking(ctx)
    account = ctx.card(person, card)
    reason = ("lost", "stolen", "damaged")[index % 3]
    story = {
        "lost": "You lost your credit card while travelling and cannot get it back.",
        "stolen": "Your bag with your credit card was stolen; no charges appeared since.",
        "damaged": "Your credit card snapped in half.",
    }[reason]
    scenario = brief(
        ctx,
        person,
        reason=f"{story} You need a replacement {card.name}.",
        wishes="Ask for a replacement sent to your home address. You would like it quickly, "
        "but accept the shipping the agent says your card gets.",
        opening=f"Hi, I need a replacement for my {card.name}; it was {reason}.",
    )
    plan = (
        verified_plan(person)
        .call(T["get_replacement_card_orders"], credit_card_account_id=account)
        .call(
            T["order_replacement_credit_card"],
            credit_card_account_id=account,
            user_id=person.user_id,
            shipping_address=person.address,
            reason=reason,
            expedited_shipping=card.expedited_free,
        )
    )
    return draft(
        card,
        "replace_card",
        scenario,
        plan,
        f"Reason {reason}; expedited={card.expedited_free} for {card.name}.",
    )


def close_card(ctx: Context, family: str, index: int) -> Draft | None:
    """Close a card; an annual-fee closure may be saved with a 12-month fee waiver."""
    cards = _cards(ctx, family)
    fee_cards = [c for c in cards if c.annual_fee]
    variant = index % 4 if fee_cards else 3
    # 0: waiver offered and accepted, 1: offered and declined, 2: no offer, 3: other reason
    if variant in (0, 1):
        offering = [c for c in fee_cards if c.retention_months is not None]
        if not offering:
            return None
        card = pick(offering, index)
        assert card.retention_months is not None
        age = card.retention_months + ctx.rng.randint(1, 20)
    elif variant == 2:
        card = pick(fee_cards, index)
        if card.retention_months is None:
            age = ctx.rng.randint(14, 50)
        else:
            age = ctx.rng.randint(2, card.retention_months - 1)
    else:
        card = pick(cards, index)
        age = ctx.rng.randint(6, 50)
    person = customer_with_checking(ctx)
    account = ctx.card(person, card, age_months=age, balance=0.0)
    reason = "annual_fee" if variant < 3 else ("not_using_card", "found_better_card")[index % 2]
    story = {
        "annual_fee": f"you do not want to pay the {card.name}'s annual fee any more",
        "not_using_card": "you have not used it for a long time",
        "found_better_card": "you got a card elsewhere that suits you better",
    }[reason]
    wish = (
        "If the agent offers to waive the annual fee for one year, take the offer and keep the "
        "card."
        if variant in (0, 2)
        else "You do not want any offer: you just want the card closed."
    )
    scenario = brief(
        ctx,
        person,
        reason=f"You want to close your {card.name} because {story}.",
        wishes=f"{wish} The card has no balance.",
        opening=f"Hello, I want to close my {card.name}.",
        accepts=["confirm", "waive"] if variant in (0, 2) else ["confirm"],
    )
    plan = verified_plan(person).call(
        T["log_credit_card_closure_reason"],
        credit_card_account_id=account,
        user_id=person.user_id,
        closure_reason=reason,
    )
    if variant == 0:
        plan.call(
            T["apply_credit_card_flag"],
            credit_card_account_id=account,
            user_id=person.user_id,
            flag_type="annual_fee_waived",
            expiration_date="11/14/2026",
            reason="retention_offer",
        )
    else:
        plan.call(
            T["close_credit_card_account"], credit_card_account_id=account, user_id=person.user_id
        )
    kind = ("card_retained", "close_card_offer_declined", "close_card", "close_card")[variant]
    return draft(
        card,
        kind,
        scenario,
        plan,
        f"Reason {reason}, account {age} months, retention "
        f"{card.retention_months}: " + ("waiver" if variant == 0 else "close") + ".",
    )


def pay_card(ctx: Context, family: str, index: int) -> Draft:
    """Pay a card in full or in part from the customer's checking account."""
    card = pick(_cards(ctx, family), index)
    person = ctx.customer()
    owed = ctx.amount(120, 2400)
    checking = ctx.deposit(
        person,
        ctx.bank.checking_of("everyday_checking")[1],
        balance=ctx.amount(owed + 300, owed + 5000),
    )
    account = ctx.card(person, card, balance=owed)
    full = index % 2 == 0
    amount = owed if full else float(ctx.rng.randint(1, int(owed // 50)) * 50)
    want = "the whole balance" if full else f"${amount:,.2f}"
    scenario = brief(
        ctx,
        person,
        reason=f"You want to pay {want} of your {card.name} from your checking account.",
        wishes=f"Ask the agent to pay {want} from your checking account. Confirm when asked.",
        opening=f"Hi, I'd like to pay my {card.name} from my checking account.",
        facts={"payment": want},
    )
    plan = accounts_plan(person).call(
        T["pay_credit_card_from_checking"],
        user_id=person.user_id,
        checking_account_id=checking,
        credit_card_account_id=account,
        amount=amount,
    )
    return draft(
        card, "pay_card", scenario, plan, f"Balance ${owed:.2f}; pay ${amount:.2f} from {checking}."
    )


CARD_KINDS = (
    (apply_card, 4),
    (limit_increase, 5),
    (replace_card, 3),
    (close_card, 4),
    (pay_card, 3),
)
"""(kind, tasks per family) of every card family."""
