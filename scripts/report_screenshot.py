"""Render the guide's picture of the report: the report of `sample_runs/demo.jsonl` with a
spot-check of its nine lucky answers, reviewed by two labellers, shot by headless Chromium.

    python scripts/report_screenshot.py [--out docs/screenshots]

Writes report-first.png (a laptop's first screenful: what a reader sees before scrolling),
report.png (a wide screen, further down) and report-phone.png (a phone's width). The review is made in
a temporary folder (nothing lands in sample_runs/): every lucky answer is drawn, and the labels
follow the run ids in sorted order, so they do not depend on the order the sample draws them in.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ragdiag_tui.cli import main as ragdiag

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_runs"
CHROMIUM = "chromium"
# The first screenful of a laptop (the headline and the first chart), the page further down, a phone.
SHOTS = {"report-first.png": (1280, 800), "report.png": (1200, 2000), "report-phone.png": (390, 1800)}
# Per lucky answer, in sorted id order: (alice's label, bob's label or None, alice's tags, note).
VERDICTS = [
    (False, False, ["required-wrong"], "The policy cited is not the one the question needs."),
    (True, True, ["supported-elsewhere"], ""),
    (False, False, ["answer-wrong"], "States 30 days; the policy says 14."),
    (False, True, ["model-knowledge"], ""),
    (True, None, ["supported-elsewhere"], ""),
    (False, None, ["partly-supported"], "Only the first half is in the documents."),
    (True, None, [], ""),
    (False, None, ["required-wrong"], ""),
    (True, None, ["supported-elsewhere"], ""),
]


def reviewed(folder: Path) -> Path:
    """demo.jsonl with its lucky answers drawn and labelled by alice and bob."""
    path = folder / "demo.jsonl"
    shutil.copy(SAMPLE / "demo.jsonl", path)
    sample = ["sample", str(path), "--view", "lucky", "-n", "9", "--seed", "20261130", "--name", "lucky-9"]
    assert ragdiag([*sample, "--reviewer", "alice"]) == 0
    journal = Path(f"{path}.review.jsonl")
    drawn = json.loads(journal.read_text(encoding="utf-8").splitlines()[-1])["ids"]
    lines = []
    for at, (run, (alice, bob, tags, note)) in enumerate(zip(sorted(drawn), VERDICTS, strict=True)):
        when = f"2026-11-30T09:{at:02d}:00.000000Z"
        lines.append(
            {"v": 1, "run": run, "label": alice, "note": note, "tags": tags, "reviewer": "alice", "at": when}
        )
        if bob is not None:
            lines.append(
                {"v": 1, "run": run, "label": bob, "note": "", "tags": tags, "reviewer": "bob", "at": when}
            )
    with journal.open("a", encoding="utf-8") as out:
        out.writelines(json.dumps(line) + "\n" for line in lines)
    return path


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        reviewed(Path(folder))
        page = Path(folder) / "report.html"
        with contextlib.chdir(folder):  # the page names the file and its journal as given: no temporary path
            assert (
                ragdiag(["report", "demo.jsonl", "-o", "report.html", "--docs", str(SAMPLE / "docs.jsonl")])
                == 0
            )
        for name, (width, height) in SHOTS.items():
            subprocess.run(
                [
                    CHROMIUM,
                    "--headless=new",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--hide-scrollbars",
                    f"--user-data-dir={folder}/profile",
                    f"--window-size={width},{height}",
                    f"--screenshot={args.out / name}",
                    page.as_uri(),
                ],
                check=True,
                capture_output=True,
            )
            print(f"wrote {args.out / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
