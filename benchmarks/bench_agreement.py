"""Time the agreement figures (pairs, Krippendorff's alpha, each reviewer against the file).

    python benchmarks/bench_agreement.py [--runs 100000] [--reviewers 5] [--repeat 5]

Builds, with a fixed seed, `--runs` labelled runs where each of `--reviewers`
reviewers labelled a run with probability 0.6 (at least one did), agreeing with
a hidden truth 85% of the time, and a file label on 90% of the runs. Prints the
best of `--repeat` timings of `agreement()` and its ratio to one bare pass that
only counts the labels (the least any computation over them could cost).
Nothing is asserted; the goal is under a second for 100,000 runs and 5 reviewers.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ragdiag_tui.core.agreement import agreement


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


if __name__ == "__main__":
    main()
