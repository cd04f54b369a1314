"""`blocking`: a coroutine function's synchronous twin, with its signature and documentation."""

import asyncio
import inspect

import pytest

from tau_env.blocking import blocking
from tau_env.llm.client import LLMClient
from tau_env.rollout import arun, run


async def scaled(value: int, *, factor: int = 2) -> int:
    """Multiply after yielding to the event loop once."""
    await asyncio.sleep(0)
    return value * factor


def test_blocking__returns_the_coroutine_result_with_the_same_arguments():
    twin = blocking(scaled)
    assert twin(3) == 6
    assert twin(3, factor=5) == 15
    assert not inspect.iscoroutinefunction(twin)


def test_blocking__keeps_the_signature_and_documentation():
    twin = blocking(scaled)
    assert inspect.signature(twin) == inspect.signature(scaled)
    assert twin.__doc__ == scaled.__doc__


def test_blocking__raises_what_the_coroutine_raises():
    async def refuse(reason: str) -> None:
        raise ValueError(reason)

    with pytest.raises(ValueError, match="no such task"):
        blocking(refuse)("no such task")


def test_blocking__binds_as_a_method_and_runs_through_the_given_runner():
    seen: list[object] = []

    def runner(coroutine):
        seen.append(coroutine)
        return asyncio.run(coroutine)

    class Counter:
        def __init__(self) -> None:
            self.total = 0

        async def add(self, amount: int) -> int:
            self.total += amount
            return self.total

        add_sync = blocking(add, runner)

    counter = Counter()
    assert counter.add_sync(4) == 4
    assert counter.add_sync(1) == 5
    assert len(seen) == 2


def test_the_package_twins_share_their_coroutine_functions_signatures():
    assert inspect.signature(run) == inspect.signature(arun)
    assert inspect.signature(LLMClient.complete_sync) == inspect.signature(LLMClient.complete)
