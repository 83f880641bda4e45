"""Time `report` against `stats` on the same file, in the same run.

    python benchmarks/bench_report.py [--runs 1000000] [--repeat 3]

On the cached run file of make_runs.py (benchmarks/data/runs-N.jsonl), a spot-check of 385
lucky answers is drawn with `ragdiag-tui sample` into a journal of its own (a temporary file,
never the one beside the run file); its runs are labelled by two reviewers from that journal's
ids (a third overturned, tags on half). Then `ragdiag-tui stats FILE --json` and
`ragdiag-tui report FILE -o report.html` run as fresh processes, alternating, `--repeat` times
each; the best of each is printed, with their ratio (the goal: at most 2x) and the size of the
report (the goal: under 3 MB), and the same for a Markdown report. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_diagnose import run_file  # the same cached run files

TAGS = ("supported-elsewhere", "required-wrong", "model-knowledge", "answer-wrong", "partly-supported")


def ragdiag(*argv: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "ragdiag_tui", *argv], capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise SystemExit(done.stderr)
    return done


def reviewed_journal(path: Path, journal: Path) -> int:
    """Draw 385 lucky answers into `journal` and label them; how many runs it labelled."""
    ragdiag("sample", str(path), "--view", "lucky", "-n", "385", "--seed", "7", "--journal", str(journal))
    records = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]
    ids = next(record["ids"] for record in records if record.get("kind") == "spot-check")
    lines = []
    for at, run in enumerate(ids):
        label = at % 3 != 0  # lucky answers are labelled correct: a third overturned
        tags = [TAGS[at % len(TAGS)]] if at % 2 == 0 else []
        for reviewer in ("ana", "ben") if at % 4 == 0 else ("ana",):
            lines.append(
                {
                    "v": 1,
                    "run": run,
                    "label": label,
                    "note": "",
                    "tags": tags,
                    "reviewer": reviewer,
                    "at": "2026-11-30T00:00:00.000000Z",
                }
            )
    with journal.open("a", encoding="utf-8") as out:
        out.writelines(json.dumps(line) + "\n" for line in lines)
    return len(ids)


def timed(*argv: str) -> float:
    start = time.perf_counter()
    ragdiag(*argv)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    path = run_file(args.runs)
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores; {path.name}, {path.stat().st_size:,} bytes"
    )
    with tempfile.TemporaryDirectory() as folder:
        journal, html, md = (
            Path(folder) / "journal.jsonl",
            Path(folder) / "report.html",
            Path(folder) / "report.md",
        )
        print(f"spot-check: {reviewed_journal(path, journal)} lucky answers drawn and labelled")
        common = (str(path), "--journal", str(journal))
        stats, report, markdown = [], [], []
        for _ in range(args.repeat):  # alternating, so a slower minute hits both
            stats.append(timed("stats", *common, "--json"))
            report.append(timed("report", *common, "-o", str(html)))
            markdown.append(timed("report", *common, "-o", str(md)))
        beside = sum(file.stat().st_size for file in Path(folder).glob("report-*.svg"))
        best = min(stats)
        print(f"stats --json            {best:7.2f} s")
        print(
            f"report -o report.html   {min(report):7.2f} s   {min(report) / best:.2f}x stats (goal <= 2x)   "
            f"{html.stat().st_size / 1e6:.2f} MB (goal < 3 MB)"
        )
        print(
            f"report -o report.md     {min(markdown):7.2f} s   {min(markdown) / best:.2f}x stats   "
            f"{md.stat().st_size / 1e3:.1f} kB + {beside / 1e3:.1f} kB of charts beside"
        )


if __name__ == "__main__":
    main()
