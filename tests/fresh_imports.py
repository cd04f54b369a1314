"""What a fresh interpreter has imported after running some statements (import-cost tests)."""

import subprocess
import sys
from collections.abc import Iterable


def loaded_after(statements: str, modules: Iterable[str]) -> list[str]:
    """Those of `modules` in ``sys.modules`` once a fresh interpreter ran `statements`."""
    names = tuple(modules)
    code = f"import sys; {statements}; print(','.join(m for m in {names!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    found = out.stdout.strip()
    return found.split(",") if found else []
