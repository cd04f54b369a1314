"""``tau-env run --agent-tokens``: each agent turn's exact tokens, in the store and the export."""

from __future__ import annotations

import json
import math

from tau_env.cli.main import main
from tau_env.store import ResultStore
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply


def test_run__stores_and_exports_each_turns_token_ids_and_logprobs(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")
    sent = []

    def agent_model(request):
        """The mock task's gold step, then goodbye; the prompt grows with the chat, as a
        server's token ids would (each prompt extends the last prompt and completion)."""
        turn = len(sent)
        before = sent[-1]["prompt_ids"] + sent[-1]["completion_ids"] if sent else [100]
        tokens = {
            "prompt_ids": [*before, 200 + turn, 300 + turn],
            "completion_ids": [400 + turn, 401 + turn],
            "logprobs": [-0.25 * (turn + 1), -0.5],
        }
        sent.append(tokens)
        reply = (
            FakeReply.tool_call("update_task_status", {"task_id": "task_1", "status": "completed"})
            if turn == 0
            else FakeReply.text("Done. ###STOP###")
        )
        return FakeReply(
            content=reply.content,
            tool_calls=reply.tool_calls,
            prompt_token_ids=tuple(tokens["prompt_ids"]),
            token_ids=tuple(tokens["completion_ids"]),
            logprobs=tuple(tokens["logprobs"]),
        )

    store = str(tmp_path / "runs.sqlite")
    with FakeOpenAIServer(agent_model) as server:
        assert main(_run_mock(server, store, "--agent-tokens", "--run", "t")) == 0
        bodies = [request.body for request in server.requests]
    assert len(sent) == 2
    assert all(b["return_token_ids"] is True and b["logprobs"] is True for b in bodies)
    with ResultStore(store) as results:
        (episode,) = list(results.episodes("t"))
    assert episode.reward == 1.0
    assert episode.token_turns() == sent
    # Stored compactly: the second prompt keeps only what the first turn had not.
    assert [t.prefix for t in episode.agent_tokens] == [0, 5]
    assert episode.agent_tokens[1].prompt_tail == [201, 301]
    capsys.readouterr()
    assert main(["export", "--store", store, "--run", "t"]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported["simulations"][0]["info"]["agent_tokens"] == sent


def test_run__without_agent_tokens_asks_for_none(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")
    replies = [FakeReply.text("Done. ###STOP###")]
    store = str(tmp_path / "runs.sqlite")
    with FakeOpenAIServer(replies) as server:
        assert main(_run_mock(server, store)) == 0
        body = server.requests[0].body
    assert "return_token_ids" not in body and "logprobs" not in body
    with ResultStore(store) as results:
        assert [e.agent_tokens for e in results.episodes(results.runs()[0].run_id)] == [[]]


def test_run__keeps_logprobs_that_json_cannot_write(tmp_path, monkeypatch, capsys):
    """A server may send ``-Infinity`` or ``NaN`` for a logprob: the episode is stored, reads
    back with the same floats, and exports them (JSON's ``null`` would lose the episode)."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")
    logprobs = (float("-inf"), float("nan"), -0.5)
    reply = FakeReply.text("Done. ###STOP###")
    replies = [FakeReply(content=reply.content, token_ids=(7, 8, 9), logprobs=logprobs)]
    store = str(tmp_path / "runs.sqlite")
    with FakeOpenAIServer(replies) as server:
        assert main(_run_mock(server, store, "--agent-tokens", "--run", "t")) == 0
    with ResultStore(store) as results:
        (episode,) = list(results.episodes("t"))
    (turn,) = episode.token_turns()
    assert turn["completion_ids"] == [7, 8, 9]
    assert turn["logprobs"][0] == float("-inf")
    assert math.isnan(turn["logprobs"][1]) and turn["logprobs"][2] == -0.5
    capsys.readouterr()
    assert main(["export", "--store", store, "--run", "t"]) == 0
    exported = json.loads(capsys.readouterr().out)
    (exported_turn,) = exported["simulations"][0]["info"]["agent_tokens"]
    assert exported_turn["logprobs"][0] == float("-inf")
    assert math.isnan(exported_turn["logprobs"][1])


def _run_mock(server: FakeOpenAIServer, store: str, *options: str) -> list[str]:
    """`tau-env run`'s arguments: mock's complete_task, the server's model as the agent."""
    arguments = ["run", "--domain", "mock", "--tasks", "complete_task", "--user", "gold"]
    arguments += ["--agent", "llm", "--agent-model", server.model(), "--agent-api-base"]
    return [*arguments, server.base_url, "--store", store, "--no-progress", *options]
