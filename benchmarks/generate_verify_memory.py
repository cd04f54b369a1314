"""Peak memory of ``tau-env generate``'s verification stage alone, by set size, in chunks or whole.

A generated set of ``--base`` tasks is written once (``tau-env generate``), then copied into
larger sets of the same world (each copy of a task under a new id: the same plan, the same
checks), and each set is verified in a fresh process (`tau_env.generation.verify`), once a
chunk at a time (the pipeline's way for sets above `CHUNK` tasks) and once loaded whole. Its
peak resident memory (``ru_maxrss``) shows what the stage holds as the set grows; the
generator's drawing (before it) is measured by ``benchmarks/generate.py``.

    python benchmarks/generate_verify_memory.py --domain airline --sizes 25000,60000

Results: ``benchmarks/results/generate/verify_memory.json``.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RESULTS = Path(__file__).parent / "results" / "generate"


def build(base: Path, domain: str, size: int, out: Path) -> list[str]:
    """A set of `size` tasks: `base`'s set copied with new ids, its other files kept."""
    from tau_env.generation.render import split_text, write_tasks_text

    source = base / "domains" / domain
    target = out / "domains" / domain
    shutil.copytree(source, target)
    tasks = json.loads((source / "tasks.json").read_text(encoding="utf-8"))
    ids = [f"{domain}/copy/{i:06d}" for i in range(size)]

    def copies():  # a task at a time, as the pipeline writes them
        for i, task_id in enumerate(ids):
            yield {**tasks[i % len(tasks)], "id": task_id}

    write_tasks_text(target / "tasks.json", copies())
    (target / "split_tasks.json").write_bytes(split_text({"base": ids}))
    return ids


def child(domain: str, folder: str, chunk: int) -> None:
    from tau_env.generation.verify import verify_folder

    ids = json.loads((Path(folder) / "domains" / domain / "split_tasks.json").read_text())["base"]
    start = time.process_time()
    verify_folder(domain, Path(folder), ids, chunk=chunk)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(
        json.dumps(
            {
                "cpu_seconds": time.process_time() - start,
                "peak_rss_mb": usage.ru_maxrss / 1024,
            }
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domain", default="airline")
    parser.add_argument("--base", type=int, default=2000)
    parser.add_argument("--sizes", default="10000,50000")
    parser.add_argument("--child", nargs=3, metavar=("DOMAIN", "FOLDER", "CHUNK"))
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], int(args.child[2]))
        return 0
    from tau_env.generation.verify import CHUNK

    work = Path(tempfile.mkdtemp(prefix="bench-verify-memory-"))
    rows = []
    try:
        base = work / "base"
        from tau_env.generation.pipeline import generate_task_set
        from tau_env.generation.request import checked_request

        generate_task_set(checked_request(args.domain, 1, args.base), base)
        for size in (int(s) for s in args.sizes.split(",")):
            folder = work / f"set-{size}"
            build(base, args.domain, size, folder)
            for label, chunk in (("chunks", CHUNK), ("whole", 10**9)):
                done = subprocess.run(
                    [sys.executable, __file__, "--child", args.domain, str(folder), str(chunk)],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                row = {"domain": args.domain, "tasks": size, "loaded": label}
                row.update(json.loads(done.stdout.strip().splitlines()[-1]))
                rows.append(row)
                print(
                    f"{args.domain} {size:>7} {label:6}: peak {row['peak_rss_mb']:.0f} MB, "
                    f"{row['cpu_seconds']:.1f} CPU-s",
                    flush=True,
                )
            shutil.rmtree(folder)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "verify_memory.json").write_text(json.dumps({"rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
