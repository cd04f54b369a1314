"""Actions the tests play in the mock domain: messages to its user, a common tool call."""

from tau_env.actions import CallTool, SendMessage
from tau_env.messages import RequestedToolCall, UserRequest

COMPLETE_TASK_1 = CallTool(
    name="update_task_status", arguments={"task_id": "task_1", "status": "completed"}
)
"""The agent marks task_1 completed (what most mock tasks want)."""


def dismiss_request(content: str) -> SendMessage:
    """The agent's message `content` asking the user, in one structured call, to dismiss notif_1."""
    call = RequestedToolCall(name="dismiss_notification", arguments={"notification_id": "notif_1"})
    return SendMessage(content=content, request=UserRequest(tool_calls=[call]))
