"""The official retail data: gold replays, byte-exact tool results, judged NL assertions."""

import json

import pytest

import tau_env
from tau_env.baselines.oracle import OracleAgent
from tau_env.cli.main import main
from tau_env.episode_runner import run_episode
from tau_env.grading import TaskGrader, Verdict
from tau_env.wrappers.users import GoldUser

OPTIONAL_ORDER_FIELDS = (
    "cancel_reason",
    "exchange_items",
    "exchange_new_items",
    "exchange_payment_method_id",
    "exchange_price_difference",
    "return_items",
    "return_payment_method_id",
)


@pytest.fixture(scope="module")
def raw_db(data_dir):
    return json.loads((data_dir / "domains" / "retail" / "db.json").read_text())


@pytest.fixture(scope="module")
def episodes(data_dir):
    env = tau_env.make_env("retail", data_dir=data_dir)
    return [
        run_episode(env, OracleAgent, GoldUser, task_id=task.id, seed=0)
        for task in env.unwrapped.tasks
    ]


def test_validate__every_official_task_reaches_one_with_nl_assertions_not_judged(data_dir, capsys):
    assert main(["validate", "--domain", "retail", "--data-dir", str(data_dir)]) == 0
    tasks = tau_env.load_tasks("retail", data_dir=data_dir)
    with_assertions = sum(1 for t in tasks if t.evaluation_criteria.nl_assertions)
    out = capsys.readouterr().out.strip()
    expected = f"{len(tasks)}/{len(tasks)} tasks reach reward 1.0 "
    assert out == expected + f"({with_assertions} with NL assertions not judged)"
    assert len(tasks) == 114 and with_assertions == 40


def test_gold_replay__eighteen_calls_in_fifteen_tasks_fail_by_design(episodes):
    failing = [
        (result.task_id, message.content)
        for result in episodes
        for message in result.trajectory
        if message.role == "tool" and message.error
    ]
    assert len(failing) == 18
    assert len({task_id for task_id, _ in failing}) == 15
    assert ("64", "Error: Non-delivered order cannot be exchanged") in failing
    assert (
        "105",
        "Error: Insufficient gift card balance to pay for the price difference",
    ) in failing
    assert all(result.reward == 1.0 for result in episodes)


def test_reward_basis__db_and_nl_except_tasks_33_and_34(data_dir):
    bases = {t.id: t.reward_basis for t in tau_env.load_tasks("retail", data_dir=data_dir)}
    assert {k for k, v in bases.items() if v == ["DB"]} == {"33", "34"}
    assert all(v == ["DB", "NL_ASSERTION"] for k, v in bases.items() if k not in {"33", "34"})


def test_episodes__never_modify_the_shared_base(data_dir, episodes):
    domain = tau_env.load_domain("retail", data_dir)
    before = domain.data.agent_snapshot.fingerprint()
    env = tau_env.make_env("retail", data_dir=data_dir)
    for task in env.unwrapped.tasks:
        run_episode(env, OracleAgent, GoldUser, task_id=task.id, seed=1)
    assert domain.data.agent_snapshot.fingerprint() == before


def test_read_tools__give_the_file_records_byte_for_byte(data_dir, raw_db):
    world = tau_env.load_domain("retail", data_dir).new_world()
    for order_id, raw in raw_db["orders"].items():
        expected = json.dumps({**raw, **dict.fromkeys(OPTIONAL_ORDER_FIELDS)})
        assert world.call_tool("agent", "get_order_details", {"order_id": order_id}).content == (
            expected
        )
    for user_id, raw in raw_db["users"].items():
        got = world.call_tool("agent", "get_user_details", {"user_id": user_id}).content
        assert got == json.dumps(raw)
    for product_id, raw in raw_db["products"].items():
        got = world.call_tool("agent", "get_product_details", {"product_id": product_id}).content
        assert got == json.dumps(raw)
    names = {p["name"]: p["product_id"] for p in raw_db["products"].values()}
    listed = world.call_tool("agent", "list_all_product_types", {}).content
    assert listed == json.dumps(names, sort_keys=True) and len(names) == 50


def test_lookups__find_every_official_user_by_email_and_by_name_zip(data_dir, raw_db):
    world = tau_env.load_domain("retail", data_dir).new_world()
    for user_id, raw in raw_db["users"].items():
        by_email = world.call_tool(
            "agent", "find_user_id_by_email", {"email": raw["email"].upper()}
        )
        arguments = {
            "first_name": raw["name"]["first_name"],
            "last_name": raw["name"]["last_name"],
            "zip": raw["address"]["zip"],
        }
        by_name = world.call_tool("agent", "find_user_id_by_name_zip", arguments)
        assert (by_email.content, by_name.content) == (user_id, user_id)


def _episode_with_judge(data_dir, judge):
    env = tau_env.make_env("retail", data_dir=data_dir, grader=TaskGrader(judge=judge))
    task = next(t for t in env.unwrapped.tasks if t.evaluation_criteria.nl_assertions)
    return task, run_episode(env, OracleAgent, GoldUser, task_id=task.id, seed=0)


@pytest.mark.parametrize("verdict", [True, False])
def test_nl_assertions__an_injected_callable_judge_decides_the_grade(data_dir, verdict):
    asked = []

    def judge(trajectory, assertions):
        asked.append((len(trajectory), list(assertions)))
        return [Verdict(text, verdict, "scripted") for text in assertions]

    task, result = _episode_with_judge(data_dir, judge)
    assert asked and asked[0][1] == task.evaluation_criteria.nl_assertions
    assert asked[0][0] == len(result.trajectory)
    assert result.grade.not_judged == []
    assert result.grade.breakdown == {"DB": 1.0, "NL_ASSERTION": 1.0 if verdict else 0.0}
    assert result.reward == (1.0 if verdict else 0.0)
