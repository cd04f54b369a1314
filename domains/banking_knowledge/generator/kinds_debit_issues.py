"""Task kinds of debit card problems: recurring charges, alerts and blocks, billing disputes."""

from __future__ import annotations

from datetime import date

from tau_env.domains.banking_knowledge.generator.context import Context, november
from tau_env.domains.banking_knowledge.generator.drafts import Draft
from tau_env.domains.banking_knowledge.generator.kinds_common import (
    T,
    accounts_plan,
    brief,
    debit_cards_plan,
    draft,
    pick,
)
from tau_env.domains.banking_knowledge.generator.world import day

__all__ = ["DEBIT_ISSUE_KINDS"]


def recurring_block(ctx: Context, family: str, index: int) -> Draft:
    """Block recurring charges on a card, or allow them again after an earlier block."""
    product = pick(ctx.bank.checking_of(family), index)
    person = ctx.customer()
    account = ctx.deposit(person, product)
    allow = index % 3 == 2
    extra: dict[str, object] = {"recurring_blocked": True} if allow else {}
    card = ctx.debit_card(person, account, product, extra=extra)
    merchant = ctx.merchant("Streaming")
    if allow:
        reason = (
            "Some months ago you had recurring charges blocked on your debit card. You have "
            f"now subscribed to {merchant} and want subscriptions to work on the card again."
        )
        opening = "Hi, I need subscriptions to work on my debit card again."
    else:
        reason = (
            f"Subscriptions keep charging your debit card and you want no more recurring "
            f"charges on it, starting with {merchant}. You do not want refunds of past charges."
        )
        opening = "Hello, can you stop all subscription charges on my debit card?"
    scenario = brief(
        ctx,
        person,
        reason=reason,
        wishes=f"The card belongs to your {product.name}. Keep the card itself working for "
        "ordinary purchases.",
        opening=opening,
    )
    plan = debit_cards_plan(person, account).call(
        T["set_debit_card_recurring_block"], card_id=card["card_id"], block_recurring=not allow
    )
    return draft(
        product,
        "allow_recurring" if allow else "block_recurring",
        scenario,
        plan,
        f"block_recurring={not allow} on {card['card_id']}; no dispute.",
    )


def card_alert(ctx: Context, family: str, index: int) -> Draft:
    """Clear a velocity block or a fraud alert; a bank-raised alert goes to the fraud team."""
    product = pick(ctx.bank.checking_of(family), index)
    variant = index % 3  # 0: velocity block, 1: alert the agent may clear, 2: bank-raised alert
    person = ctx.customer()
    account = ctx.deposit(person, product)
    if variant == 0:
        extra: dict[str, object] = {"velocity_blocked": True}
    else:
        source = "bank_initiated" if variant == 2 else "merchant_report"
        extra = {"fraud_alert_active": True, "alert_source": source}
    card = ctx.debit_card(person, account, product, extra=extra)
    merchant = ctx.merchant("Shopping")
    for _ in range(3):
        ctx.ledger.add_bank_transaction(
            account,
            november(12),
            f"POS PURCHASE - {merchant.upper()}",
            -ctx.amount(20, 90),
            "debit",
        )
    scenario = brief(
        ctx,
        person,
        reason=f"Your debit card was declined this morning after several purchases at "
        f"{merchant} yesterday.",
        wishes=f"The card belongs to your {product.name}. The purchases at {merchant} were all "
        "yours; say so if asked. You want the card working again. If the agent says a "
        "specialist team must handle it, accept the transfer.",
        opening="Hi, my debit card keeps getting declined. Can you help?",
        accepts=["confirm", "transfer"],
        asks_for_transfer=True,
    )
    plan = debit_cards_plan(person, account)
    basis: tuple[str, ...] = ("DB",)
    if variant == 2:
        plan.agent(
            "transfer_to_human_agents",
            ["reason"],
            summary=f"Bank-initiated fraud alert on {card['card_id']}.",
            reason="fraud_or_security_concern",
        )
        basis = ("DB", "ACTION")
    else:
        reason = "velocity_clear" if variant == 0 else "customer_verified"
        plan.call(T["clear_debit_card_alert"], card_id=card["card_id"], reason=reason)
    kind = ("clear_velocity_block", "clear_fraud_alert", "fraud_alert_transfer")[variant]
    return draft(product, kind, scenario, plan, f"Card record: {extra}.", basis=basis)


_DEBIT_DISPUTES = (
    ("duplicate_charge", "POS PURCHASE", "pin_purchase", "you were charged twice"),
    ("incorrect_amount", "ONLINE PURCHASE", "online_purchase", "you were charged too much"),
    ("goods_services_not_received", "ONLINE PURCHASE", "online_purchase", "it never arrived"),
    (
        "recurring_charge_after_cancellation",
        "RECURRING PAYMENT",
        "recurring_payment",
        "you had cancelled the subscription",
    ),
    ("atm_cash_discrepancy", "ATM WITHDRAWAL", "atm_withdrawal", "the ATM gave you less cash"),
)


def debit_dispute(ctx: Context, family: str, index: int) -> Draft:
    """Open a debit card billing dispute with every field the procedure's table prescribes."""
    product = pick(ctx.bank.checking_of(family), index)
    rng = ctx.rng
    category, prefix, kind, story = _DEBIT_DISPUTES[(index + rng.randint(0, 4)) % 5]
    recent = index % 2 == 0
    person = ctx.customer()
    account = ctx.deposit(person, product, balance=ctx.amount(800, 5000))
    card = ctx.debit_card(person, account, product)
    when = november(rng.randint(1, 8)) if recent else date(2025, rng.choice((7, 8)), 20)
    place = "OTHER BANK" if category == "atm_cash_discrepancy" else ctx.merchant("Shopping").upper()
    amount = float(rng.choice((100, 200, 300))) if kind == "atm_withdrawal" else ctx.amount(25, 400)
    transaction = ctx.ledger.add_bank_transaction(
        account, when, f"{prefix} - {place}", -amount, "debit"
    )
    if category == "duplicate_charge":
        transaction = ctx.ledger.add_bank_transaction(
            account, when, f"{prefix} - {place}", -amount, "debit"
        )
    disputed = amount
    detail = ""
    if category == "incorrect_amount":
        agreed = round(amount - ctx.amount(5, min(60.0, amount / 2)), 2)
        disputed = round(amount - agreed, 2)
        detail = f" The agreed price was ${agreed:.2f}."
    elif category == "atm_cash_discrepancy":
        disputed = float(rng.choice((20, 40, 60)))
        detail = f" You received ${amount - disputed:.0f} instead of ${amount:.0f}."
    noticed = november(rng.randint(9, 13))
    contacted = category != "atm_cash_discrepancy" and rng.random() < 0.5
    merchant_line = (
        "Asked whether you contacted the merchant, you answer yes."
        if contacted
        else "Asked whether you contacted the merchant, you answer no."
    )
    scenario = brief(
        ctx,
        person,
        reason=f"You want to dispute the {day(when)} debit card transaction of ${amount:.2f} "
        f"({prefix.lower()} at {place.title()}) on your {product.name} because {story}.{detail}",
        wishes=f"You noticed it on {day(noticed)}. You still have your card and nobody else "
        f"knows your PIN. {merchant_line} You recognise the transaction: you did make it.",
        opening="Hi, I want to dispute a transaction on my debit card.",
        facts={"discovery_date": day(noticed), "contacted_merchant": "yes" if contacted else "no"},
    )
    fields = {
        "transaction_id": transaction,
        "account_id": account,
        "card_id": card["card_id"],
        "user_id": person.user_id,
        "dispute_category": category,
        "transaction_date": day(when),
        "discovery_date": day(noticed),
        "disputed_amount": disputed,
        "transaction_type": kind,
        "card_in_possession": True,
        "pin_compromised": "no",
        "contacted_merchant": contacted,
        "police_report_filed": False,
        "written_statement_provided": False,
        "provisional_credit_eligible": recent,
        "customer_max_liability_amount": 0.0,
        "card_action": "keep_active",
    }
    plan = (
        accounts_plan(person)
        .call(T["get_account_transactions"], account_id=account)
        .call(T["get_debit_cards"], account_id=account)
        .call(T["file_debit_card_dispute"], **fields)
    )
    return draft(
        product,
        "debit_dispute",
        scenario,
        plan,
        f"{category} ({kind}), disputed ${disputed:.2f}, provisional credit {recent}"
        + (" (second of two identical charges)" if category == "duplicate_charge" else "")
        + ".",
    )


DEBIT_ISSUE_KINDS = ((recurring_block, 3), (card_alert, 3), (debit_dispute, 3))
"""(kind, tasks per family) of debit card problems."""
