import pytest

from tau_env.llm import RetryPolicy
from tau_env.testing.fake_openai import FakeOpenAIServer

FAST = RetryPolicy(max_retries=3, initial_delay=0.01, multiplier=2.0, jitter=0.0)


@pytest.fixture
def server():
    with FakeOpenAIServer() as fake:
        yield fake
