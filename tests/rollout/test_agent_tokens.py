"""``tau-env run --agent-tokens``: each agent turn's exact tokens, in the store and the export.

A run with ``--agent-tokens`` first sends the agent's server one probe request
(`tau_env.rollout.preflight.TOKEN_PROBE`): the fake servers answer it with `PROBE_REPLY`.
"""

from __future__ import annotations

import json
import math

from tau_env.cli.main import main
from tau_env.rollout.preflight import TOKEN_PROBE
from tau_env.store import ResultStore
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply, FakeRequest

PROBE_REPLY = FakeReply(content="OK", prompt_token_ids=(1, 2), token_ids=(3,), logprobs=(-0.1,))


def is_probe(request: FakeRequest) -> bool:
    return request.messages[-1]["content"] == TOKEN_PROBE


def test_run__stores_and_exports_each_turns_token_ids_and_logprobs(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")
    sent = []

    def agent_model(request):
        """The mock task's gold step, then goodbye; the prompt grows with the chat, as a
        server's token ids would (each prompt extends the last prompt and completion)."""
        if is_probe(request):
            return PROBE_REPLY
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
    assert episode.token_turns() == [{**turn, "retokenized": False} for turn in sent]
    # Stored compactly: the second prompt keeps only what the first turn had not.
    assert [t.prefix for t in episode.agent_tokens] == [0, 5]
    assert episode.agent_tokens[1].prompt_tail == [201, 301]
    capsys.readouterr()
    assert main(["export", "--store", store, "--run", "t"]) == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported["simulations"][0]["info"]["agent_tokens"] == episode.token_turns()


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
    replies = [
        PROBE_REPLY,
        FakeReply(content=reply.content, token_ids=(7, 8, 9), logprobs=logprobs),
    ]
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


def test_run__refused_at_start_when_the_server_returns_no_token_ids(tmp_path, monkeypatch, capsys):
    """The issue's case: a server that ignores ``return_token_ids`` (most do; OpenAI sends
    logprobs only). The probe finds it: one line, exit 2, no run stored, no episode played."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")
    store = tmp_path / "runs.sqlite"
    plain = FakeReply.text("OK")
    for reply, got in (
        (plain, "no token ids"),
        (FakeReply(content="OK", logprobs=(-0.1,)), "logprobs only"),
    ):
        with FakeOpenAIServer([reply]) as server:
            assert main(_run_mock(server, str(store), "--agent-tokens")) == 2
            (request,) = server.requests
        assert is_probe(request) and request.body["return_token_ids"] is True
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1
        assert err.startswith("tau-env: error: --agent-tokens: ") and f"with {got}:" in err
        assert not store.exists() or not ResultStore(str(store)).runs()


def test_run__agent_tokens_without_a_model_agent_is_refused(tmp_path, capsys):
    arguments = ["run", "--domain", "mock", "--tasks", "complete_task", "--agent-tokens"]
    assert main([*arguments, "--store", str(tmp_path / "runs.sqlite"), "--no-progress"]) == 2
    assert "--agent-tokens: the oracle agent calls no model" in capsys.readouterr().err


def test_run__a_retokenized_turn_is_flagged_stored_and_counted(tmp_path, monkeypatch, capsys):
    """The second prompt re-tokenizes the first turn (its second id differs): that turn is
    stored flagged, exported flagged and counted by the report."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fake")
    gold = FakeReply.tool_call("update_task_status", {"task_id": "task_1", "status": "completed"})
    replies = [
        PROBE_REPLY,
        FakeReply(tool_calls=gold.tool_calls, prompt_token_ids=(100, 101), token_ids=(400,)),
        FakeReply(content="Done. ###STOP###", prompt_token_ids=(100, 999, 400, 7), token_ids=(8,)),
    ]
    store = str(tmp_path / "runs.sqlite")
    with FakeOpenAIServer(replies) as server:
        assert main(_run_mock(server, store, "--agent-tokens", "--run", "t")) == 0
    with ResultStore(store) as results:
        (episode,) = list(results.episodes("t"))
    assert [turn.retokenized for turn in episode.agent_tokens] == [False, True]
    assert episode.token_turns()[1]["prompt_ids"] == [100, 999, 400, 7]  # stored whole
    capsys.readouterr()
    assert main(["report", "--store", store, "--run", "t"]) == 0
    assert "agent tokens: 2 turns stored; 1 re-tokenized" in capsys.readouterr().out
    assert main(["report", "--store", store, "--run", "t", "--json"]) == 0
    (reported,) = json.loads(capsys.readouterr().out)
    assert reported["agent_tokens"] == {"turns": 2, "retokenized": 1}
    assert main(["export", "--store", store, "--run", "t"]) == 0
    exported = json.loads(capsys.readouterr().out)["simulations"][0]["info"]["agent_tokens"]
    assert [turn["retokenized"] for turn in exported] == [False, True]


def _run_mock(server: FakeOpenAIServer, store: str, *options: str) -> list[str]:
    """`tau-env run`'s arguments: mock's complete_task, the server's model as the agent."""
    arguments = ["run", "--domain", "mock", "--tasks", "complete_task", "--user", "gold"]
    arguments += ["--agent", "llm", "--agent-model", server.model(), "--agent-api-base"]
    return [*arguments, server.base_url, "--store", store, "--no-progress", *options]
