"""``tau-env run | resume | report | export`` end to end on the built-in mock domain."""

import json
import shlex
import sqlite3

import pytest

import tau_env
from tau_env.cli.common import DEFAULT_DOMAIN, DEFAULT_STORE
from tau_env.cli.main import main


@pytest.fixture
def store(tmp_path):
    return str(tmp_path / "runs.sqlite")


def test_run__main_job_prints_pass_hat_1_to_4_of_one(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["run", "--trials", "4"]) == 0
    out = capsys.readouterr().out
    assert "pass^1=1.000  pass^2=1.000  pass^3=1.000  pass^4=1.000" in out
    assert DEFAULT_DOMAIN == "telecom"  # the README's main job
    assert f"run {DEFAULT_DOMAIN}-oracle-scripted-" in out
    assert (tmp_path / DEFAULT_STORE).is_file()
    # Issue 15: a compact summary (it printed 420 rows ~258 characters wide), which says what
    # an oracle's 1.0 means.
    lines = out.splitlines()
    assert len(lines) <= 8 and max(map(len, lines)) <= 130, out
    assert any(line.startswith("note: the oracle agent replays each task's gold") for line in lines)


def test_run__report_and_export_read_the_same_store(store, tmp_path, capsys):
    args = ["--store", store]
    assert (
        main(
            [
                *shlex.split(
                    "run --domain mock --tasks create_task,complete_task --trials 3 --run a"
                ),
                *args,
            ]
        )
        == 0
    )
    assert (
        main([*shlex.split("run --domain mock --agent random --tasks create_task --run b"), *args])
        == 0
    )
    capsys.readouterr()
    assert main(["report", "--all", *args]) == 0
    out = capsys.readouterr().out
    assert "run a: mock, agent oracle, user scripted" in out
    # Issue 15: the task id is the last column, so long ids do not stretch every row.
    assert "    3/3   1.000     1.000     1.000     create_task\n" in out
    assert "per domain:" in out and "(b)" in out
    assert "  mock    default  random  scripted  pass^1=0.000" in out  # the mode is shown
    assert main(["report", "--run", "a", "--json", *args]) == 0
    (report,) = json.loads(capsys.readouterr().out)
    assert report["pass_hat_k"] == {"1": 1.0, "2": 1.0, "3": 1.0}
    out_file = tmp_path / "exported" / "results.json"
    assert main(["export", "--run", "a", "--out", str(out_file), *args]) == 0
    results = json.loads(out_file.read_text())
    assert len(results["simulations"]) == 6
    assert "wrote 6 simulations" in capsys.readouterr().err


def test_resume__of_a_complete_run_plays_nothing(store, capsys):
    assert (
        main(
            [
                *shlex.split("run --domain mock --tasks create_task --trials 2 --run x --store"),
                store,
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["resume", "--store", store, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["run_id"] == "x" and report["episodes"] == 2
    db = sqlite3.connect(store)
    assert db.execute("SELECT COUNT(*) FROM episodes").fetchone()[0] == 2


def test_run__with_failed_attempts_exits_one_and_says_how_to_resume(store, capsys):
    code = main(
        [
            *shlex.split("run --domain mock --agent tests.rollout.agents:OutageOracle --run down"),
            *("--tasks", "create_task,complete_task", "--store"),
            store,
        ]
    )
    assert code == 1
    out = capsys.readouterr().out
    assert "1 of 2 episodes have no result" in out
    assert f"tau-env resume --store {store} --run down" in out
    assert "infrastructure: task 'complete_task' trial 0: ConnectionError" in out
    assert main(["report", "--store", store]) == 2
    assert "is incomplete" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["run", "--trials", "0"], "--trials must be >= 1, actually: 0"),
        (
            ["run", "--domain", "mock", "--tasks", "create_task,nope"],
            "--tasks: 'nope' is not a task of mock",
        ),
        (["run", "--agent", "psychic"], "unknown agent 'psychic'"),
        (["run", "--user", "no.such.module:User"], "cannot import 'no.such.module'"),
        (["run", "--concurrency", "0"], "--concurrency must be >= 1"),
        (["run", "--agent", "llm"], "--agent llm"),
        (["resume", "--store", "missing.sqlite"], "no result store at missing.sqlite"),
    ],
)
def test_bad_input__is_one_clear_error_and_stores_no_episode(
    argv, message, tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    assert message in capsys.readouterr().err
    if (tmp_path / DEFAULT_STORE).exists():
        db = sqlite3.connect(tmp_path / DEFAULT_STORE)
        assert db.execute("SELECT COUNT(*) FROM episodes").fetchone()[0] == 0


def test_run__an_existing_run_name_is_refused(store, capsys):
    assert (
        main(
            ["run", "--domain", "mock", "--tasks", "create_task", "--run", "same", "--store", store]
        )
        == 0
    )
    assert (
        main(
            ["run", "--domain", "mock", "--tasks", "create_task", "--run", "same", "--store", store]
        )
        == 2
    )
    assert "already exists" in capsys.readouterr().err


def test_run__llm_agent_and_llm_user_from_the_command_line(store, monkeypatch, capsys):
    from tau_env.testing.fake_openai import FakeOpenAIServer
    from tests.rollout.test_llm_runs import two_sided_script

    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")
    with FakeOpenAIServer(two_sided_script) as server:
        model = ["--agent-model", server.model(), "--agent-api-base", server.base_url]
        user = ["--user-model", server.model(), "--user-api-base", server.base_url]
        argv = ["run", "--domain", "mock", "--agent", "llm", *model, "--user", "llm", *user]
        argv += ["--tasks", "create_task"]
        assert main([*argv, "--trials", "2", "--agent-temperature", "0.7", "--store", store]) == 0
    out = capsys.readouterr().out
    assert "agent llm(openai/fake), user llm(openai/fake)" in out
    assert "usage: agent 4 calls" in out and "user 4 calls" in out
    temperatures = {"get_users" in r.tool_names: r.body["temperature"] for r in server.requests}
    assert temperatures == {True: 0.7, False: 0.0}  # agent requests, user requests


def test_run__no_user_mode_plays_only_tasks_the_agent_can_start(store, capsys):
    assert main(["run", "--domain", "mock", "--mode", "no-user", "--json", "--store", store]) == 0
    report = json.loads(capsys.readouterr().out)
    played = {task["task_id"] for task in report["tasks"]}
    assert "complete_after_history" not in played and "complete_task" in played
    assert report["terminations"] == {"agent_stop": len(played)}
    code = main(
        [
            *shlex.split("run --domain mock --mode no-user --tasks complete_after_history --store"),
            store,
        ]
    )
    assert code == 2
    assert "cannot be played in mode 'no-user'" in capsys.readouterr().err


def _conversations(store: str, run_id: str) -> dict[tuple[str, int], tuple[int, str]]:
    """(task, trial) -> (stored seed, stored conversation) of a run."""
    from tau_env.store.sqlite import ResultStore

    with ResultStore(store) as results:
        return {
            (r.task_id, r.trial): (r.seed, json.dumps(r.trajectory))
            for r in results.episodes(run_id)
        }


def test_run__scripted_user_trials_get_distinct_seeds_and_replay(store, capsys):
    # Issue 41: every trial's scripted user had seed 0, so k trials were k copies.
    tasks = ",".join(t.id for t in tau_env.load_tasks("telecom")[:30])
    base = ["run", "--user", "scripted", "--trials", "4", "--tasks", tasks, "--store", store]
    assert main([*base, "--run", "first", "--no-progress"]) == 0
    first = _conversations(store, "first")
    assert len(first) == 30 * 4
    by_task: dict[str, list[tuple[int, str]]] = {}
    for (task, _trial), value in first.items():
        by_task.setdefault(task, []).append(value)
    assert all(len({seed for seed, _ in trials}) == 4 for trials in by_task.values())
    varied = sum(len({text for _, text in trials}) > 1 for trials in by_task.values())
    assert varied >= 20, f"conversations differ between trials on {varied} of 30 tasks"
    # The same seeds again: the same conversations, byte for byte.
    assert main([*base, "--run", "again", "--no-progress"]) == 0
    assert _conversations(store, "again") == first
    # A run cut after two trials and resumed plays the last two exactly as the whole run did.
    db = sqlite3.connect(store)
    with db:
        db.execute("DELETE FROM episodes WHERE run_id = 'again' AND trial >= 2")
    db.close()
    capsys.readouterr()
    assert main(["resume", "--store", store, "--run", "again", "--json"]) == 0
    assert _conversations(store, "again") == first
