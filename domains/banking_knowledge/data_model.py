"""The bank's database: 23 tables of free-form records, shared by the agent and the customer.

The reference keeps every record as a plain JSON object with no per-table schema, and its
database hash covers exact value types and string formats (``25`` differs from ``25.0``,
``"$25.00"`` from ``"25.00"``). Records are therefore `Row` objects wrapping the dict as read or
written, key order included (read tools print fields in stored order).

Three more tables hold static data the tools need: the notes the reference keeps beside each
table (part of its hash), the catalogue of discoverable tools (names, documentation, and
which implementation answers them) and, for a bank with its own credit cards (the built-in
bank), the card products the customer's card tools accept. None is ever changed by a tool.

File layout (official ``db.json`` and built-in ``builtin_db.json`` alike)::

    {"users": {"data": {"<user_id>": {...}}, "notes": "..."}, "accounts": {...}, ...}

Tables absent from the file start empty. `to_snapshot_data` turns that layout (plus a
catalogue) into the `BankingData` schema the copy-on-write `BankingDB` views are built on.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel

from tau_env.domains.banking_knowledge.constants import TABLES
from tau_env.errors import DataError
from tau_env.state import Database, Table
from tau_env.state.database import SeedSource, Snapshot
from tau_env.state.journal import Journal

__all__ = [
    "BankingDB",
    "BankingData",
    "CardProduct",
    "CatalogEntry",
    "ParameterDoc",
    "Row",
    "TableNote",
    "to_snapshot_data",
]


class Row(RootModel[dict[str, Any]]):
    """One record of a bank table: a JSON object kept exactly as written (types, key order)."""


class TableNote(BaseModel):
    """The prose note the reference keeps beside a table (part of its database hash)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str = Field(description="The note, verbatim.")


class ParameterDoc(BaseModel):
    """One parameter line of a discoverable tool's documentation (what unlocking shows)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(description="Argument name.")
    type: str = Field(default="string", description="string, number, integer or boolean.")
    required: bool = Field(default=True, description="False for optional arguments.")
    description: str = Field(description="What the argument is, as the agent reads it.")


class CatalogEntry(BaseModel):
    """A discoverable tool of this bank: its public name, its documentation, its behaviour.

    Seen by: the agent (description and parameters, when it unlocks or gives the tool).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(description="The name the knowledge base uses, e.g. open_account_4821.")
    side: Literal["agent", "user"] = Field(description="Who calls it.")
    behaviour: str = Field(description="Key of the implementation in the behaviour registry.")
    description: str = Field(description="Description shown on unlock / give.")
    parameters: list[ParameterDoc] = Field(default_factory=list, description="Documented args.")


class CardProduct(BaseModel):
    """A credit card of a bank's own (the built-in bank's; the reference's 13 are constants).

    ``apply_for_credit_card`` accepts its name and ``submit_transaction`` applies its rates.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    rates: dict[str, float] = Field(
        description="Purchase category -> rate in points per dollar; 'default' for the rest."
    )


class BankingData(BaseModel):
    """Schema of the parsed database: one keyed table per reference table, plus static data."""

    model_config = ConfigDict(extra="forbid")

    users: dict[str, Row] = Field(default_factory=dict)
    accounts: dict[str, Row] = Field(default_factory=dict)
    debit_cards: dict[str, Row] = Field(default_factory=dict)
    referrals: dict[str, Row] = Field(default_factory=dict)
    credit_card_applications: dict[str, Row] = Field(default_factory=dict)
    user_discoverable_tools: dict[str, Row] = Field(default_factory=dict)
    user_discoverable_tool_calls: dict[str, Row] = Field(default_factory=dict)
    verification_history: dict[str, Row] = Field(default_factory=dict)
    credit_card_transaction_history: dict[str, Row] = Field(default_factory=dict)
    cash_back_disputes: dict[str, Row] = Field(default_factory=dict)
    bank_account_transaction_history: dict[str, Row] = Field(default_factory=dict)
    credit_card_accounts: dict[str, Row] = Field(default_factory=dict)
    agent_discoverable_tools: dict[str, Row] = Field(default_factory=dict)
    task_config: dict[str, Row] = Field(default_factory=dict)
    human_transfer_requests: dict[str, Row] = Field(default_factory=dict)
    transaction_disputes: dict[str, Row] = Field(default_factory=dict)
    credit_card_orders: dict[str, Row] = Field(default_factory=dict)
    debit_card_orders: dict[str, Row] = Field(default_factory=dict)
    credit_card_closure_reasons: dict[str, Row] = Field(default_factory=dict)
    credit_card_account_flags: dict[str, Row] = Field(default_factory=dict)
    credit_limit_increase_requests: dict[str, Row] = Field(default_factory=dict)
    payment_history: dict[str, Row] = Field(default_factory=dict)
    debit_card_disputes: dict[str, Row] = Field(default_factory=dict)
    table_notes: dict[str, TableNote] = Field(default_factory=dict, description="By table.")
    tool_catalog: dict[str, CatalogEntry] = Field(default_factory=dict, description="By name.")
    card_products: dict[str, CardProduct] = Field(
        default_factory=dict, description="A bank's own credit cards by name (empty: reference)."
    )


def to_snapshot_data(
    raw: Mapping[str, Any],
    catalog: Mapping[str, CatalogEntry],
    *,
    source: str,
    card_products: Mapping[str, CardProduct] | None = None,
) -> dict[str, Any]:
    """The `BankingData` content of a file in the reference layout, plus a tool catalogue.

    `card_products` are the bank's own credit cards, if it has any.

    Raises:
        DataError: A table is unknown or not shaped ``{"data": {...}, "notes": "..."}``.
    """
    data: dict[str, Any] = {}
    notes: dict[str, dict[str, str]] = {}
    for name, table in raw.items():
        if name not in TABLES:
            raise DataError(f"{source}: unknown table {name!r}")
        if not isinstance(table, Mapping) or not isinstance(table.get("data", {}), Mapping):
            raise DataError(f"{source}: table {name!r}: expected {{'data': {{...}}, 'notes': ''}}")
        unknown = set(table) - {"data", "notes"}
        if unknown:
            raise DataError(f"{source}: table {name!r}: unknown key {sorted(unknown)[0]!r}")
        data[name] = dict(table.get("data", {}))
        note = table.get("notes", "")
        if not isinstance(note, str):
            raise DataError(f"{source}: table {name!r}: 'notes' must be text")
        notes[name] = {"text": note}
    data["table_notes"] = notes
    data["tool_catalog"] = {name: entry.model_dump() for name, entry in catalog.items()}
    data["card_products"] = {
        name: product.model_dump() for name, product in (card_products or {}).items()
    }
    return data


_TABLE_TEXTS: dict[int, tuple[Snapshot, dict[str, str]]] = {}
"""Snapshot id -> (snapshot, JSON of its untouched tables): derived from immutable data."""


def _unchanged_table_texts(snapshot: Snapshot) -> dict[str, str]:
    entry = _TABLE_TEXTS.get(id(snapshot))
    if entry is None or entry[0] is not snapshot:  # ids are reused only after the snapshot died
        entry = (snapshot, {})
        _TABLE_TEXTS[id(snapshot)] = entry
    return entry[1]


class BankingDB(Database):
    """The bank for one episode: one view both the agent's and the customer's tools work on.

    Besides the tables it holds two pieces of episode state the reference keeps in memory and
    never hashes: which agent discoverable tools are unlocked, and which read-only ones the
    task's gold plan calls (their calls are logged, see ``call_discoverable_agent_tool``).
    """

    data_model = BankingData
    users: Table[Row]
    accounts: Table[Row]
    debit_cards: Table[Row]
    referrals: Table[Row]
    credit_card_applications: Table[Row]
    user_discoverable_tools: Table[Row]
    user_discoverable_tool_calls: Table[Row]
    verification_history: Table[Row]
    credit_card_transaction_history: Table[Row]
    cash_back_disputes: Table[Row]
    bank_account_transaction_history: Table[Row]
    credit_card_accounts: Table[Row]
    agent_discoverable_tools: Table[Row]
    task_config: Table[Row]
    human_transfer_requests: Table[Row]
    transaction_disputes: Table[Row]
    credit_card_orders: Table[Row]
    debit_card_orders: Table[Row]
    credit_card_closure_reasons: Table[Row]
    credit_card_account_flags: Table[Row]
    credit_limit_increase_requests: Table[Row]
    payment_history: Table[Row]
    debit_card_disputes: Table[Row]
    table_notes: Table[TableNote]
    tool_catalog: Table[CatalogEntry]
    card_products: Table[CardProduct]

    def __init__(self, snapshot: Snapshot, journal: Journal, seed_source: SeedSource) -> None:
        super().__init__(snapshot, journal, seed_source)
        self.unlocked: frozenset[str] = frozenset()
        self.read_log_allowlist: frozenset[str] = frozenset()

    def fork(self, journal: Journal, seed_source: SeedSource) -> BankingDB:
        """A view with this one's committed changes, unlocked tools and read-log allowlist."""
        clone = super().fork(journal, seed_source)
        clone.unlocked = self.unlocked
        clone.read_log_allowlist = self.read_log_allowlist
        return clone

    def apply_patch(self, patch: Mapping[str, Any], *, source: str) -> None:
        """Deep-merge a task's ``agent_data``, written in the reference's layout.

        ``{"accounts": {"data": {"<id>": {...}}}}`` merges record by record; a ``notes`` key
        replaces the table's note.

        Raises:
            DataError: An unknown table or a malformed entry; nothing changes then.
        """
        converted: dict[str, Any] = {}
        notes: dict[str, Any] = {}
        for name, table in patch.items():
            where = f"{source}.{name}"
            if name not in TABLES:
                raise DataError(f"{where}: unknown table")
            if not isinstance(table, Mapping) or set(table) - {"data", "notes"}:
                raise DataError(f"{where}: expected {{'data': {{...}}, 'notes': '...'}}")
            converted[name] = table.get("data", {})
            if "notes" in table:
                notes[name] = {"text": table["notes"]}
        if notes:
            converted["table_notes"] = notes
        super().apply_patch(converted, source=source)

    def table(self, name: str) -> Table[Row]:
        """One of the 23 bank tables by name.

        Raises:
            KeyError: `name` is not a bank table.
        """
        if name not in TABLES:
            raise KeyError(name)
        table: Table[Row] = getattr(self, name)
        return table

    def dump(self) -> dict[str, Any]:
        """The database as the reference's ``model_dump()`` gives it (the hashed layout)."""
        return {name: self._table_dump(name) for name in TABLES}

    def reference_hash(self) -> str:
        """The reference's database hash (sha256 of the sorted-key JSON of `dump`).

        Built table by table: the JSON of a table this episode has not changed is computed
        once per process, so hashing costs what the changed tables cost.
        """
        unchanged = _unchanged_table_texts(self.snapshot)
        notes_changed = bool(self.table_notes.changed_keys())
        parts = []
        for name in sorted(TABLES):
            text = None if notes_changed or self.table(name).changed_keys() else unchanged.get(name)
            if text is None:
                text = json.dumps(self._table_dump(name), sort_keys=True, default=str)
                if not notes_changed and not self.table(name).changed_keys():
                    unchanged[name] = text
            parts.append(f"{json.dumps(name)}: {text}")
        return hashlib.sha256(("{" + ", ".join(parts) + "}").encode()).hexdigest()

    def _table_dump(self, name: str) -> dict[str, Any]:
        note = self.table_notes.get(name)
        return {
            "data": {key: row.model_dump() for key, row in self.table(name).items()},
            "notes": note.text if note is not None else "",
        }
