"""Client processes playing replayed episodes back to back, and the CPU each side used."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from dataclasses import dataclass
from typing import Any

import psutil

from openenv_load.plans import connect, play

MAIN = "tau_env.cli.main"


def client_process(
    url: str,
    sessions: int,
    episodes: int,
    plans: list[list[str]],
    ready: Any,
    go: Any,
    results: Any,
) -> None:
    """Connect `sessions`, wait for `go`, play `episodes` between them; report CPU seconds."""

    async def main() -> None:
        sockets = await connect(url, sessions)
        ready.release()
        await asyncio.get_running_loop().run_in_executor(None, go.wait)
        start = time.process_time()
        queue = iter(range(episodes))

        async def session(ws: Any, offset: int) -> None:
            for i in queue:
                await play(ws, plans[(i + offset) % len(plans)])

        await asyncio.gather(*(session(ws, n * 7) for n, ws in enumerate(sockets)))
        results.put(time.process_time() - start)
        for ws in sockets:
            await ws.close()

    asyncio.run(main())


@dataclass
class Cell:
    """One measured configuration."""

    workers: int
    sessions: int
    episodes: int
    wall: float
    server_cpu: float
    client_cpu: float
    others_cpu: float
    load: tuple[float, ...]

    @property
    def rate(self) -> float:
        return self.episodes / self.wall

    @property
    def server_bound_rate(self) -> float:
        cores = min(self.workers, os.cpu_count() or 1)
        return self.episodes / self.server_cpu * cores

    @property
    def cpu_bound_rate(self) -> float:
        """Episodes/s if the machine's cores were this run's alone (server and clients), at
        the CPU per episode measured: the workers' cores for the server, all for both."""
        both = (os.cpu_count() or 1) * self.episodes / (self.server_cpu + self.client_cpu)
        return min(self.server_bound_rate, both)


def server_processes() -> list[psutil.Process]:
    """The serving processes (the workers, or the one server) started by this process."""
    (server,) = [
        p for p in psutil.Process().children() if p.cmdline()[1:4] == ["-m", MAIN, "serve"]
    ]
    workers = [p for p in server.children() if "spawn_main" in " ".join(p.cmdline())]
    return workers or [server]


def cpu(processes: list[psutil.Process]) -> float:
    return sum(sum(p.cpu_times()[:2]) for p in processes)


def machine_cpu() -> float:
    """CPU seconds every process of the machine has used (guest time is inside user time)."""
    times = psutil.cpu_times()
    busy = ("user", "nice", "system", "irq", "softirq")
    return float(sum(getattr(times, name, 0.0) for name in busy))


def run_clients(
    url: str, sessions: int, episodes: int, plans: list[list[str]], clients: int
) -> tuple[float, float, float, float]:
    """Play `episodes` over `sessions` from `clients` processes: wall, server, client, others."""
    context = multiprocessing.get_context("spawn")
    ready, go, results = context.Semaphore(0), context.Event(), context.Queue()
    shares = [sessions // clients + (i < sessions % clients) for i in range(clients)]
    counts = [episodes // clients + (i < episodes % clients) for i in range(clients)]
    processes = [
        context.Process(target=client_process, args=(url, s, n, plans, ready, go, results))
        for s, n in zip(shares, counts, strict=True)
    ]
    for process in processes:
        process.start()
    for _ in processes:
        ready.acquire()
    servers = server_processes()
    server_before, machine_before = cpu(servers), machine_cpu()
    start = time.perf_counter()
    go.set()
    client_cpu = sum(results.get(timeout=3600) for _ in processes)  # a dead client: no hang
    wall = time.perf_counter() - start
    server_cpu = cpu(servers) - server_before
    machine = machine_cpu() - machine_before
    for process in processes:
        process.join()
        if process.exitcode != 0:
            raise RuntimeError(f"a client process failed ({process.exitcode})")
    return wall, server_cpu, client_cpu, max(0.0, machine - server_cpu - client_cpu)
