"""``hostile``: paced sessions' step latency beside a client sending issue 56's worst inputs."""

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
from openenv_load.latency import paced_processes
from openenv_load.plans import record_plans

ATTACKS = ("grep", "messages", "big", "mcp", "http", "slow")
"""What the hostile client sends (``--attacks``): worst grep steps, hostile WebSocket messages,
1 MB messages, MCP and attach attempts, hostile HTTP requests, unfinished requests."""


def hostile_process(
    url: str, seconds: float, big: int, slow: int, attacks: tuple[str, ...], go: Any, results: Any
) -> None:
    """One client sending the worst inputs of issue 56 back to back; reports what it sent."""
    import socket
    import urllib.error
    import urllib.request

    import websockets

    from tau_env.testing.hostile import hostile_requests, hostile_ws_messages, worst_steps

    rng = random.Random(56)
    http = url.replace("ws", "http", 1).removesuffix("/ws")
    host, port = http.removeprefix("http://").split(":")
    reset = json.dumps({"type": "reset", "data": {"seed": 0}})
    huge = json.dumps({"type": "step", "data": {"content": "Please check. " * (big // 14)}})
    # closed: a session or request the server closed; reopened: unfinished requests it dropped;
    # errors: a 5xx answer, or an attach that did not get its refusal.
    counts = {"ws": 0, "http": 0, "closed": 0, "reopened": 0, "errors": 0}

    def unfinished() -> socket.socket:
        sock = socket.create_connection((host, int(port)), timeout=30)
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        sock.setblocking(False)
        return sock

    def post(request: Any) -> None:
        headers = {} if request.content_type is None else {"Content-Type": request.content_type}
        sent = urllib.request.Request(
            http + request.path, data=request.body, headers=headers, method=request.method
        )
        try:
            with urllib.request.urlopen(sent, timeout=30) as answer:
                answer.read()
        except urllib.error.HTTPError as error:
            if error.code >= 500:
                counts["errors"] += 1
        except OSError:  # refused from its headers, closed before the body was all sent
            counts["closed"] += 1

    async def sockets_loop(deadline: float) -> None:
        held = [unfinished() for _ in range(slow)]
        while time.perf_counter() < deadline:
            await asyncio.sleep(1.0)
            for i, sock in enumerate(held):
                try:
                    if sock.recv(1) == b"":
                        raise ConnectionResetError
                except BlockingIOError:
                    continue
                except OSError:
                    sock.close()
                    held[i] = unfinished()
                    counts["reopened"] += 1
        for sock in held:
            sock.close()

    async def http_loop(deadline: float) -> None:
        requests = hostile_requests(rng, "tau_env-banking_knowledge", 10**9)
        while time.perf_counter() < deadline:
            await asyncio.to_thread(post, next(requests))
            counts["http"] += 1

    async def ws_loop(deadline: float) -> None:
        messages = hostile_ws_messages(rng, 10**9, ("grep", "KB_search"))
        mcp = '{"type":"mcp","data":{"jsonrpc":"2.0","method":"openenv/session/create"}}'
        every = {
            "grep": lambda: worst_steps(rng, ("grep",)),
            "messages": lambda: next(messages),
            "big": lambda: huge,
            "mcp": lambda: mcp,
        }
        kinds = [make for name, make in every.items() if name in attacks]
        if not kinds:
            return
        ws = None
        while time.perf_counter() < deadline:
            try:
                if ws is None:
                    ws = await websockets.connect(url, max_size=None, ping_interval=None)
                    await ws.send(reset)
                    await ws.recv()
                for kind in kinds:
                    await ws.send(kind())
                    await ws.recv()
                    counts["ws"] += 1
                await ws.send(reset)
                await ws.recv()
            except websockets.ConnectionClosed:
                counts["closed"] += 1
                ws = None
            if "mcp" not in attacks:
                continue
            try:  # attaching to a session by id (refused: an error frame, then closed)
                attach = await websockets.connect(url + "?session_id=0", ping_interval=None)
                await attach.close()
            except (OSError, websockets.WebSocketException):
                counts["errors"] += 1

    async def main() -> None:
        await asyncio.get_running_loop().run_in_executor(None, go.wait)
        deadline = time.perf_counter() + seconds
        loops = {"slow": sockets_loop, "http": http_loop}
        chosen = [loop(deadline) for name, loop in loops.items() if name in attacks]
        await asyncio.gather(*chosen, ws_loop(deadline))
        results.put(counts)

    asyncio.run(main())


def hostile(args: argparse.Namespace) -> None:
    from tau_env.testing.serving import served

    plans = list(record_plans("banking_knowledge").values())
    context = multiprocessing.get_context("spawn")
    for workers in args.workers:
        arguments = ["--domain", "banking_knowledge", "--workers", str(workers)]
        with served([*arguments, "--max-sessions", "1024"]) as url:
            ws_url = url.replace("http", "ws", 1) + "/ws"
            run_clients(ws_url, 16, 2 * len(plans), plans, args.clients)  # warm every worker
            for attacked in (False, True):
                go, results, attack = context.Event(), context.Queue(), context.Queue()
                paced = paced_processes(context, ws_url, args, plans, go, results)
                if attacked:
                    options = (args.seconds, args.big, args.slow_connections, tuple(args.attacks))
                    paced.append(
                        context.Process(target=hostile_process, args=(ws_url, *options, go, attack))
                    )
                for process in paced:
                    process.start()
                time.sleep(args.sessions / 100 + 5)  # let every session connect
                load = os.getloadavg()
                servers = server_processes()
                server_before, machine_before = cpu(servers), machine_cpu()
                go.set()
                patience = args.seconds + 300
                clients = range(args.clients)
                steps = sorted(x for _ in clients for x in results.get(timeout=patience))
                sent = attack.get(timeout=patience) if attacked else {}
                server_cpu = cpu(servers) - server_before
                others = machine_cpu() - machine_before - server_cpu
                for process in paced:
                    process.join()
                p50, p99 = (1e3 * steps[int(q * (len(steps) - 1))] for q in (0.5, 0.99))
                print(
                    f"workers {workers} sessions {args.sessions} "
                    f"{'with the hostile client' if attacked else 'alone'}: {len(steps)} steps, "
                    f"latency p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {1e3 * steps[-1]:.1f} ms; "
                    f"hostile: {sent}; server CPU {server_cpu:.1f} s, all other CPU "
                    f"{others:.1f} s over {args.seconds:g} s; load {load[0]:.2f}",
                    flush=True,
                )
