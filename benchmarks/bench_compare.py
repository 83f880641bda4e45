"""Time `ragdiag-tui compare OLD NEW` beside `ragdiag-tui diagnose` on both files.

    python benchmarks/bench_compare.py [--sizes 100000 1000000]

For each size it writes a realistic run file with make_runs.py (OLD, cached under
benchmarks/data/) and a perturbed copy (NEW: a retriever change that supplies or
drops a required document in about 10% of the runs, 5% of labels flipped, 0.5%
of questions reworded, 1% of runs dropped and 1% added). Then, each in a fresh
process: `diagnose OLD`, `diagnose NEW` (the baseline, measured in the same run)
and `compare OLD NEW --json`. It prints wall and CPU time, peak resident memory,
and the ratio of compare to the two diagnoses together. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from pathlib import Path

from bench_diagnose import DATA, run_file

MEASURE = """
import resource, sys, time
sys.path.insert(0, {here!r})
t = time.perf_counter()
{body}
elapsed = time.perf_counter() - t
usage = resource.getrusage(resource.RUSAGE_SELF)
print(elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
"""


def measure(body: str) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak RSS in MB) of `body` run in a fresh interpreter.

    CPU time is the steadier figure on a shared machine: other processes stretch
    the wall time of one run and not another's.
    """
    code = MEASURE.format(here=str(Path(__file__).resolve().parent), body=body)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(done.stderr)
    wall, cpu, rss_kb = done.stdout.split()[-3:]
    return float(wall), float(cpu), int(rss_kb) / 1024


def perturbed_file(old: Path, seed: int = 1) -> Path:
    """NEW: OLD after a retriever change (cached beside OLD)."""
    new = old.with_name(old.stem + "-after.jsonl")
    if new.exists():
        return new
    rng = random.Random(seed)
    with open(old, encoding="utf-8") as source, open(new, "w", encoding="utf-8") as out:
        for number, line in enumerate(source):
            draw = rng.random()
            if draw < 0.01:
                continue  # dropped
            if number % 100 == 0:
                added = {"id": f"new-{number}", "question": f"new question {number}", "required": ["d1"]}
                out.write(json.dumps({**added, "context": ["d1"], "correct": True}) + "\n")
            if draw > 0.16:
                out.write(line)
                continue
            run = json.loads(line)
            required, context = run.get("required") or [], run.get("context") or []
            if draw < 0.06 and required:
                run["context"] = [*context, *required]  # the missing evidence now supplied
            elif draw < 0.11 and required:
                run["context"] = [doc for doc in context if doc != required[0]]  # now missed
            elif draw < 0.155 and isinstance(run.get("correct"), bool):
                run["correct"] = not run["correct"]
            elif isinstance(run.get("question"), str):
                run["question"] += " (reworded)"
            out.write(json.dumps(run, separators=(",", ":")) + "\n")
    return new


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    args = parser.parse_args()
    out = DATA / "out.jsonl"
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    print(f"{'runs':>9}  {'what':<26}{'wall s':>9}{'CPU s':>9}{'peak MB':>9}")
    for n in args.sizes:
        old = run_file(n)
        new = perturbed_file(old)
        results = {}
        for name, path in (("diagnose OLD", old), ("diagnose NEW", new)):
            body = f"from ragdiag_tui.cli import main\nmain(['diagnose', {str(path)!r}, '-o', {str(out)!r}])"
            results[name] = measure(body)
        body = (
            "import contextlib, io\nfrom ragdiag_tui.cli import main\n"
            f"with open({str(out)!r}, 'w') as sink, contextlib.redirect_stdout(sink):\n"
            f"    main(['compare', {str(old)!r}, {str(new)!r}, '--json'])"
        )
        results["compare OLD NEW --json"] = measure(body)
        for name, (wall, cpu, rss) in results.items():
            print(f"{n:>9}  {name:<26}{wall:>9.2f}{cpu:>9.2f}{rss:>9.0f}")
        compared, old_run, new_run = (
            results[name] for name in ("compare OLD NEW --json", "diagnose OLD", "diagnose NEW")
        )
        ratios = [compared[at] / (old_run[at] + new_run[at]) for at in (0, 1)]
        print(f"{n:>9}  {'compare / both diagnoses':<26}{ratios[0]:>8.2f}x{ratios[1]:>8.2f}x")
        summary = subprocess.run(
            [sys.executable, "-m", "ragdiag_tui.cli", "compare", str(old), str(new), "--json"],
            capture_output=True,
            text=True,
            check=False,
        )
        data = json.loads(summary.stdout)
        print(
            f"{'':>9}  joined {data['joined']}, only OLD {data['only_old']}, only NEW {data['only_new']}, "
            f"not comparable {len(data['not_comparable'])}, fixed {len(data['fixed'])}, "
            f"regressed {len(data['regressed'])}"
        )
    out.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
