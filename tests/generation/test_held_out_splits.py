"""Held-out splits by structure: ``test_world`` (``--hold-out-world``) and
``test_compositional`` (``--hold-out-compositions``).

The leak checks read the written files only and find customers by plain text search, not with
the code that makes the splits.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tau_env.cli.main import main
from tau_env.generation.held_out import (
    COMPOSITIONAL_SPLIT,
    WORLD_SPLIT,
    held_out_customers,
    split_compositions,
    split_world,
)


def generate(out: Path, domain: str, tasks: int, *extra: str) -> dict[str, Any]:
    """Generate a set (seed 2, no audit) and read it back: tasks by id, splits, db, manifest."""
    code = main(
        ["generate", "--domain", domain, "--seed", "2", "--tasks", str(tasks),
         "--out", str(out), "--audit-sample", "0", *extra]
    )  # fmt: skip
    assert code == 0
    folder = out / "domains" / domain
    read = lambda name: json.loads((folder / name).read_text())  # noqa: E731
    return {
        "tasks": {task["id"]: task for task in read("tasks.json")},
        "splits": read("split_tasks.json"),
        "db": read("db.json") if domain != "telecom" else None,
        "manifest": read("manifest.json"),
    }


def _texts(found: dict[str, Any], split: str) -> list[str]:
    return [json.dumps(found["tasks"][i], ensure_ascii=False) for i in found["splits"][split]]


def _customer_marks(db: dict[str, Any], records: str) -> dict[str, list[str]]:
    """Each customer's id, e-mail and order (or reservation) ids."""
    return {
        user_id: [user_id, user["email"], *user[records]] for user_id, user in db["users"].items()
    }


_OTHER_CUSTOMERS = ("--families", "other_user_refused,cancel,info_balance")
"""Retail families with tasks naming two customers (another customer's order)."""


@pytest.mark.parametrize(
    ("domain", "records", "tasks", "extra"),
    [("retail", "orders", 80, _OTHER_CUSTOMERS), ("airline", "reservations", 300, ())],
)
def test_hold_out_world__no_train_task_names_a_test_world_customer(
    tmp_path, domain, records, tasks, extra
):
    """A small world (60 customers) for many tasks: most customers have several tasks, so a
    task naming a held-out and a kept customer would show up in train."""
    found = generate(
        tmp_path, domain, tasks, "--hold-out-world", "0.25", "--world-size", "60", *extra
    )
    splits, marks = found["splits"], _customer_marks(found["db"], records)
    world = _texts(found, "test_world")
    assert len(world) >= 10
    world_customers = {
        user for user, texts in marks.items() if any(t in task for task in world for t in texts)
    }
    assert world_customers
    train = "\n".join(_texts(found, "train"))
    leaked = [user for user in world_customers if any(text in train for text in marks[user])]
    assert leaked == []
    # the held-out part is a share of the world; test keeps tasks, and every split is disjoint
    assert len(world_customers) <= 0.3 * len(marks)
    assert splits["train"] and splits["test"]
    named = [set(splits[name]) for name in splits if name != "base"]
    assert sum(map(len, named)) == len(set().union(*named)) == len(splits["base"]) == tasks
    manifest = found["manifest"]
    assert manifest["request"]["hold_out_world"] == 0.25
    assert manifest["splits"]["test_world"] == len(world)


def test_hold_out_world__and_families_family_wins(tmp_path):
    held = "info_tracking"
    found = generate(
        tmp_path, "retail", 200, "--hold-out-world", "0.3", "--hold-out-families", held
    )
    family = {i: t["description"]["family"] for i, t in found["tasks"].items()}
    assert {family[i] for i in found["splits"]["test_family"]} == {held}
    assert held not in {family[i] for i in found["splits"]["test_world"]}


def test_retail_compositions__cancel_and_move_held_out_its_parts_in_train(tmp_path):
    """With --hold-out-world too: a composition on a held-out customer is in
    test_compositional, so test_world holds only families train has."""
    found = generate(tmp_path, "retail", 200, "--hold-out-compositions", "--hold-out-world", "0.3")
    family = {i: t["description"]["family"] for i, t in found["tasks"].items()}
    composed = found["splits"]["test_compositional"]
    assert composed and {family[i] for i in composed} == {"cancel_and_move"}
    others = ("train", "test", "test_world")
    assert all(family[i] != "cancel_and_move" for s in others for i in found["splits"][s])
    assert found["splits"]["test_world"]
    train_families = {family[i] for i in found["splits"]["train"]}
    assert {"cancel", "user_address"} <= train_families


def test_telecom_compositions__faults_seen_apart_in_train_never_together(tmp_path):
    found = generate(tmp_path, "telecom", 240, "--hold-out-compositions")
    tasks, splits = found["tasks"], found["splits"]

    def faults(task_id: str) -> frozenset[str]:
        issues = tasks[task_id]["description"]["parameters"]["issues"]
        return frozenset(name for name in issues.split("|") if name)

    train = [faults(i) for i in splits["train"]]
    seen = frozenset().union(*train)
    composed = splits["test_compositional"]
    assert len(composed) >= 10
    for task_id in composed:
        assert len(faults(task_id)) >= 2
        assert faults(task_id) <= seen
        assert faults(task_id) not in train
    # what test keeps is not such a composition: a fault type train lacks, or one fault
    assert splits["test"]
    for task_id in splits["test"]:
        assert not faults(task_id) <= seen or len(faults(task_id)) < 2 or faults(task_id) in train
    assert splits["test_ood"]


def test_split_world__held_out_names_only_to_test_world_both_dropped_none_kept():
    users = {f"u{i}": {"email": f"u{i}@x.com", "orders": [f"#W{i}"]} for i in range(10)}
    database = json.dumps({"users": users}).encode()
    held = sorted(held_out_customers(users, 0.3, 5))
    kept = sorted(set(users) - set(held))
    split_of = {"only_held": "train", "both": "train", "none": "test", "other": "test"}
    texts = [
        ("only_held", {"user_id": held[0], "order": f"#W{held[1][1:]}"}),
        ("both", {"user_id": kept[0], "ask_about": f"{held[0]}@x.com."}),
        ("none", {"user_id": "nobody"}),
        ("other", {"user_id": kept[1]}),
    ]
    split_world(split_of, database, 0.3, 5, texts)
    assert split_of == {"only_held": WORLD_SPLIT, "none": "test", "other": "test"}
    split_compositions(split_of, {"both", "none"})  # a dropped candidate stays dropped
    assert split_of == {"only_held": WORLD_SPLIT, "none": COMPOSITIONAL_SPLIT, "other": "test"}


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--domain", "telecom", "--hold-out-world", "0.2"], "scenario customers"),
        (["--domain", "banking_knowledge", "--hold-out-world", "0.2"], "writes the customers"),
        (["--domain", "retail", "--hold-out-world", "1"], "between 0 and 1"),
        (["--domain", "airline", "--hold-out-world", "-0.1"], "between 0 and 1"),
        (["--domain", "airline", "--hold-out-compositions"], "compensation_delayed"),
        (["--domain", "banking_knowledge", "--hold-out-compositions"], "products"),
        (
            ["--domain", "retail", "--hold-out-compositions", "--hold-out-families", "cancel"],
            "train would not have cancel",
        ),
        (
            ["--domain", "retail", "--hold-out-compositions", "--families", "cancel_and_move"],
            "would not have cancel, user_address",
        ),
    ],
)
def test_held_out_options__refused_where_they_mean_nothing(tmp_path, capsys, arguments, message):
    out = tmp_path / "out"
    assert main(["generate", *arguments, "--tasks", "5", "--out", str(out)]) == 2
    error = capsys.readouterr().err
    assert message in error and len(error.strip().splitlines()) == 1
    assert not out.exists()
