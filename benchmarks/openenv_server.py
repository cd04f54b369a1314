"""``tau-env serve`` under load: episodes per second by sessions and workers; step latency
while one client sends large messages.

    python benchmarks/openenv_server.py throughput --workers 1 2 --sessions 16 64 256 1000
    python benchmarks/openenv_server.py latency --workers 1 2 --sessions 256 --big 1000000 15000000

The first two modes serve built-in telecom (scripted user) with ``tau-env serve --domain
telecom --workers W`` on 127.0.0.1 and replay the plain-text oracle's assistant messages (recorded
once per task with seed 0, replayed with seed 0: every episode must score 1.0, checked). The
clients are lean (raw ``websockets``, pre-serialised messages) and run in ``--clients``
processes of their own, on the same cores as the server: every figure is reported with the CPU
per episode of the server and of the clients, the CPU other processes took from the machine
meanwhile, and the load average, so a run on a shared machine can be read for what it is.

1. ``throughput`` (``--domain``: built-in telecom unless told): S sessions connect, then play
   episodes back to back (no think time) until
   ``--episodes`` have finished, after one warm pass (every task twice, so each worker has
   cached each task's worlds, as in training). Reported: episodes per wall second, the
   server's and the clients' CPU milliseconds per episode, the cores other processes took
   meanwhile, and the rate the measured CPU per episode allows if the machine were the run's
   alone (the server on its ``W`` workers' cores, server and clients together on all cores).
2. ``latency``: S sessions each wait a think time (``--think``, uniform 0.5-1.5 s: a model's
   turn) before every step and time each step from send to answer, for ``--seconds``; once without
   and once with one more client sending, back to back, steps whose message to the customer is
   ``--big`` bytes long (under the 1 MiB limit: parsed and played; above it: refused by size),
   made of sentences (``--filler text``) or of one long word (``--filler x``), ``--big-pause``
   seconds apart.
   The paced sessions are spread over ``--clients`` processes, so no client's own event loop
   queues the answers it times. Reported: p50, p99 and max step latency of the paced
   sessions, and how many big messages the server took.
3. ``hostile``: as ``latency``, on built-in banking_knowledge (its oracle's replays, whose
   ``KB_search`` and ``grep`` calls run in threads), once without and once with one more
   client process sending issue 56's worst inputs back to back (`hostile_process`): ``grep``
   patterns that backtrack for ever in Python's ``re`` or cost RE2 the most, messages of 1 MB
   (``--big``), lone surrogates, deep and huge-number JSON, MCP session creation and attaching,
   HTTP bodies that were answered 500, and ``--slow-connections`` unfinished requests held
   open (re-opened when the server drops them). Target: the paced sessions' p99 <= 100 ms.

       python benchmarks/openenv_server.py hostile --workers 1 2 --sessions 64 --seconds 20
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from openenv_load.hostile import ATTACKS, hostile
from openenv_load.latency import FILLERS, latency
from openenv_load.throughput import throughput


def main() -> None:
    # Built-in data on both sides: the served domain and the plans recorded here (`tau-env
    # serve` would otherwise serve the official data TAU2_DATA_DIR names).
    os.environ.pop("TAU2_DATA_DIR", None)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    modes = parser.add_subparsers(dest="mode", required=True)
    rate = modes.add_parser("throughput")
    rate.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    rate.add_argument("--sessions", type=int, nargs="+", default=[16, 64, 256, 1000])
    rate.add_argument("--episodes", type=int, default=5000)
    rate.add_argument("--repeats", type=int, default=1)
    rate.add_argument("--clients", type=int, default=2, help="client processes")
    rate.add_argument("--domain", default="telecom", help="built-in domain served (its oracle)")
    lag = modes.add_parser("latency")
    lag.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    lag.add_argument("--sessions", type=int, default=256)
    lag.add_argument("--seconds", type=float, default=20.0)
    lag.add_argument(
        "--think", type=float, nargs=2, default=[0.5, 1.5], help="a model's turn: uniform, s"
    )
    lag.add_argument("--big", type=int, nargs="+", default=[1_000_000, 15_000_000])
    lag.add_argument("--filler", choices=sorted(FILLERS), default="text")
    lag.add_argument(
        "--big-pause", type=float, default=0.0, help="seconds between big messages (0: none)"
    )
    lag.add_argument("--clients", type=int, default=4, help="paced client processes")
    attack = modes.add_parser("hostile")
    attack.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    attack.add_argument("--sessions", type=int, default=64)
    attack.add_argument("--seconds", type=float, default=20.0)
    attack.add_argument("--think", type=float, nargs=2, default=[0.5, 1.5])
    attack.add_argument("--big", type=int, default=1_000_000, help="bytes of the big message")
    attack.add_argument("--slow-connections", type=int, default=200)
    attack.add_argument("--attacks", nargs="+", choices=ATTACKS, default=list(ATTACKS))
    attack.add_argument("--clients", type=int, default=2, help="paced client processes")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()}; {os.cpu_count()} cores", flush=True)
    if args.mode == "throughput":
        cells = throughput(args)
        print(
            "\n| workers | sessions | episodes/s (wall) | server CPU ms/ep | client CPU ms/ep | "
            "others' CPU (cores) | CPU-bound episodes/s |"
        )
        print("|---|---|---|---|---|---|---|")
        for cell in cells:
            print(
                f"| {cell.workers} | {cell.sessions} | {cell.rate:.0f} | "
                f"{1e3 * cell.server_cpu / cell.episodes:.2f} | "
                f"{1e3 * cell.client_cpu / cell.episodes:.2f} | "
                f"{cell.others_cpu / cell.wall:.2f} | {cell.cpu_bound_rate:.0f} |"
            )
        if len(cells) > 1:
            rates = [c.rate for c in cells]
            print(f"(median of all cells {statistics.median(rates):.0f} episodes/s)")
    elif args.mode == "hostile":
        hostile(args)
    else:
        latency(args)
    print(f"load average at end: {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
