"""Running a ``tau-env serve`` process on 127.0.0.1 for tests and benchmarks."""

from __future__ import annotations

import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

__all__ = ["free_port", "served"]


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def served(
    arguments: Sequence[str], *, timeout: float = 300.0, open_files: int | None = None
) -> Iterator[str]:
    """Run ``tau-env serve <arguments>`` on a free local port; yields its base URL.

    The process is stopped on exit. Waits (at most `timeout` seconds: importing the server
    takes a while on a loaded machine) for ``/health``. `open_files` limits the server's file
    descriptors (``ulimit -n``; None: this process's limit).

    Raises:
        RuntimeError: The server exited or did not answer in time.
    """
    port = free_port()
    command = [sys.executable, "-m", "tau_env.cli.main", "serve", *arguments, "--port", str(port)]

    def limit_files() -> None:
        if open_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    # stderr goes to a file: a pipe nobody reads would block the server once it filled.
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=errors, preexec_fn=limit_files
        )
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + timeout
            while True:
                if process.poll() is not None:
                    errors.seek(0)
                    text = errors.read().decode(errors="replace")
                    code = process.returncode
                    raise RuntimeError(f"tau-env serve exited ({code}): {text[-2000:]}")
                try:
                    with urllib.request.urlopen(f"{url}/health", timeout=1) as response:
                        if response.status == 200:
                            break
                except OSError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(f"tau-env serve did not answer on {url} within {timeout} s")
                time.sleep(0.1)
            yield url
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
