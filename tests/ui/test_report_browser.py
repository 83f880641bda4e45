"""The HTML report in a real headless Chromium, opened from file:// with the network off: no
console error, every chart drawn, a hostile run file's text shown literally and nothing of it
run, and a phone's width without sideways scrolling."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from ragdiag_tui.cli import main

from ..core.report_files import HOSTILE, hostile_review, reviewed_demo
from .chromium import chrome, require_chromium

require_chromium()

from selenium import webdriver  # noqa: E402 - only once the browser is known to be there


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = chrome(tmp_path, "1280,900", options)
    try:
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd(
            "Network.emulateNetworkConditions",
            {"offline": True, "latency": 0, "downloadThroughput": 0, "uploadThroughput": 0},
        )
        yield driver
    finally:
        driver.quit()


LOAD_SECONDS = 30  # at most, for the page to finish loading on a busy machine


def opened(driver: webdriver.Chrome, page: Path) -> None:
    """The page opened and fully loaded. `get` can return while a busy machine's Chromium still
    says "loading" (seen in CI): wait for "complete" (polled, with a deadline), then check it."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(page.as_uri())
    ready = "return document.readyState"
    with contextlib.suppress(TimeoutException):
        WebDriverWait(driver, LOAD_SECONDS, poll_frequency=0.05).until(
            lambda d: d.execute_script(ready) == "complete"
        )
    assert driver.execute_script(ready) == "complete"


def console_errors(driver: webdriver.Chrome) -> list[dict[str, object]]:
    return [entry for entry in driver.get_log("browser") if entry["level"] in ("SEVERE", "WARNING")]


def overflowing(driver: webdriver.Chrome) -> list[str]:
    """The elements that stick out of the window on the right (outside a table's own scroll box)."""
    return driver.execute_script(
        """const width = window.innerWidth;
           return [...document.querySelectorAll('body *')]
             .filter(e => e.getBoundingClientRect().right > width + 1 && !e.closest('.scroll, svg'))
             .map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right));"""
    )


def charts_drawn(driver: webdriver.Chrome) -> list[dict[str, float]]:
    """Each chart's size on the page and how many shapes and texts it drew."""
    return driver.execute_script(
        """return [...document.querySelectorAll('figure svg')].map(svg => {
             const box = svg.getBoundingClientRect();
             return {width: box.width, height: box.height,
                     shapes: svg.querySelectorAll('path').length, texts: svg.querySelectorAll('text').length};
           });"""
    )


def test_a_hostile_report_runs_nothing_and_shows_the_text(browser: webdriver.Chrome, tmp_path: Path) -> None:
    path, docs, tags = hostile_review(tmp_path)
    page = tmp_path / "report.html"
    assert main(["report", str(path), "-o", str(page), "--docs", str(docs), "--tags", str(tags)]) == 0
    opened(browser, page)
    assert browser.title == "Review report: hostile.jsonl"  # every hostile text would set it
    shown = browser.execute_script("return document.body.innerText")
    for text in HOSTILE:
        assert text in shown
    live = browser.execute_script("return document.querySelectorAll('img, iframe, a, object, embed').length")
    assert live == 0
    assert browser.execute_script("return document.scripts.length") == 1
    data = browser.execute_script("return JSON.parse(document.getElementById('ragdiag-report').textContent)")
    assert data["stats"]["spot_checks"][0]["name"] == HOSTILE[3]
    charts = charts_drawn(browser)
    assert len(charts) >= 3 and all(c["width"] > 100 and c["height"] > 50 and c["shapes"] > 5 for c in charts)
    assert console_errors(browser) == []


def test_the_demo_report_draws_every_chart_at_a_desk_and_on_a_phone(
    browser: webdriver.Chrome, tmp_path: Path
) -> None:
    path, _ = reviewed_demo(tmp_path)
    page = tmp_path / "report.html"
    baseline = tmp_path / "before.jsonl"
    baseline.write_bytes(path.read_bytes())
    assert main(["report", str(path), "-o", str(page), "--baseline", str(baseline)]) == 0
    opened(browser, page)
    charts = charts_drawn(browser)
    # Stages, the spot-check's rates, the most-missed documents, the stage transitions.
    assert len(charts) == 4
    assert all(
        c["width"] > 300 and c["height"] > 100 and c["shapes"] > 5 and c["texts"] > 3 for c in charts
    ), charts
    assert console_errors(browser) == []
    figures = json.loads(
        browser.execute_script("return document.getElementById('ragdiag-report').textContent")
    )
    assert figures["compare"]["joined"] == 80
    phone = {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True}
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", phone)
    opened(browser, page)
    wide = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], overflowing(browser)  # nothing scrolls sideways but the tables, in their box
    assert all(c["width"] <= wide[1] for c in charts_drawn(browser))


def test_the_page_follows_the_dark_scheme_and_prints_dark_on_white(
    browser: webdriver.Chrome, tmp_path: Path
) -> None:
    path, _ = reviewed_demo(tmp_path)
    page = tmp_path / "report.html"
    assert main(["report", str(path), "-o", str(page)]) == 0
    style = "const s = getComputedStyle(document.body); return [s.color, s.backgroundColor];"
    dark = [{"name": "prefers-color-scheme", "value": "dark"}]
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "screen", "features": dark})
    opened(browser, page)
    assert browser.execute_script(style) == ["rgb(230, 232, 235)", "rgb(22, 24, 28)"]
    # The charts' text is the page's colour (currentColor), so it follows the scheme too.
    fill = "return getComputedStyle(document.querySelector('figure svg text')).fill"
    assert browser.execute_script(fill) == "rgb(230, 232, 235)"
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print", "features": dark})
    opened(browser, page)
    assert browser.execute_script(style) == ["rgb(0, 0, 0)", "rgb(255, 255, 255)"]
    assert browser.execute_script(fill) == "rgb(0, 0, 0)"
