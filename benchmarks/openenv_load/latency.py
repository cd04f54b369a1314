"""``latency``: paced sessions' step latency, alone and beside a client sending big messages."""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import time
from typing import Any

from openenv_load.clients import cpu, machine_cpu, run_clients, server_processes
from openenv_load.plans import connect, record_plans


def latency_process(
    url: str,
    first: int,
    sessions: int,
    seconds: float,
    think: tuple[float, float],
    plans: list[list[str]],
    go: Any,
    results: Any,
) -> None:
    """Paced sessions `first`... : think, then time one step; report each latency in seconds."""

    async def main() -> None:
        sockets = await connect(url, sessions)
        await asyncio.get_running_loop().run_in_executor(None, go.wait)
        deadline = time.perf_counter() + seconds
        latencies: list[float] = []

        async def session(ws: Any, number: int) -> None:
            rng = random.Random(first + number)  # each session thinks at its own pace
            episode = first + number
            while True:
                for message in plans[episode % len(plans)]:
                    await asyncio.sleep(rng.uniform(*think))
                    if time.perf_counter() >= deadline:
                        return
                    sent = time.perf_counter()
                    await ws.send(message)
                    await ws.recv()
                    latencies.append(time.perf_counter() - sent)
                episode += 1

        await asyncio.gather(*(session(ws, n) for n, ws in enumerate(sockets)))
        results.put(latencies)

    asyncio.run(main())


FILLERS = {"text": "Please check your status bar and tell me what it shows. ", "x": "x"}
"""What a big message is made of: sentences (the user reads each one) or one long word."""


def big_process(
    url: str, size: int, filler: str, pause: float, seconds: float, go: Any, results: Any
) -> None:
    """One client sending steps with a `size`-byte message to the customer, `pause` s apart."""
    import websockets

    reset = json.dumps({"type": "reset", "data": {"split": "test", "index": 0, "seed": 0}})
    unit = FILLERS[filler]
    text = (unit * (size // len(unit) + 1))[: size - 40]
    big = json.dumps({"type": "step", "data": {"content": text}})

    async def session() -> Any:
        ws = await websockets.connect(url, max_size=None, ping_interval=None)
        await ws.send(reset)
        await ws.recv()
        return ws

    async def main() -> None:
        ws = await session()
        await asyncio.get_running_loop().run_in_executor(None, go.wait)
        deadline = time.perf_counter() + seconds
        sent = taken = closed = 0
        while time.perf_counter() < deadline:
            await asyncio.sleep(pause)
            sent += 1
            try:
                await ws.send(big)
                data = json.loads(await ws.recv())
            except websockets.ConnectionClosed:  # refused unread: over twice the limit
                closed += 1
                ws = await session()
                continue
            if data["type"] != "error":
                taken += 1
                if data["data"]["done"]:
                    await ws.send(reset)
                    await ws.recv()
        await ws.close()
        results.put((sent, taken, closed))

    asyncio.run(main())


def paced_processes(
    context: Any, url: str, args: argparse.Namespace, plans: list[list[str]], go: Any, results: Any
) -> list[Any]:
    """``--sessions`` paced sessions (`latency_process`) spread over ``--clients`` processes."""
    shares = [args.sessions // args.clients] * args.clients
    shares[0] += args.sessions % args.clients
    think = tuple(args.think)
    return [
        context.Process(
            target=latency_process,
            args=(url, sum(shares[:i]), share, args.seconds, think, plans, go, results),
        )
        for i, share in enumerate(shares)
    ]


def latency(args: argparse.Namespace) -> None:
    from tau_env.testing.serving import served

    plans = list(record_plans().values())
    context = multiprocessing.get_context("spawn")
    for workers in args.workers:
        arguments = ["--domain", "telecom", "--workers", str(workers), "--max-sessions", "1024"]
        with served(arguments) as url:
            ws_url = url.replace("http", "ws", 1) + "/ws"
            run_clients(ws_url, 64, 2 * len(plans), plans, args.clients)  # warm every worker
            for size in [0, *args.big]:
                go, results, big_results = context.Event(), context.Queue(), context.Queue()
                paced = paced_processes(context, ws_url, args, plans, go, results)
                for process in paced:
                    process.start()
                sender = None
                if size:
                    sender = context.Process(
                        target=big_process,
                        args=(
                            ws_url,
                            size,
                            args.filler,
                            args.big_pause,
                            args.seconds,
                            go,
                            big_results,
                        ),
                    )
                    sender.start()
                time.sleep(args.sessions / 100 + 5)  # let every session connect
                load = os.getloadavg()
                servers = server_processes()
                server_before, machine_before = cpu(servers), machine_cpu()
                started = time.perf_counter()
                go.set()
                patience = args.seconds + 300  # a client that died must not hang the run
                steps = sorted(x for _ in paced for x in results.get(timeout=patience))
                window = time.perf_counter() - started
                server_cpu = cpu(servers) - server_before
                others = machine_cpu() - machine_before - server_cpu
                big = big_results.get(timeout=patience) if sender else (0, 0, 0)
                for process in [*paced, sender]:
                    if process is not None:
                        process.join()
                p50, p99 = (1e3 * steps[int(q * (len(steps) - 1))] for q in (0.5, 0.99))
                label = (
                    f"with {size:,}-byte messages ({args.filler}, {args.big_pause:g} s apart)"
                    if size
                    else "alone"
                )
                print(
                    f"workers {workers} sessions {args.sessions} {label}, think "
                    f"{args.think[0]:g}-{args.think[1]:g} s: {len(steps)} steps, "
                    f"latency p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {1e3 * steps[-1]:.1f} ms; "
                    f"big messages sent {big[0]}, played {big[1]}, closed unread {big[2]}; "
                    "server CPU "
                    f"{server_cpu:.1f} s, all other CPU (clients included) {others:.1f} s "
                    f"over {window:.1f} s; load {load[0]:.2f}",
                    flush=True,
                )
