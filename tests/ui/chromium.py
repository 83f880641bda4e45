"""Debian's headless Chromium for the browser tests (`serve`, the HTML report): where it is,
the flags that keep it off this machine's closed network, and a driver with a fresh profile.

A test module calls `require_chromium()` before importing selenium's webdriver, so a machine
without Chromium skips it with the reason and the packages to install.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def require_chromium() -> None:
    """Skip the calling test module when Chromium or its driver is missing."""
    if not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)):
        pytest.skip(
            f"needs Debian's chromium and chromium-driver ({CHROMIUM}, {CHROMEDRIVER}); "
            "apt-get install chromium chromium-driver",
            allow_module_level=True,
        )


def chrome(tmp_path: Path, window: str, options: Any = None) -> Any:
    """A headless Chrome driver with a fresh profile in `tmp_path`, its log beside it."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = options or webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--window-size={window}", f"--user-data-dir={tmp_path / 'chromium-profile'}"):
        options.add_argument(flag)
    service = Service(executable_path=CHROMEDRIVER, log_output=str(tmp_path / "chromedriver.log"))
    return webdriver.Chrome(options=options, service=service)
