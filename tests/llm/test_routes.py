import pytest

from tau_env.llm import ModelConfig, choose_route


@pytest.mark.parametrize(
    ("model", "api_base", "params", "route"),
    [
        ("openai/my-model", "http://127.0.0.1:8000/v1", {}, "lean"),  # vLLM, SGLang...
        ("openai/gpt-4.1", None, {}, "lean"),
        ("gpt-4.1-2025-04-14", None, {}, "lean"),  # litellm's table: an OpenAI model
        ("my-local-model", "http://127.0.0.1:8000/v1", {}, "lean"),  # unknown, with a base
        ("my-local-model", None, {}, "litellm"),  # unknown, no base: litellm decides
        ("anthropic/claude-sonnet-4-5", None, {}, "litellm"),
        ("azure/gpt-4.1", "https://x.openai.azure.com", {}, "litellm"),
        ("claude-sonnet-4-5", "http://127.0.0.1:8000/v1", {}, "litellm"),  # Anthropic's
        ("openai/gpt-4.1", None, {"mock_response": "hi"}, "litellm"),  # litellm-only option
    ],
)
def test_choose_route__lean_for_openai_compatible_endpoints_litellm_otherwise(
    model, api_base, params, route
):
    assert choose_route(ModelConfig(model, api_base=api_base, params=params)) == route


def test_choose_route__a_forced_route_wins():
    assert choose_route(ModelConfig("anthropic/claude", route="lean")) == "lean"
    assert choose_route(ModelConfig("openai/m", route="litellm")) == "litellm"


def test_model_config__rejects_an_unknown_route_and_stream_in_params():
    with pytest.raises(ValueError, match="route"):
        ModelConfig("m", route="fast")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="stream"):
        ModelConfig("m", params={"stream": True})
