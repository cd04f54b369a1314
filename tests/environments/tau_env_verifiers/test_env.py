"""The tau-env-verifiers environment, driven by verifiers' own ``vf-eval`` in its venv.

verifiers runs in a venv of its own (``TAU_ENV_VERIFIERS_VENV``, built by ``.ci/run``: verifiers
0.4 cannot share one with openenv 0.10), holding tau-env and ``environments/tau_env_verifiers``.
Its model is the fake OpenAI-compatible server of this process. Each task is played by a group
of `ROLLOUTS` rollouts; episodes run one at a time, in the taskset's order (a task's rollouts
in a row), so the fake model knows which episode a request belongs to without being told: it
answers each with the next message of a recorded script, as a native tool call or as plain
text. Half the tasks get the plain-text oracle's scripts (they must score 1.0); the others ask
the customer one question in plain text and stop (0.0). The taskset is numbered (``seed =
0``): rollout k of a task plays ``episode_seed(0, task, k)``, which its trace records. Every
reward verifiers records must equal `run_episode`'s for the same task, recorded seed and
actions; every request must carry the episode's tool schemas as native ``tools``, and the
conversation must be the one `ChatEnv` holds with a model: the system prompt, the greeting as
the assistant's first turn, the customer as user turns, tool results as tool messages
answering the calls' ids.
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
from tau_env.rollout_seeds import episode_seed
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply, FakeRequest
from tau_env.wrappers.users import ScriptedUser
from tests.extras import verifiers_venv
from tests.id_leaks import agent_sees, leaked
from tests.vf_eval import eval_config_head, run_python, run_vf_eval

TASKS = 4
ROLLOUTS = 2
EPISODES = TASKS * ROLLOUTS
QUESTION = "Could you tell me the phone number on your account, please?"


def scripts(
    data_dir=None, split: str = "test", episodes: int = EPISODES
) -> list[tuple[str, int, list[Action]]]:
    """(task id, seed, the agent's actions) of every rollout, in the order they are played.

    Rollout k of a task plays ``episode_seed(0, task, k)``; tasks whose oracle episodes take
    at most 6 turns under every seed alternate with tasks asked a plain-text question and
    stopped.
    """
    chat = make_chat_env("telecom", split=split, data_dir=data_dir)
    chosen: list[tuple[str, int, list[Action]]] = []
    for task in chat.single.aec.unwrapped.domain.split(split):
        seeds = [episode_seed(0, task.id, k) for k in range(ROLLOUTS)]
        if len(chosen) // ROLLOUTS % 2:
            chosen += [(task.id, seed, [SendMessage(content=QUESTION), Stop()]) for seed in seeds]
        else:
            played = [(task.id, seed, _oracle_actions(chat, task, seed)) for seed in seeds]
            if all(actions is not None for *_, actions in played):
                chosen += played  # type: ignore[arg-type]
        if len(chosen) == episodes:
            return chosen
    raise AssertionError(f"not enough short telecom {split} tasks")


def _oracle_actions(chat, task, seed: int) -> list[Action] | None:
    """The plain-text oracle's actions for a passing episode of at most 6 turns, else None."""
    chat.reset(task_id=task.id, seed=seed)
    oracle = PlainTextOracleAgent(task)
    actions: list[Action] = []
    while not chat.done:
        actions.append(oracle.act(None, None))  # type: ignore[arg-type]
        chat.step(action_message(actions[-1]))
    return actions if chat.reward == 1.0 and len(actions) <= 6 else None


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
    ids = ", ".join(json.dumps(task_id) for task_id, _, _ in plans[::ROLLOUTS])
    folder = "" if data_dir is None else f"data_dir = {json.dumps(str(data_dir))}\n"
    taskset = f"""[select.include]
ids = [{ids}]
[env.taskset]
id = "tau-env-verifiers"
domain = "telecom"
split = "{split}"
seed = 0
{folder}"""
    return eval_config_head(model, output, concurrency=1, rollouts=ROLLOUTS) + taskset


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory):
    """Run vf-eval once: (plans, the model's requests, verifiers' traces by (task, seed))."""
    venv = verifiers_venv(environment=True)
    plans = scripts()
    folder = tmp_path_factory.mktemp("vf")
    with FakeOpenAIServer(fake_model(plans)) as fake:
        config = folder / "eval.toml"
        config.write_text(eval_config(fake.base_url, folder / "out", plans))
        episodes = run_vf_eval(venv, config, folder / "out")
        requests = fake.requests
    assert all(e["ok"] for e in episodes)
    played = {}
    for episode in episodes:
        (trace,) = episode["traces"]
        played[episode["task"]["data"]["task_id"], trace["info"]["seed"]] = trace
    return plans, requests, played


@pytest.fixture(scope="module")
def evaluated_official(tmp_path_factory, data_dir):
    """vf-eval on two official telecom tasks (their ids spell out the faults): the data
    folder, the plans and the model's requests."""
    venv = verifiers_venv(environment=True)
    plans = scripts(data_dir, split="base", episodes=2 * ROLLOUTS)
    folder = tmp_path_factory.mktemp("vf_official")
    with FakeOpenAIServer(fake_model(plans)) as fake:
        config = folder / "eval.toml"
        config.write_text(eval_config(fake.base_url, folder / "out", plans, data_dir, "base"))
        episodes = run_vf_eval(venv, config, folder / "out")
        requests = fake.requests
    assert len(episodes) == len(plans) and all(e["ok"] for e in episodes)
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
    for task_id in {task_id for task_id, _, _ in plans}:
        task = domain.task(task_id)
        assert leaked(task, sent, agent_sees(domain, task)) == [], task_id


def test_rewards__equal_run_episode_for_the_same_tasks_seeds_and_actions(evaluated):
    plans, _, played = evaluated
    assert sorted(played) == sorted((task_id, seed) for task_id, seed, _ in plans)
    env = tau_env.make_env("telecom")
    user = ScriptedUser.factory(env.unwrapped.domain)
    for task_id, seed, actions in plans:
        agent = _Replay(iter(actions))
        direct = run_episode(env, lambda _task, a=agent: a, user, task_id=task_id, seed=seed)
        trace = played[task_id, seed]
        assert trace["rewards"]["tau_reward"]["score"] == direct.reward, task_id
        breakdown = direct.grade.model_dump(mode="json")["breakdown"]
        checks = {f"check_{k}": v for k, v in breakdown.items()}
        assert trace["metrics"] == {**checks, "judge_failed": 0.0}
    scores = {trace["rewards"]["tau_reward"]["score"] for trace in played.values()}
    assert scores == {0.0, 1.0}  # both outcomes were played


def test_seeds__each_rollout_of_a_group_plays_and_records_its_own(evaluated):
    """The issue's measure: the openings the model saw. Each rollout opened with its own seed's
    customer opening, and the rollouts of a group differ (one seed per task would repeat it)."""
    plans, requests, played = evaluated
    openings = [r.messages[2]["content"] for r in requests if len(r.messages) == 3]
    chat = make_chat_env("telecom", split="test")
    expected = [chat.reset(task_id=t, seed=seed).messages[2]["content"] for t, seed, _ in plans]
    assert openings == expected
    assert len(set(openings)) == EPISODES
    for task_id, _, _ in plans[::ROLLOUTS]:
        seeds = [seed for task, seed in played if task == task_id]
        assert sorted(seeds) == sorted(episode_seed(0, task_id, k) for k in range(ROLLOUTS))


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


def test_episode_seed__fresh_per_rollout_by_default_numbered_with_a_seed():
    """Eight rollouts of one task (a group of 4, then the next epoch's 4) in one env: distinct
    fresh seeds by default; with ``seed`` set, rollout k plays ``episode_seed(seed, task, k)``
    and a new process replays them."""
    venv = verifiers_venv(environment=True)
    code = """if True:
        import json
        from tau_env_verifiers import load_environment
        def seeds(**options):
            env = load_environment(domain="mock", split=None, **options)
            return [env.episode_seed("complete_task") for _ in range(8)]
        print(json.dumps([seeds(), seeds(), seeds(seed=5), seeds(seed=5)]))
    """
    fresh, again, numbered, replayed = run_python(venv, code)
    assert len(set(fresh + again)) == 16
    assert numbered == replayed == [episode_seed(5, "complete_task", k) for k in range(8)]
