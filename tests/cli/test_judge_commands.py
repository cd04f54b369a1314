"""Issue 14 end to end: NL assertions judged by a scripted judge on the fake server.

Retail (official data) is graded DB x NL_ASSERTION: without a judge its episodes have no
reward and never count as passes; a judge that fails the assertions makes them score 0; a
resume with a judge completes a run without replaying it.
"""

import json

import pytest

from tau_env.cli.main import main
from tau_env.store import ResultStore
from tau_env.testing.fake_judge import judge_outcomes, judge_script
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply

NL_TASKS = "2,16,19"  # DB x NL_ASSERTION with assertions; 33 is graded on DB alone


@pytest.fixture(autouse=True)
def _api_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")  # the SDK wants one; the fake ignores it


@pytest.fixture
def store(tmp_path):
    return str(tmp_path / "runs.sqlite")


def _run_args(data_dir, store, tasks=f"{NL_TASKS},33"):
    return [
        "--domain", "retail", "--data-dir", str(data_dir), "--agent", "oracle",
        "--user", "gold", "--tasks", tasks, "--trials", "2", "--run", "r",
        "--store", store, "--no-progress",
    ]  # fmt: skip


def _judge_args(server):
    return ["--judge-model", server.model(), "--judge-api-base", server.base_url]


def test_run_without_judge__not_judged_never_passes_then_resume_with_a_failing_judge(
    data_dir, store, capsys
):
    # Issue 55 item 9: exit 1 (partial figures), the not-judged count beside pass^k
    assert main(["run", *_run_args(data_dir, store)]) == 1
    out = capsys.readouterr().out
    assert "not judged: 6 of 8 episodes wait for a judge" in out
    assert f"--store {store} --run r --judge-model MODEL" in out
    assert "pass^1=1.000  pass^2=1.000 over the 1 judged tasks of 4 (6 episodes not judged" in out
    assert "4 tasks x 2 trials (8 episodes; 6 not judged): average reward 1.000 over the" in out
    with ResultStore(store) as opened:
        assert opened.rewards("r")["2"] == {0: None, 1: None}

    with FakeOpenAIServer(judge_script(lambda text: False)) as server:
        assert main(["resume", "--store", store, "--run", "r", *_judge_args(server)]) == 0
        calls = len(server.requests)
    out = capsys.readouterr().out
    assert 3 <= calls <= 6  # one per waiting episode; a cached ruling may spare a call
    assert "not judged" not in out
    assert "pass^1=0.250  pass^2=0.250" in out  # 33 passes; 2, 16, 19 fail their assertions
    with ResultStore(store) as opened:
        assert opened.rewards("r")["2"] == {0: 0.0, 1: 0.0}
        assert opened.episode_count("r") == 8  # nothing replayed
        config = opened.run("r").config
    assert config["judge"]["model"] == "openai/fake"

    assert main(["export", "--store", store, "--run", "r"]) == 0
    results = json.loads(capsys.readouterr().out)
    assert results["info"]["nl_assertions_judge"]["llm"] == "openai/fake"
    assert results["info"]["not_judged_simulations"] == 0
    sim = next(s for s in results["simulations"] if s["task_id"] == "19")
    assert sim["reward_info"]["reward"] == 0.0
    assert sim["reward_info"]["reward_breakdown"] == {"DB": 1.0, "NL_ASSERTION": 0.0}
    assert [c["met"] for c in sim["reward_info"]["nl_assertions"]] == [False, False]


def test_resume__one_run_has_one_judge(data_dir, store, capsys):
    assert main(["run", *_run_args(data_dir, store, tasks="33")]) == 0
    with FakeOpenAIServer(judge_script()) as server:
        assert main(["resume", "--store", store, "--run", "r", *_judge_args(server)]) == 0
        other = ["--judge-model", "openai/other", "--judge-api-base", server.base_url]
        assert main(["resume", "--store", store, "--run", "r", *other]) == 2
    assert "is judged by 'openai/fake', not 'openai/other'" in capsys.readouterr().err


def test_run_with_judge__judged_as_they_finish(data_dir, store, capsys):
    with FakeOpenAIServer(judge_script()) as server:
        assert main(["run", *_run_args(data_dir, store), *_judge_args(server)]) == 0
        assert server.requests and server.requests[0].body["temperature"] == 0.0
    out = capsys.readouterr().out
    assert "pass^1=1.000  pass^2=1.000" in out and "not judged" not in out


def test_judge_failure__never_a_pass_the_run_says_so_and_a_resume_completes_it(
    data_dir, store, capsys
):
    with FakeOpenAIServer(lambda request: FakeReply.text("They all look fine.")) as server:
        assert main(["run", *_run_args(data_dir, store), *_judge_args(server)]) == 1
    captured = capsys.readouterr()
    assert "not judged: 6 of 8 episodes" in captured.out
    assert "the judge could not rule on 6 episodes" in captured.err
    with ResultStore(store) as opened:
        failures = opened.failures("r")
        assert len(failures) == 6 and all(f.kind == "infrastructure" for f in failures)
        assert "no usable verdict after 3 replies" in failures[0].error
        assert sum(reward is None for t in opened.rewards("r").values() for reward in t.values())
    with FakeOpenAIServer(judge_script()) as server:  # the run's judge, now answering
        assert main(["resume", "--store", store, "--run", "r", *_judge_args(server)]) == 0
    assert "pass^1=1.000  pass^2=1.000" in capsys.readouterr().out


def test_validate__a_judge_approving_every_assertion_gives_114_of_114(data_dir, capsys):
    with FakeOpenAIServer(judge_script()) as server:
        args = ["validate", "--domain", "retail", "--data-dir", str(data_dir)]
        assert main([*args, *_judge_args(server)]) == 0
        assert len(server.requests) == 40  # one per task with NL assertions
    assert capsys.readouterr().out.strip() == "114/114 tasks reach reward 1.0"


def test_validate__without_judge_nl_tasks_are_not_judged_not_passed(data_dir, capsys):
    assert main(["validate", "--domain", "retail", "--data-dir", str(data_dir)]) == 1
    assert capsys.readouterr().out.strip() == (
        "74/114 tasks reach reward 1.0; 40 not judged (NL assertions: pass --judge-model to "
        "judge them)"
    )


def test_judge_api_base__needs_a_judge_model(store, capsys):
    assert main(["run", "--domain", "mock", "--judge-api-base", "http://x", "--store", store]) == 2
    assert "--judge-api-base needs --judge-model" in capsys.readouterr().err


def test_validate__a_judge_ruling_every_assertion_unmet_is_asked_about_each_nl_task(
    data_dir, capsys
):
    # Gold replays pass every other component, so each of the 40 tasks with NL assertions
    # goes to the judge (none can be saved here; see the altered copy below).
    with FakeOpenAIServer(judge_script(lambda text: False)) as server:
        args = ["validate", "--domain", "retail", "--data-dir", str(data_dir)]
        assert main([*args, *_judge_args(server)]) == 1
        assert len(server.requests) == 40
    captured = capsys.readouterr()
    lines = captured.out.strip().splitlines()
    assert sum(line.startswith("FAIL ") for line in lines) == 40
    assert lines[-1] == "74/114 tasks reach reward 1.0"
    assert "the judge was asked about 40 tasks; 0 calls saved" in captured.err


def _retail_copy(data_dir, tmp_path, failing: list[str]):
    """The official retail data, where the tasks `failing` also assert that a customer who
    does not exist is found (ENV_ASSERTION in their basis): their reward is 0 whatever the
    judge rules."""
    folder = tmp_path / "domains" / "retail"
    folder.mkdir(parents=True)
    source = data_dir / "domains" / "retail"
    for item in source.iterdir():
        if item.name != "tasks.json":
            (folder / item.name).symlink_to(item.resolve())
    tasks = json.loads((source / "tasks.json").read_text())
    for task in tasks:
        if task["id"] in failing:
            criteria = task["evaluation_criteria"]
            criteria["env_assertions"] = [
                {
                    "env_type": "assistant",
                    "func_name": "find_user_id_by_email",
                    "arguments": {"email": "nobody@example.com"},
                    "assert_value": True,
                }
            ]
            criteria["reward_basis"] = [*criteria["reward_basis"], "ENV_ASSERTION"]
    (folder / "tasks.json").write_text(json.dumps(tasks))
    return tmp_path


def test_validate__the_judge_is_asked_only_when_its_verdict_can_change_the_reward(
    data_dir, tmp_path, capsys
):
    altered = _retail_copy(data_dir, tmp_path, NL_TASKS.split(","))
    with FakeOpenAIServer(judge_script()) as server:
        args = ["validate", "--domain", "retail", "--data-dir", str(altered)]
        assert main([*args, *_judge_args(server)]) == 1
        judged = [set(judge_outcomes(request)) for request in server.requests]
    assert len(judged) == 37  # the 40 tasks with NL assertions but 2, 16 and 19
    captured = capsys.readouterr()
    lines = captured.out.strip().splitlines()
    assert sorted(line.split(":")[0] for line in lines[:-1]) == ["FAIL 16", "FAIL 19", "FAIL 2"]
    assert lines[-1] == (
        "111/114 tasks reach reward 1.0; 3 judge calls saved (NL assertions of tasks already at "
        "reward 0)"
    )
    assert "the judge was asked about 37 tasks; 3 calls saved" in captured.err
    # Without a judge, those three are reward 0, not "not judged".
    assert main(["validate", "--domain", "retail", "--data-dir", str(altered)]) == 1
    assert capsys.readouterr().out.strip().splitlines()[-1] == (
        "74/114 tasks reach reward 1.0; 37 not judged (NL assertions: pass --judge-model to "
        "judge them); 3 judge calls saved (NL assertions of tasks already at reward 0)"
    )


def test_run__episodes_already_at_0_are_not_judged_and_the_report_counts_them(
    data_dir, store, capsys
):
    # An agent that only talks changes nothing: DB fails on tasks 2, 16 and 19 (their gold
    # plans write), so no verdict could change their reward; 33 has no NL assertion.
    with FakeOpenAIServer(judge_script()) as server:
        agent = ["--agent", "llm", "--agent-model", server.model()]
        agent += ["--agent-api-base", server.base_url]
        args = _run_args(data_dir, store)
        args[args.index("--agent") : args.index("--agent") + 2] = agent
        assert main(["run", *args, *_judge_args(server)]) == 0
        judged = [r for r in server.requests if judge_outcomes(r) is not None]
    assert judged == []
    out = capsys.readouterr().out
    assert "judge calls saved: 6 (episodes whose NL assertions need no verdict" in out
    assert "not judged" not in out
    with ResultStore(store) as opened:
        assert opened.rewards("r")["2"] == {0: 0.0, 1: 0.0}
    assert main(["report", "--store", store, "--run", "r", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["judge_calls_saved"] == 6
