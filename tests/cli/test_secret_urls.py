"""Secrets never reach the store: URLs are redacted, keys given as settings refused (issue 42).

Before: an ``--agent-api-base`` holding a secret in its query string was stored unredacted in
the run's config; an ``api_key`` in ``llm_args`` was refused only after the config was stored.
"""

import json
import sqlite3

import pytest

from tau_env.cli.main import main
from tau_env.errors import TauEnvError
from tau_env.rollout import ParticipantSpec, RunConfig, create_run
from tau_env.rollout.config import JudgeSpec
from tau_env.store import ResultStore
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply
from tests.rollout.test_llm_runs import two_sided_script

QUERY_SECRET = "qs-SECRET-7f3a9c1e"
PASSWORD = "pw-SECRET-42b8d0aa"


def _all_bytes(folder):
    return b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file())


def _secret_url(base_url):
    scheme, rest = base_url.split("://", 1)
    return f"{scheme}://me:{PASSWORD}@{rest}?api_key={QUERY_SECRET}&x=1"


@pytest.fixture
def served(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with FakeOpenAIServer(two_sided_script) as server:
        yield server


def test_api_base_with_secrets__stored_redacted_and_resume_asks_for_it_again(
    tmp_path, capsys, served
):
    store = tmp_path / "runs.sqlite"
    url = _secret_url(served.base_url)
    argv = ["run", "--domain", "mock", "--tasks", "create_task,complete_task", "--run", "s"]
    argv += ["--agent", "llm", "--agent-model", served.model(), "--agent-api-base", url]
    assert main([*argv, "--store", str(store), "--quiet"]) == 0
    assert served.request_count > 0  # the run used the URL with its secrets
    assert main(["report", "--store", str(store), "--json", "--all"]) == 0
    assert main(["runs", "--store", str(store), "--json"]) == 0
    assert main(["export", "--store", str(store), "-o", str(tmp_path / "r.json")]) == 0
    captured = capsys.readouterr()
    for blob in (_all_bytes(tmp_path), captured.out.encode(), captured.err.encode()):
        assert QUERY_SECRET.encode() not in blob and PASSWORD.encode() not in blob
    stored = json.loads(sqlite3.connect(store).execute("SELECT config FROM runs").fetchone()[0])
    assert stored["agent"]["api_base"] == (
        served.base_url.replace("://", "://me:[REDACTED]@") + "?api_key=[REDACTED]&x=1"
    )
    # A resume needs the URL again (the store cannot give it back) and takes only the run's.
    db = sqlite3.connect(store)
    with db:
        db.execute("DELETE FROM episodes WHERE task_id = 'create_task'")
    db.close()
    assert main(["resume", "--store", str(store), "--run", "s"]) == 2
    assert "give it again with --agent-api-base URL" in capsys.readouterr().err
    assert main(["resume", "--store", str(store), "--agent-api-base", served.base_url]) == 2
    assert "is not the endpoint of run 's'" in capsys.readouterr().err
    assert main(["resume", "--store", str(store), "--run", "s", "--agent-api-base", url]) == 0
    capsys.readouterr()
    assert main(["report", "--store", str(store), "--run", "s", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["episodes"] == 2
    assert QUERY_SECRET.encode() not in _all_bytes(tmp_path)
    assert PASSWORD.encode() not in _all_bytes(tmp_path)


@pytest.mark.parametrize(
    ("update", "message"),
    [
        ({"agent": {"llm_args": {"api_key": "sk-x"}}}, "agent llm_args: 'api_key'"),
        ({"user": {"llm_args": {"azure_ad_token": "t"}}}, "user llm_args: 'azure_ad_token'"),
        (
            {"agent": {"llm_args": {"extra_headers": {"Authorization": "Bearer x"}}}},
            "'extra_headers.Authorization'",
        ),
        ({"judge": {"llm_args": {"api_key": "sk-x"}}}, "judge llm_args: 'api_key'"),
        ({"retrieval_options": {"embedding_api_key": "sk-x"}}, "'embedding_api_key'"),
    ],
    ids=["agent", "user", "header", "judge", "retrieval"],
)
def test_a_key_given_as_a_setting__is_refused_before_anything_is_written(tmp_path, update, message):
    agent = ParticipantSpec(kind="oracle", **update.get("agent", {}))
    user = ParticipantSpec(kind="scripted", **update.get("user", {}))
    judge = None
    if "judge" in update:
        judge = JudgeSpec(model="openai/j", api_base="http://127.0.0.1:9/v1", **update["judge"])
    config = RunConfig(
        run_id="k",
        domain="banking_knowledge" if "retrieval_options" in update else "mock",
        task_ids=("t",),
        trials=1,
        agent=agent,
        user=user,
        judge=judge,
        retrieval_options=update.get("retrieval_options"),
    )
    with ResultStore(tmp_path / "runs.sqlite") as store:
        with pytest.raises(TauEnvError, match=message) as caught:
            create_run(store, config)
        assert "would store a secret with the run" in str(caught.value)
        assert store.runs() == []


def test_a_key_in_retrieval_options__refused_on_the_command_line_before_loading(tmp_path, capsys):
    options = json.dumps({"embedding_api_key": "sk-SECRET-in-options"})
    argv = ["run", "--domain", "banking_knowledge", "--retrieval", "openai_embeddings"]
    store = tmp_path / "runs.sqlite"
    assert main([*argv, "--retrieval-options", options, "--store", str(store)]) == 2
    err = capsys.readouterr().err
    assert "'embedding_api_key' would store a secret" in err and "sk-SECRET" not in err
    assert not store.exists()


def test_an_api_base_without_a_scheme__is_refused_and_its_key_not_shown(tmp_path, capsys):
    # Before (issue 56): `user:sk-...@host/v1` went to stdout, the store and the export.
    key = "sk-SECRET-no-scheme-91"
    store = tmp_path / "runs.sqlite"
    argv = ["run", "--domain", "mock", "--agent", "llm", "--agent-model", "openai/x"]
    code = main([*argv, "--agent-api-base", f"me:{key}@proxy.example/v1", "--store", str(store)])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert "has no scheme" in captured.err and "me:[REDACTED]@proxy.example/v1" in captured.err
    assert key not in captured.err
    assert not store.exists()


def test_a_password_in_the_url_and_a_key_in_the_environment__refused_before_any_episode(
    tmp_path, capsys, served, monkeypatch
):
    # Before (issue 56): every episode crashed ("Cannot combine AUTHORIZATION header ...").
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env-SECRET-0001")
    store = tmp_path / "runs.sqlite"
    argv = ["run", "--domain", "mock", "--agent", "llm", "--agent-model", served.model()]
    code = main([*argv, "--agent-api-base", _secret_url(served.base_url), "--store", str(store)])
    error = capsys.readouterr().err
    assert code == 2 and "carries a user and password and a key is set" in error
    assert PASSWORD not in error and served.request_count == 0
    assert not store.exists()


def test_a_secret_the_provider_echoes__is_redacted_everywhere(tmp_path, capsys, monkeypatch):
    # Before (issue 56): the raw query value, echoed in a reply, was kept in the episode, the
    # page and the export.
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)

    def echoing(request):
        reply = two_sided_script(request)
        if "get_users" in request.tool_names and reply.content:
            return FakeReply.text(f"(your request carried {QUERY_SECRET}) {reply.content}")
        return reply

    store = tmp_path / "runs.sqlite"
    with FakeOpenAIServer(echoing) as server:
        url = f"{server.base_url}?api_key={QUERY_SECRET}#token={PASSWORD}"
        argv = ["run", "--domain", "mock", "--tasks", "create_task", "--run", "e", "--quiet"]
        argv += ["--agent", "llm", "--agent-model", server.model(), "--agent-api-base", url]
        assert main([*argv, "--store", str(store)]) == 0
    assert main(["report", "--store", str(store), "--run", "e", "--html",
                 str(tmp_path / "page.html"), "--json"]) == 0  # fmt: skip
    assert main(["export", "--store", str(store), "-o", str(tmp_path / "r.json")]) == 0
    captured = capsys.readouterr()
    for blob in (_all_bytes(tmp_path), captured.out.encode(), captured.err.encode()):
        assert QUERY_SECRET.encode() not in blob and PASSWORD.encode() not in blob
    assert b"your request carried [REDACTED]" in (tmp_path / "r.json").read_bytes()
