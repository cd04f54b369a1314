"""One measurement in a fresh Python process, and the report files a benchmark writes.

A benchmark that reports peak memory or whole-process CPU time runs each measurement as
``python <script> --child ...`` (its own ``ru_maxrss``, its own imports), one thread for the
numerical libraries; the child prints its figures as one JSON line, last.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def child_row(script: str, arguments: list[str]) -> dict[str, Any] | None:
    """Run ``python script --child *arguments``; its last output line as JSON.

    None (with the child's last error output printed) when the child failed, so one failed
    measurement does not stop the others.
    """
    done = subprocess.run(
        [sys.executable, script, "--child", *arguments],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "OMP_NUM_THREADS": "1"},
    )
    if done.returncode != 0:
        print(f"{' '.join(arguments)}: failed: {done.stderr.strip()[-300:]}", file=sys.stderr)
        return None
    row: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return row


def write_report(
    out: Path | None, table_file: str, text: str, summary: str, json_file: str, payload: Any
) -> None:
    """Print the table and its summary line; with `out`, also write them and the JSON there."""
    print(text)
    print(summary)
    if out is None:
        return
    out.mkdir(parents=True, exist_ok=True)
    (out / table_file).write_text(text + "\n\n" + summary + "\n")
    (out / json_file).write_text(json.dumps(payload, indent=2) + "\n")
