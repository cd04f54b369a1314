"""More documents a real knowledge base has: product FAQs, branches, retired products.

The FAQs restate a product's own numbers (drawn from the same attributes, so they always
agree with its main documents) in question-and-answer form; branch pages and retired
products share vocabulary with the documents tasks need (ATM, fees, limits) and so make a
search pick its documents carefully. No task needs any of them.
"""

from __future__ import annotations

import random

from tau_env.domains.banking_knowledge.generator.library import Library, product_doc
from tau_env.domains.banking_knowledge.generator.people import WORDS
from tau_env.domains.banking_knowledge.generator.products import (
    BANK_NAME,
    Bank,
    CardOffer,
    CheckingProduct,
    SavingsProduct,
)

__all__ = ["write_extra_documents"]


def _money(value: float) -> str:
    return f"${value:,.0f}" if float(value).is_integer() else f"${value:,.2f}"


def _checking_faq(product: CheckingProduct) -> str:
    debit = product.debit
    fee = (
        "No."
        if product.monthly_fee == 0
        else f"{_money(product.monthly_fee)} a month, waived when the daily balance stays at "
        f"{_money(product.waiver_balance)} or more."
    )
    refunds = (
        f"Yes: up to {product.atm_refunds} of Larkspur's own out-of-network fees each statement "
        "month, when you ask."
        if product.atm_refunds
        else "No. Use Larkspur and partner ATMs to avoid the fee."
    )
    premium = debit.design_fees["PREMIUM"]
    metal = "no charge" if premium == 0 else _money(premium)
    return f"""
**Is there a monthly fee?** {fee}

**Do you refund ATM fees?** {refunds}

**How much cash can I take out per day?** {_money(debit.atm_limit)} with the debit card.

**Can I get a metal card?** Yes, the PREMIUM design, for {metal}.

**Can I deposit a check with my phone?** Yes, checks up to {_money(product.mobile_deposit_limit)}.
"""


def _savings_faq(product: SavingsProduct) -> str:
    minimum = (
        "No."
        if product.min_balance == 0
        else f"Interest is paid for months ending at {_money(product.min_balance)} or more."
    )
    return f"""
**What rate does it pay?** {product.apy:.2f}% APY, paid monthly.

**How often can I withdraw?** {product.free_withdrawals} times a calendar month without a fee;
after that {_money(product.excess_fee)} per withdrawal.

**Is there a minimum balance?** {minimum}
"""


def _card_faq(card: CardOffer) -> str:
    bonuses = {category: rate for category, rate in card.rates.items() if category != "default"}
    if bonuses:
        top = max(bonuses.values())
        best = " and ".join(c for c, rate in bonuses.items() if rate == top)
        earns = f"{best} purchases earn the most: {top:g} points per dollar."
    else:
        earns = f"Every purchase earns {card.rates['default']:g} points per dollar."
    if card.annual_fee == 0:
        cost = "Nothing a year."
    else:
        free = ", first year free." if card.first_year_free else "."
        cost = f"{_money(card.annual_fee)} a year{free}"
    return f"""
**What does it cost?** {cost}

**What earns the most points?** {earns}

**What if I pay late?** A late fee of {_money(card.late_fee)} applies.

**Can I use it abroad?** Yes; the foreign transaction fee is {card.foreign_fee_percent:g}%.
"""


_RETIRED = (
    ("Kestrel Checking", "checking", "retired in 2022; accounts were moved to Finch Checking"),
    ("Magpie Savings", "savings", "closed to new savers in 2020; existing accounts keep it"),
    ("Pewter Cash Card", "card", "replaced by the Nickel Cash Card in 2023"),
    ("Voyager Travel Card", "card", "no longer issued; holders were offered the Compass card"),
)


def write_extra_documents(library: Library, bank: Bank, rng: random.Random) -> None:
    """Product FAQs, one page per branch, and pages of retired products."""
    for product in bank.checking:
        library.add(
            product_doc(product, "faq"),
            f"{product.name}: questions customers ask",
            f"# {product.name}: questions customers ask\n{_checking_faq(product)}",
        )
    for savings in bank.savings:
        library.add(
            product_doc(savings, "faq"),
            f"{savings.name}: questions customers ask",
            f"# {savings.name}: questions customers ask\n{_savings_faq(savings)}",
        )
    for card in bank.cards:
        library.add(
            product_doc(card, "faq"),
            f"{card.name}: questions customers ask",
            f"# {card.name}: questions customers ask\n{_card_faq(card)}",
        )
    for city, state, _ in WORDS.cities:
        street = rng.choice(WORDS.streets)
        saturday = rng.choice(("9:00 to 13:00", "10:00 to 14:00", "closed"))
        services = rng.sample(
            ("safe deposit boxes", "notary", "coin counting", "foreign currency", "drive-up ATM"),
            2,
        )
        slug = city.lower().replace(" ", "_")
        library.add(
            f"doc_branch_{slug}",
            f"{BANK_NAME} {city} branch",
            f"""
# {BANK_NAME} {city} branch

Address: {rng.randint(10, 900)} {street}, {city}, {state}.
Open Monday to Friday 9:00 to 17:00; Saturday {saturday}.
Services: {services[0]}, {services[1]}, a Larkspur ATM that accepts deposits.
Photo check deposits over the app limit can be made at the counter.
""",
        )
    for name, kind, story in _RETIRED:
        slug = name.split()[0].lower()
        library.add(
            f"doc_retired_{slug}",
            f"{name} (retired product)",
            f"""
# {name} (retired product)

The {name} was a {BANK_NAME} {kind} product; it was {story}. Its old terms (monthly fees,
ATM fee refunds, reward rates, withdrawal allowances) no longer apply to any open account:
always use the terms of the product an account holds today.
""",
        )
