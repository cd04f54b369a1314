"""The collector helpers: loading and replaying out of the collector's sight, state restored."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest

from tau_env.data_files import load_builtin_data
from tau_env.domain import clear_domain_cache, load_domain
from tau_env.heap_collector import collector_paused, heap_frozen


@pytest.fixture(autouse=True)
def _collector_as_found() -> Iterator[None]:
    """Each test starts with the collector on and nothing frozen, and leaves it so."""
    was_enabled = gc.isenabled()
    gc.enable()
    gc.unfreeze()
    yield
    gc.unfreeze()
    if not was_enabled:
        gc.disable()


def test_collector_paused_restores_the_collector() -> None:
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():  # nested: the outer block decides
            pass
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()  # was off: stays off


def test_collector_paused_is_restored_when_the_block_raises() -> None:
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("boom")
    assert gc.isenabled()


def test_heap_frozen_hides_the_heap_for_the_block_only() -> None:
    alive: list[list[int]] = [[] for _ in range(10)]  # containers the collector tracks
    with heap_frozen():
        frozen = gc.get_freeze_count()
        assert frozen >= len(alive)
        made: list[list[int]] = [[] for _ in range(10)]
        # what the block makes is not hidden (the count can only fall: a frozen object that
        # another thread of the process drops leaves it)
        assert gc.get_freeze_count() <= frozen
        assert made
    assert gc.get_freeze_count() == 0


def test_heap_frozen_keeps_a_heap_frozen_before() -> None:
    gc.freeze()
    before = gc.get_freeze_count()
    with heap_frozen():
        pass
    assert gc.get_freeze_count() >= before > 0


def test_cyclic_garbage_made_in_a_frozen_block_is_collected() -> None:
    class Node:
        other: object

    with heap_frozen():
        gc.collect()
        first, second = Node(), Node()
        first.other, second.other = second, first
        del first, second
        assert gc.collect() >= 2


def test_loading_pauses_the_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    """A data load runs with the collector off and gives it back on (`_load_data`)."""
    seen: list[bool] = []

    def spying(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.isenabled())
        return load_builtin_data(*args, **kwargs)

    monkeypatch.setattr("tau_env.domain.load_builtin_data", spying)
    clear_domain_cache()
    try:
        load_domain("mock")
    finally:
        clear_domain_cache()
    assert seen == [False]
    assert gc.isenabled()
