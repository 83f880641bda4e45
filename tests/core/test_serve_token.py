"""`serve` is not an open door: without its token, the page and the WebSocket answer 403.

A real server (`python -m ragdiag_tui serve`) on a free loopback port, probed with a
plain HTTP client and a plain WebSocket client, as any local process could.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from ragdiag_tui.core.common.paths import is_within

RUNS = Path(__file__).resolve().parents[1] / "data" / "review_runs.jsonl"
SERVING = re.compile(r"serving runs\.jsonl on (http://127\.0\.0\.1:(\d+)/(\?token=([A-Za-z0-9_-]+))?)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen[bytes], re.Match[str], Path]:
    runs = tmp_path / "runs.jsonl"
    shutil.copy(RUNS, runs)
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "ragdiag_tui", "serve", str(runs), "--port", str(free_port()), *extra],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=tmp_path,
            start_new_session=True,
        )
    deadline = time.monotonic() + 30
    while True:
        found = SERVING.search(log.read_text())
        if found:
            port = int(found.group(2))
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    return server, found, log
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            pytest.fail(f"the server did not start:\n{log.read_text()}")
        time.sleep(0.05)  # wait-ok: polling for the server to listen


def stop(server: subprocess.Popen[bytes]) -> None:
    try:
        import os

        os.killpg(server.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    server.wait(timeout=10)


@pytest.fixture
def guarded(tmp_path: Path) -> Iterator[re.Match[str]]:
    server, found, _ = start(tmp_path)
    yield found
    stop(server)


async def status_of(url: str, cookies: dict[str, str] | None = None) -> tuple[int, dict[str, str]]:
    async with aiohttp.ClientSession(cookies=cookies) as session, session.get(url) as response:
        await response.read()
        return response.status, {name: morsel.value for name, morsel in response.cookies.items()}


async def websocket_status(url: str, cookies: dict[str, str] | None = None, origin: str | None = None) -> int:
    headers = {"Origin": origin} if origin else None
    async with aiohttp.ClientSession(cookies=cookies) as session:
        try:
            async with session.ws_connect(url, headers=headers) as ws:
                await ws.close()
                return 101
        except aiohttp.WSServerHandshakeError as exc:
            return exc.status


def test_every_request_without_the_token_is_refused(guarded: re.Match[str]) -> None:
    root = f"http://127.0.0.1:{guarded.group(2)}"
    for path in ("/", "/static/js/textual.js", "/download/x"):
        assert asyncio.run(status_of(root + path))[0] == 403, path
    assert asyncio.run(status_of(root + "/?token=wrong"))[0] == 403
    assert asyncio.run(websocket_status(f"ws://127.0.0.1:{guarded.group(2)}/ws?width=80&height=24")) == 403


def test_the_token_opens_the_page_and_its_cookie_the_websocket(guarded: re.Match[str]) -> None:
    port, token = guarded.group(2), guarded.group(4)
    status, cookies = asyncio.run(status_of(guarded.group(1)))
    assert status == 200
    assert cookies.get("ragdiag_token") == token
    ws = f"ws://127.0.0.1:{port}/ws?width=80&height=24"
    assert asyncio.run(websocket_status(ws, cookies={"ragdiag_token": token})) == 101
    # the right cookie from another site's page (the browser names that page's origin) is refused
    evil = "http://evil.example"
    assert asyncio.run(websocket_status(ws, cookies={"ragdiag_token": token}, origin=evil)) == 403
    assert asyncio.run(websocket_status(f"{ws}&token={token}")) == 101


def test_no_token_serves_openly_with_a_warning(tmp_path: Path) -> None:
    server, found, log = start(tmp_path, "--no-token")
    try:
        assert found.group(3) is None  # the URL has no token
        assert asyncio.run(status_of(found.group(1)))[0] == 200
        assert "warning: --no-token" in log.read_text()
    finally:
        stop(server)


def test_a_served_app_exports_only_under_its_folder(tmp_path: Path) -> None:
    inside = tmp_path / "runs"
    inside.mkdir()
    (tmp_path / "elsewhere").mkdir()
    (inside / "escape").symlink_to(tmp_path / "elsewhere")
    assert is_within(inside / "out.jsonl", inside)
    assert is_within(inside / "sub" / ".." / "out.csv", inside)
    assert not is_within(tmp_path / "elsewhere" / "out.jsonl", inside)
    assert not is_within(inside / ".." / "out.jsonl", inside)
    assert not is_within(inside / "escape" / "out.jsonl", inside)  # a symlink out of the folder
