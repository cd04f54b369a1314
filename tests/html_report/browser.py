"""Headless Chromium from the Debian packages, driven by selenium (shared with benchmarks/).

Nothing is downloaded: the system ``chromium`` and ``chromedriver`` are used, and selenium's
driver manager is never consulted because the driver's path is given. Under ``CI=true`` a
missing browser is a failure, not a skip.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser")
DRIVER_CANDIDATES = ("/usr/bin/chromedriver", "chromedriver")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1400,1000",
)
INSTALL_HINT = "apt-get install -y chromium chromium-driver; pip install -e '.[test]'"


def _find(candidates: tuple[str, ...]) -> str | None:
    for candidate in candidates:
        found = shutil.which(candidate)
        if found:
            return found
    return None


def missing_reason() -> str | None:
    """Why no browser can be started here (None: chromium, chromedriver and selenium are there)."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return f"selenium is not installed ({INSTALL_HINT})"
    if _find(CHROMIUM_CANDIDATES) is None:
        return f"chromium is not installed ({INSTALL_HINT})"
    if _find(DRIVER_CANDIDATES) is None:
        return f"chromedriver is not installed ({INSTALL_HINT})"
    return None


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def require_browser() -> None:
    """Skip the calling test when no browser can start; under ``CI=true``, fail it instead."""
    import pytest

    reason = missing_reason()
    if reason is None:
        return
    if in_ci():
        pytest.fail(f"CI=true and no browser for the HTML report tests: {reason}")
    pytest.skip(reason)


def start_chromium(profile: Path | None = None) -> Any:
    """A selenium driver of a fresh headless Chromium that records the console."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = _find(CHROMIUM_CANDIDATES) or CHROMIUM_CANDIDATES[0]
    for flag in FLAGS:
        options.add_argument(flag)
    profile = profile or Path(tempfile.mkdtemp(prefix="tau-env-chromium-"))
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=_find(DRIVER_CANDIDATES) or DRIVER_CANDIDATES[0])
    return webdriver.Chrome(options=options, service=service)


def console_errors(driver: Any) -> list[str]:
    """Console errors logged since the last read (reading the log clears it)."""
    entries = driver.get_log("browser")
    return [entry["message"] for entry in entries if entry["level"] == "SEVERE"]


def wait_ready(driver: Any, timeout: float = 10.0) -> None:
    """Wait for the page's ready marker (``<html data-ready="true">``)."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, timeout).until(
        lambda d: d.execute_script("return document.documentElement.dataset.ready") == "true"
    )
