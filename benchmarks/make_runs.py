"""Write a large, realistic JSON Lines run file for benchmarks.

Usage:
    python benchmarks/make_runs.py N OUT [--seed S]

    N     number of runs to write (e.g. 1000000)
    OUT   output path (JSON Lines: one run object per line, "\\n" endings)
    S     random seed (default 0); the same N and S always give the same bytes

The mix follows a plausible evaluation sweep: about 55% pass, 20% retrieval
(a third of them lucky answers, labelled correct), 15% generation, 5% unresolved
(empty required), 3% without a label (no `correct`, or null) and 2% without an
`id` field. Each run has 1-4 required and 2-8 context doc IDs drawn from a pool
of 50,000, a question of 30-90 characters, a short answer, a `source` and a
`model`, written compactly: lines average about 250 bytes, and a million
runs take a few seconds.
Only the standard library is used. What was written is reported on stderr.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Iterator

POOL_SIZE = 50_000
CHUNK = 20_000

DOC_PREFIXES = ["hr", "eng", "kb", "prd", "sec", "it", "fin", "ops", "lgl", "crm"]
MODELS = ["gpt-4o-mini", "llama-3.1-8b", "mistral-7b", "qwen2.5-7b"]
SOURCES = ["sweep-11", "sweep-12", "nightly", "regress"]
# Lookup tables for weighted draws: index with int(random() * 100).
REQUIRED_COUNT = [1] * 50 + [2] * 30 + [3] * 12 + [4] * 8
CONTEXT_COUNT = [2] * 18 + [3] * 27 + [4] * 25 + [5] * 15 + [6] * 8 + [7] * 5 + [8] * 2

STEMS = [
    "How many PTO days do I get",
    "Who approves a deploy during the freeze",
    "What is the refund window for annual plans",
    "How do I roll back a release",
    "When is the on-call handoff",
    "What is the 401k match",
    "How long is parental leave",
    "Where do I find the VPN profile",
    "Which IdPs work with SSO",
    "Can I export audit logs",
    "How often are laptops refreshed",
    "What is the travel per diem",
    "How long is data kept",
    "Who owns the billing service",
    "What counts as a SEV-1",
    "How do I rotate an API key",
    "Is a vendor review needed",
    "Can I change the invoice currency",
    "What is the SLA",
    "How long may a feature flag live",
    "How many PR approvals are needed",
    "What does the canary check",
    "When does the review cycle open",
    "Can I expense a monitor",
    "How do I add the office printer",
    "What is the password policy",
    "Is disk encryption required",
    "Where are service secrets stored",
    "Why are draft PR tests skipped",
    "How do hotfixes ship",
]
TAILS = [
    "?",
    "?",
    "?",
    "?",
    "?",
    " for contractors?",
    " in the EU office?",
    " after the 2026 update?",
    " for the Team plan?",
    " during a change freeze?",
    " for new hires?",
    " on Linux?",
    " when my manager is on leave?",
    " for enterprise customers?",
    " in staging?",
    " if I joined after the 2026 reorganisation and work part-time?",
    " for customers on a legacy annual contract billed in EUR?",
    " when the incident spans two regions and two on-call rotations?",
]
ANSWERS = [
    "20 days.",
    "Yes, with approval.",
    "No.",
    "In 5 minutes.",
    "The release captain.",
    "Every 3 years.",
    "USD 65 a day.",
    "Only at renewal.",
    "Run deployctl rollback.",
    "16 weeks.",
    "Enterprise only.",
    "30 days.",
    "Two approvals.",
    "Staging first.",
    "Unsure.",
]


def build_pool(rng: random.Random) -> list[str]:
    """50,000 distinct, JSON-ready (quoted) doc IDs such as "eng-0421"."""
    pool = []
    for n in range(POOL_SIZE):
        prefix = DOC_PREFIXES[n % len(DOC_PREFIXES)]
        pool.append(f'"{prefix}-{n // len(DOC_PREFIXES):04d}"')
    rng.shuffle(pool)
    return pool


def build_questions(rng: random.Random) -> list[str]:
    """Distinct JSON-encoded questions of 30-90 characters."""
    questions = []
    for stem in STEMS:
        for tail in TAILS:
            text = f"{stem}{tail}"
            if len(text) < 30:
                text = f"{stem} on my team{tail}"
            if 30 <= len(text) <= 90:
                questions.append(json.dumps(text))
    rng.shuffle(questions)
    return questions


def run_lines(n: int, seed: int, id_prefix: str = "run-") -> Iterator[str]:
    """The `n` runs of `seed` as JSON Lines, in chunks of CHUNK lines; run i's id is
    `{id_prefix}{i:07d}` (give each seed its own prefix for ids distinct across seeds)."""
    rng = random.Random(seed)
    pool = build_pool(rng)
    questions = build_questions(rng)
    answers = [json.dumps(a) for a in ANSWERS]
    heads = [f'"source":"{s}","model":"{m}"' for s in SOURCES for m in MODELS]
    rand = rng.random
    n_pool, n_q, n_a, n_h = len(pool), len(questions), len(answers), len(heads)
    lines: list[str] = []
    for i in range(1, n + 1):
        r = rand()
        n_req = REQUIRED_COUNT[int(rand() * 100)]
        base = int(rand() * n_pool)
        # doc IDs near each other in the shuffled pool: cheap, distinct, varied
        required = [pool[(base + k * 7) % n_pool] for k in range(n_req)]
        n_ctx = CONTEXT_COUNT[int(rand() * 100)]
        # retrieval runs: the retriever missed one or more required IDs
        kept = required[: int(rand() * n_req)] if 0.55 <= r < 0.75 else required
        extra_base = int(rand() * n_pool)
        context = [pool[(extra_base + k * 13) % n_pool] for k in range(max(n_ctx - len(kept), 0))]
        cut = int(rand() * (len(context) + 1))
        context[cut:cut] = kept
        required, label = _label(r, rand, required)
        id_part = "" if r >= 0.98 else f'"id":"{id_prefix}{i:07d}",'
        lines.append(
            f"{{{id_part}{heads[int(rand() * n_h)]},"
            f'"question":{questions[int(rand() * n_q)]},'
            f'"answer":{answers[int(rand() * n_a)]},'
            f'"required":[{",".join(required)}],'
            f'"context":[{",".join(context)}]{label}}}\n'
        )
        if len(lines) == CHUNK:
            yield "".join(lines)
            lines.clear()
    yield "".join(lines)


def _label(r: float, rand: Callable[[], float], required: list[str]) -> tuple[list[str], str]:
    """The run's label (as JSON text after its fields) and its required IDs, by its draw `r`."""
    if r < 0.55:
        return required, ',"correct":true'
    if r < 0.75:
        return required, ',"correct":true' if rand() < 1 / 3 else ',"correct":false'
    if r < 0.90:
        return required, ',"correct":false'
    if r < 0.95:
        return [], ',"correct":true' if rand() < 0.5 else ',"correct":false'
    if r < 0.98:
        return required, "" if rand() < 0.5 else ',"correct":null'
    return required, ',"correct":true'  # no id field: an ordinary pass otherwise


def write_runs(n: int, out: str, seed: int, id_prefix: str = "run-") -> int:
    """Write `n` runs to `out`; return the number of bytes written."""
    written = 0
    with open(out, "w", encoding="utf-8", newline="\n") as f:  # writes-ok: a benchmark's own data file
        for chunk in run_lines(n, seed, id_prefix):
            f.write(chunk)
            written += len(chunk.encode("utf-8"))
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write a realistic JSON Lines run file.")
    parser.add_argument("n", type=int, metavar="N", help="number of runs")
    parser.add_argument("out", metavar="OUT", help="output path")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--id-prefix",
        default="run-",
        help="what each run's id starts with (default run-); give each seed its own for distinct ids",
    )
    args = parser.parse_args(argv)
    if args.n < 0:
        parser.error("N must be >= 0")
    start = time.perf_counter()
    size = write_runs(args.n, args.out, args.seed, args.id_prefix)
    seconds = time.perf_counter() - start
    print(
        f"wrote {args.n} runs, {size} bytes ({size / max(args.n, 1):.0f} B/run) "
        f"to {args.out} in {seconds:.2f} s",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
