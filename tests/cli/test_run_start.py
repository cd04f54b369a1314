"""A run that cannot start writes nothing, and every key it needs is checked at start (issue 42).

Before: ``tau-env run --agent llm`` without ``--agent-model`` stored an empty run that then
blocked ``report --all``; ``--judge-model gpt-4.1`` without a key played every episode, then
said "the judge could not rule on 40 episodes"; ``--retrieval openai_embeddings`` without a
key failed after 5 s of retries ("Missing credentials"), ``qwen_embeddings_grep`` after 20.7 s
("Name or service not known"), neither naming the variable to set.
"""

import hashlib
import json

import pytest

from tau_env.cli.main import main
from tau_env.testing.fake_openai import FakeOpenAIServer
from tests.rollout.test_llm_runs import two_sided_script

KEYS = (
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "OPENAI_API_BASE",
    "ANTHROPIC_API_KEY",
    "OPENROUTER_API_KEY",
)


@pytest.fixture
def no_keys(monkeypatch):
    for name in KEYS:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def store(tmp_path):
    return tmp_path / "runs.sqlite"


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


MOCK = ["run", "--domain", "mock", "--tasks", "create_task,complete_task", "--no-progress"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--agent", "llm"], "--agent llm needs a model: pass --agent-model NAME"),
        (["--user", "llm"], "--user llm needs a model: pass --user-model NAME"),
        (["--agent", "psychic"], "unknown agent 'psychic'"),
        (["--concurrency", "0"], "--concurrency must be >= 1"),
        (["--workers", "2", "--backend", "ray"], "--workers is for --backend local"),
        (["--judge-api-base", "http://127.0.0.1:9/v1"], "--judge-api-base needs --judge-model"),
    ],
)
def test_a_run_that_cannot_start__writes_nothing(store, capsys, no_keys, argv, message):
    assert main([*MOCK, *argv, "--store", str(store)]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.splitlines()) == 1
    assert not store.exists()  # not even the file


def test_a_failed_start__leaves_an_existing_store_as_it_was(store, capsys, no_keys):
    assert main([*MOCK, "--run", "good", "--store", str(store), "--quiet"]) == 0
    before = _digest(store)
    assert main([*MOCK, "--agent", "llm", "--run", "bad", "--store", str(store)]) == 2
    assert _digest(store) == before
    capsys.readouterr()
    assert main(["runs", "--store", str(store), "--json"]) == 0
    assert [run["run_id"] for run in json.loads(capsys.readouterr().out)] == ["good"]
    assert main(["report", "--all", "--store", str(store)]) == 0
    # the resume the failed start would have suggested fails the same way, writing nothing
    assert main(["resume", "--run", "bad", "--store", str(store)]) == 2
    assert "holds no run 'bad'" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "variable"),
    [
        (["--agent", "llm", "--agent-model", "gpt-4.1"], "OPENAI_API_KEY"),
        (["--user", "llm", "--user-model", "anthropic/claude-sonnet-4-5"], "ANTHROPIC_API_KEY"),
        (["--judge-model", "gpt-4.1"], "OPENAI_API_KEY"),
        (["--judge-model", "anthropic/claude-sonnet-4-5"], "ANTHROPIC_API_KEY"),
    ],
    ids=["agent", "user", "judge-openai", "judge-anthropic"],
)
def test_a_missing_key__is_one_line_naming_the_variable_before_any_episode(
    store, capsys, no_keys, argv, variable
):
    assert main([*MOCK, *argv, "--store", str(store)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1
    assert err.startswith("tau-env: error: no API key for") and f"set {variable}" in err
    assert not store.exists()


@pytest.mark.parametrize(
    ("variant", "variable"),
    [
        ("openai_embeddings", "OPENAI_API_KEY"),
        ("openai_embeddings_grep", "OPENAI_API_KEY"),
        ("qwen_embeddings", "OPENROUTER_API_KEY"),
        ("qwen_embeddings_grep", "OPENROUTER_API_KEY"),
    ],
)
def test_an_embedding_variant_without_its_key__names_the_variable_at_once(
    store, capsys, no_keys, monkeypatch, variant, variable
):
    calls = []
    monkeypatch.setattr(
        "tau_env.llm.embeddings.EmbeddingClient._request",
        lambda self, texts: calls.append(texts),  # the provider is never asked
    )
    argv = ["run", "--domain", "banking_knowledge", "--retrieval", variant]
    assert main([*argv, "--store", str(store)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and f"set {variable}" in err
    assert calls == [] and not store.exists()


def test_local_endpoints__need_no_key_for_agent_user_and_judge(store, capsys, no_keys):
    # (mock's tasks have no NL assertion: the judge is checked at start, never called)
    with FakeOpenAIServer(two_sided_script) as server:
        local = ["--agent-model", server.model(), "--agent-api-base", server.base_url]
        local += ["--user-model", server.model(), "--user-api-base", server.base_url]
        local += ["--judge-model", server.model(), "--judge-api-base", server.base_url]
        argv = [*MOCK, "--agent", "llm", "--user", "llm", *local, "--store", str(store)]
        assert main([*argv, "--json"]) == 0
        requests = server.requests
    report = json.loads(capsys.readouterr().out)
    assert report["episodes"] == 2 and requests
    assert {r.headers.get("authorization") for r in requests} <= {None, "Bearer no-key"}


def test_a_local_server_named_like_an_openai_model__costs_nothing(store, capsys, no_keys):
    # Issue 42: a fake-server run was priced as OpenAI's model of the same name ($0.1576).
    with FakeOpenAIServer(two_sided_script) as server:
        llm = ["--agent", "llm", "--agent-model", "gpt-4.1", "--agent-api-base", server.base_url]
        assert main([*MOCK, *llm, "--store", str(store), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["usage"]["agent"]["calls"] > 0
    assert report["usage"]["agent"]["cost"] is None
    assert main(["report", "--store", str(store)]) == 0
    assert "$" not in capsys.readouterr().out


def _closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("side", ["agent", "user", "judge"])
def test_a_dead_local_endpoint__fails_at_once_with_one_line(store, capsys, no_keys, side):
    # Issue 55 item 4: http://127.0.0.1:1/v1 took 39 s of retries per episode to fail.
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    if side == "judge":
        argv = ["--judge-model", "openai/m", "--judge-api-base", url]
    else:
        argv = [f"--{side}", "llm", f"--{side}-model", "openai/m", f"--{side}-api-base", url]
    assert main([*MOCK, *argv, "--store", str(store)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # no episode was played
    (line,) = captured.err.splitlines()
    assert f"--{side}-api-base {url}: nothing answers at 127.0.0.1:" in line
    assert "start the model server or correct the URL" in line
    assert not store.exists()


def test_a_minimal_install__refuses_an_llm_agent_at_once_naming_the_extra(store):
    # Issue 55 item 4: without aiohttp (`pip install -e .`), the command `tau-env fake-server`
    # prints crashed every episode with "No module named 'aiohttp'".
    import subprocess
    import sys

    code = (
        "import sys\n"
        "sys.modules['aiohttp'] = None; sys.modules['litellm'] = None  # not installed\n"
        "from tau_env.cli.main import main\n"
        f"sys.exit(main({[*MOCK, '--store', str(store)]!r} + sys.argv[1:]))\n"
    )
    for llm in (
        ["--agent", "llm", "--agent-model", "fake", "--agent-api-base", "http://127.0.0.1:8765/v1"],
        ["--agent", "llm", "--agent-model", "anthropic/claude-sonnet-4-5"],
    ):
        result = subprocess.run(
            [sys.executable, "-c", code, *llm], capture_output=True, text=True, timeout=120
        )
        assert result.returncode == 2, result.stderr
        (line,) = result.stderr.splitlines()
        assert "needs the llm extra" in line and "pip install 'tau-env[llm]'" in line
        assert result.stdout == "" and not store.exists()
