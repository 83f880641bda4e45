"""Regenerate the README's SVG screenshots from the sample runs.

    python scripts/screenshots.py [--out docs/screenshots]

The app runs headless at a fixed size over a private copy of `sample_runs/demo.jsonl`
(so no review journal lands in `sample_runs/`), opened by its bare name so that no
temporary path shows on screen. Nothing is labelled, so the pictures hold no dates
and regenerate identically while the UI stays the same.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from textual.pilot import Pilot

from ragdiag_tui.ui.app import RagdiagApp, create_app
from ragdiag_tui.ui.screens.review.screen import ReviewScreen
from ragdiag_tui.ui.screens.statistics import StatisticsScreen

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_runs" / "demo.jsonl"
OUT = ROOT / "docs" / "screenshots"
SIZE = (120, 36)
LUCKY_RUN = "run-0005"  # the first lucky answer of demo.jsonl (sample_runs/README.md)


async def _loaded(pilot: Pilot[int]) -> ReviewScreen:
    """Wait until every run is in and the journal is replayed."""
    app = pilot.app
    assert isinstance(app, RagdiagApp)
    for _ in range(1000):
        if app.review_screen.review is not None:
            await pilot.pause()
            return app.review_screen
        await pilot.pause(0.01)
    raise RuntimeError(f"{SAMPLE.name} never finished loading")


def _save(app: RagdiagApp, out: Path, name: str) -> Path:
    path = out / name
    app.save_screenshot(filename=path.name, path=str(path.parent))
    return path


async def take_screenshots(out: Path, sample: Path = SAMPLE) -> list[Path]:
    """Write main.svg, lucky-answer.svg, statistics.svg and blind-reviewer.svg into `out`;
    return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    saved: list[Path] = []
    with tempfile.TemporaryDirectory() as work, contextlib.chdir(work):
        shutil.copy(sample, sample.name)
        app = create_app(sample.name, reviewer="docs")
        async with app.run_test(size=SIZE) as pilot:
            screen = await _loaded(pilot)
            saved.append(_save(app, out, "main.svg"))

            await pilot.press("L")  # the lucky-answers view; the cursor lands on the first one
            await pilot.pause()
            row = screen.table.cursor_row
            shown = None if row is None else screen.store.ids[row]
            if shown != LUCKY_RUN:
                raise RuntimeError(f"expected the cursor on {LUCKY_RUN} in the lucky view, found {shown}")
            saved.append(_save(app, out, "lucky-answer.svg"))

            await pilot.press("s")
            await pilot.pause()
            if not isinstance(app.screen, StatisticsScreen):
                raise RuntimeError(f"`s` opened {type(app.screen).__name__}, not the statistics")
            saved.append(_save(app, out, "statistics.svg"))
        saved.append(await _blind_reviewer(out, sample.name))
    return saved


BLIND_SPOT_CHECK = "lucky-9"


async def _blind_reviewer(out: Path, name: str) -> Path:
    """blind-reviewer.svg: bob's blind pass over the spot-check alice finished (in the copy)."""
    from ragdiag_tui.cli import main as cli
    from ragdiag_tui.core.review.state import open_review

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):  # the ids
        cli(["sample", name, "--view", "lucky", "-n", "9", "--seed", "20261130", "--reviewer", "alice"])
    review = open_review(name, reviewer="alice")
    for at, run_id in enumerate(review.spot_checks[BLIND_SPOT_CHECK].runs):
        review.set_label(review.store.row_of[run_id], at >= 6)  # six overturned, three held
    assert review.journal is not None
    review.journal.close()
    app = create_app(name, reviewer="bob", blind=True, spot_check=BLIND_SPOT_CHECK)
    async with app.run_test(size=SIZE) as pilot:
        screen = await _loaded(pilot)
        await pilot.press("n", "3")  # bob labels the first run; tags the second, still hidden
        await pilot.pause()
        if screen.spot_check != BLIND_SPOT_CHECK:
            raise RuntimeError(f"the blind reviewer's screen did not open {BLIND_SPOT_CHECK}")
        return _save(app, out, "blind-reviewer.svg")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"where to write the SVGs (default: {OUT})")
    args = parser.parse_args(argv)
    for path in asyncio.run(take_screenshots(args.out)):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
