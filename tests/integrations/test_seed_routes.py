"""The seed rule on every route: the episode seed decides the scripted user's conversation.

Each route plays the first 30 built-in telecom ``test_ood`` tasks with the plain-text oracle
(its actions do not depend on what the user says) under 5 seeds: the conversations must
differ between seeds on at least 20 tasks, and a seed played again must give the same
conversation, byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

import tau_env
from tau_env.baselines.oracle import PlainTextOracleAgent
from tau_env.chat import action_message, make_chat_env, render_tool_call
from tests.extras import require

SEEDS = range(5)
TASKS = [task.id for task in tau_env.load_tasks("telecom", split="test_ood")[:30]]


def _domain():
    return tau_env.make_env("telecom", split="test_ood").unwrapped.domain


def _oracle(task_id: str) -> PlainTextOracleAgent:
    return PlainTextOracleAgent(_domain().task(task_id))


def _raw_text(message: dict) -> str:
    """A turn as a Qwen-style model writes it."""
    if message.get("tool_calls"):
        function = message["tool_calls"][0]["function"]
        return render_tool_call(function["name"], json.loads(function["arguments"]))
    return str(message["content"])


def aec_route() -> Callable[[str, int], str]:
    from tau_env.episode_runner import run_episode
    from tau_env.wrappers.users import ScriptedUser

    env = tau_env.make_env("telecom", split="test_ood")
    user = ScriptedUser.factory(env.unwrapped.domain)

    def play(task_id: str, seed: int) -> str:
        result = run_episode(env, PlainTextOracleAgent, user, task_id=task_id, seed=seed)
        return json.dumps([m.model_dump(mode="json") for m in result.trajectory])

    return play


def gymnasium_route() -> Callable[[str, int], str]:
    import gymnasium

    env = gymnasium.make("tau_env/Telecom-v0", split="test_ood").unwrapped

    def play(task_id: str, seed: int) -> str:
        env.reset(seed=seed, options={"task_id": task_id})
        agent = _oracle(task_id)
        done = False
        while not done:
            _, _, terminated, truncated, _ = env.step(agent.act(None, None))
            done = terminated or truncated
        history = env.driven.view("agent").history
        return json.dumps([m.model_dump(mode="json") for m in history])

    return play


def chat_route() -> Callable[[str, int], str]:
    chat = make_chat_env("telecom", split="test_ood")

    def play(task_id: str, seed: int) -> str:
        chat.reset(task_id=task_id, seed=seed)
        agent = _oracle(task_id)
        while not chat.done:
            chat.step(action_message(agent.act(None, None)))
        return json.dumps(chat.messages)

    return play


def trl_environment_route() -> Callable[[str, int], str]:
    require("trl", "trl")
    from tau_env.integrations.trl import environment_factory

    cls = environment_factory("telecom", split="test_ood", group_seeds="fixed")

    def play(task_id: str, seed: int) -> str:
        env = cls()
        env.reset(task_id=task_id, seed=seed)
        agent = _oracle(task_id)
        while not env.chat.done:
            message = action_message(agent.act(None, None))
            if message.get("tool_calls"):
                function = message["tool_calls"][0]["function"]
                getattr(env, function["name"])(**json.loads(function["arguments"]))
            else:
                env.send_message_to_customer(message=message["content"])
        return json.dumps(env.chat.messages)

    return play


def trl_rollout_route() -> Callable[[str, int], str]:
    require("trl", "trl")
    from tau_env.integrations.trl import ROLLOUT_KEY, make_rollout_func
    from tau_env.testing.tiny_lm import tiny_tokenizer

    domain = _domain()
    tokenizer = tiny_tokenizer([domain.policy], vocab_size=400)
    current: dict = {}

    def generate(trainer, ids):
        if ids[: len(current.get("ids", []))] != current.get("ids") or "agent" not in current:
            current["agent"] = _oracle(current["task"])
        reply = _raw_text(action_message(current["agent"].act(None, None)))
        new = [*tokenizer.encode(reply, add_special_tokens=False), tokenizer.eos_token_id]
        current["ids"] = list(ids) + new
        return new, [0.0] * len(new)

    class Trainer:
        processing_class = tokenizer
        max_completion_length = 1 << 20

    def play(task_id: str, seed: int) -> str:
        rollout = make_rollout_func("telecom", split="test_ood", generate=generate, seed=seed)
        current.clear()
        current["task"] = task_id
        out = rollout([[{"role": "user", "content": ROLLOUT_KEY + task_id}]], Trainer())
        assert out["tau_finished"] == [True]
        return str(tokenizer.decode(out["prompt_ids"][0] + out["completion_ids"][0]))

    return play


def openenv_route() -> Callable[[str, int], str]:
    require("openenv", "openenv")
    from tau_env.integrations.openenv import TauAction
    from tau_env.integrations.openenv.server import TauOpenEnv

    env = TauOpenEnv("telecom", split="test_ood")

    def play(task_id: str, seed: int) -> str:
        observation = env.reset(seed=seed, task_id=task_id)
        messages = list(observation.messages)
        agent = _oracle(task_id)
        while not observation.done:
            message = action_message(agent.act(None, None))
            observation = env.step(
                TauAction(content=message["content"], tool_calls=message.get("tool_calls"))
            )
            messages.extend(observation.messages)
        return json.dumps(messages)

    return play


def skyrl_route() -> Callable[[str, int], str]:
    require("skyrl_gym", "skyrl")
    from tau_env.integrations.skyrl import TauTextEnv

    def play(task_id: str, seed: int) -> str:
        config = {"domain": "telecom", "split": "test_ood"}
        env = TauTextEnv(config, {"task_id": task_id, "seed": seed})
        messages, _ = env.init([])
        agent = _oracle(task_id)
        output = None
        while output is None or not output["done"]:
            output = env.step(_raw_text(action_message(agent.act(None, None))))
            messages.extend(output["observations"])
        return json.dumps(messages)

    return play


ROUTES = {
    "aec": aec_route,
    "gymnasium": gymnasium_route,
    "chat": chat_route,
    "trl_environment_factory": trl_environment_route,
    "trl_rollout_func": trl_rollout_route,
    "openenv": openenv_route,
    "skyrl": skyrl_route,
}


@pytest.mark.parametrize("route", list(ROUTES))
def test_seed__changes_scripted_conversations_and_replays_them(route):
    play = ROUTES[route]()
    changed = 0
    for task_id in TASKS:
        conversations = [play(task_id, seed) for seed in SEEDS]
        changed += len(set(conversations)) > 1
        assert play(task_id, SEEDS[-1]) == conversations[-1], task_id  # byte for byte
    assert changed >= 20, f"{route}: {changed} of {len(TASKS)} tasks vary with the seed"
