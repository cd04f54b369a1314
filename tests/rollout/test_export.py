import json

import pytest

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


def test_export__reread_in_the_reference_layout_keeps_verdicts_and_rewards(
    tmp_path, data_dir, monkeypatch
):
    from tau_env.rollout import ParticipantSpec, RunConfig, run_report
    from tau_env.rollout.config import JudgeSpec
    from tau_env.store import ResultStore
    from tau_env.testing.fake_judge import judge_script
    from tau_env.testing.fake_openai import FakeOpenAIServer
    from tests.rollout.reference_results import Results, reference_pass_hat_1

    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")
    config = RunConfig(
        run_id="r",
        domain="retail",
        data_dir=str(data_dir),
        task_ids=("19", "21", "33", "2"),
        trials=2,
        agent=ParticipantSpec(kind="oracle"),
        user=ParticipantSpec(kind="gold"),
    )
    # Task 19's second assertion fails; task 2 stays not judged (its run had no judge).
    rule = lambda text: "saves $41.64" not in text  # noqa: E731
    with (
        ResultStore(tmp_path / "s.sqlite") as store,
        FakeOpenAIServer(judge_script(rule)) as server,
    ):
        create_run(store, config.model_copy(update={"task_ids": ("2",), "run_id": "w"}))
        run(store, config.model_copy(update={"task_ids": ("2",), "run_id": "w"}))
        judge = JudgeSpec(model=server.model(), api_base=server.base_url)
        judged = config.model_copy(update={"judge": judge, "task_ids": ("19", "21", "33")})
        create_run(store, judged)
        run(store, judged)
        exported = json.loads(json.dumps(export_run(store, "r")))
        unjudged = json.loads(json.dumps(export_run(store, "w")))
        stored = {(e.task_id, e.trial): e for e in store.episodes("r")}
        report = run_report(store, "r")

    results = Results.model_validate(exported)
    assert len(results.simulations) == 6
    for sim in results.simulations:
        episode = stored[(sim.task_id, sim.trial)]
        assert sim.reward_info.reward == episode.reward
        if "NL_ASSERTION" not in episode.grade["checks"]:
            continue  # task 33: graded on DB alone
        verdicts = episode.grade["checks"]["NL_ASSERTION"]["details"]
        assert [
            (c.nl_assertion, c.met, c.justification) for c in sim.reward_info.nl_assertions
        ] == [(v["assertion"], v["met"], v["justification"]) for v in verdicts]
        assert sim.reward_info.info["nl_judge"] == "openai/fake"
    rewards = {(s.task_id, s.trial): s.reward_info.reward for s in results.simulations}
    assert rewards == {("19", 0): 0.0, ("19", 1): 0.0, ("21", 0): 1.0, ("21", 1): 1.0,
                       ("33", 0): 1.0, ("33", 1): 1.0}  # fmt: skip
    nl_33 = next(s for s in results.simulations if s.task_id == "33").reward_info.nl_assertions
    assert nl_33 is None  # NL is not in task 33's basis: not evaluated, as the reference
    assert (
        reference_pass_hat_1(results) == pytest.approx(report.pass_hat_k[1]) == pytest.approx(2 / 3)
    )
    assert results.info.model_dump()["git_commit"].startswith("tau_env")
    assert exported["info"]["nl_assertions_judge"] == {
        "llm": "openai/fake",
        "llm_args": {"temperature": 0.0, "seed": 0},
    }

    waiting = Results.model_validate(unjudged)
    assert [(s.termination_reason, s.reward_info) for s in waiting.simulations] == [
        ("infrastructure_error", None)
    ] * 2
    assert waiting.simulations[0].info["not_judged"] == ["NL_ASSERTION"]
    assert waiting.simulations[0].info["termination_reason"] == "user_stop"
    assert waiting.simulations[0].messages  # the conversation is kept
    assert unjudged["info"]["not_judged_simulations"] == 2


def test_export__a_built_in_refusal_keeps_the_reference_layout(store):
    """Issue 53: facts not to say are no communicate check of the reference's layout."""
    import tau_env

    domain = tau_env.load_domain("airline")
    refusal = next(t for t in domain.tasks if t.evaluation_criteria.forbidden_info)
    config = mock_config(domain="airline", tasks=[refusal.id], trials=1)
    create_run(store, config)
    run(store, config)
    [sim] = export_run(store, "r")["simulations"]
    checks = sim["reward_info"]["communicate_checks"]
    assert [c["info"] for c in checks] == refusal.evaluation_criteria.communicate_info
    assert sim["reward_info"]["reward"] == 1.0
