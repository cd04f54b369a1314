"""The mock domain's agent tools and agent-side task-file helpers."""

from __future__ import annotations

from tau_env.domains.mock.data_model import MockDB, TaskRecord, TaskStatus, UserRecord
from tau_env.errors import ToolError
from tau_env.tools import env_function, tool

__all__ = [
    "AGENT_ENV_FUNCTIONS",
    "AGENT_TOOLS",
    "assert_number_of_tasks",
    "assert_task_status",
    "create_task",
    "get_users",
    "transfer_to_human_agents",
    "update_task_status",
]


@tool(kind="write")
def create_task(db: MockDB, user_id: str, title: str, description: str | None = None) -> TaskRecord:
    """Create a task for a user and return it.

    The new task starts as pending. Its id is task_<n>, n being the number of tasks after
    creation.

    Args:
        user_id: Id of the user who will own the task.
        title: Title of the task.
        description: Optional longer text describing the task.
    """
    if user_id not in db.users:
        raise ToolError(f"User {user_id} not found")
    task_id = f"task_{len(db.tasks) + 1}"
    task = TaskRecord(task_id=task_id, title=title, description=description, status="pending")
    db.tasks.insert(task_id, task)
    db.users.edit(user_id).tasks.append(task_id)
    return task


@tool(kind="read")
def get_users(db: MockDB) -> list[UserRecord]:
    """List every user with the ids of their tasks."""
    return list(db.users.values())


@tool(kind="write")
def update_task_status(db: MockDB, task_id: str, status: TaskStatus) -> TaskRecord:
    """Set a task's status and return the updated task.

    Args:
        task_id: Id of the task to change.
        status: The new status, pending or completed.
    """
    if task_id not in db.tasks:
        raise ToolError(f"Task {task_id} not found")
    task = db.tasks.edit(task_id)
    task.status = status
    return task


@tool(kind="generic")
def transfer_to_human_agents(db: MockDB, summary: str) -> str:
    """Hand the conversation over to a human agent.

    Use it only when the user asks for a human, or when the policy and the tools do not let
    you solve the request.

    Args:
        summary: What the user needs, for the human agent who takes over.
    """
    return "Transfer successful"


@env_function(side="agent", mutates_state=False)
def assert_number_of_tasks(db: MockDB, user_id: str, expected_number: int) -> bool:
    """True when the user owns exactly `expected_number` tasks."""
    user = db.users.require(user_id, f"User {user_id} not found")
    return len(user.tasks) == expected_number


@env_function(side="agent", mutates_state=False)
def assert_task_status(db: MockDB, task_id: str, expected_status: TaskStatus) -> bool:
    """True when the task has the expected status."""
    task = db.tasks.require(task_id, f"Task {task_id} not found")
    return task.status == expected_status


AGENT_TOOLS = (create_task, get_users, update_task_status, transfer_to_human_agents)
AGENT_ENV_FUNCTIONS = (assert_number_of_tasks, assert_task_status)
