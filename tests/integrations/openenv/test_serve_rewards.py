"""``tau-env serve --judge-model --reward``: judged, on the chosen scale, never a silent 0."""

from __future__ import annotations

import asyncio

import pytest

import tau_env
from tau_env.baselines.oracle import PlainTextOracleAgent
from tau_env.chat import action_message
from tau_env.testing.fake_judge import judge_script
from tau_env.testing.fake_openai import FakeOpenAIServer
from tau_env.testing.serving import served
from tests.conftest import NL_TASK
from tests.extras import require

require("openenv", "openenv")


async def play(url: str, data_dir) -> tuple[float | None, dict]:
    from tau_env.integrations.openenv import TauAction, TauEnvClient

    agent = PlainTextOracleAgent(tau_env.load_domain("mock", data_dir).task(NL_TASK))
    async with TauEnvClient(base_url=url) as client:
        result = await client.reset(task_id=NL_TASK, seed=0)
        while not result.done:
            message = action_message(agent.act(None, None))
            result = await client.step(
                TauAction(content=message["content"], tool_calls=message.get("tool_calls"))
            )
    return result.reward, result.observation.metadata


def test_serve__judges_with_judge_model_and_reports_the_breakdown(nl_mock_dir, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")
    with FakeOpenAIServer(judge_script(lambda text: False)) as judge:
        arguments = ["mock", "--data-dir", str(nl_mock_dir), "--reward", "breakdown"]
        arguments += ["--judge-model", judge.model(), "--judge-api-base", judge.base_url]
        with served(arguments) as url:
            reward, metadata = asyncio.run(play(url, nl_mock_dir))
        judged = judge.request_count
    assert judged == 1
    assert reward == 0.0
    assert metadata["reward_breakdown"] == {"DB": 1.0, "COMMUNICATE": 1.0, "NL_ASSERTION": 0.0}


def test_serve__without_a_judge_refuses_the_nl_task(nl_mock_dir):
    arguments = ["mock", "--data-dir", str(nl_mock_dir), "--reward", "partial"]
    with served(arguments) as url, pytest.raises(Exception, match="NL assertions"):
        asyncio.run(play(url, nl_mock_dir))


def test_serve__a_judge_without_its_key__one_line_before_serving(monkeypatch, capsys):
    # Issue 42's rule: a key the judge will need is checked at the start, not in each session.
    from tau_env.cli.main import main

    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE"):
        monkeypatch.delenv(name, raising=False)
    assert main(["serve", "--domain", "mock", "--port", "0", "--judge-model", "gpt-4.1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("tau-env: error: no API key for OpenAI")
    assert "set OPENAI_API_KEY" in captured.err and len(captured.err.splitlines()) == 1
