"""Time `ragdiag-tui diagnose` end to end beside bare decode-and-diagnose loops.

    python benchmarks/bench_diagnose.py [--sizes 10000 100000 1000000]

For each size it writes a realistic run file with make_runs.py (cached under
benchmarks/data/), then runs, each in a fresh process: the bare stdlib-json loop,
the bare msgspec loop (the fastest we could write), and `ragdiag-tui diagnose
FILE -o OUT` (read, validate, diagnose, write). It prints wall time, peak
resident memory, and the tool's ratio to each loop. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"

MEASURE = """
import resource, sys, time
sys.path.insert(0, {here!r})
t = time.perf_counter()
{body}
elapsed = time.perf_counter() - t
print(elapsed, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def run_file(n: int) -> Path:
    DATA.mkdir(exist_ok=True)
    path = DATA / f"runs-{n}.jsonl"
    if not path.exists():
        subprocess.run([sys.executable, str(HERE / "make_runs.py"), str(n), str(path)], check=True)
    return path


def measure(body: str) -> tuple[float, float]:
    """(seconds, peak RSS in MB) of `body` run in a fresh interpreter."""
    code = MEASURE.format(here=str(HERE), body=body)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(done.stderr)
    seconds, rss_kb = done.stdout.split()[-2:]
    return float(seconds), int(rss_kb) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    args = parser.parse_args()
    out = DATA / "out.jsonl"
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    print(f"{'runs':>9}  {'what':<22}{'seconds':>9}{'peak MB':>9}{'x msgspec':>11}{'x stdlib':>10}")
    for n in args.sizes:
        path = run_file(n)
        results = {}
        for name in ("stdlib", "msgspec"):
            body = f"import baselines; baselines.LOOPS[{name!r}]({str(path)!r}, {str(out)!r})"
            results[name] = measure(body)
        body = f"from ragdiag_tui.cli import main\nmain(['diagnose', {str(path)!r}, '-o', {str(out)!r}])"
        results["ragdiag-tui diagnose"] = measure(body)
        base_fast, base_std = results["msgspec"][0], results["stdlib"][0]
        for name, (seconds, rss) in results.items():
            label = {"stdlib": "bare stdlib loop", "msgspec": "bare msgspec loop"}.get(name, name)
            print(
                f"{n:>9}  {label:<22}{seconds:>9.2f}{rss:>9.0f}"
                f"{seconds / base_fast:>10.2f}x{seconds / base_std:>9.2f}x"
            )
    out.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
