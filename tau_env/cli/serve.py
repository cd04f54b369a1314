"""``tau-env serve``: a domain as an OpenEnv server (127.0.0.1 by default)."""

from __future__ import annotations

import argparse
import gc
from typing import Any

from tau_env.cli.common import DEFAULT_DOMAIN
from tau_env.errors import TauEnvError

__all__ = ["add_parser", "served_domain"]


def add_parser(commands: Any) -> None:
    """Register the ``serve`` subcommand."""
    parser = commands.add_parser(
        "serve",
        help="serve a domain over OpenEnv's protocol (needs the openenv extra)",
        description="Serve a domain's episodes (agent side, as chat) over OpenEnv's protocol.",
    )
    parser.add_argument(
        "--domain",
        default=None,
        help=f"domain name or versioned id, e.g. tau/airline-v0 (default: {DEFAULT_DOMAIN})",
    )
    # The domain was once positional (`tau-env serve telecom`): still accepted.
    parser.add_argument("positional_domain", nargs="?", metavar="DOMAIN", help=argparse.SUPPRESS)
    parser.add_argument("--mode", default="default", help="evaluation mode (default: default)")
    parser.add_argument("--split", default=None, help="split drawn from without a task id")
    parser.add_argument(
        "--user",
        default="scripted",
        help="user: scripted, gold, llm or package.module:factory (default: scripted)",
    )
    parser.add_argument("--user-model", default=None, help="model of an llm user")
    parser.add_argument("--user-api-base", default=None, help="OpenAI-compatible server URL")
    parser.add_argument(
        "--data-dir", default=None, help="reference data folder (default: built-in)"
    )
    parser.add_argument("--host", default="127.0.0.1", help="address (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    parser.add_argument("--max-sessions", type=int, default=256, help="concurrent sessions")
    parser.set_defaults(handler=run)


def served_domain(args: argparse.Namespace) -> str:
    """``--domain``, or the positional domain of older command lines, or the default.

    Raises:
        TauEnvError: Both name a domain, and not the same one.
    """
    if args.domain and args.positional_domain and args.domain != args.positional_domain:
        raise TauEnvError(
            f"serve: two domains given, {args.positional_domain!r} and --domain {args.domain!r}"
        )
    return str(args.domain or args.positional_domain or DEFAULT_DOMAIN)


def run(args: argparse.Namespace) -> int:
    """Build the app and serve it until interrupted."""
    try:
        import uvicorn

        from tau_env.integrations.openenv import create_server_app
    except ImportError as error:
        raise TauEnvError(
            f"serve needs the openenv extra: pip install 'tau-env[openenv]' ({error})"
        ) from None
    app = create_server_app(
        served_domain(args),
        max_sessions=args.max_sessions,
        data_dir=args.data_dir,
        user=args.user,
        mode=args.mode,
        split=args.split,
        user_model=args.user_model,
        user_api_base=args.user_api_base,
    )
    # The imports (fastapi, openenv, mcp...) leave a large heap that never dies: move it out of
    # the collector's sight so the per-message garbage does not make full collections walk it.
    gc.freeze()
    # No per-message compression (the payloads are small JSON on a local link: deflate costs
    # more CPU than it saves) and no access log (one line per HTTP request). uvicorn's default
    # WebSocket implementation: its older `websockets` one measured up to ~20% less server CPU
    # per episode, within this machine's run-to-run noise, and uvicorn 0.54 deprecates it.
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        access_log=False,
        ws_per_message_deflate=False,
    )
    return 0
