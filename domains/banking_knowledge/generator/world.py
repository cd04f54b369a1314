"""The built-in bank's database as it is being written: customers, accounts, cards, history.

`Ledger` collects records in the reference's layout (``{table: {"data": {...}, "notes"}}``)
with the value formats the tools expect: balances of deposit accounts as plain text
(``"1520.40"``), card balances and limits with a dollar sign, amounts of bank transactions as
signed floats, MM/DD/YYYY dates. Every record a task needs is written here, before any task
runs, so the database file alone describes the bank.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from tau_env.data_files import builtin_toml
from tau_env.domains.banking_knowledge.constants import TABLES
from tau_env.domains.banking_knowledge.generator.people import Person
from tau_env.domains.banking_knowledge.generator.products import (
    CardOffer,
    CheckingProduct,
    SavingsProduct,
)
from tau_env.domains.banking_knowledge.ids import card_last_4_digits, hex_digest

__all__ = ["NOTES", "Ledger", "day", "money_text"]

NOTES: dict[str, str] = builtin_toml(__package__, "table_notes.toml")
"""Our notes beside each table that has records (``table_notes.toml``; part of the database
hash)."""


def day(value: date) -> str:
    """``MM/DD/YYYY``."""
    return value.strftime("%m/%d/%Y")


def money_text(amount: float, *, dollar: bool = False, commas: bool = False) -> str:
    """``1520.40``, ``$1520.40`` or ``$1,520.40``."""
    text = f"{amount:,.2f}" if commas else f"{amount:.2f}"
    return f"${text}" if dollar else text


@dataclass
class Ledger:
    """The database being generated, table by table, in insertion order."""

    rng: random.Random
    tables: dict[str, dict[str, dict[str, Any]]] = field(
        default_factory=lambda: {name: {} for name in TABLES}
    )

    account_counts: dict[str, int] = field(default_factory=dict)
    """Deposit accounts opened per customer so far (numbers each customer's accounts)."""

    def raw(self) -> dict[str, Any]:
        """The database file's content (tables without records and notes are left out)."""
        return {
            name: {"data": records, "notes": NOTES.get(name, "")}
            for name, records in self.tables.items()
            if records or name in NOTES
        }

    def _put(self, table: str, key: str, record: dict[str, Any]) -> dict[str, Any]:
        if key in self.tables[table]:
            raise ValueError(f"duplicate {table} id {key!r}")
        self.tables[table][key] = record
        return record

    # -- customers and accounts ---------------------------------------------------------------
    def add_user(self, person: Person) -> None:
        """A customer record."""
        self._put("users", person.user_id, person.record())

    def add_account(
        self,
        person: Person,
        product: CheckingProduct | SavingsProduct,
        *,
        opened: date,
        balance: float,
        status: str = "OPEN",
    ) -> str:
        """A deposit account; returns its id (``chk_<user>_<n>`` or ``sav_<user>_<n>``)."""
        saving = isinstance(product, SavingsProduct)
        prefix = "sav" if saving else "chk"
        number = self.account_counts.get(person.user_id, 0) + 1  # not a scan of every account
        self.account_counts[person.user_id] = number
        account_id = f"{prefix}_{person.user_id}_{number}"
        self._put(
            "accounts",
            account_id,
            {
                "account_id": account_id,
                "user_id": person.user_id,
                "class": "saving" if saving else "checking",
                "level": product.name,
                "date_opened": day(opened),
                "status": status,
                "current_holdings": money_text(balance),
            },
        )
        return account_id

    def balance(self, account_id: str) -> float:
        """A deposit account's balance."""
        return float(self.tables["accounts"][account_id]["current_holdings"])

    def add_debit_card(
        self,
        person: Person,
        account_id: str,
        product: CheckingProduct,
        *,
        status: str,
        issued: date,
        issue_reason: str,
        **extra: Any,
    ) -> dict[str, Any]:
        """A debit card of a checking account, with the product's standard limits."""
        number = 1 + sum(
            1 for c in self.tables["debit_cards"].values() if c["user_id"] == person.user_id
        )
        card_id = f"dbc_{person.user_id}_{number}"
        expires = issued.replace(year=issued.year + 4)
        record = {
            "card_id": card_id,
            "account_id": account_id,
            "user_id": person.user_id,
            "cardholder_name": person.name.upper(),
            "last_4_digits": f"{self.rng.randint(0, 9999):04d}",
            "cvv": f"{self.rng.randint(0, 999):03d}",
            "status": status,
            "issue_date": day(issued),
            "expiration_date": day(expires),
            "issue_reason": issue_reason,
            "daily_atm_limit": product.debit.atm_limit,
            "daily_purchase_limit": product.debit.purchase_limit,
            **extra,
        }
        return self._put("debit_cards", card_id, record)

    def add_card_account(
        self,
        person: Person,
        offer: CardOffer,
        *,
        opened: date,
        balance: float,
        limit: int,
        points: int,
        **extra: Any,
    ) -> str:
        """A credit card account (``cc_<user>_<product>``); returns its id."""
        account_id = f"cc_{person.user_id}_{offer.slug}"
        self._put(
            "credit_card_accounts",
            account_id,
            {
                "account_id": account_id,
                "user_id": person.user_id,
                "card_type": offer.name,
                "date_of_account_open": day(opened),
                "current_balance": money_text(balance, dollar=True),
                "reward_points": f"{points} points",
                "credit_limit": money_text(limit, dollar=True, commas=True),
                "account_status": "GOOD_STANDING",
                **extra,
            },
        )
        return account_id

    @staticmethod
    def card_ending(account_id: str) -> str:
        """The last four digits of a credit card (what the customer's card tool shows)."""
        return card_last_4_digits(account_id)

    # -- history --------------------------------------------------------------------------------
    def _add_history(
        self,
        table: str,
        id_field: str,
        prefix: str,
        owner: str,
        tag: str | None,
        fields: dict[str, Any],
    ) -> str:
        """Append a history record; returns its id, `prefix` plus a hash of where it stands.

        The hash covers the owning account, the table's record count and the optional `tag`
        (a description or merchant), so two records never share an id. The id is the record's
        first field, `id_field`.
        """
        number = len(self.tables[table])
        key = f"{owner}:{number}" if tag is None else f"{owner}:{number}:{tag}"
        record_id = prefix + hex_digest(key, 12)
        self._put(table, record_id, {id_field: record_id, **fields})
        return record_id

    def add_bank_transaction(
        self, account_id: str, when: date, description: str, amount: float, kind: str
    ) -> str:
        """A posted deposit account transaction (negative `amount` = debit); returns its id."""
        fields = {
            "account_id": account_id,
            "date": day(when),
            "description": description,
            "amount": round(amount, 2),
            "type": kind,
            "status": "posted",
        }
        table = "bank_account_transaction_history"
        return self._add_history(table, "transaction_id", "btxn_", account_id, description, fields)

    def add_card_transaction(
        self,
        person: Person,
        card_account: str,
        offer: CardOffer,
        *,
        merchant: str,
        amount: float,
        when: date,
        category: str,
        points: int | None = None,
    ) -> str:
        """A completed card purchase (or fee); points default to the product's rate."""
        earned = int(amount * offer.rate(category)) if points is None else points
        fields = {
            "user_id": person.user_id,
            "credit_card_account_id": card_account,
            "credit_card_type": offer.name,
            "merchant_name": merchant,
            "transaction_amount": money_text(amount, dollar=True),
            "transaction_date": day(when),
            "category": category,
            "status": "COMPLETED",
            "rewards_earned": f"{earned} points",
        }
        table = "credit_card_transaction_history"
        return self._add_history(table, "transaction_id", "ctxn_", card_account, merchant, fields)

    def add_payment(
        self, person: Person, card_account: str, when: date, amount: float, status: str
    ) -> None:
        """A payment on a card account (``ON_TIME`` or ``LATE``)."""
        fields = {
            "credit_card_account_id": card_account,
            "user_id": person.user_id,
            "payment_date": day(when),
            "amount": money_text(amount, dollar=True),
            "status": status,
        }
        self._add_history("payment_history", "payment_id", "pay_", card_account, None, fields)
