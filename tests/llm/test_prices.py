from tau_env.llm.prices import Price, listed_provider, price_of


def test_price_of__finds_openai_models_with_or_without_the_prefix():
    price = price_of("gpt-4o")
    assert price is not None and price.prompt > 0 and price.completion > price.prompt
    assert price_of("openai/gpt-4o") == price
    assert price_of("my-local-model") is None
    assert price_of("claude-sonnet-4-5") is None  # listed, but not OpenAI's


def test_price__cached_prompt_tokens_cost_the_cache_price():
    price = Price(prompt=2.0, completion=5.0, cached_prompt=1.0)
    assert price.cost(10, 3) == 35.0
    assert price.cost(10, 3, cached_tokens=4) == 6 * 2.0 + 4 * 1.0 + 15.0
    assert price.cost(10, 0, cached_tokens=99) == 10.0  # never more cached than sent


def test_listed_provider__reads_litellms_table_without_importing_litellm():
    import subprocess
    import sys

    code = (
        "import sys; from tau_env.llm.prices import listed_provider as p; "
        "print(p('gpt-4.1'), p('nope'), 'litellm' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["openai", "None", "False"]
    assert listed_provider("gpt-4.1") == "openai"


def test_local_endpoint__is_this_machine_or_a_private_network():
    from tau_env.llm.prices import local_endpoint

    for url in (
        "http://127.0.0.1:8000/v1",
        "http://localhost:11434/v1",
        "http://[::1]:8000/v1",
        "http://10.1.2.3/v1",
        "http://192.168.0.5:8080/v1",
        "http://gpu-box.local/v1",
    ):
        assert local_endpoint(url), url
    for url in (None, "", "https://api.openai.com/v1", "https://proxy.example.com/v1", "x"):
        assert not local_endpoint(url), url
