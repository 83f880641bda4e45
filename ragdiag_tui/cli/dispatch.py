"""`main`: parse the command line, run the command's handler, turn failures into exit statuses."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .common import EXIT_OK, EXIT_UNREADABLE, err, warn_unmapped
from .parser import HANDLERS, parse_args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from ..core.runs.loading import FileError

    try:
        files = _run_files(args)
        for path in files:
            warn_unmapped(path, args.field_map, args.command, files)
        return HANDLERS[args.command](args)
    except FileError as exc:
        err(str(exc))
        return EXIT_UNREADABLE
    except BrokenPipeError:  # `ragdiag-tui diagnose big.jsonl | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except OSError as exc:  # -o into a missing folder, onto the run file, a full disk
        err(f"{exc.filename}: {exc.strerror}" if exc.strerror else str(exc))
        return EXIT_UNREADABLE
    except KeyboardInterrupt:
        return 130


def _run_files(args: argparse.Namespace) -> list[str]:
    """The run files a headless command diagnoses (the app says it in its own window)."""
    if args.command in ("review", "serve", "merge") or getattr(args, "engine", None):
        return []
    return [args.old, args.new] if args.command == "compare" else [args.file]
