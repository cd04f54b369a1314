"""The official retail data: gold replays, byte-exact tool results, judged NL assertions."""

import json

import pytest

import tau_env
from tau_env import SendMessage
from tau_env.baselines.oracle import OracleAgent
from tau_env.cli.main import main
from tau_env.episode_runner import run_episode
from tau_env.grading import LLMJudge, TaskGrader, Verdict
from tau_env.testing.fake_judge import judge_script
from tau_env.testing.fake_openai import FakeOpenAIServer
from tau_env.wrappers.users import GoldUser
from tests.domains.retail.conftest import OPTIONAL_ORDER_FIELDS


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


def test_validate__without_a_judge_nl_tasks_are_not_judged_never_passed(data_dir, capsys):
    # Before issue 14 this printed 114/114: the unjudged NL check was left out of the product.
    assert main(["validate", "--domain", "retail", "--data-dir", str(data_dir)]) == 1
    tasks = tau_env.load_tasks("retail", data_dir=data_dir)
    with_assertions = sum(1 for t in tasks if t.evaluation_criteria.nl_assertions)
    out = capsys.readouterr().out.strip()
    assert out == (
        f"{len(tasks) - with_assertions}/{len(tasks)} tasks reach reward 1.0; {with_assertions} "
        "not judged (NL assertions: pass --judge-model to judge them)"
    )
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
    assert all(result.grade.checks["DB"].reward == 1.0 for result in episodes)
    unjudged = [result for result in episodes if result.reward is None]
    assert len(unjudged) == 40 and all(r.grade.not_judged == ["NL_ASSERTION"] for r in unjudged)
    assert all(result.reward == 1.0 for result in episodes if result.reward is not None)


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


def _idle(task):
    class Idle:
        def act(self, view, context):
            return SendMessage(content="I cannot help with that.")

    return Idle()


def test_idle_agent__nl_tasks_it_passed_unjudged_are_not_judged_then_failed_by_a_judge(data_dir):
    # Before issue 14 an idle agent passed 11 official retail tasks, 5 of them only because
    # their NL assertions were not judged.
    env = tau_env.make_env("retail", data_dir=data_dir)
    results = [run_episode(env, _idle, GoldUser, task_id=t.id, seed=0) for t in env.unwrapped.tasks]
    passed = sorted(r.task_id for r in results if r.grade.success)
    left_out = sorted(
        r.task_id for r in results if r.reward is None and r.grade.checks["DB"].reward == 1.0
    )
    assert passed == ["10", "12", "25", "50", "57", "65"]
    assert len(left_out) == 5 and not set(left_out) & set(passed)
    assert all(env.unwrapped.domain.task(t).evaluation_criteria.nl_assertions for t in left_out)

    with FakeOpenAIServer(judge_script(lambda text: False)) as server:
        judge = LLMJudge.from_model(server.config())
        judged_env = tau_env.make_env("retail", data_dir=data_dir, judge=judge)
        for task_id in left_out:
            result = run_episode(judged_env, _idle, GoldUser, task_id=task_id, seed=0)
            assert result.reward == 0.0 and result.grade.breakdown["NL_ASSERTION"] == 0.0
        assert len(server.requests) == 5
