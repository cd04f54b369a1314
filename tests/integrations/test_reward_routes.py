"""Rewards chosen by name, never a silent 0, on every training route.

The data is the built-in mock domain with one task (`NL_TASK`) also scored by an NL assertion
(`nl_mock_dir`). On every route: without a judge that task is refused by id and left out of
draws (with a warning counting it); with a judge it is judged (1 or 0 as the judge rules); a
judge that fails never becomes a 0 (a Gymnasium loop raises; the training routes mark that
rollout, with no reward, and go on); ``reward="partial"`` and ``"breakdown"`` reach the
route's reward and its info / metadata.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

import tau_env
from tau_env.baselines.oracle import PlainTextOracleAgent
from tau_env.chat import action_message, make_chat_env, render_tool_call
from tau_env.errors import JudgeError, TauEnvError
from tau_env.grading import Verdict
from tests.conftest import NL_TASK
from tests.extras import require


def approve(trajectory, assertions):
    return [Verdict(text, met=True) for text in assertions]


def reject(trajectory, assertions):
    return [Verdict(text, met=False) for text in assertions]


def fail(trajectory, assertions):
    raise JudgeError("judge unreachable")


Play = Callable[..., tuple[Any, dict[str, Any]]]
"""(data_dir, task_id, *, judge, reward) -> (reward, info or metadata) of an oracle episode."""


def _oracle_messages(data_dir, task_id):
    task = tau_env.load_domain("mock", data_dir).task(task_id)
    agent = PlainTextOracleAgent(task)
    while True:
        yield action_message(agent.act(None, None))


def play_gymnasium(data_dir, task_id, *, judge=None, reward="binary"):
    from tau_env.wrappers.single_agent import make_single_agent_env

    env = make_single_agent_env("mock", data_dir=str(data_dir), judge=judge, reward=reward)
    env.reset(seed=0, options={"task_id": task_id})
    task = env.task
    agent = PlainTextOracleAgent(task)
    while True:
        _, value, terminated, truncated, info = env.step(agent.act(None, None))
        if terminated or truncated:
            return value, info


def play_chat(data_dir, task_id, *, judge=None, reward="binary"):
    chat = make_chat_env("mock", data_dir=data_dir, judge=judge, reward=reward)
    turn = chat.reset(task_id=task_id, seed=0)
    for message in _oracle_messages(data_dir, task_id):
        turn = chat.step(message)
        if turn.done:
            return turn.reward, turn.info


def play_trl_environment(data_dir, task_id, *, judge=None, reward="binary"):
    require("trl", "trl")
    from tau_env.integrations.trl import environment_factory

    cls = environment_factory("mock", data_dir=str(data_dir), judge=judge, reward=reward)
    env = cls()
    env.reset(task_id=task_id, seed=0)
    for message in _oracle_messages(data_dir, task_id):
        if env.chat.done:
            break
        if message.get("tool_calls"):
            function = message["tool_calls"][0]["function"]
            getattr(env, function["name"])(**json.loads(function["arguments"]))
        else:
            env.send_message_to_customer(message=message["content"])
    reward = env.get_reward()
    failed = type(env).judge_failures == 1
    return reward, {"reward_breakdown": env.chat.reward_breakdown, "judge_failed": failed}


def play_trl_rollout(data_dir, task_id, *, judge=None, reward="binary"):
    require("trl", "trl")
    from tau_env.integrations.trl import ROLLOUT_KEY, make_rollout_func
    from tau_env.testing.tiny_lm import tiny_tokenizer

    tokenizer = tiny_tokenizer(["mock tasks"], vocab_size=300)
    messages = _oracle_messages(data_dir, task_id)

    def generate(trainer, ids):
        message = next(messages)
        if message.get("tool_calls"):
            function = message["tool_calls"][0]["function"]
            text = render_tool_call(function["name"], json.loads(function["arguments"]))
        else:
            text = message["content"]
        new = [*tokenizer.encode(text, add_special_tokens=False), tokenizer.eos_token_id]
        return new, [0.0] * len(new)

    class Trainer:
        processing_class = tokenizer
        max_completion_length = 1 << 20

    rollout = make_rollout_func(
        "mock", data_dir=str(data_dir), judge=judge, reward=reward, generate=generate
    )
    out = rollout([[{"role": "user", "content": ROLLOUT_KEY + task_id}]], Trainer())
    info = {"reward_breakdown": out["tau_breakdown"][0], "judge_failed": out["tau_judge_failed"][0]}
    return out["tau_reward"][0], info


def play_openenv(data_dir, task_id, *, judge=None, reward="binary"):
    require("openenv", "openenv")
    from tau_env.integrations.openenv import TauAction
    from tau_env.integrations.openenv.server import TauOpenEnv

    env = TauOpenEnv("mock", data_dir=data_dir, judge=judge, reward=reward)
    observation = env.reset(task_id=task_id, seed=0)
    for message in _oracle_messages(data_dir, task_id):
        action = TauAction(content=message["content"], tool_calls=message.get("tool_calls"))
        observation = env.step(action)
        if observation.done:
            return observation.reward, observation.metadata


def play_skyrl(data_dir, task_id, *, judge=None, reward="binary"):
    require("skyrl_gym", "skyrl")
    from tau_env.integrations.skyrl import TauTextEnv

    config = {"domain": "mock", "data_dir": str(data_dir), "judge": judge, "reward": reward}
    env = TauTextEnv(config, {"task_id": task_id, "seed": 0})
    env.init([])
    for message in _oracle_messages(data_dir, task_id):
        if message.get("tool_calls"):
            function = message["tool_calls"][0]["function"]
            text = render_tool_call(function["name"], json.loads(function["arguments"]))
        else:
            text = message["content"]
        output = env.step(text)
        if output["done"]:
            assert output["metadata"]["judge_failed"] == bool(env.get_metrics()["judge_failed"])
            return output["reward"], output["metadata"]


ROUTES: dict[str, Play] = {
    "gymnasium": play_gymnasium,
    "chat": play_chat,
    "trl_environment_factory": play_trl_environment,
    "trl_rollout_func": play_trl_rollout,
    "openenv": play_openenv,
    "skyrl": play_skyrl,
}
# How a judge that fails to rule shows on each route: never as 0. A Gymnasium loop (which would
# read a missing reward as 0) raises; the others give no reward (None) and say why: the grade's
# ``not_judged`` (chat, OpenEnv) or a ``judge_failed`` flag, with a warning (TRL, SkyRL).
FAILED_JUDGE_RAISES = {"gymnasium"}
FAILED_JUDGE_FLAGGED = {"trl_environment_factory", "trl_rollout_func", "skyrl"}


@pytest.mark.filterwarnings("ignore:tau_env. 1 of 10 tasks need an NL judge")  # factory probes
@pytest.mark.parametrize("route", list(ROUTES))
def test_without_judge__an_nl_task_is_refused_never_scored_zero(route, nl_mock_dir):
    with pytest.raises(TauEnvError, match="NL assertions"):
        ROUTES[route](nl_mock_dir, NL_TASK)


@pytest.mark.parametrize("route", list(ROUTES))
def test_with_judge__the_nl_task_is_judged(route, nl_mock_dir):
    play = ROUTES[route]
    assert play(nl_mock_dir, NL_TASK, judge=approve)[0] == 1.0
    assert play(nl_mock_dir, NL_TASK, judge=reject)[0] == 0.0
    if route in FAILED_JUDGE_RAISES:
        with pytest.raises(JudgeError, match="judge"):
            play(nl_mock_dir, NL_TASK, judge=fail)
    elif route in FAILED_JUDGE_FLAGGED:
        with pytest.warns(UserWarning, match="the NL judge did not rule"):
            reward, info = play(nl_mock_dir, NL_TASK, judge=fail)
        assert reward is None and info["judge_failed"] is True
    else:
        reward, metadata = play(nl_mock_dir, NL_TASK, judge=fail)
        assert reward is None and metadata["grade"]["not_judged"] == ["NL_ASSERTION"]


@pytest.mark.parametrize("route", list(ROUTES))
def test_partial_and_breakdown__reach_the_route(route, nl_mock_dir):
    play = ROUTES[route]
    # DB and COMMUNICATE met, the NL assertion not: 2 of 3 items.
    assert play(nl_mock_dir, NL_TASK, judge=reject, reward="partial")[0] == pytest.approx(2 / 3)
    reward, info = play(nl_mock_dir, NL_TASK, judge=reject, reward="breakdown")
    assert reward == 0.0
    assert info["reward_breakdown"] == {"DB": 1.0, "COMMUNICATE": 1.0, "NL_ASSERTION": 0.0}


def test_draws__leave_nl_tasks_out_without_a_judge_and_say_how_many(nl_mock_dir):
    chat = make_chat_env("mock", data_dir=nl_mock_dir, split="base")
    with pytest.warns(UserWarning, match="1 of 10 tasks need an NL judge"):
        drawn = {(chat.reset(seed=seed), chat.task_id)[1] for seed in range(60)}
    assert NL_TASK not in drawn and len(drawn) == 9
    judged = make_chat_env("mock", data_dir=nl_mock_dir, split="base", judge=approve)
    assert NL_TASK in {(judged.reset(seed=seed), judged.task_id)[1] for seed in range(60)}


def test_trl_datasets__leave_nl_tasks_out_unless_judged(nl_mock_dir):
    require("datasets", "trl")
    from tau_env.integrations.trl import environment_dataset, rollout_dataset, task_key

    with pytest.warns(UserWarning, match="1 of 10 mock tasks need an NL judge"):
        rows = environment_dataset("mock", data_dir=nl_mock_dir, split="base")
    key = task_key(NL_TASK)  # rows name tasks by opaque keys (issue 53)
    assert key not in rows["task_key"] and len(rows) == 9
    assert key in environment_dataset("mock", data_dir=nl_mock_dir, judged=True)["task_key"]
    assert key in rollout_dataset("mock", data_dir=nl_mock_dir, judged=True)["task_key"]


def test_trl_component_rewards__one_function_per_check(nl_mock_dir):
    require("trl", "trl")
    from tau_env.integrations.trl import component_rewards, environment_factory

    cls = environment_factory("mock", data_dir=str(nl_mock_dir), judge=reject, reward="breakdown")
    env = cls()
    env.reset(task_id=NL_TASK, seed=0)
    env.create_task(user_id="user_1", title="Renew passport")  # the gold action; no message
    functions = component_rewards()
    values = {f.__name__: f([None], environments=[env])[0] for f in functions}
    assert values == {
        "tau_db": 1.0,
        "tau_env_assertion": None,  # not in this task's basis
        "tau_action": None,
        "tau_communicate": 0.0,  # the task id was never said
        "tau_nl_assertion": 0.0,
    }
    rows = [{"DB": 0.0}]
    assert [f([None], tau_breakdown=rows)[0] for f in functions[:2]] == [0.0, None]
    with pytest.raises(ValueError, match="unknown checks"):
        component_rewards(["STYLE"])
