"""What a retail agent knows so far, read from the messages it really receives.

`RetailBelief` is the agent's notebook for one episode: what the customer asked for (read for
its meaning from the opening: cancel, exchange, a new address...), the facts the customer gave
(``My <fact> is <value>.``, order ids anywhere), the records its own tools returned (the
customer, their orders, products), and whether the customer agreed to the last proposal.
`parse_items` and `parse_address` read the customer's descriptions; nothing is read from the
task or the gold plan.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from tau_env.wrappers.rl.desk import DeskBelief
from tau_env.wrappers.users.attributes import spoken_item

__all__ = ["INTENTS", "RetailBelief", "describes", "parse_address", "parse_items"]

INTENTS: tuple[str, ...] = (
    "cancel",
    "modify_items",
    "modify_address",
    "modify_payment",
    "user_address",
    "return",
    "exchange",
    "tracking",
    "balance",
    "price",
    "other",
)
"""What a retail customer can call about (``other``: nothing the tools cover)."""

_INTENT_WORDS = (
    ("user_address", r"default address|address (?:my|your) default|as (?:my|your) default"),
    ("cancel", r"\bcancel\b"),
    ("exchange", r"\bexchange"),
    ("return", r"\breturn"),
    ("modify_items", r"\bswap|change (?:some )?items?|change an item"),
    ("modify_address", r"shipped to|ship it to|delivery address"),
    ("modify_payment", r"\bpay for\b|\bpay with\b|pay for order"),
    ("tracking", r"tracking"),
    ("balance", r"balance|left on (?:my|the) gift card"),
    ("price", r"\bprice\b|\bcost\b|thinking of buying"),
)
_ORDER = re.compile(r"#W\d{7}\b")
_ITEMS = re.compile(r"\s+and\s+(?:the|my)\s+")
_NEW = re.compile(r"\s+for\s+(?=(?:the|a|an)\s|one\b)")
# A product name starts a word with a capital and a lowercase letter ("Electric Kettle"),
# never inside an option ("1L", "5000mAh") nor an option in capitals ("LED", "XL").
_NAME = re.compile(r"\b[A-Z][a-z][\w'-]*(?: [A-Z][a-z][\w'-]*)*")
_DETERMINERS = frozenset({"the", "a", "an", "my", "one"})


def parse_items(text: str) -> list[tuple[str, str, str | None]]:
    """``(name, description, new description or None)`` for each item the customer described.

    The customer describes items in words ("the white Desk Lamp with LED bulb for a brass one
    with halogen bulb and the ..."): items are separated by "and the", the wanted one follows
    "for". `describes` tells whether a description fits a record's options.
    """
    items = []
    for part in _ITEMS.split(text.strip().rstrip(".")):
        pieces = _NEW.split(part, maxsplit=1)
        old, new = pieces[0], (pieces[1] if len(pieces) > 1 else None)
        name = _NAME.search(old)
        if name is not None:
            items.append((name.group(), old, new))
    return items


def _content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[\w'./-]+", text.lower()) if w not in _DETERMINERS}


def describes(description: str, name: str, options: dict[str, str]) -> bool:
    """Whether the customer's `description` names every option of a record with `options`.

    Every word the customer would use for the record (`attributes.spoken_item`) is in the
    description: values, and "with"/"without" for yes/no options.
    """
    return _content_words(spoken_item(name, list(options.items()))) <= _content_words(description)


def parse_address(text: str) -> dict[str, str] | None:
    """The parts of ``"1 Main St, Apt 2, City, ST 12345, Country"`` (None: not an address)."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) < 4:
        return None
    state_zip = re.fullmatch(r"([A-Z]{2}) (\d{5})", parts[-2])
    if not state_zip:
        return None
    address2 = parts[1] if len(parts) == 5 else ""
    return {
        "address1": parts[0],
        "address2": address2,
        "city": parts[-3],
        "state": state_zip.group(1),
        "country": parts[-1],
        "zip": state_zip.group(2),
    }


@dataclass
class RetailBelief(DeskBelief):
    """The agent's knowledge in one retail episode (see the module docstring).

    Attributes:
        intents: What the customer asked for (read from the opening).
        user_id: The customer found by a lookup; ``lookup_failed`` counts failed look-ups.
        user: The customer's record (``get_user_details``).
        orders: Order records by id; ``products`` product records by id.
        product_types: Product name -> id (``list_all_product_types``).
    """

    user_id: str | None = None
    lookup_failed: int = 0
    user: dict[str, Any] | None = None
    orders: dict[str, dict[str, Any]] = field(default_factory=dict)
    products: dict[str, dict[str, Any]] = field(default_factory=dict)
    product_types: dict[str, str] = field(default_factory=dict)

    # -- reading -------------------------------------------------------------------------------
    def read_customer(self, text: str, *, opening: bool) -> None:
        """The opening's wishes; order ids anywhere."""
        if opening:
            lowered = text.lower()
            self.intents = {name for name, words in _INTENT_WORDS if re.search(words, lowered)}
            self.intents = self.intents or {"other"}
            if "cancel" in self.intents and "modify_payment" in self.intents:
                self.intents.discard("modify_payment")
        for order_id in _ORDER.findall(text):
            self.facts.setdefault("order_id", order_id)

    def read_tool_result(self, tool: str, content: str, error: bool) -> None:
        """Update from the result of one of the agent's own tool calls."""
        if error:
            if tool.startswith("find_user_id"):
                self.lookup_failed += 1
            return
        if tool.startswith("find_user_id"):
            self.user_id = content.strip().strip('"')
            return
        data = _json(content)
        if tool == "list_all_product_types" and isinstance(data, dict):
            self.product_types = {str(k): str(v) for k, v in data.items()}
        if not isinstance(data, dict):
            return
        if tool == "get_user_details":
            self.user = data
        elif "order_id" in data:
            self.orders[str(data["order_id"])] = data
            if tool != "get_order_details":
                self.done.append(tool)
        elif tool == "get_product_details":
            self.products[str(data.get("product_id"))] = data
        elif tool == "modify_user_address":
            self.user = data
            self.done.append(tool)

    # -- derived facts -------------------------------------------------------------------------
    @property
    def target(self) -> dict[str, Any] | None:
        """The order the customer means, once looked up.

        Named by id; or found by the product the customer remembers in it, preferring an
        order whose status suits the wish (pending for changes, delivered for returns).
        """
        order_id = self.facts.get("order_id")
        if order_id in self.orders:
            return self.orders[order_id]
        hint = self.facts.get("order_hint", "").removeprefix("the order with the ")
        matches = [
            order
            for order in self.orders.values()
            if hint and any(item["name"] == hint for item in order["items"])
        ]
        suited = [order for order in matches if self._suits(order)]
        candidates = suited or matches
        return candidates[0] if candidates else None

    def _suits(self, order: dict[str, Any]) -> bool:
        if self.intents & {"return", "exchange"}:
            return order.get("status") == "delivered"
        if self.intents & {"cancel", "modify_address", "modify_payment", "modify_items"}:
            return order.get("status") == "pending"
        return True

    def next_order(self) -> str | None:
        """The next order to look up: the one named, else the customer's orders in turn."""
        named = self.facts.get("order_id")
        if named is not None:
            return None if named in self.orders else named
        target = self.target
        if "order_hint" not in self.facts or self.user is None:
            return None
        if target is not None and self._suits(target):
            return None
        return next((o for o in self.user.get("orders", []) if o not in self.orders), None)


def _json(content: str) -> Any:
    try:
        return json.loads(content)
    except ValueError:
        return None
