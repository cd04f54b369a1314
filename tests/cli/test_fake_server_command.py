"""``tau-env fake-server``: the offline model, tried as docs/llm-calls.md says, with no key."""

import os
import re
import signal
import subprocess
import sys

from tau_env.cli.fake_server import canned_reply
from tau_env.cli.main import main
from tau_env.store import ResultStore
from tau_env.testing.fake_openai import FakeRequest


def test_fake_server_command__serves_a_run_without_any_key(tmp_path, capsys):
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    server = subprocess.Popen(
        [sys.executable, "-m", "tau_env.cli.main", "fake-server", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        banner = [server.stdout.readline() for _ in range(3)]
        command = banner[2].split()
        assert command[:2] == ["tau-env", "run"] and "No API key needed" in banner[1]
        url = re.search(r"http://127\.0\.0\.1:\d+/v1", banner[0]).group(0)
        assert url in command
        saved = {k: os.environ.pop(k) for k in list(os.environ) if k.startswith("OPENAI_")}
        try:
            store = str(tmp_path / "runs.sqlite")
            code = main([*command[1:], "--store", store, "--run", "demo", "--no-progress"])
        finally:
            os.environ.update(saved)
        assert code == 0, capsys.readouterr().err
    finally:
        server.send_signal(signal.SIGINT)
        out, _ = server.communicate(timeout=30)
    assert server.returncode == 0 and "fake server stopped after" in out
    with ResultStore(store) as opened:
        episodes = list(opened.episodes("demo"))
    assert episodes and all(e.termination == "user_stop" for e in episodes)
    assert {(e.agent.route, e.user.route) for e in episodes} == {("lean", "lean")}
    assert all(e.agent.usage.calls > 0 and 1 <= e.user.usage.calls <= 3 for e in episodes)


def test_canned_reply__user_asks_twice_then_stops_agent_answers():
    user = [{"role": "system", "content": "guidelines <scenario>x</scenario>"}]
    reply = lambda messages: canned_reply(FakeRequest("/", {"messages": messages}, 1)).content  # noqa: E731
    assert "help" in reply(user)
    two = [*user, {"role": "assistant", "content": "a"}, {"role": "assistant", "content": "b"}]
    assert reply(two).endswith("###STOP###")
    assert "help" in reply([{"role": "system", "content": "<policy>p</policy>"}])


def test_fake_server_command__a_busy_port_is_one_clear_error(capsys):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["fake-server", "--port", str(port)]) == 2
    assert f"--port {port}: cannot listen" in capsys.readouterr().err
