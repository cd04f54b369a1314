import asyncio

import pytest

from tau_env.testing.sleeps import Sleeps


def test_sleeps__end_in_order_of_their_ends_whatever_their_lengths():
    async def main():
        sleeps = Sleeps(asyncio.get_running_loop())
        ended = []

        async def nap(name, seconds):
            await sleeps.sleep(seconds)
            ended.append(name)

        await asyncio.gather(
            nap("long", 0.08), nap("short", 0.02), nap("zero", 0), nap("mid", 0.04)
        )
        await asyncio.gather(nap("again", 0.02), nap("again too", 0.02))
        return ended

    assert asyncio.run(main()) == ["zero", "short", "mid", "long", "again", "again too"]


def test_sleeps__a_cancelled_sleep_is_dropped_and_the_others_still_end():
    async def main():
        sleeps = Sleeps(asyncio.get_running_loop())
        first = asyncio.create_task(sleeps.sleep(0.02))
        second = asyncio.create_task(sleeps.sleep(0.02))
        await asyncio.sleep(0)
        first.cancel()
        await second
        with pytest.raises(asyncio.CancelledError):
            await first

    asyncio.run(main())
