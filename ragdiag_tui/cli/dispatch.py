"""`main`: parse the command line, run the command's handler, turn failures into exit statuses."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .common import EXIT_OK, EXIT_UNREADABLE, err, warn_unmapped
from .parser import HANDLERS, parse_args
from .report import is_dataset


def main(argv: Sequence[str] | None = None) -> int:
    escape_unencodable()
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from ..core.common.reads import forget_reads
    from ..core.runs.loading import FileError

    forget_reads()  # a command protects what it reads itself, nothing an earlier one read

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
        err(os_error(exc, getattr(args, "output", None)))
        return EXIT_UNREADABLE
    except KeyboardInterrupt:
        return 130


def escape_unencodable() -> None:
    """Text stdout and stderr cannot encode (a lone surrogate in an id, a legal `\\ud800` JSON
    escape) is written as its backslash escape, `\\ud800`, as `--json` writes it, never a
    UnicodeEncodeError, whether the stream is a pipe, a file or a terminal."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def os_error(exc: OSError, output: str | None) -> str:
    """An OSError as one line naming the file: its own name, else the command's output (a write
    to an open file, as on a full disk, names none)."""
    name = exc.filename if exc.filename is not None else output
    if not exc.strerror:
        return str(exc)
    return f"{name}: {exc.strerror}" if name is not None else exc.strerror


def _run_files(args: argparse.Namespace) -> list[str]:
    """The run files a headless command diagnoses (the app says it in its own window)."""
    if args.command in ("review", "serve", "merge") or getattr(args, "engine", None):
        return []
    if args.command == "export" and os.path.isdir(args.file):  # a dataset's folder (dataset_review.py)
        return []
    if args.command == "report" and is_dataset(args):  # a dataset (dataset_report.py)
        return []
    return [args.old, args.new] if args.command == "compare" else [args.file]
