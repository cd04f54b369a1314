"""Fuzzing redaction (issue 56): a secret that a setting's URL carries (in its password, a
query or fragment parameter with a secret's name) never survives `redact`, wherever it is
written afterwards: the URL itself, a provider's echo of the value, text around it."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from tau_env.secrets import REDACTED, keep_url_secrets, redact, url_secrets
from tests.fuzzing import fuzz_settings

SECRETS = st.text(alphabet=string.ascii_letters + string.digits + "-_.~", min_size=8, max_size=40)
WORDS = st.text(alphabet=string.ascii_letters + " .,:;/=?&#@'\"", max_size=30)
NAMES = st.sampled_from(["api_key", "key", "token", "access_token", "sig", "password", "auth"])


@fuzz_settings(200)
@given(
    secret=SECRETS,
    where=st.sampled_from(["password", "query", "fragment"]),
    name=NAMES,
    scheme=st.sampled_from(["http", "https", "HTTPS"]),
    host=st.sampled_from(["127.0.0.1:8000", "proxy.example", "[::1]:9"]),
    before=WORDS,
    after=WORDS,
)
def test_redact__no_secret_a_url_carries_survives(secret, where, name, scheme, host, before, after):
    if where == "password":
        url = f"{scheme}://me:{secret}@{host}/v1"
    elif where == "query":
        url = f"{scheme}://{host}/v1?x=1&{name}={secret}"
    else:
        url = f"{scheme}://{host}/v1#{name}={secret}"
    assert secret in url_secrets(url)
    keep_url_secrets(url)
    for text in (url, f"{before} {url} {after}", f"{before}echoed: {secret}{after}"):
        cleaned = redact(text)
        assert secret not in cleaned and REDACTED in cleaned
