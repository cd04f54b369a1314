"""The documentation site builds with ``mkdocs build --strict``: no warning, no broken link.

Needs the ``docs`` extra (MkDocs, mkdocstrings): skipped without it, a failure under CI=true.
"""

from __future__ import annotations

import re
import subprocess
import sys

from tests.docs.blocks import REPO
from tests.extras import require

require("mkdocs", "docs")
require("mkdocstrings_handlers.python", "docs")


def test_site__builds_strictly_with_the_api_reference(tmp_path):
    site = tmp_path / "site"
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "WARNING" not in output, output
    api = (site / "api" / "index.html").read_text(encoding="utf-8")
    for name in ("make_env", "TauEnv", "SingleAgentEnv", "make_chat_env", "pass_hat_k", "arun"):
        assert re.search(rf'id="[\w.]+\.{name}"', api), f"{name} is not in the API reference"
