import pytest

from tests.html_report import browser


@pytest.fixture
def no_chromium(monkeypatch):
    real = browser._find
    monkeypatch.setattr(
        browser,
        "_find",
        lambda names: None if names == browser.CHROMIUM_CANDIDATES else real(names),
    )


def test_require_browser__fails_under_ci_when_chromium_is_missing(no_chromium, monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="chromium is not installed"):
        browser.require_browser()


def test_require_browser__skips_locally_with_the_reason(no_chromium, monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install -y chromium chromium-driver"):
        browser.require_browser()
