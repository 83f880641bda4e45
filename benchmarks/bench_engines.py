"""The DuckDB engine over a dataset beside the local path, measured in the same run.

    python benchmarks/bench_engines.py [--runs 10000000] [--repeat 3]

Writes (once, cached under benchmarks/data/) 1M and 10M runs, each in 20 Parquet files
(pyarrow, in chunks), and the 1M-run JSON Lines file of bench_diagnose.py. Then, each in
a fresh process and alternating, REPEAT times: the local `diagnose` of the 1M JSON
Lines file, DuckDB `stats` over the 1M and the 10M Parquet runs, and DuckDB `sample` of
the lucky view (n=400) of the 10M. Prints the medians: seconds, runs per second, peak
resident memory, and the ratios the issue sets as goals:

    DuckDB stats runs/s over local diagnose runs/s    (goal at least 3x)
    peak RSS of stats at 10M and at 1M                  (goal at most 1 GB, and the same)
    sample time over stats time, at 10M                 (goal at most 1.2x)

The machine is shared: the medians of alternating runs keep a busy moment from
deciding a ratio. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
FILES = 20
CHUNK = 500_000
POOL = 50_000
MODELS = ["gpt-4o-mini", "llama-3.1-8b", "mistral-7b", "qwen2.5-7b"]

MEASURE = """
import resource, sys, time
t = time.perf_counter()
from ragdiag_tui.cli import main
code = main({argv!r})
elapsed = time.perf_counter() - t
print(elapsed, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""


def _chunk(start: int, size: int, seed: int) -> object:
    """`size` runs numbered from `start`: ~5% unresolved, ~3% unlabelled, 2% without an id,
    1-4 required IDs and 2-8 context IDs from a pool of 50,000, a model and a question."""
    import numpy as np
    import pyarrow as pa

    rng = np.random.default_rng(seed)
    n_req = rng.choice([1, 1, 1, 1, 1, 2, 2, 2, 3, 4], size)
    n_req[rng.random(size) < 0.05] = 0
    required = rng.integers(0, POOL, n_req.sum())
    keep = rng.random(required.size) < 0.93  # a required document is retrieved 93% of the time
    n_extra = rng.integers(1, 6, size)
    extra = rng.integers(0, POOL, n_extra.sum())
    req_offsets = np.concatenate([[0], np.cumsum(n_req)])
    run_of_required = np.repeat(np.arange(size), n_req)
    kept_per_run = np.bincount(run_of_required[keep], minlength=size)
    ctx_counts = kept_per_run + n_extra
    ctx_values = np.empty(ctx_counts.sum(), dtype=np.int64)
    ctx_offsets = np.concatenate([[0], np.cumsum(ctx_counts)])
    kept_docs, kept_runs = required[keep], run_of_required[keep]
    position = ctx_offsets[kept_runs] + (np.arange(kept_docs.size) - np.searchsorted(kept_runs, kept_runs))
    ctx_values[position] = kept_docs
    extra_runs = np.repeat(np.arange(size), n_extra)
    extra_pos = (
        ctx_offsets[extra_runs]
        + kept_per_run[extra_runs]
        + (np.arange(extra.size) - np.searchsorted(extra_runs, extra_runs))
    )
    ctx_values[extra_pos] = extra
    names = pa.array([f"doc-{i:05d}" for i in range(POOL)])
    doc = lambda ids: names.take(pa.array(ids))  # noqa: E731
    correct = pa.array(rng.random(size) < 0.7, mask=rng.random(size) < 0.03)
    ids = pa.array([f"run-{i:08d}" for i in range(start, start + size)], mask=rng.random(size) < 0.02)
    return pa.table({
        "id": ids,
        "model": pa.array(MODELS).take(pa.array(rng.integers(0, len(MODELS), size))),
        "question": pa.array([f"question {i % 9973}" for i in range(start, start + size)]),
        "required": pa.ListArray.from_arrays(pa.array(req_offsets, pa.int32()), doc(required)),
        "context": pa.ListArray.from_arrays(pa.array(ctx_offsets, pa.int32()), doc(ctx_values)),
        "correct": correct,
    })  # fmt: skip


def parquet_dataset(runs: int) -> Path:
    """`runs` runs in 20 Parquet files under benchmarks/data/parquet-RUNS/, written once."""
    import pyarrow.parquet as pq

    folder = DATA / f"parquet-{runs}"
    done = folder / ".complete"
    if done.exists():
        return folder
    folder.mkdir(parents=True, exist_ok=True)
    per_file = runs // FILES
    for index in range(FILES):
        first = index * per_file
        with pq.ParquetWriter(folder / f"part-{index:02d}.parquet", _chunk(0, 1, 0).schema) as writer:
            for start in range(first, first + per_file, CHUNK):
                size = min(CHUNK, first + per_file - start)
                writer.write_table(_chunk(start, size, seed=start))
        print(f"  wrote {folder.name}/part-{index:02d}.parquet", file=sys.stderr)
    done.touch()
    return folder


def measure(argv: list[str]) -> tuple[float, float]:
    """(seconds, peak RSS in MB) of `ragdiag-tui ARGV` run in a fresh interpreter."""
    code = MEASURE.format(argv=argv)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    try:
        seconds, rss_kb = done.stderr.split()[-2:]
        return float(seconds), int(rss_kb) / 1024
    except ValueError:
        raise SystemExit(done.stderr) from None


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    from bench_diagnose import run_file

    lines = run_file(1_000_000)
    small, large = parquet_dataset(1_000_000), parquet_dataset(args.runs)
    out = DATA / "engines-out"
    out.mkdir(exist_ok=True)
    cases = {
        "local diagnose 1M JSON Lines": (1_000_000, ["diagnose", str(lines), "-o", str(out / "d.jsonl")]),
        "duckdb stats 1M Parquet": (1_000_000, ["stats", str(small), "--json"]),
        f"duckdb stats {args.runs // 1_000_000}M Parquet": (args.runs, ["stats", str(large), "--json"]),
        f"duckdb sample {args.runs // 1_000_000}M lucky": (args.runs, [
            "sample", str(large), "--view", "lucky", "-n", "400", "--seed", "7", "--name", "bench",
            "--replace", "-o", str(out / "sample.jsonl"), "--json"]),
    }  # fmt: skip
    timings: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
    for _ in range(args.repeat):  # alternating, so a busy moment of the shared machine hits every case
        for name, (_, argv) in cases.items():
            timings[name].append(measure(argv))
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores, medians of {args.repeat} alternating runs"
    )
    print(f"{'what':<34}{'seconds':>9}{'runs/s':>12}{'peak MB':>9}")
    medians = {}
    for name, (runs, _) in cases.items():
        seconds = statistics.median(t for t, _ in timings[name])
        rss = statistics.median(r for _, r in timings[name])
        medians[name] = (seconds, runs / seconds, rss)
        print(f"{name:<34}{seconds:>9.2f}{runs / seconds:>12,.0f}{rss:>9.0f}")
    local, small_stats, large_stats, sample = medians.values()
    print()
    print(f"stats runs/s over local diagnose runs/s:  {large_stats[1] / local[1]:.2f}x  (goal >= 3x)")
    print(f"stats peak RSS at 10M / at 1M:            {large_stats[2]:.0f} MB / {small_stats[2]:.0f} MB  "
          "(goal <= 1024 MB, the same)")  # fmt: skip
    print(f"sample time over stats time:              {sample[0] / large_stats[0]:.2f}x  (goal <= 1.2x)")


if __name__ == "__main__":
    main()
