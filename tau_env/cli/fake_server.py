"""``tau-env fake-server``: an offline OpenAI-compatible model, to try the LLM path without a key.

Serves `tau_env.testing.fake_openai.FakeOpenAIServer` on 127.0.0.1 with canned replies until
Ctrl-C: a user side (its system prompt holds a ``<scenario>``) asks for help twice, then ends
the conversation; an agent side answers politely and calls no tool. Episodes therefore run to
their end through the whole LLM path (both routes, streaming, usage records) and mostly score
0: the point is the plumbing, not the model. No API key is needed: tau_env calls a local
``api_base`` without one. The commands to paste are printed at start.
"""

from __future__ import annotations

import argparse
import threading
from typing import Any

from tau_env.cli.common import documented_parser
from tau_env.errors import TauEnvError
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply, FakeRequest

__all__ = ["add_parser", "canned_reply"]

USER_LINES = (
    "Hi, I need some help with my account, please.",
    "I see. Could you check again? I would like this sorted out today.",
)
AGENT_LINE = "I can help with that. Could you tell me a little more about what you need?"


def canned_reply(request: FakeRequest) -> FakeReply:
    """The fake model: user requests get `USER_LINES` then a stop; agent ones `AGENT_LINE`."""
    messages = request.messages
    system = str(messages[0].get("content") or "") if messages else ""
    if "<scenario>" in system:
        spoken = sum(1 for m in messages if m.get("role") == "assistant")
        if spoken < len(USER_LINES):
            return FakeReply.text(USER_LINES[spoken])
        return FakeReply.text("Thank you, that is all for today. ###STOP###")
    return FakeReply.text(AGENT_LINE)


_SUMMARY = "serve an offline OpenAI-compatible model (canned replies) to try the LLM path"
"""The subcommand's line in ``tau-env --help``."""


def add_parser(commands: Any) -> None:
    """Register the subcommand."""
    parser = documented_parser(commands, "fake-server", _SUMMARY, __doc__)
    parser.add_argument(
        "--port", type=int, default=8765, help="port on 127.0.0.1 (default: %(default)s; 0: any)"
    )
    parser.add_argument(
        "--latency", type=float, default=0.0, help="seconds per reply (default: %(default)s)"
    )
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    if args.latency < 0:
        raise TauEnvError(f"--latency must be >= 0, actually: {args.latency}")
    server = FakeOpenAIServer(
        canned_reply, latency=args.latency, port=args.port, keep_requests=False
    )
    try:
        server.start()
    except OSError as error:
        raise TauEnvError(f"--port {args.port}: cannot listen on 127.0.0.1: {error}") from None
    url = server.base_url
    model = f"--agent-model {server.model()} --agent-api-base {url}"
    user = f"--user llm --user-model {server.model()} --user-api-base {url}"
    print(f"tau-env: fake OpenAI-compatible model at {url} (canned replies; Ctrl-C stops it)")
    print("No API key needed. In another shell, try:", flush=True)
    print(f"  tau-env run --domain mock --agent llm {model} {user}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    print(f"tau-env: fake server stopped after {server.request_count} requests")
    return 0
