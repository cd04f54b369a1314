"""Named constants of the retail domain: statuses, cancellation reasons, limits, generator seeds."""

from __future__ import annotations

from typing import Final, Literal, get_args

__all__ = [
    "BUILTIN_SEED",
    "CANCEL_REASONS",
    "ORDER_STATUSES",
    "PENDING_MARKER",
    "TRANSFER_RESULT",
    "CancelReason",
    "OrderStatus",
    "PaymentSource",
    "TransactionType",
]

OrderStatus = Literal[
    "processed",
    "pending",
    "pending (item modified)",
    "delivered",
    "cancelled",
    "exchange requested",
    "return requested",
]
"""Every status an order can have (the reference's values)."""

ORDER_STATUSES: Final[tuple[OrderStatus, ...]] = get_args(OrderStatus)
"""The statuses in `OrderStatus`'s order."""

CancelReason = Literal["no longer needed", "ordered by mistake"]
"""The two reasons a pending order may be cancelled for."""

CANCEL_REASONS: Final[tuple[CancelReason, ...]] = get_args(CancelReason)

TransactionType = Literal["payment", "refund"]
"""Kinds of entries in an order's payment history."""

PaymentSource = Literal["credit_card", "paypal", "gift_card"]
"""Kinds of payment methods a user can hold."""

PENDING_MARKER: Final = "pending"
"""Address and payment changes accept any status containing this word; item changes and
cancellation need the exact status ``pending`` (the reference's rule)."""

TRANSFER_RESULT: Final = "Transfer successful"
"""What ``transfer_to_human_agents`` returns."""


BUILTIN_SEED: Final = 20240515
"""Seed of the built-in world and tasks (any fixed value; changing it is a version bump)."""
