"""Make a dataset to try the engines on: a folder of Parquet files (or JSON Lines with
`--format jsonl`) of realistic runs, every run's id distinct across the whole folder.

    .venv/bin/python scripts/make_lake.py lake --files 4 --runs 5000 [--seed 0] [--format parquet]

Each file is the runs of benchmarks/make_runs.py for a seed of its own (`part-000.parquet`:
seed S*1000, ...), with ids `p000-run-0000001`, `p001-run-0000001`, ... so no two runs share an
id (2% of the runs have no id field, as in make_runs: a dataset names those `FILE:N`). The runs
carry a `model` of four, a `source`, a question and an answer. The same arguments always give
the same runs. Parquet needs pyarrow (the `duckdb` or `parquet` extra). Every file is written
through core.common.atomic: a file already there is replaced whole or left as it was.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from make_runs import run_lines  # noqa: E402

from ragdiag_tui.core.common.atomic import atomic_writer  # noqa: E402

COLUMNS = ("id", "source", "model", "question", "answer", "required", "context", "correct")


def part_runs(part: int, runs: int, seed: int) -> str:
    """The JSON Lines of part `part`: make_runs' runs of seed `seed * 1000 + part`, ids prefixed."""
    return "".join(run_lines(runs, seed * 1000 + part, id_prefix=f"p{part:03d}-run-"))


def parquet_bytes(text: str) -> bytes:
    """The runs of `text` (JSON Lines) as one Parquet file, a column per field (a missing
    `id` or `correct` is null: a run without an id, a run without a label)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    records = [json.loads(line) for line in text.splitlines()]
    schema = pa.schema(
        [
            *((name, pa.string()) for name in COLUMNS[:5]),
            ("required", pa.list_(pa.string())),
            ("context", pa.list_(pa.string())),
            ("correct", pa.bool_()),
        ]
    )
    table = pa.Table.from_pylist([{name: run.get(name) for name in COLUMNS} for run in records], schema)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return sink.getvalue().to_pybytes()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Write a folder of runs with distinct ids: a dataset to try."
    )
    parser.add_argument("out", type=Path, metavar="FOLDER", help="the dataset's folder (made if missing)")
    parser.add_argument("--files", type=int, default=4, help="files to write (default 4)")
    parser.add_argument("--runs", type=int, default=5000, help="runs per file (default 5000)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--format", choices=("parquet", "jsonl"), default="parquet")
    args = parser.parse_args(argv)
    if args.files < 1 or args.runs < 1:
        parser.error("--files and --runs must be at least 1")
    args.out.mkdir(parents=True, exist_ok=True)
    for part in range(args.files):
        text = part_runs(part, args.runs, args.seed)
        data = parquet_bytes(text) if args.format == "parquet" else text.encode("utf-8")
        with atomic_writer(args.out / f"part-{part:03d}.{args.format}") as out:
            out.write(data)
    total = args.files * args.runs
    print(f"wrote {total:,} runs in {args.files} {args.format} files to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
