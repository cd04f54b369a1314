import asyncio
import gc
import warnings

import pytest

from tau_env.llm import LLMClient
from tau_env.llm.pool import run_sync, shared_session
from tau_env.testing.fake_openai import FakeReply

HELLO = [{"role": "user", "content": "Hello"}]


def test_shared_session__one_per_loop_closed_when_the_loop_ends(server):
    server.push(FakeReply.text("a"), FakeReply.text("b"))
    sessions = []

    async def main():
        sessions.extend([await shared_session(), await shared_session()])
        await LLMClient(server.config()).complete(HELLO)

    with warnings.catch_warnings():
        warnings.simplefilter("error", ResourceWarning)  # an unclosed session would warn
        asyncio.run(main())
        asyncio.run(main())
        gc.collect()
    first, again, second, _ = sessions
    assert first is again and first is not second
    assert first.closed and second.closed


def test_run_sync__returns_results_and_raises_errors_of_the_coroutine():
    async def add(a, b):
        await asyncio.sleep(0)
        return a + b

    async def fail():
        raise KeyError("boom")

    assert run_sync(add(2, 3)) == 5
    with pytest.raises(KeyError, match="boom"):
        run_sync(fail())
