"""API keys never reach the store, the exports, the response cache or the logs (issue 9, item 6).

Two keys are in play: one in the environment (``OPENAI_API_KEY``, read by litellm) for the LLM
agent (on the litellm route), one passed in `ModelConfig.api_key` for an LLM user (on the lean
route). Episodes succeed, hit provider
errors (infrastructure failures, then a resume), hit a context-window error, and meet a
provider that echoes the key back in its error messages. Every output is then searched for
either key: the SQLite files byte by byte (with their WAL), the response cache, the export,
the reports, stdout, stderr and every log record down to DEBUG, in-process and through the
command line in a subprocess. The fake server's request headers prove the keys were in use.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

from tau_env.cli.main import main
from tau_env.llm import ResponseCache, RetryPolicy
from tau_env.rollout import ParticipantSpec, RunConfig, create_run, run
from tau_env.rollout_seeds import episode_seed
from tau_env.store import ResultStore
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply
from tests.reliability import agents
from tests.reliability.tally import count

ENV_KEY = "sk-test-SECRET-123"
CONFIG_KEY = "sk-cfg-SECRET-456"
REPO = Path(__file__).resolve().parents[2]
CONTEXT = "This model's maximum context length is 8192 tokens. context_length_exceeded"
TASKS = ("create_task", "complete_task", "reopen_task", "delete_refused")


def _leaks(blob: bytes | str) -> list[str]:
    data = blob.encode() if isinstance(blob, str) else blob
    return [key for key in (ENV_KEY, CONFIG_KEY) if key.encode() in data]


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


class Provider:
    """Agent and user models behind one fake server; some episodes meet provider faults.

    Per episode seed: ``ok``; ``down`` (500 until healed, then ok); ``echo`` (a 400 whose
    message quotes the key it received, until healed); ``context`` (a context-window error).
    (A 401 would stop the whole run at once: rejected keys are not an episode's failure.)
    """

    def __init__(self, fault_by_seed: dict[int, str]):
        self.fault_by_seed = fault_by_seed
        self.healed = False

    def __call__(self, request):
        fault = self.fault_by_seed.get(request.body.get("seed"), "ok")
        key = request.headers.get("authorization", "").removeprefix("Bearer ")
        if fault == "echo" and not self.healed:
            return FakeReply.error(400, f"Bad request made with key {key}. Check {key}.")
        if fault == "down" and not self.healed:
            return FakeReply.error(500, f"upstream failed for key {key}")
        if fault == "context":
            return FakeReply.error(400, f"{CONTEXT} (key {key})")
        if "get_users" in request.tool_names:  # the agent
            if request.last_message.get("role") == "tool":
                return FakeReply.text("I checked your account; all is in order.")
            return FakeReply.tool_call("get_users", {})
        spoken = sum(1 for m in request.messages if m["role"] == "assistant")
        return FakeReply.text(
            "Hello, please check my tasks." if spoken == 0 else "Thanks! ###STOP###"
        )


def _faults(
    trials: int, kinds: tuple[str, ...] = ("ok", "down", "echo", "context")
) -> dict[int, str]:
    return {
        episode_seed(300, task, trial): kinds[(i + trial) % len(kinds)]
        for i, task in enumerate(TASKS)
        for trial in range(trials)
    }


def test_keys_never_reach_store_cache_exports_reports_or_logs(
    tmp_path, monkeypatch, caplog, capsys
):
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    fast = RetryPolicy(max_retries=1, initial_delay=0.001)
    monkeypatch.setattr("tau_env.llm.client.RetryPolicy", lambda: fast)
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.DEBUG, logger="LiteLLM")  # restored after the test
    out = tmp_path / "out"
    out.mkdir()
    provider = Provider(_faults(trials=2))
    with FakeOpenAIServer(provider) as server:
        agents.KEYED.update(
            api_base=server.base_url, api_key=CONFIG_KEY, cache=ResponseCache(out / "cache.sqlite")
        )
        config = RunConfig(
            run_id="secret",
            domain="mock",
            task_ids=TASKS,
            trials=2,
            agent=ParticipantSpec(
                kind="llm",
                model=server.model(),
                api_base=server.base_url,
                llm_args={"route": "litellm"},
            ),
            user=ParticipantSpec(kind="tests.reliability.agents:keyed_llm_user"),
        )
        store_path = out / "runs.sqlite"
        with ResultStore(store_path) as store:
            create_run(store, config)
            first = run(store, config)
            assert first.failed > 0 and first.finished > 0
            provider.healed = True
            where = ["--store", str(store_path)]
            user = ["--user", "tests.reliability.agents:keyed_llm_user"]  # code: named again
            assert (
                main(["resume", *where, "--run", "secret", *user, "--json", "--no-progress"]) == 0
            )
            failures = store.failures("secret")
            notes = [e.note for e in store.episodes("secret") if e.note]
        assert main(["report", *where, "--all", "--json"]) == 0
        assert main(["export", *where, "--run", "secret", "-o", str(out / "results.json")]) == 0
        requests = server.requests

    keys_sent = {r.headers.get("authorization") for r in requests}
    assert {f"Bearer {ENV_KEY}", f"Bearer {CONFIG_KEY}"} <= keys_sent, "both keys were in use"
    assert any("[REDACTED]" in f.error for f in failures), "the echoed keys were stored redacted"
    assert any("context window" in note for note in notes)
    captured = capsys.readouterr()
    assert any(r.name == "LiteLLM" for r in caplog.records), "litellm's debug log was captured"
    outputs = {
        **_files(out),
        "stdout": captured.out,
        "stderr": captured.err,
        "log records": "\n".join(r.getMessage() for r in caplog.records),
    }
    assert (out / "results.json").is_file() and json.loads((out / "results.json").read_text())
    leaks = {name: _leaks(blob) for name, blob in outputs.items() if _leaks(blob)}
    assert leaks == {}, f"keys found in {sorted(leaks)}"
    count("outputs searched for API keys (in-process run)", "files and streams", len(outputs))


def test_keys_never_reach_command_line_outputs_in_a_subprocess(tmp_path):
    provider = Provider(_faults(trials=2, kinds=("ok", "echo", "context")))  # nothing retried
    env = {**os.environ, "OPENAI_API_KEY": ENV_KEY, "LITELLM_LOG": "DEBUG"}
    store = tmp_path / "runs.sqlite"
    streams = {}
    with FakeOpenAIServer(provider) as server:
        agent = ["--agent", "llm", "--agent-model", server.model()]
        agent += ["--agent-api-base", server.base_url]
        where = ["--store", str(store)]
        commands = {
            "run": ["run", "--domain", "mock", "--trials", "2", *agent, *where, "--run", "cli"],
            "report": ["report", *where, "--all", "--json"],
            "export": ["export", *where, "--run", "cli", "-o", str(tmp_path / "r.json")],
        }
        for name, arguments in commands.items():
            done = subprocess.run(
                [sys.executable, "-m", "tau_env.cli.main", *arguments],
                cwd=REPO,
                env=env,
                capture_output=True,
                timeout=300,
            )
            streams[f"{name} stdout"], streams[f"{name} stderr"] = done.stdout, done.stderr
        requests = server.requests
    assert f"Bearer {ENV_KEY}" in {r.headers.get("authorization") for r in requests}
    assert b"[REDACTED]" in streams["run stdout"], "the echoed key was shown redacted"
    outputs = {**_files(tmp_path), **streams}
    assert (tmp_path / "r.json").is_file()
    leaks = {name: _leaks(blob) for name, blob in outputs.items() if _leaks(blob)}
    assert leaks == {}, f"keys found in {sorted(leaks)}"
    count("outputs searched for API keys (command line)", "files and streams", len(outputs))


def test_redact__replaces_environment_and_explicit_keys_only(monkeypatch):
    from tau_env.secrets import REDACTED, keep_secrets, redact

    monkeypatch.setenv("ANTHROPIC_API_KEY", ENV_KEY)
    monkeypatch.setenv("SOME_TOKEN_FLAG", "true")  # too short to be a key
    monkeypatch.setattr("tau_env.secrets._KEPT", set())  # no client of this process kept keys
    text = f"got {ENV_KEY} and {CONFIG_KEY}; flag true"
    assert redact(text, (CONFIG_KEY, None, "")) == f"got {REDACTED} and {REDACTED}; flag true"
    assert redact(text) == f"got {REDACTED} and {CONFIG_KEY}; flag true"
    keep_secrets(CONFIG_KEY, "short")  # a client's key: redacted from now on, anywhere
    assert redact(text) == f"got {REDACTED} and {REDACTED}; flag true"
