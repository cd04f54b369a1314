"""An agent that does nothing, for tests of which tasks reward inaction."""

from tau_env.actions import SendMessage, Stop


class IdleAgent:
    """Says once that it cannot help, then stops; calls no tool."""

    def __init__(self, task):
        self.spoke = False

    def act(self, view, context):
        if self.spoke:
            return Stop()
        self.spoke = True
        return SendMessage(content="Sorry, I cannot help with that.")
