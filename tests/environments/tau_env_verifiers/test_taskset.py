"""The tau-env-verifiers taskset's ``judge=`` and ``reward=``, in verifiers' own venv.

The data is the built-in mock domain with `NL_TASK` also scored by an NL assertion
(`nl_mock_dir`). Without a judge that task is not in the taskset (a warning counts it); with
one it is. Played by ``vf-eval`` (2 rollouts of `NL_TASK`, then 2 of ``complete_task``, one at
a time, the plain-text oracle's replies, ``reward = "partial"``) against a fake judge that
rules on its first request (the assertion not met) and answers nonsense after that: the
first rollout scores 2/3 (DB and COMMUNICATE met), the second has no reward, an error on its
trace and ``judge_failed`` 1, and the ``complete_task`` rollouts after it score 1.0 untouched.
"""

from __future__ import annotations

import json

import tau_env
from tau_env.baselines.oracle import PlainTextOracleAgent
from tau_env.chat import action_message, make_chat_env
from tau_env.grading import Verdict
from tau_env.rollout_seeds import episode_seed
from tau_env.testing.fake_judge import judge_script
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply, FakeRequest
from tests.conftest import NL_TASK
from tests.extras import verifiers_venv
from tests.vf_eval import eval_config_head, run_python, run_vf_eval

OTHER = "complete_task"
ROLLOUTS = 2


def test_taskset__nl_tasks_only_with_a_judge(nl_mock_dir, monkeypatch):
    venv = verifiers_venv(environment=True)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")  # the judge's key, checked at load
    code = f"""if True:
        import json, warnings
        from tau_env_verifiers import load_environment
        def listed(**options):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                env = load_environment(
                    domain="mock", data_dir={str(nl_mock_dir)!r}, split="base", **options
                )
                ids = [task.data.task_id for task in env.taskset]
            return ids, [str(w.message) for w in caught if "NL judge" in str(w.message)]
        print(json.dumps([listed(), listed(judge="openai/judge")]))
    """
    (unjudged, warned), (judged, _) = run_python(venv, code)
    assert NL_TASK not in unjudged and len(unjudged) == 9
    (warning,) = warned
    assert warning.startswith("tau_env: 1 of 10 tasks need an NL judge and are left out")
    assert NL_TASK in judged and len(judged) == 10


def plans(data_dir) -> list[tuple[str, int, list[dict]]]:
    """(task, seed, the oracle's messages) of each rollout, in the order they are played."""
    reject = lambda trajectory, assertions: [Verdict(a, met=False) for a in assertions]  # noqa: E731
    chat = make_chat_env("mock", data_dir=data_dir, judge=reject)
    played = []
    for task_id in (NL_TASK, OTHER):
        for k in range(ROLLOUTS):
            seed = episode_seed(0, task_id, k)
            chat.reset(task_id=task_id, seed=seed)
            oracle = PlainTextOracleAgent(tau_env.load_domain("mock", data_dir).task(task_id))
            messages = []
            while not chat.done:
                messages.append(action_message(oracle.act(None, None)))
                chat.step(messages[-1])
            played.append((task_id, seed, messages))
    return played


def agent_model(played):
    """The next oracle message of the episode in progress (a new one opens with 3 messages)."""
    cursor = [-1]

    def reply(request: FakeRequest) -> FakeReply:
        if len(request.messages) == 3:
            cursor[0] += 1
        turn = sum(m["role"] == "assistant" for m in request.messages) - 1
        message = played[cursor[0]][2][turn]
        if message.get("tool_calls"):
            call = message["tool_calls"][0]["function"]
            return FakeReply.tool_call(call["name"], call["arguments"] or "{}")
        return FakeReply.text(message["content"])

    return reply


def judge_model():
    """Rules once (the assertion not met), then answers nothing a judge can read."""
    rule = judge_script(lambda text: False)
    answered = []

    def reply(request: FakeRequest) -> FakeReply:
        answered.append(request)
        return rule(request) if len(answered) == 1 else FakeReply.text("I cannot say.")

    return reply


def test_vf_eval__judged_on_the_chosen_scale_and_a_judge_failure_marks_one_rollout(
    nl_mock_dir, tmp_path, monkeypatch
):
    venv = verifiers_venv(environment=True)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")
    played = plans(nl_mock_dir)
    with FakeOpenAIServer(agent_model(played)) as agent, FakeOpenAIServer(judge_model()) as judge:
        config = tmp_path / "eval.toml"
        taskset = f"""[select.include]
ids = {json.dumps([NL_TASK, OTHER])}
[env.taskset]
id = "tau-env-verifiers"
domain = "mock"
data_dir = {json.dumps(str(nl_mock_dir))}
split = "base"
seed = 0
reward = "partial"
judge = {json.dumps(judge.model())}
judge_api_base = {json.dumps(judge.base_url)}
"""
        head = eval_config_head(agent.base_url, tmp_path / "out", concurrency=1, rollouts=ROLLOUTS)
        config.write_text(head + taskset)
        episodes = run_vf_eval(venv, config, tmp_path / "out")
    traces = {}
    for episode in episodes:
        (trace,) = episode["traces"]
        traces[episode["task"]["data"]["task_id"], trace["info"]["seed"]] = trace
    assert sorted(traces) == sorted((task, seed) for task, seed, _ in played)
    scored, failed, *others = (traces[task, seed] for task, seed, _ in played)
    assert scored["ok"] and scored["rewards"]["tau_reward"]["score"] == 2 / 3
    assert scored["metrics"]["judge_failed"] == 0.0
    assert not failed["ok"] and failed["rewards"]["tau_reward"] is None
    assert failed["metrics"]["judge_failed"] == 1.0
    assert "the NL judge did not rule" in failed["errors"][-1]["message"]
    for other in others:
        assert other["ok"] and other["rewards"]["tau_reward"]["score"] == 1.0
        assert other["metrics"]["judge_failed"] == 0.0
