"""Prices of OpenAI models for the lean route, read from litellm's bundled table without litellm.

litellm ships its price table as a JSON file inside the package; the lean route reads that
file (once, about 0.1 s) instead of importing litellm (seconds), and prices a reply with a
few multiplications. Same table, same figures as litellm's for plain completions: prompt
tokens at the input price (prompt tokens served from the provider's prompt cache at the
cache-read price, when the table has one), completion tokens at the output price. Models the
table does not list (a local server's) have no price: the cost is None, as on the litellm
route. Neither has a model served by a local endpoint (an ``api_base`` on this machine or a
private network, `local_endpoint`), whatever its name: a local server named ``gpt-4.1`` is not
OpenAI's gpt-4.1. A price given with the model (litellm's ``input_cost_per_token`` and
``output_cost_per_token``) still applies.
"""

from __future__ import annotations

import importlib.util
import ipaddress
import json
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

__all__ = ["Price", "listed_provider", "local_endpoint", "price_of"]

_TABLE = "model_prices_and_context_window_backup.json"


class Price(NamedTuple):
    """USD per token.

    Attributes:
        prompt: Per prompt token.
        completion: Per completion token.
        cached_prompt: Per prompt token served from the provider's cache.
    """

    prompt: float
    completion: float
    cached_prompt: float

    def cost(self, prompt_tokens: int, completion_tokens: int, cached_tokens: int = 0) -> float:
        """The price of one reply."""
        cached = min(max(cached_tokens, 0), prompt_tokens)
        return (
            (prompt_tokens - cached) * self.prompt
            + cached * self.cached_prompt
            + completion_tokens * self.completion
        )


@cache
def _table() -> dict[str, Any]:
    """The price table bundled with litellm ({} when litellm is not installed)."""
    spec = importlib.util.find_spec("litellm")  # locates the package without importing it
    folders = spec.submodule_search_locations if spec is not None else None
    if not folders:
        return {}
    path = Path(next(iter(folders))) / _TABLE
    try:
        table = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return table if isinstance(table, dict) else {}


@cache
def price_of(model: str) -> Price | None:
    """The price of an OpenAI model (``"gpt-4.1"`` or ``"openai/gpt-4.1"``); None if unlisted."""
    name = model.removeprefix("openai/")
    entry = _table().get(name)
    if not isinstance(entry, dict) or entry.get("litellm_provider") != "openai":
        return None
    prompt = entry.get("input_cost_per_token")
    completion = entry.get("output_cost_per_token")
    if not isinstance(prompt, int | float) or not isinstance(completion, int | float):
        return None
    cached = entry.get("cache_read_input_token_cost")
    cached_prompt = float(cached) if isinstance(cached, int | float) else float(prompt)
    return Price(float(prompt), float(completion), cached_prompt)


def listed_provider(name: str) -> str | None:
    """The provider litellm's table lists a model under (``"openai"``...); None if unlisted."""
    entry = _table().get(name)
    provider = entry.get("litellm_provider") if isinstance(entry, dict) else None
    return provider if isinstance(provider, str) else None


def local_endpoint(api_base: str | None) -> bool:
    """True when `api_base` is on this machine or a private network (a server of one's own).

    ``localhost``, 127.0.0.1, ``::1``, 10.x, 192.168.x and the like: its replies have no list
    price, whatever the model is called.
    """
    if not api_base:
        return False
    try:
        host = urlsplit(api_base).hostname or ""
    except ValueError:
        return False
    if host == "localhost" or host.endswith((".localhost", ".local", ".internal")):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private or address.is_unspecified
