"""Importing results files of the official data: NL assertions judged or not, and submissions."""

from __future__ import annotations

import json

import pytest

from tau_env.domain import load_domain
from tau_env.importing import import_results
from tau_env.rollout.config import JudgeSpec
from tau_env.rollout.submission import SubmissionDetails, build_submission
from tau_env.store import ResultStore
from tau_env.testing.fake_judge import judge_script
from tau_env.testing.fake_openai import FakeOpenAIServer
from tests.importing import reference_files as ref

RETAIL = ["19", "21", "33"]  # 19 and 21: DB x NL_ASSERTION; 33: DB alone


@pytest.fixture(scope="module")
def retail_file(data_dir, tmp_path_factory):
    domain = load_domain("retail", data_dir)
    gold = ref.gold_conversations("retail", RETAIL, str(data_dir))
    simulations = [
        ref.simulation(task_id, 0, gold[task_id],
                       reward_info=ref.graded_reward_info(domain.task(task_id)))
        for task_id in RETAIL
    ]  # fmt: skip
    results = ref.results_file(
        "retail", [domain.task(t) for t in RETAIL], simulations, trials=1, data_dir=str(data_dir)
    )
    path = tmp_path_factory.mktemp("retail") / "retail.json"
    path.write_text(json.dumps(results))
    return path


def test_import__without_a_judge_nl_is_not_comparable(retail_file, data_dir, tmp_path):
    with ResultStore(tmp_path / "s.sqlite") as store:
        result = import_results(store, str(retail_file), data_dir=str(data_dir))
        counts = result.agreement.counts
        assert counts["reward"] == {"same": 1, "differs": 0, "not comparable": 2}
        assert counts["NL_ASSERTION"] == {"same": 0, "differs": 0, "not comparable": 3}
        assert counts["DB"] == {"same": 3, "differs": 0, "not comparable": 0}
        assert store.unjudged_count(result.run_id) == 2


def test_import__a_judge_rules_and_differences_are_listed(
    retail_file, data_dir, tmp_path, monkeypatch
):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")
    rule = lambda text: "saves $41.64" not in text  # noqa: E731  (task 19's second outcome)
    with (
        ResultStore(tmp_path / "s.sqlite") as store,
        FakeOpenAIServer(judge_script(rule)) as server,
    ):
        judge = JudgeSpec(model=server.model(), api_base=server.base_url)
        result = import_results(store, str(retail_file), data_dir=str(data_dir), judge=judge)
        assert store.run(result.run_id).config["judge"]["model"] == server.model()
    counts = result.agreement.counts
    assert counts["NL_ASSERTION"] == {"same": 1, "differs": 1, "not comparable": 1}
    assert counts["reward"] == {"same": 2, "differs": 1, "not comparable": 0}
    assert result.agreement.differing_tasks("reward") == {"19": [0]}


def test_submission__of_imported_reference_runs_is_standard(data_dir, tmp_path):
    domain = load_domain("airline", data_dir)
    ids = [task.id for task in domain.split(None)[:2]]
    gold = ref.gold_conversations("airline", ids, str(data_dir))
    simulations = [
        ref.simulation(i, trial, gold[i], reward_info=ref.graded_reward_info(domain.task(i)))
        for i in ids
        for trial in range(4)
    ]
    results = ref.results_file(
        "airline", [domain.task(i) for i in ids], simulations, trials=4, data_dir=str(data_dir)
    )
    path = tmp_path / "airline.json"
    path.write_text(json.dumps(results))
    details = SubmissionDetails(model_organization="OpenAI", submitting_organization="Us")
    with ResultStore(tmp_path / "s.sqlite") as store:
        result = import_results(store, str(path), data_dir=str(data_dir))
        submission = build_submission(store, [result.run_id], details)
    assert submission["submission_type"] == "standard"
    assert submission["model_name"] == "gpt-4.1-2025-04-14"
    assert submission["methodology"]["user_simulator"] == "gpt-4.1-2025-04-14"
    assert submission["methodology"]["verification"]["modified_prompts"] is None  # unknown
    assert submission["methodology"]["verification"]["omitted_questions"] is True  # 2 of 50
    airline = submission["results"]["airline"]
    assert (airline["pass_1"], airline["pass_4"]) == (100.0, 100.0)
    mean = sum(s["agent_cost"] for s in simulations) / len(simulations)
    assert airline["cost"] == pytest.approx(mean)  # the mean agent cost per trajectory
