"""``throughput``: episodes per second by sessions and workers, no think time."""

from __future__ import annotations

import argparse
import os

from openenv_load.clients import Cell, run_clients
from openenv_load.plans import record_plans


def throughput(args: argparse.Namespace) -> list[Cell]:
    from tau_env.testing.serving import served

    plans = list(record_plans(args.domain).values())
    cells = []
    for workers in args.workers:
        limit = str(max(1024, max(args.sessions)))
        arguments = ["--domain", args.domain, "--workers", str(workers), "--max-sessions", limit]
        with served(arguments) as url:
            ws_url = url.replace("http", "ws", 1) + "/ws"
            run_clients(ws_url, 64, 2 * len(plans), plans, args.clients)  # warm every worker
            for sessions in args.sessions:
                for _ in range(args.repeats):
                    load = os.getloadavg()
                    measured = run_clients(ws_url, sessions, args.episodes, plans, args.clients)
                    cell = Cell(workers, sessions, args.episodes, *measured, load)
                    wall, server, client, others = measured
                    cells.append(cell)
                    print(
                        f"workers {workers} sessions {sessions:5d}: {cell.rate:7.1f} episodes/s; "
                        f"CPU/episode server {1e3 * server / cell.episodes:.2f} ms, clients "
                        f"{1e3 * client / cell.episodes:.2f} ms, others' CPU {others:.1f} s "
                        f"over {wall:.1f} s; server-bound {cell.server_bound_rate:.0f}/s; "
                        f"load {load[0]:.2f}",
                        flush=True,
                    )
    return cells
