import asyncio
import json

import pytest

from tau_env.errors import InfrastructureError, JudgeError
from tau_env.grading import LLMJudge, Verdict, as_judge
from tau_env.llm import LLMClient, ResponseCache, RetryPolicy
from tau_env.messages import AssistantMessage, UserMessage
from tau_env.testing.fake_judge import judge_outcomes, judge_script
from tau_env.testing.fake_openai import FakeOpenAIServer, FakeReply

TRAJECTORY = [AssistantMessage(content="Your refund is $54.04."), UserMessage(content="Thanks")]
ASSERTIONS = ["The agent said the refund is $54.04.", "The agent offered a discount."]
NO_RETRY = RetryPolicy(max_retries=0)


def _judge(server, **options):
    return LLMJudge(LLMClient(server.config(), retry=NO_RETRY), **options)


def _ruling(*met):
    verdicts = [{"outcome": i + 1, "reasoning": f"r{i + 1}", "met": m} for i, m in enumerate(met)]
    return FakeReply.text(json.dumps({"verdicts": verdicts}))


def test_judge__one_call_at_temperature_zero_with_a_seed_and_verdicts_per_assertion():
    with FakeOpenAIServer(judge_script(lambda text: "refund" in text)) as server:
        verdicts = _judge(server)(TRAJECTORY, ASSERTIONS)
        (request,) = server.requests
    assert verdicts == [
        Verdict(ASSERTIONS[0], True, "scripted ruling"),
        Verdict(ASSERTIONS[1], False, "scripted ruling"),
    ]
    assert request.body["temperature"] == 0.0 and request.body["seed"] == 0
    assert "tools" not in request.body
    assert judge_outcomes(request) == ASSERTIONS
    assert "agent: Your refund is $54.04." in request.messages[1]["content"]


def test_judge__a_malformed_reply_is_shown_back_and_asked_again():
    replies = [FakeReply.text("Both look fine to me."), _ruling(True, False)]
    with FakeOpenAIServer(replies) as server:
        verdicts = _judge(server)(TRAJECTORY, ASSERTIONS)
        first, second = server.requests
    assert [v.met for v in verdicts] == [True, False]
    assert second.messages[: len(first.messages)] == first.messages
    assert second.messages[-2] == {"role": "assistant", "content": "Both look fine to me."}
    assert "it is not JSON" in second.messages[-1]["content"]


def test_judge__no_usable_reply_after_the_attempts_is_an_infrastructure_error_never_a_pass():
    replies = [FakeReply.text('{"verdicts": []}')] * 3
    with FakeOpenAIServer(replies) as server:
        judge = _judge(server, max_attempts=3)
        with pytest.raises(JudgeError, match="no usable verdict after 3 replies") as error:
            judge(TRAJECTORY, ASSERTIONS)
        assert len(server.requests) == 3
    assert isinstance(error.value, InfrastructureError)


def test_judge__provider_failures_surface_as_infrastructure_errors():
    with FakeOpenAIServer([FakeReply.error(500)]) as server, pytest.raises(InfrastructureError):
        _judge(server)(TRAJECTORY, ASSERTIONS)


def test_judge__usable_rulings_are_cached_unusable_ones_are_not(tmp_path):
    cache = ResponseCache(tmp_path / "judge.sqlite")
    replies = [FakeReply.text("not json"), _ruling(True, True)]
    with FakeOpenAIServer(replies) as server:
        first = _judge(server, cache=cache)(TRAJECTORY, ASSERTIONS)
        again = _judge(server, cache=cache)(TRAJECTORY, ASSERTIONS)
        assert len(server.requests) == 2  # the second ruling came from the cache
    assert first == again and len(cache) == 1


def test_ajudge__same_ruling_as_the_blocking_call():
    with FakeOpenAIServer(judge_script(lambda text: "discount" in text)) as server:
        judge = _judge(server)
        verdicts = asyncio.run(judge.ajudge(TRAJECTORY, ASSERTIONS))
    assert [v.met for v in verdicts] == [False, True]


def test_as_judge__accepts_callables_model_names_and_configs_only():
    def plain(trajectory, assertions):
        return []

    assert as_judge(None) is None and as_judge(plain) is plain
    assert as_judge("openai/some-model").name == "openai/some-model"
    with FakeOpenAIServer() as server:
        judge = as_judge(server.config())
        assert isinstance(judge, LLMJudge) and judge.client.config.api_base == server.base_url
    with pytest.raises(TypeError, match="judge must be a callable"):
        as_judge(42)
