import email.utils
import time

import pytest

from tau_env.llm.failures import (
    failure_for_status,
    is_context_window_message,
    retry_after_seconds,
)


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [
        ({"Retry-After": "3"}, 3.0),
        ({"retry-after": "0.5"}, 0.5),
        ({"retry-after-ms": "250", "Retry-After": "9"}, 0.25),  # OpenAI's, more precise
        ({"Retry-After": "-4"}, 0.0),
        ({"Retry-After": "soon"}, None),
        ({}, None),
    ],
)
def test_retry_after_seconds__reads_seconds_and_milliseconds(headers, seconds):
    assert retry_after_seconds(headers) == seconds


def test_retry_after_seconds__reads_an_http_date():
    later = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 25 < retry_after_seconds({"Retry-After": later}) <= 31


@pytest.mark.parametrize(
    ("status", "detail", "kind"),
    [
        (429, "rate limited", "transient"),
        (408, "timeout", "transient"),
        (500, "oops", "transient"),
        (503, "busy", "transient"),
        (401, "bad key", "access"),
        (403, "forbidden", "access"),
        (404, "no such model", "access"),
        (400, "maximum context length is 8192 tokens", "context_window"),
        (400, "invalid tool schema", "permanent"),
        (422, "unprocessable", "permanent"),
    ],
)
def test_failure_for_status__classifies_like_every_route(status, detail, kind):
    failure = failure_for_status(status, detail, {"Retry-After": "2"})
    assert failure.kind == kind and failure.status == status
    assert failure.retry_after == (2.0 if kind == "transient" else None)


def test_is_context_window_message__knows_the_usual_phrasings():
    assert is_context_window_message("Error: context_length_exceeded")
    assert is_context_window_message("prompt is too long: 210000 tokens > 200000 maximum")
    assert not is_context_window_message("invalid value for temperature")
