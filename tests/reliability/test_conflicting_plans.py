"""Interleaved and threaded episodes whose gold plans write the same record differently (item 5).

For every domain and data source, pairs of tasks are found whose gold plans leave one record
(an order, a flight, a line, a customer, the phone) in different states. Each pair is played
step by step in alternation, in both orders, and from several threads at once; every final
world must have exactly the reference hashes (agent and user databases) of the same task played
alone. The shared base must be untouched. A copy-on-write slip (a tool editing a record it got
from ``get``) would let one episode's write leak into the other, and change a hash.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

import pytest

from tau_env.domain import Domain, load_domain
from tau_env.state import World
from tests.conftest import domain_sources, source_id
from tests.reliability.tally import count
from tests.reliability.test_concurrency import (
    _final_world,
    _fingerprints,
    _round_robin,
    _stepwise,
)

SCAN = 150  # tasks scanned per source for conflicts
PAIRS = 4  # conflicting pairs per side of the world (agent DB, user DB)


def _hashes(world: World) -> tuple[str, str | None]:
    user = world.user_db.reference_hash() if world.user_db is not None else None
    return world.agent_db.reference_hash(), user


def conflicting_pairs(
    domain: Domain, data_dir: str | None
) -> tuple[list[tuple[str, str, str]], dict[str, World]]:
    """(record path, task a, task b) for gold episodes that leave one record in different states.

    At most `PAIRS` per side, each on a different record, in a fixed order; with the final
    world of each task's gold episode played alone.
    """
    alone: dict[str, World] = {}
    changed: dict[str, set[str]] = {}
    for task in domain.split(None)[:SCAN]:
        alone[task.id] = _final_world(domain.name, data_dir, task.id)
        changed[task.id] = set(alone[task.id].differences(domain.prepare(task).initial_world))
    by_path: dict[str, list[str]] = defaultdict(list)
    for task_id, paths in changed.items():
        for path in paths:
            by_path[path].append(task_id)
    found: dict[str, list[tuple[str, str, str]]] = {"agent": [], "user": []}
    for path, task_ids in sorted(by_path.items()):
        side = path.split(":")[0]
        if len(found[side]) >= PAIRS:
            continue
        for a, b in itertools.combinations(task_ids, 2):
            if path in alone[a].differences(alone[b]):
                found[side].append((path, a, b))
                break
    return found["agent"] + found["user"], alone


@pytest.fixture(params=domain_sources(), ids=source_id)
def source(request):
    return request.param


def test_conflicting_gold_plans__interleaved_and_threaded_end_as_alone(source):
    domain_name, data_dir = source
    domain = load_domain(domain_name, data_dir)
    base = _fingerprints(domain_name, data_dir)
    pairs, alone = conflicting_pairs(domain, data_dir)
    assert pairs, "no two tasks write the same record differently: nothing would be shown"
    expected = {task_id: _hashes(alone[task_id]) for _, a, b in pairs for task_id in (a, b)}
    for path, a, b in pairs:
        assert expected[a] != expected[b], f"{a} and {b} end alike: no conflict on {path}"

    for path, a, b in pairs:
        for first, second in ((a, b), (b, a)):
            runs = {first: _stepwise(domain_name, data_dir, first)}
            runs[second] = _stepwise(domain_name, data_dir, second)
            finals = dict(_round_robin(runs))
            for task_id, world in finals.items():
                assert _hashes(world) == expected[task_id], f"{task_id} interleaved on {path}"
        count("conflicting pairs interleaved (both orders)", f"{domain_name}/{path.split(':')[0]}")

    jobs = [task_id for _, a, b in pairs for task_id in (a, b)] * 4
    with ThreadPoolExecutor(max_workers=4) as pool:
        finals = list(pool.map(lambda t: (t, _final_world(domain_name, data_dir, t)), jobs))
    for task_id, world in finals:
        assert _hashes(world) == expected[task_id], f"{task_id} in a thread"
    count("conflicting episodes played from 4 threads", domain_name, len(jobs))
    assert _fingerprints(domain_name, data_dir) == base, "an episode modified the shared base"
