"""Time the agreement figures (pairs, Krippendorff's alpha, each reviewer against the file).

    python benchmarks/bench_agreement.py [--runs 100000] [--reviewers 5] [--repeat 5]

Builds, with a fixed seed, `--runs` labelled runs where each of `--reviewers`
reviewers labelled a run with probability 0.6 (at least one did), agreeing with
a hidden truth 85% of the time, and a file label on 90% of the runs. Prints the
best of `--repeat` timings of `agreement()` and its ratio to one bare pass that
only counts the labels (the least any computation over them could cost).

Then the same labels as a real review: a run file (benchmarks/make_runs.py) and
a journal with every reviewer's entries, opened with `open_review` (timed, for
scale), and `review_agreement(review)` timed: what the statistics screen and
`stats` pay. Nothing is asserted; the goal is under a second for 100,000 runs and
5 reviewers.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ragdiag_tui.core.analysis.agreement import agreement, review_agreement
from ragdiag_tui.core.review.journal import journal_path
from ragdiag_tui.core.review.records import digest
from ragdiag_tui.core.review.state import open_review
from ragdiag_tui.core.runs.store import RunStore


def make_runs(runs: int, reviewers: int, seed: int = 12) -> list[tuple[dict[str, bool], bool | None]]:
    rng = random.Random(seed)
    names = [f"reviewer-{i}" for i in range(reviewers)]
    out = []
    for _ in range(runs):
        truth = rng.random() < 0.7
        labels = {name: (truth if rng.random() < 0.85 else not truth) for name in names if rng.random() < 0.6}
        if not labels:
            labels[rng.choice(names)] = truth
        file = None if rng.random() < 0.1 else (truth if rng.random() < 0.9 else not truth)
        out.append((labels, file))
    return out


def best_of(repeat: int, function, *args) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - start)
    return min(times)


def bare_pass(runs: list[tuple[dict[str, bool], bool | None]]) -> int:
    return sum(sum(labels.values()) for labels, _ in runs)


def review_figures(runs: list[tuple[dict[str, bool], bool | None]], repeat: int) -> tuple[float, float]:
    """(seconds to open the review, best seconds of `review_agreement`) over a real run file."""
    with tempfile.TemporaryDirectory() as work:
        path = Path(work) / "runs.jsonl"
        maker = Path(__file__).resolve().parent / "make_runs.py"
        command = [sys.executable, str(maker), str(len(runs)), str(path)]
        subprocess.run(command, check=True, capture_output=True)
        store = RunStore.load(path)
        lines = []
        for row, (labels, _) in enumerate(runs):
            if not store.is_valid(row):
                continue
            run_digest = digest(store.raw_text(row))
            for name, label in labels.items():
                entry = {"v": 1, "run": store.ids[row], "label": label, "note": "", "reviewer": name}
                entry |= {"at": "2026-11-30T15:00:00.000000Z", "digest": run_digest}
                lines.append(json.dumps(entry))
        Path(journal_path(path)).write_text("\n".join(lines) + "\n")
        start = time.perf_counter()
        review = open_review(path, writable=False)
        opened = time.perf_counter() - start
        return opened, best_of(repeat, review_agreement, review)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=100_000)
    parser.add_argument("--reviewers", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    runs = make_runs(args.runs, args.reviewers)
    labels = sum(len(labels) for labels, _ in runs)
    seconds = best_of(args.repeat, agreement, runs)
    bare = best_of(args.repeat, bare_pass, runs)
    result = agreement(runs)
    print(f"{args.runs:,} labelled runs, {args.reviewers} reviewers, {labels:,} labels")
    print(f"agreement: {seconds * 1000:.0f} ms (best of {args.repeat})")
    print(f"bare counting pass: {bare * 1000:.0f} ms; ratio {seconds / bare:.1f}x")
    print(f"{len(result.pairs)} pairs, alpha {result.alpha:.3f}")
    opened, seconds = review_figures(runs, args.repeat)
    print(f"as a review: opening the file and journal {opened:.2f} s (for scale);")
    print(f"review_agreement(review): {seconds * 1000:.0f} ms (best of {args.repeat})")


if __name__ == "__main__":
    main()
