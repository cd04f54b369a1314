"""No state leaks between episodes: VPN defaults, the shared base, seeds."""

import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

import tau_env
from tau_env.baselines.oracle import OracleAgent
from tau_env.episode_runner import run_episode
from tau_env.wrappers.users import GoldUser
from tests.domains.telecom.conftest import call, run, state_hash

EXCELLENT_VPN = (
    "VPN is ON and connected. Details: {'server_address': '192.168.1.1', "
    "'protocol': 'OpenVPN', 'server_performance': <PerformanceLevel.EXCELLENT: 'excellent'>}"
)


def _fresh_vpn_status(domain):
    world = domain.new_world(seed=0)
    call(world, "user", "connect_vpn")
    return call(world, "user", "check_vpn_status"), call(world, "user", "run_speed_test")


def _bad_vpn_task(domain):
    def issues(task):  # built-in tasks name them in their description, official ones in the id
        return task.description.parameters["issues"] if task.family else task.id

    return next(
        t for t in domain.tasks if "bad_vpn" in issues(t) and "ACTION" not in t.reward_basis
    )


@pytest.fixture(params=["built-in", "official"])
def source(request):
    """The data folder (None: built-in data)."""
    return None if request.param == "built-in" else request.getfixturevalue("data_dir")


def test_vpn__a_bad_vpn_episode_does_not_change_the_next_phone(source):
    domain = tau_env.load_domain("telecom", source)
    env = tau_env.make_env("telecom", data_dir=source)
    task = _bad_vpn_task(domain)
    assert run_episode(env, OracleAgent, GoldUser, task_id=task.id, seed=0).reward == 1.0
    start = domain.prepare(task).initial_world.fork(seed=1)
    assert "<PerformanceLevel.POOR: 'poor'>" in call(start, "user", "check_vpn_status")
    status, speed = _fresh_vpn_status(domain)
    assert status == EXCELLENT_VPN
    assert "(Excellent)" in speed


def test_vpn__no_leak_between_threads(builtin):
    stop, finished = threading.Event(), threading.Event()
    broken = 0
    task = _bad_vpn_task(builtin)

    def break_vpns():  # plays bad-VPN episodes while the other thread connects fresh VPNs
        nonlocal broken
        env = tau_env.make_env("telecom")
        try:
            while not stop.is_set():
                result = run_episode(env, OracleAgent, GoldUser, task_id=task.id, seed=0)
                assert result.reward == 1.0
                broken += 1
        finally:
            finished.set()

    def connect_vpns():  # until the other thread has played 20 episodes (and at least 300 times)
        statuses = []
        while (len(statuses) < 300 or broken < 20) and not finished.is_set():
            statuses.append(_fresh_vpn_status(builtin)[0])
        return statuses

    with ThreadPoolExecutor(max_workers=2) as pool:
        breaker = pool.submit(break_vpns)
        statuses = pool.submit(connect_vpns).result()
        stop.set()
        breaker.result()
    assert broken >= 20
    assert set(statuses) == {EXCELLENT_VPN}


def _refuel_world(builtin, seed):
    world = builtin.new_world(seed=seed)
    run(world, "user", "set_user_info", name="Daniel Okafor", phone_number="555-210-3003")
    run(world, "agent", "set_data_usage", customer_id="C2002", line_id="L2003", data_used_gb=20.1)
    call(world, "agent", "refuel_data", customer_id="C2002", line_id="L2003", gb_amount=2.0)
    return world


def test_seed__same_seed_same_state_hash_after_refuel(builtin):
    assert state_hash(_refuel_world(builtin, 11)) == state_hash(_refuel_world(builtin, 11))
    assert state_hash(_refuel_world(builtin, 11)) != state_hash(_refuel_world(builtin, 12))


_EPISODE_HASH = """
import tau_env
from tau_env.baselines.oracle import OracleAgent
from tau_env.episode_runner import run_episode
from tau_env.wrappers.users import GoldUser
env = tau_env.make_env("telecom")
task = next(
    t
    for t in env.unwrapped.tasks
    if "data_usage_exceeded" in t.description.parameters["issues"].split("|")
)
result = run_episode(env, OracleAgent, GoldUser, task_id=task.id, seed=42)
world = env.unwrapped.conversation.world
issues = task.description.parameters["issues"]
print(issues, result.reward, world.agent_db.reference_hash(), world.user_db.reference_hash())
"""


def test_seed__same_task_and_seed_same_hash_across_processes():
    outputs = [
        subprocess.run(
            [sys.executable, "-c", _EPISODE_HASH], capture_output=True, text=True, check=True
        ).stdout
        for _ in range(2)
    ]
    assert outputs[0] == outputs[1]
    issues, reward, *_ = outputs[0].split()
    assert "data_usage_exceeded" in issues.split("|") and reward == "1.0"


@pytest.mark.parametrize(
    ("builtin_data", "split"),
    [(True, None), (False, "base"), (False, "full")],
    ids=["built-in", "official-base", "official-full"],
)
def test_episodes__never_modify_the_shared_base(request, builtin_data, split):
    source = None if builtin_data else request.getfixturevalue("data_dir")
    domain = tau_env.load_domain("telecom", source)
    base = (domain.data.agent_snapshot.fingerprint(), domain.data.user_snapshot.fingerprint())
    env = tau_env.make_env("telecom", data_dir=source, split=split)
    rewards = [
        run_episode(env, OracleAgent, GoldUser, task_id=task.id, seed=3).reward
        for task in env.unwrapped.tasks
    ]
    assert set(rewards) == {1.0}
    assert (
        domain.data.agent_snapshot.fingerprint(),
        domain.data.user_snapshot.fingerprint(),
    ) == base
