"""The slow version of the hostile-input fuzz suite (issue 56): many more examples, randomized.

The fuzz tests in ``tests/`` are seeded and small (a few dozen examples each, under a minute
together). This script runs the same tests with ``TAU_ENV_FUZZ_EXAMPLES`` examples each and a
fresh random seed, and prints what each found. A failure is printed with hypothesis' shrunk
example: add it to the seeded test as an explicit case when fixing it.

    python benchmarks/fuzz_hostile.py                    # 2,000 examples per test
    python benchmarks/fuzz_hostile.py --examples 20000
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

FUZZ_TESTS = (
    "tests/importing/test_import_fuzz.py",
    "tests/cli/test_option_fuzz.py",
    "tests/reliability/test_redaction_fuzz.py",
)
"""Every fuzz test of the suite (each surface of issue 56 that takes hostile input)."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=2_000, help="examples per test")
    args = parser.parse_args()
    environment = {**os.environ, "TAU_ENV_FUZZ_EXAMPLES": str(args.examples)}
    failed = 0
    print("| fuzz test | examples | result | seconds |\n|---|---|---|---|")
    for test in FUZZ_TESTS:
        if not (REPO / test).exists():
            continue
        started = time.perf_counter()
        result = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test],
            cwd=REPO,
            env=environment,
            capture_output=True,
            text=True,
        )
        seconds = time.perf_counter() - started
        verdict = "passed" if result.returncode == 0 else "FAILED"
        failed += result.returncode != 0
        print(f"| `{test}` | {args.examples} | {verdict} | {seconds:.0f} |")
        if result.returncode != 0:
            print(result.stdout[-4000:], file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
