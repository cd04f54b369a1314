"""The server fuzz suite at length: many seeds of hostile requests, every domain, 1 and 2 workers.

    python benchmarks/server_fuzz.py --seeds 20 --requests 2000 --messages 2000

The fast version is ``tests/integrations/openenv/test_fuzz.py`` (one seed, 200 of each, the
banking server). Here each seed sends ``--requests`` HTTP requests and ``--messages`` WebSocket
messages from `tau_env.testing.hostile` (from several sessions at once) to ``tau-env serve`` of
each domain. Checked: no HTTP status of 500 or more, every 4xx answer one line of JSON (a
request refused from its headers may be closed before its body is all sent: counted); every
WebSocket message answered by one frame of JSON (observation, state or error), none an error
about serialising, no session closed by the server; the server still healthy at the end.
Reported: the answers by status and by frame code, the slowest answer, and every violation
(exit status 1 if there was one).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import http.client
import json
import os
import random
import sys
import time
from typing import Any
from urllib.parse import urlparse

from tau_env.integrations.openenv.server import env_name
from tau_env.testing.hostile import hostile_requests, hostile_ws_messages
from tau_env.testing.serving import served

DOMAINS = {
    "banking_knowledge": ("grep", "KB_search", "get_user_information_by_id"),
    "telecom": ("get_customer_by_phone", "get_details_by_id", "suspend_line"),
    "airline": ("get_user_details", "calculate", "search_direct_flight"),
    "retail": ("find_user_id_by_email", "calculate", "get_order_details"),
}
"""Each domain served, and the agent tools its hostile steps call."""


def fuzz_http(url: str, domain: str, seed: int, count: int, report: dict[str, Any]) -> None:
    parts = urlparse(url)
    for request in hostile_requests(random.Random(seed), env_name(domain), count):
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
        headers = {} if request.content_type is None else {"Content-Type": request.content_type}
        started = time.perf_counter()
        try:
            connection.request(request.method, request.path, body=request.body, headers=headers)
            response = connection.getresponse()
            body = response.read()
        except (BrokenPipeError, ConnectionResetError):
            # Refused from its headers (413, 415...) and closed before the body was all sent.
            report["statuses"]["closed while sending"] += 1
            continue
        finally:
            connection.close()
        report["slowest"] = max(report["slowest"], time.perf_counter() - started)
        report["statuses"][response.status] += 1
        if response.status >= 500:
            report["violations"].append(f"HTTP {response.status}: {request} -> {body[:200]!r}")
        elif response.status >= 400:
            detail = json.loads(body).get("detail")
            if not isinstance(detail, str) or "\n" in detail:
                report["violations"].append(f"not one line: {request} -> {body[:200]!r}")


async def fuzz_session(
    url: str, tools: tuple[str, ...], seed: int, count: int, report: dict[str, Any]
) -> None:
    import websockets

    rng = random.Random(seed)
    reset = json.dumps({"type": "reset", "data": {"seed": seed}})
    async with websockets.connect(url, max_size=None, ping_interval=None) as ws:
        for number, message in enumerate(hostile_ws_messages(rng, count, tools)):
            if number % 10 == 0:
                await ws.send(reset)
                await ws.recv()
            started = time.perf_counter()
            await ws.send(message)
            try:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 120))
            except websockets.ConnectionClosed as closed:
                report["violations"].append(f"session closed ({closed}) after {message[:200]!r}")
                return
            report["slowest"] = max(report["slowest"], time.perf_counter() - started)
            code = frame.get("data", {}).get("code") if frame["type"] == "error" else None
            report["frames"][code or frame["type"]] += 1
            if frame["type"] not in ("observation", "state", "error"):
                report["violations"].append(f"frame {frame['type']}: {message[:200]!r}")
            if code and "serializ" in frame["data"]["message"]:
                report["violations"].append(f"unserialisable answer to {message[:200]!r}")


def run(domain: str, workers: int, args: argparse.Namespace) -> dict[str, Any]:
    report: dict[str, Any] = {
        "statuses": collections.Counter(),
        "frames": collections.Counter(),
        "violations": [],
        "slowest": 0.0,
    }
    with served(["--domain", domain, "--workers", str(workers)]) as url:
        ws_url = url.replace("http", "ws", 1) + "/ws"
        for seed in range(args.seeds):
            fuzz_http(url, domain, seed, args.requests, report)
            share = args.messages // args.sessions
            sessions = [
                fuzz_session(ws_url, DOMAINS[domain], seed * 1000 + n, share, report)
                for n in range(args.sessions)
            ]

            async def together(sessions: list[Any] = sessions) -> None:
                await asyncio.gather(*sessions)

            asyncio.run(together())
        health = http.client.HTTPConnection(urlparse(url).hostname, urlparse(url).port)
        health.request("GET", "/health")
        if health.getresponse().status != 200:
            report["violations"].append("/health did not answer 200 at the end")
        health.close()
    return report


def main() -> None:
    os.environ.pop("TAU2_DATA_DIR", None)  # built-in data (serve would take the official's)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--domains", nargs="+", choices=sorted(DOMAINS), default=sorted(DOMAINS))
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=1000, help="HTTP requests per seed")
    parser.add_argument("--messages", type=int, default=1000, help="WebSocket messages per seed")
    parser.add_argument("--sessions", type=int, default=4, help="WebSocket sessions at once")
    args = parser.parse_args()
    failed = False
    for domain in args.domains:
        for workers in args.workers:
            started = time.perf_counter()
            report = run(domain, workers, args)
            statuses, frames = report["statuses"], report["frames"]
            print(
                f"{domain}, {workers} worker(s): {sum(statuses.values())} requests "
                f"{dict(sorted(statuses.items(), key=str))}, "
                f"{sum(frames.values())} messages {dict(frames.most_common())}, "
                f"slowest answer {report['slowest']:.2f} s, {len(report['violations'])} "
                f"violations, {time.perf_counter() - started:.0f} s",
                flush=True,
            )
            for violation in report["violations"][:20]:
                print("   ", violation)
            failed = failed or bool(report["violations"])
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
