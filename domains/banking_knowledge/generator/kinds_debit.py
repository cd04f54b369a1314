"""Task kinds of a debit card's life: ordering, replacing, activating, pausing, PINs.

Each kind takes the context, the family and the kind's task number, and returns a draft; the
number chooses the product and the variant.
"""

from __future__ import annotations

from tau_env.domains.banking_knowledge.generator.context import Context
from tau_env.domains.banking_knowledge.generator.drafts import Draft, Scenario
from tau_env.domains.banking_knowledge.generator.kinds_common import (
    T,
    brief,
    debit_cards_plan,
    draft,
    pick,
)
from tau_env.domains.banking_knowledge.generator.products import (
    CARD_DESIGNS,
    DELIVERY_OPTIONS,
)

__all__ = ["DEBIT_KINDS"]


def order_debit_card(ctx: Context, family: str, index: int) -> Draft:
    """Order a first debit card with the customer's delivery option and design."""
    product = pick(ctx.bank.checking_of(family), index)
    rng = ctx.rng
    person = ctx.customer()
    account = ctx.deposit(person, product, balance=ctx.amount(300, 4000))
    if index % 2:
        ctx.debit_card(
            person, account, product, status="CLOSED", extra={"closure_reason": "damaged"}
        )
    option = DELIVERY_OPTIONS[index % 3]
    design = CARD_DESIGNS[(index // 3 + rng.randint(0, 2)) % 3]
    delivery_fee, design_fee = (
        product.debit.delivery_fees[option],
        product.debit.design_fees[design],
    )
    scenario = brief(
        ctx,
        person,
        reason=f"Your {product.name} has no working debit card and you would like one.",
        wishes=f"You want {option} delivery and the {design} design. Accept the fees the agent "
        "quotes for these choices and confirm the order. Ship it to the address the bank has "
        "on file.",
        opening="Hi, I'd like to order a debit card for my checking account.",
        facts={"delivery_option": option, "card_design": design},
    )
    plan = debit_cards_plan(person, account).call(
        T["order_debit_card"],
        account_id=account,
        user_id=person.user_id,
        delivery_option=option,
        delivery_fee=delivery_fee,
        card_design=design,
        design_fee=design_fee,
        shipping_address=person.address,
    )
    return draft(
        product,
        "order_debit_card",
        scenario,
        plan,
        f"{option} costs ${delivery_fee:.2f} and {design} ${design_fee:.2f} on "
        f"{product.name}; no active card on the account.",
    )


def replace_lost_debit_card(ctx: Context, family: str, index: int) -> Draft:
    """Cancel a lost or stolen card, then order its replacement with the replacement fee."""
    product = pick(ctx.bank.checking_of(family), index)
    person = ctx.customer()
    account = ctx.deposit(person, product, balance=ctx.amount(400, 4000))
    card = ctx.debit_card(person, account, product)
    reason = ("lost", "stolen")[index % 2]
    option = DELIVERY_OPTIONS[(index // 2) % 3]
    design = "CLASSIC" if index % 3 else ctx.rng.choice(CARD_DESIGNS)
    debit = product.debit
    story = (
        "You lost your debit card on a train yesterday and will not get it back."
        if reason == "lost"
        else "Your wallet with your debit card was stolen this morning."
    )
    scenario = brief(
        ctx,
        person,
        reason=f"{story} You want the card cancelled and a new one sent.",
        wishes=f"The card is for your {product.name}. For the new card you want {option} "
        f"delivery and the {design} design; accept the fees the agent quotes and confirm.",
        opening=f"Hi, my debit card was {reason} and I need a new one.",
        facts={"delivery_option": option, "card_design": design},
    )
    order = {
        "account_id": account,
        "user_id": person.user_id,
        "delivery_option": option,
        "delivery_fee": debit.delivery_fees[option],
        "card_design": design,
        "design_fee": debit.design_fees[design],
        "shipping_address": person.address,
    }
    if debit.replacement_fee:
        order["excess_replacement_fee"] = debit.replacement_fee
    plan = (
        debit_cards_plan(person, account)
        .call(T["close_debit_card"], card_id=card["card_id"], reason=reason)
        .call(T["order_debit_card"], **order)
    )
    return draft(
        product,
        "replace_lost_debit_card",
        scenario,
        plan,
        f"Cancel {card['card_id']} ({reason}); order {option}/{design} with replacement "
        f"fee ${debit.replacement_fee:.2f}.",
    )


_ACTIVATION = (
    ("new_account", "activate_new_debit_card", "This is the first card of a new account."),
    ("first_card", "activate_new_debit_card", "You never had a card on this account before."),
    ("lost", "activate_replacement_debit_card", "It replaces a card you lost in October."),
    ("stolen", "activate_replacement_debit_card", "It replaces a card that was stolen."),
    ("expired", "activate_reissued_debit_card", "Your old card expires at the end of the month."),
    ("damaged", "activate_reissued_debit_card", "Your old card's chip stopped working."),
)


def activate_debit_card(ctx: Context, family: str, index: int) -> Draft:
    """Activate a pending card with the tool its issue reason calls for."""
    product = pick(ctx.bank.checking_of(family), index)
    reason, behaviour, story = _ACTIVATION[(index + ctx.rng.randint(0, 5)) % len(_ACTIVATION)]
    person = ctx.customer()
    account = ctx.deposit(person, product)
    if reason in ("lost", "stolen"):
        ctx.debit_card(person, account, product, status="CLOSED", extra={"closure_reason": reason})
    elif reason in ("expired", "damaged"):
        ctx.debit_card(person, account, product, issued_days_ago=1450)
    card = ctx.debit_card(
        person, account, product, status="PENDING", reason=reason, issued_days_ago=9
    )
    pin = ctx.pin()
    month, _, year = str(card["expiration_date"]).split("/")
    expiry = f"{month}/{year[2:]}"
    known, facts = ctx.identity(person)
    facts |= {
        "last_4_digits": str(card["last_4_digits"]),
        "expiration_date": expiry,
        "cvv": str(card["cvv"]),
        "pin": pin,
    }
    scenario = Scenario(
        reason=f"A new debit card for your {product.name} arrived in the mail and you want to "
        f"activate it. {story}",
        known=f"{known} The card's last four digits are {card['last_4_digits']}, it expires "
        f"{expiry} and its CVV is {card['cvv']}.",
        wishes=f"You want the PIN {pin}. Give the card details when the agent asks for them.",
        opening="Hello, I received my new debit card and need to activate it.",
        facts=facts,
    )
    plan = debit_cards_plan(person, account).call(
        T[behaviour],
        card_id=card["card_id"],
        last_4_digits=card["last_4_digits"],
        expiration_date=expiry,
        cvv=card["cvv"],
        pin=pin,
    )
    return draft(
        product, "activate_debit_card", scenario, plan, f"issue_reason {reason}: {T[behaviour]}."
    )


def pause_or_resume_card(ctx: Context, family: str, index: int) -> Draft:
    """Pause a misplaced card, or resume a paused one that was found."""
    product = pick(ctx.bank.checking_of(family), index)
    person = ctx.customer()
    account = ctx.deposit(person, product)
    resume = index % 3 == 2
    if resume:
        card = ctx.debit_card(
            person, account, product, status="FROZEN", extra={"frozen_date": "11/10/2025"}
        )
        reason = "Last week you had your debit card paused because you could not find it. You "
        reason += "found it in your coat and want to use it again."
        opening = "Hi, I found my debit card, so I'd like it working again."
        behaviour, kind = "unfreeze_debit_card", "resume_debit_card"
    else:
        card = ctx.debit_card(person, account, product)
        reason = "You cannot find your debit card; it is probably somewhere at home. You want "
        reason += "it blocked until you find it, without cancelling it."
        opening = "Hello, I've misplaced my debit card at home. Can you block it for now?"
        behaviour, kind = "freeze_debit_card", "pause_debit_card"
    scenario = brief(
        ctx,
        person,
        reason=reason,
        wishes=f"The card belongs to your {product.name}. You do not want a new card.",
        opening=opening,
    )
    plan = debit_cards_plan(person, account).call(T[behaviour], card_id=card["card_id"])
    return draft(
        product, kind, scenario, plan, f"{T[behaviour]} on {card['card_id']}; no cancellation."
    )


def reset_pin(ctx: Context, family: str, index: int) -> Draft:
    """Set a new PIN for a customer who forgot theirs."""
    product = pick(ctx.bank.checking_of(family), index)
    person = ctx.customer()
    account = ctx.deposit(person, product)
    card = ctx.debit_card(person, account, product)
    pin = ctx.pin()
    known, facts = ctx.identity(person)
    facts |= {"last_4_digits": str(card["last_4_digits"]), "new_pin": pin}
    scenario = Scenario(
        reason="You forgot the PIN of your debit card and want a new one.",
        known=f"{known} Your card's last four digits are {card['last_4_digits']}.",
        wishes=f"The card belongs to your {product.name}. You want the new PIN {pin}.",
        opening="Hi, I forgot my debit card PIN. Can I set a new one?",
        facts=facts,
    )
    plan = debit_cards_plan(person, account).call(
        T["reset_debit_card_pin"],
        card_id=card["card_id"],
        last_4_digits=card["last_4_digits"],
        new_pin=pin,
    )
    return draft(
        product,
        "reset_pin",
        scenario,
        plan,
        f"Reset tool (not change) on {card['card_id']} with PIN {pin}.",
    )


DEBIT_KINDS = (
    (order_debit_card, 3),
    (replace_lost_debit_card, 3),
    (activate_debit_card, 3),
    (pause_or_resume_card, 3),
    (reset_pin, 2),
)
"""(kind, tasks per family) of the checking families' debit card tasks."""
