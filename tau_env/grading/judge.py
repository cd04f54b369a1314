"""`LLMJudge`: rules on NL assertions with a model, through `tau_env.llm`.

One request per episode: the conversation and the numbered outcomes (`judge_prompt`). Calls
are made at temperature 0 with a fixed seed, and usable rulings are cached (when a
`tau_env.llm.ResponseCache` is given), so judging the same conversation again gives the same
verdicts without a call. A reply that cannot be read is shown back to the model with the
reason and asked for again; after ``max_attempts`` replies without a usable ruling the judge
raises `JudgeError` (an `InfrastructureError`): the assertions stay not judged, never passed.
Provider failures come from `tau_env.llm` as `InfrastructureError` after its own retries.

Example::

    from tau_env.grading import LLMJudge
    judge = LLMJudge.from_model("gpt-4.1-2025-04-14")
    env = tau_env.make_env("retail", data_dir=..., judge=judge)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tau_env.errors import JudgeError
from tau_env.grading.judge_prompt import (
    MalformedVerdict,
    judge_request,
    parse_verdicts,
    retry_request,
)
from tau_env.grading.nl_assertions import Judge, Verdict
from tau_env.messages import Message

if TYPE_CHECKING:
    from tau_env.llm import LLMClient, LLMResponse, ModelConfig, ResponseCache

__all__ = ["DEFAULT_JUDGE_SEED", "LLMJudge", "as_judge"]

DEFAULT_JUDGE_SEED = 0
"""The sampling seed of every judge call unless the model config names one."""


class LLMJudge:
    """Judges NL assertions with one model.

    Args:
        client: The model to ask (its config's temperature is used; 0 is the reference's).
        cache: Stores usable rulings by request (None: no cache). Unusable replies are never
            stored, so a later attempt asks the model again.
        max_attempts: Replies to read before giving up (the first request and its retries).
        seed: Sampling seed of the calls (None: the config's seed, else `DEFAULT_JUDGE_SEED`).
    """

    def __init__(
        self,
        client: LLMClient,
        *,
        cache: ResponseCache | None = None,
        max_attempts: int = 3,
        seed: int | None = None,
    ) -> None:
        if max_attempts < 1:
            raise ValueError(f"max_attempts must be >= 1, actually: {max_attempts}")
        self.client = client
        self.cache = cache
        self.max_attempts = max_attempts
        configured = client.config.seed
        self.seed = seed if seed is not None else (configured if configured is not None else 0)

    @classmethod
    def from_model(
        cls,
        model: str | ModelConfig,
        *,
        api_base: str | None = None,
        cache: ResponseCache | None = None,
        max_attempts: int = 3,
    ) -> LLMJudge:
        """A judge on a litellm model name (temperature 0) or a full `ModelConfig`."""
        from tau_env.llm import LLMClient, ModelConfig

        config = model if isinstance(model, ModelConfig) else ModelConfig(model, api_base=api_base)
        return cls(LLMClient(config), cache=cache, max_attempts=max_attempts)

    @property
    def name(self) -> str:
        """The judge's model, as recorded in grades."""
        return self.client.config.model

    def __repr__(self) -> str:
        return f"LLMJudge({self.name!r})"

    def __call__(self, trajectory: Sequence[Message], assertions: Sequence[str]) -> list[Verdict]:
        """Rule on every assertion (blocking).

        Raises:
            JudgeError: No usable ruling after `max_attempts` replies.
            InfrastructureError: The provider failed (after `tau_env.llm`'s retries).
        """
        from tau_env.llm.pool import run_sync

        return run_sync(self.ajudge(trajectory, assertions))

    async def ajudge(
        self, trajectory: Sequence[Message], assertions: Sequence[str]
    ) -> list[Verdict]:
        """`__call__` for async code (the rollout driver judges while episodes play)."""
        request = judge_request(trajectory, assertions)
        cached = self._cached(request, assertions)
        if cached is not None:
            return cached
        messages = request
        problem = ""
        for _ in range(self.max_attempts):
            reply = await self.client.complete(messages, seed=self.seed)
            verdicts, problem = self._read(reply, request, assertions)
            if verdicts is not None:
                return verdicts
            messages = retry_request(messages, reply.content, problem, len(assertions))
        raise self._give_up(problem)

    # -- helpers -------------------------------------------------------------------------------
    def _key(self, request: Sequence[dict[str, Any]]) -> str:
        from tau_env.llm import request_key

        config = self.client.config
        return request_key(
            model=config.model,
            messages=request,
            tools=None,
            tool_choice=None,
            temperature=config.temperature,
            seed=self.seed,
            params={**config.params, "tau_env_judge": 1},  # apart from participants' keys
        )

    def _cached(
        self, request: Sequence[dict[str, Any]], assertions: Sequence[str]
    ) -> list[Verdict] | None:
        if self.cache is None:
            return None
        hit = self.cache.get(self._key(request))
        if hit is None:
            return None
        try:
            return parse_verdicts(hit.content, assertions)
        except MalformedVerdict:
            return None

    def _read(
        self, reply: LLMResponse, request: Sequence[dict[str, Any]], assertions: Sequence[str]
    ) -> tuple[list[Verdict] | None, str]:
        try:
            verdicts = parse_verdicts(reply.content, assertions)
        except MalformedVerdict as problem:
            return None, str(problem)
        if self.cache is not None:
            self.cache.put(self._key(request), reply)
        return verdicts, ""

    def _give_up(self, problem: str) -> JudgeError:
        return JudgeError(
            f"judge {self.name}: no usable verdict after {self.max_attempts} replies "
            f"(last: {problem})",
            attempts=self.max_attempts,
            transient=False,
        )


def as_judge(judge: Any) -> Judge | None:
    """A judge from what `make_env(judge=...)` accepts.

    Args:
        judge: None, a judge callable (an `LLMJudge` or ``(trajectory, assertions) ->
            [Verdict, ...]``), a `tau_env.llm.ModelConfig`, or a litellm model name.

    Raises:
        TypeError: Anything else.
    """
    if judge is None or callable(judge):
        return judge  # type: ignore[no-any-return]  # a callable judge is used as given
    if isinstance(judge, str):
        return LLMJudge.from_model(judge)
    from tau_env.llm import ModelConfig

    if isinstance(judge, ModelConfig):
        return LLMJudge.from_model(judge)
    raise TypeError(
        "judge must be a callable (trajectory, assertions) -> verdicts, a ModelConfig or a "
        f"model name, actually: {type(judge).__name__}"
    )
