"""The mock domain's user-side database: a notification inbox."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tau_env.state import Database, Table

__all__ = ["MockUserDB", "MockUserData", "Notification", "NotificationStatus"]

NotificationStatus = Literal["unread", "read"]


class Notification(BaseModel):
    """A message in the user's inbox."""

    model_config = ConfigDict(extra="forbid")

    notification_id: str = Field(description="Unique id, e.g. notif_1.")
    message: str = Field(description="The notification's text.")
    status: NotificationStatus = Field(default="unread", description="unread or read.")
    task_id: str | None = Field(default=None, description="Related task, if any.")


class MockUserData(BaseModel):
    """Layout of the mock ``user_db.json`` file."""

    model_config = ConfigDict(extra="forbid")

    notifications: dict[str, Notification] = Field(default_factory=dict)


class MockUserDB(Database):
    """The user side's view of the inbox for one episode."""

    data_model = MockUserData
    notifications: Table[Notification]
