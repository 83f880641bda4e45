"""Time the review app in a real (pseudo-)terminal, as a person sees it.

    python benchmarks/bench_terminal.py [--sizes 1000000] [--repeat 3] [--size 160x48] [--one-process]

For each run file (from make_runs.py, cached under benchmarks/data/) it starts
`python -m ragdiag_tui FILE` in a pseudo-terminal, reads everything the app draws
through a terminal emulator (pyte, in the `bench` extra), and times, from the
moment the command starts:

- first screen: the first run's id is on screen (the first screenful of the table);
- loaded: the summary shows the full count, `reviewed 0/N` (every run in, diagnosed,
  the journal replayed, filtering ready);
- first/loop and loaded/loop: each over the baseline below, measured in the same run;
- app CPU: the CPU time the app used from start to exit (it quits at once when loaded),
  the process that reads a big file's second part included (`split_read`): less swayed
  than wall time when other work shares the machine.

With `--one-process`, each run also times the app with that second process off
(`RAGDIAG_SPLIT_READ=0`), in turn with the default, and prints it on a line of its own.

In the same run, as the baseline, it times the bare msgspec decode-and-diagnose loop
(`baselines.msgspec_loop`) on the same file and prints the ratio. Medians of
`--repeat` runs; the machine may be shared, so read the ratios more than the seconds.
Nothing is asserted. The app works on a hard link of the file in a temporary
folder (its journal goes beside it), removed afterwards.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import select
import shutil
import signal
import statistics
import struct
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_diagnose import measure, run_file  # the same cached run files, timed the same way

TIMEOUT = 120.0  # seconds before a run is given up


def first_id(path: Path) -> str:
    with open(path, "rb") as handle:
        run = json.loads(handle.readline())
    return run.get("id") or "1"


def in_terminal(
    path: Path, runs: int, columns: int, lines: int, one_process: bool = False
) -> tuple[float, float, float]:
    """(seconds to the first screenful, seconds to the full count, CPU seconds the app
    used from start to exit, its reading process included) of the app in a pty;
    `one_process`: the whole file read by the app's own process (`split_read` off)."""
    import fcntl
    import pty
    import termios

    import pyte

    screen = pyte.Screen(columns, lines)
    stream = pyte.ByteStream(screen)
    first = first_id(path)
    loaded = re.compile(rf"reviewed \d[\d,]*/{runs:,}\b")
    started = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child becomes the app
        try:
            os.environ["TERM"] = "xterm-256color"
            if one_process:
                os.environ["RAGDIAG_SPLIT_READ"] = "0"
            os.execv(sys.executable, [sys.executable, "-m", "ragdiag_tui", str(path), "--reviewer", "bench"])
        finally:
            os._exit(127)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
    first_seen = full_seen = None
    cpu = float("nan")
    try:
        deadline = started + TIMEOUT
        while full_seen is None and time.perf_counter() < deadline:
            if not select.select([fd], [], [], 0.05)[0]:
                continue
            try:
                data = os.read(fd, 1 << 20)
            except OSError:
                break
            now = time.perf_counter()
            stream.feed(data)
            shown = "\n".join(screen.display)
            if first_seen is None and first in shown:
                first_seen = now - started
            if loaded.search(shown):
                full_seen = now - started
        if full_seen is None:
            raise SystemExit("the app never showed the full count:\n" + "\n".join(screen.display))
        os.write(fd, b"q")
        end = time.perf_counter() + 15
        while time.perf_counter() < end:  # drain the screen until the app has exited
            if select.select([fd], [], [], 0.05)[0]:
                with contextlib.suppress(OSError):
                    os.read(fd, 1 << 20)
            done, _, usage = os.wait4(pid, os.WNOHANG)
            if done:
                pid = 0
                cpu = usage.ru_utime + usage.ru_stime
                break
    finally:
        if pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)
    return first_seen or full_seen, full_seen, cpu


def compile_package() -> None:
    """Write the package's bytecode first, as an installed package has it: a checkout run
    with PYTHONDONTWRITEBYTECODE set would otherwise compile every module from source at
    each start, which is not what a labeller's terminal does."""
    import compileall

    import ragdiag_tui

    compileall.compile_dir(str(Path(ragdiag_tui.__file__).parent), quiet=1)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000_000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--size", default="160x48", help="terminal COLUMNSxLINES")
    parser.add_argument(
        "--one-process",
        action="store_true",
        help="also time the app reading the whole file in its own process (RAGDIAG_SPLIT_READ=0)",
    )
    args = parser.parse_args()
    columns, lines = map(int, args.size.split("x"))
    compile_package()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; a {columns}x{lines} pseudo-terminal")
    print(
        f"{'runs':>9}  {'first screen s':>15}{'loaded s':>10}{'msgspec loop s':>16}{'first/loop':>12}"
        f"{'loaded/loop':>13}{'app CPU s':>11}"
    )
    modes = [False, True] if args.one_process else [False]
    for n in args.sizes:
        path = run_file(n)
        loops: list[float] = []
        found: dict[bool, tuple[list[float], list[float], list[float]]] = {m: ([], [], []) for m in modes}
        folder = Path(tempfile.mkdtemp())
        try:
            out = folder / "out.jsonl"
            for _ in range(args.repeat):
                body = f"import baselines; baselines.msgspec_loop({str(path)!r}, {str(out)!r})"
                loops.append(measure(body)[0])
                for mode in modes:  # in turn, so each sees the machine as the other does
                    copy = folder / path.name
                    try:
                        os.link(path, copy)
                    except OSError:
                        shutil.copy(path, copy)
                    figures = in_terminal(copy, n, columns, lines, mode)
                    for into, figure in zip(found[mode], figures, strict=True):
                        into.append(figure)
                    for leftover in folder.iterdir():  # the copy and its journal: each run starts fresh
                        leftover.unlink()
        finally:
            shutil.rmtree(folder)
        loop = statistics.median(loops)
        for mode in modes:
            firsts, fulls, cpus = found[mode]
            first, full, cpu = (statistics.median(x) for x in (firsts, fulls, cpus))
            label = f"{n:>9}" if mode is False else f"{'1 process':>9}"
            print(
                f"{label}  {first:>15.2f}{full:>10.2f}{loop:>16.2f}{first / loop:>11.2f}x"
                f"{full / loop:>12.2f}x{cpu:>11.2f}"
            )
            runs = ", ".join(f"{f:.2f}" for f in fulls)
            print(f"{'':>9}  loaded in each run: {runs} s")


if __name__ == "__main__":
    main()
