"""The mock domain's company database: users and their to-do tasks."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tau_env.state import Database, Table

__all__ = ["MockDB", "MockData", "TaskRecord", "TaskStatus", "UserRecord"]

TaskStatus = Literal["pending", "completed"]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TaskRecord(_Record):
    """A to-do task owned by a user (the reference's mock ``Task``)."""

    task_id: str = Field(description="Unique id, e.g. task_1.")
    title: str = Field(description="Short title.")
    description: str | None = Field(default=None, description="Optional details.")
    status: TaskStatus = Field(description="pending or completed.")


class UserRecord(_Record):
    """A user of the to-do service."""

    user_id: str = Field(description="Unique id, e.g. user_1.")
    name: str = Field(description="Display name.")
    tasks: list[str] = Field(default_factory=list, description="Ids of the user's tasks.")


class MockData(_Record):
    """Layout of the mock ``db.json`` file."""

    tasks: dict[str, TaskRecord] = Field(default_factory=dict)
    users: dict[str, UserRecord] = Field(default_factory=dict)


class MockDB(Database):
    """The agent side's view of the mock database for one episode."""

    data_model = MockData
    tasks: Table[TaskRecord]
    users: Table[UserRecord]
