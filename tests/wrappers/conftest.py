import pytest

import tau_env
from tau_env.actions import SendMessage


class SayingAgent:
    """An agent that says the given lines in order, then repeats the last one."""

    def __init__(self, *lines):
        self.lines = list(lines)

    def act(self, view, context):
        line = self.lines.pop(0) if len(self.lines) > 1 else self.lines[0]
        return SendMessage(content=line) if isinstance(line, str) else line


def saying(*lines):
    return lambda task: SayingAgent(*lines)


@pytest.fixture(params=["built-in", "official"])
def mock_source(request):
    """Both data sources of the mock domain (official is skipped when the data is absent)."""
    return None if request.param == "built-in" else request.getfixturevalue("data_dir")


@pytest.fixture
def mock_domain():
    return tau_env.load_domain("mock")
