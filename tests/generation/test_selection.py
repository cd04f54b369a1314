"""Choosing a generated set's tasks: duplicates removed, every family keeps its share."""

from collections import Counter

import pytest

from tau_env.generation.select import distinct, proportional, quotas, task_key, weighted


def task(family: str, plan: list[str], number: int = 0, wording: str = "") -> dict:
    return {
        "id": f"{family}_{number}",
        "description": {"family": family},
        "user_scenario": {"instructions": {"reason_for_call": wording}},
        "evaluation_criteria": {"actions": [{"name": n, "arguments": {"x": 1}} for n in plan]},
    }


def family(t: dict) -> str:
    return t["description"]["family"]


def test_distinct__same_family_and_plan_is_a_duplicate_whatever_the_wording():
    first = task("cancel", ["get", "cancel"], 0, "please cancel")
    same = task("cancel", ["get", "cancel"], 1, "cancel it now")
    other_plan = task("cancel", ["get", "refund"], 2)
    other_family = task("refund", ["get", "cancel"], 3)
    kept = distinct([first, same, other_plan, other_family], lambda t: task_key(t, family(t)))
    assert [t["id"] for t in kept] == ["cancel_0", "cancel_2", "refund_3"]
    assert task_key(first, "cancel") == task_key(same, "cancel")


def test_proportional__keeps_each_family_share_and_draw_order():
    tasks = [task("a", ["s"], i) for i in range(60)] + [task("b", ["s"], i) for i in range(30)]
    chosen = proportional(tasks, 30, family)
    assert Counter(family(t) for t in chosen) == {"a": 20, "b": 10}
    assert chosen == sorted(chosen, key=tasks.index)
    assert proportional(tasks, 90, family) == tasks


def test_quotas__proportional_to_weights_and_adding_up():
    assert quotas({"a": 3, "b": 1}, 100) == {"a": 75, "b": 25}
    shares = quotas({"a": 10, "b": 1, "c": 0.5}, 300)
    assert shares == {"a": 261, "b": 26, "c": 13} and sum(shares.values()) == 300
    assert sum(quotas({"a": 1, "b": 1, "c": 1}, 100).values()) == 100


def test_weighted__each_family_its_quota_each_split_its_share_draw_order_kept():
    tasks = [task("a", ["s"], i) for i in range(60)] + [task("b", ["s"], i) for i in range(60)]

    def stratum(t: dict) -> str:  # every third task of a family in "test"
        return f"{family(t)}|{'test' if int(t['id'].split('_')[1]) % 3 == 0 else 'train'}"

    chosen = weighted(tasks, {"a": 3, "b": 1}, 40, family, stratum)
    assert Counter(family(t) for t in chosen) == {"a": 30, "b": 10}
    assert Counter(stratum(t) for t in chosen)["a|test"] == 10
    assert chosen == sorted(chosen, key=tasks.index)
    with pytest.raises(ValueError, match="b: 60 tasks for a quota of 90"):
        weighted(tasks, {"a": 1, "b": 3}, 120, family, stratum)
