"""The tau-env-verifiers environment, driven by verifiers' own ``vf-eval`` in its venv.

verifiers runs in a venv of its own (``TAU_ENV_VERIFIERS_VENV``, built by ``.ci/run``: verifiers
0.4 cannot share one with openenv 0.10), holding tau-env and ``environments/tau_env_verifiers``.
Its model is the fake OpenAI-compatible server of this process. Episodes run one at a time, in
the taskset's order, so the fake model knows which task a request belongs to without being
told: it answers each with the next message of a recorded script, as a native tool call or as
plain text. Half the scripts are the plain-text oracle's (they must score 1.0); the others ask
the customer one question in plain text and stop (0.0). Every reward verifiers records must
equal `run_episode`'s for the same task, seed and actions; every request must carry the
episode's tool schemas as native ``tools``, and the conversation must be the one `ChatEnv`
holds with a model: the system prompt, the greeting as the assistant's first turn, the
customer as user turns, tool results as tool messages answering the calls' ids.
"""

from __future__ import annotations

import itertools
import json

import pytest

import tau_env
from tau_env.actions import Action, SendMessage, Stop
from tau_env.baselines.oracle import PlainTextOracleAgent
from tau_env.chat import action_message, make_chat_env
from tau_env.episode_runner import run_episode
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply, FakeRequest
from tau_env.wrappers.users import ScriptedUser
from tests.extras import verifiers_venv
from tests.id_leaks import agent_sees, leaked
from tests.vf_eval import eval_config_head, run_vf_eval

EPISODES = 8
QUESTION = "Could you tell me the phone number on your account, please?"


def scripts(
    data_dir=None, split: str = "test", count: int = EPISODES
) -> list[tuple[str, int, list[Action]]]:
    """(task id, seed, the agent's actions) of the first tasks of `split`, in the taskset's order.

    The taskset plays task i of the split with seed i; oracle episodes of at most 6 turns
    alternate with a plain-text question followed by a stop.
    """
    chat = make_chat_env("telecom", split=split, data_dir=data_dir)
    chosen: list[tuple[str, int, list[Action]]] = []
    for seed, task in enumerate(chat.single.aec.unwrapped.domain.split(split)):
        if len(chosen) % 2:
            chosen.append((task.id, seed, [SendMessage(content=QUESTION), Stop()]))
        else:
            chat.reset(task_id=task.id, seed=seed)
            oracle = PlainTextOracleAgent(task)
            actions: list[Action] = []
            while not chat.done:
                actions.append(oracle.act(None, None))  # type: ignore[arg-type]
                chat.step(action_message(actions[-1]))
            if chat.reward == 1.0 and len(actions) <= 6:
                chosen.append((task.id, seed, actions))
        if len(chosen) == count:
            return chosen
    raise AssertionError(f"not enough short telecom {split} tasks")


def fake_model(plans: list[tuple[str, int, list[Action]]]):
    """The model: the next scripted action of the episode in progress (episodes come in order)."""
    cursor = [-1]

    def reply(request: FakeRequest) -> FakeReply:
        messages = request.messages
        if len(messages) == 3:  # system, greeting, the customer's opening: a new episode
            cursor[0] += 1
        turn = sum(m["role"] == "assistant" for m in messages) - 1
        message = action_message(plans[cursor[0]][2][turn])
        if message.get("tool_calls"):
            call = message["tool_calls"][0]["function"]
            return FakeReply.tool_call(call["name"], call["arguments"] or "{}")
        return FakeReply.text(message["content"])

    return reply


def eval_config(model: str, output, plans, data_dir=None, split: str = "test") -> str:
    ids = ", ".join(json.dumps(task_id) for task_id, _, _ in plans)
    folder = "" if data_dir is None else f"data_dir = {json.dumps(str(data_dir))}\n"
    taskset = f"""[select.include]
ids = [{ids}]
[env.taskset]
id = "tau-env-verifiers"
domain = "telecom"
split = "{split}"
{folder}"""
    return eval_config_head(model, output, concurrency=1) + taskset


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory):
    """Run vf-eval once: (plans, the model's requests, verifiers' episodes by task id)."""
    venv = verifiers_venv(environment=True)
    plans = scripts()
    folder = tmp_path_factory.mktemp("vf")
    with FakeOpenAIServer(fake_model(plans)) as fake:
        config = folder / "eval.toml"
        config.write_text(eval_config(fake.base_url, folder / "out", plans))
        episodes = run_vf_eval(venv, config, folder / "out")
        requests = fake.requests
    by_task = {e["task"]["data"]["task_id"]: e for e in episodes}
    return plans, requests, by_task


@pytest.fixture(scope="module")
def evaluated_official(tmp_path_factory, data_dir):
    """vf-eval on two official telecom tasks (their ids spell out the faults)."""
    venv = verifiers_venv(environment=True)
    plans = scripts(data_dir, split="base", count=2)
    folder = tmp_path_factory.mktemp("vf_official")
    with FakeOpenAIServer(fake_model(plans)) as fake:
        config = folder / "eval.toml"
        config.write_text(eval_config(fake.base_url, folder / "out", plans, data_dir, "base"))
        episodes = run_vf_eval(venv, config, folder / "out")
        requests = fake.requests
    assert len(episodes) == 2 and all(e["ok"] for e in episodes)
    return data_dir, plans, requests


@pytest.mark.parametrize("source", ["built-in", "official"])
def test_requests__never_name_the_task(source, request):
    """Issue 53: no request the model receives holds the task's id or a part of it (whole
    bodies and headers, every turn of every episode)."""
    if source == "built-in":
        data_dir, (plans, requests, _) = None, request.getfixturevalue("evaluated")
    else:
        data_dir, plans, requests = request.getfixturevalue("evaluated_official")
    domain = tau_env.load_domain("telecom", data_dir)
    sent = [[r.body, r.headers] for r in requests]
    assert len(requests) == sum(len(actions) for _, _, actions in plans)
    for task_id, _, _ in plans:
        task = domain.task(task_id)
        assert leaked(task, sent, agent_sees(domain, task)) == [], task_id


def test_rewards__equal_run_episode_for_the_same_tasks_seeds_and_actions(evaluated):
    plans, _, by_task = evaluated
    assert len(by_task) == EPISODES and all(e["ok"] for e in by_task.values())
    env = tau_env.make_env("telecom")
    user = ScriptedUser.factory(env.unwrapped.domain)
    for task_id, seed, actions in plans:
        agent = _Replay(iter(actions))
        direct = run_episode(env, lambda _task, a=agent: a, user, task_id=task_id, seed=seed)
        (trace,) = by_task[task_id]["traces"]
        assert trace["rewards"]["tau_reward"]["score"] == direct.reward, task_id
        breakdown = direct.grade.model_dump(mode="json")["breakdown"]
        assert trace["metrics"] == {f"check_{k}": v for k, v in breakdown.items()}
    scores = {e["traces"][0]["rewards"]["tau_reward"]["score"] for e in by_task.values()}
    assert scores == {0.0, 1.0}  # both outcomes were played


def test_requests__native_tool_schemas_and_the_chat_env_conversation(evaluated):
    plans, requests, _ = evaluated
    assert len(requests) == sum(len(actions) for _, _, actions in plans)
    chat = make_chat_env("telecom", split="test")
    position = 0
    for task_id, seed, actions in plans:
        opening = chat.reset(task_id=task_id, seed=seed)
        for turn, action in enumerate(actions):
            request = requests[position + turn]
            assert request.body["tools"] == chat.tools  # native schemas, every turn
            assert _shape(request.messages) == _shape(chat.messages), (task_id, turn)
            if turn == 0:
                assert [m["role"] for m in request.messages] == ["system", "assistant", "user"]
                assert request.messages == opening.messages
            reply = _as_replied(action, request)
            chat.step(reply)
        position += len(actions)
    assert not any("action_schema" in str(m.get("content")) for r in requests for m in r.messages)


def test_plain_text__reaches_the_customer_who_answers(evaluated):
    plans, requests, _ = evaluated
    position = 0
    for _, _, actions in plans:
        if isinstance(actions[0], SendMessage) and actions[0].content == QUESTION:
            after = requests[position + 1].messages
            assert after[-2] == {"role": "assistant", "content": QUESTION}
            assert after[-1]["role"] == "user" and after[-1]["content"]
        position += len(actions)


def test_tool_results__answer_the_calls_ids(evaluated):
    _, requests, _ = evaluated
    checked = 0
    for request in requests:
        messages = request.messages
        for before, after in itertools.pairwise(messages):
            if before["role"] == "assistant" and before.get("tool_calls"):
                assert after["role"] == "tool"
                assert after["tool_call_id"] == before["tool_calls"][0]["id"]
                checked += 1
    assert checked > 0


def _shape(messages: list[dict]) -> list[tuple]:
    """What the model reads of each message: role, text, calls (name and arguments), call id."""
    shaped = []
    for m in messages:
        calls = tuple(
            (c["function"]["name"], json.loads(c["function"]["arguments"] or "{}"))
            for c in m.get("tool_calls") or ()
        )
        shaped.append((m["role"], m.get("content") or "", calls, m.get("tool_call_id")))
    return shaped


def _as_replied(action: Action, request: FakeRequest) -> dict:
    """The action as the fake model sent it (tool calls get the fake's ids)."""
    message = action_message(action)
    if message.get("tool_calls"):
        call = message["tool_calls"][0]
        call = {**call, "id": f"call_{request.number}_0"}
        return {"role": "assistant", "content": None, "tool_calls": [call]}
    return message


class _Replay:
    """An agent replaying given actions."""

    def __init__(self, actions) -> None:
        self.actions = actions

    def act(self, view, context) -> Action:
        return next(self.actions)
