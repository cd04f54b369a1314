"""How fast the HTML report of a 114-task x 4-trial run opens in headless Chromium.

``python benchmarks/report_open.py [--data-dir DIR] [--agent oracle|random] [--repeat N]``

Builds a store by playing telecom's official ``base`` split (114 tasks; found through
``--data-dir``, ``TAU2_DATA_DIR`` or ``../shared/tau2-data``) for 4 trials with the given agent
and the scripted user; without the official data, the first 114 built-in telecom tasks are
played instead. Writes the report with ``tau-env report --html``, then opens it in the Debian
Chromium (tests/html_report/browser.py) and measures, per repeat (median printed):

* ``ready``: from navigation start to the page's ready mark (``performance.mark``
  ``tau-report-ready``, set once the page is interactive), read from the browser's clock;
* ``get``: the driver's wall time for ``get()`` (returns after the load event) plus the wait for
  the ready marker, as a user would feel it;
* ``first click``: clicking a task until its conversation is drawn (parses the embedded JSON).

Target (issue 10): the page opens in under 2 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tau_env.cli.main import main  # noqa: E402
from tau_env.loader import load_tasks  # noqa: E402
from tests.html_report.browser import missing_reason, start_chromium, wait_ready  # noqa: E402

TASKS = 114
TRIALS = 4
TARGET_SECONDS = 2.0


def official_data_dir(given: str | None) -> Path | None:
    for candidate in (
        given,
        os.environ.get("TAU2_DATA_DIR"),
        str(REPO.parent / "shared" / "tau2-data"),
    ):
        if candidate and (Path(candidate) / "domains" / "telecom").is_dir():
            return Path(candidate)
    return None


def build_store(folder: Path, data_dir: Path | None, agent: str) -> Path:
    store = folder / "runs.sqlite"
    args = ["run", "--domain", "telecom", "--trials", str(TRIALS), "--agent", agent]
    args += ["--store", str(store), "--no-progress", "--run", f"telecom-{agent}"]
    if data_dir is not None:
        args += ["--data-dir", str(data_dir), "--split", "base"]
        source = f"official telecom base split ({data_dir})"
    else:
        tasks = [task.id for task in load_tasks("telecom")][:TASKS]
        args += ["--tasks", ",".join(tasks)]
        source = f"first {TASKS} built-in telecom tasks"
    start = time.perf_counter()
    with open(os.devnull, "w") as quiet:
        stdout, sys.stdout = sys.stdout, quiet
        try:
            code = main(args)
        finally:
            sys.stdout = stdout
    assert code == 0, f"tau-env run failed ({code})"
    print(f"store: {source}, agent {agent}, {time.perf_counter() - start:.1f} s to play")
    return store


def write_report(store: Path, target: Path) -> None:
    start = time.perf_counter()
    with open(os.devnull, "w") as quiet:
        streams, (sys.stdout, sys.stderr) = (sys.stdout, sys.stderr), (quiet, quiet)
        try:
            code = main(["report", "--store", str(store), "--quiet", "--html", str(target)])
        finally:
            sys.stdout, sys.stderr = streams
    assert code == 0, f"tau-env report failed ({code})"
    size = target.stat().st_size
    print(f"report: {size / 1e6:.2f} MB, written in {time.perf_counter() - start:.2f} s")


def measure(page: Path, repeat: int) -> None:
    driver = start_chromium()
    try:
        ready, wall, click = [], [], []
        for _ in range(repeat):
            driver.get("about:blank")
            start = time.perf_counter()
            driver.get(page.as_uri())
            wait_ready(driver)
            wall.append(time.perf_counter() - start)
            mark = driver.execute_script(
                "return performance.getEntriesByName('tau-report-ready')[0].startTime"
            )
            ready.append(mark / 1000)
            click.append(
                driver.execute_script(
                    "const t = performance.now();"
                    "document.querySelector('button.task').click();"
                    "if (!document.getElementById('viewer').open) throw new Error('not open');"
                    "return (performance.now() - t) / 1000;"
                )
            )
        errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        driver.quit()
    rows = (("ready (navigation -> ready mark)", ready), ("get + ready (wall)", wall))
    for label, samples in rows:
        median = statistics.median(samples)
        verdict = "ok" if median < TARGET_SECONDS else "OVER TARGET"
        worst = max(samples) * 1000
        print(f"{label:<34} median {median * 1000:6.0f} ms  max {worst:6.0f} ms  {verdict}")
    first = statistics.median(click) * 1000
    print(f"{'first click -> conversation drawn':<34} median {first:6.0f} ms")
    print(f"console errors: {len(errors)}" + (f" {errors[:3]}" if errors else ""))


def main_benchmark() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--agent", default="oracle", help="agent of the run (default: oracle)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    reason = missing_reason()
    if reason:
        print(f"cannot measure: {reason}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as folder:
        store = build_store(Path(folder), official_data_dir(args.data_dir), args.agent)
        page = Path(folder) / "report.html"
        write_report(store, page)
        measure(page, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main_benchmark())
