import json

from tau_env.rollout import create_run, export_run, run
from tests.rollout import agents
from tests.rollout.conftest import mock_config


def test_export__has_the_reference_results_layout(store):
    config = mock_config(trials=2)
    create_run(store, config)
    run(store, config)
    results = json.loads(json.dumps(export_run(store, "r")))  # JSON-serializable throughout
    assert set(results) == {"timestamp", "info", "tasks", "simulations"}
    info = results["info"]
    assert (info["num_trials"], info["max_steps"], info["max_errors"], info["seed"]) == (
        2,
        200,
        10,
        300,
    )
    assert info["agent_info"] == {"implementation": "oracle", "llm": None, "llm_args": None}
    assert info["environment_info"]["domain_name"] == "mock"
    assert "policy" in info["environment_info"]
    assert [t["id"] for t in results["tasks"]] == list(config.task_ids)
    assert all("user_script" not in t for t in results["tasks"])
    sims = results["simulations"]
    assert sorted((s["task_id"], s["trial"]) for s in sims) == sorted(
        (t, k) for t in config.task_ids for k in range(2)
    )
    sim = next(s for s in sims if s["task_id"] == "complete_task" and s["trial"] == 0)
    assert sim["termination_reason"] == "user_stop" and sim["mode"] == "half_duplex"
    assert sim["reward_info"]["reward"] == 1.0
    assert sim["reward_info"]["db_check"] == {"db_match": True, "db_reward": 1.0}
    assert sim["reward_info"]["action_checks"][0]["action"]["name"] == "update_task_status"
    assert sim["reward_info"]["action_checks"][0]["action_match"] is True
    assert sim["reward_info"]["action_checks"][0]["tool_type"] == "write"
    assert [m["turn_idx"] for m in sim["messages"]] == list(range(len(sim["messages"])))
    assert all("request" not in m for m in sim["messages"])
    assert len({s["id"] for s in sims}) == len(sims)


def test_export__unfinished_attempts_appear_as_infrastructure_errors(store):
    config = mock_config(agent="tests.rollout.agents:OutageOracle", trials=1)
    create_run(store, config)
    run(store, config)
    sims = export_run(store)["simulations"]
    failed = [s for s in sims if s["termination_reason"] == "infrastructure_error"]
    assert [(s["task_id"], s["messages"], s["reward_info"]) for s in failed] == [
        ("complete_task", [], None)
    ]
    agents.OUTAGE["active"] = False
    run(store, config)
    assert all(s["termination_reason"] == "user_stop" for s in export_run(store)["simulations"])
