import pytest

from tau_env.llm import RetryPolicy
from tau_env.testing.fake_openai import FakeOpenAIServer

FAST = RetryPolicy(max_retries=3, initial_delay=0.01, multiplier=2.0, jitter=0.0)
ROUTES = ("lean", "litellm")


@pytest.fixture
def server():
    with FakeOpenAIServer() as fake:
        yield fake


@pytest.fixture(params=ROUTES)
def route(request):
    """Each test using it runs on both routes: the lean OpenAI route and litellm."""
    return request.param


@pytest.fixture(params=[False, True], ids=["plain", "stream"])
def stream(request):
    """Each test using it runs with plain and with streamed replies."""
    return request.param
