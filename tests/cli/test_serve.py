"""``tau-env serve``'s options and its ready line."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tau_env.cli.main import main
from tests.extras import require


@pytest.mark.parametrize("port", ["-1", "70000"])
def test_port_out_of_range__one_line_exit_2(port, capsys):
    """Issue 56, defect 9: exit 3 (internal error) with an OverflowError."""
    require("openenv", "openenv")
    code = main(["serve", "--domain", "mock", "--port", port])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1
    assert f"--port must be a port number, 0 to 65535 (0: any free one), got {port}" in err


def serve(*arguments: str) -> subprocess.Popen:
    command = [sys.executable, "-m", "tau_env.cli.main", "serve", *arguments, "--port", "0"]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def test_ready_line__only_once_the_server_serves(tmp_path):
    """Issue 54, build item 4: the line came before the app was built (a handshake right after
    it waited 19 s), so a server that could never serve still said it was ready."""
    require("openenv", "openenv")
    process = serve("--domain", "telecom", "--data-dir", str(tmp_path / "missing"))
    _, err = process.communicate(timeout=300)
    assert process.returncode == 2
    assert "tau-env serve: http://" not in err
    assert "missing" in err


def test_ready_line__the_server_answers_when_it_is_printed():
    require("openenv", "openenv")
    import urllib.request

    process = serve("--domain", "mock")
    try:
        line = process.stderr.readline()
        url = line.split()[2]
        with urllib.request.urlopen(f"{url}/health", timeout=60) as response:
            status = response.status
    finally:
        process.terminate()
        process.wait(timeout=60)
    assert line.startswith("tau-env serve: http://127.0.0.1:")
    assert status == 200
