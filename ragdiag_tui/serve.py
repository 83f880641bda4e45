"""`ragdiag-tui serve`: the review app in a web browser, through textual-serve.

textual-serve runs a shell command for each browser page that connects; here that
command is `ragdiag-tui review FILE ...` in this same Python, so a page is exactly
the terminal app, journal and all. Two pages open at once are two app processes
appending to one journal; the second page's app says so when it opens.
"""

from __future__ import annotations

import ipaddress
import os
import shlex
import socket
import sys

from .core.mapping import FieldMap

EXIT_OK, EXIT_UNREADABLE = 0, 2


def review_command(path: str | os.PathLike[str], reviewer: str | None, field_map: FieldMap | None) -> str:
    """The shell command that runs the review app on `path`, every word quoted.

    The path is made absolute so the command means the same file whatever the
    directory of the process that runs it.
    """
    words = [sys.executable, "-m", "ragdiag_tui", "review", os.path.abspath(path)]
    if reviewer is not None:
        words += ["--reviewer", reviewer]
    if field_map:
        words += field_map.to_args()
    return shlex.join(words)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name
        return False


def serve(
    path: str | os.PathLike[str],
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    reviewer: str | None = None,
    field_map: FieldMap | None = None,
) -> int:
    """Serve the review app on `path` at http://host:port/ until interrupted.

    Returns an exit status: 0 after Ctrl+C, 2 when the file cannot be read, the
    `serve` extra is missing, or the address cannot be bound.
    """
    from .core.loading import check_readable

    # Refuse an unreadable file here, not in every browser page later. Raises FileError.
    check_readable(path)
    try:
        from textual_serve.server import Server
    except ImportError:
        print(
            "ragdiag-tui: serving needs textual-serve: pip install 'ragdiag-tui[serve]'",
            file=sys.stderr,
        )
        return EXIT_UNREADABLE

    name = os.path.basename(os.fspath(path))
    url = f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
    command = review_command(path, reviewer, field_map)
    server = Server(command, host=host, port=port, title=f"ragdiag {name}", public_url=url)
    if not _is_loopback(host):
        print(
            f"ragdiag-tui: warning: {host} is not a loopback address; anyone who can reach it "
            "can read the runs and label them",
            file=sys.stderr,
        )
    try:
        # textual-serve announces itself before it binds: fail plainly first if it could not.
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        socket.create_server((host, port), family=family).close()
        print(f"ragdiag-tui: serving {name} on {url}/ (Ctrl+C to stop)", flush=True)
        server.serve()
    except OSError as exc:  # the port is taken, or the host is not an address of this machine
        print(f"ragdiag-tui: cannot serve on {url}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    return EXIT_OK
