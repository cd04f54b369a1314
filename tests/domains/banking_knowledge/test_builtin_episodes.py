"""Whole episodes on the built-in bank: the offline main job, and what the grade rewards."""

import json

import pytest

import tau_env
from tau_env.baselines.oracle import OracleAgent
from tau_env.cli.main import main
from tau_env.episode_runner import run_episode
from tau_env.tasks.model import GoldAction
from tau_env.wrappers.users import GoldUser, ScriptedUser
from tests.families import of_family, task_of


def test_run__oracle_and_scripted_user_pass_every_built_in_task(tmp_path, capsys):
    store = tmp_path / "runs.sqlite"
    code = main(["run", "--domain", "banking_knowledge", "--store", str(store), "--no-progress"])
    out = capsys.readouterr().out
    count = len(tau_env.load_domain("banking_knowledge").tasks)
    assert code == 0
    assert f"{count} tasks x 1 trial ({count} episodes): average reward 1.000" in out
    assert "pass^1=1.000" in out


def _with_extra_call(tool: str, arguments: dict):
    """An oracle that unlocks and calls one more discoverable tool before its last step."""

    class Agent(OracleAgent):
        def __init__(self, task):
            super().__init__(task)
            extra = [
                GoldAction(
                    action_id="extra_unlock",
                    name="unlock_discoverable_agent_tool",
                    arguments={"agent_tool_name": tool},
                ),
                GoldAction(
                    action_id="extra_call",
                    name="call_discoverable_agent_tool",
                    arguments={"agent_tool_name": tool, "arguments": json.dumps(arguments)},
                ),
            ]
            self.plan = [*self.plan[:-1], *extra, self.plan[-1]]

    return Agent


@pytest.fixture(scope="module")
def env():
    return tau_env.make_env("banking_knowledge", retrieval="no_knowledge")


def _refund_task(env):
    (task, *_) = of_family(env.unwrapped.tasks, "atm_fee_refund", product="everyday_checking")
    account = json.loads(task.gold_actions[-1].arguments["arguments"])["account_id"]
    return task, account


def test_grade__an_extra_look_up_the_plan_does_not_need_leaves_the_reward(env):
    task, account = _refund_task(env)
    agent = _with_extra_call("list_debit_cards_2265", {"account_id": account})
    result = run_episode(env, agent, ScriptedUser.factory(env.unwrapped.domain), task_id=task.id)
    assert result.reward == 1.0


def test_grade__an_extra_write_fails_the_task_even_when_it_is_refused(env):
    task, _ = _refund_task(env)
    # A write tool the plan never uses, refused ("not found"): its call is still logged.
    agent = _with_extra_call("pause_debit_card_1307", {"card_id": "dbc_nobody_1"})
    result = run_episode(env, agent, GoldUser, task_id=task.id)
    assert result.reward == 0.0


def test_grade__a_wrong_amount_fails_the_task(env):
    task, _ = _refund_task(env)

    class Overpaying(OracleAgent):
        def __init__(self, task):
            super().__init__(task)
            last = self.plan[-1]
            arguments = json.loads(last.arguments["arguments"])
            arguments["amount"] = round(arguments["amount"] + 1.0, 2)
            changed = {**last.arguments, "arguments": json.dumps(arguments)}
            self.plan = [*self.plan[:-1], last.model_copy(update={"arguments": changed})]

    result = run_episode(env, Overpaying, GoldUser, task_id=task.id)
    assert result.reward == 0.0


def test_grade__a_transfer_task_needs_the_documented_reason(env):
    domain = env.unwrapped.domain
    (task, *_) = of_family(domain.tasks, "fraud_transfer")

    class WrongReason(OracleAgent):
        def __init__(self, task):
            super().__init__(task)
            self.plan = [
                s.model_copy(update={"arguments": {**s.arguments, "reason": "other"}})
                if s.name == "transfer_to_human_agents"
                else s
                for s in self.plan
            ]

    assert run_episode(env, OracleAgent, GoldUser, task_id=task.id).reward == 1.0
    assert run_episode(env, WrongReason, GoldUser, task_id=task.id).reward == 0.0


@pytest.mark.parametrize(
    ("retrieval", "product", "family"),
    [
        ("bm25_grep", "savings", "photo_deposit"),
        ("openai_embeddings", "cashback_cards", "missing_points"),
    ],
)
def test_llm_agent_and_user__solve_built_in_tasks_over_the_fake_server(
    retrieval, product, family, embeddings, tmp_path
):
    from tests.domains.banking_knowledge.conftest import dense_options
    from tests.domains.banking_knowledge.test_llm_episodes import _play

    before = len(embeddings.embedding_requests)
    options = dense_options(embeddings, str(tmp_path / "vectors.sqlite"))
    task_id = task_of("banking_knowledge", family, product=product).id
    result, _ = _play(None, retrieval, options if retrieval != "bm25_grep" else None, task_id)
    assert result.reward == 1.0, result.grade.failed_components()
    customer_calls = [m for m in result.trajectory if m.role == "tool" and m.requestor == "user"]
    assert customer_calls and not customer_calls[0].error
    if retrieval == "openai_embeddings":
        documents = len(
            tau_env.load_domain("banking_knowledge").data.extras["knowledge_base"].documents
        )
        inputs = sum(len(r["input"]) for r in embeddings.embedding_requests[before:-1])
        assert inputs == documents  # the built-in knowledge base, embedded once
