"""`ragdiag-tui serve`: the review app in a web browser, through textual-serve.

textual-serve runs a shell command for each browser page that connects; here that
command is `ragdiag-tui review FILE ...` in this same Python, so a page is exactly
the terminal app, journal and all. Two pages open at once are two app processes
appending to one journal; the second page's app says so when it opens.

Any local process can reach a loopback port, so by default every request (the
page, its scripts, the WebSocket that drives the app, downloads) must carry a
random token, as Jupyter does: it is printed in the URL at start, and the page
answers it with a same-site, HTTP-only cookie that the page's later requests
carry. Anything else gets 403. Exports from a served app go only under the run
file's folder (or `--export-dir`).
"""

from __future__ import annotations

import ipaddress
import os
import secrets
import shlex
import socket
import sys
from collections.abc import Sequence

from .core.common.text import visible
from .core.runs.mapping import FieldMap

EXIT_OK, EXIT_UNREADABLE = 0, 2


TOKEN_PARAM = "token"
TOKEN_COOKIE = "ragdiag_token"


def review_command(
    path: str | os.PathLike[str],
    reviewer: str | None,
    field_map: FieldMap | None,
    export_dir: str | os.PathLike[str] | None = None,
    options: Sequence[str] = (),
) -> str:
    """The shell command that runs the review app on `path`, every word quoted.

    The path is made absolute so the command means the same file whatever the
    directory of the process that runs it. `options` go on the command as they are.
    """
    words = [sys.executable, "-m", "ragdiag_tui", "review", os.path.abspath(path)]
    if reviewer is not None:
        words += ["--reviewer", reviewer]
    if export_dir is not None:
        words += ["--export-dir", os.path.abspath(export_dir)]
    if field_map:
        words += field_map.to_args()
    words += options
    return shlex.join(words)


def token_guard(token: str):  # -> aiohttp middleware
    """Refuse (403) every request that carries neither `?token=` nor the cookie it earns.

    A page opened with the right token gets the cookie (SameSite=Strict, so another
    site's page cannot make the browser send it); the WebSocket must also come from
    this server's own origin when the browser names one.
    """
    from aiohttp import web

    def valid(candidate: str | None) -> bool:
        return candidate is not None and secrets.compare_digest(candidate.encode(), token.encode())

    @web.middleware
    async def guard(request: web.Request, handler):  # type: ignore[no-untyped-def]
        from_query = valid(request.query.get(TOKEN_PARAM))
        if not (from_query or valid(request.cookies.get(TOKEN_COOKIE))):
            return web.Response(status=403, text="403: this ragdiag-tui server needs its token\n")
        origin = request.headers.get("Origin")
        if origin is not None and request.path == "/ws" and origin.split("://", 1)[-1] != request.host:
            return web.Response(status=403, text="403: the WebSocket must come from this server's page\n")
        response = await handler(request)
        if from_query:
            response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="Strict", path="/")
        return response

    return guard


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name
        return False


def _url(host: str, port: int) -> str:
    """The server's address as a browser writes it (an IPv6 host in brackets)."""
    shown_host = host or "0.0.0.0"
    return f"http://[{shown_host}]:{port}" if ":" in shown_host else f"http://{shown_host}:{port}"


def _warn_exposure(host: str, token: str | None) -> None:
    """Warn on stderr when more than this machine's owner could reach the runs."""
    if not host:
        print(
            "ragdiag-tui: warning: an empty --host listens on every address of this machine; "
            "anyone who can reach it (and has the token) can read the runs and label them",
            file=sys.stderr,
        )
    elif not _is_loopback(host):
        print(
            f"ragdiag-tui: warning: {visible(host)} is not a loopback address; anyone who can "
            "reach it (and has the token) can read the runs and label them",
            file=sys.stderr,
        )
    if token is None:
        print(
            "ragdiag-tui: warning: --no-token: any program on this machine can open the page and label runs",
            file=sys.stderr,
        )


def _guarded_server_class(token: str | None) -> type | None:
    """textual-serve's Server with the token guard on every request (none when `token` is None);
    None, said on stderr, when the `serve` extra is not installed."""
    try:
        from textual_serve.server import Server
    except ImportError:
        print(
            "ragdiag-tui: serving needs textual-serve: pip install 'ragdiag-tui[serve]'",
            file=sys.stderr,
        )
        return None

    class GuardedServer(Server):
        async def _make_app(self):  # type: ignore[no-untyped-def]
            app = await super()._make_app()
            if token is not None:
                app.middlewares.append(token_guard(token))
            return app

    return GuardedServer


def serve(
    path: str | os.PathLike[str],
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    reviewer: str | None = None,
    field_map: FieldMap | None = None,
    token: str | None = "",
    export_dir: str | os.PathLike[str] | None = None,
    options: Sequence[str] = (),
) -> int:
    """Serve the review app on `path` at http://host:port/ until interrupted.

    `token` "" makes a random one; None serves without (the caller warns).
    `export_dir` (default: the run file's folder) is where served apps may export.
    Returns an exit status: 0 after Ctrl+C, 2 when the file cannot be read, the
    `serve` extra is missing, or the address cannot be bound.
    """
    from .core.runs.loading import check_readable

    # Refuse an unreadable file here, not in every browser page later. Raises FileError.
    check_readable(path)
    if token == "":
        token = secrets.token_urlsafe(24)
    if export_dir is None:
        export_dir = os.path.dirname(os.path.abspath(path))
    server_class = _guarded_server_class(token)
    if server_class is None:
        return EXIT_UNREADABLE
    name = visible(os.path.basename(os.fspath(path)))
    url = _url(host, port)
    command = review_command(path, reviewer, field_map, export_dir, options)
    server = server_class(command, host=host, port=port, title=f"ragdiag {name}", public_url=url)
    _warn_exposure(host, token)
    try:
        # textual-serve announces itself before it binds: fail plainly first if it could not.
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        socket.create_server((host, port), family=family).close()
        page = f"{url}/" if token is None else f"{url}/?{TOKEN_PARAM}={token}"
        print(f"ragdiag-tui: serving {name} on {page} (Ctrl+C to stop)", flush=True)
        server.serve()
    except OSError as exc:  # the port is taken, or the host is not an address of this machine
        print(f"ragdiag-tui: cannot serve on {visible(url)}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    return EXIT_OK
