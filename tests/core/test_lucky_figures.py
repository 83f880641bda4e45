"""One definition of a lucky answer per purpose, named where shown (issue 39): the lucky
answers in the file (by its labels: the population a spot-check is drawn from) and those
still lucky after review (by the labels in force), in `stats`, `stats --json`, the report
and the `L` view, where the overturned ones stay listed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.analysis.filtering import view_rows
from ragdiag_tui.core.analysis.lucky import is_overturned_lucky, lucky_in_file
from ragdiag_tui.core.review.state import open_review

from .report_files import page, reviewed_demo


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    code = main([str(arg) for arg in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_stats_gives_both_figures_by_name(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, _ = reviewed_demo(tmp_path)  # 9 lucky in the file; 3 of them overturned by both reviewers
    capsys.readouterr()
    _, out, _ = run(capsys, "stats", path, "--json")
    figures = json.loads(out)
    assert (figures["lucky_in_file"], figures["still_lucky"]) == (9, 6)
    assert "lucky_answers" not in figures  # the one name that meant two things is gone
    _, text, _ = run(capsys, "stats", path)
    flat = " ".join(text.split())
    assert "lucky answers in the file (its labels): 9" in flat
    assert "still lucky after review (labels in force): 6" in flat
    # The spot-check's population is the in-file figure, under the same name.
    assert figures["spot_checks"][0]["population"] == figures["lucky_in_file"]


def test_the_population_of_a_lucky_spot_check_is_the_in_file_figure(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, _ = reviewed_demo(tmp_path)
    capsys.readouterr()
    code, out, _ = run(capsys, "sample", path, "--view", "lucky", "-n", "100", "--seed", "1")
    assert code == 0
    assert len(out.split()) == 9


def test_the_lucky_view_keeps_the_overturned_ones_marked(tmp_path: Path) -> None:
    path, ids = reviewed_demo(tmp_path)
    review = open_review(path, reviewer="carla")
    rows = view_rows(review.store, review, "lucky")
    assert len(rows) == lucky_in_file(review) == 9
    overturned = [review.store.ids[row] for row in rows if is_overturned_lucky(review, row)]
    assert sorted(overturned) == sorted(ids[:3])
    assert review.lucky == 6


def test_the_report_names_both_figures_and_draws_no_lucky_bar(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, _ = reviewed_demo(tmp_path)
    html, md = tmp_path / "report.html", tmp_path / "report.md"
    assert run(capsys, "report", path, "-o", html)[0] == 0
    assert run(capsys, "report", path, "-o", md)[0] == 0
    written = page(html)
    data = written.data()["stats"]
    assert (data["lucky_in_file"], data["still_lucky"]) == (9, 6)
    text = " ".join("".join(written.text).split())
    assert "lucky answers in the file" in text and "still lucky after review" in text
    markdown = md.read_text(encoding="utf-8")
    assert "Lucky answers in the file**: 9" in markdown
    assert "Still lucky after review**: 6" in markdown
    # The stage chart has the five stages only: no sixth "lucky answers" bar overlapping them.
    charts = list(tmp_path.glob("*.svg"))
    stage_chart = next(chart for chart in charts if "stage" in chart.name)
    assert "lucky" not in stage_chart.read_text(encoding="utf-8")
    assert "lucky answers</text>" not in html.read_text(encoding="utf-8")
