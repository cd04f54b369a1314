"""``tau-env serve``: a domain as an OpenEnv server (127.0.0.1 by default)."""

from __future__ import annotations

import argparse
from typing import Any

from tau_env.cli.common import (
    DEFAULT_DOMAIN,
    add_data_dir_argument,
    add_judge_arguments,
    judge_spec,
)
from tau_env.errors import TauEnvError
from tau_env.grading.reward import REWARDS
from tau_env.registry import canonical_domain

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
        type=canonical_domain,
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
    add_data_dir_argument(parser)
    parser.add_argument("--host", default="127.0.0.1", help="address (default: 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="let web pages of ORIGIN (scheme://host[:port]) use the server; repeatable "
        "(default: none, except the server's own at an IP address or localhost)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes on the port; each session stays on one (default: 1)",
    )
    parser.add_argument(
        "--max-sessions",
        type=int,
        default=256,
        help="concurrent WebSocket sessions over all workers (default: 256)",
    )
    parser.add_argument(
        "--max-message-bytes",
        type=int,
        default=1 << 20,
        help="largest message or HTTP body accepted (default: 1048576, 1 MiB)",
    )
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=300.0,
        help="seconds a session may send nothing before it is closed (default: 300)",
    )
    parser.add_argument(
        "--reward",
        choices=REWARDS,
        default="binary",
        help="binary (the benchmark's), partial (fraction of checks met) or breakdown (binary, "
        "plus the per-check vector in the metadata); default: %(default)s",
    )
    add_judge_arguments(parser)
    parser.set_defaults(handler=run)


def _judge_config(args: argparse.Namespace) -> Any:
    """The judge's `ModelConfig` (at temperature 0), or None without ``--judge-model``."""
    spec = judge_spec(args)
    if spec is None:
        return None
    from tau_env.llm import ModelConfig

    return ModelConfig(spec.model, api_base=spec.api_base, temperature=spec.temperature)


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
    """Serve until interrupted."""
    try:
        import uvicorn  # noqa: F401  (the extra's server)

        from tau_env.integrations.openenv.limits import Limits
        from tau_env.integrations.openenv.workers import ServerSpec, serve
    except ImportError as error:
        raise TauEnvError(
            f"serve needs the openenv extra: pip install 'tau-env[openenv]' ({error})"
        ) from None
    try:
        limits = Limits(
            max_sessions=args.max_sessions,
            max_message_bytes=args.max_message_bytes,
            idle_timeout=args.idle_timeout,
        )
    except ValueError as error:
        raise TauEnvError(str(error)) from None
    judge = _judge_config(args)
    if judge is not None:
        from tau_env.grading.judge import LLMJudge

        # A missing key: one line naming it now, not a failed grade in every session.
        LLMJudge.from_model(judge).client.check_access()
    options = {
        "data_dir": args.data_dir,
        "user": args.user,
        "mode": args.mode,
        "split": args.split,
        "user_model": args.user_model,
        "user_api_base": args.user_api_base,
        "reward": args.reward,
        "judge": judge,
    }
    domain = served_domain(args)
    spec = ServerSpec(domain, options, limits, tuple(args.allow_origin))
    if args.workers > 1:
        from tau_env.chat import make_chat_env

        # Check the options here, once, with a clear error, before any worker imports them.
        make_chat_env(domain, **options)
    return serve(spec, args.host, args.port, args.workers)
