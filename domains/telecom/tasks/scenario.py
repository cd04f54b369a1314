"""Who the generated task is about: a customer, their line and where they are."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Scenario"]


@dataclass(frozen=True)
class Scenario:
    """The customer whose phone is broken, with everything issues need to know about them.

    Attributes:
        customer_id: The customer's id.
        full_name: Their full name (the user states it).
        date_of_birth: YYYY-MM-DD (the user states it when asked).
        phone_number: The number of the line in the user's phone.
        line_id: That line's id.
        data_limit_gb: The line's plan allowance.
        refueled_gb: Extra data already bought this cycle, before the task starts.
        overdue_bill_id: Id given to the unpaid bill that service issues create.
        home: Where the user is when at home (``"at home in Austin, Texas"``).
        abroad: Where the user is when travelling (``"abroad in Portugal"``).
    """

    customer_id: str
    full_name: str
    date_of_birth: str
    phone_number: str
    line_id: str
    data_limit_gb: float
    refueled_gb: float
    overdue_bill_id: str
    home: str
    abroad: str

    @property
    def line_args(self) -> dict[str, str]:
        """The ``customer_id`` / ``line_id`` arguments many agent tools take."""
        return {"customer_id": self.customer_id, "line_id": self.line_id}
