import asyncio

import pytest

from tau_env.llm.deadlines import Deadlines


async def _call(deadlines, seconds, takes):
    """A call of `takes` seconds under a deadline: "timeout", or "done" when it finished."""
    deadline = deadlines.start(seconds)
    timed_out = False
    try:
        try:
            await asyncio.sleep(takes)
        finally:
            timed_out = deadline.end()
    except asyncio.CancelledError:
        if timed_out:
            return "timeout"
        raise
    return "done"


def test_deadlines__cancel_the_calls_past_them_and_only_those():
    async def main():
        deadlines = Deadlines(asyncio.get_running_loop())
        calls = [
            _call(deadlines, 0.05, 1.0),
            _call(deadlines, 1.0, 0.01),
            _call(deadlines, 0.05, 0.0),
            _call(deadlines, None, 0.1),
        ]
        return await asyncio.gather(*calls)

    assert asyncio.run(main()) == ["timeout", "done", "done", "done"]


def test_deadlines__a_shorter_timeout_started_later_fires_first():
    async def main():
        deadlines = Deadlines(asyncio.get_running_loop())
        slow = asyncio.create_task(_call(deadlines, 5.0, 10.0))
        await asyncio.sleep(0)  # the 5 s deadline is armed first
        quick = await _call(deadlines, 0.05, 10.0)
        slow.cancel()
        with pytest.raises(asyncio.CancelledError):
            await slow
        return quick

    assert asyncio.run(main()) == "timeout"


def test_deadlines__a_task_cancelled_by_someone_else_stays_cancelled():
    async def main():
        deadlines = Deadlines(asyncio.get_running_loop())
        task = asyncio.create_task(_call(deadlines, 0.05, 1.0))
        await asyncio.sleep(0.01)
        task.cancel()  # before the deadline: a cancellation, not a timeout
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())


def test_deadlines__calls_in_sequence_each_get_their_own():
    async def main():
        deadlines = Deadlines(asyncio.get_running_loop())
        results = [await _call(deadlines, 0.05, 0.0) for _ in range(3)]
        results.append(await _call(deadlines, 0.05, 1.0))
        results.append(await _call(deadlines, 0.05, 0.0))
        return results

    assert asyncio.run(main()) == ["done", "done", "done", "timeout", "done"]
