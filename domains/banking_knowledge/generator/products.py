"""The products of the built-in bank, Larkspur Bank: families, names and drawn attributes.

Every product belongs to a family (the unit of the train/test split). Names and the shape of
each family are fixed; the numbers (fees, limits, rates, thresholds) are drawn from the seed
within ranges that keep every task kind of the family possible (a family that has refusal
tasks keeps one product that refuses, for example). The credit cards are data (`cards.toml`,
next to this module); checking and savings products are short tables here.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tau_env.data_files import builtin_toml

__all__ = [
    "BANK_NAME",
    "CATEGORIES",
    "FAMILIES",
    "TEST_FAMILIES",
    "Bank",
    "CardOffer",
    "CheckingProduct",
    "DebitTerms",
    "LimitTerms",
    "SavingsProduct",
    "draw_bank",
]

BANK_NAME = "Larkspur Bank"
"""The built-in bank (invented)."""

FAMILIES: tuple[str, ...] = (
    "everyday_checking",
    "premier_checking",
    "savings",
    "cashback_cards",
    "travel_cards",
    "business_cards",
    "starter_cards",
    "profile",
)
"""Product families, in task order; ``profile`` holds tasks about the customer record itself."""

TEST_FAMILIES: tuple[str, ...] = ("premier_checking", "travel_cards")
"""Families whose tasks form the test split (none of their tasks is in train)."""

CATEGORIES: tuple[str, ...] = (
    "Groceries",
    "Dining",
    "Gas",
    "Travel",
    "Transit",
    "Streaming",
    "Shopping",
    "Utilities",
    "Office Supplies",
    "Software",
    "Advertising",
    "Shipping",
)
"""Purchase categories of card transactions (reward rates are per category)."""

DELIVERY_OPTIONS = ("STANDARD", "EXPEDITED", "RUSH")
CARD_DESIGNS = ("CLASSIC", "PREMIUM", "CUSTOM")


@dataclass(frozen=True)
class DebitTerms:
    """What a checking product's debit card costs and allows.

    Attributes:
        delivery_fees: Fee per delivery option (STANDARD, EXPEDITED, RUSH).
        design_fees: Fee per card design (CLASSIC, PREMIUM, CUSTOM).
        replacement_fee: Charged when a lost or stolen card is replaced (0: free).
        atm_limit: Standard daily ATM withdrawal limit, dollars.
        purchase_limit: Standard daily purchase limit, dollars.
        temp_cap_percent: Highest temporary limit as a percentage of the standard one
            (0: no temporary increases; never above 150).
    """

    delivery_fees: Mapping[str, float]
    design_fees: Mapping[str, float]
    replacement_fee: float
    atm_limit: int
    purchase_limit: int
    temp_cap_percent: int

    def temp_cap(self, limit: int) -> int:
        """The highest temporary limit for a standard `limit` (whole dollars, rounded down)."""
        return limit * self.temp_cap_percent // 100


@dataclass(frozen=True)
class CheckingProduct:
    """A personal checking account.

    Attributes:
        name: The product name (an account's ``level``).
        family: Its family.
        slug: Short lower-case word used in ids.
        audience: Who it is for, one sentence.
        monthly_fee: Monthly maintenance fee.
        waiver_balance: Daily balance that waives the monthly fee.
        atm_fee: Fee Larkspur charges per withdrawal at another bank's ATM.
        atm_refunds: Such fees refunded per statement month on request (0: none).
        debit: Debit card terms.
        mobile_deposit_limit: Largest check accepted by photo deposit.
        referral_bonus: Bonus for a referral (None: not in the referral program).
        opening_balance: Combined balance in existing Larkspur accounts needed to open one
            (0: anyone may open it).
    """

    name: str
    family: str
    slug: str
    audience: str
    monthly_fee: float
    waiver_balance: int
    atm_fee: float
    atm_refunds: int
    debit: DebitTerms
    mobile_deposit_limit: int
    referral_bonus: int | None
    opening_balance: int


@dataclass(frozen=True)
class SavingsProduct:
    """A savings account (class ``saving``).

    Attributes:
        name: Product name.
        family: Its family.
        slug: Short word used in ids.
        audience: Who it is for.
        apy: Annual percentage yield, percent.
        min_balance: Balance to earn the APY (below it, none is paid).
        free_withdrawals: Withdrawals per calendar month without a fee.
        excess_fee: Fee per withdrawal beyond the free ones.
        mobile_deposit_limit: Largest check accepted by photo deposit.
        referral_bonus: Referral bonus, or None.
    """

    name: str
    family: str
    slug: str
    audience: str
    apy: float
    min_balance: int
    free_withdrawals: int
    excess_fee: float
    mobile_deposit_limit: int
    referral_bonus: int | None


@dataclass(frozen=True)
class LimitTerms:
    """When and by how much a card's credit limit may be raised on the phone.

    Attributes:
        min_age_months: The card account must be at least this old.
        on_time_months: The last this-many payments must all be on time.
        max_increase_percent: A new limit may exceed the current one by at most this.
        phone_cap: Highest limit an agent may grant; larger requests go to the credit team.
    """

    min_age_months: int
    on_time_months: int
    max_increase_percent: int
    phone_cap: int

    def highest(self, current: int) -> int:
        """The highest new limit for a `current` one (rounded down to $100, capped)."""
        raised = current * (100 + self.max_increase_percent) // 100
        return min(raised // 100 * 100, self.phone_cap)


@dataclass(frozen=True)
class CardOffer:
    """A credit card product.

    Attributes:
        name: Product name (``card_type`` of its accounts and applications).
        family: Its family.
        slug: Short word used in ids.
        audience: Who it is for.
        annual_fee: Yearly fee (0: none).
        first_year_free: The annual fee is waived for the first 12 months.
        min_income: Lowest annual income accepted at application.
        rates: Points per dollar by category; ``default`` for the rest.
        late_fee: Fee for a late payment.
        limits: Credit limit increase terms.
        expedited_free: Replacement cards may ship expedited at no cost.
        retention_months: Accounts at least this old may be offered a 12-month annual fee
            waiver when the customer wants to close over the fee (None: no such offer).
        foreign_fee_percent: Foreign transaction fee (for the documents only).
        starting_limits: Credit limits new accounts get (drawn per account).
    """

    name: str
    family: str
    slug: str
    audience: str
    annual_fee: int
    first_year_free: bool
    min_income: int
    rates: Mapping[str, float]
    late_fee: int
    limits: LimitTerms
    expedited_free: bool
    retention_months: int | None
    foreign_fee_percent: float
    starting_limits: tuple[int, ...]

    def rate(self, category: str) -> float:
        """Points per dollar for a purchase of `category`."""
        return self.rates.get(category, self.rates["default"])


@dataclass(frozen=True)
class Bank:
    """Every product of the bank, by family."""

    checking: tuple[CheckingProduct, ...]
    savings: tuple[SavingsProduct, ...]
    cards: tuple[CardOffer, ...]

    def checking_of(self, family: str) -> tuple[CheckingProduct, ...]:
        """The checking products of one family."""
        return tuple(p for p in self.checking if p.family == family)

    def cards_of(self, family: str) -> tuple[CardOffer, ...]:
        """The card products of one family."""
        return tuple(c for c in self.cards if c.family == family)

    def product(self, name: str) -> CheckingProduct | SavingsProduct | CardOffer:
        """Any product by name."""
        products: tuple[CheckingProduct | SavingsProduct | CardOffer, ...] = (
            *self.checking,
            *self.savings,
            *self.cards,
        )
        for product in products:
            if product.name == name:
                return product
        raise KeyError(name)


def _money(rng: random.Random, low: float, high: float, step: float = 0.5) -> float:
    steps = round((high - low) / step)
    return round(low + step * rng.randint(0, steps), 2)


def _debit(rng: random.Random, tier: int) -> DebitTerms:
    """Debit terms of a tier (0 = basic ... 4 = top premier); higher tiers cost less."""
    expedited = 0.0 if tier >= 3 else _money(rng, 9, 15, 1)
    rush = _money(rng, 10, 16, 1) if tier >= 3 else _money(rng, 20, 30, 1)
    premium = 0.0 if tier >= 3 else _money(rng, 5, 10, 1)
    custom = _money(rng, 5, 9, 1) if tier >= 3 else _money(rng, 12, 20, 1)
    caps = (0, 120, 130, 140, 150)
    atm = (300, 500, 700, 1000, 1500)[tier] + 100 * rng.randint(0, 2)
    purchase = (1500, 2500, 3500, 5000, 8000)[tier] + 500 * rng.randint(0, 2)
    return DebitTerms(
        delivery_fees={"STANDARD": 0.0, "EXPEDITED": expedited, "RUSH": rush},
        design_fees={"CLASSIC": 0.0, "PREMIUM": premium, "CUSTOM": custom},
        replacement_fee=0.0 if tier >= 2 else _money(rng, 5, 10, 1),
        atm_limit=atm,
        purchase_limit=purchase,
        temp_cap_percent=caps[tier],
    )


_CHECKING = (
    # name, family, slug, tier, audience
    ("Sparrow Checking", "everyday_checking", "sparrow", 0, "customers who want a simple account"),
    ("Finch Checking", "everyday_checking", "finch", 1, "everyday banking with a few perks"),
    ("Wren Checking", "everyday_checking", "wren", 2, "customers who use ATMs often"),
    ("Heron Premier Checking", "premier_checking", "heron", 3, "customers with larger balances"),
    ("Osprey Premier Checking", "premier_checking", "osprey", 4, "our most complete account"),
)


def _checking(rng: random.Random) -> tuple[CheckingProduct, ...]:
    products = []
    for name, family, slug, tier, audience in _CHECKING:
        premier = family == "premier_checking"
        products.append(
            CheckingProduct(
                name=name,
                family=family,
                slug=slug,
                audience=audience,
                monthly_fee=(0.0, 6.0, 10.0, 18.0, 25.0)[tier] + (rng.randint(0, 2) if tier else 0),
                waiver_balance=(0, 500, 1500, 10000, 25000)[tier] + 500 * rng.randint(0, 2),
                atm_fee=_money(rng, 2.5, 3.5, 0.25),
                atm_refunds=(0, rng.randint(1, 2), rng.randint(2, 3), rng.randint(3, 4), 5)[tier],
                debit=_debit(rng, tier),
                mobile_deposit_limit=(1000, 2500, 5000, 10000, 25000)[tier],
                referral_bonus=None if tier == 0 else (25, 50, 75, 100, 150)[tier],
                opening_balance=(10000, 25000)[tier - 3] + 5000 * rng.randint(0, 1)
                if premier
                else 0,
            )
        )
    return tuple(products)


_SAVINGS = (
    ("Acorn Savings", "acorn", "first-time savers", 0),
    ("Willow Savings", "willow", "steady monthly savers", 1),
    ("Cedar Savings", "cedar", "larger emergency funds", 2),
    ("Redwood Savings", "redwood", "long-term balances", 3),
)


def _savings(rng: random.Random) -> tuple[SavingsProduct, ...]:
    products = []
    for name, slug, audience, tier in _SAVINGS:
        products.append(
            SavingsProduct(
                name=name,
                family="savings",
                slug=slug,
                audience=audience,
                apy=round((0.5, 1.5, 2.5, 3.5)[tier] + 0.05 * rng.randint(0, 9), 2),
                min_balance=(0, 500, 5000, 25000)[tier],
                free_withdrawals=(3, 4, 6, 8)[tier] - rng.randint(0, 1),
                excess_fee=_money(rng, (5, 5, 7, 10)[tier], (8, 10, 12, 15)[tier], 1),
                mobile_deposit_limit=(1500, 3000, 7500, 20000)[tier],
                referral_bonus=(None, 25, 50, 100)[tier],
            )
        )
    return tuple(products)


def _rates(
    rng: random.Random, bonus: Mapping[str, tuple[float, ...]], base: float
) -> dict[str, float]:
    rates = {category: rng.choice(choices) for category, choices in bonus.items()}
    rates["default"] = base
    return rates


def _limits(rng: random.Random, age: int, on_time: int, percent: int, cap: int) -> LimitTerms:
    return LimitTerms(
        min_age_months=age + rng.choice((0, 0, 3)),
        on_time_months=on_time,
        max_increase_percent=percent + 5 * rng.randint(0, 2),
        phone_cap=cap,
    )


def _drawn(rng: random.Random, value: Any) -> Any:
    """A fixed value, or one the seed chooses from a list of them."""
    return rng.choice(value) if isinstance(value, list) else value


def _card(rng: random.Random, spec: Mapping[str, Any]) -> CardOffer:
    """One card of `cards.toml`, its numbers drawn in the order the file's header gives."""
    fee = _drawn(rng, spec["fee"])
    base, step, steps = spec["income"]
    income = base + step * rng.randint(0, steps) if steps else base
    base_rate = _drawn(rng, spec["base_rate"])
    bonus = {category: tuple(choices) for category, choices in spec["bonus"].items()}
    rates = _rates(rng, bonus, base_rate)
    limits = _limits(rng, *spec["limits"])
    return CardOffer(
        name=spec["name"],
        family=spec["family"],
        slug=spec["slug"],
        audience=spec["audience"],
        annual_fee=fee,
        first_year_free=spec["first_year_free"],
        min_income=income,
        rates=rates,
        late_fee=rng.choice((29, 32, 35, 39, 40)),
        limits=limits,
        expedited_free=spec["expedited_free"],
        retention_months=spec.get("retention_months"),
        foreign_fee_percent=rng.choice((0.0, 1.0, 2.0, 3.0)) if fee == 0 else 0.0,
        starting_limits=tuple(spec["starting_limits"]),
    )


_CARDS: tuple[Mapping[str, Any], ...] = tuple(builtin_toml(__package__, "cards.toml")["card"])
"""The cards of `cards.toml`, in file order (the order of the draws)."""


def _cards(rng: random.Random) -> tuple[CardOffer, ...]:
    return tuple(_card(rng, spec) for spec in _CARDS)


def draw_bank(rng: random.Random) -> Bank:
    """The bank's products, numbers drawn from `rng` (consumed in a fixed order)."""
    return Bank(checking=_checking(rng), savings=_savings(rng), cards=_cards(rng))
