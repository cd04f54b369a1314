"""The built-in retail data: deterministic generation, verified tasks, splits, episodes."""

import hashlib
import json
import os
import subprocess
import sys
from collections import Counter

import pytest

import tau_env
from tau_env.baselines.oracle import OracleAgent
from tau_env.cli.main import main
from tau_env.domains.retail.generator import FAMILIES, generate
from tau_env.domains.retail.generator.store import GoldStep
from tau_env.domains.retail.generator.tasks import build_task, verify_draft
from tau_env.episode_runner import run_episode
from tau_env.errors import DataError
from tau_env.wrappers.users import GoldUser
from tests.domains.idle import IdleAgent

FAMILY_NAMES = {
    "cancel",
    "cancel_refused",
    "modify_items",
    "modify_items_refused",
    "modify_address",
    "modify_payment",
    "modify_payment_refused",
    "return",
    "return_refused",
    "exchange",
    "exchange_refused",
    "user_address",
    "info_tracking",
    "info_balance",
    "info_price",
    "transfer",
    "other_user_refused",
    "cancel_and_move",
}


@pytest.fixture(scope="module")
def tasks():
    return tau_env.load_tasks("retail")


def _digest(generated):
    content = {
        "data": generated.data.model_dump(),
        "tasks": [task.model_dump(mode="json") for task in generated.tasks],
        "splits": generated.splits,
    }
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


def test_generate__same_seed_same_data_other_seed_other_data():
    first, again, other = (
        generate(seed=7, users=60),
        generate(seed=7, users=60),
        generate(seed=8, users=60),
    )
    assert _digest(first) == _digest(again)
    assert _digest(first) != _digest(other)


def test_generate__is_independent_of_hash_randomization():
    code = (
        "import hashlib, json; from tau_env.domains.retail.generator import generate; "
        "g = generate(seed=3, users=50); "
        "print(hashlib.sha256(json.dumps([t.model_dump(mode='json') for t in g.tasks], "
        "sort_keys=True).encode()).hexdigest())"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2")
    }
    assert len(digests) == 1


def test_builtin__at_least_200_tasks_over_every_family_with_disjoint_splits(tasks):
    domain = tau_env.load_domain("retail")
    counts = Counter(task.family for task in tasks)
    assert set(counts) == FAMILY_NAMES and len(FAMILIES) == len(FAMILY_NAMES)
    assert len(tasks) >= 200 and min(counts.values()) >= 10
    train, test = set(domain.data.splits["train"]), set(domain.data.splits["test"])
    assert not train & test
    assert train | test == {task.id for task in tasks}
    families = {
        split: {domain.task(t).family for t in ids}
        for split, ids in (("train", train), ("test", test))
    }
    assert families["train"] == families["test"] == FAMILY_NAMES


def test_builtin__every_store_status_occurs():
    domain = tau_env.load_domain("retail")
    statuses = {order.status for order in domain.data.agent_snapshot.records["orders"].values()}
    assert statuses == {
        "pending",
        "processed",
        "delivered",
        "cancelled",
        "pending (item modified)",
        "exchange requested",
        "return requested",
    }


def test_builtin__scenarios_let_the_user_identify_itself_as_the_plan_does(tasks):
    from tau_env.domains.retail.user_script import USER_VOCABULARY
    from tau_env.tasks.scenario_reading import read_scenario

    for task in tasks:
        script = read_scenario(str(task.user_scenario), USER_VOCABULARY.scenario).script
        plan = task.gold_actions
        assert script.opening and "user_script" not in task.model_dump(), task.id
        first = plan[0].name if plan[0].name.startswith("find_user") else None
        assert first is not None, task.id
        if first == "find_user_id_by_email":
            assert script.facts["email"] == plan[0].arguments["email"]
        else:
            wanted = plan[0].arguments
            assert {k: script.facts[k] for k in ("first_name", "last_name", "zip")} == wanted
        said = task.evaluation_criteria.communicate_info
        assert not any(value in script.done_phrases for value in said if value), task.id
        assert task.ticket and task.user_scenario.instructions.reason_for_call


def test_validate__every_builtin_task_reaches_one(tasks, capsys):
    assert main(["validate", "--domain", "retail"]) == 0
    assert capsys.readouterr().out.strip() == f"{len(tasks)}/{len(tasks)} tasks reach reward 1.0"


def test_builtin_episodes__never_modify_the_shared_base(tasks):
    domain = tau_env.load_domain("retail")
    before = domain.data.agent_snapshot.fingerprint()
    env = tau_env.make_env("retail")
    for task in tasks:
        run_episode(env, OracleAgent, GoldUser, task_id=task.id, seed=2)
    assert domain.data.agent_snapshot.fingerprint() == before


def test_an_idle_agent__passes_no_task(tasks):
    """Refusals need their look-ups and their reason said (issue 45), so refusing idly fails.

    (Before issue 45 the idle agent passed the refusals that needed no words: 39 tasks.)
    """
    env = tau_env.make_env("retail")
    passed = {
        task.id
        for task in tasks
        if run_episode(env, IdleAgent, GoldUser, task_id=task.id, seed=0).reward == 1.0
    }
    assert passed == set()


def test_verify_draft__rejects_a_plan_that_does_not_do_what_the_task_says():
    generated = generate(seed=5, users=40, per_family=1)
    world = _world(generated)
    store = _store(generated)
    draft = FAMILIES[0](store)  # a cancellation
    _, steps = build_task(draft, "cancel_99", store)
    verify_draft(world, "cancel_99", draft, steps)  # the real plan passes
    lookup = GoldStep("get_order_details", {"order_id": "#nope"})
    with pytest.raises(DataError, match="get_order_details gave Error: Order not found"):
        verify_draft(world, "cancel_99", draft, [*steps, lookup])
    with pytest.raises(DataError, match="outcome check fails"):
        verify_draft(world, "cancel_99", draft, steps[:-1])  # never cancels
    same_address = GoldStep(
        "modify_user_address",
        {"user_id": draft.user.user_id, **draft.user.address.model_dump()},
    )
    with pytest.raises(DataError, match="changes the wrong things"):
        verify_draft(world, "cancel_99", draft, [*steps[:-1], same_address])


def _store(generated):
    import random

    from tau_env.domains.retail.generator.store import Store

    return Store(generated.data, random.Random(0))


def _world(generated):
    from tau_env.domains.retail import TOOLBOX
    from tau_env.domains.retail.data_model import RetailDB
    from tau_env.state import Journal, World
    from tau_env.state.database import SeedSource

    journal, source = Journal(), SeedSource(0)
    db = RetailDB(RetailDB.snapshot_of(generated.data), journal, source)
    return World(TOOLBOX, db, None, journal, source)
