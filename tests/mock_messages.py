"""Messages the tests send to the mock domain's user."""

from tau_env.actions import SendMessage
from tau_env.messages import RequestedToolCall, UserRequest


def dismiss_request(content: str) -> SendMessage:
    """The agent's message `content` asking the user, in one structured call, to dismiss notif_1."""
    call = RequestedToolCall(name="dismiss_notification", arguments={"notification_id": "notif_1"})
    return SendMessage(content=content, request=UserRequest(tool_calls=[call]))
