"""Record types the airline and retail databases share: the record base, a name, a credit card.

Field names, order and types are the reference's in both domains (tool results are these
records' dumps, compared byte for byte). `Record` rejects unknown keys, so that malformed data
files fail loudly, and writes infinities and NaN as ``json.dumps`` does, so that tool results
can be written straight from the model (`tau_env.plain_json`); `ArgumentRecord` is the same for
records the agent passes as tool arguments, which ignore unknown keys as the reference does.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["ArgumentRecord", "CreditCard", "PersonName", "Record"]


class Record(BaseModel):
    """A database record (unknown keys rejected)."""

    model_config = ConfigDict(extra="forbid", ser_json_inf_nan="constants")


class ArgumentRecord(BaseModel):
    """A record the agent passes as a tool argument (unknown keys ignored)."""

    model_config = ConfigDict(extra="ignore", ser_json_inf_nan="constants")


class PersonName(Record):
    """A customer's name."""

    first_name: str = Field(description="First name.")
    last_name: str = Field(description="Last name.")


class CreditCard(Record):
    """A credit card kept in a customer's profile."""

    source: Literal["credit_card"] = Field(description="Always 'credit_card'.")
    id: str = Field(description="Payment method id, e.g. 'credit_card_1234567'.")
    brand: str = Field(description="Card brand, e.g. 'visa'.")
    last_four: str = Field(description="Last four digits.")
