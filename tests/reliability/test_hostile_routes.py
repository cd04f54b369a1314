"""Hostile tool-call arguments through every route that calls tools (issue 42, item 3).

The same three calls go through each way a policy reaches the tools: the AEC env (in
`test_hostile_arguments`), the Gymnasium view, the chat view, the TRL environment, SkyRL's text
env, the OpenEnv environment and a run of the runner with an LLM agent on the fake server. Each
call gets an ``Error: ...`` result (the reference's text for the integer), nothing raises, the
trajectory keeps every call with its result, and the episode goes on.
"""

from __future__ import annotations

import json

import gymnasium
import pytest

from tau_env.chat import make_chat_env
from tau_env.domain import load_domain
from tau_env.errors import InvalidAction
from tau_env.tools.nesting import MAX_ARGUMENT_DEPTH
from tests.extras import require
from tests.reliability.hostile_values import DEPTH, HUGE, assert_well_formed, nested_dict

TOO_DEEP = f"nested more than {MAX_ARGUMENT_DEPTH} levels deep"
OVERFLOW = "Error: int too large to convert to float"


@pytest.fixture(scope="module")
def refuel():
    """A built-in telecom task whose gold plan refuels data, and that call's arguments."""
    for task in load_domain("telecom").tasks:
        for action in task.gold_actions:
            if action.name == "refuel_data":
                return task.id, dict(action.arguments)
    raise AssertionError("no built-in telecom task refuels data")


def _hostile_texts(arguments: dict) -> dict[str, tuple[str, str]]:
    """Label -> (arguments as JSON text, what the result must contain)."""
    huge = json.dumps({**arguments, "gb_amount": 0}).replace(
        '"gb_amount": 0', f'"gb_amount": {HUGE}'
    )
    deep = json.dumps({**arguments, "line_id": 0}).replace(
        '"line_id": 0', '"line_id": ' + "[" * DEPTH + "]" * DEPTH
    )
    surrogate = json.dumps({**arguments, "customer_id": "\ud800"})  # written as \ud800
    return {
        "400-digit int": (huge, OVERFLOW),
        "5000 deep": (deep, TOO_DEEP),
        "lone surrogate": (surrogate, "Error: "),
    }


def _results(messages) -> list[dict]:
    return [m for m in messages if m["role"] == "tool"]


def test_gymnasium_view__hostile_calls_get_error_results(refuel):
    task_id, arguments = refuel
    env = gymnasium.make("tau_env/Telecom-v0")
    env.reset(seed=0, options={"task_id": task_id})
    aec = env.unwrapped.aec.unwrapped
    tool = aec.domain.toolbox.tools("agent").names.index("refuel_data")
    for text, expected in _hostile_texts(arguments).values():
        action = {"kind": 1, "content": "", "tool": tool, "arguments": text}
        *_, terminated, truncated, _ = env.step(action)
        result = aec.conversation.trajectory[-1]
        assert result.error and expected in result.content
        assert not (terminated or truncated)
    with pytest.raises(InvalidAction):  # not an action: refused, nothing changes
        env.step({"kind": float("inf"), "content": "", "tool": tool, "arguments": "{}"})
    assert aec.conversation.num_errors == 3
    assert_well_formed(aec.conversation.trajectory)


@pytest.mark.parametrize("form", ["json text", "mapping"])
def test_chat_view__hostile_calls_get_error_results(refuel, form):
    task_id, arguments = refuel
    chat = make_chat_env("telecom")
    chat.reset(task_id=task_id, seed=0)
    cases = _hostile_texts(arguments)
    if form == "mapping":  # arguments as objects (as Hugging Face templates carry them)
        cases = {
            "400-digit int": ({**arguments, "gb_amount": HUGE}, OVERFLOW),
            "5000 deep": ({**arguments, "line_id": nested_dict()}, TOO_DEEP),
            "lone surrogate": ({**arguments, "customer_id": "\ud800"}, "Error: "),
        }
    for sent, expected in cases.values():
        call = {"type": "function", "function": {"name": "refuel_data", "arguments": sent}}
        turn = chat.step({"role": "assistant", "content": None, "tool_calls": [call]})
        (result,) = _results(turn.messages)
        assert result["content"].startswith("Error: ") and expected in result["content"]
        assert not turn.done
    conversation = chat.single.aec.unwrapped.conversation
    assert conversation.num_errors == 3
    assert_well_formed(conversation.trajectory)


def test_trl_environment__hostile_keyword_arguments_get_error_results(refuel):
    require("trl", "trl")
    from tau_env.integrations.trl import environment_factory

    task_id, arguments = refuel
    instance = environment_factory("telecom")()
    instance.reset(task_id=task_id, seed=0, prompt=[])
    assert instance.refuel_data(**{**arguments, "gb_amount": HUGE}) == OVERFLOW
    assert instance.refuel_data(**{**arguments, "line_id": nested_dict()}).endswith(TOO_DEEP)
    assert instance.refuel_data(**{**arguments, "customer_id": "\ud800"}).startswith("Error: ")
    conversation = instance.chat.single.aec.unwrapped.conversation
    assert conversation.num_errors == 3
    assert_well_formed(conversation.trajectory)


def test_skyrl_text_env__hostile_tool_call_text_gets_error_results(refuel):
    skyrl_gym = require("skyrl_gym", "skyrl")
    import tau_env.integrations.skyrl  # noqa: F401  (registers tau_env/<domain>)

    task_id, arguments = refuel
    env = skyrl_gym.make("tau_env/telecom", env_config={}, extras={"task_id": task_id, "seed": 0})
    env.init([{"role": "user", "content": "ignored"}])
    for text, expected in _hostile_texts(arguments).values():
        body = '{"name": "refuel_data", "arguments": ' + text + "}"
        output = env.step(f"<tool_call>\n{body}\n</tool_call>")
        assert not output["done"]
        (result,) = _results(output["observations"])
        assert result["content"].startswith("Error: ") and expected in result["content"]


def test_openenv_environment__hostile_calls_get_error_results(refuel):
    require("openenv", "openenv")
    from tau_env.integrations.openenv import TauAction
    from tau_env.integrations.openenv.server import TauOpenEnv

    task_id, arguments = refuel
    env = TauOpenEnv("telecom")
    env.reset(task_id=task_id, seed=0)
    for text, expected in _hostile_texts(arguments).values():
        call = {"function": {"name": "refuel_data", "arguments": text}}
        observation = env.step(TauAction(tool_calls=[call]))
        (result,) = _results(observation.messages)
        assert result["content"].startswith("Error: ") and expected in result["content"]
    assert_well_formed(env.chat.single.aec.unwrapped.conversation.trajectory)


def test_runner__an_llm_agents_hostile_calls_are_error_results_and_the_run_goes_on(
    tmp_path, monkeypatch
):
    """``tau-env run``'s path: an LLM agent (fake server) sends hostile calls, then does the job."""
    from tau_env.rollout import ParticipantSpec, RunConfig, create_run, run
    from tau_env.store import ResultStore
    from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply

    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")
    hostile = [
        '{"task_id": ' + "[" * DEPTH + "]" * DEPTH + "}",
        '{"task_id": "task_1", "status": ' + str(HUGE) + "}",
        '{"task_id": NaN, "status": Infinity}',
        '{"task_id": "task_1", "status": "completed", "extra": '
        + '{"a":' * 900
        + "1"
        + "}" * 900
        + "}",
    ]

    def model(request):
        done = sum(1 for m in request.messages if m["role"] == "tool")
        if done < len(hostile):
            return FakeReply.tool_call("update_task_status", hostile[done])
        if done == len(hostile):
            return FakeReply.tool_call(
                "update_task_status", {"task_id": "task_1", "status": "completed"}
            )
        return FakeReply.text("Done: your task is updated.")

    with ResultStore(tmp_path / "runs.sqlite") as store, FakeOpenAIServer(model) as server:
        agent = ParticipantSpec(kind="llm", model=server.model(), api_base=server.base_url)
        config = RunConfig(
            run_id="hostile",
            domain="mock",
            task_ids=("complete_task",),
            trials=1,
            agent=agent,
            user=ParticipantSpec(kind="gold"),
        )
        create_run(store, config)
        summary = run(store, config)
        (episode,) = store.episodes("hostile")
        failures = store.failures("hostile")
    assert (summary.finished, summary.failed, failures) == (1, 0, [])
    results = [m for m in episode.trajectory if m["role"] == "tool"]
    assert [m["error"] for m in results] == [True, True, True, True, False]
    assert TOO_DEEP in results[0]["content"] and TOO_DEEP in results[3]["content"]
    assert episode.reward == 1.0  # the episode went on, and the job was done
