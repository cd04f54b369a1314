"""The harness: one chat completion per agent turn, in-process, with native tool schemas.

verifiers' chat harnesses (``null``, ``bash``) start a program per segment (through ``uv``:
seconds per turn) and reach tools only over MCP. Here the environment plays the tools (they act
on tau_env's world), so a segment is exactly one model call: the conversation so far plus the
new messages (tool results, the customer's reply) go to the rollout's interception endpoint,
with the episode's tool schemas as ``tools``, and the assistant message that comes back ends
the segment. The call goes through verifiers' interception like any harness's, so the trace
records it (and a training client can sample it) as it would any other.
"""

from __future__ import annotations

from typing import Any

import verifiers.v1 as vf
from verifiers.v1.dialects.chat import message_to_wire
from verifiers.v1.runtimes import ProgramResult

__all__ = ["TauHarness", "TauHarnessConfig"]


class TauHarnessConfig(vf.HarnessConfig):  # type: ignore[misc]  # verifiers is untyped here
    """Settings of the in-process chat loop.

    Attributes:
        request_timeout: Seconds one model call may take (the interception's upstream call).
    """

    request_timeout: float = 600.0


class TauHarness(vf.Harness[TauHarnessConfig]):  # type: ignore[misc]
    """A chat loop in the eval process: one model call per `turn` (see the module)."""

    APPENDS_SYSTEM_PROMPT = True
    EXECUTES_CODE = False
    NEEDS_CONTAINER = False

    async def launch(self, *args: Any, **kwargs: Any) -> ProgramResult:
        """Not used: the harness only plays turn by turn, through `session`."""
        raise vf.HarnessError(
            "the tau-env-verifiers harness plays turn by turn inside the tau-env-verifiers "
            "environment (agent.interaction), not as a one-shot program"
        )

    async def session(
        self,
        ctx: Any,
        trace: Any,
        runtime: Any,
        endpoint: str,
        secret: str,
        mcp_urls: dict[str, str],
        data: Any,
        tool_interception_url: str | None = None,
    ) -> ChatSession:
        """The rollout's chat: its messages so far and an HTTP session to the endpoint."""
        return ChatSession(
            self, ctx, trace, runtime, endpoint, secret, mcp_urls, data, tool_interception_url
        )


class ChatSession(vf.HarnessSession):  # type: ignore[misc]
    """One rollout's conversation, one model call per turn."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        system = self.data.system_prompt
        self.messages: list[dict[str, Any]] = (
            [{"role": "system", "content": system}] if system else []
        )
        self.tools = list(self.data.tools)
        self._http: Any = None

    async def _run(self, messages: list[Any] | None) -> ProgramResult:
        import aiohttp

        if self._http is None:
            timeout = aiohttp.ClientTimeout(total=self.harness.config.request_timeout)
            self._http = aiohttp.ClientSession(timeout=timeout)
        self.messages.extend(message_to_wire(m) for m in messages or ())
        body: dict[str, Any] = {"model": self.ctx.model, "messages": self.messages}
        if self.tools:
            body["tools"] = self.tools
        headers = {"Authorization": f"Bearer {self.secret}"}
        url = f"{self.endpoint.rstrip('/')}/chat/completions"
        async with self._http.post(url, json=body, headers=headers) as response:
            if response.status != 200:
                detail = await response.text()
                return ProgramResult(exit_code=1, stdout="", stderr=f"{response.status}: {detail}")
            completion = await response.json()
        reply = completion["choices"][0]["message"]
        self.messages.append(
            {key: reply[key] for key in ("role", "content", "tool_calls") if key in reply}
        )
        return ProgramResult(exit_code=0, stdout="", stderr="")

    async def close(self) -> None:
        """Close the HTTP session (idempotent)."""
        if self._http is not None:
            await self._http.close()
            self._http = None
        await super().close()
