"""Registration, loading errors and the retrieval option through make_env and the CLI."""

import json
import shutil

import gymnasium
import pytest

import tau_env
from tau_env.cli.main import main
from tau_env.domain import clear_domain_cache, load_domain
from tau_env.errors import DataError
from tau_env.testing.fake_judge import judge_outcomes, judge_script
from tau_env.testing.fake_openai import FakeOpenAIServer
from tau_env.wrappers.registration import gym_id
from tests.families import task_of


def test_make__versioned_id_and_retrieval_option(data_dir):
    env = tau_env.make("tau/banking_knowledge-v0", data_dir=data_dir, retrieval="grep_only")
    raw = env.unwrapped
    assert raw.domain.env_id == "tau/banking_knowledge-v0"
    assert raw.domain.retrieval == "grep_only"
    env.reset(seed=0, options={"task_id": "task_001"})
    assert raw.context("agent").tool_names[0] == "grep"
    assert raw.context("agent").instructions == raw.domain.policy


def test_builtin__loads_the_generated_bank_without_a_data_folder():
    domain = load_domain("banking_knowledge")
    assert domain.data.source == "built-in"
    assert "Larkspur Bank" in domain.policy


def test_gymnasium__scripted_and_llm_ids(data_dir):
    assert gym_id("banking_knowledge") == "tau_env/BankingKnowledge-v0"
    env = gymnasium.make(gym_id("banking_knowledge"), data_dir=str(data_dir), task_id="task_001")
    observation, _ = env.reset(seed=0)
    assert observation["messages"]
    assert gymnasium.spec(gym_id("banking_knowledge", llm_user=True)).nondeterministic


def test_golden_variant__each_task_gets_its_own_policy(data_dir):
    env = tau_env.make_env("banking_knowledge", data_dir=data_dir, retrieval="golden_retrieval")
    raw = env.unwrapped
    policies = {}
    for task_id in ("task_001", "task_051"):
        env.reset(seed=0, options={"task_id": task_id})
        policies[task_id] = raw.context("agent").instructions
    assert policies["task_001"] != policies["task_051"]
    assert "<required_documents>\n## " in policies["task_051"]


@pytest.fixture
def copied(data_dir, tmp_path):
    source = data_dir / "domains" / "banking_knowledge"
    target = tmp_path / "domains" / "banking_knowledge"
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("tasks.json", "tasks_voice.json"))
    yield tmp_path, target
    clear_domain_cache()


def test_loader__errors_name_the_file_and_field(copied):
    root, folder = copied
    task_file = folder / "tasks" / "task_001.json"
    raw = json.loads(task_file.read_text())
    raw["user_tools"] = ["fly_away"]
    task_file.write_text(json.dumps(raw))
    with pytest.raises(DataError, match=r"task_001.json: task 'task_001': field 'user_tools'"):
        load_domain("banking_knowledge", root)
    clear_domain_cache()
    shutil.rmtree(folder / "prompts")
    with pytest.raises(DataError, match="prompts folder not found"):
        load_domain("banking_knowledge", root)


def validate_bank(data_dir, retrieval, *options):
    """`tau-env validate` on the official bank with a retrieval variant; returns the exit code."""
    argv = ["validate", "--domain", "banking_knowledge", "--data-dir", str(data_dir)]
    return main([*argv, "--retrieval", retrieval, *options])


def test_cli__validate_with_a_retrieval_variant(data_dir, capsys):
    code = validate_bank(data_dir, "grep_only", "--tasks", "task_001,task_083,task_102")
    # task_102's NL assertion needs a judge: without one it has no reward, never a pass.
    assert code == 1
    assert capsys.readouterr().out.strip() == (
        "2/3 tasks reach reward 1.0; 1 not judged (NL assertions: pass --judge-model to judge them)"
    )


def test_cli__validate_with_a_retrieval_variant_and_a_judge(data_dir, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")  # the SDK wants one; the fake ignores it
    with FakeOpenAIServer(judge_script()) as server:
        judge = ["--judge-model", server.model(), "--judge-api-base", server.base_url]
        code = validate_bank(data_dir, "bm25", "--tasks", "task_001,task_102", *judge)
        judged = [request for request in server.requests if judge_outcomes(request) is not None]
    assert code == 0
    assert capsys.readouterr().out.strip() == "2/2 tasks reach reward 1.0"
    assert len(judged) == 1  # task_102 only


def test_cli__unknown_variant_is_a_clean_error(data_dir, capsys):
    code = validate_bank(data_dir, "terminal_use")
    assert code == 2
    assert "sandbox" in capsys.readouterr().err


def test_cli__run_without_a_data_folder_plays_the_built_in_bank(capsys, tmp_path):
    store = str(tmp_path / "runs.sqlite")
    command = ["run", "--domain", "banking_knowledge", "--store", store, "--no-progress"]
    task_id = task_of("banking_knowledge", "close_savings", product="savings").id
    assert main([*command, "--tasks", task_id]) == 0
    assert "pass^1=1.000" in capsys.readouterr().out


def test_cli__run_records_the_retrieval_variant_in_the_run_config(data_dir, tmp_path, capsys):
    from tau_env.rollout.config import RunConfig
    from tau_env.rollout.provenance import run_fingerprint
    from tau_env.store.sqlite import ResultStore

    store = str(tmp_path / "runs.sqlite")
    arguments = ["--domain", "banking_knowledge", "--data-dir", str(data_dir), "--store", store]
    command = ["run", *arguments, "--retrieval", "grep_only", "--tasks", "task_001,task_083"]
    assert main([*command, "--run", "r1", "--retrieval-options", '{"grep_top_k": 3}']) == 0
    with ResultStore(store) as opened:
        record = opened.run("r1")
        assert opened.episode_count("r1") == 2
    assert record.config["retrieval"] == "grep_only"
    assert record.config["retrieval_options"] == {"grep_top_k": 3}
    assert "pass^1=1.000" in capsys.readouterr().out
    config = RunConfig.model_validate(record.config)
    assert run_fingerprint(config) == record.fingerprint
    unset = config.model_copy(update={"retrieval": None, "retrieval_options": None})
    assert "retrieval" not in json.dumps(unset.model_dump(exclude_none=True))
    assert run_fingerprint(unset) != record.fingerprint
