"""The statistics screen's spot-check panel says a whole-population spot-check is exact (issue 39)."""

from __future__ import annotations

from pathlib import Path

from ragdiag_tui.core.analysis.spotcheck import spot_check_reports
from ragdiag_tui.core.review.state import open_review
from ragdiag_tui.core.review.tags import DEFAULT_TAGS
from ragdiag_tui.ui.widgets.spot_check_panel import SpotCheckPanel

from ..core.report_files import DEMO, draw, label

EXACT = "exact: every run of the population reviewed"


def test_the_statistics_panel_says_exact(tmp_path: Path) -> None:
    whole = tmp_path / "demo.jsonl"
    whole.write_bytes(DEMO.read_bytes())
    for at, run in enumerate(draw(whole, "lucky", 9)):
        label(whole, run, at >= 6, "ana", ["required-wrong"] if at < 2 else [])
    review = open_review(whole, reviewer="ana")
    panel = SpotCheckPanel(spot_check_reports(review, DEFAULT_TAGS), DEFAULT_TAGS, None)
    text = panel.text().plain
    assert EXACT in text and "CI" not in text
    assert "22% (exact)" in text
