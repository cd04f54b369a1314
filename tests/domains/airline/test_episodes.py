"""Whole episodes: gold replays reach 1.0, the shared base is never mutated, runs are repeatable."""

import pytest

import tau_env
from tau_env.baselines.oracle import OracleAgent
from tau_env.cli.main import main
from tau_env.episode_runner import run_episode
from tau_env.wrappers.users import GoldUser
from tests.domains.idle import IdleAgent
from tests.families import task_of


@pytest.fixture(params=["built-in", "official"])
def domain_source(request):
    return None if request.param == "built-in" else request.getfixturevalue("data_dir")


def test_validate__official_airline_reaches_one_on_all_fifty(data_dir, capsys):
    assert main(["validate", "--domain", "airline", "--data-dir", str(data_dir)]) == 0
    assert capsys.readouterr().out.strip() == "50/50 tasks reach reward 1.0"


def test_validate__builtin_airline_reaches_one_on_every_task(capsys):
    count = len(tau_env.load_tasks("airline"))
    assert count >= 200
    assert main(["validate", "--domain", "airline"]) == 0
    assert capsys.readouterr().out.strip() == f"{count}/{count} tasks reach reward 1.0"


def test_episodes__never_modify_the_shared_base(domain_source):
    domain = tau_env.load_domain("airline", domain_source)
    before = domain.data.agent_snapshot.fingerprint()
    env = tau_env.make_env("airline", data_dir=domain_source)
    for task in env.unwrapped.tasks:
        result = run_episode(env, OracleAgent, GoldUser, task_id=task.id, seed=1)
        assert result.reward == 1.0, task.id
    assert domain.data.agent_snapshot.fingerprint() == before


def test_gold_replay__is_deterministic_for_a_seed(domain_source):
    env = tau_env.make_env("airline", data_dir=domain_source)
    for task in env.unwrapped.tasks[::7]:
        first = run_episode(env, OracleAgent, GoldUser, task_id=task.id, seed=5)
        second = run_episode(env, OracleAgent, GoldUser, task_id=task.id, seed=5)
        assert [m.model_dump() for m in first.trajectory] == [
            m.model_dump() for m in second.trajectory
        ]
        assert first.grade == second.grade


def test_idle_agent__passes_exactly_the_tasks_whose_right_outcome_is_doing_nothing():
    env = tau_env.make_env("airline")
    domain = env.unwrapped.domain
    passed, nothing_to_do = set(), set()
    for task in env.unwrapped.tasks:
        if run_episode(env, IdleAgent, GoldUser, task_id=task.id, seed=0).reward == 1.0:
            passed.add(task.id)
        expected = domain.expected_world(task)
        unchanged = not expected.differences(domain.prepare(task).initial_world)
        criteria = task.evaluation_criteria
        if unchanged and not criteria.communicate_info and "ACTION" not in criteria.reward_basis:
            nothing_to_do.add(task.id)
    assert passed == nothing_to_do
    refusal_families = {domain.task(task_id).family for task_id in nothing_to_do}
    assert all("refused" in family for family in refusal_families)  # transfers need the call
    assert len(passed) < len(env.unwrapped.tasks) / 2


def test_transfer_task__ends_with_the_users_transfer_token():
    result = run_episode(
        tau_env.make_env("airline"),
        OracleAgent,
        GoldUser,
        task_id=task_of("airline", "cancel_flown_transfer").id,
        seed=0,
    )
    assert result.reward == 1.0
    assert result.trajectory[-1].content == "###TRANSFER###"


def test_bags__official_reservation_refuses_a_string_number(data_dir):
    # The example: tau_env used to write the DB; the reference fails (str minus int).
    world = tau_env.load_domain("airline", data_dir).new_world()
    before = world.agent_db.reference_hash()
    arguments = {
        "reservation_id": "4WQ150",
        "total_baggages": 5,
        "nonfree_baggages": "0",
        "payment_id": "gift_card_3576581",
    }
    result = world.call_tool("agent", "update_reservation_baggages", arguments)
    assert result.error and "'nonfree_baggages': Input should be a valid integer" in result.content
    assert world.agent_db.reference_hash() == before
    arguments["nonfree_baggages"] = 0
    assert not world.call_tool("agent", "update_reservation_baggages", arguments).error
