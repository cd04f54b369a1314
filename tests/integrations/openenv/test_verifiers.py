"""verifiers' `OpenEnvTaskset` plays tau_env episodes against `tau-env serve` on 127.0.0.1.

verifiers 0.4 and openenv 0.10 cannot share one environment (verifiers pins ``mcp==2.0.0``;
openenv 0.10 needs fastmcp 3, which needs an older mcp), so verifiers lives in a venv of its
own, as a trainer would next to an env server: ``.ci/run`` builds it from
``.ci/verifiers-requirements.txt`` and names it in ``TAU_ENV_VERIFIERS_VENV``. The test runs
verifiers' own CLI (``vf-eval``) there, with verifiers' plain chat harness (``null``, one
subprocess per agent turn) in the local subprocess runtime; its model is the fake
OpenAI-compatible server, which verifiers reaches with ``stream=True`` only. The fake model
answers each observation with the action JSON of a recorded script: the plain-text oracle's
turns for half the tasks, an immediate stop for the other half; the rewards verifiers records
must equal `run_episode`'s for the same tasks, seeds and actions, and no request the model
receives may name its task (issue 53: it finds its episode by the opening alone).
"""

from __future__ import annotations

import json
from pathlib import Path

import tau_env
from tau_env.actions import Action, Stop
from tau_env.baselines.oracle import PlainTextOracleAgent
from tau_env.chat import action_message, make_chat_env
from tau_env.episode_runner import run_episode
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply, FakeRequest
from tau_env.testing.serving import served
from tau_env.wrappers.users import ScriptedUser
from tests.extras import require, verifiers_venv
from tests.id_leaks import agent_sees, leaked
from tests.vf_eval import eval_config_head, run_vf_eval

require("openenv", "openenv")

EPISODES = 16


def scripts() -> dict[str, tuple[int, list[Action], str]]:
    """Task id -> (seed, the agent's actions, the reset's messages as JSON): short oracle
    episodes, every other one stopped. Episodes are told apart by their opening (the task id
    reaches no observation); tasks whose opening another one has are left out."""
    chat = make_chat_env("telecom")
    chosen: dict[str, tuple[int, list[Action], str]] = {}
    openings = set()
    for task in chat.single.aec.unwrapped.domain.split("test"):
        opening = json.dumps(chat.reset(task_id=task.id, seed=len(chosen)).messages)
        oracle = PlainTextOracleAgent(task)
        actions: list[Action] = []
        while not chat.done:
            actions.append(oracle.act(None, None))  # type: ignore[arg-type]
            chat.step(action_message(actions[-1]))
        if len(actions) <= 2 and opening not in openings:  # short: each agent turn is a process
            stopped = len(chosen) % 2 == 1
            chosen[task.id] = (len(chosen), [Stop()] if stopped else actions, opening)
            openings.add(opening)
        if len(chosen) == EPISODES:
            return chosen
    raise AssertionError("not enough short telecom test tasks")


def model_reply(plans: dict[str, tuple[int, list[Action], str]]):
    """The fake model: the next scripted action of the episode the request belongs to, as JSON
    (the episode is the one whose reset observation opens the conversation)."""
    by_opening = {opening: actions for _, actions, opening in plans.values()}

    def reply(request: FakeRequest) -> FakeReply:
        messages = request.messages
        first = next(m for m in messages if m["role"] == "user")
        observation = json.loads(first["content"])["observation"]
        turn = sum(m["role"] == "assistant" for m in messages)
        message = action_message(by_opening[json.dumps(observation["messages"])][turn])
        action = {key: message[key] for key in ("content", "tool_calls") if message.get(key)}
        return FakeReply.text(json.dumps(action))

    return reply


def eval_config(server: str, model: str, output: Path, plans: dict) -> str:
    resets = ", ".join(
        f'{{task_id = "{task_id}", seed = {seed}}}' for task_id, (seed, _, _) in plans.items()
    )
    taskset = f"""[env.taskset]
id = "openenv"
base_url = "{server}"
resets = [{resets}]
[env.player.runtime]
type = "subprocess"
[env.player.harness]
id = "null"
"""
    return eval_config_head(model, output, concurrency=EPISODES) + taskset


def test_openenv_taskset__16_concurrent_episodes_match_run_episode(tmp_path):
    venv = verifiers_venv()
    plans = scripts()
    with served(["telecom"]) as url, FakeOpenAIServer(model_reply(plans)) as fake:
        config = tmp_path / "eval.toml"
        config.write_text(eval_config(url, fake.base_url, tmp_path / "out", plans))
        episodes = run_vf_eval(venv, config, tmp_path / "out", uv_on_path=True)
        requests = fake.requests
    assert requests and all(r.stream for r in requests)  # verifiers only streams
    assert len(requests) == sum(len(actions) for _, actions, _ in plans.values())
    # Issue 53: verifiers pastes each observation into the prompt; none names its task.
    domain = tau_env.load_domain("telecom")
    for task_id in plans:
        task = domain.task(task_id)
        sent = [[r.body, r.headers] for r in requests]
        assert leaked(task, sent, agent_sees(domain, task)) == [], task_id

    assert len(episodes) == EPISODES and all(e["ok"] for e in episodes)
    rewards = {
        e["task"]["data"]["reset"]["task_id"]: e["traces"][0]["rewards"]["openenv_reward"]["score"]
        for e in episodes
    }
    env = tau_env.make_env("telecom")
    user = ScriptedUser.factory(env.unwrapped.domain)
    direct = {}
    for task_id, (seed, actions, _) in plans.items():
        agent = _Replay(iter(actions))
        result = run_episode(env, lambda _task, a=agent: a, user, task_id=task_id, seed=seed)
        direct[task_id] = result.reward
    assert rewards == direct
    assert set(direct.values()) == {0.0, 1.0}  # both outcomes were played


class _Replay:
    """An agent replaying given actions."""

    def __init__(self, actions) -> None:
        self.actions = actions

    def act(self, view, context) -> Action:
        return next(self.actions)
