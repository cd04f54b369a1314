"""One conversation format: an episode's tokens are the same on every route.

The same scripted model plays one telecom task, with the same episode seed (``tau-env run``'s
first trial: `episode_seed(300, task, 0)`), through the TRL ``rollout_func``, the chat view,
OpenEnv, SkyRL and ``tau-env run --agent llm`` (against the fake OpenAI server). Its turns
cover the cases where formats used to part: the greeting before its first turn, two tool
calls in one message, text alongside a call, plain text to the customer. Every route's token
sequence, through the Qwen-2.5 chat template of the tests' tiny tokenizer, is identical.

TRL's ``environment_factory`` cannot be identical (its loop ends at plain text, so talking is a
tool call): `test_trl_environment_factory__differs_only_as_documented` pins down the
differences its module documents.
"""

from __future__ import annotations

import json

import pytest

import tau_env
from tau_env.baselines.oracle import PlainTextOracleAgent
from tau_env.chat import EpisodeTokens, action_message, make_chat_env, tokenize_episode
from tau_env.rollout_seeds import episode_seed
from tests.extras import require

require("transformers", "trl")

from tau_env.testing.tiny_lm import tiny_tokenizer  # noqa: E402


def _plan_kinds(task, moves: int = 4) -> str:
    """The oracle's first moves on `task`: T for text, C for a tool call."""
    agent = PlainTextOracleAgent(task)
    return "".join(
        "C" if action_message(agent.act(None, None)).get("tool_calls") else "T"
        for _ in range(moves)
    )


# A task whose oracle talks, calls, talks, calls: the cases `model_turns` reshapes.
TASK = next(t.id for t in tau_env.make_env("telecom").unwrapped.tasks if _plan_kinds(t) == "TCTC")
SEED = episode_seed(300, TASK, 0)


@pytest.fixture(scope="module")
def tokenizer():
    env = tau_env.make_env("telecom").unwrapped
    corpus = [env.domain.policy, json.dumps(env.domain.toolbox.tools("agent").openai_schemas())]
    return tiny_tokenizer(corpus, vocab_size=800)


def model_turns() -> list[dict]:
    """The oracle's plan, reshaped: its first call sent twice in one message, and its second
    text sent alongside its second call (that text reaches no one)."""
    agent = PlainTextOracleAgent(tau_env.make_env("telecom").unwrapped.domain.task(TASK))
    plan = []
    while not plan or "###STOP###" not in (plan[-1]["content"] or ""):
        plan.append(action_message(agent.act(None, None)))
    kinds = ["C" if m.get("tool_calls") else "T" for m in plan]
    assert "".join(kinds).startswith("TCTC"), kinds
    first_call = plan[1]["tool_calls"][0]
    doubled = {"role": "assistant", "content": None, "tool_calls": [first_call, first_call]}
    merged = {
        "role": "assistant",
        "content": plan[2]["content"],
        "tool_calls": plan[3]["tool_calls"],
    }
    turns = [plan[0], doubled, merged, *plan[4:]]
    chat = make_chat_env("telecom")
    chat.reset(task_id=TASK, seed=SEED)
    for played, message in enumerate(turns, start=1):
        if chat.step(message).done:
            return turns[:played]
    raise AssertionError("the episode never ended")


def model_ids(tokenizer, message: dict) -> list[int]:
    """The ids a model writes for `message`: the template's rendering of the turn."""
    return EpisodeTokens(tokenizer).add_model_message(message)


def through_last_turn(messages: list[dict]) -> list[dict]:
    last = max(i for i, m in enumerate(messages) if m["role"] == "assistant")
    return messages[: last + 1]


# -- the routes ------------------------------------------------------------------------------


def rollout_func_ids(tokenizer) -> list[int]:
    from tau_env.integrations.trl import ROLLOUT_KEY, make_rollout_func

    turns = iter(model_turns())

    def generate(trainer, ids):
        new = model_ids(tokenizer, next(turns))
        return new, [0.0] * len(new)

    class Trainer:
        processing_class = tokenizer
        max_completion_length = 1 << 20

    rollout = make_rollout_func("telecom", generate=generate, seed=300)
    out = rollout([[{"role": "user", "content": ROLLOUT_KEY + TASK}]], Trainer())
    assert out["tau_seed"] == [SEED] and out["tau_finished"] == [True]
    return out["prompt_ids"][0] + out["completion_ids"][0]


def chat_ids(tokenizer) -> list[int]:
    chat = make_chat_env("telecom")
    prompt = len(chat.reset(task_id=TASK, seed=SEED).messages)
    for message in model_turns():
        chat.step(message)
    assert chat.done
    tokens = tokenize_episode(
        tokenizer, through_last_turn(chat.messages), chat.tools, prompt_length=prompt
    )
    return tokens.prompt_ids + tokens.completion_ids


def openenv_ids(tokenizer) -> list[int]:
    require("openenv", "openenv")
    from tau_env.integrations.openenv import TauAction
    from tau_env.integrations.openenv.server import TauOpenEnv

    env = TauOpenEnv("telecom")
    observation = env.reset(task_id=TASK, seed=SEED)
    chat, tools, prompt = list(observation.messages), observation.tools, len(observation.messages)
    for message in model_turns():
        chat.append(message)  # the client keeps its own turns as it sent them
        observation = env.step(
            TauAction(content=message["content"], tool_calls=message.get("tool_calls"))
        )
        chat.extend(observation.messages)
    assert observation.done
    tokens = tokenize_episode(tokenizer, through_last_turn(chat), tools, prompt_length=prompt)
    return tokens.prompt_ids + tokens.completion_ids


def skyrl_ids(tokenizer) -> list[int]:
    """SkyRL's own way: the chat rendered without ``tools``, then each turn's ids and each
    observation's, appended after a fixed base conversation (as `EpisodeTokens` does)."""
    require("skyrl_gym", "skyrl")
    from tau_env.integrations.skyrl import TauTextEnv

    env = TauTextEnv({"domain": "telecom", "tokenizer": tokenizer}, {"task_id": TASK, "seed": SEED})
    messages, _ = env.init([])
    tokens = EpisodeTokens(tokenizer)
    tokens.prompt_ids = tokenizer.apply_chat_template(
        messages, add_generation_prompt=True, tokenize=True, return_dict=False
    )
    for message in model_turns():
        ids = model_ids(tokenizer, message)
        tokens.add_model_ids(ids, message)
        output = env.step(tokenizer.decode(ids[:-1]))
        if output["done"]:
            break
        tokens.add_environment(output["observations"])
    assert output["metadata"]["finished"]
    return tokens.prompt_ids + tokens.completion_ids


def evaluation_ids(tokenizer, tmp_path, monkeypatch) -> list[int]:
    """``tau-env run --agent llm`` against a fake server answering with the same turns."""
    from tau_env.cli.main import main
    from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply, FakeToolCall

    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")
    replies = [
        FakeReply(
            content=m["content"],
            tool_calls=tuple(
                FakeToolCall(c["function"]["name"], c["function"]["arguments"])
                for c in m.get("tool_calls", ())
            ),
        )
        for m in model_turns()
    ]
    with FakeOpenAIServer() as server:
        server.push(*replies)
        arguments = ["run", "--tasks", TASK, "--agent", "llm", "--agent-model", server.model()]
        arguments += ["--agent-api-base", server.base_url, "--store", str(tmp_path / "r.sqlite")]
        assert main([*arguments, "--no-progress"]) == 0
        last = server.requests[-1].body
    assert len(server.requests) == len(replies)
    prompt = tokenizer.apply_chat_template(
        [as_served(m) for m in last["messages"]],
        tools=last["tools"],
        add_generation_prompt=True,
        tokenize=True,
        return_dict=False,
    )
    return list(prompt) + model_ids(tokenizer, model_turns()[-1])


def as_served(message: dict) -> dict:
    """A request message as an OpenAI-compatible server (vLLM, SGLang) hands it to the chat
    template: tool-call arguments parsed from JSON text to an object."""
    calls = message.get("tool_calls")
    if not calls:
        return message
    parsed = [
        {**c, "function": {**c["function"], "arguments": json.loads(c["function"]["arguments"])}}
        for c in calls
    ]
    return {**message, "tool_calls": parsed}


def test_tokens__identical_on_every_route(tokenizer, tmp_path, monkeypatch):
    reference = rollout_func_ids(tokenizer)
    routes = {
        "chat": chat_ids(tokenizer),
        "openenv": openenv_ids(tokenizer),
        "skyrl": skyrl_ids(tokenizer),
        "tau-env run --agent llm": evaluation_ids(tokenizer, tmp_path, monkeypatch),
    }
    text = tokenizer.decode(reference)
    assert text.count("<|im_start|>assistant\nHi! How can I help you today?") == 1  # greeting
    assert "<tool_call>" in text and "<tool_response>" in text
    for route, ids in routes.items():
        assert ids == reference, f"{route}: {tokenizer.decode(ids)[-400:]}"


def test_trl_environment_factory__differs_only_as_documented():
    """The route's module docstring lists three differences; this is each of them, and the
    conversation otherwise the shared one (turns replayed against the chat view)."""
    require("datasets", "trl")
    from transformers.utils import get_json_schema

    from tau_env.integrations.trl import MESSAGE_TOOL, environment_dataset, environment_factory
    from tau_env.integrations.trl.environment import message_tool_prompt

    row = environment_dataset("telecom", only=[TASK], seed=300)[0]
    instance = environment_factory("telecom")()
    opening = instance.reset(**row)
    assert instance.seed == SEED  # the first group of the task: tau-env run's first trial
    chat = make_chat_env("telecom")
    shared = chat.reset(task_id=TASK, seed=SEED).messages
    # 3. Up to the first turn: the shared chat (greeting as the assistant's turn), except...
    prompt = [*row["prompt"][:-1], {**row["prompt"][-1], "content": opening}]
    assert prompt[1:] == shared[1:]
    assert prompt[1] == {"role": "assistant", "content": "Hi! How can I help you today?"}
    # 1. ...the system prompt says that talking is the message tool.
    policy = tau_env.make_env("telecom").unwrapped.domain.policy
    assert prompt[0]["content"] == message_tool_prompt(policy) != shared[0]["content"]
    assert MESSAGE_TOOL in prompt[0]["content"]
    # 2. The tools: the native names and parameters, plus the message tool.
    schemas = {
        name: get_json_schema(getattr(instance, name))["function"]
        for name in [t["function"]["name"] for t in chat.tools] + [MESSAGE_TOOL]
    }
    for tool in chat.tools:
        native = tool["function"]["parameters"]
        mine = schemas[tool["function"]["name"]]["parameters"]
        assert set(mine["properties"]) == set(native["properties"])
        assert set(mine.get("required", [])) == set(native.get("required", []))
    # 1. The customer's replies come back as the message tool's results; everything else (tool
    # results, what the customer says) is what the shared chat shows.
    for message in model_turns():
        new = chat.step(message).messages
        if message.get("tool_calls"):
            results = [
                getattr(instance, c["function"]["name"])(**json.loads(c["function"]["arguments"]))
                for c in message["tool_calls"]
            ]
            assert results == [m["content"] for m in new if m["role"] == "tool"]
        else:
            reply = instance.send_message_to_customer(message=message["content"])
            assert reply == "\n".join(m["content"] for m in new if m["role"] == "user")
    assert chat.done and instance.chat.done
    assert instance.get_reward() == chat.reward
