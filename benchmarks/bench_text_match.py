"""Loading a run file whose documents are texts (issue 38): exact matching, similarity
matching (RAGAS's NonLLMContextRecall comparison, by rapidfuzz) and a reopen served by the
similarity cache.

    python benchmarks/bench_text_match.py [--rows 100000] [--rounds 1]

A RAGAS-like file is written once under benchmarks/data/ (not timed): `--rows` runs, each
with 3 reference and 5 retrieved passages of about 500 characters drawn from a pool of
passages (as a retriever returns the same chunks to many questions), in RAGAS's column
names (`user_input`, `reference_contexts`, `retrieved_contexts`, `response`, and a score
`answer_correctness` read with `--label-threshold 0.5`). Of the 3 references, about one is
retrieved word for word, one as a near copy (a few characters edited: a different chunking
of the same passage) and one is not retrieved at all.

Each load is `RunStore.load` with `--preset ragas --label-threshold 0.5` and `--match text`,
`--match similarity` (an empty cache folder) or `--match similarity` again (the cache the
previous load wrote), each in a fresh interpreter, in turn, `--rounds` times; it prints the
seconds and processor seconds of each, the median, and the two ratios the issue sets goals
for, in seconds and in processor seconds (steadier on a shared machine): similarity / exact
(goal <= 3x) and cached reopen / exact (goal <= 1.2x). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
WORDS = [
    "policy",
    "leave",
    "refund",
    "deploy",
    "freeze",
    "approve",
    "guide",
    "vpn",
    "reset",
    "laptop",
    "encryption",
    "escrow",
    "director",
    "expense",
    "weekly",
    "release",
    "checklist",
    "incident",
    "page",
    "acknowledge",
    "office",
    "canteen",
    "benefit",
    "claim",
]
POOL = 20_000

PROBE = """
import sys, time
from ragdiag_tui.core.runs.mapping import FieldMap
from ragdiag_tui.core.runs.store import RunStore
field_map = FieldMap.from_specs(["correct=answer_correctness"], "ragas", sys.argv[2], 0.5)
start, cpu = time.perf_counter(), time.process_time()
store = RunStore.load(sys.argv[1], field_map=field_map)
print(time.perf_counter() - start, time.process_time() - cpu, len(store), len(store.missing))
"""


def passage(rng: random.Random) -> str:
    words: list[str] = []
    while sum(map(len, words)) + len(words) < 500:
        words.append(rng.choice(WORDS))
    return " ".join(words)


def near_copy(text: str, rng: random.Random) -> str:
    chars = list(text)
    for _ in range(12):
        chars[rng.randrange(len(chars))] = rng.choice("abcdefghij")
    return "".join(chars)


def make_file(rows: int) -> Path:
    path = DATA / f"text_match_{rows}.jsonl"
    if path.exists():
        return path
    DATA.mkdir(exist_ok=True)
    rng = random.Random(38)
    pool = [passage(rng) for _ in range(POOL)]
    with open(path.with_suffix(".tmp"), "w", encoding="utf-8") as handle:  # writes-ok: benchmark data
        for i in range(rows):
            given, near, absent = (rng.choice(pool) for _ in range(3))
            retrieved = [given, near_copy(near, rng), *(rng.choice(pool) for _ in range(3))]
            rng.shuffle(retrieved)
            run = {
                "user_input": f"question {i}",
                "reference_contexts": [given, near, absent],
                "retrieved_contexts": retrieved,
                "response": "an answer",
                "answer_correctness": round(rng.random(), 3),
            }
            handle.write(json.dumps(run) + "\n")
    os.replace(path.with_suffix(".tmp"), path)  # writes-ok: benchmark data
    return path


def load(path: Path, match: str, cache: str) -> tuple[float, float, int, int]:
    env = {**os.environ, "RAGDIAG_CACHE_DIR": cache}
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(path), match], env=env, check=True, capture_output=True, text=True
    ).stdout.split()
    return float(out[0]), float(out[1]), int(out[2]), int(out[3])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    path = make_file(args.rows)
    size = path.stat().st_size / 2**20
    print(f"{path.name}: {args.rows:,} runs, {size:.0f} MB")
    figures: dict[str, list[tuple[float, float]]] = {"exact": [], "similarity": [], "cached": []}
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory() as cache:
            for name, match in (("exact", "text"), ("similarity", "similarity"), ("cached", "similarity")):
                seconds, cpu, runs, missing = load(path, match, cache)
                figures[name].append((seconds, cpu))
                counts = f"{runs:,} runs, {missing:,} with missing"
                print(f"  {name:<10} {seconds:6.2f} s  cpu {cpu:6.2f} s  ({counts})")
    median = {name: statistics.median(s for s, _ in values) for name, values in figures.items()}
    print("median: " + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in median.items()))
    cpu = {name: statistics.median(c for _, c in values) for name, values in figures.items()}
    for name, goal in (("similarity", 3), ("cached", 1.2)):
        wall, processor = median[name] / median["exact"], cpu[name] / cpu["exact"]
        print(f"{name} / exact: {wall:.2f}x, processor time {processor:.2f}x (goal <= {goal}x)")


if __name__ == "__main__":
    main()
