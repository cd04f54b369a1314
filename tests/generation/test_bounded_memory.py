"""``tau-env generate`` in memory that does not grow with the set beyond the world.

The generators hand each candidate over as they draw it (`tau_env.generation.drawn.Take`);
the pipeline spools its JSON to a file and keeps a few fields of it
(`tau_env.generation.candidates`). Counted here: how many handed-over candidates are alive
at once (each is wrapped in a dict that can be seen to die), and how many `Task` models a
desk generator holds while it hands them over. ``benchmarks/generate.py`` measures the
resulting peak memory on one fixed world at N = 1,000 to 100,000.
"""

from __future__ import annotations

import gc
import weakref
from dataclasses import replace
from typing import Any

import pytest

from tau_env.generation import pipeline
from tau_env.generation.drawn import Adapter, Drawn, Request, Take
from tau_env.generation.request import adapter_for, checked_request
from tau_env.tasks.model import Task


class _Seen(dict[str, Any]):
    """A candidate task as handed over, in a dict that takes weak references (a plain one
    does not), so the test sees when nothing holds it any more."""

    __hash__ = object.__hash__  # by identity, for the weak set


def _watched(adapter: Adapter, alive: weakref.WeakSet[_Seen], counts: dict[str, int]) -> Adapter:
    """`adapter`, its draw handing each candidate over as a `_Seen` and counting what lives.

    `Task` models alive before the draw (other tests' cached domains) are not counted: they
    are held here for the draw's length, so no new model can take one's identity.
    """
    earlier = [o for o in gc.get_objects() if isinstance(o, Task)]
    known = {id(o) for o in earlier}

    def draw(request: Request, families: Any, wanted: int, take: Take) -> Drawn:
        def watched_take(task: dict[str, Any], distractors: int | None) -> None:
            seen = _Seen(task)
            alive.add(seen)
            take(seen, distractors)
            del seen
            counts["handed"] += 1
            counts["most_alive"] = max(counts["most_alive"], len(alive))
            if counts["handed"] % 25 == 0:  # the generator's own models (a gc walk is slow)
                held = sum(isinstance(o, Task) and id(o) not in known for o in gc.get_objects())
                counts["most_task_models"] = max(counts["most_task_models"], held)

        assert earlier is not None  # alive as long as the draw
        return adapter.draw(request, families, wanted, watched_take)

    return replace(adapter, draw=draw)


@pytest.mark.parametrize("domain", ["airline", "retail"])
def test_generate__holds_no_candidate_and_the_generator_no_task_model(
    tmp_path, monkeypatch, domain
):
    adapter = adapter_for(domain)
    alive: weakref.WeakSet[_Seen] = weakref.WeakSet()
    counts = {"handed": 0, "most_alive": 0, "most_task_models": 0}
    monkeypatch.setattr(pipeline, "adapter_for", lambda _: _watched(adapter, alive, counts))
    generated = pipeline.generate_task_set(checked_request(domain, 4, 120), tmp_path)
    assert generated.manifest["tasks"] == 120
    assert counts["handed"] == generated.manifest["candidates_drawn"] > 120
    assert counts["most_alive"] == 0  # each candidate dropped as soon as it was taken
    assert len(alive) == 0
    # the generator hands each task over as it makes it: one model at a time, never the
    # 150 candidates of the draw
    assert 1 <= counts["most_task_models"] <= 2
