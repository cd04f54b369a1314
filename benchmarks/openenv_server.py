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
import asyncio
import json
import multiprocessing
import os
import random
import statistics
import time
from dataclasses import dataclass
from typing import Any

import psutil

MAIN = "tau_env.cli.main"


# -- the plans ---------------------------------------------------------------------------------
def record_plans(domain: str = "telecom") -> dict[str, list[str]]:
    """Task id -> the oracle's steps as pre-serialised WebSocket messages (reset first)."""
    from tau_env.baselines.oracle import PlainTextOracleAgent
    from tau_env.chat import action_message, make_chat_env

    chat = make_chat_env(domain)
    plans: dict[str, list[str]] = {}
    for task in chat.single.aec.unwrapped.domain.split(None):
        chat.reset(task_id=task.id, seed=0)
        agent = PlainTextOracleAgent(task)
        steps = [json.dumps({"type": "reset", "data": {"task_id": task.id, "seed": 0}})]
        while not chat.done:
            message = action_message(agent.act(None, None))  # type: ignore[arg-type]
            chat.step(message)
            action = {k: message[k] for k in ("content", "tool_calls") if message.get(k)}
            steps.append(json.dumps({"type": "step", "data": action}))
        if chat.reward == 1.0:  # a user that needs a request repeated is no fixed replay
            plans[task.id] = steps
    return plans


async def play(ws: Any, steps: list[str]) -> int:
    """One replayed episode on an open session; returns the steps taken."""
    for message in steps:
        await ws.send(message)
        answer = await ws.recv()
        if '"type":"error"' in answer[:40]:
            raise RuntimeError(answer[:500])
    data = json.loads(answer)["data"]
    if not data["done"] or data["reward"] != 1.0:
        raise RuntimeError(f"episode ended with done={data['done']} reward={data['reward']}")
    return len(steps)


async def connect(url: str, sessions: int) -> list[Any]:
    """`sessions` websockets open to the server (no size limit, no pings, a patient opening)."""
    import websockets

    return [
        await websockets.connect(url, max_size=None, open_timeout=120, ping_interval=None)
        for _ in range(sessions)
    ]


# -- client processes --------------------------------------------------------------------------
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


# -- latency -----------------------------------------------------------------------------------
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
