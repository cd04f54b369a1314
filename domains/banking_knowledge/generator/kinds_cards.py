"""Task kinds of the credit card families (cash back, travel, business, starter).

Choosing a card and applying, limit increases (approve, counter-offer, refer, decline),
replacements, closing with or without a retention offer, payments from checking, missing
points, purchase disputes, fee reversals, referral links and fraud transfers.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from tau_env.domains.banking_knowledge.generator.context import Context
from tau_env.domains.banking_knowledge.generator.documents_procedures import PROCEDURES
from tau_env.domains.banking_knowledge.generator.documents_products import (
    FAMILY_LABELS,
    family_doc,
)
from tau_env.domains.banking_knowledge.generator.drafts import Draft, Plan, Scenario
from tau_env.domains.banking_knowledge.generator.kinds_common import (
    T,
    draft,
    pick,
    transfer_third_party,
    verified_plan,
)
from tau_env.domains.banking_knowledge.generator.library import product_doc
from tau_env.domains.banking_knowledge.generator.people import Person
from tau_env.domains.banking_knowledge.generator.products import CardOffer
from tau_env.domains.banking_knowledge.generator.world import day

__all__ = ["CARD_KINDS"]

P = PROCEDURES


def _cards(ctx: Context, family: str) -> tuple[CardOffer, ...]:
    return ctx.bank.cards_of(family)


def _payments(
    ctx: Context, person: Person, card: CardOffer, account: str, *, late: set[int] = frozenset()
) -> None:
    """Monthly payments from October 2025 back to January 2025 (or the month after opening).

    `late` holds positions counted from the latest (0 = October) that were late.
    """
    opened = ctx.ledger.tables["credit_card_accounts"][account]["date_of_account_open"]
    month, _, year = opened.split("/")
    first = 1 if int(year) < 2025 else int(month) + 1
    for position, number in enumerate(range(10, first - 1, -1)):
        status = "LATE" if position in late else "ON_TIME"
        ctx.ledger.add_payment(
            person, account, date(2025, number, 20), ctx.amount(60, 650), status
        )


def _customer(ctx: Context) -> Person:
    person = ctx.customer()
    ctx.checking(person, ctx.bank.checking_of("everyday_checking")[1])
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
        if not eligible or len(eligible) == len(cards) and index % 2 == 0:
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
    person = _customer(ctx)
    known, facts = ctx.identity(person)
    fee_text = (
        "You do not want to pay any annual fee."
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
    documents = [P.CARD_CHOICE, family_doc(family)]
    for card in cards:
        documents += [product_doc(card, "overview"), product_doc(card, "rewards")]
    return draft(
        chosen,
        family,
        "apply_card",
        purpose="Recommend the card the choosing rules leave; the customer applies.",
        notes=f"Income ${income}, fee at most ${max_fee}, top category {category}: "
        f"{chosen.name}.",
        scenario=scenario,
        plan=plan,
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
    person = _customer(ctx)
    account = ctx.card(person, card, age_months=age, limit=current)
    late = {rng.randint(1, rules.on_time_months - 1)} if variant == 4 else set()
    _payments(ctx, person, card, account, late=late)
    if variant == 0:
        asked = rng.choice(range(current + 100, highest + 1, 100))
    elif variant == 1:
        asked = rng.choice(range(highest + 500, rules.phone_cap + 1, 500))
    elif variant == 2:
        asked = rules.phone_cap + rng.choice((2000, 5000, 10000))
    else:
        asked = rng.choice(range(current + 100, highest + 1, 100))
    known, facts = ctx.identity(person)
    facts["requested_limit"] = f"${asked:,}"
    scenario = Scenario(
        reason=f"You want the credit limit of your {card.name} raised to ${asked:,}.",
        known=known,
        wishes="Ask for the new limit. If the agent cannot give you that much but offers a "
        "lower limit, accept the highest limit it offers. If the agent declines or says the "
        "request goes to another team, accept that.",
        opening=f"Hi, I'd like a higher credit limit on my {card.name}, ${asked:,} if possible.",
        facts=facts,
        accepts=["confirm", "limit"],
    )
    plan = verified_plan(person)
    if variant == 3:
        plan.call(
            T["deny_credit_limit_increase"],
            credit_card_account_id=account,
            user_id=person.user_id,
            denial_reason="insufficient_account_age",
        )
        outcome = "decline: account too young"
    else:
        plan.call(T["get_payment_history"], credit_card_account_id=account, months=rules.on_time_months)
        if variant == 4:
            plan.call(
                T["deny_credit_limit_increase"],
                credit_card_account_id=account,
                user_id=person.user_id,
                denial_reason="insufficient_payment_history",
            )
            outcome = "decline: a late payment"
        elif variant == 2:
            plan.call(
                T["submit_credit_limit_request"],
                credit_card_account_id=account,
                user_id=person.user_id,
                requested_increase_amount=asked - current,
            )
            outcome = "refer to the credit team"
        else:
            granted = asked if variant == 0 else highest
            plan.call(
                T["approve_credit_limit_increase"],
                credit_card_account_id=account,
                user_id=person.user_id,
                new_credit_limit=granted,
            )
            outcome = f"approve ${granted}"
    kinds = ("limit_increase", "limit_counter_offer", "limit_referral", "limit_declined_age")
    return draft(
        card,
        family,
        (*kinds, "limit_declined_payments")[variant],
        purpose="A credit limit increase decided by the card's rules.",
        notes=f"Age {age} months, current ${current}, highest ${highest}, cap "
        f"${rules.phone_cap}, asked ${asked}: {outcome}.",
        scenario=scenario,
        plan=plan,
        documents=[P.CARD_LIMIT, product_doc(card, "credit_limits")],
    )


def replace_card(ctx: Context, family: str, index: int) -> Draft:
    """Replace a lost, stolen or damaged card, expedited only where the card offers it."""
    card = pick(_cards(ctx, family), index)
    person = _customer(ctx)
    account = ctx.card(person, card)
    reason = ("lost", "stolen", "damaged")[index % 3]
    story = {
        "lost": "You lost your credit card while travelling and cannot get it back.",
        "stolen": "Your bag with your credit card was stolen; no charges appeared since.",
        "damaged": "Your credit card snapped in half.",
    }[reason]
    known, facts = ctx.identity(person)
    scenario = Scenario(
        reason=f"{story} You need a replacement {card.name}.",
        known=known,
        wishes="Ask for a replacement sent to your home address. You would like it quickly, "
        "but accept the shipping the agent says your card gets.",
        opening=f"Hi, I need a replacement for my {card.name}; it was {reason}.",
        facts=facts,
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
        family,
        "replace_card",
        purpose="Replace a credit card with the shipping its product allows.",
        notes=f"Reason {reason}; expedited={card.expedited_free} for {card.name}.",
        scenario=scenario,
        plan=plan,
        documents=[P.CARD_REPLACE, product_doc(card, "services")],
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
    person = _customer(ctx)
    account = ctx.card(person, card, age_months=age, balance=0.0)
    reason = "annual_fee" if variant < 3 else ("not_using_card", "found_better_card")[index % 2]
    story = {
        "annual_fee": f"you do not want to pay the {card.name}'s annual fee any more",
        "not_using_card": "you have not used it for a long time",
        "found_better_card": "you got a card elsewhere that suits you better",
    }[reason]
    wish = (
        "If the agent offers to waive the annual fee for a year, accept it and keep the card."
        if variant in (0, 2)
        else "You do not want any offer: you just want the card closed."
    )
    known, facts = ctx.identity(person)
    scenario = Scenario(
        reason=f"You want to close your {card.name} because {story}.",
        known=known,
        wishes=f"{wish} The card has no balance.",
        opening=f"Hello, I want to close my {card.name}.",
        facts=facts,
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
        plan.call(T["close_credit_card_account"], credit_card_account_id=account, user_id=person.user_id)
    kind = ("card_retained", "close_card_offer_declined", "close_card", "close_card")[variant]
    return draft(
        card,
        family,
        kind,
        purpose="Record why a card is closed; offer the fee waiver where the card allows it.",
        notes=f"Reason {reason}, account {age} months, retention "
        f"{card.retention_months}: " + ("waiver" if variant == 0 else "close") + ".",
        scenario=scenario,
        plan=plan,
        documents=[P.CARD_CLOSE, product_doc(card, "services")],
    )


def pay_card(ctx: Context, family: str, index: int) -> Draft:
    """Pay a card in full or in part from the customer's checking account."""
    card = pick(_cards(ctx, family), index)
    person = ctx.customer()
    owed = ctx.amount(120, 2400)
    checking = ctx.checking(
        person, ctx.bank.checking_of("everyday_checking")[1], balance=ctx.amount(owed + 300, owed + 5000)
    )
    account = ctx.card(person, card, balance=owed)
    full = index % 2 == 0
    amount = owed if full else float(ctx.rng.randint(1, int(owed // 50)) * 50)
    known, facts = ctx.identity(person)
    want = "the whole balance" if full else f"${amount:,.2f}"
    facts["payment"] = want
    scenario = Scenario(
        reason=f"You want to pay {want} of your {card.name} from your checking account.",
        known=known,
        wishes=f"Ask the agent to pay {want} from your checking account. Confirm when asked.",
        opening=f"Hi, I'd like to pay my {card.name} from my checking account.",
        facts=facts,
    )
    plan = (
        verified_plan(person)
        .call(T["get_user_accounts"], user_id=person.user_id)
        .call(
            T["pay_credit_card_from_checking"],
            user_id=person.user_id,
            checking_account_id=checking,
            credit_card_account_id=account,
            amount=amount,
        )
    )
    return draft(
        card,
        family,
        "pay_card",
        purpose="Pay a credit card from checking (in full means the current balance).",
        notes=f"Balance ${owed:.2f}; pay ${amount:.2f} from {checking}.",
        scenario=scenario,
        plan=plan,
        documents=[P.ACCOUNTS, P.CARD_PAY],
    )


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
    person = _customer(ctx)
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
    known, facts = ctx.identity(person)
    facts["user_id"] = person.user_id
    scenario = Scenario(
        reason=f"Your {card.name} purchase at {merchant} on {day(when)} for ${amount:.2f} "
        f"earned only {base} points and you think it should have earned more.",
        known=f"{known} Your user id is {person.user_id}.",
        wishes="Ask the agent to fix the points. If the agent gives you a tool to file a claim, "
        "run it with the details the agent gives. If the agent explains the points are right, "
        "accept that.",
        opening="Hi, one of my card purchases didn't get the points it should have.",
        facts=facts,
    )
    plan = verified_plan(person)
    if not right:
        plan.give(T["submit_cash_back_dispute"], user_id=person.user_id, transaction_id=transaction)
        plan.call(
            T["update_transaction_rewards"],
            transaction_id=transaction,
            new_rewards_earned=f"{correct} points",
        )
    settings = {"task_config": {"data": {"dispute_settings": {"auto_resolve_disputes": True}}}}
    return draft(
        card,
        family,
        "missing_points_refused" if right else "missing_points",
        purpose="Points of a purchase: claim and correct when the category rate was not applied.",
        notes=f"{category} at {card.rate(category)}: ${amount:.2f} -> {correct} points "
        f"(recorded {base})" + (": right, nothing to do." if right else "."),
        scenario=scenario,
        plan=plan,
        documents=[P.REWARDS, product_doc(card, "rewards")],
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
    person = _customer(ctx)
    account = ctx.card(person, card)
    when = date(2025, 10, rng.randint(1, 28)) if recent else date(2025, rng.choice((7, 8)), rng.randint(1, 28))
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
    facts |= {"issue_noticed_date": day(noticed), "contacted_merchant": "yes" if contacted else "no"}
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
        "You already contacted the merchant, without success."
        if contacted
        else "You have not contacted the merchant."
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
        family,
        "dispute_purchase",
        purpose="Dispute a card purchase with the right reason, resolution and credit flag.",
        notes=f"{reason}; purchase {day(when)} (provisional credit: {recent})"
        + (f"; partial ${partial:.2f}" if partial else "")
        + ("; last four digits via the customer's tool" if without_card else "")
        + ".",
        scenario=scenario,
        plan=plan,
        documents=[P.CARD_DISPUTE],
        user_tools=["call_discoverable_user_tool"] if without_card else [],
    )


def annual_fee(ctx: Context, family: str, index: int) -> Draft | None:
    """An annual fee charged in the free first year is reversed; a due one stands."""
    fee_cards = [c for c in _cards(ctx, family) if c.annual_fee]
    if not fee_cards:
        return None
    card = pick(fee_cards, index)
    wrong = card.first_year_free and index % 2 == 0
    age = ctx.rng.randint(3, 10) if wrong else ctx.rng.randint(13, 40)
    person = _customer(ctx)
    account = ctx.card(person, card, age_months=age)
    ctx.ledger.add_card_transaction(
        person, account, card, merchant="ANNUAL MEMBERSHIP FEE", amount=float(card.annual_fee),
        when=date(2025, 10, ctx.rng.randint(1, 28)), category="Fee", points=0,
    )  # fmt: skip
    known, facts = ctx.identity(person)
    scenario = Scenario(
        reason=f"An annual fee of ${card.annual_fee} was charged on your {card.name} in October "
        "and you want it refunded.",
        known=known,
        wishes="Ask for the fee to be reversed. If the agent explains that the fee is due, "
        "accept that.",
        opening=f"Hello, why was I charged an annual fee on my {card.name}? I'd like it removed.",
        facts=facts,
    )
    plan = verified_plan(person)
    if wrong:
        plan.call(
            T["apply_statement_credit"],
            user_id=person.user_id,
            credit_card_account_id=account,
            amount=float(card.annual_fee),
            reason="annual_fee_reversal",
        )
    return draft(
        card,
        family,
        "annual_fee_reversal" if wrong else "annual_fee_reversal_refused",
        purpose="Reverse an annual fee charged during a free first year.",
        notes=f"Account {age} months old, first year free: {card.first_year_free}: "
        + ("reverse." if wrong else "the fee stands."),
        scenario=scenario,
        plan=plan,
        documents=[P.FEE_REVERSAL, product_doc(card, "overview")],
    )


def late_fee(ctx: Context, family: str, index: int) -> Draft:
    """Reverse a late fee when the payments before it were on time (courtesy rule)."""
    card = pick(_cards(ctx, family), index)
    rules = card.limits
    allowed = index % 2 == 0
    person = _customer(ctx)
    account = ctx.card(person, card, age_months=ctx.rng.randint(14, 50))
    late = {0} if allowed else {0, ctx.rng.randint(2, rules.on_time_months)}
    _payments(ctx, person, card, account, late=late)
    ctx.ledger.add_card_transaction(
        person, account, card, merchant="LATE PAYMENT FEE", amount=float(card.late_fee),
        when=date(2025, 10, 21), category="Fee", points=0,
    )  # fmt: skip
    known, facts = ctx.identity(person)
    scenario = Scenario(
        reason=f"Your October payment on your {card.name} was late and you were charged a "
        f"${card.late_fee} late fee. You want it waived.",
        known=known,
        wishes="Ask for the late fee to be reversed as a courtesy. If the agent says it cannot, "
        "accept that.",
        opening=f"Hi, can you waive the late fee on my {card.name}?",
        facts=facts,
    )
    plan = verified_plan(person).call(
        T["get_payment_history"], credit_card_account_id=account, months=rules.on_time_months + 1
    )
    if allowed:
        plan.call(
            T["apply_statement_credit"],
            user_id=person.user_id,
            credit_card_account_id=account,
            amount=float(card.late_fee),
            reason="late_fee_reversal",
        )
    return draft(
        card,
        family,
        "late_fee_reversal" if allowed else "late_fee_reversal_refused",
        purpose="Courtesy late fee reversal when the earlier payments were on time.",
        notes=f"Needs {rules.on_time_months} on-time payments before the late one: "
        + ("met, reverse." if allowed else "another late payment, refuse."),
        scenario=scenario,
        plan=plan,
        documents=[P.FEE_REVERSAL, product_doc(card, "services")],
    )


def referral_link(ctx: Context, family: str, index: int) -> Draft:
    """Give the customer the referral link tool for their card."""
    card = pick(_cards(ctx, family), index)
    person = _customer(ctx)
    ctx.card(person, card)
    known, facts = ctx.identity(person)
    facts["user_id"] = person.user_id
    scenario = Scenario(
        reason=f"A friend of yours wants a {card.name} and you want to refer them.",
        known=f"{known} Your user id is {person.user_id}.",
        wishes="If the agent gives you a tool to create a referral link, run it with the "
        "details the agent gives.",
        opening=f"Hi, how can I refer a friend for the {card.name}?",
        facts=facts,
    )
    plan = verified_plan(person).give(T["get_referral_link"], user_id=person.user_id, card_name=card.name)
    return draft(
        card,
        family,
        "card_referral",
        purpose="Card referrals: give the customer the referral link tool.",
        notes="Give the link tool with the user id and the exact card name.",
        scenario=scenario,
        plan=plan,
        documents=[P.REFERRAL],
        user_tools=["call_discoverable_user_tool"],
    )


def fraud_transfer(ctx: Context, family: str, index: int) -> Draft:
    """Charges the customer did not make go to the fraud team (verified, then transferred)."""
    card = pick(_cards(ctx, family), index)
    person = _customer(ctx)
    account = ctx.card(person, card)
    merchant = ctx.merchant("Shopping")
    for offset in (0, 1):
        ctx.ledger.add_card_transaction(
            person, account, card, merchant=merchant, amount=ctx.amount(150, 900),
            when=date(2025, 11, 10 + offset), category="Shopping",
        )  # fmt: skip
    known, facts = ctx.identity(person)
    scenario = Scenario(
        reason=f"You see two charges from {merchant} on your {card.name} that you did not make.",
        known=known,
        wishes="You want the charges investigated. If the agent says a specialist team must "
        "handle it, accept the transfer.",
        opening=f"Hi, there are charges on my {card.name} that I never made.",
        facts=facts,
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
        family,
        "fraud_transfer",
        purpose="Unauthorized charges: verify, then transfer to the fraud team.",
        notes="No dispute for unauthorized charges: transfer (fraud_or_security_concern).",
        scenario=scenario,
        plan=plan,
        documents=[P.CARD_DISPUTE, P.SPECIALISTS],
        basis=("DB", "ACTION"),
    )


def third_party(ctx: Context, family: str, index: int) -> Draft:
    """A relative calls about the holder's card (transfer)."""
    return transfer_third_party(ctx, pick(_cards(ctx, family), index), index)


CARD_KINDS = (
    (apply_card, 4),
    (limit_increase, 5),
    (replace_card, 3),
    (close_card, 4),
    (pay_card, 3),
    (missing_points, 3),
    (dispute_purchase, 4),
    (annual_fee, 2),
    (late_fee, 2),
    (referral_link, 1),
    (fraud_transfer, 1),
    (third_party, 1),
)
"""(kind, tasks per family) of every card family."""
