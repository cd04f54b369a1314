"""Product documents: what each Larkspur product costs, allows and requires.

Every number a task's gold plan depends on (fees, limits, allowances, rates, thresholds) is
stated in one of these documents, in words an agent can act on; `product_doc` gives their ids.
"""

from __future__ import annotations

from tau_env.domains.banking_knowledge.generator.library import Library, product_doc
from tau_env.domains.banking_knowledge.generator.products import (
    BANK_NAME,
    Bank,
    CardOffer,
    CheckingProduct,
    SavingsProduct,
)

__all__ = ["FAMILY_LABELS", "family_doc", "write_product_documents"]

FAMILY_LABELS = {
    "everyday_checking": "Everyday Checking",
    "premier_checking": "Premier Checking",
    "savings": "Savings",
    "cashback_cards": "Cash Back cards",
    "travel_cards": "Travel cards",
    "business_cards": "Business cards",
    "starter_cards": "Starter cards",
}


def family_doc(family: str) -> str:
    """The id of a family's comparison document."""
    return f"doc_family_{family}_comparison"


def _dollars(value: float) -> str:
    return f"${value:,.0f}" if float(value).is_integer() else f"${value:,.2f}"


def _fee(value: float) -> str:
    return "free" if value == 0 else _dollars(value)


def _referral(product: CheckingProduct | SavingsProduct, offer: str) -> str:
    """The overview's referral sentence: `offer` (``{name}``, ``{bonus}``) if a bonus is paid."""
    if not product.referral_bonus:
        return f"{product.name} is not part of the referral program."
    return offer.format(name=product.name, bonus=_dollars(product.referral_bonus))


def _overview(library: Library, product: CheckingProduct | SavingsProduct, content: str) -> None:
    """Add a deposit product's overview document (``<name>: account overview``)."""
    library.add(product_doc(product, "overview"), f"{product.name}: account overview", content)


def _checking(library: Library, product: CheckingProduct) -> None:
    name, debit = product.name, product.debit
    family = FAMILY_LABELS[product.family]
    fee = (
        "No monthly maintenance fee."
        if product.monthly_fee == 0
        else f"{_dollars(product.monthly_fee)} per month, waived for any month in which the "
        f"daily balance never falls below {_dollars(product.waiver_balance)}."
    )
    opening = (
        "Anyone aged 18 or over with a US address can open it; no minimum deposit."
        if product.opening_balance == 0
        else "Available to existing customers whose open Larkspur deposit accounts (checking "
        f"and savings) hold at least {_dollars(product.opening_balance)} combined on the day "
        "of opening."
    )
    referral = _referral(
        product,
        "Customers who refer a friend who opens a {name} receive a {bonus} bonus.",
    )
    _overview(
        library,
        product,
        f"""
# {name}

{name} is the {BANK_NAME} checking account for {product.audience}. It belongs to our
{family} range.

## Monthly fee
{fee}

## Opening an account
{opening}

## Referrals
{referral}

See "{name} fee schedule" for every fee and "{name}: debit card fees and limits" for the card.
""",
    )
    refunds = (
        f"Up to {product.atm_refunds} of these Larkspur fees are refunded per statement month, "
        "on request."
        if product.atm_refunds
        else "Not refunded: this account has no ATM fee refunds."
    )
    library.add(
        product_doc(product, "fees"),
        f"{name} fee schedule",
        f"""
# {name} fee schedule

| Service | Fee |
|---|---|
| Monthly maintenance | {"none" if product.monthly_fee == 0 else _dollars(product.monthly_fee)} |
| Larkspur fee for each withdrawal at another bank's ATM | {_dollars(product.atm_fee)} |
| Refund of that ATM fee | {refunds} |
| Overdraft item | $34 (at most three per day) |
| Stop payment | $30 |
| Outgoing domestic wire | $25 |
| Paper statement | $2 per month (electronic statements are free) |

The owner of the other ATM may add a surcharge of its own; Larkspur never refunds those.
""",
    )
    increases = (
        "Temporary increases are not available for this account."
        if debit.temp_cap_percent == 0
        else f"For 24 hours a limit may be raised to at most {debit.temp_cap_percent}% of the "
        f"card's standard limit, rounded down to whole dollars (with the standard limits above: "
        f"ATM {_dollars(debit.temp_cap(debit.atm_limit))}, purchases "
        f"{_dollars(debit.temp_cap(debit.purchase_limit))}). Only accounts opened 60 or more "
        "days ago qualify."
    )
    library.add(
        product_doc(product, "debit_card"),
        f"{name}: debit card fees and limits",
        f"""
# {name}: debit card fees and limits

Every {name} can have one active debit card.

## Delivery
| Option | Time | Fee |
|---|---|---|
| STANDARD | 7-10 business days | {_fee(debit.delivery_fees["STANDARD"])} |
| EXPEDITED | 3-5 business days | {_fee(debit.delivery_fees["EXPEDITED"])} |
| RUSH | 1-2 business days | {_fee(debit.delivery_fees["RUSH"])} |

## Design
| Design | Fee |
|---|---|
| CLASSIC | {_fee(debit.design_fees["CLASSIC"])} |
| PREMIUM | {_fee(debit.design_fees["PREMIUM"])} |
| CUSTOM (your own photo) | {_fee(debit.design_fees["CUSTOM"])} |

## Replacing a lost or stolen card
Replacement fee: {_fee(debit.replacement_fee)}, on top of the delivery and design fees.

## Daily limits
- ATM withdrawals: {_dollars(debit.atm_limit)} per day
- Purchases: {_dollars(debit.purchase_limit)} per day

{increases}
""",
    )
    library.add(
        product_doc(product, "deposits"),
        f"Depositing checks into {name}",
        f"""
# Depositing checks into {name}

Photo deposits in the {BANK_NAME} app accept checks of up to
{_dollars(product.mobile_deposit_limit)} each into a {name}. A larger check must be deposited
at a branch or at a Larkspur ATM. Funds from photo deposits are usually available the next
business day.
""",
    )


def _savings(library: Library, product: SavingsProduct) -> None:
    name = product.name
    minimum = (
        "Interest is paid on any balance."
        if product.min_balance == 0
        else f"Interest is paid only for months that end with a balance of at least "
        f"{_dollars(product.min_balance)}."
    )
    referral = _referral(
        product,
        "Referring a friend who opens a {name} earns a {bonus} bonus.",
    )
    _overview(
        library,
        product,
        f"""
# {name}

{name} is a {BANK_NAME} savings account for {product.audience}.

- Annual percentage yield (APY): {product.apy:.2f}%
- {minimum}
- No monthly fee.
- Opening: requires an open {BANK_NAME} personal checking account that is at least 14 days old.
- {referral}
""",
    )
    library.add(
        product_doc(product, "withdrawals"),
        f"{name}: withdrawal allowance and fees",
        f"""
# {name}: withdrawal allowance and fees

A {name} allows {product.free_withdrawals} withdrawals per calendar month without a fee.
Transfers out of the account, ATM withdrawals and teller withdrawals all count. Each
withdrawal beyond the allowance in the same calendar month is charged an excess withdrawal
fee of {_dollars(product.excess_fee)}, shown in the activity as "EXCESS WITHDRAWAL FEE".
Deposits never count.
""",
    )
    library.add(
        product_doc(product, "interest"),
        f"{name}: how interest is paid",
        f"""
# {name}: how interest is paid

Interest is credited once a month, on the first day of the following month. The amount is
the month-end balance multiplied by the APY ({product.apy:.2f}%) and divided by 12, rounded to
the nearest cent. The activity line reads "MONTHLY INTEREST ON BALANCE $<balance> AT <rate>%
APY", showing the rate that was applied. {minimum}
""",
    )
    library.add(
        product_doc(product, "deposits"),
        f"Depositing checks into {name}",
        f"""
# Depositing checks into {name}

Photo deposits accept checks of up to {_dollars(product.mobile_deposit_limit)} each into a
{name}. Larger checks go through a branch or a Larkspur ATM.
""",
    )


def _rates_table(card: CardOffer) -> str:
    lines = ["| Purchase category | Points per dollar |", "|---|---|"]
    for category, rate in card.rates.items():
        if category != "default":
            lines.append(f"| {category} | {rate:g} |")
    lines.append(f"| Everything else | {card.rates['default']:g} |")
    return "\n".join(lines)


def _card(library: Library, card: CardOffer) -> None:
    name = card.name
    if card.annual_fee == 0:
        fee = "No annual fee."
    elif card.first_year_free:
        fee = (
            f"{_dollars(card.annual_fee)} per year, waived for the first 12 months: the fee is "
            "first due on the account's first anniversary."
        )
    else:
        fee = f"{_dollars(card.annual_fee)} per year, charged from the first month."
    income = (
        "No minimum income (students and first-time borrowers welcome)."
        if card.min_income == 0
        else f"Annual income of at least {_dollars(card.min_income)}."
    )
    library.add(
        product_doc(card, "overview"),
        f"{name}: card overview",
        f"""
# {name}

The {name} is the {BANK_NAME} credit card for {card.audience}.

- Annual fee: {fee}
- Who can apply: {income}
- Foreign transaction fee: {card.foreign_fee_percent:g}%
- Starting credit limits: {", ".join(_dollars(v) for v in card.starting_limits)}, set at approval.
""",
    )
    library.add(
        product_doc(card, "rewards"),
        f"{name}: rewards",
        f"""
# {name}: rewards

Every purchase earns points by category:

{_rates_table(card)}

Points for a purchase are the amount in dollars times the rate, rounded down to a whole point
(a $40.50 purchase at 3 points per dollar earns 121 points). Fees, payments and credits earn
nothing.
""",
    )
    limits = card.limits
    library.add(
        product_doc(card, "credit_limits"),
        f"{name}: credit limit increases",
        f"""
# {name}: credit limit increases

An agent may raise the limit of a {name} during a call when all of these hold:

1. The account has been open for at least {limits.min_age_months} months.
2. Its last {limits.on_time_months} payments were all on time.
3. The account is in good standing.

The new limit may be at most {limits.max_increase_percent}% above the current limit, rounded
down to a multiple of $100, and never above {_dollars(limits.phone_cap)}. Requests for a limit
above {_dollars(limits.phone_cap)} are referred to the credit team.
""",
    )
    shipping = (
        "Replacement cards always ship expedited (2-3 business days) at no cost."
        if card.expedited_free
        else "Replacement cards ship by standard mail (7-10 business days); expedited shipping "
        "is not available for this card."
    )
    if card.annual_fee == 0 or card.retention_months is None:
        retention = "No annual fee waiver is offered to customers who want to close the card."
    else:
        retention = (
            "Customers who want to close the card because of the annual fee may be offered a "
            f"12-month annual fee waiver if the account is at least {card.retention_months} "
            "months old."
        )
    library.add(
        product_doc(card, "services"),
        f"{name}: replacement, closing and fees",
        f"""
# {name}: replacement, closing and fees

## Replacement cards
{shipping}

## Closing the card
{retention}

## Late payments
A payment received after its due date is charged a late fee of {_dollars(card.late_fee)}.
The fee may be reversed once in any 12 months when the {limits.on_time_months} payments
before the late one were all on time.
""",
    )


def _comparison(library: Library, family: str, products: list[str], rows: list[str]) -> None:
    label = FAMILY_LABELS[family]
    library.add(
        family_doc(family),
        f"Comparing {BANK_NAME} {label}",
        f"""
# Comparing {BANK_NAME} {label}

{len(products)} products: {", ".join(products)}.

{chr(10).join(rows)}

Each product has its own documents with the full terms.
""",
    )


def write_product_documents(library: Library, bank: Bank) -> None:
    """Every product's documents, and one comparison per family."""
    for product in bank.checking:
        _checking(library, product)
    for savings in bank.savings:
        _savings(library, savings)
    for card in bank.cards:
        _card(library, card)
    for family in ("everyday_checking", "premier_checking"):
        products = bank.checking_of(family)
        rows = [
            f"- {p.name}: monthly fee {_dollars(p.monthly_fee)}, {p.atm_refunds} ATM fee "
            f"refunds a month, daily ATM limit {_dollars(p.debit.atm_limit)}."
            for p in products
        ]
        _comparison(library, family, [p.name for p in products], rows)
    rows = [
        f"- {s.name}: {s.apy:.2f}% APY, {s.free_withdrawals} free withdrawals a month."
        for s in bank.savings
    ]
    _comparison(library, "savings", [s.name for s in bank.savings], rows)
    for family in ("cashback_cards", "travel_cards", "business_cards", "starter_cards"):
        cards = bank.cards_of(family)
        rows = []
        for c in cards:
            best = max((r, k) for k, r in c.rates.items())
            income = (
                "no minimum income"
                if c.min_income == 0
                else f"income from {_dollars(c.min_income)}"
            )
            rows.append(
                f"- {c.name}: annual fee {_dollars(c.annual_fee)}, {income}, up to "
                f"{best[0]:g} points per dollar."
            )
        _comparison(library, family, [c.name for c in cards], rows)
