"""The statistics screen shows a stratified spot-check's strata as a small aligned table: a
row per stratum (runs, sample, reviewed, overturned rate with its interval), the combined
row and the anytime-valid row, each on one line at 80 and 140 columns, figures in columns.

They were indented sentences, and a wrapped one lost its indent (ui/widgets/strata_table.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ragdiag_tui.core.analysis.spotcheck import spot_check_reports
from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.screens.statistics import StatisticsScreen
from ragdiag_tui.ui.widgets.spot_check_panel import SpotCheckPanel
from ragdiag_tui.ui.widgets.strata_table import rate_cell

from .helpers import burst, loaded, screen_text, wait_until

LONG = "[bold]a-model-whose-name-runs-on-and-on-and-on[/bold]"  # markup, and past the name column


def write_runs(folder: Path) -> Path:
    runs = [
        {"id": f"run-{n:03}", "required": ["D1"], "context": ["D1"], "correct": n % 3 > 0, "model": model}
        for n, model in enumerate(["small", LONG] * 30)
    ]
    path = folder / "runs.jsonl"
    path.write_text("".join(json.dumps(run) + "\n" for run in runs), encoding="utf-8")
    return path


def panel_lines(panel: SpotCheckPanel) -> list[str]:
    """The panel's lines as drawn at its width (wrapped where they wrap)."""
    return [panel.render_line(y).text.rstrip() for y in range(panel.size.height)]


def ends(row: str, rate: str) -> list[int]:
    """Where each number before the rate ends: its column (right-aligned under its heading)."""
    return [match.end() for match in re.finditer(r"\d[\d,]*", row[: row.rindex(rate)])]


@pytest.mark.parametrize("size", [(80, 24), (140, 40)])
async def test_the_strata_are_a_table_of_aligned_rows(tmp_path: Path, size: tuple[int, int]) -> None:
    path = write_runs(tmp_path)
    app = create_app(path, reviewer="tester")
    async with app.run_test(size=size) as pilot:
        screen = await loaded(pilot)
        burst(app, "D", *"20", "tab", *"0.3", "tab", *"model", "enter")
        await wait_until(pilot, lambda: screen.spot_check is not None, "the spot-check to open")
        await pilot.press("y", "n", "y", "y", "n", "y", "s")
        await wait_until(pilot, lambda: isinstance(app.screen, StatisticsScreen), "the statistics")
        panel = app.screen.query_one(SpotCheckPanel)
        await wait_until(pilot, lambda: panel.size.height > 0, "the panel drawn")
        lines = panel_lines(panel)
        (report,) = spot_check_reports(app.review_screen.review)
        header = next(line for line in lines if line.split()[:1] == ["stratum"])
        assert header.split() == ["stratum", "runs", "sample", "reviewed", "overturned,", "95%", "CI"]
        head_ends = [header.index(word) + len(word) for word in ("runs", "sample", "reviewed")]
        rows = lines[lines.index(header) + 1 :][:4]
        names = {LONG: LONG[:23] + "…", "small": "small"}  # cut with an ellipsis, shown as written
        expected = [(stratum, names[stratum.name]) for stratum in report.strata] + [(report, "combined")]
        assert len(expected) == 3
        for (figures, name), row in zip(expected, rows, strict=False):
            rate = rate_cell(figures.overturned_rate)
            assert row.startswith(f"  {name}  "), row
            numbers = [f"{figures.population:,}", f"{figures.in_file:,}", f"{figures.reviewed:,}"]
            assert row.split()[-5:] == [*numbers, *rate.split()], row
            assert ends(row, rate) == head_ends, row  # each figure under its heading
            assert row.index(rate) == header.index("overturned"), row
        anytime = rows[3]
        rate = rate_cell(report.overturned_rate_anytime)
        assert anytime.split() == ["anytime-valid", *rate.split()]
        assert anytime.index(rate) == header.index("overturned")
        # At 80x24 the table is below the fold: the screen's body scrolls by its keys.
        table = [header.strip(), *(row.strip() for row in rows)]
        for _ in range(len(lines)):
            if all(line in screen_text(app) for line in table):
                break
            await pilot.press("down")
        assert all(line in screen_text(app) for line in table), screen_text(app)
