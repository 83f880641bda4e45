"""`ragdiag-tui serve` for real: a headless Chromium page labels a run, the journal has it.

The server runs as `python -m ragdiag_tui serve` in its own process group, on a
free loopback port, over a private copy of the runs. Chromium gets a fresh
profile and the flags that keep it off the network. The page draws the terminal
on a canvas, so what the app shows is read from the bytes the page's WebSocket
receives (a small hook installed before the page's own script runs).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from .chromium import chrome, require_chromium
from .helpers import REVIEW_RUNS

require_chromium()

from selenium import webdriver  # noqa: E402 - only once the browser is known to be there
from selenium.webdriver.common.by import By  # noqa: E402

T = TypeVar("T")
REVIEWER = "browser-test"
# Keeps the text of every terminal frame the page receives, in window.terminalText.
RECORD_TERMINAL = """
window.terminalText = "";
const decoder = new TextDecoder();
const PageWebSocket = window.WebSocket;
window.WebSocket = class extends PageWebSocket {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => {
      if (typeof event.data !== "string") {
        window.terminalText += decoder.decode(event.data, {stream: true});
      }
    });
  }
};
"""
ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]")


def wait_for(what: str, check: Callable[[], T | None], timeout: float = 15.0) -> T:
    """Poll `check` until it returns something truthy; fail naming `what` after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.1)  # wait-ok: polling until a deadline


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def stop_group(process: subprocess.Popen[bytes]) -> None:
    """Stop the server, its shell and its app processes, and wait until all are gone."""
    group = process.pid  # the leader of its own session, so its pid is the group id
    for sig, grace in ((signal.SIGTERM, 10.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(group, sig)
        except ProcessLookupError:
            break
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            process.poll()  # reap the leader, or its zombie keeps the group alive
            try:
                os.killpg(group, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)  # wait-ok: polling until the group is gone
    process.wait(timeout=5)


class Served:
    def __init__(self, url: str, journal: Path, log: Path, root: str) -> None:
        self.url, self.journal, self.log = url, journal, log
        self.root = root  # http://127.0.0.1:PORT, without the token


SERVING = re.compile(r"serving runs\.jsonl on (http://127\.0\.0\.1:\d+/\?token=[A-Za-z0-9_-]{20,})")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    runs = tmp_path / "runs.jsonl"
    shutil.copy(REVIEW_RUNS, runs)
    port = free_port()
    log = tmp_path / "serve.log"
    serve = ["serve", str(runs), "--port", str(port), "--reviewer", REVIEWER]
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "ragdiag_tui", *serve],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=tmp_path,
            start_new_session=True,
        )
    try:

        def listening() -> bool:
            if server.poll() is not None:
                pytest.fail(f"the server exited with {server.returncode}:\n{log.read_text()}")
            with socket.socket() as probe:
                return probe.connect_ex(("127.0.0.1", port)) == 0

        wait_for("the server to listen", listening)
        url = wait_for("the URL with its token", lambda: SERVING.search(log.read_text())).group(1)
        yield Served(url, Path(f"{runs}.review.jsonl"), log, f"http://127.0.0.1:{port}")
    finally:
        stop_group(server)


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.page_load_strategy = "eager"  # the page asks for a web font the closed network never sends
    driver = chrome(tmp_path, "1280,800", options)
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_TERMINAL})
        yield driver
    finally:
        driver.quit()


def terminal_text(driver: webdriver.Chrome) -> str:
    """All text the app has sent to the page so far, without escape sequences."""
    return ESCAPES.sub("", driver.execute_script("return window.terminalText || ''"))


def journal_entries(path: Path) -> list[dict[str, object]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_a_run_labelled_in_the_browser_page_reaches_the_journal(
    served: Served, browser: webdriver.Chrome
) -> None:
    browser.get(served.root + "/")  # without the token: refused, and no app is started for it
    assert "403" in browser.find_element(By.TAG_NAME, "body").text
    browser.get(served.url)
    # The runs are loaded (and labels accepted) once the summary counts reviewed runs.
    wait_for("the app to show its loaded runs", lambda: re.search(r"reviewed 0/\d+", terminal_text(browser)))
    assert "pass-1" in terminal_text(browser)  # the first run, under the cursor
    assert not journal_entries(served.journal)

    # pass-1 is labelled correct in the file: `n` is a label only the page can have given.
    browser.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea").send_keys("n")

    entries = wait_for("the label in the journal", lambda: journal_entries(served.journal))
    assert [(e["run"], e["label"], e["reviewer"]) for e in entries] == [("pass-1", False, REVIEWER)]
    wait_for("the page to count the review", lambda: re.search(r"reviewed 1/\d+", terminal_text(browser)))
