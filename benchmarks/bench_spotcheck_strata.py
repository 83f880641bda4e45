"""Stratified and sequential spot-checks: the labels each needs, and whether their 95% holds.

    python benchmarks/bench_spotcheck_strata.py [--audits 1000] [--margin 0.05] [--seed 1]

A population of lucky answers in 3 strata of 600 / 300 / 100 runs, overturned 5% / 10% / 40%
of the time (30, 30 and 40 runs: 10% in all), audited `--audits` times with labels from the
truth. It prints, for a +-margin combined interval at 95%:

- the labels a flat sample needs (`-n auto`: `estimate.auto_size`) and a Neyman-stratified one
  planned the same way (`strata.plan_sizes` with the true rates as priors);
- the labels the stratified sequential audit takes until `may_stop` (the combined anytime
  interval, `sequence.combined_anytime`, within +-margin), median and 90th percentile, served
  in the Neyman shares (`stratify.serving_order` over a Neyman sample of 600), beside the same
  audit of a population with the same strata overturned 2% of the time (12, 6 and 2 runs);
- coverage: the share of audits whose anytime interval holds the true rate at every look (up to
  the whole sample of 600), and for contrast the share whose stratified Wilson interval holds it
  where "Wilson after every label, stop when narrow" stops, and at every look.

Nothing is asserted; the figures are recorded in docs/performance.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ragdiag_tui.core.analysis.estimate import auto_size
from ragdiag_tui.core.analysis.sequence import StratumLabels, combined_anytime
from ragdiag_tui.core.analysis.strata import StratumCount, allocate, plan_sizes, stratified_estimate
from ragdiag_tui.core.analysis.stratify import serving_order

SIZES = {"A": 600, "B": 300, "C": 100}
RATES = {"A": 0.05, "B": 0.10, "C": 0.40}
LOW_RATES = {"A": 0.02, "B": 0.02, "C": 0.02}
SEQUENTIAL_SAMPLE = 600


def one_audit(rates: dict[str, float], order_of: list[str], margin: float, rng: random.Random) -> dict:
    """One audit: each stratum's runs in a random order, labelled in `order_of`'s strata order."""
    total = sum(SIZES.values())
    truth_counts = {name: round(SIZES[name] * rates[name]) for name in SIZES}
    truth = sum(truth_counts.values()) / total
    units = {name: [1] * truth_counts[name] + [0] * (SIZES[name] - truth_counts[name]) for name in SIZES}
    for values in units.values():
        rng.shuffle(values)
    counts = {name: [SIZES[name], 0, 0] for name in SIZES}
    stop = wilson_stop = None
    anytime_held = wilson_held = True
    wilson_at_stop = None
    for look, name in enumerate(order_of, start=1):
        count = counts[name]
        count[2] += units[name][count[1]]
        count[1] += 1
        interval = combined_anytime([StratumLabels(*count) for count in counts.values()])
        if interval is None:
            continue
        low, high = interval.low, interval.high
        anytime_held &= low <= truth <= high
        if stop is None and (high - low) / 2 <= margin:
            stop = look
        wilson = stratified_estimate([StratumCount(*count) for count in counts.values()])
        assert wilson is not None
        held = wilson.interval.low <= truth <= wilson.interval.high
        wilson_held &= held
        if wilson_stop is None and (wilson.interval.high - wilson.interval.low) / 2 <= margin:
            wilson_stop, wilson_at_stop = look, held
    return {"stop": stop, "anytime_held": anytime_held, "wilson_held": wilson_held,
            "wilson_stop": wilson_stop, "wilson_at_stop": wilson_at_stop}  # fmt: skip


def order(priors: dict[str, float]) -> list[str]:
    """The strata of each label in turn: a Neyman sample of SEQUENTIAL_SAMPLE, served interleaved."""
    sizes = allocate(SIZES, SEQUENTIAL_SAMPLE, "neyman", priors)
    drawn = {name: [name] * size for name, size in sizes.items()}
    return serving_order(drawn)


def audits(rates: dict[str, float], count: int, margin: float, seed: int) -> list[dict]:
    rng = random.Random(seed)
    strata_order = order(RATES)  # planned for the 5/10/40% population, whatever the truth
    return [one_audit(rates, strata_order, margin, rng) for _ in range(count)]


def quantiles(stops: list[int | None]) -> str:
    found = sorted(stop for stop in stops if stop is not None)
    never = len(stops) - len(found)
    if not found:
        return f"never within the margin in {SEQUENTIAL_SAMPLE} labels"
    p90 = found[min(len(found) - 1, int(0.9 * len(found)))]
    told = f"median {statistics.median(found):.0f}, p90 {p90}"
    return told + (f" ({never} audits never within it in {SEQUENTIAL_SAMPLE} labels)" if never else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--audits", type=int, default=1000)
    parser.add_argument("--margin", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    total = sum(SIZES.values())
    flat = auto_size(total, args.margin)
    neyman = plan_sizes(SIZES, args.margin, "neyman", RATES)
    print(f"population 600/300/100 overturned 5%/10%/40% (10% in all); ±{100 * args.margin:.0f}% at 95%")
    print(f"  flat sample, -n auto:           {flat} labels")
    planned = sum(neyman.values())
    print(f"  Neyman-stratified, planned:     {planned} labels {neyman}  ({planned / flat:.2f}x)")
    started = time.perf_counter()
    main_runs = audits(RATES, args.audits, args.margin, args.seed)
    low_runs = audits(LOW_RATES, args.audits, args.margin, args.seed + 1)
    print(f"  sequential until may_stop:      {quantiles([run['stop'] for run in main_runs])}")
    print(f"  the same at 2% overturned:      {quantiles([run['stop'] for run in low_runs])}")
    for name, runs in (("10%", main_runs), ("2%", low_runs)):
        anytime = sum(run["anytime_held"] for run in runs) / len(runs)
        peeked = [run["wilson_at_stop"] for run in runs if run["wilson_at_stop"] is not None]
        at_stop = sum(peeked) / len(peeked) if peeked else float("nan")
        every = sum(run["wilson_held"] for run in runs) / len(runs)
        wilson_stops = quantiles([run["wilson_stop"] for run in runs])
        print(f"  coverage at {name}: anytime, every look of {SEQUENTIAL_SAMPLE}: {100 * anytime:.1f}%; "
              f"Wilson stop-when-narrow: {100 * at_stop:.1f}% (stops: {wilson_stops}); "
              f"Wilson at every look: {100 * every:.1f}%")  # fmt: skip
    print(f"  ({2 * args.audits} audits in {time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
