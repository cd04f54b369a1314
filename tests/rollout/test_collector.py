import gc
import threading

import pytest

from tau_env.rollout.collector import YOUNG_THRESHOLD, spaced_collections


@pytest.fixture
def gc_thresholds():
    """The collector's thresholds as they were, restored after the test."""
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


def test_spaced_collections__raise_the_young_threshold_and_restore_it(gc_thresholds):
    gc.set_threshold(700, 10, 10)
    with spaced_collections():
        assert gc.get_threshold() == (YOUNG_THRESHOLD, 10, 10)
        with spaced_collections():  # a nested (or concurrent) run shares the change
            assert gc.get_threshold() == (YOUNG_THRESHOLD, 10, 10)
        assert gc.get_threshold() == (YOUNG_THRESHOLD, 10, 10)
    assert gc.get_threshold() == (700, 10, 10)


def test_spaced_collections__leave_thresholds_set_by_others_alone(gc_thresholds):
    gc.set_threshold(50_000, 20, 20)  # already higher: unchanged
    with spaced_collections():
        assert gc.get_threshold() == (50_000, 20, 20)
    gc.set_threshold(700, 10, 10)
    with spaced_collections():
        gc.set_threshold(900, 10, 10)  # changed by someone during the run: kept
    assert gc.get_threshold() == (900, 10, 10)


def test_spaced_collections__from_several_threads_restore_once_all_end(gc_thresholds):
    gc.set_threshold(700, 10, 10)
    inside, leave = threading.Barrier(3), threading.Event()

    def run():
        with spaced_collections():
            inside.wait()
            leave.wait()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    inside.wait()
    assert gc.get_threshold()[0] == YOUNG_THRESHOLD
    leave.set()
    for thread in threads:
        thread.join()
    assert gc.get_threshold() == (700, 10, 10)
