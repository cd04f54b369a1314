"""The mock domain's user tools (the user's own inbox) and user-side task-file helpers."""

from __future__ import annotations

from tau_env.domains.mock.user_data_model import MockUserDB, Notification
from tau_env.errors import ToolError
from tau_env.tools import env_function, tool

__all__ = [
    "USER_ENV_FUNCTIONS",
    "USER_TOOLS",
    "add_notification",
    "assert_notification_status",
    "check_notifications",
    "dismiss_notification",
]


@tool(side="user", kind="read")
def check_notifications(db: MockUserDB) -> list[Notification]:
    """Show every notification in your inbox."""
    return list(db.notifications.values())


@tool(side="user", kind="write")
def dismiss_notification(db: MockUserDB, notification_id: str) -> str:
    """Mark a notification as read.

    Args:
        notification_id: Id of the notification to dismiss.
    """
    if notification_id not in db.notifications:
        raise ToolError(f"Notification {notification_id} not found")
    db.notifications.edit(notification_id).status = "read"
    return f"Notification {notification_id} dismissed"


@env_function(side="user")
def add_notification(
    db: MockUserDB, notification_id: str, message: str, task_id: str | None = None
) -> Notification:
    """Put an unread notification in the inbox (task setup)."""
    notification = Notification(notification_id=notification_id, message=message, task_id=task_id)
    db.notifications.insert(notification_id, notification)
    return notification


@env_function(side="user", mutates_state=False)
def assert_notification_status(db: MockUserDB, notification_id: str, expected_status: str) -> bool:
    """True when the notification has the expected status."""
    notification = db.notifications.require(
        notification_id, f"Notification {notification_id} not found"
    )
    return notification.status == expected_status


USER_TOOLS = (check_notifications, dismiss_notification)
USER_ENV_FUNCTIONS = (add_notification, assert_notification_status)
