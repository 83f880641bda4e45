"""Time the spot-check: drawing a sample and its statistics, at 10k, 100k and 1M runs.

    python benchmarks/bench_spotcheck.py [--sizes 10000 100000 1000000] [--repeat 5]

On the cached run files of make_runs.py (benchmarks/data/), with the store loaded
(not timed), it prints the best of `--repeat` timings of:

- drawing a sample: the population of a view (by the file's labels), its run ids,
  and the draw (the sha256 key of every id, the n smallest): lucky answers (50 and
  auto-sized), all runs (auto-sized), and lucky answers under a text filter; beside
  each, the former draw, `random.Random(seed).sample` over the same population, and
  the ratio of the two;
- the spot-check statistics (`spot_check_report`) of a 385-run sample of lucky
  answers, every run reviewed, a third overturned, tags on half; and of a
  10,000-run sample of all runs;
- the means of recall and precision over every run;
- opening a corpus of as many documents (`--docs FILE`, JSON Lines, about 230
  bytes a document) and reading one document's text, with the memory the index
  takes.

Baselines: the draw alone over ids already built, `random.sample` alone over the
same ids, and one bare pass over the sample's ids. Nothing is asserted; the goals are a draw under 0.5 s
and the statistics under 0.2 s at a million runs.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_diagnose import run_file  # the same cached run files

from ragdiag_tui.core.analysis.estimate import auto_size
from ragdiag_tui.core.analysis.sampling import draw, population, population_ids
from ragdiag_tui.core.analysis.spotcheck import spot_check_report, spot_check_reports
from ragdiag_tui.core.review.records import SpotCheck
from ragdiag_tui.core.review.state import Review
from ragdiag_tui.core.review.tags import DEFAULT_TAGS
from ragdiag_tui.core.runs.metrics import metric_means
from ragdiag_tui.core.runs.store import RunStore


def best_of(repeat: int, function: Callable[[], Any]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def sample(review: Review, view: str, n: int | str, query: str = "", seed: int = 7) -> list[str]:
    rows = population(review.store, review, view, query)
    ids = population_ids(review.store, rows)
    return draw(ids, auto_size(len(ids)) if n == "auto" else int(n), seed)


def former_sample(review: Review, view: str, n: int | str, query: str = "", seed: int = 7) -> list[str]:
    """The draw before issue 20: `random.Random(seed).sample` of the ids in file order."""
    rows = population(review.store, review, view, query)
    ids = population_ids(review.store, rows)
    return random.Random(seed).sample(ids, min(len(ids), auto_size(len(ids)) if n == "auto" else int(n)))


def reviewed_spot_check(review: Review, name: str, view: str, size: int) -> None:
    ids = sample(review, view, size)
    rows = population(review.store, review, view)
    review.add_spot_check(
        SpotCheck(name, view, "", 7, len(rows), len(ids), tuple(ids), "bench", "2026-11-30T00:00:00Z")
    )
    row_of = review.store.row_of
    for position, run_id in enumerate(ids):
        row = row_of[run_id]
        if not review.store.is_valid(row):
            continue
        file_label = review.label(row)
        review.set_label(row, (not file_label) if position % 3 == 0 else bool(file_label))
        if position % 2 == 0:
            review.set_tags(row, (DEFAULT_TAGS[position % 5].key,))


def bench_size(n: int, repeat: int) -> None:
    store = RunStore.load(run_file(n))
    review = Review(store, None, "bench")
    assert store.row_of  # built once when a review opens with a journal; not part of a draw
    lucky_ids = population_ids(store, population(store, review, "lucky"))
    all_ids = population_ids(store, population(store, review, "all"))
    print(f"\n{n:,} runs: {len(lucky_ids):,} lucky answers")
    draws = {
        "draw 50 lucky answers": ("lucky", 50, ""),
        f"draw auto ({auto_size(len(lucky_ids))}) lucky answers": ("lucky", "auto", ""),
        f"draw auto ({auto_size(len(all_ids))}) of all runs": ("all", "auto", ""),
        "draw 50 lucky answers matching 'kb'": ("lucky", 50, "kb"),
    }
    print(f"  {'':<52}{'sha256':>9}{'former':>9}{'ratio':>8}")
    for label, how in draws.items():
        now = best_of(repeat, lambda how=how: sample(review, *how))
        former = best_of(repeat, lambda how=how: former_sample(review, *how))
        print(f"  {label:<52}{now * 1000:9.1f}{former * 1000:9.1f}{now / former:7.1f}x")
    baselines = {
        "  baseline: the draw alone, 385 of all ids": lambda: draw(all_ids, 385, 7),
        "  baseline: random.sample(50) of the lucky ids": lambda: random.Random(7).sample(lucky_ids, 50),
        "  baseline: random.sample(385) of all ids": lambda: random.Random(7).sample(all_ids, 385),
    }
    for label, function in baselines.items():
        print(f"  {label:<52}{best_of(repeat, function) * 1000:9.1f}")
    reviewed_spot_check(review, "lucky-385", "lucky", 385)
    reviewed_spot_check(review, "all-10000", "all", min(10_000, n))
    for name, spot_check in review.spot_checks.items():
        seconds = best_of(repeat, lambda spot_check=spot_check: spot_check_report(review, spot_check))
        print(f"  {f'spot-check statistics, {name} (all reviewed)':<52}{seconds * 1000:9.1f}")
    bare = best_of(repeat, lambda: sum(1 for sc in review.spot_checks.values() for _ in sc.ids))
    print(f"  {'  baseline: one bare pass over both samples ids':<52}{bare * 1000:9.1f}")
    means = best_of(repeat, lambda: metric_means(store.recall, store.precision))
    print(f"  {'recall and precision means over every run':<52}{means * 1000:9.1f}")
    for report in spot_check_reports(review):
        print(f"  {report.sentence()}")


def corpus_file(n: int) -> Path:
    path = Path(run_file(n)).parent / f"docs-{n}.jsonl"
    if not path.exists():
        rng = random.Random(1)
        words = [
            "refund",
            "policy",
            "window",
            "deploy",
            "freeze",
            "approve",
            "leave",
            "guide",
            "vpn",
            "reset",
        ]
        with open(path, "w", encoding="utf-8") as out:
            for i in range(n):
                text = " ".join(rng.choice(words) for _ in range(30))
                out.write(json.dumps({"id": f"kb-{i}", "title": f"Document {i}", "text": text}) + "\n")
    return path


DOCS_PROBE = """
import os, sys, time
from ragdiag_tui.core.runs.corpus import DocStore
def rss():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
before = rss()
start = time.perf_counter()
docs = DocStore.open(sys.argv[1])
opened = time.perf_counter() - start
grown = rss() - before
ids = [f"kb-{i}" for i in range(0, len(docs), max(1, len(docs) // 1000))]
start = time.perf_counter()
for doc_id in ids:
    docs.text(doc_id)
print(opened, (time.perf_counter() - start) / len(ids), grown)
"""


def bench_docs(n: int) -> None:
    """Opening a corpus in a fresh interpreter, so its memory is the index's alone."""
    path = corpus_file(n)
    done = subprocess.run(
        [sys.executable, "-c", DOCS_PROBE, str(path)], capture_output=True, text=True, check=True
    )
    opened, read, grown = map(float, done.stdout.split())
    size = path.stat().st_size / 2**20
    print(f"  {f'open a corpus of {n:,} documents ({size:.0f} MB)':<52}{opened * 1000:9.1f}")
    print(f"  {'  one document read from it':<52}{read * 1000:9.3f}")
    print(f"  {'  memory of the index (MB)':<52}{grown:9.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}; best of {args.repeat}; milliseconds")
    for n in args.sizes:
        bench_size(n, args.repeat)
        bench_docs(n)


if __name__ == "__main__":
    main()
