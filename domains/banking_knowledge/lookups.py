"""Reading and writing bank records, and the reference's text rendering of query results.

Records are `Row` objects shared by every episode: `row` and `rows` give read-only dicts,
`edit` gives this episode's own copy, `add` inserts unless the id exists (the reference's
``add_to_db``). `query_text` renders matches exactly as the reference's query helper does;
several tools decide "nothing found" by looking for its phrases in that text, as there.
"""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Container, Iterator
from typing import Any

from tau_env.domains.banking_knowledge.constants import QUERYABLE_TABLES, TODAY_TEXT
from tau_env.domains.banking_knowledge.data_model import BankingDB, Row
from tau_env.messages import trusted
from tau_env.state import Table

__all__ = [
    "account_balance",
    "add",
    "add_referral",
    "edit",
    "exists",
    "is_empty_result",
    "matching_rows",
    "parse_balance",
    "query_by",
    "query_text",
    "render_rows",
    "row",
    "rows",
    "rows_where",
]


def row(table: Table[Row], key: str) -> dict[str, Any] | None:
    """The record under `key` (shared: read only), or None."""
    found = table.get(key)
    return None if found is None else found.root


def exists(table: Table[Row], key: Any) -> bool:
    """Whether a record has id `key` (an unhashable key raises `TypeError`, as a dict does)."""
    return table.get(key) is not None


def rows(table: Table[Row]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(id, record) pairs in table order (records shared: read only)."""
    for key, found in table.items():
        yield key, found.root


def rows_where(table: Table[Row], field: str, expected: Any) -> list[tuple[str, dict[str, Any]]]:
    """The pairs of `rows` whose `field` equals `expected` (a missing field is None), in order.

    The same as filtering `rows`, read from an index of the table's shared base by `field`
    (built once per base: `Table.items_where`) for a value of JSON's scalar types; any other
    value (NaN, a list) is looked for record by record.
    """
    if type(expected) not in _SCALARS or expected != expected:  # NaN equals nothing
        return [(key, record) for key, record in rows(table) if record.get(field) == expected]
    index = table.index(field, _FIELD_READERS.get(field) or _reader_of(field))
    return [(key, found.root) for key, found in table.items_where(index, expected)]


_SCALARS = frozenset({str, int, float, bool, type(None)})
_FIELD_READERS: dict[str, Callable[[Row], object]] = {}


def _reader_of(field: str) -> Callable[[Row], object]:
    """``row.root.get(field)``, one function per field (the index of a field is named by it)."""

    def read(found: Row) -> object:
        return found.root.get(field)

    return _FIELD_READERS.setdefault(field, read)


def edit(table: Table[Row], key: str) -> dict[str, Any]:
    """This episode's modifiable copy of the record under `key` (which must exist)."""
    return table.edit(key).root


def add(table: Table[Row], key: str, record: dict[str, Any]) -> bool:
    """Insert a record; False (and nothing changes) when the id is taken.

    `record` is a behaviour's own (``str`` keys), so it becomes a `Row` as validation would
    make it (a copy of the dict: ``dict[str, Any]`` checks nothing else) without validating.
    """
    if key in table:
        return False
    table.insert(key, trusted(Row, {"root": dict(record)}, _ROOT_GIVEN))
    return True


_ROOT_GIVEN = frozenset(("root",))


def add_referral(db: BankingDB, referral_id: str, referrer_id: str, account_type: str) -> bool:
    """`add` a referral in the reference's layout (no progress yet, dated today)."""
    record = {
        "referral_id": referral_id,
        "referrer_id": referrer_id,
        "referred_account_type": account_type,
        "referral_status": "NO_PROGRESS",
        "date": TODAY_TEXT,
    }
    return add(db.referrals, referral_id, record)


def parse_balance(value: Any) -> float:
    """A balance stored as a number or as text such as ``"$2,850.00"``; 0 when absent."""
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        return float(value.replace("$", "").replace(",", ""))
    return 0.0


def account_balance(account: dict[str, Any]) -> float:
    """An account's balance: ``current_holdings``, else ``balance``, else 0."""
    return parse_balance(account.get("current_holdings", account.get("balance", 0)))


_OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "eq": operator.eq,
    "ne": operator.ne,
    "gt": operator.gt,
    "gte": operator.ge,
    "lt": operator.lt,
    "lte": operator.le,
    "contains": lambda a, b: b in a if a is not None else False,
    "startswith": lambda a, b: str(a).startswith(str(b)) if a is not None else False,
    "endswith": lambda a, b: str(a).endswith(str(b)) if a is not None else False,
    "in": lambda a, b: a in b,
    "nin": lambda a, b: a not in b,
}


_Test = tuple[str, Callable[[Any, Any], bool], Any]
"""One constraint, read: the field, its comparison and the value compared with."""


def _tests(constraints: dict[str, Any]) -> list[_Test]:
    """The constraints read once per query: ``field__op`` split, the operator looked up."""
    tests = []
    for key, expected in constraints.items():
        field, _, op = key.rpartition("__") if "__" in key else (key, "", "eq")
        tests.append((field, _OPERATORS.get(op, _OPERATORS["eq"]), expected))
    return tests


def _matches(record: dict[str, Any], tests: list[_Test]) -> bool:
    for field, compare, expected in tests:
        try:
            if not compare(record.get(field), expected):
                return False
        except (TypeError, ValueError):  # incomparable values do not match
            return False
    return True


def matching_rows(
    table: Table[Row], constraints: dict[str, Any]
) -> list[tuple[str, dict[str, Any]]]:
    """Records meeting every constraint (``field`` or ``field__op``), in table order."""
    tests = _tests(constraints)
    if len(tests) == 1 and tests[0][1] is operator.eq:  # the tools' one equality: an index
        field, _, expected = tests[0]  # (== never raises on JSON values)
        return rows_where(table, field, expected)
    return [(key, found.root) for key, found in table.items() if _matches(found.root, tests)]


def render_rows(
    table_name: str,
    found: list[tuple[str, dict[str, Any]]],
    copied: Container[str] = (),
) -> str:
    """The reference's block for found records: header, then each record's fields.

    `copied` holds the keys whose records the open transaction copied (its table's
    `copied_in_transaction`): those may still change, so they are written afresh. Every other
    record (the shared base's, and this episode's committed copies, such as the records a
    task's set-up added, which every episode of the task shares) never changes again, so the
    lines of its fields are written once per record (`_kept_fields`) and reused.
    """
    lines = [f"Found {len(found)} record(s) in '{table_name}':\n"]
    append = lines.append
    for number, (key, record) in enumerate(found, 1):
        append(f"{number}. Record ID: {key}")
        fields = _fields(record) if key in copied else _kept_fields(record)
        if fields:
            append(fields)
        append("")
    return "\n".join(lines)


def _fields(record: dict[str, Any]) -> str:
    """A record's fields, one line each (the empty text for a record without fields)."""
    return "\n".join([f"   {field}: {value}" for field, value in record.items()])


_KEPT_FIELDS: dict[int, tuple[dict[str, Any], str]] = {}
# Emptied past this size: records of reloaded bases and of finished episodes come and go, and
# each entry keeps its record alive (about a kilobyte with its text). The official base and
# every task's set-up records are about 1,400.
_MAX_KEPT_FIELDS = 20_000


def _kept_fields(record: dict[str, Any]) -> str:
    """`_fields` of a record that never changes again, remembered with it (its id not reused)."""
    kept = _KEPT_FIELDS.get(id(record))
    if kept is None or kept[0] is not record:
        if len(_KEPT_FIELDS) >= _MAX_KEPT_FIELDS:
            _KEPT_FIELDS.clear()
        kept = _KEPT_FIELDS[id(record)] = (record, _fields(record))
    return kept[1]


def query_text(db: BankingDB, table_name: str, constraints: str = "{}") -> str:
    """Query a table with JSON constraints and render the result as the reference does.

    Tools build `constraints` by pasting values into a JSON template, as the reference does,
    so a value with a double quote or a backslash gives ``Error: Invalid JSON: ...``.
    """
    if table_name not in QUERYABLE_TABLES:
        return f"Error: Database '{table_name}' not found. Available: {list(QUERYABLE_TABLES)}"
    try:
        parsed = json.loads(constraints) if constraints else {}
    except json.JSONDecodeError as error:
        return f"Error: Invalid JSON: {error}"
    if not isinstance(parsed, dict):
        return "Error querying database: constraints must be a JSON object"
    table = db.table(table_name)
    found = matching_rows(table, parsed)
    if not found:
        return f"No records found in '{table_name}'."
    return render_rows(table_name, found, table.copied_in_transaction())


def query_by(db: BankingDB, table_name: str, field: str, value: str) -> str:
    """`query_text` with one equality constraint, pasted into JSON as the reference does."""
    return query_text(db, table_name, f'{{"{field}": "{value}"}}')


def is_empty_result(text: str) -> bool:
    """True when a query's text says nothing was found (the reference's test)."""
    return "No records found" in text or "No results found" in text
