"""Key-to-screen time beside long text (issue 22): a 25,000-line document and a 100,000-line
note against one-line ones.

    python benchmarks/bench_long_text.py [--doc-lines 25000] [--note-lines 100000]

Two otherwise equal setups, each in the app headlessly (`App.run_test`, 140x40): four runs,
each requiring two documents of a `--docs` corpus, each carrying a note merged from another
reviewer. In the short setup every document and note is one line; in the long one each
document has `--doc-lines` lines and each note `--note-lines`. With the first document
highlighted (`.`), printed per key (and for `c`, opening the note dialog): the median
milliseconds from the press until Textual has handled it and redrawn the screen (CPU time,
as bench_app.py measures), in each setup, and their ratio. The goal: a ratio within 1.2 and
every figure under 100 ms. Beside them, a third setup of 100-line documents and notes
(already cut in the pane, so a screenful of text): the long setup's ratio to it shows what
the length itself costs, apart from drawing a full screen rather than a nearly empty one.

`--rounds N` presses each key's sequence N times (a steadier median where times vary).
With `--calls`, the figures are instead the mean number of Python function calls per key
(cProfile's count): slower, but the same on a loaded machine, where CPU times of a few
tens of milliseconds vary by a third from one run to the next.

Nothing is asserted: these are figures to read and compare.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

GOAL_RATIO = 1.2
GOAL_MS = 100.0
RUNS = 4
COUNT_CALLS = False  # --calls: count function calls per key instead of timing it
ROUNDS = 1  # --rounds: each key's presses repeated, for a steadier median on a loaded machine


def lines(count: int, word: str) -> str:
    return "\n".join(f"{word} {n} of the text" for n in range(1, count + 1))


def write_setup(folder: Path, doc_lines: int, note_lines: int) -> tuple[Path, Path]:
    """The runs file (with a journal holding ann's notes) and the corpus, in `folder`."""
    from ragdiag_tui.core.review.state import open_review

    runs = folder / "runs.jsonl"
    docs = folder / "docs.jsonl"
    with runs.open("w", encoding="utf-8") as out:
        for n in range(RUNS):
            run = {"id": f"run-{n}", "question": "What is carried over?", "answer": "Five days."}
            run |= {"required": [f"doc-{n}-a", f"doc-{n}-b"], "context": [f"doc-{n}-a"], "correct": True}
            out.write(json.dumps(run) + "\n")
    with docs.open("w", encoding="utf-8") as out:
        for n in range(RUNS):
            for part in "ab":
                out.write(json.dumps({"id": f"doc-{n}-{part}", "text": lines(doc_lines, "clause")}) + "\n")
    review = open_review(runs, reviewer="ann")
    for row in range(RUNS):
        review.set_note(row, lines(note_lines, "remark"))
    assert review.journal is not None
    review.journal.close()
    return runs, docs


async def timed_presses(pilot, keys: list[str]) -> float:  # type: ignore[no-untyped-def]
    """Median CPU milliseconds to handle one key press and redraw the screen (`--calls`: the
    mean number of function calls)."""
    if COUNT_CALLS:
        profile = cProfile.Profile()
        for key in keys:
            profile.enable()
            await pilot.press(key)
            await pilot.pause()
            profile.disable()
        return pstats.Stats(profile).total_calls / len(keys)  # type: ignore[attr-defined]
    times = []
    for key in keys:
        start = time.process_time()
        await pilot.press(key)
        await pilot.pause()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


async def timed_dialog(pilot, key: str, times: int) -> float:  # type: ignore[no-untyped-def]
    """Median CPU milliseconds to open a dialog with `key` (each closed with escape, untimed)."""
    times_ms = []
    for _ in range(times):
        start = time.process_time()
        await pilot.press(key)
        await pilot.pause()
        times_ms.append(time.process_time() - start)
        await pilot.press("escape")
        await pilot.pause()
    return statistics.median(times_ms) * 1000


async def measure(runs: Path, docs: Path) -> dict[str, float]:
    from ragdiag_tui.core.runs.corpus import DocsSource
    from ragdiag_tui.ui.app import create_app

    app = create_app(runs, reviewer="bench", docs=DocsSource(str(docs)))
    figures: dict[str, float] = {}
    async with app.run_test(size=(140, 40)) as pilot:
        screen = app.screen
        while screen.review is None:
            await asyncio.sleep(0.005)
        await pilot.press("full_stop")
        while screen.detail.docs is None:  # the corpus opens in a worker
            await asyncio.sleep(0.005)
        await pilot.pause()
        figures["label y"] = await timed_presses(pilot, ["y", "n"] * 4 * ROUNDS)
        figures["cursor move"] = await timed_presses(pilot, ["down", "down", "up", "up"] * 2 * ROUNDS)
        figures["next document"] = await timed_presses(pilot, ["full_stop"] * 8 * ROUNDS)
        if not COUNT_CALLS:
            figures["note dialog"] = await timed_dialog(pilot, "c", times=4)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--doc-lines", type=int, default=25_000)
    parser.add_argument("--note-lines", type=int, default=100_000)
    parser.add_argument("--calls", action="store_true", help="count function calls per key, not time")
    parser.add_argument("--rounds", type=int, default=1, help="press each key's sequence this many times")
    args = parser.parse_args()
    global COUNT_CALLS, ROUNDS
    COUNT_CALLS, ROUNDS = args.calls, args.rounds
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        setups = (("short", 1, 1), ("100", 100, 100), ("long", args.doc_lines, args.note_lines))
        for name, doc_lines, note_lines in setups:
            folder = Path(tmp) / name
            folder.mkdir()
            results[name] = asyncio.run(measure(*write_setup(folder, doc_lines, note_lines)))
    unit = "function calls (mean)" if args.calls else "CPU ms (median)"
    print(f"key-to-screen, {unit}: one-line text vs {args.doc_lines:,}-line documents")
    print(f"and {args.note_lines:,}-line notes; goal: ratio <= {GOAL_RATIO}, under {GOAL_MS:.0f} ms")
    print(f"{'key':<15}{'one line':>10}{'100 lines':>10}{'long':>10}{'ratio':>8}  goal  {'vs 100':>7}")
    for key, short in results["short"].items():
        hundred, long = results["100"][key], results["long"][key]
        ratio = long / short if short else float("inf")
        met = "met" if ratio <= GOAL_RATIO and (args.calls or long < GOAL_MS) else "missed"
        figures = f"{short:>10.1f}{hundred:>10.1f}{long:>10.1f}{ratio:>8.2f}"
        print(f"{key:<15}{figures}  {met:<6}{long / hundred:>7.2f}")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    main()
